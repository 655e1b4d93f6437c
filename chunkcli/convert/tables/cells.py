"""Pieces + row and column boundaries -> a rectangular tuple of cell strings.

Shared by ruled grids, rule stacks and unruled tables: each finds boundaries its own way,
then `fill_cells` puts every piece into exactly one cell and `tidy_cells` cleans the result.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Callable, Sequence

from chunkcli.convert.tables.text import (
    Piece,
    cell_text,
    group_rows,
    is_numeric,
    join_texts,
    words_of,
)
from chunkcli.model import BBox

# A piece crosses a column boundary only when it reaches this far past it on both sides;
# less is kerning slop or padding touching a rule.
CROSS_PT = 2.0
# A run of text without spaces is cut at a rule only when it crosses one rule and its part on
# one side is at most this many font sizes wide (one glyph): a span that swallowed its
# neighbour's first glyph.
OVERHANG_EM = 1.2
# Minimum width of a text gutter (an x-range free of text in nearly every row) that separates
# columns: wider than a word space at table sizes (~2.5 pt at 9 pt), narrower than any real gap
# between numbers (the tightest we saw is 6 pt between "$ 178" and "$ 141").
MIN_GUTTER_PT = 4.0
# A band between two rules is cut into its visual rows when at least this many columns have
# text on every one of them (a table without rules between its body rows).
MIN_FULL_COLUMNS = 2
# A column "has text on every row" when it has text on this share of them (a long body may
# hold a wrapped label or a blank cell; with 4 rows or fewer it means every row).
FULL_COLUMN_SHARE = 0.8
# With fewer visual rows than this, the band is cut only when a full column holds numbers.
MIN_SUBROWS = 3

# A line covering this share of its column's width, with at least WRAP_MIN_CHARS characters,
# is a wrapped line of a paragraph cell (table values rarely fill their column twice).
WRAP_FILL_FRACTION = 0.7
WRAP_MIN_CHARS = 8
# ... and a column is a wrapped paragraph when at least this share of its lines (but the
# last) fill it; a long column of names fills its width only now and then.
WRAPPED_SHARE = 0.5

# A group title is centred on its columns' text: its centre lies within this share of their
# width from theirs (measured 0.00-0.01 on the corpus' group titles; one column off is 0.15+).
CENTRED_SHARE = 0.08

# Header cells are labels: a second row with a longer cell is a body row, never folded up.
MAX_HEADER_CELL_CHARS = 40

# A first-row cell drawn across several columns is one title only when its pieces are one
# phrase: one visual row whose gaps are under this many font sizes (a word space; "2011" and
# "年" are two spans 0 pt apart), so labels set apart in a header without rules stay apart.
PHRASE_GAP_EM = 1.0

Cells = tuple[tuple[str, ...], ...]
# (first, last) grid columns of one first-row cell drawn across them (no rule between).
ColumnSpan = tuple[int, int]
# (title column, first column, last column) -> is the title centred over those columns?
Centred = Callable[[int, int, int], bool]
RuleAt = Callable[[float, float], bool]  # (boundary x, row y) -> is a vertical rule drawn there?


def text_gutters(
    rows: Sequence[Sequence[Piece]],
    x0: float,
    x1: float,
    max_blocked: int,
    min_width: float = MIN_GUTTER_PT,
) -> list[float]:
    """Centres of x-ranges inside (x0, x1), at least `min_width` wide, that at most
    `max_blocked` rows cover with text."""
    events: list[tuple[float, int]] = []
    for row in rows:
        for start, end in covered_spans(row):
            events += [(start, 1), (end, -1)]
    if not events:
        return []
    events.sort()
    text_left, text_right = events[0][0], events[-1][0]
    gutters: list[float] = []
    depth, free_from = 0, text_left
    for x, step in events:
        was_free = depth <= max_blocked
        depth += step
        if was_free and depth > max_blocked:
            if x - free_from >= min_width and free_from > text_left:
                gutters.append((free_from + x) / 2)
        elif not was_free and depth <= max_blocked:
            free_from = x
    return [g for g in gutters if x0 < g < x1 and g < text_right]


def covered_spans(row: Sequence[Piece]) -> list[tuple[float, float]]:
    """The x-intervals a row's pieces cover, overlapping ones merged."""
    spans: list[tuple[float, float]] = []
    for start, end in sorted((p.bbox.x0, p.bbox.x1) for p in row):
        if spans and start <= spans[-1][1]:
            spans[-1] = (spans[-1][0], max(spans[-1][1], end))
        else:
            spans.append((start, end))
    return spans


