"""Figures on scanned pages: non-text ink found in the page image (ocr/figures.py), and the
OCR lines inside it kept as the figure's words (extract/scanned_figures.py)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from chunkcli import convert_pdf
from chunkcli.convert.extract.scanned_figures import with_scanned_figures
from chunkcli.convert.ocr.figures import InkCells, figure_regions, nontext_ink
from chunkcli.convert.ocr.options import ScanFigureSettings
from chunkcli.convert.ocr.tesseract import OcrWord, tesseract_version
from chunkcli.model import BBox, Block, BlockKind, Line, OcrInfo, Page, Span
from tests.pdf_factory import Item, Rect, Rule, Text, grid_table, make_pdf, wrapped_paragraph
from tests.scan_factory import scan_pdf

DPI = 100  # the sample figure_regions looks at (GATE_DPI): a pixel is 0.72 pt
SETTINGS = ScanFigureSettings()
FIGURE = re.compile(r"<!-- figure -->.*?<!-- /figure -->", re.DOTALL)


def page(height: int = 1169, width: int = 827) -> np.ndarray:
    return np.full((height, width), 255, dtype=np.uint8)


def ink(gray: np.ndarray, words: tuple[OcrWord, ...] = ()) -> InkCells:
    """The page's non-text ink, its words' boxes given in the same 100 dpi pixels."""
    return nontext_ink(gray, DPI, words, 72 / DPI, SETTINGS)


def word(left: int, top: int, width: int, height: int, text: str = "Sales") -> OcrWord:
    return OcrWord(text, left, top, width, height, 0.9, (1, 1, 1))


def bar_chart(gray: np.ndarray) -> None:
    """Four gray bars on an axis, from (100, 200) to (400, 400) in pixels."""
    gray[399:401, 100:400] = 0  # the axis
    for i, height in enumerate((60, 95, 120, 150)):
        left = 130 + 70 * i
        gray[400 - height : 400, left : left + 40] = 90


def test_a_bar_chart_is_one_figure_from_its_bars_to_its_axis() -> None:
    gray = page()
    bar_chart(gray)
    [region] = figure_regions(ink(gray), (), SETTINGS)
    # cells of 3 px (2.16 pt): from the axis' first cell to the last, the tallest bar's top
    assert (region.x0, region.top, region.x1, region.bottom) == pytest.approx(
        (99 // 3 * 2.16, 249 // 3 * 2.16, (399 // 3 + 1) * 2.16, (400 // 3 + 1) * 2.16)
    )


def test_a_word_read_on_the_axis_does_not_cut_the_chart_in_two() -> None:
    """Tesseract reads marks on an axis as a word ("「 -"): its box must not blank the axis
    (the long run stays ink), or each half holds too few bars."""
    gray = page()
    bar_chart(gray)
    gray[250:400, 130:400] = 255  # two bars left, at 130 and 200
    gray[250:400, 130:170] = 90
    gray[300:400, 340:380] = 90
    cut = (word(240, 390, 60, 20, "「"),)
    [region] = figure_regions(ink(gray, cut), (), SETTINGS)
    assert region.x0 < 100 * 0.72 and region.x1 > 399 * 0.72


def test_ruled_tables_frames_and_underlines_are_no_figures() -> None:
    gray = page()
    for y in range(100, 401, 50):  # a ruled table, 6 rows x 3 columns
        gray[y, 100:700] = 0
    for x in (100, 300, 500, 700):
        gray[100:401, x] = 0
    gray[500, 100:700] = 0  # an underline
    gray[600:800, 100] = gray[600:800, 700] = gray[600, 100:700] = gray[800, 100:700] = 0
    words = tuple(word(120 + 200 * c, 110 + 50 * r, 150, 30) for r in range(6) for c in range(3))
    assert figure_regions(ink(gray, words), (), SETTINGS) == ()


def test_a_dark_band_behind_a_heading_is_no_figure() -> None:
    gray = page()
    gray[100:140, 60:760] = 40  # 29 pt high: lower than a figure
    assert figure_regions(ink(gray, (word(80, 105, 300, 30),)), (), SETTINGS) == ()


def test_a_photo_is_a_figure_by_its_filled_share() -> None:
    gray = page()
    rng = np.random.default_rng(0)
    gray[300:600, 200:600] = rng.integers(0, 200, size=(300, 400))
    [region] = figure_regions(ink(gray), (), SETTINGS)
    assert (region.x0, region.x1) == pytest.approx((200 // 3 * 2.16, 600 // 3 * 2.16))


def test_a_table_beside_a_chart_is_left_out_of_it() -> None:
    """The table's box (a table block of the page) blanks its ink: its rules touching the
    chart's axis do not widen the figure."""
    gray = page()
    bar_chart(gray)
    for y in range(408, 600, 40):  # 5 pt under the axis: within the join gap
        gray[y, 100:700] = 0
    gray[408:569, 100] = gray[408:569, 700] = 0
    table = BBox(100 * 0.72, 408 * 0.72, 700 * 0.72, 568 * 0.72)
    [joined] = figure_regions(ink(gray), (), SETTINGS)
    [chart] = figure_regions(ink(gray), (table,), SETTINGS)
    assert joined.bottom > 568 * 0.72 and joined.x1 > 699 * 0.72
    alone = page()
    bar_chart(alone)
    assert (chart,) == figure_regions(ink(alone), (), SETTINGS)


