"""Reading order on one page: a recursive XY-cut that understands columns.

A region of the page is cut vertically where a gutter (an x-range no text crosses) separates
columns; the columns are read left to right. A region without a gutter is cut horizontally
at the empty y-ranges between its lines, and consecutive bands that share a gutter are
merged again before recursing, so that two columns whose lines happen to leave a common gap
are still read as columns, while a full-width title, abstract, table or figure caption ends
the column section above it. The PDF's drawing order plays no part.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from chunkcli.convert.layout.settings import OrderSettings
from chunkcli.convert.layout.sizes import typical_size
from chunkcli.model import BBox, Block, BlockKind, quick_init


@quick_init
@dataclass(frozen=True, slots=True)
class Gap:
    """An empty range on one axis, between `low` and `high`."""

    low: float
    high: float

    @property
    def width(self) -> float:
        return self.high - self.low


def order_blocks(
    blocks: tuple[Block, ...], settings: OrderSettings = OrderSettings()
) -> tuple[Block, ...]:
    """Return the page's content blocks in reading order, each tagged with its column id."""
    s = settings
    content = [b for b in blocks if b.kind != BlockKind.FURNITURE]
    if not content:
        return ()
    if _mostly_vertical(content):
        return tuple(_order_vertical(content, s))
    # Rotated text on a horizontal page (an arXiv stamp, a margin label) is a side note:
    # read it after the page body instead of in the middle of a column.
    side_notes: list[Block] = []
    body: list[Block] = []
    for block in content:
        (side_notes if _all_vertical(block) else body).append(block)
    ordered = _xy_cut(body, 0, [0], s)
    return tuple(ordered + [b.with_column(-1) for b in side_notes])


def _all_vertical(block: Block) -> bool:
    """A block of rotated lines only (no lines: none)."""
    lines = block.lines
    if len(lines) == 1:  # (most blocks: no generator)
        return lines[0].vertical
    return bool(lines) and all(line.vertical for line in lines)


def _xy_cut(blocks: list[Block], column: int, counter: list[int], s: OrderSettings) -> list[Block]:
    if len(blocks) <= 1:
        return [b.with_column(column) for b in blocks]
    gutters = _gutters(blocks, s)
    if gutters:
        parts = _split_by_gutters(blocks, gutters)
        rest = [b for part in parts[1:] for b in part]
        if len(parts) > 1 and _is_margin_column(parts[0], rest, s):
            counter[0] += 1
            margin = [b.with_column(counter[0]) for b in _rows_top_down(parts[0], s)]
            return _interleave(margin, _xy_cut(rest, counter[0] + 1, counter, s))
        result: list[Block] = []
        for part in parts:
            counter[0] += 1
            result.extend(_xy_cut(part, counter[0], counter, s))
        return result
    groups = _merged_bands(blocks, s)
    if len(groups) == 1:
        return [b.with_column(column) for b in _rows_top_down(blocks, s)]
    return [b for group in groups for b in _xy_cut(group, column, counter, s)]


def _is_margin_column(margin: list[Block], body: list[Block], s: OrderSettings) -> bool:
    left = min(b.bbox.x0 for b in margin)
    width = max(b.bbox.x1 for b in body) - left
    if not body or width <= 0 or len(margin) > len(body):
        return False
    height = max(b.bbox.bottom for b in body) - min(b.bbox.top for b in body)
    if sum(b.bbox.height for b in margin) > s.margin_max_cover_share * height:
        return False
    if max(b.bbox.x1 for b in margin) - left > s.margin_max_width_share * width:
        return False
    beside = sum(1 for m in margin if any(m.bbox.y_overlap(b.bbox) > 0 for b in body))
    return beside >= s.margin_beside_share * len(margin)


def _interleave(margin: list[Block], body: list[Block]) -> list[Block]:
    """Each group of margin lines (lines less than a line apart) before the first body
    line that starts at or below the group's top."""
    groups: list[list[Block]] = []
    for block in margin:
        if groups and block.bbox.top - groups[-1][-1].bbox.bottom < block.bbox.height:
            groups[-1].append(block)
        else:
            groups.append([block])
    result: list[Block] = []
    pending = list(groups)
    for block in body:
        while pending and pending[0][0].bbox.top <= block.bbox.top + 0.5 * block.bbox.height:
            result.extend(pending.pop(0))
        result.append(block)
    return result + [b for group in pending for b in group]


def _gutters(blocks: Sequence[Block], s: OrderSettings) -> list[Gap]:
    """Gutters that split `blocks` into side-by-side stacks of text (not one row of items,
    not a column of bullets or item numbers beside their text)."""
    if _single_row(blocks):
        return []
    gaps = _x_gaps([b.bbox for b in blocks], s)
    while gaps:
        edges = [g.high for g in gaps]
        sides: list[list[Block]] = [[] for _ in range(len(gaps) + 1)]
        for block in blocks:
            sides[sum(1 for edge in edges if block.bbox.x0 >= edge - 0.01)].append(block)
        weak = next((i for i, side in enumerate(sides) if not _holds_text(side, s)), None)
        if weak is None:
            return gaps
        # A side that is no column (a margin mark, a lone label) joins its neighbour.
        del gaps[weak - 1 if weak > 0 else 0]
    return []


