"""Definition-level VC dimension of set systems and graphs' neighbourhood systems (tests only).

Works on the sets themselves (Python ``frozenset`` of elements), not on a
table: a subset ``S`` of the ground set is shattered when the traces
``{S ∩ r : r in R}`` are all ``2^|S|`` subsets of ``S``.  Shares no code with
dimcalc (imports nothing from it).
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Iterable


def shattered(sets: list[frozenset], points: Iterable[Hashable]) -> bool:
    """Whether every subset of ``points`` is the trace of some set."""
    s = frozenset(points)
    return len({s & r for r in sets}) == 2 ** len(s)


def brute_set_vc(sets: Iterable[Iterable[Hashable]], ground: Iterable[Hashable] | None = None) -> int:
    """The largest size of a shattered subset of the ground set (default: the union of the sets)."""
    family = [frozenset(r) for r in sets]
    elements = sorted(set(ground) if ground is not None else set().union(*family), key=repr)
    best = 0
    for size in range(1, len(elements) + 1):
        if 2**size > len(set(family)):
            break
        if not any(shattered(family, c) for c in itertools.combinations(elements, size)):
            break
        best = size
    return best


def closed_neighbourhoods(adjacency: dict[Hashable, set[Hashable]], closed: bool = True) -> list[frozenset]:
    """``N[v]`` (or ``N(v)``) for every vertex of an adjacency dict (undirected: both directions listed)."""
    return [frozenset(nbrs) | ({v} if closed else set()) for v, nbrs in adjacency.items()]


def brute_set_ldim(sets: Iterable[Iterable[Hashable]]) -> int:
    """Littlestone dimension of a set system by its definition: ``LDim(V) = max over x splitting V of
    1 + min(LDim(V without x), LDim(V with x))``, 0 for a single set (memoised on the version space)."""
    family = frozenset(frozenset(r) for r in sets)
    memo: dict[frozenset, int] = {}

    def ldim(v: frozenset) -> int:
        if len(v) <= 1:
            return 0
        if v not in memo:
            best = 0
            for x in set().union(*v):
                inside = frozenset(r for r in v if x in r)
                if 0 < len(inside) < len(v):
                    best = max(best, 1 + min(ldim(inside), ldim(v - inside)))
            memo[v] = best
        return memo[v]

    return ldim(family)


def is_set_mistake_tree(sets: list[frozenset], elements: list[Hashable], tree: dict) -> int | None:
    """The depth of ``tree`` (nodes ``{"point": column, "children": [out, in]}``, leaves ``{"hypothesis": row}``)
    when it is a complete mistake tree of the sets (columns index ``elements``, rows index ``sets``), else None."""
    depths = set()

    def walk(node: dict, path: list[tuple[Hashable, int]]) -> bool:
        if "hypothesis" in node:
            depths.add(len(path))
            r = sets[node["hypothesis"]]
            return all((x in r) == bool(side) for x, side in path)
        x = elements[node["point"]]
        return all(walk(child, path + [(x, side)]) for side, child in enumerate(node["children"]))

    return depths.pop() if walk(tree, []) and len(depths) == 1 else None
