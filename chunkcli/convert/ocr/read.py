"""Pages of an open PDF -> OCR readings: render each page, pick the language, run the engine
(Tesseract; or RapidOCR, which has one multilingual model and needs no language choice).

Pages are rendered once each, one at a time in this thread (MuPDF documents are not
thread-safe), and read by up to `jobs` Tesseract processes at once (threads only wait for them;
RapidOCR's ONNX sessions run in those threads, releasing the GIL). Readings come back by page
number, so the result does not depend on `jobs`.

The language (--ocr-lang auto) is decided once per document, without reading a page twice:
a Japanese or Korean text layer on other pages names it; otherwise Tesseract's script
detection on the first page's image (at a quarter of its pixels) guesses it, and that page's
own reading confirms the guess or replaces it (a vertical Japanese page read best as
jpn_vert). Until that reading is back, another page starts in the guess only when an engine
is free (no core waits for a long first page); the pages so started are read again when it
replaced the guess, so every page is read in the languages the first page decided, whatever
`jobs` is and whichever reading ends first.
"""

# pymupdf's methods carry no annotations, so strict mypy would flag every call into it.
# mypy: disallow-untyped-calls=False

from __future__ import annotations

import dataclasses
import functools
import math
import re
import struct
import threading
import time
import zlib
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

import pymupdf

from chunkcli.charclasses import HANGUL_SYLLABLE_CLASS, KANA_HAN_RE
from chunkcli.convert.ocr.figures import InkCells, nontext_ink
from chunkcli.convert.ocr.lines import INK_LEVEL, words_to_lines
from chunkcli.convert.ocr.options import (
    AUTO,
    AUTO_LANGUAGES,
    DEFAULT_TESSERACT,
    INSTALL_HINT,
    OcrOptions,
    OcrSettings,
)
from chunkcli.convert.ocr.rapidocr import ENGINE as RAPIDOCR
from chunkcli.convert.ocr.rapidocr import INSTALL_HINT as RAPIDOCR_HINT
from chunkcli.convert.ocr.rapidocr import (
    MODEL_LANG,
    is_vertical,
    rapidocr_version,
    run_rapidocr,
    unreadable_languages,
)
from chunkcli.convert.ocr.tesseract import (
    OSD_LANG,
    OcrFailed,
    OcrWord,
    run_tesseract,
    tesseract_program,
    tesseract_script,
)
from chunkcli.convert.ocr.tesslib import (
    TesseractLibrary,
    is_binary_program,
    library_version,
    load_library,
)
from chunkcli.convert.source import MUPDF_ERRORS
from chunkcli.convert.tables.raster import GATE_DPI, in_long_runs, ruled_table_rules
from chunkcli.convert.tables.rules import Rule
from chunkcli.model import POINTS_PER_INCH, Line
from chunkcli.pagespec import format_page_ranges

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

_T = TypeVar("_T")
# MuPDF's error code before its message ("code=5: Overly large image"): no reader's business.
MUPDF_CODE = re.compile(r"^code=\d+: ")
# Tesseract page segmentation modes: 3 finds columns and blocks; 4 reads one column of text of
# varying sizes (it keeps lines psm 3 sometimes discards as pictures, e.g. dense Hangul).
AUTO_PSM = 3
COLUMN_PSM = 4
# Ink (pixels darker than lines.INK_LEVEL) is counted in square cells of this many pixels (of
# the page image; lettering_ink looks at its sample at GATE_DPI).
INK_CELL_PX = 8
# Japanese given by --ocr-lang is retried in the other writing direction (see OcrSettings).
OTHER_DIRECTION = {"jpn": "jpn_vert", "jpn_vert": "jpn"}
# The candidate language that reads each script Tesseract's script detection names (its osd
# data: "Han" is Chinese print, read by the Japanese model as the old detection chose too).
# A script not listed (Cyrillic, Arabic, ...) leaves the choice to the candidates' confidence.
SCRIPT_LANGUAGES = {
    "Latin": "eng",
    "Japanese": "jpn",
    "Han": "jpn",
    "Hiragana": "jpn",
    "Katakana": "jpn",
    "Korean": "kor",
    "Hangul": "kor",
}


class OcrOutOfTime(OcrFailed):
    """A page's reading was not started, or was stopped, because the file's time limit ran
    out: the page is marked 'ocr skipped: time limit', not 'OCR failed'."""


@dataclass(frozen=True, slots=True)
class OcrReading:
    """One page read by OCR: its Lines in PDF points and the mean word confidence (0..1)."""

    number: int
    lines: tuple[Line, ...]
    confidence: float
    lang: str
    # The rules of the page's ruled tables, read in its pixels (a scan has no drawings), from
    # the image OCR read: the page is not rendered again for them.
    rules: tuple[Rule, ...] = ()
    # Its non-text ink, where its figures are found once its tables are known.
    ink: InkCells | None = None


@dataclass(frozen=True, slots=True)
class OcrRun:
    """The readings of a document's pages, the engine that made them and what went wrong."""

    readings: tuple[OcrReading, ...] = ()
    engine: str = ""  # "tesseract" or "rapidocr"; "" when nothing ran
    version: str = ""  # "tesseract 5.3.0", "rapidocr 3.10.0": OCR output depends on it
    notes: tuple[str, ...] = ()  # one line per page that failed
    # Pages left unread because a time limit would have run out first (the page marker says so).
    skipped: tuple[int, ...] = ()
    missing: str = ""  # why nothing ran: no engine or no language data (what to install)


