"""The OCR note of a page marker: `<!-- page 3: ocr conf=0.91 engine=tesseract lang=jpn -->`.

render writes it, split and check read the confidence back from Markdown alone. Pure text: no
import of the OCR engine or of convert. (The foundation's Markdown-format module will own the
whole marker grammar; this is the OCR part of it.)
"""

from __future__ import annotations

import re

OCR_MARKER = re.compile(
    r"<!--\s*page\s+(\d+):\s*ocr\s+conf=(\d+(?:\.\d+)?)(?:\s+engine=(\S+?))?(?:\s+lang=(\S+?))?"
    r"\s*-->"
)


def ocr_note(confidence: float, engine: str, lang: str) -> str:
    """The marker's note after `page N: ` (confidence with two decimals, 0..1)."""
    return f"ocr conf={confidence:.2f} engine={engine} lang={lang}"


def ocr_confidences(markdown: str) -> dict[int, float]:
    """Page number -> OCR confidence for every page marker with an OCR note."""
    return {int(m.group(1)): float(m.group(2)) for m in OCR_MARKER.finditer(markdown)}
