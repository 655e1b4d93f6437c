"""A text span that is too big -> smaller units: sentences, clauses, words, then characters.

Every unit is a span of the original string (no character is added, dropped or altered), ends on
content (whitespace between units belongs to no unit) and, except a lone character that alone
exceeds the budget, counts at most `budget` tokens.

Units are kept as arrays of machine integers (`Units`), not one object each: a paragraph
without sentence ends cuts into one unit per word, a million of them in 2 MB of `|` lines. For
the same reason a unit's text is counted once per distinct text, and a span is counted only
when it could fit: one known to hold more than `budget` tokens (by its length, see
`max_token_bytes`) is cut further unread.
"""

from __future__ import annotations

import bisect
import functools
import re
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import accumulate
from operator import itemgetter

from chunkcli.charclasses import KANA_HAN_RE
from chunkcli.tokens import TokenCounter

# A sentence ends after . ! ? (then closing quotes/brackets) followed by whitespace, or after
# the full-width 。！？． used in Japanese/Chinese/Korean text, which need no space after them.
SENTENCE_END_RE = re.compile(r"[.!?]+[\"'”’)\]]*(?=\s|$)|[。！？．]+[」』）〕】”’\"')\]]*")
# A clause ends after an ideographic comma 、，；or after , ; : followed by whitespace.
CLAUSE_END_RE = re.compile(r"[、，；：]+|[,;:]+(?=\s)")
WORD_RE = re.compile(r"\S+")
SPACE_RE = re.compile(r"\s*")  # \s is str.isspace, as everywhere in split
WIDE_SPACE_RE = re.compile(r"\s{2,}")  # the whitespace that may hold a counted gap
# Kana and CJK ideographs: in such text an ASCII space is not a word boundary (it is often an
# artefact of PDF extraction), so the word level is skipped and cuts go to characters.
# The character level searches for the longest span within budget * this many characters;
# no tokenizer in use packs more characters into one token on ordinary text.
MAX_CHARS_PER_TOKEN = 32
# The first guess of the character level at a window's length, in characters per token of the
# budget (later windows start from the length of the one before).
FIRST_GUESS_CHARS_PER_TOKEN = 4

Spans = Iterator[tuple[int, int]]


@dataclass(frozen=True, slots=True)
class Units:
    """Units in order: unit k is text[starts[k]:ends[k]], counted tokens[k]; sentence[k] when it
    is a whole sentence (overlap between windows repeats only these)."""

    starts: array[int]  # typecode "q", as ends and tokens
    ends: array[int]
    tokens: array[int]
    sentence: array[int]  # typecode "b": 1 or 0

    def __len__(self) -> int:
        return len(self.starts)


def make_units(spans: list[tuple[int, int]], tokens: list[int], sentence: bool) -> Units:
    """Units from (start, end) spans and their counts, all of one kind."""
    return Units(
        array("q", map(itemgetter(0), spans)),
        array("q", map(itemgetter(1), spans)),
        array("q", tokens),
        array("b", [sentence]) * len(tokens),
    )


def summed_reach(text: str, units: Units, count_tokens: TokenCounter) -> array[int]:
    """reach[k]: the sum over units 1..k of the tokens of the gap before unit k and of its
    count (reach[0] = 0), in an array (8 bytes a unit: a list took 40).

    A gap of one space or none counts 0 (it joins the next word's token); wider ones are
    counted: indentation runs between the lines of a deeply nested list count many tokens,
    and left out of the sum, windows were filled far past the limit and recounted. Every gap
    is whitespace (each unit starts on content, and the whitespace after a unit is skipped
    to find the next), so a wide gap lies in a run of WIDE_SPACE_RE: the runs are found in the
    text by the regex, not by a step per unit (a unit a word: a million units)."""
    starts, ends = units.starts, units.ends
    steps = units.tokens[1:]  # step k: unit k + 1's count, and the gap before it
    # Units that tile their text (a table's rows, the lines of a run of headings) have no gap
    # to count (and a table's cells are full of runs of spaces the search would visit).
    # (Compared through memoryviews: slices of the arrays were copies, 16 bytes a unit, and a
    # paragraph of a million one-character words has a million units.)
    tiling = memoryview(ends)[:-1] == memoryview(starts)[1:]
    for run in WIDE_SPACE_RE.finditer(text, ends[0], starts[-1]) if not tiling else ():
        k = bisect.bisect_left(ends, run.start())  # the first unit ending in the run or after
        inside = k + 1 < len(units) and ends[k] < run.end() and starts[k + 1] <= run.end()
        if inside and starts[k + 1] - ends[k] > 1:
            steps[k] += count_tokens(text[ends[k] : starts[k + 1]])
    return array("q", accumulate(steps, initial=0) if units.tokens else ())


