"""Text a reader cannot see: found in a page's text dict and removed before lines are built.

Hidden text is how instructions are planted in documents fed to a RAG system ("ignore all
previous instructions ..."): nobody reading the PDF sees them, every chunk built from it
carries them. Three kinds are recognised, each from evidence MuPDF reports for every span:

- invisible: drawn with neither fill nor stroke (text render mode 3) or fully transparent,
  and with nothing painted under it. The invisible text layer of a scanned page lies over the
  page image, and PDF writers that draw a title as glyph outlines (a Korean HWP export in the
  corpus) lay invisible text over the outlines: both are the page's text and stay.
- background: its colour is the colour under it (white on a white page, black on a black
  box): a contrast ratio below MIN_CONTRAST against the topmost fill under its centre, or the
  white page when none.
- tiny: set below MIN_SIZE_PT.
Text outside the page box is already cut by MuPDF (TEXT_MEDIABOX_CLIP).

Not caught yet: text covered by an opaque box painted after it in another colour (the
paint order of text and paths is not compared).
"""

# pymupdf's methods carry no annotations, so strict mypy would flag every call into it.
# mypy: disallow-untyped-calls=False

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from chunkcli.convert.drawings import PageDrawings
from chunkcli.model import HiddenText

if TYPE_CHECKING:
    import pymupdf

# MuPDF's per-character flags (fz_stext_char): the glyph is filled, or stroked, when drawn.
CHAR_FILLED = 16
CHAR_STROKED = 32
# The text and everything else on the page is assumed to be on white paper.
PAGE_COLOUR = (1.0, 1.0, 1.0)
# Paint that makes invisible text the page's own: images and shadings (a scan under its OCR
# layer) and vector paths (glyph outlines under a searchable text layer).
IMAGE_LOG_TYPES = ("fill-image", "fill-imgmask", "fill-shade")
PATH_LOG_TYPES = ("fill-path", "stroke-path")
# A frame is drawn as two nested rectangles, a double frame as four: a path of more is a grid.
RING_MAX_BOXES = 4
# A sample of hidden text in the page note is cut to this many characters.
SAMPLE_CHARS = 60


@dataclass(frozen=True, slots=True)
class HiddenTextSettings:
    """Thresholds of hidden text, with their evidence (scan of the corpus, retrieval-ja and
    DP-Bench PDFs, 2026-12-03: 202,223 text spans)."""

    # Below 1 pt no print is legible; the sets hold 8 spans under 1 pt (zero-width spaces of
    # one maths PDF) and 2 more under 3 pt.
    min_size_pt: float = 1.0
    # WCAG contrast ratio (1 = the same colour, 21 = black on white): below this the text is
    # the colour of what lies under it. Pale-grey watermarks are about 1.3-1.6.
    min_contrast: float = 1.1
    # Only text this close to white (WCAG contrast against white below it: white, yellow,
    # pale grey) has its background read. Reading a page's paint log costs ~5 ms a page
    # (measured on the corpus: 2,285 pages 14.0 -> 25.7 s CPU when every page's was read),
    # and dark text hidden on a dark fill drawn under it is rare: it is not looked for.
    light_text_contrast: float = 3.0
    # Invisible text is drawn by paths that cover at least this share of its box's width
    # (glyph outlines), or by any image or shading under it.
    outline_share: float = 0.5


class HiddenKind(StrEnum):
    INVISIBLE = "invisible"
    BACKGROUND = "background colour"
    TINY = "tiny"


