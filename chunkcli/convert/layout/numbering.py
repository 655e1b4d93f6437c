"""Heading numbers ("第3章", "제2조", "Article 15", "2.1.3") and their depth rank.

Used by heading labelling (a number gives a level) and by paragraph joining (a line that opens
with one starts something new, it does not continue the sentence before it).
"""

from __future__ import annotations

import re

# Numbering patterns and their depth rank within their family (0 = chapter-like).
KANJI_NUM = "0-9０-９一二三四五六七八九十百千〇"
_D = r"[\d０-９]{1,2}"
_DOT = r"[.．]"
_AFTER_NUMBER = r"(?:\s+\S|[\u3040-\u9fff])"
PATTERNS: tuple[tuple[re.Pattern[str], str, int], ...] = (
    (re.compile(rf"^第[{KANJI_NUM}]+[編部]"), "cjk", 0),
    (re.compile(rf"^第[{KANJI_NUM}]+章"), "cjk", 1),
    (re.compile(rf"^第[{KANJI_NUM}]+節"), "cjk", 2),
    (re.compile(rf"^第[{KANJI_NUM}]+款"), "cjk", 3),
    (re.compile(rf"^第[{KANJI_NUM}]+条(の[{KANJI_NUM}]+)?"), "cjk", 4),
    # A notice's or guideline's parts, numbered without a unit and set apart from their name
    # by a space: "第一　届出の通則", "第２ 総則" (告示, 通知, 要綱). "第一に、" and "第2回" are
    # words of a sentence: no space follows their number.
    (re.compile(rf"^第[{KANJI_NUM}]+[ \u3000]+\S"), "cjk", 1),
    (re.compile(r"^제\s*[\d０-９]+\s*[편부]"), "ko", 0),
    (re.compile(r"^제\s*[\d０-９]+\s*장"), "ko", 1),
    (re.compile(r"^제\s*[\d０-９]+\s*절"), "ko", 2),
    (re.compile(r"^제\s*[\d０-９]+\s*관"), "ko", 3),
    (re.compile(r"^제\s*[\d０-９]+\s*조(의\s*\d+)?"), "ko", 4),
    (re.compile(r"^(part)\s+[\dIVXLC]+\b", re.IGNORECASE), "en", 0),
    (re.compile(r"^(chapter)\s+[\dIVXLC]+\b", re.IGNORECASE), "en", 1),
    (re.compile(r"^(section|§)\s*\d+(\.\d+)*\b", re.IGNORECASE), "en", 2),
    (re.compile(r"^(article)\s+\d+\b", re.IGNORECASE), "en", 3),
    # Roman numerals as chapter numbers: "Ⅳ 제안서 작성요령" (U+2160..U+216B, a Korean proposal's
    # chapters at 20 and 21 pt took two levels by size), "IV. Results". They rank above the
    # arabic numbers they hold (Ⅰ → 1. → 가.): rank -1. No comma may follow: "X. Li, Y. Wang"
    # is a list of authors.
    (re.compile(r"^[\u2160-\u216b](?:[.．]|\s)\s*\S"), "roman", -1),
    (re.compile(r"^(?:I|II|III|IV|V|VI|VII|VIII|IX|X|XI|XII)[.．]\s+[^,，、]+$"), "roman", -1),
    # "2.1.3 Title", "2.1 Title", "2 Title", "2. Title"; full-width digits and dots too, and
    # no space needed before Japanese text ("１．概要").
    (re.compile(rf"^{_D}(?:{_DOT}[\d０-９]{{1,3}}){{3,}}{_DOT}?{_AFTER_NUMBER}"), "num", 3),
    (re.compile(rf"^{_D}{_DOT}{_D}{_DOT}{_D}{_DOT}?{_AFTER_NUMBER}"), "num", 2),
    (re.compile(rf"^{_D}{_DOT}{_D}{_DOT}?{_AFTER_NUMBER}"), "num", 1),
    (
        re.compile(
            rf"^{_D}{_DOT}?(?:\s+[A-Z\u3040-\u9fff\uac00-\ud7af]|(?<=[.．])[\u3040-\u9fff])"
        ),
        "num",
        0,
    ),
    # "(1) Title", "（１）概要", "1) Title", "１）概要": the level below a document's dotted
    # numbers (cloud_policy_20210910.pdf: "１.５ …" holds "1) 効率性の向上" … "5) 可用性の向上").
    (
        re.compile(rf"^(?:[(（]{_D}[)）]|{_D}[)）])(?:\s*[\u3040-\u9fff\uac00-\ud7af]|\s+[A-Z])"),
        "paren",
        2,
    ),
)

# An item numbered in kanji, its number set apart by a space ("一　通則", "二　施設基準…"): it
# starts a line of its own, but is no heading's number (a statute's items, "一　自動車　道路運送
# 車両法…", define terms in lines that end in no stop).
KANJI_ITEM = re.compile(r"^[一二三四五六七八九十]+[ \u3000]+\S")


def _any_of(patterns: tuple[tuple[re.Pattern[str], str, int], ...]) -> re.Pattern[str]:
    """One pattern matching where any of `patterns` matches (each keeps its own flags)."""
    branches = []
    for pattern, _, _ in patterns:
        if pattern.flags & ~(re.IGNORECASE | re.UNICODE):
            raise ValueError(f"a flag an inline group cannot carry: {pattern.pattern!r}")
        flags = "i" if pattern.flags & re.IGNORECASE else ""
        branches.append(f"(?{flags}:{pattern.pattern})" if flags else f"(?:{pattern.pattern})")
    return re.compile("|".join(branches))


# Most lines hold no heading number: one search tells, instead of one for each pattern.
ANY_PATTERN = _any_of(PATTERNS)


def numbering_pattern(text: str) -> tuple[str, int] | None:
    """(family, depth rank) of a heading number at the start of `text`, if any."""
    stripped = text.strip()
    if ANY_PATTERN.match(stripped) is None:
        return None
    for pattern, family, rank in PATTERNS:
        if pattern.match(stripped):
            return family, rank
    return None
