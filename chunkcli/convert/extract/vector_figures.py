"""Drawings on text pages -> figure blocks whose words are the labels the text layer puts on
them (a chart's axis values, a diagram's box labels), gathered in rows instead of being
scattered into the paragraphs around them or read as a table.

A vector figure is a cluster of paths lying close together that holds shapes (filled areas
such as bars and wedges, curves, slanted lines: a table's rules are none of these) and
whose text, if any, is mostly short labels. Runs after table detection, on the paths and
lines no table took, so a ruled table is never a figure.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from chunkcli.charclasses import is_cjk
from chunkcli.convert.extract.captions import CAPTION_START
from chunkcli.convert.unionfind import root
from chunkcli.model import BBox, Block, BlockKind, Figure, Line


@dataclass(frozen=True, slots=True)
class VectorFigureSettings:
    """When a cluster of paths is a figure, and which text is its words."""

    # As for pictures (extract/figures.py): a figure covers at least this share of the page
    # and is at least this wide and high (points).
    min_share: float = 0.02
    min_side_pt: float = 36.0
    # Paths this close (points) belong to one figure: a chart's bars and its axis.
    join_gap_pt: float = 6.0
    # A figure holds at least this many shapes (a bar chart's bars, a pie's wedges, a line
    # chart's curves): boxes around text and underlines hold none.
    min_shapes: int = 3
    # A shape is filled and at least this wide and high, or a curve, or a slanted line.
    min_shape_side_pt: float = 2.0
    # A path larger than this share of the page is a background or a frame, not a figure's.
    max_path_share: float = 0.5
    # A figure's text is labels: at least this share of its lines are short (in columns, a
    # CJK character counting two): a box of running text is no figure.
    min_label_share: float = 0.7
    label_columns: int = 30
    # Labels lie at most this far left or right of, below and above a figure's marks
    # (points): a bar chart's category names and axis values, its legend; a heading above
    # it is further away (DP-Bench 040, 077: category names 30-45 pt from the bars).
    label_margins_pt: tuple[float, float, float] = (60.0, 24.0, 10.0)
    # A line whose words all stand this many of its sizes apart is a row of labels however
    # long (a scanned bar chart's years, read as one line); 0: only short lines are labels.
    label_gap_em: float = 0.0
    # A table with fewer of its cells filled than this, inside a figure, is the figure's
    # labels (DP-Bench 037's bar values: 10 of 21 cells; its real tables: 0.85 and more).
    min_table_fill: float = 0.6
    # Pages with more paths than this are read without looking for figures (a map, a
    # vector scan): clustering costs grow with the square of the paths.
    max_paths: int = 5000


def vector_figures(
    paths: Sequence[dict[str, Any]],
    lines: Sequence[Line],
    tables: Sequence[Block],
    page_box: BBox,
    number: int,
    settings: VectorFigureSettings = VectorFigureSettings(),
) -> tuple[list[Block], list[Line], list[Block]]:
    """Figure blocks for the drawings that are figures, the lines left outside them, and the
    tables that are no chart's labels.

    A table of numbers whose cells are mostly empty, lying inside a figure, is the figure's
    labels read as a grid (a stacked bar chart's values, DP-Bench 037); any other table is
    a table, and its paths (rules, shaded cells) are no figure's."""
    if len(paths) > settings.max_paths or not _enough_shapes(paths, settings):
        return [], list(lines), list(tables)  # (most pages: rules and boxes only)
    page_area = page_box.width * page_box.height
    kept_tables = [t for t in tables if not _chart_values(t, settings)]
    drawn = [
        p
        for p in paths
        if _area(p["rect"]) <= settings.max_path_share * page_area
        and not _path_in_any(p, kept_tables)
    ]
    if not _enough_shapes(drawn, settings):
        return [], list(lines), list(tables)
    figures: list[Block] = []
    left = list(lines)
    sparse = [t for t in tables if t not in kept_tables]
    for group, boxes in _clusters(drawn, settings.join_gap_pt):
        region = BBox.enclosing(boxes)
        if region.width * region.height < settings.min_share * page_area:
            continue
        if min(region.width, region.height) < settings.min_side_pt:
            continue
        if sum(1 for p in group if _is_shape(p, settings)) < settings.min_shapes:
            continue
        labels = [t for t in sparse if _contains(region, t.bbox)]
        inside = [ln for ln in left if region.contains_point(ln.bbox.center_x, ln.bbox.center_y)]
        inside += [ln for t in labels for ln in t.lines]
        made = labelled_figure(region, inside, left, number, settings)
        if made is None:
            continue
        block, left = made
        sparse = [t for t in sparse if t not in labels]
        figures.append(block)
    return figures, left, [t for t in tables if t in kept_tables or t in sparse]


def labelled_figure(
    region: BBox,
    inside: list[Line],
    lines: Sequence[Line],
    number: int,
    settings: VectorFigureSettings = VectorFigureSettings(),
) -> tuple[Block, list[Line]] | None:
    """The figure block of the marks in `region` whose words are the lines `inside` it and
    the labels among `lines` just beside it, and the lines left; None when the lines inside
    are no labels (a box of running text)."""
    if inside and not _labels(inside, settings):
        return None
    # Axis values, category names and legends sit just outside the drawn marks.
    margin = _margin_box(region, settings)
    beside = [
        ln
        for ln in _without(lines, inside)
        if _contains(margin, ln.bbox)
        and _is_label(ln, settings)
        and not CAPTION_START.match(ln.text)
    ]
    inside = inside + beside
    region = BBox.enclosing([region, *(ln.bbox for ln in beside)])
    left = _without(lines, inside)
    figure = Figure(region=region, words=_rows_text(inside))
    return Block(BlockKind.FIGURE, (), region, number, figure=figure), left


def _without(lines: Sequence[Line], taken: Sequence[Line]) -> list[Line]:
    """`[ln for ln in lines if ln not in taken]`: a line equal to one taken has its box, so
    only a line whose box is among theirs, and that is none of them, is compared with them
    (Line equality compares every span: labelled_figure 0.066 -> 0.012 s on the corpus and
    DP-Bench, 2026-12-04)."""
    ids = {id(ln) for ln in taken}  # (a line taken itself is in: `in` asks identity first)
    boxes = {ln.bbox for ln in taken}
    return [ln for ln in lines if id(ln) not in ids and (ln.bbox not in boxes or ln not in taken)]


def _margin_box(region: BBox, settings: VectorFigureSettings) -> BBox:
    side, below, above = settings.label_margins_pt
    return BBox(region.x0 - side, region.top - above, region.x1 + side, region.bottom + below)


def _chart_values(table: Block, settings: VectorFigureSettings) -> bool:
    """A table that is only a chart's values: most cells empty, and the others numbers (a
    blank form's empty cells sit beside words: DP-Bench 119)."""
    cells = [cell.strip() for row in table.cells for cell in row]
    filled = [cell for cell in cells if cell]
    if not cells or len(filled) >= settings.min_table_fill * len(cells):
        return False
    return all(_NUMBER.fullmatch(cell) for cell in filled)


_NUMBER = re.compile(r"[-+−▲△]?[\d.,]+\s*[%％]?")


def _contains(outer: BBox, inner: BBox, tolerance: float = 2.0) -> bool:
    return (
        inner.x0 >= outer.x0 - tolerance
        and inner.top >= outer.top - tolerance
        and inner.x1 <= outer.x1 + tolerance
        and inner.bottom <= outer.bottom + tolerance
    )


def _path_in_any(path: dict[str, Any], tables: Sequence[Block]) -> bool:
    if not tables:
        return False  # (most pages: every path is asked)
    x0, y0, x1, y1 = path["rect"]
    return any(t.bbox.contains_point((x0 + x1) / 2, (y0 + y1) / 2, 1.0) for t in tables)


def _clusters(
    paths: list[dict[str, Any]], gap: float
) -> list[tuple[list[dict[str, Any]], list[BBox]]]:
    """Paths joined when their boxes come within `gap`, top to bottom, each group with its
    paths' boxes (made once: a page holds thousands of paths)."""
    boxes = [_box(p["rect"]) for p in paths]
    groups = [([paths[i] for i in g], [boxes[i] for i in g]) for g in near_groups(boxes, gap)]
    return sorted(groups, key=lambda group: min(box.top for box in group[1]))


def near_groups(boxes: Sequence[BBox], gap: float) -> list[list[int]]:
    """Indices of `boxes` grouped where boxes come within `gap` of each other, directly or
    through others (a sweep on x and union-find: pages hold thousands of paths)."""
    order = sorted(range(len(boxes)), key=lambda i: boxes[i].x0)
    parent = list(range(len(boxes)))

    # The sweep's window (the boxes starting before this one's right edge + gap) found by
    # bisection, then only the vertical test in the loop: a page of wide paths compares
    # each with hundreds of others.
    starts = [boxes[i].x0 for i in order]
    tops = [boxes[i].top for i in order]
    bottoms = [boxes[i].bottom for i in order]
    for position, i in enumerate(order):
        a = boxes[i]
        top, bottom = a.top - gap, a.bottom + gap
        end = bisect.bisect_right(starts, a.x1 + gap, position + 1)
        if end == position + 1:
            continue  # (an empty window: no root is looked for)
        joined = root(parent, i)  # stays the root: only other roots are hung under it below
        for k in range(position + 1, end):
            if tops[k] <= bottom and top <= bottoms[k]:
                j = order[k]
                # A box hung under this one already is in its group: the groups depend only
                # on which boxes meet, so the look for its root is spared.
                if parent[j] != joined:
                    parent[root(parent, j)] = joined
    groups: dict[int, list[int]] = {}
    for i in range(len(boxes)):
        groups.setdefault(root(parent, i), []).append(i)
    return list(groups.values())


def _enough_shapes(paths: Sequence[dict[str, Any]], settings: VectorFigureSettings) -> bool:
    count = 0
    for path in paths:
        count += _is_shape(path, settings)
        if count >= settings.min_shapes:
            return True
    return False


def _is_shape(path: dict[str, Any], settings: VectorFigureSettings) -> bool:
    """A filled area with some size, a curve, or a slanted line: what tables do not draw."""
    if "f" in path.get("type", ""):  # (the box's sides without a BBox: every path is asked)
        x0, y0, x1, y1 = path["rect"]
        width, height = float(x1) - float(x0), float(y1) - float(y0)
        if min(width, height) >= settings.min_shape_side_pt:
            return True
    for item in path["items"]:
        if item[0] == "c":
            return True
        if item[0] == "l":
            (x0, y0), (x1, y1) = item[1], item[2]
            if abs(x1 - x0) > 1 and abs(y1 - y0) > 1:
                return True
    return False


def _labels(lines: Sequence[Line], settings: VectorFigureSettings) -> bool:
    short = sum(1 for ln in lines if _is_label(ln, settings))
    return short >= settings.min_label_share * len(lines)


def _is_label(line: Line, settings: VectorFigureSettings) -> bool:
    """A short line, or (with label_gap_em) a row of words standing far apart."""
    if _columns(line.text.strip()) <= settings.label_columns:
        return True
    if settings.label_gap_em <= 0 or len(line.spans) < 2:
        return False
    gap = settings.label_gap_em * line.size
    spans = line.spans
    return all(b.bbox.x0 - a.bbox.x1 >= gap for a, b in zip(spans, spans[1:], strict=False))


def _columns(text: str) -> int:
    return sum(2 if is_cjk(c) else 1 for c in text)


def _rows_text(lines: Sequence[Line]) -> str:
    """The lines in rows, top to bottom, each row left to right on one line of text."""
    rows: list[list[Line]] = []
    for line in sorted(lines, key=lambda ln: ln.bbox.center_y):
        last = rows[-1][-1] if rows else None
        if last is not None and abs(line.bbox.center_y - last.bbox.center_y) <= 0.5 * min(
            line.bbox.height, last.bbox.height
        ):
            rows[-1].append(line)
        else:
            rows.append([line])
    return "\n".join(
        " ".join(
            ln.text.strip() for ln in sorted(row, key=lambda ln: ln.bbox.x0) if ln.text.strip()
        )
        for row in rows
    ).strip()


def _box(rect: Any) -> BBox:
    x0, y0, x1, y1 = rect
    return BBox(float(x0), float(y0), float(x1), float(y1))


def _area(rect: Any) -> float:
    x0, y0, x1, y1 = rect
    return max(0.0, float(x1) - float(x0)) * max(0.0, float(y1) - float(y0))
