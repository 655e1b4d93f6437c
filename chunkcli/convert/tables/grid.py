"""Rules -> candidate table grids.

A grid is a connected set of horizontal and vertical rules (they touch or cross) spanning at
least 2 x 2 cells; a stack is >= 3 horizontal rules of about the same extent with no verticals
(the booktabs style of academic papers), whose columns come from the text between them.
"""

from __future__ import annotations

import bisect
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from chunkcli.convert.tables.rules import Rule
from chunkcli.convert.unionfind import root
from chunkcli.model import BBox

# Rules that end this close to another rule touch it (drawing slop, stroke width).
TOUCH_PT = 2.5
# Two boundaries closer than this are one (double rules, a rule drawn over a shaded edge):
# smaller than any real row, whose height is at least one line of text.
MIN_CELL_PT = 4.0
# Booktabs rules of one table start and end within this distance of each other.
STACK_ALIGN_PT = 12.0
# A page with more rules than this is a drawing (chart, map, diagram), not a table page.
MAX_RULES = 2000
# Grids need this many cells each way; a box with one divider is a frame, not a table.
MIN_GRID_ROWS = 2
MIN_GRID_COLUMNS = 2
# ... except a single ruled column divided into at least this many rows: a boxed list, which
# annotators mark as a one-column table (DP-Bench's competence framework: a header box over 7
# item boxes). A box divided once or twice is a frame with a title, not a list.
MIN_LIST_ROWS = 4
# A grid reaching this close to two page edges is a full-bleed design element, not a table.
PAGE_BLEED_PT = 4.0
# Row groups of one table drawn as separate grids are at most this far apart (room for one
# group-title row of small type); a caption between two tables needs more room than this.
MAX_GROUP_GAP_PT = 14.0
# ... or up to one row of the lower grid (its median band height, with this slack).
ROW_GAP_SLACK = 1.1
# Two lone rules of one width hold a header row between them if at most this far apart.
MAX_LONE_RULE_GAP_PT = 60.0
# A band this many times taller than a stack's median band is not a table row: the stack is
# cut there.
OUTSIZED_BAND_RATIO = 3.0
# Stacks of horizontal rules need at least this many rules (top, below header, bottom).
MIN_STACK_RULES = 3
# A rule this close beside a longer parallel rule that covers its whole extent is the edge
# of shading inset in a cell (Word shades each line of a cell inside the cell margin, 0.08 in
# = 5.8 pt by default; DP-Bench's land-ownership table: 5.3-5.5 pt), not a cell boundary.
SHADING_INSET_PT = 6.0


@dataclass(frozen=True, slots=True)
class Grid:
    """Candidate table frame: boundary coordinates and the rules that drew it."""

    xs: tuple[float, ...]  # column boundaries, left to right
    ys: tuple[float, ...]  # row boundaries, top to bottom
    rules: tuple[Rule, ...]
    ruled_columns: bool  # False for a stack: columns must come from the text

    @property
    def bbox(self) -> BBox:
        return BBox(self.xs[0], self.ys[0], self.xs[-1], self.ys[-1])


def find_grids(rules: Sequence[Rule], page_box: BBox | None = None) -> list[Grid]:
    """Grids and rule stacks on one page, top to bottom (full-bleed page designs left out)."""
    if len(rules) > MAX_RULES:
        return []
    grids: list[Grid] = []
    loose: list[Rule] = []
    box_edges: list[Rule] = []
    for component in _connected_components(_without_shadowed(rules)):
        grid = _grid_of(component)
        if grid is not None:
            grids.append(grid)
        elif all(r.horizontal for r in component):
            loose.extend(component)
        else:
            box_edges.extend(r for r in component if r.horizontal)
    stacks = [_extended_stack(stack, box_edges) for stack in _stacks(loose)]
    in_stacks = {id(r) for stack in stacks for r in stack.rules}
    grids.extend(stacks)
    # Lone rules wait for merge_stacked_grids: a rule over a table's header is part of it.
    grids.extend(_lone_rule(r) for r in loose if id(r) not in in_stacks)
    if page_box is not None:
        grids = [g for g in grids if _edges_touched(g.bbox, page_box) < 2]
    return sorted(grids, key=lambda g: (g.ys[0], g.xs[0]))


def _without_shadowed(rules: Sequence[Rule]) -> list[Rule]:
    """Rules without the side edges of shading inset in a cell (see SHADING_INSET_PT): left
    in, they cut a sliver column beside each cell border. An inset box has both sides: a
    left edge just right of a longer rule and a right edge of the same extent just left of
    another; the lone vertical strokes of a chart line beside a grid line are no box."""
    verticals = sorted((r for r in rules if not r.horizontal), key=lambda r: r.pos)
    positions = [r.pos for r in verticals]

    def near(rule: Rule) -> list[Rule]:  # the rules within SHADING_INSET_PT of it
        lo = bisect.bisect_left(positions, rule.pos - SHADING_INSET_PT)
        return verticals[lo : bisect.bisect_right(positions, rule.pos + SHADING_INSET_PT)]

    lefts = [r for r in verticals if any(_shadows(s, r, 1) for s in near(r))]
    rights = [r for r in verticals if any(_shadows(s, r, -1) for s in near(r))]
    boxed = {
        id(edge)
        for left in lefts
        for right in rights
        if right.pos > left.pos and _same_span(left, right)
        for edge in (left, right)
    }
    return [r for r in rules if id(r) not in boxed]


