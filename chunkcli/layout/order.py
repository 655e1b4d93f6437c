"""Reading order on one page: columns, full-width elements between them, vertical text.

The page's text lines are assigned to columns separated by gutters (vertical strips that no
column line crosses). Anything that crosses a gutter - a title, an abstract, a wide table or
figure caption - spans the page and closes the current "section": the section's columns are
read left to right, each top to bottom, then the spanning element, then the next section.
This is independent of the order in which the PDF happens to draw its text.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from statistics import median

from chunkcli.model import BBox, Block, BlockKind

# Lines wider than this share of the text width are not column lines (titles, abstracts).
COLUMN_LINE_MAX_SHARE = 0.55
# A gutter is at least this wide (points) and lies away from the page's outer edges.
MIN_GUTTER_PT = 7.0
GUTTER_EDGE_SHARE = 0.12
# Each side of a gutter needs this many lines (and this share of column lines): fewer
# is a ragged single column or a stray label, not a column.
MIN_COLUMN_LINES = 3
MIN_COLUMN_SHARE = 0.12
# Column lines are prose: their median width fills at least this share of the column.
MIN_COLUMN_FILL = 0.45
# At most this share of narrow lines may cross a gutter: centred author lines, short
# captions and headings span columns; the side tests below keep single columns out.
GUTTER_NOISE_SHARE = 0.2
# Lines whose vertical centres are this close (share of line height) are one row.
SAME_ROW_SHARE = 0.5


@dataclass(frozen=True, slots=True)
class Gutter:
    x0: float
    x1: float


def order_blocks(blocks: tuple[Block, ...]) -> tuple[Block, ...]:
    """Return the page's blocks in reading order, each tagged with its column index."""
    content = [b for b in blocks if b.kind != BlockKind.FURNITURE]
    if not content:
        return blocks
    if _mostly_vertical(content):
        return tuple(_order_vertical(content))
    # Rotated text on a horizontal page (an arXiv stamp, a margin label) is a side note:
    # read it after the page body instead of in the middle of a column.
    side_notes = [b for b in content if b.lines and all(line.vertical for line in b.lines)]
    content = [b for b in content if b not in side_notes]
    gutters = find_gutters([b.bbox for b in content if b.kind != BlockKind.TABLE])
    ordered: list[Block] = []
    section: list[Block] = []
    for block in sorted(content, key=lambda b: (b.bbox.top, b.bbox.x0)):
        column = column_of(block.bbox, gutters)
        if column < 0:
            ordered.extend(_read_section(section))
            section = []
            ordered.append(replace(block, column=-1))
        else:
            section.append(replace(block, column=column))
    ordered.extend(_read_section(section))
    return tuple(ordered + [replace(b, column=-2) for b in side_notes])


def _read_section(section: list[Block]) -> list[Block]:
    """Columns left to right, each top to bottom; lines on one row left to right."""
    result: list[Block] = []
    for column in sorted({b.column for b in section}):
        members = [b for b in section if b.column == column]
        result.extend(_rows_top_down(members))
    return result


def _rows_top_down(blocks: list[Block]) -> list[Block]:
    blocks = sorted(blocks, key=lambda b: b.bbox.center_y)
    rows: list[list[Block]] = []
    for block in blocks:
        if rows and _same_row(rows[-1][0].bbox, block.bbox):
            rows[-1].append(block)
        else:
            rows.append([block])
    return [b for row in rows for b in sorted(row, key=lambda b: b.bbox.x0)]


def _same_row(a: BBox, b: BBox) -> bool:
    height = max(1.0, min(a.height, b.height))
    return abs(a.center_y - b.center_y) <= SAME_ROW_SHARE * height


def column_of(box: BBox, gutters: list[Gutter]) -> int:
    """Column index of a box, or -1 when it crosses a gutter (spans columns)."""
    column = 0
    for gutter in gutters:
        if box.x0 < gutter.x0 - 1 and box.x1 > gutter.x1 + 1:
            return -1
        if box.center_x > (gutter.x0 + gutter.x1) / 2:
            column += 1
    return column


