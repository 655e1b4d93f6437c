"""Right-to-left lines (Arabic, Hebrew): glyphs on the page -> text in reading (logical) order.

A PDF places glyphs; the order it draws them in is the producer's choice. Most producers
(shaping engines, word processors) draw an Arabic line left to right in visual order, others
draw it in logical order, jumping left at each Latin or digit run. MuPDF reverses the RTL runs
of the first kind but leaves the runs in visual order ("الجديد ABC في 2024 مرحبا"), and cuts the
second kind into one line per jump, which layout would then read left to right. Neither is the
text a reader reads, so a page with RTL letters is read again with character boxes:

1. `visual_rawdict`: the glyphs of each baseline are put in visual order (left to right, by
   position; a combining mark right after the letter it sits on), pieces MuPDF cut apart on one
   baseline are joined, and spans are cut where the script's direction or the style changes.
2. `logical_line`: each Line holding RTL letters is reordered with the rules of the Unicode
   bidirectional algorithm (UAX #9: weak types, neutrals, implicit levels, reversal of runs,
   mirrored brackets) applied to its visual sequence, which undoes the visual layout: digits
   and Latin words stay left to right inside the right-to-left line. Presentation forms (the
   shaped glyph codes many PDFs map Arabic to) become the letters a reader types (NFKC).

The paragraph direction of a line with letters of both directions is the page's direction (the
direction of most of its strong letters): "انظر Journal of Statistics" on an Arabic page is an
Arabic sentence citing a journal, a line cannot tell that by itself.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from chunkcli.charclasses import RTL_CLASS, RTL_PRESENTATION_CLASS
from chunkcli.model import Line, Span

RTL_CHAR = re.compile(f"[{RTL_CLASS}]")


def has_rtl(text: str) -> bool:
    """`text` holds a right-to-left letter (RTL_CHAR): never in ASCII text, which is not
    searched (most pages; asked of every page's text)."""
    return not text.isascii() and RTL_CHAR.search(text) is not None


_PRESENTATION = re.compile(f"[{RTL_PRESENTATION_CLASS}]+")
# Pieces of one baseline closer than this many font sizes are one line (MuPDF continues a
# line across gaps of about one font size; a wider gap is a column or a table cell, which
# extract's gap splitting cuts again anyway).
JOIN_GAP_EM = 1.0
# Baselines this close (share of the font size) are the same baseline.
BASELINE_EM = 0.2
# A gap between two joined pieces of at least this many font sizes is a word space, when
# neither piece brings a space character of its own (MuPDF writes a space from about 0.15 em).
SPACE_GAP_EM = 0.15
# A span is cut at a gap of this many font sizes, so extract's gap and gutter tests still
# see columns and cells inside a joined baseline.
SPAN_GAP_EM = 0.5
# A character narrower than this (points) is a further letter of a ligature glyph (MuPDF gives
# those no width), found within this distance of its glyph's right edge.
ZERO_WIDTH_PT = 0.01
LIGATURE_EDGE_PT = 0.5

# Bracket pairs that a right-to-left run draws mirrored (UAX #9 rule L4, BidiMirroring.txt).
_MIRROR = dict(zip("()[]{}<>«»‹›⁅⁆⁽⁾₍₎", ")(][}{><»«›‹⁆⁅⁾⁽₎₍", strict=True))
_STRONG_R = frozenset(("R", "AL"))
_NEUTRAL = frozenset(
    ("B", "S", "WS", "ON", "BN", "LRE", "LRO", "RLE", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI")
)


def is_rtl_text(text: str) -> bool:
    """More strong right-to-left letters than left-to-right ones (a page, a block)."""
    rtl = ltr = 0
    for char in text:
        kind = unicodedata.bidirectional(char)
        if kind in _STRONG_R:
            rtl += 1
        elif kind == "L":
            ltr += 1
    return rtl > ltr


# --- 1. visual order of the glyphs --------------------------------------------------------------


def visual_rawdict(page_rawdict: dict[str, Any]) -> dict[str, Any]:
    """A `get_text("rawdict")` page as a dict-like page (spans with `text`) whose horizontal
    lines hold their glyphs in visual order, pieces of one baseline joined."""
    rows: list[list[dict[str, Any]]] = []  # per joined baseline: its chars with span style
    others: list[dict[str, Any]] = []  # vertical lines, as they are
    for block in page_rawdict["blocks"]:
        for line in block.get("lines", ()):
            if abs(line.get("dir", (1.0, 0.0))[1]) > 1e-3:
                others.append(_as_text_line(line))
                continue
            chars = [dict(c, style=span) for span in line["spans"] for c in span["chars"]]
            if chars:
                _join_row(rows, chars)
    lines = [{"dir": (1.0, 0.0), "spans": _visual_spans(chars)} for chars in rows]
    return {"blocks": [{"lines": lines + others}]}


def _as_text_line(line: dict[str, Any]) -> dict[str, Any]:
    spans = [dict(span, text="".join(c["c"] for c in span["chars"])) for span in line["spans"]]
    return dict(line, spans=spans)


def _size(chars: list[dict[str, Any]]) -> float:
    return max(1.0, float(chars[0]["style"].get("size", 10.0)))


def _join_row(rows: list[list[dict[str, Any]]], chars: list[dict[str, Any]]) -> None:
    """Add one MuPDF line's chars to the row of its baseline beside it, or start a row."""
    size = _size(chars)
    baseline = chars[0]["origin"][1]
    left, right = min(c["bbox"][0] for c in chars), max(c["bbox"][2] for c in chars)
    rtl = any(RTL_CHAR.match(c["c"]) for c in chars)
    for row in rows:
        if abs(row[0]["origin"][1] - baseline) > BASELINE_EM * size:
            continue
        if not (rtl or any(RTL_CHAR.match(c["c"]) for c in row)):
            continue
        row_left, row_right = min(c["bbox"][0] for c in row), max(c["bbox"][2] for c in row)
        gap = max(left - row_right, row_left - right)
        if gap <= JOIN_GAP_EM * size:
            if gap >= SPACE_GAP_EM * size and not _spaced(row, chars, left > row_left):
                chars = [_space(chars, row, left > row_left), *chars]
            row.extend(chars)
            return
    rows.append(chars)


def _spaced(row: list[dict[str, Any]], chars: list[dict[str, Any]], after: bool) -> bool:
    """Whether a space character already sits at the edge where `chars` meet `row`."""
    near = max if after else min
    edge_row = near(row, key=lambda c: c["bbox"][0])
    edge_new = (min if after else max)(chars, key=lambda c: c["bbox"][0])
    return bool(edge_row["c"].isspace() or edge_new["c"].isspace())


def _space(chars: list[dict[str, Any]], row: list[dict[str, Any]], after: bool) -> dict[str, Any]:
    """A space char filling the gap between `row` and `chars` (which lie right of it if `after`)."""
    if after:
        x0, x1 = max(c["bbox"][2] for c in row), min(c["bbox"][0] for c in chars)
    else:
        x0, x1 = max(c["bbox"][2] for c in chars), min(c["bbox"][0] for c in row)
    top, bottom = chars[0]["bbox"][1], chars[0]["bbox"][3]
    return {
        "c": " ",
        "bbox": (x0, top, x1, bottom),
        "origin": (x0, chars[0]["origin"][1]),
        "style": chars[0]["style"],
    }


def _visual_order(chars: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Letters by their left edge; each combining mark right after the letter it sits on, and
    the further letters of a ligature glyph beside its first letter.

    MuPDF spells a ligature glyph (lam-alef ﻻ, ﬁ) as its letters: the first with the glyph's
    box, the others with no width at its right edge. In visual order those come after the first
    letter in a left-to-right script and before it in a right-to-left one, so that reading the
    line back gives "لا", not "ال"."""
    bases, marks, tails = [], [], []
    for char in chars:
        if unicodedata.combining(char["c"]):
            marks.append(char)
        elif char["bbox"][2] - char["bbox"][0] < ZERO_WIDTH_PT and not char["c"].isspace():
            tails.append(char)
        else:
            bases.append(char)
    bases.sort(key=lambda c: c["bbox"][0])  # stable: equal positions keep MuPDF's order
    if not bases:
        return tails + marks
    before: dict[int, list[dict[str, Any]]] = {}
    after: dict[int, list[dict[str, Any]]] = {}
    for tail in tails:
        index = min(range(len(bases)), key=lambda i: abs(bases[i]["bbox"][2] - tail["bbox"][0]))
        if abs(bases[index]["bbox"][2] - tail["bbox"][0]) > LIGATURE_EDGE_PT:
            index = min(range(len(bases)), key=lambda i: _distance(bases[i], tail["bbox"][0]))
        tail = dict(tail, bbox=bases[index]["bbox"])  # it is part of that glyph
        if RTL_CHAR.match(bases[index]["c"]):
            before.setdefault(index, []).insert(0, tail)
        else:
            after.setdefault(index, []).append(tail)
    for mark in marks:
        centre = (mark["bbox"][0] + mark["bbox"][2]) / 2
        index = min(range(len(bases)), key=lambda i: _distance(bases[i], centre))
        after.setdefault(index, []).append(mark)
    return [
        c for i, base in enumerate(bases) for c in (*before.get(i, ()), base, *after.get(i, ()))
    ]


def _distance(char: dict[str, Any], x: float) -> float:
    x0, x1 = char["bbox"][0], char["bbox"][2]
    return 0.0 if x0 <= x <= x1 else min(abs(x - x0), abs(x - x1))


def _visual_spans(chars: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Spans of a row in visual order, cut at a change of style or of script direction and at
    wide gaps; a span's text is its glyphs left to right."""
    spans: list[dict[str, Any]] = []
    previous: dict[str, Any] | None = None
    for char in _visual_order(chars):
        style = char["style"]
        if previous is not None and not _same_span(previous, char, spans[-1]["bbox"][2]):
            previous = None
        if previous is None:
            spans.append(
                {
                    **{k: v for k, v in style.items() if k != "chars"},
                    "text": char["c"],
                    "bbox": tuple(char["bbox"]),
                }
            )
        else:
            last = spans[-1]
            last["text"] += char["c"]
            x0, top, x1, bottom = last["bbox"]
            cx0, ctop, cx1, cbottom = char["bbox"]
            last["bbox"] = (min(x0, cx0), min(top, ctop), max(x1, cx1), max(bottom, cbottom))
        previous = char
    return spans


def _same_span(left: dict[str, Any], right: dict[str, Any], reach: float) -> bool:
    """Whether `right` continues the span that ends with `left` and reaches x = `reach`."""
    a, b = left["style"], right["style"]
    if any(a.get(key) != b.get(key) for key in ("font", "size", "flags")):
        return False
    if unicodedata.combining(right["c"]):
        return True
    if bool(RTL_CHAR.match(left["c"])) != bool(RTL_CHAR.match(right["c"])):
        return False
    gap = float(right["bbox"][0]) - reach
    return gap < SPAN_GAP_EM * max(1.0, float(b.get("size", 10)))


# --- 2. logical order ----------------------------------------------------------------------


def logical_line(line: Line, rtl_page: bool) -> Line:
    """`line` (spans in visual order) with its text in reading order; unchanged without RTL
    letters. `rtl_page` is the direction of a line holding letters of both directions."""
    text = line.text
    if line.vertical or not RTL_CHAR.search(text):
        return line
    owners = [index for index, span in enumerate(line.spans) for _ in span.text]
    order, odd = logical_order(text, rtl_page or not _has_ltr_letter(text))
    spans: list[Span] = []
    pieces: list[str] = []
    owner = -1
    for position in order:
        char = _MIRROR.get(text[position], text[position]) if odd[position] else text[position]
        if owners[position] != owner and pieces:
            spans.append(_respan(line.spans[owner], "".join(pieces)))
            pieces = []
        owner = owners[position]
        pieces.append(char)
    if pieces:
        spans.append(_respan(line.spans[owner], "".join(pieces)))
    return Line(tuple(spans), line.bbox, line.vertical)


def _has_ltr_letter(text: str) -> bool:
    return any(unicodedata.bidirectional(c) == "L" for c in text)


def _respan(source: Span, text: str) -> Span:
    text = _PRESENTATION.sub(lambda m: unicodedata.normalize("NFKC", m.group(0)), text)
    return Span(
        text, source.bbox, source.font, source.size, source.bold, source.italic, source.monospace
    )


def logical_order(visual: str, rtl: bool) -> tuple[list[int], list[bool]]:
    """(indexes of `visual` in reading order, whether each char sits at an odd level) for a
    line whose characters are given left to right, in a paragraph of direction `rtl`."""
    levels = resolved_levels(visual, rtl)
    clusters = _clusters(visual)
    cluster_levels = [levels[start] for start, _ in clusters]
    order = list(range(len(clusters)))
    top = max(cluster_levels, default=0)
    lowest_odd = min((lv for lv in cluster_levels if lv % 2), default=top + 1)
    for level in range(top, lowest_odd - 1, -1):  # rule L2: reverse runs from the top down
        i = 0
        while i < len(order):
            if cluster_levels[order[i]] < level:
                i += 1
                continue
            j = i
            while j < len(order) and cluster_levels[order[j]] >= level:
                j += 1
            order[i:j] = order[i:j][::-1]
            i = j
    indexes = [k for c in order for k in range(clusters[c][0], clusters[c][1])]
    return indexes, [lv % 2 == 1 for lv in levels]


def _clusters(text: str) -> list[tuple[int, int]]:
    """(start, end) of each letter with the combining marks after it: reversed as a unit."""
    clusters: list[tuple[int, int]] = []
    for index, char in enumerate(text):
        if clusters and unicodedata.combining(char):
            clusters[-1] = (clusters[-1][0], index + 1)
        else:
            clusters.append((index, index + 1))
    return clusters


def resolved_levels(text: str, rtl: bool) -> list[int]:
    """Embedding level of each character (UAX #9 rules W1-W7, N1-N2, I1-I2, no explicit
    embeddings), read on the visual sequence."""
    base = 1 if rtl else 0
    types = _weak_types([unicodedata.bidirectional(c) or "L" for c in text], base)
    _resolve_neutrals(types, base)
    levels = []
    for kind in types:
        if base == 0:
            levels.append(1 if kind == "R" else 2 if kind in ("AN", "EN") else 0)
        else:
            levels.append(2 if kind in ("L", "EN", "AN") else 1)
    return levels


def _weak_types(types: list[str], base: int) -> list[str]:
    sos = "R" if base else "L"
    previous = sos
    for i, kind in enumerate(types):  # W1: a mark takes its letter's type
        if kind == "NSM":
            types[i] = previous
        previous = types[i]
    strong = _nearest_strong(types, sos)
    for i, kind in enumerate(types):  # W2: European digits among Arabic letters are Arabic
        if kind == "EN" and strong[i] == "AL":
            types[i] = "AN"
    types[:] = ["R" if kind == "AL" else kind for kind in types]  # W3
    for i in range(1, len(types) - 1):  # W4: one separator inside a number
        left, kind, right = types[i - 1], types[i], types[i + 1]
        if kind in ("ES", "CS") and left == right == "EN":
            types[i] = "EN"
        elif kind == "CS" and left == right == "AN":
            types[i] = "AN"
    _absorb_terminators(types)  # W5
    types[:] = ["ON" if kind in ("ES", "ET", "CS") else kind for kind in types]  # W6
    last = sos
    for i, kind in enumerate(types):  # W7: digits after Latin are Latin
        if kind in ("L", "R"):
            last = kind
        elif kind == "EN" and last == "L":
            types[i] = "L"
    return types


def _nearest_strong(types: list[str], sos: str) -> list[str]:
    """The strong type left of each position (visual order), or, at the start of the line,
    the first one to its right: in visual order "before" is no reliable side."""
    found: list[str] = []
    last = ""
    for kind in types:
        found.append(last)
        if kind in ("L", "R", "AL"):
            last = kind
    following = ""
    for i in range(len(types) - 1, -1, -1):
        if not found[i]:
            found[i] = following or sos
        if types[i] in ("L", "R", "AL"):
            following = types[i]
    return found


def _absorb_terminators(types: list[str]) -> None:
    """W5: a run of terminators (%, $, #) next to European digits takes their type."""
    i = 0
    while i < len(types):
        if types[i] != "ET":
            i += 1
            continue
        j = i
        while j < len(types) and types[j] == "ET":
            j += 1
        if (i > 0 and types[i - 1] == "EN") or (j < len(types) and types[j] == "EN"):
            types[i:j] = ["EN"] * (j - i)
        i = j


def _resolve_neutrals(types: list[str], base: int) -> None:
    """N1/N2: a run of neutrals between two letters of one direction takes that direction
    (digits count as right to left), else the paragraph's."""
    embedding = "R" if base else "L"
    i = 0
    while i < len(types):
        if types[i] not in _NEUTRAL:
            i += 1
            continue
        j = i
        while j < len(types) and types[j] in _NEUTRAL:
            j += 1
        left = _direction(types[i - 1]) if i > 0 else embedding
        right = _direction(types[j]) if j < len(types) else embedding
        types[i:j] = [left if left == right else embedding] * (j - i)
        i = j


def _direction(kind: str) -> str:
    return "L" if kind == "L" else "R"