# Called with the number of pages read by OCR so far (0 first, then 1, 2, ...; in page order)
# and the number of pages to read, from this thread. The first call, (0, pages to read), comes
# before any reading: a time limit grows by then (batch.py, workers.py). The pages without a
# text layer are counted first; then text pages whose figures OCR reads (extract/figures.py)
# add to both numbers, the second before the first of them is read.
PagesDone = Callable[[int, int], None]


def ocr_pages(
    doc: pymupdf.Document,
    numbers: Sequence[int],
    options: OcrOptions,
    on_pages: PagesDone | None = None,
    text_layer: str = "",
    engines: DocumentEngines | None = None,
) -> OcrRun:
    """Read the given 1-based pages by OCR; a missing engine gives one note and no readings.
    `on_pages` hears how many pages are done as they finish (progress), and first how many
    there are to read. `text_layer` is the document's own text, when other pages have one:
    in Japanese or Korean it decides the language (see script_language). `engines`: the
    document's, which the caller closes (its pictures are read by them too); without them
    the pages' own are freed before this returns."""
    if not numbers:
        return OcrRun()
    if engines is None:
        engines = DocumentEngines()
        try:
            return ocr_pages(doc, numbers, options, on_pages, text_layer, engines)
        finally:
            engines.close()
    if on_pages is not None:
        on_pages(0, len(numbers))
    options = _with_reserve(with_page_time(options, len(numbers)), doc.page_count)
    if options.engine == RAPIDOCR:
        return _rapidocr_pages(doc, numbers, options, on_pages)
    ahead = functools.partial(_load_ahead, options)
    version, installed = tesseract_program(options.tesseract_cmd, ahead)
    if version is None:
        return OcrRun(missing=f"{options.tesseract_cmd} not found (install: {INSTALL_HINT})")
    missing = _missing_languages(options.lang, installed)
    if missing:
        return OcrRun(missing=f"no Tesseract data for {missing} (install: {INSTALL_HINT})")
    library = engines.library(options, version)
    with ThreadPoolExecutor(max_workers=max(1, options.jobs)) as pool:
        try:
            plan = _language_plan(options, installed, text_layer, pool, library)
            readings, notes, skipped = _read_all(doc, numbers, plan, options, pool, on_pages)
        except BaseException:  # a timeout: do not wait for the queued pages
            pool.shutdown(wait=False, cancel_futures=True)
            engines.close()  # a reading still running loads no other model (freed after it)
            raise
    return OcrRun(tuple(readings), options.engine, version, tuple(notes), tuple(skipped))


def _load_ahead(options: OcrOptions) -> None:
    """What the first page needs (numpy: 0.1 CPU s; the library, when it may read it),
    loaded while Tesseract's program answers."""
    import numpy  # noqa: F401

    if options.tesseract_cmd == DEFAULT_TESSERACT:
        load_library()


def document_library(options: OcrOptions, version: str) -> TesseractLibrary | None:
    """libtesseract's engines for the document when they are the program's Tesseract (the
    default program, a binary of the same version); None: the program reads the pages.
    The caller closes them."""
    if options.tesseract_cmd != DEFAULT_TESSERACT or library_version() != version:
        return None
    if not is_binary_program(options.tesseract_cmd):
        return None  # a wrapper of the user's around it: what it does is theirs
    lib = load_library()
    return None if lib is None else TesseractLibrary(lib)


@dataclass(slots=True)
class DocumentEngines:
    """One document's Tesseract engines, shared by its scanned pages (ocr_pages) and the
    pictures of its text pages (pictures.PicturePages), so that a language's model is loaded
    once for both: which engines (document_library) is settled when first asked, and each
    engine is loaded when first used. The document's owner closes them."""

    chosen: TesseractLibrary | None = None
    asked: bool = False

    def library(self, options: OcrOptions, version: str) -> TesseractLibrary | None:
        """The engines pages and pictures are read by (None: the program reads them)."""
        if not self.asked:
            self.asked = True
            self.chosen = document_library(options, version)
        return self.chosen

    def close(self) -> None:
        """Free the engines (one still reading is freed when it ends)."""
        if self.chosen is not None:
            self.chosen.close()


def _rapidocr_pages(
    doc: pymupdf.Document, numbers: Sequence[int], options: OcrOptions, on_pages: PagesDone | None
) -> OcrRun:
    """The pages read by RapidOCR's bundled model; one note when it is missing or the
    language asked for is one it cannot read."""
    unreadable = "" if options.lang == AUTO else unreadable_languages(options.lang)
    if unreadable:
        return OcrRun(missing=f"RapidOCR's bundled model cannot read {unreadable} "
                      "(use --ocr-engine tesseract)")  # fmt: skip
    version = rapidocr_version()
    if version is None:
        return OcrRun(missing=f"rapidocr is not installed (install: {RAPIDOCR_HINT})")
    plan = _LanguagePlan(functools.partial(_read_rapidocr, options=options), _given(()))
    with ThreadPoolExecutor(max_workers=max(1, options.jobs)) as pool:
        try:
            readings, notes, skipped = _read_all(doc, numbers, plan, options, pool, on_pages)
        except BaseException:  # a timeout: do not wait for the queued pages
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    return OcrRun(tuple(readings), RAPIDOCR, version, tuple(notes), tuple(skipped))


def _missing_languages(lang: str, installed: frozenset[str]) -> str:
    wanted = AUTO_LANGUAGES[:1] if lang == AUTO else tuple(lang.split("+"))
    return "+".join(part for part in wanted if part not in installed)


