"""Dual VC dimension: the VC dimension of the dual class, points read as hypotheses over the hypotheses.

The dual class of a binary class ``H`` on ``X`` is ``H* = {h -> h(x) : x ∈ X}``,
a class on the domain ``H``; its VC dimension ``VC*(H)`` is the largest number
of hypotheses ``h_1..h_k`` such that every 0/1 vector is ``(h_1(x), ..., h_k(x))``
for some point ``x``.  Assouad (1983): ``VC*(H) < 2^(VC(H) + 1)``, and since
``H** = H`` (on distinct rows and columns) also ``VC(H) < 2^(VC*(H) + 1)``.

The solver transposes the distinct rows and runs the VC search
(:func:`dimcalc.vc.vc_dimension`) on the result, under the same deadline.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..classes.hypothesis_class import HypothesisClass
from ..param_validation import CLASS, JOBS, PROGRESS, TIME_LIMIT, validate_params
from ..results import DimensionResult
from ..search.budget import SearchStopped
from ..vc import vc_dimension
from ._common import binary_only, checked, dense_rows, result

__all__ = ["dual_vc_dimension", "dual_class"]


def dual_class(H: HypothesisClass) -> HypothesisClass:
    """The dual class: one hypothesis per point of ``H``, one point per *distinct* row of ``H``.

    Parameters
    ----------
    H : HypothesisClass
        A class with at least one point.

    Returns
    -------
    HypothesisClass
        Row ``x`` is ``(h(x) for h in H.distinct_rows)``.

    Examples
    --------
    >>> H = HypothesisClass.from_table([[0, 0, 1], [0, 1, 1], [0, 1, 1]])
    >>> dual_class(H).table.tolist()
    [[0, 0], [0, 1], [1, 1]]
    """
    return HypothesisClass.from_table(np.ascontiguousarray(np.asarray(H.distinct_rows).T))


@validate_params(H=CLASS, time_limit=TIME_LIMIT, progress=PROGRESS, jobs=JOBS)
def dual_vc_dimension(
    H: Any, *, time_limit: float | None = None, progress: bool = False, jobs: int = 1
) -> DimensionResult:
    """The dual VC dimension of a binary class, with the dual-shattered hypotheses as witness.

    Parameters
    ----------
    H : HypothesisClass
        A binary class (at most two labels).
    time_limit : float, optional
        Seconds, set-up included; when stopped, ``exact=False`` with proven bounds.
    progress : bool
        Progress lines of the VC search on stderr.
    jobs : int
        Processes for the VC search of the dual class.

    Returns
    -------
    DimensionResult
        Kind ``"dual_vc"``; ``witness`` is the sorted list of the row indices of
        hypotheses shattered by the points (:class:`dimcalc.witnesses.DualShatteredSet`).
        For a class with more than two labels the result is :meth:`DimensionResult.undefined`.

    References
    ----------
    P. Assouad, Densité et dimension, Ann. Inst. Fourier 33(3), 1983
    (``VC* < 2^(VC + 1)``).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 0, 1, 1], [0, 1, 0, 1]])  # VC 1: two hypotheses
    >>> r = dual_vc_dimension(H)
    >>> r.value, r.witness, r.verify(H)
    (2, [0, 1], True)
    """
    H, deadline, jobs = checked(H, time_limit, jobs, "dual_vc_dimension")
    refused = binary_only(H, "dual_vc", "dual VC dimension")
    if refused is not None:
        return refused
    if H.n_points == 0:  # the dual class has no hypotheses: nothing is shattered, not even the empty set
        return result("dual_vc", 0, 0, [], deadline, False, method="empty domain")
    try:
        dense_rows(H, deadline)  # asks the memory budget before the transposed copy is made
        dual = dual_class(H)
    except SearchStopped:
        upper = min(H.n_distinct, H.n_points.bit_length() - 1)  # 2^k distinct points shatter k hypotheses
        return result("dual_vc", 0, upper, [], deadline, True, method="VC search of the dual class")
    vc = vc_dimension(dual, time_limit=deadline.left(), progress=progress, jobs=jobs)
    assert vc.lower is not None and vc.upper is not None
    witness = sorted(int(H.distinct_to_row[j]) for j in vc.witness)
    return result(
        "dual_vc", vc.lower, vc.upper, witness, deadline, "stopped" in vc.stats, method="VC search of the dual class"
    )
