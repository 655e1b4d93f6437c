"""Pictures on text pages -> figure blocks: the caption beside them and their own words.

A picture is a figure when it is content: large enough to show something (not an icon or a
bullet), and not placed on many pages (a logo, a letterhead, a background: furniture). Pieces
of one picture that touch (a chart cut into tiles) are one figure. A figure whose region has
text-layer lines over it is left alone: its words are already there, in the text's order. One
without them is read by OCR, the region alone (convert/ocr/pictures.py), unless `--ocr never`;
its words are kept only when the reading is confident (a photo gives a few unsure "words").
A page whose figures are read counts as a page read by OCR, in progress and in the file's
time limit (PicturePages).

A caption is a line beside the figure that names it ("Figure 3", "Fig. 3", "図3", "図表1-1",
"그림 3"), directly above or below the picture, with the lines that continue it. It moves into
the figure's block, so a chunk never holds a caption without its figure, nor the reverse.

Runs after page OCR and table pictures: pages read by OCR are not looked at (their pictures'
words are part of the page's reading), and a picture that became a table has the table's
words over it.
"""

# pymupdf's methods carry no annotations, so strict mypy would flag every call into it.
# mypy: disallow-untyped-calls=False

from __future__ import annotations

import contextlib
import dataclasses
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import pymupdf

from chunkcli.convert.extract.captions import CAPTION_START
from chunkcli.convert.extract.paint_log import picture_placements
from chunkcli.convert.extract.vector_figures import near_groups
from chunkcli.convert.ocr.options import OcrEngine, OcrMode, OcrOptions
from chunkcli.convert.ocr.pictures import (
    FigureReading,
    PicturePages,
    picture_language,
    read_figure,
)
from chunkcli.convert.source import MUPDF_ERRORS
from chunkcli.model import (
    BBox,
    Block,
    BlockKind,
    Figure,
    Line,
    OcrInfo,
    Page,
    PageStatus,
    pages_text,
)


@dataclass(frozen=True, slots=True)
class FigureSettings:
    """When a picture is a figure, and what belongs to it."""

    # A picture smaller than this share of the page is an icon, a bullet or a rule; the
    # smallest chart in DP-Bench covers 0.03 of its page, logos beside titles 0.002-0.01.
    min_share: float = 0.02
    # ... or narrower or lower than this (a thin banner, a rule drawn as an image).
    min_side_pt: float = 36.0
    # An image placed on this many pages is furniture (a logo, a letterhead, a background):
    # a figure is shown once.
    furniture_pages: int = 3
    # A picture with more text-layer lines over it than this already has its words.
    max_text_lines_over: int = 1
    # Pictures this close (points) are pieces of one figure (tiles of a chart).
    tile_gap_pt: float = 2.0
    # A caption's first line lies at most this far above or below the picture (points).
    caption_gap_pt: float = 28.0
    # A caption has at most this many lines (the first and those continuing it).
    max_caption_lines: int = 4
    # A caption's next line follows within this many of its heights.
    caption_line_gap: float = 0.8


def with_figures(
    doc: pymupdf.Document,
    pages: tuple[Page, ...],
    ocr: OcrOptions | None,
    count: PicturePages,
    settings: FigureSettings = FigureSettings(),
    *,
    keep_empty: bool = False,
) -> tuple[tuple[Page, ...], tuple[str, ...]]:
    """The pages with a figure block for each content picture on a text page, and notes on
    figures that could not be read (a broken image stream: that figure only). A page whose
    figures OCR reads is `count`ed as a page read by OCR (progress, the file's time limit).

    A figure with neither caption nor words (a photo, a drawing without labels) carries
    nothing to index and, placed beside a column, would cut its paragraph in two: it is
    kept only with `keep_empty` (--images: its block then links the picture)."""
    placed = {p.number: _placements(doc[p.number - 1]) for p in pages if _looked_at(p, doc)}
    if not placed:
        return pages, ()
    uses = Counter(key for found in placed.values() for key in {k for k, _ in found})
    reader = _Reader(ocr, pages, count)
    notes: list[str] = []
    result = []
    for page in pages:
        found = placed.get(page.number)
        if found is None:
            result.append(page)
            continue
        boxes = [box for key, box in found if uses[key] < settings.furniture_pages]
        read = [b.bbox for b in page.blocks if b.kind == BlockKind.FIGURE]  # table pictures
        regions = [r for r in _content_regions(boxes, page, settings) if not _touches(r, read)]
        if not regions and not read:
            result.append(page)
            continue
        pdf_page = doc[page.number - 1]
        read_here = bool(regions) and reader.options is not None
        with count.reading(page.number) if read_here else contextlib.nullcontext():
            page = _with_figure_blocks(pdf_page, page, regions, reader, settings, notes)
        result.append(page if keep_empty else _without_empty_figures(page))
    if reader.skipped:
        notes.append(f"{reader.skipped} figure(s) not read by OCR: the time limit ran out")
    return tuple(result), tuple(notes)


