"""A grid or rule stack + the page's pieces -> table cells (no table finder involved).

Columns come from vertical rules, plus text gutters where rules are missing (a ruled table
whose sub-columns are separated only by space); rows come from horizontal rules, plus the
visual rows of a band that holds several table rows between two rules.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from chunkcli.convert.tables.cells import (
    MIN_GUTTER_PT,
    Cells,
    ColumnSpan,
    centring_test,
    column_of,
    fill_cells,
    row_boundaries,
    spread_titles,
    text_gutters,
    tidy_cells,
)
from chunkcli.convert.tables.grid import TOUCH_PT, Grid
from chunkcli.convert.tables.rules import Rule
from chunkcli.convert.tables.text import Piece, cell_text, group_rows, is_numeric
from chunkcli.model import BBox

# Text gutters may be crossed by this fraction of visual rows (spanning header cells such as
# a group title over three sub-columns) and still separate columns.
GUTTER_CROSSING_FRACTION = 0.25
# A gutter this close to a vertical rule is that rule's column boundary, not a new one.
GUTTER_NEAR_RULE_PT = 6.0
# Inside a frame, columns without rules are separated by gutters at least one font size wide:
# wider than letter-spaced words ("신   설"), narrower than the space between numbers.
GRID_GUTTER_EM = 1.0
# With at least this many ruled bands, gutters are tested band by band (see _gutter_rows).
MIN_BANDS_FOR_GUTTERS = 3
# A gutter that up to half the rows cross (group titles, totals labels spanning a narrow
# column) still separates columns when at least this share of the rows, and MIN_ALIGNED_ROWS,
# have text on both sides with the right side starting within ALIGNED_START_PT of one x.
ALIGNED_ROW_SHARE = 0.5
MIN_ALIGNED_ROWS = 4
ALIGNED_START_PT = 1.0
# A header band is cut under a row of group titles only when there are at least this many,
# equally spaced: one title over a band of labels is as often the first line of a label
# that wraps (Korean RFP tables: "적용계획/결과" over four of five columns).
MIN_GROUP_TITLES = 2
# A rule under the first row covering this share of the width is partial (see below).
PARTIAL_RULE_MIN = 0.1
PARTIAL_RULE_MAX = 0.85


@dataclass(frozen=True, slots=True)
class Skeleton:
    """Where a table's boundaries lie, before any text is put in."""

    xs: tuple[float, ...]
    ys: tuple[float, ...]
    header_rows: int = 1  # rows folded into the header (2 under a partial rule)


