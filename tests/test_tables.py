"""Table detection on small generated PDFs, and the merge of tables across page breaks."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence

import pymupdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkcli.convert.extract.pages import page_lines
from chunkcli.convert.render import render_markdown
from chunkcli.convert.tables import TableOptions, detect_tables, merge_continued_tables
from chunkcli.convert.tables import detect as detect_module
from chunkcli.convert.tables.cells import header_row_count, spread_titles
from chunkcli.convert.tables.rules import Rule, rules_from_drawings
from chunkcli.convert.tables.text import join_text
from chunkcli.markdown_format import without_boxes
from chunkcli.model import BBox, Block, BlockKind, Document, Line, Page, Span

Draw = Callable[[pymupdf.Page], None]


def render(draw: Draw, width: float = 595, height: float = 842) -> pymupdf.Document:
    """A one-page PDF drawn by `draw`, saved and reopened as a reader would see it."""
    doc = pymupdf.open()
    page = doc.new_page(width=width, height=height)
    draw(page)
    doc.subset_fonts()
    return pymupdf.open("pdf", doc.tobytes())


def tables_of(draw: Draw, options: TableOptions = TableOptions()) -> list[Block]:
    doc = render(draw)
    page = doc[0]
    return detect_tables(page, page_lines(page), 1, options)


def ruled_grid(
    page: pymupdf.Page,
    rows: Sequence[Sequence[str]],
    x0: float = 72,
    top: float = 100,
    cell_w: float = 120.0,
) -> None:
    """A fully ruled table: one cell_w x 24 pt cell per string, the first row bold."""
    cell_h = 24.0
    n_rows, n_cols = len(rows), len(rows[0])
    for r in range(n_rows + 1):
        page.draw_line((x0, top + r * cell_h), (x0 + n_cols * cell_w, top + r * cell_h))
    for c in range(n_cols + 1):
        page.draw_line((x0 + c * cell_w, top), (x0 + c * cell_w, top + n_rows * cell_h))
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            font = "hebo" if r == 0 else "helv"
            point = (x0 + c * cell_w + 4, top + r * cell_h + 16)
            page.insert_text(point, text, fontname=font, fontsize=10)


HEADER = ("Name", "Qty", "Price")
BODY = (("Apple", "3", "1.20"), ("Pear", "10", "0.85"), ("Plum", "7", "2.05"))


def test_ruled_table_cells_exact_header_first() -> None:
    blocks = tables_of(lambda page: ruled_grid(page, (HEADER, *BODY)))
    assert len(blocks) == 1
    table = blocks[0]
    assert table.kind == BlockKind.TABLE
    assert table.cells == (HEADER, *BODY)
    assert table.page == 1
    assert table.bbox == pytest.approx(BBox(72, 100, 72 + 360, 100 + 96), abs=1.5)


def test_table_lines_are_exactly_the_lines_inside_its_box() -> None:
    def draw(page: pymupdf.Page) -> None:
        page.insert_text((72, 60), "A paragraph above the table.", fontname="helv", fontsize=10)
        ruled_grid(page, (HEADER, *BODY))
        page.insert_text((72, 240), "A paragraph below the table.", fontname="helv", fontsize=10)

    doc = render(draw)
    lines = page_lines(doc[0])
    [table] = detect_tables(doc[0], lines, 1)
    inside = [
        line
        for line in lines
        if table.bbox.contains_point(line.bbox.center_x, line.bbox.center_y, tolerance=1.0)
    ]
    assert list(table.lines) == inside
    assert len(inside) == 12
    assert "paragraph" not in " ".join(line.text for line in table.lines)


def test_pipe_in_a_cell_is_kept_raw() -> None:
    rows = (("Operator", "Meaning"), ("a | b", "either"), ("a & b", "both"))
    [table] = tables_of(lambda page: ruled_grid(page, rows))
    assert table.cells[1] == ("a | b", "either")


def test_two_line_cell_is_joined_with_one_space() -> None:
    def draw(page: pymupdf.Page) -> None:
        ruled_grid(page, (("Term", "Meaning"), ("", "short"), ("x", "y")))
        # a second, taller body cell: two lines in the first row's "Term" column
        page.insert_text((76, 130), "first", fontname="helv", fontsize=8)
        page.insert_text((76, 140), "second", fontname="helv", fontsize=8)

    [table] = tables_of(draw)
    assert table.cells[1] == ("first second", "short")


def test_cjk_cell_lines_join_without_a_space() -> None:
    font = pymupdf.Font("cjk")

    def draw(page: pymupdf.Page) -> None:
        ruled_grid(page, (("Year", "Note"), ("2023", ""), ("2022", "ok")))
        writer = pymupdf.TextWriter(page.rect)
        writer.append((196, 130), "偿还债务的能力", font=font, fontsize=8)
        writer.append((196, 140), "很强，违约风险很低", font=font, fontsize=8)
        writer.write_text(page)

    [table] = tables_of(draw)
    assert table.cells[1] == ("2023", "偿还债务的能力很强，违约风险很低")


def test_one_span_across_a_rule_is_cut_into_its_cells() -> None:
    """Extraction may run two cells into one span; drawn rules decide where they part."""
    font = pymupdf.Font("cjk")

    def draw(page: pymupdf.Page) -> None:
        ruled_grid(page, (("", "", "Price"), ("", "", "1.20"), ("", "", "0.85")))
        page.insert_text((76, 116), "Name", fontname="hebo", fontsize=10)
        page.insert_text((196, 116), "Qty", fontname="hebo", fontsize=10)
        page.insert_text((76, 140), "Apple                                   3", fontsize=10)
        writer = pymupdf.TextWriter(page.rect)  # "年份" + the next cell's first glyph "主"
        writer.append((170, 164), "年份主", font=font, fontsize=10)
        writer.write_text(page)

    [table] = tables_of(draw)
    assert table.cells[:2] == (("Name", "Qty", "Price"), ("Apple", "3", "1.20"))
    assert table.cells[2] == ("年份", "主", "0.85")


def unruled_numbers(page: pymupdf.Page, top: float = 120) -> None:
    """A financial-style table: labels left, numbers right-aligned, no rules at all."""
    page.insert_text((72, top), "Segment revenue for the year was as follows.", fontsize=10)
    header = ("2024", "2023", "2022")
    rows = (
        ("Compute", "1,204", "998", "87"),
        ("Networking", "315", "1,020", "406"),
        ("Services", "42", "37", "1,950"),
        ("Total", "1,561", "2,055", "2,443"),
    )
    right_edges = (330.0, 410.0, 490.0)
    y = top + 30
    for text, right in zip(header, right_edges, strict=True):
        page.insert_text(
            (right - pymupdf.get_text_length(text, "hebo", 10), y),
            text,
            fontname="hebo",
            fontsize=10,
        )
    for row in rows:
        y += 14
        page.insert_text((72, y), row[0], fontname="helv", fontsize=10)
        for text, right in zip(row[1:], right_edges, strict=True):
            page.insert_text(
                (right - pymupdf.get_text_length(text, "helv", 10), y),
                text,
                fontname="helv",
                fontsize=10,
            )


def test_unruled_numeric_table_is_detected() -> None:
    [table] = tables_of(unruled_numbers)
    assert table.cells == (
        ("", "2024", "2023", "2022"),
        ("Compute", "1,204", "998", "87"),
        ("Networking", "315", "1,020", "406"),
        ("Services", "42", "37", "1,950"),
        ("Total", "1,561", "2,055", "2,443"),
    )
    assert "Segment revenue" not in table.text


def test_unruled_money_columns_close_together_keep_their_columns() -> None:
    """Signs flush left, numbers flush right, columns only 6 pt apart (a 10-K statement)."""

    def draw(page: pymupdf.Page) -> None:
        rows = (
            ("Cost of revenue", "$", "178", "$", "141"),
            ("Research", "", "3,423", "", "2,532"),
            ("Sales", "", "1,136", "", "876"),
            ("Total", "$", "4,737", "$", "3,549"),
        )
        page.insert_text((300, 100), "2025", fontname="hebo", fontsize=8)
        page.insert_text((362, 100), "2024", fontname="hebo", fontsize=8)
        for i, (label, sign1, num1, sign2, num2) in enumerate(rows):
            y = 112 + 10 * i
            page.insert_text((72, y), label, fontsize=8)
            for sign, number, left, right in ((sign1, num1, 276, 330), (sign2, num2, 336, 392)):
                if sign:
                    page.insert_text((left, y), sign, fontsize=8)
                width = pymupdf.get_text_length(number, "helv", 8)
                page.insert_text((right - width, y), number, fontsize=8)

    [table] = tables_of(draw)
    assert table.cells == (
        ("", "2025", "2024"),
        ("Cost of revenue", "$ 178", "$ 141"),
        ("Research", "3,423", "2,532"),
        ("Sales", "1,136", "876"),
        ("Total", "$ 4,737", "$ 3,549"),
    )


def test_unruled_detection_can_be_switched_off() -> None:
    assert tables_of(unruled_numbers, TableOptions(unruled=False)) == []


PROSE = (
    "Tables are hard to find in a PDF because nothing in the file says where a table "
    "starts or ends; what looks like a grid to a reader is only text placed at positions "
    "and lines drawn between them. A converter therefore guesses, and every guess has a "
    "cost when it is wrong: prose cut into cells is far worse than a table left as text."
).split()


def two_column_prose(page: pymupdf.Page) -> None:
    """Two justified-looking columns of prose, 40 lines each, side by side."""
    for column_x in (72, 312):
        words = iter(PROSE * 20)
        for line_number in range(40):
            text = " ".join(next(words) for _ in range(7))
            page.insert_text((column_x, 80 + 14 * line_number), text, fontsize=9)


def test_two_column_prose_is_not_a_table() -> None:
    assert tables_of(two_column_prose) == []


def test_heading_with_a_rule_under_it_is_not_a_table() -> None:
    def draw(page: pymupdf.Page) -> None:
        page.insert_text((72, 90), "Results", fontname="hebo", fontsize=16)
        page.draw_line((72, 96), (523, 96), width=0.8)
        for i in range(6):
            page.insert_text((72, 120 + 14 * i), " ".join(PROSE[i * 8 : i * 8 + 8]), fontsize=10)

    assert tables_of(draw) == []


def test_booktabs_rules_with_aligned_text_make_a_table() -> None:
    def draw(page: pymupdf.Page) -> None:
        for y in (100, 122, 190):
            page.draw_line((100, y), (460, y), width=0.6)
        lines = (
            ("Model", "Params", "Score"),
            ("Base", "110M", "71.2"),
            ("Large", "340M", "75.9"),
            ("Huge", "1.3B", "78.4"),
        )
        for r, row in enumerate(lines):
            y = 115 + (0 if r == 0 else 8 + 16 * r)
            for c, text in enumerate(row):
                page.insert_text(
                    (106 + 130 * c, y), text, fontname="hebo" if r == 0 else "helv", fontsize=10
                )

    [table] = tables_of(draw)
    assert table.cells == (
        ("Model", "Params", "Score"),
        ("Base", "110M", "71.2"),
        ("Large", "340M", "75.9"),
        ("Huge", "1.3B", "78.4"),
    )


def test_rotated_page_rules_meet_the_rotated_text() -> None:
    """Drawings come in unrotated coordinates and text in rotated ones: they must agree."""
    doc = pymupdf.open()
    page = doc.new_page(width=595, height=842)
    ruled_grid(page, (HEADER, *BODY))
    page.set_rotation(90)
    doc = pymupdf.open("pdf", doc.tobytes())
    [table] = detect_tables(doc[0], page_lines(doc[0]), 1)
    assert doc[0].rotation == 90
    assert table.cells == (HEADER, *BODY)


def test_header_split_by_a_partial_rule_is_folded_into_one_row() -> None:
    def draw(page: pymupdf.Page) -> None:
        for y in (100, 150, 170):  # top, under the header, bottom
            page.draw_line((100, y), (460, y), width=0.6)
        page.draw_line((230, 122), (460, 122), width=0.4)  # only under "Score" (cmidrule)
        page.insert_text((106, 130), "Model", fontname="hebo", fontsize=10)
        page.insert_text((320, 115), "Score", fontname="hebo", fontsize=10)
        for text, x in (("dev", 240), ("test", 370)):
            page.insert_text((x, 140), text, fontname="hebo", fontsize=10)
        for text, x in (("Base", 106), ("71.2", 240), ("70.4", 370)):
            page.insert_text((x, 164), text, fontsize=10)

    [table] = tables_of(draw)
    assert table.cells == (("Model", "dev", "Score test"), ("Base", "71.2", "70.4"))


def test_bar_chart_value_labels_are_not_a_table() -> None:
    def draw(page: pymupdf.Page) -> None:
        heights = (40, 90, 65, 120, 30)
        for i, h in enumerate(heights):
            x = 100 + 50 * i
            page.draw_rect(pymupdf.Rect(x, 300 - h, x + 30, 300), color=None, fill=(0.2, 0.4, 0.8))
            page.insert_text((x + 8, 300 - h - 4), str(h), fontsize=8)
        page.draw_line((90, 300), (360, 300))

    assert tables_of(draw) == []


def test_table_of_contents_with_dot_leaders_is_not_a_table() -> None:
    def draw(page: pymupdf.Page) -> None:
        for i, title in enumerate(("Introduction", "Background", "Method", "Results", "Outlook")):
            y = 100 + 16 * i
            page.insert_text((72, y), f"{i + 1} {title}", fontsize=10)
            page.insert_text((200, y), " ".join("." * 30), fontsize=10)
            page.insert_text((480, y), str(3 + 7 * i), fontsize=10)

    assert tables_of(draw) == []


def test_boxed_header_joins_the_ruled_rows_below_it() -> None:
    """A shaded two-row header grid, one unruled body row, then rows between rules."""

    def draw(page: pymupdf.Page) -> None:
        page.draw_rect(pymupdf.Rect(72, 100, 432, 140), color=None, fill=(0.8, 0.9, 1.0))
        page.draw_line((72, 120), (432, 120), color=(1, 1, 1))  # invisible: white on blue
        for x in (192, 312):
            page.draw_line((x, 100), (x, 140), color=(0.2, 0.2, 0.2))
        page.draw_line((72, 120), (432, 120), color=(0.2, 0.2, 0.2))
        for y in (170, 200, 230):
            page.draw_line((72, y), (432, y), width=0.5)
        header = (("Name", "Qty", "Price"), ("", "(kg)", "(EUR)"))
        for r, row in enumerate(header):
            for c, text in enumerate(row):
                page.insert_text((76 + 120 * c, 114 + 20 * r), text, fontname="hebo", fontsize=10)
        for r, row in enumerate(BODY):
            for c, text in enumerate(row):
                page.insert_text((76 + 120 * c, 159 + 30 * r), text, fontsize=10)

    [table] = tables_of(draw)
    assert table.cells == (("Name", "Qty", "Price"), ("", "(kg)", "(EUR)"), *BODY)


def test_header_between_two_lone_rules_joins_the_grid_below() -> None:
    def draw(page: pymupdf.Page) -> None:
        for y in (60, 88):  # top rule and the rule under the header, nothing vertical
            page.draw_line((72, y), (432, y))
        for c, text in enumerate(HEADER):
            page.insert_text((76 + 120 * c, 78), text, fontname="hebo", fontsize=10)
        ruled_grid(page, BODY, top=100)

    [table] = tables_of(draw)
    assert table.cells == (HEADER, *BODY)
    assert table.bbox.top == pytest.approx(60, abs=1)


def test_table_of_contents_without_leaders_is_not_a_table() -> None:
    def draw(page: pymupdf.Page) -> None:
        entries = (
            ("Acknowledgements", "vi"),
            ("Introduction", "1"),
            ("Background", "5"),
            ("Method", "12"),
            ("Results", "20"),
        )
        for i, (title, number) in enumerate(entries):
            y = 100 + 16 * i
            page.insert_text((72, y), title, fontsize=10)
            width = pymupdf.get_text_length(number, "helv", 10)
            page.insert_text((480 - width, y), number, fontsize=10)

    assert tables_of(draw) == []


def test_row_groups_drawn_as_separate_grids_are_one_table() -> None:
    def draw(page: pymupdf.Page) -> None:
        ruled_grid(page, (HEADER, BODY[0]), top=100)  # rows 100-148
        page.insert_text((76, 156), "Stone fruit", fontname="hebo", fontsize=7)  # group title
        ruled_grid(page, (BODY[1], BODY[2]), top=160)  # 12 pt below: the same table

    [table] = tables_of(draw)
    assert table.cells == (HEADER, BODY[0], ("Stone fruit", "", ""), BODY[1], BODY[2])


def test_boxes_joined_by_connectors_are_a_diagram_not_a_table() -> None:
    def draw(page: pymupdf.Page) -> None:
        boxes = ((72, 100, "Buyer"), (252, 100, "Shop"), (432, 100, "Bank"), (252, 250, "Card"))
        for x, y, label in boxes:
            page.draw_rect(pymupdf.Rect(x, y, x + 60, y + 30))
            page.insert_text((x + 6, y + 19), label, fontsize=10)
        page.draw_line((132, 115), (252, 115))
        page.draw_line((312, 115), (432, 115))
        page.draw_line((282, 130), (282, 250))

    assert tables_of(draw) == []


LIST_ITEMS = (
    ("Competence areas",),
    ("#1: Recycle, reuse, reduce",),
    ("#2: Lifecycle of the circular economy",),
    ("#3: Social entrepreneurship",),
    ("#4: Environmental engagement",),
)


def test_one_ruled_column_of_boxed_items_is_a_one_column_table() -> None:
    [table] = tables_of(lambda page: ruled_grid(page, LIST_ITEMS, cell_w=300))
    assert table.cells == LIST_ITEMS


def test_one_ruled_column_of_three_boxes_is_a_frame_not_a_table() -> None:
    assert tables_of(lambda page: ruled_grid(page, LIST_ITEMS[:3], cell_w=300)) == []


def test_underlined_lines_without_side_rules_are_not_a_one_column_table() -> None:
    def draw(page: pymupdf.Page) -> None:
        for index, (text,) in enumerate(LIST_ITEMS):
            y = 100 + index * 14
            page.insert_text((72, y), text, fontsize=10)
            page.draw_line((72, y + 2), (372, y + 2))  # a link's underline

    assert tables_of(draw) == []


def test_one_ruled_column_of_paragraphs_is_not_a_table() -> None:
    sentence = "A paragraph boxed by the rules of a page frame runs well past any item. " * 2
    rows = tuple((sentence,) for _ in range(5))

    def draw(page: pymupdf.Page) -> None:
        ruled_grid(page, tuple((" ",) for _ in rows), cell_w=470)
        for index, (text,) in enumerate(rows):
            box = pymupdf.Rect(74, 100 + index * 24 + 2, 540, 100 + index * 24 + 23)
            page.insert_textbox(box, text, fontsize=6)

    assert tables_of(draw) == []


@pytest.fixture
def finder_calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[BBox]]:
    """Replace the expensive finder with a recorder that finds nothing."""
    calls: list[BBox] = []

    def fake_finder(page: pymupdf.Page, clip: BBox, pieces: object) -> tuple[()]:
        calls.append(clip)
        return ()

    monkeypatch.setattr(detect_module, "cells_from_finder", fake_finder)
    yield calls


def test_gate_skips_the_finder_on_a_page_without_drawings(finder_calls: list[BBox]) -> None:
    blocks = tables_of(unruled_numbers, TableOptions(finder=True))
    assert len(blocks) == 1
    assert finder_calls == []


def test_finder_runs_only_on_a_grid_our_construction_cannot_read(finder_calls: list[BBox]) -> None:
    def draw(page: pymupdf.Page) -> None:
        ruled_grid(page, (HEADER, *BODY))  # readable: no finder call
        for y in (400, 430, 460):  # a ruled grid with a single word in it: unreadable
            page.draw_line((72, y), (312, y))
        for x in (72, 192, 312):
            page.draw_line((x, 400), (x, 460))
        page.insert_text((80, 420), "lonely", fontsize=10)

    blocks = tables_of(draw, TableOptions(finder=True))
    assert [b.cells for b in blocks] == [(HEADER, *BODY)]
    assert len(finder_calls) == 1
    assert finder_calls[0] == pytest.approx(BBox(72, 400, 312, 460), abs=1.5)


# --- merge_continued_tables: pages and blocks built directly --------------------------------


def table(page: int, cells: Sequence[Sequence[str]], x0: float = 72, x1: float = 520) -> Block:
    line = Line((Span("x", BBox(x0, 100, x1, 110)),), BBox(x0, 100, x1, 110))
    return Block(
        BlockKind.TABLE,
        (line,),
        BBox(x0, 100, x1, 700),
        page,
        cells=tuple(tuple(row) for row in cells),
    )


def paragraph(
    page: int, text: str, top: float = 50, kind: BlockKind = BlockKind.PARAGRAPH
) -> Block:
    line = Line((Span(text, BBox(72, top, 300, top + 10)),), BBox(72, top, 300, top + 10))
    return Block(kind, (line,), line.bbox, page)


def page_of(number: int, *blocks: Block) -> Page:
    return Page(number, 595, 842, tuple(blocks))


def test_continued_table_with_repeated_header_stays_on_its_page() -> None:
    first = table(1, [HEADER, BODY[0], BODY[1]])
    second = table(2, [HEADER, BODY[2]])
    pages = (
        page_of(1, paragraph(1, "Intro"), first, paragraph(1, "12", 800, BlockKind.FURNITURE)),
        page_of(
            2,
            paragraph(2, "Running head", 20, BlockKind.FURNITURE),
            second,
            paragraph(2, "After the table", 720),
        ),
    )
    assert merge_continued_tables(pages) == pages


def test_continuation_without_header_gets_the_first_header() -> None:
    pages = (
        page_of(1, table(1, [HEADER, BODY[0]])),
        page_of(2, table(2, [BODY[1], BODY[2]], x0=73, x1=519)),
    )
    merged = merge_continued_tables(pages)
    assert merged[0] == pages[0]
    assert [b.cells for b in merged[1].blocks] == [(HEADER, BODY[1], BODY[2])]
    assert merged[1].blocks[0].page == 2


def test_table_over_three_pages_keeps_the_first_header_on_every_page() -> None:
    pages = (
        page_of(1, table(1, [HEADER, BODY[0]])),
        page_of(2, table(2, [BODY[1]], x0=74)),
        page_of(3, table(3, [BODY[2]], x1=516)),
    )
    merged = merge_continued_tables(pages)
    cells = [[b.cells for b in page.blocks] for page in merged]
    assert cells == [[(HEADER, BODY[0])], [(HEADER, BODY[1])], [(HEADER, BODY[2])]]


def test_a_running_head_row_above_a_repeated_header_is_never_the_header() -> None:
    running = ("page 44", "2.3", "")
    pages = (
        page_of(43, table(43, [HEADER, BODY[0]])),
        page_of(44, table(44, [running, HEADER, BODY[1]], x0=150)),
    )
    merged = merge_continued_tables(pages)
    assert [b.cells for b in merged[1].blocks] == [(HEADER, BODY[1])]


def test_a_continuation_takes_every_header_row_of_the_first_part() -> None:
    titles = ("Fruit", "Stock", "Stock")
    first = dataclasses.replace(table(1, [titles, HEADER, BODY[0]]), header_rows=2)
    pages = (page_of(1, first), page_of(2, table(2, [BODY[1]])))
    continued = merge_continued_tables(pages)[1].blocks[0]
    assert (continued.cells, continued.header_rows) == ((titles, HEADER, BODY[1]), 2)


def test_rows_of_a_continued_table_render_under_their_own_page() -> None:
    pages = (
        page_of(7, paragraph(7, "Intro"), table(7, [HEADER, BODY[0]])),
        page_of(8, table(8, [BODY[1]])),
        page_of(9, table(9, [BODY[2]]), paragraph(9, "After the table", 720)),
    )
    document = Document("x.pdf", merge_continued_tables(pages))
    row = "| " + " | ".join(HEADER) + " |\n| " + " | ".join(["---"] * len(HEADER)) + " |\n"
    expected = (
        "<!-- page 7 -->\n\nIntro\n\n"
        + row
        + _row(BODY[0])
        + "\n\n<!-- page 8 -->\n\n"
        + row
        + _row(BODY[1])
        + "\n\n<!-- page 9 -->\n\n"
        + row
        + _row(BODY[2])
        + "\n\nAfter the table\n"
    )
    assert without_boxes(render_markdown(document)) == expected


def _row(cells: Sequence[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def test_unrelated_tables_are_not_merged() -> None:
    other = table(2, [("Key", "Value"), ("a", "1")])
    moved = table(2, [BODY[1], BODY[2]], x0=200, x1=520)
    after_text = (
        page_of(1, table(1, [HEADER]), paragraph(1, "text")),
        page_of(2, table(2, [HEADER])),
    )
    for pages in (
        (page_of(1, table(1, [HEADER, BODY[0]])), page_of(2, other)),  # column count differs
        (page_of(1, table(1, [HEADER, BODY[0]])), page_of(2, moved)),  # edges differ, no header
        after_text,  # the first table is not the last block of its page
        (page_of(1, table(1, [HEADER])), page_of(3, table(3, [HEADER]))),  # pages not adjacent
    ):
        assert merge_continued_tables(pages) == pages


cell_text = st.text(st.sampled_from("ab1 中文"), max_size=4)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.lists(st.tuples(cell_text, cell_text), min_size=1, max_size=4), min_size=1, max_size=5
    )
)
def test_continuing_keeps_every_row_on_its_page(parts: list[list[tuple[str, str]]]) -> None:
    header = ("h1", "h2")
    pages = tuple(
        page_of(i + 1, table(i + 1, [*([header] if i == 0 else []), *rows]))
        for i, rows in enumerate(parts)
    )
    merged = merge_continued_tables(pages)
    assert [[b.cells for b in p.blocks] for p in merged] == [[(header, *rows)] for rows in parts]


@settings(max_examples=100, deadline=None)
@given(
    st.text(st.sampled_from("ab 中文\n"), max_size=8),
    st.text(st.sampled_from("ab 中文\n"), max_size=8),
)
def test_join_text_is_one_clean_line(left: str, right: str) -> None:
    joined = join_text(left, right)
    assert "\n" not in joined and "  " not in joined and joined == joined.strip()
    assert joined.replace(" ", "") == (left + right).replace(" ", "").replace("\n", "")


# --- rules from drawings: pure geometry ------------------------------------------------------


PAGE = BBox(0, 0, 600, 800)


def drawing(kind: str, *items: tuple[object, ...], color: object = (0, 0, 0)) -> dict[str, object]:
    return {"type": kind, "items": list(items), "color": color, "fill": color}


def test_thin_filled_rectangles_are_rules_and_pieces_join() -> None:
    rules = rules_from_drawings(
        [
            drawing("f", ("re", (100, 200, 250, 200.8), 1)),  # a hairline drawn as a rectangle
            drawing("f", ("re", (251, 200.5, 400, 201.2), 1)),  # its continuation, 1 pt later
            drawing("s", ("l", (300, 100), (300, 300))),  # a stroked vertical line
        ],
        PAGE,
    )
    assert sorted(rules, key=lambda r: r.horizontal) == [
        Rule(False, 300, 100, 300),
        Rule(True, pytest.approx(200.6, abs=0.3), 100, 400),
    ]


def test_invisible_and_page_border_drawings_are_not_rules() -> None:
    rules = rules_from_drawings(
        [
            drawing("s", ("l", (100, 300), (400, 300)), color=(1, 1, 1)),  # white on white
            drawing("s", ("re", (0, 0, 600, 800), 1)),  # the page border
            drawing("f", ("re", (10, 10, 590, 700), 1), color=(0.9, 0.9, 0.8)),  # a background
            drawing("s", ("l", (100, 100), (103, 100))),  # a tick, too short for a rule
        ],
        PAGE,
    )
    assert rules == ()


def test_shaded_cells_give_their_edges_as_rules() -> None:
    rules = rules_from_drawings([drawing("f", ("re", (100, 100, 200, 130), 1))], PAGE)
    assert {(r.horizontal, r.pos) for r in rules} == {
        (True, 100),
        (True, 130),
        (False, 100),
        (False, 200),
    }


# --- property: any fully ruled grid of short texts reads back exactly --------------------------

cell_word = st.text(st.sampled_from("abcXYZ019.-%"), min_size=1, max_size=6)
cell_value = st.builds(" ".join, st.lists(cell_word, min_size=1, max_size=2))


@settings(max_examples=25, deadline=None)
@given(
    st.integers(2, 4).flatmap(
        lambda width: st.lists(
            st.lists(cell_value, min_size=width, max_size=width), min_size=2, max_size=6
        )
    )
)
def test_ruled_grid_reads_back_its_cells(rows: list[list[str]]) -> None:
    [table] = tables_of(lambda page: ruled_grid(page, rows))
    assert table.cells == tuple(tuple(row) for row in rows)


def test_group_title_over_date_columns_is_a_header_row_of_its_own() -> None:
    """'Year Ended' centred over three date columns (a 10-K statement): repeated over them."""

    def draw(page: pymupdf.Page) -> None:
        right_edges = (330.0, 410.0, 490.0)

        def right_aligned(text: str, right: float, y: float, font: str = "helv") -> None:
            page.insert_text(
                (right - pymupdf.get_text_length(text, font, 9), y), text, fontname=font, fontsize=9
            )

        title_centre = 410.0 - 30.0  # centred on the middle column, cells 60 pt wide
        title_width = pymupdf.get_text_length("Year Ended", "hebo", 9)
        page.insert_text(
            (title_centre - title_width / 2, 100), "Year Ended", fontname="hebo", fontsize=9
        )
        dates = ("Jan 26, 2025", "Jan 28, 2024", "Jan 29, 2023")
        for text, right in zip(dates, right_edges, strict=True):
            right_aligned(text, right, 112, "hebo")
        rows = (("Cost", "178", "141", "138"), ("Research", "3,423", "2,532", "1,892"))
        rows += (("Sales", "1,136", "876", "680"), ("Total", "4,737", "3,549", "2,710"))
        for r, row in enumerate(rows):
            page.insert_text((72, 126 + 12 * r), row[0], fontsize=9)
            for text, right in zip(row[1:], right_edges, strict=True):
                right_aligned(text, right, 126 + 12 * r)

    [table] = tables_of(draw)
    assert table.cells[:3] == (
        ("", "Year Ended", "Year Ended", "Year Ended"),
        ("", "Jan 26, 2025", "Jan 28, 2024", "Jan 29, 2023"),
        ("Cost", "178", "141", "138"),
    )
    assert table.header_rows == 2


def test_boxed_totals_row_below_a_grid_joins_it() -> None:
    """A one-row box with the grid's dividers, drawn 3 pt under the grid (a totals row)."""

    def draw(page: pymupdf.Page) -> None:
        ruled_grid(page, (HEADER, *BODY))
        top, bottom = 100 + 4 * 24 + 3, 100 + 5 * 24 + 3
        for y in (top, bottom):
            page.draw_line((72, y), (432, y))
        for x in (72, 192, 312, 432):
            page.draw_line((x, top), (x, bottom))
        for c, text in enumerate(("Total", "20", "4.10")):
            page.insert_text((76 + 120 * c, top + 16), text, fontsize=10)

    [table] = tables_of(draw)
    assert table.cells == (HEADER, *BODY, ("Total", "20", "4.10"))


