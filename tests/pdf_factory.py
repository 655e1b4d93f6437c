"""Write small PDFs for tests and samples with PyMuPDF: items in, a deterministic PDF file out.

Items are drawn in the order given, so a test can draw columns, headers and footers in a
scrambled order and check that the converter restores reading order.

Fonts:
- Latin text uses PyMuPDF's built-in fonts through a TextWriter, embedded and subset, so any
  Unicode the font has (ligatures such as "ﬁ", dashes, curly quotes) round-trips through
  `page.get_text()`. Names: "helv" (bold "hebo", italic "heit", bold italic "hebi"),
  "cour" for monospace (bold "cobo"), "tiro" for a serif.
- CJK text uses the embedded Droid Sans Fallback (`pymupdf.Font("cjk")`), inserted as a Type0
  font; the non-embedded built-ins "japan"/"korea" extract some glyphs wrongly. A bold CJK copy
  is the same font renamed "…-Bold" with the ForceBold flag (PyMuPDF then reports the bold flag),
  and a vertical copy uses the Identity-V encoding, so `get_text("dict")` reports lines with
  wmode 1 and dir (0, 1) (縦書き), one glyph per line as MuPDF extracts vertical text.

Coordinates are PDF points, origin top-left; `Text.y` is the baseline (the top of the first
glyph for vertical text).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pymupdf

# A4 portrait in points.
A4_WIDTH = 595.0
A4_HEIGHT = 842.0
# Line pitch as a multiple of the font size: ordinary single-spaced body text.
LEADING = 1.4
# Fixed dates so that regenerating a PDF from the same script gives the same bytes.
FIXED_PDF_DATE = "D:20240101000000Z"
# The PDF flag bit that forces bold rendering (PDF 1.7, table 123, bit 19).
FORCE_BOLD_FLAG = 1 << 18
# CJK code point ranges: CJK radicals..CJK unified ideographs, Hangul syllables,
# compatibility ideographs, half/full-width forms.
CJK_RANGES = ((0x2E80, 0x9FFF), (0xAC00, 0xD7AF), (0xF900, 0xFAFF), (0xFF00, 0xFFEF))


@dataclass(frozen=True)
class Text:
    """One line of text at baseline (x, y). `cjk=None` picks the CJK font when the text needs it."""

    x: float
    y: float
    text: str
    size: float = 11.0
    bold: bool = False
    italic: bool = False
    mono: bool = False
    # Latin: a PyMuPDF built-in font name; overrides bold/italic/mono. CJK: a face name the
    # CJK font is given (another face than the unnamed one, as Gothic is beside Mincho).
    font: str | None = None
    cjk: bool | None = None
    vertical: bool = False  # CJK only: glyphs advance downward (縦書き)
    color: tuple[float, float, float] = (0.0, 0.0, 0.0)
    rotate: int = 0  # Latin only: 90 reads bottom to top (a margin stamp), as insert_text rotates


@dataclass(frozen=True)
class Rule:
    """A drawn straight line (a table rule, an underline, a separator)."""

    x0: float
    y0: float
    x1: float
    y1: float
    width: float = 0.5


@dataclass(frozen=True)
class Rect:
    """A drawn box outline, optionally filled (a gray value 0..1)."""

    x0: float
    y0: float
    x1: float
    y1: float
    width: float = 0.5
    fill_gray: float | None = None


@dataclass(frozen=True)
class Image:
    """An embedded raster image; with `text` it looks like a scan of those lines, else noise."""

    x0: float
    y0: float
    x1: float
    y1: float
    text: str = ""
    seed: int = 0


@dataclass(frozen=True)
class TextRow:
    """Pieces of Latin text on one baseline drawn as one text object: MuPDF then continues
    one line across small gaps between them (columns set row by row, as registers are)."""

    y: float
    pieces: tuple[tuple[float, str], ...]  # (x, text)
    size: float = 11.0


@dataclass(frozen=True)
class RtlText:
    """One right-to-left line (Arabic, Hebrew) ending at `right` on baseline `y`.

    `runs` is the line in reading (logical) order, cut into runs of one direction:
    (text, True) for right-to-left text, (text, False) for digits and Latin words, which read
    left to right inside it. The factory lays the runs out as a renderer does (runs placed from
    the right, brackets of RTL runs mirrored) and draws each glyph by itself at its place, in
    the order `drawn`: "visual" (left to right, as shaping engines and word processors write
    PDFs) or "logical" (reading order, jumping left at each left-to-right run). Arabic and
    Hebrew come from MuPDF's built-in Noto fonts, so no system font is needed.
    """

    right: float
    y: float
    runs: tuple[tuple[str, bool], ...]
    size: float = 12.0
    drawn: str = "visual"
    justify: float = 0.0  # > 0: spaces widened so that the line is this wide (justified text)


Item = Text | Rule | Rect | Image | TextRow | RtlText
OutlineItem = tuple[int, str, int]  # (level, title, 1-based page), as doc.set_toc takes it


def is_cjk(text: str) -> bool:
    """True when any character of `text` lies in a CJK range (so it needs the CJK font)."""
    return any(lo <= ord(ch) <= hi for ch in text for lo, hi in CJK_RANGES)


def latin_font_name(item: Text) -> str:
    """The PyMuPDF built-in font name a Latin Text item is drawn with."""
    if item.font:
        return item.font
    if item.mono:
        return "cobo" if item.bold else "cour"
    return {(False, False): "helv", (True, False): "hebo", (False, True): "heit"}.get(
        (item.bold, item.italic), "hebi"
    )


def make_pdf(
    path: Path,
    pages: Sequence[Sequence[Item]],
    *,
    page_size: tuple[float, float] = (A4_WIDTH, A4_HEIGHT),
    outline: Sequence[OutlineItem] = (),
    encrypt_password: str | None = None,
    title: str = "",
) -> Path:
    """Write `pages` (each a sequence of items, drawn in order) to `path` and return it.

    `page_size` is (width, height) in points. Without a password the bytes depend only on the
    arguments (fixed dates, no random ID); AES encryption salts with random bytes.
    """
    width, height = page_size
    doc = pymupdf.open()
    fonts = _FontCache()
    for items in pages:
        page = doc.new_page(width=width, height=height)
        _draw_items(page, items, fonts)
    fonts.finish(doc)
    doc.subset_fonts()
    if outline:
        doc.set_toc([list(entry) for entry in outline])
    doc.set_metadata(
        {
            "title": title,
            "producer": "chunkcli tests/pdf_factory.py",
            "creator": "",
            "creationDate": FIXED_PDF_DATE,
            "modDate": FIXED_PDF_DATE,
        }
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    if encrypt_password is None:
        doc.save(str(path), garbage=3, deflate=True, no_new_id=True)
    else:
        doc.save(
            str(path),
            garbage=3,
            deflate=True,
            encryption=pymupdf.PDF_ENCRYPT_AES_256,
            user_pw=encrypt_password,
            owner_pw=encrypt_password + "-owner",
        )
    doc.close()
    return path


class _FontCache:
    """The CJK font variants inserted so far: (bold, vertical, face) -> font xref.

    Each variant is the same font file with a different number of trailing zero bytes, so that
    PyMuPDF (which deduplicates fonts by content) gives every variant its own PDF object; the
    bold, vertical and face tweaks are applied to those objects in `finish`.
    """

    def __init__(self) -> None:
        self.xrefs: dict[tuple[bool, bool, str], int] = {}
        self.faces: list[str] = [""]

    def resource_name(self, page: pymupdf.Page, bold: bool, vertical: bool, face: str = "") -> str:
        variant = (bold, vertical, face)
        if face not in self.faces:
            self.faces.append(face)
        index = self.faces.index(face)
        name = (
            "cjk" + ("b" if bold else "") + ("v" if vertical else "") + (f"f{index}" * bool(face))
        )
        padding = b"\0" * (4 * (int(bold) + 2 * int(vertical) + 4 * index))
        xref = page.insert_font(fontname=name, fontbuffer=_cjk_font_file() + padding)
        self.xrefs[variant] = xref
        return name

    def finish(self, doc: pymupdf.Document) -> None:
        for (bold, vertical, face), xref in sorted(self.xrefs.items()):
            if face:
                _rename(doc, xref, f"/{face}")
            if bold:
                _rename_bold(doc, xref)
            if vertical:
                doc.xref_set_key(xref, "Encoding", "/Identity-V")


@functools.cache
def _cjk_font_file() -> bytes:
    # Loaded on first CJK use only: the file is several MB and most test PDFs are Latin.
    return bytes(pymupdf.Font("cjk").buffer)


def _rename(doc: pymupdf.Document, xref: int, name: str) -> int:
    """Give a Type0 font and its descendant another name; returns the descriptor's xref."""
    doc.xref_set_key(xref, "BaseFont", name)
    descendant = int(doc.xref_get_key(xref, "DescendantFonts")[1].strip("[]").split()[0])
    doc.xref_set_key(descendant, "BaseFont", name)
    descriptor = int(doc.xref_get_key(descendant, "FontDescriptor")[1].split()[0])
    doc.xref_set_key(descriptor, "FontName", name)
    return descriptor


