"""Definition-level brute force for threshold, DS, dual VC, star number, TD and RTD (tests only).

Every function takes the table as a list of rows (lists of labels) and tries
every candidate the definition quantifies over, with Python sets of tuples.
Shares no code with dimcalc (imports nothing from it).

* threshold: the largest ``t`` with an ordered tuple of ``t`` points and rows
  ``h_1..h_t`` with ``h_i(x_j) = 1`` iff ``i <= j`` (ALMM19 §2);
* DS: the largest ``S`` such that some non-empty subset of the patterns on
  ``S`` is a pseudo-cube (every pattern has, for every coordinate, a pattern in
  the subset that differs from it there only) -- every subset is tried;
* dual VC: the largest set of distinct rows such that every 0/1 vector is the
  column of some point on them;
* star: the largest ``S`` and centre ``h_0`` such that each ``x`` in ``S`` has
  a row differing from ``h_0`` on ``S`` exactly at ``x``;
* TD: the largest, over distinct rows ``c``, of the least ``k`` such that some
  ``k`` points tell ``c`` from every other distinct row;
* RTD: ``max`` over every non-empty set ``C'`` of distinct rows of
  ``min_{c in C'} TD(c, C')`` (Doliwa et al. 2014; equal to the teaching-plan
  definition of Zilles et al. 2011).
"""

from __future__ import annotations

import itertools


def _cols(row, points):
    return tuple(row[x] for x in points)


def brute_threshold(table: list[list[int]], n_points: int) -> int:
    best = 0
    for t in range(1, n_points + 1):
        found = False
        for pts in itertools.permutations(range(n_points), t):
            pats = {_cols(row, pts) for row in table}
            if all(tuple(int(i <= j) for j in range(t)) in pats for i in range(t)):
                found = True
                break
        if not found:
            break
        best = t
    return best


def _is_pseudo_cube(cube: set) -> bool:
    if not cube:
        return False
    d = len(next(iter(cube)))
    return all(
        any(q[i] != p[i] and all(q[j] == p[j] for j in range(d) if j != i) for q in cube)
        for p in cube
        for i in range(d)
    )


def brute_ds(table: list[list[int]], n_points: int) -> int:
    """Every non-empty subset of the patterns on every point set (keep the classes tiny)."""
    best = 0
    for size in range(1, n_points + 1):
        for pts in itertools.combinations(range(n_points), size):
            pats = sorted({_cols(row, pts) for row in table})
            if any(
                _is_pseudo_cube(set(sub)) for k in range(1, len(pats) + 1) for sub in itertools.combinations(pats, k)
            ):
                best = max(best, size)
    return best


def brute_dual_vc(table: list[list[int]], n_points: int) -> int:
    rows = sorted({tuple(r) for r in table})
    best = 0
    for k in range(1, len(rows) + 1):
        for hs in itertools.combinations(rows, k):
            vectors = {tuple(h[x] for h in hs) for x in range(n_points)}
            if all(b in vectors for b in itertools.product((0, 1), repeat=k)):
                best = k
    return best


def brute_star(table: list[list[int]], n_points: int) -> int:
    best = 0
    for size in range(1, n_points + 1):
        for pts in itertools.combinations(range(n_points), size):
            for h0 in table:
                if all(any([x for x in pts if h[x] != h0[x]] == [y] for h in table) for y in pts):
                    best = max(best, size)
    return best


def _td(c: tuple, concepts: list[tuple], n_points: int) -> int:
    for k in range(n_points + 1):
        for pts in itertools.combinations(range(n_points), k):
            if not any(d != c and all(d[x] == c[x] for x in pts) for d in concepts):
                return k
    raise AssertionError("distinct concepts always have a teaching set")


def brute_td(table: list[list[int]], n_points: int) -> int:
    concepts = sorted({tuple(r) for r in table})
    return max(_td(c, concepts, n_points) for c in concepts)


def brute_rtd(table: list[list[int]], n_points: int) -> int:
    concepts = sorted({tuple(r) for r in table})
    best = 0
    for k in range(1, len(concepts) + 1):
        for sub in itertools.combinations(concepts, k):
            best = max(best, min(_td(c, list(sub), n_points) for c in sub))
    return best
