"""Segments -> plans, for the structured modes (laws, qa): a segment is one unit of meaning (an
article, a question with its answer) that becomes one chunk when it fits, else parts cut at its
own joints, coarsest first (between 項, then between 号, then between lines), then sentence
windows. Every part carries the segment's heading path in its prefix, and the parts after the
first also repeat the segment's lead (a question) there.

Counts: every plan's tokens are counted on its whole text (prefix + body), so they are exact
for any counter; the structured modes are not the default path, so the extra count is cheap
enough (one more encoding of the text). Packing decisions use the sum of the parts' counts.
"""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass

from chunkcli.model import ChunkKind, ItemFields
from chunkcli.split.layout import Layout, Path
from chunkcli.split.plan import Plan
from chunkcli.split.units import longest_within, split_units

# Format comments (page markers, provenance, header-row counts: markdown_format) are never at
# the start or end of a chunk, as in the heading mode.
FORMAT_COMMENT = r"<!--\s*(?:page\s+\d+\b|chunkcli\s|table:)[^>]*-->"
LEADING_MARKERS_RE = re.compile(rf"(?:\s*{FORMAT_COMMENT})+\s*")
TRAILING_MARKERS_RE = re.compile(rf"(?:{FORMAT_COMMENT}\s*)+$")
LEADING_SPACE_RE = re.compile(r"\s*")


@dataclass(frozen=True, slots=True)
class Segment:
    """markdown[start:end] as one chunk, or as parts cut at `cuts` when over the limit."""

    start: int
    end: int
    kind: ChunkKind  # of the whole segment as one chunk
    part_kind: ChunkKind  # of each part when it is cut
    path: Path
    # Offsets where a part may start, one tuple per level, coarsest first (ascending each).
    cuts: tuple[tuple[int, ...], ...] = ()
    lead: str = ""  # repeated (then a blank line) in the prefix of every part but the first
    head_end: int = 0  # markdown[start:head_end] (a question) is never cut: it opens part one
    item: ItemFields | None = None  # --mode items: the typed fields of every part


def text_share(markdown: str, segments: list[Segment], kind: ChunkKind) -> float | None:
    """The share of the document's non-space characters inside segments of `kind` (auto
    mode's test that a structure carries the document, not one corner of it); None for a
    document without text."""
    total = len("".join(markdown.split()))
    inside = sum(
        len("".join(markdown[s.start : s.end].split())) for s in segments if s.kind is kind
    )
    return inside / total if total else None


def plan_segments(layout: Layout, segments: list[Segment]) -> list[Plan]:
    plans: list[Plan] = []
    for segment in segments:
        plans += plan_segment(layout, segment)
    return plans


def plan_segment(layout: Layout, segment: Segment) -> list[Plan]:
    """One plan when the segment fits, else its parts (page markers at the edges left out)."""
    span = trim(layout.markdown, segment.start, segment.end)
    if span is None:
        return []
    start, end = span
    prefix, _ = layout.prefix(segment.path)
    whole = make_plan(layout, start, end, segment.kind, segment.path, prefix)
    if segment.item is not None:
        whole = whole._replace(item=segment.item)
    if not whole.oversize:
        return [whole]
    rest_prefix = prefix + segment.lead + "\n\n" if segment.lead else prefix
    budget = max(layout.max_tokens - layout.count_tokens(rest_prefix), 1)
    windows = _headed_windows(layout, segment, start, end, budget)
    plans = []
    for index, (lo, hi) in enumerate(windows):
        part_span = trim(layout.markdown, lo, hi)
        if part_span is not None:
            part_prefix = prefix if index == 0 else rest_prefix
            lo, hi = part_span
            part = make_plan(layout, lo, hi, segment.part_kind, segment.path, part_prefix)
            plans.append(part._replace(item=segment.item))
    if len(plans) == 1:  # nothing to cut at: one oversize chunk of the whole kind
        return [whole]
    return plans


