"""Pictures of tables on pages that have a text layer -> OCR lines and the picture's rules.

A report that pastes a table as a picture has a text layer everywhere but there: the table's
words reach no chunk. Which pictures are read is decided from their pixels (a cheap gate at
low resolution: long straight rules on a light background, see tables/raster.py), never from
the page's text count; only the picture's region is rendered at OCR resolution and read.
The caller builds the table from the rules and the words (tables.detect.tables_from_rules).
"""

# pymupdf's methods carry no annotations, so strict mypy would flag every call into it.
# mypy: disallow-untyped-calls=False

from __future__ import annotations

import contextlib
import dataclasses
import re
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pymupdf

from chunkcli.convert.extract.paint_log import picture_placements
from chunkcli.convert.ocr.lines import words_to_lines
from chunkcli.convert.ocr.options import AUTO, OcrOptions
from chunkcli.convert.ocr.read import (
    DocumentEngines,
    PagesDone,
    page_confidence,
    png_bytes,
    script_language,
    with_page_time,
)
from chunkcli.convert.ocr.tesseract import (
    OcrFailed,
    OcrWord,
    run_tesseract,
    tesseract_languages,
    tesseract_version,
)
from chunkcli.convert.ocr.tesslib import TesseractLibrary
from chunkcli.convert.source import MUPDF_ERRORS
from chunkcli.convert.tables.raster import GATE_DPI, looks_like_ruled_table, rules_in_pixels
from chunkcli.convert.tables.rules import Rule
from chunkcli.model import POINTS_PER_INCH, BBox, Line

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

# Tesseract reads a picture as one block of sparse text: cells are not paragraphs.
SPARSE_PSM = 3
# A picture smaller than this share of the page is an icon, a logo or a photo inset; the
# smallest table picture on DP-Bench covers 0.12 of its page.
MIN_PICTURE_SHARE = 0.02
# A picture with more text-layer lines than this over it already has its words (a chart
# whose labels are text, a scan with an invisible OCR layer).
MAX_TEXT_LINES_OVER = 1
# Pictures of tables are read at this resolution: their type is small (7-9 pt in DP-Bench's
# table picture, whose cell values Tesseract misread at 200 dpi but read at 300).
READ_DPI = 300
# A reading less confident than this is noise in a picture that only looked like a table.
MIN_CONFIDENCE = 0.5
# Words that are only rule fragments Tesseract read as glyphs ("|", "}", "—").
RULE_GLYPHS = re.compile(r"[|\[\]{}()_—–\-=.,:;'\"`~!]+")
# ... and glyphs a rule beside a word adds to its end ("1}", "2|").
RULE_EDGE_GLYPHS = "|{}"


# A figure's word read less confidently than this is a guess at a mark (photos, textures).
MIN_FIGURE_WORD_CONFIDENCE = 0.6
# A figure's kept words must hold this many letters or digits: a photo's stray "words" rarely do.
MIN_FIGURE_CHARS = 4
# ... and be read this confidently on the whole (the same bound as a table picture's).
MIN_FIGURE_CONFIDENCE = MIN_CONFIDENCE


@dataclass(frozen=True, slots=True)
class FigureReading:
    """A figure's words read by OCR: one line of text per line read, in reading order."""

    text: str
    confidence: float
    lang: str


@dataclass(frozen=True, slots=True)
class PictureReading:
    """One table picture read: its OCR lines and its rules, in page points."""

    lines: tuple[Line, ...]
    rules: tuple[Rule, ...]
    confidence: float  # the words' mean confidence (page_confidence)
    lang: str


def table_pictures(page: pymupdf.Page, lines: Sequence[Line]) -> list[BBox]:
    """Regions of pictures on the page that look like ruled tables and carry no text layer."""
    if not page.get_images():  # reads the page's resources only (0.03 ms a page): most pages
        return []  # have no picture, and placing pictures parses the page again (1 ms)
    rect = page.rect
    page_area = rect.width * rect.height
    found = []
    for placed, _, _ in picture_placements(page):  # (as figures place them: one device pass)
        box = pymupdf.Rect(placed) & rect
        if box.is_empty or box.width * box.height < MIN_PICTURE_SHARE * page_area:
            continue
        region = BBox(box.x0, box.y0, box.x1, box.y1)
        over = sum(1 for ln in lines if region.contains_point(ln.bbox.center_x, ln.bbox.center_y))
        if over > MAX_TEXT_LINES_OVER:
            continue
        try:
            gray = _gray(page, region, GATE_DPI)
        except MUPDF_ERRORS:  # a picture MuPDF cannot draw (damaged, or too large) is skipped
            continue
        if looks_like_ruled_table(gray, POINTS_PER_INCH / GATE_DPI):
            found.append(region)
    return found