def _rename_bold(doc: pymupdf.Document, xref: int) -> None:
    """Mark a Type0 font bold the way real bold fonts are marked: name and ForceBold flag."""
    descriptor = _rename(doc, xref, "/DroidSansFallback-Bold")
    flags = int(doc.xref_get_key(descriptor, "Flags")[1])
    doc.xref_set_key(descriptor, "Flags", str(flags | FORCE_BOLD_FLAG))
    doc.xref_set_key(descriptor, "FontWeight", "700")


def _draw_items(page: pymupdf.Page, items: Sequence[Item], fonts: _FontCache) -> None:
    for item in items:
        if isinstance(item, Text):
            _draw_text(page, item, fonts)
        elif isinstance(item, TextRow):
            writer = pymupdf.TextWriter(page.rect)
            for x, text in item.pieces:
                writer.append((x, item.y), text, font=_latin_font("helv"), fontsize=item.size)
            writer.write_text(page)
        elif isinstance(item, RtlText):
            _draw_rtl(page, item)
        elif isinstance(item, Rule):
            page.draw_line((item.x0, item.y0), (item.x1, item.y1), width=item.width)
        elif isinstance(item, Rect):
            fill = None if item.fill_gray is None else (item.fill_gray,) * 3
            page.draw_rect((item.x0, item.y0, item.x1, item.y1), width=item.width, fill=fill)
        else:
            page.insert_image((item.x0, item.y0, item.x1, item.y1), pixmap=_raster(item))


