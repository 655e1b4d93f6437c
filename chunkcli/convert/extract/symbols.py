"""Glyphs whose code points do not say what they show: symbol fonts and private-use code points.

A Wingdings bullet is drawn as the letter "m" (or U+F06D, the same code in the private-use range
that symbol fonts are mapped into), so a Korean proposal's 15 bullets on one page came out as
"m 사 업 명" (odl-제안요청서_수정__230524_1.pdf). Such glyphs are translated into the Unicode
character they show, where that is known, and into a bullet otherwise. A private-use code point
in any other font (an icon before a heading, U+F000 on the same document) shows nothing a
reader could search for: it is dropped once the page is known to be real text (a page made of
such glyphs is a garbage page, which OCR reads; see chunkcli.convert.extract.pages).
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace

from chunkcli.charclasses import NONCHARACTERS
from chunkcli.model import Line, Span

# Fonts that draw pictographs at the codes of letters. "Wingdings" alone is the one whose codes
# are translated below; Wingdings 2/3 and Webdings use other layouts, read as bullets.
DINGBAT_FONT = re.compile(r"wingdings|webdings", re.IGNORECASE)
WINGDINGS_1 = re.compile(r"wingdings(?![-\s]?[23])", re.IGNORECASE)
# Wingdings codes -> what they show (the Unicode Consortium's Wingdings mapping, for the glyphs
# documents use as bullets, arrows and check boxes).
WINGDINGS = {
    "l": "●",
    "m": "❍",
    "n": "■",
    "o": "□",
    "p": "◻",
    "q": "❑",
    "r": "❒",
    "s": "⬧",
    "t": "⧫",
    "u": "◆",
    "v": "❖",
    "w": "⬥",
    "§": "▪",
    "¨": "◻",
    "¡": "○",
    "¤": "◉",
    "Ø": "➢",
    "à": "➔",
    "ü": "✓",
    "û": "✗",
    "ý": "☒",
    "þ": "☑",
}
# A pictograph with no entry above still marks an item or a point: it is read as a bullet.
UNKNOWN_GLYPH = "•"
# Symbol fonts are often mapped to U+F020..U+F0FF: the font's own code plus U+F000.
SYMBOL_PUA_START, SYMBOL_PUA_END = 0xF020, 0xF0FF
# Private-use glyphs (icons of a symbol font), and Unicode's noncharacters, which a broken
# ToUnicode map yields: neither is text anyone reads or types.
PRIVATE_USE = re.compile(f"[\ue000-\uf8ff{NONCHARACTERS}]")


def has_private_use(text: str) -> bool:
    """`text` holds a PRIVATE_USE code point. None is printable (str.isprintable), and that
    test costs ~5 against ~150 us for the search on a page of 3,000 characters."""
    return not text.isprintable() and PRIVATE_USE.search(text) is not None


@functools.lru_cache(maxsize=512)  # asked for every span; a document uses a few dozen fonts
def is_dingbat_font(font: str) -> bool:
    return DINGBAT_FONT.search(font) is not None


def dingbat_text(text: str, font: str) -> str:
    """`text` drawn in the dingbat font `font`, as the characters it shows (spaces kept)."""
    table = WINGDINGS if WINGDINGS_1.search(font) else {}
    return "".join(_dingbat_char(char, table) for char in text)


def _dingbat_char(char: str, table: dict[str, str]) -> str:
    if char.isspace():
        return char
    code = ord(char)
    if SYMBOL_PUA_START <= code <= SYMBOL_PUA_END:
        char = chr(code - 0xF000)
    return table.get(char, UNKNOWN_GLYPH)


def without_private_use(lines: list[Line]) -> list[Line]:
    """`lines` without private-use code points; a line left with no visible text goes. A
    symbol-font glyph opening a line (U+F020..U+F0FF: Word's Symbol bullet is U+F0B7) is a
    bullet, kept as UNKNOWN_GLYPH so that the item keeps its mark."""
    if not any(has_private_use(line.text) for line in lines):
        return lines
    kept = []
    for line in lines:
        spans = tuple(_clean(span, i == 0) for i, span in enumerate(line.spans))
        if any(span.text.strip() for span in spans):
            kept.append(Line(tuple(s for s in spans if s.text), line.bbox, line.vertical))
    return kept


def _clean(span: Span, opens_line: bool) -> Span:
    text = span.text
    if opens_line:
        stripped = text.lstrip()
        if stripped and SYMBOL_PUA_START <= ord(stripped[0]) <= SYMBOL_PUA_END:
            text = text[: len(text) - len(stripped)] + UNKNOWN_GLYPH + stripped[1:]
    text = PRIVATE_USE.sub("", text)
    return span if text == span.text else replace(span, text=text)
