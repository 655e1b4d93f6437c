"""split's quicker readings give what the plain definitions give: a table's rows and counts
(scan.py), chunk ids hashed in parts (build.py), the block-start test of a group's lines
(simple_lines.py), and heading paths set at the headings alone (layout.py)."""

from __future__ import annotations

import dataclasses
import hashlib

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from chunkcli.markdown_format import parse_header_rows
from chunkcli.markdown_lines import line_starts
from chunkcli.model import Chunk
from chunkcli.split import split_markdown
from chunkcli.split.blocks import find_blocks
from chunkcli.split.build import (
    CHUNK_FIELDS,
    Identity,
    chunk_id,
    id_hash_base,
    path_id_hash,
    text_id,
)
from chunkcli.split.counting import counter_per_span
from chunkcli.split.layout import (
    PATH_SEPARATOR,
    TITLE,
    Layout,
    common_prefix,
    find_title,
    heading_paths,
    make_layout,
)
from chunkcli.split.options import SplitOptions
from chunkcli.split.scan import Piece, PieceKind, Row, scan_markdown
from chunkcli.split.simple_lines import BLOCK_START_RE, opens_block
from chunkcli.tokens import tiktoken_counter

LINES = (
    "# Title",
    "## Part",
    "Plain text.",
    "- item",
    "| a | b |",
    "|---|---|",
    "| 1 | 2 |",
    "| 3 | 4 |",
    "<!-- table: 2 header rows -->",
    "<!-- table: 3 header rows -->",
    "<!-- page 2 -->",
    "<!-- note -->",
    "    code",
    "> quote",
)


@st.composite
def documents(draw: st.DrawFn) -> str:
    lines = draw(st.lists(st.sampled_from(LINES + ("",) * 5), max_size=40))
    newline = draw(st.sampled_from(("\n", "\r\n")))
    return newline.join(lines) + draw(st.sampled_from(("", newline)))


def defined_pieces(markdown: str) -> list[Piece]:
    """The pieces by their definition, one block at a time: a piece runs from its first line
    to the next piece, counted whole; a table's rows are its header and delimiter lines as one
    row (grown to the header rows a comment right before it announces), then a row a line,
    the last one taking the blank lines after it."""
    count = tiktoken_counter("cl100k_base")
    blocks, _ = find_blocks(markdown)
    while blocks and blocks[0].kind is PieceKind.MARKER and blocks[0].page == 0:
        blocks = blocks[1:]
    line_start = line_starts(markdown, lone_cr_ends=True)
    starts = [line_start[block.first_line] for block in blocks]
    ends = [*starts[1:], len(markdown)] if starts else []
    pieces: list[Piece] = []
    for block, start, end in zip(blocks, starts, ends, strict=True):
        if block.kind is not PieceKind.TABLE:
            content = block.kind in (PieceKind.TEXT, PieceKind.CODE, PieceKind.FIGURE)
            text = markdown[start:end]
            pieces.append(
                Piece(block.kind, start, end, count(text), block.level, block.heading, (), content)
            )
            continue
        row_starts = [start] + [line_start[i] for i in range(block.first_line + 2, block.last_line)]
        spans = [
            (lo, hi) for lo, hi in zip(row_starts, [*row_starts[1:], end], strict=True) if hi > lo
        ]
        rows = [Row(lo, hi, count(markdown[lo:hi])) for lo, hi in spans]
        header_rows = 1
        if pieces and pieces[-1].kind is PieceKind.MARKER:
            previous = pieces[-1]
            header_rows = parse_header_rows(markdown[previous.start : previous.end]) or 1
        if 1 < header_rows < len(rows):
            header = rows[:header_rows]
            grown = Row(header[0].start, header[-1].end, sum(row.tokens for row in header))
            rows = [grown, *rows[header_rows:]]
        total = sum(row.tokens for row in rows)
        pieces.append(Piece(block.kind, start, end, total, rows=tuple(rows)))
    return pieces


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
@example("<!-- table: 2 header rows -->\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n\nPlain text.")
@example("| a | b |\n|---|---|\n\n| a | b |\n|---|---|\n| 1 | 2 |")
def test_pieces_and_table_rows_are_as_defined(markdown: str) -> None:
    spans = counter_per_span(markdown, tiktoken_counter("cl100k_base"))
    assert list(scan_markdown(markdown, spans).pieces) == defined_pieces(markdown)


