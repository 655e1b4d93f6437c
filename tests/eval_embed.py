"""A tiny real embedding function for the `--embed` hook's tests: hashed bag of terms.

Deterministic (crc32, not Python's salted hash), no model, no download.
"""

from __future__ import annotations

import zlib

from chunkcli.evaluate.tokenize import tokenize

DIMENSIONS = 256


def bag_of_terms(texts: list[str]) -> list[list[float]]:
    vectors = []
    for text in texts:
        vector = [0.0] * DIMENSIONS
        for term in tokenize(text):
            vector[zlib.crc32(term.encode("utf-8")) % DIMENSIONS] += 1.0
        vectors.append(vector)
    return vectors


def wrong_shape(texts: list[str]) -> list[list[float]]:
    return [[1.0, 0.0]]
