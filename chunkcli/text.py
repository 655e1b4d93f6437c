"""Joining wrapped lines into paragraph text: CJK-aware, hyphenation repaired.

What is normalised: line breaks inside a paragraph (joined), end-of-line hyphenation
("infor-" + "mation"), runs of spaces inside a line (one space), ligatures (done at extraction).
What is kept verbatim: every other character, including real hyphens, full-width punctuation
and full-width spaces inside a line.
"""

from __future__ import annotations

import re

# Scripts written without spaces between words: no space is inserted when a line break
# falls between two of these characters.
_NO_SPACE_RANGES = (
    (0x2E80, 0x2FDF),  # CJK radicals
    (0x3000, 0x303F),  # CJK symbols and punctuation
    (0x3040, 0x30FF),  # Hiragana, Katakana
    (0x3100, 0x312F),  # Bopomofo
    (0x3130, 0x318F),  # Hangul compatibility jamo
    (0x31F0, 0x31FF),  # Katakana phonetic extensions
    (0x3400, 0x4DBF),  # CJK extension A
    (0x4E00, 0x9FFF),  # CJK unified ideographs
    (0xF900, 0xFAFF),  # CJK compatibility ideographs
    (0xFF00, 0xFFEF),  # half- and full-width forms
    (0x20000, 0x3FFFF),  # CJK extensions B+
)
_HANGUL = ((0xAC00, 0xD7AF), (0x1100, 0x11FF))

# Words that keep their hyphen even at a line end because the hyphen is part of the word.
_KEEP_HYPHEN_PREFIXES = frozenset(
    {"e", "x", "self", "non", "co", "well", "state", "high", "low", "long", "short", "real",
     "multi", "cross", "anti", "semi", "all", "ex"}
)
_SPACES = re.compile(r"[ \t\u00a0]+")
_HYPHEN_END = re.compile(r"([A-Za-z]+)[-\u2010]$")


def is_cjk(char: str) -> bool:
    """True for characters of scripts that do not separate words with spaces (not Hangul)."""
    code = ord(char)
    return any(lo <= code <= hi for lo, hi in _NO_SPACE_RANGES)


def is_hangul(char: str) -> bool:
    code = ord(char)
    return any(lo <= code <= hi for lo, hi in _HANGUL)


def clean_line(text: str) -> str:
    """One line's text with outer whitespace removed and inner space runs collapsed."""
    return _SPACES.sub(" ", text.strip(" \t\u00a0\r\n"))


def join_lines(lines: list[str]) -> str:
    """Join the wrapped lines of one paragraph into a single line of text."""
    text = ""
    for raw in lines:
        line = clean_line(raw)
        if not line:
            continue
        text = _join_pair(text, line) if text else line
    return text


def _join_pair(left: str, right: str) -> str:
    last, first = left[-1], right[0]
    if last == "\u3000" or first == "\u3000":
        return left + right
    if is_cjk(last) or is_cjk(first):
        # Japanese and Chinese put no space at a break, also next to Latin words or digits.
        return left + right
    match = _HYPHEN_END.search(left)
    if match and first.islower():
        word = match.group(1)
        if word.lower() in _KEEP_HYPHEN_PREFIXES or _hyphenated_compound(left):
            return left + right  # "state-of-the-" + "art": the hyphen is real
        return left[:-1] + right
    if last in "-\u2010/":
        return left + right  # "Lucene-" + "BM25", "and/" + "or": no space after a joiner
    return left + " " + right


def _hyphenated_compound(left: str) -> bool:
    """'state-of-the-' : the word before the break already contains hyphens."""
    word = left.rsplit(" ", 1)[-1]
    return word.count("-") + word.count("\u2010") > 1
