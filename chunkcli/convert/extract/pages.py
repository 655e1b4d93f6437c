"""An open PDF -> pages of positioned text (the only module that reads page text).

Each page becomes a `Page` whose blocks are raw PARAGRAPH blocks, one per visual line
(layout groups them into paragraphs), plus TABLE blocks from `chunkcli.convert.tables`, and a
status (text, blank, image only, garbage). Nothing here decides reading order, headings or
furniture: that is `chunkcli.convert.layout`.
"""

# pymupdf's methods carry no annotations, so strict mypy would flag every call into it.
# mypy: disallow-untyped-calls=False

from __future__ import annotations

import dataclasses
import functools
import math
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pymupdf

from chunkcli.charclasses import (
    IDEOGRAPH_VARIANT,
    LATIN1_LETTER,
    count_unusable,
    fold_ideograph_variants,
    unusable_share,
)
from chunkcli.convert.drawings import PageDrawings
from chunkcli.convert.extract.bidi import (
    RTL_CHAR,
    has_rtl,
    is_rtl_text,
    logical_line,
    visual_rawdict,
)
from chunkcli.convert.extract.figures import with_figures
from chunkcli.convert.extract.gutters import cut_at_gutters, gutter_positions
from chunkcli.convert.extract.hidden import remove_hidden_text
from chunkcli.convert.extract.ruby import without_ruby
from chunkcli.convert.extract.scanned_figures import with_scanned_figures
from chunkcli.convert.extract.symbols import (
    dingbat_text,
    has_private_use,
    is_dingbat_font,
    without_private_use,
)
from chunkcli.convert.extract.table_pictures import with_scanned_tables, with_table_pictures
from chunkcli.convert.extract.vector_figures import vector_figures
from chunkcli.convert.extract.vertical import rebuild_vertical_lines
from chunkcli.convert.extract.wordgaps import (
    HANGUL,
    lacks_word_spaces,
    page_text,
    with_gap_spaces,
)
from chunkcli.convert.ocr import OcrMode
from chunkcli.convert.ocr.options import ScanFigureSettings
from chunkcli.convert.ocr.pictures import PicturePages
from chunkcli.convert.ocr.read import DocumentEngines, PagesDone, ocr_pages
from chunkcli.convert.options import ConvertOptions
from chunkcli.convert.source import MUPDF_ERRORS
from chunkcli.convert.tables import detect_tables
from chunkcli.model import (
    BBox,
    Block,
    BlockKind,
    Document,
    HiddenText,
    Line,
    OcrInfo,
    OutlineEntry,
    Page,
    PageStatus,
    Span,
    pages_text,
)

if TYPE_CHECKING:
    from chunkcli.convert.ocr.read import OcrRun

# Whitespace kept, ligatures expanded by MuPDF (no TEXT_PRESERVE_LIGATURES), no image payloads,
# unknown glyphs as U+FFFD (not raw CIDs) so garbage text layers can be recognised.
DICT_FLAGS = pymupdf.TEXT_PRESERVE_WHITESPACE | pymupdf.TEXT_MEDIABOX_CLIP

# Why a page that needed OCR was not read: a time limit (--timeout, or OCR's own budget) would
# have run out first.
OCR_SKIPPED_TIME = "time limit"

# Span flag bits as MuPDF reports them.
FLAG_ITALIC = 2
FLAG_MONOSPACE = 8
FLAG_BOLD = 16
# TeX's bold faces say so only in their short names: Computer Modern and EC bold extended
# (CMBX12, SFBX1200), URW's Times bold (NimbusRomNo9L-Medi).
BOLD_FONT_NAME = re.compile(
    r"bold|black|heavy|semibold|demi|W[6-9]\b|-B\b|,Bold|(?:^|\+)(?:CMBX|CMB\d|SFBX|SFB\d)|-Medi\b",
    re.IGNORECASE,
)
ITALIC_FONT_NAME = re.compile(r"italic|oblique", re.IGNORECASE)
MONO_FONT_NAME = re.compile(r"mono|courier|consol|menlo|code", re.IGNORECASE)

# A gap wider than this many font sizes between two spans of one MuPDF line means two
# different lines that happen to share a baseline (neighbouring columns, table cells).
SPAN_SPLIT_GAP_EM = 1.2