def test_one_boxed_row_alone_is_not_a_table() -> None:
    def draw(page: pymupdf.Page) -> None:
        page.draw_rect(pymupdf.Rect(72, 100, 432, 124))
        page.draw_line((192, 100), (192, 124))
        page.insert_text((76, 116), "Label", fontsize=10)
        page.insert_text((196, 116), "Value", fontsize=10)

    assert tables_of(draw) == []


def test_group_titles_in_a_ruled_header_band_become_a_header_row() -> None:
    """One header band holds group titles over the sub-column labels, no rule between them."""
    xs = (72, 192, 242, 292, 342, 392, 442, 492)
    ys = (60, 100, 124, 148)
    labels = ("Model", "p", "r", "f", "p", "r", "f")
    body = (
        ("Base", "0.1", "0.2", "0.3", "0.4", "0.5", "0.6"),
        ("Big", "0.7", "0.8", "0.9", "1.0", "1.1", "1.2"),
    )

    def draw(page: pymupdf.Page) -> None:
        for y in ys:
            page.draw_line((xs[0], y), (xs[-1], y))
        for x in xs:
            page.draw_line((x, ys[0]), (x, ys[-1]))
        for title, middle in (("Alpha", 2), ("Beta", 5)):
            centre = (xs[middle] + xs[middle + 1]) / 2
            width = pymupdf.get_text_length(title, "hebo", 9)
            page.insert_text((centre - width / 2, 74), title, fontname="hebo", fontsize=9)
        for row, y in ((labels, 94), *zip(body, (116, 140), strict=True)):
            for x, text in zip(xs, row, strict=False):
                page.insert_text((x + 4, y), text, fontsize=9)

    [table] = tables_of(draw)
    assert table.cells == (
        ("Model", "Alpha", "Alpha", "Alpha", "Beta", "Beta", "Beta"),
        labels,
        *body,
    )
    assert table.header_rows == 2
    markdown = render_markdown(Document("t.pdf", (Page(1, 600, 800, (table,)),)))
    assert "<!-- table: 2 header rows -->\n\n| Model | Alpha |" in markdown


