"""The body size of a document whose text is nearly all in tables is the tables' size."""

from __future__ import annotations

import pymupdf
from conftest import heading_lines

from chunkcli.convert import convert_pdf

TITLE = "Action Plan on Financial Crime"


def _table_document() -> bytes:
    """Two landscape pages: a 14 pt title (and the same title repeated as the next page's
    section label), each over a ruled table of 11 pt cells."""
    doc = pymupdf.open()
    for page_number in range(2):
        page = doc.new_page(width=842, height=595)
        label = TITLE if page_number == 0 else "Supervision of Institutions"
        page.insert_text((300, 60), label, fontsize=14)
        top, cell_h, widths = 90.0, 30.0, (60.0, 420.0, 120.0, 160.0)
        for row in range(12):
            y = top + row * cell_h
            page.draw_line((40, y), (800, y))
            x = 40.0
            for column, width in enumerate(widths):
                text = "Item" if row == 0 else f"Action {row}.{column} to be taken by the office"
                page.insert_text((x + 4, y + 18), text[: int(width / 6)], fontsize=11)
                x += width
        bottom = top + 12 * cell_h
        page.draw_line((40, bottom), (800, bottom))
        for x in (40, 100, 520, 640, 800):
            page.draw_line((x, top), (x, bottom))
    return bytes(doc.tobytes())


def test_a_title_over_tables_is_the_title_when_tables_hold_the_text() -> None:
    markdown = convert_pdf(_table_document()).markdown
    assert heading_lines(markdown)[0] == f"# {TITLE}"