def skeleton_of(grid: Grid, pieces: Sequence[Piece]) -> Skeleton:
    """Column and row boundaries for a grid, from its rules and the text inside it."""
    rows = _gutter_rows(grid, pieces)
    max_blocked = int(len(rows) * GUTTER_CROSSING_FRACTION)
    size = statistics.median(p.size for p in pieces) if pieces else 0.0
    min_width = max(MIN_GUTTER_PT, GRID_GUTTER_EM * size)
    gutters = text_gutters(rows, grid.xs[0], grid.xs[-1], max_blocked, min_width)
    ruled = grid.xs if grid.ruled_columns else (grid.xs[0], grid.xs[-1])
    crossed = text_gutters(rows, grid.xs[0], grid.xs[-1], len(rows) // 2, min_width)
    bounds = sorted({*ruled, *gutters})
    gutters += [g for g in crossed if g not in gutters and _aligned_both_sides(g, rows, bounds)]
    extra = [g for g in gutters if all(abs(g - x) > GUTTER_NEAR_RULE_PT for x in ruled)]
    extra = [g for g in extra if _text_on_both_sides(g, rows, sorted({*ruled, *extra}))]
    xs = tuple(sorted((*ruled, *extra)))
    ys: list[float] = [grid.ys[0]]
    middles = [(p.bbox.center_y, p) for p in pieces]  # (read once, not once a band)
    for top, bottom in zip(grid.ys, grid.ys[1:], strict=False):
        band = [p for middle, p in middles if top <= middle < bottom]
        header = top == grid.ys[0] and _ruled_header_band(grid, band, xs)
        cuts = [] if header else row_boundaries(band, top, bottom, xs)
        if not cuts and top == grid.ys[0]:
            cuts = _group_title_cut(band, pieces, xs)
        ys.extend(cuts)
        ys.append(bottom)
    header_rows = 1
    if len(grid.ys) > 2 and _partial_rule_under_first_row(grid):
        header_rows = sum(1 for y in ys[:-1] if y < grid.ys[2] - TOUCH_PT)
    return Skeleton(xs, tuple(ys), header_rows)


def _ruled_header_band(grid: Grid, band: Sequence[Piece], xs: Sequence[float]) -> bool:
    """The first band of a grid that rules its rows (MIN_BANDS_FOR_GUTTERS bands or more,
    columns ruled) is one header row when each visual row after its first either holds no
    number or fills fewer columns than the first: the lines of wrapped labels ("Aquino /
    Administration / (1986-1992)"), where data rows under a rule-less header would fill
    every column with numbers."""
    if not grid.ruled_columns or len(grid.ys) - 1 < MIN_BANDS_FOR_GUTTERS:
        return False
    rows = group_rows(band)
    width = len({column_of(p, xs) for p in rows[0]}) if rows else 0
    return all(
        len({column_of(p, xs) for p in row}) < width or not any(is_numeric(p.text) for p in row)
        for row in rows[1:]
    )


def _text_on_both_sides(
    gutter: float, rows: Sequence[Sequence[Piece]], bounds: Sequence[float]
) -> bool:
    """Some text lies wholly between `gutter` and the boundary left of it, and some between
    it and the boundary right of it (a weaker _aligned_both_sides, asked of every gutter). A
    gutter with text on one side only is the blank part of a ruled column (centred values
    beside an empty stretch that a spanning title crosses): a column of its own would hold
    nothing but the crossing title, moved off the values it heads."""
    previous, following = _neighbours(gutter, bounds)
    pieces = [p for row in rows for p in row]
    left = any(previous - TOUCH_PT <= p.bbox.x0 and p.bbox.x1 < gutter for p in pieces)
    right = any(gutter < p.bbox.x0 and p.bbox.x1 <= following + TOUCH_PT for p in pieces)
    return left and right


def _neighbours(gutter: float, bounds: Sequence[float]) -> tuple[float, float]:
    """The column boundaries left and right of `gutter`."""
    return max(x for x in bounds if x < gutter), min(x for x in bounds if x > gutter)


def _aligned_both_sides(
    gutter: float, rows: Sequence[Sequence[Piece]], bounds: Sequence[float]
) -> bool:
    """True when most rows have text on both sides of `gutter` between the column boundaries
    around it, each side starting at one x: a narrow column (row numbers) whose gutter
    spanning rows (group titles) cross. Without text of its own on both sides, a column
    would hold only the ends of the crossing rows."""
    previous, following = _neighbours(gutter, bounds)
    lefts: list[float] = []
    rights: list[float] = []
    for row in rows:
        if any(p.bbox.x0 < gutter < p.bbox.x1 for p in row):
            continue
        right = [p.bbox.x0 for p in row if gutter < p.bbox.x0 < following]
        left = [p.bbox.x0 for p in row if previous <= p.bbox.x0 and p.bbox.x1 < gutter]
        if right and left:
            lefts.append(min(left))
            rights.append(min(right))
    if len(rights) < MIN_ALIGNED_ROWS:
        return False
    return all(_aligned_count(xs) >= ALIGNED_ROW_SHARE * len(rows) for xs in (lefts, rights))


def _aligned_count(starts: Sequence[float]) -> int:
    middle = statistics.median(starts)
    return sum(abs(x - middle) <= ALIGNED_START_PT for x in starts)


def _group_title_cut(
    band: Sequence[Piece], pieces: Sequence[Piece], xs: Sequence[float]
) -> list[float]:
    """A cut under the first visual row of the header band when that row holds group titles
    over the sub-column labels below (see cells.spread_titles): two header rows, not one.
    `pieces` is the whole table's text, against which the titles' centring is measured."""
    rows = group_rows(band)
    if len(rows) < 2:
        return []
    upper = max(p.bbox.bottom for p in rows[0])
    lower = min(p.bbox.top for r in rows[1:] for p in r)
    title_row: list[list[Piece]] = [[] for _ in xs[1:]]
    rest: list[list[Piece]] = [[] for _ in xs[1:]]
    for piece in rows[0]:
        title_row[column_of(piece, xs)].append(piece)
    for piece in pieces:
        if piece.bbox.center_y > upper:
            rest[column_of(piece, xs)].append(piece)
    labels = [p for r in rows[1:] for p in r]
    used = [c for c in range(len(title_row)) if title_row[c] or rest[c]]  # as tidy_cells keeps
    titles = [cell_text(title_row[c]) for c in used]
    below = [cell_text([p for p in labels if column_of(p, xs) == c]) for c in used]
    named = [t for t in titles if t]
    if len(named) < MIN_GROUP_TITLES or any(map(is_numeric, named)):
        return []
    spans = [(xs[c], xs[c + 1]) for c in used]
    centred = centring_test([title_row[c] for c in used], [[rest[c] for c in used]], spans)
    if spread_titles(titles, below, centred) is None:
        return []
    return [(upper + lower) / 2] if lower > upper else []


def _gutter_rows(grid: Grid, pieces: Sequence[Piece]) -> list[list[Piece]]:
    """What a text gutter must run through: the ruled bands of a grid with row rules (so a
    cell's many short lines count once), else the visual rows."""
    if not grid.ruled_columns or len(grid.ys) - 1 < MIN_BANDS_FOR_GUTTERS:
        return group_rows(pieces)
    bands = [
        [p for p in pieces if top <= p.bbox.center_y < bottom]
        for top, bottom in zip(grid.ys, grid.ys[1:], strict=False)
    ]
    return [band for band in bands if band]


def _partial_rule_under_first_row(grid: Grid) -> bool:
    """A rule under the first row that spans only some columns (a group title over
    sub-columns, as booktabs' cmidrule): the first two rows are one header."""
    y, width = grid.ys[1], grid.xs[-1] - grid.xs[0]
    covered = sum(
        min(r.end, grid.xs[-1]) - max(r.start, grid.xs[0])
        for r in grid.rules
        if r.horizontal and abs(r.pos - y) <= TOUCH_PT
    )
    return PARTIAL_RULE_MIN <= covered / width <= PARTIAL_RULE_MAX


def cells_of_grid(grid: Grid, pieces: Sequence[Piece]) -> Cells:
    """The grid's text as cells; pieces split at drawn rules, kept whole across gutters."""
    skeleton = skeleton_of(grid, pieces)
    verticals = [r for r in grid.rules if not r.horizontal]

    def rule_at(x: float, y: float) -> bool:
        return any(
            abs(r.pos - x) <= TOUCH_PT and r.start - TOUCH_PT <= y <= r.end + TOUCH_PT
            for r in verticals
        )

    grid_cells = fill_cells(pieces, skeleton.xs, skeleton.ys, rule_at)
    spans = title_spans(skeleton, verticals, rule_at)
    return tidy_cells(grid_cells, skeleton.header_rows, skeleton.xs, spans)


def title_spans(
    skeleton: Skeleton, verticals: Sequence[Rule], rule_at: Callable[[float, float], bool]
) -> list[ColumnSpan]:
    """First-row cells drawn across columns: runs of columns whose boundaries have a vertical
    rule below the first row but none through it (a group title over its sub-columns). A
    cell across every column is the table's title, not a group's, and is left alone."""
    xs, middle = skeleton.xs, (skeleton.ys[0] + skeleton.ys[1]) / 2
    spans: list[ColumnSpan] = []
    first = 0
    for column in range(1, len(xs) - 1):
        drawn = any(abs(r.pos - xs[column]) <= TOUCH_PT for r in verticals)
        if drawn and not rule_at(xs[column], middle):
            continue  # the cell runs on across this boundary
        spans.append((first, column - 1))
        first = column
    spans.append((first, len(xs) - 2))
    if len(spans) == 1:
        return []
    return [(start, end) for start, end in spans if end > start]


def inside(box: BBox, pieces: Sequence[Piece]) -> list[Piece]:
    return [p for p in pieces if box.contains_point(p.bbox.center_x, p.bbox.center_y)]
