"""Tables drawn in pixels -> table blocks, on text pages (pictures) and OCR'd pages (scans).

Runs after text extraction and page OCR. On pages that kept their text layer, each picture the
pixel gate takes for a ruled table (convert/ocr/pictures.py) is read by Tesseract, and a table
is built from its pixel rules and OCR words exactly as from drawn rules and text; a picture
whose grid gives no table adds its words as lines (a form, panels of text). On pages read by
OCR, the page's own pixel rules meet its OCR lines the same way (with_scanned_tables).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pymupdf

from chunkcli.convert.ocr.options import OcrEngine, OcrOptions
from chunkcli.convert.ocr.pictures import (
    PicturePages,
    PictureReading,
    lines_text,
    picture_language,
    read_picture,
    table_pictures,
)
from chunkcli.convert.tables import tables_from_rules
from chunkcli.convert.tables.rules import Rule
from chunkcli.model import (
    BBox,
    Block,
    BlockKind,
    Figure,
    Line,
    OcrInfo,
    Page,
    PageStatus,
    pages_text,
)

# A cell of a table read from a picture holds at most this many characters: DP-Bench's table
# picture has at most 40 a cell, the corpus' spreadsheet screenshot 12; a screenshot of a
# program's window (its panels make a grid) put a 330-character menu in one cell.
MAX_PICTURE_CELL_CHARS = 100
# A word reaching this far past a vertical rule on both sides runs across it (OCR boxes jitter
# by a pixel or two at 300 dpi: under 1 pt).
CROSSING_PT = 2.0


def with_table_pictures(
    doc: pymupdf.Document, pages: tuple[Page, ...], ocr: OcrOptions, count: PicturePages
) -> tuple[Page, ...]:
    """The pages, each picture of a table on a text page added as a table block (and the
    picture's other words, such as its title, as lines). A page whose pictures are read is
    `count`ed as a page read by OCR."""
    if ocr.engine != OcrEngine.TESSERACT:
        return pages
    lang: str | None = ""
    result = []
    for page in pages:
        if page.status != PageStatus.TEXT or page.ocr is not None:
            result.append(page)
            continue
        pdf_page = doc[page.number - 1]
        lines = [line for block in page.blocks for line in block.lines]
        regions = table_pictures(pdf_page, lines)
        if regions and lang == "":  # decided once, from the document's own text
            lang = picture_language(pages_text(pages), ocr)
        if not regions or lang is None:
            result.append(page)
            continue
        with count.reading(page.number):
            result.append(_with_pictures(pdf_page, page, regions, lang, ocr, count))
    return tuple(result)


def _with_pictures(
    pdf_page: pymupdf.Page,
    page: Page,
    regions: Sequence[BBox],
    lang: str,
    ocr: OcrOptions,
    count: PicturePages,
) -> Page:
    page_box = BBox(0.0, 0.0, page.width, page.height)
    added: list[Block] = []
    for region in regions:
        bounded = count.within_time(ocr)  # what is left of the file's time limit
        if bounded is None:
            break  # (extract/figures.py reads the picture no more and says so)
        reading = read_picture(pdf_page, region, lang, bounded, count.library(ocr))
        if reading is None:
            continue
        tables = _pixel_tables(reading.rules, reading.lines, page.number, page_box)
        if not tables:
            # A grid that makes no table (a chart's bars, a form, framed panels of text) is a
            # figure whose words the text layer lacks (retrieval-ja: a pasted notice whose
            # words answer questions); extract/figures.py gives it its caption.
            added.append(_figure_of(reading, region, page.number))
            continue
        added.extend(tables)
        added.extend(
            Block(BlockKind.PARAGRAPH, (line,), line.bbox, page.number)
            for line in reading.lines
            if not _inside(line, tables)
        )
    if not added:
        return page
    return dataclasses.replace(page, blocks=(*page.blocks, *added))


def _figure_of(reading: PictureReading, region: BBox, number: int) -> Block:
    words = lines_text(reading.lines)
    ocr = OcrInfo(reading.confidence, "tesseract", reading.lang)
    figure = Figure(region=region, words=words, ocr=ocr if words else None)
    return Block(BlockKind.FIGURE, (), region, number, figure=figure)


def with_scanned_tables(page: Page, rules: Sequence[Rule]) -> Page:
    """An OCR'd page whose ruled tables are pixels (a scan has no drawings): tables built from
    the rules OCR read in the page's pixels and its OCR lines, as for a picture."""
    if any(block.kind == BlockKind.TABLE for block in page.blocks):
        return page
    if not rules:
        return page
    lines = [line for block in page.blocks for line in block.lines]
    page_box = BBox(0.0, 0.0, page.width, page.height)
    tables = _pixel_tables(rules, lines, page.number, page_box)
    if not tables:
        return page
    kept = tuple(b for b in page.blocks if not _inside(b.lines[0], tables))
    return dataclasses.replace(page, blocks=(*kept, *tables))


def _pixel_tables(
    rules: Sequence[Rule], lines: Sequence[Line], number: int, page_box: BBox
) -> list[Block]:
    """Tables from rules read in pixels and OCR lines, without the grids that are no table:
    a cell longer than any table's (a screenshot's panels), or words running across an inner
    rule (frames of text panels)."""
    return [
        t
        for t in tables_from_rules(rules, lines, number, page_box)
        if _short_cells(t) and not _words_cross_rules(t, rules)
    ]


def _words_cross_rules(table: Block, rules: Sequence[Rule]) -> bool:
    """An OCR word runs across one of the table's inner vertical rules by more than
    CROSSING_PT on each side: the "rules" are the frames of text boxes (a poster's panels),
    whose lines the grid would cut mid-word, not the columns of a table."""
    box = table.bbox
    inner = [
        r.pos
        for r in rules
        if not r.horizontal and box.x0 + CROSSING_PT < r.pos < box.x1 - CROSSING_PT
        and r.start < box.bottom and box.top < r.end
    ]  # fmt: skip
    return any(
        span.bbox.x0 + CROSSING_PT < x < span.bbox.x1 - CROSSING_PT
        for line in table.lines
        for span in line.spans
        for x in inner
        if span.text.strip()
    )


def _short_cells(table: Block) -> bool:
    """Every cell at most MAX_PICTURE_CELL_CHARS long: a screenshot's panels read as a grid
    hold whole menus in one cell."""
    return all(len(cell) <= MAX_PICTURE_CELL_CHARS for row in table.cells for cell in row)


def _inside(line: Line, tables: Sequence[Block]) -> bool:
    x, y = line.bbox.center_x, line.bbox.center_y
    return any(t.bbox.contains_point(x, y, tolerance=1.0) for t in tables)