Langs = tuple[str, ...]  # a page's languages: the first one, then those a bad reading retries
# A page's reading: (number, image, languages, an event the reading sets as its engine starts).
Read = Callable[[int, "PageImage", Langs, threading.Event | None], "OcrReading"]


@dataclass(frozen=True, slots=True)
class _LanguagePlan:
    """How pages are read: `read` reads a rendered page in the given languages; `first`
    starts choosing those languages from the first page to read's image (in the pool, while
    the next page renders) and gives the call that waits for them; `adopt`, when given,
    turns that page's reading into the languages of all the others (None: they keep
    `first`'s)."""

    read: Read
    first: Callable[[PageImage], Callable[[], Langs]]
    adopt: Callable[[OcrReading, Langs], Langs] | None = None
    png: bool = True  # the engine reads the page as PNG (not the library's pixels)


@dataclass(slots=True)
class _Page:
    """A page handed to the engine: the languages it is read in and, while the first page's
    reading may still change them, its image (to read it again)."""

    number: int
    langs: Langs
    future: Future[OcrReading]
    image: PageImage | None


def _read_all(
    doc: pymupdf.Document,
    numbers: Sequence[int],
    plan: _LanguagePlan,
    options: OcrOptions,
    pool: ThreadPoolExecutor,
    on_pages: PagesDone | None = None,
) -> tuple[list[OcrReading], list[str], list[int]]:
    """Render page by page, keeping at most two pages per engine process waiting: the
    readings, one note per page that failed or was left unread, and the pages left unread.
    With `plan.adopt`, the first page's languages are guessed from its image in the pool
    while the next page renders; a page is started before its reading is back only when an
    engine is free (so no core idles while a long first page is read), in the guessed
    languages; the pages so started are read again when that reading changed them."""
    pages: list[_Page] = []
    notes: list[str] = []
    skipped: list[int] = []
    progress = _Progress(on_pages, len(numbers))
    started = _clock()
    durations: list[float] = []  # appended by the reading threads (list.append is atomic)
    timed = functools.partial(_timed, plan.read, durations)
    busy = functools.partial(_all_reading, pages, max(1, options.jobs))
    submit = functools.partial(_submit_page, pool, timed, busy)
    langs: Langs | None = None
    decided = plan.adopt is None
    first: _First | None = None  # the first page, while its languages are being guessed

    def out_of_time(index: int) -> bool:
        """Whether the pages from numbers[index] on are left unread (noted)."""
        reason = _out_of_time(options, started, [p.future for p in pages], durations)
        if reason:
            notes.append(f"page {format_page_ranges(numbers[index:])}: not read by OCR: {reason}")
            skipped.extend(numbers[index:])
        return bool(reason)

    for index, number in enumerate(numbers):
        if out_of_time(index):
            break
        image = _page_to_read(doc, number, options, notes)
        if image is None:
            continue
        if langs is None and decided:  # known without looking at the page
            langs = plan.first(image)()
        elif first is None and langs is None:
            first = _First(number, image, plan.first(image))
            continue  # handed over once the next page is rendered (or there is none)
        elif first is not None:
            langs, first = first.handed_over(submit, plan, pages), None
            if out_of_time(index):  # measured again, the first page now being read
                break
        assert langs is not None
        if not decided:
            langs, decided = _langs_once_free(pages, langs, plan, timed, pool, options.jobs)
        kept = None if decided else image  # to read it again if the first page's reading says
        pages.append(_handed_over(submit, plan, number, image, langs, kept))
        _wait_ahead(pages, options.jobs)
        progress.tell([page.future for page in pages])
    langs = first.handed_over(submit, plan, pages) if first is not None else langs
    if not decided and langs is not None:
        _decided(pages, langs, plan, timed, pool)
    return _results(pages, notes, skipped, progress)


def _results(
    pages: list[_Page], notes: list[str], skipped: list[int], progress: _Progress
) -> tuple[list[OcrReading], list[str], list[int]]:
    """The pages' readings as they come back, with a note for each page that failed or was
    cut by the time limit (then also among the pages left unread)."""
    readings = []
    for page in pages:
        try:
            readings.append(page.future.result())
        except OcrOutOfTime as exc:  # cut by the time limit: marked like a page not started
            notes.append(f"page {page.number}: not read by OCR: {exc}")
            skipped.append(page.number)
        except OcrFailed as exc:
            notes.append(f"page {page.number}: OCR failed: {exc}")
        progress.tell([page.future for page in pages])
    return readings, notes, sorted(skipped)


def _wait_ahead(pages: list[_Page], jobs: int) -> None:
    """Wait until at most two pages per engine are waiting or being read: bounds the
    rendered images in memory."""
    ahead = len(pages) - 2 * max(1, jobs)
    if ahead > 0:
        pages[ahead - 1].future.exception()


def _page_to_read(
    doc: pymupdf.Document, number: int, options: OcrOptions, notes: list[str]
) -> PageImage | None:
    """The page rendered for OCR; None (and a note) when MuPDF cannot draw it, or when it is
    a photograph or a dark picture, not text (it stays an image-only page)."""
    try:
        image = render_page(doc[number - 1], options.dpi, options.settings.max_pixels)
    except MUPDF_ERRORS as exc:  # damaged, or too large
        reason = MUPDF_CODE.sub("", str(exc))
        notes.append(f"page {number}: OCR failed: cannot render the page: {reason}")
        return None
    return None if image.dark_share > options.settings.max_dark_share else image