def row_boundaries(
    pieces: Sequence[Piece],
    band_top: float,
    band_bottom: float,
    xs: Sequence[float],
    force: bool = False,
) -> list[float]:
    """Inner boundaries that cut one band into its visual rows (when they are table rows)."""
    rows = group_rows(pieces)
    if len(rows) < 2 or not (force or _band_holds_rows(rows, xs)):
        return []
    cuts: list[float] = []
    for upper, lower in zip(rows, rows[1:], strict=False):
        bottom = max(p.bbox.bottom for p in upper)
        top = min(p.bbox.top for p in lower)
        cuts.append((bottom + top) / 2 if top > bottom else top)
    return [c for c in cuts if band_top < c < band_bottom]


def _band_holds_rows(rows: list[list[Piece]], xs: Sequence[float]) -> bool:
    """True when the visual rows of a band are table rows rather than wrapped cell lines.

    Table rows fill at least two columns on every visual row; cells that wrap to different
    line counts (or sit vertically centred) leave every column with gaps.
    """
    columns_per_row = [{column_of(p, xs) for p in row} for row in rows]
    counts = Counter(column for columns in columns_per_row for column in columns)
    full_columns = {c for c, n in counts.items() if n >= FULL_COLUMN_SHARE * len(rows)}
    if len(full_columns) < MIN_FULL_COLUMNS:
        return False
    # Numbers do not wrap: a column with a number on every visual row makes each a table row,
    # even beside a column of long notes that looks like wrapped text (four ruled-column rows
    # "Bolt | 4 | zinc plated bolts for the outer frame" collapsed into one cell each).
    numbers = any(
        all(is_numeric(" ".join(p.text for p in row if column_of(p, xs) == column)) for row in rows)
        for column in full_columns
    )
    if numbers:
        return True
    return len(rows) >= MIN_SUBROWS and not _holds_wrapped_text(rows, xs)


def _holds_wrapped_text(rows: list[list[Piece]], xs: Sequence[float]) -> bool:
    """True when some column's lines mostly fill its width and go on: a wrapped paragraph.

    Table rows in a column are short and ragged; wrapped text runs to the column's edge.
    """
    for column in range(len(xs) - 1):
        width = xs[column + 1] - xs[column]
        lines = [[p for p in row if column_of(p, xs) == column] for row in rows]
        lines = [line for line in lines if line]
        full = [
            sum(p.bbox.width for p in line) >= WRAP_FILL_FRACTION * width
            and sum(len(p.text.strip()) for p in line) >= WRAP_MIN_CHARS
            and not is_numeric(" ".join(p.text for p in line))  # wide numbers, narrow column
            for line in lines[:-1]
        ]
        if sum(full) >= 2 and sum(full) >= WRAPPED_SHARE * len(full):
            return True
    return False


def column_of(piece: Piece, xs: Sequence[float]) -> int:
    return max(0, min(len(xs) - 2, bisect.bisect_right(xs, piece.bbox.center_x) - 1))


def fill_cells(
    pieces: Sequence[Piece], xs: Sequence[float], ys: Sequence[float], rule_at: RuleAt
) -> list[list[list[Piece]]]:
    """Each piece into the cell holding its centre; pieces cut by a drawn rule split into words."""
    grid: list[list[list[Piece]]] = [[[] for _ in range(len(xs) - 1)] for _ in range(len(ys) - 1)]
    for piece in pieces:
        row = max(0, min(len(ys) - 2, bisect.bisect_right(ys, piece.bbox.center_y) - 1))
        for part in _cut_at_rules(piece, xs, rule_at):
            grid[row][column_of(part, xs)].append(part)
    return grid


def _cut_at_rules(piece: Piece, xs: Sequence[float], rule_at: RuleAt) -> list[Piece]:
    y = piece.bbox.center_y
    crossed = [
        x
        for x in xs[1:-1]
        if piece.bbox.x0 + CROSS_PT < x < piece.bbox.x1 - CROSS_PT and rule_at(x, y)
    ]
    if not crossed:
        return [piece]
    if any(ch.isspace() for ch in piece.text.strip()):
        return words_of(piece)  # text of two cells that extraction ran together
    # One unbroken run (CJK has no spaces): cut it only where a neighbour's first glyphs
    # overhang the rule; a label running across a rule (diagrams) stays whole.
    x = crossed[0]
    if len(crossed) == 1 and min(x - piece.bbox.x0, piece.bbox.x1 - x) <= OVERHANG_EM * piece.size:
        return words_of(piece)
    return [piece]


