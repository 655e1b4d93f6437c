"""GFM tables -> Issues: a header row that is data or a running head; rows collapsed into one.

A header row names the columns every row is retrieved by: when convert takes the first data row
(or a "Page 44" line) as header, or crushes a whole table into one row of cells holding many
numbers each, the table still renders but answers nothing.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

from chunkcli.check.scan import Table
from chunkcli.check.wording import quote, where
from chunkcli.model import Issue, Severity

# A number token, for collapsed rows.
NUMBER_TOKEN = re.compile(r"[-+(]?[$€£¥]?\d[\d.,:/%)]*")
# What a cell holds, in the order tried. A period (a year, FY2023, Q1 2024, 2023/24, a fiscal
# year 2017年度 or 2023년도) names a column in finance and statistics tables ("| Item | 2022 |
# 2023 |" over amounts), so it is a type of its own: data only when the column below holds
# periods too.
MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
# A number (thousands grouped by commas, points or spaces), and a unit or short word after a
# value ("500kg", "12 mm", "100% 이상"): the value's type is what counts.
UNIT = r"(?:\s*[^\W\d_]{1,3}\.?)?"
# A comma may be followed by a space ("3, 620": OCR and some text layers space the groups).
NUMBER = r"(?:#|no\\.\\s*)?[-+(]?(?:\d{1,3}(?:(?:,\s?|[.\s])\d{3})+|\d+)(?:[.,]\d+)?\)?"
PERCENT = rf"[-+(]?\d[\d.,]*\s*%\)?{UNIT}"
CELL_TYPES = (
    ("period", re.compile(r"^(?:(?:fy|q[1-4]|h[12])\s*'?)?(?:19|20)\d{2}(?:\s*[/-]\s*\d{2,4})?"
                          r"(?:\s*(?:q[1-4]|h[12]))?(?:년도?|年度?)?$", re.I)),
    ("date", re.compile(
        # (a year, a month and a day that can be one: CAS numbers "7790-79-6" are codes)
        r"^(?:(?:1[89]|20)\d{2}[-./년年]\s*(?:0?[1-9]|1[0-2])[-./월月]\s*(?:0?[1-9]|[12]\d|3[01])"
        r"[일日]?\.?"
        r"|\d{1,2}[-./]\d{1,2}[-./]\d{2,4}"
        rf"|\d{{1,2}}\.?\s+{MONTH}\s+\d{{2,4}}|{MONTH}\s+\d{{1,2}},?\s+\d{{2,4}})$", re.I)),
    # (a range of two too: "40% 이상 ~ 70% 미만", a band in a scoring table; "28.6—95%")
    ("percent", re.compile(
        rf"^(?:{PERCENT}|{PERCENT}\s*[-–—~]\s*{PERCENT}|\d[\d.,]*\s*[-–—~]\s*{PERCENT})$")),
    ("amount", re.compile(  # (a range of two values too: "0.1-0.3")
        rf"^(?:[A-Z]{{3}}\s*|[$€£¥₩]\s*)?{NUMBER}(?:\s*[-–~]\s*{NUMBER})?{UNIT}$", re.I)),
    ("code", re.compile(  # part numbers, CAS and EC numbers: "AB-1234", "79-06-1"
        r"^(?=.*\d)[A-Za-z0-9]{1,7}(?:[-_/][A-Za-z0-9]{1,8})+$")),
)  # fmt: skip
# A header that is data: at least this share of its non-empty cells (and 2+) are of a data type
# and of the type most cells of their column below hold ("repeated types"): a real header names
# its columns in words, or in periods over amounts.
DATA_HEADER_SHARE = 0.6
DATA_HEADER_MIN_CELLS = 2
# The column below is read over this many body rows (enough to see its type) ...
TYPE_ROWS = 12
# ... and repeats the header cell's type when at least this share of its non-empty cells have it
# (columns hold subtotals, dashes and footnoted values too: "47,727" over a column of amounts
# half of which carry marks; the harness's data-header recall rose from 0.70 to the figure in
# bench/RESULTS.md, with no new clean false alarm).
REPEATED_TYPE_SHARE = 0.4
# A column with fewer non-empty cells than this below the header (a merged side header, a
# sparse notes column) says nothing of the header cell's type: it is neither evidence for nor
# against data, when another data cell is repeated by this many cells below (harness: a legal
# table's row "1 | １号 | | text" moved up over a column of "２号, ３号" and one of "項" and
# blanks; a form's two-row table "12 | Add lines 9 through 11 | | 12" over "13" alone, on the
# clean corpus, stays silent).
MIN_TYPED_BELOW = 2
# Collapsed rows: the only data row, with at least this share of its cells holding at least
# this many numbers each (a column's values joined into one cell).
COLLAPSED_NUMBERS_PER_CELL = 3
COLLAPSED_CELL_SHARE = 0.5
# ... and whose numbers make at least this share of its visible characters: a column's values
# joined are numbers with spaces between ("2019 2020 2021", "10 12 15"); a cell of legal prose
# cites articles and dates among its words ("제15조(2050 탄소중립녹색성장 위원회의 설치) ① ∼ ④
# (생 략)", "認定割賦販売協会（第35条の３の36～59）": the 3 clean alarms on ../shared/corpus,
# numbers 5-20 % of their characters).
COLLAPSED_NUMBER_SHARE = 0.5
RUNNING_HEAD = re.compile(r"^\s*(?:page|p\.|seite|pág\.?)\s*\d+\b", re.I)


def check_table_headers(table: Table) -> list[Issue]:
    return data_header(table) + running_head_header(table) + collapsed_rows(table)


# A value's footnote mark ("95%a", "(89.9—99.8)b") and a bracketed interval or count after it
# ("94.9% (89.9—99.8)", "5 (525)": a value with its confidence interval or its sample size, in
# scientific tables): the value's type is what counts (harness seeds 1-3: a row of such values
# moved up as header went unseen).
VALUE_NOTE = re.compile(r"(?<=[\d%)])[a-z†‡]$")
VALUE_INTERVAL = re.compile(r"(?<=[\d%])\s*\([\d.,\s\-–—~%]+\)$")


def cell_type(cell: str) -> str:
    """ "empty", "text", or the first of CELL_TYPES the cell matches."""
    text = " ".join(unicodedata.normalize("NFKC", cell).replace("*", "").split())
    text = VALUE_INTERVAL.sub("", VALUE_NOTE.sub("", text))
    if not text:
        return "empty"
    if not any(ch.isdigit() for ch in text):
        return "text"
    return next((name for name, pattern in CELL_TYPES if pattern.match(text)), "text")


def type_share(table: Table, column: int, wanted: str) -> float:
    """The share of the non-empty cells of `column` (first TYPE_ROWS body rows) of type
    `wanted`."""
    types = [
        cell_type(row.cells[column]) for row in table.rows[:TYPE_ROWS] if column < len(row.cells)
    ]
    counts = Counter(t for t in types if t != "empty")
    return counts[wanted] / sum(counts.values()) if counts else 0.0


NOT_DATA = ("empty", "text")


def typed_below(table: Table, column: int) -> int:
    """How many of the first TYPE_ROWS body cells of `column` are not empty."""
    return sum(
        1
        for row in table.rows[:TYPE_ROWS]
        if column < len(row.cells) and cell_type(row.cells[column]) != "empty"
    )


def _lone_years_as_numbers(
    typed: list[tuple[int, str]], header: tuple[str, ...]
) -> list[tuple[int, str]]:
    """A year names a column as one of a series ("| Item | 2022 | 2023 |"); the header's only
    period, when a bare number ("2024" beside "77,619.6"), is read as the number it is."""
    periods = [i for i, t in typed if t == "period"]
    if len(periods) != 1 or not header[periods[0]].strip().isdigit():
        return typed
    return [(i, "amount" if i == periods[0] else t) for i, t in typed]


def is_numbering(cells: list[str]) -> bool:
    """Column numbers as names: 1, 2, 3 ... or (1), (2) ... in sequence."""
    numbers = [re.sub(r"[()\[\].\s]", "", c) for c in cells]
    if len(numbers) < 2 or not all(n.isdigit() for n in numbers):
        return False
    values = [int(n) for n in numbers]
    return all(b == a + 1 for a, b in zip(values, values[1:], strict=False))


def data_header(table: Table) -> list[Issue]:
    if not table.rows:
        return []
    header = table.header.cells
    cells = [c for c in header if c.strip()]
    typed = [(i, cell_type(c)) for i, c in enumerate(header)]
    data = [(i, t) for i, t in _lone_years_as_numbers(typed, header) if t not in NOT_DATA]
    if len(data) < DATA_HEADER_MIN_CELLS or len(data) < DATA_HEADER_SHARE * len(cells):
        return []
    if is_numbering([header[i] for i, _ in data]):
        return []
    need = max(DATA_HEADER_MIN_CELLS, DATA_HEADER_SHARE * len(cells))
    repeated = [i for i, t in data if type_share(table, i, t) >= REPEATED_TYPE_SHARE]
    below = {i: typed_below(table, i) for i, _ in data}
    unread = [i for i, _ in data if below[i] < MIN_TYPED_BELOW]
    read = [i for i in repeated if below[i] >= MIN_TYPED_BELOW]
    if len(repeated) < need and not (read and len(repeated) + len(unread) >= need):
        return []
    return [
        issue(
            table,
            "table.data-header",
            f"header row {quote(' | '.join(cells))} is data (dates, amounts, codes) of the same "
            "types as the columns below it (the column names were lost?)",
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
    crowded = [c for c in cells if holds_many_numbers(c)]
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


def holds_many_numbers(cell: str) -> bool:
    """COLLAPSED_NUMBERS_PER_CELL+ numbers, making COLLAPSED_NUMBER_SHARE of the visible text."""
    numbers = NUMBER_TOKEN.findall(cell)
    if len(numbers) < COLLAPSED_NUMBERS_PER_CELL:
        return False
    visible = len(cell) - sum(ch.isspace() for ch in cell)
    return sum(map(len, numbers)) >= COLLAPSED_NUMBER_SHARE * visible


def issue(table: Table, code: str, what: str) -> Issue:
    return Issue(code, Severity.WARN, f"table at {where(table.line, table.page)}: {what}",
                 line=table.line, page=table.page)  # fmt: skip
