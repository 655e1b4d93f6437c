"""The lines of chunkcli's Markdown and its figure blocks, as both readers see them: split's
block parser and check's line index (markdown_index).

Without numpy: split's process never loads it (15 MB of resident memory and 0.1 s of CPU a
process, which put `split` of 5 MB over 20 times its input at its peak: bench/RESULTS.md,
2026-12-04 session 5). check's index pairs figures with these functions too, and finds the
same line offsets with numpy, which it holds anyway (markdown_index.index_line_offsets: 10
to 20 times faster on a million short lines; tests compare the two).
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterable
from itertools import accumulate, repeat
from operator import add, sub
from typing import NamedTuple

from chunkcli.markdown_format import FIGURE_END_RE, FIGURE_START_RE

SMALL_OFFSETS = 2**32  # below this, offsets fit 4-byte columns
# Characters read at a time for the line offsets (a piece runs on to its next line end): its
# lines are copied once as strings. 2^18 keeps that copy under 2 MB past U+FFFF (2^16 lowered
# the peak of a 5 MB split by 0.3 MB).
OFFSETS_PIECE = 1 << 18
# A piece's line breaks kept (the capture group) when it holds a \r: a \r before a \n is no
# part of its line; with lone_cr_ends a \r alone ends one, as CommonMark reads lines.
LINE_BREAK_RE = re.compile(r"(\r?\n)")
CR_LINE_BREAK_RE = re.compile(r"(\r\n|\r|\n)")


def line_offsets(markdown: str, lone_cr_ends: bool = False) -> tuple[array[int], array[int]]:
    """(begins, ends) of every line: lines end at \\n, a \\r before it left out; with
    `lone_cr_ends`, a \\r not before a \\n ends a line too, as CommonMark (and split's block
    parser) reads lines. Read a piece of the text at a time, by C loops (str.split, then
    itertools.accumulate over the lines' lengths): 0.15-0.17 microseconds a line."""
    typecode = "I" if len(markdown) < SMALL_OFFSETS else "q"
    begins, ends = array(typecode), array(typecode)
    _read_lines(markdown, lone_cr_ends, begins, ends)
    return begins, ends


def line_starts(markdown: str, lone_cr_ends: bool = False) -> array[int]:
    """The begins of line_offsets alone (half its time on 1,000,000 lines of `|`, 0.08 s)."""
    begins: array[int] = array("I" if len(markdown) < SMALL_OFFSETS else "q")
    _read_lines(markdown, lone_cr_ends, begins, None)
    return begins


def _read_lines(
    markdown: str, lone_cr_ends: bool, begins: array[int], ends: array[int] | None
) -> None:
    start, size = 0, len(markdown)
    while True:
        # A piece ends after a \n (a \r\n never falls between two), or at the text's end.
        stop = markdown.find("\n", start + OFFSETS_PIECE) + 1 or size
        last = stop == size
        _add_piece(markdown[start:stop], start, last, lone_cr_ends, (begins, ends))
        if last:
            return
        start = stop


def _add_piece(
    piece: str,
    start: int,
    last: bool,
    lone_cr_ends: bool,
    offsets: tuple[array[int], array[int] | None],
) -> None:
    """The offsets of the lines of `piece` (at `start`) appended to (begins, ends). A piece
    other than the last ends with a line break: the empty line after it is the next one's."""
    begins, ends = offsets
    if "\r" in piece:  # split at the breaks, kept: the offsets of lines and breaks alternate
        parts = (CR_LINE_BREAK_RE if lone_cr_ends else LINE_BREAK_RE).split(piece)
        if not last:
            parts.pop()
        edges = array(begins.typecode, accumulate(map(len, parts), initial=start))
        begins.extend(edges[0 : len(parts) : 2])
        if ends is not None:
            ends.extend(edges[1::2])
        return
    lines = piece.split("\n")
    if not last:
        lines.pop()
    # each line's begin, and one past the last line's end (its length and the \n summed)
    edges = array(begins.typecode, accumulate(map(add, map(len, lines), repeat(1)), initial=start))
    begins.extend(edges[:-1])
    if ends is not None:
        ends.extend(map(sub, edges[1:], repeat(1)))


# --- figure blocks ----------------------------------------------------------------------------

# Either comment that bounds a figure block, anywhere in a text: a text without one has no
# figure (one search; no reader looks at its lines for figures then). Made of
# markdown_format's own patterns (it alone spells the comments); each alternative reads a run
# of spaces after a `<!--` once (one pattern `<!--\s*/?\s*figure` took 2.8 s on 20,000
# spaces, these 0.04 s on 2,000,000).
FIGURE_BOUND_RE = re.compile(f"{FIGURE_START_RE.pattern}|{FIGURE_END_RE.pattern}", re.IGNORECASE)
FIGURE_START, FIGURE_END, FIGURE_CUT = 1, -1, 0  # the edges `pair_figures` reads
MAX_COMMENT_INDENT = 3  # CommonMark: a line indented 4 columns is code, not an HTML block
TAB_COLUMNS = 4  # CommonMark: a tab before a line's text stops at the next multiple of 4


class FigureSpans(NamedTuple):
    """Figure blocks among a reader's units (split's blocks, check's lines), by position."""

    blocks: tuple[tuple[int, int], ...]  # (start comment, end comment), both inclusive
    unclosed: tuple[int, ...]  # start comments with no end comment before a cut
    unopened: tuple[int, ...]  # end comments with no start comment open


def figure_edge(line: str) -> int:
    """FIGURE_START or FIGURE_END for a line that is one of the figure's bounding comments
    (spaces around it allowed, at most 3 columns before it: 4 make a code line), else
    FIGURE_CUT."""
    text = line.strip()
    indent = line[: len(line) - len(line.lstrip(" \t"))]
    if indent and len(indent.expandtabs(TAB_COLUMNS)) > MAX_COMMENT_INDENT:
        return FIGURE_CUT
    if FIGURE_START_RE.fullmatch(text):
        return FIGURE_START
    return FIGURE_END if FIGURE_END_RE.fullmatch(text) else FIGURE_CUT


def pair_figures(edges: Iterable[tuple[int, int]]) -> FigureSpans:
    """Figure blocks from the (position, edge) of the units that bound or cut one, in order:
    its start comment, its end comment, and what no figure holds (a heading: it is the
    document's, and a figure is never cut around one). Both readers (split's blocks, check's
    line index) hand theirs over, so that they agree on what is a figure. A start comment
    with no end before the next start or cut leaves its lines as ordinary blocks."""
    blocks: list[tuple[int, int]] = []
    unclosed: list[int] = []
    unopened: list[int] = []
    open_at: int | None = None
    for position, edge in edges:
        if edge == FIGURE_END and open_at is not None:
            blocks.append((open_at, position))
            open_at = None
            continue
        if open_at is not None:  # a cut or another start: the open figure never ended
            unclosed.append(open_at)
            open_at = None
        if edge == FIGURE_START:
            open_at = position
        elif edge == FIGURE_END:
            unopened.append(position)
    if open_at is not None:
        unclosed.append(open_at)
    return FigureSpans(tuple(blocks), tuple(unclosed), tuple(unopened))
