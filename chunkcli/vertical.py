"""Vertical Japanese (縦書き): rebuild columns of glyphs into vertical Lines.

MuPDF reports vertically set CJK text as one line per glyph (sometimes with a horizontal
direction). Read naively, each glyph becomes its own line - and a table finder sees a grid of
one-character cells. Here glyphs stacked top-to-bottom are joined into one vertical `Line`
per column; layout then reads those columns right-to-left.
"""

from __future__ import annotations

from chunkcli.model import BBox, Line

# A page is treated as vertical when at least this share of its lines are lone glyphs
# stacked under one another (horizontal pages have a few lone glyphs: bullets, numbers).
VERTICAL_PAGE_SHARE = 0.6
MIN_VERTICAL_GLYPHS = 12
# The next glyph of a column starts within this many glyph heights below the previous one.
STACK_GAP_EM = 0.8
# ... and may overlap the previous glyph by up to this many glyph widths.
STACK_OVERLAP_EM = 0.9
# Two glyphs share a column when their centres are within this share of a glyph width.
STACK_OVERLAP = 0.5


def rebuild_vertical_lines(lines: list[Line]) -> list[Line]:
    """Join stacked glyph lines into vertical Lines when the page is set vertically."""
    if len(lines) < MIN_VERTICAL_GLYPHS:  # too few lines to hold that many glyphs
        return lines
    glyphs = [line for line in lines if _is_glyph(line)]
    if len(glyphs) < MIN_VERTICAL_GLYPHS or len(glyphs) < VERTICAL_PAGE_SHARE * len(lines):
        return lines
    columns = _stack_into_columns(glyphs)
    stacked = sum(len(c) for c in columns if len(c) > 1)
    if stacked < VERTICAL_PAGE_SHARE * len(glyphs):
        return lines
    others = [line for line in lines if not _is_glyph(line)]
    return others + [_join_column(column) for column in columns]


def _is_glyph(line: Line) -> bool:
    text = line.text.strip()
    return len(text) <= 1 or (line.vertical and line.bbox.height > line.bbox.width)


def _stack_into_columns(glyphs: list[Line]) -> list[list[Line]]:
    """Group glyphs into top-to-bottom runs; each run is one vertical line of text."""
    columns: list[list[Line]] = []
    for band in _x_bands(glyphs):
        band.sort(key=lambda g: g.bbox.top)
        run = [band[0]]
        for glyph in band[1:]:
            if _continues(run[-1], glyph):
                run.append(glyph)
            else:
                columns.append(run)
                run = [glyph]
        columns.append(run)
    return columns


def _x_bands(glyphs: list[Line]) -> list[list[Line]]:
    """Cluster glyphs whose horizontal centres lie within half a glyph width of each other."""
    ordered = sorted(glyphs, key=lambda g: g.bbox.center_x)
    bands: list[list[Line]] = [[ordered[0]]]
    for glyph in ordered[1:]:
        previous = bands[-1][-1].bbox
        if glyph.bbox.center_x - previous.center_x <= STACK_OVERLAP * max(previous.width, 1.0):
            bands[-1].append(glyph)
        else:
            bands.append([glyph])
    return bands


def _continues(last: Line, glyph: Line) -> bool:
    a, b = last.bbox, glyph.bbox
    em = max(a.width, b.width, 1.0)
    # Punctuation (、。「) is set in a compressed half cell and overlaps its neighbour.
    return -STACK_OVERLAP_EM * em <= b.top - a.bottom <= STACK_GAP_EM * em


def _join_column(column: list[Line]) -> Line:
    spans = tuple(span for glyph in column for span in glyph.spans)
    return Line(spans, BBox.enclosing([g.bbox for g in column]), vertical=True)