class _Reader:
    """Reads figures' words by OCR when the options allow it, in one language a document."""

    def __init__(self, ocr: OcrOptions | None, pages: Sequence[Page], count: PicturePages) -> None:
        self.count = count
        usable = ocr is not None and ocr.mode != OcrMode.NEVER and ocr.engine == OcrEngine.TESSERACT
        self.options = ocr if usable else None
        self.pages = pages
        self.lang: str | None = ""
        self.skipped = 0  # figures left unread: the file's time limit had run out

    def read(self, pdf_page: pymupdf.Page, region: BBox) -> FigureReading | None:
        if self.options is None:
            return None
        options = self.count.within_time(self.options)  # what is left of the file's limit
        if options is None:
            self.skipped += 1
            return None
        if self.lang == "":  # decided once, from the document's own text
            self.lang = picture_language(pages_text(self.pages), self.options)
        if self.lang is None:
            return None
        return read_figure(pdf_page, region, self.lang, options, self.count.library(options))


def _looked_at(page: Page, doc: pymupdf.Document) -> bool:
    """A text page with pictures, or with figures found already (drawings, table pictures)."""
    if page.status != PageStatus.TEXT or page.ocr is not None:
        return False
    if any(block.kind == BlockKind.FIGURE for block in page.blocks):
        return True
    # The page's resources only (most pages have no image), read without loading the page
    # again (Page.get_images asks the document just this).
    return bool(doc.get_page_images(page.number - 1))


def _placements(pdf_page: pymupdf.Page) -> list[tuple[object, BBox]]:
    """(image key, box) of every picture placed on the page, clipped to the page."""
    rect = pdf_page.rect
    found: list[tuple[object, BBox]] = []
    if not pdf_page.get_images():  # (a page whose figures are drawings only)
        return found
    try:
        pictures = picture_placements(pdf_page)  # (get_image_info's boxes and sizes)
    except MUPDF_ERRORS:
        return found
    for bbox, width, height in pictures:
        box = pymupdf.Rect(bbox) & rect
        if box.is_empty:
            continue
        # An image is named by its pixel size and its place: a logo repeats both. (Asking
        # MuPDF for xrefs costs 2.6 s over the corpus' 200 pages with pictures, 8 times the
        # placing itself.)
        key = (width, height, round(box.x0), round(box.y0), round(box.x1))
        found.append((key, BBox(box.x0, box.y0, box.x1, box.y1)))
    return found


def _content_regions(boxes: list[BBox], page: Page, settings: FigureSettings) -> list[BBox]:
    """Touching pictures joined; the large ones without text-layer lines over them."""
    regions = _joined(boxes, settings.tile_gap_pt)
    area = page.width * page.height
    lines = [line for block in page.blocks for line in block.lines]
    kept = []
    for region in regions:
        if region.width * region.height < settings.min_share * area:
            continue
        if min(region.width, region.height) < settings.min_side_pt:
            continue
        over = sum(1 for ln in lines if region.contains_point(ln.bbox.center_x, ln.bbox.center_y))
        if over <= settings.max_text_lines_over:
            kept.append(region)
    return sorted(kept, key=lambda r: (r.top, r.x0))


def _joined(boxes: list[BBox], gap: float) -> list[BBox]:
    """Boxes that overlap or lie within `gap` of each other, directly or through others, as
    one box each."""
    return [BBox.enclosing([boxes[i] for i in group]) for group in near_groups(boxes, gap)]