@pytest.mark.parametrize(
    ("cells", "expected"),
    [
        # group titles over distinct labels: two header rows
        ((("", "A", "A", "B", "B"), ("x", "p", "r", "p", "r"), ("1", "2", "3", "4", "5")), 2),
        # no title repeated: one header row (the second row is body)
        ((("k", "A", "B"), ("x", "p", "r"), ("y", "q", "s")), 1),
        # numbers under the repeated title in a row its stub names: the first body row
        ((("k", "A", "A"), ("x", "1.5", "2.5"), ("y", "3", "4")), 1),
        # ... in a row naming nothing else (an empty corner, the stub's label again): years
        ((("", "A", "A"), ("", "2023", "2024"), ("y", "3", "4")), 2),
        ((("k", "A", "A"), ("k", "2023", "2024"), ("y", "3", "4")), 2),
        # a blank or a repeated cell under a title: not sub-column labels
        ((("k", "A", "A"), ("x", "p", ""), ("y", "q", "s")), 1),
        ((("k", "A", "A"), ("x", "p", "p"), ("y", "q", "s")), 1),
        # a sentence under a title: body text
        (
            (
                ("k", "A", "A"),
                ("x", "p", "a cell holding a whole sentence of body text"),
                ("y", "q", "s"),
            ),
            1,
        ),
        # too short to hold a body below both rows
        ((("k", "A", "A"), ("x", "p", "r")), 1),
    ],
)
def test_header_row_count_needs_group_titles_over_labels(
    cells: tuple[tuple[str, ...], ...], expected: int
) -> None:
    assert header_row_count(cells) == expected


