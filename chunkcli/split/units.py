"""A text span that is too big -> smaller units: sentences, clauses, words, then characters.

Every unit is a span of the original string (no character is added, dropped or altered), ends on
content (whitespace between units belongs to no unit) and, except a lone character that alone
exceeds the budget, counts at most `budget` tokens.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import NamedTuple

from chunkcli.charclasses import KANA_HAN_RE
from chunkcli.tokens import TokenCounter

# A sentence ends after . ! ? (then closing quotes/brackets) followed by whitespace, or after
# the full-width 。！？． used in Japanese/Chinese/Korean text, which need no space after them.
SENTENCE_END_RE = re.compile(
    r"[.!?]+[\"'”’)\]]*(?=\s|$)|[。！？．]+[」』）〕】”’\"')\]]*"
)
# A clause ends after an ideographic comma 、，；or after , ; : followed by whitespace.
CLAUSE_END_RE = re.compile(r"[、，；：]+|[,;:]+(?=\s)")
WORD_RE = re.compile(r"\S+")
# Kana and CJK ideographs: in such text an ASCII space is not a word boundary (it is often an
# artefact of PDF extraction), so the word level is skipped and cuts go to characters.
# The character level searches for the longest span within budget * this many characters;
# no tokenizer in use packs more characters into one token on ordinary text.
MAX_CHARS_PER_TOKEN = 32


class Unit(NamedTuple):
    """A sentence, clause, word or character run of a block, counted (a NamedTuple: see
    blocks.RawBlock)."""

    start: int
    end: int
    tokens: int
    sentence: bool  # a whole sentence (overlap between windows repeats only these)


def split_units(
    text: str, start: int, end: int, budget: int, count_tokens: TokenCounter
) -> list[Unit]:
    """Cut text[start:end] into units of at most `budget` tokens, coarsest level first."""
    return list(_refine(text, start, end, max(budget, 1), count_tokens, 0))


def _refine(
    text: str, start: int, end: int, budget: int, count_tokens: TokenCounter, level: int
) -> Iterator[Unit]:
    for lo, hi in _LEVELS[level](text, start, end):
        tokens = count_tokens(text[lo:hi])
        if tokens <= budget:
            yield Unit(lo, hi, tokens, sentence=level == 0)
        elif level + 1 < len(_LEVELS):
            yield from _refine(text, lo, hi, budget, count_tokens, level + 1)
        else:
            yield from _characters(text, lo, hi, budget, count_tokens)


def _spans_between(
    pattern: re.Pattern[str], text: str, start: int, end: int
) -> list[tuple[int, int]]:
    """Spans that end after each match of `pattern`, with the whitespace between them left out."""
    spans = []
    lo = _skip_space(text, start, end)
    for match in pattern.finditer(text, lo, end):
        hi = match.end()
        if hi > lo:
            spans.append((lo, hi))
            lo = _skip_space(text, hi, end)
    tail_end = _trim_space(text, lo, end)
    if tail_end > lo:
        spans.append((lo, tail_end))
    return spans


def _skip_space(text: str, pos: int, end: int) -> int:
    while pos < end and text[pos].isspace():
        pos += 1
    return pos


def _trim_space(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1].isspace():
        end -= 1
    return end


def _sentences(text: str, start: int, end: int) -> list[tuple[int, int]]:
    return _spans_between(SENTENCE_END_RE, text, start, end)


def _clauses(text: str, start: int, end: int) -> list[tuple[int, int]]:
    return _spans_between(CLAUSE_END_RE, text, start, end)


def _words(text: str, start: int, end: int) -> list[tuple[int, int]]:
    if KANA_HAN_RE.search(text, start, end):
        return [(start, end)]
    return _spans_between(WORD_RE, text, start, end)


def _characters(
    text: str, start: int, end: int, budget: int, count_tokens: TokenCounter
) -> Iterator[Unit]:
    """Greedy longest prefixes within budget, found by binary search (a rare, last-resort path)."""
    lo = start
    while lo < end:
        best = lo + 1
        low, high = lo + 1, min(end, lo + budget * MAX_CHARS_PER_TOKEN)
        while low <= high:
            mid = (low + high) // 2
            if count_tokens(text[lo:mid]) <= budget:
                best, low = mid, mid + 1
            else:
                high = mid - 1
        best = _cut_away_from_spaces(text, lo, best, end)
        yield Unit(lo, best, count_tokens(text[lo:best]), sentence=False)
        lo = _skip_space(text, best, end)


def _cut_away_from_spaces(text: str, lo: int, best: int, end: int) -> int:
    """Where to cut near `best`: in Latin text before the spaces there; in Japanese or Chinese
    text never beside a lone ASCII space (it is not a boundary there), so one character back."""
    if best >= end:
        return end
    if not KANA_HAN_RE.search(text, lo, best):
        return max(_trim_space(text, lo, best), lo + 1)
    cut = best
    while cut - 1 > lo and (text[cut - 1] == " " or text[cut] == " "):
        cut -= 1
    return cut


_LEVELS: tuple[Callable[[str, int, int], list[tuple[int, int]]], ...] = (
    _sentences,
    _clauses,
    _words,
)  # then characters, by `_characters`