def _draw_text(page: pymupdf.Page, item: Text, fonts: _FontCache) -> None:
    cjk = is_cjk(item.text) if item.cjk is None else item.cjk
    if cjk or item.vertical:
        name = fonts.resource_name(page, item.bold, item.vertical, item.font or "")
        page.insert_text(
            (item.x, item.y), item.text, fontname=name, fontsize=item.size, color=item.color
        )
        return
    if item.rotate:
        page.insert_text(
            (item.x, item.y),
            item.text,
            fontname="helv",
            fontsize=item.size,
            rotate=item.rotate,
            color=item.color,
        )
        return
    writer = pymupdf.TextWriter(page.rect)
    writer.append(
        (item.x, item.y), item.text, font=_latin_font(latin_font_name(item)), fontsize=item.size
    )
    writer.write_text(page, color=item.color)


# MuPDF's built-in Noto fonts by UCDN script number (fz_lookup_noto_font): 5 Hebrew, 6 Arabic.
NOTO_HEBREW_SCRIPT = 5
NOTO_ARABIC_SCRIPT = 6
_MIRRORED = dict(zip("()[]«»", ")(][»«", strict=True))


@functools.cache
def _script_font(script: int) -> pymupdf.Font:
    return pymupdf.Font(script=script)


def _glyph_font(char: str) -> pymupdf.Font:
    if "\u0590" <= char <= "\u05ff":
        return _script_font(NOTO_HEBREW_SCRIPT)
    if "\u0600" <= char <= "\u06ff":
        return _script_font(NOTO_ARABIC_SCRIPT)
    return _latin_font("helv")


