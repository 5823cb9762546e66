"""BNS Algorithm 5 (PointLearner): k point functions with approximate DP, O(1) samples in k.

References
----------
M. Bun, K. Nissim, U. Stemmer, *Simultaneous Private Learning of Multiple Concepts*,
JMLR 2019: Algorithm 5 / Theorem 40, with Algorithm 2 / Proposition 30 (the point
sanitizer) and Algorithm 1 / Proposition 22 (``A_dist``), Theorem 17.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import sympy as sp

from ..._params import as_fraction
from ...errors import parameter_error
from ...sample_size import ALPHA, BETA, DELTA, EPSILON, SampleSizeBound
from .._validation import check_count, check_delta, check_indices, check_label_matrix, check_nonempty, check_unit
from ..mechanisms.sanitizers import point_sanitizer
from ..mechanisms.stability import a_dist
from ..privacy import Privacy
from ._klearner import KLearner, a_dist_gap_expr, dlap_quantile_expr

__all__ = ["PointLearner"]


class PointLearner(KLearner):
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

    def _validate(self) -> dict[str, Any]:
        owner = self._owner
        params = self._check_common(owner)
        params["domain_size"] = check_count(self.domain_size, "domain_size", owner)
        params["alpha"] = check_unit(self.alpha, "alpha", owner)
        params["delta"] = check_delta(self.delta, owner, allow_zero=False)
        return params

    def _privacy_claim(self, params: dict[str, Any]) -> Privacy:
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
        check_nonempty(X, f"{self._owner}.fit")
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
            if choice is not None:
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
    def _vector_set_scores(X: np.ndarray, Y: np.ndarray, heavy: list[int]) -> dict[tuple[Any, ...], int]:
        """Top and runner-up of ``Q(S, V) = min_{x in G} #(x, v_x)`` over vector sets ``V``.

        ``Q`` is maximised by the most frequent vector of every ``x`` (ties: smallest
        vector); the best other ``V`` swaps one ``x`` to its second most frequent vector
        (count 0 when ``x`` has a single vector, as all ``2^k`` vectors are candidates).
        """
        best: list[tuple[int, ...]] = []
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
        a = dlap_quantile_expr(4 / EPSILON, DELTA / 4)
        gap = a_dist_gap_expr(4 / EPSILON, DELTA / 2)
        expr = sp.Max(
            sp.log(4 / (ALPHA * BETA)) / (sp.Rational(405, 1000) * ALPHA),
            120 * (1 + a) / ALPHA,
            240 / (ALPHA * EPSILON) * sp.log(960 / (ALPHA * BETA)),
            30 * gap / ALPHA,
        )
        values = {"alpha": alpha, "beta": beta, "epsilon": params["epsilon"], "delta": params["delta"]}
        return self._explicit_bound(
            "point_k_learner_explicit",
            expr,
            values,
            "BNS Thm 40 (Alg 5 PointLearner) with Prop 30 (Alg 2) and Prop 22 (A_dist); "
            "constants of dimcalc's implementation",
            proper=False,
            notes=(
                "independent of k and |X|, as in BNS Thm 40",
                "order of growth: dimcalc.sample_size.point_k_learner_sample_size",
            ),
        )