def test_a_table_between_blocks_gets_its_rows_and_the_rest_one_span_each() -> None:
    markdown = "Text.\n\n<!-- table: 2 header rows -->\n| a |\n|---|\n| b |\n| 1 |\n\nEnd.\n"
    pieces = scan_markdown(markdown, counter_per_span(markdown, len)).pieces  # (counts: lengths)
    assert [(p.kind, p.start, p.end, p.tokens) for p in pieces] == [
        (PieceKind.TEXT, 0, 7, 7),
        (PieceKind.MARKER, 7, 37, 30),
        (PieceKind.TABLE, 37, 62, 25),
        (PieceKind.TEXT, 62, 67, 5),
    ]
    # The header and delimiter lines and the announced second header row are one row.
    assert pieces[2].rows == (Row(37, 55, 18), Row(55, 62, 7))


def test_chunk_ids_hashed_in_parts_are_the_hash_of_the_joined_text() -> None:
    base = hashlib.sha256(b"doc\x1f3\x1f{}\x1f")
    path = ("Title", "Part ✓")
    text = "Body text, twice.\n\n"
    joined = "Title\x1ePart ✓\x1f2\x1fBody text, twice.\n\n".encode()
    expected = hashlib.sha256(b"doc\x1f3\x1f{}\x1f" + joined).hexdigest()[:32]
    assert chunk_id(base, path, text, 2) == expected
    assert text_id(path_id_hash(base, path), text, 2) == expected
    assert (
        chunk_id(base, (), "", 0) == hashlib.sha256(b"doc\x1f3\x1f{}\x1f\x1f0\x1f").hexdigest()[:32]
    )


BLOCK_LINES = ("Plain text.", "- item", "1. one", "12)", "1.x", "# h", "#tag", "    code", "\tTab",
               "> q", "<div>", "| a |", "[ref]: /x", "\\escaped", "===", "", "text")  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(BLOCK_LINES), min_size=1, max_size=8), st.data())
def test_opens_block_is_the_block_start_search(lines: list[str], data: st.DataObject) -> None:
    text = "\n".join(lines)
    line_starts_ = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
    start = data.draw(st.sampled_from(line_starts_))
    end = data.draw(st.integers(start, len(text)))
    assert opens_block(text, start, end) == bool(BLOCK_START_RE.search(text, start, end))


def test_opens_block_reads_every_line_of_the_span_and_no_further() -> None:
    assert not opens_block("Plain text.\nmore text", 0, 21)
    assert opens_block("Plain text.\n- item", 0, 18)
    assert opens_block("- item\nPlain", 0, 12)
    assert not opens_block("Plain\n- item", 0, 5)  # (the list line is past the span's end)
    assert opens_block("Plain\n12)", 0, 9)  # a number and ) at the end of the span: a list
    assert not opens_block("Plain\n1.x", 0, 9)
    assert opens_block("x\n- a\ny", 2, 7)  # from a later line start


HEADED = "# T\n\nA\n\n## S\n\nB\n\n<!-- page 2 -->\n\n### U\n\nC\n\n## V\n\nD\n"


def layout_of(markdown: str, max_tokens: int = 800) -> Layout:
    options = SplitOptions(max_tokens=max_tokens)
    count = tiktoken_counter("cl100k_base")
    spans = counter_per_span(markdown, count)
    pieces = scan_markdown(markdown, spans, collapse_headings=True).pieces  # (as split's default)
    title = find_title(pieces, None, "doc")
    return make_layout(markdown, pieces, title, count, options, sums_exact=True)


def test_heading_paths_set_by_the_headings_alone() -> None:
    layout = layout_of(HEADED)
    assert [p.kind for p in layout.pieces][:4] == [
        PieceKind.HEADING, PieceKind.TEXT, PieceKind.HEADING, PieceKind.TEXT
    ]  # fmt: skip
    assert layout.paths == (
        (TITLE,), (TITLE,), (TITLE, 2), (TITLE, 2), (TITLE, 2), (TITLE, 2, 5), (TITLE, 2, 5),
        (TITLE, 7), (TITLE, 7),
    )  # fmt: skip
    # The pieces after a heading, up to the next one, share its path object.
    assert layout.paths[3] is layout.paths[2] and layout.paths[4] is layout.paths[2]
    pieces = layout.pieces
    every = heading_paths(pieces, 0, True, HEADED)  # (the heading indices found here)
    assert every == layout.paths


PATH_LINES = ("# T", "## S", "### U", "Text.", "<!-- page 3 -->", "")


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.sampled_from(PATH_LINES), max_size=30),
    st.sampled_from(("", "## r\n\n", "## r\n")),
    st.data(),
)
def test_common_path_is_the_common_prefix_of_the_paths(
    lines: list[str], run_line: str, data: st.DataObject
) -> None:
    # A run of headings (heading_runs): between blank lines, its last ones stay headings of
    # their own; in one group of lines, the text after it follows the run's piece directly.
    run = "\n\n" + run_line * 300 + "\nText.\n" if run_line else ""
    markdown = "\n\n".join(lines) + run
    layout = layout_of(markdown)
    if not layout.pieces:
        return
    lo = data.draw(st.integers(0, len(layout.pieces) - 1))
    hi = data.draw(st.integers(lo + 1, len(layout.pieces)))
    first = lo
    if layout.has_content(lo, hi):
        while not layout.pieces[first].is_content:
            first += 1
    expected = layout.paths[first]
    for other in layout.paths[first + 1 : hi]:
        expected = common_prefix(expected, other)
    assert layout.common_path(lo, hi) == expected