def _with_figure_blocks(
    pdf_page: pymupdf.Page,
    page: Page,
    regions: list[BBox],
    reader: _Reader,
    settings: FigureSettings,
    notes: list[str],
) -> Page:
    """The page with a figure block for each region, and a caption for every figure block."""
    blocks = list(page.blocks)
    figures = [b for b in blocks if b.kind == BlockKind.FIGURE and b.figure is not None]
    blocks = [b for b in blocks if b.kind != BlockKind.FIGURE]
    for region in regions:
        try:
            reading = reader.read(pdf_page, region)
        except MUPDF_ERRORS as error:  # a broken image stream costs this figure, not the page
            notes.append(f"page {page.number}: a figure could not be read ({error})")
            reading = None
        figure = Figure(
            region=region,
            words=reading.text if reading else "",
            ocr=OcrInfo(reading.confidence, "tesseract", reading.lang) if reading else None,
        )
        figures.append(Block(BlockKind.FIGURE, (), region, page.number, figure=figure))
    blocks, captioned = with_captions(blocks, figures, settings)
    return dataclasses.replace(page, blocks=(*blocks, *captioned))


def with_captions(
    blocks: list[Block], figures: list[Block], settings: FigureSettings = FigureSettings()
) -> tuple[list[Block], list[Block]]:
    """The blocks without the figures' captions, and the figure blocks holding them."""
    captioned = []
    for block in sorted(figures, key=lambda b: (b.bbox.top, b.bbox.x0)):
        assert block.figure is not None
        caption = _caption_lines(block.figure.region, blocks, settings)
        blocks = [b for b in blocks if not (len(b.lines) == 1 and b.lines[0] in caption)]
        figure = dataclasses.replace(
            block.figure, caption=" ".join(line.text.strip() for line in caption)
        )
        box = BBox.enclosing([block.figure.region, *(line.bbox for line in caption)])
        captioned.append(dataclasses.replace(block, lines=tuple(caption), bbox=box, figure=figure))
    return blocks, captioned


def _without_empty_figures(page: Page) -> Page:
    kept = tuple(
        b
        for b in page.blocks
        if b.kind != BlockKind.FIGURE or (b.figure and (b.figure.caption or b.figure.words))
    )
    return page if len(kept) == len(page.blocks) else dataclasses.replace(page, blocks=kept)


def _touches(region: BBox, others: list[BBox]) -> bool:
    return any(_overlaps(region, other) for other in others)


def _caption_lines(region: BBox, blocks: list[Block], settings: FigureSettings) -> list[Line]:
    """The caption's lines beside `region` (nearest first), or none."""
    lines = [b.lines[0] for b in blocks if b.kind == BlockKind.PARAGRAPH and len(b.lines) == 1]
    starts = [
        (gap, line)
        for line in lines
        if CAPTION_START.match(line.text) and line.bbox.x_overlap(region) > 0
        for gap in (_gap_to(region, line.bbox),)
        if gap is not None and gap <= settings.caption_gap_pt
    ]
    if not starts:
        return []
    first = min(starts, key=lambda item: (item[0], item[1].bbox.top))[1]
    caption = [first]
    below = sorted((ln for ln in lines if ln.bbox.top > first.bbox.top), key=lambda ln: ln.bbox.top)
    for line in below:
        if len(caption) >= settings.max_caption_lines:
            break
        last = caption[-1]
        if line.bbox.top - last.bbox.bottom > settings.caption_line_gap * last.bbox.height:
            break
        if line.bbox.x_overlap(first.bbox) <= 0 or _overlaps(line.bbox, region):
            break
        if CAPTION_START.match(line.text):
            break
        caption.append(line)
    return caption


def _gap_to(region: BBox, box: BBox) -> float | None:
    """How far `box` lies above or below `region`, 0 when it overlaps the edge it stands at
    (a drawing's marks can reach into its caption's line); None when its middle is inside."""
    if box.center_y <= region.top:
        return max(0.0, region.top - box.bottom)
    if box.center_y >= region.bottom:
        return max(0.0, box.top - region.bottom)
    return None


def _overlaps(a: BBox, b: BBox) -> bool:
    return a.x_overlap(b) > 0 and a.y_overlap(b) > 0
