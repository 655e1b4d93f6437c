"""OCR words (pixel boxes) -> the positioned Lines a text layer gives (PDF points).

Each Tesseract line becomes one Line with one Span per word, so that layout (reading order,
paragraphs, headings by size) and table detection see OCR pages exactly as they see text pages.
Words are joined with a space except between two CJK characters (Japanese has none between
words; Tesseract's word boxes split it anyway). Korean keeps its spaces.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from chunkcli.charclasses import is_cjk
from chunkcli.convert.ocr.options import OcrSettings
from chunkcli.convert.ocr.tesseract import OcrWord
from chunkcli.model import BBox, Line, Span

OCR_FONT = "ocr"
# Sizes are rounded to this step (points): OCR boxes jitter by a pixel or two.
SIZE_STEP_PT = 0.5


def words_to_lines(
    words: Sequence[OcrWord], scale: float, vertical: bool, settings: OcrSettings
) -> list[Line]:
    """One Line per Tesseract line, in Tesseract's order; `scale` is points per pixel."""
    groups: dict[tuple[int, int, int], list[OcrWord]] = {}
    for word in words:
        groups.setdefault(word.line_key, []).append(word)
    boxed = [[(word, _box(word, scale)) for word in group] for group in groups.values()]
    extents = [_extent(_enclosing(group), vertical) for group in boxed]
    if not extents:
        return []
    body = statistics.median(extents)
    lines = []
    for group, extent in zip(boxed, extents, strict=True):
        same = body / settings.body_size_tolerance <= extent <= body * settings.body_size_tolerance
        size = _rounded((body if same else extent) / settings.line_box_em)
        spans = _spans(group, size)
        box = _enclosing(group)
        lines.append(Line(spans, box, vertical=vertical and box.height >= box.width))
    return lines


def _spans(group: list[tuple[OcrWord, BBox]], size: float) -> tuple[Span, ...]:
    spans = []
    for index, (word, box) in enumerate(group):
        text = word.text
        following = group[index + 1][0].text if index + 1 < len(group) else ""
        if following and not (is_cjk(text[-1]) and is_cjk(following[0])):
            text += " "
        spans.append(Span(text, box, font=OCR_FONT, size=size))
    return tuple(spans)


def _box(word: OcrWord, scale: float) -> BBox:
    return BBox(
        word.left * scale,
        word.top * scale,
        (word.left + word.width) * scale,
        (word.top + word.height) * scale,
    )


def _enclosing(group: list[tuple[OcrWord, BBox]]) -> BBox:
    return BBox.enclosing([box for _, box in group])


def _extent(box: BBox, vertical: bool) -> float:
    """The line's height across its writing direction (width for a vertical column)."""
    return box.width if vertical and box.height >= box.width else box.height


def _rounded(size: float) -> float:
    return max(SIZE_STEP_PT, round(size / SIZE_STEP_PT) * SIZE_STEP_PT)
