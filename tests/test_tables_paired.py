"""Tables framed by a top and a bottom rule only (minimal booktabs), and ruled tables whose
cells carry shading inset from their borders."""

from __future__ import annotations

from collections.abc import Callable

import pymupdf

from chunkcli.convert.tables.cells import merge_header_rows
from tests.test_tables import PROSE, tables_of, two_column_prose

ROWS = (
    ("Mineral or colloid type", "CEC of pure colloid"),
    ("kaolinite", "10"),
    ("illite", "30"),
    ("montmorillonite/smectite", "100"),
    ("humus", "200"),
)


def paired_table(page: pymupdf.Page) -> None:
    """Rows 20 pt apart (wider than unruled detection's row gap) between two rules; the
    label of the fourth row runs close enough to its value to be one extracted span."""
    page.draw_line((60, 100), (260, 100), width=0.5)
    for index, (label, value) in enumerate(ROWS):
        y = 116 + 20 * index
        if label.startswith("montmorillonite"):
            page.insert_text((64, y), f"{label}    {value}", fontsize=9)
            continue
        page.insert_text((64, y), label, fontsize=9, fontname="hebo" if index == 0 else "helv")
        page.insert_text((185, y), value, fontsize=9, fontname="hebo" if index == 0 else "helv")
    page.draw_line((60, 210), (260, 210), width=0.5)


def test_text_between_a_top_and_a_bottom_rule_is_a_table() -> None:
    [table] = tables_of(paired_table)
    assert table.cells == ROWS


def test_prose_between_two_rules_is_not_a_table() -> None:
    def draw(page: pymupdf.Page) -> None:
        page.draw_line((72, 100), (523, 100), width=0.5)
        for i in range(6):
            page.insert_text((72, 120 + 14 * i), " ".join(PROSE[i * 8 : i * 8 + 8]), fontsize=10)
        page.draw_line((72, 210), (523, 210), width=0.5)

    assert tables_of(draw) == []


def test_two_columns_of_prose_between_page_rules_are_not_a_table() -> None:
    def draw(page: pymupdf.Page) -> None:
        page.draw_line((72, 70), (523, 70), width=0.5)
        two_column_prose(page)
        page.draw_line((72, 650), (523, 650), width=0.5)

    assert tables_of(draw) == []


BLANK_FORM = (
    ("Added cation", "Settling rate of floccules"),
    ("K+", ""),
    ("Na+", ""),
    ("Ca2+", ""),
    ("Check", ""),
)


def blank_form(header: str, body: tuple[str, ...]) -> Callable[[pymupdf.Page], None]:
    """A form to fill in between two rules: a bold header line written as one text run
    (one extracted span, its column gap made of spaces) over rows holding only a label."""

    def draw(page: pymupdf.Page) -> None:
        page.draw_line((60, 100), (300, 100), width=0.5)
        page.insert_text((64, 114), header, fontsize=8, fontname="hebo")
        for index, label in enumerate(body):
            page.insert_text((64, 130 + 16 * index), label, fontsize=8)
        page.draw_line((60, 130 + 16 * len(body)), (300, 130 + 16 * len(body)), width=0.5)

    return draw


def test_a_blank_form_s_columns_come_from_the_gap_in_its_header() -> None:
    # three spaces of Helvetica Bold: a 0.83 em gap, against 0.28 em between words
    header = "Added cation   Settling rate of floccules"
    [table] = tables_of(blank_form(header, tuple(row[0] for row in BLANK_FORM[1:])))
    assert table.cells == BLANK_FORM


def test_lines_across_a_header_gap_are_no_blank_form() -> None:
    body = ("K+ settles within the hour", "Na+ stays cloudy for days", "Check the jar")
    assert tables_of(blank_form("Added cation   Settling rate of floccules", body)) == []


def test_a_header_without_a_wide_gap_makes_no_blank_form() -> None:
    body = tuple(row[0] for row in BLANK_FORM[1:])
    assert tables_of(blank_form("Added cation and settling rate", body)) == []


