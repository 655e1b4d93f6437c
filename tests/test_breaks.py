"""Sentences cut by a column or page break (convert/layout/breaks.py): joined when the
sentence clearly goes on, left apart when a new paragraph, item or article starts."""

from __future__ import annotations

from pathlib import Path

from pdf_factory import Text, make_pdf

from chunkcli.convert.layout.breaks import split_line
from chunkcli.convert.pipeline import ConvertOptions, convert_pdf
from chunkcli.markdown_format import without_boxes
from chunkcli.model import BBox, Line, Span

SIZE = 10.5
# 40 full-width characters: one full line of a 420 pt column at 10.5 pt.
FULL = "事業者は製品の設計から廃棄までの各段階において安全性を確保するための措置を講じな"


def full(n: int) -> list[str]:
    """`n` different full lines (equal lines at the top of two pages would be a running head)."""
    return [FULL[i:] + FULL[:i] for i in range(n)]


def _page(lines: list[str], x: float = 50.0) -> list[Text]:
    return [Text(x, 90 + 15 * i, line, size=SIZE, cjk=True) for i, line in enumerate(lines)]


def _body(path: Path) -> str:
    markdown = without_boxes(convert_pdf(path, ConvertOptions()).markdown)
    return markdown.split("\n\n", 1)[1]  # without the provenance line (and the boxes)


def _two_pages(tmp_path: Path, first: list[str], second: list[str]) -> str:
    return _body(make_pdf(tmp_path / "p.pdf", [_page(first), _page(second)]))


def test_sentence_cut_by_a_page_break_ends_on_its_first_page(tmp_path: Path) -> None:
    first = full(5)
    second = ["ければならない。" + FULL[8:], full(9)[8], "ものとする。"]
    assert _two_pages(tmp_path, first, second) == (
        "<!-- page 1 -->\n\n" + "".join(first) + "ければならない。\n\n"
        "<!-- page 2 -->\n\n" + FULL[8:] + second[1] + "ものとする。\n"
    )


def test_page_break_after_a_full_stop_stays_a_break(tmp_path: Path) -> None:
    first = full(4) + [FULL[:-1] + "。"]
    second = ["次の段落はここから始まる。", "以上。"]
    assert _two_pages(tmp_path, first, second) == (
        "<!-- page 1 -->\n\n" + "".join(first) + "\n\n"
        "<!-- page 2 -->\n\n次の段落はここから始まる。以上。\n"
    )


def test_page_break_before_an_item_or_an_indent_stays_a_break(tmp_path: Path) -> None:
    first = full(5)
    for opening in (
        "（1）対象となる製品は次のとおり。",
        "　新しい段落が字下げで始まる。",
        "第二条　この規則は公布の日から施行する。",
    ):
        page_1, page_2 = _two_pages(tmp_path, first, [opening]).split("<!-- page 2 -->")
        assert page_1 == "<!-- page 1 -->\n\n" + "".join(first) + "\n\n"
        assert opening.strip("\u3000") in page_2


def test_short_last_line_is_the_end_of_its_paragraph(tmp_path: Path) -> None:
    first = full(4) + ["措置を講じな"]  # a paragraph's short last line, punctuation missing
    markdown = _two_pages(tmp_path, first, ["ければならない。"])
    assert markdown.endswith("<!-- page 2 -->\n\nければならない。\n")


def test_column_break_before_an_indented_paragraph_stays_a_break(tmp_path: Path) -> None:
    left = [FULL[:20]] * 30
    right = ["　字下げで始まる新しい段落。", FULL[:20], "以上。"]
    items = [Text(50, 90 + 15 * i, line, size=SIZE, cjk=True) for i, line in enumerate(left)]
    items += [Text(315, 90 + 15 * i, line, size=SIZE, cjk=True) for i, line in enumerate(right)]
    markdown = _body(make_pdf(tmp_path / "c.pdf", [items]))
    assert markdown == (
        "<!-- page 1 -->\n\n"
        + FULL[:20] * 30
        + "\n\n　字下げで始まる新しい段落。\n\n"
        + FULL[:20]
        + "以上。\n"
    )


def test_column_break_mid_sentence_joins_without_a_space(tmp_path: Path) -> None:
    left = [FULL[:20]] * 30
    right = [FULL[20:], "ければならない。"]
    items = [Text(50, 90 + 15 * i, line, size=SIZE, cjk=True) for i, line in enumerate(left)]
    items += [Text(315, 90 + 15 * i, line, size=SIZE, cjk=True) for i, line in enumerate(right)]
    markdown = _body(make_pdf(tmp_path / "c.pdf", [items]))
    assert markdown == "<!-- page 1 -->\n\n" + FULL[:20] * 30 + FULL[20:] + "ければならない。\n"


def test_split_line_shares_a_span_box_by_characters() -> None:
    line = Line(
        (Span("ab", BBox(0, 0, 20, 10)), Span("cdef", BBox(20, 0, 60, 10))), BBox(0, 0, 60, 10)
    )
    head, tail = split_line(line, 3)
    assert [(s.text, s.bbox) for s in head.spans] == [
        ("ab", BBox(0, 0, 20, 10)),
        ("c", BBox(20, 0, 30, 10)),
    ]
    assert [(s.text, s.bbox) for s in tail.spans] == [("def", BBox(30, 0, 60, 10))]
    assert (head.bbox, tail.bbox) == (BBox(0, 0, 30, 10), BBox(30, 0, 60, 10))


def test_the_carried_end_of_a_sentence_gets_no_box_on_the_page_before(tmp_path: Path) -> None:
    from chunkcli.split import SplitOptions, split_markdown

    first = full(5)
    second = ["ければならない。" + FULL[8:], full(9)[8], "ものとする。"]
    pdf = make_pdf(tmp_path / "p.pdf", [_page(first), _page(second)])
    chunks = split_markdown(convert_pdf(pdf).markdown, SplitOptions(max_tokens=1000))
    boxes = [(box.page, box.bbox) for chunk in chunks for box in chunk.boxes]
    # page 1: its five lines (the carried "ければならない。" is drawn at the top of page 2: it is
    # in page 1's text but in no box of page 1); page 2: the rest of its first line and the two
    # lines below it
    assert boxes == [(1, (50, 79, 470, 153)), (2, (50, 79, 470, 123))]
