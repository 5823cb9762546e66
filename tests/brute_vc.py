"""Definition-level brute force for VC, Natarajan and graph dimensions (tests only).

Every subset of points, in increasing size, is tested against the definition
with Python sets of label tuples; the search stops at the first size with no
shattered set (shattered sets are closed under subsets).  Two shortcuts, both
read straight off the definitions:

* a set ``S`` with fewer than ``2^|S|`` distinct patterns cannot be shattered
  under any notion (each realised pattern of bits comes from its own pattern
  of labels);
* ``f0`` and ``f1`` (Natarajan) and ``f`` (graph) are themselves realised
  patterns on ``S`` (the mixes ``T = ∅``, ``T = S``; the pattern "agree
  everywhere"), so they are enumerated among the realised patterns.

Shares no code with ``dimcalc.vc``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable


def _patterns(table: list[list[int]], points: tuple[int, ...]) -> set[tuple[int, ...]]:
    return {tuple(row[p] for p in points) for row in table}


def _largest(
    table: list[list[int]], n_points: int, witness_of: Callable[[set, tuple[int, ...]], object]
) -> tuple[int, object]:
    best: tuple[int, object] = (0, witness_of(_patterns(table, ()), ()))
    for size in range(1, n_points + 1):
        found = None
        for points in itertools.combinations(range(n_points), size):
            pats = _patterns(table, points)
            if len(pats) < 2**size:
                continue
            found = witness_of(pats, points)
            if found is not None:
                break
        if found is None:
            break
        best = (size, found)
    return best


def brute_vc(table: list[list[int]], n_points: int) -> tuple[int, list[int]]:
    """VC dimension (0/1 labels) and a shattered set."""

    def witness(pats: set, points: tuple) -> object:
        cube = set(itertools.product((0, 1), repeat=len(points)))
        return list(points) if cube <= pats else None

    size, w = _largest(table, n_points, witness)
    return size, w  # type: ignore[return-value]


def brute_natarajan(table: list[list[int]], n_points: int) -> tuple[int, dict]:
    """Natarajan dimension and a witness ``{"points", "f0", "f1"}``."""

    def witness(pats: set, points: tuple) -> object:
        for f0 in sorted(pats):
            for f1 in sorted(pats):
                if any(a == b for a, b in zip(f0, f1)):
                    continue
                mixes = {
                    tuple(f1[i] if bit else f0[i] for i, bit in enumerate(bits))
                    for bits in itertools.product((0, 1), repeat=len(points))
                }
                if mixes <= pats:
                    return {"points": list(points), "f0": list(f0), "f1": list(f1)}
        return None

    size, w = _largest(table, n_points, witness)
    return size, w  # type: ignore[return-value]


def brute_graph(table: list[list[int]], n_points: int) -> tuple[int, dict]:
    """Graph dimension and a witness ``{"points", "f"}``."""

    def witness(pats: set, points: tuple) -> object:
        for f in sorted(pats):
            agreements = {tuple(int(v == lab) for v, lab in zip(p, f)) for p in pats}
            if len(agreements) == 2 ** len(points):
                return {"points": list(points), "f": list(f)}
        return None

    size, w = _largest(table, n_points, witness)
    return size, w  # type: ignore[return-value]


def brute_growth(table: list[list[int]], n_points: int, m: int) -> int:
    """``max`` over ``m``-subsets of the number of distinct patterns (``m <= n_points``)."""
    return max(len(_patterns(table, pts)) for pts in itertools.combinations(range(n_points), m))
