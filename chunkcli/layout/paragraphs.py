"""Ordered lines -> paragraphs and list items.

Consecutive lines of one column join into a paragraph until something marks a new one:
extra vertical space, a change of font size or weight, a bullet or enumerator, a first-line
indent (including Japanese full-width-space indents), or a short previous line that ends a
sentence. Vertical (縦書き) columns use the same ideas turned by 90 degrees.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from statistics import median

from chunkcli.model import BBox, Block, BlockKind, Line

BULLET = re.compile(r"^\s*([•●○◦▪▫■□◆◇►▶・※\u2023\u2043\u2219*+\-–])(\s+|(?=[^\x00-\x7f]))")
ENUMERATOR = re.compile(
    r"^\s*(\d{1,3}[.)]|\(\d{1,3}\)|（\d{1,3}）|[a-zA-Z][.)](?=\s)|\([a-z]\)|[①-⑳]"
    r"|[(（][一二三四五六七八九十]+[)）]|[ア-ン][.．])(\s+|(?=[^\x00-\x7f\d.]))"
)
SENTENCE_END = tuple(".!?。！？:：」』)）")
# Extra space above a line beyond the page's usual leading, in font sizes, that starts a paragraph.
PARAGRAPH_GAP_EM = 0.45
# Font sizes that differ by more than this (points) belong to different blocks.
SIZE_CHANGE_PT = 0.8
# A line ending this many font sizes before its column's right edge is short.
SHORT_LINE_EM = 2.0
# A first line indented by this many font sizes starts a paragraph.
INDENT_EM = 0.8


@dataclass(frozen=True, slots=True)
class _Column:
    """Edges of the lines of one column on one page, for indent and short-line tests."""

    left: float
    right: float
    leading: float


def group_paragraphs(blocks: tuple[Block, ...]) -> tuple[Block, ...]:
    """Merge ordered single-line blocks into paragraph and list-item blocks."""
    columns = _column_edges(blocks)
    result: list[Block] = []
    for block in blocks:
        previous = result[-1] if result else None
        if (
            previous is not None
            and block.kind == BlockKind.PARAGRAPH
            and previous.kind in (BlockKind.PARAGRAPH, BlockKind.LIST_ITEM)
            and continues(previous, block.lines[0], columns.get(block.column))
        ):
            result[-1] = _append(previous, block)
        elif block.kind == BlockKind.PARAGRAPH and starts_list_item(block.lines[0].text):
            result.append(replace(block, kind=BlockKind.LIST_ITEM))
        else:
            result.append(block)
    return tuple(result)


def starts_list_item(text: str) -> bool:
    return bool(BULLET.match(text) or ENUMERATOR.match(text))


def _append(block: Block, line_block: Block) -> Block:
    return replace(
        block,
        lines=block.lines + line_block.lines,
        bbox=block.bbox.union(line_block.bbox),
    )


def continues(block: Block, line: Line, column: _Column | None) -> bool:
    """True when `line` continues the paragraph or list item `block`."""
    last = block.lines[-1]
    if column is None or line.vertical != last.vertical:
        return False
    if line.vertical:
        return _continues_vertical(last, line, column)
    if _same_row(last, line):
        return True  # a line MuPDF split at a wide gap: "1" ... "Introduction"
    if abs(line.size - last.size) > SIZE_CHANGE_PT or line.bold != last.bold:
        return False
    if starts_list_item(line.text) or line.text.startswith("\u3000"):
        return False
    gap = line.bbox.top - last.bbox.bottom
    if gap < -0.5 * line.size or gap > column.leading + PARAGRAPH_GAP_EM * line.size:
        return False
    if _is_short(last, column) and last.text.rstrip().endswith(SENTENCE_END):
        return False
    if block.kind == BlockKind.LIST_ITEM:
        # A wrapped item line is indented past the bullet; a line back at the margin is new text.
        hanging = line.bbox.x0 > block.lines[0].bbox.x0 + 0.5 * line.size
        return hanging or not _is_short(last, column)
    indented = line.bbox.x0 > column.left + INDENT_EM * line.size
    return not (indented and not _is_indented(block.lines[0], column, line.size))


def _same_row(last: Line, line: Line) -> bool:
    overlap = last.bbox.y_overlap(line.bbox)
    shorter = min(last.bbox.height, line.bbox.height)
    return line.bbox.x0 >= last.bbox.x1 - 1 and overlap > 0.5 * shorter


def _is_short(line: Line, column: _Column) -> bool:
    return line.bbox.x1 < column.right - SHORT_LINE_EM * line.size


def _is_indented(line: Line, column: _Column, size: float) -> bool:
    return line.bbox.x0 > column.left + INDENT_EM * size


def _continues_vertical(last: Line, line: Line, column: _Column) -> bool:
    width = max(1.0, last.bbox.width)
    if last.bbox.x0 - line.bbox.x1 > 2.5 * width:  # columns read right to left
        return False
    indented = line.bbox.top > column.left + INDENT_EM * width
    short = last.bbox.bottom < column.right - SHORT_LINE_EM * width
    return not indented and not short


def _column_edges(blocks: tuple[Block, ...]) -> dict[int, _Column]:
    """Left/right edges and usual leading of each column (top/bottom for vertical text)."""
    by_column: dict[int, list[Line]] = {}
    for block in blocks:
        if block.kind == BlockKind.PARAGRAPH:
            by_column.setdefault(block.column, []).extend(block.lines)
    return {column: _edges(lines) for column, lines in by_column.items()}


def _edges(lines: list[Line]) -> _Column:
    if lines[0].vertical:
        tops = sorted(line.bbox.top for line in lines)
        bottoms = sorted(line.bbox.bottom for line in lines)
        return _Column(_low_quantile(tops), _high_quantile(bottoms), 0.0)
    lefts = sorted(line.bbox.x0 for line in lines)
    rights = sorted(line.bbox.x1 for line in lines)
    return _Column(_low_quantile(lefts), _high_quantile(rights), _leading(lines))


def _low_quantile(values: list[float]) -> float:
    return values[len(values) // 10]


def _high_quantile(values: list[float]) -> float:
    return values[min(len(values) - 1, (len(values) * 9) // 10)]


def _leading(lines: list[Line]) -> float:
    """The usual blank space between consecutive lines of body text (points)."""
    gaps = [
        b.bbox.top - a.bbox.bottom
        for a, b in zip(lines, lines[1:], strict=False)
        if abs(a.size - b.size) <= SIZE_CHANGE_PT and -2 < b.bbox.top - a.bbox.bottom < 1.5 * a.size
    ]
    return median(gaps) if gaps else 0.3 * median(line.size for line in lines)


def block_box(lines: tuple[Line, ...]) -> BBox:
    return BBox.enclosing([line.bbox for line in lines])
