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

They share the single-concept learners' base (:class:`~dimcalc.learners._base.PrivateLearner`:
scikit-learn's estimator conventions, ``noise="opendp"`` by default or ``"exact"`` for the
reproducible sampler, ``random_state``, ``get_params``/``set_params``, ``NotFittedError``,
one privacy accounting).  ``fit(X, Y)`` takes ``Y`` an ``(m, k)`` 0/1 label matrix (column
``j`` = concept ``j``), ``predict(X) -> (n, k)``, ``privacy_spent -> (epsilon, delta)``.
``X`` holds point *indices* of the class's domain, except for :class:`ParityLearner` where
it holds the points of ``{0,1}^d`` themselves (rows of an ``(m, d)`` 0/1 array, since
``2^d`` columns would not fit a table).  ``required_sample_size(alpha, beta)`` returns a
:class:`dimcalc.sample_size.SampleSizeBound`.

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
from fractions import Fraction
from typing import Any, Literal

import numpy as np
import sympy as sp

from dimcalc._params import Number, as_fraction
from dimcalc.errors import InvalidParameterError, parameter_error
from dimcalc.hypothesis_class import HypothesisClass
from dimcalc.learners._base import (
    Privacy,
    PrivateLearner,
    check_delta,
    check_indices,
    check_label_matrix,
    check_unit,
    error_counts,
)
from dimcalc.learners.sanitizers import (
    a_dist,
    exponential_mechanism,
    mwem,
    mwem_rounds,
    point_sanitizer,
)
from dimcalc.sample_size import (
    ALPHA,
    BETA,
    DELTA,
    EPSILON,
    D,
    SampleSizeBound,
    composition_sample_size,
    exponential_mechanism_sample_size,
    generic_learner_mwem_sample_size,
    split_privacy_budget,
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
    epsilon_each : number
        Pure-DP parameter of each run (exact for basic composition).
    epsilon, delta : number
        What the ``k`` runs together are proven to satisfy (BNS Thm 17).
    method : str
        ``"basic"`` (Thm 17.1) or ``"advanced"`` (Thm 17.2).
    """

    epsilon_each: Number
    epsilon: Number
    delta: Number
    method: str


def split_budget(epsilon: Any, delta: Any, k: int, composition: Composition = "auto") -> BudgetSplit:
    """Per-run epsilon for ``k`` pure-DP runs to compose to at most ``(epsilon, delta)``.

    Basic composition (BNS Thm 17.1): ``epsilon / k`` each (exactly), total ``(epsilon, 0)``.
    Advanced composition (BNS Thm 17.2) with slack ``delta' = delta / 2`` (as
    :func:`dimcalc.sample_size.composition_sample_size` does): ``e`` solving
    ``sqrt(2k ln(1/delta')) e + 2k e^2 = epsilon``, total ``(epsilon, delta / 2)``;
    needs ``delta > 0`` and ``e < 1`` (the theorem's hypothesis).  ``"auto"`` takes the
    larger per-run epsilon.  (The numbers are those of
    :func:`dimcalc.sample_size.split_privacy_budget`.)

    Examples
    --------
    >>> split_budget(1.0, 0.0, 4)
    BudgetSplit(epsilon_each=0.25, epsilon=1.0, delta=0.0, method='basic')
    >>> s = split_budget(2.0, 1e-6, 400)
    >>> s.method, round(s.epsilon, 9), s.delta, s.epsilon_each > 2.0 / 400
    ('advanced', 2.0, 5e-07, True)
    """
    each, total, slack, method = split_privacy_budget(epsilon, delta, k, composition)

    def out(x: Any) -> Any:
        if isinstance(x, Fraction):
            f = float(x)
            return f if Fraction(f) == x and not isinstance(epsilon, Fraction) else x
        return x

    return BudgetSplit(out(each), out(total), float(slack) if not isinstance(slack, Fraction) else slack, method)


def _check_binary_class(H: Any, owner: str) -> HypothesisClass:
    if not isinstance(H, HypothesisClass):
        raise parameter_error("H", owner, "a HypothesisClass", type(H).__name__)
    if not H.is_binary:
        raise parameter_error(
            "H", owner, "a binary class (labels 0/1; BNS concepts are predicates)", f"{H.num_labels} labels"
        )
    return H


def _check_composition(composition: Any, owner: str) -> str:
    if composition not in ("auto", "basic", "advanced"):
        raise parameter_error("composition", owner, "'auto', 'basic' or 'advanced'", composition)
    return composition


def _selection_privacy(split: tuple, k: int) -> Privacy:
    """The k exponential mechanisms at ``epsilon_0`` each, composed as ``split`` says (BNS Thm 17)."""
    each, _, slack, method = split
    step = Privacy.mechanism(each, 0, "exponential mechanism (BNS Prop 21)")
    if method == "advanced":
        return Privacy.advanced(step, k, slack)
    return Privacy.basic(*([step] * k))


class _KLearner(PrivateLearner):
    """Shared plumbing of the k-learners: the noise source, the selection's budget split, ``k_``."""

    def _k_for_bound(self, k: int | None) -> int:
        k = getattr(self, "k_", None) if k is None else k
        if k is None:
            raise InvalidParameterError(f"{self._owner}.required_sample_size: give k or call fit first")
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
            raise parameter_error("k", f"{self._owner}.required_sample_size", "an int >= 1", k)
        return int(k)

    def _privacy_claim(self, params: dict) -> Privacy:
        """Before a fit (k unknown): the budget, which every fit stays within."""
        return Privacy.mechanism(params["epsilon"], params.get("delta", 0), "the budget (BNS Thm 17)")


# ---------------------------------------------------------------------------- composition baseline
class CompositionLearner(_KLearner):
    """The direct-sum baseline: one private learner per concept, composed (BNS Obs 32).

    Each of the ``k`` label columns is learned by the exponential mechanism over the
    distinct hypotheses of ``H`` with score ``-(number of errors)`` (the generic proper
    learner of BNS Thm 27, Kasiviswanathan et al. 2011; BNS Prop 21), each run with the
    per-run epsilon of :func:`split_budget`.

    Parameters
    ----------
    H : HypothesisClass
        A finite binary class ``C``.
    epsilon : number
        Total privacy parameter.
    delta : number
        0 for pure DP (basic composition); ``> 0`` allows advanced composition.
    composition : {"auto", "basic", "advanced"}
        How the budget is split (BNS Thm 17).
    noise : {"opendp", "exact"} or NoiseSource
    random_state : None, int or numpy.random.Generator
    noise_multiplier : number
        Audit-only knob (``< 1`` voids the guarantee).
    rng
        Former name of ``random_state``.

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
    >>> learner = CompositionLearner(H, epsilon=2.0, noise="exact", random_state=0).fit(X, Y)
    >>> learner.hypotheses_.tolist(), learner.privacy_spent
    ([2, 5], (2.0, 0.0))
    """

    def __init__(
        self,
        H: HypothesisClass,
        *,
        epsilon: Any,
        delta: Any = 0.0,
        composition: Composition = "auto",
        noise: Any = "opendp",
        random_state: Any = None,
        noise_multiplier: float = 1.0,
        rng: Any = None,
    ) -> None:
        self.H = H
        self.epsilon = epsilon
        self.delta = delta
        self.composition = composition
        self.noise = noise
        self.random_state = random_state
        self.noise_multiplier = noise_multiplier
        self.rng = rng

    def _validate(self) -> dict:
        params = self._check_common(self._owner)
        params["H"] = _check_binary_class(self.H, self._owner)
        params["delta"] = check_delta(self.delta, self._owner)
        params["composition"] = _check_composition(self.composition, self._owner)
        return params

    def fit(self, X: Any, Y: Any) -> CompositionLearner:
        """Learn one hypothesis per label column of ``Y`` (``X``: point indices)."""
        params = self._validate()
        H = params["H"]
        X = check_indices(X, H.n_points, self._owner)
        Y = check_label_matrix(Y, X.shape[0], self._owner)
        noise = self._noise_source(params)
        k = Y.shape[1]
        split = split_privacy_budget(params["epsilon"], params["delta"], k, params["composition"])
        errors = error_counts(H.distinct_rows, X, Y, 2)
        chosen = [
            exponential_mechanism(
                -errors[:, j], epsilon=split[0], noise=noise, noise_multiplier=params["noise_multiplier"]
            )
            for j in range(k)
        ]
        self.hypotheses_ = H.distinct_to_row[np.array(chosen, dtype=np.int64)]
        self.k_ = k
        self.split_ = split_budget(params["epsilon"], params["delta"], k, params["composition"])
        self.privacy_ = _selection_privacy(split, k)
        return self

    def predict(self, X: Any) -> np.ndarray:
        """Labels ``(n, k)`` of the chosen hypotheses on points ``X``."""
        self._check_is_fitted()
        X = check_indices(X, self.H.n_points, self._owner)
        return self.H.table[self.hypotheses_][:, X].T.astype(np.int64)

    def required_sample_size(self, alpha: float, beta: float, k: int | None = None) -> SampleSizeBound:
        """Explicit sample size (PAC, targets in ``H``): BNS Thm 27 per concept, composed by Obs 32."""
        params = self._validate()
        k = self._k_for_bound(k)
        single = exponential_mechanism_sample_size(
            log_size=math.log(params["H"].n_distinct), alpha=alpha, beta=beta, epsilon=params["epsilon"]
        )
        advanced = split_privacy_budget(params["epsilon"], params["delta"], k, params["composition"])[3] == "advanced"
        return composition_sample_size(
            single=single, k=k, epsilon=params["epsilon"], delta=params["delta"], advanced=advanced
        )


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


class GenericLearner(_KLearner):
    """BNS Algorithm 3 (GenericLearner) with MWEM as the sanitizer for ``C⊕``, run at the size it is proven for.

    1. Sanitize the unlabelled points w.r.t. ``C⊕`` with MWEM ([HLM]_ Alg 1; pure
       ``epsilon_san = sanitizer_fraction * epsilon``-DP by [HLM]_ Thm 2.1) for ``T`` rounds,
       and draw a synthetic database ``D~`` of ``m`` points from its distribution.
    2. ``B`` = the distinct points of ``D~``; ``H'`` = one hypothesis of ``C`` per pattern
       of ``C`` on ``B`` (so ``|H'| <= 2^|B|``).
    3. For each concept ``j``, the exponential mechanism over ``H'`` with score
       ``-(errors on column j)`` and the per-run epsilon of :func:`split_budget` on the
       rest of the budget.

    **What it runs is what its size assumes.**  ``T`` and ``m`` are derived from
    ``(alpha, beta, epsilon, |X|, |C⊕|)`` and the sample size ``n`` (public):
    ``m = ceil(ln(4|C⊕|/beta) / (alpha/10))`` and ``T`` minimises MWEM's explicit error
    bound at ``n`` (:func:`~dimcalc.learners.sanitizers.mwem_rounds`: [HLM]_ Thm 2.2 with
    this implementation's constants, :func:`~dimcalc.learners.sanitizers.mwem_error_bound`).
    ``required_sample_size(alpha, beta)`` is that algorithm's explicit size
    (:func:`dimcalc.sample_size.generic_learner_mwem_sample_size`, BNS Lemma 36's proof with
    constants): at it, ``T`` makes MWEM ``6 alpha/10``-accurate for ``C⊕`` with probability
    ``1 - beta/4``, and every ``h_j`` has error ``<= OPT_j + alpha`` with probability
    ``>= 1 - beta`` (agnostic, proper).  ``iterations`` / ``synthetic_size`` override the
    derived values (then the bound uses them too, or refuses when they are too small).

    Privacy: BNS Lemma 36 / Thm 17: ``(epsilon_san + k epsilon_0, 0)`` (basic) or
    ``(epsilon_san + sqrt(2k ln(2/delta)) epsilon_0 + 2k epsilon_0^2, delta/2)`` (advanced),
    at most ``(epsilon, delta)``.

    Parameters
    ----------
    H : HypothesisClass
        A finite binary class ``C``.
    epsilon, delta : number
        Total privacy budget (``delta = 0``: pure DP).
    alpha, beta : number in (0, 1)
        The accuracy the learner is run for (they set ``T`` and ``m``).
    sanitizer_fraction : number in (0, 1)
        Share of ``epsilon`` given to MWEM (BNS and the calculator use 1/2).
    iterations : int, optional
        MWEM rounds ``T`` (default: derived, see above).
    synthetic_size : int, optional
        Size ``m`` of the sanitized database ``D~`` (default: derived).
    update_passes : int
        MWEM update passes per round; ``1`` (default) is the analysed algorithm, more is
        post-processing outside [HLM]_ Thm 2.2 (``required_sample_size`` refuses it).
    composition : {"auto", "basic", "advanced"}
    noise, random_state, noise_multiplier, rng
        As for :class:`CompositionLearner`.

    Attributes
    ----------
    hypotheses_ : ndarray of int, shape (k,)
    sanitized_ : MWEMResult
    iterations_, synthetic_size_ : int
        What MWEM ran with.

    Examples
    --------
    >>> H = HypothesisClass.from_table(np.tril(np.ones((9, 8), dtype=int), -1))  # thresholds
    >>> learner = GenericLearner(H, epsilon=4.0, alpha=0.5, beta=0.1, noise="exact", random_state=1)
    >>> n = learner.required_sample_size(alpha=0.5, beta=0.1, k=2).samples
    >>> n
    76941
    >>> X = np.random.default_rng(1).integers(0, 8, size=n)
    >>> Y = np.stack([H.table[3][X], H.table[6][X]], axis=1)
    >>> learner.fit(X, Y).hypotheses_.tolist(), learner.privacy_spent, learner.iterations_
    ([3, 6], (4.0, 0.0), 198)
    """

    def __init__(
        self,
        H: HypothesisClass,
        *,
        epsilon: Any,
        delta: Any = 0.0,
        alpha: Any = 0.1,
        beta: Any = 0.1,
        sanitizer_fraction: Any = Fraction(1, 2),
        iterations: int | None = None,
        synthetic_size: int | None = None,
        update_passes: int = 1,
        composition: Composition = "auto",
        noise: Any = "opendp",
        random_state: Any = None,
        noise_multiplier: float = 1.0,
        rng: Any = None,
    ) -> None:
        self.H = H
        self.epsilon = epsilon
        self.delta = delta
        self.alpha = alpha
        self.beta = beta
        self.sanitizer_fraction = sanitizer_fraction
        self.iterations = iterations
        self.synthetic_size = synthetic_size
        self.update_passes = update_passes
        self.composition = composition
        self.noise = noise
        self.random_state = random_state
        self.noise_multiplier = noise_multiplier
        self.rng = rng

    def _validate(self) -> dict:
        owner = self._owner
        params = self._check_common(owner)
        params["H"] = _check_binary_class(self.H, owner)
        params["delta"] = check_delta(self.delta, owner)
        params["alpha"] = check_unit(self.alpha, "alpha", owner)
        params["beta"] = check_unit(self.beta, "beta", owner)
        params["sanitizer_fraction"] = check_unit(self.sanitizer_fraction, "sanitizer_fraction", owner)
        for name in ("iterations", "synthetic_size"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1):
                raise parameter_error(name, owner, "None (derived) or a positive int", value)
        if (
            isinstance(self.update_passes, bool)
            or not isinstance(self.update_passes, (int, np.integer))
            or self.update_passes < 1
        ):
            raise parameter_error("update_passes", owner, "a positive int", self.update_passes)
        params["composition"] = _check_composition(self.composition, owner)
        params["eps_san"] = as_fraction(params["sanitizer_fraction"]) * as_fraction(params["epsilon"])
        return params

    def _queries(self, H: HypothesisClass) -> np.ndarray:
        cached = getattr(self, "_query_cache", None)
        if cached is None or cached[0] is not H:
            cached = (H, xor_queries(H))
            self._query_cache = cached
        return cached[1]

    def _bound(self, params: dict, alpha: Any, beta: Any, k: int) -> SampleSizeBound:
        H = params["H"]
        return generic_learner_mwem_sample_size(
            log_size=math.log(H.n_distinct),
            n_queries=len(self._queries(H)),
            domain_size=H.n_points,
            k=k,
            alpha=alpha,
            beta=beta,
            epsilon=params["epsilon"],
            delta=params["delta"],
            sanitizer_fraction=params["sanitizer_fraction"],
            composition=params["composition"],
            iterations=self.iterations,
        )

    def fit(self, X: Any, Y: Any) -> GenericLearner:
        """Run BNS Algorithm 3 on the k-labelled database ``(X, Y)`` (``X``: point indices)."""
        params = self._validate()
        H = params["H"]
        X = check_indices(X, H.n_points, self._owner)
        Y = check_label_matrix(Y, X.shape[0], self._owner)
        if X.shape[0] == 0:
            raise InvalidParameterError(f"{self._owner}.fit: the sample is empty; give at least one example")
        noise = self._noise_source(params)
        n, k = X.shape[0], Y.shape[1]
        queries = self._queries(H)
        multiplier = as_fraction(params["noise_multiplier"])
        # T and m: what the size bound assumes (n is public under replace-one neighbours).
        beta, alpha = float(params["beta"]), float(params["alpha"])
        if self.iterations is None:
            rounds, _ = mwem_rounds(
                n=n, n_domain=H.n_points, n_queries=len(queries), epsilon=params["eps_san"], beta=beta / 4
            )
        else:
            rounds = int(self.iterations)
        synthetic_size = (
            int(self.synthetic_size)
            if self.synthetic_size is not None
            else math.ceil(math.log(4 * len(queries) / beta) / (alpha / 10))
        )
        split = split_privacy_budget(
            as_fraction(params["epsilon"]) - params["eps_san"], params["delta"], k, params["composition"]
        )
        sanitized = mwem(
            X,
            queries,
            epsilon=params["eps_san"] / multiplier,
            iterations=rounds,
            noise=noise,
            synthetic_size=synthetic_size,
            update_passes=int(self.update_passes),
            rng=params["generator"],
        )
        support = np.unique(sanitized.synthetic)
        # Step 4: one representative of C per pattern on B (first distinct row with it).
        _, first = np.unique(H.distinct_rows[:, support], axis=0, return_index=True)
        representatives = np.sort(first)
        errors = error_counts(H.distinct_rows[representatives], X, Y, 2)
        chosen = [
            representatives[
                exponential_mechanism(-errors[:, j], epsilon=split[0], noise=noise, noise_multiplier=multiplier)
            ]
            for j in range(k)
        ]
        self.sanitized_ = sanitized
        self.support_ = support
        self.representatives_ = H.distinct_to_row[representatives]
        self.hypotheses_ = H.distinct_to_row[np.array(chosen, dtype=np.int64)]
        self.iterations_, self.synthetic_size_ = rounds, synthetic_size
        self.k_ = k
        self.split_ = split_budget(
            as_fraction(params["epsilon"]) - params["eps_san"], params["delta"], k, params["composition"]
        )
        sanitizer = Privacy.mechanism(params["eps_san"], 0, f"MWEM, {rounds} rounds (HLM Thm 2.1, BNS Thm 17.1)")
        self.privacy_ = Privacy.basic(
            sanitizer, _selection_privacy(split, k), how="sanitizer then selections (BNS Lemma 36, Thm 17.1)"
        )
        return self

    def predict(self, X: Any) -> np.ndarray:
        """Labels ``(n, k)`` of the chosen hypotheses on points ``X``."""
        self._check_is_fitted()
        X = check_indices(X, self.H.n_points, self._owner)
        return self.H.table[self.hypotheses_][:, X].T.astype(np.int64)

    def required_sample_size(
        self, alpha: Any = None, beta: Any = None, k: int | None = None, vc: int | None = None
    ) -> SampleSizeBound:
        """Explicit sample size of this algorithm (BNS Lemma 36 with MWEM, constants worked out).

        ``alpha``, ``beta`` default to the learner's own (they set ``T`` and ``m``); ``k`` to
        the fitted number of concepts.  ``vc`` is accepted for compatibility and unused (the
        explicit bound counts ``|C|`` and ``|C⊕|``).  For BNS Thm 31's order of growth see
        :func:`dimcalc.sample_size.generic_k_learner_sample_size`.
        """
        params = self._validate()
        if self.update_passes != 1:
            raise parameter_error(
                "update_passes",
                f"{self._owner}.required_sample_size",
                "1 (HLM Thm 2.2 is for one update per round)",
                self.update_passes,
            )
        alpha = params["alpha"] if alpha is None else check_unit(alpha, "alpha", self._owner)
        beta = params["beta"] if beta is None else check_unit(beta, "beta", self._owner)
        if (alpha, beta) != (params["alpha"], params["beta"]) and self.synthetic_size is None:
            raise parameter_error(
                "alpha",
                f"{self._owner}.required_sample_size",
                f"the learner's alpha = {params['alpha']} and beta = {params['beta']} (they set its "
                "MWEM rounds and synthetic size); build the learner with the alpha, beta wanted",
                (alpha, beta),
            )
        return self._bound(params, alpha, beta, self._k_for_bound(k))


# ---------------------------------------------------------------------------- PointLearner
def _dlap_quantile_expr(scale: sp.Expr, probability: sp.Expr) -> sp.Expr:
    """Upper bound ``scale * ln(1/p) + 1`` on the least ``a`` with ``Pr[DLap(scale) >= a] <= p``."""
    return scale * sp.log(1 / probability) + 1


class PointLearner(_KLearner):
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
    alpha : number
        Target accuracy (the algorithm's thresholds depend on it).
    epsilon, delta : number
        Privacy parameters (``delta > 0``).
    noise, random_state, noise_multiplier, rng
        As for :class:`CompositionLearner`.

    Attributes
    ----------
    points_ : ndarray of int, shape (k,)
        ``h_j = 1{x == points_[j]}``, or ``h_j = 0`` when ``points_[j] == -1``.
    released_ : dict
        The sanitizer's released noisy counts.
    heavy_ : tuple of int
        The set ``G``.
    selection_failed_ : bool
        True when ``A_dist`` answered ⊥.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> X = rng.integers(0, 5, size=3000)
    >>> Y = np.stack([X == 1, X == 3, X == 1, np.zeros_like(X, bool)], axis=1).astype(int)
    >>> PointLearner(100, alpha=0.3, epsilon=2.0, delta=1e-6, noise="exact", random_state=0).fit(X, Y).points_.tolist()
    [1, 3, 1, -1]
    """

    def __init__(
        self,
        domain_size: int,
        *,
        alpha: Any,
        epsilon: Any,
        delta: Any,
        noise: Any = "opendp",
        random_state: Any = None,
        noise_multiplier: float = 1.0,
        rng: Any = None,
    ) -> None:
        self.domain_size = domain_size
        self.alpha = alpha
        self.epsilon = epsilon
        self.delta = delta
        self.noise = noise
        self.random_state = random_state
        self.noise_multiplier = noise_multiplier
        self.rng = rng

    def _validate(self) -> dict:
        owner = self._owner
        params = self._check_common(owner)
        if (
            isinstance(self.domain_size, bool)
            or not isinstance(self.domain_size, (int, np.integer))
            or self.domain_size < 1
        ):
            raise parameter_error("domain_size", owner, "a positive int", self.domain_size)
        params["domain_size"] = int(self.domain_size)
        params["alpha"] = check_unit(self.alpha, "alpha", owner)
        params["delta"] = check_delta(self.delta, owner, allow_zero=False)
        return params

    def _privacy_claim(self, params: dict) -> Privacy:
        half = (as_fraction(params["epsilon"]) / 2, as_fraction(params["delta"]) / 2)
        return Privacy.basic(
            Privacy.mechanism(*half, "point sanitizer (BNS Alg 2 / Prop 30)"),
            Privacy.mechanism(*half, "A_dist (BNS Alg 1 / Prop 22)"),
        )

    def fit(self, X: Any, Y: Any) -> PointLearner:
        """Run BNS Algorithm 5 on ``(X, Y)`` (``X``: point indices)."""
        params = self._validate()
        X = check_indices(X, params["domain_size"], self._owner)
        Y = check_label_matrix(Y, X.shape[0], self._owner)
        noise = self._noise_source(params)
        n, k = X.shape[0], Y.shape[1]
        if n == 0:
            raise InvalidParameterError(f"{self._owner}.fit: the sample is empty; give at least one example")
        multiplier = as_fraction(params["noise_multiplier"])
        half_eps, half_delta = as_fraction(params["epsilon"]) / 2, params["delta"] / 2
        alpha = params["alpha"]
        released = point_sanitizer(X, alpha=alpha / 30, epsilon=half_eps / multiplier, delta=half_delta, noise=noise)
        heavy = sorted(x for x, c in released.items() if 15 * c >= alpha * n)
        points = np.full(k, -1, dtype=np.int64)
        failed = False
        if heavy:
            choice = a_dist(
                self._vector_set_scores(X, Y, heavy), epsilon=half_eps / multiplier, delta=half_delta, noise=noise
            )
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
        self.privacy_ = self._privacy_claim(params)
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
            others = min(top[:i] + top[i + 1 :], default=second[i])
            runner_up = max(runner_up, min(second[i], others))
        # the runner-up is any vector set other than the best: represent it by a placeholder key
        return {tuple(best): q_best, ("runner-up",): runner_up}

    def predict(self, X: Any) -> np.ndarray:
        """Labels ``(n, k)``: ``h_j(x) = 1`` iff ``x == points_[j]``."""
        self._check_is_fitted()
        X = check_indices(X, self.domain_size, self._owner)
        return (X[:, None] == self.points_[None, :]).astype(np.int64)

    def required_sample_size(self, alpha: Any = None, beta: Any = 0.1) -> SampleSizeBound:
        """Explicit sample size of this implementation (PAC, BNS Thm 40's proof with its constants).

        ``n`` is the maximum of (E1) ``ln(4/(αβ)) / (0.405 α)`` (Chernoff: every point of
        mass ``>= α`` has frequency ``>= α/10``); (E2) ``120 (1 + a) / α`` and
        ``(240 / (αε)) ln(960 / (αβ))`` (the sanitizer at ``α/30``, ``(ε/2, δ/2)``, noise
        ``DLap(4/ε)``, ``a <= (4/ε) ln(4/δ) + 1``, fails with probability ``<= β/4``);
        (E3) ``(30 / α) g`` with ``g <= 3 + (4/ε) ln(4/(βδ))`` the gap ``A_dist`` at
        ``(ε/2, δ/2)`` needs (its threshold is ``2 + a'`` with ``Pr[DLap(4/ε) >= a'] <= δ/2``,
        and it must clear it except with probability ``β/2``).  ``alpha`` defaults to the
        learner's own (the algorithm's thresholds are set by it).
        """
        params = self._validate()
        own = params["alpha"]
        alpha = own if alpha is None else check_unit(alpha, "alpha", self._owner)
        beta = check_unit(beta, "beta", self._owner)
        if alpha != own:
            raise parameter_error(
                "alpha",
                f"{self._owner}.required_sample_size",
                f"the learner's alpha {own} (its thresholds depend on it)",
                alpha,
            )
        a = _dlap_quantile_expr(4 / EPSILON, DELTA / 4)
        gap = 2 + _dlap_quantile_expr(4 / EPSILON, DELTA / 2) + _dlap_quantile_expr(4 / EPSILON, BETA / 2) - 1
        expr = sp.Max(
            sp.log(4 / (ALPHA * BETA)) / (sp.Rational(405, 1000) * ALPHA),
            120 * (1 + a) / ALPHA,
            240 / (ALPHA * EPSILON) * sp.log(960 / (ALPHA * BETA)),
            30 * gap / ALPHA,
        )
        values = {"alpha": alpha, "beta": beta, "epsilon": params["epsilon"], "delta": params["delta"]}
        return SampleSizeBound(
            name="point_k_learner_explicit",
            expression=expr,
            values=values,
            source="BNS Thm 40 (Alg 5 PointLearner) with Prop 30 (Alg 2) and Prop 22 (A_dist); "
            "constants of dimcalc's implementation",
            setting={"task": "PAC", "proper": False, "privacy": "approximate", "concepts": "k", "data": "private"},
            constants_explicit=True,
            kind="upper",
            order_constant=None,
            notes=(
                "independent of k and |X|, as in BNS Thm 40",
                "order of growth: dimcalc.sample_size.point_k_learner_sample_size",
            ),
        )


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
    rows = [int(points[i].astype(object) @ weights_x) | int(labels[i].astype(object) @ weights_y) for i in range(s)]
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


class ParityLearner(_KLearner):
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
    epsilon, delta : number
        Privacy parameters (``delta > 0``).
    block_size : int, optional
        Block size; default ``d + 4`` (a block of uniform points has rank ``< d`` with
        probability ``< 2^(d - block_size)``).
    noise, random_state, noise_multiplier, rng
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
    >>> learner = ParityLearner(6, epsilon=1.0, delta=1e-6, noise="exact", random_state=0).fit(X, Y)
    >>> bool((learner.parities_ == targets).all()), learner.selection_failed_
    (True, False)
    """

    def __init__(
        self,
        d: int,
        *,
        epsilon: Any,
        delta: Any,
        block_size: int | None = None,
        noise: Any = "opendp",
        random_state: Any = None,
        noise_multiplier: float = 1.0,
        rng: Any = None,
    ) -> None:
        self.d = d
        self.epsilon = epsilon
        self.delta = delta
        self.block_size = block_size
        self.noise = noise
        self.random_state = random_state
        self.noise_multiplier = noise_multiplier
        self.rng = rng

    def _validate(self) -> dict:
        owner = self._owner
        params = self._check_common(owner)
        if isinstance(self.d, bool) or not isinstance(self.d, (int, np.integer)) or self.d < 1:
            raise parameter_error("d", owner, "a positive int", self.d)
        d = int(self.d)
        block = d + 4 if self.block_size is None else self.block_size
        if isinstance(block, bool) or not isinstance(block, (int, np.integer)) or block < d:
            raise parameter_error("block_size", owner, f"an int >= d = {d}", block)
        params.update(d=d, block_size=int(block), delta=check_delta(self.delta, owner, allow_zero=False))
        return params

    def _privacy_claim(self, params: dict) -> Privacy:
        return Privacy.mechanism(
            params["epsilon"], params["delta"], "A_dist over the blocks' parities (BNS Alg 1 / Prop 22, Thm 39)"
        )

    def _check_points(self, X: Any, d: int) -> np.ndarray:
        X = np.asarray(X)
        if (
            X.ndim != 2
            or X.shape[1] != d
            or (X.size and (not np.issubdtype(X.dtype, np.integer) and X.dtype != np.bool_))
        ):
            raise parameter_error(
                "X", self._owner, f"an (m, {d}) 0/1 array of points of {{0,1}}^d", getattr(X, "shape", X)
            )
        if X.size and (X.min() < 0 or X.max() > 1):
            raise parameter_error("X", self._owner, "coordinates 0/1", int(X.max()))
        return X.astype(np.int64)

    def fit(self, X: Any, Y: Any) -> ParityLearner:
        """Run BNS Algorithm 4 on ``(X, Y)`` (``X``: ``(m, d)`` 0/1 points)."""
        params = self._validate()
        d, s = params["d"], params["block_size"]
        X = self._check_points(X, d)
        Y = check_label_matrix(Y, X.shape[0], self._owner)
        noise = self._noise_source(params)
        k = Y.shape[1]
        blocks = X.shape[0] // s
        if blocks == 0:
            raise InvalidParameterError(
                f"{self._owner}.fit: {X.shape[0]} examples make no block of block_size={s}; give more examples"
            )
        counts: Counter = Counter()
        for t in range(blocks):
            part = slice(t * s, (t + 1) * s)
            vector = solve_parities_gf2(X[part], Y[part])
            if vector is not None:  # ⊥ is never a candidate
                counts[vector] += 1
        choice = a_dist(
            dict(counts),
            epsilon=as_fraction(params["epsilon"]) / as_fraction(params["noise_multiplier"]),
            delta=params["delta"],
            noise=noise,
            unlisted_score=0,
        )
        self.selection_failed_ = choice is None
        vector = (0,) * k if choice is None else choice
        self.parities_ = np.array([[(a >> i) & 1 for i in range(d)] for a in vector], dtype=np.int64)
        self.block_counts_ = counts
        self.k_ = k
        self.privacy_ = self._privacy_claim(params)
        return self

    def predict(self, X: Any) -> np.ndarray:
        """Labels ``(n, k)``: ``<a_j, x> mod 2``."""
        self._check_is_fitted()
        return self._check_points(X, int(self.d)) @ self.parities_.T % 2

    def required_sample_size(self, alpha: float = 0.0, beta: float = 0.1) -> SampleSizeBound:
        """Explicit sample size of this implementation (α = 0: targets recovered exactly; BNS Thm 39).

        Every block of ``s = block_size`` uniform points has rank ``d`` (and then yields the
        targets) except with probability ``p <= 2^(d - s)``; ``A_dist`` returns the targets
        with probability ``>= 1 - β/2`` once they win ``g <= 3 + (2/ε) ln(2/(βδ))`` blocks,
        and by Hoeffding ``m`` blocks give ``>= g`` wins except with probability ``β/2``
        when ``sqrt(m) >= (sqrt(L/2) + sqrt(L/2 + 4 q g)) / (2q)``, ``q = 1 - p``,
        ``L = ln(2/β)``.  The bound is ``s * m``.
        """
        params = self._validate()
        beta = check_unit(beta, "beta", self._owner)
        if alpha not in (0, 0.0) and not (0 < alpha < 1):
            raise parameter_error("alpha", f"{self._owner}.required_sample_size", "0 or a float in (0, 1)", alpha)
        s = params["block_size"]
        if s <= params["d"]:
            raise parameter_error(
                "block_size",
                f"{self._owner}.required_sample_size",
                f"an int > d = {params['d']} (a block of d uniform points has full rank with "
                "probability bounded only by 2^(d - block_size) < 1)",
                s,
            )
        q = 1 - sp.Integer(2) ** (D - s)
        gap = 2 + _dlap_quantile_expr(2 / EPSILON, DELTA) + _dlap_quantile_expr(2 / EPSILON, BETA / 2) - 1
        L = sp.log(2 / BETA)
        blocks = sp.ceiling(((sp.sqrt(L / 2) + sp.sqrt(L / 2 + 4 * q * gap)) / (2 * q)) ** 2)
        values = {"d": params["d"], "beta": beta, "epsilon": params["epsilon"], "delta": params["delta"]}
        return SampleSizeBound(
            name="parity_k_learner_explicit",
            expression=s * blocks,
            values=values,
            source=f"BNS Thm 39 (Alg 4 ParityLearner, block size {s}) with Prop 22 (A_dist); "
            "constants of dimcalc's implementation",
            setting={"task": "PAC", "proper": True, "privacy": "approximate", "concepts": "k", "data": "private"},
            constants_explicit=True,
            kind="upper",
            order_constant=None,
            notes=(
                "alpha = 0 under the uniform distribution; independent of k",
                "order of growth: dimcalc.sample_size.parity_k_learner_sample_size",
            ),
        )
