"""Edges of a set of lines, robust to a stray one: the 10 % and 90 % deciles of sorted positions.

Shared by paragraph grouping (a column's left and right edges) and vertical-text rebuilding (the
edges of a horizontal page's body, beyond which a side margin begins).
"""

from __future__ import annotations


def low_decile(values: list[float]) -> float:
    """The value a tenth of the way up sorted `values` (not empty)."""
    return values[len(values) // 10]


def high_decile(values: list[float]) -> float:
    """The value nine tenths of the way up sorted `values` (not empty)."""
    return values[min(len(values) - 1, (len(values) * 9) // 10)]
