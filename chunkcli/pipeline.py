"""The stages composed: read this first.

PDF -> pages of positioned text (extract) -> ordered, labelled blocks (layout) -> Markdown (render).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from chunkcli.extract import extract_document
from chunkcli.layout import layout_document
from chunkcli.model import ConvertResult
from chunkcli.ocr import OcrOptions
from chunkcli.render import render_markdown
from chunkcli.source import open_pdf


@dataclass(frozen=True, slots=True)
class ConvertOptions:
    """Options that shape a conversion; the CLI's convert flags map one-to-one onto these."""

    pages: tuple[int, ...] | None = None  # 1-based physical pages; None = all
    password: str | None = None
    tables: bool = True  # detect tables (the expensive part)
    strip_furniture: bool = True  # drop running headers, footers, page numbers
    ocr: OcrOptions = OcrOptions()  # which pages are read by OCR, and how


def convert_pdf(path: str | Path, options: ConvertOptions = ConvertOptions()) -> ConvertResult:
    """Convert one PDF into a ConvertResult (ordered document + GitHub-Flavored Markdown).

    Raises PdfOpenError for files that cannot be read (named in the message).
    """
    with open_pdf(path, options.password) as doc:
        document = extract_document(path, doc, options.pages, options.tables, options.ocr)
    document = layout_document(document, options.strip_furniture)
    return ConvertResult(document, render_markdown(document))
