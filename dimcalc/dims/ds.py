"""DS dimension: the largest set of points on which the class contains a pseudo-cube.

A finite non-empty set ``B`` of label patterns on ``S`` is a *pseudo-cube*
when every ``b ∈ B`` has, for every ``x ∈ S``, an ``x``-neighbour in ``B``:
a pattern that differs from ``b`` at ``x`` and nowhere else.  ``S`` is
*DS-shattered* when ``H|_S`` contains a pseudo-cube, and the DS dimension is
the size of a largest DS-shattered set (Daniely and Shalev-Shwartz, COLT
2014; Brukhim, Carmon, Dinur, Moran, Yehudayoff, FOCS 2022, Defs 5-6, who
prove that it characterises multiclass PAC learnability).

Facts the solver uses (proofs in ``docs/dimensions.md``):

* pseudo-cubes are closed under union, so ``H|_S`` contains one iff the
  *largest* one, found by deleting patterns that lack a neighbour until
  none does, is non-empty;
* the projection of a pseudo-cube on ``S' ⊆ S`` is a pseudo-cube on ``S'``:
  DS-shattered sets are closed under subsets;
* a pseudo-cube on ``d`` points has at least ``2^d`` patterns, so
  ``DS <= ⌊log2 |H|⌋``; and ``Natarajan <= DS <= graph`` (a Natarajan
  product ``{f0, f1}^S`` is a pseudo-cube; the graph bound by induction);
* on binary classes a pseudo-cube is the whole cube ``{0, 1}^S``: DS = VC.

How the solver works
--------------------
Binary classes: the VC search (:func:`dimcalc.vc.vc_dimension`), its
shattered set with one row per pattern as the pseudo-cube.  Other classes: a
level-wise search over point sets (a set of size ``k`` is tried only when all
its subsets of size ``k - 1`` are DS-shattered), each tested by the deletion
fixpoint on its distinct patterns; the first level with no DS-shattered set
proves the upper bound.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from ..param_validation import CLASS, JOBS, PROGRESS, TIME_LIMIT, validate_params
from ..results import DimensionResult
from ..search.budget import SearchStopped
from ..vc import vc_dimension
from ._common import checked, dense_rows, result

__all__ = ["ds_dimension", "largest_pseudo_cube"]


def largest_pseudo_cube(patterns: np.ndarray) -> np.ndarray:
    """The indices of the largest pseudo-cube inside a set of distinct patterns (empty when there is none).

    Deletes every pattern that lacks an ``x``-neighbour for some coordinate
    ``x`` until none does; what is left is the union of all pseudo-cubes in
    the set.

    Parameters
    ----------
    patterns : ndarray, shape (m, d)
        Distinct label patterns on ``d`` points.

    Returns
    -------
    ndarray of int
        Row indices of the patterns in the largest pseudo-cube.

    Examples
    --------
    >>> hexagon = np.array([[0, 0], [1, 0], [1, 1], [2, 1], [2, 2], [0, 2], [2, 0]])
    >>> largest_pseudo_cube(hexagon).tolist()
    [0, 1, 2, 3, 4, 5, 6]
    >>> largest_pseudo_cube(np.array([[0, 0], [1, 0], [1, 1]])).tolist()
    []
    """
    alive = np.arange(patterns.shape[0])
    d = patterns.shape[1]
    changed = True
    while changed and alive.size:
        changed = False
        for x in range(d):
            rest = np.delete(patterns[alive], x, axis=1)
            # Distinct patterns with the same values off x differ exactly at x: neighbours.
            _, inverse, counts = np.unique(rest, axis=0, return_inverse=True, return_counts=True)
            keep = counts[inverse.reshape(-1)] >= 2
            if not keep.all():
                alive = alive[keep]
                changed = True
                if not alive.size:
                    break
    return alive


def _binary(H: Any, deadline: Any, jobs: int) -> DimensionResult:
    """DS = VC on a binary class: the VC search, its shattered set with one row per pattern."""
    vc = vc_dimension(H, time_limit=deadline.left(), jobs=jobs)
    assert vc.lower is not None and vc.upper is not None
    points = [int(x) for x in vc.witness]
    if points:  # one row of the whole table per pattern on the shattered set (reads only those columns)
        _, first = np.unique(H.columns(points), axis=0, return_index=True)
        witness = {"points": points, "hypotheses": sorted(int(j) for j in first)}
    else:
        witness = {"points": [], "hypotheses": [0]}
    return result(
        "ds",
        vc.lower,
        vc.upper,
        witness,
        deadline,
        "stopped" in vc.stats,
        method="VC search (DS = VC on binary classes)",
    )


@validate_params(H=CLASS, time_limit=TIME_LIMIT, progress=PROGRESS, jobs=JOBS)
def ds_dimension(H: Any, *, time_limit: float | None = None, progress: bool = False, jobs: int = 1) -> DimensionResult:
    """The DS dimension, with a DS-shattered set and its pseudo-cube as witness.

    Parameters
    ----------
    H : HypothesisClass
        Any class; on binary classes the DS dimension is the VC dimension.
    time_limit : float, optional
        Seconds, set-up included; when stopped, ``exact=False`` with proven bounds.
    progress : bool
        Accepted for the common solver signature (this search prints nothing).
    jobs : int
        Processes for the VC search on binary classes; the multiclass search runs in this process.

    Returns
    -------
    DimensionResult
        Kind ``"ds"``; ``witness = {"points": [...], "hypotheses": [rows]}``,
        rows whose patterns on the points form a pseudo-cube
        (:class:`dimcalc.witnesses.PseudoCube`).

    References
    ----------
    Daniely and Shalev-Shwartz (COLT 2014); Brukhim, Carmon, Dinur, Moran,
    Yehudayoff (FOCS 2022), Defs 5-6.

    Examples
    --------
    >>> from dimcalc import HypothesisClass, natarajan_dimension
    >>> hexagon = HypothesisClass.from_table([[0, 0], [1, 0], [1, 1], [2, 1], [2, 2], [0, 2]])
    >>> r = ds_dimension(hexagon)
    >>> r.value, r.witness, r.verify(hexagon), natarajan_dimension(hexagon).value
    (2, {'points': [0, 1], 'hypotheses': [0, 1, 2, 3, 4, 5]}, True, 1)
    """
    H, deadline, jobs = checked(H, time_limit, jobs, "ds_dimension")
    if H.is_binary:
        return _binary(H, deadline, jobs)
    m = H.n_distinct
    upper = min(m.bit_length() - 1, H.n_points)  # a pseudo-cube on d points has >= 2^d patterns
    best: tuple[tuple[int, ...], np.ndarray] = ((), np.array([0]))
    stopped = False
    tested = 0
    try:
        rows = dense_rows(H, deadline)
        level: list[tuple[int, ...]] = [(x,) for x in range(H.n_points) if len(np.unique(rows[:, x])) >= 2]
        while level and len(best[0]) < upper:
            found: list[tuple[int, ...]] = []
            for S in level:
                tested += 1
                deadline.check()
                patterns, first = np.unique(rows[:, list(S)], axis=0, return_index=True)
                if patterns.shape[0] < 2 ** len(S):
                    continue
                cube = largest_pseudo_cube(patterns)
                if cube.size:
                    found.append(S)
                    if len(S) > len(best[0]):
                        best = (S, first[cube])
            level = _next_level(found) if found else []
        if not level:  # no DS-shattered set one point larger than the best (subsets of one would be)
            upper = len(best[0])
    except SearchStopped:
        stopped = True
    points, cube_rows = best
    witness = {"points": list(points), "hypotheses": sorted(int(H.distinct_to_row[j]) for j in cube_rows)}
    return result("ds", len(points), upper, witness, deadline, stopped, sets_tested=tested, method="level-wise search")


def _next_level(found: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Sets of size ``k + 1`` all of whose ``k``-subsets are in ``found`` (sorted tuples of size ``k``)."""
    known = set(found)
    out = []
    for a, b in itertools.combinations(sorted(found), 2):
        if a[:-1] != b[:-1]:
            continue
        S = (*a, b[-1])
        if all(S[:i] + S[i + 1 :] in known for i in range(len(S))):
            out.append(S)
    return out
