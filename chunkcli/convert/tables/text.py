"""Lines -> positioned text pieces, visual rows, and clean one-line cell strings.

A piece is one span (or one word of a span that had to be cut at a column border). Pieces
are the unit tables are built from, whether the extractor gave whole rows or one Line per number.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from chunkcli.charclasses import is_cjk
from chunkcli.model import BBox, Line, quick_init

# A numbered caption naming a table or figure ("Table 3", "別表第1", "図2"): it ends the table
# above it and names the one below.
CAPTION = re.compile(
    r"^\s*(?:別表|別紙|様式|付表|表|図|table|tab\.|figure|fig\.|annex|exhibit)\s*(?:第)?\s*[\d０-９]",
    re.IGNORECASE,
)

# Two pieces are on the same visual row when their vertical overlap is at least this fraction
# of the shorter one (superscripts and mixed sizes still overlap by more than half).
ROW_OVERLAP_FRACTION = 0.5
# Spans of one line closer than this many font sizes touch: their text runs together.
TOUCH_EM = 0.15
# A currency sign belongs to the number at most this many font sizes to its right (the sign
# is flush left in the cell, the number flush right; 12 em covers wide 9-digit columns).
CURRENCY_REACH_EM = 12.0
CURRENCY = frozenset("$€£¥")
# Signs, brackets and separators that surround or punctuate numbers in tables.
NUMBER_DECORATION = frozenset("$€£¥%()[]+-−–—*†‡,. \u00a0")
# What is left after removing decoration is a number when this share of it is digits.
NUMERIC_DIGIT_SHARE = 0.6
# A cut inside a span leaves each part at least this much of a column's overlap to count.
_WORD = re.compile(r"\S+\s*")  # a word keeps its trailing space for rejoining
_SPACES = re.compile(r"\s+")


@quick_init
@dataclass(frozen=True, slots=True)
class Piece:
    """Text with a box; `line_index` points back to the Line it came from."""

    text: str
    bbox: BBox
    size: float
    bold: bool
    line_index: int


def pieces_of_lines(lines: Sequence[Line]) -> list[Piece]:
    """Every non-blank span of every line, as a Piece (a vertical line is one piece)."""
    pieces: list[Piece] = []
    for index, line in enumerate(lines):
        if line.vertical:
            if line.text.strip():
                pieces.append(Piece(line.text, line.bbox, line.size, line.bold, index))
            continue
        for span in line.spans:
            text = span.text  # (str.isspace is what strip() removes: no stripped copy made)
            if text and not text.isspace():
                pieces.append(Piece(text, span.bbox, span.size, span.bold, index))
    return pieces


def glue_currency(pieces: Sequence[Piece]) -> list[Piece]:
    """Join a lone currency sign to the number right of it ("$" + "178" -> "$ 178").

    Financial tables set the sign flush left and the number flush right in one cell; apart,
    the sign would look like a column of its own.
    """
    result: list[Piece] = []
    signs = [p for p in pieces if p.text.strip() in CURRENCY]
    if not signs:
        return list(pieces)  # (nearly every page)
    taken: set[int] = set()
    for sign in signs:
        target = _number_right_of(sign, pieces)
        if target is not None:
            taken.add(id(sign))
            taken.add(id(target))
            box = sign.bbox.union(target.bbox)
            text = sign.text.strip() + " " + target.text.strip()
            result.append(Piece(text, box, target.size, target.bold, target.line_index))
    result.extend(p for p in pieces if id(p) not in taken)
    return result


def _number_right_of(sign: Piece, pieces: Sequence[Piece]) -> Piece | None:
    candidates = [
        p
        for p in pieces
        if p is not sign
        and 0 <= p.bbox.x0 - sign.bbox.x1 <= CURRENCY_REACH_EM * sign.size
        and same_row(p.bbox, sign.bbox)
    ]
    nearest = min(candidates, key=lambda p: p.bbox.x0, default=None)
    if nearest is None or nearest.text.strip() in CURRENCY or not is_numeric(nearest.text):
        return None
    return nearest


def words_of(piece: Piece) -> list[Piece]:
    """Cut a piece into words (each full-width character is a word of its own: CJK and
    Hangul cells touch without a space), estimating x positions from character widths."""
    text = piece.text
    if not text:
        return []
    weights = [2 if _is_wide(ch) else 1 for ch in text]  # a wide glyph is ~2 narrow ones
    unit = piece.bbox.width / sum(weights)
    offsets = [0]
    for weight in weights:
        offsets.append(offsets[-1] + weight)
    words: list[Piece] = []
    for match in _WORD.finditer(text):
        start = match.start()
        for end in [*(i + 1 for i in range(start, match.end()) if _is_wide(text[i])), match.end()]:
            if end > start:
                visible_end = start + len(text[start:end].rstrip())
                x0 = piece.bbox.x0 + offsets[start] * unit
                x1 = piece.bbox.x0 + offsets[visible_end] * unit
                box = BBox(x0, piece.bbox.top, x1, piece.bbox.bottom)
                words.append(Piece(text[start:end], box, piece.size, piece.bold, piece.line_index))
                start = end
    return words


def _is_wide(char: str) -> bool:
    return unicodedata.east_asian_width(char) in ("W", "F")


def same_row(a: BBox, b: BBox) -> bool:
    shorter = max(min(a.height, b.height), 0.1)
    return a.y_overlap(b) >= ROW_OVERLAP_FRACTION * shorter


def group_rows(pieces: Iterable[Piece]) -> list[list[Piece]]:
    """Pieces clustered into visual rows, top to bottom, each row sorted left to right."""
    rows: list[list[Piece]] = []
    # The open row's vertical extent: same_row and BBox.union written out on two floats, as
    # this runs for every piece of every page (no box is made per piece), and min() and max()
    # as the comparisons they make (`b if b < a else a` is min(a, b), NaN included).
    top = bottom = 0.0
    listed = list(pieces)
    # The order _row_order gives, its keys made in one comprehension (a call a piece cost more)
    keys = [((box.top + box.bottom) / 2, box.x0) for box in [p.bbox for p in listed]]
    for index in sorted(range(len(listed)), key=keys.__getitem__):
        piece = listed[index]
        box = piece.bbox
        piece_top, piece_bottom = box.top, box.bottom
        if rows:
            height, piece_height = bottom - top, piece_bottom - piece_top
            shorter = piece_height if piece_height < height else height
            if 0.1 > shorter:
                shorter = 0.1
            low = piece_top if piece_top > top else top
            high = piece_bottom if piece_bottom < bottom else bottom
            overlap = high - low
            if not overlap > 0.0:  # max(0.0, overlap)
                overlap = 0.0
            if overlap >= ROW_OVERLAP_FRACTION * shorter:
                rows[-1].append(piece)
                if piece_top < top:
                    top = piece_top
                if piece_bottom > bottom:
                    bottom = piece_bottom
                continue
        rows.append([piece])
        top, bottom = piece_top, piece_bottom
    return [sorted(row, key=lambda p: p.bbox.x0) for row in rows]


def _row_order(piece: Piece) -> tuple[float, float]:
    """(centre y, left x): BBox.center_y written out, as this runs for every piece."""
    box = piece.bbox
    return ((box.top + box.bottom) / 2, box.x0)


def cell_text(pieces: Sequence[Piece]) -> str:
    """One clean line: visual lines joined with a space (none between CJK characters)."""
    return join_texts([_row_text(row) for row in group_rows(pieces)])


def _row_text(row: Sequence[Piece]) -> str:
    """Pieces of one visual row: touching spans of one line run together as extracted (their
    own spaces kept), separate pieces are joined by join_text."""
    runs: list[str] = []
    previous: Piece | None = None
    for piece in row:
        touching = (
            previous is not None
            and previous.line_index == piece.line_index
            and piece.bbox.x0 - previous.bbox.x1 < piece.size * TOUCH_EM
        )
        if touching:
            runs[-1] += piece.text
        else:
            runs.append(piece.text)
        previous = piece
    return join_texts(runs)


def join_texts(parts: Iterable[str]) -> str:
    """`functools.reduce(join_text, parts, "")`, each part made clean once: the text joined
    so far is clean already (cleaning it again for every part cost the square of a long
    cell's length)."""
    text = ""
    for part in parts:
        part = _SPACES.sub(" ", part).strip()
        if not part:
            continue
        if not text:
            text = part
        elif is_cjk(text[-1]) and is_cjk(part[0]):
            text += part
        else:
            text += " " + part
    return text


def join_text(left: str, right: str) -> str:
    """Join two fragments with one space, or none when both sides are CJK ideographs/kana."""
    left = _SPACES.sub(" ", left).strip()
    right = _SPACES.sub(" ", right).strip()
    if not left or not right:
        return left or right
    if is_cjk(left[-1]) and is_cjk(right[0]):
        return left + right
    return left + " " + right


def is_numeric(text: str) -> bool:
    """Numbers as tables print them: 1,234.5  (12)  -3%  $ 4.2  2,448 ( 92.6)  [ 6.6]  —."""
    stripped = text.strip()
    if stripped in {"-", "—", "–", "−"}:
        return True  # a dash stands for zero or none
    core = [c for c in stripped if c not in NUMBER_DECORATION]
    digits = sum(c.isdigit() for c in core)
    return digits > 0 and digits >= NUMERIC_DIGIT_SHARE * len(core)