def _headed_windows(
    layout: Layout, segment: Segment, start: int, end: int, budget: int
) -> list[tuple[int, int]]:
    """Windows of [start, end); the head and the first window after it are one part, sized so
    that head and window fit together when they can."""
    head_end = segment.head_end
    if head_end <= start:
        return _windows(layout, start, end, segment.cuts, 0, budget)
    while head_end < end and layout.markdown[head_end].isspace():
        head_end += 1  # the answer starts at its first character
    head = layout.count_tokens(layout.prefix(segment.path)[0] + layout.markdown[start:head_end])
    first_budget = layout.max_tokens - head
    answer = _windows(layout, head_end, end, segment.cuts, 0, max(first_budget, budget))
    if first_budget >= 1 and answer:
        answer = _windows(layout, head_end, end, segment.cuts, 0, first_budget)[:1]
        answer += _windows(layout, answer[0][1], end, segment.cuts, 0, budget)
    if not answer:
        return [(start, end)]
    return [(start, answer[0][1]), *answer[1:]]


def make_plan(
    layout: Layout, start: int, end: int, kind: ChunkKind, path: Path, prefix: str
) -> Plan:
    tokens = layout.count_tokens(prefix + layout.markdown[start:end])
    return Plan(start, end, kind, path, prefix, tokens, tokens > layout.max_tokens)


def trim(markdown: str, start: int, end: int) -> tuple[int, int] | None:
    """[start, end) without page markers (and blank lines) before its first text or markers
    after its last; None when nothing but those is left."""
    lead = LEADING_MARKERS_RE.match(markdown, start, end)
    if lead:
        start = lead.end()
    else:
        space = LEADING_SPACE_RE.match(markdown, start, end)
        start = space.end() if space else start
    if start >= end:
        return None
    tail = TRAILING_MARKERS_RE.search(markdown, start, end)
    if tail and tail.start() > start:
        end = tail.start()
    return (start, end) if markdown[start:end].strip() else None


def _windows(
    layout: Layout,
    start: int,
    end: int,
    cuts: tuple[tuple[int, ...], ...],
    level: int,
    budget: int,
) -> list[tuple[int, int]]:
    """[start, end) as windows of at most `budget` tokens, cut at cuts[level] first."""
    markdown, count = layout.markdown, layout.count_tokens
    if level >= len(cuts):
        return _sentence_windows(layout, start, end, budget)
    bounds = [start, *(c for c in cuts[level] if start < c < end), end]
    windows: list[tuple[int, int]] = []
    window_start, window_end, total = start, start, 0
    for lo, hi in zip(bounds, bounds[1:], strict=False):
        tokens = count(markdown[lo:hi])
        if tokens > budget:
            if window_end > window_start:
                windows.append((window_start, window_end))
            windows += _windows(layout, lo, hi, cuts, level + 1, budget)
            window_start, window_end, total = hi, hi, 0
            continue
        if window_end > window_start and total + tokens > budget:
            windows.append((window_start, window_end))
            window_start, total = lo, 0
        window_end, total = hi, total + tokens
    if window_end > window_start:
        windows.append((window_start, window_end))
    return windows


def _sentence_windows(layout: Layout, start: int, end: int, budget: int) -> list[tuple[int, int]]:
    """Greedy windows of sentences (then clauses, words, characters), each checked exactly."""
    markdown, count = layout.markdown, layout.count_tokens
    units = split_units(markdown, start, end, budget, count, layout.max_token_bytes)
    starts, ends, tokens = units.starts.tolist(), units.ends.tolist(), units.tokens.tolist()
    windows: list[tuple[int, int]] = []
    i = 0
    while i < len(units):
        j, total = i + 1, tokens[i]
        while j < len(units) and total + tokens[j] <= budget:
            total += tokens[j]
            j += 1
        if j - i > 1 and count(markdown[starts[i] : ends[j - 1]]) > budget:
            fits = functools.partial(_window_fits, layout, starts[i], ends, budget)
            j = longest_within(fits, i, j - 1, j - 1 - i)
        windows.append((starts[i], ends[j - 1]))
        i = j
    return windows


def _window_fits(layout: Layout, start: int, ends: list[int], budget: int, k: int) -> bool:
    """Whether the window from `start` to the end of unit k - 1 counts at most `budget`."""
    return layout.count_tokens(layout.markdown[start : ends[k - 1]]) <= budget


def cuts_within(
    cuts: tuple[tuple[int, ...], ...], start: int, end: int
) -> tuple[tuple[int, ...], ...]:
    """The cuts strictly inside (start, end), level by level."""
    return tuple(
        level[bisect.bisect_right(level, start) : bisect.bisect_left(level, end)] for level in cuts
    )