def _shadows(longer: Rule, rule: Rule, side: int) -> bool:
    """`rule` lies SHADING_INSET_PT or less on `side` (1 right, -1 left) of the longer rule
    that covers its extent."""
    return (
        0 < side * (rule.pos - longer.pos) <= SHADING_INSET_PT
        and longer.length > rule.length
        and longer.start <= rule.start + TOUCH_PT
        and longer.end >= rule.end - TOUCH_PT
    )


def _same_span(a: Rule, b: Rule) -> bool:
    return abs(a.start - b.start) <= TOUCH_PT and abs(a.end - b.end) <= TOUCH_PT


def _lone_rule(rule: Rule) -> Grid:
    return Grid((rule.start, rule.end), (rule.pos,), (rule,), ruled_columns=False)


def is_table_frame(grid: Grid) -> bool:
    """Enough rows for a table: a grid's 2 x 2 cells, or a stack's MIN_STACK_RULES rules."""
    if grid.ruled_columns:
        return len(grid.ys) - 1 >= MIN_GRID_ROWS
    return len(grid.ys) >= MIN_STACK_RULES


def rule_coverage(grid: Grid) -> float:
    """Drawn share of the lattice: the length of rules inside the grid over the length of
    every row and column boundary line. A full table is ~1; boxes-and-arrows diagrams ~0.3."""
    box = grid.bbox
    lattice = len(grid.xs) * box.height + len(grid.ys) * box.width
    drawn = 0.0
    for rule in grid.rules:
        lo, hi = (box.x0, box.x1) if rule.horizontal else (box.top, box.bottom)
        drawn += max(0.0, min(rule.end, hi) - max(rule.start, lo))
    return drawn / lattice if lattice > 0 else 0.0


def merge_stacked_grids(
    grids: Sequence[Grid], holds_one_row: Callable[[BBox], bool] = lambda box: False
) -> list[Grid]:
    """Join grids that sit one above the other with the same left and right edges and at most
    a group-title row between them: one table whose row groups were drawn as separate blocks."""
    merged: list[Grid] = []
    for grid in sorted(grids, key=lambda g: (g.ys[0], g.xs[0])):
        above = [i for i, m in enumerate(merged) if _stacked(m, grid, holds_one_row)]
        if not above:
            merged.append(grid)
            continue
        previous = merged[above[-1]]
        merged[above[-1]] = Grid(
            _boundaries([*previous.xs, *grid.xs]),
            _boundaries([*previous.ys, *grid.ys]),
            previous.rules + grid.rules,
            previous.ruled_columns or grid.ruled_columns,
        )
    return merged


def _stacked(upper: Grid, lower: Grid, holds_one_row: Callable[[BBox], bool]) -> bool:
    if (_one_boxed_row(upper) and not is_table_frame(lower)) or (
        _one_boxed_row(lower) and not is_table_frame(upper)
    ):
        return False  # boxed rows join a table; stacked alone they are cards or callouts
    a, b = upper.bbox, lower.bbox
    aligned = abs(a.x0 - b.x0) <= STACK_ALIGN_PT and abs(a.x1 - b.x1) <= STACK_ALIGN_PT
    gap = b.top - a.bottom
    if not aligned or gap < -TOUCH_PT:
        return False
    if gap <= MAX_GROUP_GAP_PT:
        return True
    # One unruled table row (the first body row under a boxed header, a header between two
    # lone rules) may sit between them.
    reference = lower if len(lower.ys) > 1 else upper
    heights = [y1 - y0 for y0, y1 in zip(reference.ys, reference.ys[1:], strict=False)]
    limit = ROW_GAP_SLACK * statistics.median(heights) if heights else MAX_LONE_RULE_GAP_PT
    return gap <= limit and holds_one_row(BBox(a.x0, a.bottom, a.x1, b.top))


def _one_boxed_row(grid: Grid) -> bool:
    return grid.ruled_columns and len(grid.ys) == 2


def _edges_touched(box: BBox, page: BBox) -> int:
    """How many page edges a box reaches: two or more is a page design (cover, banner)."""
    near = PAGE_BLEED_PT
    return sum(
        (
            box.x0 <= page.x0 + near,
            box.x1 >= page.x1 - near,
            box.top <= page.top + near,
            box.bottom >= page.bottom - near,
        )
    )


def _touches(h: Rule, v: Rule) -> bool:
    return (
        h.start - TOUCH_PT <= v.pos <= h.end + TOUCH_PT
        and v.start - TOUCH_PT <= h.pos <= v.end + TOUCH_PT
    )


