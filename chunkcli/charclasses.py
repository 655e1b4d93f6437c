"""Character classes and text quality, in one place for every stage: which scripts join without
spaces, what ends a sentence, which glyphs are unusable, and how unusable a text is.

Regex character classes (strings, for building patterns) and predicates come from the same
ranges, so a line join in convert, a sentence window in split and a spaced-CJK check agree on
what Japanese, Chinese and Korean text is.
"""

from __future__ import annotations

import re

# --- scripts ----------------------------------------------------------------------------------

HAN_CLASS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # CJK ext. A, unified, compatibility
KANA_CLASS = "\u3040-\u30ff\u31f0-\u31ff"  # hiragana, katakana, phonetic extensions
HANGUL_CLASS = "\uac00-\ud7af\u1100-\u11ff\u3130-\u318f"  # syllables, jamo, compatibility jamo
HANGUL_SYLLABLE_CLASS = "\uac00-\ud7af"  # what Korean words are written in
KANA_HAN_CLASS = KANA_CLASS + HAN_CLASS
# CJK ideographs, kana and Hangul: the letters that check's spaced-CJK rule counts.
CJK_LETTER_CLASS = KANA_HAN_CLASS + HANGUL_CLASS

# Scripts written without spaces between words: a line break between two of these characters
# joins without a space. Hangul is not among them: Korean puts spaces between words.
NO_SPACE_RANGES = (
    (0x2E80, 0x2FDF),  # CJK radicals
    (0x3000, 0x303F),  # CJK symbols and punctuation
    (0x3040, 0x30FF),  # hiragana, katakana
    (0x3100, 0x312F),  # bopomofo
    (0x31F0, 0x31FF),  # katakana phonetic extensions
    (0x3400, 0x4DBF),  # CJK extension A
    (0x4E00, 0x9FFF),  # CJK unified ideographs
    (0xF900, 0xFAFF),  # CJK compatibility ideographs
    (0xFF00, 0xFFEF),  # half- and full-width forms
    (0x20000, 0x3FFFF),  # CJK extensions B+
)
_FIRST_NO_SPACE = min(lo for lo, _ in NO_SPACE_RANGES)
# Scripts written right to left: Hebrew, Arabic (with Syriac, Thaana, NKo, Samaritan, Mandaic
# and the Arabic extensions), their presentation forms, and the historic and Adlam blocks.
RTL_CLASS = "\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\U00010800-\U00010fff\U0001e800-\U0001efff"
# Presentation forms: shaped glyph codes (initial, medial, final, ligature) that PDFs map their
# Arabic and Hebrew glyphs to; NFKC gives back the letters a reader types.
RTL_PRESENTATION_CLASS = "\ufb1d-\ufdff\ufe70-\ufefc"
KANA_HAN_RE = re.compile(f"[{KANA_HAN_CLASS}]")
CJK_LETTER_RE = re.compile(f"[{CJK_LETTER_CLASS}]")


def is_cjk(char: str) -> bool:
    """True for characters of scripts that do not separate words with spaces (not Hangul)."""
    code = ord(char)
    if code < _FIRST_NO_SPACE:  # Latin, Greek, Cyrillic, Hangul jamo...: most calls end here
        return False
    return any(lo <= code <= hi for lo, hi in NO_SPACE_RANGES)


def is_hangul(char: str) -> bool:
    code = ord(char)
    return 0xAC00 <= code <= 0xD7AF or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F


# --- sentences --------------------------------------------------------------------------------

# Full-width sentence ends need no space after them; closing quotes and brackets may follow.
FULL_WIDTH_STOPS = "。！？．"
CLOSING_MARKS = "」』）〕】”’\"')]"
# What a line or paragraph that ends a sentence ends with (colons too: a list follows).
SENTENCE_END_CHARS = tuple(".!?。！？:：」』)）")

# --- unusable glyphs --------------------------------------------------------------------------

# pdfminer writes a glyph it cannot map as "(cid:12)".
CID_RUN = re.compile(r"\(cid:\d+\)")
# NUL and other control characters, U+FFFD and private-use glyphs: never real text.
UNUSABLE_CHAR = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffd\ue000-\uf8ff\U000f0000-\U0010ffff]"
)
# Latin-1 letters (À..ÿ without × and ÷): a page made mostly of them is mojibake, e.g. Japanese
# set in a font whose ToUnicode map is wrong.
LATIN1_LETTER = re.compile("[\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u00ff]")
# Every character str.isspace (and so the regex \s and str.strip) reads as whitespace; counting
# each with str.count is ~4x faster than a findall of \s, which lists every match (on indented
# or blank-line-heavy Markdown, most of the text). tests/test_check_linear.py recomputes it.
WHITESPACE_CHARS = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
    "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


ASCII_WHITESPACE_CHARS = WHITESPACE_CHARS[:10]


def count_whitespace(text: str) -> int:
    """How many characters of `text` the regex \\s matches, counted without listing them."""
    chars = ASCII_WHITESPACE_CHARS if text.isascii() else WHITESPACE_CHARS
    return sum(map(text.count, chars))


def unusable_share(text: str) -> tuple[float, int]:
    """(share of unusable glyphs among visible characters, visible count).

    The one measure behind both thresholds: convert treats a page above UNUSABLE_SHARE
    (extract) as having no text layer, check warns from its `garbage_share` option. A
    `(cid:N)` run counts as one glyph, as it stands for one.
    """
    cids = len(CID_RUN.findall(text))
    rest = CID_RUN.sub("", text) if cids else text
    visible = cids + len(rest) - count_whitespace(rest)
    bad = cids + len(UNUSABLE_CHAR.findall(rest))
    return (bad / visible if visible else 0.0), visible
