"""Threshold dimension: the largest number of thresholds a binary class contains.

``H`` *contains t thresholds* when there are points ``x_1, ..., x_t`` and
hypotheses ``h_1, ..., h_t`` with ``h_i(x_j) = 1`` if and only if ``i <= j``
(ALMM19 §2; the "order property" of Shelah's stability theory).  The threshold
dimension is the largest such ``t`` (0 when no hypothesis takes the label 1).
Littlestone and threshold dimensions bound each other exponentially
(Shelah 1978; Hodges 1997; as stated in ALMM19, Thm 3): a class of Littlestone
dimension ``d`` contains ``⌊log2 d⌋`` thresholds, and a class containing ``t``
thresholds has Littlestone dimension at least ``⌊log2 t⌋``.

How the solver works
--------------------
The pairs ``(h_k, x_k)`` are chosen front to back.  After ``k`` pairs the
next hypothesis must be 0 on ``x_1..x_k`` and the next point 1 under
``h_1..h_k``: two bitsets (candidate hypotheses ``C``, candidate points
``P``) hold exactly that state, and choosing ``(h, x)`` with ``h(x) = 1``
leaves ``C ∩ {g : g(x) = 0}`` and ``P ∩ {y : h(y) = 1} \\ {x}``.  A
depth-first search decides "at least ``r`` more pairs" for ``r`` = 1, 2, ...
with the bound ``r <= min(|C|, |P ∩ h^{-1}(1)|)`` and a memo of the states
that failed (a failure for ``r`` is one for every larger ``r``).  Duplicate
rows and columns are merged first (a threshold sequence has distinct rows and
distinct columns).  Stopped by ``time_limit``, the result keeps the longest
sequence found and the proven upper bound (the last refuted length minus one,
or ``min(#rows, #columns)``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..classes.bitsets import mask_bits
from ..param_validation import CLASS, JOBS, PROGRESS, TIME_LIMIT, validate_params
from ..results import DimensionResult
from ..search.budget import SearchStopped
from ._common import binary_only, checked, dense_rows, distinct_columns, masks, result

__all__ = ["threshold_dimension"]


class _Search:
    """The decision search "are there ``r`` more threshold pairs from state ``(C, P)``?"."""

    def __init__(self, rows: np.ndarray, deadline: Any) -> None:
        self.row_ones = masks(rows == 1, deadline)
        self.col_zeros = masks((rows == 0).T, deadline)
        self.failed: dict[tuple[int, int], int] = {}
        self.deadline = deadline
        self.nodes = 0

    def find(self, C: int, P: int, r: int) -> list[tuple[int, int]] | None:
        if r == 0:
            return []
        if C.bit_count() < r or P.bit_count() < r or self.failed.get((C, P), r + 1) <= r:
            return None
        self.nodes += 1
        if self.nodes % 256 == 0:
            self.deadline.check()
        for h in mask_bits(C):
            Ph = P & self.row_ones[h]
            if Ph.bit_count() < r:  # x and r - 1 later points, all where h is 1
                continue
            for x in mask_bits(Ph):
                rest = self.find(C & self.col_zeros[x], Ph & ~(1 << x), r - 1)
                if rest is not None:
                    return [(h, x), *rest]
        self.failed[(C, P)] = min(r, self.failed.get((C, P), r))
        return None


@validate_params(H=CLASS, time_limit=TIME_LIMIT, progress=PROGRESS, jobs=JOBS)
def threshold_dimension(
    H: Any, *, time_limit: float | None = None, progress: bool = False, jobs: int = 1
) -> DimensionResult:
    """The threshold dimension of a binary class, with the thresholds as witness.

    The largest ``t`` with points ``x_1..x_t`` and hypotheses ``h_1..h_t`` such
    that ``h_i(x_j) = 1`` iff ``i <= j``.

    Parameters
    ----------
    H : HypothesisClass
        A binary class (at most two labels).
    time_limit : float, optional
        Seconds, set-up included; when stopped the result has ``exact=False``
        with the longest sequence found as ``lower`` and a proven ``upper``.
    progress : bool
        Accepted for the common solver signature (this search prints nothing).
    jobs : int
        Accepted for the common signature; the search runs in this process.

    Returns
    -------
    DimensionResult
        Kind ``"threshold"``; ``witness = {"points": [x_1..x_t], "hypotheses":
        [rows of h_1..h_t]}`` (:class:`dimcalc.witnesses.ThresholdWitness`).
        For a class with more than two labels the result is
        :meth:`DimensionResult.undefined`.

    References
    ----------
    ALMM19 §2 (definition) and Thm 3 (after Shelah 1978 and Hodges 1997:
    ``LDim = d`` gives ``⌊log2 d⌋`` thresholds; ``t`` thresholds give
    ``LDim >= ⌊log2 t⌋``).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> thresholds = HypothesisClass.from_table([[int(x >= a) for x in range(4)] for a in range(5)])
    >>> r = threshold_dimension(thresholds)
    >>> r.value, r.witness, r.verify(thresholds)
    (4, {'points': [0, 1, 2, 3], 'hypotheses': [0, 1, 2, 3]}, True)
    """
    H, deadline, _ = checked(H, time_limit, jobs, "threshold_dimension")
    refused = binary_only(H, "threshold", "threshold dimension")
    if refused is not None:
        return refused
    upper = min(H.n_distinct, H.n_points)
    best: list[tuple[int, int]] = []
    stopped = False
    search = None
    cols = np.zeros(0, dtype=np.int64)
    try:
        rows = dense_rows(H, deadline)
        cols = distinct_columns(rows)
        rows = rows[:, cols]
        m, n = rows.shape
        upper = min(m, n)
        search = _Search(rows, deadline)
        everyone, everywhere = (1 << m) - 1, (1 << n) - 1
        while len(best) < upper:
            found = search.find(everyone, everywhere, len(best) + 1)
            if found is None:
                upper = len(best)
                break
            best = found
    except SearchStopped:
        stopped = True
    witness = {
        "points": [int(cols[x]) for _, x in best],
        "hypotheses": [int(H.distinct_to_row[h]) for h, _ in best],
    }
    nodes = 0 if search is None else search.nodes
    return result("threshold", len(best), upper, witness, deadline, stopped, nodes=nodes, method="threshold search")
