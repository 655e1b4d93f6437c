"""Figure pieces (a figure block of markdown_format, one piece: scan.py) -> what the planner and
the chunk builder need of them: the parts of a figure too big for one chunk, and the images
each chunk holds.

A figure is kept whole, as a table is. One over the limit on its own is cut only inside its
words (the text read in the figure: OCR of its pixels, or a vector figure's labels), between
their lines (a line over the limit is cut as a paragraph is, at sentences, then words): the
first part holds the start comment, the caption, the image link and the first words; every
later part repeats the caption in its prefix (as a table part repeats its header), and the
last holds the end comment. A figure without words, or whose caption and image link alone
take over half of a chunk, cannot be cut that way and stays whole, flagged `oversize` (as a
code block does).
"""

from __future__ import annotations

import bisect
import re
from array import array
from typing import NamedTuple

from chunkcli.markdown_format import FIGURE_END_RE, FIGURE_WORDS_RE, parse_figure
from chunkcli.markdown_lines import FIGURE_BOUND_RE
from chunkcli.split.layout import Layout, Path
from chunkcli.split.scan import PieceKind
from chunkcli.split.units import SPACE_RE, Units, split_units

# A line of a figure's words, up to its line end (a \n, or a \r alone: as the parser reads
# lines). A unit is its text without the spaces around it; blank lines are skipped.
LINE_RE = re.compile(r"[^\r\n]*+")

# A figure's head (prefix, headings glued on, start comment, caption, image link, words
# comment) may take at most this share of the limit for its words to be cut into parts: the
# share split_oversized leaves to the headings glued on before a cut paragraph.
MAX_HEAD_SHARE = 0.5


class FigureParts(NamedTuple):
    """The units of a figure's words (then its end comment) and the fixed text around them."""

    units: Units
    first_fixed: int  # tokens of the first part besides its units: prefix and the head
    rest_prefix: str  # the path line and the caption, for every part after the first
    rest_fixed: int
    fixed_end: int  # where the head ends: the line start of the words


def figure_parts(layout: Layout, glue_lo: int, k: int, path: Path) -> FigureParts | None:
    """The parts of figure piece k (pieces[glue_lo:k] are headings glued to its start), or
    None when it cannot be cut (no words, or a head over MAX_HEAD_SHARE of the limit)."""
    markdown, piece = layout.markdown, layout.pieces[k]
    words_comment = _own_line(FIGURE_WORDS_RE, markdown, piece.start, piece.end, last=False)
    end_comment = _own_line(FIGURE_END_RE, markdown, piece.start, piece.end, last=True)
    if words_comment is None or end_comment is None or end_comment[0] <= words_comment[1]:
        return None
    words_end = layout.content_end(end_comment[0], words_comment[1])
    first_word = SPACE_RE.match(markdown, words_comment[1], words_end).end()  # type: ignore[union-attr]
    if first_word >= words_end:
        return None
    # The words start on a line of their own: the head ends at that line's start.
    words_line = _line_start(markdown, first_word, words_comment[1])
    if words_line <= words_comment[1]:
        return None
    prefix, prefix_tokens = layout.prefix(path)
    count = layout.count_tokens
    first_fixed = prefix_tokens + count(markdown[layout.pieces[glue_lo].start : words_line])
    if first_fixed > layout.max_tokens * MAX_HEAD_SHARE:
        return None
    rest_prefix, rest_fixed = _caption_prefix(layout, k, prefix, prefix_tokens)
    budget = layout.max_tokens - max(first_fixed, rest_fixed)
    units = _line_units(layout, words_line, words_end, budget, end_comment)
    return FigureParts(units, first_fixed, rest_prefix, rest_fixed, words_line)


def _line_units(
    layout: Layout, start: int, end: int, budget: int, end_comment: tuple[int, int]
) -> Units:
    """The lines of markdown[start:end] as units (a figure's words are written a line per line
    read: a part ends between lines, as a table part between rows), a line over `budget` cut
    as a paragraph is; then the end comment."""
    markdown, count = layout.markdown, layout.count_tokens
    starts, ends, tokens = array("q"), array("q"), array("q")
    for line in LINE_RE.finditer(markdown, start, end):
        text = line.group()
        lo = line.start() + len(text) - len(text.lstrip())
        hi = line.start() + len(text.rstrip())
        if lo >= hi:
            continue  # a blank line
        counted = count(markdown[lo:hi])
        if counted <= budget:
            starts.append(lo)
            ends.append(hi)
            tokens.append(counted)
            continue
        cut = split_units(markdown, lo, hi, budget, count, layout.max_token_bytes)
        starts.extend(cut.starts)
        ends.extend(cut.ends)
        tokens.extend(cut.tokens)
    end_start, end_end = end_comment
    starts.append(end_start)
    ends.append(end_end)
    tokens.append(count(markdown[end_start:end_end]))
    sentences = array("b", bytes(len(starts)))  # (parts overlap nothing)
    return Units(starts, ends, tokens, sentences)


