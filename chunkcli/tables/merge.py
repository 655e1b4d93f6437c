"""Pages -> pages with tables that run over a page break merged into one table.

Pure (no PyMuPDF): runs on the ordered document after running headers and footers have been
labelled FURNITURE, so that "last block on the page" means the last block of content.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from chunkcli.model import Block, BlockKind, Page

# A continuation without a repeated header must start and end where the first part does,
# within this many points (the same table set in the same text frame on the next page).
EDGE_TOLERANCE_PT = 8.0


def merge_continued_tables(pages: Sequence[Page]) -> tuple[Page, ...]:
    """Merge a table that ends page N into the table that starts page N+1 when they match.

    A match has the same column count and either the same header row (dropped from the
    continuation) or the same left and right edges. The continuation block is removed.
    """
    result: list[Page] = []
    open_table: tuple[int, int] | None = None  # (index in result, block index) of a last table
    for page in pages:
        if open_table is not None and page.number == result[-1].number + 1:
            page_index, block_index = open_table
            head = result[page_index].blocks[block_index]
            first = _first_content(page)
            if first is not None and _continues(head, page.blocks[first]):
                merged = _append(head, page.blocks[first])
                result[page_index] = _replace_block(result[page_index], block_index, merged)
                page = dataclasses.replace(page, blocks=_without(page.blocks, first))
        result.append(page)
        open_table = _next_open_table(result, open_table)
    return tuple(result)


def _content_indices(page: Page) -> list[int]:
    return [i for i, b in enumerate(page.blocks) if b.kind != BlockKind.FURNITURE]


def _first_content(page: Page) -> int | None:
    indices = _content_indices(page)
    return indices[0] if indices else None


def _next_open_table(result: list[Page], current: tuple[int, int] | None) -> tuple[int, int] | None:
    """The table a following page may continue: the newest page's last block, if it is one."""
    indices = _content_indices(result[-1])
    if not indices:
        return current  # an emptied page keeps the table before it open
    last = indices[-1]
    if result[-1].blocks[last].kind == BlockKind.TABLE:
        return (len(result) - 1, last)
    return None


def _continues(head: Block, tail: Block) -> bool:
    if tail.kind != BlockKind.TABLE or not head.cells or not tail.cells:
        return False
    if len(head.cells[0]) != len(tail.cells[0]):
        return False
    if head.cells[0] == tail.cells[0]:
        return True
    same_left = abs(head.bbox.x0 - tail.bbox.x0) <= EDGE_TOLERANCE_PT
    same_right = abs(head.bbox.x1 - tail.bbox.x1) <= EDGE_TOLERANCE_PT
    return same_left and same_right


def _append(head: Block, tail: Block) -> Block:
    rows = tail.cells[1:] if tail.cells[0] == head.cells[0] else tail.cells
    return dataclasses.replace(head, cells=head.cells + rows)


def _replace_block(page: Page, index: int, block: Block) -> Page:
    blocks = page.blocks[:index] + (block,) + page.blocks[index + 1 :]
    return dataclasses.replace(page, blocks=blocks)


def _without(blocks: tuple[Block, ...], index: int) -> tuple[Block, ...]:
    return blocks[:index] + blocks[index + 1 :]
