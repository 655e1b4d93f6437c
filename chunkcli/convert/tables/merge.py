"""Pages -> pages whose tables continued from the page before carry that table's header.

A table that runs over a page break stays one table per page in the document, each written under
its own page marker, so that every row keeps the page it is printed on (split and retrieval cite
pages from the markers: a table merged into its first page made rows on pages 8-14 cite page 7).
What continuing adds: a part that starts a page without repeating the header gets the first
part's header row, so every part reads as the same table and split can tell it is one.

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
    """Give a table that starts page N+1 and continues the table ending page N that table's header.

    A continuation has the same column count and either the same header row (possibly under a
    running head row, which is dropped) or the same left and right edges. Its blocks stay on
    their own page; without a repeated header it gets the first part's header row, so no data
    row of it is ever read as its header.
    """
    result: list[Page] = []
    open_table: Block | None = None  # the last table of the pages so far, if it ends them
    for page in pages:
        if open_table is not None and page.number == result[-1].number + 1:
            first = _first_content(page)
            if first is not None and _continues(open_table, page.blocks[first]):
                continued = _with_header(page.blocks[first], open_table)
                page = _replace_block(page, first, continued)
        result.append(page)
        open_table = _next_open_table(page, open_table)
    return tuple(result)


def _content_indices(page: Page) -> list[int]:
    return [i for i, b in enumerate(page.blocks) if b.kind != BlockKind.FURNITURE]


def _first_content(page: Page) -> int | None:
    indices = _content_indices(page)
    return indices[0] if indices else None


def _next_open_table(page: Page, current: Block | None) -> Block | None:
    """The table a following page may continue: this page's last block, if it is one."""
    indices = _content_indices(page)
    if not indices:
        return current  # an emptied page keeps the table before it open
    last = page.blocks[indices[-1]]
    return last if last.kind == BlockKind.TABLE and last.cells else None


def _continues(head: Block, tail: Block) -> bool:
    if tail.kind != BlockKind.TABLE or not head.cells or not tail.cells:
        return False
    if len(head.cells[0]) != len(tail.cells[0]):
        return False
    if head.cells[0] == tail.cells[0] or _running_head_row(head, tail):
        return True
    same_left = abs(head.bbox.x0 - tail.bbox.x0) <= EDGE_TOLERANCE_PT
    same_right = abs(head.bbox.x1 - tail.bbox.x1) <= EDGE_TOLERANCE_PT
    return same_left and same_right


def _running_head_row(head: Block, tail: Block) -> bool:
    """The continuation repeats the header under a first row of its own: a running head set
    in the table's columns ("| page 44 | 2.3 | ... |") that detection took into the table."""
    return len(tail.cells) > 1 and tail.cells[1] == head.cells[0] != tail.cells[0]


def _with_header(tail: Block, head: Block) -> Block:
    """The continuation with the first part's header rows (all of them: group titles too)."""
    header = head.cells[0]
    if tail.cells[0] == header:
        return tail
    if len(tail.cells) > 1 and tail.cells[1] == header:
        return dataclasses.replace(tail, cells=tail.cells[1:])  # the running head row goes
    rows = head.cells[: head.header_rows]
    return dataclasses.replace(tail, cells=(*rows, *tail.cells), header_rows=head.header_rows)


def _replace_block(page: Page, index: int, block: Block) -> Page:
    blocks = page.blocks[:index] + (block,) + page.blocks[index + 1 :]
    return dataclasses.replace(page, blocks=blocks)
