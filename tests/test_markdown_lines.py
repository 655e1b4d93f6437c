"""The lines' offsets both readers share (split's block parser, check's line index)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chunkcli import markdown_lines
from chunkcli.markdown_lines import line_offsets


def lines_of(markdown: str) -> list[str]:
    """The definition: lines end at \\n, and a \\r just before it is no part of the line."""
    return markdown.replace("\r\n", "\n").split("\n")


def commonmark_lines_of(markdown: str) -> list[str]:
    """With lone_cr_ends: a \\r\\n, a \\r or a \\n ends a line (CommonMark's line endings)."""
    return re.split(r"\r\n|\r|\n", markdown)


def test_offsets_mark_each_line_without_its_line_end() -> None:
    markdown = "a\r\nbc\n\nd\re\n"
    begins, ends = line_offsets(markdown)
    assert [markdown[b:e] for b, e in zip(begins, ends, strict=True)] == ["a", "bc", "", "d\re", ""]
    assert (list(line_offsets("")[0]), list(line_offsets("")[1])) == ([0], [0])


def test_a_lone_cr_ends_a_line_when_asked() -> None:
    markdown = "a\rb\r\nc\r\r\nd\r"
    begins, ends = line_offsets(markdown, lone_cr_ends=True)
    assert list(begins) == [0, 2, 5, 7, 9, 11]
    lines = [markdown[b:e] for b, e in zip(begins, ends, strict=True)]
    assert lines == ["a", "b", "c", "", "d", ""]


def test_offsets_read_a_piece_at_a_time_join_across_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pieces end after a \\n, so a \\r\\n never falls between two and still ends one line."""
    texts = ["\na\r\n\n\naa\n\n\ra\r\r\n\r\na\ra", "\r\n" * 5, "a\r\n\rb\r\r\n\n", "ab\ncd\n"]
    for piece in (1, 2, 3, 5):
        monkeypatch.setattr(markdown_lines, "OFFSETS_PIECE", piece)
        for text in texts:
            begins, ends = line_offsets(text)
            assert [text[b:e] for b, e in zip(begins, ends, strict=True)] == lines_of(text)
            begins, ends = line_offsets(text, lone_cr_ends=True)
            lines = [text[b:e] for b, e in zip(begins, ends, strict=True)]
            assert lines == commonmark_lines_of(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="a\r\n\u00e9\U0001f600", max_size=60), st.integers(1, 8))
def test_offsets_are_the_lines_in_any_text(text: str, piece: int) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(markdown_lines, "OFFSETS_PIECE", piece)
        begins, ends = line_offsets(text)
        cr_begins, cr_ends = line_offsets(text, lone_cr_ends=True)
    assert [text[b:e] for b, e in zip(begins, ends, strict=True)] == lines_of(text)
    assert [text[b:e] for b, e in zip(cr_begins, cr_ends, strict=True)] == commonmark_lines_of(text)
    assert begins.typecode == "I"