SURVEY = (
    "The survey asked every member how often they used the library in the past year. Most "
    "answered that they came at least once a month, and a third came every week."
)


def survey_page() -> list[Item]:
    """A title, a paragraph, a bar chart with its values and years, a paragraph, a ruled
    table and a paragraph in a box."""
    chart: list[Item] = [Rule(110, 360, 410, 360, width=1.0), Rule(110, 200, 110, 360, width=1.0)]
    for i, (label, value) in enumerate([("2019", 60), ("2020", 95), ("2021", 120), ("2022", 140)]):
        left = 140 + i * 68
        chart.append(Rect(left, 360 - value, left + 36, 360, fill_gray=0.35))
        chart.append(Text(left + 4, 350 - value, str(value), size=9))
        chart.append(Text(left + 4, 375, label, size=9))
    rows = [["Visits", "2021", "2022"], ["Weekly", "310", "342"], ["Monthly", "520", "498"]]
    return [
        Text(72, 80, "Library Survey", size=20, bold=True),
        *wrapped_paragraph(72, 120, 440, SURVEY, 11),
        *chart,
        *wrapped_paragraph(72, 430, 440, SURVEY, 11),
        *grid_table(72, 520, [150, 100, 100], 22, rows),
        Rect(72, 640, 512, 700),
        *wrapped_paragraph(80, 655, 420, SURVEY, 11),
    ]


def test_a_scanned_bar_chart_is_a_figure_holding_its_labels(tmp_path: Path) -> None:
    assert tesseract_version("tesseract"), "Tesseract is missing: run `make ocr-deps`"
    original = make_pdf(tmp_path / "survey-text.pdf", [survey_page()])
    result = convert_pdf(scan_pdf(original, tmp_path / "survey.pdf"))
    markdown = result.markdown
    assert [ln for ln in markdown.splitlines() if ln.startswith("#")] == ["# Library Survey"]
    [figure] = FIGURE.findall(markdown)
    assert "<!-- figure words: ocr conf=" in figure
    words = figure.splitlines()
    assert "2019 2020 2021 2022" in words
    assert {"140", "120", "95"} <= set(words)
    outside = FIGURE.sub("", markdown)
    assert "2019 2020" not in outside and "\n140\n" not in outside
    assert "| Weekly | 310 | 342 |" in outside  # the ruled table stays a table
    assert outside.count("The survey asked every member") == 3  # the boxed paragraph too
    kinds = [b.kind for b in result.pages[0].blocks]
    assert kinds.count(BlockKind.FIGURE) == 1 and kinds.count(BlockKind.TABLE) == 1


