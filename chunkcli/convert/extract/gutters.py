"""Narrow gutters inside MuPDF lines: where to cut a line that runs across two columns.

MuPDF continues a line across a gap of up to about one font size, so columns set row by row
with a 6-7 pt gutter (registers, white papers with a chart beside the prose) come out as one
line per row holding both columns ("the FAA issued recorders, as summarized in reports 7 of").
A gap inside a line is a gutter when text starts at that same x after a gap on many baselines
and almost no text of those baselines crosses it: word gaps of justified text start words at
scattered places and are crossed by the words of the lines around them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from chunkcli.model import Span

# A gap inside a line may be a gutter from this many font sizes on: MuPDF itself ends a line
# at gaps over about one font size; justified word gaps reach half a size on loose lines
# (seen: 0.78 em gutters in a federal register, 0.6 em beside a chart in a white paper).
MIN_GUTTER_GAP_EM = 0.55
# Text must start within this many points of the same x on at least this many baselines.
ALIGN_TOLERANCE_PT = 1.0
MIN_ALIGNED_STARTS = 4
# At most this share of the lines in the aligned lines' height range may cross the gutter
# (a full-width heading or a wide figure label between the rows).
MAX_CROSSING_SHARE = 0.2


def _runs(spans: Sequence[Span]) -> list[Span]:
    return [s for s in spans if s.text.strip()]


def gutter_positions(lines: Sequence[Sequence[Span]]) -> list[float]:
    """x positions of gutters that some multi-span horizontal lines cross (usually none)."""
    candidates: dict[int, list[tuple[float, float, float]]] = defaultdict(list)
    starts: dict[int, list[tuple[float, float, float]]] = defaultdict(list)
    for spans in lines:
        runs = _runs(spans)
        for index, run in enumerate(runs):
            place = (run.bbox.x0, run.bbox.top, run.bbox.bottom)
            if index == 0:
                starts[round(run.bbox.x0)].append(place)
            elif run.bbox.x0 - runs[index - 1].bbox.x1 >= MIN_GUTTER_GAP_EM * run.size:
                candidates[round(run.bbox.x0)].append(place)
    if not candidates:
        return []
    found: list[float] = []
    for key in sorted(candidates):
        aligned = [
            p for k in (key - 1, key, key + 1) for p in candidates.get(k, []) + starts.get(k, [])
        ]
        x = sorted(p[0] for p in aligned)[len(aligned) // 2]
        aligned = [p for p in aligned if abs(p[0] - x) <= ALIGN_TOLERANCE_PT]
        if len(aligned) < MIN_ALIGNED_STARTS or (found and x - found[-1] < ALIGN_TOLERANCE_PT):
            continue
        if _crossings(lines, x, min(p[1] for p in aligned), max(p[2] for p in aligned)) <= (
            MAX_CROSSING_SHARE * len(aligned)
        ):
            found.append(x)
    return found


def _crossings(lines: Sequence[Sequence[Span]], x: float, top: float, bottom: float) -> int:
    """Lines between `top` and `bottom` with a text run spanning across `x`."""
    count = 0
    for spans in lines:
        for run in _runs(spans):
            if run.bbox.bottom < top or run.bbox.top > bottom:
                break
            if run.bbox.x0 < x - ALIGN_TOLERANCE_PT and run.bbox.x1 > x + ALIGN_TOLERANCE_PT:
                count += 1
                break
    return count


def cut_at_gutters(spans: Sequence[Span], gutters: Sequence[float]) -> list[list[Span]]:
    """`spans` of one line split where a gap between text runs holds a gutter position."""
    parts: list[list[Span]] = [[]]
    last_run: Span | None = None
    for span in spans:
        if span.text.strip():
            if last_run is not None and _gap_holds_gutter(last_run, span, gutters):
                parts.append([])
            last_run = span
        parts[-1].append(span)
    return [p for p in parts if p]


def _gap_holds_gutter(left: Span, right: Span, gutters: Sequence[float]) -> bool:
    if right.bbox.x0 - left.bbox.x1 < MIN_GUTTER_GAP_EM * right.size:
        return False
    return any(abs(right.bbox.x0 - x) <= ALIGN_TOLERANCE_PT for x in gutters)