@dataclass(frozen=True, slots=True)
class _First:
    """The first page to read, rendered, while its languages are being chosen."""

    number: int
    image: PageImage
    langs: Callable[[], Langs]  # waits for them (called once)

    def handed_over(
        self,
        submit: Callable[[int, PageImage, Langs], Future[OcrReading]],
        plan: _LanguagePlan,
        pages: list[_Page],
    ) -> Langs:
        """Its languages, once chosen; the page is given to an engine in them (appended to
        `pages`) and never read again."""
        langs = self.langs()
        pages.append(_handed_over(submit, plan, self.number, self.image, langs, None))
        return langs


def _given(langs: Langs) -> Callable[[PageImage], Callable[[], Langs]]:
    """A plan's `first` when the languages are known before any page is seen."""
    return lambda _: lambda: langs


def _handed_over(
    submit: Callable[[int, PageImage, Langs], Future[OcrReading]],
    plan: _LanguagePlan,
    number: int,
    image: PageImage,
    langs: Langs,
    kept: PageImage | None,
) -> _Page:
    """The page given to an engine's thread, its PNG made here first when the engine reads
    PNG (the thread then starts the reading at once)."""
    if plan.png:
        image.png()
    return _Page(number, langs, submit(number, image, langs), kept)


def _langs_once_free(
    pages: list[_Page],
    guess: Langs,
    plan: _LanguagePlan,
    timed: Callable[[int, PageImage, Langs], OcrReading],
    pool: ThreadPoolExecutor,
    jobs: int,
) -> tuple[Langs, bool]:
    """The languages of the next page, and whether they are decided, once the first page's
    reading is back (its verdict, see _decided) or fewer than `jobs` pages are being read
    (still the guess: none is queued while the language is undecided)."""
    while not pages[0].future.done():
        reading = [page.future for page in pages if not page.future.done()]
        if len(reading) < max(1, jobs):
            return guess, False
        wait(reading, return_when=FIRST_COMPLETED)
    return _decided(pages, guess, plan, timed, pool), True


def _decided(
    pages: list[_Page],
    guess: Langs,
    plan: _LanguagePlan,
    timed: Callable[[int, PageImage, Langs], OcrReading],
    pool: ThreadPoolExecutor,
) -> Langs:
    """The languages the first page's reading gives the others (the guess when it failed);
    the pages already started in other languages are read again in them."""
    assert plan.adopt is not None
    try:
        langs = plan.adopt(pages[0].future.result(), guess)
    except OcrFailed:
        langs = guess
    for page in pages[1:]:
        if page.image is not None and page.langs != langs:
            page.future.cancel()  # its reading, if it runs, is not used
            page.future = pool.submit(timed, page.number, page.image, langs)
            page.langs = langs
        page.image = None
    return langs


# The clock OCR's time limits read (tests replace it).
_clock = time.monotonic
# OCR ends this long before the file's deadline, for the stages after it (tables on the OCR
# lines, layout, Markdown) and the way back from the worker: 1 s, plus this much per page of
# the document: chunkcli converts 112-129 text pages/s on one core (bench/RESULTS.md), under
# 0.01 s a page; twice that leaves room for a loaded machine (j-bunpu2023, 19 pages, spent
# 0.2 s after OCR at load 6.6).
AFTER_OCR_S = 1.0
AFTER_OCR_S_PER_PAGE = 0.02


def with_page_time(options: OcrOptions, pages_to_read: int) -> OcrOptions:
    """The options with the deadline moved by the time each page to read is allowed (the
    file's limit grows the same way: WorkerPool.limit_s). Text pages whose pictures are read
    count too (ocr/pictures.PicturePages)."""
    if options.deadline <= 0 or options.page_time_s <= 0:
        return options
    deadline = options.deadline + options.page_time_s * pages_to_read
    return dataclasses.replace(options, deadline=deadline)


def _with_reserve(options: OcrOptions, page_count: int) -> OcrOptions:
    """The options with OCR's own deadline: the file's, less what the later stages need."""
    if options.deadline <= 0:
        return options
    reserve = AFTER_OCR_S + AFTER_OCR_S_PER_PAGE * page_count
    return dataclasses.replace(options, deadline=options.deadline - reserve)


# A page is started only if the pages in flight and it would end by the deadline taking this
# many times the slowest page read so far: on j-bunpu2023 under load 3-5 (2026-12-02) pages took
# 1.7-5.7 s, the third 1.8x the slowest before it, and a file given 25 s ended at 24.2 s with
# the slowest page as the estimate (its worker then went past --timeout).
SLOWEST_PAGE_FACTOR = 2.0


def _out_of_time(
    options: OcrOptions,
    started: float,
    futures: Sequence[Future[OcrReading]],
    durations: Sequence[float],
) -> str:
    """Why OCR must not start another page ("" when it may): its own budget_s has passed, or
    the deadline (the file's --timeout less what comes after OCR) cannot fit the pages in
    flight and one more. Until a page is done there is nothing to measure: then at
    most `jobs` pages are in flight, and the next one waits for the first reading."""
    if options.budget_s > 0 and _clock() - started > options.budget_s:
        return f"its time budget ({options.budget_s:g} s) ran out"
    if options.deadline <= 0 or not futures:
        return ""
    if not any(future.done() for future in futures) and len(futures) >= max(1, options.jobs):
        futures[0].exception()  # wait for one reading to measure
    done = sum(future.done() for future in futures)
    slowest = max(durations, default=0.0)
    fits = next_page_fits(_clock(), slowest, len(futures) - done, max(1, options.jobs),
                          options.deadline)  # fmt: skip
    return (
        ""
        if fits
        else (f"the file's time limit would run out first (pages took up to {slowest:.1f} s)")
    )


