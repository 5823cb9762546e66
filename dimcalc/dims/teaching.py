"""Teaching dimension (Goldman and Kearns 1995) and recursive teaching dimension (Zilles et al. 2011).

The class is a set of concepts: its distinct rows.  A *teaching set* for a
concept ``c`` in ``C`` is a set of points on which no other concept of ``C``
agrees with ``c``; ``TD(c, C)`` is the size of a smallest one (a minimum set
cover: point ``x`` covers the concepts with ``g(x) != c(x)``), and
``TD(C) = max_c TD(c, C)``.

The recursive teaching dimension follows the *teaching plan*: ``C_0 = C``;
at stage ``i`` every concept of ``C_i`` of least teaching dimension
``d_i = min_c TD(c, C_i)`` is taught and removed; ``RTD(C) = max_i d_i``
(Zilles, Lange, Holte, Zinkevich, JMLR 2011).  Equivalently
``RTD(C) = max_{C' ⊆ C} min_{c ∈ C'} TD(c, C')`` (Doliwa, Fan, Simon, Zilles,
JMLR 2014), which is what the witness proves: the stage ``C_i`` of the
largest ``d_i``.  ``RTD <= TD`` (a teaching set in ``C`` is one in any
subclass).  Both notions read only whether labels differ, so they apply to
multiclass classes as they are.

How the solvers work
--------------------
Each ``TD(c, C)`` is an exact minimum set cover by branch and bound on
bitsets (branch on the uncovered concept with fewest covering points; bound
by ``⌈uncovered / largest cover⌉``), started from the greedy cover.  ``TD``
skips concepts whose greedy cover is no larger than the best found; the
teaching plan asks each concept only whether it beats the stage's running
minimum.  Stopped by ``time_limit``: ``TD`` keeps the largest exact value as
``lower`` and the largest greedy cover size of the unfinished concepts as
``upper``; ``RTD`` keeps the finished stages and bounds the rest by
``min(#distinct columns, #concepts left - 1)``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..classes.bitsets import mask_bits
from ..param_validation import CLASS, JOBS, PROGRESS, TIME_LIMIT, validate_params
from ..results import DimensionResult
from ..search.budget import Deadline, SearchStopped
from ._common import checked, dense_rows, distinct_columns, masks, result

__all__ = ["teaching_dimension", "recursive_teaching_dimension", "minimum_teaching_set"]


def _covers(rows: np.ndarray, c: int, concepts: list[int], deadline: Deadline) -> tuple[list[int], int]:
    """Per point, the bitset of the concepts (positions in ``concepts``) it tells apart from ``c``; the universe."""
    others = [j for j in concepts if j != c]
    diff = rows[others] != rows[c]  # (len(others), n)
    return masks(diff.T, deadline), (1 << len(others)) - 1


def _greedy(covers: list[int], universe: int) -> list[int]:
    chosen: list[int] = []
    left = universe
    while left:
        x = max(range(len(covers)), key=lambda p: (covers[p] & left).bit_count())
        chosen.append(x)
        left &= ~covers[x]
    return chosen


def _min_cover(
    covers: list[int], universe: int, limit: int, deadline: Deadline, counter: list[int]
) -> list[int] | None:
    """A smallest cover of ``universe`` with fewer than ``limit`` sets, or None when there is none."""
    best: list[list[int] | None] = [None]
    bound = [limit]

    def rec(left: int, chosen: list[int]) -> None:
        counter[0] += 1
        if counter[0] % 256 == 0:
            deadline.check()
        if not left:
            if len(chosen) < bound[0]:
                best[0], bound[0] = list(chosen), len(chosen)
            return
        widest = max((cov & left).bit_count() for cov in covers)
        if widest == 0 or len(chosen) + -(-left.bit_count() // widest) >= bound[0]:
            return
        # Branch on the uncovered concept that the fewest points tell apart.
        e = min(mask_bits(left), key=lambda i: sum(cov >> i & 1 for cov in covers))
        options = sorted(
            (x for x, cov in enumerate(covers) if cov >> e & 1), key=lambda x: -(covers[x] & left).bit_count()
        )
        for x in options:
            rec(left & ~covers[x], [*chosen, x])

    rec(universe, [])
    return best[0]


def minimum_teaching_set(
    rows: np.ndarray, c: int, concepts: list[int], deadline: Deadline, counter: list[int], below: int | None = None
) -> list[int] | None:
    """A smallest teaching set (column indices) of concept ``c`` among ``concepts`` (rows of distinct ``rows``).

    With ``below``, only a teaching set of fewer than ``below`` points is
    sought (None when there is none).  Raises ``SearchStopped`` at the deadline.

    Examples
    --------
    >>> rows = np.array([[0, 0], [1, 0], [0, 1]])
    >>> minimum_teaching_set(rows, 0, [0, 1, 2], Deadline(None), [0])
    [0, 1]
    """
    covers, universe = _covers(rows, c, concepts, deadline)
    greedy = _greedy(covers, universe)
    limit = len(greedy) if below is None else min(len(greedy), below)
    better = _min_cover(covers, universe, limit, deadline, counter)
    if better is not None:
        return sorted(better)
    if below is not None and len(greedy) >= below:
        return None
    return sorted(greedy)


def _prepared(H: Any, deadline: Deadline) -> tuple[np.ndarray, np.ndarray]:
    rows = dense_rows(H, deadline)
    cols = distinct_columns(rows)
    return rows[:, cols], cols


@validate_params(H=CLASS, time_limit=TIME_LIMIT, progress=PROGRESS, jobs=JOBS)
def teaching_dimension(
    H: Any, *, time_limit: float | None = None, progress: bool = False, jobs: int = 1
) -> DimensionResult:
    """The teaching dimension ``max_c TD(c, H)``, with a concept and its smallest teaching set as witness.

    Parameters
    ----------
    H : HypothesisClass
        Any class (read as the set of its distinct rows).
    time_limit : float, optional
        Seconds, set-up included; when stopped, ``exact=False`` with proven bounds.
    progress : bool
        Accepted for the common solver signature (this search prints nothing).
    jobs : int
        Accepted for the common signature; the search runs in this process.

    Returns
    -------
    DimensionResult
        Kind ``"teaching"``; ``witness = {"hypothesis": row, "teaching_set":
        [points]}``, a smallest teaching set of that row
        (:class:`dimcalc.witnesses.TeachingWitness`, whose check also tries
        every smaller set); ``{"hypothesis": row, "at_least": 1}`` when stopped
        before any concept was finished.

    References
    ----------
    S. A. Goldman, M. J. Kearns. On the complexity of teaching. JCSS 50(1), 1995.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> points_and_empty = HypothesisClass.from_table([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]])
    >>> r = teaching_dimension(points_and_empty)
    >>> r.value, r.witness, r.verify(points_and_empty)
    (3, {'hypothesis': 0, 'teaching_set': [0, 1, 2]}, True)
    """
    H, deadline, _ = checked(H, time_limit, jobs, "teaching_dimension")
    m = H.n_distinct
    concepts = list(range(m))
    counter = [0]
    best: tuple[int, list[int]] = (0, [])
    upper = 0
    stopped = False
    greedy: list[int] = []
    cols = np.zeros(0, dtype=np.int64)
    try:
        rows, cols = _prepared(H, deadline)
        for c in concepts:
            deadline.check()
            greedy.append(len(_greedy(*_covers(rows, c, concepts, deadline))))
        for c in sorted(concepts, key=lambda j: -greedy[j]):
            if greedy[c] > len(best[1]):  # else TD(c) <= greedy <= best
                found = minimum_teaching_set(rows, c, concepts, deadline, counter)
                assert found is not None
                if len(found) > len(best[1]):
                    best = (c, found)
        upper = len(best[1])
    except SearchStopped:
        stopped = True
        upper = max([len(best[1]), *greedy]) if len(greedy) == m else min(H.n_points, m - 1)
    c, found = best
    witness: dict[str, Any] = {"hypothesis": int(H.distinct_to_row[c]), "teaching_set": [int(cols[x]) for x in found]}
    lower = len(found)
    if stopped and not found and m > 1:  # no concept finished; any concept needs a point (another one differs)
        witness, lower = {"hypothesis": int(H.distinct_to_row[0]), "at_least": 1}, 1
    return result(
        "teaching", lower, upper, witness, deadline, stopped, nodes=counter[0], method="set cover per concept"
    )


@validate_params(H=CLASS, time_limit=TIME_LIMIT, progress=PROGRESS, jobs=JOBS)
def recursive_teaching_dimension(
    H: Any, *, time_limit: float | None = None, progress: bool = False, jobs: int = 1
) -> DimensionResult:
    """The recursive teaching dimension, with the stage of the teaching plan that attains it as witness.

    Parameters
    ----------
    H : HypothesisClass
        Any class (read as the set of its distinct rows).
    time_limit : float, optional
        Seconds, set-up included; when stopped, ``exact=False`` with proven bounds.
    progress : bool
        Accepted for the common solver signature (this search prints nothing).
    jobs : int
        Accepted for the common signature; the search runs in this process.

    Returns
    -------
    DimensionResult
        Kind ``"recursive_teaching"``; ``witness = {"subclass": [rows],
        "hypothesis": row, "teaching_set": [points]}``: a stage ``C'`` of the
        teaching plan in which no concept has a teaching set smaller than the
        given one (:class:`dimcalc.witnesses.RecursiveTeachingWitness`).

    References
    ----------
    S. Zilles, S. Lange, R. Holte, M. Zinkevich. Models of cooperative teaching
    and learning. JMLR 12, 2011 (teaching plans, RTD); T. Doliwa, G. Fan,
    H. U. Simon, S. Zilles. Recursive teaching dimension, VC-dimension and
    sample compression. JMLR 15, 2014 (``RTD = max_{C'} min_c TD(c, C')``).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> points_and_empty = HypothesisClass.from_table([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]])
    >>> r = recursive_teaching_dimension(points_and_empty)
    >>> r.value, r.witness, r.verify(points_and_empty)
    (1, {'subclass': [0, 1, 2, 3], 'hypothesis': 1, 'teaching_set': [0]}, True)
    """
    H, deadline, _ = checked(H, time_limit, jobs, "recursive_teaching_dimension")
    alive = list(range(H.n_distinct))
    counter = [0]
    cols = np.zeros(0, dtype=np.int64)
    best: tuple[int, list[int], int, list[int]] = (-1, [0], 0, [])  # (d, stage, concept, teaching set)
    stages: list[int] = []
    stopped = False
    try:
        rows, cols = _prepared(H, deadline)
        while alive:
            least: list[int] | None = None
            sets: dict[int, list[int]] = {}
            for c in alive:
                below = None if least is None else len(least) + 1
                found = minimum_teaching_set(rows, c, alive, deadline, counter, below=below)
                if found is not None:
                    sets[c] = found
                    if least is None or len(found) < len(least):
                        least = found
            assert least is not None
            d = len(least)
            taught = [c for c in alive if c in sets and len(sets[c]) == d]
            if d > best[0]:
                best = (d, list(alive), taught[0], sets[taught[0]])
            stages.append(d)
            alive = [c for c in alive if c not in taught]
    except SearchStopped:
        stopped = True
    d, stage, c, found = best
    lower = max(d, 0)
    upper = lower if not alive else max(lower, min(H.n_points, len(alive) - 1))
    witness = {
        "subclass": sorted(int(H.distinct_to_row[j]) for j in stage),
        "hypothesis": int(H.distinct_to_row[c]),
        "teaching_set": [int(cols[x]) for x in found],
    }
    return result(
        "recursive_teaching",
        lower,
        upper,
        witness,
        deadline,
        stopped,
        nodes=counter[0],
        stages=stages,
        method="teaching plan",
    )
