"""Vector drawings -> horizontal and vertical rules (the raw material of ruled tables).

Input is the list of path dicts PyMuPDF's `page.get_cdrawings()` returns; output is a tuple of
merged, axis-aligned `Rule`s in PDF points (origin top-left). Pure: no PyMuPDF import.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from chunkcli.model import BBox, quick_init

# A filled rectangle no thicker than this is a drawn line (many producers draw rules as thin
# rectangles); 3 pt is thicker than any rule we saw and thinner than any shaded cell.
THIN_RECT_PT = 3.0
# A rule drawn as a filled polygon is a quadrilateral: this many line segments.
QUAD_SIDES = 4
# Endpoints closer than this to the same line are the same rule: covers anti-aliasing offsets,
# stroke-width differences and the 0.24 pt overlap of adjacent shaded cells.
SNAP_PT = 1.5
# Collinear pieces separated by at most this much are one rule (dashed or cell-by-cell rules).
JOIN_GAP_PT = 2.5
# A rule shorter than this is a tick, a bullet or a glyph part, not a table border.
MIN_RULE_PT = 6.0
# Pages with more filled rectangles than this are charts or maps: fills are not compared.
MAX_FILLS = 400
# A filled box larger than this fraction of the page is a background, not a cell.
BACKGROUND_AREA_FRACTION = 0.4
# Rules within this distance of the page edge are page borders or bleed marks.
PAGE_EDGE_MARGIN_PT = 2.0
# A colour whose every channel is at least this is white on paper: invisible, so no border.
WHITE_CHANNEL = 0.95

Drawing = Mapping[str, Any]


@quick_init
@dataclass(frozen=True, slots=True)
class Rule:
    """An axis-aligned rule: `pos` is y for horizontal rules and x for vertical ones."""

    horizontal: bool
    pos: float
    start: float
    end: float

    @property
    def length(self) -> float:
        return self.end - self.start


def rules_from_drawings(
    drawings: Iterable[Drawing], page_box: BBox, rotation: Matrix | None = None
) -> tuple[Rule, ...]:
    """Merged horizontal and vertical rules drawn on the page (page borders dropped).

    `rotation` maps unrotated drawing coordinates to the rotated page the text is in.
    """
    raw: list[Rule] = []
    page_area = page_box.width * page_box.height
    drawings = list(drawings)
    fills = _fill_rects(drawings)
    white: dict[tuple[Any, ...], bool] = {}  # _is_white of each colour the page uses
    for drawing in drawings:
        found = _rules_of_drawing(drawing, page_area, white)
        if not found:
            continue  # (most paths: glyph outlines, curves, boxes too small to be rules)
        colour = drawing.get("fill")
        if "s" not in str(drawing.get("type", "")) and colour in fills:
            found = [r for r in found if not _inside_same_fill(r, fills[colour])]
        raw.extend(found)
    if rotation is not None:
        raw = list(rotate_rules(raw, rotation))
    inside = [r for r in (_clip(r, page_box) for r in raw) if r is not None]
    return merge_rules(inside)


def _fill_rects(drawings: Sequence[Drawing]) -> dict[Any, list[tuple[float, ...]]]:
    """Rectangles filled and not stroked, by fill colour (at most MAX_FILLS: beyond, a map or
    a chart, whose edges no table needs)."""
    fills: dict[Any, list[tuple[float, ...]]] = {}
    for drawing in drawings:
        if str(drawing.get("type", "")) != "f" or drawing.get("fill") is None:
            continue
        for item in drawing.get("items", ()):
            if item[0] == "re":
                fills.setdefault(drawing["fill"], []).append(tuple(map(float, item[1])))
    return fills if sum(map(len, fills.values())) <= MAX_FILLS else {}


def _inside_same_fill(rule: Rule, rects: Sequence[tuple[float, ...]]) -> bool:
    """An edge of a fill lying inside another fill of the same colour is not seen: the colour
    is the same on both sides (a cell shaded whole and again line by line)."""
    pos, start, end = rule.pos, rule.start, rule.end  # (read once, not once a rectangle)
    if rule.horizontal:
        for x0, y0, x1, y1 in rects:
            if y0 + SNAP_PT < pos < y1 - SNAP_PT and x0 - SNAP_PT <= start and end <= x1 + SNAP_PT:
                return True
        return False
    for x0, y0, x1, y1 in rects:
        if x0 + SNAP_PT < pos < x1 - SNAP_PT and y0 - SNAP_PT <= start and end <= y1 + SNAP_PT:
            return True
    return False


def _rules_of_drawing(
    drawing: Drawing, page_area: float, white: dict[tuple[Any, ...], bool] | None = None
) -> list[Rule]:
    """The rules one path draws; `white` keeps `_is_white` of the colours seen so far."""
    kind = drawing.get("type", "")
    if type(kind) is not str:
        kind = str(kind)
    stroked = "s" in kind and not _is_white_seen(drawing.get("color"), white)
    filled = "f" in kind and not _is_white_seen(drawing.get("fill"), white)
    if not (stroked or filled):
        return []  # (every item asks for one of them: none is looked at)
    found: list[Rule] = []
    for item in drawing.get("items", ()):
        op = item[0]
        if op == "l" and stroked:
            rule = _rule_of_line(item[1], item[2])
            if rule is not None:
                found.append(rule)
        elif op == "re" and (stroked or filled):
            found.extend(_rules_of_rect(item[1], stroked, page_area))
        elif op == "qu" and (stroked or filled):
            found.extend(_rules_of_rect(_quad_rect(item[1]), stroked, page_area))
    if filled and not stroked and not found:
        found.extend(_thin_polygon(drawing))
    return found


def _thin_polygon(drawing: Drawing) -> list[Rule]:
    """A filled quadrilateral of four line segments no thicker than THIN_RECT_PT is a rule
    (spreadsheet exports draw each grid line as a thin mitred quadrilateral, filled, never
    stroked). Outlines of more segments are glyph-like shapes: the underlines of a slide's
    bold text, drawn in 6-10 pieces, made a table of a diagram's label on the corpus."""
    items = drawing.get("items", ())
    rect = drawing.get("rect")
    if len(items) != QUAD_SIDES or rect is None or any(item[0] != "l" for item in items):
        return []
    x0, y0, x1, y1 = (float(v) for v in rect)
    if min(x1 - x0, y1 - y0) > THIN_RECT_PT:
        return []
    return _rules_of_rect((x0, y0, x1, y1), False, float("inf"))