def test_narrow_number_column_survives_group_rows_spanning_it() -> None:
    """A '#' column next to a label column; bold group rows start at '#' and run across."""
    rows = (
        ("#", "Level", "Score"),
        ("Chemistry", "", ""),
        ("1", "Easy", "0.87"),
        ("2", "Normal", "0.82"),
        ("Archaeology", "", ""),
        ("3", "Easy", "0.27"),
        ("4", "Normal", "0.72"),
    )

    def draw(page: pymupdf.Page) -> None:
        for r in range(len(rows) + 1):  # a rule under every row, none between columns
            page.draw_line((72, 90 + 14 * r), (300, 90 + 14 * r), width=0.5)
        for r, row in enumerate(rows):
            for x, text in zip((76, 100, 220), row, strict=True):
                page.insert_text((x, 100 + 14 * r), text, fontsize=9)

    [table] = tables_of(draw)
    assert table.cells[0] == ("#", "Level", "Score")
    assert table.cells[2] == ("1", "Easy", "0.87")
    assert "Chemistry" in table.cells[1]


def test_two_rows_of_boxed_cards_are_not_a_table() -> None:
    """Slide cards: two rows of two boxes side by side, each holding a title and a sentence."""

    def draw(page: pymupdf.Page) -> None:
        for top in (100, 190):
            page.draw_rect(pymupdf.Rect(72, top, 272, top + 80))
            page.draw_rect(pymupdf.Rect(272, top, 472, top + 80))
            for x in (80, 280):
                page.insert_text((x, top + 20), "Card title", fontname="hebo", fontsize=10)
                page.insert_text((x, top + 40), "One sentence about it.", fontsize=9)

    assert tables_of(draw) == []


