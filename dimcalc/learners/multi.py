"""Private k-learners: learn k concepts at once from one k-labelled sample (BNS).

A *k-labelled database* (BNS Def 3) has one row per individual: a domain point and
``k`` binary labels, one per concept.  Neighbouring databases differ in one whole row
(BNS §2.3), and every learner here is differentially private for that relation.

=========================  ==========================================  =====================
learner                    paper                                       privacy
=========================  ==========================================  =====================
:class:`CompositionLearner` BNS Obs 32 + Thm 17 over Thm 27 / Prop 21  pure, or approximate
:class:`GenericLearner`     BNS Alg 3 (Lemma 36, Thm 31), MWEM for C⊕  pure, or approximate
:class:`PointLearner`       BNS Alg 5 (Thm 40): Alg 2 + A_dist          approximate
:class:`ParityLearner`      BNS Alg 4 (Thm 39): GF(2) + A_dist          approximate
=========================  ==========================================  =====================

All follow scikit-learn's estimator shape: keyword-only options, an injected
``rng`` (``numpy.random.Generator``), ``fit(X, Y)`` with ``Y`` an ``(m, k)`` 0/1
label matrix (column ``j`` = concept ``j``), ``predict(X) -> (n, k)``, and
``privacy_spent -> (epsilon, delta)`` (what the run is proven to satisfy).
``X`` holds point *indices* of the class's domain, except for :class:`ParityLearner`
where it holds the points of ``{0,1}^d`` themselves (rows of an ``(m, d)`` 0/1 array,
since ``2^d`` columns would not fit a table).  ``required_sample_size(alpha, beta)``
returns a :class:`dimcalc.sample_size.SampleSizeBound`.

References
----------
.. [BNS] M. Bun, K. Nissim, U. Stemmer. Simultaneous Private Learning of Multiple
   Concepts. JMLR 20 (2019): Defs 3-5, Thm 17, Props 21-22, Prop 30 / Alg 2,
   Obs 32, Lemma 36 / Alg 3, Thm 39 / Alg 4, Thm 40 / Alg 5.
.. [HLM] M. Hardt, K. Ligett, F. McSherry. A Simple and Practical Algorithm for
   Differentially Private Data Release. NeurIPS 2012.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
import sympy as sp

from dimcalc.errors import InvalidParameterError, parameter_error
from dimcalc.hypothesis_class import HypothesisClass
from dimcalc.learners.sanitizers import (
    NoiseSource,
    a_dist,
    exponential_mechanism,
    make_noise,
    mwem,
    point_sanitizer,
)
from dimcalc.sample_size import (
    ALPHA,
    BETA,
    DELTA,
    EPSILON,
    D,
    SampleSizeBound,
    advanced_composition_epsilon,
    composition_sample_size,
    exponential_mechanism_sample_size,
    generic_k_learner_sample_size,
)

__all__ = [
    "BudgetSplit",
    "split_budget",
    "xor_queries",
    "solve_parities_gf2",
    "CompositionLearner",
    "GenericLearner",
    "PointLearner",
    "ParityLearner",
]

Composition = Literal["basic", "advanced", "auto"]


# ---------------------------------------------------------------------------- budget
@dataclass(frozen=True)
class BudgetSplit:
    """How a total privacy budget is shared by ``k`` runs of an ``epsilon_each``-DP mechanism.

    Attributes
    ----------
    epsilon_each : float
        Pure-DP parameter of each run.
    epsilon, delta : float
        What the ``k`` runs together are proven to satisfy (BNS Thm 17).
    method : str
        ``"basic"`` (Thm 17.1) or ``"advanced"`` (Thm 17.2).
    """

    epsilon_each: float
    epsilon: float
    delta: float
    method: str


def split_budget(epsilon: float, delta: float, k: int, composition: Composition = "auto") -> BudgetSplit:
    """Per-run epsilon for ``k`` pure-DP runs to compose to at most ``(epsilon, delta)``.

    Basic composition (BNS Thm 17.1): ``epsilon / k`` each, total ``(epsilon, 0)``.
    Advanced composition (BNS Thm 17.2) with slack ``delta' = delta / 2`` (as
    :func:`dimcalc.sample_size.composition_sample_size` does): ``e`` solving
    ``sqrt(2k ln(1/delta')) e + 2k e^2 = epsilon``, total ``(epsilon, delta / 2)``;
    needs ``delta > 0`` and ``e < 1`` (the theorem's hypothesis).  ``"auto"`` takes the
    larger per-run epsilon.

    Examples
    --------
    >>> split_budget(1.0, 0.0, 4)
    BudgetSplit(epsilon_each=0.25, epsilon=1.0, delta=0.0, method='basic')
    >>> s = split_budget(2.0, 1e-6, 400)
    >>> s.method, round(s.epsilon, 9), s.delta, s.epsilon_each > 2.0 / 400
    ('advanced', 2.0, 5e-07, True)
    """
    basic = BudgetSplit(epsilon / k, epsilon, 0.0, "basic")
    if composition == "basic" or (composition == "auto" and delta == 0):
        return basic
    if delta == 0:
        raise parameter_error("delta", "split_budget", "a float in (0, 1) for advanced composition", delta)
    slack = delta / 2
    a = math.sqrt(2 * k * math.log(1 / slack))
    each = (math.sqrt(a * a + 8 * k * epsilon) - a) / (4 * k)
    if each >= 1:
        if composition == "advanced":
            raise InvalidParameterError(
                f"split_budget: advanced composition needs a per-run epsilon below 1 (BNS Thm 17.2), got {each:.3g}; "
                "use composition='basic' or a smaller epsilon")
        return basic
    advanced = BudgetSplit(each, a * each + 2 * k * each * each, slack, "advanced")
    if composition == "advanced" or advanced.epsilon_each > basic.epsilon_each:
        return advanced
    return basic


# ---------------------------------------------------------------------------- input checks
def _check_epsilon(epsilon: Any, owner: str) -> float:
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float, np.integer, np.floating)) \
            or not (0 < float(epsilon) < math.inf):
        raise parameter_error("epsilon", owner, "a float in (0, inf)", epsilon)
    return float(epsilon)


def _check_delta(delta: Any, owner: str, *, allow_zero: bool) -> float:
    ok = not isinstance(delta, bool) and isinstance(delta, (int, float, np.integer, np.floating))
    if ok:
        d = float(delta)
        ok = (0 <= d < 1) if allow_zero else (0 < d < 1)
    if not ok:
        raise parameter_error("delta", owner, "a float in [0, 1)" if allow_zero else "a float in (0, 1)", delta)
    return float(delta)


def _check_unit(value: Any, name: str, owner: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not (0 < float(value) < 1):
        raise parameter_error(name, owner, "a float in (0, 1)", value)
    return float(value)


def _check_labels(Y: Any, m: int, owner: str) -> np.ndarray:
    Y = np.asarray(Y)
    if Y.ndim == 1:
        Y = Y.reshape(-1, 1)
    if Y.ndim != 2 or Y.shape[0] != m or Y.shape[1] == 0:
        raise parameter_error("Y", owner, f"an (m, k) 0/1 label matrix with m = {m} rows and k >= 1", Y.shape)
    if not np.issubdtype(Y.dtype, np.integer) and Y.dtype != np.bool_:
        raise parameter_error("Y", owner, "an integer 0/1 label matrix", str(Y.dtype))
    if Y.size and (Y.min() < 0 or Y.max() > 1):
        raise parameter_error("Y", owner, "binary labels 0/1 (one column per concept)", int(Y.max()))
    return Y.astype(np.int64)


def _check_indices(X: Any, n_points: int, owner: str, name: str = "X") -> np.ndarray:
    X = np.asarray(X)
    if X.ndim != 1 or (X.size and not np.issubdtype(X.dtype, np.integer)):
        raise parameter_error(name, owner, "a 1-d array of point indices", getattr(X, "shape", X))
    if X.size and (X.min() < 0 or X.max() >= n_points):
        bad = int(X.min() if X.min() < 0 else X.max())
        raise parameter_error(name, owner, f"point indices in [0, {n_points})", bad)
    return X.astype(np.int64)


def _not_fitted(owner: str) -> InvalidParameterError:
    return InvalidParameterError(f"{owner}: call fit(X, Y) before predict")


class _MultiLearner:
    """Shared plumbing: privacy parameters, the noise source, ``privacy_spent``."""

    _owner = "learner"

    def __init__(self, *, epsilon: float, delta: float, rng: np.random.Generator | None,
                 noise: str | NoiseSource, delta_required: bool) -> None:
        self.epsilon = _check_epsilon(epsilon, self._owner)
        self.delta = _check_delta(delta, self._owner, allow_zero=not delta_required)
        if rng is not None and not isinstance(rng, np.random.Generator):
            raise parameter_error("rng", self._owner, "a numpy.random.Generator or None", rng)
        self.rng = rng if rng is not None else np.random.default_rng()
        self.noise = noise
        make_noise(noise, self.rng, self._owner)  # validate now; fit draws from the current rng
        self._spent: tuple[float, float] | None = None
        self.k_: int | None = None

    @property
    def _noise(self) -> NoiseSource:
        """The noise source for this fit, drawing from the current ``rng`` (settable, as in scikit-learn)."""
        return make_noise(self.noise, self.rng, self._owner)

    @property
    def privacy_spent(self) -> tuple[float, float]:
        """``(epsilon, delta)`` the last ``fit`` is proven to satisfy (``(0, 0)`` before any fit)."""
        return self._spent if self._spent is not None else (0.0, 0.0)


def _error_counts(rows: np.ndarray, X: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """``errors[h, j]`` = number of examples ``i`` with ``rows[h, X[i]] != Y[i, j]`` (binary labels)."""
    n_points = rows.shape[1]
    ones = np.zeros((n_points, Y.shape[1]), dtype=np.int64)
    np.add.at(ones, X, Y)
    totals = np.bincount(X, minlength=n_points).astype(np.int64)
    zeros = totals[:, None] - ones
    # a hypothesis labelling point p with 1 errs on its 0-labelled examples, and vice versa
    return rows.astype(np.int64) @ (zeros - ones) + ones.sum(axis=0)[None, :]


def _check_binary_class(H: Any, owner: str) -> HypothesisClass:
    if not isinstance(H, HypothesisClass):
        raise parameter_error("H", owner, "a HypothesisClass", type(H).__name__)
    if not H.is_binary:
        raise parameter_error("H", owner, "a binary class (labels 0/1; BNS concepts are predicates)",
                              f"{H.num_labels} labels")
    return H


# ---------------------------------------------------------------------------- composition baseline
class CompositionLearner(_MultiLearner):
    """The direct-sum baseline: one private learner per concept, composed (BNS Obs 32).

    Each of the ``k`` label columns is learned by the exponential mechanism over the
    distinct hypotheses of ``H`` with score ``-(number of errors)`` (the generic proper
    learner of BNS Thm 27, Kasiviswanathan et al. 2011; BNS Prop 21), each run with the
    per-run epsilon of :func:`split_budget`.

    Parameters
    ----------
    H : HypothesisClass
        A finite binary class ``C``.
    epsilon : float
        Total privacy parameter.
    delta : float
        0 for pure DP (basic composition); ``> 0`` allows advanced composition.
    composition : {"auto", "basic", "advanced"}
        How the budget is split (BNS Thm 17).
    rng : numpy.random.Generator, optional
        Source of randomness (``noise="numpy"``).
    noise : {"numpy", "opendp"} or noise source
        ``"opendp"`` draws the mechanism's noise from OpenDP (secure, not seedable).

    Attributes
    ----------
    hypotheses_ : ndarray of int, shape (k,)
        File row of ``H`` chosen for each concept.

    Examples
    --------
    >>> H = HypothesisClass.from_table(np.eye(8, dtype=int))  # point functions on 8 points
    >>> rng = np.random.default_rng(0)
    >>> X = rng.integers(0, 8, size=400)
    >>> Y = np.stack([(X == 2), (X == 5)], axis=1).astype(int)
    >>> learner = CompositionLearner(H, epsilon=2.0, rng=rng).fit(X, Y)
    >>> learner.hypotheses_.tolist(), learner.privacy_spent
    ([2, 5], (2.0, 0.0))
    """

    _owner = "CompositionLearner"

    def __init__(self, H: HypothesisClass, *, epsilon: float, delta: float = 0.0,
                 composition: Composition = "auto", rng: np.random.Generator | None = None,
                 noise: str | NoiseSource = "numpy") -> None:
        super().__init__(epsilon=epsilon, delta=delta, rng=rng, noise=noise, delta_required=False)
        self.H = _check_binary_class(H, self._owner)
        if composition not in ("auto", "basic", "advanced"):
            raise parameter_error("composition", self._owner, "'auto', 'basic' or 'advanced'", composition)
        self.composition = composition
        self.hypotheses_: np.ndarray | None = None

    def fit(self, X: Any, Y: Any) -> "CompositionLearner":
        """Learn one hypothesis per label column of ``Y`` (``X``: point indices)."""
        X = _check_indices(X, self.H.n_points, self._owner)
        Y = _check_labels(Y, X.shape[0], self._owner)
        noise = self._noise
        k = Y.shape[1]
        split = split_budget(self.epsilon, self.delta, k, self.composition)
        errors = _error_counts(self.H.distinct_rows, X, Y)
        chosen = [exponential_mechanism(-errors[:, j], epsilon=split.epsilon_each, noise=noise)
                  for j in range(k)]
        self.hypotheses_ = self.H.distinct_to_row[np.array(chosen, dtype=np.int64)]
        self.k_ = k
        self.split_ = split
        self._spent = (split.epsilon, split.delta)
        return self

    def predict(self, X: Any) -> np.ndarray:
        """Labels ``(n, k)`` of the chosen hypotheses on points ``X``."""
        if self.hypotheses_ is None:
            raise _not_fitted(self._owner)
        X = _check_indices(X, self.H.n_points, self._owner)
        return self.H.table[self.hypotheses_][:, X].T.copy()

    def required_sample_size(self, alpha: float, beta: float, k: int | None = None) -> SampleSizeBound:
        """Explicit sample size (PAC, targets in ``H``): BNS Thm 27 per concept, composed by Obs 32."""
        k = self._k_for_bound(k)
        single = exponential_mechanism_sample_size(log_size=math.log(self.H.n_distinct), alpha=alpha,
                                                   beta=beta, epsilon=self.epsilon)
        advanced = split_budget(self.epsilon, self.delta, k, self.composition).method == "advanced"
        return composition_sample_size(single=single, k=k, epsilon=self.epsilon, delta=self.delta,
                                       advanced=advanced)

    def _k_for_bound(self, k: int | None) -> int:
        k = self.k_ if k is None else k
        if k is None:
            raise InvalidParameterError(f"{self._owner}.required_sample_size: give k or call fit first")
        return int(k)


# ---------------------------------------------------------------------------- GenericLearner
def xor_queries(H: HypothesisClass) -> np.ndarray:
    """The distinct rows of ``C⊕ = {f XOR g : f, g in C}`` over ``H``'s domain (BNS §4.1).

    Examples
    --------
    >>> xor_queries(HypothesisClass.from_table([[0, 1], [1, 1]])).tolist()
    [[0, 0], [1, 0]]
    """
    rows = H.distinct_rows.astype(np.uint8)
    table = (rows[:, None, :] ^ rows[None, :, :]).reshape(-1, rows.shape[1])
    _, first = np.unique(table, axis=0, return_index=True)
    return table[np.sort(first)].astype(np.int64)


class GenericLearner(_MultiLearner):
    """BNS Algorithm 3 (GenericLearner) with MWEM as the sanitizer for ``C⊕``.

    1. Sanitize the unlabelled points w.r.t. ``C⊕`` with MWEM ([HLM]_ Thm 2.1: pure
       ``sanitizer_fraction * epsilon``-DP) and draw ``synthetic_size`` points from its
       distribution.
    2. ``B`` = the distinct synthetic points; ``H'`` = one hypothesis of ``C`` per pattern
       of ``C`` on ``B`` (so ``|H'| <= 2^|B|``).
    3. For each concept ``j``, the exponential mechanism over ``H'`` with score
       ``-(errors on column j)`` and the per-run epsilon of :func:`split_budget` on the
       rest of the budget.

    Privacy: BNS Lemma 36 / Thm 17: ``(epsilon_san + k epsilon_0, 0)`` (basic) or
    ``(epsilon_san + sqrt(2k ln(2/delta)) epsilon_0 + 2k epsilon_0^2, delta/2)``
    (advanced).  Accuracy: Lemma 36 when the sanitizer is ``(α/5, β/5)``-accurate for
    ``C⊕``; MWEM's guarantee is [HLM]_ Thm 2.2 (see :func:`~dimcalc.learners.sanitizers.mwem`).

    Parameters
    ----------
    H : HypothesisClass
        A finite binary class ``C``.
    epsilon, delta : float
        Total privacy budget (``delta = 0``: pure DP).
    sanitizer_fraction : float
        Share of ``epsilon`` given to MWEM (BNS and the calculator use 1/2).
    iterations : int
        MWEM rounds ``T``.
    update_passes : int
        MWEM update passes per round (post-processing; see :func:`mwem`).
    synthetic_size : int
        Size of the sanitized database ``D̃``.
    composition : {"auto", "basic", "advanced"}
    rng, noise
        As for :class:`CompositionLearner`.

    Examples
    --------
    >>> H = HypothesisClass.from_table(np.tril(np.ones((9, 8), dtype=int), -1))  # thresholds
    >>> rng = np.random.default_rng(1)
    >>> X = rng.integers(0, 8, size=2000)
    >>> Y = np.stack([H.table[3][X], H.table[6][X]], axis=1)
    >>> learner = GenericLearner(H, epsilon=4.0, rng=rng).fit(X, Y)
    >>> learner.hypotheses_.tolist(), learner.privacy_spent
    ([3, 6], (4.0, 0.0))
    """

    _owner = "GenericLearner"

    def __init__(self, H: HypothesisClass, *, epsilon: float, delta: float = 0.0,
                 sanitizer_fraction: float = 0.5, iterations: int = 10, update_passes: int = 20,
                 synthetic_size: int = 200, composition: Composition = "auto",
                 rng: np.random.Generator | None = None, noise: str | NoiseSource = "numpy") -> None:
        super().__init__(epsilon=epsilon, delta=delta, rng=rng, noise=noise, delta_required=False)
        self.H = _check_binary_class(H, self._owner)
        self.sanitizer_fraction = _check_unit(sanitizer_fraction, "sanitizer_fraction", self._owner)
        for name, value in (("iterations", iterations), ("update_passes", update_passes),
                            ("synthetic_size", synthetic_size)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
                raise parameter_error(name, self._owner, "a positive int", value)
        if composition not in ("auto", "basic", "advanced"):
            raise parameter_error("composition", self._owner, "'auto', 'basic' or 'advanced'", composition)
        self.iterations, self.update_passes = int(iterations), int(update_passes)
        self.synthetic_size, self.composition = int(synthetic_size), composition
        self.queries = xor_queries(self.H)
        self.hypotheses_: np.ndarray | None = None

    def fit(self, X: Any, Y: Any) -> "GenericLearner":
        """Run BNS Algorithm 3 on the k-labelled database ``(X, Y)`` (``X``: point indices)."""
        X = _check_indices(X, self.H.n_points, self._owner)
        Y = _check_labels(Y, X.shape[0], self._owner)
        noise = self._noise
        if X.shape[0] == 0:
            raise InvalidParameterError(f"{self._owner}.fit: the sample is empty; give at least one example")
        k = Y.shape[1]
        eps_san = self.sanitizer_fraction * self.epsilon
        split = split_budget(self.epsilon - eps_san, self.delta, k, self.composition)
        sanitized = mwem(X, self.queries, epsilon=eps_san, iterations=self.iterations, noise=noise,
                         synthetic_size=self.synthetic_size, update_passes=self.update_passes)
        support = np.unique(sanitized.synthetic)
        # Step 4: one representative of C per pattern on B (first distinct row with it).
        _, first = np.unique(self.H.distinct_rows[:, support], axis=0, return_index=True)
        representatives = np.sort(first)
        errors = _error_counts(self.H.distinct_rows[representatives], X, Y)
        chosen = [representatives[exponential_mechanism(-errors[:, j], epsilon=split.epsilon_each,
                                                        noise=noise)] for j in range(k)]
        self.sanitized_ = sanitized
        self.support_ = support
        self.representatives_ = self.H.distinct_to_row[representatives]
        self.hypotheses_ = self.H.distinct_to_row[np.array(chosen, dtype=np.int64)]
        self.k_ = k
        self.split_ = split
        self._spent = (eps_san + split.epsilon, split.delta)
        return self

    predict = CompositionLearner.predict

    def required_sample_size(self, alpha: float, beta: float, k: int | None = None,
                             vc: int | None = None) -> SampleSizeBound:
        """BNS Thm 31 / Lemma 36 sample size (order of growth: the paper's O(.) constant is unknown).

        ``vc`` defaults to ``floor(log2 |C|)``, a sound upper bound on VC(C).
        """
        k = CompositionLearner._k_for_bound(self, k)  # type: ignore[arg-type]
        vc = self.H.log2_size() if vc is None else int(vc)
        return generic_k_learner_sample_size(vc=vc, k=k, alpha=alpha, beta=beta, epsilon=self.epsilon,
                                             delta=self.delta, domain_size=self.H.n_points,
                                             log_size=math.log(self.H.n_distinct))


# ---------------------------------------------------------------------------- PointLearner
def _dlap_quantile_expr(scale: sp.Expr, probability: sp.Expr) -> sp.Expr:
    """Upper bound ``scale * ln(1/p) + 1`` on the least ``a`` with ``Pr[DLap(scale) >= a] <= p``."""
    return scale * sp.log(1 / probability) + 1


class PointLearner(_MultiLearner):
    """BNS Algorithm 5 (PointLearner): k point functions with approximate DP, O(1) samples in k.

    1. Sanitize the points with the point sanitizer (BNS Alg 2 / Prop 30) at accuracy
       ``alpha / 30`` with ``(epsilon/2, delta/2)``.
    2. ``G`` = points whose released frequency is at least ``alpha / 15``.
    3. With ``A_dist`` (BNS Alg 1 / Prop 22) at ``(epsilon/2, delta/2)``, choose for every
       ``x`` in ``G`` a label vector ``v_x`` maximising ``min_x #(x, v_x)`` (the number of
       rows with point ``x`` and label vector ``v_x``; sensitivity 1).
    4. ``h_j`` is the point function of the ``x`` whose ``v_x`` has a 1 in place ``j``, or
       the constant 0 (``points_[j] = -1``).  When ``A_dist`` answers ⊥ every ``h_j`` is 0.

    Privacy: ``(epsilon, delta)`` by BNS Thm 17.1 (two ``(epsilon/2, delta/2)`` steps).
    Accuracy: BNS Thm 40, with the explicit constants of :meth:`required_sample_size`.

    Parameters
    ----------
    domain_size : int
        ``|X|``; points are indices ``0 .. domain_size - 1``.
    alpha : float
        Target accuracy (the algorithm's thresholds depend on it).
    epsilon, delta : float
        Privacy parameters (``delta > 0``).
    rng, noise
        As for :class:`CompositionLearner`.

    Attributes
    ----------
    points_ : ndarray of int, shape (k,)
        ``h_j = 1{x == points_[j]}``, or ``h_j = 0`` when ``points_[j] == -1``.
    heavy_ : tuple of int
        The set ``G``.
    selection_failed_ : bool
        True when ``A_dist`` answered ⊥.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.integers(0, 5, size=3000)
    >>> Y = np.stack([X == 1, X == 3, X == 1, np.zeros_like(X, bool)], axis=1).astype(int)
    >>> PointLearner(100, alpha=0.3, epsilon=2.0, delta=1e-6, rng=rng).fit(X, Y).points_.tolist()
    [1, 3, 1, -1]
    """

    _owner = "PointLearner"

    def __init__(self, domain_size: int, *, alpha: float, epsilon: float, delta: float,
                 rng: np.random.Generator | None = None, noise: str | NoiseSource = "numpy") -> None:
        super().__init__(epsilon=epsilon, delta=delta, rng=rng, noise=noise, delta_required=True)
        if isinstance(domain_size, bool) or not isinstance(domain_size, (int, np.integer)) or domain_size < 1:
            raise parameter_error("domain_size", self._owner, "a positive int", domain_size)
        self.domain_size = int(domain_size)
        self.alpha = _check_unit(alpha, "alpha", self._owner)
        self.points_: np.ndarray | None = None

    def fit(self, X: Any, Y: Any) -> "PointLearner":
        """Run BNS Algorithm 5 on ``(X, Y)`` (``X``: point indices)."""
        X = _check_indices(X, self.domain_size, self._owner)
        Y = _check_labels(Y, X.shape[0], self._owner)
        noise = self._noise
        n, k = X.shape[0], Y.shape[1]
        if n == 0:
            raise InvalidParameterError(f"{self._owner}.fit: the sample is empty; give at least one example")
        half_eps, half_delta = self.epsilon / 2, self.delta / 2
        released = point_sanitizer(X, alpha=self.alpha / 30, epsilon=half_eps, delta=half_delta, noise=noise)
        heavy = sorted(x for x, c in released.items() if 15 * c >= self.alpha * n)
        points = np.full(k, -1, dtype=np.int64)
        failed = False
        if heavy:
            choice = a_dist(self._vector_set_scores(X, Y, heavy), epsilon=half_eps, delta=half_delta,
                            noise=noise)
            failed = choice is None
            if not failed:
                for x, vector in zip(heavy, choice):  # step 5: the first x whose v_x has a 1 at j
                    for j in np.flatnonzero(np.array(vector)):
                        if points[j] < 0:
                            points[j] = x
        self.released_ = released
        self.heavy_ = tuple(heavy)
        self.selection_failed_ = failed
        self.points_ = points
        self.k_ = k
        self._spent = (self.epsilon, self.delta)
        return self

    @staticmethod
    def _vector_set_scores(X: np.ndarray, Y: np.ndarray, heavy: list[int]) -> dict[tuple, int]:
        """Top and runner-up of ``Q(S, V) = min_{x in G} #(x, v_x)`` over vector sets ``V``.

        ``Q`` is maximised by the most frequent vector of every ``x`` (ties: smallest
        vector); the best other ``V`` swaps one ``x`` to its second most frequent vector
        (count 0 when ``x`` has a single vector, as all ``2^k`` vectors are candidates).
        """
        best: list[tuple] = []
        top: list[int] = []
        second: list[int] = []
        for x in heavy:
            counts = Counter(map(tuple, Y[X == x].tolist()))
            ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
            best.append(ranked[0][0])
            top.append(ranked[0][1])
            second.append(ranked[1][1] if len(ranked) > 1 else 0)
        q_best = min(top)
        runner_up = 0
        for i in range(len(heavy)):
            others = min(top[:i] + top[i + 1:], default=second[i])
            runner_up = max(runner_up, min(second[i], others))
        # the runner-up is any vector set other than the best: represent it by a placeholder key
        return {tuple(best): q_best, ("runner-up",): runner_up}

    def predict(self, X: Any) -> np.ndarray:
        """Labels ``(n, k)``: ``h_j(x) = 1`` iff ``x == points_[j]``."""
        if self.points_ is None:
            raise _not_fitted(self._owner)
        X = _check_indices(X, self.domain_size, self._owner)
        return (X[:, None] == self.points_[None, :]).astype(np.int64)

    def required_sample_size(self, alpha: float | None = None, beta: float = 0.1) -> SampleSizeBound:
        """Explicit sample size of this implementation (PAC, BNS Thm 40's proof with its constants).

        ``n`` is the maximum of (E1) ``ln(4/(αβ)) / (0.405 α)`` (Chernoff: every point of
        mass ``>= α`` has frequency ``>= α/10``); (E2) ``120 (1 + a) / α`` and
        ``(240 / (αε)) ln(960 / (αβ))`` (the sanitizer at ``α/30``, ``(ε/2, δ/2)``, noise
        ``DLap(4/ε)``, ``a <= (4/ε) ln(4/δ) + 1``, fails with probability ``<= β/4``);
        (E3) ``(30 / α) g`` with ``g <= 3 + (4/ε) ln(2/(βδ))`` the gap ``A_dist`` at
        ``(ε/2, δ/2)`` needs to fail with probability ``<= β/2``.  ``alpha`` defaults to the
        learner's own (the algorithm's thresholds are set by it).
        """
        alpha = self.alpha if alpha is None else _check_unit(alpha, "alpha", self._owner)
        beta = _check_unit(beta, "beta", self._owner)
        if alpha != self.alpha:
            raise parameter_error("alpha", f"{self._owner}.required_sample_size",
                                  f"the learner's alpha {self.alpha} (its thresholds depend on it)", alpha)
        a = _dlap_quantile_expr(4 / EPSILON, DELTA / 4)
        gap = 2 + _dlap_quantile_expr(4 / EPSILON, DELTA / 2) + _dlap_quantile_expr(4 / EPSILON, BETA / 2) - 1
        expr = sp.Max(sp.log(4 / (ALPHA * BETA)) / (sp.Rational(405, 1000) * ALPHA),
                      120 * (1 + a) / ALPHA,
                      240 / (ALPHA * EPSILON) * sp.log(960 / (ALPHA * BETA)),
                      30 * gap / ALPHA)
        values = {"alpha": alpha, "beta": beta, "epsilon": self.epsilon, "delta": self.delta}
        return SampleSizeBound(
            name="point_k_learner_explicit", expression=expr, values=values,
            source="BNS Thm 40 (Alg 5 PointLearner) with Prop 30 (Alg 2) and Prop 22 (A_dist); "
                   "constants of dimcalc's implementation",
            setting={"task": "PAC", "proper": False, "privacy": "approximate", "concepts": "k",
                     "data": "private"},
            constants_explicit=True, kind="upper", order_constant=None,
            notes=("independent of k and |X|, as in BNS Thm 40",
                   "order of growth: dimcalc.sample_size.point_k_learner_sample_size"))


# ---------------------------------------------------------------------------- ParityLearner
def solve_parities_gf2(points: np.ndarray, labels: np.ndarray) -> tuple[int, ...] | None:
    """The unique parities consistent with every label column, by Gaussian elimination over GF(2).

    Parameters
    ----------
    points : ndarray of {0,1}, shape (s, d)
    labels : ndarray of {0,1}, shape (s, k)

    Returns
    -------
    tuple of int or None
        For each column ``j`` the parity ``a_j`` as an int (bit ``i`` = coefficient of
        ``x_i``) with ``<a_j, x> = y_j (mod 2)`` on every row; ``None`` when some column
        has no consistent parity or the points do not determine it (rank ``< d``).

    Examples
    --------
    >>> pts = np.array([[1, 0], [0, 1], [1, 1]])
    >>> solve_parities_gf2(pts, np.array([[1, 0], [0, 0], [1, 0]]))  # x0, and the zero parity
    (1, 0)
    >>> solve_parities_gf2(pts, np.array([[1], [1], [1]])) is None  # inconsistent
    True
    """
    s, d = points.shape
    k = labels.shape[1]
    weights_x = 1 << np.arange(d, dtype=object)
    weights_y = 1 << np.arange(d, d + k, dtype=object)
    rows = [int(points[i].astype(object) @ weights_x) | int(labels[i].astype(object) @ weights_y)
            for i in range(s)]
    rank = 0
    for col in range(d):
        bit = 1 << col
        pivot = next((i for i in range(rank, s) if rows[i] & bit), None)
        if pivot is None:
            return None  # rank < d: the parity is not determined
        rows[rank], rows[pivot] = rows[pivot], rows[rank]
        for i in range(s):
            if i != rank and rows[i] & bit:
                rows[i] ^= rows[rank]
        rank += 1
    if any(rows[i] >> d for i in range(rank, s)):
        return None  # 0 = 1 in some column: inconsistent
    return tuple(sum(((rows[i] >> (d + j)) & 1) << i for i in range(d)) for j in range(k))


class ParityLearner(_MultiLearner):
    """BNS Algorithm 4 (ParityLearner): k parities under the uniform distribution, exactly.

    Split the sample into ``m = floor(n / block_size)`` disjoint blocks in order; on each,
    find the vector of ``k`` parities consistent with it by Gaussian elimination over GF(2)
    (:func:`solve_parities_gf2`; ⊥ when not unique or inconsistent); choose the most
    frequent vector with ``A_dist`` (BNS Alg 1 / Prop 22) over all of ``(PAR_d)^k``
    (unobserved vectors count 0).  Replacing one example changes one block, hence one
    entry of the multiset and every count by at most 1, so the learner is
    ``(epsilon, delta)``-DP (BNS Thm 39's proof).

    Parameters
    ----------
    d : int
        Dimension: examples are points of ``{0,1}^d``, given as rows of an ``(m, d)`` 0/1 array.
    epsilon, delta : float
        Privacy parameters (``delta > 0``).
    block_size : int, optional
        Block size; default ``d + 4`` (a block of uniform points has rank ``< d`` with
        probability ``< 2^(d - block_size)``).
    rng, noise
        As for :class:`CompositionLearner`.

    Attributes
    ----------
    parities_ : ndarray of {0,1}, shape (k, d)
        Coefficients of the chosen parities (all zero when ``A_dist`` answered ⊥).
    selection_failed_ : bool

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.integers(0, 2, size=(1200, 6))
    >>> targets = np.array([[1, 0, 1, 0, 0, 0], [0, 0, 0, 0, 1, 1]])
    >>> Y = X @ targets.T % 2
    >>> learner = ParityLearner(6, epsilon=1.0, delta=1e-6, rng=rng).fit(X, Y)
    >>> bool((learner.parities_ == targets).all()), learner.selection_failed_
    (True, False)
    """

    _owner = "ParityLearner"

    def __init__(self, d: int, *, epsilon: float, delta: float, block_size: int | None = None,
                 rng: np.random.Generator | None = None, noise: str | NoiseSource = "numpy") -> None:
        super().__init__(epsilon=epsilon, delta=delta, rng=rng, noise=noise, delta_required=True)
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or d < 1:
            raise parameter_error("d", self._owner, "a positive int", d)
        self.d = int(d)
        block_size = self.d + 4 if block_size is None else block_size
        if isinstance(block_size, bool) or not isinstance(block_size, (int, np.integer)) or block_size < self.d:
            raise parameter_error("block_size", self._owner, f"an int >= d = {self.d}", block_size)
        self.block_size = int(block_size)
        self.parities_: np.ndarray | None = None

    def _check_points(self, X: Any) -> np.ndarray:
        X = np.asarray(X)
        if X.ndim != 2 or X.shape[1] != self.d or (X.size and (not np.issubdtype(X.dtype, np.integer)
                                                            and X.dtype != np.bool_)):
            raise parameter_error("X", self._owner, f"an (m, {self.d}) 0/1 array of points of {{0,1}}^d",
                                  getattr(X, "shape", X))
        if X.size and (X.min() < 0 or X.max() > 1):
            raise parameter_error("X", self._owner, "coordinates 0/1", int(X.max()))
        return X.astype(np.int64)

    def fit(self, X: Any, Y: Any) -> "ParityLearner":
        """Run BNS Algorithm 4 on ``(X, Y)`` (``X``: ``(m, d)`` 0/1 points)."""
        X = self._check_points(X)
        Y = _check_labels(Y, X.shape[0], self._owner)
        noise = self._noise
        k = Y.shape[1]
        blocks = X.shape[0] // self.block_size
        if blocks == 0:
            raise InvalidParameterError(
                f"{self._owner}.fit: {X.shape[0]} examples make no block of block_size={self.block_size}; "
                "give more examples")
        counts: Counter = Counter()
        for t in range(blocks):
            part = slice(t * self.block_size, (t + 1) * self.block_size)
            vector = solve_parities_gf2(X[part], Y[part])
            if vector is not None:  # ⊥ is never a candidate
                counts[vector] += 1
        choice = a_dist(dict(counts), epsilon=self.epsilon, delta=self.delta, noise=noise, unlisted_score=0)
        self.selection_failed_ = choice is None
        vector = (0,) * k if choice is None else choice
        self.parities_ = np.array([[(a >> i) & 1 for i in range(self.d)] for a in vector], dtype=np.int64)
        self.block_counts_ = counts
        self.k_ = k
        self._spent = (self.epsilon, self.delta)
        return self

    def predict(self, X: Any) -> np.ndarray:
        """Labels ``(n, k)``: ``<a_j, x> mod 2``."""
        if self.parities_ is None:
            raise _not_fitted(self._owner)
        return self._check_points(X) @ self.parities_.T % 2

    def required_sample_size(self, alpha: float = 0.0, beta: float = 0.1) -> SampleSizeBound:
        """Explicit sample size of this implementation (α = 0: targets recovered exactly; BNS Thm 39).

        Every block of ``s = block_size`` uniform points has rank ``d`` (and then yields the
        targets) except with probability ``p <= 2^(d - s)``; ``A_dist`` returns the targets
        with probability ``>= 1 - β/2`` once they win ``g <= 3 + (2/ε) ln(2/(βδ))`` blocks,
        and by Hoeffding ``m`` blocks give ``>= g`` wins except with probability ``β/2``
        when ``sqrt(m) >= (sqrt(L/2) + sqrt(L/2 + 4 q g)) / (2q)``, ``q = 1 - p``,
        ``L = ln(2/β)``.  The bound is ``s * m``.
        """
        beta = _check_unit(beta, "beta", self._owner)
        if alpha not in (0, 0.0) and not (0 < alpha < 1):
            raise parameter_error("alpha", f"{self._owner}.required_sample_size", "0 or a float in (0, 1)", alpha)
        s = self.block_size
        q = 1 - sp.Integer(2) ** (D - s)
        gap = 2 + _dlap_quantile_expr(2 / EPSILON, DELTA) + _dlap_quantile_expr(2 / EPSILON, BETA / 2) - 1
        L = sp.log(2 / BETA)
        blocks = sp.ceiling(((sp.sqrt(L / 2) + sp.sqrt(L / 2 + 4 * q * gap)) / (2 * q)) ** 2)
        values = {"d": self.d, "beta": beta, "epsilon": self.epsilon, "delta": self.delta}
        return SampleSizeBound(
            name="parity_k_learner_explicit", expression=s * blocks, values=values,
            source=f"BNS Thm 39 (Alg 4 ParityLearner, block size {s}) with Prop 22 (A_dist); "
                   "constants of dimcalc's implementation",
            setting={"task": "PAC", "proper": True, "privacy": "approximate", "concepts": "k", "data": "private"},
            constants_explicit=True, kind="upper", order_constant=None,
            notes=("alpha = 0 under the uniform distribution; independent of k",
                   "order of growth: dimcalc.sample_size.parity_k_learner_sample_size"))
