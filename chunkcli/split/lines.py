"""The text lines of a scanned document that structured modes read: lines of paragraphs, list
items and headings (never of tables, code or HTML), with their offsets, and the numerals that
Japanese and Korean documents number things with (ASCII, full-width, kanji)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from chunkcli.split.scan import Piece, PieceKind

# Markup in front of a line's words: ATX heading marks, quote marks, bullets, emphasis.
LEAD_MARKUP_RE = re.compile(r"[ \t]{0,3}(?:#{1,6}[ \t]+|>[ \t]?|[-*+][ \t]+)*(?:\*\*|__)?")
# Markup after them: a closing `**`/`__`, closing ATX hashes (what `(?:\*\*|__)?[ \t]*#*[ \t]*$`
# removes; cut with rstrip, as that pattern retried at every space of a line of 40,000 spaces
# of list indentation was quadratic: 2.3 s for 40 KB of nested list in the qa and laws modes).
TRAIL_SPACE = " \t"
CLOSING_EMPHASIS = ("**", "__")
FULL_WIDTH_DIGITS = str.maketrans("０１２３４５６７８９", "0123456789")
KANJI_DIGITS = {
    "〇": 0,
    "零": 0,
    "一": 1,
    "二": 2,
    "三": 3,
    "四": 4,
    "五": 5,
    "六": 6,
    "七": 7,
    "八": 8,
    "九": 9,
}
KANJI_UNITS = {"十": 10, "百": 100, "千": 1000}
# A numeral in a label: ASCII, full-width or kanji digits (第十五条, 第１５条, 第15条).
NUMERAL = r"[0-9０-９〇零一二三四五六七八九十百千]+"


class PieceLine(NamedTuple):
    """One line of a text piece: markdown[start:end] (no newline); `words` has the markup cut
    off (heading marks, bullets, emphasis) for pattern matching. (Not check's record of a line,
    markdown_index.LineRecord: these are lines of split's pieces, markdown-it's blocks.)"""

    start: int
    end: int
    words: str
    piece: int  # index of the piece the line belongs to
    heading: bool  # the line is a Markdown heading


def text_lines(
    markdown: str, pieces: tuple[Piece, ...], lines: tuple[Sequence[int], Sequence[int]]
) -> list[PieceLine]:
    """The lines of the TEXT and HEADING pieces, in order (HTML comments left out); `lines` are
    the document's (begins, ends), as markdown_lines.line_offsets gives them."""
    import bisect

    begins, ends = lines
    found: list[PieceLine] = []
    for index, piece in enumerate(pieces):
        if piece.kind not in (PieceKind.TEXT, PieceKind.HEADING):
            continue
        first = bisect.bisect_left(begins, piece.start)
        for line in range(first, len(begins)):
            start = begins[line]
            if start >= piece.end:
                break
            end = min(ends[line], piece.end)
            raw = markdown[start:end]
            if not raw.strip() or raw.lstrip().startswith("<!--"):
                continue
            words = strip_markup(raw)
            found.append(PieceLine(start, end, words, index, piece.kind is PieceKind.HEADING))
    return found


def strip_markup(raw: str) -> str:
    lead = LEAD_MARKUP_RE.match(raw)
    words = (raw[lead.end() :] if lead else raw).rstrip(TRAIL_SPACE)
    words = words.rstrip("#").rstrip(TRAIL_SPACE)
    if words.endswith(CLOSING_EMPHASIS):
        words = words[:-2]
    return words.strip()


def parse_numeral(text: str) -> int:
    """'15', '１５', '十五', '百二十三', '二〇' -> the number (0 for no digits)."""
    digits = re.sub(r"\s", "", text).translate(FULL_WIDTH_DIGITS)
    if digits.isdigit() and digits.isascii():
        return int(digits)
    if all(ch in KANJI_DIGITS for ch in digits):  # positional: 二〇 = 20
        return int("".join(str(KANJI_DIGITS[ch]) for ch in digits)) if digits else 0
    total, current = 0, 0
    for ch in digits:
        if ch in KANJI_DIGITS:
            current = KANJI_DIGITS[ch]
        elif ch in KANJI_UNITS:
            total += (current or 1) * KANJI_UNITS[ch]
            current = 0
        elif ch.isdigit():
            current = current * 10 + int(ch)
    return total + current
