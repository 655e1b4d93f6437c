"""Paths -> DocumentReports: find PDFs and Markdown under files and folders, convert the PDFs in
memory (in worker processes, through `chunkcli.batch`), check every document, in input order.

A file that cannot be read or converted becomes a failing report naming the reason, so one bad
file does not hide the rest of the corpus.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

from chunkcli.check.options import CheckOptions
from chunkcli.check.report import DocumentReport, unreadable_report, with_more_issues
from chunkcli.errors import ChunkcliError, UsageError
from chunkcli.model import ConvertResult

PDF_SUFFIX = ".pdf"
MARKDOWN_SUFFIXES = (".md", ".markdown")


def is_pdf(path: Path) -> bool:
    """A PDF by name, or (for a file given by name) by its `%PDF` header."""
    if path.suffix.lower() == PDF_SUFFIX:
        return True
    if path.suffix.lower() in MARKDOWN_SUFFIXES:
        return False
    try:
        with path.open("rb") as handle:
            return handle.read(1024).lstrip().startswith(b"%PDF")
    except OSError:
        return False


def find_documents(inputs: Sequence[Path]) -> list[Path]:
    """Files given by name (any suffix), and PDFs and Markdown files found in folders, recursively.

    Folders are read in sorted order and hidden entries are skipped; other files in them (such as
    the chunks.jsonl that `split` writes) are ignored. Raises UsageError when nothing is found.
    """
    found: list[Path] = []
    for item in inputs:
        if not item.exists():
            raise UsageError(f"{item}: no such file or folder")
        if item.is_dir():
            found.extend(_walk(item))
        else:
            found.append(item)
    if not found:
        raise UsageError(f"no PDF or Markdown files in: {', '.join(str(i) for i in inputs)}")
    return list(dict.fromkeys(found))


def _walk(folder: Path) -> list[Path]:
    wanted = (PDF_SUFFIX, *MARKDOWN_SUFFIXES)
    return sorted(
        path
        for path in folder.rglob("*")
        if path.suffix.lower() in wanted
        and path.is_file()
        and not any(part.startswith(".") for part in path.relative_to(folder).parts)
    )


def check_markdown_file(path: Path, options: CheckOptions) -> DocumentReport:
    """Check one Markdown file; unreadable or non-UTF-8 files fail with the reason."""
    from chunkcli.check import check_markdown

    try:
        markdown = path.read_text(encoding="utf-8-sig")  # a byte-order mark is not text
    except UnicodeDecodeError:
        return unreadable_report(str(path), f"{path}: not UTF-8 text")
    except OSError as exc:
        return unreadable_report(str(path), f"{path}: cannot read ({exc.strerror or exc})")
    return check_markdown(markdown, options, source=str(path))


def check_converted(
    path: Path, result: ConvertResult | ChunkcliError, options: CheckOptions
) -> DocumentReport:
    """Check one conversion outcome, and its tables against the PDF's ruling lines; a
    conversion error fails the document with its message."""
    from chunkcli.check import check_conversion
    from chunkcli.check.rulings import check_table_rulings

    if isinstance(result, ChunkcliError):
        return unreadable_report(str(path), str(result))
    report = check_conversion(result, options)
    return with_more_issues(report, check_table_rulings(path, result.document), options.strict)


def check_paths(
    documents: Sequence[Path],
    options: CheckOptions,
    *,
    jobs: int | None = None,
    timeout_s: float | None = None,
) -> Iterator[DocumentReport]:
    """One report per document (from `find_documents`), in the given order.

    PDFs are converted in memory by `chunkcli.batch.iter_conversions`, in parallel workers, while
    Markdown files are checked in this process.
    """
    pdfs = [path for path in documents if is_pdf(path)]
    pdf_set = set(pdfs)
    conversions = _conversions(pdfs, jobs, timeout_s)
    for path in documents:
        if path in pdf_set:
            pdf, result = next(conversions)
            yield check_converted(pdf, result, options)
        else:
            yield check_markdown_file(path, options)


def _conversions(
    pdfs: list[Path], jobs: int | None, timeout_s: float | None
) -> Iterator[tuple[Path, ConvertResult | ChunkcliError]]:
    if not pdfs:
        return iter(())
    from chunkcli.batch import DEFAULT_TIMEOUT_S, iter_conversions
    from chunkcli.pipeline import ConvertOptions

    limit = DEFAULT_TIMEOUT_S if timeout_s is None else timeout_s
    return iter_conversions(pdfs, ConvertOptions(), jobs=jobs, timeout_s=limit)
