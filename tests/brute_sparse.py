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
