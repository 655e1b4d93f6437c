"""The size most of a text is set in, shared by the layout steps that compare against it."""

from __future__ import annotations

from collections.abc import Iterable

from chunkcli.model import Block


def typical_size(blocks: Iterable[Block]) -> float:
    """The font size carrying the most characters (the larger of a tie); 0.0 with no text."""
    weights: dict[float, int] = {}
    for block in blocks:
        for line in block.lines:
            weights[line.size] = weights.get(line.size, 0) + len(line.text)
    return max(weights.items(), key=lambda kv: (kv[1], kv[0]))[0] if weights else 0.0
