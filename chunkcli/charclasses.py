"""Character classes and text quality, in one place for every stage: which scripts join without
spaces, what ends a sentence, which glyphs are unusable, and how unusable a text is.

Regex character classes (strings, for building patterns) and predicates come from the same
ranges, so a line join in convert, a sentence window in split and a spaced-CJK check agree on
what Japanese, Chinese and Korean text is.
"""

from __future__ import annotations

import re
import unicodedata

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


# --- ideograph variants -----------------------------------------------------------------------

# Fonts map some glyphs of ordinary ideographs to look-alike code points: Kangxi radicals
# (U+2F00-U+2FDF), the CJK radicals supplement (U+2E80-U+2EFF) and the compatibility
# ideographs (U+F900-U+FAFF, U+2F800-U+2FA1F). 6 of the retrieval set's 31 PDFs carry 163 of
# them ("⽤" for "用", "⻑" for "長"): a reader types, and a retriever matches, the unified
# ideograph. Only these blocks fold: full-width digits and punctuation are the document's own.
IDEOGRAPH_VARIANT_RANGES = (
    (0x2E80, 0x2EFF),
    (0x2F00, 0x2FDF),
    (0xF900, 0xFAFF),
    (0x2F800, 0x2FA1F),
)
IDEOGRAPH_VARIANT = re.compile(
    "[" + "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in IDEOGRAPH_VARIANT_RANGES) + "]"
)
# The radicals supplement has no compatibility mapping (2 of its 115 letters do); Unicode's
# EquivalentUnifiedIdeograph.txt (14.0) pairs each with the ideograph it stands for, written
# here as variant, ideograph, variant, ideograph ...
_RADICAL_EQUIVALENTS = (
    "⺁厂⺂乛⺃乚⺄乙⺅亻⺆冂⺇𠘨⺈刀⺉刂⺊卜⺋㔾⺌小⺍小⺎兀⺏尣⺐尢⺑𡯂⺒巳⺓幺⺔彑⺕彐⺖忄⺗心⺘扌⺙攵⺛旡⺜日"
    "⺝月⺞歺⺠民⺡氵⺢氺⺣灬⺤爫⺥爫⺦丬⺧牛⺨犭⺩王⺪𤴔⺫目⺬示⺭礻⺮𥫗⺯糹⺰纟⺱罓⺲罒⺳㓁⺴冗⺵𦉫"
    "⺶羊⺷𦍌⺸𦍋⺹耂⺺肀⺻聿⺼肉⺽𦥑⺾艹⺿艹⻀艹⻁虎⻂衤⻃覀⻄西⻅见⻆角⻇𧢲⻈讠⻉贝⻊𧾷⻋车⻌辶⻍辶"
    "⻎辶⻏邑⻐钅⻑長⻒镸⻓长⻔门⻕𨸏⻖阝⻗雨⻘青⻙韦⻚页⻛风⻜飞⻝食⻞𩙿⻟飠⻠饣⻡𩠐⻢马⻣骨⻤鬼"
    "⻥鱼⻦鸟⻧卤⻨麦⻩黄⻪黾⻫斉⻬齐⻭歯⻮齿⻯竜⻰龙⻱龜⻲亀"
)


def _ideograph_folds() -> dict[int, str]:
    """Each variant code point -> its unified ideograph: the compatibility decomposition (NFKC
    of the one character) where Unicode gives one, else the radical's equivalent. Code points
    without either (the twelve compatibility-block letters that are unified ideographs, like
    "﨑") stay."""
    folds: dict[int, str] = {}
    for lo, hi in IDEOGRAPH_VARIANT_RANGES:
        for code in range(lo, hi + 1):
            folded = unicodedata.normalize("NFKC", chr(code))
            if folded != chr(code):
                folds[code] = folded
    pairs = _RADICAL_EQUIVALENTS
    folds.update({ord(variant): pairs[i + 1] for i, variant in enumerate(pairs) if i % 2 == 0})
    return folds


IDEOGRAPH_FOLDS = str.maketrans(_ideograph_folds())


def fold_ideograph_variants(text: str) -> str:
    """`text` with radical and compatibility look-alikes as the unified ideographs they stand
    for, one code point for one (offsets stay); everything else as it was."""
    if text.isascii() or IDEOGRAPH_VARIANT.search(text) is None:
        return text
    return text.translate(IDEOGRAPH_FOLDS)


# --- sentences --------------------------------------------------------------------------------

# Full-width sentence ends need no space after them; closing quotes and brackets may follow.
FULL_WIDTH_STOPS = "。！？．"
CLOSING_MARKS = "」』）〕】”’\"')]"
# What a line or paragraph that ends a sentence ends with (colons too: a list follows).
SENTENCE_END_CHARS = tuple(".!?。！？:：」』)）")

# --- unusable glyphs --------------------------------------------------------------------------

# pdfminer writes a glyph it cannot map as "(cid:12)".
CID_RUN = re.compile(r"\(cid:\d+\)")
# Unicode's noncharacters (U+FDD0..U+FDEF and the last two code points of every plane): a
# font's ToUnicode map that points into them maps glyphs to nothing anyone can type.
NONCHARACTERS = "\ufdd0-\ufdef\ufffe\uffff" + "".join(
    f"{chr(plane * 0x10000 + 0xFFFE)}{chr(plane * 0x10000 + 0xFFFF)}" for plane in range(1, 15)
)
# NUL and other control characters, U+FFFD, noncharacters and private-use glyphs: never real
# text.
UNUSABLE_CHAR = re.compile(
    f"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ufffd\ue000-\uf8ff\U000f0000-\U0010ffff{NONCHARACTERS}]"
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
    cids = len(CID_RUN.findall(text)) if "(cid:" in text else 0
    rest = CID_RUN.sub("", text) if cids else text
    visible = cids + len(rest) - count_whitespace(rest)
    bad = cids + count_unusable(rest)
    return (bad / visible if visible else 0.0), visible


def count_unusable(text: str) -> int:
    """How many UNUSABLE_CHAR glyphs `text` holds. Every one but U+FFFD is unprintable: a
    printable text without U+FFFD holds none, found in ~5 instead of ~170 us on a page of
    3,000 characters."""
    if text.isprintable() and "\ufffd" not in text:
        return 0
    return len(UNUSABLE_CHAR.findall(text))
