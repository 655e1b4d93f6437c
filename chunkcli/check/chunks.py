"""Chunks -> Issues: over the token limit, crumbs, near-duplicates.

Near-duplicates are found with a consistent sample of 5-character shingles (those whose first code
point is divisible by SAMPLE_EVERY: the same shingle is always in or out) so that the comparison
works for every script, stays linear in practice (an inverted index, very common shingles skipped)
and gives the same answer on every run (sizes of set intersections do not depend on hash seeds).
"""

from __future__ import annotations

import itertools
import re
from collections import Counter, defaultdict
from collections.abc import Sequence

import numpy as np

from chunkcli.check.options import CheckOptions
from chunkcli.check.wording import examples, quote
from chunkcli.model import Chunk, Issue, Severity

SHINGLE_CHARS = 5
# Keep shingles starting with one code point in 4 (by value): the Jaccard estimate stays within a
# few percent on chunks of 80+ characters.
SAMPLE_EVERY = 4
# Shorter chunks (after normalizing) are crumbs or headings, not candidates for duplicates.
NEAR_DUPLICATE_MIN_CHARS = 80
# A shingle found in more chunks than this says nothing about any pair (and would cost n^2).
COMMON_SHINGLE_CHUNKS = 50
NOT_TEXT = re.compile(r"[\W_]+")
# From this many sampled starts, distinct shingles are found in numpy before slicing: np.unique
# costs ~100-150 us a call, what slicing ~1000 starts costs (2744 short chunks of normal_text
# took 0.3 s deduplicated, 0.1 s sliced directly; "x" * 6000 is 4.5x faster deduplicated).
DEDUPLICATE_MIN_STARTS = 1000
# The ASCII characters NOT_TEXT removes, for bytes.translate (~50x faster on ASCII text).
ASCII_NOT_TEXT = bytes(c for c in range(128) if not chr(c).isalnum())


def check_chunks(chunks: Sequence[Chunk], markdown: str, options: CheckOptions) -> list[Issue]:
    """Chunk issues of one document: size limits, crumbs, near-duplicates."""
    line_of = line_locator(markdown)
    return (
        over_limit(chunks, options, line_of)
        + crumbs(chunks, options, line_of)
        + near_duplicates(chunks, options, line_of)
    )


class line_locator:  # lower case: used as a function, line_of(offset) -> 1-based line
    """Map a character offset in the Markdown to its 1-based line number.

    The newlines are found on the first call (most documents need no line number), as an array
    (a list of every line start was 40 bytes a line).
    """

    def __init__(self, markdown: str) -> None:
        self.markdown = markdown
        self.newlines: np.ndarray[tuple[int], np.dtype[np.intp]] | None = None

    def __call__(self, offset: int) -> int:
        if offset < 0:
            return 0
        if self.newlines is None:
            self.newlines = np.flatnonzero(code_points(self.markdown) == ord("\n"))
        return 1 + int(np.searchsorted(self.newlines, offset, side="left"))


def code_points(text: str) -> np.ndarray[tuple[int], np.dtype[np.unsignedinteger]]:
    """The text's code points as an array, one byte each for ASCII text (lone surrogates too)."""
    if text.isascii():
        return np.frombuffer(text.encode("ascii"), dtype=np.uint8)
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")


def locate(chunk: Chunk, line_of: line_locator) -> str:
    """'line 12' or 'line 12, page 3'."""
    page = f", page {chunk.page_start}" if chunk.page_start is not None else ""
    return f"line {line_of(chunk.start)}{page}"


def describe(index: int, chunk: Chunk, line_of: line_locator) -> str:
    return f"chunk {index + 1} ({locate(chunk, line_of)}, {chunk.tokens} tokens)"


def over_limit(
    chunks: Sequence[Chunk], options: CheckOptions, line_of: line_locator
) -> list[Issue]:
    over = [(i, c) for i, c in enumerate(chunks) if c.tokens > options.max_tokens]
    splittable = [(i, c) for i, c in over if not c.oversize]
    unbreakable = [(i, c) for i, c in over if c.oversize]
    issues: list[Issue] = []
    if splittable:
        i, c = splittable[0]
        issues.append(
            Issue(
                "chunks.over-limit",
                Severity.FAIL,
                f"{len(splittable)} chunks exceed {options.max_tokens} tokens "
                "(an embedder truncates them): "
                + examples([describe(j, d, line_of) for j, d in splittable]),
                line=line_of(c.start),
                page=c.page_start,
            )
        )
    if unbreakable:
        issues.append(
            Issue(
                "chunks.unbreakable",
                Severity.OK,
                f"{len(unbreakable)} unbreakable blocks (a table row, code, a figure without "
                f"words) exceed {options.max_tokens} tokens: "
                f"{examples([describe(j, d, line_of) for j, d in unbreakable])}",
                line=line_of(unbreakable[0][1].start),
                page=unbreakable[0][1].page_start,
            )
        )
    return issues


