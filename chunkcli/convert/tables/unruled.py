"""Pieces with no rules around them -> tables found from column alignment alone.

Conservative by design: >= 3 consecutive rows that each break into >= 2 segments at wide gaps,
columns separated by gutters free of text in every row, cells short, and either a numeric
column or >= 3 columns. Two columns of prose fail every one of these tests.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from chunkcli.convert.tables.cells import MIN_GUTTER_PT, text_gutters
from chunkcli.convert.tables.text import Piece, group_rows, is_numeric
from chunkcli.model import BBox

# A horizontal gap of at least this many font sizes separates two cells of a row; a word
# space is ~0.25 em and a justified line stretches it to ~0.6 em at most.
MIN_COLUMN_GAP_EM = 1.0
# An unruled table has at least this many body rows that split into cells.
MIN_UNRULED_ROWS = 3
# Consecutive table rows are at most this many font sizes apart (baseline to top).
MAX_ROW_GAP_EM = 1.5
# Cells of prose are long: body cells beyond the first column have a median of at most this
# many characters, and the first column (row labels) at most MAX_LABEL_CHARS.
MAX_CELL_CHARS = 24
MAX_LABEL_CHARS = 40
# With only two columns, the second must be this numeric (share of cells that are numbers).
NUMERIC_COLUMN_FRACTION = 0.6
MIN_COLUMNS_WITHOUT_NUMBERS = 3
# A column is aligned when this share of its cells put a left, right or centre edge within
# ALIGN_TOLERANCE_EM font sizes of the column's median edge.
ALIGNED_FRACTION = 0.8
ALIGN_TOLERANCE_EM = 0.6
# A table of contents is not a table: its rows carry dot leaders between title and page.
DOT_LEADER = re.compile(r"(\.\s?){4,}|…{2,}|(·\s?){4,}")
# Columns of words are separated by gutters at least this many font sizes wide (the brief's
# "> 2 x the font size"); justified prose stretches word spaces to ~1 em, never 2.
WORD_GUTTER_EM = 2.0
# Header rows above an unruled body: at most this many, and each row's cells this short.
MAX_HEADER_ROWS = 3


@dataclass(frozen=True, slots=True)
class UnruledTable:
    """Visual rows (header rows first) and the column boundaries found for them."""

    rows: tuple[tuple[Piece, ...], ...]
    xs: tuple[float, ...]
    header_rows: int

    @property
    def bbox(self) -> BBox:
        return BBox.enclosing([p.bbox for row in self.rows for p in row])


def segments(row: Sequence[Piece]) -> list[list[Piece]]:
    """A visual row cut at gaps wider than MIN_COLUMN_GAP_EM."""
    parts: list[list[Piece]] = []
    for piece in row:
        if parts:
            last = parts[-1][-1]
            gap = piece.bbox.x0 - last.bbox.x1
            if gap < MIN_COLUMN_GAP_EM * max(piece.size, last.size):
                parts[-1].append(piece)
                continue
        parts.append([piece])
    return parts


def _splits(row: Sequence[Piece]) -> bool:
    """`segments(row)` would cut the row at least once (the first wide gap answers: no list of
    segments is made for every row of every page)."""
    for last, piece in zip(row, row[1:], strict=False):
        if not piece.bbox.x0 - last.bbox.x1 < MIN_COLUMN_GAP_EM * max(piece.size, last.size):
            return True
    return False


def find_unruled(pieces: Sequence[Piece]) -> list[UnruledTable]:
    """Unruled tables among pieces (pieces already in ruled tables must be left out)."""
    rows = group_rows(pieces)
    tables: list[UnruledTable] = []
    for start, end in _runs(rows):
        table = _table_of_run(rows, start, end)
        if table is not None:
            tables.append(table)
    return tables


def _runs(rows: list[list[Piece]]) -> list[tuple[int, int]]:
    """Index ranges [start, end) of consecutive, closely spaced rows with >= 2 segments."""
    runs: list[tuple[int, int]] = []
    start: int | None = None
    for index, row in enumerate(rows):
        split = _splits(row) and not DOT_LEADER.search(" ".join(p.text for p in row))
        if split and (start is None or _close(rows[index - 1], row)):
            start = index if start is None else start
            continue
        if start is not None and index - start >= MIN_UNRULED_ROWS:
            runs.append((start, index))
        start = index if split else None
    if start is not None and len(rows) - start >= MIN_UNRULED_ROWS:
        runs.append((start, len(rows)))
    return runs


def _close(upper: Sequence[Piece], lower: Sequence[Piece]) -> bool:
    size = max(p.size for p in (*upper, *lower))
    gap = min(p.bbox.top for p in lower) - max(p.bbox.bottom for p in upper)
    return gap <= MAX_ROW_GAP_EM * size


def _table_of_run(rows: list[list[Piece]], start: int, end: int) -> UnruledTable | None:
    body = rows[start:end]
    x0 = min(p.bbox.x0 for row in body for p in row)
    x1 = max(p.bbox.x1 for row in body for p in row)
    size = statistics.median(p.size for row in body for p in row)
    # Narrow gutters are trusted only between columns of numbers; words need wide ones, or
    # the stretched word spaces of justified prose would pass for columns.
    for min_width, numbers_required in ((MIN_GUTTER_PT, True), (size * WORD_GUTTER_EM, False)):
        xs = (x0, *text_gutters(body, x0, x1, 0, min_width), x1)
        if len(xs) >= 3 and _looks_tabular(body, xs, numbers_required):
            headers = _header_rows(rows[:start], body[0], xs)
            all_rows = (*headers, *body)
            return UnruledTable(tuple(tuple(r) for r in all_rows), xs, len(headers))
    return None


def _column_texts(
    body: Sequence[Sequence[Piece]], xs: Sequence[float]
) -> list[list[tuple[str, BBox]]]:
    columns: list[list[tuple[str, BBox]]] = [[] for _ in range(len(xs) - 1)]
    for row in body:
        for c in range(len(xs) - 1):
            members = [p for p in row if xs[c] <= p.bbox.center_x < xs[c + 1]]
            if members:
                text = " ".join(p.text.strip() for p in members)
                columns[c].append((text, BBox.enclosing([p.bbox for p in members])))
    return columns


def _looks_tabular(
    body: Sequence[Sequence[Piece]], xs: Sequence[float], numbers_required: bool
) -> bool:
    columns = _column_texts(body, xs)
    if any(not column for column in columns):
        return False
    size = statistics.median(p.size for row in body for p in row)
    for index, column in enumerate(columns):
        limit = MAX_LABEL_CHARS if index == 0 else MAX_CELL_CHARS
        if statistics.median(len(text) for text, _ in column) > limit:
            return False
        if not _aligned([box for _, box in column], ALIGN_TOLERANCE_EM * size):
            return False
    numeric = any(
        sum(is_numeric(text) for text, _ in column) >= NUMERIC_COLUMN_FRACTION * len(column)
        for column in columns[1:]
    )
    if numbers_required:
        return numeric
    return numeric or len(columns) >= MIN_COLUMNS_WITHOUT_NUMBERS


def _aligned(boxes: Sequence[BBox], tolerance: float) -> bool:
    for values in ([b.x0 for b in boxes], [b.x1 for b in boxes], [b.center_x for b in boxes]):
        middle = statistics.median(values)
        if sum(abs(v - middle) <= tolerance for v in values) >= ALIGNED_FRACTION * len(values):
            return True
    return False


def _header_rows(
    above: list[list[Piece]], first_body: Sequence[Piece], xs: Sequence[float]
) -> list[list[Piece]]:
    """Up to MAX_HEADER_ROWS short rows right above the body whose text stays inside the table."""
    headers: list[list[Piece]] = []
    below: Sequence[Piece] = first_body
    for row in reversed(above[-MAX_HEADER_ROWS:]):
        inside = (
            xs[0] - MIN_COLUMN_GAP_EM * row[0].size <= row[0].bbox.x0
            and row[-1].bbox.x1 <= xs[-1] + 2
        )
        short = all(
            len("".join(p.text for p in seg).strip()) <= MAX_LABEL_CHARS for seg in segments(row)
        )
        if not (inside and short and _close(row, below)):
            break
        headers.insert(0, row)
        below = row
    return headers
