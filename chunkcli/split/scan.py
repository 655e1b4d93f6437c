"""Markdown -> pieces: the top-level blocks, each with exact offsets into the original string.

markdown-it-py finds the blocks and their line ranges (inline parsing is switched off: only block
boundaries matter here). Line numbers become offsets through a table of line starts computed on
the ORIGINAL string, so nothing is normalised before offsets are taken. Pieces tile the document
from the first block on: a piece ends where the next one starts, trailing blank lines included.
A top-level list gives one piece per item, a table one piece whose rows are kept for cutting.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from markdown_it import MarkdownIt
from markdown_it.rules_block.state_block import StateBlock
from markdown_it.rules_block.table import table as gfm_table
from markdown_it.token import Token

from chunkcli.tokens import TokenCounter

# markdown-it turns \r\n and a lone \r into \n before numbering lines; count lines the same way.
NEWLINE_RE = re.compile(r"\r\n?|\n")
# What convert writes between pages: <!-- page 3 -->, <!-- page 4: blank -->, ...
PAGE_MARKER_RE = re.compile(r"<!--\s*page\s+(\d+)\b[^>]*-->")


class PieceKind(StrEnum):
    HEADING = "heading"
    TEXT = "text"  # paragraph, list item, block quote, HTML, rule: may be cut between sentences
    TABLE = "table"  # cut only between rows
    CODE = "code"  # never cut
    MARKER = "marker"  # a page marker: not content, never at the edge of a chunk


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

    @property
    def is_content(self) -> bool:
        return self.kind not in (PieceKind.HEADING, PieceKind.MARKER)


@dataclass(frozen=True, slots=True)
class Scan:
    pieces: tuple[Piece, ...]
    page_marks: tuple[tuple[int, int], ...]  # (offset, page number), by offset


@dataclass(frozen=True, slots=True)
class _Block:
    """A top-level block before its end offset is known."""

    kind: PieceKind
    first_line: int
    last_line: int  # exclusive
    level: int = 0
    heading: str = ""


@functools.lru_cache(maxsize=1)
def block_parser() -> MarkdownIt:
    """CommonMark + GFM tables, block rules only (inline content is left as raw text)."""
    parser = MarkdownIt("commonmark").enable("table")
    parser.block.ruler.at("table", table_lines_only, {"alt": ["paragraph", "reference"]})
    parser.core.ruler.disable(["inline", "text_join"])
    return parser


def table_lines_only(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """markdown-it's GFM table rule, emitting only table_open/table_close with the line range.

    The stock rule pushes five tokens per cell, which made tables most of the parse time;
    split needs the rows' lines, not their cells. Rows end as in the stock rule.
    """
    if not gfm_table(state, start_line, end_line, True):
        return False
    if silent:
        return True
    old_parent, state.parentType = state.parentType, "table"
    terminators = state.md.block.ruler.getRules("blockquote")
    line = start_line + 2
    while line < end_line and state.sCount[line] >= state.blkIndent:
        if any(rule(state, line, end_line, True) for rule in terminators):
            break
        text = state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]
        if not text.strip() or state.is_code_block(line):
            break
        line += 1
    state.push("table_open", "table", 1).map = [start_line, line]
    state.push("table_close", "table", -1)
    state.parentType = old_parent
    state.line = line
    return True


def line_start_offsets(markdown: str) -> list[int]:
    """Offset of the first character of every line, numbered as markdown-it numbers them."""
    return [0, *(match.end() for match in NEWLINE_RE.finditer(markdown))]


def scan_markdown(markdown: str, count_tokens: TokenCounter) -> Scan:
    """Find the top-level blocks of `markdown` and count the tokens of each, once."""
    # A byte-order mark would hide a first-line heading; a space keeps lengths and lines.
    parsed = " " + markdown[1:] if markdown.startswith("\ufeff") else markdown
    tokens = block_parser().parse(parsed)
    line_starts = line_start_offsets(markdown)
    blocks = _top_level_blocks(tokens)
    starts = [line_starts[block.first_line] for block in blocks]
    ends = [*starts[1:], len(markdown)] if starts else []
    pieces = tuple(
        _make_piece(markdown, block, start, end, line_starts, count_tokens)
        for block, start, end in zip(blocks, starts, ends, strict=True)
    )
    return Scan(pieces, _page_marks(tokens, line_starts))


def _top_level_blocks(tokens: Sequence[Token]) -> list[_Block]:
    blocks: list[_Block] = []
    for index, token in enumerate(tokens):
        if token.map is None or token.nesting < 0:
            continue
        first, last = token.map
        if token.level == 1 and token.type == "list_item_open":
            blocks.append(_Block(PieceKind.TEXT, first, last))
        elif token.level != 0 or token.type in ("bullet_list_open", "ordered_list_open"):
            continue
        elif token.type == "heading_open":
            text = " ".join(tokens[index + 1].content.split())
            blocks.append(_Block(PieceKind.HEADING, first, last, int(token.tag[1:]), text))
        else:
            blocks.append(_Block(_block_kind(token), first, last))
    return blocks


def _block_kind(token: Token) -> PieceKind:
    if token.type == "table_open":
        return PieceKind.TABLE
    if token.type in ("fence", "code_block"):
        return PieceKind.CODE
    if token.type == "html_block" and PAGE_MARKER_RE.fullmatch(token.content.strip()):
        return PieceKind.MARKER
    return PieceKind.TEXT


def _make_piece(  # noqa: PLR0913 - one piece needs its block, its span and the two lookups
    markdown: str,
    block: _Block,
    start: int,
    end: int,
    line_starts: list[int],
    count_tokens: TokenCounter,
) -> Piece:
    if block.kind is PieceKind.TABLE:
        rows = _table_rows(markdown, block, end, line_starts, count_tokens)
        return Piece(block.kind, start, end, sum(row.tokens for row in rows), rows=rows)
    tokens = count_tokens(markdown[start:end])
    return Piece(block.kind, start, end, tokens, block.level, block.heading)


def _table_rows(
    markdown: str, block: _Block, end: int, line_starts: list[int], count_tokens: TokenCounter
) -> tuple[Row, ...]:
    """Header + delimiter as one row, then one row per line; the last row takes the blank tail.

    Rows start at line starts, so their counts add up to the count of the whole table (the
    tokenizers' pre-split never joins a newline with the character after it).
    """
    header_end_line = block.first_line + 2
    bounds = [line_starts[block.first_line]]
    bounds += [line_starts[line] for line in range(header_end_line, block.last_line)]
    bounds.append(end)
    spans = zip(bounds, bounds[1:], strict=False)
    return tuple(Row(lo, hi, count_tokens(markdown[lo:hi])) for lo, hi in spans if hi > lo)


def _page_marks(tokens: Sequence[Token], line_starts: list[int]) -> tuple[tuple[int, int], ...]:
    marks = []
    for token in tokens:
        if token.type == "html_block" and token.map is not None:
            match = PAGE_MARKER_RE.fullmatch(token.content.strip())
            if match:
                marks.append((line_starts[token.map[0]], int(match.group(1))))
    return tuple(marks)
