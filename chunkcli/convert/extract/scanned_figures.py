"""Figures on pages read by OCR -> figure blocks holding the OCR lines read inside them.

A scanned chart's axis values, legend and bar labels are OCR lines like any other: short lines
at odd sizes, which layout would make headings and paragraphs. The figure's region is found
in the page's non-text ink (ocr/figures.py) once the page's tables are known (their rules
join nothing), and its lines become the figure's words as a drawing's text-layer labels do
(extract/vector_figures.labelled_figure): a region whose lines are running text is no figure.
Its caption ("Figure 3", "図2") moves into its block as on a text page (extract/figures.py).
"""

from __future__ import annotations

import dataclasses

from chunkcli.convert.extract.figures import with_captions
from chunkcli.convert.extract.vector_figures import VectorFigureSettings, labelled_figure
from chunkcli.convert.ocr.figures import InkCells, figure_regions
from chunkcli.convert.ocr.options import ScanFigureSettings
from chunkcli.model import Block, BlockKind, Line, OcrInfo, Page

# The labels beside a scanned figure's ink: as beside a drawing's paths, but up to 24 pt
# above it too (a drawing's top is often an axis title's own line; the ink of a scanned
# chart starts at its frame, with the axis titles and the years of a bar chart above it:
# j-bunpu2023 p. 9, 8-20 pt), and a line of words 2 em apart or more is a row of labels
# (Tesseract reads a chart's years as one line: 39 columns there, words 3-4 em apart).
LABELS = VectorFigureSettings(label_margins_pt=(60.0, 24.0, 24.0), label_gap_em=2.0)


def with_scanned_figures(
    page: Page,
    ink: InkCells | None,
    ocr: OcrInfo,
    settings: ScanFigureSettings = ScanFigureSettings(),
) -> Page:
    """The OCR'd page with a figure block for each figure in its ink that holds words (read
    as `ocr` tells); the lines inside it are taken from the page's text."""
    if ink is None:
        return page
    taken = [b.bbox for b in page.blocks if b.kind in (BlockKind.TABLE, BlockKind.FIGURE)]
    regions = figure_regions(ink, taken, settings)
    if not regions:
        return page
    loose = [b for b in page.blocks if b.kind == BlockKind.PARAGRAPH and len(b.lines) == 1]
    left: list[Line] = [b.lines[0] for b in loose]
    figures: list[Block] = []
    for region in regions:
        inside = [ln for ln in left if region.contains_point(ln.bbox.center_x, ln.bbox.center_y)]
        if len(inside) < settings.min_lines:
            continue  # a photo without words (nothing to index), a heading on a banner
        made = labelled_figure(region, inside, left, page.number, LABELS)
        if made is not None:
            block, left = made
            assert block.figure is not None
            figure = dataclasses.replace(block.figure, ocr=ocr)
            figures.append(dataclasses.replace(block, figure=figure))
    if not figures:
        return page
    kept = set(map(id, left))
    blocks = [b for b in page.blocks if b not in loose or id(b.lines[0]) in kept]
    blocks, captioned = with_captions(blocks, figures)  # as on a text page ("図 2 ...")
    return dataclasses.replace(page, blocks=(*blocks, *captioned))
