"""``DRDim_ε(C)``: the deterministic representation dimension, by a MILP over a candidate pool (FX Def 2.3).

``DRDim_ε(C) = log2 |H|`` for the smallest ``H`` that ε-represents ``C``.
The MILP decides "error ``<= ε``" at a threshold chosen away from every error a
candidate set can have (those are rationals whose denominators are bounded by
a Hadamard bound), so it answers at the exact ``ε`` even when ``ε`` is within
floating-point noise of such an error; when the domain is too large for that
margin, the answer is given as proven bounds.  The witness is re-checked
exactly (:class:`dimcalc.witnesses.Representation`) before it is returned.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import os
import sys
from fractions import Fraction
from typing import Any

import numpy as np

from .._params import as_fraction
from ..classes.hypothesis_class import HypothesisClass
from ..errors import InvalidParameterError, parameter_error
from ..param_validation import CLASS, REPRESENTATION_EPSILON, TIME_LIMIT, renamed_parameters, validate_params
from ..search.budget import Deadline
from ..validation import check_time_limit
from ..witnesses.representation import Representation, is_representation, rows_of
from .paper_bounds import PaperBound, littlestone_lower_bound
from .result import RepresentationDimensionResult

__all__ = ["deterministic_representation_dimension", "MAX_MILP_PAIRS", "MAX_ALL_FUNCTIONS", "MILP_SAFE_MARGIN"]


def _farey_bracket(x: Fraction, order: int) -> tuple[Fraction, Fraction]:
    """``(a, b)``: neighbours in the Farey sequence of ``order`` with ``a <= x < b``.

    No fraction with denominator ``<= order`` lies strictly between ``a`` and ``b``
    (a Stern-Brocot descent, whole runs of one direction at a time).

    >>> _farey_bracket(Fraction(1, 3), 5), _farey_bracket(Fraction(6004799503160661, 18014398509481984), 5)
    ((Fraction(1, 3), Fraction(2, 5)), (Fraction(1, 4), Fraction(1, 3)))
    """
    p0, q0 = math.floor(x), 1  # lower end p0/q0 <= x
    p1, q1 = p0 + 1, 1  # upper end p1/q1 > x;  p1 q0 - p0 q1 = 1 throughout
    while q0 + q1 <= order:
        if Fraction(p0 + p1, q0 + q1) <= x:  # move the lower end towards the upper end, k steps at once
            num, den = x * q0 - p0, p1 - x * q1
            k = min(math.floor(num / den), (order - q0) // q1)
            p0, q0 = p0 + k * p1, q0 + k * q1
        else:  # move the upper end towards the lower end
            num, den = p1 - x * q1, x * q0 - p0
            most = (order - q1) // q0
            k = most if den == 0 else min(math.ceil(num / den) - 1, most)
            p1, q1 = p1 + k * p0, q1 + k * q0
    return Fraction(p0, q0), Fraction(p1, q1)


#: Least distance (in error) between the MILP's threshold and any error a candidate set can have.
MILP_SAFE_MARGIN = 1e-5


def _milp_threshold(eps: Fraction, n_points: int, pool_size: int) -> tuple[float, bool]:
    """The float the MILP compares errors with, and whether it decides "<= eps" exactly.

    For a set ``S`` and a concept ``f``, the least worst error of a mixture over ``S`` is the
    value of an LP with a 0/1 matrix; at an optimal vertex it solves a square system of size
    ``m + 1 <= min(n_points, |S|) + 1`` with entries in {-1, 0, 1}, so its denominator is at
    most the Hadamard bound ``sqrt((m+1)^m m)``.  Every such error lies outside the open Farey
    interval ``(a, b)`` around ``eps``, hence is ``<= eps`` iff it is ``< (a + b)/2``; the
    midpoint is ``(b - a)/2`` away from all of them.  When that margin is below
    :data:`MILP_SAFE_MARGIN` (large domains) the old rule ``eps + 1e-7`` is used, which
    gives sound bounds but may not decide a near tie.
    """
    m = max(1, min(n_points, pool_size))
    order = math.isqrt((m + 1) ** m * m)
    a, b = _farey_bracket(eps, order)
    if (b - a) / 2 >= MILP_SAFE_MARGIN:
        return float((a + b) / 2), True
    return float(eps) + 1e-7, False


#: Largest (pool size x concepts) handed to the MILP; beyond it the class itself is the upper bound.
MAX_MILP_PAIRS = 40_000

#: ``pool="all"`` is the default when the domain has at most this many functions.
MAX_ALL_FUNCTIONS = 64


def _all_functions(n_points: int, num_labels: int) -> np.ndarray:
    """Every function from the ``n_points`` points to the labels, one per row (one empty row when n_points = 0)."""
    rows = list(itertools.product(range(num_labels), repeat=n_points))
    return np.array(rows, dtype=np.int64).reshape(len(rows), n_points)


@contextlib.contextmanager
def _quiet_native_stdout():
    """Silence the process's file descriptor 1 for the duration (HiGHS's MIP solver
    prints diagnostic lines from C++ even with ``disp=False``); Python's own
    ``sys.stdout`` is flushed first so nothing of ours is lost."""
    try:
        fd = sys.__stdout__.fileno() if sys.__stdout__ is not None else 1
        saved = os.dup(fd)
    except (OSError, ValueError, AttributeError):  # no usable descriptor (embedded interpreter)
        yield
        return
    try:
        for stream in (sys.stdout, sys.__stdout__):
            with contextlib.suppress(Exception):
                stream.flush()
        with open(os.devnull, "w") as devnull:
            os.dup2(devnull.fileno(), fd)
            try:
                yield
            finally:
                os.dup2(saved, fd)
    finally:
        os.close(saved)


#: Seconds scipy's MILP takes to load (about half a second on an idle machine): with less time left and
#: scipy not loaded yet, the MILP is not started (C itself is the witness, a stop by the time limit).
SCIPY_LOAD_SECONDS = 1.0

#: The MILP takes 1 / this of the time left after scipy loads (the rest: the witness re-checks, the bounds).
_MILP_SHARE_PARTS = 3


def _milp_smallest(
    P: np.ndarray, C: np.ndarray, eps: Fraction, deadline: Deadline
) -> tuple[list[int], int, bool, bool, bool]:
    """Smallest subset of pool rows that ε-represents C.

    The solver gets a share of what is left once scipy is loaded (its import counts against the
    limit): the rest goes to re-checking the witness exactly (an LP per concept) and the bounds.

    Returns (chosen rows, proven lower bound on size, optimal?, decided at ε exactly?, stopped by the time?).
    """
    threshold, decided = _milp_threshold(eps, P.shape[1], len(P))
    left = deadline.remaining()
    if left is not None and left < SCIPY_LOAD_SECONDS and "scipy.optimize" not in sys.modules:
        return [], 1, False, decided, True  # loading the solver would take what is left: stopped before it
    from scipy.optimize import Bounds, LinearConstraint, milp  # heavy: loaded on the first MILP
    from scipy.sparse import coo_matrix

    time_limit = deadline.share(_MILP_SHARE_PARTS)

    n_p, n_x = P.shape
    n_c = len(C)
    # variables: y_p (n_p), then q_{c,p} (n_c * n_p); rows per concept: n_x error rows, 1 sum row, n_p link rows
    per = n_x + 1 + n_p
    r_idx, c_idx, vals = [], [], []
    lb, ub = np.empty(n_c * per), np.empty(n_c * per)
    p_range = np.arange(n_p)
    for c, f in enumerate(C):
        base_row, base_col = c * per, n_p + c * n_p
        x_idx, p_idx = np.nonzero((P != f[None, :]).T)  # error rows: sum_{p errs at x} q_{c,p} <= eps
        r_idx += [
            base_row + x_idx,
            np.full(n_p, base_row + n_x),
            base_row + n_x + 1 + p_range,
            base_row + n_x + 1 + p_range,
        ]
        c_idx += [base_col + p_idx, base_col + p_range, base_col + p_range, p_range]
        vals += [np.ones(len(x_idx)), np.ones(n_p), np.ones(n_p), -np.ones(n_p)]
        lb[base_row : base_row + n_x], ub[base_row : base_row + n_x] = -np.inf, threshold
        lb[base_row + n_x] = ub[base_row + n_x] = 1.0  # sum_p q_{c,p} = 1
        lb[base_row + n_x + 1 : base_row + per], ub[base_row + n_x + 1 : base_row + per] = -np.inf, 0.0  # q <= y
    A = coo_matrix(
        (np.concatenate(vals), (np.concatenate(r_idx), np.concatenate(c_idx))), shape=(n_c * per, n_p + n_c * n_p)
    )
    c_vec = np.concatenate([np.ones(n_p), np.zeros(n_c * n_p)])
    integrality = np.concatenate([np.ones(n_p), np.zeros(n_c * n_p)])
    options = {"time_limit": time_limit} if time_limit else {}
    with _quiet_native_stdout():
        res = milp(
            c_vec,
            constraints=LinearConstraint(A.tocsr(), lb, ub),
            integrality=integrality,
            bounds=Bounds(0, 1),
            options=options,
        )
    if res.x is None:
        return [], 1, False, decided, res.status == 1
    chosen = [int(p) for p in np.flatnonzero(res.x[:n_p] > 0.5)]
    dual = getattr(res, "mip_dual_bound", None)
    lower = max(1, math.ceil(dual - 1e-6)) if dual is not None and np.isfinite(dual) else 1
    return chosen, lower, res.status == 0, decided, res.status == 1  # status 1: HiGHS's time limit


@renamed_parameters(C="H")
@validate_params(H=CLASS, epsilon=REPRESENTATION_EPSILON, time_limit=TIME_LIMIT)
def deterministic_representation_dimension(
    H: HypothesisClass, epsilon: Any = 0.25, *, pool: Any = None, time_limit: float | None = None
) -> RepresentationDimensionResult:
    """``DRDim_ε(C)`` of the class ``C = H``: log2 of the smallest ``H'`` that ε-represents ``C`` (FX Def 2.3), by MILP.

    The class argument is ``H``, as everywhere in dimcalc (FX write ``C`` for it and ``H`` for the
    representation); ``C=`` is still accepted for one release, with a ``FutureWarning``.

    The MILP (scipy HiGHS) chooses ``H`` from a candidate pool: binary
    ``y_h`` (h in H), and for every concept ``f`` a mixture ``q_f <= y`` with
    ``max_x Pr_{q_f}[h(x) != f(x)] <= ε`` (the minimax form of Def 2.3).

    * ``pool=None``: every function on the domain when there are at most
      :data:`MAX_ALL_FUNCTIONS` of them -- then the answer is ``DRDim_ε``
      **exactly**; otherwise ``C`` itself, which gives an upper bound only.
    * ``pool="all"`` / ``pool="class"`` force either; an array / class is a user pool
      (an upper bound unless it holds every function).

    Lower bounds (``exact=False``): the MILP's proven bound when stopped,
    FX Thm 3.2 + Cor 4.3 (binary): ``log2|H| >= R→_ε(C) >= (1 - H(ε))·LDim(C)``
    when the Littlestone dimension is exact.  The witness ``H`` is re-checked
    with :func:`is_representation` (exact arithmetic) before returning.

    Parameters
    ----------
    H : HypothesisClass
        The class ``C`` to represent.
    epsilon : float, Fraction or str
        Accuracy in ``[0, 1/2]`` (the range of every representation function, the report and the CLI);
        FX's ``DRDim`` is ``ε = 1/4``.  Exact: ``"1/3"`` and
        ``Fraction(1, 3)`` are one third; a float is its own binary value (``1/3`` as a float
        is a hair below one third, and the answer is exact at that value).
    pool : None, "all", "class", HypothesisClass or array
    time_limit : float, optional

    Returns
    -------
    RepresentationDimensionResult
        A :class:`~dimcalc.results.DimensionResult` of kind ``"drdim"``: ``value``/``lower``/``upper``
        in bits (``log2`` of ``size``/``size_lower``/``size_upper``), the witness ``H`` (certifies
        ``size_upper``), ``epsilon``, ``pool`` and the paper ``bounds`` used.

    References
    ----------
    FX Def 2.3, Thm 3.2, Cor 4.3, §3.1 (``DRDim(Point_b) = Θ(log b)``).

    Examples
    --------
    >>> import numpy as np
    >>> from dimcalc import HypothesisClass
    >>> P = HypothesisClass.from_table(np.eye(4, dtype=int))          # 4 point functions
    >>> r = deterministic_representation_dimension(P, 0.25)
    >>> r.exact, r.size, r.value, r.verify(P)     # on 4 points no smaller H works at ε = 1/4
    (True, 4, 2.0, True)
    """
    C = H
    eps = as_fraction(epsilon)
    time_limit = check_time_limit(time_limit, "deterministic_representation_dimension")
    deadline = Deadline(time_limit)
    C_rows = C.distinct_rows
    n_all = C.num_labels**C.n_points if C.n_points < 64 else float("inf")
    if pool is None:
        pool = "all" if n_all <= MAX_ALL_FUNCTIONS else "class"
    if isinstance(pool, str):
        if pool == "all":
            if n_all > 1 << 12:
                raise parameter_error(
                    "pool",
                    "deterministic_representation_dimension",
                    "'class' or a user pool for this domain ('all' has too many functions)",
                    f"all ({n_all} functions)",
                )
            P, pool_name, complete = _all_functions(C.n_points, C.num_labels), "all functions", True
        elif pool == "class":
            P, pool_name, complete = C_rows, "the class itself", C.n_distinct == n_all
        else:
            raise parameter_error(
                "pool",
                "deterministic_representation_dimension",
                "None, 'all', 'class', a HypothesisClass or an array",
                pool,
            )
    else:
        P = rows_of(pool, "deterministic_representation_dimension", "pool")
        if P.shape[1] != C.n_points:
            raise InvalidParameterError(
                f"deterministic_representation_dimension: the pool has {P.shape[1]} points but C has {C.n_points}"
            )
        pool_name, complete = f"user pool ({len(P)} functions)", len(P) == n_all
    if len(P) * len(C_rows) <= MAX_MILP_PAIRS:
        chosen, milp_lower, optimal, decided, stopped = _milp_smallest(P, C_rows, eps, deadline)
    else:  # too large for an exact program: C itself (it represents itself at any ε) is the upper bound
        chosen, milp_lower, optimal, decided, stopped = [], 1, False, False, False
    witness_rows = P[chosen] if chosen else C_rows
    # past the limit, the exact re-check of a chosen witness (an LP per concept) is not started: C itself
    # (which represents C at any ε, checked in linear time) is the witness and the MILP's bound stays proven
    checked = bool(chosen) and not deadline.expired() and is_representation(witness_rows, C_rows, eps)
    if not checked:
        # numerical trouble or stopped without a solution: fall back to C itself (represents C for any ε)
        witness_rows, optimal = C_rows, False
    size_upper = len(witness_rows)
    bounds: list[PaperBound] = []
    size_lower = 1
    if complete:
        size_lower = size_upper if optimal else max(1, milp_lower)
    ld_bound = littlestone_lower_bound(C, eps, deadline.left(default=5.0))
    if ld_bound is not None and ld_bound.value is not None:  # the LDim bound is numeric (explicit constants)
        bounds.append(ld_bound)
        bits = math.ceil(ld_bound.value - 1e-9)  # ceil(log2|H|) >= bits  <=>  |H| > 2^(bits-1)
        size_lower = max(size_lower, 2 ** (bits - 1) + 1 if bits >= 1 else 1)
    size_lower = min(size_lower, size_upper)
    rows = np.asarray(witness_rows, dtype=np.int64)
    rows.setflags(write=False)
    return RepresentationDimensionResult.from_sizes(
        eps,
        size_lower,
        size_upper,
        Representation(rows.tolist(), epsilon=eps, array=rows),
        pool_name,
        bounds,
        milp_optimal=optimal,
        milp_stopped=stopped or (not optimal and deadline.expired()),
        # the chosen witness passed is_representation (the checker Representation.certify runs) here
        witness_checked=checked,
        milp_decides_epsilon=decided,
        pool_size=int(len(P)),
        seconds=deadline.elapsed(),
    )
