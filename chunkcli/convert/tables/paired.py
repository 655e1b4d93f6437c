"""Two rules of one width, a top and a bottom rule, around a table with no rule inside.

Minimal booktabs (a rule over the header and one under the body, sometimes with short
cmidrules under group titles) leaves no stack of three rules. The text between the pair is
a table when its visual rows split into short, aligned columns; prose, a formula or a figure
between two rules does not.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence

from chunkcli.convert.tables.cells import (
    MIN_GUTTER_PT,
    Cells,
    covered_spans,
    fill_cells,
    row_boundaries,
    text_gutters,
    tidy_cells,
)
from chunkcli.convert.tables.grid import STACK_ALIGN_PT, TOUCH_PT, Grid
from chunkcli.convert.tables.rules import Rule
from chunkcli.convert.tables.text import Piece, cell_text, group_rows, is_numeric, words_of
from chunkcli.convert.tables.unruled import (
    MAX_CELL_CHARS,
    MAX_LABEL_CHARS,
    WORD_GUTTER_EM,
    segments,
)

# A pair holds at least this many visual rows: a header and two body rows.
MIN_PAIR_ROWS = 3
# ... and at most this many: beyond, two rules of one width are a page's header and footer
# rules or a boxed page of text (DP-Bench tables between a pair: 5-7 rows).
MAX_PAIR_ROWS = 40
# A page with more lone rules than this is a ruled form or lined paper: no pairs are sought
# (pairing is quadratic in them: 1,500 lone rules took 1.6 s, 200 take 0.02 s; a DP-Bench page
# holds at most 10).
MAX_LONE_RULES = 200
# A header bar over a pair's band is a box this tall: one to three lines of a label.
MIN_BAR_PT = 6.0
MAX_BAR_PT = 40.0
# ... or narrower (down to MIN_GUTTER_PT) when the column right of it starts at one x, within
# ALIGNED_START_PT, in this share of the rows, at most MAX_INDENT_PT from the gutter
# (DP-Bench's fish-species table: names set 5 pt after the longest label).
ALIGNED_ROW_SHARE = 0.8
ALIGNED_START_PT = 1.0
MAX_INDENT_PT = 12.0
# A table sets its text in one size (a bold header, sub- and superscripts smaller); a band
# whose largest text is more than this many times the median holds a title (the corpus'
# Korean minutes: a 16 pt masthead over 10 pt lines between two page rules).
MAX_SIZE_RATIO = 1.3
# Columns between a pair are separated by gutters at least this many font sizes wide in
# every visual row but MAX_CROSSING_SHARE of them (a group title spanning sub-columns).
MAX_CROSSING_SHARE = 0.25
# A blank form (column titles over rows whose only text is their label) has its one gutter
# in the header row, which extraction often runs into one span: a gap between the header's
# words at least this many font sizes wide is a column boundary when no row below crosses it.
# DP-Bench 165: 0.89 em between two titles, 0.26 em word spaces; loose justified lines reach
# about 0.5 em (extract/gutters.py's evidence), and their rows below cross the gap.
BLANK_FORM_GAP_EM = 0.6


def rule_pairs(grids: Sequence[Grid], rules: Sequence[Rule] = ()) -> list[Grid]:
    """Lone rules of one width, consecutive (no full-width rule or grid between them),
    joined into the frame of one band; the top of the band may also be a shaded header bar
    (see _header_bars) closed by a lone bottom rule."""
    lone = sorted((g for g in grids if len(g.ys) == 1), key=lambda g: g.ys[0])
    if len(lone) > MAX_LONE_RULES:
        return []
    uppers = sorted([*lone, *_header_bars(rules)], key=lambda g: g.ys[0])
    pairs: list[Grid] = []
    for upper in uppers:
        if pairs and pairs[-1].ys[-1] >= upper.ys[0]:
            continue  # inside the pair above, or its bottom rule: starts no pair of its own
        below = (g for g in lone if g.ys[0] > upper.ys[0] + MIN_BAR_PT)
        lower = next((g for g in below if _same_width(upper, g)), None)
        if lower is None:
            continue
        frame = Grid(upper.xs, (upper.ys[0], lower.ys[0]), upper.rules + lower.rules, False)
        if not any(_inside(g, frame) for g in grids if g is not upper and g is not lower):
            pairs.append(frame)
    return pairs


def _header_bars(rules: Sequence[Rule]) -> list[Grid]:
    """Top edges of boxes MIN_BAR_PT to MAX_BAR_PT tall with no vertical rule inside (a
    filled title bar over a table's first row; a divided box is a row of a grid)."""
    verticals = [r for r in rules if not r.horizontal]
    bars: list[Grid] = []
    for rule in (r for r in rules if r.horizontal):
        below = [v for v in verticals if abs(v.start - rule.pos) <= TOUCH_PT]
        sides = {_side(v, rule) for v in below if MIN_BAR_PT <= v.length <= MAX_BAR_PT}
        inner = [v for v in below if rule.start + TOUCH_PT < v.pos < rule.end - TOUCH_PT]
        if sides >= {"left", "right"} and not inner:
            bars.append(Grid((rule.start, rule.end), (rule.pos,), (rule,), False))
    return bars


def _side(vertical: Rule, top: Rule) -> str:
    if abs(vertical.pos - top.start) <= TOUCH_PT:
        return "left"
    return "right" if abs(vertical.pos - top.end) <= TOUCH_PT else ""


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
    if has_title_type(pieces):
        return ()
    x0, x1 = frame.xs[0], frame.xs[-1]
    crossing = int(len(rows) * MAX_CROSSING_SHARE)
    gutters = text_gutters(rows, x0, x1, crossing, WORD_GUTTER_EM * size)
    narrow = text_gutters(rows, x0, x1, crossing, MIN_GUTTER_PT)
    gutters = sorted({*gutters, *(g for g in narrow if _starts_aligned(g, rows))})
    xs = (min(x0, *(p.bbox.x0 for p in pieces)), *gutters, max(x1, *(p.bbox.x1 for p in pieces)))
    top, bottom = frame.ys[0], frame.ys[-1]
    ys = (top, *row_boundaries(pieces, top, bottom, xs=(), force=True), bottom)
    title = _title_row(rows[0], gutters)
    if title:  # its own row: folded into the labels below, it would join a title to a label
        pieces = [p for p in pieces if p not in rows[0]]
        ys = ys[1:]
    parts = [part for piece in pieces for part in _value_apart(piece, gutters)]
    cells = tidy_cells(fill_cells(parts, xs, ys, lambda x, y: False))
    if title and cells:
        cells = ((title, *[""] * (len(cells[0]) - 1)), *cells)
    return cells if _short_cells(cells) else ()


def cells_of_blank_form(
    frame: Grid, pieces: Sequence[Piece], words_of_row: Callable[[Sequence[Piece]], list[Piece]]
) -> Cells:
    """Cells of a blank form between a pair: columns at the wide gaps between the words of its
    first row that no row below crosses; empty when the band is not such a form.
    `words_of_row` gives a row's words with their own boxes (a span's box does not show the
    gaps inside it)."""
    rows = group_rows(pieces)
    if not MIN_PAIR_ROWS <= len(rows) <= MAX_PAIR_ROWS or has_title_type(pieces):
        return ()
    header, body = rows[0], rows[1:]
    header_words = words_of_row(header)
    if _squeezed(cell_text(header)) != _squeezed(" ".join(w.text for w in header_words)):
        return ()  # the words are not the row's text (hidden text, a neighbour in the box)
    taken = [span for row in body for span in covered_spans(row)]
    gutters = [
        (left + right) / 2
        for left, right in _wide_gaps(header_words)
        if frame.xs[0] < (left + right) / 2 < frame.xs[-1]
        and not any(start < right and left < end for start, end in taken)
    ]
    if not gutters:
        return ()
    parts = [*header_words, *(p for row in body for p in row)]
    xs = (min(p.bbox.x0 for p in parts), *gutters, max(p.bbox.x1 for p in parts))
    top, bottom = frame.ys[0], frame.ys[-1]
    ys = (top, *row_boundaries(parts, top, bottom, xs=(), force=True), bottom)
    cells = tidy_cells(fill_cells(parts, xs, ys, lambda x, y: False))
    return cells if _short_cells(cells) else ()


def _wide_gaps(words: Sequence[Piece]) -> list[tuple[float, float]]:
    """The x-ranges between consecutive words at least BLANK_FORM_GAP_EM font sizes wide."""
    ordered = sorted(words, key=lambda w: w.bbox.x0)
    return [
        (left.bbox.x1, right.bbox.x0)
        for left, right in zip(ordered, ordered[1:], strict=False)
        if right.bbox.x0 - left.bbox.x1 >= BLANK_FORM_GAP_EM * max(left.size, right.size)
    ]


def _squeezed(text: str) -> str:
    return "".join(text.split())


def _title_row(row: Sequence[Piece], gutters: Sequence[float]) -> str:
    """The text of a first row that is one title across the columns (it crosses a gutter
    and has no gap of its own), else "". Written once, in the first cell: GFM has no span,
    and repeating a title in every cell would repeat it in the text retrieval embeds."""
    crosses = any(p.bbox.x0 < g < p.bbox.x1 for p in row for g in gutters)
    return cell_text(row) if crosses and len(segments(row)) == 1 else ""


def has_title_type(pieces: Sequence[Piece]) -> bool:
    """Text more than MAX_SIZE_RATIO times the median size: a title set large between
    rules (a page's masthead), which no table's cell carries."""
    size = statistics.median(p.size for p in pieces)
    return max(p.size for p in pieces) > MAX_SIZE_RATIO * size


def _starts_aligned(gutter: float, rows: Sequence[Sequence[Piece]]) -> bool:
    """A narrow gutter (closer than two font sizes) separates columns when the text right of
    it starts at one x in ALIGNED_ROW_SHARE of the rows: a left-aligned column set tight
    against the longest label beside it, not word spaces that happen to line up."""
    starts = [min(p.bbox.x0 for p in row if p.bbox.x0 > gutter) for row in rows
              if any(p.bbox.x0 > gutter for p in row)]  # fmt: skip
    if len(starts) < MIN_PAIR_ROWS:
        return False
    first = min(starts)
    aligned = sum(1 for x in starts if x - first <= ALIGNED_START_PT)
    return aligned >= ALIGNED_ROW_SHARE * len(rows) and first - gutter <= MAX_INDENT_PT


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