def find_gutters(boxes: list[BBox]) -> list[Gutter]:
    """Vertical strips that separate columns of prose lines, left to right."""
    if len(boxes) < 2 * MIN_COLUMN_LINES:
        return []
    left = min(b.x0 for b in boxes)
    right = max(b.x1 for b in boxes)
    width = right - left
    if width <= 0:
        return []
    narrow = [b for b in boxes if b.width < COLUMN_LINE_MAX_SHARE * width]
    if len(narrow) < 2 * MIN_COLUMN_LINES:
        return []
    candidates = _empty_strips(narrow, left, right)
    gutters = [g for g in candidates if _separates_columns(g, narrow)]
    return gutters if _columns_are_prose(gutters, narrow, left, right) else []


def _empty_strips(boxes: list[BBox], left: float, right: float) -> list[Gutter]:
    """Strips (1 pt resolution) crossed by at most a noise share of the boxes."""
    size = int(right - left) + 2
    coverage = [0] * (size + 1)
    for box in boxes:
        coverage[int(box.x0 - left)] += 1
        coverage[int(box.x1 - left) + 1] -= 1
    allowed = int(GUTTER_NOISE_SHARE * len(boxes))
    low = left + GUTTER_EDGE_SHARE * (right - left)
    high = right - GUTTER_EDGE_SHARE * (right - left)
    strips: list[Gutter] = []
    running, start = 0, None
    for offset in range(size):
        running += coverage[offset]
        x = left + offset
        empty = running <= allowed and low <= x <= high
        if empty and start is None:
            start = x
        elif not empty and start is not None:
            if x - start >= MIN_GUTTER_PT:
                strips.append(Gutter(start, x))
            start = None
    return strips


def _separates_columns(gutter: Gutter, boxes: list[BBox]) -> bool:
    middle = (gutter.x0 + gutter.x1) / 2
    left_side = [b for b in boxes if b.x1 <= middle]
    right_side = [b for b in boxes if b.x0 >= middle]
    needed = max(MIN_COLUMN_LINES, MIN_COLUMN_SHARE * len(boxes))
    if len(left_side) < needed or len(right_side) < needed:
        return False
    # Side by side, not one above the other.
    overlap = min(max(b.bottom for b in left_side), max(b.bottom for b in right_side)) - max(
        min(b.top for b in left_side), min(b.top for b in right_side)
    )
    return overlap > 0


def _columns_are_prose(
    gutters: list[Gutter], boxes: list[BBox], left: float, right: float
) -> bool:
    """Every column's lines fill it like prose, so label/value forms stay rows."""
    if not gutters:
        return False
    edges = [left] + [(g.x0 + g.x1) / 2 for g in gutters] + [right]
    for start, end in zip(edges, edges[1:], strict=False):
        members = [b.width for b in boxes if b.x0 >= start - 1 and b.x1 <= end + 1]
        if not members or median(members) < MIN_COLUMN_FILL * (end - start):
            return False
    return True


# --- vertical text (縦書き): columns of glyphs read right to left -----------------------------

# Vertical lines whose vertical extents overlap belong to one tier; tiers are read top down.
def _mostly_vertical(blocks: list[Block]) -> bool:
    lines = [line for b in blocks for line in b.lines]
    vertical = sum(1 for line in lines if line.vertical)
    return bool(lines) and vertical * 2 > len(lines)


def _order_vertical(blocks: list[Block]) -> list[Block]:
    tiers: list[list[Block]] = []
    for block in sorted(blocks, key=lambda b: b.bbox.top):
        tier = next((t for t in tiers if _in_tier(t, block.bbox)), None)
        if tier is None:
            tiers.append([block])
        else:
            tier.append(block)
    ordered: list[Block] = []
    for tier in tiers:
        ordered.extend(sorted(tier, key=lambda b: (-b.bbox.x1, b.bbox.top)))
    return ordered


def _in_tier(tier: list[Block], box: BBox) -> bool:
    top = min(b.bbox.top for b in tier)
    bottom = max(b.bbox.bottom for b in tier)
    return box.top < bottom and box.bottom > top
