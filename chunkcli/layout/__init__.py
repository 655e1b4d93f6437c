"""Raw page blocks -> ordered, labelled blocks (pure: no PDF access here).

Stages, in order: running headers/footers -> reading order -> paragraphs -> tables merged
across pages -> headings.
"""

from __future__ import annotations

from dataclasses import replace

from chunkcli.layout.furniture import strip_running_headers
from chunkcli.layout.headings import label_headings
from chunkcli.layout.order import order_blocks
from chunkcli.layout.paragraphs import group_paragraphs
from chunkcli.layout_settings import LayoutSettings
from chunkcli.model import Document, Page
from chunkcli.tables import merge_continued_tables


def layout_document(
    document: Document,
    strip_furniture: bool = True,
    settings: LayoutSettings = LayoutSettings(),
) -> Document:
    """Order and label every page's blocks."""
    pages = document.pages
    if strip_furniture:
        pages = strip_running_headers(pages, document.context_pages, settings.furniture)
    pages = tuple(_order_page(page, settings) for page in pages)
    pages = merge_continued_tables(pages)
    return label_headings(replace(document, pages=pages, context_pages=()))


def _order_page(page: Page, settings: LayoutSettings) -> Page:
    return replace(page, blocks=group_paragraphs(order_blocks(page.blocks, settings.order)))