def test_grid_whose_rows_hold_one_text_each_is_not_a_table() -> None:
    """Boxes of a flow drawn as a lattice: no row relates two texts."""
    rows = (("Apply", "", ""), ("", "Review", ""), ("", "", "Approve"))
    assert tables_of(lambda page: ruled_grid(page, rows)) == []


def test_sparse_lattice_with_scattered_labels_is_not_a_table() -> None:
    """A diagram on an 8 x 6 lattice: 9 labels (a fill of 0.19), no row half full."""
    rows = [["" for _ in range(6)] for _ in range(8)]
    for r, c in ((0, 0), (0, 3), (1, 1), (2, 4), (3, 2), (4, 5), (5, 0), (6, 3), (7, 1)):
        rows[r][c] = f"Box {r}{c}"
    assert tables_of(lambda page: ruled_grid(page, rows, x0=20, cell_w=80)) == []


def test_blank_form_with_a_full_header_is_still_a_table() -> None:
    rows = [["No", "Project", "Period", "Amount", "Client", "Note"]]
    rows += [[str(i), "", "", "", "", ""] for i in range(1, 7)]
    [table] = tables_of(lambda page: ruled_grid(page, rows, x0=20, cell_w=80))
    assert table.cells[0] == tuple(rows[0]) and len(table.cells) == 7


