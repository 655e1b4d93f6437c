"""OcrOptions: when pages are read by OCR, in which language, at which resolution, by which engine.

The thresholds of the OCR stage live here too, each with the evidence for its value.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class OcrMode(StrEnum):
    AUTO = "auto"  # pages without a usable text layer (image only, garbage)
    NEVER = "never"  # no OCR: such pages are marked as before
    FORCE = "force"  # every page (scans whose hidden OCR layer is bad)


# Tesseract language data the default set-up installs (Debian: tesseract-ocr-jpn, -jpn-vert,
# -kor, -eng), in the order auto-detection tries them.
AUTO_LANGUAGES = ("jpn", "jpn_vert", "kor", "eng")
AUTO = "auto"
DEFAULT_TESSERACT = "tesseract"


class OcrEngine(StrEnum):
    """--ocr-engine (the value is the flag's word and the page marker's `engine=`)."""

    TESSERACT = "tesseract"  # the default: Debian packages
    RAPIDOCR = "rapidocr"  # the `rapidocr` extra, its ONNX models inside its wheel


ENGINES = tuple(OcrEngine)
# What to install when the engine is missing (Debian/Ubuntu; docs/convert.md lists other systems).
INSTALL_HINT = (
    "apt-get install tesseract-ocr tesseract-ocr-jpn tesseract-ocr-jpn-vert "
    "tesseract-ocr-kor tesseract-ocr-eng"
)


@dataclass(frozen=True, slots=True)
class ScanFigureSettings:
    """When non-text ink on a page image is a figure (ocr/figures.py; docs/convert.md, "OCR").
    Measured 2026-12-04 (bench/RESULTS.md, `scanfig`) on DP-Bench's 101 pages read by OCR,
    pages 1-5 of 72 PDFs read by OCR against their text layers' headings, and the 13 corpus
    and retrieval-ja files with scanned pages."""

    # Straight runs of ink this long (points) are no letters (stems stay shorter up to 14 pt
    # type, as lettering_ink finds): a rule or a bar under a word's box stays ink (a chart's
    # axis read as "「 -" had cut it in two, each half too few bars).
    rule_pt: float = 18.0
    # Ink is counted in square cells this many points wide (3 px at GATE_DPI); a cell all
    # filled is ink thicker than strokes (axes, rules, frames: 0.3-1.5 pt).
    cell_pt: float = 2.2
    # Non-text ink this close (points) is one cluster: a chart's bars, its axes and ticks.
    # 16 pt joined more (12 figures against 9 on the scanned files) and cost 2 true headings
    # of 412 (recall 0.493 -> 0.488).
    join_gap_pt: float = 8.0
    # A cell all this much darker than the page's background (its median gray level) is
    # filled: light bars and wedges as well as dark ones.
    fill_contrast: int = 40
    # A filled shape covers at least this many cells (a bar 4 x 4 pt; a bullet is smaller).
    min_shape_cells: int = 4
    # A cluster with this many filled shapes is a figure (bars, wedges, filled boxes): 3 to 5
    # found the same figures on every set; 2 one more (a package drawing in 190619_06).
    min_shapes: int = 3
    # ... or with this share of its cells filled (a photo, a dark picture).
    min_filled_share: float = 0.3
    # A figure holds at least this many OCR lines (a chart's labels). With 1, one-line
    # "figures" took 7 true headings of 412 for 8 false ones (slide titles over a thick
    # underline, headings beside a logo); 3 lost one figure of 9 on the scanned files.
    min_lines: int = 2
    # As for pictures and drawings (extract/figures.py): at least this share of the page and
    # this wide and high (points): a heading's dark band is lower.
    min_share: float = 0.02
    min_side_pt: float = 36.0
    # Words read less confidently than this are not blanked out: Tesseract "reads" bars and
    # plot lines as "|", "I", "ー" at low confidence.
    min_word_confidence: float = 0.5


@dataclass(frozen=True, slots=True)
class OcrSettings:
    """Thresholds of the OCR stage (measured with bench/ocr_bench.py; docs/convert.md, "OCR")."""

    # Auto language detection looks at the first page needing OCR at this resolution (its
    # rendering averaged down): Tesseract's script detection names the script (0.2-1.0 CPU s
    # on the corpus' scans, ja/ko/en/vertical-ja pages named right), and when it cannot, each
    # candidate language reads it and the most confident wins: at 100 dpi the right language
    # led by 55+ points of mean confidence on generated ja/ko/vertical-ja pages (91 vs 30, 93
    # vs 26, 91 vs 30) and English by 7 (eng 95 vs jpn 88); a quarter of the pixels of 200 dpi.
    detect_dpi: int = 100
    # Script detection looks at this many character shapes (up to five times as many; the
    # classifying is most of its time): on 138 pages (the corpus' 23 scanned pages and 23
    # ja/ko/en/zh text pages scanned at five qualities, bench/RESULTS.md 2026-12-04) 20
    # named the language right on 84, wrongly on 21 and no known script on 33 (Tesseract's
    # default, 50: 83, 23 and 32) at 0.26 CPU s a page against 0.44; 10 was wrong more often.
    detect_chars: int = 20
    # A page read below this confidence is read again in the other candidate languages (auto)
    # or writing direction (jpn <-> jpn_vert) and the most confident reading kept: on generated
    # pages the wrong language or direction scored 0.08-0.37, the right one 0.85-0.95 (0.6 on
    # a degraded scan, which must not pay for three more readings), so a
    # mixed document (a Korean page in a Japanese file) still gets each page right.
    retry_below: float = 0.4
    # Words covering less than this share of the page's lettering ink (8-pixel cells, seen at
    # 100 dpi) mean Tesseract's layout analysis dropped text: a dense Hangul page read with
    # psm 3 kept 17 words (0.28 character accuracy) and is read again as one column (psm 4:
    # all of it). Clean text pages of ja/ko/en measured 0.9+.
    min_ink_coverage: float = 0.7
    # Lettering ink: dark pixels in a straight run at least this long across (or down) are a
    # rule, a frame or a filled area, which no reading covers with words, and do not count.
    # On 190619_06's image-only pages (package drawings: frames, rules, gray panels) words
    # covered 0.40-0.68 of all ink on ten pages, each then read again as one column for about
    # the same words (psm 4: 0.90-1.04x psm 3's confident characters), and 0.91-0.97 of the
    # lettering, but for a page of logos with two lines of small print (0.19: psm 4 read 1.9x
    # the characters). The dense Hangul page stays at 0.13-0.64 at every scan quality of
    # bench/ocr_bench.py; its generated ja/ko/en pages changed by under 0.04 but for a
    # two-column Korean page (0.78-0.88 -> 0.94-0.96; 0.46 -> 0.79 at 72 dpi, where psm 4 read
    # fewer characters). The lengths are the table gate's (tables/raster.py): lines of text
    # break every few points, letters' stems stay shorter than 18 pt up to 14 pt type.
    rule_across_pt: float = 36.0
    rule_down_pt: float = 18.0
    # A page with more than this share of dark pixels is a picture (a photo, a texture), not
    # text, and is not OCR'd: text pages measured 0.005-0.08 dark (corpus scans 0.06), and
    # Tesseract spent 49 s on one page of gray noise (0.5 dark). White-on-black scans are
    # skipped too.
    max_dark_share: float = 0.35
    # A page is rendered with at most this many pixels (a poster at 200 dpi would need ~2 GB of
    # Tesseract memory); the dpi is lowered to fit. A4 at 300 dpi is 8.7 M pixels.
    max_pixels: int = 40_000_000
    # A line's size (ocr/lines.py) is its words' median ink band over this share of an em:
    # measured against the text layer's sizes of the same lines, 0.79 in Japanese (p5-p95
    # 0.72-0.85, 1,591 lines of 80 retrieval-ja pages read at 200 dpi) and 0.80 in English
    # (0.70-0.84, 136 lines), 2026-12-04. The band runs from the first to the last
    # `ink_band_tail` of a word's dark pixels; rows dark across more than
    # `ink_band_rule_share` of the box are a rule or a frame through it.
    ink_band_em: float = 0.8
    ink_band_tail: float = 0.02
    ink_band_rule_share: float = 0.6
    # Lines whose band is within this factor of the page's median line are the body size:
    # what is left of OCR's jitter (body lines at 0.94-1.07 of the median band, p10-p90).
    body_size_tolerance: float = 1.1
    # A line without ink in its word boxes is sized from its box: a box is about this many
    # times its font size tall (cap height to descender).
    line_box_em: float = 1.2
    # When non-text ink on a page image is a figure (ocr/figures.py).
    figures: ScanFigureSettings = ScanFigureSettings()


@dataclass(frozen=True, slots=True)
class OcrOptions:
    """How convert reads pages by OCR; the CLI's --ocr* flags map onto these."""

    mode: OcrMode = OcrMode.AUTO
    # A Tesseract language string ("jpn", "kor+eng") or "auto" (see AUTO_LANGUAGES).
    lang: str = AUTO
    # 200 dpi: Japanese at 0.97-0.998 character similarity; see the OCR table in docs/convert.md.
    dpi: int = 200
    engine: OcrEngine = OcrEngine.TESSERACT
    # The Tesseract program: a name on PATH or a path (tests point it at a missing binary).
    # Left at the default, and when that is Tesseract's binary, pages are read by the same
    # Tesseract's library if it loads (ocr/tesslib.py); another program (a wrapper script on
    # PATH too) is run as a program.
    tesseract_cmd: str = DEFAULT_TESSERACT
    # Pages read at once for one document (Tesseract processes or RapidOCR threads, one thread
    # each).
    jobs: int = 1
    # One page's OCR is stopped after this long (a runaway page must not hang the worker).
    page_timeout_s: float = 120.0
    # Seconds the whole document's OCR may take (0 = no limit), for library callers.
    budget_s: float = 0.0
    # time.monotonic() by which the whole conversion must end (0 = none): batch sets it from
    # --timeout. OCR starts no page that would not end by then at the seconds per page it
    # measures, so pages not reached stay marked (ocr skipped: time limit) with a note
    # instead of the whole file failing at --timeout.
    deadline: float = 0.0
    # Seconds each page to read moves `deadline` (batch sets it from --ocr-page-time, as the
    # file's limit grows the same way).
    page_time_s: float = 0.0
    settings: OcrSettings = OcrSettings()
