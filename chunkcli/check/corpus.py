"""Documents from the input layer -> DocumentReports, in input order.

`chunkcli.inputs` finds PDFs and Markdown under files and folders and converts the PDFs in
memory in worker processes (keeping each layout, which some checks read); this checks every
document it yields. A file that cannot be read or converted becomes a failing report naming
the reason, so one bad file does not hide the rest of the corpus.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from chunkcli.check.deep_tables import check_deep_tables
from chunkcli.check.options import CheckOptions
from chunkcli.check.report import DocumentReport, unreadable_report, with_more_issues
from chunkcli.check.rulings import check_table_rulings, table_blocks
from chunkcli.check.run import check_conversion, check_markdown
from chunkcli.files import STDIN
from chunkcli.model import InputDocument, InputFailure


def check_documents(
    documents: Iterable[InputDocument | InputFailure], options: CheckOptions
) -> Iterator[DocumentReport]:
    """One report per document, in the order given."""
    for document in documents:
        yield check_input(document, options)


def check_input(document: InputDocument | InputFailure, options: CheckOptions) -> DocumentReport:
    """One input's report: a failing one for a file that could not be read or converted.
    (The CLI runs this in the worker that converted the PDF: see read_inputs_through.)"""
    if isinstance(document, InputFailure):
        return unreadable_report(document.path, document.error)
    return check_document(document, options)


def check_document(document: InputDocument, options: CheckOptions) -> DocumentReport:
    """Check one document: a converted PDF by its layout too, and its tables against the PDF's
    ruling lines (when the PDF is a file that can be read again)."""
    if document.converted is None:
        return check_markdown(document.markdown, options, source=document.path)
    report = check_conversion(document.converted, options)
    if document.path == STDIN:
        return report
    rulings = check_table_rulings(document.path, document.converted.document)
    if options.deep:
        blocks = table_blocks(document.converted.document)
        rulings = rulings + check_deep_tables(document.path, blocks)
    return with_more_issues(report, rulings, options.strict)