def rtl_glyphs(item: RtlText) -> list[tuple[float, str]]:
    """(x, char) of every glyph of `item`, in reading order."""
    glyphs: list[tuple[float, str]] = []
    right = item.right
    spaces = sum(text.count(" ") for text, _ in item.runs)
    natural = rtl_width(item.runs, item.size)
    extra = (item.justify - natural) / spaces if item.justify > natural and spaces else 0.0
    for text, rtl in item.runs:
        widths = [
            _glyph_font(c).text_length(c, fontsize=item.size) + (extra if c == " " else 0)
            for c in text
        ]
        if rtl:
            x = right
            for char, width in zip(text, widths, strict=True):
                x -= width
                glyphs.append((x, _MIRRORED.get(char, char)))
        else:
            x = right - sum(widths)
            for char, width in zip(text, widths, strict=True):
                glyphs.append((x, char))
                x += width
        right -= sum(widths)
    return glyphs


def rtl_width(runs: Sequence[tuple[str, bool]], size: float) -> float:
    return sum(_glyph_font(c).text_length(c, fontsize=size) for text, _ in runs for c in text)


def _draw_rtl(page: pymupdf.Page, item: RtlText) -> None:
    glyphs = rtl_glyphs(item)
    if item.drawn == "visual":
        glyphs.sort()
    writer = pymupdf.TextWriter(page.rect)
    for x, char in glyphs:
        writer.append((x, item.y), char, font=_glyph_font(char), fontsize=item.size)
    writer.write_text(page)


_LATIN_FONTS: dict[str, pymupdf.Font] = {}


def _latin_font(name: str) -> pymupdf.Font:
    # Font objects are immutable once loaded; caching them only saves load time.
    if name not in _LATIN_FONTS:
        _LATIN_FONTS[name] = pymupdf.Font(name)
    return _LATIN_FONTS[name]


# Resolution of generated "scans": low enough to keep sample files small.
SCAN_DPI = 100


def _raster(item: Image) -> pymupdf.Pixmap:
    """A grayscale pixmap the size of the image box: rendered text (a fake scan) or noise."""
    width_pt, height_pt = item.x1 - item.x0, item.y1 - item.y0
    if item.text:
        scratch = pymupdf.open()
        page = scratch.new_page(width=width_pt, height=height_pt)
        for index, line in enumerate(item.text.splitlines()):
            page.insert_text((12, 24 + index * 16), line, fontname="helv", fontsize=12)
        return page.get_pixmap(dpi=SCAN_DPI, colorspace=pymupdf.csGRAY)
    columns = max(1, round(width_pt * SCAN_DPI / 72))
    rows = max(1, round(height_pt * SCAN_DPI / 72))
    noise = random.Random(item.seed).randbytes(columns * rows)
    return pymupdf.Pixmap(pymupdf.csGRAY, columns, rows, noise, False)


def text_width(text: str, size: float, *, bold: bool = False, cjk: bool = False) -> float:
    """The advance width of `text` in points in the font make_pdf would draw it with."""
    font = pymupdf.Font("cjk") if cjk else _latin_font("hebo" if bold else "helv")
    return float(font.text_length(text, fontsize=size))


# Characters that Japanese typesetting (kinsoku shori) keeps off the start of a line.
NO_LINE_START = frozenset("、。，．・：；？！）」』】〕ーぁぃぅぇぉっゃゅょァィゥェォッャュョ")


