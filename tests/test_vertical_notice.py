"""A notice set vertically (縦書きの告示): parts "第一　…", items "一　…" and "(1)" at the heads
of their columns, a full-width space after each number (saka1029-kokuji.pdf's shape)."""

from __future__ import annotations

from pathlib import Path

import pytest

from chunkcli.convert.extract.vertical import rebuild_vertical_lines
from chunkcli.convert.layout.numbering import KANJI_ITEM, numbering_pattern
from chunkcli.convert.ocr import OcrMode, OcrOptions
from chunkcli.convert.pipeline import ConvertOptions, convert_pdf
from chunkcli.model import BBox, Line, Span
from tests.pdf_factory import Item, Text, make_pdf, vertical_column

SIZE = 14.0
PITCH = 28.0  # columns' distance, right to left
PARTS = ("届出の通則", "施設基準の通則", "初診料の施設基準", "経過措置")
SUBJECTS = ("保険医療機関", "地方厚生局長等", "当該病棟", "当該保険医療機関")
ACTIONS = ("届出を行うこと", "変更を届け出ること", "体制を整備すること")
NEVER = ConvertOptions(ocr=OcrOptions(mode=OcrMode.NEVER))


def _item(number: str, subject: str, part: str, action: str) -> str:
    rest = f"{subject}は、{part}に係る内容と異なる事情が生じた場合には、速やかに{action}。"
    return f"{number}　{rest}"


def _notice_page(index: int) -> list[Item]:
    """A part's number and name in the first column (at the top), its items one cell lower,
    their second columns two cells lower; then a sub-item "(1)" set across its column."""
    x = 520.0
    items: list[Item] = [vertical_column(x, 66, f"第{'一二三四'[index]}　{PARTS[index]}", SIZE)]
    for number, action in zip("一二三", _actions(index), strict=False):
        text = _item(number, SUBJECTS[index], PARTS[index], action)
        x -= PITCH
        items.append(vertical_column(x, 81, text[:40], SIZE))
        if text[40:]:
            x -= PITCH
            items.append(vertical_column(x, 97, text[40:], SIZE))
    x -= PITCH
    # "(1)" in horizontal type, 11 pt, centred on the column; its text one cell below it.
    items.append(Text(x - 1.5, 99 + 8.5, "(1)", size=11))
    items.append(vertical_column(x, 115, f"{SUBJECTS[index]}の体制が整備されていること。", SIZE))
    return items


def _actions(index: int) -> tuple[str, ...]:
    """Three items on even pages, two on odd ones: "(1)" stands at two places, not one."""
    return ACTIONS if index % 2 == 0 else ACTIONS[:2]


@pytest.fixture(scope="module")
def notice(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pages = [_notice_page(i) for i in range(4)]
    return make_pdf(tmp_path_factory.mktemp("notice") / "notice.pdf", pages)


def test_parts_are_headings_and_items_keep_their_numbers(notice: Path) -> None:
    markdown = convert_pdf(notice, NEVER).markdown
    headings = [line for line in markdown.splitlines() if line.startswith("#")]
    assert headings == [f"## 第{n} {part}" for n, part in zip("一二三四", PARTS, strict=True)]
    for index in range(4):
        for number, action in zip("一二三", _actions(index), strict=False):
            item = _item(number, SUBJECTS[index], PARTS[index], action).replace("　", " ")
            assert f"\n\n{item}\n\n" in markdown
        assert f"(1) {SUBJECTS[index]}の体制が整備されていること。" in markdown


def test_a_selected_page_keeps_the_numbers_at_its_columns_heads(notice: Path) -> None:
    """Judged with only a few pages as evidence, "(1)" at one height on most of them looked
    like a running head set small: column heads are no margin on a vertical page."""
    options = ConvertOptions(ocr=OcrOptions(mode=OcrMode.NEVER), pages=(2,))
    markdown = convert_pdf(notice, options).markdown
    assert "## 第二 施設基準の通則" in markdown
    assert "(1) 地方厚生局長等の体制が整備されていること。" in markdown
    assert "\n\n一 地方厚生局長等は、" in markdown


def _glyphs(text: str, x: float, top: float, pitch: float = 15.0) -> list[Line]:
    lines = []
    for i, char in enumerate(text):
        if char != " ":  # a space glyph is dropped with the page's blank lines
            box = BBox(x, top + i * pitch, x + SIZE, top + i * pitch + SIZE)
            lines.append(Line((Span(char, box, size=SIZE),), box, vertical=True))
    return lines


def test_one_empty_cell_after_a_number_is_a_space_but_not_after_a_long_run() -> None:
    column = _glyphs("第十二 総則", 500, 60)
    # A twelve-glyph column that ends one cell above the next run is a column of its own.
    long_run = _glyphs("あいうえおかきくけこさし すせそ", 470, 60)
    filler = [g for x in (440, 410, 380) for g in _glyphs("縦書きの本文が続く行", x, 60)]
    texts = sorted(line.text for line in rebuild_vertical_lines(column + long_run + filler))
    assert "第十二 総則" in texts
    assert "あいうえおかきくけこさし" in texts and "すせそ" in texts


def test_no_space_before_a_small_kana_or_a_long_vowel_mark() -> None:
    column = _glyphs("デ ュ ーデリジ ェンス", 500, 60)
    filler = [g for x in (470, 440, 410) for g in _glyphs("縦書きの本文が続く行", x, 60)]
    texts = [line.text for line in rebuild_vertical_lines(column + filler)]
    assert {"デ", "ュ", "ーデリジ", "ェンス"} <= set(texts)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("第一　届出の通則", ("cjk", 1)),
        ("第２ 総則", ("cjk", 1)),
        ("第一に、届出を行う。", None),  # "firstly": no space after the number
        ("第2回の会合", None),
    ],
)
def test_a_notices_part_number(text: str, expected: tuple[str, int] | None) -> None:
    assert numbering_pattern(text) == expected


def test_kanji_item_numbers() -> None:
    assert KANJI_ITEM.match("一　通則")
    assert KANJI_ITEM.match("十二 経過措置")
    assert not KANJI_ITEM.match("一般病棟の入院基本料")
    assert not KANJI_ITEM.match("一の二　医科初診料")  # "一の二": read as its column's text


def test_glyphs_without_a_size_are_still_read() -> None:
    """Text kept with --keep-hidden-text may have size 0: no type is "small" then."""
    glyphs = []
    for column in range(3):
        for i, char in enumerate("縦書きの本文が続く行です"):
            box = BBox(300 - 20 * column, 100 + 12 * i, 312 - 20 * column, 112 + 12 * i)
            glyphs.append(Line((Span(char, box, size=0.0),), box, vertical=True))
    texts = [line.text for line in rebuild_vertical_lines(glyphs)]
    assert texts == ["縦書きの本文が続く行です"] * 3