# A selection of fewer pages than this is read with neighbouring pages up to this count, so
# that running headers repeat often enough to be recognised (see layout.furniture).
CONTEXT_PAGES = 6
# A drop cap is one capital letter spanning two or more lines of the text beside it: its
# font size is at least this many times theirs.
DROP_CAP_RATIO = 2.0

LIGATURES = str.maketrans(
    {
        "\ufb00": "ff",
        "\ufb01": "fi",
        "\ufb02": "fl",
        "\ufb03": "ffi",
        "\ufb04": "ffl",
        "\ufb05": "st",
        "\ufb06": "st",
        "\u00ad": "",
    }
)
# The characters LIGATURES maps: searching for them costs a fraction of translate on non-ASCII
# spans (0.2 vs 1.0 us on the 7-character spans of a Korean file).
LIGATURE_CHARS = re.compile("[" + "".join(map(chr, LIGATURES)) + "]")
# A ligature or an ideograph variant, in one character class: a page's text is searched once.
FOLDED_CHARS = re.compile(LIGATURE_CHARS.pattern[:-1] + IDEOGRAPH_VARIANT.pattern[1:])
# What a page's text must hold for any of `lacks_word_spaces` (Hangul), `has_rtl` (RTL_CHAR)
# and `needs_folding` to say yes: without one of them, one search answers no to all three.
PAGE_TESTS_CHARS = re.compile(
    FOLDED_CHARS.pattern[:-1] + RTL_CHAR.pattern[1:-1] + HANGUL.pattern[1:]
)

# Share of unusable glyphs (charclasses.unusable_share: NUL, U+FFFD, private use, control,
# (cid:N)) above which a page's text layer is garbage and the page is treated as image only:
# real text has none; a broken Type3/CID font gives nearly all. check warns from a lower share
# (its --garbage-share, 0.1): a page can be degraded without being unusable.
GARBAGE_SHARE = 0.3
# Mojibake: more than this share of the letters are Latin-1 accented letters (French or
# German text has well under a tenth), counted once there are this many of them.
MOJIBAKE_SHARE = 0.25
MIN_MOJIBAKE_LETTERS = 20
# Pages with fewer drawing commands than this and no image count as blank, not as a picture.
MIN_DRAWINGS_FOR_FIGURE = 5
# Geometry enters here and is made finite here, so that no later stage rounds, sorts or
# compares an infinity or a NaN (a font size of 99999999999999999999 in one Tf reached
# layout.headings as inf and failed the whole file). PDF pages are at most 14,400 units a
# side (ISO 32000 Annex C); a coordinate or a font size beyond this bound is clamped to it,
# so every real page's geometry passes untouched.
MAX_GEOMETRY_PT = 1_000_000.0
# A MuPDF warning logged while a page is read that means some of its content was not
# interpreted: a syntax, format, limit or library error (stack overflow on deep nesting, a
# broken image, a bad array), an object it cannot load, a truncated stream. The corpus (53
# files, first 40 pages each) logs none of these on any page; its other warnings (ActualText
# without position, identity-encoded fonts, invalid link destinations, stream Length
# incorrect) lose nothing. A content stream declared as an image ("/DCTDecode", "/JBIG2Decode")
# logs "Can't open image only stream for non-image purposes": every word of the page is lost;
# a stream cut short logs "premature end of data".
DAMAGE_WARNING_RE = re.compile(
    r"\berror\b|\bcannot\b|\bcan't\b|overflow|truncated|premature end", re.IGNORECASE
)


