"""Token counts of consecutive spans of one document, from ONE encoding of the whole text.

The pre-split of cl100k_base and o200k_base ends a piece at every line start (a newline is only
ever the last character of a piece), and BPE never merges across pieces. So the tokens of a span
that starts and ends at line starts are exactly the tokens that the whole text has between those
two offsets. So the document is encoded once, in one call, and the token ends are cut at the
span bounds: no per-piece call into the tokenizer. A bound that falls inside a token (never
seen; a safety net) has its two spans counted on their own. Without numpy every span is.

A span the caller marks `boundable` (a paragraph or heading: the planner cuts one over the limit
into windows and never needs its whole count) that has more UTF-8 bytes than `over` times the
encoding's longest token surely counts more than `over` tokens. It is not encoded: its count is
the lower bound bytes / longest token, which is above `over`. Such a span can be one pre-split
piece of megabytes (a run of newlines, one 2 MB word) that tiktoken encodes at 2 MB/s with 48
bytes of memory a byte; the text between such spans is encoded in one call per stretch.

(Encoding in a background thread while the blocks are found was measured and dropped: on the
2-core machine shared with other jobs it cost 8 % more CPU time and gained no wall time.)

Where tokens.fast_counter has a counter for the encoding, each span is counted on its own by
it instead: for spans that start at line starts that is the same count as the cut of the one
encoding, at less than half its CPU time, and with no token ends, no byte offsets and no numpy.
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Iterable, Sequence
from itertools import compress, repeat
from operator import is_
from typing import TYPE_CHECKING, Any, Protocol

from chunkcli.tokens import LONGEST_TOKEN_BYTES, TokenCounter, fast_counter, load_encoding

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    # UTF-8 byte offset where each token ends, 0 first (int32, or int64 for texts past 512 MB)
    TokenEnds = npt.NDArray[np.integer[Any]]


# A stretch of text is encoded in parts of about this many characters: the token ids, their
# byte ends and tiktoken's UTF-8 copy of the text, for the whole of 5 MB at once, were the
# peak of split's memory (30 MB of 61 over the text). Parts of 2^20 characters still held
# 4 MB more at the peak than 2^18 (a part's copy takes 4 bytes a character once the text
# has one character past U+FFFF), at the same CPU time (bench/RESULTS.md, 2026-12-04).
PART_CHARS = 1 << 18
# Spans this short on average are counted by their text (each distinct one encoded once):
# 2 MB of 4-character headings encoded at 3 MB/s, a dictionary look-up per span is quicker;
# ordinary Markdown has spans of hundreds of characters.
TINY_SPAN_CHARS = 16


class SpanCounter(Protocol):
    def __call__(self, bounds: Sequence[int], boundable: Sequence[bool] = ()) -> list[int]:
        """(bounds b0 < b1 < ... < bn) -> the token count of markdown[b_i:b_i+1] for each i;
        where boundable[i], a count above the counter's `over` may be a lower bound."""


def counter_per_span(markdown: str, count_tokens: TokenCounter) -> SpanCounter:
    """Counts each span with its own call: any counter, no assumption about its pre-split."""

    def count_spans(bounds: Sequence[int], boundable: Sequence[bool] = ()) -> list[int]:
        return [count_tokens(markdown[lo:hi]) for lo, hi in zip(bounds, bounds[1:], strict=False)]

    return count_spans


def counter_from_whole_text(
    markdown: str, encoding_name: str, over: int | None = None
) -> SpanCounter:
    """Counts spans from one encoding of `markdown` (less the boundable spans surely over
    `over` tokens, which get a lower bound above `over`), made at the first call.

    Only for encodings whose pieces end at line starts (layout.ADDITIVE_ENCODINGS), and only
    for bounds at line starts that begin a non-blank line (or the end of the text)."""
    per_span = counter_per_span(markdown, _ordinary_counter(encoding_name))

    def count_spans(bounds: Sequence[int], boundable: Sequence[bool] = ()) -> list[int]:
        byte_bounds = _byte_offsets(markdown, bounds)
        bounded = _lower_bounds(byte_bounds, boundable, over, encoding_name)
        if not bounded:
            return _stretch_counts(markdown, bounds, byte_bounds, encoding_name, per_span)
        counts: list[int] = []
        first = 0  # stretches of spans between the bounded ones
        for end in [*bounded, len(bounds) - 1]:
            if end > first:
                counts += _stretch_counts(
                    markdown,
                    bounds[first : end + 1],
                    byte_bounds[first : end + 1],
                    encoding_name,
                    per_span,
                )
            if end in bounded:
                counts.append(bounded[end])
            first = end + 1
        return counts

    return count_spans


