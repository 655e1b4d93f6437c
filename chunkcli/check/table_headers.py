"""GFM tables -> Issues: a header row that is data or a running head; rows collapsed into one.

A header row names the columns every row is retrieved by: when convert takes the first data row
(or a "Page 44" line) as header, or crushes a whole table into one row of cells holding many
numbers each, the table still renders but answers nothing.
"""

from __future__ import annotations

import re

from chunkcli.check.scan import Table
from chunkcli.check.wording import quote, where
from chunkcli.model import Issue, Severity

# A data cell: a number, amount, percentage, date or code (digits with separators and symbols).
NUMBER_TOKEN = re.compile(r"[-+(]?[$€£¥]?\d[\d.,:/%)]*")
DATA_CELL = re.compile(r"^[-+(]?[$€£¥]?\d[\d\s.,:/%()\-+$€£¥]*[A-Za-z]{0,3}$")
RUNNING_HEAD = re.compile(r"^\s*(?:page|p\.|seite|pág\.?)\s*\d+\b", re.I)
# A header that is data: at least this share of its non-empty cells are data (and 2+ cells),
# and the first body row has the same shape (data where the header has data).
DATA_HEADER_SHARE = 0.6
DATA_HEADER_MIN_CELLS = 2
# Collapsed rows: the only data row, with at least this share of its cells holding at least
# this many numbers each (a column's values joined into one cell).
COLLAPSED_NUMBERS_PER_CELL = 3
COLLAPSED_CELL_SHARE = 0.5


def check_table_headers(table: Table) -> list[Issue]:
    return data_header(table) + running_head_header(table) + collapsed_rows(table)


def is_data(cell: str) -> bool:
    return bool(DATA_CELL.match(cell.strip()))


def data_header(table: Table) -> list[Issue]:
    cells = [c for c in table.header.cells if c.strip()]
    data = [c for c in cells if is_data(c)]
    if len(data) < DATA_HEADER_MIN_CELLS or len(data) < DATA_HEADER_SHARE * len(cells):
        return []
    if not table.rows:
        return []
    below = table.rows[0].cells
    same_shape = all(
        is_data(below[i]) for i, c in enumerate(table.header.cells) if is_data(c) and i < len(below)
    )
    if not same_shape:
        return []
    return [
        issue(
            table,
            "table.data-header",
            f"header row {quote(' | '.join(cells))} is data shaped like the rows below it "
            "(the column names were lost?)",
        )
    ]


def running_head_header(table: Table) -> list[Issue]:
    head = next((c for c in table.header.cells if RUNNING_HEAD.match(c)), None)
    if head is None:
        return []
    return [
        issue(
            table,
            "table.running-head-header",
            f"header cell {quote(head)} is a running head, not a column name",
        )
    ]


def collapsed_rows(table: Table) -> list[Issue]:
    if len(table.rows) != 1:
        return []
    cells = table.rows[0].cells
    crowded = [c for c in cells if len(NUMBER_TOKEN.findall(c)) >= COLLAPSED_NUMBERS_PER_CELL]
    if not cells or len(crowded) < max(2, COLLAPSED_CELL_SHARE * len(cells)):
        return []
    return [
        issue(
            table,
            "table.collapsed-rows",
            f"the only data row has {len(crowded)} of {len(cells)} cells holding "
            f"{COLLAPSED_NUMBERS_PER_CELL}+ numbers each, e.g. {quote(crowded[0], 40)}: "
            "rows collapsed into one?",
        )
    ]


def issue(table: Table, code: str, what: str) -> Issue:
    return Issue(code, Severity.WARN, f"table at {where(table.line, table.page)}: {what}",
                 line=table.line, page=table.page)  # fmt: skip