def wrap_text(text: str, width: float, size: float, *, cjk: bool = False) -> list[str]:
    """Break `text` into lines no wider than `width`: at spaces for Latin, anywhere for CJK.

    CJK closing punctuation and small kana never start a line (they overhang instead).
    """
    units = list(text) if cjk else text.split()
    joiner = "" if cjk else " "
    lines: list[str] = []
    current = ""
    for unit in units:
        candidate = current + joiner + unit if current else unit
        # Kinsoku: closing punctuation may hang past the margin rather than start a line.
        hangs = cjk and unit in NO_LINE_START
        if current and not hangs and text_width(candidate, size, cjk=cjk) > width:
            lines.append(current)
            current = unit
        else:
            current = candidate
    if current:
        lines.append(current)
    return lines


def text_lines(
    x: float, y: float, lines: Sequence[str], size: float = 11.0, *, bold: bool = False
) -> list[Item]:
    """One Text per given line, baselines `LEADING * size` apart, starting at baseline y."""
    pitch = size * LEADING
    return [Text(x, y + i * pitch, line, size=size, bold=bold) for i, line in enumerate(lines)]


def wrapped_paragraph(
    x: float, y: float, width: float, text: str, size: float = 11.0, cjk: bool = False
) -> list[Item]:
    """`text` wrapped to `width` as Text lines (inspect their `.text` to see where lines break)."""
    return text_lines(x, y, wrap_text(text, width, size, cjk=cjk), size)


def vertical_column(x: float, y: float, text: str, size: float = 11.0) -> Text:
    """One column of vertical CJK text (縦書き) whose first glyph's top is at (x, y)."""
    return Text(x, y, text, size=size, cjk=True, vertical=True)


def _cell_items(x: float, top: float, text: str, size: float) -> list[Item]:
    # Cell text starts one size below the top rule plus a small inset; "\n" breaks lines.
    inset = 3.0
    return [
        Text(x + inset, top + inset + size + i * size * LEADING, line, size=size)
        for i, line in enumerate(text.split("\n"))
    ]


def grid_table(
    x: float,
    y: float,
    col_widths: Sequence[float],
    row_height: float | Sequence[float],
    rows: Sequence[Sequence[str]],
    size: float = 10.0,
) -> list[Item]:
    """A fully ruled table with its top-left corner at (x, y); a "\\n" in a cell breaks its line.

    `row_height` is one height for every row or one per row (give a taller row to a wrapped cell).
    """
    heights = [row_height] * len(rows) if isinstance(row_height, int | float) else list(row_height)
    total_width = sum(col_widths)
    items: list[Item] = []
    top = y
    for row, height in zip(rows, heights, strict=True):
        items.append(Rule(x, top, x + total_width, top))
        left = x
        for cell, col_width in zip(row, col_widths, strict=True):
            items.extend(_cell_items(left, top, cell, size))
            left += col_width
        top += height
    items.append(Rule(x, top, x + total_width, top))
    left = x
    for col_width in [0.0, *col_widths]:
        left += col_width
        items.append(Rule(left, y, left, top))
    return items


def remap_cjk_unicode(path: Path, remap: dict[str, str]) -> Path:
    """Rewrite the CJK font's ToUnicode map in place so that the glyph of each key character
    extracts as its value: a font whose map names "用" U+2F64 (the Kangxi radical) draws the
    ideograph but hands a reader the look-alike, as many real Japanese PDFs do. The entries
    are appended after the font's ranges; MuPDF lets a later mapping win."""
    font = pymupdf.Font("cjk")
    entries = "".join(f"<{font.has_glyph(ord(k)):04x}> <{ord(v):04x}>\n" for k, v in remap.items())
    doc = pymupdf.open(str(path))
    for xref in range(1, doc.xref_length()):
        stream = doc.xref_stream(xref) if doc.xref_is_stream(xref) else None
        if stream and b"/CMapName /Adobe-Identity-UCS" in stream:
            extra = f"{len(remap)} beginbfchar\n{entries}endbfchar\n".encode()
            doc.update_stream(xref, stream.replace(b"endcmap", extra + b"endcmap"))
    doc.save(str(path), incremental=True, encryption=pymupdf.PDF_ENCRYPT_KEEP)
    doc.close()
    return path
