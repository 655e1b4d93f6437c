"""Long runs of empty headings are one piece in the heading mode (split/heading_runs.py): what
the chunks of such a run keep, and the memory it saves (issue 15, class 5)."""

from __future__ import annotations

import tracemalloc

from hypothesis import given, settings
from hypothesis import strategies as st

import chunkcli.split.blocks as blocks
from chunkcli.split import SplitOptions, split_markdown
from chunkcli.split.heading_runs import RUN_MIN_HEADINGS, RUN_TAIL_HEADINGS
from chunkcli.split.kinds import BlockKind, RawBlock
from chunkcli.split.layout import (
    RUN_ELEMENT_BASE,
    TITLE,
    _open_after_run,
    _open_after_run_forward,
)
from chunkcli.split.scan import Piece, PieceKind
from chunkcli.tokens import load_encoding

ENCODING = load_encoding("cl100k_base")


def _check_chunks(markdown: str, options: SplitOptions = SplitOptions()) -> None:
    chunks = split_markdown(markdown, options)
    assert "".join(chunk.body for chunk in chunks) == markdown
    for chunk in chunks:
        assert markdown[chunk.start : chunk.end] == chunk.body
        assert chunk.tokens == len(ENCODING.encode_ordinary(chunk.prefix + chunk.body))
        assert chunk.tokens <= options.max_tokens


def test_a_long_run_is_one_block_less_its_tail() -> None:
    markdown = "Intro\n\n" + "## a\n" * 10 + "# T\n\n" + "### b\n" * 300 + "text\n"
    found, _ = blocks.find_blocks(markdown, collapse_headings=True)
    tail = RUN_TAIL_HEADINGS  # headings on lines 2-11, 12, 14-313: the run to the 247th's line
    assert found[0] == RawBlock(BlockKind.TEXT, 0, 1)
    assert found[1] == RawBlock(BlockKind.HEADINGS, 2, 14 + 311 - tail - 11, 1, "T")
    assert [block.kind for block in found[2:]] == [BlockKind.HEADING] * tail + [BlockKind.TEXT]
    assert found[-2] == RawBlock(BlockKind.HEADING, 313, 314, 3, "b")
    # Shorter runs, and any run without the flag, stay one block per heading.
    short = "## a\n" * (RUN_MIN_HEADINGS - 1) + "text\n"
    assert len(blocks.find_blocks(short, collapse_headings=True)[0]) == RUN_MIN_HEADINGS
    assert len(blocks.find_blocks(markdown)[0]) == 313


def test_text_after_a_run_keeps_its_path_and_the_headings_above_it() -> None:
    markdown = "## a\n\n" * 100 + "# T\n" + "## b\n" * 200 + "### c\n\nbody text\n"
    chunks = split_markdown(markdown)
    assert chunks[0].title == "T"
    last = chunks[-1]
    assert last.heading_path == ("T", "b", "c")
    assert last.body.endswith("## b\n### c\n\nbody text\n")
    assert last.body.count("## b\n") > 1  # headings of the tail glued to the text
    _check_chunks(markdown)


def test_runs_over_the_limit_are_cut_at_line_starts_within_it() -> None:
    for markdown in ("# h\n" * 5000, "# h\n\n" * 4000, "# a\r\n## b\r\n\r\n" * 2000 + "x\r\n"):
        for limit in (800, 60):
            _check_chunks(markdown, SplitOptions(max_tokens=limit))
            for chunk in split_markdown(markdown, SplitOptions(max_tokens=limit)):
                assert markdown[chunk.start - 1 : chunk.start] in ("", "\n")


def test_splitting_many_headings_keeps_memory_a_small_multiple_of_the_input() -> None:
    split_markdown("# warm\n\nup\n")  # the encoder and its tables, loaded once
    for markdown in ("# h\n" * 50_000, "# h\n\n" * 40_000):
        tracemalloc.start()
        try:
            split_markdown(markdown)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        # 108x and 76x before runs were one piece; 18x and 14x with them.
        assert peak < 30 * len(markdown)


RUN_LINES = ("# a", "## b", "### c", "#### d", "###### f", "# T", "", "  ", "## b2\x00")


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(RUN_LINES), min_size=1, max_size=30),
    st.lists(st.integers(min_value=1, max_value=5), max_size=3, unique=True),
    st.booleans(),
)
def test_open_headings_read_backwards_are_the_stack_read_forwards(
    lines: list[str], incoming: list[int], holds_title: bool
) -> None:
    """The headings a run leaves open, found from its end (layout._open_after_run), are what
    taking the stack through every line gives (the definition, _open_after_run_forward)."""
    markdown = "Intro\n" + "\n".join(lines) + "\n"
    run = Piece(PieceKind.HEADINGS, 6, len(markdown), 0, min(_levels(lines), default=1))
    stack = [(level, (TITLE, -100 - level)) for level in sorted(incoming)]
    stack = [entry for entry in stack if entry[0] < run.level]
    forward, backward = list(stack), list(stack)
    names_forward = _open_after_run_forward(markdown, run, forward, (TITLE,), holds_title)
    names_backward = _open_after_run(markdown, run, backward, (TITLE,), holds_title)
    assert backward == forward
    assert names_backward == {
        k: v
        for k, v in names_forward.items()
        if k <= RUN_ELEMENT_BASE and k not in {path[-1] for _, path in stack}
    }


def _levels(lines: list[str]) -> list[int]:
    return [len(line) - len(line.lstrip("#")) for line in lines if line.startswith("#")]
