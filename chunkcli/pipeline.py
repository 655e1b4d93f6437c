"""The stages composed: read this first.

PDF -> pages of positioned text (extract) -> ordered, labelled blocks (layout) -> Markdown (render).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from chunkcli.extract import extract_document
from chunkcli.layout import layout_document
from chunkcli.model import ConvertResult
from chunkcli.render import render_markdown
from chunkcli.source import UNNAMED, PdfInput, open_pdf


@dataclass(frozen=True, slots=True)
class ConvertOptions:
    """Options that shape a conversion; the CLI's convert flags map one-to-one onto these."""

    pages: tuple[int, ...] | None = None  # 1-based physical pages; None = all
    password: str | None = None
    tables: bool = True  # detect tables (the expensive part)
    strip_furniture: bool = True  # drop running headers, footers, page numbers


def convert_pdf(
    pdf: PdfInput,
    options: ConvertOptions = ConvertOptions(),
    *,
    name: str | Path | None = None,
) -> ConvertResult:
    """Convert one PDF, a path, its bytes or a binary stream, into a ConvertResult (ordered
    document + GitHub-Flavored Markdown).

    `name` is the file the result and every error name (default: the path, or "<bytes>"):
    bytes fetched from object storage or a temporary copy keep their original path.
    Raises PdfOpenError for files that cannot be read (named in the message).
    """
    if name is None:
        name = pdf if isinstance(pdf, str | Path) else UNNAMED
    with open_pdf(pdf, options.password, name=name) as doc:
        document = extract_document(name, doc, options.pages, options.tables)
    document = layout_document(document, options.strip_furniture)
    return ConvertResult(document, render_markdown(document))
