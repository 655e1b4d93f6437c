"""Layout -> plans: where each chunk starts and ends, its heading path, kind and exact tokens.

Cut order (issue 3): H1/H2 headings always cut (H3 too with split_on=h3). A section over the limit
is cut at its next heading level, down to H6 (small H3 parts of one H2 section may merge back up
to the limit when min_tokens is set). A part still over the limit packs whole blocks greedily,
a heading always staying with the block after it. A block that alone is too big: a table is cut
between rows (later parts repeat its header in the prefix), a figure inside its words (later
parts repeat its caption: figures.py), a text block into sentence windows (then clauses, words,
characters), and a code block is kept whole and flagged oversize.

Pieces and table rows start at line starts and keep their trailing blank lines, so the count of
a run of them is the sum of their counts: tiktoken's pre-split never joins a newline with the
character after it (tests check this against real cl100k counts). Bodies made of whole pieces
therefore end with the blank lines that follow them. With any other counter every plan is
recounted (`Layout.checked_count`), and a plan found over the limit is cut again. Windows
inside a paragraph are always counted exactly.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from typing import NamedTuple

from chunkcli.model import ChunkKind, ItemFields
from chunkcli.split.captions import table_caption
from chunkcli.split.figures import figure_parts
from chunkcli.split.heading_runs import RUN_LINE_RE
from chunkcli.split.layout import Layout, Path, common_prefix
from chunkcli.split.scan import PieceKind
from chunkcli.split.units import (
    Units,
    longest_within,
    make_units,
    split_units,
    summed_reach,
    tiling_units,
)

TOP_CUT_LEVEL = 2  # H1 and H2 always start a new chunk; never merge across them
# The kind of a chunk whose only content is one piece of these kinds (else: section).
WHOLE_KINDS = {PieceKind.TABLE: ChunkKind.TABLE, PieceKind.FIGURE: ChunkKind.FIGURE}
MAX_HEADING_LEVEL = 6
_new = tuple.__new__  # a Plan without NamedTuple's Python __new__ (all its fields given)


class Plan(NamedTuple):
    """One chunk to be (a NamedTuple: see blocks.RawBlock)."""

    start: int
    end: int  # body = markdown[start:end]
    kind: ChunkKind
    path: Path
    prefix: str
    tokens: int  # exact count of prefix + body
    oversize: bool = False
    item: ItemFields | None = None  # --mode items only


@dataclass(frozen=True, slots=True)
class Run:
    """Units to pack into windows; the first window starts at `first_start` (its glue)."""

    units: Units
    first_start: int
    first_prefix: str
    first_fixed: int  # tokens of the first window besides its units: prefix, headings, header
    rest_prefix: str
    rest_fixed: int  # tokens of the prefix of the other windows
    kind: ChunkKind
    path: Path
    overlap: int
    additive: bool  # units tile the text from line starts: sums are exact counts
    fixed_end: int  # where the text counted in first_fixed ends (the first unit's piece)

    def budget(self, max_tokens: int, first: bool) -> int:
        return max_tokens - (self.first_fixed if first else self.rest_fixed)


def plan_chunks(layout: Layout) -> list[Plan]:
    """All plans of the document, in order."""
    return plan_range(layout, 0, len(layout.pieces))


def plan_range(layout: Layout, lo: int, hi: int) -> list[Plan]:
    """The plans of pieces[lo:hi] as if they were the whole document (the modes split the
    text between their own units with this)."""
    plans: list[Plan] = []
    for part_lo, part_hi in cut_ranges(layout, lo, hi, TOP_CUT_LEVEL):
        plans += _plan_top_section(layout, part_lo, part_hi)
    return plans


def cut_ranges(layout: Layout, lo: int, hi: int, level: int) -> list[tuple[int, int]]:
    """pieces[lo:hi] cut before each heading of `level` or above. Headings with no text after
    them in their range (a range of headings only, or empty headings at a range's end) move to
    the next range, so that a heading travels with the text under it."""
    pieces = layout.pieces
    if lo >= hi:
        return []
    if not layout.has_content(lo, hi):
        return [(lo, hi)]  # (no cut: a range of headings only is one range at every level)
    bounds = [lo]
    bounds += [k for k in layout.headings_between(lo + 1, hi) if pieces[k].level <= level]
    bounds.append(hi)
    ranges: list[tuple[int, int]] = []
    start = lo
    for b in bounds[1:-1]:
        if not layout.has_content(start, b):
            continue
        glue = b
        while glue > start and not pieces[glue - 1].is_content:
            glue -= 1
        if glue > start:  # text before the cut: the range ends after it
            ranges.append((start, glue))
            start = glue
    ranges.append((start, hi))
    return ranges


def _plan_top_section(layout: Layout, lo: int, hi: int) -> list[Plan]:
    cut_level = layout.options.cut_level
    if cut_level == TOP_CUT_LEVEL and layout.fits(lo, hi):
        return emit(layout, lo, hi)
    plans: list[Plan] = []
    for part_lo, part_hi, merged in _merge_small(layout, cut_ranges(layout, lo, hi, 3)):
        if merged:
            plans += emit(layout, part_lo, part_hi)
        else:
            plans += _plan_part(layout, part_lo, part_hi, 4)
    return plans


def _merge_small(layout: Layout, parts: list[tuple[int, int]]) -> list[tuple[int, int, bool]]:
    """With min_tokens set, adjacent parts merge while one side is small and the sum fits."""
    min_tokens = layout.options.min_tokens
    groups: list[tuple[int, int, bool]] = []
    for lo, hi in parts:
        if min_tokens and groups:
            group_lo, group_hi, _ = groups[-1]
            small = min(layout.tokens(group_lo, group_hi), layout.tokens(lo, hi)) < min_tokens
            if small and layout.fits(group_lo, hi):
                groups[-1] = (group_lo, hi, True)
                continue
        groups.append((lo, hi, False))
    return groups


def _plan_part(layout: Layout, lo: int, hi: int, level: int) -> list[Plan]:
    if layout.fits(lo, hi):
        return emit(layout, lo, hi)
    while level <= MAX_HEADING_LEVEL:
        parts = cut_ranges(layout, lo, hi, level)
        if len(parts) > 1:
            return [plan for a, b in parts for plan in _plan_part(layout, a, b, level + 1)]
        level += 1
    return pack_blocks(layout, lo, hi)


def pack_blocks(layout: Layout, lo: int, hi: int) -> list[Plan]:
    """Greedy windows of whole pieces; trailing headings move on with the next window."""
    pieces, paths, max_tokens = layout.pieces, layout.paths, layout.max_tokens
    plans: list[Plan] = []
    window_lo, window_tokens, window_path = lo, 0, None
    # Runs of pieces share one path object, so each piece's path is merged into the window's
    # once a run (`merged`: the last merged, which window_path is a prefix of) and its prefix
    # looked up once a run (`priced`: the path whose prefix costs `prefix_tokens`).
    merged: Path | None = None
    priced, prefix_tokens = None, 0
    last_content = lo - 1
    k = lo
    while k < hi:
        piece = pieces[k]
        # The window's path runs from its first text on (see Layout.common_path).
        has_text = last_content >= window_lo
        path = paths[k]
        if has_text and window_path is not None and window_path is not path:
            if path is merged:
                path = window_path
            else:
                path, merged = common_prefix(window_path, path), path
        if path is not priced:
            priced, prefix_tokens = path, layout.prefix(path)[1]
        if prefix_tokens + window_tokens + piece.tokens <= max_tokens:
            window_tokens += piece.tokens
            if has_text or piece.is_content:
                if window_path is not path:
                    merged = None  # (a path of its own, not merged: see above)
                window_path = path
            last_content = k if piece.is_content else last_content
            k += 1
        elif last_content >= window_lo:
            glue = last_content + 1
            plans += emit(layout, window_lo, glue)
            window_lo, window_tokens, window_path, merged = glue, layout.tokens(glue, k), None, None
        elif window_lo < k and not pieces[k].is_content:
            # Headings alone fill the limit (degenerate input): they become their own chunk.
            plans += emit(layout, window_lo, k)
            window_lo, window_tokens, window_path, merged = k, 0, None, None
        else:
            plans += split_oversized(layout, window_lo, k)
            window_lo, window_tokens, window_path, merged = k + 1, 0, None, None
            k += 1
    if window_lo < hi:
        plans += emit(layout, window_lo, hi)
    return plans


def emit(layout: Layout, lo: int, hi: int) -> list[Plan]:
    """One plan for pieces[lo:hi] (page markers at the edges left out), cut again if over."""
    pieces = layout.pieces
    while lo < hi and pieces[lo].kind is PieceKind.MARKER:
        lo += 1
    while hi > lo and pieces[hi - 1].kind is PieceKind.MARKER:
        hi -= 1
    if lo >= hi:
        return []
    if hi - lo == 1 and pieces[lo].kind is PieceKind.HEADINGS and not layout.fits(lo, hi):
        return split_oversized(layout, lo, lo)  # (its count may be a bound: not counted whole)
    content_count = layout.content_count(lo, hi)
    last_content = hi - 1
    while last_content > lo and not pieces[last_content].is_content:
        last_content -= 1
    kind = ChunkKind.SECTION
    if content_count == 1:
        kind = WHOLE_KINDS.get(pieces[last_content].kind, kind)
    plan = whole_plan(layout, lo, hi, kind)
    alone = hi - lo == 1 and pieces[lo].kind is not PieceKind.HEADINGS  # (a run is cut)
    if not plan.oversize or (content_count == 0 and alone):
        return [plan]
    if content_count == 0 and hi - lo == 1:
        return split_oversized(layout, lo, lo)
    if content_count == 0:  # a run of headings over the limit: halve it
        middle = (lo + hi) // 2
        return emit(layout, lo, middle) + emit(layout, middle, hi)
    if content_count == 1:
        return split_oversized(layout, lo, last_content) + emit(layout, last_content + 1, hi)
    cut = last_content  # cut before the last content piece and the headings over it
    while not pieces[cut - 1].is_content:
        cut -= 1
    return emit(layout, lo, cut) + emit(layout, cut, hi)


def whole_plan(layout: Layout, lo: int, hi: int, kind: ChunkKind) -> Plan:
    """Pieces lo..hi as one plan; the body keeps the trailing blank lines of its last piece, so
    that its count is the sum of the pieces' counts (pieces start at line starts)."""
    path = layout.common_path(lo, hi)
    prefix, prefix_tokens = layout.prefix(path)
    if kind is ChunkKind.TABLE:
        table = next(k for k in range(lo, hi) if layout.pieces[k].kind is PieceKind.TABLE)
        prefix, prefix_tokens = _captioned(layout, prefix, prefix_tokens, table)
    start, end = layout.pieces[lo].start, layout.pieces[hi - 1].end
    if layout.sums_exact and layout.exact_sum(lo, hi):  # (checked_count's sum, no closure)
        tokens = prefix_tokens + layout.tokens(lo, hi)
    else:
        tokens = layout.count_tokens(prefix + layout.markdown[start:end])
    return _new(Plan, (start, end, kind, path, prefix, tokens, tokens > layout.max_tokens, None))


def split_oversized(layout: Layout, glue_lo: int, k: int) -> list[Plan]:
    """Piece k is too big on its own; pieces[glue_lo:k] are headings that go with its start."""
    piece = layout.pieces[k]
    path_tokens = layout.prefix(layout.common_path(glue_lo, k + 1))[1]
    room = layout.max_tokens - path_tokens
    if glue_lo < k and layout.tokens(glue_lo, k) * 2 > room:
        # Headings that would take over half the first window's room go alone (degenerate).
        return emit(layout, glue_lo, k) + split_oversized(layout, k, k)
    if piece.kind is PieceKind.TABLE and len(piece.rows) > 1:
        return pack_run(layout, _table_run(layout, glue_lo, k))
    if piece.kind is PieceKind.HEADINGS:
        return pack_run(layout, _lines_run(layout, glue_lo, k))
    if piece.kind is PieceKind.FIGURE:
        run = _figure_run(layout, glue_lo, k)
        if run is not None:
            return pack_run(layout, run)
        return [whole_plan(layout, glue_lo, k + 1, ChunkKind.FIGURE)]
    if piece.kind in (PieceKind.TEXT, PieceKind.HEADING):  # a heading this long is text
        return pack_run(layout, _text_run(layout, glue_lo, k))
    return [whole_plan(layout, glue_lo, k + 1, ChunkKind.SECTION)]


def _text_run(layout: Layout, glue_lo: int, k: int) -> Run:
    piece = layout.pieces[k]
    path = layout.common_path(glue_lo, k + 1)
    prefix, prefix_tokens = layout.prefix(path)
    first_fixed = prefix_tokens + layout.tokens(glue_lo, k)
    end = layout.content_end(piece.end, piece.start)
    # Units sized for the first window (split_oversized left it at least half the room).
    unit_budget = layout.max_tokens - first_fixed
    units = split_units(
        layout.markdown,
        piece.start,
        end,
        unit_budget,
        layout.count_tokens,
        layout.max_token_bytes,
    )
    first_start = layout.pieces[glue_lo].start
    return Run(
        units,
        first_start,
        prefix,
        first_fixed,
        prefix,
        prefix_tokens,
        ChunkKind.WINDOW,
        path,
        layout.options.overlap_sentences,
        additive=False,
        fixed_end=piece.start,
    )


def _lines_run(layout: Layout, glue_lo: int, k: int) -> Run:
    """The lines of a run of headings (PieceKind.HEADINGS) as units, each with the blank lines
    after it: they start at line starts, so their counts add up as the pieces' do."""
    piece, markdown = layout.pieces[k], layout.markdown
    starts = [
        match.start()
        for match in RUN_LINE_RE.finditer(markdown, piece.start, piece.end)
        if not match.group().isspace()
    ]
    units = tiling_units(markdown, starts, piece.end, layout.count_tokens)
    path = layout.common_path(glue_lo, k + 1)
    prefix, prefix_tokens = layout.prefix(path)
    return Run(
        units,
        layout.pieces[glue_lo].start,
        prefix,
        prefix_tokens + layout.tokens(glue_lo, k),
        prefix,
        prefix_tokens,
        ChunkKind.SECTION,
        path,
        0,
        additive=True,
        fixed_end=piece.start,
    )


def _figure_run(layout: Layout, glue_lo: int, k: int) -> Run | None:
    """A figure's words as units; parts after the first carry its caption in the prefix
    (figures.py); None when the figure cannot be cut."""
    path = layout.common_path(glue_lo, k + 1)
    parts = figure_parts(layout, glue_lo, k, path)
    if parts is None:
        return None
    return Run(
        parts.units,
        layout.pieces[glue_lo].start,
        layout.prefix(path)[0],
        parts.first_fixed,
        parts.rest_prefix,
        parts.rest_fixed,
        ChunkKind.FIGURE_PART,
        path,
        0,
        additive=False,
        fixed_end=parts.fixed_end,
    )


def _table_run(layout: Layout, glue_lo: int, k: int) -> Run:
    """Rows as units; parts after the first carry the header and delimiter lines in the prefix."""
    piece = layout.pieces[k]
    header, rows = piece.rows[0], piece.rows[1:]
    path = layout.common_path(glue_lo, k + 1)
    prefix, prefix_tokens = _captioned(layout, *layout.prefix(path), k)
    header_lines = layout.markdown[header.start : header.end]
    header_text = header_lines[: layout.content_end(header.end, header.start) - header.start]
    rest_prefix = prefix + header_text + "\n"
    if header_text + "\n" == header_lines:  # the path line ends at a line start: counts add
        rest_tokens = layout.checked_count(prefix_tokens + header.tokens, lambda: rest_prefix)
    else:
        rest_tokens = layout.count_tokens(rest_prefix)
    first_fixed = prefix_tokens + layout.tokens(glue_lo, k) + header.tokens
    units = make_units([(row.start, row.end) for row in rows], [row.tokens for row in rows], False)
    first_start = layout.pieces[glue_lo].start
    return Run(
        units,
        first_start,
        prefix,
        first_fixed,
        rest_prefix,
        rest_tokens,
        ChunkKind.TABLE_PART,
        path,
        0,
        additive=True,
        fixed_end=rows[0].start if rows else 0,
    )


def _captioned(layout: Layout, prefix: str, tokens: int, k: int) -> tuple[str, int]:
    """The path line followed by the caption of table k (if it has one) and a blank line.

    The path line ends with a newline and the caption starts with a non-space, so the counts
    add up for the additive encodings; `checked_count` recounts for the others."""
    caption = table_caption(
        layout.markdown, layout.pieces, k, layout.options.settings.caption_max_chars
    )
    if not caption:
        return prefix, tokens
    caption_block = caption + "\n\n"
    text = prefix + caption_block
    return text, layout.checked_count(tokens + layout.count_tokens(caption_block), lambda: text)


def pack_run(layout: Layout, run: Run) -> list[Plan]:
    """Greedy windows of units, each verified exactly; `overlap` whole sentences repeat.

    A window from unit i takes units while the sum of their counts and of the whitespace
    between them stays within the budget: with `reach[k]`, the sum over units 1..k of the gap
    before unit k and its count, that is the first k > i where tokens[i] + reach[k] - reach[i]
    passes the budget, found by bisection (units can number a million: one per word). The
    largest window up to there that fits is searched from where the last window's count per
    summed token puts the limit (words counted alone fall short of their text's count by a
    near-constant share): most windows are settled by counting two."""
    units, tokens = run.units, run.units.tokens
    reach = summed_reach(layout.markdown, units, layout.count_tokens)
    plans: list[Plan] = []
    i, share = 0, 1.0  # share: a window's count (less its fixed part) per summed token
    while i < len(units):
        budget = run.budget(layout.max_tokens, first=i == 0)
        base = reach[i] - tokens[i]
        j = min(max(i + 1, bisect.bisect_right(reach, budget + base)), len(units))
        guess = bisect.bisect_right(reach, int(budget / share) + base)
        j, plan = _largest_window(layout, run, i, j, min(max(guess, i + 1), j))
        plans.append(plan)
        summed = reach[j - 1] - base
        fixed = run.first_fixed if i == 0 else run.rest_fixed
        share = max((plan.tokens - fixed) / summed, 1.0) if summed > 0 else 1.0
        if j >= len(units):
            break
        i = j - _overlap(run, i, j, layout.max_tokens)
    return plans


def _largest_window(layout: Layout, run: Run, i: int, j: int, guess: int) -> tuple[int, Plan]:
    """The window units[i:k] with the largest k <= j that fits (units[i:i+1] when none does),
    searched from k = guess, as a window's count grows with its units (a linear search
    recounted windows once per unit dropped: quadratic on lists nested hundreds deep)."""
    plans: dict[int, Plan] = {}

    def fits(k: int) -> bool:
        plans[k] = _window_plan(layout, run, i, k)
        return not plans[k].oversize

    k = longest_within(fits, i, j, guess - i)
    return k, plans[k] if k in plans else _window_plan(layout, run, i, k)


def _overlap(run: Run, i: int, j: int, max_tokens: int) -> int:
    """How many units before j the next window repeats: whole sentences that leave it room."""
    units = run.units
    size = min(run.overlap, j - i - 1)
    while size > 0:
        repeated = sum(units.tokens[j - size : j])
        room = repeated + units.tokens[j] <= run.budget(max_tokens, False)
        if room and all(units.sentence[j - size : j]):
            break
        size -= 1
    return size


def _window_plan(layout: Layout, run: Run, i: int, j: int) -> Plan:
    units = run.units
    start = run.first_start if i == 0 else units.starts[i]
    end = units.ends[j - 1]
    prefix = run.first_prefix if i == 0 else run.rest_prefix

    def text() -> str:
        return prefix + layout.markdown[start:end]

    fixed = run.first_fixed if i == 0 else run.rest_fixed
    if run.additive:
        tokens = layout.checked_count(fixed + sum(units.tokens[i:j]), text)
    elif j == i + 1 and layout.sums_exact and (i > 0 or units.starts[0] == run.fixed_end):
        # One unit after the fixed text, which ends with a newline (a path line, headings):
        # the unit starts on content, so the counts add as at a line start (one 2 MB word
        # makes a window per unit, each recounted before).
        tokens = fixed + units.tokens[i]
    else:
        tokens = layout.count_tokens(text())
    oversize = tokens > layout.max_tokens
    return _new(Plan, (start, end, run.kind, run.path, prefix, tokens, oversize, None))