def _is_white_seen(colour: object, white: dict[tuple[Any, ...], bool] | None) -> bool:
    """`_is_white(colour)`, looked up in `white` when asked before (a page draws thousands of
    paths in a few colours)."""
    if white is None or type(colour) is not tuple:
        return _is_white(colour)
    seen = white.get(colour)
    if seen is None:
        seen = white[colour] = _is_white(colour)
    return seen


def _is_white(colour: object) -> bool:
    if colour is None:
        return True  # no colour at all: nothing visible is painted
    # (PyMuPDF's colours are tuples: asked first, it spares the Sequence ABC's check)
    if not (type(colour) is tuple or isinstance(colour, Sequence)) or not colour:
        return False
    return all(isinstance(c, float | int) and c >= WHITE_CHANNEL for c in colour)


def _rule_of_line(p: Sequence[float], q: Sequence[float]) -> Rule | None:
    """The rule a straight segment draws, if it is one (no list: this runs for every
    segment of every path)."""
    x0, y0, x1, y1 = p[0], p[1], q[0], q[1]
    if abs(y1 - y0) <= SNAP_PT / 2 and abs(x1 - x0) >= MIN_RULE_PT:
        return Rule(True, (y0 + y1) / 2, min(x0, x1), max(x0, x1))
    if abs(x1 - x0) <= SNAP_PT / 2 and abs(y1 - y0) >= MIN_RULE_PT:
        return Rule(False, (x0 + x1) / 2, min(y0, y1), max(y0, y1))
    return None


def _quad_rect(quad: Sequence[Sequence[float]]) -> tuple[float, float, float, float]:
    xs = [pt[0] for pt in quad]
    ys = [pt[1] for pt in quad]
    return (min(xs), min(ys), max(xs), max(ys))


