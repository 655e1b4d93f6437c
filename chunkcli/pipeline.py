"""The stages composed: read this first.

PDF -> pages of positioned text (extract) -> ordered, labelled blocks (layout) -> Markdown (render).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from chunkcli.model import ConvertResult, Document, Page, PageStatus


@dataclass(frozen=True, slots=True)
class ConvertOptions:
    """Options that shape a conversion; the CLI's convert flags map one-to-one onto these."""

    pages: tuple[int, ...] | None = None  # 1-based physical pages; None = all
    password: str | None = None
    tables: bool = True  # detect tables (the expensive part)
    strip_furniture: bool = True  # drop running headers, footers, page numbers


def convert_pdf(path: str | Path, options: ConvertOptions = ConvertOptions()) -> ConvertResult:
    """Convert one PDF into a ConvertResult (ordered document + GitHub-Flavored Markdown).

    Raises PdfOpenError for files that cannot be read (named in the message).
    """
    # Temporary first cut while the layout stages are written: plain text per page.
    import pymupdf

    doc = pymupdf.open(str(path))
    pages: list[Page] = []
    parts: list[str] = []
    for index in range(doc.page_count):
        number = index + 1
        if options.pages is not None and number not in options.pages:
            continue
        page = doc[index]
        text = page.get_text().strip()
        status = PageStatus.TEXT if text else PageStatus.BLANK
        pages.append(Page(number, page.rect.width, page.rect.height, (), status))
        parts.append(f"<!-- page {number} -->\n\n{text}\n" if text else f"<!-- page {number}: blank -->\n")
    document = Document(str(path), tuple(pages), page_count=doc.page_count)
    return ConvertResult(document, "\n".join(parts))
