"""Deterministic and probabilistic representation dimension (FX §2.3, BGS §8).

``H`` **ε-represents** ``C`` (FX Def 2.3; multiclass as in BGS Def 8.1 with a
single class) when for every ``f in C`` and every distribution ``D`` on the
domain some ``h in H`` has ``Pr_{x~D}[h(x) != f(x)] <= ε``.  By von Neumann's
minimax theorem (the game of FX Thm 3.2's proof, payoff ``1[h(x) != f(x)]``)
this holds for ``f`` exactly when some *mixture* ``q`` over ``H`` has

    max_x Pr_{h~q}[h(x) != f(x)] <= ε,

one small linear program per ``f``.  When it fails, the optimal dual solution
is a distribution ``D`` under which every ``h in H`` errs more than ``ε``.
``DRDim_ε(C) = log2 |H|`` for the smallest such ``H``.

Exactness.  The LPs are solved in floating point (scipy HiGHS), then the answer
is certified with exact rational arithmetic: the mixture (or the distribution)
is rounded to nearby fractions with small denominators and its worst error is
recomputed exactly with :class:`fractions.Fraction`.  A mixture certifies
"represents" when its exact worst error is ``<= ε``; a distribution certifies
"does not represent" when the exact least error over ``H`` is ``> ε``.  If
neither rounding certifies (a numerical tie finer than the tolerance
``LP_TOLERANCE``), the result says so (``certified=False``) instead of
guessing.

``ε`` is exact wherever it is taken (:mod:`dimcalc._params`): a ``Fraction`` or
text such as ``"1/3"`` or ``"0.25"`` is that number; a ``float`` is taken at its
own (binary) value -- ``1/3`` typed as a float is a hair under one third, and the
answer is exact at that value.  Pass ``Fraction(1, 3)`` or ``"1/3"`` to mean one
third.  The MILP of :func:`deterministic_representation_dimension` decides "error
``<= ε``" at a threshold chosen away from every error a candidate set can have
(those are rationals whose denominators are bounded by a Hadamard bound), so it
answers at the exact ``ε`` even when ``ε`` is within floating-point noise of such
an error; when the domain is too large for that margin, the answer is given as
proven bounds.

References
----------
FX: Feldman, Xiao, *Sample Complexity Bounds on Differentially Private Learning
via Communication Complexity*, COLT 2014: Def 2.3 (DRDim), Def 2.4 (PRDim),
Thm 3.1, Thm 3.2, Cor 4.3, §3.1 (Newman; point functions).
BGS: Bun, Gaboardi, Sivakumar, NeurIPS 2021: Defs 8.1-8.2, Thm 8.8.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from ._budget import Deadline, check_time_limit
from ._params import as_fraction, exact_number
from .errors import InvalidParameterError, parameter_error
from .hypothesis_class import HypothesisClass

__all__ = [
    "LP_TOLERANCE",
    "RepresentationCheck",
    "RepresentationDimensionResult",
    "PaperBound",
    "is_representation",
    "representation_error",
    "deterministic_representation_dimension",
    "probabilistic_representation_bounds",
    "binary_entropy",
    "exact_fraction",
]

#: Floating-point slack when reading LP values before exact certification.
LP_TOLERANCE = 1e-9
_DENOMINATORS = (1, 2, 3, 4, 6, 8, 12, 16, 24, 60, 120, 720, 5040, 10**4, 10**6, 10**9)


def exact_fraction(value: Any, name: str = "epsilon", owner: str = "is_representation") -> Fraction:
    """``value`` in ``[0, 1]`` as an exact fraction: text exactly (``"0.1" -> 1/10``, ``"1/3"``), a float at
    its own binary value (``0.1 -> 3602879701896397/36028797018963968``).

    >>> exact_fraction("1/3"), exact_fraction(0.25), exact_fraction(1 / 3) < Fraction(1, 3)
    (Fraction(1, 3), Fraction(1, 4), True)
    """
    v = exact_number(value, name, owner, "a number in [0, 1]", text=True)
    frac = as_fraction(v)
    if not 0 <= frac <= 1:
        raise parameter_error(name, owner, "a number in [0, 1]", value)
    return frac


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


def binary_entropy(p: float) -> float:
    """``H(p) = p log2(1/p) + (1-p) log2(1/(1-p))`` (FX Lemma 4.1), with ``H(0) = H(1) = 0``.

    >>> binary_entropy(0.5), round(binary_entropy(0.25), 4)
    (1.0, 0.8113)
    """
    p = float(p)
    if not 0 <= p <= 1:
        raise parameter_error("p", "binary_entropy", "a number in [0, 1]", p)
    if p in (0.0, 1.0):
        return 0.0
    return -p * math.log2(p) - (1 - p) * math.log2(1 - p)


def _rows(X: Any, owner: str, name: str) -> np.ndarray:
    if isinstance(X, HypothesisClass):
        return X.distinct_rows
    try:
        arr = np.asarray(X, dtype=np.int64)
    except (TypeError, ValueError, OverflowError):
        raise parameter_error(name, owner, "a HypothesisClass or a 2-d integer array", type(X).__name__) from None
    if arr.ndim != 2 or arr.shape[0] == 0:
        raise parameter_error(name, owner, "a HypothesisClass or a non-empty 2-d integer array", arr.shape)
    if arr.shape[1] == 0:
        return arr[:1]
    # distinct rows in order of first occurrence; each row compared as one byte string (fast, no axis=0 copies),
    # in the narrowest dtype that holds the labels
    lo, hi = int(arr.min()), int(arr.max())
    compact = arr.astype(np.uint8 if 0 <= lo and hi < 1 << 8 else np.uint16 if 0 <= lo and hi < 1 << 16 else np.int64)
    compact = np.ascontiguousarray(compact)
    keys = compact.view(np.dtype((np.void, compact.itemsize * compact.shape[1]))).reshape(-1)
    _, first = np.unique(keys, return_index=True)
    return arr[np.sort(first)]


def _mistakes(H_rows: np.ndarray, f: np.ndarray) -> np.ndarray:
    """M[x, h] = 1 when hypothesis h errs on point x for target f."""
    return (H_rows != f[None, :]).T.astype(np.int64)


def _rationalise(values: np.ndarray) -> list[list[Fraction]]:
    """Candidate exact probability vectors near ``values`` (clipped, rounded, renormalised)."""
    v = np.clip(np.asarray(values, dtype=float), 0, None)
    if v.sum() <= 0:
        return []
    v = v / v.sum()
    out = []
    for den in _DENOMINATORS:
        fr = [Fraction(float(a)).limit_denominator(den) for a in v]
        total = sum(fr)
        if total > 0:
            out.append([a / total for a in fr])
    return out


def _exact_worst(M: np.ndarray, q: Sequence[Fraction]) -> Fraction:
    """max over points of the q-probability of a mistake."""
    support = [j for j, a in enumerate(q) if a]
    return max((sum((q[j] for j in support if M[x, j]), Fraction(0)) for x in range(M.shape[0])), default=Fraction(0))


def _exact_best(M: np.ndarray, D: Sequence[Fraction]) -> Fraction:
    """min over hypotheses of the D-probability of a mistake."""
    support = [x for x, a in enumerate(D) if a]
    return min(sum((D[x] for x in support if M[x, j]), Fraction(0)) for j in range(M.shape[1]))


class _PointMass(Sequence):
    """The mixture putting probability 1 on hypothesis ``index`` of ``size``: a read-only list of Fractions
    in O(1) memory (a concept that is itself in ``H`` needs no LP; a dense list per concept would cost
    ``|C| x |H|`` Fractions)."""

    def __init__(self, size: int, index: int) -> None:
        self._size, self._index = size, index

    def __len__(self) -> int:
        return self._size

    def __getitem__(self, j: Any) -> Any:
        if isinstance(j, slice):
            return [self[i] for i in range(*j.indices(self._size))]
        if j < 0:
            j += self._size
        if not 0 <= j < self._size:
            raise IndexError(j)
        return Fraction(1) if j == self._index else Fraction(0)

    def __repr__(self) -> str:
        return f"point mass on hypothesis {self._index} of {self._size}"


@dataclass(frozen=True)
class _ConceptCheck:
    value: float  # LP optimum min_q max_x error
    mixture: list[Fraction] | None  # exact mixture certifying <= eps
    distribution: list[Fraction] | None  # exact D certifying > eps
    mixture_error: Fraction | None
    distribution_error: Fraction | None


def _solve_concept(H_rows: np.ndarray, f: np.ndarray, eps: Fraction) -> _ConceptCheck:
    from scipy.optimize import linprog

    M = _mistakes(H_rows, f)
    n_x, n_h = M.shape
    # variables: q_1..q_nh, t ; minimise t s.t. M q - t <= 0, sum q = 1
    c = np.zeros(n_h + 1)
    c[-1] = 1.0
    A_ub = np.hstack([M.astype(float), -np.ones((n_x, 1))])
    A_eq = np.hstack([np.ones((1, n_h)), np.zeros((1, 1))])
    res = linprog(
        c,
        A_ub=A_ub,
        b_ub=np.zeros(n_x),
        A_eq=A_eq,
        b_eq=[1.0],
        bounds=[(0, None)] * n_h + [(None, None)],
        method="highs",
    )
    if res.status != 0:  # pragma: no cover - the LP is always feasible and bounded
        raise RuntimeError(f"representation LP failed: {res.message}")
    value = float(res.fun)
    mixture = distribution = None
    mix_err = dist_err = None
    if value <= float(eps) + 1e-6:
        for q in _rationalise(res.x[:n_h]):
            err = _exact_worst(M, q)
            if err <= eps:
                mixture, mix_err = q, err
                break
    if mixture is None and value >= float(eps) - 1e-6:
        duals = -np.asarray(res.ineqlin.marginals, dtype=float)
        for D in _rationalise(duals):
            err = _exact_best(M, D)
            if err > eps:
                distribution, dist_err = D, err
                break
    return _ConceptCheck(value, mixture, distribution, mix_err, dist_err)


@dataclass(frozen=True)
class RepresentationCheck:
    """Answer of :func:`is_representation`.

    Attributes
    ----------
    represents : bool or None
        True / False when certified exactly; None when an LP tie could not be
        certified either way (never happens on the tests' classes; reported honestly).
    epsilon : Fraction
    worst_concept : int or None
        Index (distinct row of ``C``) of a concept that is not represented, or
        of the concept with the largest LP value when all are.
    value : float
        ``max_f min_q max_x Pr_q[h(x) != f(x)]`` (LP value).
    mixtures : dict
        concept index -> exact mixture over ``H`` rows (list of Fractions) whose
        worst error is ``<= epsilon`` (when represented).
    counter_distribution : list of Fraction or None
        A distribution over the domain under which every ``h in H`` errs on
        ``worst_concept`` with probability ``> epsilon`` (when not represented).
    """

    represents: bool | None
    epsilon: Fraction
    worst_concept: int | None
    value: float
    mixtures: dict = field(default_factory=dict, repr=False)
    counter_distribution: list | None = None
    counter_error: Fraction | None = None
    certified: bool = True

    def __bool__(self) -> bool:
        return bool(self.represents)

    def to_json(self) -> dict:
        out: dict[str, Any] = {
            "represents": self.represents,
            "epsilon": str(self.epsilon),
            "value": self.value,
            "certified": self.certified,
            "worst_concept": self.worst_concept,
        }
        if self.counter_distribution is not None:
            out["counter_distribution"] = [str(a) for a in self.counter_distribution]
            out["counter_error"] = str(self.counter_error)
        return out


def is_representation(H: Any, C: Any, epsilon: Any = 0.25) -> RepresentationCheck:
    """Does ``H`` ε-represent ``C`` (FX Def 2.3; BGS Def 8.1 for multiclass labels)?

    One LP per concept ``f in C`` (minimax theorem, see the module docstring);
    each answer is certified with exact fractions.

    Parameters
    ----------
    H, C : HypothesisClass or 2-d int array
        Tables over the same domain (same number of columns); duplicates ignored.
    epsilon : float, Fraction or str
        In ``[0, 1]``; a float is read through its decimal text.

    Returns
    -------
    RepresentationCheck
        Truthy when represented.  On failure, ``counter_distribution`` is a
        distribution ``D`` (exact fractions over the points) such that every
        ``h in H`` errs with ``D``-probability ``> epsilon`` on ``worst_concept``.

    References
    ----------
    FX Def 2.3 and the minimax step of the proof of Thm 3.2.

    Examples
    --------
    >>> import numpy as np
    >>> P = np.eye(3, dtype=int)                  # point functions on 3 points
    >>> bool(is_representation(P, P, 0.25))       # every class represents itself
    True
    >>> Z = [[0, 0, 0]]                           # the all-zero function alone
    >>> r = is_representation(Z, P, 0.25)
    >>> r.represents, [str(a) for a in r.counter_distribution]
    (False, ['1', '0', '0'])
    """
    eps = exact_fraction(epsilon)
    H_rows = _rows(H, "is_representation", "H")
    C_rows = _rows(C, "is_representation", "C")
    if H_rows.shape[1] != C_rows.shape[1]:
        raise InvalidParameterError(
            f"is_representation: H has {H_rows.shape[1]} points but C has "
            f"{C_rows.shape[1]}; both must be tables over the same domain"
        )
    mixtures: dict[int, Sequence[Fraction]] = {}
    worst, worst_value, certified = None, -1.0, True
    # f itself in H: zero error, no LP needed -- found by hashing rows, O(|H| + |C|) (not |H| x |C|)
    index_in_H: dict[bytes, int] = {}
    H_keys = np.ascontiguousarray(H_rows, dtype=np.int64)
    for j in range(len(H_keys)):
        index_in_H.setdefault(H_keys[j].tobytes(), j)
    C_keys = np.ascontiguousarray(C_rows, dtype=np.int64)
    for i, f in enumerate(C_rows):
        hit = index_in_H.get(C_keys[i].tobytes())
        if hit is not None:
            mixtures[i] = _PointMass(len(H_rows), hit)
            if worst_value < 0:
                worst, worst_value = i, 0.0
            continue
        chk = _solve_concept(H_rows, f, eps)
        if chk.distribution is not None:
            return RepresentationCheck(False, eps, i, chk.value, mixtures, chk.distribution, chk.distribution_error)
        if chk.mixture is None:
            certified = False
            worst, worst_value = i, chk.value
            continue
        mixtures[i] = chk.mixture
        if chk.value > worst_value and certified:
            worst, worst_value = i, chk.value
    return RepresentationCheck(
        True if certified else None, eps, worst, max(worst_value, 0.0), mixtures, certified=certified
    )


def representation_error(H: Any, C: Any) -> float:
    """``max_f min_q max_x Pr_{h~q}[h(x) != f(x)]``: the least ε for which ``H`` ε-represents ``C`` (LP value).

    >>> representation_error([[0, 0], [1, 1]], [[0, 1], [1, 0]])
    0.5
    """
    H_rows = _rows(H, "representation_error", "H")
    C_rows = _rows(C, "representation_error", "C")
    return max(_solve_concept(H_rows, f, Fraction(0)).value for f in C_rows)


# ---------------------------------------------------------------------------------------------- DRDim
@dataclass(frozen=True)
class PaperBound:
    """A bound taken from a paper: value, direction, source and whether its constants are explicit."""

    quantity: str
    relation: str  # "<=" or ">="  (quantity relation value)
    value: float | None
    source: str
    explicit_constants: bool
    note: str = ""

    def to_json(self) -> dict:
        return {
            "quantity": self.quantity,
            "relation": self.relation,
            "value": self.value,
            "source": self.source,
            "explicit_constants": self.explicit_constants,
            "note": self.note,
        }


@dataclass(frozen=True)
class RepresentationDimensionResult:
    """Answer of :func:`deterministic_representation_dimension`.

    ``size`` / ``size_lower`` / ``size_upper`` count functions (|H|);
    ``value`` / ``lower`` / ``upper`` are ``log2`` of them (FX's DRDim, in bits).
    ``witness`` is the smallest ε-representing class found (a list of rows),
    checked by :func:`is_representation`.  ``bounds`` lists the paper bounds used.
    """

    epsilon: Fraction
    exact: bool
    size_lower: int
    size_upper: int
    witness: list[list[int]]
    pool: str
    bounds: list[PaperBound] = field(default_factory=list)
    stats: dict = field(default_factory=dict)
    #: The witness rows as an array (the same rows as ``witness``), so that checking is not a list conversion.
    witness_array: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def size(self) -> int | None:
        return self.size_upper if self.exact else None

    @property
    def value(self) -> float | None:
        return math.log2(self.size_upper) if self.exact else None

    @property
    def lower(self) -> float:
        return math.log2(self.size_lower)

    @property
    def upper(self) -> float:
        return math.log2(self.size_upper)

    def verify(self, C: Any) -> bool:
        """Re-check that the witness ε-represents ``C`` (exact arithmetic)."""
        rows = self.witness_array if self.witness_array is not None else self.witness
        return is_representation(rows, C, self.epsilon).represents is True

    def to_json(self) -> dict:
        out: dict[str, Any] = {"epsilon": str(self.epsilon), "exact": self.exact, "pool": self.pool}
        if self.exact:
            out.update(value=self.value, size=self.size)
        else:
            out.update(
                value=None, lower=self.lower, upper=self.upper, size_lower=self.size_lower, size_upper=self.size_upper
            )
        out["witness"] = self.witness
        out["bounds"] = [b.to_json() for b in self.bounds]
        return out


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


def _milp_smallest(
    P: np.ndarray, C: np.ndarray, eps: Fraction, time_limit: float | None
) -> tuple[list[int], int, bool, bool]:
    """Smallest subset of pool rows that ε-represents C.

    Returns (chosen rows, proven lower bound on size, optimal?, decided at ε exactly?).
    """
    threshold, decided = _milp_threshold(eps, P.shape[1], len(P))
    from scipy.optimize import Bounds, LinearConstraint, milp
    from scipy.sparse import coo_matrix

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
        return [], 1, False, decided
    chosen = [int(p) for p in np.flatnonzero(res.x[:n_p] > 0.5)]
    dual = getattr(res, "mip_dual_bound", None)
    lower = max(1, math.ceil(dual - 1e-6)) if dual is not None and np.isfinite(dual) else 1
    return chosen, lower, res.status == 0, decided


def deterministic_representation_dimension(
    C: HypothesisClass, epsilon: Any = 0.25, *, pool: Any = None, time_limit: float | None = None
) -> RepresentationDimensionResult:
    """``DRDim_ε(C)``: log2 of the smallest ``H`` that ε-represents ``C`` (FX Def 2.3), by MILP.

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
    C : HypothesisClass
    epsilon : float, Fraction or str
        Accuracy in ``[0, 1]``; FX's ``DRDim`` is ``ε = 1/4``.  Exact: ``"1/3"`` and
        ``Fraction(1, 3)`` are one third; a float is its own binary value (``1/3`` as a float
        is a hair below one third, and the answer is exact at that value).
    pool : None, "all", "class", HypothesisClass or array
    time_limit : float, optional

    Returns
    -------
    RepresentationDimensionResult

    References
    ----------
    FX Def 2.3, Thm 3.2, Cor 4.3, §3.1 (``DRDim(Point_b) = Θ(log b)``).

    Examples
    --------
    >>> import numpy as np
    >>> from dimcalc import HypothesisClass
    >>> P = HypothesisClass.from_table(np.eye(4, dtype=int))          # 4 point functions
    >>> r = deterministic_representation_dimension(P, 0.25)
    >>> r.exact, r.size, r.verify(P)     # on 4 points no smaller H works at ε = 1/4
    (True, 4, True)
    """
    if not isinstance(C, HypothesisClass):
        raise parameter_error("C", "deterministic_representation_dimension", "a HypothesisClass", type(C).__name__)
    eps = exact_fraction(epsilon, owner="deterministic_representation_dimension")
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
        P = _rows(pool, "deterministic_representation_dimension", "pool")
        if P.shape[1] != C.n_points:
            raise InvalidParameterError(
                f"deterministic_representation_dimension: the pool has {P.shape[1]} points but C has {C.n_points}"
            )
        pool_name, complete = f"user pool ({len(P)} functions)", len(P) == n_all
    if len(P) * len(C_rows) <= MAX_MILP_PAIRS:
        chosen, milp_lower, optimal, decided = _milp_smallest(P, C_rows, eps, deadline.left())
    else:  # too large for an exact program: C itself (it represents itself at any ε) is the upper bound
        chosen, milp_lower, optimal, decided = [], 1, False, False
    witness_rows = P[chosen] if chosen else C_rows
    if not chosen or not is_representation(witness_rows, C_rows, eps).represents:
        # numerical trouble or stopped without a solution: fall back to C itself (represents C for any ε)
        witness_rows, optimal = C_rows, False
    size_upper = len(witness_rows)
    bounds: list[PaperBound] = []
    size_lower = 1
    if complete:
        size_lower = size_upper if optimal else max(1, milp_lower)
    ld_bound = _littlestone_lower_bound(C, eps, deadline.left(default=5.0))
    if ld_bound is not None:
        bounds.append(ld_bound)
        bits = math.ceil(ld_bound.value - 1e-9)  # ceil(log2|H|) >= bits  <=>  |H| > 2^(bits-1)
        size_lower = max(size_lower, 2 ** (bits - 1) + 1 if bits >= 1 else 1)
    size_lower = min(size_lower, size_upper)
    exact = size_lower == size_upper
    rows = np.asarray(witness_rows, dtype=np.int64)
    rows.setflags(write=False)
    return RepresentationDimensionResult(
        eps,
        exact,
        size_lower,
        size_upper,
        rows.tolist(),
        pool_name,
        bounds,
        {
            "milp_optimal": optimal,
            "milp_decides_epsilon": decided,
            "pool_size": int(len(P)),
            "seconds": deadline.elapsed(),
        },
        witness_array=rows,
    )


def _littlestone_lower_bound(C: HypothesisClass, eps: Fraction, time_limit: float | None) -> PaperBound | None:
    """FX Thm 3.2 (>=) and Cor 4.3: ceil(log2|H|) >= R→_ε(C) >= (1 - H(ε))·LDim(C) (binary, ε <= 1/2)."""
    if not C.is_binary or eps > Fraction(1, 2):
        return None
    from .littlestone import littlestone_dimension

    ld = littlestone_dimension(C, time_limit=time_limit)
    if ld.lower is None:
        return None
    value = (1 - binary_entropy(float(eps))) * ld.lower
    return PaperBound(
        "ceil(log2 |H|)",
        ">=",
        value,
        "FX Thm 3.2 (DRDim_ε >= R→_ε) and Cor 4.3 (R→_ε >= (1 - H(ε))·LDim)",
        True,
        f"LDim >= {ld.lower}" + ("" if ld.exact else " (lower bound only)"),
    )


# ---------------------------------------------------------------------------------------------- PRDim
def probabilistic_representation_bounds(
    C: HypothesisClass, *, drdim: RepresentationDimensionResult | None = None, time_limit: float | None = None
) -> list[PaperBound]:
    """The bounds FX and BGS §8 state on the probabilistic representation dimension of ``C``.

    Returned as :class:`PaperBound` objects, each with its source and whether
    its constants are explicit.  dimcalc does not compute PRDim exactly.

    * ``PRDim_{ε,δ}(C) <= DRDim_ε(C)`` for every δ (a deterministic
      representation is a probabilistic one with δ = 0; Defs 2.3-2.4) -- explicit,
      numeric when ``drdim`` (or its computation) is available.
    * BGS Thm 8.8: ``RepDim(C) >= MLD(C)/32`` where RepDim uses
      ``(1/4, 1/8)``-representations and size ``ln |G|`` (nats) -- explicit.
    * FX Thm 3.1 with Thm 1.2(1): ``PRDim_{ε,δ}(C) >= R→,pub_{ε+δ-εδ}(C) = Ω(LDim(C))`` -- unspecified constant.
    * FX §3.1 (Newman): ``DRDim(C) = O(PRDim(C) + log log |X|)`` -- unspecified constant.

    Examples
    --------
    >>> import numpy as np
    >>> from dimcalc import HypothesisClass
    >>> P = HypothesisClass.from_table(np.eye(4, dtype=int))
    >>> [b.source.split(':')[0] for b in probabilistic_representation_bounds(P)][:2]
    ['Defs 2.3-2.4 (FX)', 'BGS Thm 8.8']
    """
    from .littlestone import littlestone_dimension, multiclass_littlestone_dimension

    if not isinstance(C, HypothesisClass):
        raise parameter_error("C", "probabilistic_representation_bounds", "a HypothesisClass", type(C).__name__)
    time_limit = check_time_limit(time_limit, "probabilistic_representation_bounds")
    deadline = Deadline(time_limit)
    out: list[PaperBound] = []
    if drdim is None and C.num_labels**C.n_points <= MAX_ALL_FUNCTIONS:
        drdim = deterministic_representation_dimension(C, Fraction(1, 4), time_limit=deadline.left())
    upper = drdim.upper if drdim is not None else math.log2(C.n_distinct)
    out.append(
        PaperBound(
            "PRDim_{1/4,δ} (bits)",
            "<=",
            upper,
            "Defs 2.3-2.4 (FX): PRDim_{ε,δ} <= DRDim_ε",
            True,
            "DRDim_{1/4} computed by dimcalc" if drdim is not None else "log2 |C| (C represents itself)",
        )
    )
    mld = multiclass_littlestone_dimension(C, time_limit=deadline.left())
    if mld.lower is not None:
        out.append(
            PaperBound(
                "RepDim = PRDim_{1/4,1/8} (nats, ln|G|)",
                ">=",
                mld.lower / 32,
                "BGS Thm 8.8: RepDim(H) >= MLD(H)/32",
                True,
                f"MLD >= {mld.lower}" + ("" if mld.exact else " (lower bound only)"),
            )
        )
    if C.is_binary:
        ld = littlestone_dimension(C, time_limit=deadline.left())
        out.append(
            PaperBound(
                "PRDim_{ε,δ}",
                ">=",
                None,
                "FX Thm 3.1 (PRDim_{ε,δ} >= R→,pub_{ε+δ-εδ}) and Thm 1.2(1) (R→,pub = Ω(LDim))",
                False,
                f"Ω(LDim) with LDim >= {ld.lower}; constant not specified",
            )
        )
    out.append(
        PaperBound(
            "DRDim_{1/4}",
            "<=",
            None,
            "FX §3.1 (Newman): DRDim = O(PRDim + log log |X|)",
            False,
            f"O(PRDim + log log |X|) with log2 log2 |X| = "
            f"{math.log2(max(1.0, math.log2(max(C.n_points, 2)))):.3g}; constant not specified "
            "(for point functions PRDim = O(1) while DRDim = Θ(log b), FX §3.1)",
        )
    )
    return out
