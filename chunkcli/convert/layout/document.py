"""A document's raw page blocks -> ordered, labelled blocks: the layout stage composed.

Stages, in order: running headers/footers -> tables continued at the top of a page without
their header -> reading order -> paragraphs -> tables merged
across pages -> sentences cut by page breaks completed -> headings.
"""

from __future__ import annotations

from dataclasses import replace

from chunkcli.convert.extract.bidi import has_rtl, is_rtl_text
from chunkcli.convert.layout.articles import attach_article_captions
from chunkcli.convert.layout.breaks import join_page_breaks
from chunkcli.convert.layout.furniture import strip_running_headers
from chunkcli.convert.layout.headings import label_headings
from chunkcli.convert.layout.order import order_blocks
from chunkcli.convert.layout.paragraphs import group_paragraphs
from chunkcli.convert.layout.settings import LayoutSettings
from chunkcli.convert.tables import merge_continued_tables
from chunkcli.convert.tables.continued import continue_tables
from chunkcli.model import BBox, Block, Document, Line, Page


def layout_document(
    document: Document,
    strip_furniture: bool = True,
    settings: LayoutSettings = LayoutSettings(),
) -> Document:
    """Order and label every page's blocks."""
    pages = document.pages
    if strip_furniture:
        pages = strip_running_headers(pages, document.context_pages, settings.furniture)
    pages = continue_tables(pages)
    pages = tuple(_order_page(page, settings) for page in pages)
    pages = merge_continued_tables(pages)
    pages = join_page_breaks(pages)
    labelled = label_headings(replace(document, pages=pages, context_pages=()))
    return replace(labelled, pages=attach_article_captions(labelled.pages))


def _order_page(page: Page, settings: LayoutSettings) -> Page:
    if not is_rtl_page(page):
        return replace(page, blocks=group_paragraphs(order_blocks(page.blocks, settings.order)))
    # A right-to-left page is read as its mirror image: columns right to left, the pieces of a
    # row right to left, indents and short last lines measured from the right edge.
    mirrored = mirror_blocks(page.blocks, page.width)
    ordered = group_paragraphs(order_blocks(mirrored, settings.order))
    return replace(page, blocks=mirror_blocks(ordered, page.width))


def is_rtl_page(page: Page) -> bool:
    """Most strong letters of the page's text are right-to-left ones (Arabic, Hebrew)."""
    # The page's text holds a right-to-left letter when one of its lines does: the lines are
    # asked one by one (an ASCII line is known at once), the text joined only for such a page.
    if not any(has_rtl(line.text) for block in page.blocks for line in block.lines):
        return False
    return is_rtl_text("".join(line.text for block in page.blocks for line in block.lines))


def mirror_blocks(blocks: tuple[Block, ...], width: float) -> tuple[Block, ...]:
    """`blocks` reflected left to right on a page `width` wide (twice: the blocks again)."""
    return tuple(
        replace(
            block,
            bbox=_mirror(block.bbox, width),
            lines=tuple(_mirror_line(line, width) for line in block.lines),
        )
        for block in blocks
    )


def _mirror_line(line: Line, width: float) -> Line:
    spans = tuple(replace(span, bbox=_mirror(span.bbox, width)) for span in line.spans)
    return Line(spans, _mirror(line.bbox, width), line.vertical)


def _mirror(box: BBox, width: float) -> BBox:
    return BBox(width - box.x1, box.top, width - box.x0, box.bottom)