def counter_from_fast_spans(
    markdown: str,
    count: TokenCounter,
    encoding_name: str,
    over: int | None = None,
    utf8_count: TokenCounter | None = None,
) -> SpanCounter:
    """Counts each span with `count` (tokens.fast_counter's: exact, and cheap a call), less the
    boundable spans surely over `over` tokens, which get the same lower bound as in
    counter_from_whole_text; a span of a few characters is counted once per distinct text.
    The same counts as counter_from_whole_text, under the same conditions. `utf8_count`
    (tokens.utf8_counter's: the same counts, raising UnicodeEncodeError where the text is not
    UTF-8) counts the spans by map where none is bounded and they are not tiny on average."""

    def count_spans(bounds: Sequence[int], boundable: Sequence[bool] = ()) -> list[int]:
        bounded = _long_span_lower_bounds(markdown, bounds, boundable, over, encoding_name)
        spans = len(bounds) - 1
        if not bounded and utf8_count is not None and spans > 0:
            if bounds[-1] - bounds[0] >= TINY_SPAN_CHARS * spans:  # (else the known counts)
                mapped = _mapped_counts(markdown, bounds, utf8_count)
                if mapped is not None:
                    return mapped
        known: dict[str, int] = {}
        counts: list[int] = []
        for span, (lo, hi) in enumerate(zip(bounds, bounds[1:], strict=False)):
            text = markdown[lo:hi]
            if hi - lo > TINY_SPAN_CHARS:
                counts.append(bounded[span] if span in bounded else count(text))
                continue
            known_count = known.get(text)
            if known_count is None:
                known_count = known[text] = count(text)
            counts.append(known_count)
        return counts

    return count_spans


def _mapped_counts(
    markdown: str, bounds: Sequence[int], utf8_count: TokenCounter
) -> list[int] | None:
    """The count of each span between `bounds` by `utf8_count`, each text counted once while
    a CountMemo remembers it, or None when a span is not UTF-8 (the caller counts them one by
    one, by its fallback)."""
    memo = CountMemo(utf8_count)
    counts: list[int] = []
    try:
        for first in range(0, len(bounds) - 1, MEMO_BATCH_SPANS):
            edges = bounds[first : first + MEMO_BATCH_SPANS + 1]
            counts += memo.counts(map(markdown.__getitem__, map(slice, edges, edges[1:])))
    except UnicodeEncodeError:
        return None
    return counts


# The counts CountMemo remembers: at most this many texts (chonkie's RecursiveChunker keeps
# 4,096 in an lru_cache) and this many characters of them, past one batch of spans.
MEMO_TEXTS = 4_096
MEMO_CHARS = 1 << 20
MEMO_BATCH_SPANS = 1_024  # spans looked up, counted and remembered together


class CountMemo:
    """Counts of span texts, each distinct text counted once while remembered; one memo a
    document. Bounded: past MEMO_TEXTS texts or MEMO_CHARS characters at the end of a batch
    it forgets them all, so it holds at most those plus one batch. The look-ups are C calls
    mapped over a batch (a Python step a span would cost what the counts it saves do).

    What it buys (bench/RESULTS.md, 2026-12-04): in real documents the spans that repeat are
    short (table rows, notes, a figure's lines: 11.5 % of the counts of 24 converted
    documents, 6.3 % of their characters), so it saves about what it costs there (+0.3 % of
    instructions); on text that repeats whole documents, as split_bench's default text does
    ten times, it serves 90 % of the counts, as chonkie's count cache does."""

    def __init__(self, count: TokenCounter) -> None:
        self.count = count
        self.known: dict[str, int] = {}
        self.chars = 0  # characters of the texts in `known`
        self.counted = 0  # texts counted, and counts served from memory: for the benchmarks
        self.remembered = 0

    def counts(self, texts: Iterable[str]) -> list[int]:
        """The count of each of `texts` (one batch), in order."""
        batch = list(texts)
        known = self.known
        found = list(map(known.get, batch))
        if None not in found:
            self.remembered += len(batch)
            return found  # type: ignore[return-value]  # (no None in it)
        new = dict.fromkeys(compress(batch, map(is_, found, repeat(None))))
        known.update(zip(new, map(self.count, new), strict=True))
        self.counted += len(new)
        self.remembered += len(batch) - len(new)
        self.chars += sum(map(len, new))
        counts = list(map(known.__getitem__, batch))
        if len(known) > MEMO_TEXTS or self.chars > MEMO_CHARS:
            known.clear()
            self.chars = 0
        return counts