def extract_document(
    source: Path | str,
    doc: pymupdf.Document,
    options: ConvertOptions = ConvertOptions(),
    on_ocr_pages: PagesDone | None = None,
) -> Document:
    """Read the pages `options` select of an open PDF into a Document of raw blocks; with
    `options.ocr`, pages without a usable text layer (or every page, OcrMode.FORCE) are read by
    OCR (`on_ocr_pages` hears how many of them are done, for progress; then the text pages
    whose pictures OCR reads, see PicturePages). Hidden text is removed
    unless `options.keep_hidden_text` (see extract/hidden.py)."""
    pages, find_tables, ocr = options.pages, options.tables, options.ocr
    keep_hidden = options.keep_hidden_text
    selected = None if pages is None else frozenset(pages)  # "2-" selects up to 100,000 pages
    numbers = [n for n in range(1, doc.page_count + 1) if selected is None or n in selected]
    extracted = tuple(_extract_page_safely(doc, n, find_tables, keep_hidden) for n in numbers)
    notes: tuple[str, ...] = hidden_text_notes(extracted)
    missing = ""
    wanted = (
        []
        if ocr is None or ocr.mode == OcrMode.NEVER
        else [p.number for p in extracted if needs_ocr(p, ocr.mode)]
    )
    engines = DocumentEngines()  # the scanned pages' and the pictures' (one model a language)
    try:
        if ocr is not None and wanted:
            run = ocr_pages(doc, wanted, ocr, on_ocr_pages, pages_text(extracted), engines)
            extracted = _with_run(doc, extracted, run, find_tables, ocr.settings.figures)
            notes, missing = notes + run.notes, run.missing
        # Text pages whose pictures OCR reads count as pages read by OCR, after those.
        count = PicturePages(on_ocr_pages, len(wanted), len(wanted), engines)
        if ocr is not None and ocr.mode != OcrMode.NEVER and find_tables:
            extracted = with_table_pictures(doc, extracted, ocr, count)
        keep_empty = options.images is not None  # (an empty figure's block links its picture)
        extracted, figure_notes = with_figures(doc, extracted, ocr, count, keep_empty=keep_empty)
    finally:
        engines.close()
    notes += figure_notes
    context = tuple(
        _extract_page_safely(doc, n, False, keep_hidden)
        for n in context_page_numbers(doc.page_count, numbers)
    )
    return Document(
        source=str(source),
        pages=extracted,
        outline=read_outline(doc),
        metadata_title=fold_ideograph_variants((doc.metadata or {}).get("title", "") or ""),
        page_count=doc.page_count,
        context_pages=context,
        notes=notes,
        ocr_missing=missing,
    )


def hidden_text_notes(pages: tuple[Page, ...]) -> tuple[str, ...]:
    """One line per page whose hidden text was removed (they reach stderr as warnings)."""
    return tuple(
        f"page {page.number}: removed {page.hidden.runs} run(s) of hidden text "
        f"({', '.join(f'{kind} {count}' for kind, count in page.hidden.counts)}): "
        f"{page.hidden.sample!r}"
        for page in pages
        if page.hidden is not None
    )


def needs_ocr(page: Page, mode: OcrMode) -> bool:
    """FORCE: every page that is not blank; AUTO: pages without a usable text layer."""
    if mode == OcrMode.FORCE:
        return page.status != PageStatus.BLANK
    return mode == OcrMode.AUTO and page.status in (PageStatus.IMAGE_ONLY, PageStatus.GARBAGE)


def _with_run(
    doc: pymupdf.Document,
    pages: tuple[Page, ...],
    run: OcrRun,
    find_tables: bool,
    figures: ScanFigureSettings,
) -> tuple[Page, ...]:
    """Pages with OCR's readings in place, those it left unread for time marked so."""
    skipped = frozenset(run.skipped)
    return tuple(
        dataclasses.replace(p, ocr_skipped=OCR_SKIPPED_TIME) if p.number in skipped else p
        for p in _with_readings(doc, pages, run, find_tables, figures)
    )


def _with_readings(
    doc: pymupdf.Document,
    pages: tuple[Page, ...],
    run: OcrRun,
    find_tables: bool,
    figures: ScanFigureSettings,
) -> tuple[Page, ...]:
    """Pages with OCR text in place of their own, their tables and figures found; a page OCR
    found no words on stays as it was."""
    readings = {reading.number: reading for reading in run.readings if reading.lines}
    result = []
    for page in pages:
        reading = readings.get(page.number)
        if reading is None:
            result.append(page)
            continue
        info = OcrInfo(reading.confidence, run.engine, reading.lang)
        pdf_page = doc[page.number - 1]
        text_page = text_page_of(pdf_page, page.number, list(reading.lines), find_tables)
        if find_tables:  # a scan's ruled tables are pixels: read their rules from the page
            text_page = with_scanned_tables(text_page, reading.rules)
        text_page = with_scanned_figures(text_page, reading.ink, info, figures)
        result.append(dataclasses.replace(text_page, ocr=info))
    return tuple(result)