def _caption_prefix(layout: Layout, k: int, prefix: str, tokens: int) -> tuple[str, int]:
    """The path line followed by the figure's caption and a blank line, when that stays within
    the share of the limit a path line may take; else the path line alone."""
    piece = layout.pieces[k]
    figure = parse_figure(layout.markdown[piece.start : piece.end])
    if figure is None or not figure.caption:
        return prefix, tokens
    text = prefix + figure.caption + "\n\n"
    counted = layout.checked_count(
        tokens + layout.count_tokens(figure.caption + "\n\n"), lambda: text
    )
    if counted > layout.max_tokens * layout.options.settings.max_prefix_share:
        return prefix, tokens
    return text, counted


def _own_line(
    pattern: re.Pattern[str], markdown: str, start: int, end: int, last: bool
) -> tuple[int, int] | None:
    """(start, end) of the first (`last`: the last) comment of markdown[start:end] that is a
    match of `pattern` with nothing but spaces around it on its line. (Only the lines holding
    a comment are read: a figure's words can be a hundred thousand lines.)"""
    low, high = start, end
    while True:
        at = markdown.rfind("<!--", low, high) if last else markdown.find("<!--", low, high)
        if at < 0:
            return None
        line_start = _line_start(markdown, at, start)
        line_end = _line_end(markdown, at, end)
        stripped = markdown[line_start:line_end].strip()
        if pattern.fullmatch(stripped):
            found = markdown.index(stripped, line_start, line_end)
            return found, found + len(stripped)
        if last:
            high = max(at, start)
        else:
            low = line_end


def _line_start(markdown: str, position: int, low: int) -> int:
    """Where the line holding `position` starts: after the last \n or \r of
    markdown[low:position], else at `low` (a line start: a piece's start). A \r is looked
    for only after the last \n: searched back to `low`, a text without one was read back to
    it for every figure; and a line taken from 0 there was the whole text before the figure,
    copied and stripped (together 70 ms for 162 figures in 5 MB)."""
    newline = markdown.rfind("\n", low, position)
    found = max(newline, markdown.rfind("\r", max(newline, low), position))
    return found + 1 if found >= 0 else low


def _line_end(markdown: str, position: int, end: int) -> int:
    """Where the line holding `position` ends (a \n or a lone \r ends one), at most `end`.
    (A \r is looked for only before the first \n, as in _line_start.)"""
    newline = markdown.find("\n", position, end)
    stop = newline if newline >= 0 else end
    lone = markdown.find("\r", position, stop)
    return lone if lone >= 0 else stop


class FigureImages(NamedTuple):
    """The figure pieces that link an image: their spans (by start) and their links."""

    starts: list[int]
    ends: list[int]
    images: list[str]

    def within(self, start: int, end: int) -> tuple[str, ...]:
        """The images of the figures that overlap markdown[start:end], in order."""
        if not self.starts:
            return ()
        first = max(bisect.bisect_right(self.starts, start) - 1, 0)
        last = bisect.bisect_left(self.starts, end)
        return tuple(self.images[i] for i in range(first, last) if self.ends[i] > start)


def figure_images(layout: Layout) -> FigureImages:
    """Every figure piece with an image link, in order."""
    found = FigureImages([], [], [])
    if not FIGURE_BOUND_RE.search(layout.markdown):  # (no figure: no piece to look at)
        return found
    for piece in layout.pieces:
        if piece.kind is not PieceKind.FIGURE:
            continue
        if layout.markdown.find("![", piece.start, piece.end) < 0:
            continue  # no image link (convert without --images): not parsed
        figure = parse_figure(layout.markdown[piece.start : piece.end])
        if figure is not None and figure.image:
            found.starts.append(piece.start)
            found.ends.append(layout.content_end(piece.end, piece.start))
            found.images.append(figure.image)
    return found
