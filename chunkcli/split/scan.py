"""Markdown -> pieces: the top-level blocks, each with exact offsets into the original string.

`blocks.find_blocks` gives line ranges; the line starts of chunkcli.markdown_lines.line_starts,
computed on the ORIGINAL string (lines numbered as the block parser numbers them: a lone \\r
ends one too), turn them into offsets, so nothing is normalised before offsets are taken.
Pieces tile the document from its first block on: a piece ends where the next one starts,
trailing blank lines included, and is counted once. A table also keeps its rows, for cutting
between them. A figure block (start comment to end comment, markdown_format) is one piece: the
blocks the parser finds in it are joined (`_with_figures`).
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from typing import NamedTuple, TypeAlias

from chunkcli.markdown_format import PAGE_MARKER_RE, parse_header_rows
from chunkcli.markdown_lines import (
    FIGURE_BOUND_RE,
    FIGURE_CUT,
    figure_edge,
    line_starts,
    pair_figures,
)
from chunkcli.split.blocks import find_blocks
from chunkcli.split.counting import SpanCounter
from chunkcli.split.kinds import BlockKind as PieceKind
from chunkcli.split.kinds import RawBlock

__all__ = ["PAGE_MARKER_RE", "Piece", "PieceKind", "Row", "Scan", "scan_markdown"]

LineStarts: TypeAlias = "array[int]"  # offsets of the lines' first characters
# Pieces whose count is only compared with the limit: one over it is cut into windows, never
# put whole in a chunk, so a count known to be over it may be a lower bound (counting.py).
TEXT, HEADING, HEADINGS = PieceKind.TEXT, PieceKind.HEADING, PieceKind.HEADINGS
BOUNDABLE = frozenset({TEXT, HEADING, HEADINGS})
CONTENT = frozenset({PieceKind.TEXT, PieceKind.TABLE, PieceKind.CODE, PieceKind.FIGURE})
HEADINGS_KINDS = frozenset({HEADING, HEADINGS})  # (text of their own: CONTENT)
_new = tuple.__new__  # NamedTuple(...) runs a Python __new__; tuple.__new__(Piece, ...) does not


class Row(NamedTuple):
    """A span of a table: rows[0] is the header line plus the delimiter line."""

    start: int
    end: int
    tokens: int


class Piece(NamedTuple):
    """A top-level block as a span of the Markdown, counted once (a NamedTuple: see RawBlock)."""

    kind: PieceKind
    start: int  # offset of the first character of its first line
    end: int  # offset where the next piece starts
    tokens: int  # count of markdown[start:end]
    level: int = 0  # heading level 1-6
    heading: str = ""  # heading text, one line
    rows: tuple[Row, ...] = ()  # TABLE only
    is_content: bool = True  # not a heading, not a page marker


@dataclass(frozen=True, slots=True)
class Scan:
    pieces: tuple[Piece, ...]
    page_marks: tuple[tuple[int, int], ...]  # (offset, page number), by offset


def scan_markdown(
    markdown: str, count_spans: SpanCounter, fast_path: bool = True, collapse_headings: bool = False
) -> Scan:
    """Find the top-level blocks of `markdown` and count the tokens of each, once.

    Every piece (a table: every row) is one span of the document; `count_spans` counts them
    all in one call. `collapse_headings`: long runs of headings are one piece (heading_runs)."""
    blocks, marks = find_blocks(markdown, fast_path, collapse_headings)
    starts_of_lines = line_starts(markdown, lone_cr_ends=True)  # (as the parser numbers lines)
    if FIGURE_BOUND_RE.search(markdown):  # (one search: most documents have no figure)
        blocks = _with_figures(blocks, markdown, starts_of_lines)
    # Convert's provenance comment heads the document: no chunk holds it (chunks carry the
    # source and its hash as fields), so the pieces start after it.
    while blocks and blocks[0].kind is PieceKind.MARKER and blocks[0].page == 0:
        blocks = blocks[1:]
    starts = [starts_of_lines[block.first_line] for block in blocks]
    ends = [*starts[1:], len(markdown)] if starts else []
    boundable = [block.kind in BOUNDABLE for block in blocks]
    tables = [i for i, block in enumerate(blocks) if block.kind is PieceKind.TABLE]
    # Where each span starts: a block is one span, a table one span per row.
    bounds, firsts = starts, None
    if tables:
        bounds, boundable, firsts = _spans_with_rows(
            blocks, tables, starts, ends, boundable, starts_of_lines
        )
    counts = count_spans([*bounds, len(markdown)], boundable) if bounds else []
    if firsts is None:
        block_counts = counts
    else:  # (a table's own count is set by _add_rows; a table has at least one span)
        padded = [*counts, 0]
        block_counts = [padded[first] for first in firsts]
    # A Piece each, built by the C tuple constructor (a million)
    pieces = [
        _new(Piece, (b.kind, start, end, count, b.level, b.heading, (), b.kind in CONTENT))
        for b, start, end, count in zip(blocks, starts, ends, block_counts, strict=True)
    ]
    if firsts is not None:
        _add_rows(markdown, pieces, tables, bounds, counts, firsts)
    page_marks = tuple((starts_of_lines[line], page) for line, page in marks)
    return Scan(tuple(pieces), page_marks)


def _with_figures(blocks: list[RawBlock], markdown: str, starts: LineStarts) -> list[RawBlock]:
    """`blocks` with each figure block (its start comment, the blocks in it, its end comment)
    joined into one FIGURE block. The comments are the parser's top-level comment blocks
    (so one in a code block or list item bounds nothing); a heading cuts an open figure, which
    then stays ordinary blocks (check reports it: markdown_lines.pair_figures)."""
    edges = []
    for position, block in enumerate(blocks):
        if block.kind is PieceKind.MARKER and block.page == 0:
            end = starts[block.last_line] if block.last_line < len(starts) else len(markdown)
            edge = figure_edge(markdown[starts[block.first_line] : end])  # (it strips the \n)
            if edge != FIGURE_CUT:
                edges.append((position, edge))
        elif block.kind in HEADINGS_KINDS:
            edges.append((position, FIGURE_CUT))
    spans = pair_figures(edges)
    if not spans.blocks:
        return blocks
    joined: list[RawBlock] = []
    done = 0
    for first, last in spans.blocks:
        joined += blocks[done:first]
        joined.append(RawBlock(PieceKind.FIGURE, blocks[first].first_line, blocks[last].last_line))
        done = last + 1
    return joined + blocks[done:]


def _spans_with_rows(
    blocks: list[RawBlock],
    tables: list[int],
    starts: list[int],
    ends: list[int],
    boundable: list[bool],
    starts_of_lines: LineStarts,
) -> tuple[list[int], list[bool], list[int]]:
    """(span starts, boundable, each block's first span) when `tables` (block indices) are
    among the blocks: a table's spans are its rows (never boundable), any other block is one."""
    bounds: list[int] = []
    flags: list[bool] = []
    firsts: list[int] = []
    done = 0  # blocks[:done] have their spans
    for table in tables:
        firsts += range(len(bounds), len(bounds) + table - done)
        bounds += starts[done:table]
        flags += boundable[done:table]
        firsts.append(len(bounds))
        row_starts = _row_starts(blocks[table], ends[table], starts_of_lines)
        bounds += row_starts
        flags += [False] * len(row_starts)
        done = table + 1
    firsts += range(len(bounds), len(bounds) + len(blocks) - done)
    bounds += starts[done:]
    flags += boundable[done:]
    return bounds, flags, firsts


def _add_rows(
    markdown: str,
    pieces: list[Piece],
    tables: list[int],
    bounds: list[int],
    counts: list[int],
    firsts: list[int],
) -> None:
    """Each table piece (at the indices `tables`) given its rows and their summed count."""
    span_ends = [*bounds[1:], len(markdown)]
    for table in tables:
        first = firsts[table]
        last = firsts[table + 1] if table + 1 < len(firsts) else len(bounds)
        rows = tuple(Row(bounds[i], span_ends[i], counts[i]) for i in range(first, last))
        previous = pieces[table - 1] if table else None
        rows = _with_header_rows(rows, _announced_header_rows(markdown, previous))
        piece = pieces[table]
        pieces[table] = Piece(
            piece.kind, piece.start, piece.end, sum(counts[first:last]), rows=rows
        )


def _announced_header_rows(markdown: str, previous: Piece | None) -> int:
    """The header-row count of the table after the piece `previous`, from a comment just
    before it."""
    if previous is None or previous.kind is not PieceKind.MARKER:
        return 1
    return parse_header_rows(markdown[previous.start : previous.end]) or 1


def _with_header_rows(rows: tuple[Row, ...], header_rows: int) -> tuple[Row, ...]:
    """rows[0] grown to hold every header row, so that each later part repeats them all."""
    if header_rows <= 1 or len(rows) <= header_rows:
        return rows
    tokens = sum(row.tokens for row in rows[:header_rows])
    header = Row(rows[0].start, rows[header_rows - 1].end, tokens)
    return (header, *rows[header_rows:])


def _row_starts(block: RawBlock, end: int, starts_of_lines: LineStarts) -> list[int]:
    """Where the rows of a table start: header + delimiter as one row, then one row per line;
    the last row takes the blank tail (up to `end`).

    Rows start at line starts, so their counts add up to the count of the whole table (the
    tokenizers' pre-split never joins a newline with the character after it).
    """
    starts = [starts_of_lines[block.first_line]]
    starts += [starts_of_lines[line] for line in range(block.first_line + 2, block.last_line)]
    return [lo for lo, hi in zip(starts, [*starts[1:], end], strict=True) if hi > lo]
