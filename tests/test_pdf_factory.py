"""The PDF factory writes what tests ask for, and PyMuPDF reads it back the same way."""

from __future__ import annotations

from pathlib import Path

import pdfplumber
import pymupdf
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pdf_factory import (
    Image,
    Rect,
    Rule,
    Text,
    grid_table,
    make_pdf,
    text_width,
    vertical_column,
    wrap_text,
    wrapped_paragraph,
)


def spans(path: Path, page_index: int = 0) -> list[dict[str, object]]:
    with pymupdf.open(str(path)) as doc:
        page_dict = doc[page_index].get_text("dict")
    return [s for b in page_dict["blocks"] for ln in b.get("lines", []) for s in ln["spans"]]


def test_latin_text_round_trips_with_ligatures_and_bold(tmp_path: Path) -> None:
    pdf = make_pdf(
        tmp_path / "a.pdf",
        [[Text(72, 100, "An eﬃcient ﬁnal — “test”"), Text(72, 130, "Heading", bold=True, size=14)]],
    )
    with pymupdf.open(str(pdf)) as doc:
        assert doc[0].get_text() == "An eﬃcient ﬁnal — “test”\nHeading\n"
    found = {s["text"]: s for s in spans(pdf)}
    assert not int(found["An eﬃcient ﬁnal — “test”"]["flags"]) & pymupdf.TEXT_FONT_BOLD
    assert int(found["Heading"]["flags"]) & pymupdf.TEXT_FONT_BOLD
    assert round(float(found["Heading"]["size"])) == 14


def test_cjk_text_round_trips_and_bold_cjk_is_flagged_bold(tmp_path: Path) -> None:
    pdf = make_pdf(
        tmp_path / "j.pdf",
        [[Text(72, 100, "第十五条（目的）", bold=True), Text(72, 130, "日本語の文章です。한국어")]],
    )
    with pymupdf.open(str(pdf)) as doc:
        assert doc[0].get_text() == "第十五条（目的）\n日本語の文章です。한국어\n"
        fonts = doc[0].get_fonts()
    assert all(f[1] == "ttf" for f in fonts)  # embedded
    bold = {s["text"]: bool(int(s["flags"]) & pymupdf.TEXT_FONT_BOLD) for s in spans(pdf)}
    assert bold == {"第十五条（目的）": True, "日本語の文章です。한국어": False}


def test_vertical_text_extracts_as_vertical_lines_top_to_bottom(tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "v.pdf", [[vertical_column(400, 100, "縦書きです。", 12)]])
    with pymupdf.open(str(pdf)) as doc:
        page_dict = doc[0].get_text("dict")
        assert doc[0].get_text().replace("\n", "") == "縦書きです。"
    lines = [ln for b in page_dict["blocks"] for ln in b["lines"]]
    assert all(ln["wmode"] == 1 and tuple(ln["dir"]) == (0.0, 1.0) for ln in lines)
    tops = [ln["bbox"][1] for ln in lines]
    assert tops == sorted(tops) and tops[0] >= 100


def test_items_are_drawn_in_the_order_given(tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "o.pdf", [[Text(72, 700, "footer"), Text(72, 60, "header")]])
    with pymupdf.open(str(pdf)) as doc:
        assert doc[0].get_text(sort=False) == "footer\nheader\n"


def test_image_page_has_no_text_and_one_image(tmp_path: Path) -> None:
    pdf = make_pdf(
        tmp_path / "i.pdf", [[Image(50, 50, 300, 200, text="scanned words")], [Image(0, 0, 40, 40)]]
    )
    with pymupdf.open(str(pdf)) as doc:
        for page in doc:
            assert page.get_text().strip() == ""
            assert len(page.get_images()) == 1


def test_rules_and_rects_are_vector_drawings(tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "r.pdf", [[Rule(10, 10, 100, 10), Rect(20, 20, 80, 80)]])
    with pymupdf.open(str(pdf)) as doc:
        assert len(doc[0].get_drawings()) == 2


def test_grid_table_draws_cells_inside_rules(tmp_path: Path) -> None:
    items = grid_table(72, 100, [100, 80], [20, 34], [["Model", "V"], ["A|B", "two\nlines"]])
    pdf = make_pdf(tmp_path / "t.pdf", [items])
    with pymupdf.open(str(pdf)) as doc:
        page = doc[0]
        assert page.get_text().split() == ["Model", "V", "A|B", "two", "lines"]
    with pdfplumber.open(pdf) as plumber:
        assert plumber.pages[0].extract_tables() == [[["Model", "V"], ["A|B", "two\nlines"]]]


def test_outline_metadata_and_page_size(tmp_path: Path) -> None:
    pdf = make_pdf(
        tmp_path / "toc.pdf",
        [[Text(72, 72, "One")], [Text(72, 72, "Two")]],
        outline=[(1, "Part", 1), (2, "Sub", 2)],
        page_size=(300, 400),
        title="T",
    )
    with pymupdf.open(str(pdf)) as doc:
        assert doc.get_toc() == [[1, "Part", 1], [2, "Sub", 2]]
        assert doc.metadata["title"] == "T"
        assert (doc[0].rect.width, doc[0].rect.height) == (300, 400)


def test_encrypted_pdf_needs_its_password(tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "e.pdf", [[Text(72, 72, "secret")]], encrypt_password="pw")
    with pymupdf.open(str(pdf)) as doc:
        assert doc.needs_pass
        assert doc.authenticate("pw")
        assert doc[0].get_text().strip() == "secret"


def test_same_input_gives_identical_bytes(tmp_path: Path) -> None:
    pages = [[Text(72, 72, "Hello ﬁ"), Text(72, 100, "日本語", bold=True), Image(0, 0, 20, 20)]]
    first = make_pdf(tmp_path / "1.pdf", pages).read_bytes()
    second = make_pdf(tmp_path / "2.pdf", pages).read_bytes()
    assert first == second


@pytest.mark.parametrize("cjk", [False, True])
def test_wrapped_paragraph_keeps_all_text(cjk: bool) -> None:
    text = "日本語の文章を折り返して表示します。" * 3 if cjk else "the quick brown fox " * 6
    items = wrapped_paragraph(72, 100, 120, text, 10, cjk=cjk)
    joined = ("" if cjk else " ").join(i.text for i in items if isinstance(i, Text))
    assert joined == (text if cjk else " ".join(text.split()))
    assert len(items) > 1


@settings(max_examples=40, deadline=None)
@given(
    words=st.lists(st.text(alphabet="abcdefghij", min_size=1, max_size=8), min_size=1, max_size=30),
    width=st.floats(min_value=40, max_value=300),
)
def test_wrap_text_lines_fit_unless_one_word_is_too_long(words: list[str], width: float) -> None:
    lines = wrap_text(" ".join(words), width, 10)
    assert " ".join(lines) == " ".join(words)
    for line in lines:
        assert text_width(line, 10) <= width or " " not in line