def context_page_numbers(page_count: int, selected: list[int]) -> list[int]:
    """Unselected pages nearest to a small selection: evidence for its running headers."""
    if not selected or len(selected) >= CONTEXT_PAGES:
        return []
    chosen = set(selected)
    others = [n for n in range(1, page_count + 1) if n not in chosen]
    others.sort(key=lambda n: (min(abs(n - s) for s in selected), n))
    return sorted(others[: CONTEXT_PAGES - len(selected)])


def _extract_page_safely(
    doc: pymupdf.Document, number: int, find_tables: bool, keep_hidden: bool = False
) -> Page:
    """One damaged page must not cost the document: it is read as far as MuPDF can, and a
    page MuPDF could not fully interpret (it logged a damage warning, or failed) is DAMAGED.

    MuPDF's warning log is process-wide and reading it empties it (`mupdf_warnings()` resets by
    default): it is emptied before the page and read after it, so the verdict is the page's own
    whatever a worker read before (a file's repair is read off the document instead, see
    `source.damage_notes`). Slicing a log that had been reset by the length read before hid a
    page's damage behind an earlier file's warnings: the output then depended on --jobs."""
    pymupdf.TOOLS.reset_mupdf_warnings()
    try:
        page = extract_page(doc[number - 1], number, find_tables, keep_hidden=keep_hidden)
    except MUPDF_ERRORS:
        return Page(number, 0.0, 0.0, (), PageStatus.DAMAGED)
    if DAMAGE_WARNING_RE.search(pymupdf.TOOLS.mupdf_warnings()):
        return dataclasses.replace(page, status=PageStatus.DAMAGED)
    return page


def extract_page(
    page: pymupdf.Page, number: int, find_tables: bool = True, *, keep_hidden: bool = False
) -> Page:
    """One PDF page -> Page with raw line blocks, table blocks and a status, and the hidden
    text removed from it (unless `keep_hidden`)."""
    # The page's paths, box and rotation, read once for hidden text, tables and figures.
    drawings = PageDrawings(page)
    rect = drawings.rect
    width, height = finite(rect.width), finite(rect.height)
    if width <= 0 or height <= 0:  # /UserUnit 0, a zero MediaBox: nothing can be placed
        return Page(number, width, height, (), PageStatus.DAMAGED)
    lines, hidden = read_lines(page, keep_hidden=keep_hidden, drawings=drawings)
    text_page = _text_page(page, number, lines, find_tables, drawings)
    if hidden is not None:
        return dataclasses.replace(text_page, hidden=hidden)
    return text_page


def _text_page(
    page: pymupdf.Page, number: int, lines: list[Line], find_tables: bool, drawings: PageDrawings
) -> Page:
    """A page of these text-layer lines: blank, garbage or a text page with its tables."""
    rect = drawings.rect
    width, height = finite(rect.width), finite(rect.height)
    if not lines:
        return Page(number, width, height, (), classify_empty_page(page))
    text = "".join(line.text for line in lines)
    if is_garbage_text(text):
        return Page(number, width, height, (), PageStatus.GARBAGE)
    if has_private_use(text):  # real text: an icon glyph among it shows nothing
        lines = without_private_use(lines)
        if not lines:
            return Page(number, width, height, (), classify_empty_page(page))
    return text_page_of(page, number, lines, find_tables, drawings)


def text_page_of(
    page: pymupdf.Page,
    number: int,
    lines: list[Line],
    find_tables: bool,
    drawings: PageDrawings | None = None,
) -> Page:
    """A text page from its Lines (text layer or OCR): raw line blocks plus table blocks
    (`drawings`: the page's paths, box and rotation, when read already)."""
    rect = drawings.rect if drawings is not None else page.rect
    width, height = rect.width, rect.height
    tables: list[Block] = []
    if find_tables:
        tables = detect_tables(page, lines, number, drawings=drawings)
        if tables:  # (most pages have none: no line is asked)
            lines = [line for line in lines if not _inside_any(line, tables)]
    figures: list[Block] = []
    if drawings is not None and drawings.rotation == 0:  # (paths are read unrotated)
        page_box = BBox(rect.x0, rect.y0, rect.x1, rect.y1)
        figures, lines, tables = vector_figures(drawings.paths, lines, tables, page_box, number)
    blocks = [Block(BlockKind.PARAGRAPH, (line,), line.bbox, number) for line in lines]
    return Page(number, width, height, tuple(blocks + tables + figures), PageStatus.TEXT)


