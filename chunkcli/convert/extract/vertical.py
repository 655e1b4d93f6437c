"""Vertical Japanese (縦書き): rebuild columns of glyphs into vertical Lines.

MuPDF reports vertically set CJK text as one line per glyph (sometimes with a horizontal
direction). Read naively, each glyph becomes its own line - and a table finder sees a grid of
one-character cells. Here glyphs stacked top-to-bottom are joined into one vertical `Line`
per column; layout then reads those columns right-to-left.
"""

from __future__ import annotations

import statistics

from chunkcli.charclasses import KANA_HAN_RE
from chunkcli.convert.edges import high_decile, low_decile
from chunkcli.model import BBox, Line, Span

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
# On a vertical page, a gap of one empty cell (more than STACK_GAP_EM, at most this many glyph
# heights) inside a column is a word space: the full-width space between a section's number and
# its name, or an item's number and its text, which MuPDF reports as a space glyph that extraction
# drops with the other blank lines. saka1029-kokuji.pdf: "第一　届出の通則", "一　保険医療機関…"
# and "厚生労働大臣　後藤　茂之" have 16.9-18 pt gaps at 14 pt (1.2-1.3 em); the glyphs of a
# word are 1.5 pt apart, and the column pieces of a page's parts (tiers, a signature set low)
# stand several cells apart.
SPACE_GAP_EM = 1.6
# ... and only after a run of at most this many glyphs: a part's or item's number ("第一",
# "一の五", "第百二十三条の二"), a name ("厚生労働大臣"). A long run that ends one cell above the
# next is a column of its own: pdfminer-kampo.pdf's tiers (段) stand 2-3 cells apart, but a
# table's column in its upper tier, 144 pt long, took the lower tier's first item number
# ("七", 0.8 em below it) and so ended one cell above that item's text.
MAX_SPACED_LEAD = 8
# No word starts with a small kana, a long vowel mark or closing punctuation: a gap before one is
# the glyph's own place in its cell (20231102_sesaku3.pdf: "デ", then "ュ" 0.8 em below it in a
# chart's vertical label "デューデリジェンス").
NO_SPACE_BEFORE = frozenset("ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶーｰ、。，．）」』】〕〉》")
# Digits set across a vertical column (縦中横: "(1)" at 11.3 pt in a column of 14 pt glyphs in
# saka1029-kokuji.pdf, 17.4 pt wide and 12 pt high in a 14 pt cell) hold at most this many
# characters and are at most this many cells wide and high (a Latin face's box takes its
# descender: Helvetica's "(1)" at 11 pt is 15.1 pt high).
MAX_ACROSS_CHARS = 4
# Glyphs at most this share of the page's median glyph size are set apart from its columns:
# ruby is half the text's size (7 pt beside 14 pt in saka1029-kokuji.pdf), and its column's
# centre lies so near the text's that a run of punctuation could bridge the two.
SMALL_TYPE_RATIO = 0.65
ACROSS_WIDTH_EM = 1.5
ACROSS_HEIGHT_EM = 1.25


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
    cell = statistics.median(glyph.bbox.width for glyph in glyphs)
    # Glyphs in small type (ruby beside the column, notes) make columns of their own: read
    # with the text, a reading came between the kanji it glosses ("迂う回").
    size = statistics.median(glyph.size for glyph in glyphs)
    small = [glyph for glyph in glyphs if glyph.size <= SMALL_TYPE_RATIO * size] if size else []
    text = [glyph for glyph in glyphs if glyph.size > SMALL_TYPE_RATIO * size] if small else glyphs
    # Numbers set across a column (縦中横) go into the column they stand in; one that stacks
    # with no glyph (a page number below the text) stays the line it was.
    across = [line for line in others if _set_across(line, cell)]
    # (the glyphs were stacked above already when none is set apart or placed across)
    stacks = columns if not small and not across else _stack_into_columns(text + across)
    columns = _joined_at_spaces(stacks)
    if small:
        columns += _stack_into_columns(small)
    placed = {id(line) for line in across}
    alone = {id(c[0]) for c in columns if len(c) == 1 and id(c[0]) in placed}
    others = [line for line in others if id(line) not in placed or id(line) in alone]
    return others + [_join_column(c) for c in columns if id(c[0]) not in alone]


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


