"""Union-find over indices, as a list of parents: groups of rules that touch (tables/grid.py),
of paths near each other (extract/vector_figures.py), of runs of ink cells (ocr/figures.py).

The forest is a plain list (`parent = list(range(n))`) that callers join roots in themselves
(`parent[root(parent, i)] = root(parent, j)`), so each keeps the direction it needs: a root
that must stay one (vector_figures) is never hung under another.
"""

from __future__ import annotations


def root(parent: list[int], i: int) -> int:
    """The root of `i`'s tree, each node on the way pointed at its grandparent (path halving:
    trees stay shallow without recursion)."""
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i