def _inside_any(line: Line, tables: list[Block]) -> bool:
    x, y = line.bbox.center_x, line.bbox.center_y
    return any(t.bbox.contains_point(x, y, tolerance=1.0) for t in tables)


def page_lines(page: pymupdf.Page) -> list[Line]:
    """The page's visual text lines, split where one MuPDF line holds far-apart text."""
    return read_lines(page, keep_hidden=True)[0]


def read_lines(
    page: pymupdf.Page, *, keep_hidden: bool = False, drawings: PageDrawings | None = None
) -> tuple[list[Line], HiddenText | None]:
    """The page's visual text lines, and the hidden text removed from them (unless
    `keep_hidden`; `drawings`: the page's paths, shared with other readers of the page)."""
    paths = drawings or PageDrawings(page)
    raw, text, rtl, folds, hidden = _page_text_dict(page, keep_hidden, paths)
    lines, several = _lines_of_dict(raw, folds)
    gutters = gutter_positions([spans for spans, vertical in several if not vertical])
    for spans, vertical in several:
        for part in cut_at_gutters(spans, gutters) if gutters and not vertical else [spans]:
            lines.extend(_split_at_gaps(part, vertical))
    if rtl:
        rtl_page = is_rtl_text(text)
        lines = [logical_line(line, rtl_page) for line in lines]
    return attach_drop_caps(without_ruby(rebuild_vertical_lines(lines))), hidden


def _lines_of_dict(
    raw: dict[str, Any], folds: bool
) -> tuple[list[Line], list[tuple[list[Span], bool]]]:
    """The Lines of the dict's one-span lines, and the spans of its lines of several spans
    (whose gaps are looked at next), with whether each is vertical; lines of spaces only
    are left out. `folds` as for `_span`."""
    lines: list[Line] = []
    several: list[tuple[list[Span], bool]] = []
    styles: dict[_StyleKey, _Style] = {}  # the page's fonts, flags and sizes, each read once
    for block in raw["blocks"]:
        for raw_line in block.get("lines", ()):
            raw_spans = raw_line["spans"]
            dx, dy = raw_line.get("dir", (1.0, 0.0))
            vertical = bool(abs(dy) > abs(dx))  # (written out: this runs for every line)
            if len(raw_spans) == 1:  # most lines: no list of spans is built
                span = _span(raw_spans[0], folds, styles)
                # (str.isspace is what strip() removes: no stripped copy is made)
                if span is not None and not span.text.isspace():
                    lines.append(Line((span,), span.bbox, vertical))
                continue  # an indent space alone is no line
            spans = [s for d in raw_spans if (s := _span(d, folds, styles)) is not None]
            if len(spans) == 1 and spans[0].text.strip():
                lines.append(Line((spans[0],), spans[0].bbox, vertical))
            elif any(s.text.strip() for s in spans):  # an indent space alone is no line
                several.append((spans, vertical))
    return lines, several


def _page_text_dict(
    page: pymupdf.Page, keep_hidden: bool, drawings: PageDrawings
) -> tuple[dict[str, Any], str, bool, bool, HiddenText | None]:
    """PyMuPDF's text dict of the page as the lines are built from it (with character boxes
    where word gaps or right-to-left glyphs need them), its text, whether that text `has_rtl`,
    whether the dict's text `needs_folding`, and the hidden text removed."""
    # One text page feeds both readings: a page read again with character boxes is not
    # interpreted a second time. Its dicts are asked of it directly: `page.get_text` would
    # also read the page's crop box for the dict's "width" and "height", which nothing reads
    # (60 us a page).
    text_page = page.get_textpage(flags=DICT_FLAGS)
    raw, hidden = text_page.extractDICT(), None
    if not keep_hidden:
        raw, hidden = remove_hidden_text(page, raw, drawings=drawings)
    text = page_text(raw)
    if text.isascii() or PAGE_TESTS_CHARS.search(text) is None:
        return raw, text, False, False, hidden  # (most pages: one search answers all three)
    glued, rtl = lacks_word_spaces(text), has_rtl(text)
    if glued or rtl:
        chars = text_page.extractRAWDICT()
        if not keep_hidden:
            chars = remove_hidden_text(page, chars, drawings=drawings)[0]
        # Korean word spaces drawn only as gaps (see extract/wordgaps.py); Arabic, Hebrew:
        # glyphs in visual order, then reordered (see extract/bidi.py).
        raw = with_gap_spaces(chars) if glued else visual_rawdict(chars)
        return raw, text, rtl, needs_folding(page_text(raw)), hidden
    return raw, text, rtl, needs_folding(text), hidden