def _set_across(line: Line, cell: float) -> bool:
    """A short upright line no wider than a column's cell: digits set across a vertical
    column ("(1)", "10"), part of the column's text."""
    text = line.text.strip()
    return (
        not line.vertical
        and 1 < len(text) <= MAX_ACROSS_CHARS
        and line.bbox.width <= ACROSS_WIDTH_EM * cell
        and line.bbox.height <= ACROSS_HEIGHT_EM * cell
    )


def _is_glyph(line: Line) -> bool:
    text = line.text.strip()
    return len(text) <= 1 or (line.vertical and line.bbox.height > line.bbox.width)


def _stack_into_columns(glyphs: list[Line]) -> list[list[Line]]:
    """Group glyphs into top-to-bottom runs; each run is one vertical line of text (the runs
    of one x band follow each other, top first)."""
    columns: list[list[Line]] = []
    for band in _x_bands(glyphs):
        band.sort(key=lambda g: g.bbox.top)
        run = [band[0]]
        last = band[0].bbox
        for glyph in band[1:]:
            box = glyph.bbox
            # The next glyph of a column starts at most STACK_GAP_EM ems (the wider glyph's
            # width) below the one above; punctuation (、。「) is set in a compressed half cell
            # and overlaps it. (Written out: a 縦書き page asks it of thousands of glyphs.)
            em = max(last.x1 - last.x0, box.x1 - box.x0, 1.0)
            if -STACK_OVERLAP_EM * em <= box.top - last.bottom <= STACK_GAP_EM * em:
                run.append(glyph)
            else:
                columns.append(run)
                run = [glyph]
            last = box
        columns.append(run)
    return columns


def _joined_at_spaces(runs: list[list[Line]]) -> list[list[Line]]:
    """Runs of one column one empty cell apart, joined with a space (SPACE_GAP_EM), when the
    run above is a number or a name (MAX_SPACED_LEAD)."""
    joined: list[list[Line]] = []
    for before, run in zip([None, *runs], runs, strict=False):
        if (
            before is not None
            and len(before) <= MAX_SPACED_LEAD
            and run[0].text.strip()[:1] not in NO_SPACE_BEFORE
            and _one_cell_apart(before[-1], run[0])
        ):
            joined[-1] += [_space_between(before[-1], run[0]), *run]
        else:
            joined.append(list(run))
    return joined


def _x_bands(glyphs: list[Line]) -> list[list[Line]]:
    """Cluster glyphs whose horizontal centres lie within half a glyph width of each other."""
    # Each glyph's centre and width worked out once (a 縦書き page holds thousands of glyphs).
    centres = [g.bbox.center_x for g in glyphs]
    order = sorted(range(len(glyphs)), key=centres.__getitem__)  # (stable, as sorted(glyphs))
    if not order:
        return []
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


def _one_cell_apart(last: Line, glyph: Line) -> bool:
    """`glyph` is below `last` in its column, at most one empty cell further down."""
    em = max(last.bbox.width, glyph.bbox.width, 1.0)
    same_column = abs(glyph.bbox.center_x - last.bbox.center_x) <= STACK_OVERLAP * em
    return same_column and 0 <= glyph.bbox.top - last.bbox.bottom <= SPACE_GAP_EM * em


def _space_between(last: Line, glyph: Line) -> Line:
    """A space glyph filling the gap, in the type of the glyph before it."""
    box = BBox(last.bbox.x0, last.bbox.bottom, last.bbox.x1, glyph.bbox.top)
    before = last.spans[-1]
    return Line((Span(" ", box, before.font, before.size),), box, vertical=True)


def _join_column(column: list[Line]) -> Line:
    spans = tuple(span for glyph in column for span in glyph.spans)
    return Line(spans, BBox.enclosing([g.bbox for g in column]), vertical=True)
