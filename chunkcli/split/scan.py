"""Markdown -> pieces: the top-level blocks, each with exact offsets into the original string.

`blocks.find_blocks` gives line ranges; a table of line starts computed on the ORIGINAL string
turns them into offsets, so nothing is normalised before offsets are taken. Pieces tile the
document from its first block on: a piece ends where the next one starts, trailing blank lines
included, and is counted once. A table also keeps its rows, for cutting between them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from chunkcli.split.blocks import PAGE_MARKER_RE, RawBlock, find_blocks
from chunkcli.split.blocks import BlockKind as PieceKind
from chunkcli.tokens import TokenCounter

__all__ = ["PAGE_MARKER_RE", "Piece", "PieceKind", "Row", "Scan", "scan_markdown"]

# markdown-it turns \r\n and a lone \r into \n before numbering lines; count lines the same way.
NEWLINE_RE = re.compile(r"\r\n?|\n")


@dataclass(frozen=True, slots=True)
class Row:
    """A span of a table: rows[0] is the header line plus the delimiter line."""

    start: int
    end: int
    tokens: int


@dataclass(frozen=True, slots=True)
class Piece:
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


def line_start_offsets(markdown: str) -> list[int]:
    """Offset of the first character of every line, numbered as markdown-it numbers them."""
    if "\r" not in markdown:
        starts = [0]
        find = markdown.find
        position = find("\n")
        while position >= 0:
            starts.append(position + 1)
            position = find("\n", position + 1)
        return starts
    return [0, *(match.end() for match in NEWLINE_RE.finditer(markdown))]


def scan_markdown(markdown: str, count_tokens: TokenCounter, fast_path: bool = True) -> Scan:
    """Find the top-level blocks of `markdown` and count the tokens of each, once."""
    blocks, marks = find_blocks(markdown, fast_path)
    line_starts = line_start_offsets(markdown)
    starts = [line_starts[block.first_line] for block in blocks]
    ends = [*starts[1:], len(markdown)] if starts else []
    pieces = []
    for block, start, end in zip(blocks, starts, ends, strict=True):
        if block.kind is PieceKind.TABLE:
            rows = _table_rows(markdown, block, end, line_starts, count_tokens)
            pieces.append(Piece(block.kind, start, end, sum(r.tokens for r in rows), rows=rows))
        else:
            content = block.kind not in (PieceKind.HEADING, PieceKind.MARKER)
            tokens = count_tokens(markdown[start:end])
            pieces.append(
                Piece(block.kind, start, end, tokens, block.level, block.heading, (), content)
            )
    page_marks = tuple((line_starts[line], page) for line, page in marks)
    return Scan(tuple(pieces), page_marks)


def _table_rows(
    markdown: str, block: RawBlock, end: int, line_starts: list[int], count_tokens: TokenCounter
) -> tuple[Row, ...]:
    """Header + delimiter as one row, then one row per line; the last row takes the blank tail.

    Rows start at line starts, so their counts add up to the count of the whole table (the
    tokenizers' pre-split never joins a newline with the character after it).
    """
    bounds = [line_starts[block.first_line]]
    bounds += [line_starts[line] for line in range(block.first_line + 2, block.last_line)]
    bounds.append(end)
    spans = zip(bounds, bounds[1:], strict=False)
    return tuple(Row(lo, hi, count_tokens(markdown[lo:hi])) for lo, hi in spans if hi > lo)