def _long_span_lower_bounds(
    markdown: str,
    bounds: Sequence[int],
    boundable: Sequence[bool],
    over: int | None,
    encoding_name: str,
) -> dict[int, int]:
    """_lower_bounds for the spans between character bounds: only a span of more than a
    quarter of the threshold in characters can have more bytes than it (a character is at most
    4 bytes of UTF-8), so only those are measured in bytes."""
    bounding = _bounding(over, boundable, encoding_name)
    if bounding is None:
        return {}
    longest, threshold = bounding
    spans = zip(bounds, bounds[1:], boundable, strict=False)
    sizes = {
        span: len(markdown[lo:hi].encode("utf-8", "surrogatepass"))
        for span, (lo, hi, flag) in enumerate(spans)
        if flag and 4 * (hi - lo) > threshold
    }
    return {span: -(-size // longest) for span, size in sizes.items() if size > threshold}


def _lower_bounds(
    byte_bounds: Sequence[int], boundable: Sequence[bool], over: int | None, encoding_name: str
) -> dict[int, int]:
    """span -> its bytes / the longest token rounded up (a count it cannot be below), for the
    boundable spans with more bytes than `over` times the longest token; in span order."""
    bounding = _bounding(over, boundable, encoding_name)
    if bounding is None or byte_bounds[-1] - byte_bounds[0] <= bounding[1]:
        return {}
    longest, threshold = bounding
    sizes = [hi - lo for lo, hi in zip(byte_bounds, byte_bounds[1:], strict=False)]
    return {
        i: -(-size // longest)
        for i, (size, flag) in enumerate(zip(sizes, boundable, strict=False))
        if size > threshold and flag
    }


def _bounding(
    over: int | None, boundable: Sequence[bool], encoding_name: str
) -> tuple[int, int] | None:
    """(the longest token in bytes, the bytes above which a span surely counts more than
    `over` tokens), or None when no span is to be bounded."""
    if over is None or not any(boundable):
        return None
    longest = longest_token_bytes(encoding_name)
    return longest, over * longest


def _stretch_counts(
    markdown: str,
    bounds: Sequence[int],
    byte_bounds: Sequence[int],
    encoding_name: str,
    per_span: SpanCounter,
) -> list[int]:
    """Counts of the spans between `bounds`, from encodings of parts of about PART_CHARS of
    markdown[bounds[0]:bounds[-1]], each from a bound to a bound (a part that starts at a bound
    starts a pre-split piece: the same tokens as in the whole text)."""
    counts: list[int] = []
    first, spans = 0, len(bounds) - 1
    while first < spans:
        # The last bound within PART_CHARS of the part's start, past at least one span.
        last = bisect.bisect_right(bounds, bounds[first] + PART_CHARS, first + 2, spans + 1) - 1
        counts += _part_counts(
            markdown,
            bounds[first : last + 1],
            byte_bounds[first : last + 1],
            encoding_name,
            per_span,
        )
        first = last
    return counts


def _part_counts(
    markdown: str,
    bounds: Sequence[int],
    byte_bounds: Sequence[int],
    encoding_name: str,
    per_span: SpanCounter,
) -> list[int]:
    """Counts of the spans between `bounds`, from one encoding of markdown[bounds[0]:bounds[-1]]."""
    lo, hi = bounds[0], bounds[-1]
    if (hi - lo) < TINY_SPAN_CHARS * (len(bounds) - 1):
        return _counts_by_text(markdown, bounds, encoding_name)
    stretch = markdown[lo:hi] if (lo, hi) != (0, len(markdown)) else markdown
    token_ends = _token_ends(stretch, encoding_name)
    if token_ends is None:
        return per_span(bounds)
    first = byte_bounds[0]
    local = [bound - first for bound in byte_bounds] if first else byte_bounds
    return _cut_counts(bounds, local, token_ends, per_span)


def _counts_by_text(markdown: str, bounds: Sequence[int], encoding_name: str) -> list[int]:
    """Counts of the spans between `bounds`, each distinct span text encoded once: spans of a
    few characters repeat (500,000 `# h` headings), and encoding them all cost more than
    looking them up."""
    encode = load_encoding(encoding_name).encode_ordinary
    known: dict[str, int] = {}
    counts = []
    for lo, hi in zip(bounds, bounds[1:], strict=False):
        text = markdown[lo:hi]
        count = known.get(text)
        if count is None:
            count = known[text] = len(encode(text))
        counts.append(count)
    return counts


def _ordinary_counter(encoding_name: str) -> TokenCounter:
    encode = load_encoding(encoding_name).encode_ordinary

    def count(text: str) -> int:
        return len(encode(text))

    return count


def _token_ends(markdown: str, encoding_name: str) -> TokenEnds | None:
    """Cumulative byte ends of the tokens of `markdown` (0 first), or None without numpy or
    when the text has lone surrogates (not UTF-8; the per-span counter handles them as tiktoken
    does)."""
    try:
        import numpy as np
    except ImportError:
        return None
    encoding = load_encoding(encoding_name)
    try:
        tokens = encoding.encode_to_numpy(markdown, disallowed_special=())
    except UnicodeEncodeError:
        return None
    # Offsets in 4 bytes while the text's UTF-8 (at most 4 bytes a character) fits them: the
    # gathered lengths and their sums took 32 of the 40 bytes a token at their peak in 8.
    wide = len(markdown) * 4 >= np.iinfo(np.int32).max
    dtype = np.int64 if wide else np.int32
    ends: TokenEnds = np.zeros(len(tokens) + 1, dtype=dtype)
    np.cumsum(_token_byte_lengths(encoding_name).astype(dtype)[tokens], dtype=dtype, out=ends[1:])
    return ends


@functools.cache  # (kept for the process: release_rank_table needs them never read again)
def _token_byte_lengths(encoding_name: str) -> npt.NDArray[np.int64]:
    """Length in bytes of every token of the encoding, by token id (computed once)."""
    import numpy as np

    encoding = load_encoding(encoding_name)
    lengths = np.zeros(encoding.n_vocab, dtype=np.int64)
    for token_bytes, rank in encoding._mergeable_ranks.items():
        lengths[rank] = len(token_bytes)
    for text, rank in encoding._special_tokens.items():
        lengths[rank] = len(text.encode("utf-8"))
    return lengths


def load_for_counting_only(encoding_name: str) -> None:
    """Load what split counts `encoding_name` with, for a process that only counts with it (the
    CLI's split), failing here when it is not available offline: the fast counter, with which
    tiktoken is never loaded, or else tiktoken's encoding with its rank dict freed."""
    if fast_counter(encoding_name) is None:
        release_rank_table(encoding_name)


def release_rank_table(encoding_name: str) -> None:
    """Free the Python dict of the encoding's 100,000-odd token ranks, for a process that only
    counts with it (the CLI's split: it owns its process). tiktoken keeps that dict beside its
    own tables in Rust only to pickle an encoding that is not in its registry (a registered
    one pickles by name), and this module reads it once, for the token lengths, taken here
    first. Measured: 13 MB of split's peak on a 5 MB text (125 -> 112 MB). An
    unregistered encoding keeps its dict."""
    import tiktoken.registry

    _token_byte_lengths(encoding_name)
    encoding = load_encoding(encoding_name)
    registered = tiktoken.registry.ENCODINGS.get(encoding.name)
    if registered is not None and registered is encoding:
        registered._mergeable_ranks = {}


def longest_token_bytes(encoding_name: str) -> int:
    """The length in UTF-8 bytes of the encoding's longest token: a text of n bytes has at least
    n / this many tokens."""
    known = LONGEST_TOKEN_BYTES.get(encoding_name)
    return known if known is not None else int(_token_byte_lengths(encoding_name).max())


def _cut_counts(
    bounds: Sequence[int], local_bytes: Sequence[int], token_ends: TokenEnds, per_span: SpanCounter
) -> list[int]:
    """Counts of the spans between `bounds`: tokens whose ends fall between their byte bounds
    (`local_bytes`: the bounds as byte offsets into the encoded stretch)."""
    import numpy as np

    byte_bounds = np.array(local_bytes, dtype=token_ends.dtype)  # (no int64 copy of the ends)
    index = np.searchsorted(token_ends, byte_bounds)
    inside = np.minimum(index, len(token_ends) - 1)
    aligned = token_ends[inside] == byte_bounds
    counts: list[int] = np.diff(index).tolist()
    for span in np.flatnonzero(~(aligned[:-1] & aligned[1:])).tolist():
        counts[span] = per_span(bounds[span : span + 2])[0]
    return counts


def _byte_offsets(markdown: str, bounds: Sequence[int]) -> Sequence[int]:
    """The UTF-8 byte offset of each character offset in `bounds` (ascending; a lone surrogate
    takes 3 bytes, as the replacement character tiktoken encodes in its place)."""
    if markdown.isascii():
        return bounds
    offsets = []
    position, total = 0, 0
    for bound in bounds:
        total += len(markdown[position:bound].encode("utf-8", "surrogatepass"))
        position = bound
        offsets.append(total)
    return offsets