def remove_hidden_text(
    page: pymupdf.Page,
    raw: dict[str, Any],
    settings: HiddenTextSettings = HiddenTextSettings(),
    drawings: PageDrawings | None = None,
) -> tuple[dict[str, Any], HiddenText | None]:
    """`raw` (PyMuPDF's text dict of `page`) without its hidden spans, and what was removed;
    `drawings` are the page's paths when other readers of the page share them."""
    painted = _Painted(page, drawings or PageDrawings(page))
    kinds: Counter[str] = Counter()
    sample = ""
    dark: dict[int, bool] = {}  # is_dark of each colour the page's text uses
    for block in raw.get("blocks", ()):
        for line in block.get("lines", ()):
            if _plainly_visible(line["spans"], settings, dark):
                continue  # nearly every line: no span's text or background is looked at
            kept = []
            for span in line["spans"]:
                text = span.get("text") or "".join(c["c"] for c in span.get("chars", ()))
                shows = any(c.isprintable() and not c.isspace() for c in text)
                kind = hidden_kind(span, painted, settings) if shows else None
                if kind is None:
                    kept.append(span)
                    continue
                kinds[kind] += 1
                sample = sample or " ".join(text.split())[:SAMPLE_CHARS]
            line["spans"] = kept
    if not kinds:
        return raw, None
    return raw, HiddenText(tuple(sorted(kinds.items())), sample)


def hidden_kind(
    span: dict[str, Any], painted: _Painted, settings: HiddenTextSettings
) -> HiddenKind | None:
    """Why a reader cannot see `span`, or None when it is visible."""
    if span["size"] < settings.min_size_pt:
        return HiddenKind.TINY
    bbox = span["bbox"]
    if span.get("alpha", 255) == 0 or not span.get("char_flags", CHAR_FILLED) & (
        CHAR_FILLED | CHAR_STROKED
    ):
        return None if painted.draws(bbox, settings.outline_share) else HiddenKind.INVISIBLE
    if is_dark(span["color"], settings.light_text_contrast):
        return None  # dark text: its background is not read (see light_text_contrast)
    under = painted.fill_under(bbox)
    if under is None or contrast(_rgb(span["color"]), under) >= settings.min_contrast:
        return None
    return HiddenKind.BACKGROUND


def _plainly_visible(
    spans: list[dict[str, Any]], settings: HiddenTextSettings, dark: dict[int, bool]
) -> bool:
    """True when `hidden_kind` finds each of `spans` visible from the span alone: dark,
    filled or stroked, opaque text of a legible size (every span of most pages; one loop a
    line, as this runs for every span). `dark` keeps `is_dark` of the colours seen so far."""
    min_size = settings.min_size_pt
    for span in spans:
        if not (
            span["size"] >= min_size
            and span.get("alpha", 255) != 0
            and span.get("char_flags", CHAR_FILLED) & (CHAR_FILLED | CHAR_STROKED)
        ):
            return False
        colour = span["color"]
        seen = dark.get(colour)
        if seen is None:
            seen = dark[colour] = is_dark(colour, settings.light_text_contrast)
        if not seen:
            return False
    return True


@functools.lru_cache(maxsize=4096)
def is_dark(colour: int, light_text_contrast: float) -> bool:
    """True when text of `colour` (MuPDF's sRGB integer) contrasts with the white page by at
    least `light_text_contrast`; a page uses few colours, so each is computed once."""
    return contrast(_rgb(colour), PAGE_COLOUR) >= light_text_contrast