def shaded_header_grid(page: pymupdf.Page) -> None:
    """A ruled table whose header lines are shaded inside the cell margin (5.5 pt in from
    each border, as Word shades a paragraph in a cell): the shading's edges are no borders."""
    xs, ys = (72, 172, 272, 372), (100, 140, 164, 188)
    for x in xs:
        page.draw_line((x, ys[0]), (x, ys[-1]), width=0.5)
    for y in ys:
        page.draw_line((xs[0], y), (xs[-1], y), width=0.5)
    for left, right in zip(xs, xs[1:], strict=False):
        for top in (101, 114, 127):
            page.draw_rect(pymupdf.Rect(left + 5.5, top, right - 5.5, top + 12.5), color=None,
                           fill=(0.9, 0.85, 0.6))  # fmt: skip
    header = (("Name", ""), ("Quantity", "in stock"), ("Unit price", "(euro)"))
    for column, (first, second) in enumerate(header):
        page.insert_text((xs[column] + 7, 111), first, fontsize=9, fontname="hebo")
        page.insert_text((xs[column] + 7, 124), second, fontsize=9, fontname="hebo")
    for row, values in enumerate((("Apple", "3", "1.20"), ("Pear", "10", "0.85"))):
        for column, value in enumerate(values):
            page.insert_text((xs[column] + 7, ys[row + 1] + 16), value, fontsize=9)


def test_shading_inset_in_header_cells_cuts_no_columns() -> None:
    [table] = tables_of(shaded_header_grid)
    assert table.cells == (
        ("Name", "Quantity in stock", "Unit price (euro)"),
        ("Apple", "3", "1.20"),
        ("Pear", "10", "0.85"),
    )


def shaded_header_unruled_body(page: pymupdf.Page) -> None:
    """Two-line header labels in shaded boxes (their sides are vertical rules 30 pt tall,
    crossing the text below the header's first line), numeric body rows with no rules."""
    xs = (54, 150, 300, 450)
    for left, right in zip(xs, xs[1:], strict=False):
        page.draw_rect(pymupdf.Rect(left, 128, right, 158), color=None, fill=(0.93, 0.93, 0.93))
    page.insert_text((58, 146), "Year", fontsize=9)  # centred on the two-line labels
    for column, (first, second) in enumerate((("Portfolio", "return"), ("New", "investment"))):
        page.insert_text((xs[column + 1] + 4, 140), first, fontsize=9)
        page.insert_text((xs[column + 1] + 4, 151), second, fontsize=9)
    for row, values in enumerate(
        (("2012", "10%", "7%"), ("2013", "6%", "8%"), ("2014", "7%", "5%"))
    ):
        for column, value in enumerate(values):
            page.insert_text((xs[column] + 4, 166 + 18 * row), value, fontsize=9)


def test_shaded_header_boxes_over_an_unruled_body_make_a_table() -> None:
    [table] = tables_of(shaded_header_unruled_body)
    assert table.cells == (
        ("Year", "Portfolio return", "New investment"),
        ("2012", "10%", "7%"),
        ("2013", "6%", "8%"),
        ("2014", "7%", "5%"),
    )


SPECIES = (
    ("Potosi Pupfish", "Cyprinodon alvarezi"),
    ("La Palma Pupfish", "Cyprinodon longidorsalis"),
    ("Butterfly Splitfin", "Ameca splendens"),
    ("Golden Skiffia", "Skiffia francesae"),
)


def title_bar_table(page: pymupdf.Page) -> None:
    """A filled title bar over two columns of names, closed by a bottom rule; the second
    column starts 5 pt after the longest label (narrower than a word gutter)."""
    page.draw_rect(pymupdf.Rect(57, 57, 228, 74), color=None, fill=(0.17, 0.2, 0.15))
    page.insert_text((60, 69), "Fish species on Red List", fontsize=8, color=(1, 1, 1))
    second = 60 + max(pymupdf.get_text_length(a, fontsize=8) for a, _ in SPECIES) + 5
    for row, (common, latin) in enumerate(SPECIES):
        page.insert_text((60, 86 + 16 * row), common, fontsize=8)
        page.insert_text((second, 86 + 16 * row), latin, fontsize=8)
    page.draw_line((57, 139), (228, 139), width=0.75)