def read_picture(
    page: pymupdf.Page,
    region: BBox,
    lang: str,
    options: OcrOptions,
    library: TesseractLibrary | None = None,
) -> PictureReading | None:
    """The words and rules of one picture region; None when OCR fails or is unsure. With
    `library` (see PicturePages.library), its engines read it, not the program."""
    try:
        gray = _gray(page, region, READ_DPI)
    except MUPDF_ERRORS:
        return None
    scale = POINTS_PER_INCH / READ_DPI
    try:
        words = _words(gray, lang, READ_DPI, options, library)
    except OcrFailed:
        return None
    words = tuple(
        dataclasses.replace(w, text=w.text.strip(RULE_EDGE_GLYPHS))
        for w in words
        if not RULE_GLYPHS.fullmatch(w.text)
    )
    confidence = page_confidence(words)
    if confidence < MIN_CONFIDENCE:
        return None
    lines = tuple(
        _shifted(line, region)
        for line in words_to_lines(words, scale, False, options.settings, gray)
    )
    rules = rules_in_pixels(gray, (region.x0, region.top), scale)
    return PictureReading(lines, rules, round(confidence, 4), lang)


# A picture is read only while at least this much of the file's time limit is left (seconds):
# the rest of the conversion needs it to end before the worker is stopped.
MIN_SECONDS_LEFT = 2.0


def within_time(options: OcrOptions) -> OcrOptions | None:
    """`options` with each reading bounded by what is left of the file's --timeout (its
    deadline), or None when too little is left to read a picture."""
    if options.deadline <= 0:
        return options
    left = options.deadline - time.monotonic()
    if left < MIN_SECONDS_LEFT:
        return None
    if left < options.page_timeout_s:
        return dataclasses.replace(options, page_timeout_s=left)
    return options


@dataclass(slots=True)
class PicturePages:
    """Text pages whose pictures OCR reads (a table pasted as a picture, a figure), counted as
    pages read by OCR after the `done` pages without a text layer, as page OCR counts them:
    in progress (`on_pages` hears the pages to read grow before such a page is read, and the
    page done after it) and in the file's time limit (each adds options.page_time_s to the
    deadline, as batch.py grows the file's limit with the pages it hears of). A page counts
    once, whichever stage reads its pictures."""

    on_pages: PagesDone | None
    done: int = 0  # pages read by OCR so far
    to_read: int = 0  # pages OCR is given so far
    # The document's engines, those its scanned pages were read by (a language's model is
    # loaded once for both; a picture read by the program paid for its process and its
    # model each time, 0.1-0.2 CPU s). Their owner closes them.
    engines: DocumentEngines = field(default_factory=DocumentEngines)
    counted: set[int] = field(default_factory=set)

    def library(self, options: OcrOptions) -> TesseractLibrary | None:
        """The engines pictures are read by (None: the program reads them)."""
        version = tesseract_version(options.tesseract_cmd)
        return None if version is None else self.engines.library(options, version)

    @contextlib.contextmanager
    def reading(self, number: int) -> Iterator[None]:
        """Around the reading of page `number`'s pictures."""
        new = number not in self.counted
        if new:
            self.counted.add(number)
            self.to_read += 1
            self._tell()
        yield
        if new:
            self.done += 1
            self._tell()

    def within_time(self, options: OcrOptions) -> OcrOptions | None:
        """within_time, with the deadline moved by the pages OCR is given so far."""
        return within_time(with_page_time(options, self.to_read))

    def _tell(self) -> None:
        if self.on_pages is not None:
            self.on_pages(self.done, self.to_read)


