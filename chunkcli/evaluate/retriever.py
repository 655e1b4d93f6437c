"""Retrievers over a fixed list of chunk texts: BM25 (bm25s) by default, or a user's embedding.

Both rank every text for a query and break ties by the text's position in the index, so the
same index and query always give the same order.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

from chunkcli.errors import ChunkcliError, UsageError
from chunkcli.evaluate.tokenize import tokenize

# BM25 parameters: Lucene's defaults (also bm25s' and Elasticsearch's), so the figures compare
# with what a user's search engine would do out of the box.
BM25_K1 = 1.5
BM25_B = 0.75

Embed = Callable[[list[str]], Sequence[Sequence[float]]]


class Retriever(Protocol):
    """Ranks the indexed texts for a query: the first `n` positions, best first."""

    name: str

    def search(self, query: str, n: int) -> list[int]: ...


class RetrieverUnavailable(ChunkcliError):
    """bm25s is not installed, or an --embed callable cannot be loaded or fails."""


def top_positions(scores: npt.NDArray[np.floating], n: int) -> list[int]:
    """The `n` highest scores' positions, ties broken by position (lexsort is stable)."""
    order = np.lexsort((np.arange(len(scores)), -scores.astype(np.float64)))
    return [int(i) for i in order[:n]]


class Bm25Retriever:
    """Okapi BM25 (Lucene variant) through bm25s, over `tokenize`d texts."""

    name = f"BM25 (bm25s, k1={BM25_K1}, b={BM25_B})"

    def __init__(self, texts: Sequence[str]) -> None:
        try:
            import bm25s
        except ImportError:
            raise RetrieverUnavailable(
                "chunkcli eval needs bm25s: pip install 'chunkcli[eval]'"
            ) from None
        self._vocabulary: dict[str, int] = {}
        ids = [
            [self._vocabulary.setdefault(t, len(self._vocabulary)) for t in tokenize(text)]
            for text in texts
        ]
        self._count = len(texts)
        self._bm25 = bm25s.BM25(k1=BM25_K1, b=BM25_B)
        # bm25s takes pre-tokenised ids with their vocabulary; our tokenizer, not its own.
        self._bm25.index(
            bm25s.tokenization.Tokenized(ids=ids, vocab=self._vocabulary), show_progress=False
        )

    def search(self, query: str, n: int) -> list[int]:
        terms = [self._vocabulary[t] for t in tokenize(query) if t in self._vocabulary]
        if not terms:
            return top_positions(np.zeros(self._count), n)
        return top_positions(np.asarray(self._bm25.get_scores(terms)), n)


class EmbeddingRetriever:
    """Cosine similarity of vectors from a user's callable: texts in, one vector per text out."""

    def __init__(self, texts: Sequence[str], embed: Embed, name: str) -> None:
        self.name = f"embedding ({name})"
        self._embed = embed
        self._vectors = _unit_rows(_call(embed, list(texts), name), len(texts), name)
        self._label = name

    def search(self, query: str, n: int) -> list[int]:
        vector = _unit_rows(_call(self._embed, [query], self._label), 1, self._label)[0]
        return top_positions(self._vectors @ vector, n)


def _call(embed: Embed, texts: list[str], name: str) -> Sequence[Sequence[float]]:
    try:
        return embed(texts)
    except Exception as exc:  # noqa: BLE001 - a user's code: any failure becomes one line naming it
        raise RetrieverUnavailable(f"--embed {name} failed: {type(exc).__name__}: {exc}") from None


def _unit_rows(vectors: Sequence[Sequence[float]], rows: int, name: str) -> npt.NDArray[np.float64]:
    array = np.asarray(vectors, dtype=np.float64)
    if array.ndim != 2 or array.shape[0] != rows:
        raise RetrieverUnavailable(
            f"--embed {name} must return one vector per text ({rows}), got shape {array.shape}"
        )
    norms = np.linalg.norm(array, axis=1, keepdims=True)
    return array / np.where(norms == 0, 1.0, norms)


def load_embed(spec: str) -> Embed:
    """`module:callable` -> the callable (imported from the user's environment); one that
    cannot be loaded is a bad option value (UsageError)."""
    module_name, sep, attribute = spec.partition(":")
    if not sep or not module_name or not attribute:
        raise UsageError(f"--embed expects MODULE:CALLABLE, got {spec!r}")
    try:
        found: object = importlib.import_module(module_name)
        for part in attribute.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError) as exc:
        raise UsageError(f"--embed {spec}: cannot load ({exc})") from None
    if not callable(found):
        raise UsageError(f"--embed {spec}: not callable")
    embed: Embed = found
    return embed