def test_three_boxes_with_connectors_are_a_diagram_not_a_table() -> None:
    """Boxes joined by connector lines draw ~half of their lattice (coverage 0.49) and the
    top row holds one label: a flow diagram."""

    def draw(page: pymupdf.Page) -> None:
        x, y = 100, 100
        for box in ((0, 0, 100, 40), (0, 80, 100, 120), (200, 80, 300, 120)):
            page.draw_rect(pymupdf.Rect(x + box[0], y + box[1], x + box[2], y + box[3]))
        page.draw_line((x + 100, y + 20), (x + 250, y + 20))  # A -> down to B
        page.draw_line((x + 250, y + 20), (x + 250, y + 80))
        page.draw_line((x + 50, y + 40), (x + 50, y + 80))  # A -> C
        for text, (tx, ty) in (("Apply", (10, 25)), ("Review", (10, 105)), ("Approve", (210, 105))):
            page.insert_text((x + tx, y + ty), text, fontsize=10)

    assert tables_of(draw) == []


def test_title_over_some_columns_is_not_spread_over_the_last() -> None:
    """'Applied' centred over four of five value columns; the fifth has its own label."""
    xs = (72, 152, 212, 272, 332, 392, 492)

    def draw(page: pymupdf.Page) -> None:
        for y in (60, 100, 124, 148):
            page.draw_line((xs[0], y), (xs[-1], y))
        for x in xs:
            page.draw_line((x, 60), (x, 148))
        width = pymupdf.get_text_length("Applied", "hebo", 9)
        page.insert_text(
            ((xs[1] + xs[5]) / 2 - width / 2, 74), "Applied", fontname="hebo", fontsize=9
        )
        labels = ("Item", "A", "B", "C", "D", "Why")
        for row, y in ((labels, 94), (("x", "1", "2", "3", "4", "none"), 116)):
            for x, text in zip(xs, row, strict=False):
                page.insert_text((x + 4, y), text, fontsize=9)
        for x, text in zip(xs, ("y", "5", "6", "7", "8", "some"), strict=False):
            page.insert_text((x + 4, 140), text, fontsize=9)

    [table] = tables_of(draw)
    assert table.cells[0][-1] == "Why"
    assert table.cells[1] == ("x", "1", "2", "3", "4", "none")


