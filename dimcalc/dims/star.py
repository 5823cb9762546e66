"""Star number (Hanneke and Yang 2015): the largest star of points around one hypothesis.

The star number ``s`` is the largest integer such that there are distinct
points ``x_1..x_s`` and hypotheses ``h_0, h_1, ..., h_s`` of ``H`` with
``DIS({h_0, h_i}) ∩ {x_1..x_s} = {x_i}`` for every ``i``: ``h_i`` differs from
the centre ``h_0`` on the star exactly at ``x_i`` (Hanneke and Yang, JMLR
2015, Definition 2).  The definition reads only whether two labels differ, so
dimcalc applies it as it is to multiclass classes.  ``VC <= s`` (a shattered
set is a star around the hypothesis that is 0 on it) and ``s <= |H| - 1``.

How the solver works
--------------------
For each distinct row as centre ``c``, every other row ``h`` is its
disagreement set ``D_h`` (a bitset of points).  A set ``S`` is a star around
``c`` when each ``x ∈ S`` has an ``h`` with ``D_h ∩ S = {x}``.  The search adds
points in increasing order; for the new point ``x`` it tries only the
inclusion-minimal ``D_h`` that contain ``x`` and miss ``S`` (a larger one
forbids more later points and allows nothing more), and later points must
avoid the chosen ``D_h``.  A branch stops when ``|S|`` plus the points still
possible cannot beat the best star.  Stopped by ``time_limit``: the best star
found and the upper bound ``min(#distinct columns, #distinct rows - 1)``
(the exact value when every centre was finished).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..param_validation import CLASS, JOBS, PROGRESS, TIME_LIMIT, validate_params
from ..results import DimensionResult
from ..search.budget import SearchStopped
from ._common import checked, dense_rows, distinct_columns, masks, result

__all__ = ["star_number"]


class _StarSearch:
    """Largest star around one centre, as lists of (point, row) pairs."""

    def __init__(self, rows: np.ndarray, center: int, deadline: Any) -> None:
        m, n = rows.shape
        sets = masks(rows != rows[center], deadline)
        self.sets = sorted({D for h, D in enumerate(sets) if h != center})
        self.owner: dict[int, int] = {}
        for h, D in enumerate(sets):
            if h != center:
                self.owner.setdefault(D, h)
        self.n = n
        self.deadline = deadline
        self.nodes = 0
        self.best: list[tuple[int, int]] = []

    def _minimal(self, x: int, S: int) -> list[int]:
        """Inclusion-minimal disagreement sets that contain ``x`` and miss ``S``."""
        fits = [D for D in self.sets if D >> x & 1 and not D & S]
        return [D for D in fits if not any(E != D and E & D == E for E in fits)]

    def run(self, floor: int) -> list[tuple[int, int]]:
        """The largest star around the centre if larger than ``floor`` (else ``[]``); ``self.best`` as it grows."""
        self.best = []
        self.floor = floor
        self._extend(0, 0, 0, [])
        return self.best

    def _extend(self, S: int, blocked: int, start: int, chosen: list[tuple[int, int]]) -> None:
        self.nodes += 1
        if self.nodes % 256 == 0:
            self.deadline.check()
        if len(chosen) > max(len(self.best), self.floor):
            self.best = list(chosen)
        free = [
            x for x in range(start, self.n) if not blocked >> x & 1 and any(D >> x & 1 and not D & S for D in self.sets)
        ]
        for i, x in enumerate(free):
            if len(chosen) + len(free) - i <= max(len(self.best), self.floor):
                return
            for D in self._minimal(x, S):
                self._extend(S | 1 << x, blocked | D, x + 1, [*chosen, (x, self.owner[D])])


@validate_params(H=CLASS, time_limit=TIME_LIMIT, progress=PROGRESS, jobs=JOBS)
def star_number(H: Any, *, time_limit: float | None = None, progress: bool = False, jobs: int = 1) -> DimensionResult:
    """The star number, with a star (centre, points, one hypothesis per point) as witness.

    Parameters
    ----------
    H : HypothesisClass
        Any class (multiclass classes: the same definition, "differs" read on labels).
    time_limit : float, optional
        Seconds, set-up included; when stopped, ``exact=False`` with proven bounds.
    progress : bool
        Accepted for the common solver signature (this search prints nothing).
    jobs : int
        Accepted for the common signature; the search runs in this process.

    Returns
    -------
    DimensionResult
        Kind ``"star"``; ``witness = {"center": row, "points": [x_1..x_s],
        "hypotheses": [rows of h_1..h_s]}`` (:class:`dimcalc.witnesses.StarWitness`).

    References
    ----------
    S. Hanneke, L. Yang. Minimax analysis of active learning. JMLR 16, 2015, Definition 2.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> points_and_empty = HypothesisClass.from_table([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]])
    >>> r = star_number(points_and_empty)
    >>> r.value, r.witness, r.verify(points_and_empty)
    (3, {'center': 0, 'points': [0, 1, 2], 'hypotheses': [1, 2, 3]}, True)
    """
    H, deadline, _ = checked(H, time_limit, jobs, "star_number")
    upper = min(H.n_points, H.n_distinct - 1)
    best: tuple[int, list[tuple[int, int]]] = (0, [])
    stopped = False
    nodes = 0
    cols = np.zeros(0, dtype=np.int64)
    try:
        rows = dense_rows(H, deadline)
        cols = distinct_columns(rows)
        rows = rows[:, cols]
        m, n = rows.shape
        upper = min(n, m - 1)
        for c in range(m):
            if len(best[1]) >= upper:
                break
            search = _StarSearch(rows, c, deadline)
            try:
                search.run(len(best[1]))
            finally:  # a stopped search keeps the largest star it had reached
                nodes += search.nodes
                if len(search.best) > len(best[1]):
                    best = (c, search.best)
        upper = len(best[1])
    except SearchStopped:
        stopped = True
    c, star = best
    witness = {
        "center": int(H.distinct_to_row[c]),
        "points": [int(cols[x]) for x, _ in star],
        "hypotheses": [int(H.distinct_to_row[h]) for _, h in star],
    }
    return result("star", len(star), upper, witness, deadline, stopped, nodes=nodes, method="star search per centre")
