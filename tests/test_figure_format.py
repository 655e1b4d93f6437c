"""The figure block of the Markdown dialect: written and read back by markdown_format alone."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from chunkcli.markdown_format import FigureBlock, format_figure, is_format_comment, parse_figure


def test_figure_with_every_part_is_written_in_order() -> None:
    figure = FigureBlock(
        "Figure 3. Sales [by] region", "img/r-p3-1.png", "North 120", 0.82, "tesseract"
    )
    assert format_figure(figure) == (
        "<!-- figure -->\n\n"
        "Figure 3. Sales [by] region\n\n"
        "![Figure 3. Sales \\[by\\] region](img/r-p3-1.png)\n\n"
        "<!-- figure words: ocr conf=0.82 engine=tesseract -->\n\n"
        "North 120\n\n"
        "<!-- /figure -->"
    )
    assert parse_figure(format_figure(figure)) == figure


def test_vector_figure_words_come_from_the_text_layer() -> None:
    figure = FigureBlock("図3 売上", "", "東 西\n120 80")
    text = format_figure(figure)
    assert "<!-- figure words: text layer -->" in text
    parsed = parse_figure(text)
    assert parsed == figure and parsed is not None and not parsed.words_from_ocr


def test_caption_that_looks_like_syntax_is_escaped_and_read_back() -> None:
    figure = FigureBlock("# 1 chart")
    assert format_figure(figure).splitlines()[2] == "\\# 1 chart"
    assert parse_figure(format_figure(figure)) == figure


def test_not_a_figure() -> None:
    assert parse_figure("<!-- figure -->\n\ntext") is None
    assert parse_figure("text\n\n<!-- /figure -->") is None


def test_figure_comments_are_format() -> None:
    for line in ("<!-- figure -->", "<!-- figure words: text layer -->", "<!-- /figure -->"):
        assert is_format_comment(line)


_text = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=30).map(
    lambda t: " ".join(t.replace("<!--", "").replace("-->", "").split())
)


@given(
    _text,
    st.sampled_from(["", "img/a.png"]),
    st.sampled_from(["", "# 12", "- a\n1. b", "x"]),
    st.booleans(),
)
def test_any_figure_reads_back(caption: str, image: str, words: str, ocr: bool) -> None:
    figure = FigureBlock(
        caption,
        image,
        words,
        0.5 if ocr and words else None,
        "tesseract" if ocr and words else None,
    )
    assert parse_figure(format_figure(figure)) == figure
