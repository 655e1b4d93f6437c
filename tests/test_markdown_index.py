"""The line index of chunkcli's GFM: offsets, kinds, levels and pages of every line."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from chunkcli import markdown_index
from chunkcli.markdown_format import parse_page_marker
from chunkcli.markdown_index import (
    CONTENT_KINDS,
    LineKind,
    LineRecord,
    build_index,
    index_line_offsets,
    paragraph_text,
)
from chunkcli.markdown_lines import line_offsets


def lines_of(markdown: str) -> list[str]:
    """The definition: lines end at \\n, and a \\r just before it is no part of the line."""
    return markdown.replace("\r\n", "\n").split("\n")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="a\r\n\u00e9\U0001f600", max_size=60), st.integers(1, 8))
def test_the_index_finds_the_lines_split_finds(text: str, piece: int) -> None:
    """check's numpy reading of the lines' offsets (a piece at a time, a \\r\\n across two
    pieces included) gives markdown_lines', which split reads without numpy."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(markdown_index, "OFFSETS_PIECE", piece)
        begins, ends = index_line_offsets(text)
    assert (begins, ends) == line_offsets(text)
    assert [text[b:e] for b, e in zip(begins, ends, strict=True)] == lines_of(text)


def test_each_line_gets_its_kind_level_and_page() -> None:
    markdown = (
        '<!-- chunkcli source="x.pdf" sha256="' + "0" * 64 + '" -->\n'
        "<!-- page 1 -->\n"
        "\n"
        "# Title\n"
        "text line\n"
        "> quoted line\n"
        "\n"
        "Setext\n"
        "---\n"
        "- item\n"
        "  more of it\n"
        "\n"
        "| a | b |\n"
        "| --- | --- |\n"
        "| 1 | 2 |\n"
        "<!-- page 2: blank -->\n"
        "```\n"
        "# code\n"
        "```\n"
        "---"
    )
    index = build_index(markdown)
    kinds = [LineKind(kind) for kind in index.kinds]
    assert kinds == [
        LineKind.COMMENT,
        LineKind.PAGE_MARKER,
        LineKind.BLANK,
        LineKind.HEADING,
        LineKind.PARAGRAPH,
        LineKind.PARAGRAPH,
        LineKind.BLANK,
        LineKind.HEADING,
        LineKind.SETEXT,
        LineKind.LIST,
        LineKind.LIST,
        LineKind.BLANK,
        LineKind.TABLE,
        LineKind.DELIMITER,
        LineKind.TABLE,
        LineKind.PAGE_MARKER,
        LineKind.FENCE,
        LineKind.CODE,
        LineKind.FENCE,
        LineKind.RULE,
    ]
    assert [index.page(row) for row in range(len(index))] == [None] + [1] * 14 + [2] * 5
    assert index.heading_texts == ("Title", "Setext")
    assert (index.levels[3], index.levels[7]) == (1, 2)
    assert index.record(5) == LineRecord(6, 1, "quoted line", LineKind.PARAGRAPH)
    assert index.record(3) == LineRecord(4, 1, "Title", LineKind.HEADING, 1)
    assert index.texts(range(len(index))) == [index.text(row) for row in range(len(index))]


def test_a_setext_heading_joins_its_lines_and_skips_comments() -> None:
    index = build_index("first\n<!-- note -->\n  > second\n===\n")
    assert index.heading_texts == ("first second",)
    assert index.text(0) == "first second"


def test_memory_kept_per_line_is_fifteen_bytes() -> None:
    """The bound stated in the module docstring: 4 + 4 offsets, 4 page, 3 single bytes."""
    index = build_index("|\n" * 100_000)
    assert index.bytes_per_line() == 15.0


# Lines of every kind the reader knows, and lines that look like them.
LINE_PARTS = (
    "Plain text.",
    "1. one",
    "- item",
    "# Heading",
    "## Heading ##",
    "Title",
    "===",
    "---",
    "> quote",
    ">",
    "   > > deep",
    "```",
    "~~~",
    "| a | b |",
    "|---|---|",
    "a | b",
    "<!-- page 2 -->",
    "<!-- page 3: ocr conf=0.5 -->",
    "<!-- note -->",
    "    code",
    "\tTab",
    "\u3000indented",
    " ",
    "",
    "\r",
    "text\r",
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(LINE_PARTS), max_size=40), st.sampled_from(["\n", "\r\n"]))
def test_every_line_is_its_offsets_and_has_a_kind(parts: list[str], newline: str) -> None:
    markdown = newline.join(parts)
    index = build_index(markdown)
    lines = [index.line(row) for row in range(len(index))]
    assert lines == lines_of(markdown)
    assert 0 not in index.kinds
    assert index == build_index(markdown, fast_lines=False)
    contents = index.content_rows()
    assert all(LineKind(index.kinds[row]) in CONTENT_KINDS for row in contents)
    assert list(index.records(contents)) == [index.record(row) for row in contents]
    assert index.texts(contents) == [index.text(row) for row in contents]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab|-#>` \t\r\n<!->", max_size=200))