def _holds_text(blocks: list[Block], s: OrderSettings) -> bool:
    if any(b.kind == BlockKind.FIGURE for b in blocks):
        return True  # a figure beside text stands in a column of its own (its caption in it)
    if len(blocks) < 2 or _single_row(blocks):
        return False  # one line beside a gap is a run-in heading or a label, not a column
    widths = sorted(b.bbox.width for b in blocks)
    heights = sorted(b.bbox.height for b in blocks)
    return widths[len(widths) // 2] >= s.min_column_width_lines * heights[len(heights) // 2]


def _x_gaps(boxes: Sequence[BBox], s: OrderSettings) -> list[Gap]:
    """Empty x-ranges at least s.min_gutter_pt wide between the boxes (not at the edges)."""
    left = min(b.x0 for b in boxes)
    right = max(b.x1 for b in boxes)
    return [g for g in _empty_ranges(boxes, left, right, s) if left < g.low and g.high < right]


def _split_by_gutters(blocks: list[Block], gutters: list[Gap]) -> list[list[Block]]:
    parts: list[list[Block]] = [[] for _ in range(len(gutters) + 1)]
    for block in blocks:
        index = sum(1 for g in gutters if block.bbox.x0 >= g.high - 0.01)
        parts[index].append(block)
    return [p for p in parts if p]


def _merged_bands(blocks: list[Block], s: OrderSettings) -> list[list[Block]]:
    """Horizontal bands between empty y-ranges; neighbours sharing an empty x-range merge.

    Empty ranges are measured across the whole region, edges included, so a band holding
    one line of the left column still shares the gutter with the two-column bands around it.
    A heading below the end of a column section that leads into a band crossing the gutter
    (a section banner above a full-width title) starts the next group instead.
    """
    left = min(b.bbox.x0 for b in blocks)
    right = max(b.bbox.x1 for b in blocks)
    groups: list[list[Block]] = []
    shared: list[Gap] = []
    extent = (left, right)
    bands = _y_bands(blocks, s)
    for index, band in enumerate(bands):
        boxes = [b.bbox for b in band]
        band_gaps = _empty_ranges(boxes, left, right, s)
        if len(boxes) == 1:  # (most bands are one line: no generators)
            band_extent = (boxes[0].x0, boxes[0].x1)
        else:
            band_extent = (min(b.x0 for b in boxes), max(b.x1 for b in boxes))
        merged_extent = (min(extent[0], band_extent[0]), max(extent[1], band_extent[1]))
        # A shared gap only counts between text: common page margins join nothing.
        common = [
            g
            for g in (_intersect(shared, band_gaps, s) if groups else [])
            if merged_extent[0] < g.low and g.high < merged_extent[1]
        ]
        following = bands[index + 1] if index + 1 < len(bands) else None
        if common and not _leads_past_gutter(band, following, groups[-1], common, s):
            groups[-1].extend(band)
            shared, extent = common, merged_extent
        else:
            groups.append(list(band))
            shared, extent = band_gaps, band_extent
    return groups


def _leads_past_gutter(
    band: list[Block],
    following: list[Block] | None,
    section: list[Block],
    gutters: list[Gap],
    s: OrderSettings,
) -> bool:
    """A band on one side of the section's gutters, of heading type (larger than the section's
    text), followed by a band that crosses them: it heads what follows, not its column."""
    if following is None or _crosses(band, gutters) or not _crosses(following, gutters):
        return False
    if not all(_lines_beside(section, g, s) for g in gutters):
        return False  # labels of a diagram, not columns of text
    return _largest_size(band) >= s.banner_size_ratio * typical_size(section)


def _lines_beside(section: list[Block], gutter: Gap, s: OrderSettings) -> bool:
    """Both sides of the gutter hold a column's worth of lines."""
    left = sum(len(b.lines) for b in section if b.bbox.x1 <= gutter.low)
    right = sum(len(b.lines) for b in section if b.bbox.x0 >= gutter.high)
    return min(left, right) >= s.banner_min_column_lines


def _crosses(blocks: list[Block], gutters: list[Gap]) -> bool:
    low, high = min(b.bbox.x0 for b in blocks), max(b.bbox.x1 for b in blocks)
    return any(low < g.low and high > g.high for g in gutters)


def _largest_size(blocks: list[Block]) -> float:
    return max((line.size for b in blocks for line in b.lines), default=0.0)


def _empty_ranges(boxes: Sequence[BBox], left: float, right: float, s: OrderSettings) -> list[Gap]:
    # The region's edges count as text one gutter wide (plain pairs: this runs once per band).
    gutter = s.min_gutter_pt
    spans = [(left - gutter, left), (right, right + gutter)]
    spans += [(b.x0, b.x1) for b in boxes]
    spans.sort()
    gaps: list[Gap] = []
    reach = spans[0][1]
    for index in range(1, len(spans)):
        x0, x1 = spans[index]
        if x0 - reach >= gutter:
            gaps.append(Gap(reach, x0))
        if x1 > reach:  # max(reach, x1)
            reach = x1
    return gaps


def _y_bands(blocks: list[Block], s: OrderSettings) -> list[list[Block]]:
    """Runs of blocks separated by empty horizontal strips.

    Boxes are judged by their core (the middle of their height): OCR text layers and tall
    fonts give line boxes that overlap their neighbours, which would glue a whole page of
    columns into one band.
    """
    ordered = sorted(blocks, key=lambda b: (b.bbox.top, b.bbox.x0))
    bands: list[list[Block]] = []
    bottom = float("-inf")
    for block in ordered:
        top, core_bottom = _core(block.bbox, s)
        if block.kind == BlockKind.FIGURE:  # a picture's edges are exact: no overlap to allow
            top, core_bottom = block.bbox.top, block.bbox.bottom
        if top >= bottom:
            bands.append([block])
            bottom = core_bottom
        else:
            bands[-1].append(block)
            bottom = max(bottom, core_bottom)
    return bands


def _core(box: BBox, s: OrderSettings) -> tuple[float, float]:
    margin = s.box_core_margin * min(box.height, s.max_core_margin_pt)
    return box.top + margin, box.bottom - margin


def _intersect(first: list[Gap], second: list[Gap], s: OrderSettings) -> list[Gap]:
    common: list[Gap] = []
    for a in first:
        for b in second:
            low, high = max(a.low, b.low), min(a.high, b.high)
            if high - low >= s.min_gutter_pt:  # (Gap.width, before a Gap is made)
                common.append(Gap(low, high))
    return common


def _single_row(blocks: Sequence[Block]) -> bool:
    # max() and min() of the boxes' edges in one pass (asked of every region the cut meets)
    box = blocks[0].bbox
    top, bottom = box.top, box.bottom
    for block in blocks[1:]:
        box = block.bbox
        if box.top > top:
            top = box.top
        if box.bottom < bottom:
            bottom = box.bottom
    return bottom > top  # every box overlaps one common horizontal line


def _rows_top_down(blocks: list[Block], s: OrderSettings) -> list[Block]:
    """Lines on one row left to right, rows top to bottom. Figures side by side make a row of
    their own at their bottom edge: the lines beside them (a column they do not quite clear)
    are read first, instead of being cut where a figure's middle lies."""
    rows: list[list[Block]] = []
    for block in sorted((b for b in blocks if b.kind != BlockKind.FIGURE), key=_row_y):
        if rows and _same_row(rows[-1][0].bbox, block.bbox, s):
            rows[-1].append(block)
        else:
            rows.append([block])
    figure_rows: list[list[Block]] = []
    for figure in sorted((b for b in blocks if b.kind == BlockKind.FIGURE), key=_row_y):
        row = next((r for r in figure_rows if _side_by_side(r[0].bbox, figure.bbox)), None)
        if row is None:
            figure_rows.append([figure])
        else:
            row.append(figure)
    ordered = sorted(rows + figure_rows, key=lambda row: min(_row_y(b) for b in row))
    return [b for row in ordered for b in sorted(row, key=lambda b: b.bbox.x0)]


def _side_by_side(a: BBox, b: BBox) -> bool:
    """Two figures sharing most of their height stand in one row."""
    return a.y_overlap(b) >= 0.5 * min(a.height, b.height)


# A line beside a figure whose middle lies up to this far below the figure's bottom edge is
# still read before it (DP-Bench 062: the column's last line ends 6 pt below the picture).
FIGURE_ROW_SLACK_PT = 8.0


def _row_y(block: Block) -> float:
    if block.kind == BlockKind.FIGURE:
        return block.bbox.bottom + FIGURE_ROW_SLACK_PT
    return block.bbox.center_y


def _same_row(a: BBox, b: BBox, s: OrderSettings) -> bool:
    height = max(1.0, min(a.height, b.height))
    return abs(a.center_y - b.center_y) <= s.same_row_share * height


# --- vertical text (縦書き): columns of glyphs read right to left -----------------------------


def _mostly_vertical(blocks: list[Block]) -> bool:
    lines = [line for b in blocks for line in b.lines]
    vertical = sum(1 for line in lines if line.vertical)
    return bool(lines) and vertical * 2 > len(lines)


def _order_vertical(blocks: list[Block], s: OrderSettings) -> list[Block]:
    """縦書き: regions split at gutters are read right to left, tiers (段) split at empty
    horizontal strips top to bottom, and the lines of one tier right to left."""
    if len(blocks) <= 1:
        return blocks
    gaps = _x_gaps([b.bbox for b in blocks], s)
    if gaps:
        parts = _split_by_gutters(blocks, gaps)
        return [b for part in reversed(parts) for b in _order_vertical(part, s)]
    tiers = _y_bands(blocks, s)
    if len(tiers) > 1:
        return [b for tier in tiers for b in _order_vertical(tier, s)]
    return sorted(blocks, key=lambda b: (-b.bbox.x1, b.bbox.top))
