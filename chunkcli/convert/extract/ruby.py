"""Ruby (ふりがな): the small kana set beside hard kanji to give their reading.

A statute or notice sets "じよくそう" at half size against "褥瘡" (to the right of a vertical
column, above a horizontal line). Read as text, each reading became a paragraph of its own
between the lines it glosses (saka1029-kokuji.pdf: 202 of them, "じよくそう" 27 times), a crumb
in every chunk near it. The base text already holds the words, so the readings are dropped.
"""

from __future__ import annotations

import re

from chunkcli.charclasses import HAN_CLASS, KANA_CLASS
from chunkcli.model import BBox, Line

# A reading is kana only, at most this many ("しようこうぐん" for 症候群 is seven) ...
MAX_RUBY_CHARS = 12
RUBY = re.compile(f"[{KANA_CLASS}]{{1,{MAX_RUBY_CHARS}}}")
HAN = re.compile(f"[{HAN_CLASS}]")
# ... set at most this share of the size of the line it glosses (ruby is half the base size:
# 7 pt against 14 pt in saka1029-kokuji.pdf) ...
RUBY_SIZE_RATIO = 0.65
# ... against that line: its near edge within this many base font sizes of the base line's
# edge (7 pt ruby starts 0.5 pt left of a 14 pt column's right edge there) ...
RUBY_TOUCH_EM = 0.3
# ... and lying along it for at least this share of its own length.
RUBY_ALONG_SHARE = 0.8


def without_ruby(lines: list[Line]) -> list[Line]:
    """`lines` less the readings set against kanji (see the module's docstring): lines that are
    readings, and readings MuPDF put into the line of their kanji (a vertical line's glyphs)."""
    lines = [_without_ruby_spans(line) if _mixed_sizes(line) else line for line in lines]
    candidates = [line for line in lines if _may_be_ruby(line)]
    if not candidates:  # (nearly every page: no short kana line at all)
        return lines
    readings = {id(c) for c in candidates if any(_glosses(base, c) for base in lines)}
    if not readings:
        return lines
    return [line for line in lines if id(line) not in readings]


def _mixed_sizes(line: Line) -> bool:
    spans = line.spans
    return len(spans) > 1 and any(span.size != spans[0].size for span in spans)


def _without_ruby_spans(line: Line) -> Line:
    """The line less its spans of small kana that lie beside its kanji (right of a vertical
    line's text, on top of a horizontal line's); its box shrinks to what is left."""
    spans = line.spans
    base = [span for span in spans if span.size > RUBY_SIZE_RATIO * line.size]
    if not base or len(base) == len(spans):
        return line
    text = Line(tuple(base), BBox.enclosing([span.bbox for span in base]), line.vertical)
    in_text = {id(span) for span in base}  # (by identity: a frozen Span compares its fields)
    kept = tuple(
        span
        for span in spans
        if id(span) in in_text or not _glosses(text, Line((span,), span.bbox, line.vertical))
    )
    if len(kept) == len(spans):
        return line
    return Line(kept, BBox.enclosing([span.bbox for span in kept]), line.vertical)


def _may_be_ruby(line: Line) -> bool:
    if line.text.isascii():
        return False  # (kana are not ASCII: most lines are known without a stripped copy)
    text = line.text.strip()
    return len(text) <= MAX_RUBY_CHARS and RUBY.fullmatch(text) is not None


def _glosses(base: Line, reading: Line) -> bool:
    """`base` is a line of kanji in larger type that `reading` lies against: to the right of
    it when vertical, on top of it when horizontal."""
    if base is reading or base.vertical != reading.vertical:
        return False
    if reading.size > RUBY_SIZE_RATIO * base.size or HAN.search(base.text) is None:
        return False
    a, b = base.bbox, reading.bbox
    touch = RUBY_TOUCH_EM * base.size
    if reading.vertical:
        beside = abs(b.x0 - a.x1) <= touch
        along = min(a.bottom, b.bottom) - max(a.top, b.top) >= RUBY_ALONG_SHARE * b.height
    else:
        beside = abs(a.top - b.bottom) <= touch
        along = min(a.x1, b.x1) - max(a.x0, b.x0) >= RUBY_ALONG_SHARE * b.width
    return beside and along and _over_kanji(base, reading)


def _over_kanji(base: Line, reading: Line) -> bool:
    """The base text the reading lies along holds kanji: katakana over a Latin word
    ("ハサップ" over "HACCP", retrieval-ja 000604389.pdf's title) is a word of its own."""
    box = reading.bbox
    return any(
        HAN.search(span.text) is not None
        for span in base.spans
        if (
            span.bbox.top < box.bottom and box.top < span.bbox.bottom
            if reading.vertical
            else span.bbox.x0 < box.x1 and box.x0 < span.bbox.x1
        )
    )
