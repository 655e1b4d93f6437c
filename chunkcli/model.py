"""Typed data that flows between the stages: PDF pages -> blocks -> Markdown -> chunks.

Every type is a frozen dataclass; stages return new values instead of mutating.
Coordinates are PDF points with the origin at the page's top-left (as PyMuPDF and
pdfplumber report them).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeVar

T = TypeVar("T")
POINTS_PER_INCH = 72.0  # PDF points (the unit of every coordinate here) in an inch
_LEFT_OUT: Any = object()  # quick_init: a parameter with a default_factory that was not given


def quick_init(cls: type[T]) -> type[T]:
    """`cls`, a frozen slotted dataclass, with an __init__ that fills each slot through its
    own descriptor: same parameters, defaults and __post_init__ call, still frozen.

    The __init__ dataclasses writes for a frozen class calls object.__setattr__ for each
    field, which looks the name up on the class first: a BBox took 1.12 against 0.45 us
    (measured 2026-12-04), and converting the corpus' 2,285 pages makes millions of boxes,
    spans, lines and pieces. Like dataclasses itself, the method is written as source. A
    field with a default_factory gets a fresh value from it when left out, as with dataclasses
    (split makes a Chunk of 22 fields per chunk: 11,601 of them took 0.05 s through
    dataclasses' __init__).
    """
    params: list[str] = []
    body: list[str] = []
    scope: dict[str, Any] = {"_LEFT_OUT": _LEFT_OUT}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        if not f.init:
            continue  # (set by __post_init__)
        scope[f"_set_{f.name}"] = getattr(cls, f.name).__set__
        value = f.name
        if f.default_factory is not dataclasses.MISSING:
            scope[f"_factory_{f.name}"] = f.default_factory
            params.append(f"{f.name}=_LEFT_OUT")
            value = f"_factory_{f.name}() if {f.name} is _LEFT_OUT else {f.name}"
        elif f.default is dataclasses.MISSING:
            params.append(f.name)
        else:
            scope[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        body.append(f"    _set_{f.name}(self, {value})")
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    exec(f"def __init__(self, {', '.join(params)}):\n" + "\n".join(body), scope)
    init: Callable[..., None] = scope["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    setattr(cls, "__init__", init)  # noqa: B010 - mypy refuses assigning a method
    return cls


@quick_init
@dataclass(frozen=True, slots=True)
class BBox:
    """An axis-aligned box in PDF points, origin top-left."""

    x0: float
    top: float
    x1: float
    bottom: float

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.bottom - self.top

    @property
    def center_x(self) -> float:
        return (self.x0 + self.x1) / 2

    @property
    def center_y(self) -> float:
        return (self.top + self.bottom) / 2

    # union and the overlaps run for every pair of lines a stage compares: min() and max() are
    # written as the comparisons they make (`b if b < a else a` is min(a, b), NaN included).

    def union(self, other: BBox) -> BBox:
        x0, top, x1, bottom = self.x0, self.top, self.x1, self.bottom
        return BBox(
            other.x0 if other.x0 < x0 else x0,
            other.top if other.top < top else top,
            other.x1 if other.x1 > x1 else x1,
            other.bottom if other.bottom > bottom else bottom,
        )

    def contains_point(self, x: float, y: float, tolerance: float = 0.0) -> bool:
        return (
            self.x0 - tolerance <= x <= self.x1 + tolerance
            and self.top - tolerance <= y <= self.bottom + tolerance
        )

    def x_overlap(self, other: BBox) -> float:
        high = other.x1 if other.x1 < self.x1 else self.x1
        low = other.x0 if other.x0 > self.x0 else self.x0
        overlap = high - low
        return overlap if overlap > 0.0 else 0.0

    def y_overlap(self, other: BBox) -> float:
        high = other.bottom if other.bottom < self.bottom else self.bottom
        low = other.top if other.top > self.top else self.top
        overlap = high - low
        return overlap if overlap > 0.0 else 0.0

    @staticmethod
    def enclosing(boxes: list[BBox] | tuple[BBox, ...]) -> BBox:
        """The smallest box holding every box given (at least one)."""
        first = boxes[0]
        x0, top, x1, bottom = first.x0, first.top, first.x1, first.bottom
        # One pass, comparisons written out (min() and max() are calls): this runs for every
        # line of every page. Each keeps the earlier value on a tie, as min() and max() do.
        for b in boxes[1:]:
            if b.x0 < x0:
                x0 = b.x0
            if b.top < top:
                top = b.top
            if b.x1 > x1:
                x1 = b.x1
            if b.bottom > bottom:
                bottom = b.bottom
        return BBox(x0, top, x1, bottom)


@quick_init
@dataclass(frozen=True, slots=True)
class Span:
    """A run of text in one font, size and style."""

    text: str
    bbox: BBox
    font: str = ""
    size: float = 10.0
    bold: bool = False
    italic: bool = False
    monospace: bool = False


@quick_init
@dataclass(frozen=True, slots=True)
class Line:
    """One visual line: spans on a common baseline (or one vertical column of glyphs).

    `text`, `size` (the font size carrying most characters) and `bold` (nearly every
    visible character bold) are derived from the spans once, at construction: layout asks often.
    """

    spans: tuple[Span, ...]
    bbox: BBox
    vertical: bool = False
    text: str = field(init=False)
    size: float = field(init=False)
    bold: bool = field(init=False)

    def __post_init__(self) -> None:
        # (the slots' own setters, as quick_init's: object.__setattr__ costs twice as much)
        if len(self.spans) == 1:  # most lines of CJK and vertical pages: skip the tallies
            span = self.spans[0]
            _set_line_text(self, span.text)
            _set_line_size(self, _rounded(span.size))
            _set_line_bold(self, span.bold and bool(span.text.strip()))
            return
        # One pass for the text, whether every span has the first one's size, and the bold
        # share (_dominant_size and _mostly_bold, which each walked the spans again).
        spans = self.spans
        first = spans[0].size if spans else 0.0
        same = True
        bold = total = 0
        texts = []
        for span in spans:
            texts.append(span.text)
            if span.size != first:  # (NaN is never the same size, as in _dominant_size)
                same = False
            count = len(span.text.strip())
            total += count
            if span.bold:
                bold += count
        _set_line_text(self, "".join(texts))
        _set_line_size(self, _rounded(first) if same and spans else _dominant_size(spans))
        _set_line_bold(self, (bold / total if total else 0.0) >= BOLD_LINE_SHARE)


def _rounded(size: float) -> float:
    """`round(size, 1)`, remembered: a document sets its lines in a few sizes, and rounding
    to a digit costs ~0.2 us (three times a look-up here)."""
    if size == 0.0:  # (0.0 and -0.0 are one key to the cache, not to round())
        return round(size, 1)
    return _rounded_remembered(size)


@functools.lru_cache(maxsize=1024, typed=True)  # (typed: an int size stays an int, as round's)
def _rounded_remembered(size: float) -> float:
    return round(size, 1)


_set_line_text = vars(Line)["text"].__set__
_set_line_size = vars(Line)["size"].__set__
_set_line_bold = vars(Line)["bold"].__set__


# A line is bold when at least this share of its visible characters is (a bold line with a
# plain symbol).
BOLD_LINE_SHARE = 0.8


def bold_share(spans: tuple[Span, ...]) -> float:
    """The share of the visible characters of `spans` set in bold (0.0 with none visible)."""
    bold = total = 0
    for span in spans:
        count = len(span.text.strip())
        total += count
        if span.bold:
            bold += count
    return bold / total if total else 0.0


def _dominant_size(spans: tuple[Span, ...]) -> float:
    if spans and all(span.size == spans[0].size for span in spans):
        return round(spans[0].size, 1)  # (one size, as most lines have: nothing to weigh)
    weights: dict[float, int] = {}
    for span in spans:
        key = round(span.size, 1)
        weights[key] = weights.get(key, 0) + len(span.text.strip())
    if not weights:
        return spans[0].size if spans else 0.0
    return max(weights.items(), key=lambda kv: (kv[1], kv[0]))[0]


class BlockKind(StrEnum):
    PARAGRAPH = "paragraph"
    HEADING = "heading"
    LIST_ITEM = "list_item"
    TABLE = "table"
    CODE = "code"
    FIGURE = "figure"  # a picture or drawing with its caption and its own words (`figure`)
    FURNITURE = "furniture"  # running header/footer, page number: dropped from Markdown


@dataclass(frozen=True, slots=True)
class Figure:
    """What a figure block holds besides its box: the caption, the figure's own words (read by
    OCR from a picture's pixels, or a drawing's text-layer labels), and where the picture
    itself lies (the block's box also holds the caption)."""

    region: BBox
    caption: str = ""
    words: str = ""
    ocr: OcrInfo | None = None  # set when the words were read by OCR
    image: str = ""  # the image file's link (convert --images), "" otherwise


@quick_init
@dataclass(frozen=True, slots=True)
class Block:
    """A unit of content on one page, in reading order once `order_blocks` has run."""

    kind: BlockKind
    lines: tuple[Line, ...]
    bbox: BBox
    page: int  # 1-based physical page
    level: int = 0  # heading level (1-6); 0 = not a heading
    cells: tuple[tuple[str, ...], ...] = ()  # tables only: header row first
    column: int = 0  # reading-order column index on the page, set by layout
    header_rows: int = 1  # tables only: rows of `cells` that are header (2: group titles above)
    # The last `carried` lines come from the next page (the end of a sentence a page break cut,
    # layout/breaks.py): their boxes lie on that page, not on `page`.
    carried: int = 0
    figure: Figure | None = None  # figures only: caption, words, where the picture lies

    @property
    def text(self) -> str:
        if len(self.lines) == 1:  # (most blocks before paragraphs are grouped: no join)
            return self.lines[0].text
        return "\n".join([line.text for line in self.lines])

    def with_lines(self, lines: tuple[Line, ...], bbox: BBox) -> Block:
        """This block holding `lines` in `bbox` (cheaper than dataclasses.replace, which
        paragraphs call for every line they gather)."""
        return self._rebuilt(lines, bbox, self.column)

    def with_column(self, column: int) -> Block:
        """This block tagged with a reading-order column (cheaper than dataclasses.replace):
        itself when it has that column already (9 in 10 blocks of the corpus: it is frozen)."""
        if column == self.column:
            return self
        return self._rebuilt(self.lines, self.bbox, column)

    def _rebuilt(self, lines: tuple[Line, ...], bbox: BBox, column: int) -> Block:
        """This block with those three fields replaced: every field by position, in the
        order declared above, written once."""
        return Block(
            self.kind,
            lines,
            bbox,
            self.page,
            self.level,
            self.cells,
            column,
            self.header_rows,
            self.carried,
            self.figure,
        )


class PageStatus(StrEnum):
    TEXT = "text"
    BLANK = "blank"  # no text, no images
    IMAGE_ONLY = "image_only"  # no text layer: a scan or a picture
    GARBAGE = "garbage"  # text layer unusable (NUL, U+FFFD, (cid:N), private-use glyphs)
    OCR = "ocr"  # text read from the page image by an OCR engine
    DAMAGED = "damaged"  # MuPDF could not interpret all of the page: content may be missing


@dataclass(frozen=True, slots=True)
class OcrInfo:
    """How a page's text was read by OCR: mean word confidence (0..1), engine, language."""

    confidence: float
    engine: str
    lang: str


@dataclass(frozen=True, slots=True)
class HiddenText:
    """Text on a page that a reader cannot see, removed from the Markdown (convert's default;
    see convert/extract/hidden.py)."""

    counts: tuple[tuple[str, int], ...]  # (kind, text runs) for each kind found, by kind
    sample: str  # the start of the first run removed

    @property
    def runs(self) -> int:
        return sum(count for _, count in self.counts)


@dataclass(frozen=True, slots=True)
class Page:
    number: int  # 1-based physical page
    width: float
    height: float
    blocks: tuple[Block, ...]
    status: PageStatus = PageStatus.TEXT
    ocr: OcrInfo | None = None  # set when the text came from OCR (status is then TEXT)
    hidden: HiddenText | None = None  # hidden text removed from this page
    # Why OCR did not read this page, which needed it ("time limit"); "" when it did or
    # was not asked to. Such a page has no text: its marker says so and check fails it.
    ocr_skipped: str = ""


def pages_text(pages: Sequence[Page]) -> str:
    """The text of every line on the pages, run together (what tells a document's script)."""
    return "".join(line.text for page in pages for block in page.blocks for line in block.lines)


@dataclass(frozen=True, slots=True)
class OutlineEntry:
    """One PDF bookmark: level 1 is the top of the outline tree."""

    level: int
    title: str
    page: int  # 1-based; 0 when the bookmark points nowhere


@dataclass(frozen=True, slots=True)
class Document:
    source: str
    pages: tuple[Page, ...]
    outline: tuple[OutlineEntry, ...] = ()
    metadata_title: str = ""
    page_count: int = 0  # pages in the file (pages may hold only a selection)
    # Pages outside a selection, read only so that running headers can be recognised.
    context_pages: tuple[Page, ...] = ()
    # One line per problem with this document (an OCR engine error on a page).
    notes: tuple[str, ...] = ()
    # Why pages that needed OCR did not get it (no engine or language data installed): a
    # set-up problem, told once per run rather than once per file.
    ocr_missing: str = ""


@dataclass(frozen=True, slots=True)
class ConvertResult:
    """What `convert_pdf` returns: the ordered document and its Markdown."""

    document: Document
    markdown: str
    warnings: tuple[str, ...] = ()  # lines naming the file: e.g. it was damaged and repaired
    # (name, PNG bytes) of every figure's picture, with --images (ConvertOptions.images)
    images: tuple[tuple[str, bytes], ...] = field(default=(), repr=False)

    @property
    def pages(self) -> tuple[Page, ...]:
        return self.document.pages

    @property
    def ocr_skipped_pages(self) -> tuple[int, ...]:
        """Pages that needed OCR and did not get it because a time limit ran out."""
        return tuple(p.number for p in self.document.pages if p.ocr_skipped)

    def pages_with(self, status: PageStatus) -> tuple[int, ...]:
        return tuple(p.number for p in self.document.pages if p.status == status)

    @property
    def blank_pages(self) -> tuple[int, ...]:
        return self.pages_with(PageStatus.BLANK)

    @property
    def image_only_pages(self) -> tuple[int, ...]:
        return self.pages_with(PageStatus.IMAGE_ONLY)

    @property
    def garbage_pages(self) -> tuple[int, ...]:
        return self.pages_with(PageStatus.GARBAGE)

    @property
    def damaged_pages(self) -> tuple[int, ...]:
        return self.pages_with(PageStatus.DAMAGED)

    @property
    def ocr_pages(self) -> tuple[int, ...]:
        return tuple(p.number for p in self.document.pages if p.ocr is not None)


# --- documents as the input layer hands them to split, check, sync and eval (chunkcli.inputs) ---


@dataclass(frozen=True, slots=True)
class InputDocument:
    """One document as Markdown, with what its chunks should cite."""

    path: str  # the file read ('-' for stdin)
    source: str  # the name chunks cite (see chunkcli.inputs)
    sha256: str  # of the source's bytes
    markdown: str
    converted: ConvertResult | None = field(default=None, compare=False)  # keep_documents only
    doc_id: str = ""  # see chunkcli.inputs
    # A PDF's conversion warnings, each naming the file: repaired damage, pages without
    # usable text, OCR that could not run (what `convert` prints, for split and sync to print).
    warnings: tuple[str, ...] = field(default=(), compare=False)

    @property
    def is_pdf(self) -> bool:
        return self.converted is not None


@dataclass(frozen=True, slots=True)
class InputFailure:
    """An input that could not be read or converted; `error` names the file and the reason."""

    path: str
    error: str


class ChunkKind(StrEnum):
    SECTION = "section"
    TABLE = "table"
    TABLE_PART = "table_part"
    FIGURE = "figure"  # one whole figure block (markdown_format): caption, image link, words
    FIGURE_PART = "figure_part"  # a part of a figure too big for one chunk, cut in its words
    WINDOW = "window"
    # split --mode laws|rows|qa (chunkcli/split/modes.py)
    ARTICLE = "article"
    ARTICLE_PART = "article_part"
    TOC = "toc"
    ROW = "row"
    QA = "qa"
    QA_PART = "qa_part"
    ITEM = "item"  # split --mode items: one résumé entry, log event, catalogue entry
    ITEM_PART = "item_part"


@dataclass(frozen=True, slots=True)
class ItemFields:
    """The typed fields of an item chunk (split --mode items), written flat into its line.

    `period_start`/`period_end` are ISO (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`); a single date is both
    ends; `period_end` None with a start is "up to now"; both None: the item has no period.
    `item_index` counts the document's items from 0; the parts of one item share it."""

    item_type: str  # work | education | certification | skill | event | other
    period_start: str | None
    period_end: str | None
    item_index: int


@dataclass(frozen=True, slots=True)
class PageBox:
    """Where some of a chunk's text lies: a page (1-based) and a box on it, in whole PDF
    points with the origin top-left (x0, y0, x1, y1)."""

    page: int
    bbox: tuple[int, int, int, int]


@quick_init
@dataclass(frozen=True, slots=True)
class Chunk:
    """One retrieval unit. `body == markdown[start:end]`; `text == prefix + body`."""

    id: str
    doc_id: str
    source: str
    source_sha256: str
    title: str
    heading_path: tuple[str, ...]
    kind: ChunkKind
    prefix: str
    body: str
    start: int
    end: int
    page_start: int | None
    page_end: int | None
    tokens: int
    split_config: dict[str, object] = field(default_factory=dict)
    metadata: dict[str, str] = field(default_factory=dict)
    oversize: bool = False
    markdown_sha256: str = ""  # the Markdown that start/end index: the named version of the text
    # The lowest OCR confidence (0..1) of the pages the chunk spans; None: no OCR page.
    ocr_confidence: float | None = None
    item: ItemFields | None = None  # --mode items: the item's typed fields (None elsewhere)
    # One box per page and column run of the lines its body covers (split/boxes.py); empty
    # when the Markdown carries no boxes.
    boxes: tuple[PageBox, ...] = ()
    # The image links of the figure blocks the body holds (or a part of), as written: the
    # files `convert --images` wrote; empty when it holds none with an image.
    images: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        return self.prefix + self.body

    @property
    def doc_revision(self) -> str:
        """The document's revision: the sha256 of its source bytes (the PDF's for a PDF)."""
        return self.source_sha256

    @property
    def content_sha256(self) -> str:
        """sha256 of `text`: equal values mean an embedding of the text can be reused."""
        return hashlib.sha256(self.text.encode("utf-8")).hexdigest()


class Severity(StrEnum):
    OK = "ok"
    WARN = "warn"
    FAIL = "fail"


@dataclass(frozen=True, slots=True)
class Issue:
    """One finding of `check`: a code a program can match and a message a person can read."""

    code: str
    severity: Severity
    message: str
    line: int | None = None  # 1-based line in the Markdown
    page: int | None = None
