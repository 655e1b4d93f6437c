"""Ruby (ふりがな) beside kanji is dropped; kana that gloss no kanji stay."""

from __future__ import annotations

from pathlib import Path

from chunkcli.convert.extract.ruby import without_ruby
from chunkcli.convert.ocr import OcrMode, OcrOptions
from chunkcli.convert.pipeline import ConvertOptions, convert_pdf
from chunkcli.model import BBox, Line, Span
from tests.pdf_factory import Text, make_pdf, vertical_column

NEVER = ConvertOptions(ocr=OcrOptions(mode=OcrMode.NEVER))


def _body(markdown: str) -> list[str]:
    return [p for p in markdown.split("\n\n") if p and not p.startswith("<!--")]


def test_readings_over_horizontal_kanji_are_dropped(tmp_path: Path) -> None:
    items = [
        Text(60, 100, "入院患者の褥瘡対策の基準を定める。", size=14),
        Text(60 + 5 * 14, 86, "じょくそう", size=7),  # over 褥瘡, at half size
        Text(60, 130, "適切な診療計画の作成の体制がとられていること。", size=14),
        Text(60, 160, "しかし", size=14),  # kana at the body's size: a word
    ]
    markdown = convert_pdf(make_pdf(tmp_path / "h.pdf", [items]), NEVER).markdown
    assert _body(markdown) == [
        "入院患者の褥瘡対策の基準を定める。",
        "適切な診療計画の作成の体制がとられていること。しかし",
    ]


def test_readings_beside_a_vertical_column_are_dropped(tmp_path: Path) -> None:
    columns = ["入院患者の褥瘡対策の基準を定める。", "適切な計画であること。"]
    items = [vertical_column(500 - 28 * i, 80, text, 14) for i, text in enumerate(columns)]
    items.append(vertical_column(514, 80 + 5 * 14, "じょくそう", 7))  # right of 褥瘡
    markdown = convert_pdf(make_pdf(tmp_path / "v.pdf", [items]), NEVER).markdown
    assert "じょくそう" not in markdown
    assert "入院患者の褥瘡対策の基準を定める。" in markdown


def _line(text: str, x: float, top: float, size: float, spans: int = 1) -> Line:
    width = size * len(text)
    box = BBox(x, top, x + width, top + size)
    if spans == 1:
        return Line((Span(text, box, size=size),), box)
    cut = len(text) // 2
    first = Span(text[:cut], BBox(x, top, x + size * cut, top + size), size=size)
    second = Span(text[cut:], BBox(x + size * cut, top, box.x1, top + size), size=size)
    return Line((first, second), box)


def test_katakana_over_a_latin_word_is_kept() -> None:
    # "HACCP" then Japanese in one line; "サップ" lies over the Latin span only.
    base = _line("HACCPの考え方を", 100, 100, 28, spans=2)
    reading = _line("サップ", 130, 86, 9)
    assert without_ruby([base, reading]) == [base, reading]
    gloss = _line("かんがえ", 100 + 28 * 7, 86, 9)  # over 考え
    assert without_ruby([base, gloss]) == [base]


def test_a_small_kana_line_far_from_the_kanji_is_kept() -> None:
    base = _line("褥瘡対策", 100, 100, 14)
    note = _line("じょくそう", 100, 60, 7)  # 33 pt above: a note, not a reading
    assert without_ruby([base, note]) == [base, note]


def test_a_reading_inside_a_vertical_line_is_dropped_from_it() -> None:
    """MuPDF may put a reading into its column's line: "迂" "う" "回" read "迂う回"."""

    def glyph(char: str, top: float, size: float = 14.0, x: float = 390.0) -> Span:
        return Span(char, BBox(x, top, x + size, top + size), size=size)

    spans = (
        glyph("抗", 486),
        glyph("体", 501),
        glyph("迂", 517),
        glyph("う", 521, size=7.0, x=403.5),  # right of 迂, at half size
        glyph("回", 532),
    )
    column = Line(spans, BBox(390, 486, 410.5, 546), vertical=True)
    (kept,) = without_ruby([column])
    assert kept.text == "抗体迂回"
    assert kept.bbox == BBox(390, 486, 404, 546)