def test_offsets_of_any_text_are_its_lines(markdown: str) -> None:
    index = build_index(markdown)
    assert [index.line(row) for row in range(len(index))] == lines_of(markdown)


def naive_pages(markdown: str) -> list[int | None]:
    """Each line's page: the last marker above it, at or outside code fences."""
    pages: list[int | None] = []
    page, fence = None, ""
    for line in lines_of(markdown):
        if fence:
            fence = "" if line.startswith(fence) else fence
        elif line.startswith(("```", "~~~")):
            fence = line[:3]
        else:
            marker = parse_page_marker(line)
            page = marker.number if marker else page
        pages.append(page)
    return pages


# Blocks of the Markdown `convert` writes, each followed by a blank line.
BLOCKS = st.one_of(
    st.builds(lambda n: f"<!-- page {n} -->", st.integers(1, 999)),
    st.builds(
        lambda n, text: f"{'#' * n} {text}", st.integers(1, 6), st.sampled_from(["A", "b c"])
    ),
    st.lists(st.sampled_from(["Some words.", "more text", "x y z"]), min_size=1, max_size=4).map(
        "\n".join
    ),
    st.lists(st.sampled_from(["- item", "- other item", "1. first"]), min_size=1, max_size=3).map(
        "\n".join
    ),
    st.lists(st.sampled_from(["| 1 | 2 |", "| x | y |"]), max_size=3).map(
        lambda rows: "\n".join(["| a | b |", "| --- | --- |", *rows])
    ),
    st.lists(st.sampled_from(["# not a heading", "| a |", "<!-- page 9 -->", ""]), max_size=3).map(
        lambda lines: "\n".join(["```", *lines, "```"])
    ),
    st.just("<!-- table: 2 header rows -->"),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(BLOCKS, max_size=12))
def test_pages_are_those_of_a_naive_marker_scan(blocks: list[str]) -> None:
    markdown = "\n\n".join(blocks) + "\n"
    index = build_index(markdown)
    assert [index.page(row) for row in range(len(index))] == naive_pages(markdown)


def markdown_it_kinds(markdown: str) -> list[LineKind]:
    """Each line's kind as markdown-it's block tokens place it (lines no token covers: blank)."""
    lines = lines_of(markdown)
    kinds = [LineKind.BLANK] * len(lines)
    parser = MarkdownIt("commonmark").enable("table")
    for token in parser.parse(markdown):
        if token.map is None or token.nesting < 0 or token.level > 0:
            continue
        first, end = token.map
        if token.type == "heading_open":
            kinds[first] = LineKind.HEADING
        elif token.type == "paragraph_open":
            kinds[first:end] = [LineKind.PARAGRAPH] * (end - first)
        elif token.type in ("bullet_list_open", "ordered_list_open"):  # (its range: blanks too)
            for row in range(first, end):
                kinds[row] = LineKind.LIST if lines[row].strip() else LineKind.BLANK
        elif token.type == "table_open":
            kinds[first:end] = [LineKind.TABLE] * (end - first)
            kinds[first + 1] = LineKind.DELIMITER
        elif token.type == "fence":
            inside = token.content.split("\n")[:-1]
            code = [LineKind.CODE if line.strip() else LineKind.BLANK for line in inside]
            kinds[first:end] = [LineKind.FENCE, *code, LineKind.FENCE]
        elif token.type == "html_block":
            marker = parse_page_marker(token.content)
            kinds[first] = LineKind.PAGE_MARKER if marker else LineKind.COMMENT
    return kinds


@settings(max_examples=200, deadline=None)
@given(st.lists(BLOCKS, max_size=12))
def test_kinds_agree_with_markdown_it_on_the_dialect(blocks: list[str]) -> None:
    markdown = "\n\n".join(blocks) + "\n"
    index = build_index(markdown)
    assert [LineKind(kind) for kind in index.kinds] == markdown_it_kinds(markdown)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(LINE_PARTS), min_size=1, max_size=40),
    st.sampled_from(["\n", "\r\n"]),
    st.integers(1, 3),
)
def test_texts_in_batches_are_the_texts_one_by_one(
    parts: list[str], newline: str, step: int
) -> None:
    """Past FEW_ROWS rows, texts are read in batches (split at once, or sliced when sparse)."""
    markdown = newline.join(parts * 8)
    index = build_index(markdown)
    for rows in (range(len(index)), index.content_rows(), range(0, len(index), step)):
        picked = list(rows)
        assert index.texts(picked) == [index.text(row) for row in picked]
        assert list(index.records(picked)) == [index.record(row) for row in picked]
    backwards = list(reversed(range(len(index))))
    assert index.texts(backwards) == [index.text(row) for row in backwards]


@given(st.text(alphabet=" \t\u3000\u00a0>a\x0b", max_size=30))
def test_paragraph_text_takes_off_what_the_loop_took_off(line: str) -> None:
    """The definition: whitespace off, then a quote mark and the whitespace after it, again."""
    text = line.lstrip()
    while text.startswith(">"):
        text = text[1:].lstrip()
    assert paragraph_text(line) == text