def tidy_cells(
    grid: Sequence[Sequence[Sequence[Piece]]],
    header_rows: int = 1,
    xs: Sequence[float] = (),
    title_spans: Sequence[ColumnSpan] = (),
) -> Cells:
    """Cell strings with empty rows and columns dropped and a split header merged.

    The first `header_rows` grid rows are folded into one header row, column by column
    (a first row of group titles stays a row of its own: see spread_titles). `xs` are the
    ruled column boundaries, if any; `title_spans` the first-row cells drawn across columns.
    """
    if not grid:
        return ()
    texts = [[cell_text(cell) for cell in row] for row in grid]
    keep = [c for c in range(len(grid[0])) if any(row[c] for row in texts)]
    texts[0] = place_spanning_titles(grid[0], texts[0], title_spans, keep)
    kept = [[row[c] for c in keep] for row in grid]
    table = [[row[c] for c in keep] for row in texts]
    filled = [i for i, row in enumerate(table) if any(row)]
    if not filled:
        return ()
    spans = [(xs[c], xs[c + 1]) for c in keep] if xs else []
    centred = centring_test(kept[filled[0]], kept[filled[0] + 1 :], spans)
    if header_rows > 1:
        header = [row for row in table[:header_rows] if any(row)]
        table = [*_header_of(header, centred), *table[header_rows:]]
    table = [row for row in table if any(row)]
    if header_rows > 1:
        return tuple(tuple(row) for row in table)
    return tuple(tuple(row) for row in merge_header_rows(table, centred))


def place_spanning_titles(
    row: Sequence[Sequence[Piece]],
    texts: list[str],
    spans: Sequence[ColumnSpan],
    keep: Sequence[int],
) -> list[str]:
    """The first row's texts with each title drawn across columns whole in the first of them.

    A title spanning columns ("2011 年" over two, "2021 年" over four) has its pieces'
    centres in different columns ("2011" left of the rule below, "年" right of it); cut
    there, each column would hold a fragment. Whole in its first (kept) column and the
    others empty, it reads as a spanned cell does when a table is flattened, and a short
    header stays short (repeated over four columns, a long title outweighed the rows in
    BM25 and pushed small chunks over their limit). Only a title that is one phrase
    (PHRASE_GAP_EM) and a label (short, with a letter: not a chart's value labels) is moved.
    """
    placed = list(texts)
    for first, last in spans:
        pieces = [p for cell in row[first : last + 1] for p in cell]
        title = cell_text(pieces)
        label = len(title) <= MAX_HEADER_CELL_CHARS and any(c.isalpha() for c in title)
        columns = [c for c in range(first, last + 1) if c in keep]
        if title and label and columns and _one_phrase(pieces):
            placed[first : last + 1] = [""] * (last - first + 1)
            placed[columns[0]] = title
    return placed


def _one_phrase(pieces: Sequence[Piece]) -> bool:
    rows = group_rows(pieces)
    if len(rows) != 1:
        return False
    row = rows[0]
    return all(
        b.bbox.x0 - a.bbox.x1 < PHRASE_GAP_EM * a.size for a, b in zip(row, row[1:], strict=False)
    )


def _fold(rows: Sequence[Sequence[str]]) -> list[str]:
    return [join_texts(column) for column in zip(*rows, strict=True)]


def _header_of(rows: Sequence[Sequence[str]], centred: Centred) -> list[list[str]]:
    """Header rows folded into one, except a first row of group titles over the rest's
    sub-columns: that row stays a row of its own, each title repeated over its columns."""
    if len(rows) < 2:
        return [list(row) for row in rows]
    below = _fold(rows[1:])
    spread = spread_titles(rows[0], below, centred)
    if spread is not None:
        return [spread, below]
    return [_fold(rows)]


def centring_test(
    title_row: Sequence[Sequence[Piece]],
    rows_below: Sequence[Sequence[Sequence[Piece]]],
    spans: Sequence[tuple[float, float]] = (),
) -> Centred:
    """Whether the title in column `index` is centred (within CENTRED_SHARE of the width) on
    the text below it in columns start..end, or on those columns' ruled `spans`."""

    def centred(index: int, start: int, end: int) -> bool:
        below = [p.bbox for row in rows_below for cell in row[start : end + 1] for p in cell]
        if not title_row[index] or not below:
            return False
        middle = BBox.enclosing([p.bbox for p in title_row[index]]).center_x
        extents = [(min(b.x0 for b in below), max(b.x1 for b in below))]
        if spans:
            extents.append((spans[start][0], spans[end][1]))
        return any(abs(middle - (x0 + x1) / 2) <= CENTRED_SHARE * (x1 - x0) for x0, x1 in extents)

    return centred


