"""Conversion's hot paths written out for speed give exactly what the plain code gave.

Each rewritten helper is checked against the plain formulation it replaced (kept here as the
reference), on the awkward values too: NaN boxes, boxes upside down, empty texts.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from chunkcli.charclasses import unusable_share
from chunkcli.convert.extract import pages, wordgaps
from chunkcli.convert.extract.hidden import HiddenTextSettings, _plainly_visible, is_dark
from chunkcli.convert.extract.ruby import _may_be_ruby
from chunkcli.convert.extract.vector_figures import _without, near_groups
from chunkcli.convert.extract.vertical import (
    STACK_GAP_EM,
    STACK_OVERLAP,
    STACK_OVERLAP_EM,
    _stack_into_columns,
    _x_bands,
)
from chunkcli.convert.layout.document import is_rtl_page
from chunkcli.convert.layout.furniture import _table_cell
from chunkcli.convert.layout.headings import (
    TEXT_KINDS,
    _outline_keys,
    _page_characters_by_size,
    _SizeTallies,
)
from chunkcli.convert.layout.numbering import PATTERNS, numbering_pattern
from chunkcli.convert.layout.order import _all_vertical, _empty_ranges, _single_row
from chunkcli.convert.layout.paragraphs import (
    BULLET,
    ENUMERATOR,
    SIZE_CHANGE_PT,
    SIZE_CHANGE_SHARE,
    _same_size,
    starts_list_item,
)
from chunkcli.convert.layout.settings import FurnitureSettings, OrderSettings
from chunkcli.convert.tables import rules
from chunkcli.convert.tables.text import (
    ROW_OVERLAP_FRACTION,
    Piece,
    _row_order,
    glue_currency,
    group_rows,
    join_text,
    join_texts,
)
from chunkcli.convert.tables.unruled import _splits, segments
from chunkcli.model import (
    BBox,
    Block,
    BlockKind,
    Line,
    Page,
    Span,
    _dominant_size,
    _rounded,
    bold_share,
)

# --- tables/text.group_rows ------------------------------------------------------------------


def _group_rows_reference(pieces: list[Piece]) -> list[list[Piece]]:
    """group_rows as it was written with min() and max()."""
    rows: list[list[Piece]] = []
    top = bottom = 0.0
    for piece in sorted(pieces, key=_row_order):
        box = piece.bbox
        if rows:
            shorter = max(min(bottom - top, box.bottom - box.top), 0.1)
            overlap = max(0.0, min(bottom, box.bottom) - max(top, box.top))
            if overlap >= ROW_OVERLAP_FRACTION * shorter:
                rows[-1].append(piece)
                top, bottom = min(top, box.top), max(bottom, box.bottom)
                continue
        rows.append([piece])
        top, bottom = box.top, box.bottom
    return [sorted(row, key=lambda p: p.bbox.x0) for row in rows]


_coordinate = st.one_of(
    st.floats(min_value=-5.0, max_value=60.0, allow_nan=False),
    st.sampled_from([math.nan, 0.0, -0.0, 10.0]),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_coordinate, _coordinate, _coordinate, _coordinate), max_size=12))
def test_group_rows_is_the_min_max_formulation(boxes: list[tuple[float, ...]]) -> None:
    pieces = [Piece(str(i), BBox(*box), 10.0, False, i) for i, box in enumerate(boxes)]
    got = group_rows(pieces)
    want = _group_rows_reference(pieces)
    assert [[p.line_index for p in row] for row in got] == [
        [p.line_index for p in row] for row in want
    ]


def test_group_rows_joins_overlapping_pieces_and_keeps_apart_the_rest() -> None:
    def piece(i: int, x0: float, top: float, bottom: float) -> Piece:
        return Piece(str(i), BBox(x0, top, x0 + 5, bottom), 10.0, False, i)

    rows = group_rows([piece(0, 50, 0, 10), piece(1, 10, 4, 12), piece(2, 0, 20, 30)])
    assert [[p.line_index for p in row] for row in rows] == [[1, 0], [2]]


# --- extract/wordgaps: Hangul without a regex call -----------------------------------------


def test_is_syllable_is_what_the_hangul_pattern_matches() -> None:
    for code in (0x0, 0x41, 0xABFF, 0xAC00, 0xAC01, 0xD7A3, 0xD7AF, 0xD7B0, 0x10FFFF):
        char = chr(code)
        assert wordgaps._is_syllable(char) == (wordgaps.HANGUL.match(char) is not None)
    assert wordgaps._is_syllable("가a") and not wordgaps._is_syllable("a가")
    assert not wordgaps._is_syllable("")


def test_gap_spaces_put_a_space_into_a_wide_gap_beside_hangul() -> None:
    def char(c: str, x0: float, x1: float) -> dict[str, Any]:
        return {"c": c, "bbox": (x0, 0.0, x1, 10.0)}

    # gaps of 4, 1, 1, 2, 0 and 6 pt at 10 pt beside Hangul: 4 and 6 are at least GAP_EM
    # (0.25 em) wider than the line's letter gap (its lower median, 1 pt), 2 is not; the
    # 12 pt gap between "a" and "c" has no Hangul beside it
    chars = [
        *(char("대", 0, 10), char("표", 14, 24), char("할", 25, 35), char("수", 36, 46)),
        *(char("있", 48, 58), char("다", 58, 68), char("a", 74, 79), char("c", 91, 96)),
    ]
    page = {"blocks": [{"lines": [{"spans": [{"size": 10.0, "chars": chars, "text": ""}]}]}]}
    spans = wordgaps.with_gap_spaces(page)["blocks"][0]["lines"][0]["spans"]
    assert spans[0]["text"] == "대 표할수있다 ac"


# --- extract/pages._span: one look-up a font and flags --------------------------------------


def _raw_span(font: str, flags: int, text: str = "Total") -> dict[str, Any]:
    return {"text": text, "font": font, "flags": flags, "size": 9.996, "bbox": (1.0, 2.0, 3.0, 4.0)}


def test_span_reads_a_font_flags_and_size_once_a_page() -> None:
    styles: dict[pages._StyleKey, pages._Style] = {}
    first = pages._span(_raw_span("Helvetica", pages.FLAG_BOLD), True, styles)
    again = pages._span(_raw_span("Helvetica", pages.FLAG_BOLD), True, styles)
    italic = pages._span(_raw_span("Times-Italic", 0), True, styles)
    assert first == again == Span("Total", BBox(1.0, 2.0, 3.0, 4.0), "Helvetica", 10.0, True)
    assert italic == Span("Total", BBox(1.0, 2.0, 3.0, 4.0), "Times-Italic", 10.0, italic=True)
    assert styles == {
        ("Helvetica", pages.FLAG_BOLD, 9.996): (False, True, False, False, 10.0),
        ("Times-Italic", 0, 9.996): (False, False, True, False, 10.0),
    }


def test_span_with_and_without_the_page_cache_agree() -> None:
    cases = [
        ("Wingdings", 0, "l", 9.996),
        ("CMBX12", 0, "Bold", 12.0),
        ("Courier", pages.FLAG_ITALIC, "code", -3.0),
        ("Helvetica", pages.FLAG_MONOSPACE | pages.FLAG_BOLD, "x", math.inf),
        ("Helvetica", 0, "y", math.nan),
        ("Helvetica", 0, "z", 10),
        ("Helvetica", 0, "", 10.0),
    ]
    styles: dict[pages._StyleKey, pages._Style] = {}
    for font, flags, text, size in cases:
        raw = {**_raw_span(font, flags, text), "size": size}
        assert pages._span(raw, True, styles) == pages._span(raw, True)
    sizes = [styles[("Courier", pages.FLAG_ITALIC, -3.0)][4], styles[("Helvetica", 0, 10)][4]]
    assert sizes == [0.0, 10.0]
    assert pages._span(_raw_span("Helvetica", 0, ""), True, styles) is None


def test_lone_space_lines_are_no_lines() -> None:
    raw = {
        "blocks": [
            {"lines": [{"spans": [_raw_span("Helvetica", 0, "\u3000 ")], "dir": (1.0, 0.0)}]},
            {"lines": [{"spans": [_raw_span("Helvetica", 0, " a ")], "dir": (0.0, 1.0)}]},
        ]
    }
    lines, several = pages._lines_of_dict(raw, False)
    assert [(line.text, line.vertical) for line in lines] == [(" a ", True)]
    assert several == []


# --- extract/hidden: the colours of a page judged once ---------------------------------------


def test_plainly_visible_judges_each_colour_once() -> None:
    dark: dict[int, bool] = {}
    black = {"size": 10.0, "color": 0x000000}
    pale = {"size": 10.0, "color": 0xEEEEEE}
    settings_ = HiddenTextSettings()
    assert _plainly_visible([black, black], settings_, dark)
    assert not _plainly_visible([black, pale], settings_, dark)
    assert dark == {0x000000: True, 0xEEEEEE: False}
    assert dark[0xEEEEEE] == is_dark(0xEEEEEE, settings_.light_text_contrast)
    assert not _plainly_visible([{**black, "alpha": 0}], settings_, dark)


# --- tables/rules: white looked up a colour at a time ----------------------------------------


def test_is_white_seen_is_is_white() -> None:
    white: dict[tuple[Any, ...], bool] = {}
    for colour in [(1.0, 1.0, 1.0), (0.96,), (0.5, 1.0, 1.0), (), None, [1.0, 1.0], (1.0, "x")]:
        assert rules._is_white_seen(colour, white) == rules._is_white(colour)
    assert white == {
        (1.0, 1.0, 1.0): True,
        (0.96,): True,
        (0.5, 1.0, 1.0): False,
        (): False,
        (1.0, "x"): False,
    }


# --- model and layout ------------------------------------------------------------------------


def test_with_column_is_the_block_itself_when_the_column_stays() -> None:
    line = Line((Span("a", BBox(0, 0, 5, 10)),), BBox(0, 0, 5, 10))
    block = Block(BlockKind.PARAGRAPH, (line,), line.bbox, 1, column=2)
    assert block.with_column(2) is block
    moved = block.with_column(3)
    assert moved.column == 3 and moved.lines == block.lines and moved.page == 1


def test_page_characters_by_size_keeps_the_order_sizes_are_met_in() -> None:
    def block(size: float, text: str, kind: BlockKind = BlockKind.PARAGRAPH) -> Block:
        line = Line((Span(text, BBox(0, 0, 5, 10), size=size),), BBox(0, 0, 5, 10))
        return Block(kind, (line,), line.bbox, 1)

    page = Page(
        1,
        100.0,
        100.0,
        (block(12.2, "ab"), block(9.9, "c"), block(12.0, "de"), block(8, "x", BlockKind.TABLE)),
    )
    weights = _page_characters_by_size(page, (BlockKind.PARAGRAPH,))
    assert weights == Counter({12.0: 4, 10.0: 1})
    assert list(weights) == [12.0, 10.0]
    assert weights.most_common() == [(12.0, 4), (10.0, 1)]


# --- tables/unruled, tables/rules ------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(_coordinate, _coordinate, st.sampled_from([8.0, 10.0, math.nan])), max_size=6
    )
)
def test_splits_is_more_than_one_segment(row: list[tuple[float, float, float]]) -> None:
    pieces = [Piece("x", BBox(x0, 0.0, x1, 10.0), size, False, 0) for x0, x1, size in row]
    assert _splits(pieces) == (len(segments(pieces)) >= 2)


def test_a_rule_inside_the_page_is_kept_as_it_is() -> None:
    page = BBox(0.0, 0.0, 600.0, 800.0)
    inside = rules.Rule(True, 100.0, 50.0, 300.0)
    assert rules._clip(inside, page) is inside
    assert rules._clip(rules.Rule(True, 100.0, -20.0, 300.0), page) == rules.Rule(
        True, 100.0, 0.0, 300.0
    )
    assert rules._clip(rules.Rule(True, 1.0, 50.0, 300.0), page) is None


# --- model.Line: the derived text, size and weight -------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["a", " ", "", "ab c", "\u3000x"]),
            st.sampled_from([9.0, 9.04, 12.0, math.nan]),
            st.booleans(),
        ),
        min_size=2,
        max_size=5,
    )
)
def test_line_of_several_spans_is_joined_weighed_and_tallied(
    spans: list[tuple[str, float, bool]],
) -> None:
    made = tuple(Span(text, BBox(0, 0, 1, 1), size=size, bold=bold) for text, size, bold in spans)
    line = Line(made, BBox(0, 0, 1, 1))
    assert line.text == "".join(s.text for s in made)
    expected = _dominant_size(made)
    assert line.size == expected or (math.isnan(line.size) and math.isnan(expected))
    assert line.bold == (bold_share(made) >= 0.8)


def test_line_size_is_the_size_carrying_most_characters() -> None:
    spans = (
        Span("ab", BBox(0, 0, 1, 1), size=9.0),
        Span("cde", BBox(0, 0, 1, 1), size=12.04, bold=True),
    )
    line = Line(spans, BBox(0, 0, 1, 1))
    assert (line.text, line.size, line.bold) == ("abcde", 12.0, False)


# --- layout/order ----------------------------------------------------------------------------


def _empty_ranges_reference(
    boxes: list[BBox], left: float, right: float, gutter: float
) -> list[tuple[float, float]]:
    edges = [(left - gutter, left), (right, right + gutter)]
    spans = sorted(edges + [(b.x0, b.x1) for b in boxes])
    gaps = []
    reach = spans[0][1]
    for x0, x1 in spans[1:]:
        if x0 - reach >= gutter:
            gaps.append((reach, x0))
        reach = max(reach, x1)
    return gaps


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_coordinate, _coordinate), max_size=8))
def test_empty_ranges_is_the_sorted_sweep(pairs: list[tuple[float, float]]) -> None:
    boxes = [BBox(x0, 0.0, x1, 1.0) for x0, x1 in pairs]
    s = OrderSettings()
    got = [(g.low, g.high) for g in _empty_ranges(boxes, 0.0, 50.0, s)]
    assert got == _empty_ranges_reference(boxes, 0.0, 50.0, s.min_gutter_pt)


def test_a_block_is_a_side_note_when_all_its_lines_are_rotated() -> None:
    def line(vertical: bool) -> Line:
        return Line((Span("a", BBox(0, 0, 1, 1)),), BBox(0, 0, 1, 1), vertical)

    def block(*lines: Line) -> Block:
        return Block(BlockKind.PARAGRAPH, lines, BBox(0, 0, 1, 1), 1)

    assert [
        _all_vertical(b)
        for b in (
            block(line(True)),
            block(line(False)),
            block(line(True), line(True)),
            block(line(True), line(False)),
            block(),
        )
    ] == [True, False, True, False, False]


# --- layout/numbering: one search for any pattern first -------------------------------------


def _numbering_reference(text: str) -> tuple[str, int] | None:
    for pattern, family, rank in PATTERNS:
        if pattern.match(text.strip()):
            return family, rank
    return None


_NUMBERING_TEXTS = [
    "第3章 総則",
    "第十二条の二",
    "제 2 장 총칙",
    "제3조의 2",
    "Part IV Results",
    "CHAPTER 7",
    "ſection 2.1 Scope",
    "§ 4 Terms",
    "Article 15 Remedies",
    "Ⅳ 제안서 작성요령",
    "IV. Results",
    "X. Li, Y. Wang",
    "2.1.3 Title",
    "2.1 Title",
    "2 Title",
    "2. Title",
    "１．概要",
    "1.2.3.4 Deep",
    "(1) Title",
    "（１）概要",
    "1) Title",
    "١ Arabic-Indic digit",
    "  3.1 Indented",
    "Plain prose.",
    "",
    "  ",
    "12 apples",
    "(a) item",
]


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.sampled_from(_NUMBERING_TEXTS),
        st.text(alphabet="第제章条조장 .．()（）12３IVXivxPpartChSs§ſ가あ一,", max_size=12),
    )
)
def test_numbering_pattern_is_the_first_pattern_that_matches(text: str) -> None:
    assert numbering_pattern(text) == _numbering_reference(text)


def test_numbering_pattern_families() -> None:
    assert [
        numbering_pattern(t) for t in ("第3章 総則", "2.1 Title", "Plain prose.", "ſection 2")
    ] == [
        ("cjk", 1),
        ("num", 1),
        None,
        ("en", 2),
    ]


# --- tables/text: cell text joined once ------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(alphabet=" \u3000\t\nab表1-", max_size=6), max_size=6))
def test_join_texts_is_join_text_folded(parts: list[str]) -> None:
    assert join_texts(parts) == functools.reduce(join_text, parts, "")


def test_join_texts_puts_no_space_between_ideographs() -> None:
    assert join_texts(["売上", " 高 ", "", "total  sales", "\u3000"]) == "売上高 total sales"


# --- extract/pages: a page's text searched once for what the per-page tests look for -------


def test_one_class_holds_what_the_page_tests_look_for() -> None:
    sample = [chr(code) for code in range(0, 0x30000, 7)]
    sample += ["\ufb01", "\u00ad", "\u2f00", "\ufa10", "\u0627", "\u05d0", "\uac00", "\ud7a3"]
    classes = (pages.FOLDED_CHARS, wordgaps.HANGUL, pages.RTL_CHAR)
    for char in sample:
        expected = any(c.match(char) is not None for c in classes)
        assert (pages.PAGE_TESTS_CHARS.match(char) is not None) == expected, hex(ord(char))
        folds = pages.LIGATURE_CHARS.match(char) or pages.IDEOGRAPH_VARIANT.match(char)
        assert (pages.FOLDED_CHARS.match(char) is not None) == (folds is not None)


def _is_garbage_reference(text: str) -> bool:
    share, visible = unusable_share(text)
    return visible > 0 and (share > pages.GARBAGE_SHARE or pages._is_mojibake(text))


_GARBAGE_PIECES = [*" \t\u3000ab日\x00\ufffd\ue000èÿßé", "(cid:3)"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_GARBAGE_PIECES), max_size=40).map("".join))
def test_is_garbage_text_is_the_share_test(text: str) -> None:
    assert pages.is_garbage_text(text) == _is_garbage_reference(text)


def test_is_garbage_text_on_mojibake_and_blank_text() -> None:
    mojibake = "èÿ0bo wj u ~ þ ßÿ[ß÷] ërÿß _0 0u ÿìÿÿÿj u 1N|_ ~]ß{²Ìvsx|w}zt ÿÿ~Ñï"
    assert [pages.is_garbage_text(t) for t in (mojibake, " \u3000 ", "", "plain")] == [
        True,
        False,
        False,
        False,
    ]


def test_rounded_is_round_to_one_digit_whatever_was_asked_before() -> None:
    for size in (9.96, 0.0, -0.0, -0.04, 10, 10.0, 2.25, 2.35, -0.0, 0.0, 10):
        got, want = _rounded(size), round(size, 1)
        assert (got, type(got), math.copysign(1.0, got)) == (
            want,
            type(want),
            math.copysign(1.0, want),
        )


def test_rule_of_line_is_one_rule_or_none() -> None:
    assert rules._rule_of_line((10.0, 5.0), (40.0, 5.5)) == rules.Rule(True, 5.25, 10.0, 40.0)
    assert rules._rule_of_line((7.0, 90.0), (7.2, 20.0)) == rules.Rule(False, 7.1, 20.0, 90.0)
    assert rules._rule_of_line((0.0, 0.0), (30.0, 30.0)) is None
    assert rules._rule_of_line((0.0, 0.0), (3.0, 0.0)) is None


def test_glue_currency_without_signs_keeps_the_pieces() -> None:
    pieces = [
        Piece("12", BBox(0, 0, 10, 10), 10.0, False, 0),
        Piece("a", BBox(20, 0, 25, 10), 10.0, False, 1),
    ]
    glued = glue_currency(pieces)
    assert glued == pieces and glued is not pieces
    sign = Piece("$", BBox(0, 20, 5, 30), 10.0, False, 2)
    number = Piece("178", BBox(40, 20, 55, 30), 10.0, True, 3)
    assert glue_currency([sign, number]) == [Piece("$ 178", BBox(0, 20, 55, 30), 10.0, True, 3)]


# --- model.BBox: union and overlaps without min() and max() ----------------------------------


@settings(max_examples=300, deadline=None)
@given(
    st.tuples(_coordinate, _coordinate, _coordinate, _coordinate),
    st.tuples(_coordinate, _coordinate, _coordinate, _coordinate),
)
def test_bbox_union_and_overlaps_are_the_min_max_formulations(
    a: tuple[float, ...], b: tuple[float, ...]
) -> None:
    one, other = BBox(*a), BBox(*b)
    union = one.union(other)
    expected = (
        min(one.x0, other.x0),
        min(one.top, other.top),
        max(one.x1, other.x1),
        max(one.bottom, other.bottom),
    )
    assert all(
        x is y for x, y in zip((union.x0, union.top, union.x1, union.bottom), expected, strict=True)
    )
    x_overlap = max(0.0, min(one.x1, other.x1) - max(one.x0, other.x0))
    y_overlap = max(0.0, min(one.bottom, other.bottom) - max(one.top, other.top))
    assert one.x_overlap(other) == x_overlap and one.y_overlap(other) == y_overlap


def test_bbox_overlaps() -> None:
    a, b = BBox(0, 0, 10, 10), BBox(5, 8, 20, 30)
    assert (a.x_overlap(b), a.y_overlap(b), b.y_overlap(a)) == (5, 2, 2)
    assert BBox(0, 0, 1, 1).y_overlap(BBox(0, 5, 1, 6)) == 0.0
    assert a.union(b) == BBox(0, 0, 20, 30)


# --- extract/vertical: glyph columns ---------------------------------------------------------


def _x_bands_reference(glyphs: list[Line]) -> list[list[Line]]:
    ordered = sorted(glyphs, key=lambda g: g.bbox.center_x)
    bands: list[list[Line]] = [[ordered[0]]]
    for glyph in ordered[1:]:
        previous = bands[-1][-1].bbox
        if glyph.bbox.center_x - previous.center_x <= STACK_OVERLAP * max(previous.width, 1.0):
            bands[-1].append(glyph)
        else:
            bands.append([glyph])
    return bands


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(_coordinate, st.floats(min_value=0.0, max_value=15.0)), min_size=1, max_size=10
    )
)
def test_x_bands_cluster_as_sorted_glyphs_did(places: list[tuple[float, float]]) -> None:
    glyphs = [
        Line((Span("字", BBox(x, i, x + w, i + 10)),), BBox(x, i, x + w, i + 10), True)
        for i, (x, w) in enumerate(places)
    ]
    got = [[id(g) for g in band] for band in _x_bands(glyphs)]
    assert got == [[id(g) for g in band] for band in _x_bands_reference(glyphs)]


# --- layout/headings -------------------------------------------------------------------------


def test_outline_keys_name_the_first_block_of_each_key() -> None:
    def block(text: str, kind: BlockKind = BlockKind.PARAGRAPH, lines: int = 1) -> Block:
        line = Line((Span(text, BBox(0, 0, 5, 10)),), BBox(0, 0, 5, 10))
        return Block(kind, (line,) * lines, line.bbox, 1)

    page = Page(
        1,
        100.0,
        100.0,
        (
            block("1. Introduction"),
            block("Introduction"),
            block("Results", BlockKind.TABLE),
            block("Long", lines=4),
            block("2 Methods"),
        ),
    )
    assert _outline_keys(page) == {"introduction": 0, "methods": 4}


def test_size_tallies_count_a_page_once_and_each_page_apart() -> None:
    def page(text: str, size: float) -> Page:
        line = Line((Span(text, BBox(0, 0, 5, 10), size=size),), BBox(0, 0, 5, 10))
        return Page(1, 100.0, 100.0, (Block(BlockKind.PARAGRAPH, (line,), line.bbox, 1),))

    tallies = _SizeTallies()
    first, second = page("abc", 10.0), page("abc", 10.0)
    assert tallies(first, TEXT_KINDS) is tallies(first, TEXT_KINDS)
    assert tallies(second, TEXT_KINDS) == Counter({10.0: 3})
    assert tallies(first, (BlockKind.TABLE,)) == Counter()


# --- extract/vector_figures: lines left by a figure ------------------------------------------


def test_without_leaves_out_lines_taken_and_their_equals() -> None:
    def line(text: str, x: float) -> Line:
        return Line((Span(text, BBox(x, 0, x + 5, 10)),), BBox(x, 0, x + 5, 10))

    a, b, c = line("a", 0), line("b", 10), line("c", 20)
    twin = line("a", 0)  # equal to a, not a itself (text drawn twice)
    other = line("z", 0)  # a's box, other text
    lines = [a, b, twin, other, c]
    assert _without(lines, [a, c]) == [ln for ln in lines if ln not in [a, c]]
    assert [ln.text for ln in _without(lines, [a, c])] == ["b", "z"]


# --- layout: paragraphs, furniture, right-to-left pages --------------------------------------


_ITEM_TEXTS = [
    "• item",
    "- x",
    "-x",
    "–ä",
    "1. First",
    "12) x",
    "(3) y",
    "（４）z",
    "a. b",
    "(b) c",
    "①",
    "① 項目",
    "（三）",
    "ア．",
    "ア.x",
    "2021 report",
    "x",
    "",
    "  * star",
    "*bold*",
    "a.b",
]


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.sampled_from(_ITEM_TEXTS), st.text(alphabet=" •-–*+1.)(（）①aAア．一\t", max_size=6)
    )
)
def test_starts_list_item_is_bullet_or_enumerator(text: str) -> None:
    assert starts_list_item(text) == bool(BULLET.match(text) or ENUMERATOR.match(text))


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from([0.0, 7.9, 8.0, 8.8, 9.0, 10.0, 11.0, 12.0, 24.0, math.nan, -1.0]),
    st.sampled_from([0.0, 8.0, 8.7, 9.0, 10.5, 11.1, 24.0, math.nan]),
)
def test_same_size_is_the_max_formulation(a: float, b: float) -> None:
    one = Line((Span("a", BBox(0, 0, 1, 1), size=a),), BBox(0, 0, 1, 1))
    other = Line((Span("b", BBox(0, 0, 1, 1), size=b),), BBox(0, 0, 1, 1))
    expected = abs(one.size - other.size) <= max(
        SIZE_CHANGE_PT, SIZE_CHANGE_SHARE * max(one.size, other.size)
    )
    assert _same_size(one, other) == expected


def _table_cell_reference(block: Block, page: Page, s: FurnitureSettings) -> bool:
    beside = 0
    for other in page.blocks:
        if beside >= s.table_row_neighbours:
            break
        if other is block or other.kind == BlockKind.TABLE:
            continue
        if other.bbox.y_overlap(block.bbox) > 0.5 * min(other.bbox.height, block.bbox.height):
            beside += 1
    return beside >= s.table_row_neighbours


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_coordinate, _coordinate), min_size=1, max_size=6))
def test_table_cell_is_the_overlap_count(rows: list[tuple[float, float]]) -> None:
    blocks = tuple(
        Block(BlockKind.PARAGRAPH, (), BBox(10.0 * i, top, 10.0 * i + 5, bottom), 1)
        for i, (top, bottom) in enumerate(rows)
    )
    page = Page(1, 100.0, 100.0, blocks)
    s = FurnitureSettings()
    assert [_table_cell(b, page, s) for b in blocks] == [
        _table_cell_reference(b, page, s) for b in blocks
    ]


def test_a_page_is_read_right_to_left_when_most_of_its_letters_are() -> None:
    def page(*texts: str) -> Page:
        lines = tuple(Line((Span(t, BBox(0, 0, 5, 10)),), BBox(0, 0, 5, 10)) for t in texts)
        return Page(1, 100.0, 100.0, (Block(BlockKind.PARAGRAPH, lines, BBox(0, 0, 5, 10), 1),))

    assert [
        is_rtl_page(page(*t))
        for t in (("plain", "text"), ("abc", "שלום עולם"), ("שלום", "plain english text here"), ())
    ] == [False, True, False, False]


def _near_groups_reference(boxes: list[BBox], gap: float) -> list[list[int]]:
    """Every pair compared: boxes within `gap` on both axes are joined."""
    parent = list(range(len(boxes)))

    def find(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for i, a in enumerate(boxes):
        for j, b in enumerate(boxes):
            near_x = b.x0 <= a.x1 + gap and a.x0 <= b.x1 + gap
            near_y = b.top <= a.bottom + gap and a.top <= b.bottom + gap
            if i < j and near_x and near_y:
                parent[find(j)] = find(i)
    groups: dict[int, list[int]] = {}
    for i in range(len(boxes)):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


_small = st.floats(min_value=0.0, max_value=40.0, allow_nan=False)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_small, _small, st.floats(0.0, 10.0), st.floats(0.0, 10.0)), max_size=14))
def test_near_groups_are_the_groups_of_boxes_that_meet(
    places: list[tuple[float, float, float, float]],
) -> None:
    boxes = [BBox(x, y, x + w, y + h) for x, y, w, h in places]
    assert near_groups(boxes, 2.0) == _near_groups_reference(boxes, 2.0)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_coordinate, _coordinate), min_size=1, max_size=6))
def test_single_row_is_the_max_min_formulation(rows: list[tuple[float, float]]) -> None:
    blocks = [
        Block(BlockKind.PARAGRAPH, (), BBox(0.0, top, 5.0, bottom), 1) for top, bottom in rows
    ]
    expected = min(b.bbox.bottom for b in blocks) > max(b.bbox.top for b in blocks)
    assert _single_row(blocks) == expected


def _stack_reference(glyphs: list[Line]) -> list[list[Line]]:
    def continues(last: Line, glyph: Line) -> bool:
        a, b = last.bbox, glyph.bbox
        em = max(a.width, b.width, 1.0)
        return -STACK_OVERLAP_EM * em <= b.top - a.bottom <= STACK_GAP_EM * em

    columns: list[list[Line]] = []
    for band in _x_bands_reference(glyphs):
        band.sort(key=lambda g: g.bbox.top)
        run = [band[0]]
        for glyph in band[1:]:
            if continues(run[-1], glyph):
                run.append(glyph)
            else:
                columns.append(run)
                run = [glyph]
        columns.append(run)
    return columns


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from([0.0, 0.5, 30.0]), _small, st.floats(0.0, 12.0)),
        min_size=1,
        max_size=10,
    )
)
def test_glyphs_stack_into_columns_as_before(places: list[tuple[float, float, float]]) -> None:
    glyphs = [
        Line((Span("字", BBox(x, y, x + w, y + w)),), BBox(x, y, x + w, y + w), True)
        for x, y, w in places
    ]
    got = [[id(g) for g in run] for run in _stack_into_columns(glyphs)]
    assert got == [[id(g) for g in run] for run in _stack_reference(glyphs)]


def test_a_reading_is_short_kana_and_an_ascii_line_is_none() -> None:
    def line(text: str) -> Line:
        return Line((Span(text, BBox(0, 0, 5, 10)),), BBox(0, 0, 5, 10), True)

    texts = ["じよくそう", " かな ", "abc", "", "漢字", "じよくそうじよくそうじよく", "ab かな"]
    assert [_may_be_ruby(line(t)) for t in texts] == [True, True, False, False, False, False, False]