def test_aligned_labels_in_separate_boxes_are_not_an_unruled_table() -> None:
    """A slide: three rows of three boxes (not touching), one short label in each."""
    words = (
        ("Apply", "Review", "Approve"),
        ("Order", "Ship", "Invoice"),
        ("Pay", "Close", "Audit"),
    )

    def draw(page: pymupdf.Page) -> None:
        for r, row in enumerate(words):
            for c, text in enumerate(row):
                x, y = 72 + 160 * c, 100 + 24 * r
                page.draw_rect(pymupdf.Rect(x, y, x + 140, y + 20))
                page.insert_text((x + 6, y + 14), text, fontsize=10)

    assert tables_of(draw) == []
    without_rules = tables_of(draw, TableOptions(ruled=False))
    assert len(without_rules) == 1  # the same text alone reads as a table: the boxes decide


def ruled_columns_unruled_rows(page: pymupdf.Page, rows: Sequence[Sequence[str]]) -> None:
    """Vertical rules between columns, horizontal rules only above and below the header and
    at the bottom: the body rows are told apart by their baselines alone."""
    xs, top = (60.0, 180.0, 260.0, 470.0), 100.0
    bottom = top + 18 + len(rows) * 14 + 6
    for y in (top, top + 18, bottom):
        page.draw_line((xs[0], y), (xs[-1], y))
    for x in xs:
        page.draw_line((x, top), (x, bottom))
    for c, text in enumerate(("Item", "Qty", "Notes")):
        page.insert_text((xs[c] + 3, top + 13), text, fontname="hebo", fontsize=10)
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            page.insert_text((xs[c] + 3, top + 31 + r * 14), text, fontname="helv", fontsize=10)