def attach_drop_caps(lines: list[Line]) -> list[Line]:
    """Join a drop cap (a large initial letter beside the first lines of a paragraph) to
    the line it begins, so that "O" + "ver the past" reads "Over the past"."""
    caps = [line for line in lines if _is_capital_letter(line)]
    if not caps:
        return lines
    result = list(lines)
    for cap in caps:
        beside = [
            i
            for i, line in enumerate(result)
            if 0 <= line.bbox.x0 - cap.bbox.x1 <= cap.bbox.width
            and cap.bbox.top - 1 <= line.bbox.top <= cap.bbox.center_y
            and cap.size >= DROP_CAP_RATIO * line.size
        ]
        if beside:
            first = min(beside, key=lambda i: result[i].bbox.top)
            target = result[first]
            result[first] = Line(cap.spans + target.spans, target.bbox, target.vertical)
            result.remove(cap)
    return result


def _is_capital_letter(line: Line) -> bool:
    text = line.text.strip()
    return len(text) == 1 and text.isalpha() and text.isupper()


def needs_folding(text: str) -> bool:
    """Whether a page's text holds a ligature or an ideograph variant that `_span` replaces:
    one search a page spares two a span on pages of non-Latin text that hold none."""
    if text.isascii():  # every LIGATURES key and ideograph variant is non-ASCII
        return False
    return FOLDED_CHARS.search(text) is not None


# What a span's font name, flags and size say: (dingbat, bold, italic, monospace, size as a
# Span holds it), by (font, flags, size) as MuPDF's dict gives them.
_Style = tuple[bool, bool, bool, bool, float]
_StyleKey = tuple[str, int, float]


def _span(
    raw: dict[str, Any], folds: bool = True, styles: dict[_StyleKey, _Style] | None = None
) -> Span | None:
    """A span of MuPDF's text dict as a Span; `folds` is False on a page where no text needs
    `needs_folding`; `styles` keeps what each font, flags and size said on the page so far."""
    # This runs for every span of every page (400,000 on the corpus): the cheap tests first,
    # one look-up a font, flags and size (a page uses a few: their traits, and the size made
    # finite and rounded, 0.5 us a span, are worked out once), and the box's bounds tested
    # here rather than in a call.
    text = raw["text"]
    # Every LIGATURES key and ideograph variant is non-ASCII, and translate costs ~2 us a span.
    if folds and not text.isascii():
        if LIGATURE_CHARS.search(text):
            text = text.translate(LIGATURES)
        text = fold_ideograph_variants(text)
    if not text:
        return None
    font = raw.get("font", "")
    key = (font, raw.get("flags", 0), raw.get("size", 0.0))
    style = None if styles is None else styles.get(key)
    if style is None:
        style = _style(*key)
        if styles is not None:
            styles[key] = style
    dingbat, bold, italic, monospace, size = style
    if dingbat:  # a Wingdings bullet is the letter "m"
        text = dingbat_text(text, font)
    x0, top, x1, bottom = raw["bbox"]
    limit = MAX_GEOMETRY_PT
    # Nearly every box is in bounds (NaN fails every comparison): skip four finite() calls.
    if (
        type(x0) is type(top) is type(x1) is type(bottom) is float
        and -limit <= x0 <= limit
        and -limit <= top <= limit
        and -limit <= x1 <= limit
        and -limit <= bottom <= limit
    ):
        box = BBox(x0, top, x1, bottom)
    else:
        box = BBox(finite(x0), finite(top), finite(x1), finite(bottom))
    return Span(text, box, font, size, bold, italic, monospace)


def _style(font: str, flags: int, size: float) -> _Style:
    """(dingbat, bold, italic, monospace, size) of a span in `font` with MuPDF's `flags`, at
    `size` (made finite and not negative, rounded to 0.01 pt)."""
    # Nearly every size is a positive float in bounds: finite() and max() change nothing.
    if not (type(size) is float and 0.0 < size <= MAX_GEOMETRY_PT):
        size = max(0.0, finite(size))
    return (*_face(font, flags), round(size, 2))