def _rules_of_rect(rect: Sequence[float], stroked: bool, page_area: float) -> list[Rule]:
    x0, y0, x1, y1 = (
        min(rect[0], rect[2]),
        min(rect[1], rect[3]),
        max(rect[0], rect[2]),
        max(rect[1], rect[3]),
    )
    width, height = x1 - x0, y1 - y0
    if height <= THIN_RECT_PT and width >= MIN_RULE_PT:
        return [Rule(True, (y0 + y1) / 2, x0, x1)]
    if width <= THIN_RECT_PT and height >= MIN_RULE_PT:
        return [Rule(False, (x0 + x1) / 2, y0, y1)]
    if not stroked and width * height > BACKGROUND_AREA_FRACTION * page_area:
        return []
    if width < MIN_RULE_PT or height < MIN_RULE_PT:
        return []
    return [
        Rule(True, y0, x0, x1),
        Rule(True, y1, x0, x1),
        Rule(False, x0, y0, y1),
        Rule(False, x1, y0, y1),
    ]


def _clip(rule: Rule, page: BBox) -> Rule | None:
    lo, hi = (page.x0, page.x1) if rule.horizontal else (page.top, page.bottom)
    across_lo, across_hi = (page.top, page.bottom) if rule.horizontal else (page.x0, page.x1)
    if not across_lo + PAGE_EDGE_MARGIN_PT < rule.pos < across_hi - PAGE_EDGE_MARGIN_PT:
        return None
    start, end = max(rule.start, lo), min(rule.end, hi)
    if end - start < MIN_RULE_PT:
        return None
    if start is rule.start and end is rule.end:
        return rule  # (nearly every rule lies inside the page: it is frozen, no copy is made)
    return Rule(rule.horizontal, rule.pos, start, end)


Matrix = tuple[float, float, float, float, float, float]


def rotate_rules(rules: Iterable[Rule], matrix: Matrix) -> tuple[Rule, ...]:
    """Rules mapped by a page's rotation matrix (drawings come unrotated, text rotated)."""
    a, b, c, d, e, f = matrix
    moved: list[Rule] = []
    for rule in rules:
        ends = ((rule.start, rule.pos), (rule.end, rule.pos))
        if not rule.horizontal:
            ends = ((rule.pos, rule.start), (rule.pos, rule.end))
        (x0, y0), (x1, y1) = ((a * x + c * y + e, b * x + d * y + f) for x, y in ends)
        if abs(y1 - y0) <= abs(x1 - x0):
            moved.append(Rule(True, (y0 + y1) / 2, min(x0, x1), max(x0, x1)))
        else:
            moved.append(Rule(False, (x0 + x1) / 2, min(y0, y1), max(y0, y1)))
    return tuple(moved)


def merge_rules(rules: Iterable[Rule]) -> tuple[Rule, ...]:
    """Snap rules on (nearly) the same line together and join collinear pieces."""
    merged: list[Rule] = []
    for horizontal in (True, False):
        same_axis = sorted((r for r in rules if r.horizontal == horizontal), key=lambda r: r.pos)
        for group in _snap_groups(same_axis):
            merged.extend(_join_collinear(group))
    return tuple(merged)


def _snap_groups(rules: list[Rule]) -> list[list[Rule]]:
    groups: list[list[Rule]] = []
    for rule in rules:
        if groups and rule.pos - groups[-1][-1].pos <= SNAP_PT:
            groups[-1].append(rule)
        else:
            groups.append([rule])
    return groups


def _join_collinear(group: list[Rule]) -> list[Rule]:
    pos = sum(r.pos for r in group) / len(group)
    joined: list[Rule] = []
    for rule in sorted(group, key=lambda r: r.start):
        if joined and rule.start <= joined[-1].end + JOIN_GAP_PT:
            last = joined[-1]
            joined[-1] = Rule(last.horizontal, pos, last.start, max(last.end, rule.end))
        else:
            joined.append(Rule(rule.horizontal, pos, rule.start, rule.end))
    return joined