def crumbs(chunks: Sequence[Chunk], options: CheckOptions, line_of: line_locator) -> list[Issue]:
    small = [(i, c) for i, c in enumerate(chunks) if c.tokens < options.min_chunk_tokens]
    if not small:
        return []
    described = [f"{describe(i, c, line_of)} {quote(c.body, 30)}" for i, c in small]
    return [
        Issue(
            "chunks.crumbs",
            Severity.WARN,
            f"{len(small)} chunks have fewer than {options.min_chunk_tokens} tokens and carry "
            f"too little to retrieve: {examples(described)}",
            line=line_of(small[0][1].start),
            page=small[0][1].page_start,
        )
    ]


def shingle_sample(text: str) -> frozenset[str]:
    """Sampled shingles of the text with case, spaces and punctuation ignored."""
    # Numbers are kept: two parts of a statistics table differ only in their numbers.
    normal = normal_text(text)
    if len(normal) < NEAR_DUPLICATE_MIN_CHARS:
        return frozenset()
    # The code points as an array pick the sampled starts without a Python step per character,
    # and keep the first start of each distinct shingle: repetitive text ("xxxx", a table of
    # one value) makes a string of each of its few shingles only.
    codes = np.frombuffer(normal.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    starts = np.flatnonzero(codes[: len(normal) - SHINGLE_CHARS + 1] % SAMPLE_EVERY == 0)
    if len(starts) >= DEDUPLICATE_MIN_STARTS:
        windows = np.lib.stride_tricks.sliding_window_view(codes, SHINGLE_CHARS)[starts]
        records = np.ascontiguousarray(windows).view(f"V{4 * SHINGLE_CHARS}").ravel()
        starts = starts[np.unique(records, return_index=True)[1]]
    return frozenset(normal[i : i + SHINGLE_CHARS] for i in starts.tolist())


def normal_text(text: str) -> str:
    """The text casefolded, without spaces, punctuation and underscores."""
    if text.isascii():  # casefold is lower there; the bytes translate without a regex
        return text.lower().encode("ascii").translate(None, ASCII_NOT_TEXT).decode("ascii")
    return NOT_TEXT.sub("", text.casefold())


def duplicate_pairs(samples: list[frozenset[str]], similarity: float) -> list[tuple[int, int]]:
    """(earlier, later) for each chunk that nearly repeats an earlier one (first match only)."""
    postings: dict[str, list[int]] = defaultdict(list)  # shingle -> earlier chunks holding it
    first_seen: dict[frozenset[str], int] = {}
    pairs: list[tuple[int, int]] = []
    for later, sample in enumerate(samples):
        if not sample:
            continue
        if sample in first_seen:
            pairs.append((first_seen[sample], later))
            continue
        first_seen[sample] = later
        match = best_earlier_match(sample, samples, postings, similarity)
        if match is not None:
            pairs.append((match, later))
        for shingle in sample:
            postings[shingle].append(later)
    return pairs


def best_earlier_match(
    sample: frozenset[str],
    samples: list[frozenset[str]],
    postings: dict[str, list[int]],
    similarity: float,
) -> int | None:
    """The first earlier chunk at least `similarity` alike, judged on shingles that are rare."""
    held = [postings.get(shingle, ()) for shingle in sample]
    rare_holders = [holders for holders in held if len(holders) <= COMMON_SHINGLE_CHUNKS]
    rare = len(rare_holders)
    shared = Counter(itertools.chain.from_iterable(rare_holders))
    # A real near-duplicate shares most rare shingles; check only those exactly.
    for earlier in sorted(i for i, n in shared.items() if n >= similarity * rare / 2):
        other = samples[earlier]
        overlap = len(other & sample)
        if overlap / (len(other) + len(sample) - overlap) >= similarity:
            return earlier
    return None


def near_duplicates(
    chunks: Sequence[Chunk], options: CheckOptions, line_of: line_locator
) -> list[Issue]:
    samples = [shingle_sample(chunk.body) for chunk in chunks]
    pairs = duplicate_pairs(samples, options.near_duplicate_similarity)
    if not pairs:
        return []
    described = [
        f"chunk {b + 1} ({locate(chunks[b], line_of)}) ≈ chunk {a + 1} "
        f"({locate(chunks[a], line_of)})"
        for a, b in pairs
    ]
    first = chunks[pairs[0][1]]
    return [
        Issue(
            "chunks.near-duplicates",
            Severity.WARN,
            f"{len(pairs)} chunks nearly repeat an earlier chunk (they crowd out other results): "
            f"{examples(described)}",
            line=line_of(first.start),
            page=first.page_start,
        )
    ]
