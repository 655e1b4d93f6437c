"""Symbol-font glyphs and private-use code points (chunkcli.convert.extract.symbols, extract)."""

from __future__ import annotations

from chunkcli.charclasses import unusable_share
from chunkcli.convert.extract.pages import _span
from chunkcli.convert.extract.symbols import dingbat_text, without_private_use
from chunkcli.convert.layout.paragraphs import starts_list_item
from chunkcli.model import BBox, Line, Span

BOX = BBox(10, 10, 20, 20)


def raw_span(text: str, font: str) -> dict[str, object]:
    return {"text": text, "bbox": (10, 10, 20, 20), "font": font, "size": 15.0, "flags": 0}


def test_wingdings_bullets_read_as_the_glyphs_they_show() -> None:
    # The Korean proposal drew its bullets as "m " in Wingdings-Regular; some PDFs map the
    # same codes to U+F020..U+F0FF.
    spans = [_span(raw_span(t, "Wingdings-Regular")) for t in ("m ", "l", "\uf06e", "Ø")]
    assert [s.text for s in spans if s is not None] == ["❍ ", "●", "■", "➢"]
    assert dingbat_text("ü þ ý", "Wingdings") == "✓ ☑ ☒"


def test_other_dingbat_fonts_read_as_bullets_and_other_fonts_are_untouched() -> None:
    assert dingbat_text("m", "Wingdings2") == "•"
    assert dingbat_text("a b", "Webdings") == "• •"
    plain = _span(raw_span("m ", "Batang"))
    assert plain is not None and plain.text == "m "


def test_translated_bullets_start_list_items() -> None:
    assert [starts_list_item(t) for t in ("❍ 사업명", "❖ Scope", "➢ next", "m 사업명")] == [
        True,
        True,
        True,
        False,
    ]


def test_private_use_glyphs_are_dropped_and_lines_of_nothing_else_go() -> None:
    icon = Line((Span("\uf000 ", BOX), Span("개 요", BOX)), BOX)
    only_icons = Line((Span("\ue001\uf8ff", BOX),), BOX)
    plain = Line((Span("본문", BOX),), BOX)
    kept = without_private_use([icon, only_icons, plain])
    assert [line.text for line in kept] == [" 개 요", "본문"]
    lines = [plain]
    assert without_private_use(lines) is lines  # nothing to drop: the same list


def test_a_symbol_font_bullet_opening_a_line_stays_a_bullet() -> None:
    # Word's Symbol-font bullet comes as U+F0B7: dropped with the other private-use glyphs, the
    # item lost its mark.
    item = Line((Span("\uf0b7 ", BOX), Span("Scope of the work", BOX)), BOX)
    inner = Line((Span("Total \uf0b7 sum", BOX),), BOX)
    kept = without_private_use([item, inner])
    assert [line.text for line in kept] == ["• Scope of the work", "Total  sum"]
    assert starts_list_item(kept[0].text)


def test_noncharacters_from_a_broken_tounicode_map_are_dropped() -> None:
    box = BBox(0, 0, 100, 10)
    lines = [
        Line((Span("Good \ufdd0\uffff text", box),), box),
        Line((Span("\U0001ffff\ufffe", box),), box),  # nothing else: the line goes
    ]
    assert [line.text for line in without_private_use(lines)] == ["Good  text"]
    assert unusable_share("\uffff\ufffe ab") == (0.5, 4)
