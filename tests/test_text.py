"""chunkcli.text: line joins (hyphenation decided with a word list, CJK and Hangul joins)."""

from __future__ import annotations

import pytest

from chunkcli.text import join_lines


@pytest.mark.parametrize(
    ("lines", "joined"),
    [
        (["an ex-", "periment"], "an experiment"),
        (["multi-", "ple runs"], "multiple runs"),
        (["infor-", "mation"], "information"),
        (["tokeni-", "zation"], "tokenization"),  # rare word, halves are no words: joined
        (["self-", "aware"], "self-aware"),
        (["his ex-", "wife"], "his ex-wife"),
        (["state-of-the-", "art"], "state-of-the-art"),
        (["a dual-", "encoder model"], "a dual-encoder model"),
        (["an x-", "ray image"], "an x-ray image"),
        (["Lucene-", "BM25"], "Lucene-BM25"),
    ],
)
def test_end_of_line_hyphenation_is_decided_with_a_word_list(
    lines: list[str], joined: str
) -> None:
    assert join_lines(lines) == joined
