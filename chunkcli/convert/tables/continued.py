"""A table continued at the top of the next page without its header, read as that table.

Page detection sees each page alone, and a continuation of a few rows without a header (the last
rows of an annex table, "11 石油給湯機 20" / "12 石油ふろがま 57") or one framed by vertical rules
with no rule between its rows is too little to prove a table by itself: it came out as prose.
With the page before as evidence it is clear: the table ends that page (nothing below it) and
the lines at the top of this page sit inside its left and right edges, in its columns. Those
lines become a table block with the table's column count and edges, and
`merge.merge_continued_tables` then gives it the header of the part before.

Pure (no PyMuPDF): runs on the raw page blocks (one block per line, running heads and footers
already labelled FURNITURE), before reading order.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from chunkcli.convert.tables.cells import column_of, text_gutters
from chunkcli.convert.tables.text import (
    CAPTION,
    Piece,
    cell_text,
    group_rows,
    pieces_of_lines,
    same_row,
)
from chunkcli.model import BBox, Block, BlockKind, Line, Page

# The continued lines lie within the table's left and right edges, give or take this much.
EDGE_TOLERANCE_PT = 8.0
# A line at most this many line heights below the one before still belongs to the table;
# more is the white space after a table.
MAX_ROW_GAP_LINES = 2.5
# A continued row fills at least this many columns (a line in one column alone is a wrapped
# cell line of the row above it).
MIN_COLUMNS = 2


def continue_tables(pages: Sequence[Page]) -> tuple[Page, ...]:
    """Pages where lines that continue a table from the page before are a table block."""
    result = list(pages)
    for index in range(1, len(result)):
        before, page = result[index - 1], result[index]
        if page.number != before.number + 1:
            continue
        table = _table_ending(before)
        if table is not None:
            result[index] = _with_continuation(page, table)
    return tuple(result)


def _body(page: Page) -> list[int]:
    """Indices of the page body's blocks: not furniture, not rotated margin text."""
    return [
        i
        for i, b in enumerate(page.blocks)
        if b.kind != BlockKind.FURNITURE
        and not (b.lines and all(line.vertical for line in b.lines))
    ]


def _table_ending(page: Page) -> Block | None:
    """The page's lowest table, when no other text of the page body lies below it."""
    if not any(b.kind == BlockKind.TABLE for b in page.blocks):
        return None  # (most pages: gathering every page's body took 1.7 % of a profiled corpus run)
    body = [page.blocks[i] for i in _body(page)]
    tables = [b for b in body if b.kind == BlockKind.TABLE and b.cells]
    if not tables:
        return None
    table = max(tables, key=lambda b: b.bbox.bottom)
    below = [b for b in body if b is not table and b.bbox.top > table.bbox.bottom]
    return None if below else table


def _with_continuation(page: Page, table: Block) -> Page:
    xs = table_columns(table)
    if xs is None:
        return page
    lines = _leading_lines(page, table, xs)
    if not lines:
        return page
    block = continuation_block([line for _, line in lines], table, xs, page.number)
    if block is None:
        return page
    taken = {i for i, _ in lines}
    blocks = [b for i, b in enumerate(page.blocks) if i not in taken]
    return dataclasses.replace(page, blocks=(block, *blocks))


def table_columns(table: Block) -> tuple[float, ...] | None:
    """Column boundaries of `table` from the text gutters of its body rows (its first row may
    span columns), or None when they do not give its column count."""
    rows = group_rows(pieces_of_lines(table.lines))[1:]
    gutters = text_gutters(rows, table.bbox.x0, table.bbox.x1, 0)
    if len(gutters) != len(table.cells[0]) - 1:
        return None
    return (table.bbox.x0 - EDGE_TOLERANCE_PT, *gutters, table.bbox.x1 + EDGE_TOLERANCE_PT)


def _leading_lines(page: Page, table: Block, xs: Sequence[float]) -> list[tuple[int, Line]]:
    """The one-line blocks of the visual rows at the top of the page body whose every line
    lies inside the table's edges without running across one of its column gutters, down to
    the first row that does not (or holds a caption or a table, or follows a wide gap)."""
    taken: list[tuple[int, Line]] = []
    for row in _visual_rows(page):
        lines = [
            (i, b.lines[0]) for i, b in row if b.kind == BlockKind.PARAGRAPH and len(b.lines) == 1
        ]
        if len(lines) != len(row) or not all(_fits(line, xs) for _, line in lines):
            break
        top = min(line.bbox.top for _, line in lines)
        height = max(line.bbox.height for _, line in lines)
        if taken and top - max(ln.bbox.bottom for _, ln in taken) > MAX_ROW_GAP_LINES * height:
            break
        taken += lines
    return taken


def _visual_rows(page: Page) -> list[list[tuple[int, Block]]]:
    """The page body's blocks in rows of blocks side by side, top to bottom."""
    rows: list[list[tuple[int, Block]]] = []
    for index in sorted(_body(page), key=lambda i: page.blocks[i].bbox.center_y):
        block = page.blocks[index]
        if rows and same_row(rows[-1][0][1].bbox, block.bbox):
            rows[-1].append((index, block))
        else:
            rows.append([(index, block)])
    return rows


def _fits(line: Line, xs: Sequence[float]) -> bool:
    inside = xs[0] <= line.bbox.x0 and line.bbox.x1 <= xs[-1]
    return inside and not CAPTION.match(line.text) and not _crosses(line, xs)


def _crosses(line: Line, xs: Sequence[float]) -> bool:
    return any(
        column_of(_left_edge(p), xs) != column_of(_right_edge(p), xs)
        for p in pieces_of_lines([line])
    )


def continuation_block(
    lines: Sequence[Line], table: Block, xs: Sequence[float], page_number: int
) -> Block | None:
    """`lines` as a table block with `table`'s columns `xs` and edges, or None when no row of
    them fills MIN_COLUMNS columns."""
    width = len(table.cells[0])
    pieces = pieces_of_lines(lines)
    rows = _table_rows(pieces, xs)
    if rows is None:
        return None
    cells = tuple(
        tuple(cell_text([p for p in row if column_of(p, xs) == c]) for c in range(width))
        for row in rows
    )
    top, bottom = min(p.bbox.top for p in pieces), max(p.bbox.bottom for p in pieces)
    box = BBox(table.bbox.x0, top, table.bbox.x1, bottom)
    return Block(BlockKind.TABLE, tuple(lines), box, page_number, cells=cells, header_rows=0)


def _table_rows(pieces: Sequence[Piece], xs: Sequence[float]) -> list[list[Piece]] | None:
    """The visual rows as table rows: each one that fills MIN_COLUMNS columns starts a row,
    the others (wrapped lines of a cell) join the row above; None when no row fills
    MIN_COLUMNS columns."""
    if not pieces:
        return None
    rows: list[list[Piece]] = []
    for visual in group_rows(pieces):
        if len({column_of(p, xs) for p in visual}) >= MIN_COLUMNS or not rows:
            rows.append(list(visual))
        else:
            rows[-1].extend(visual)
    if not any(len({column_of(p, xs) for p in row}) >= MIN_COLUMNS for row in rows):
        return None
    return rows


def _left_edge(piece: Piece) -> Piece:
    box = piece.bbox
    return dataclasses.replace(piece, bbox=BBox(box.x0, box.top, box.x0 + 0.5, box.bottom))


def _right_edge(piece: Piece) -> Piece:
    box = piece.bbox
    return dataclasses.replace(piece, bbox=BBox(box.x1 - 0.5, box.top, box.x1, box.bottom))
