"""Scanned copies of text PDFs, for OCR tests and bench/ocr_bench.py: every page rendered to a
grayscale image (optionally blurred, noisy, slightly rotated) and embedded as an image-only
page of the same size, so that the original text layer is the ground truth.

Also the measure OCR is judged by: character accuracy (difflib similarity of the texts with
all whitespace removed).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pymupdf

_WHITESPACE = re.compile(r"\s+")
# Markdown syntax that OCR text gains in convert (markers, heading hashes, list bullets).
_MARKDOWN_NOISE = re.compile(r"<!--.*?-->|^#+ |^- |^\d+\. |\\(?=[#>*+-])", re.MULTILINE)


@dataclass(frozen=True)
class ScanQuality:
    """How a page is "scanned": resolution, blur (box-filter passes), noise, skew."""

    name: str
    dpi: int = 200
    blur: int = 0  # passes of a 3x3 box filter
    noise: float = 0.0  # standard deviation of added gray noise, 0-255 scale
    rotate: float = 0.0  # degrees, counter-clockwise
    seed: int = 0


CLEAN = ScanQuality("clean-200")
# Measured on the tests' English and Japanese pages: confidence 0.39 / 0.65 and character
# accuracy 0.49 / 0.65 (clean 200 dpi: 0.96 / 0.88 and 1.0 / 0.97). Noise (sigma 40) made
# Tesseract take minutes a page, so the tests degrade by resolution and blur.
DEGRADED = ScanQuality("blur-72", dpi=72, blur=2, rotate=1.0)


def scan_pdf(source: Path, target: Path, quality: ScanQuality = CLEAN,
             pages: list[int] | None = None) -> Path:  # fmt: skip
    """Write an image-only copy of `source` (all pages, or the given 1-based ones) to `target`."""
    out = pymupdf.open()
    with pymupdf.open(source) as doc:
        for number in pages or range(1, doc.page_count + 1):
            page = doc[number - 1]
            pixmap = scanned_pixmap(page, quality)
            blank = out.new_page(width=page.rect.width, height=page.rect.height)
            blank.insert_image(blank.rect, pixmap=pixmap, keep_proportion=False)
    target.parent.mkdir(parents=True, exist_ok=True)
    out.save(target, garbage=3, deflate=True, no_new_id=True)
    out.close()
    return target


def scanned_pixmap(page: pymupdf.Page, quality: ScanQuality) -> pymupdf.Pixmap:
    """The page as a gray image at quality.dpi with its blur, noise and rotation applied."""
    zoom = quality.dpi / 72.0
    matrix = pymupdf.Matrix(zoom, zoom).prerotate(quality.rotate)
    pixmap = page.get_pixmap(matrix=matrix, colorspace=pymupdf.csGRAY, alpha=False)
    if not quality.blur and not quality.noise:
        return pixmap
    image = np.frombuffer(pixmap.samples, dtype=np.uint8).reshape(pixmap.height, pixmap.stride)
    image = image[:, : pixmap.width].astype(np.float32)
    for _ in range(quality.blur):
        image = _box_blur(image)
    if quality.noise:
        rng = np.random.default_rng(quality.seed)
        image = image + rng.normal(0.0, quality.noise, image.shape)
    data = np.clip(image, 0, 255).astype(np.uint8)
    return pymupdf.Pixmap(pymupdf.csGRAY, pixmap.width, pixmap.height, data.tobytes(), False)


def _box_blur(image: np.ndarray) -> np.ndarray:
    padded = np.pad(image, 1, mode="edge")
    height, width = image.shape
    total = sum(padded[dy : dy + height, dx : dx + width] for dy in range(3) for dx in range(3))
    return np.asarray(total, dtype=np.float32) / 9.0


def page_texts(source: Path) -> list[str]:
    """The text layer of every page: the ground truth of its scanned copy."""
    with pymupdf.open(source) as doc:
        return [page.get_text() for page in doc]


def comparable(text: str) -> str:
    """Text without Markdown syntax and without any whitespace (OCR spacing is not judged)."""
    return _WHITESPACE.sub("", _MARKDOWN_NOISE.sub("", text))


def char_accuracy(expected: str, got: str) -> float:
    """Similarity 0..1 of the two texts' characters (whitespace and Markdown syntax ignored)."""
    a, b = comparable(expected), comparable(got)
    if not a and not b:
        return 1.0
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()