def tiling_units(text: str, starts: list[int], end: int, count_tokens: TokenCounter) -> Units:
    """Units text[starts[k]:starts[k+1]] (the last to `end`), each distinct text counted once:
    spans that start at line starts and tile a stretch (the lines of a run of headings)."""
    out = _Builder()
    counts: dict[str, int] = {}
    # (the appends bound once, as in _refine: a run of headings is 500,000 units in 2 MB)
    add_start, add_end, add_tokens = out.starts.append, out.ends.append, out.tokens.append
    for lo, hi in zip(starts, [*starts[1:], end], strict=True):
        piece = text[lo:hi]
        tokens = counts.get(piece)
        if tokens is None:
            tokens = counts[piece] = count_tokens(piece)
        add_start(lo)
        add_end(hi)
        add_tokens(tokens)
    out.sentence.frombytes(bytes(len(out.starts)))  # none is a whole sentence
    return out.units()


class _Builder:
    """Units appended one by one into compact arrays (the state of one split_units call)."""

    def __init__(self) -> None:
        self.starts, self.ends, self.tokens = array("q"), array("q"), array("q")
        self.sentence = array("b")

    def add(self, start: int, end: int, tokens: int, sentence: bool) -> None:
        self.starts.append(start)
        self.ends.append(end)
        self.tokens.append(tokens)
        self.sentence.append(sentence)

    def units(self) -> Units:
        return Units(self.starts, self.ends, self.tokens, self.sentence)


def split_units(
    text: str,
    start: int,
    end: int,
    budget: int,
    count_tokens: TokenCounter,
    max_token_bytes: int | None = None,
) -> Units:
    """Cut text[start:end] into units of at most `budget` tokens, coarsest level first.

    `max_token_bytes`: the longest token of the counter's vocabulary in UTF-8 bytes, when known
    (tiktoken encodings): a span of more than budget * that many bytes holds more than `budget`
    tokens, so it is cut without being counted (counting 2 MB of `x` took a second a level)."""
    budget = max(budget, 1)
    too_long = None if max_token_bytes is None else budget * max_token_bytes
    ctx = _Context(text, budget, {}, count_tokens, too_long, _Builder())
    _refine(ctx, start, end, 0)
    return ctx.out.units()


@dataclass(frozen=True, slots=True)
class _Context:
    text: str
    budget: int
    counts: dict[str, int]  # the count of each unit text seen (the words of a paragraph repeat)
    count_tokens: TokenCounter
    too_long: int | None  # spans of more UTF-8 bytes than this surely exceed the budget
    out: _Builder


def _refine(ctx: _Context, start: int, end: int, level: int) -> None:
    """Units of text[start:end] at `level` and finer, appended in order. (The loop runs once
    per word of a paragraph without sentence ends: it looks up and appends, nothing more.)"""
    text, budget, counts, too_long = ctx.text, ctx.budget, ctx.counts, ctx.too_long
    out, sentence = ctx.out, level == 0
    add_start, add_end = out.starts.append, out.ends.append
    add_tokens, add_sentence = out.tokens.append, out.sentence.append
    for lo, hi in _LEVELS[level](text, start, end):
        piece = text[lo:hi]
        tokens = counts.get(piece)
        if tokens is None and not _surely_over(piece, too_long):
            tokens = counts[piece] = ctx.count_tokens(piece)
        if tokens is not None and tokens <= budget:
            add_start(lo)
            add_end(hi)
            add_tokens(tokens)
            add_sentence(sentence)
        elif level + 1 < len(_LEVELS):
            _refine(ctx, lo, hi, level + 1)
        else:
            _characters(ctx, lo, hi)


