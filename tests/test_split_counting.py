"""Span counts cut from one encoding of the whole text equal the counts of each span alone."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from chunkcli.markdown_lines import line_offsets
from chunkcli.split import counting
from chunkcli.split.counting import (
    CountMemo,
    counter_from_fast_spans,
    counter_from_whole_text,
    counter_per_span,
)
from chunkcli.tokens import (
    TokenCounter,
    fast_counter,
    load_encoding,
    tiktoken_counter,
    utf8_counter,
)

# Lines that stress the pre-split: leading and trailing spaces and tabs, punctuation runs,
# numbers, contractions, CJK without spaces, table rows, a special-token string, \r\n endings.
LINE_PARTS = (
    "word",
    "  indented",
    "\tTab",
    "trailing  ",
    "|a|b|",
    "|---|---|",
    "1234567",
    "it's",
    "電源を切る。",
    "バルブ を開く",
    "<|endoftext|>",
    "!!!",
    "é",
    "🙂",
    "",
)
NEWLINES = ("\n", "\n", "\r\n", "\r", "\n\n", "\n  \n", "\n\t\n\n")


@st.composite
def document_and_bounds(draw: st.DrawFn) -> tuple[str, list[int]]:
    lines = draw(st.lists(st.lists(st.sampled_from(LINE_PARTS), max_size=4), max_size=25))
    text = ""
    for parts in lines:
        text += " ".join(parts) + draw(st.sampled_from(NEWLINES))
    starts = line_offsets(text, lone_cr_ends=True)[0]
    chosen = draw(st.lists(st.sampled_from(starts), max_size=12)) if starts else []
    return text, sorted({*chosen, len(text)} | ({0} if draw(st.booleans()) else set()))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document_and_bounds())
@example(("a\n\n\nb\n", [0, 2, 3, 5]))  # bounds inside a run of blank lines
@example(("x\r\ny\rz", [0, 3, 5, 6]))
@example(("\n\n\n\n", [0, 4]))  # a run of blank lines is one piece
@example(("a\n\n\n\nb\n" * 40, [0, 240]))
def test_whole_text_counts_equal_per_span_counts(case: tuple[str, list[int]]) -> None:
    text, bounds = case
    exact = counter_per_span(text, tiktoken_counter("cl100k_base"))
    assert counter_from_whole_text(text, "cl100k_base")(bounds) == exact(bounds)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document_and_bounds(), st.integers(1, 40))
def test_counts_from_parts_of_the_text_equal_per_span_counts(
    case: tuple[str, list[int]], part_chars: int
) -> None:
    """The text is encoded in parts of about PART_CHARS, each from a bound: parts of a few
    characters (down to one span each) give the same counts."""
    text, bounds = case
    exact = counter_per_span(text, tiktoken_counter("cl100k_base"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(counting, "PART_CHARS", part_chars)
        assert counter_from_whole_text(text, "cl100k_base")(bounds) == exact(bounds)


def test_a_long_text_is_encoded_in_parts(monkeypatch: pytest.MonkeyPatch) -> None:
    encoding = load_encoding("cl100k_base")
    real = encoding.encode_to_numpy
    encoded: list[int] = []

    def spy(text: str, *args: object, **kwargs: object) -> object:
        encoded.append(len(text))
        return real(text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(encoding, "encode_to_numpy", spy)
    monkeypatch.setattr(counting, "PART_CHARS", 1_000)
    line = "A line of ordinary text, twenty-nine words or so.\n"  # 50 characters
    text = line * 100
    bounds = list(range(0, len(text) + 1, 250))  # spans of five lines
    counts = counter_from_whole_text(text, "cl100k_base")(bounds)
    assert counts == counter_per_span(text, tiktoken_counter("cl100k_base"))(bounds)
    assert encoded == [1_000] * 5  # four spans a part: 1,000 characters from a bound


def test_a_lone_surrogate_falls_back_to_per_span_counts() -> None:
    text = "a\ud800b\nnext line\n"
    bounds = [0, 5, len(text)]
    exact = counter_per_span(text, tiktoken_counter("cl100k_base"))
    assert counter_from_whole_text(text, "cl100k_base")(bounds) == exact(bounds)


def test_without_numpy_every_span_is_counted_on_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "# Title\n\nSome text.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    bounds = [0, 9, 21, len(text)]
    expected = counter_from_whole_text(text, "cl100k_base")(bounds)
    monkeypatch.setitem(sys.modules, "numpy", None)  # import numpy now raises ImportError
    assert counter_from_whole_text(text, "cl100k_base")(bounds) == expected


LONGEST_CL100K_TOKEN_BYTES = 128  # counting.longest_token_bytes("cl100k_base")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document_and_bounds(), st.integers(1, 6), st.lists(st.booleans(), min_size=40))
def test_boundable_spans_over_the_limit_get_a_lower_bound_the_rest_exact_counts(
    case: tuple[str, list[int]], over: int, flags: list[bool]
) -> None:
    text, bounds = case
    boundable = flags[: len(bounds) - 1]
    exact = counter_per_span(text, tiktoken_counter("cl100k_base"))(bounds)
    counts = counter_from_whole_text(text, "cl100k_base", over=over)(bounds, boundable)
    for i, (lo, hi) in enumerate(zip(bounds, bounds[1:], strict=False)):
        size = len(text[lo:hi].encode("utf-8", "surrogatepass"))
        if i < len(boundable) and boundable[i] and size > over * LONGEST_CL100K_TOKEN_BYTES:
            assert over < counts[i] == -(-size // LONGEST_CL100K_TOKEN_BYTES) <= exact[i]
        else:
            assert counts[i] == exact[i]


def test_a_long_boundable_span_is_never_encoded(monkeypatch: pytest.MonkeyPatch) -> None:
    encoding = load_encoding("cl100k_base")
    encoded: list[int] = []
    for name in ("encode_ordinary", "encode_to_numpy"):
        real = getattr(encoding, name)

        def spy(text: str, *args: object, real: object = real, **kwargs: object) -> object:
            encoded.append(len(text))
            return real(text, *args, **kwargs)  # type: ignore[operator]

        monkeypatch.setattr(encoding, name, spy)
    text = "Some text.\n" + "\n" * 200_000 + "# Heading\n\n" + "x" * 150_000 + "\nEnd.\n"
    bounds = [0, 200_011, 200_022, 350_023, len(text)]
    counts = counter_from_whole_text(text, "cl100k_base", over=800)(bounds, [True] * 4)
    exact_heading = tiktoken_counter("cl100k_base")("# Heading\n\n")
    assert counts == [-(-200_011 // 128), exact_heading, -(-150_001 // 128), 2]
    assert encoded == [11, 5]  # the heading, then the last line: stretches between the bounds


def test_tiny_spans_are_counted_once_per_distinct_text(monkeypatch: pytest.MonkeyPatch) -> None:
    encoding = load_encoding("cl100k_base")
    real = encoding.encode_ordinary
    encoded: list[str] = []

    def spy(text: str) -> list[int]:
        encoded.append(text)
        return real(text)

    monkeypatch.setattr(encoding, "encode_ordinary", spy)
    text = "# h\n" * 1000 + "|\n" * 1000 + "# h\n\n" * 10
    bounds = [*range(0, 4000, 4), *range(4000, 6000, 2), *range(6000, 6050, 5), len(text)]
    exact = counter_per_span(text, tiktoken_counter("cl100k_base"))(bounds)
    assert counter_from_whole_text(text, "cl100k_base")(bounds) == exact
    assert encoded == ["# h\n", "|\n", "# h\n\n"]


def test_loading_the_encoding_writes_nothing_outside_the_outputs(tmp_path: Path) -> None:
    """tiktoken copies an encoding file it reads into $TMPDIR/data-gym-cache unless told not
    to: the file ships in a package, and chunkcli writes nothing but its outputs (issue 26)."""
    import os
    import subprocess
    import sys

    env = {
        k: v for k, v in os.environ.items() if k not in ("TIKTOKEN_CACHE_DIR", "DATA_GYM_CACHE_DIR")
    }
    env["TMPDIR"] = str(tmp_path)
    code = "from chunkcli.tokens import load_encoding; print(load_encoding().encode('a b'))"
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert list(tmp_path.iterdir()) == [] and "TIKTOKEN_CACHE_DIR" not in env


def test_release_rank_table_keeps_every_count_and_pickling() -> None:
    """The CLI's split frees tiktoken's Python copy of the ranks (release_rank_table): the
    counts of a document are the same after it, and the encoding still pickles (by name).
    In a child process: the encoding is shared by everything in a process."""
    code = (
        "import pickle\n"
        "from chunkcli.split import SplitOptions, split_markdown\n"
        "from chunkcli.split.counting import release_rank_table\n"
        "from chunkcli.tokens import load_encoding\n"
        "text = '# T\\n\\n' + 'Words and more words, 123 ünïcödé 日本語.\\n\\n' * 400\n"
        "options = SplitOptions(max_tokens=60)\n"
        "before = [(c.start, c.end, c.tokens) for c in split_markdown(text, options)]\n"
        "release_rank_table('cl100k_base')\n"
        "encoding = load_encoding('cl100k_base')\n"
        "after = [(c.start, c.end, c.tokens) for c in split_markdown(text, options)]\n"
        "again = pickle.loads(pickle.dumps(encoding))\n"
        "print(len(encoding._mergeable_ranks), before == after, len(before) > 10,\n"
        "      again.encode_ordinary(text) == encoding.encode_ordinary(text))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["0", "True", "True", "True"]


def _fast() -> TokenCounter:
    pytest.importorskip("rs_bpe")
    fast = fast_counter("cl100k_base")
    assert fast is not None
    return fast


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(document_and_bounds(), st.integers(1, 6), st.lists(st.booleans(), min_size=40))
@example(("a\ud800b\nnext line\n", [0, 5, 18]), 1, [False] * 40)  # a lone surrogate
def test_fast_span_counts_equal_the_whole_text_counts(
    case: tuple[str, list[int]], over: int, flags: list[bool]
) -> None:
    """Lower bounds included: split's output does not depend on which counter it has."""
    text, bounds = case
    boundable = flags[: len(bounds) - 1]
    whole = counter_from_whole_text(text, "cl100k_base", over=over)(bounds, boundable)
    fast = counter_from_fast_spans(text, _fast(), "cl100k_base", over=over)
    assert fast(bounds, boundable) == whole
    utf8 = utf8_counter("cl100k_base")
    mapped = counter_from_fast_spans(text, _fast(), "cl100k_base", over=over, utf8_count=utf8)
    assert mapped(bounds, boundable) == whole