def read_figure(
    page: pymupdf.Page,
    region: BBox,
    lang: str,
    options: OcrOptions,
    library: TesseractLibrary | None = None,
) -> FigureReading | None:
    """The words in a figure's pixels, or None when there are none worth keeping (a photo, a
    drawing without text) or OCR fails. Only the region is rendered, at READ_DPI (pixels
    capped as a page's are); MuPDF's errors on a broken picture reach the caller. With
    `library`, its engines read it."""
    dpi = _capped_dpi(region, READ_DPI, options.settings.max_pixels)
    gray = _gray(page, region, dpi)
    try:
        words = _words(gray, lang, dpi, options, library)
    except OcrFailed:
        return None
    kept = tuple(
        w
        for w in words
        if w.confidence >= MIN_FIGURE_WORD_CONFIDENCE and not RULE_GLYPHS.fullmatch(w.text)
    )
    if sum(1 for w in kept for c in w.text if c.isalnum()) < MIN_FIGURE_CHARS:
        return None
    confidence = page_confidence(kept)
    if confidence < MIN_FIGURE_CONFIDENCE:
        return None
    text = lines_text(words_to_lines(kept, POINTS_PER_INCH / dpi, False, options.settings, gray))
    return FigureReading(text, round(confidence, 4), lang) if text else None


def _words(
    gray: npt.NDArray[np.uint8],
    lang: str,
    dpi: int,
    options: OcrOptions,
    library: TesseractLibrary | None,
) -> tuple[OcrWord, ...]:
    """Tesseract's words in a picture: the library's engines, or the program given its PNG."""
    timeout_s = options.page_timeout_s
    if library is not None:
        return library.words(gray, dpi, lang, SPARSE_PSM, timeout_s)
    return run_tesseract(
        options.tesseract_cmd, png_bytes(gray, dpi), lang, dpi, SPARSE_PSM, timeout_s
    )


def lines_text(lines: Sequence[Line]) -> str:
    """OCR lines as a figure's words: a line of text each, runs of spaces made one."""
    return "\n".join(" ".join(line.text.split()) for line in lines if line.text.strip())


def _capped_dpi(region: BBox, dpi: int, max_pixels: int) -> int:
    """`dpi`, lowered so that the region's rendering holds at most `max_pixels`."""
    pixels = (region.width * dpi / POINTS_PER_INCH) * (region.height * dpi / POINTS_PER_INCH)
    if max_pixels <= 0 or pixels <= max_pixels:
        return dpi
    return max(72, int(dpi * (max_pixels / pixels) ** 0.5))


def picture_language(text: str, options: OcrOptions) -> str | None:
    """The language pictures are read in: --ocr-lang when given, else the script of the
    document's own text layer (Hangul: kor, kana or ideographs: jpn, else eng); None when
    Tesseract or that language's data is missing."""
    installed = tesseract_languages(options.tesseract_cmd)
    if options.lang != AUTO:
        return options.lang if all(p in installed for p in options.lang.split("+")) else None
    lang = script_language(text, min_chars=1) or "eng"
    return lang if lang in installed else None


def _gray(page: pymupdf.Page, region: BBox, dpi: int) -> npt.NDArray[np.uint8]:
    import numpy as np  # loaded only when a page has a picture worth looking at

    clip = pymupdf.Rect(region.x0, region.top, region.x1, region.bottom)
    pixmap = page.get_pixmap(dpi=dpi, clip=clip, colorspace=pymupdf.csGRAY, alpha=False)
    gray = np.frombuffer(pixmap.samples, dtype=np.uint8).reshape(pixmap.height, pixmap.stride)
    return np.ascontiguousarray(gray[:, : pixmap.width])


def _shifted(line: Line, region: BBox) -> Line:
    """A line read in the region's pixels, moved to its place on the page."""

    def move(box: BBox) -> BBox:
        return BBox(
            box.x0 + region.x0, box.top + region.top, box.x1 + region.x0, box.bottom + region.top
        )

    spans = tuple(dataclasses.replace(s, bbox=move(s.bbox)) for s in line.spans)
    return dataclasses.replace(line, spans=spans, bbox=move(line.bbox))