def line(text: str, x0: float, top: float, size: float = 9.0) -> Line:
    box = BBox(x0, top, x0 + 0.5 * size * len(text), top + size)
    return Line((Span(text, box, font="ocr", size=size),), box)


def scanned_page(lines: list[Line]) -> Page:
    blocks = tuple(Block(BlockKind.PARAGRAPH, (ln,), ln.bbox, 1) for ln in lines)
    return Page(1, 595.0, 842.0, blocks)


OCR = OcrInfo(0.9, "tesseract", "eng")


def test_the_labels_in_a_charts_ink_become_its_words_and_leave_the_text() -> None:
    gray = page()
    bar_chart(gray)  # bars from x 94 to 288 pt, the tallest from 180 pt down to the axis at 288
    title = line("Members by year", 72, 100, 20)
    labels = [line("150", 290 * 0.72, 180), line("120", 240 * 0.72, 202), line("2019", 94, 292)]
    result = with_scanned_figures(scanned_page([title, *labels]), ink(gray), OCR, SETTINGS)
    [figure] = [b for b in result.blocks if b.kind == BlockKind.FIGURE]
    assert figure.figure is not None
    assert figure.figure.words == "150\n120\n2019"
    assert figure.figure.ocr == OCR
    assert [b.lines[0].text for b in result.blocks if b.kind == BlockKind.PARAGRAPH] == [
        "Members by year"
    ]


def test_one_line_in_a_figures_ink_is_no_figure() -> None:
    """A heading on a filled band beside a logo, or one line over a picture: a chart has
    labels (pdfminer-nlp2004slides: each slide title was taken from the headings)."""
    gray = page()
    bar_chart(gray)
    lone = line("Background", 150, 200, 24)
    page_in = scanned_page([lone])
    assert with_scanned_figures(page_in, ink(gray), OCR, SETTINGS) == page_in


def row(words: list[str], x0: float, top: float, gap: float, size: float = 9.0) -> Line:
    """One OCR line of words `gap` points apart."""
    spans, x = [], x0
    for text in words:
        box = BBox(x, top, x + 0.5 * size * len(text), top + size)
        spans.append(Span(text + " ", box, font="ocr", size=size))
        x = box.x1 + gap
    return Line(tuple(spans), BBox.enclosing([s.bbox for s in spans]))


def test_a_row_of_far_apart_words_beside_a_chart_is_its_labels_a_sentence_is_not() -> None:
    """Tesseract reads a bar chart's years as one line, longer than a label."""
    gray = page()
    bar_chart(gray)
    inside = [line("150", 290 * 0.72, 180), line("120", 240 * 0.72, 202)]
    years = row([str(year) for year in range(2016, 2024)], 40, 292, 20)  # 39 columns, 2.2 em
    sentence = row("the members came every week to read and to".split(), 80, 306, 2.5)
    result = with_scanned_figures(
        scanned_page([*inside, years, sentence]), ink(gray), OCR, SETTINGS
    )
    [figure] = [b for b in result.blocks if b.kind == BlockKind.FIGURE]
    assert figure.figure is not None
    assert figure.figure.words.splitlines()[-1] == "2016 2017 2018 2019 2020 2021 2022 2023"
    assert [b.lines[0] for b in result.blocks if b.kind == BlockKind.PARAGRAPH] == [sentence]


def test_a_scanned_figures_caption_moves_into_its_block_as_on_a_text_page() -> None:
    gray = page()
    bar_chart(gray)
    labels = [line("150", 290 * 0.72, 180), line("120", 240 * 0.72, 202)]
    caption = line("Figure 2: Members by year", 72, 310)
    result = with_scanned_figures(scanned_page([*labels, caption]), ink(gray), OCR, SETTINGS)
    [figure] = result.blocks
    assert figure.figure is not None
    assert (figure.figure.caption, figure.figure.words) == ("Figure 2: Members by year", "150\n120")
    assert figure.lines == (caption,)
