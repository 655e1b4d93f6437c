"""OCR words (pixel boxes) -> the positioned Lines a text layer gives (PDF points).

Each Tesseract line becomes one Line with one Span per word, so that layout (reading order,
paragraphs, headings by size) and table detection see OCR pages exactly as they see text pages.
Words are joined with a space except between two CJK characters (Japanese has none between
words; Tesseract's word boxes split it anyway). Korean keeps its spaces.

A line's font size is measured in the page's pixels, not taken from Tesseract's boxes: a
Japanese word's box is at times a tight glyph box ("ー" 2 px tall) and at times as tall as
its whole text line with the space below (9 pt katakana at 200 dpi: 37 px boxes for 25 px
type; the first word of that line 171 px wide), so box heights put body lines of one size
anywhere from 0.6 to 1.6 times apart. The ink inside each box is not fooled by either: the
band across the writing direction that holds the middle of a word's dark pixels is about
0.8 em in Japanese and in English alike, and a line's size is the median over its words.
"""

from __future__ import annotations

import statistics
import unicodedata
from collections.abc import Sequence
from typing import TYPE_CHECKING

from chunkcli.charclasses import is_cjk
from chunkcli.convert.ocr.options import OcrSettings
from chunkcli.convert.ocr.tesseract import OcrWord
from chunkcli.model import BBox, Line, Span

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

OCR_FONT = "ocr"
# Sizes are rounded to this step (points): OCR boxes jitter by a pixel or two.
SIZE_STEP_PT = 0.5
# Ink: pixels darker than this gray level.
INK_LEVEL = 128


def words_to_lines(
    words: Sequence[OcrWord],
    scale: float,
    vertical: bool,
    settings: OcrSettings,
    gray: npt.NDArray[np.uint8],
) -> list[Line]:
    """One Line per Tesseract line, in Tesseract's order; `scale` is points per pixel and
    `gray` the image the words were read from (their sizes are measured in it)."""
    groups: dict[tuple[int, int, int], list[OcrWord]] = {}
    for word in words:
        groups.setdefault(word.line_key, []).append(word)
    boxed = [[(word, _box(word, scale)) for word in group] for group in groups.values()]
    # A vertical page's lines are columns, but for its horizontal captions and headings.
    columns = [vertical and _is_column(_enclosing(group)) for group in boxed]
    extents = [
        _line_extent(group, column, gray, settings)
        for group, column in zip(groups.values(), columns, strict=True)
    ]
    if not extents:
        return []
    body = statistics.median(extents)
    lines = []
    for group, extent, column in zip(boxed, extents, columns, strict=True):
        same = body / settings.body_size_tolerance <= extent <= body * settings.body_size_tolerance
        size = _rounded((body if same else extent) * scale / settings.ink_band_em)
        lines.append(Line(_spans(group, size), _enclosing(group), vertical=column))
    return lines


def _line_extent(
    group: list[OcrWord], column: bool, gray: npt.NDArray[np.uint8], settings: OcrSettings
) -> float:
    """The line's ink band (pixels, across its writing direction: across a `column`): the
    median over its words, punctuation aside (a "、" or a "・" is far shorter than the type),
    of each word's band; for a line without ink in its boxes (a blank image), its box's
    extent at the box's usual share of the type."""
    lettered = [word for word in group if not _marks_only(word.text)] or group
    bands = [band for word in lettered if (band := _ink_band(word, column, gray, settings))]
    if bands:
        return statistics.median(bands)
    box = BBox.enclosing([_box(word, 1.0) for word in group])
    extent = box.width if column else box.height
    return extent * settings.ink_band_em / settings.line_box_em


def _ink_band(
    word: OcrWord, column: bool, gray: npt.NDArray[np.uint8], settings: OcrSettings
) -> int:
    """Pixels across the writing direction (across a `column`) from where the
    word's box holds the first `ink_band_tail` of its dark pixels to where it holds all but
    that share (0 without ink). Rows across (or down) most of the box are a rule or a frame,
    not lettering."""
    box = gray[word.top : word.top + word.height, word.left : word.left + word.width]
    dark = (box < INK_LEVEL).T if column else box < INK_LEVEL
    if dark.size == 0:
        return 0
    rows = dark.sum(axis=1)
    rows[rows > settings.ink_band_rule_share * dark.shape[1]] = 0
    total = int(rows.sum())
    if total == 0:
        return 0
    cumulative = rows.cumsum()
    tail = total * settings.ink_band_tail
    first = int(cumulative.searchsorted(tail))
    last = int(cumulative.searchsorted(total - tail))
    return last - first + 1


def _marks_only(text: str) -> bool:
    """Punctuation and symbols only ("、", "・"; the long-vowel mark "ー" is a letter)."""
    return all(unicodedata.category(char)[0] in "PS" for char in text)


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


def _is_column(box: BBox) -> bool:
    """Whether a line of a vertical page runs down (a column), not across (a caption)."""
    return box.height >= box.width


def _rounded(size: float) -> float:
    return max(SIZE_STEP_PT, round(size / SIZE_STEP_PT) * SIZE_STEP_PT)