def test_title_bar_and_bottom_rule_frame_a_table_with_a_tight_column() -> None:
    [table] = tables_of(title_bar_table)
    assert table.cells == (("Fish species on Red List", ""), *SPECIES)


def test_divided_boxes_are_no_title_bar() -> None:
    """A boxed row of a grid (vertical rules inside it) does not open a pair with a rule
    below: the rows under it stay to the detectors that own them."""

    def draw(page: pymupdf.Page) -> None:
        for x in (72, 200, 330):
            page.draw_line((x, 100), (x, 116), width=0.5)
        page.draw_line((72, 100), (330, 100), width=0.5)
        page.draw_line((72, 116), (330, 116), width=0.5)
        for i in range(4):
            page.insert_text((74, 130 + 14 * i), " ".join(PROSE[i * 6 : i * 6 + 6]), fontsize=9)
        page.draw_line((72, 190), (330, 190), width=0.5)

    assert tables_of(draw) == []


def wrapped_header_grid(page: pymupdf.Page) -> None:
    """A fully ruled table whose header labels wrap to three lines, the last year ranges,
    each line filling fewer columns than the one above (two columns have a line on each)."""
    xs, ys = (45, 126, 207, 288, 370), (117, 160, 175, 190, 205)
    for x in xs:
        page.draw_line((x, ys[0]), (x, ys[-1]), width=0.5)
    for y in ys:
        page.draw_line((xs[0], y), (xs[-1], y), width=0.5)
    header = (
        ("Government", "Position", ""),
        ("Seats", "", ""),
        ("Aquino", "Administration", "(1986-1992)"),
        ("Ramos", "Administration", "(1992-1998)"),
    )
    for column, lines in enumerate(header):
        for line, text in enumerate(lines):
            page.insert_text((xs[column] + 4, 130 + 11 * line), text, fontsize=8, fontname="hebo")
    body = (
        ("Senate", "24", "8.3", "16.7"),
        ("Cabinet", "20", "15.0", "5.0"),
        ("Governor", "73", "5.4", "5.4"),
    )
    for row, values in enumerate(body):
        for column, value in enumerate(values):
            page.insert_text((xs[column] + 4, ys[row + 1] + 11), value, fontsize=8)


def test_wrapped_labels_of_a_ruled_header_band_are_one_row() -> None:
    [table] = tables_of(wrapped_header_grid)
    assert table.cells == (
        (
            "Government Position",
            "Seats",
            "Aquino Administration (1986-1992)",
            "Ramos Administration (1992-1998)",
        ),
        ("Senate", "24", "8.3", "16.7"),
        ("Cabinet", "20", "15.0", "5.0"),
        ("Governor", "73", "5.4", "5.4"),
    )


def polygon_rules_grid(page: pymupdf.Page) -> None:
    """A table whose grid lines are filled thin quadrilaterals of four line segments (as
    spreadsheet exports draw them: the fourth closes the outline), never stroked."""
    xs, ys = (54, 74, 160, 260), (54, 74, 94, 114)
    shape = page.new_shape()
    for x in xs:
        shape.draw_polyline(
            [
                (x + 0.75, ys[0]),
                (x + 0.75, ys[-1]),
                (x, ys[-1] - 0.75),
                (x, ys[0] + 0.75),
                (x + 0.75, ys[0]),
            ]
        )
        shape.finish(color=None, fill=(0, 0, 0), closePath=False)
    for y in ys:
        shape.draw_polyline(
            [
                (xs[0], y),
                (xs[-1], y),
                (xs[-1] - 0.75, y + 0.75),
                (xs[0] + 0.75, y + 0.75),
                (xs[0], y),
            ]
        )
        shape.finish(color=None, fill=(0, 0, 0), closePath=False)
    shape.commit()
    rows = (("", "A", "B"), ("1", "time", "observed"), ("2", "0", "13"))
    for row, values in enumerate(rows):
        for column, value in enumerate(values):
            page.insert_text((xs[column] + 4, ys[row] + 14), value, fontsize=9)


def test_filled_thin_polygons_are_rules() -> None:
    [table] = tables_of(polygon_rules_grid)
    assert table.cells == (("", "A", "B"), ("1", "time", "observed"), ("2", "0", "13"))