def _surely_over(piece: str, too_long: int | None) -> bool:
    """Whether `piece` has more UTF-8 bytes than `too_long` (so more tokens than the budget)."""
    if too_long is None or len(piece) * 4 <= too_long:  # (4 bytes a character at most)
        return False
    return len(piece.encode("utf-8", "surrogatepass")) > too_long


def _spans_between(pattern: re.Pattern[str], text: str, start: int, end: int) -> Spans:
    """Spans that end after each match of `pattern`, with the whitespace between them left out
    (yielded: a list of a million spans took more memory than the text)."""
    skip = SPACE_RE.match
    lo = skip(text, start, end).end()  # type: ignore[union-attr]  # \s* always matches
    for match in pattern.finditer(text, lo, end):
        hi = match.end()
        if hi > lo:
            yield lo, hi
            lo = skip(text, hi, end).end()  # type: ignore[union-attr]
    tail_end = _trim_space(text, lo, end)
    if tail_end > lo:
        yield lo, tail_end


def _trim_space(text: str, start: int, end: int) -> int:
    """`end` moved back over whitespace, not below `start`."""
    while end > start and text[end - 1].isspace():
        end -= 1
    return end


def _sentences(text: str, start: int, end: int) -> Spans:
    return _spans_between(SENTENCE_END_RE, text, start, end)


def _clauses(text: str, start: int, end: int) -> Spans:
    return _spans_between(CLAUSE_END_RE, text, start, end)


def _words(text: str, start: int, end: int) -> Spans:
    if KANA_HAN_RE.search(text, start, end):
        yield start, end
        return
    # The runs of non-space characters are exactly the spans between word ends.
    for match in WORD_RE.finditer(text, start, end):
        yield match.span()


def _characters(ctx: _Context, start: int, end: int) -> None:
    """Greedy longest prefixes within budget (a rare, last-resort path)."""
    text, budget, count = ctx.text, ctx.budget, ctx.count_tokens
    lo = start
    guess = budget * FIRST_GUESS_CHARS_PER_TOKEN
    while lo < end:
        limit = min(end, lo + budget * MAX_CHARS_PER_TOKEN)
        probed: dict[int, int] = {}  # cut -> count of text[lo:cut] (not kept past this unit)
        fits = functools.partial(_prefix_fits, count, text, lo, budget, probed)
        best = longest_within(fits, lo, limit, guess)
        guess = best - lo
        best = _cut_away_from_spaces(text, lo, best, end)
        tokens = probed.get(best)
        ctx.out.add(lo, best, count(text[lo:best]) if tokens is None else tokens, False)
        lo = SPACE_RE.match(text, best, end).end()  # type: ignore[union-attr]


def _prefix_fits(
    count: TokenCounter, text: str, lo: int, budget: int, probed: dict[int, int], cut: int
) -> bool:
    tokens = probed[cut] = count(text[lo:cut])
    return tokens <= budget


def longest_within(fits: Callable[[int], bool], lo: int, limit: int, guess: int) -> int:
    """The largest cut in (lo, limit] that `fits` (lo + 1 when none does), for a `fits` that
    holds up to some cut and not after: first by steps growing from lo + guess, then halving.

    Each probe counts a window, so probes near the answer are what is cheap: from a good guess
    (the length of the window before) two probes settle it; from a poor one it costs about
    twice a plain binary search over the whole range."""
    best, high = lo + 1, limit  # best fits (or is lo + 1); no cut above high fits
    probe, step = min(max(lo + guess, lo + 1), limit), 1
    if fits(probe):
        best = probe
        while best < high:
            nxt = min(high, best + step)
            if not fits(nxt):
                high = nxt - 1
                break
            best, step = nxt, step * 2
    else:
        high = probe - 1
        while high > best:
            nxt = max(best, high - step + 1)
            if fits(nxt):
                best = nxt
                break
            high, step = nxt - 1, step * 2
    low = best + 1
    while low <= high:
        mid = (low + high) // 2
        if fits(mid):
            best, low = mid, mid + 1
        else:
            high = mid - 1
    return best


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


_LEVELS: tuple[Callable[[str, int, int], Spans], ...] = (
    _sentences,
    _clauses,
    _words,
)  # then characters, by `_characters`