NAME_PARTS = ("Intro", "1.", "2.3", "(a)", "it's", "’s", "'ll", "日本語", "第1章", "…", "›", "—",
              "!?", ".", ":", "Ünïcödé", "🙂", "x" * 40, "«»", "C#", "#", "&", "12345", "%/",
              "\\", "|", "`code`", "A›B", "\u3000", "\xa0", "\t", "e\u0301", "", "'",
              "-", "\u200b")  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.lists(st.sampled_from(NAME_PARTS), min_size=1, max_size=4).map(
            lambda parts: " ".join(parts) if len(parts) % 2 else "".join(parts)
        ),
        min_size=1,
        max_size=5,
    )
)
@example(["Title", "Part ›", "…"])
@example(["Title ", "Part"])  # (a name that ends in a space is counted whole)
def test_path_line_counts_summed_from_segments_equal_whole_counts(names: list[str]) -> None:
    layout = layout_of("# T\n\nText.\n")
    text = PATH_SEPARATOR.join(names) + "\n\n"
    count = tiktoken_counter("cl100k_base")
    assert layout._path_line_tokens(names, text) == count(text)
    assert layout._path_line_tokens(names, text) == count(text)  # (from the segment counts)


def test_path_line_segments_are_counted_once_each() -> None:
    layout = layout_of("# T\n\nText.\n")
    line = layout._path_line_tokens(["Title", "Part", "Sub"], "Title › Part › Sub\n\n")
    assert line == tiktoken_counter("cl100k_base")("Title › Part › Sub\n\n")
    layout._path_line_tokens(["Title", "Part", "Other"], "Title › Part › Other\n\n")
    layout._path_line_tokens(["Title", "Two words ", "Sub"], "Title › Two words  › Sub\n\n")
    assert layout.segment_counts == {
        "Title": 1,
        " › Part": 2,
        " › Sub\n\n": 3,
        " › Other\n\n": 3,
        " › Two words ": None,  # (not whitespace-clean: that line was counted whole)
    }


def test_chunks_are_built_in_the_order_of_their_fields() -> None:
    """iter_chunks passes Chunk's fields by position, in CHUNK_FIELDS' order, and hashes the
    ids from the path's hash with the occurrence taken in."""
    assert tuple(field.name for field in dataclasses.fields(Chunk)) == CHUNK_FIELDS
    markdown = "# Title\n\n<!-- page 2 -->\n\nIntro.\n\n## Part\n\nSame.\n\n## Part\n\nSame.\n\n"
    chunks = split_markdown(markdown, SplitOptions(max_tokens=20), source="doc.md")
    assert [(c.kind, c.heading_path, c.prefix, c.body) for c in chunks] == [
        ("section", ("Title",), "Title\n\n", markdown[:34]),
        ("section", ("Title", "Part"), "Title › Part\n\n", "## Part\n\nSame.\n\n"),
        ("section", ("Title", "Part"), "Title › Part\n\n", "## Part\n\nSame.\n\n"),
    ]
    first, second, third = chunks
    assert (first.doc_id, first.source, first.title, first.start, first.end) == (
        "doc.md", "doc.md", "Title", 0, 34
    )  # fmt: skip
    assert (first.page_start, first.page_end, first.tokens, first.oversize) == (None, 2, 12, False)
    assert (third.start, third.end, third.page_start, third.page_end, third.tokens) == (
        50, 66, 2, 2, 9
    )  # fmt: skip
    assert first.split_config["max_tokens"] == 20 and first.metadata == {}
    assert (first.item, first.boxes, first.images, first.ocr_confidence) == (None, (), (), None)
    assert first.markdown_sha256 == hashlib.sha256(markdown.encode()).hexdigest()
    assert first.source_sha256 == first.markdown_sha256
    base = id_hash_base(Identity("doc.md", "", "", "", "", first.split_config, {}))
    text = "Title › Part\n\n## Part\n\nSame.\n\n"  # the same text twice under one path
    assert second.id == chunk_id(base, ("Title", "Part"), text, 0)
    assert third.id == chunk_id(base, ("Title", "Part"), text, 1)
    assert first.id == chunk_id(base, ("Title",), "Title\n\n# Title\n\nIntro.\n\n", 0)