def test_a_masthead_between_three_page_rules_is_not_a_table() -> None:
    def draw(page: pymupdf.Page) -> None:
        for y in (70, 190, 238):
            page.draw_line((50, y), (545, y), width=0.8)
        page.insert_text((60, 120), "Committee Minutes", fontsize=23)
        page.insert_text((420, 120), "No. 1", fontsize=16)
        page.insert_text((60, 210), "Date  7 May 2024", fontsize=10.5)
        page.insert_text((300, 210), "Place  Committee room", fontsize=10.5)
        page.insert_text((60, 226), "Chair  A. Member", fontsize=10.5)
        page.insert_text((300, 226), "Clerk  B. Member", fontsize=10.5)

    assert tables_of(draw) == []


def test_underlines_drawn_as_many_sided_polygons_are_no_rules() -> None:
    """Slide text underlined by filled outlines of eight segments: neither a grid nor a pair."""

    def draw(page: pymupdf.Page) -> None:
        shape = page.new_shape()
        for y in (143.4, 167.4, 191.4):
            xs = [250 + 25 * i for i in range(7)]
            points = [(x, y) for x in xs[:4]] + [(x, y + 1) for x in reversed(xs[:4])]
            shape.draw_polyline([*points, points[0]])
            shape.finish(color=None, fill=(0, 0, 0), closePath=False)
        shape.commit()
        for index, text in enumerate(("Credit checks", "for each user", "past records")):
            page.insert_text((252, 140 + 24 * index), text, fontsize=14)

    assert tables_of(draw) == []


def test_group_titles_repeated_over_their_columns_stay_a_row_of_their_own() -> None:
    """A producer that exports a span by repeating its title in each sub-column: the title
    row is not folded into the labels below (which would prefix every label with it)."""
    table = [
        ["", "Contour Farming", "Contour Farming", "Strip Cropping", "Strip Cropping"],
        ["Slope (%)", "Max Length (ft)", "P Value", "Strip Width (ft)", "P Value"],
        ["1 - 2", "400", "0.6", "130", "0.30"],
    ]
    assert merge_header_rows(table, lambda title, start, end: False) == table


def test_a_wrapped_label_over_a_full_row_is_still_folded() -> None:
    table = [["", "Unit", ""], ["Item", "price", "Qty"], ["Pear", "0.85", "10"]]
    assert merge_header_rows(table, lambda title, start, end: False) == [
        ["Item", "Unit price", "Qty"],
        ["Pear", "0.85", "10"],
    ]


def test_an_edge_between_two_fills_of_one_colour_is_no_rule() -> None:
    """A label cell shaded whole and again line by line, in the same colour: the line
    shading's inner edge is invisible and cuts no row."""

    def draw(page: pymupdf.Page) -> None:
        blue = (0.89, 0.96, 1.0)
        xs, ys = (100, 270, 440), (160, 200, 240, 270)
        for y0, y1 in zip(ys, ys[1:], strict=False):
            page.draw_rect(pymupdf.Rect(xs[0], y0, xs[1], y1), color=None, fill=blue)
        page.draw_rect(pymupdf.Rect(xs[0], 200, xs[1], 220), color=None, fill=blue)
        page.draw_rect(pymupdf.Rect(xs[0], 220, xs[1], 240), color=None, fill=blue)
        for y in ys:
            page.draw_line((xs[0], y), (xs[-1], y), color=(0.8, 0.8, 0.8), width=0.7)
        for x in xs:
            page.draw_line((x, ys[0]), (x, ys[-1]), color=(0.8, 0.8, 0.8), width=0.7)
        page.insert_text((104, 185), "Item", fontsize=11)
        page.insert_text((274, 185), "Count", fontsize=11)
        page.insert_text((104, 215), "chromosomes in parent", fontsize=11)
        page.insert_text((104, 231), "cells", fontsize=11)
        page.insert_text((104, 260), "divisions", fontsize=11)

    [table] = tables_of(draw)
    assert table.cells == (
        ("Item", "Count"),
        ("chromosomes in parent cells", ""),
        ("divisions", ""),
    )