def spread_titles(
    titles: Sequence[str], below: Sequence[str], centred: Centred
) -> list[str] | None:
    """Group titles repeated over the sub-columns they head, or None.

    Group titles (a model name over its three metrics, "Year Ended" over three dates) head
    equal groups of sub-columns that end at the table's right edge, each title set centred
    on its group (`centred(title column, first, last column)` checks the drawing); labels
    left of the groups (spanning both header rows) are repeated from `below`. None when the
    titles do not fit that pattern (a lone label over a label is a two-line header cell,
    folded instead).
    """
    filled = [i for i, t in enumerate(titles) if t]
    n = len(titles)
    if not filled or len(filled) == n or len(below) != n:
        return None
    if any(len(titles[i]) > MAX_HEADER_CELL_CHARS for i in filled):
        return None  # a table's own title over its columns, not a label to repeat over them
    steps = {b - a for a, b in zip(filled, filled[1:], strict=False)}
    if len(steps) > 1:
        return None
    width = steps.pop() if steps else 2 * (n - 1 - filled[0]) + 1
    spread = list(titles)
    for rank, index in enumerate(reversed(filled)):
        end = n - 1 - rank * width
        start = end - width + 1
        middle = index - start in {(width - 1) // 2, width // 2}
        if width < 2 or start < 1 or not middle or not all(below[start : end + 1]):
            return None
        if not centred(index, start, end):
            return None
        spread[start : end + 1] = [titles[index]] * width
    # Labels beside the groups span both header rows: repeated, so each row names every column.
    ungrouped = n - len(filled) * width
    spread[:ungrouped] = below[:ungrouped]
    return spread


def _repeats_titles(row: Sequence[str]) -> bool:
    """Two neighbouring cells with one text: group titles the document already repeats over
    their sub-columns (spans exported by repetition), a row of their own, not wrapped labels."""
    return any(a and a == b for a, b in zip(row, row[1:], strict=False))


def header_row_count(cells: Cells) -> int:
    """2 when the first row is group titles over a second row of sub-column labels, else 1.

    tidy_cells keeps such a first row as a row of its own (each title repeated over the
    columns it heads); without saying so the second row would read as the first body row,
    and a value would be named by its group alone ("ReACT: 0.87" for "ReACT / Procedure").
    The second row is labels when, under every run of one repeated title, its cells are
    filled, distinct and short (a body row repeats or holds sentences). Numbers there (years,
    dates under "Year Ended") are labels only when the row names nothing of its own outside
    the runs: a body row's stub names it ("Alice | 90 | 85" under "Name | Score | Score").
    """
    runs = _runs_of_equal(cells[0]) if len(cells) >= 3 else []
    if not runs:  # no title repeated over columns (or no body below two header rows)
        return 1
    titles, labels = cells[0], cells[1]
    in_runs = {column for start, end in runs for column in range(start, end)}
    named = any(
        label and label != title
        for column, (title, label) in enumerate(zip(titles, labels, strict=False))
        if column not in in_runs
    )
    for start, end in runs:
        under = labels[start:end]
        if not all(under) or len(set(under)) < len(under):
            return 1
        if any(len(c) > MAX_HEADER_CELL_CHARS or (named and is_numeric(c)) for c in under):
            return 1
    return 2


def _runs_of_equal(row: Sequence[str]) -> list[tuple[int, int]]:
    """[start, end) of each run of two or more neighbouring cells holding one non-empty text."""
    runs, start = [], 0
    for index in range(1, len(row) + 1):
        if index == len(row) or row[index] != row[start]:
            if index - start > 1 and row[start]:
                runs.append((start, index))
            start = index
    return runs


def merge_header_rows(table: list[list[str]], centred: Centred) -> list[list[str]]:
    """Spread a first row of group titles over their columns; else fold a first row with
    gaps into the second when the second is a full row of labels.

    That is a two-row header (a group title over sub-columns); a second row holding numbers
    is the first body row under a header whose corner cell is empty.
    """
    if len(table) < 3:
        return table
    first, second = table[0], table[1]
    spread = spread_titles(first, second, centred)
    if spread is not None and not any(is_numeric(c) for c in first):
        return [spread, *table[1:]]  # group titles: the second row stays whole below them
    if all(first) or not all(second) or not any(first) or _repeats_titles(first):
        return table
    if any(is_numeric(c) or len(c) > MAX_HEADER_CELL_CHARS for c in second):
        return table  # numbers or sentences: the second row is body
    if any(len(c) > MAX_HEADER_CELL_CHARS for c in first):
        return table  # the table's title: a row of its own, not the start of one label
    return [*_header_of([first, second], centred), *table[2:]]
