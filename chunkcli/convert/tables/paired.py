"""Two rules of one width, a top and a bottom rule, around a table with no rule inside.

Minimal booktabs (a rule over the header and one under the body, sometimes with short
cmidrules under group titles) leaves no stack of three rules. The text between the pair is
a table when its visual rows split into short, aligned columns; prose, a formula or a figure
between two rules does not.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from chunkcli.convert.tables.cells import (
    Cells,
    fill_cells,
    row_boundaries,
    text_gutters,
    tidy_cells,
)
from chunkcli.convert.tables.grid import STACK_ALIGN_PT, Grid
from chunkcli.convert.tables.text import Piece, group_rows, is_numeric, words_of
from chunkcli.convert.tables.unruled import MAX_CELL_CHARS, MAX_LABEL_CHARS, WORD_GUTTER_EM

# A pair holds at least this many visual rows: a header and two body rows.
MIN_PAIR_ROWS = 3
# ... and at most this many: beyond, two rules of one width are a page's header and footer
# rules or a boxed page of text (DP-Bench tables between a pair: 5-7 rows).
MAX_PAIR_ROWS = 40
# Columns between a pair are separated by gutters at least this many font sizes wide in
# every visual row but MAX_CROSSING_SHARE of them (a group title spanning sub-columns).
MAX_CROSSING_SHARE = 0.25


def rule_pairs(grids: Sequence[Grid]) -> list[Grid]:
    """Consecutive lone rules of one width (no rule or grid between them) joined into the
    frame of one band."""
    lone = sorted((g for g in grids if len(g.ys) == 1), key=lambda g: g.ys[0])
    pairs: list[Grid] = []
    for index, upper in enumerate(lone):
        if pairs and pairs[-1].ys[-1] >= upper.ys[0]:
            continue  # the bottom rule of the pair above starts no pair of its own
        lower = next((g for g in lone[index + 1 :] if _same_width(upper, g)), None)
        if lower is None:
            continue
        frame = Grid(upper.xs, (upper.ys[0], lower.ys[0]), upper.rules + lower.rules, False)
        if not any(_inside(g, frame) for g in grids if g is not upper and g is not lower):
            pairs.append(frame)
    return pairs


def _same_width(a: Grid, b: Grid) -> bool:
    return abs(a.xs[0] - b.xs[0]) <= STACK_ALIGN_PT and abs(a.xs[-1] - b.xs[-1]) <= STACK_ALIGN_PT


def _inside(grid: Grid, frame: Grid) -> bool:
    """A full-width rule or grid between the pair: the pair is not one table's frame.
    Shorter rules (cmidrules under group titles) may sit inside."""
    box, outer = grid.bbox, frame.bbox
    between = outer.top < box.top and box.bottom < outer.bottom
    return between and box.width >= outer.width - 2 * STACK_ALIGN_PT


def cells_of_pair(frame: Grid, pieces: Sequence[Piece]) -> Cells:
    """Cells of the band between a pair: columns at text gutters, one row per visual row;
    empty when the text is not tabular."""
    rows = group_rows(pieces)
    if not MIN_PAIR_ROWS <= len(rows) <= MAX_PAIR_ROWS:
        return ()
    size = statistics.median(p.size for p in pieces)
    x0, x1 = frame.xs[0], frame.xs[-1]
    crossing = int(len(rows) * MAX_CROSSING_SHARE)
    gutters = text_gutters(rows, x0, x1, crossing, WORD_GUTTER_EM * size)
    xs = (min(x0, *(p.bbox.x0 for p in pieces)), *gutters, max(x1, *(p.bbox.x1 for p in pieces)))
    top, bottom = frame.ys[0], frame.ys[-1]
    ys = (top, *row_boundaries(pieces, top, bottom, xs=(), force=True), bottom)
    parts = [part for piece in pieces for part in _value_apart(piece, gutters)]
    cells = tidy_cells(fill_cells(parts, xs, ys, lambda x, y: False))
    return cells if _short_cells(cells) else ()


def _value_apart(piece: Piece, gutters: Sequence[float]) -> list[Piece]:
    """A piece across a gutter whose words past it are numbers is a label and its value
    that extraction ran together ("montmorillonite/smectite 100"): cut into words. Other
    pieces across a gutter (a group title over sub-columns) stay whole."""
    box = piece.bbox
    crossed = [g for g in gutters if box.x0 < g < box.x1]
    if not crossed:
        return [piece]
    words = words_of(piece)
    past = [w.text for w in words if w.bbox.center_x > crossed[0]]
    return words if past and all(map(is_numeric, past)) else [piece]


def _short_cells(cells: Cells) -> bool:
    """Body cells are labels and values: each column's median cell is short (prose split at
    a gutter is not)."""
    if len(cells) < MIN_PAIR_ROWS or len(cells[0]) < 2:
        return False
    for index in range(len(cells[0])):
        texts = [row[index] for row in cells[1:] if row[index]]
        limit = MAX_LABEL_CHARS if index == 0 else MAX_CELL_CHARS
        if texts and statistics.median(map(len, texts)) > limit:
            return False
    return True