def _face(font: str, flags: int) -> tuple[bool, bool, bool, bool]:
    """(dingbat, bold, italic, monospace) as a span's font name and flags tell them."""
    dingbat, bold, italic, monospace = _font_traits(font)
    return (
        dingbat,
        bold or bool(flags & FLAG_BOLD),
        italic or bool(flags & FLAG_ITALIC),
        monospace or bool(flags & FLAG_MONOSPACE),
    )


@functools.lru_cache(maxsize=1024)
def _font_traits(font: str) -> tuple[bool, bool, bool, bool]:
    """(dingbat, bold, italic, monospace) as told by a font's name, in one look-up a span."""
    return (is_dingbat_font(font), *font_style(font))


def finite(value: float) -> float:
    """`value` as a float within ±MAX_GEOMETRY_PT; NaN (no position at all) becomes 0."""
    number = float(value)
    if -MAX_GEOMETRY_PT <= number <= MAX_GEOMETRY_PT:  # the common case; NaN fails it
        return number
    if math.isnan(number):
        return 0.0
    return max(-MAX_GEOMETRY_PT, min(MAX_GEOMETRY_PT, number))


@functools.lru_cache(maxsize=1024)
def font_style(font: str) -> tuple[bool, bool, bool]:
    """(bold, italic, monospace) as told by a font's name; documents reuse few fonts."""
    return (
        bool(BOLD_FONT_NAME.search(font)),
        bool(ITALIC_FONT_NAME.search(font)),
        bool(MONO_FONT_NAME.search(font)),
    )


def _split_at_gaps(spans: list[Span], vertical: bool) -> Iterator[Line]:
    """Yield one Line per run of spans without a wide horizontal gap."""
    run: list[Span] = []
    for span in spans:
        if run and not vertical:
            gap = span.bbox.x0 - run[-1].bbox.x1
            if gap > SPAN_SPLIT_GAP_EM * max(span.size, run[-1].size):
                yield _line(run, vertical)
                run = []
        run.append(span)
    if run:
        yield _line(run, vertical)


def _line(spans: list[Span], vertical: bool) -> Line:
    # Drop whitespace-only edge spans: they widen the box without carrying text.
    while len(spans) > 1 and not spans[-1].text.strip():
        spans = spans[:-1]
    while len(spans) > 1 and not spans[0].text.strip():
        spans = spans[1:]
    return Line(tuple(spans), BBox.enclosing([s.bbox for s in spans]), vertical)


def is_garbage_text(text: str) -> bool:
    """True when a text layer is mostly unusable characters (see GARBAGE_SHARE)."""
    if "(cid:" not in text and count_unusable(text) == 0:
        # Nearly every page: no unusable glyph, a share of 0. Whether any character is
        # visible needs no count of the others (count_whitespace reads the text ~25 times).
        return bool(text) and not text.isspace() and _is_mojibake(text)
    share, visible = unusable_share(text)
    return visible > 0 and (share > GARBAGE_SHARE or _is_mojibake(text))


def _is_mojibake(text: str) -> bool:
    """Japanese set in a font with a wrong ToUnicode map reads as Latin-1 letters
    ("èÿ0bo"): real European text has a few accented letters, never a quarter of them."""
    accented = len(LATIN1_LETTER.findall(text))
    if accented < MIN_MOJIBAKE_LETTERS:
        return False
    letters = sum(1 for c in text if c.isalpha())
    return accented > MOJIBAKE_SHARE * letters


def classify_empty_page(page: pymupdf.Page) -> PageStatus:
    """A page without text: a picture (scan, figure) or truly blank."""
    if page.get_image_info():
        return PageStatus.IMAGE_ONLY
    if len(page.get_cdrawings()) >= MIN_DRAWINGS_FOR_FIGURE:
        return PageStatus.IMAGE_ONLY
    return PageStatus.BLANK


def read_outline(doc: pymupdf.Document) -> tuple[OutlineEntry, ...]:
    """The PDF bookmarks as (level, title, page) entries; empty when there are none."""
    try:
        toc = doc.get_toc(simple=True)
    except Exception:  # noqa: BLE001 - a broken outline must not stop conversion
        return ()
    return tuple(
        OutlineEntry(int(level), fold_ideograph_variants(" ".join(str(title).split())), int(page))
        for level, title, page in toc
        if str(title).strip()
    )
