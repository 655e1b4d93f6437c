"""Pixels of a picture -> the horizontal and vertical rules drawn in it.

A table pasted into a report as a picture has its rules in pixels, not in vector drawings.
Long straight runs of dark pixels are those rules: a letter's strokes are shorter than a
line of text is tall, and words on one line are separated by gaps. The rules come back as
`Rule`s in page points, so the grid builder reads a picture's table as it reads a drawn one.
Pure: numpy arrays in, Rules out (no PyMuPDF).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from chunkcli.convert.tables.grid import Grid, find_grids, is_table_frame
from chunkcli.convert.tables.rules import Rule

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


# A vertical rule running at least this share of a grid's height rules a column.
FULL_RULE_SHARE = 0.5
# The gate looks at pictures and scanned pages at this resolution (a tenth of the pixels of
# 300 dpi): ~1 ms a picture.
GATE_DPI = 100


@dataclass(frozen=True, slots=True)
class RasterSettings:
    """Thresholds for rules in pictures (evidence: DP-Bench's public half, 2026-12-03)."""

    # Gray levels below this are ink (anti-aliased 0.5 pt rules stay below 160 at 100 dpi).
    ink_level: int = 160
    # A horizontal run at least this long (points) is a rule: a line of text has gaps between
    # its words every few points, a table's rules cross at least one column (>= 40 pt).
    min_horizontal_pt: float = 36.0
    # A vertical run at least this long is a rule: taller than a line of text set at up to
    # 14 pt (letters' stems), as long as two rows of a table.
    min_vertical_pt: float = 18.0
    # Rows (or columns) of pixels this close are one rule drawn several pixels thick.
    merge_px: int = 2
    # The gate: a picture is a ruled table when this share of its pixels is background and it
    # holds at least this many horizontal rules that, with its vertical ones, form a grid. On
    # DP-Bench's 52 content pictures without a text layer, 3 had the rules and background at
    # 100 dpi: one table (5 rules, 0.84 background) and two charts (grid lines: 5-6 rules,
    # 0.87-0.92), whose single axis makes no grid. With the grid test 5 of DP-Bench's 101 pages
    # pass: the table (122), a diagram whose words are read (105) and three pictures Tesseract
    # reads below MIN_CONFIDENCE (nothing added). Photographs have no long straight runs.
    min_rules: int = 3
    min_full_verticals: int = 2
    min_background: float = 0.6
    background_level: int = 200


def rules_in_pixels(
    gray: npt.NDArray[np.uint8],
    origin: tuple[float, float],
    points_per_pixel: float,
    settings: RasterSettings = RasterSettings(),
) -> tuple[Rule, ...]:
    """The rules drawn in a grayscale picture whose top-left pixel sits at `origin` (points)."""
    dark = gray < settings.ink_level
    x0, y0 = origin
    min_h = max(1, round(settings.min_horizontal_pt / points_per_pixel))
    min_v = max(1, round(settings.min_vertical_pt / points_per_pixel))
    rules = [
        Rule(
            True, y0 + pos * points_per_pixel, x0 + a * points_per_pixel, x0 + b * points_per_pixel
        )
        for pos, a, b in _merged(_long_runs(dark, min_h), settings.merge_px)
    ]
    rules += [
        Rule(
            False, x0 + pos * points_per_pixel, y0 + a * points_per_pixel, y0 + b * points_per_pixel
        )
        for pos, a, b in _merged(_long_runs(dark.T, min_v), settings.merge_px)
    ]
    return tuple(rules)


def ruled_table_rules(
    gray: npt.NDArray[np.uint8],
    origin: tuple[float, float],
    points_per_pixel: float,
    settings: RasterSettings = RasterSettings(),
) -> tuple[Rule, ...]:
    """The rules of a low-resolution image (page points) when it passes the gate; none
    otherwise."""
    if not _light_background(gray, settings):
        return ()
    rules = rules_in_pixels(gray, origin, points_per_pixel, settings)
    return rules if _form_a_table(rules, settings) else ()


def looks_like_ruled_table(
    gray: npt.NDArray[np.uint8],
    points_per_pixel: float,
    settings: RasterSettings = RasterSettings(),
) -> bool:
    """The cheap gate, on a low-resolution rendering: a light background whose rules form a
    grid of at least two columns and two rows (a chart's grid lines alone, or a photograph,
    do not)."""
    return bool(ruled_table_rules(gray, (0.0, 0.0), points_per_pixel, settings))


def _light_background(gray: npt.NDArray[np.uint8], settings: RasterSettings) -> bool:
    import numpy as np

    # counted, not averaged: the mean of a boolean array adds it up in floats, 3x slower
    light = int(np.count_nonzero(gray > settings.background_level))
    background = light / gray.size if gray.size else 0.0
    return background >= settings.min_background


def _form_a_table(rules: tuple[Rule, ...], settings: RasterSettings) -> bool:
    if sum(1 for r in rules if r.horizontal) < settings.min_rules:
        return False
    return any(_framed(g, settings) for g in find_grids(rules))


def _framed(grid: Grid, settings: RasterSettings) -> bool:
    """A grid whose columns are ruled: min_full_verticals vertical rules that each run at
    least half its height (a chart has one axis; its bars are short)."""
    if not grid.ruled_columns or not is_table_frame(grid):
        return False
    height = grid.bbox.height
    full = [r for r in grid.rules if not r.horizontal and r.length >= FULL_RULE_SHARE * height]
    return len(full) >= settings.min_full_verticals


def _long_runs(dark: npt.NDArray[np.bool_], min_length: int) -> Iterator[tuple[int, int, int]]:
    """(row, start, end) of each run of dark pixels at least min_length long, row by row."""
    rows, starts, ends = dark_runs(dark, min_length)
    return zip(rows.tolist(), starts.tolist(), ends.tolist(), strict=True)


def dark_runs(
    dark: npt.NDArray[np.bool_], min_length: int
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """Rows, starts and ends (exclusive) of the runs of dark pixels at least min_length long,
    row by row from the left: found in one pass over the rows laid end to end, each closed
    by a light pixel on both sides so that no run crosses from one row to the next."""
    import numpy as np

    height, width = dark.shape
    padded = np.zeros((height, width + 2), dtype=np.int8)
    padded[:, 1:-1] = dark
    edges = np.diff(padded.ravel())
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)
    long = ends - starts >= min_length
    starts, ends = starts[long], ends[long]
    rows = starts // (width + 2)
    return rows, starts - rows * (width + 2), ends - rows * (width + 2)


def in_long_runs(dark: npt.NDArray[np.bool_], min_length: int) -> npt.NDArray[np.bool_]:
    """Which dark pixels lie in a run along a row at least min_length long."""
    import numpy as np

    height, width = dark.shape
    rows, starts, ends = dark_runs(dark, min_length)
    inside = np.zeros(height * width, dtype=bool)
    inside[run_pixels(rows, starts, ends, width)] = True
    return inside.reshape(height, width)


def run_pixels(
    rows: npt.NDArray[np.intp],
    starts: npt.NDArray[np.intp],
    ends: npt.NDArray[np.intp],
    width: int,
) -> npt.NDArray[np.intp]:
    """The flat indices (row * width + column) of every pixel of the runs (`ends` exclusive),
    run after run: where each run begins plus each pixel's place in it (the pixels of the runs
    are few next to the image's: no pass over the whole of it)."""
    import numpy as np

    lengths = ends - starts
    places = np.arange(int(lengths.sum())) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    return np.asarray(np.repeat(rows * width + starts, lengths) + places)


def _merged(runs: Iterator[tuple[int, int, int]], merge_px: int) -> list[tuple[float, int, int]]:
    """Runs on neighbouring rows that overlap are one thick rule: its middle row, its extent."""
    rules: list[list[int]] = []  # first row, last row, start, end
    for row, start, end in runs:
        joined = next(
            (r for r in reversed(rules) if row - r[1] <= merge_px and start < r[3] and r[2] < end),
            None,
        )
        if joined is None:
            rules.append([row, row, start, end])
        else:
            joined[1], joined[2], joined[3] = row, min(joined[2], start), max(joined[3], end)
    return [((first + last) / 2, start, end) for first, last, start, end in rules]
