"""CheckOptions: the thresholds of every check, with defaults tuned on real PDFs."""

from __future__ import annotations

from dataclasses import dataclass

from chunkcli.split.options import SplitMode


@dataclass(frozen=True, slots=True)
class FindingLimits:
    """How many findings of one kind make a warning (or a failure): one of them is often
    innocent, a pattern across the document is not. Each with the evidence for its value."""

    # check_columns: lines of two columns found interleaved, warn from this many pairs in the
    # document, fail from this many. One pair is enough since its gutter must be clear
    # (columns.GUTTER_CLEAR_LINES): 0 pairs on the clean corpus conversions (bench/check_harness.py)
    # while injected interleaving of short paragraph pairs showed one pair at times.
    interleaved_warn: int = 1
    interleaved_fail: int = 10
    # check_reading_order: reported from this many interrupted paragraphs, and at least this
    # share of all paragraphs (one figure placed mid-paragraph is normal) ...
    interrupted_min: int = 3
    interrupted_share: float = 0.05
    # ... and from this many hyphen-broken words (a few compound words end lines legitimately).
    broken_words_min: int = 5
    # check_word_boundaries: this many distinct words kept hyphenated (each judged by wordfreq;
    # one may be the author's spelling, two in a document are a converter's habit). (A glued
    # Hangul run is judged alone: word_boundaries.GLUED_MIN_WORDS.)
    hyphenated_min: int = 2
    # check_headings: a document this long (pages with markers, else chunks) with this many
    # headings all on one level has lost its chapters (a 16-section data sheet is flat by
    # design; a 300-page manual with one level is not) ...
    long_document_pages: int = 20
    long_document_chunks: int = 40
    flat_min_headings: int = 10
    # ... isolated skipped levels are notes, from this many they warn ...
    skipped_level_min: int = 3
    # ... and a running head turned heading repeats on at least this many pages (and on the
    # boilerplate share of them): "Example" on 3 of 600 pages is a real section.
    repeated_heading_min: int = 3
    # check_ocr: a document with at least this share of OCR pages came mostly from OCR.
    mostly_ocr_share: float = 0.5


@dataclass(frozen=True, slots=True)
class CheckOptions:
    """Thresholds for check_markdown and; the CLI's check flags map onto these."""

    # split's default limit: chunks are made (and judged) as `chunkcli split` would make them.
    max_tokens: int = 800
    # Warnings count as failures (CI that wants a clean corpus).
    strict: bool = False
    # A chunk under this many tokens (heading path included) carries too little to retrieve.
    min_chunk_tokens: int = 8
    # Two chunks whose 5-character shingles overlap this much (Jaccard) say the same thing.
    near_duplicate_similarity: float = 0.9
    # A line on at least this share of the text pages (or chunks) is a running header/footer.
    boilerplate_share: float = 0.4
    # ... and on at least this many distinct pages (or chunks): two pages prove nothing.
    boilerplate_min_repeats: int = 3
    # A page whose visible characters are this share NUL/U+FFFD/(cid:N)/private-use is unusable.
    garbage_share: float = 0.1
    # Fewer letters and digits than this per page, on average, is "almost no text".
    min_chars_per_page: int = 40
    # Compare each table with pdfplumber's reading of its page (slow: about 10 pages/s).
    deep: bool = False
    # The split mode the chunks are made (and judged) with: heading, laws, items or auto
    # (split's --mode). With laws (or auto finding mostly articles) the article numbering is
    # checked; with items (or auto finding items) the items' periods and sections' types.
    mode: SplitMode = SplitMode.HEADING
    # An OCR page below this mean word confidence (0..1) is flagged (pages.ocr-low-confidence).
    # Measured with bench/ocr_bench.py (docs/convert.md, "OCR"): see the value's evidence there.
    ocr_min_confidence: float = 0.75
    # How many findings of a kind it takes to warn or fail.
    limits: FindingLimits = FindingLimits()
