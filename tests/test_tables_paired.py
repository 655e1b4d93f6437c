"""Tables framed by a top and a bottom rule only (minimal booktabs, no rule inside)."""

from __future__ import annotations

import pymupdf

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