def _connected_components(rules: Sequence[Rule]) -> list[list[Rule]]:
    parent = list(range(len(rules)))

    horizontals = [i for i, r in enumerate(rules) if r.horizontal]
    verticals = [i for i, r in enumerate(rules) if not r.horizontal]
    for i in horizontals:
        for j in verticals:
            if _touches(rules[i], rules[j]):
                parent[root(parent, i)] = root(parent, j)
    groups: dict[int, list[Rule]] = {}
    for i, rule in enumerate(rules):
        groups.setdefault(root(parent, i), []).append(rule)
    return list(groups.values())


def _grid_of(component: list[Rule]) -> Grid | None:
    horizontals = [r for r in component if r.horizontal]
    verticals = [r for r in component if not r.horizontal]
    if not horizontals or not verticals:
        return None
    x_lo = min(min(r.start for r in horizontals), min(r.pos for r in verticals))
    x_hi = max(max(r.end for r in horizontals), max(r.pos for r in verticals))
    y_lo = min(min(r.start for r in verticals), min(r.pos for r in horizontals))
    y_hi = max(max(r.end for r in verticals), max(r.pos for r in horizontals))
    xs = _boundaries([x_lo, x_hi, *(r.pos for r in verticals)])
    ys = _boundaries([y_lo, y_hi, *(r.pos for r in horizontals)])
    # One boxed row is kept: alone it is no table (is_table_frame), but merge_stacked_grids
    # joins it to a grid right above or below (a totals row boxed apart from the body).
    if len(ys) < 2 or (len(xs) - 1 < MIN_GRID_COLUMNS and len(ys) - 1 < MIN_LIST_ROWS):
        return None
    return Grid(xs, ys, tuple(component), ruled_columns=True)


def _boundaries(values: list[float]) -> tuple[float, ...]:
    """Sorted coordinates with near-duplicates (closer than MIN_CELL_PT) collapsed."""
    result: list[float] = []
    for value in sorted(values):
        if result and value - result[-1] < MIN_CELL_PT:
            continue
        result.append(value)
    if len(result) > 1 and max(values) - result[-1] > 0:
        result[-1] = max(values)  # keep the outer edge exact
    return tuple(result)


def _stacks(horizontals: list[Rule]) -> list[Grid]:
    """Runs of >= MIN_STACK_RULES horizontal rules sharing their left and right ends."""
    stacks: list[Grid] = []
    remaining = sorted(horizontals, key=lambda r: (r.pos, r.start))
    while remaining:
        first = remaining[0]
        members = [r for r in remaining if _same_extent(first, r)]
        remaining = [r for r in remaining if not _same_extent(first, r)]
        xs = (first.start, first.end)
        for ys in _split_at_outsized_bands(_boundaries([r.pos for r in members])):
            if len(ys) >= MIN_STACK_RULES:
                inside = tuple(r for r in members if ys[0] - TOUCH_PT <= r.pos <= ys[-1] + TOUCH_PT)
                stacks.append(Grid(xs, ys, inside, ruled_columns=False))
    return stacks


def _extended_stack(stack: Grid, box_edges: Sequence[Rule]) -> Grid:
    """A stack with the edge of a box (no grid itself) that closes its last band: the table's
    bottom rule drawn on the top edge of a shaded panel right below it merges with that edge
    and joins the box, not the loose rules (corpus: Korean card leaflet, "온라인쇼핑몰" row).
    Only the nearest edge within one ordinary band is taken, so the panel itself stays out."""
    heights = [b - a for a, b in zip(stack.ys, stack.ys[1:], strict=False)]
    limit = OUTSIZED_BAND_RATIO * statistics.median(heights)
    first = stack.rules[0]
    below = [
        r
        for r in box_edges
        if _same_extent(first, r) and stack.ys[-1] + MIN_CELL_PT <= r.pos <= stack.ys[-1] + limit
    ]
    if not below:
        return stack
    edge = min(below, key=lambda r: r.pos)
    return Grid(stack.xs, (*stack.ys, edge.pos), (*stack.rules, edge), ruled_columns=False)


def _split_at_outsized_bands(ys: tuple[float, ...]) -> list[tuple[float, ...]]:
    """Cut a stack where one band is far taller than the usual band: rules of the same width
    above and below a page of text (a footnote rule, a header rule) are not one table."""
    if len(ys) < MIN_STACK_RULES:
        return [ys]
    heights = [b - a for a, b in zip(ys, ys[1:], strict=False)]
    limit = OUTSIZED_BAND_RATIO * statistics.median(heights)
    parts: list[list[float]] = [[ys[0]]]
    for y, height in zip(ys[1:], heights, strict=True):
        if height > limit:
            parts.append([y])
        else:
            parts[-1].append(y)
    return [tuple(part) for part in parts]


def _same_extent(a: Rule, b: Rule) -> bool:
    return abs(a.start - b.start) <= STACK_ALIGN_PT and abs(a.end - b.end) <= STACK_ALIGN_PT
