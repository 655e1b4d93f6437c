"""Integrity under faults (issue 30, points 6, 7 and 9): odd names and option values, bounded
chunk metadata, linear qa mode, leftovers of killed writes, signals and manifest misuse. Each
test builds its own small input and fails on the code before the fix."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

from chunkcli.split.lines import PieceLine
from chunkcli.split.qa import find_questions


class CountingLines(Sequence[PieceLine]):
    """A line list that counts the items read from it (one per index, n per slice)."""

    def __init__(self, lines: list[PieceLine]) -> None:
        self.lines = lines
        self.reads = 0

    @overload
    def __getitem__(self, index: int) -> PieceLine: ...
    @overload
    def __getitem__(self, index: slice) -> list[PieceLine]: ...
    def __getitem__(self, index: int | slice) -> PieceLine | list[PieceLine]:
        found = self.lines[index]
        self.reads += len(found) if isinstance(found, list) else 1
        return found

    def __len__(self) -> int:
        return len(self.lines)

    def __iter__(self) -> Iterator[PieceLine]:
        for line in self.lines:
            self.reads += 1
            yield line


def test_qa_questions_read_each_line_a_bounded_number_of_times() -> None:
    """Issue 30, point 7: each question copied the rest of the line list (2 MB of `Q:` lines
    took 242 s); now each line is read a few times whatever the document's length."""
    from chunkcli.markdown_index import line_offsets
    from chunkcli.split import SplitOptions
    from chunkcli.split.counting import counter_per_span
    from chunkcli.split.layout import find_title, make_layout
    from chunkcli.split.lines import text_lines
    from chunkcli.split.scan import scan_markdown

    markdown = "Q: is this a question?\n" * 2000
    scan = scan_markdown(markdown, counter_per_span(markdown, len))
    title = find_title(scan.pieces, None, "")
    layout = make_layout(markdown, scan.pieces, title, len, SplitOptions(mode="qa"), False)
    lines = CountingLines(text_lines(markdown, layout.pieces, line_offsets(markdown)))
    questions = find_questions(lines, layout, title[1])
    assert len(questions) == 2000
    assert lines.reads <= 4 * len(lines)


def test_title_and_heading_path_names_are_bounded_and_bodies_whole() -> None:
    """Issue 30, point 7: every chunk copied a 100 KB title whole into `title` and
    `heading_path` (JSON Lines 4,600 times the input). Each is cut to 1,000 characters."""
    from chunkcli.split import split_markdown
    from chunkcli.split.build import MAX_NAME_CHARS

    title = "Title words " * 2000
    section = "## " + "Long heading " * 100 + "\n\nText of one short section.\n\n"
    markdown = f"# {title}\n\n" + section * 20
    chunks = split_markdown(markdown)
    cut_title = title.strip()[: MAX_NAME_CHARS - 1] + "…"
    cut_heading = ("Long heading " * 100).strip()
    assert {c.title for c in chunks} == {cut_title}
    paths = {c.heading_path for c in chunks}
    assert paths == {(cut_title,), (cut_title, cut_heading[:999] + "…")}
    assert all(c.body == markdown[c.start : c.end] for c in chunks)
    assert "".join(c.body for c in chunks).count("Text of one short section.") == 20