class _Painted:
    """What is painted on a page besides text, read once and only when a span asks (the
    drawings, the costly part, only when a filled path lies under a span)."""

    def __init__(self, page: pymupdf.Page, drawings: PageDrawings) -> None:
        self.page = page
        self.drawings = drawings
        self._fills: list[tuple[tuple[float, ...], tuple[float, ...] | None]] | None = None

    @property
    def log(self) -> list[tuple[str, tuple[float, float, float, float]]]:
        return self.drawings.paint_log  # get_bboxlog's entries, less its text's

    def draws(self, bbox: tuple[float, float, float, float], share: float) -> bool:
        """An image or shading under `bbox`, or paths inside it covering `share` of its width."""
        x0, y0, x1, y1 = bbox
        covered = 0.0
        for kind, (bx0, by0, bx1, by1) in self.log:
            if bx1 <= x0 or bx0 >= x1 or by1 <= y0 or by0 >= y1:
                continue
            if kind in IMAGE_LOG_TYPES:
                return True
            if kind in PATH_LOG_TYPES and bx0 >= x0 - 1 and bx1 <= x1 + 1:
                covered += bx1 - bx0  # a glyph outline lies within the text's box
        return x1 > x0 and covered >= share * (x1 - x0)

    def fill_under(self, bbox: tuple[float, float, float, float]) -> tuple[float, ...] | None:
        """The colour under `bbox`'s centre: the topmost opaque filled rectangle, the page when
        nothing is filled there, None when an image or a fill of another shape lies there (its
        colour there is unknown: the text counts as seen)."""
        cx, cy = (bbox[0] + bbox[2]) / 2, (bbox[1] + bbox[3]) / 2
        filled = False
        for kind, (x0, y0, x1, y1) in self.log:  # (one pass, _holds written out)
            if x0 <= cx <= x1 and y0 <= cy <= y1:
                if kind in IMAGE_LOG_TYPES:
                    return None
                if kind == "stroke-path":
                    return None  # a thick stroke can be a label's background: its extent is unknown
                if kind == "fill-path":
                    filled = True
        if not filled:
            return PAGE_COLOUR  # the common case: no drawing is read
        for box, colour in reversed(self.fills):  # the topmost first
            if _holds(box, cx, cy):
                return colour  # None: a fill of another shape (a ring, a curve) lies there
        return None

    @property
    def fills(self) -> list[tuple[tuple[float, ...], tuple[float, ...] | None]]:
        """Opaque fills in paint order: a rectangle painted whole with its colour, or the box
        of any other shape with None (what it paints inside its box is not known)."""
        if self._fills is None:
            self._fills = []
            for path in self.drawings.paths:
                opacity = path.get("fill_opacity")
                if path.get("fill") is None or (opacity is not None and opacity < 0.5):
                    continue  # (a fill at opacity 0 is a slide template's placeholder box)
                boxes = solid_boxes(path)
                colour = tuple(path["fill"])
                self._fills += [(box, colour) for box in boxes] or [(tuple(path["rect"]), None)]
        return self._fills


def solid_boxes(path: dict[str, Any]) -> list[tuple[float, ...]]:
    """The rectangles a filled path paints whole; none when it is not made of rectangles
    only, or when one holds another (a ring: the usual frame of a sidebar, outer box minus
    inner box, paints only its edge)."""
    items = path.get("items", ())
    boxes = [_normalized(tuple(item[1])) for item in items if item[0] == "re"]
    if len(boxes) != len(items):
        return []
    if len(boxes) > RING_MAX_BOXES:
        return boxes  # a grid of shaded cells, not a frame (and no quadratic look for rings)
    nested = any(a != b and _inside(a, b) for a in boxes for b in boxes)
    return [] if nested else boxes


def _normalized(box: tuple[float, ...]) -> tuple[float, ...]:
    """A rectangle of MuPDF's path as PyMuPDF's `get_drawings` gives it (Rect.normalize:
    corners swapped when reversed; NaN compares false and stays where it is)."""
    x0, y0, x1, y1 = box[:4]
    if x1 < x0:
        x0, x1 = x1, x0
    if y1 < y0:
        y0, y1 = y1, y0
    return (x0, y0, x1, y1)


def _inside(inner: tuple[float, ...], outer: tuple[float, ...]) -> bool:
    left, top, right, bottom = outer[:4]
    return left <= inner[0] and top <= inner[1] and inner[2] <= right and inner[3] <= bottom


def _holds(box: tuple[float, ...], x: float, y: float) -> bool:
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def _rgb(colour: int) -> tuple[float, float, float]:
    return ((colour >> 16) & 255) / 255, ((colour >> 8) & 255) / 255, (colour & 255) / 255


def contrast(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """WCAG 2 contrast ratio of two sRGB colours (grey levels and CMYK read as grey)."""
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _luminance(colour: tuple[float, ...]) -> float:
    if len(colour) == 1:  # grey
        colour = (colour[0],) * 3
    elif len(colour) == 4:  # CMYK, roughly
        c, m, y, k = colour
        colour = ((1 - c) * (1 - k), (1 - m) * (1 - k), (1 - y) * (1 - k))
    r, g, b = (v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4 for v in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b
