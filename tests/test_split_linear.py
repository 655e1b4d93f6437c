"""The mechanisms that keep split linear and quick on pathological Markdown (issue 15, class 5),
checked by what they do, not by time (bench/fuzz/markdown_speed.py measures the speed)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import chunkcli.split.blocks as blocks
from chunkcli.split import SplitOptions, split_markdown
from chunkcli.split.kinds import BlockKind, RawBlock
from chunkcli.split.units import Units, longest_within, make_units, split_units, summed_reach
from chunkcli.tokens import load_encoding


def test_groups_of_headings_and_paragraph_lines_need_no_parser(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_parser() -> object:
        raise AssertionError("the parser was asked")

    monkeypatch.setattr(blocks, "block_parser", no_parser)
    markdown = "# h\n" * 3 + "Text\n===\n#tag line\nmore | text\n## End ##\n"
    found, marks = blocks.find_blocks(markdown)
    assert (found, marks) == (
        [
            RawBlock(BlockKind.HEADING, 0, 1, 1, "h"),
            RawBlock(BlockKind.HEADING, 1, 2, 1, "h"),
            RawBlock(BlockKind.HEADING, 2, 3, 1, "h"),
            RawBlock(BlockKind.HEADING, 3, 5, 1, "Text"),
            RawBlock(BlockKind.TEXT, 5, 7),
            RawBlock(BlockKind.HEADING, 7, 8, 2, "End"),
        ],
        [],
    )


def test_a_span_surely_over_the_budget_is_cut_without_being_counted() -> None:
    encode = load_encoding("cl100k_base").encode_ordinary
    counted: list[int] = []

    def count(text: str) -> int:
        counted.append(len(text))
        return len(encode(text))

    text = "x" * 50_000
    units = split_units(text, 0, len(text), 64, count, max_token_bytes=128)
    assert int(units.starts[0]) == 0 and int(units.ends[-1]) == len(text)
    assert all(int(n) <= 64 for n in units.tokens)
    # The character level counts trial cuts of at most 64 * 32 characters; the sentence,
    # clause and word levels (one span of 50,000 bytes > 64 * 128) count nothing.
    assert max(counted) <= 64 * 32


def test_windows_of_a_long_paragraph_are_settled_with_few_counts() -> None:
    encode = load_encoding("cl100k_base").encode_ordinary
    long_counts = 0

    def count(text: str) -> int:
        nonlocal long_counts
        long_counts += len(text) > 100
        return len(encode(text))

    markdown = "*a **b _c __d " * 4000  # no sentence or clause ends: one unit per word
    chunks = split_markdown(markdown, SplitOptions(max_tokens=64), count_tokens=count)
    assert "".join(c.body + " " for c in chunks).split() == markdown.split()
    # Each window: about two trial counts, and one more count of the chunk (any counter is
    # recounted); a bisection per window took ten.
    assert long_counts <= 4 * len(chunks)


def naive_reach(text: str, units: Units, count: Callable[[str], int]) -> list[int]:
    """summed_reach's definition, a step per unit: each unit's count and the count of the gap
    before it when that gap is wider than one character."""
    reach = [0] if len(units) else []
    for k in range(1, len(units)):
        gap = units.starts[k] - units.ends[k - 1]
        wide = count(text[units.ends[k - 1] : units.starts[k]]) if gap > 1 else 0
        reach.append(reach[-1] + units.tokens[k] + wide)
    return reach


@settings(max_examples=300, deadline=None)
@given(
    st.text(alphabet=" \n\t\u3000a.,;日本。", max_size=120),
    st.integers(1, 6),
)
@example("日。日\n\n\n日", 2)  # the unit "日\n" (cut between characters) ends in its gap's run
def test_summed_reach_is_its_definition_with_gaps_read_off_the_text(text: str, budget: int) -> None:
    """Units at every level (sentences to characters, Japanese text cut anywhere, a unit that
    ends in a line break) give the reach a step per unit gives."""
    units = split_units(text, 0, len(text), budget, len)
    assert list(summed_reach(text, units, len)) == naive_reach(text, units, len)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 6), max_size=30), st.text(alphabet=" |a\n", max_size=60))
def test_summed_reach_of_tiling_units_is_its_definition(cuts: list[int], text: str) -> None:
    """Units that tile their text (a table's rows: each starts where the one before ends)
    have no gap, however many runs of spaces they hold: the reach is the summed counts."""
    bounds = sorted({min(sum(cuts[: k + 1]), len(text)) for k in range(len(cuts))} | {0})
    spans = [(lo, hi) for lo, hi in zip(bounds, [*bounds[1:], len(text)], strict=True) if hi > lo]
    units = make_units(spans, [hi - lo for lo, hi in spans], False)
    counted: list[str] = []

    def count(piece: str) -> int:
        counted.append(piece)
        return len(piece)

    assert list(summed_reach(text, units, count)) == naive_reach(text, units, count)
    assert counted == []


def test_summed_reach_counts_only_the_wide_gaps() -> None:
    text = "a " * 100_000 + "b\n\n    c  d"
    units = split_units(text, 0, len(text), 1, len)
    counted: list[str] = []

    def count(piece: str) -> int:
        counted.append(piece)
        return len(piece)

    reach = summed_reach(text, units, count)
    assert counted == ["\n\n    ", "  "]  # (not a count per unit: 100,003 units)
    assert reach[-1] == 100_002 + 6 + 2


def test_longest_within_finds_the_last_cut_that_fits_from_any_guess() -> None:
    for answer in (1, 2, 7, 50, 99, 100):
        for guess in (1, 3, 50, 99, 100, 400):
            probes: list[int] = []

            def fits(cut: int, answer: int = answer, probes: list[int] = probes) -> bool:
                probes.append(cut)
                return cut <= answer

            assert longest_within(fits, 0, 100, guess) == max(answer, 1)
            assert len(probes) <= 16


def test_a_paragraph_megabytes_long_in_one_pre_split_piece_is_never_encoded_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    encoding = load_encoding("cl100k_base")
    longest: list[int] = [0]
    for name in ("encode_ordinary", "encode_to_numpy"):
        real = getattr(encoding, name)

        def spy(text: str, *args: object, real: object = real, **kwargs: object) -> object:
            longest[0] = max(longest[0], len(text))
            return real(text, *args, **kwargs)  # type: ignore[operator]

        monkeypatch.setattr(encoding, name, spy)
    # A run of newlines is one piece of tiktoken's pre-split (and so is a run of letters).
    markdown = "# Title\n\nSome text.\n" + "\n" * 300_000 + "More text.\n" + "x" * 300_000
    chunks = split_markdown(markdown, SplitOptions(max_tokens=100))
    count = load_encoding("cl100k_base").encode_ordinary
    assert all(c.tokens == len(count(c.text)) <= 100 for c in chunks)
    assert [c.body for c in chunks[:2]] == ["# Title\n\nSome text.", "More text."]
    assert "".join(c.body for c in chunks[2:]) == "x" * 300_000
    # The windows of x are counted in trial cuts of at most 100 * 32 characters.
    assert longest[0] <= 100 * 32


@pytest.mark.parametrize("before", ["", "# Title\n\n", "abc\n", "# T\n\n## Part\n\n"])
def test_windows_of_one_unit_each_are_not_recounted(
    monkeypatch: pytest.MonkeyPatch, before: str
) -> None:
    encoding = load_encoding("cl100k_base")
    real = encoding.encode_ordinary
    calls = 0

    def spy(text: str) -> list[int]:
        nonlocal calls
        calls += 1
        return real(text)

    monkeypatch.setattr(encoding, "encode_ordinary", spy)
    markdown = before + "x" * 50_000  # one word: every window is one unit of characters
    chunks = split_markdown(markdown, SplitOptions(max_tokens=64))
    assert all(c.tokens == len(real(c.text)) <= 64 for c in chunks)
    assert sum(c.body.count("x") for c in chunks) == 50_000
    # About two trial cuts per unit; the unit's count and the window's are not taken again
    # (four counts a window before).
    assert calls <= 2.5 * len(chunks)


@pytest.mark.parametrize("enabled", [True, False])
def test_split_pauses_the_cyclic_collector_and_restores_its_state(enabled: bool) -> None:
    import gc

    seen: list[bool] = []

    def count(text: str) -> int:
        seen.append(gc.isenabled())
        return len(text)

    was = gc.isenabled()
    (gc.enable if enabled else gc.disable)()
    try:
        split_markdown("# T\n\ntext\n", count_tokens=count)
        assert gc.isenabled() is enabled
    finally:
        (gc.enable if was else gc.disable)()
    assert seen and not any(seen)