def test_spans_are_counted_by_map_unless_bounded_tiny_or_not_utf8() -> None:
    fast, called = _fast(), []
    utf8 = utf8_counter("cl100k_base")

    def spy(text: str) -> int:
        called.append(text)
        return fast(text)

    def count(text: str, bounds: list[int], boundable: list[bool]) -> list[int]:
        called.clear()
        spans = counter_from_fast_spans(text, spy, "cl100k_base", over=4, utf8_count=utf8)
        return spans(bounds, boundable)

    text = "A paragraph of some words.\n\nAnother one, longer than that.\n"
    assert count(text, [0, 28, len(text)], [False, False]) == [6, 7] and called == []
    # A lone surrogate: rs-bpe refuses it, so every span is counted by the fallback.
    broken = "A paragraph \ud800 of words.\n\nAnother one, longer than that.\n"
    assert count(broken, [0, 27, len(broken)], [False, False]) == [7, 7] and len(called) == 2
    # Tiny spans on average: counted once per distinct text.
    assert count("# h\n" * 8, list(range(0, 36, 4)), []) == [3] * 8 and called == ["# h\n"]


def test_the_fast_counter_never_counts_a_long_boundable_span() -> None:
    fast, counted = _fast(), []

    def spy(text: str) -> int:
        counted.append(len(text))
        return fast(text)

    text = "Some text.\n" + "\n" * 200_000 + "# Heading\n\n" + "x" * 150_000 + "\nEnd.\n"
    bounds = [0, 200_011, 200_022, 350_023, len(text)]
    counts = counter_from_fast_spans(text, spy, "cl100k_base", over=800)(bounds, [True] * 4)
    assert counts == [-(-200_011 // 128), 3, -(-150_001 // 128), 2]
    assert counted == [11, 5]  # the heading, then "End.\n"


def test_the_fast_counter_counts_tiny_spans_once_per_distinct_text() -> None:
    fast, counted = _fast(), []

    def spy(text: str) -> int:
        counted.append(text)
        return fast(text)

    text = "# h\n" * 1000 + "|\n" * 1000 + "# h\n\n" * 10 + "A longer paragraph of text.\n"
    bounds = [*range(0, 4000, 4), *range(4000, 6000, 2), *range(6000, 6050, 5), len(text)]
    exact = counter_per_span(text, tiktoken_counter("cl100k_base"))(bounds)
    assert counter_from_fast_spans(text, spy, "cl100k_base")(bounds) == exact
    assert counted == ["# h\n", "|\n", "# h\n\n", "# h\n\nA longer paragraph of text.\n"]


def test_split_with_the_fast_counter_never_loads_tiktoken() -> None:
    """In a child process: what is loaded is the process's."""
    _fast()
    code = (
        "import sys\n"
        "from chunkcli.split import SplitOptions, split_markdown\n"
        "from chunkcli.split.counting import load_for_counting_only\n"
        "load_for_counting_only('cl100k_base')\n"
        "text = '# T\\n\\n' + 'Words and more words, 123 ünïcödé 日本語.\\n\\n' * 400\n"
        "chunks = list(split_markdown(text, SplitOptions(max_tokens=60)))\n"
        "print(len(chunks), sum(c.tokens for c in chunks), 'tiktoken' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["134", "7871", "False"]  # (as with tiktoken)


def test_fast_spans_take_a_boundable_list_shorter_than_the_spans() -> None:
    """As the whole-text counter does: spans past the list's end are not boundable."""
    text = "x" * 150_000 + "\n" + "y" * 150_000 + "\n"
    bounds = [0, 150_001, len(text)]
    counts = counter_from_fast_spans(text, _fast(), "cl100k_base", over=800)(bounds, [True])
    whole = counter_from_whole_text(text, "cl100k_base", over=800)(bounds, [True])
    assert counts == whole == [-(-150_001 // 128), whole[1]]
    assert whole[1] == tiktoken_counter("cl100k_base")("y" * 150_000 + "\n")


def test_the_count_memo_counts_each_remembered_text_once() -> None:
    counted: list[str] = []

    def spy(text: str) -> int:
        counted.append(text)
        return len(text)

    memo = CountMemo(spy)
    assert memo.counts(["ab", "cd", "ab", "ab", "efg"]) == [2, 2, 2, 2, 3]
    assert memo.counts(["efg", "cd", "h"]) == [3, 2, 1]
    assert counted == ["ab", "cd", "efg", "h"]
    assert (memo.counted, memo.remembered) == (4, 4)
    assert memo.known == {"ab": 2, "cd": 2, "efg": 3, "h": 1} and memo.chars == 8


def test_the_count_memo_forgets_all_past_its_bounds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(counting, "MEMO_TEXTS", 3)
    monkeypatch.setattr(counting, "MEMO_CHARS", 10)
    counted: list[str] = []

    def spy(text: str) -> int:
        counted.append(text)
        return len(text)

    memo = CountMemo(spy)
    assert memo.counts(["a", "b", "c"]) == [1, 1, 1] and len(memo.known) == 3  # at the bound
    assert memo.counts(["a", "d"]) == [1, 1] and memo.known == {} and memo.chars == 0  # past it
    assert memo.counts(["a", "xxxxxxxxxx"]) == [1, 10] and memo.known == {}  # 11 characters
    assert memo.counts(["a"]) == [1]
    assert counted == ["a", "b", "c", "d", "a", "xxxxxxxxxx", "a"]


def test_spans_are_counted_through_the_memo_in_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(counting, "MEMO_BATCH_SPANS", 2)
    monkeypatch.setattr(counting, "MEMO_TEXTS", 2)
    held: list[int] = []
    counts = CountMemo.counts

    def watched(self: CountMemo, texts: list[str]) -> list[int]:
        found = counts(self, texts)
        held.append(len(self.known))
        return found

    monkeypatch.setattr(CountMemo, "counts", watched)
    row, other = "| first | second |\n", "| third | fourth |\n"  # (spans not tiny)
    text = row * 3 + other + row + "Some text here.\n"
    bounds = [*range(0, 96, 19), len(text)]
    spans = counter_from_fast_spans(text, _fast(), "cl100k_base", utf8_count=_fast())
    assert spans(bounds, [False] * 6) == [5, 5, 5, 5, 5, 4]
    # Batches of two spans; the memo holds at most MEMO_TEXTS texts plus one batch, and is
    # emptied past them (after the third batch, holding both rows and the text).
    assert held == [1, 2, 0]