def test_ruled_columns_with_unruled_rows_split_by_baselines_beside_long_notes() -> None:
    rows = [
        ("Bolt", "4", "zinc plated bolts for the outer frame"),
        ("Nut", "8", "stainless nuts for the outer frame"),
        ("Washer", "12", "nylon washers under every bolt head"),
        ("Pin", "2", "steel pins"),
    ]
    blocks = tables_of(lambda page: ruled_columns_unruled_rows(page, rows))
    assert [b.cells for b in blocks] == [(("Item", "Qty", "Notes"), *rows)]


def test_bottom_rule_on_a_shaded_panel_keeps_the_last_row() -> None:
    """Rules only (columns from the text, separators white), and the bottom rule drawn on the
    top edge of a shaded notes panel right below: the last row stays in the table (corpus:
    Korean card leaflet, row "온라인쇼핑몰" fell out)."""

    def draw(page: pymupdf.Page) -> None:
        for y, width in ((100, 0.5), (120, 0.25), (140, 0.25), (160, 0.25), (180, 0.5)):
            page.draw_line((72, y), (432, y), color=(0, 0.6, 0.9), width=width)
        page.draw_rect(pymupdf.Rect(72, 180, 432, 260), color=None, fill=(0.92, 0.92, 0.92))
        for r, row in enumerate((HEADER, *BODY)):
            for c, text in enumerate(row):
                page.insert_text((76 + 120 * c, 114 + 20 * r), text, fontsize=10)
        page.insert_text((80, 200), "Prices are given per kilogram and include VAT.", fontsize=9)

    [table] = tables_of(draw)
    assert table.cells == (HEADER, *BODY)


def spanned_title_grid(page: pymupdf.Page, title: Sequence[tuple[float, str, str]] = ()) -> None:
    """Columns 72|172|272|372; a title over the last two columns, drawn as two spans that
    meet at their boundary (a year in one font, its unit in another, as Japanese reports
    set "2011" and "年"), with the rule between the two columns only below the title row.
    `title`: other (x, text, font) spans for that row instead."""
    xs, ys = (72, 172, 272, 372), (100, 124, 148, 172, 196)
    for y in ys:
        page.draw_line((xs[0], y), (xs[-1], y))
    for x in xs:
        page.draw_line((x, ys[0] if x != 272 else ys[1]), (x, ys[-1]))
    year = pymupdf.get_text_length("Year ", "hebo", 10)
    for x, text, font in title or ((272 - year, "Year ", "hebo"), (272, "2011", "tiro")):
        page.insert_text((x, 116), text, fontname=font, fontsize=10)
    rows = (("Region", "Deposits", "Change"), ("North", "483", "+2%"), ("South", "411", "-1%"))
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            left = (xs[c] + xs[c + 1] - pymupdf.get_text_length(text, "helv", 10)) / 2
            page.insert_text((left, ys[r + 1] + 16), text, fontsize=10)


def test_title_drawn_across_columns_is_kept_whole_in_the_first_of_them() -> None:
    [table] = tables_of(spanned_title_grid)
    assert table.cells == (
        ("Region", "Year 2011 Deposits", "Change"),  # whole in its first column, folded
        ("North", "483", "+2%"),
        ("South", "411", "-1%"),
    )


def test_labels_set_apart_in_a_row_without_a_rule_are_not_one_title() -> None:
    labels = ((246, "Old", "hebo"), (280, "New", "hebo"))  # 15 pt apart: 1.5 em
    [table] = tables_of(lambda page: spanned_title_grid(page, labels))
    assert table.cells == (
        ("Region", "Old Deposits", "New Change"),  # each label folded onto the one below
        ("North", "483", "+2%"),
        ("South", "411", "-1%"),
    )


def test_a_title_across_two_ruled_columns_leaves_no_empty_column_beside_centred_values() -> None:
    """'Limit' drawn across two ruled columns (no rule between them in the header row), the
    values centred in the first, one merged cell in the second: three columns, no fourth made
    of the blank right part of the first and the title crossing it."""
    xs, ys = (72.0, 192.0, 312.0, 432.0), (100.0, 124.0, 148.0, 172.0, 196.0)

    def draw(page: pymupdf.Page) -> None:
        for y in ys:
            page.draw_line((xs[0], y), (xs[-1], y))
        for x in xs:
            page.draw_line((x, ys[0] if x != xs[2] else ys[1]), (x, ys[-1]))
        page.insert_text((76, 116), "Substance", fontname="hebo", fontsize=10)
        title = pymupdf.get_text_length("Limit", "hebo", 10)
        centre = (xs[1] + xs[3]) / 2  # on the header cell drawn across both columns
        page.insert_text((centre - title / 2, 116), "Limit", fontname="hebo", fontsize=10)
        for y, name in zip((140, 164, 188), ("Bromine", "Chlorine", "Iodine"), strict=True):
            page.insert_text((76, y), name, fontsize=10)
            page.insert_text((232, y), "900 ppm", fontsize=10)  # centred in 192-312
        page.insert_text((320, 164), "1500 ppm total", fontsize=10)

    [table] = tables_of(draw)
    assert table.cells == (
        ("Substance", "Limit", ""),
        ("Bromine", "900 ppm", ""),
        ("Chlorine", "900 ppm", "1500 ppm total"),
        ("Iodine", "900 ppm", ""),
    )


def test_a_long_table_title_over_columns_is_not_repeated_as_a_group_title() -> None:
    titles = ["", "", "Background checks by month and state - 2015", ""]
    below = ["State", "Permit", "Handgun", "Long Gun"]
    assert spread_titles(titles, below, lambda title, start, end: True) is None
    assert spread_titles(["", "", "Checks", ""], below, lambda t, s, e: True) == [
        "State",
        "Checks",
        "Checks",
        "Checks",
    ]
