"""Vertical Japanese (縦書き): rebuild columns of glyphs into vertical Lines.

MuPDF reports vertically set CJK text as one line per glyph (sometimes with a horizontal
direction). Read naively, each glyph becomes its own line - and a table finder sees a grid of
one-character cells. Here glyphs stacked top-to-bottom are joined into one vertical `Line`
per column; layout then reads those columns right-to-left.
"""

from __future__ import annotations

from chunkcli.charclasses import KANA_HAN_RE
from chunkcli.convert.edges import high_decile, low_decile
from chunkcli.model import BBox, Line

# A page is treated as vertical when at least this share of its lines are lone glyphs
# stacked under one another (horizontal pages have a few lone glyphs: bullets, numbers).
VERTICAL_PAGE_SHARE = 0.6
MIN_VERTICAL_GLYPHS = 12
# On a horizontal page, a run of at least this many stacked letters in a side margin is a
# vertical label (a thumb-index tab "本文" is two), judged against at least this many body lines.
MIN_MARGIN_RUN = 2
MIN_BODY_LINES = 5
# The next glyph of a column starts within this many glyph heights below the previous one.
STACK_GAP_EM = 0.8
# ... and may overlap the previous glyph by up to this many glyph widths.
STACK_OVERLAP_EM = 0.9
# Two glyphs share a column when their centres are within this share of a glyph width.
STACK_OVERLAP = 0.5


def rebuild_vertical_lines(lines: list[Line]) -> list[Line]:
    """Join stacked glyph lines into vertical Lines when the page is set vertically; on a
    horizontal page, only the glyphs stacked in its side margins (see join_margin_columns)."""
    glyphs = [line for line in lines if _is_glyph(line)]
    if len(glyphs) < MIN_VERTICAL_GLYPHS or len(glyphs) < VERTICAL_PAGE_SHARE * len(lines):
        return join_margin_columns(lines, glyphs)
    columns = _stack_into_columns(glyphs)
    stacked = sum(len(c) for c in columns if len(c) > 1)
    if stacked < VERTICAL_PAGE_SHARE * len(glyphs):
        return join_margin_columns(lines, glyphs)
    others = [line for line in lines if not _is_glyph(line)]
    return others + [_join_column(column) for column in columns]


def join_margin_columns(lines: list[Line], glyphs: list[Line]) -> list[Line]:
    """Japanese glyphs stacked one per line beside the text of a horizontal page, as one
    vertical Line per run: a report's thumb-index tabs ("概要・主なポイント", "本文", "コラム"
    down the right edge of every page, 230829_main.pdf of the retrieval set) were read as single
    characters and joined to the body lines beside them ("ていく。 要"). Only letters (kana,
    kanji, the middle dot) outside the body's edges: a table column of single-character cells
    ("○", "×") inside the text stays as it is."""
    letters = [g for g in glyphs if _is_margin_letter(g)]
    if len(letters) < MIN_MARGIN_RUN:  # nearly every page: no list of its body lines needed
        return lines
    body = [line for line in lines if len(line.text.strip()) > 1 and not line.vertical]
    if len(body) < MIN_BODY_LINES:
        return lines
    left = low_decile(sorted(line.bbox.x0 for line in body))
    right = high_decile(sorted(line.bbox.x1 for line in body))
    outside = [g for g in letters if g.bbox.x0 >= right or g.bbox.x1 <= left]
    runs = (
        [run for run in _stack_into_columns(outside) if _is_label(run)]
        if (len(outside) >= MIN_MARGIN_RUN)
        else []
    )
    if not runs:
        return lines
    joined = {id(glyph) for run in runs for glyph in run}
    return [line for line in lines if id(line) not in joined] + [_join_column(r) for r in runs]


def _is_label(run: list[Line]) -> bool:
    """Enough letters to be words: a column of lone middle dots is a table's marks."""
    return sum(1 for glyph in run if glyph.text.strip() != "・") >= MIN_MARGIN_RUN


def _is_margin_letter(line: Line) -> bool:
    text = line.text.strip()
    return len(text) == 1 and (KANA_HAN_RE.match(text) is not None or text == "・")


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
    # Each glyph's centre and width worked out once (a 縦書き page holds thousands of glyphs).
    centres = [g.bbox.center_x for g in glyphs]
    order = sorted(range(len(glyphs)), key=centres.__getitem__)  # (stable, as sorted(glyphs))
    first = order[0]
    bands: list[list[Line]] = [[glyphs[first]]]
    previous_centre, previous_width = centres[first], glyphs[first].bbox.width
    for index in order[1:]:
        glyph, centre = glyphs[index], centres[index]
        if centre - previous_centre <= STACK_OVERLAP * max(previous_width, 1.0):
            bands[-1].append(glyph)
        else:
            bands.append([glyph])
        previous_centre, previous_width = centre, glyph.bbox.width
    return bands


def _continues(last: Line, glyph: Line) -> bool:
    a, b = last.bbox, glyph.bbox
    em = max(a.width, b.width, 1.0)
    # Punctuation (、。「) is set in a compressed half cell and overlaps its neighbour.
    return -STACK_OVERLAP_EM * em <= b.top - a.bottom <= STACK_GAP_EM * em


def _join_column(column: list[Line]) -> Line:
    spans = tuple(span for glyph in column for span in glyph.spans)
    return Line(spans, BBox.enclosing([g.bbox for g in column]), vertical=True)
