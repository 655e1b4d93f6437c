"""The union-find root shared by the grid, vector-figure and scanned-figure groupings."""

from __future__ import annotations

from chunkcli.convert.unionfind import root


def test_root_follows_the_chain_and_halves_the_path() -> None:
    parent = [0, 0, 1, 2, 3]  # a chain 4 -> 3 -> 2 -> 1 -> 0
    assert root(parent, 4) == 0
    assert parent == [0, 0, 0, 2, 2]  # 4 and 2, on the way, now point at their grandparents
    assert [root(parent, i) for i in range(5)] == [0, 0, 0, 0, 0]


def test_joined_roots_make_one_group_and_others_stay_apart() -> None:
    parent = list(range(6))
    for a, b in ((0, 1), (2, 3), (1, 3)):
        parent[root(parent, b)] = root(parent, a)
    groups: dict[int, list[int]] = {}
    for i in range(6):
        groups.setdefault(root(parent, i), []).append(i)
    assert sorted(groups.values()) == [[0, 1, 2, 3], [4], [5]]
