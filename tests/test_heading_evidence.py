"""Evidence that decides headings: the body size, and lines of values that are no heading."""

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


def _report_with_chart_labels() -> bytes:
    """Headings and chart labels in one 14 pt type over 10 pt body text."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    y = 80.0
    lines = [
        ("Survey of Service Desks", 24),
        ("1 Method", 14),
        *[("The survey asked every office how its service desk answered requests.", 10)] * 4,
        ("2 Results", 14),
        ("Automated 42.2% 32.3% 74.5%", 14),  # a chart's row of values in large type
        ("Manual 45.3% 29.7% 75.0%", 14),
        ("0 20 40 60 80 100", 14),  # its axis
        ("Staff time 68.0", 14),
        *[("Most offices answered within a day, and few within the hour asked.", 10)] * 4,
        ("3 Outlook for 2025", 14),
        *[("The next survey will repeat the questions with the same offices.", 10)] * 4,
    ]
    for text, size in lines:
        page.insert_text((72, y), text, fontsize=size)
        y += size * 1.8
    return bytes(doc.tobytes())


def test_lines_of_chart_values_are_not_headings() -> None:
    markdown = convert_pdf(_report_with_chart_labels()).markdown
    assert heading_lines(markdown) == [
        "# Survey of Service Desks",
        "## 1 Method",
        "## 2 Results",
        "## 3 Outlook for 2025",
    ]


def _manual_with_contents() -> bytes:
    """Two contents pages (bold 12 pt chapter entries with their page numbers, sections with
    spaced dot leaders; only the first page says "Contents"), then the chapters themselves."""
    doc = pymupdf.open()
    for entries in (((1, "Introduction", 3), (2, "Installation", 5)), ((3, "Usage", 7),)):
        page = doc.new_page(width=595, height=842)
        y = 120.0
        if entries[0][0] == 1:
            page.insert_text((72, 80), "Contents", fontsize=24, fontname="hebo")
        for chapter, title, first in entries:
            page.insert_text((72, y), f"{chapter} {title} {first}", fontsize=12, fontname="hebo")
            y += 20
            for section in range(1, 4):
                leader = " ." * 30
                page.insert_text((90, y), f"{chapter}.{section} Part{leader} {first}", fontsize=10)
                y += 16
    for chapter, title in ((1, "Introduction"), (2, "Installation"), (3, "Usage")):
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 80), f"{chapter} {title}", fontsize=12, fontname="hebo")
        for row in range(6):
            text = "This chapter explains what the program does and how it is set up here."
            page.insert_text((72, 110 + row * 14), text, fontsize=10)
    return bytes(doc.tobytes())


def test_chapter_entries_on_a_contents_page_are_not_headings() -> None:
    markdown = convert_pdf(_manual_with_contents()).markdown
    assert heading_lines(markdown) == [
        "## Contents",
        "## 1 Introduction",
        "## 2 Installation",
        "## 3 Usage",
    ]


def _prose_among_small_print() -> bytes:
    """Pages of 6 pt fine print (most characters) under a 14 pt heading each, the first under
    the 22 pt title too, and among them a page of 11 pt prose with two short lines of its own
    set apart (an exchange's name each)."""
    doc = pymupdf.open()
    sentence = "The survey counts the shareholders of every listed company at the end of the year."
    for title in ("Owners by sector", "", "Trading by investor", "Holdings by value"):
        page = doc.new_page(width=595, height=842)
        if page.number == 0:
            page.insert_text((40, 40), "Survey of Share Ownership", fontsize=22)
        if not title:
            y = 80.0
            for block in (["Tokyo Stock Exchange"], [sentence] * 5, ["Osaka Exchange"],
                          [sentence] * 5):  # fmt: skip
                for text in block:
                    page.insert_text((72, y), text, fontsize=11)
                    y += 14
                y += 20
            continue
        page.insert_text((40, 70), title, fontsize=14)
        for row in range(90):
            text = f"Note {row}: the holdings of company {row} are counted by the number of "
            page.insert_text(
                (40, 100 + row * 8), text + "its shareholders at year end.", fontsize=6
            )
    return bytes(doc.tobytes())


def test_a_page_s_running_text_size_is_no_heading_size_in_a_document_of_smaller_type() -> None:
    """The 6 pt fine print makes the body 6 pt; the prose page's own 11 pt lines stay text."""
    markdown = convert_pdf(_prose_among_small_print()).markdown
    assert heading_lines(markdown) == [
        "# Survey of Share Ownership",
        "## Owners by sector",
        "## Trading by investor",
        "## Holdings by value",
    ]
