"""CheckOptions: the thresholds of every check, with defaults tuned on real PDFs."""

from __future__ import annotations

from dataclasses import dataclass


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
    # The split mode the chunks are made (and judged) with: heading, laws or auto (split's
    # --mode). With laws (or auto finding mostly articles) the article numbering is checked.
    mode: str = "heading"
    # An OCR page below this mean word confidence (0..1) is flagged (pages.ocr-low-confidence).
    # Measured with bench/ocr_bench.py (README "OCR"): see the value's evidence there.
    ocr_min_confidence: float = 0.75
