"""Tables pasted as pictures on pages with a text layer: rules from pixels, words from OCR."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pymupdf
import pytest

from chunkcli.convert import ConvertOptions, convert_pdf
from chunkcli.convert.ocr.options import OcrMode, OcrOptions
from chunkcli.convert.tables.raster import looks_like_ruled_table, rules_in_pixels
from chunkcli.convert.tables.rules import Rule
from chunkcli.model import BlockKind

HEADER = ("Sample", "Buffer", "Volume")
ROWS = (("S1", "3 mL", "10 mL"), ("S2", "4 mL", "20 mL"), ("S3", "5 mL", "30 mL"))
PARAGRAPH = "The reagents are mixed as the table below shows before the samples are loaded."


def _draw_table(page: pymupdf.Page, x0: float, top: float, cell_w: float, cell_h: float) -> None:
    """HEADER over ROWS in a fully ruled grid, 12 pt text."""
    rows = (HEADER, *ROWS)
    for r in range(len(rows) + 1):
        page.draw_line((x0, top + r * cell_h), (x0 + 3 * cell_w, top + r * cell_h), width=1)
    for c in range(4):
        page.draw_line((x0 + c * cell_w, top), (x0 + c * cell_w, top + 4 * cell_h), width=1)
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            baseline = top + r * cell_h + cell_h * 0.68
            page.insert_text((x0 + c * cell_w + 8, baseline), text, fontsize=12)


def _table_png() -> bytes:
    """A ruled 3 x 4 table drawn on its own page and rendered to pixels at 200 dpi."""
    doc = pymupdf.open()
    page = doc.new_page(width=330, height=110)
    _draw_table(page, 15.0, 10.0, 100.0, 24.0)
    return bytes(page.get_pixmap(dpi=200).tobytes("png"))


def _report_with_table_picture() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    page.insert_text((72, 90), PARAGRAPH, fontsize=10)
    page.insert_image(pymupdf.Rect(72, 110, 402, 220), stream=_table_png())
    page.insert_text((72, 260), "The samples are then loaded into the wells.", fontsize=10)
    return bytes(doc.tobytes())


def test_a_table_pasted_as_a_picture_becomes_a_table_block() -> None:
    result = convert_pdf(_report_with_table_picture())
    [table] = [b for p in result.document.pages for b in p.blocks if b.kind == BlockKind.TABLE]
    assert table.cells == (HEADER, *ROWS)
    assert result.markdown.index(PARAGRAPH) < result.markdown.index("| Sample | Buffer | Volume |")


def test_no_picture_is_read_with_ocr_never() -> None:
    options = ConvertOptions(ocr=OcrOptions(mode=OcrMode.NEVER))
    result = convert_pdf(_report_with_table_picture(), options)
    assert "Sample" not in result.markdown
    assert PARAGRAPH in result.markdown


def test_rules_in_pixels_are_the_drawn_lines_in_page_points() -> None:
    gray = np.full((100, 200), 255, dtype=np.uint8)
    gray[10, 20:180] = 0  # a horizontal rule 160 px long
    gray[11, 20:180] = 0  # ... drawn two pixels thick
    gray[10:90, 20] = 0  # a vertical rule 80 px tall
    gray[50, 40:45] = 0  # a dash: too short to be a rule
    rules = rules_in_pixels(gray, (100.0, 200.0), 0.5)
    assert rules == (Rule(True, 205.25, 110.0, 190.0), Rule(False, 110.0, 205.0, 245.0))


@pytest.mark.parametrize(
    ("name", "draw"),
    [
        ("noise", lambda g, rng: g.__setitem__(slice(None), rng.integers(0, 256, g.shape))),
        ("chart grid with one axis", lambda g, rng: _chart(g)),
    ],
)
def test_pictures_that_are_no_ruled_table_fail_the_gate(name: str, draw: object) -> None:
    gray = np.full((150, 300), 255, dtype=np.uint8)
    draw(gray, np.random.default_rng(7))  # type: ignore[operator]
    assert not looks_like_ruled_table(gray, 0.72), name


def test_a_ruled_grid_passes_the_gate() -> None:
    gray = np.full((150, 300), 255, dtype=np.uint8)
    for y in (10, 50, 90, 130):
        gray[y, 10:290] = 0
    for x in (10, 150, 290):
        gray[10:131, x] = 0
    assert looks_like_ruled_table(gray, 0.72)


def _chart(gray: np.ndarray) -> None:
    for y in (10, 40, 70, 100, 130):
        gray[y, 20:290] = 0  # grid lines
    gray[10:131, 20] = 0  # the axis
    gray[100:130, 60:70] = 0  # a short bar


def _scanned_report() -> bytes:
    """A page that is only a picture (a scan): a paragraph over a ruled 3 x 4 table."""
    source = pymupdf.open()
    page = source.new_page(width=595, height=842)
    page.insert_text((72, 90), PARAGRAPH, fontsize=11)
    _draw_table(page, 72.0, 130.0, 120.0, 30.0)
    png = page.get_pixmap(dpi=200).tobytes("png")
    doc = pymupdf.open()
    doc.new_page(width=595, height=842).insert_image(pymupdf.Rect(0, 0, 595, 842), stream=png)
    return bytes(doc.tobytes())


def test_a_ruled_table_in_a_scan_is_read_from_its_pixels() -> None:
    result = convert_pdf(_scanned_report())
    [page] = result.document.pages
    assert page.ocr is not None
    [table] = [b for b in page.blocks if b.kind == BlockKind.TABLE]
    assert table.cells == (HEADER, *ROWS)
    assert PARAGRAPH in result.markdown


def test_a_picture_whose_grid_makes_no_table_still_gives_its_words() -> None:
    """Framed panels of text whose lines run across the inner rule (not a table's columns):
    no table, but the picture's words reach the Markdown as its lines."""
    sheet = pymupdf.open()
    page = sheet.new_page(width=420, height=140)
    for y in (10, 50, 90, 130):
        page.draw_line((10, y), (410, y), width=1)
    for x in (10, 110, 410):
        page.draw_line((x, 10), (x, 130), width=1)
    lines = ("Weekly notice to clinics", "Counts of infections rise", "Issued December 2020")
    for row, text in enumerate(lines):
        page.insert_text((40, 36 + row * 40), text, fontsize=14)  # across the rule at x=110
    png = page.get_pixmap(dpi=200).tobytes("png")
    doc = pymupdf.open()
    report = doc.new_page(width=595, height=842)
    report.insert_text((72, 90), PARAGRAPH, fontsize=10)
    report.insert_image(pymupdf.Rect(72, 110, 492, 250), stream=png)
    result = convert_pdf(doc.tobytes())
    words = " ".join(result.markdown.split())
    assert "Weekly notice to clinics" in words and "Issued December 2020" in words
    assert not [b for p in result.document.pages for b in p.blocks if b.kind == BlockKind.TABLE]


def test_pictures_are_read_by_the_library_as_the_program_reads_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """By default a picture is read by libtesseract's engines, not the program; a program
    of the caller's reads it: the same Markdown."""
    from chunkcli.convert.ocr import pictures
    from chunkcli.convert.ocr.tesslib import load_library
    from tests.test_ocr import logging_tesseract

    if load_library() is None:
        pytest.skip("libtesseract cannot be loaded here: pictures are read by the program")
    command, log = logging_tesseract(tmp_path)
    report = _report_with_table_picture()
    by_program = convert_pdf(report, ConvertOptions(ocr=OcrOptions(tesseract_cmd=command)))
    assert log.read_text().split() == ["1", "eng"]  # the picture, one thread
    programs: list[object] = []
    monkeypatch.setattr(pictures, "run_tesseract", lambda *args: programs.append(args))
    by_library = convert_pdf(report)
    assert programs == []
    assert by_library.markdown == by_program.markdown
    assert "| Sample | Buffer | Volume |" in by_library.markdown