def next_page_fits(now: float, slowest: float, in_flight: int, jobs: int, deadline: float) -> bool:
    """Whether the pages in flight and one more end by `deadline`, read `jobs` at a time, each
    taking SLOWEST_PAGE_FACTOR times the slowest page so far."""
    rounds = -(-(in_flight + 1) // jobs)
    return now + rounds * SLOWEST_PAGE_FACTOR * slowest <= deadline


def _timed(
    read: Read,
    durations: list[float],
    number: int,
    image: PageImage,
    langs: Langs,
    begun: threading.Event | None = None,
) -> OcrReading:
    """read(number, image, langs, begun), its wall time appended to `durations` (failed ones
    too); `begun` is set by the reading as its engine starts (see _handed_off)."""
    start = _clock()
    try:
        return read(number, image, langs, begun)
    finally:
        durations.append(_clock() - start)


@dataclass(slots=True)
class _Progress:
    """Tells `on_pages` how many pages are done, counting the finished ones in page order (so
    the count only grows), from the thread that renders (never from the engine's threads)."""

    on_pages: PagesDone | None
    pages_to_read: int
    told: int = 0

    def tell(self, futures: Sequence[Future[OcrReading]]) -> None:
        if self.on_pages is None:
            return
        done = next((i for i, future in enumerate(futures) if not future.done()), len(futures))
        if done > self.told:
            self.told = done
            self.on_pages(done, self.pages_to_read)


@dataclass(frozen=True)
class PageImage:
    """A rendered page: its gray pixels. Its PNG and its samples at lower resolutions are made
    once, when first asked for (a page read again, or its sample used by script detection and
    by the table gate, does not pay for them twice)."""

    gray: npt.NDArray[np.uint8]  # rows of pixels, 0 black .. 255 white
    dpi: int
    dark_share: float  # share of all pixels that are dark
    _samples: dict[int, PageImage] = dataclasses.field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def png(self) -> bytes:
        """The image as PNG, what the engines are given."""
        return self._png

    @functools.cached_property
    def _png(self) -> bytes:
        return png_bytes(self.gray, self.dpi)

    def sample(self, dpi: int) -> PageImage:
        """The image at about `dpi` (the mean of squares of pixels; never finer than it is),
        for a quick look at it: script detection reads a quarter of a 200 dpi page's pixels."""
        step = sample_step(self.dpi, dpi)
        if step == 1:
            return self
        if step not in self._samples:
            self._samples[step] = PageImage(
                _mean_of_squares(self.gray, step), self.dpi // step, self.dark_share
            )
        return self._samples[step]


def sample_step(dpi: int, target_dpi: int) -> int:
    """The side of the squares of pixels PageImage.sample averages to go from dpi to about
    target_dpi (1: the image as it is)."""
    return max(1, round(dpi / target_dpi))


def _mean_of_squares(gray: npt.NDArray[np.uint8], step: int) -> npt.NDArray[np.uint8]:
    """The rounded mean of each step x step square of pixels (the odd last rows and columns
    left out), rounding halves to even as numpy rounds."""
    import numpy as np

    height, width = (size // step * step for size in gray.shape)
    # summed into the narrowest type that holds the sum: the rows of each square first (whole
    # rows, read in order), then its columns; each sum's mean looked up (4-5 times faster
    # than rounding every sum)
    rows = gray[0:height:step, :width].astype(np.min_scalar_type(255 * step * step))
    for row in range(1, step):
        rows += gray[row:height:step, :width]
    total = rows[:, 0::step].copy()
    for col in range(1, step):
        total += rows[:, col::step]
    return np.asarray(_rounded_means(step * step)[total], dtype=np.uint8)


@functools.lru_cache(maxsize=8)
def _rounded_means(cells: int) -> npt.NDArray[np.uint8]:
    """The mean of `cells` pixels for each sum they can have, rounded half to even."""
    import numpy as np

    sums = np.arange(255 * cells + 1)
    whole, rest = sums // cells, sums % cells
    up = (2 * rest > cells) | ((2 * rest == cells) & (whole % 2 == 1))
    return np.asarray(whole + up, dtype=np.uint8)


# PNG as chunkcli writes it for Tesseract: 8-bit gray, no row filters, zlib level 1. Tesseract
# reads PNG faster than the formats that need no compression (on a 17-megapixel page of
# small_ocr: PNG 1.43 s of Tesseract, an 8-bit BMP 1.65 s, PGM 1.91 s; stored, uncompressed
# PNG 2.14 s against 1.88 s at level 1), and level 1 writes in a third of the time of MuPDF's
# PNG (level 6: 0.013 against 0.031 s on an A4 page at 200 dpi, 0.044 against 0.127 s on
# small_ocr's page) for the same pixels, so the same words (2026-12-04).
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PNG_LEVEL = 1
METERS_PER_INCH = 0.0254


def png_bytes(gray: npt.NDArray[np.uint8], dpi: int) -> bytes:
    """An 8-bit gray PNG of the pixels, its resolution recorded (pHYs, as MuPDF's)."""
    import numpy as np

    height, width = gray.shape
    rows = np.zeros((height, width + 1), dtype=np.uint8)  # each row led by filter type 0
    rows[:, 1:] = gray
    per_meter = round(dpi / METERS_PER_INCH)
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"".join((
        PNG_SIGNATURE,
        _png_chunk(b"IHDR", header),
        _png_chunk(b"pHYs", struct.pack(">IIB", per_meter, per_meter, 1)),
        _png_chunk(b"IDAT", zlib.compress(rows.tobytes(), PNG_LEVEL)),
        _png_chunk(b"IEND", b""),
    ))  # fmt: skip


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def render_page(page: pymupdf.Page, dpi: int, max_pixels: int) -> PageImage:
    """The page in gray at `dpi`, lowered so that it has at most `max_pixels`."""
    import numpy as np  # numpy (~0.1 s of CPU) loads when a page is rendered for OCR

    area_in2 = (page.rect.width / POINTS_PER_INCH) * (page.rect.height / POINTS_PER_INCH)
    if area_in2 > 0 and area_in2 * dpi * dpi > max_pixels:
        dpi = max(1, math.floor(math.sqrt(max_pixels / area_in2)))
    pixmap = page.get_pixmap(dpi=dpi, colorspace=pymupdf.csGRAY, alpha=False)
    rows = np.frombuffer(pixmap.samples, dtype=np.uint8).reshape(pixmap.height, pixmap.stride)
    gray = np.ascontiguousarray(rows[:, : pixmap.width])
    return PageImage(gray, dpi, int(np.count_nonzero(gray < INK_LEVEL)) / gray.size)


def lettering_ink(image: PageImage, settings: OcrSettings) -> npt.NDArray[np.bool_]:
    """Which cells of the image (INK_CELL_PX square, seen in its sample at GATE_DPI) hold ink
    that is not part of a long straight run of dark pixels: the strokes of letters, without
    rules, frames and filled areas, which no reading covers with words."""
    gate = image.sample(GATE_DPI)
    dark = gate.gray < INK_LEVEL
    across = round(settings.rule_across_pt * gate.dpi / POINTS_PER_INCH)
    down = round(settings.rule_down_pt * gate.dpi / POINTS_PER_INCH)
    runs = in_long_runs(dark, across) | in_long_runs(dark.T, down).T
    return ink_cells(dark & ~runs, _lettering_cell_px(image) // sample_step(image.dpi, GATE_DPI))


def _lettering_cell_px(image: PageImage) -> int:
    """The side of lettering_ink's cells in the image's own pixels: INK_CELL_PX, rounded down
    to whole pixels of the sample."""
    step = sample_step(image.dpi, GATE_DPI)
    return max(1, INK_CELL_PX // step) * step


def lettering_coverage(image: PageImage, words: Sequence[OcrWord], settings: OcrSettings) -> float:
    """Share of the page's lettering ink (lettering_ink) inside a recognised word's box."""
    return ink_coverage(lettering_ink(image, settings), words, _lettering_cell_px(image))


def ink_cells(dark: npt.NDArray[np.bool_], cell_px: int) -> npt.NDArray[np.bool_]:
    """Which cell_px-square cells of the image hold at least one dark pixel."""
    import numpy as np

    height, width = dark.shape
    rows, cols = -(-height // cell_px), -(-width // cell_px)
    padded = np.zeros((rows * cell_px, cols * cell_px), dtype=bool)
    padded[: dark.shape[0], : dark.shape[1]] = dark
    # a cell's rows first (whole rows of pixels, read in order), then its columns
    across = padded.reshape(rows, cell_px, cols * cell_px).any(axis=1)
    return np.asarray(across.reshape(rows, cols, cell_px).any(axis=2))


def ink_coverage(ink: npt.NDArray[np.bool_], words: Sequence[OcrWord], cell_px: int) -> float:
    """Share of the ink cells (cell_px square in the words' pixels) that lie inside a
    recognised word's box (1.0: no ink)."""
    total = int(ink.sum())
    if not total:
        return 1.0
    import numpy as np

    covered = np.zeros_like(ink)
    for word in words:
        top, left = word.top // cell_px, word.left // cell_px
        bottom = -(-(word.top + word.height) // cell_px)
        right = -(-(word.left + word.width) // cell_px)
        covered[top:bottom, left:right] = True
    return float((ink & covered).sum()) / total


def read_page(
    number: int,
    image: PageImage,
    langs: tuple[str, ...],
    options: OcrOptions,
    library: TesseractLibrary | None = None,
    begun: threading.Event | None = None,
) -> OcrReading:
    """OCR one rendered page in langs[0]. Below the retry confidence the other languages are
    tried in turn (until one passes it); when the words cover too little of the ink,
    Tesseract's page segmentation dropped text and the page is read again as one column.
    The most confident reading (confidence x characters for the layout retry) is kept.
    `begun` is set as the first reading's engine starts."""
    settings = options.settings
    lang = langs[0]
    words = _words(image, lang, options, AUTO_PSM, library, begun)
    confidence = page_confidence(words)
    for other in langs[1:]:
        if confidence >= settings.retry_below:
            break
        other_words = _retry_words(image, other, options, AUTO_PSM, library)
        if page_confidence(other_words) > confidence:
            words, lang, confidence = other_words, other, page_confidence(other_words)
    if lettering_coverage(image, words, settings) < settings.min_ink_coverage:
        column = _retry_words(image, lang, options, COLUMN_PSM, library)
        if _confident_chars(column) > _confident_chars(words):
            words, confidence = column, page_confidence(column)
    scale = POINTS_PER_INCH / image.dpi
    lines = words_to_lines(words, scale, lang.startswith("jpn_vert"), settings, image.gray)
    ink = page_ink(image, words, settings)
    return OcrReading(number, tuple(lines), round(confidence, 4), lang, pixel_rules(image), ink)


def page_ink(image: PageImage, words: Sequence[OcrWord], settings: OcrSettings) -> InkCells:
    """The page's non-text ink (ocr/figures.py), seen at the table gate's resolution."""
    gate = image.sample(GATE_DPI)
    return nontext_ink(gate.gray, gate.dpi, words, POINTS_PER_INCH / image.dpi, settings.figures)


def pixel_rules(image: PageImage) -> tuple[Rule, ...]:
    """The rules of ruled tables in a page image (page points), seen at the gate's resolution
    (tables/raster.py); none when they do not pass it."""
    gate = image.sample(GATE_DPI)
    return ruled_table_rules(gate.gray, (0.0, 0.0), POINTS_PER_INCH / gate.dpi)


def _retry_words(
    image: PageImage,
    lang: str,
    options: OcrOptions,
    psm: int,
    library: TesseractLibrary | None,
) -> tuple[OcrWord, ...]:
    """A second reading's words; none when the time limit cut it (the first reading stands)."""
    try:
        return _words(image, lang, options, psm, library)
    except OcrOutOfTime:
        return ()


def _read_tesseract(
    number: int,
    image: PageImage,
    langs: Langs,
    begun: threading.Event | None,
    options: OcrOptions,
    library: TesseractLibrary | None,
) -> OcrReading:
    return read_page(number, image, langs, options, library, begun)  # looked up when called


def _read_rapidocr(
    number: int,
    image: PageImage,
    langs: Langs,
    begun: threading.Event | None,
    options: OcrOptions,
) -> OcrReading:
    del langs  # one model reads every script it knows
    if begun is not None:
        begun.set()
    return read_page_rapidocr(number, image, options)


def read_page_rapidocr(number: int, image: PageImage, options: OcrOptions) -> OcrReading:
    """OCR one rendered page with RapidOCR: no language or layout retries (one model reads
    every script it knows, and its detector finds the lines); vertical when most lines are."""
    words = run_rapidocr(image.png())
    scale = POINTS_PER_INCH / image.dpi
    lines = words_to_lines(words, scale, is_vertical(words), options.settings, image.gray)
    confidence = round(page_confidence(words), 4)
    ink = page_ink(image, words, options.settings)
    return OcrReading(number, tuple(lines), confidence, MODEL_LANG, pixel_rules(image), ink)


def _confident_chars(words: Sequence[OcrWord]) -> float:
    return sum(word.confidence * len(word.text) for word in words)


def retry_languages(lang: str, auto: bool, installed: frozenset[str]) -> tuple[str, ...]:
    """langs for read_page: the chosen language first, then what a bad page is retried in
    (auto: every other installed candidate; Japanese given: the other writing direction)."""
    if auto:
        others = [c for c in AUTO_LANGUAGES if c != lang and c in installed]
    else:
        others = [OTHER_DIRECTION[lang]] if OTHER_DIRECTION.get(lang) in installed else []
    return (lang, *others)


def _words(
    image: PageImage,
    lang: str,
    options: OcrOptions,
    psm: int,
    library: TesseractLibrary | None = None,
    begun: threading.Event | None = None,
) -> tuple[OcrWord, ...]:
    """Tesseract's words (the library's engines, or the program when None); a reading still
    running at the deadline is stopped (OcrFailed), so that a page slower than measured costs
    that page, not the whole file. `begun` is set as the engine starts."""

    def read(timeout_s: float) -> tuple[OcrWord, ...]:
        if library is not None:
            return library.words(image.gray, image.dpi, lang, psm, timeout_s, begun)
        if begun is not None:
            begun.set()  # (the program runs in its own process)
        return run_tesseract(options.tesseract_cmd, image.png(), lang, image.dpi, psm, timeout_s)

    timeout_s = options.page_timeout_s
    if options.deadline > 0:
        left = options.deadline - _clock()
        if left <= 0:
            raise OcrOutOfTime("the file's time limit ran out before this page")
        if left < timeout_s:
            try:
                return read(left)
            except OcrFailed:
                if _clock() >= options.deadline:
                    raise OcrOutOfTime("the file's time limit ran out while reading it") from None
                raise
    return read(timeout_s)


# A text layer with at least this many kana, ideographs or Hangul names the language of the
# document's scanned pages. Tesseract's English model reads Japanese print with confidence as
# high as the Japanese model's (retrieval-ja j-bunpu2023 page 10 alone: eng chosen, garbage).
MIN_SCRIPT_CHARS = 50


def script_language(text: str, min_chars: int = MIN_SCRIPT_CHARS) -> str | None:
    """`kor` or `jpn` when `text` is mostly Hangul or kana and ideographs (at least
    `min_chars` of them); None otherwise (Latin text leaves the choice to the pixels)."""
    hangul = len(_HANGUL_SYLLABLE_RE.findall(text))
    kana_han = len(KANA_HAN_RE.findall(text))
    if max(hangul, kana_han) < min_chars:
        return None
    return "kor" if hangul > kana_han else "jpn"


_HANGUL_SYLLABLE_RE = re.compile(f"[{HANGUL_SYLLABLE_CLASS}]")


def page_confidence(words: Sequence[OcrWord]) -> float:
    """Mean word confidence weighted by characters (0 for a page without words): a long word
    read wrongly costs more than a stray mark."""
    weights = sum(len(word.text) for word in words)
    if not weights:
        return 0.0
    return sum(word.confidence * len(word.text) for word in words) / weights


def _language_plan(
    options: OcrOptions,
    installed: frozenset[str],
    text_layer: str,
    pool: ThreadPoolExecutor,
    library: TesseractLibrary | None,
) -> _LanguagePlan:
    """The languages pages are read in: --ocr-lang's; with auto, a Japanese or Korean text
    layer's; else guessed from the first page's image and decided by its reading."""
    read = functools.partial(_read_tesseract, options=options, library=library)
    png = library is None
    auto = options.lang == AUTO
    known = script_language(text_layer) if auto else None
    if not auto or known in installed:
        langs = retry_languages(options.lang if not auto else str(known), auto, installed)
        if library is not None:  # loaded while the first page renders
            pool.submit(library.preload, langs[0])
        return _LanguagePlan(read, _given(langs), png=png)
    detecting = OSD_LANG in installed
    loaded = _handed_off(pool, library.preload, OSD_LANG) if library and detecting else None

    def guess(image: PageImage) -> Callable[[], Langs]:
        script = _handed_off(pool, _script, image, options, library, loaded) if detecting else None
        return lambda: retry_languages(
            _guessed_language(image, script, options, installed, pool, library), True, installed
        )

    def adopt(reading: OcrReading, guessed: Langs) -> Langs:
        if reading.lang == guessed[0] or reading.confidence < options.settings.retry_below:
            return guessed  # the guess stood, or the page says nothing either way
        return retry_languages(reading.lang, True, installed)

    return _LanguagePlan(read, guess, adopt, png=png)


def _guessed_language(
    image: PageImage,
    script: Future[str | None] | None,
    options: OcrOptions,
    installed: frozenset[str],
    pool: ThreadPoolExecutor,
    library: TesseractLibrary | None,
) -> str:
    """The candidate language for the script Tesseract's script detection finds on the page
    (`script`, None: no osd data); when it finds none it knows, the candidate Tesseract
    reads the page with most confidently at detect_dpi (the first candidate for a page
    without words)."""
    if script is not None:
        lang = SCRIPT_LANGUAGES.get(script.result() or "")
        if lang in installed:
            return str(lang)
    sample = image.sample(options.settings.detect_dpi)
    candidates = [lang for lang in AUTO_LANGUAGES if lang in installed]
    runs = [pool.submit(_words, sample, lang, options, AUTO_PSM, library) for lang in candidates]
    scores = [_score(run) for run in runs]
    best = max(range(len(candidates)), key=lambda i: (scores[i], -i))
    return candidates[best]


def _script(
    image: PageImage,
    options: OcrOptions,
    library: TesseractLibrary | None,
    loaded: Future[None] | None,
    begun: threading.Event,
) -> str | None:
    """The script Tesseract's script detection names on the page at detect_dpi (None: none
    it can tell); `loaded`: the osd engine being loaded (waited for, not loaded twice);
    `begun` set as Tesseract starts (see _handed_off)."""
    sample = image.sample(options.settings.detect_dpi)
    chars = options.settings.detect_chars
    if loaded is not None:
        loaded.exception()  # (a failed load fails the detection below too: no answer)
    if library is None:  # the program is stopped at the file's deadline, as a reading is
        timeout_s = options.page_timeout_s
        if options.deadline > 0:
            timeout_s = min(timeout_s, options.deadline - _clock())
        begun.set()
        if timeout_s <= 0:
            return None
        return tesseract_script(options.tesseract_cmd, sample.png(), timeout_s, chars)
    try:
        return library.script(sample.gray, sample.dpi, chars, begun)
    except OcrFailed:  # no osd data the library can load: no answer
        return None
    finally:
        begun.set()


# MuPDF keeps Python's lock while it renders a page (0.05-0.15 s), so a thread of the pool
# that has not yet entered Tesseract (which lets go of it) waits for the rendering to end:
# work meant to run beside a rendering is awaited until it is inside Tesseract (about a
# millisecond; at most this long). Measured on chinese_scan: the osd engine's load, handed
# over while page 1 rendered, took 0.110 s instead of 0.038 (2026-12-04).
HANDOFF_WAIT_S = 1.0


def _submit_page(
    pool: ThreadPoolExecutor,
    timed: Callable[..., OcrReading],
    busy: Callable[[], bool],
    number: int,
    image: PageImage,
    langs: Langs,
) -> Future[OcrReading]:
    """The page's reading, begun before the next rendering when an engine is free to begin
    it: while every engine is `busy` reading, it waits in the queue however long the
    renderer waits (up to HANDOFF_WAIT_S), so it does not."""
    return _handed_off(pool, timed, number, image, langs, wait=not busy())


def _all_reading(pages: list[_Page], engines: int) -> bool:
    """Whether as many of `pages` as there are engines are still being read (or queued)."""
    return sum(not page.future.done() for page in pages) >= engines


def _handed_off(
    pool: ThreadPoolExecutor, work: Callable[..., _T], *args: object, wait: bool = True
) -> Future[_T]:
    """work(*args, begun) run in the pool, returned once it set `begun` (inside Tesseract),
    ended, or HANDOFF_WAIT_S passed (at once without `wait`)."""
    begun = threading.Event()
    future = pool.submit(work, *args, begun)
    if wait:
        future.add_done_callback(lambda _: begun.set())
        begun.wait(HANDOFF_WAIT_S)
    return future


def _score(run: Future[tuple[OcrWord, ...]]) -> float:
    try:
        return page_confidence(run.result())
    except OcrFailed:  # this language's data is broken: it cannot win
        return -1.0
