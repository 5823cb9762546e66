"""BNS Algorithm 4 (ParityLearner): k parities under the uniform distribution, exactly.

References
----------
M. Bun, K. Nissim, U. Stemmer, *Simultaneous Private Learning of Multiple Concepts*,
JMLR 2019: Algorithm 4 / Theorem 39, with Algorithm 1 / Proposition 22 (``A_dist``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import sympy as sp

from ..._params import as_fraction
from ...errors import InvalidParameterError, parameter_error
from ...sample_size import BETA, DELTA, EPSILON, D, SampleSizeBound
from .._validation import check_count, check_delta, check_label_matrix, check_unit
from ..mechanisms.stability import a_dist
from ..privacy import Privacy
from ._klearner import KLearner, a_dist_gap_expr

__all__ = ["solve_parities_gf2", "ParityLearner"]


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
    # Row i as one int: bit c = points[i, c] (c < d), bit d + j = labels[i, j]; machine words when they fit.
    kind: Any = np.int64 if d + k <= 62 else object
    weights = np.left_shift(np.ones(d + k, dtype=kind), np.arange(d + k, dtype=kind))
    rows = [int(r) for r in (points.astype(kind) @ weights[:d] + labels.astype(kind) @ weights[d:])]
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


class ParityLearner(KLearner):
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

    def _validate(self) -> dict[str, Any]:
        owner = self._owner
        params = self._check_common(owner)
        d = check_count(self.d, "d", owner)
        block = d + 4 if self.block_size is None else self.block_size
        block = check_count(block, "block_size", owner, minimum=d, requirement=f"an int >= d = {d}")
        params.update(d=d, block_size=block, delta=check_delta(self.delta, owner, allow_zero=False))
        return params

    def _privacy_claim(self, params: dict[str, Any]) -> Privacy:
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
        counts: Counter[tuple[int, ...]] = Counter()
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
        chosen: tuple[int, ...] = (0,) * k if choice is None else choice
        self.parities_ = np.array([[(a >> i) & 1 for i in range(d)] for a in chosen], dtype=np.int64)
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
        checked_beta = check_unit(beta, "beta", self._owner)
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
        gap = a_dist_gap_expr(2 / EPSILON, DELTA)
        L = sp.log(2 / BETA)
        blocks = sp.ceiling(((sp.sqrt(L / 2) + sp.sqrt(L / 2 + 4 * q * gap)) / (2 * q)) ** 2)
        values = {"d": params["d"], "beta": checked_beta, "epsilon": params["epsilon"], "delta": params["delta"]}
        return self._explicit_bound(
            "parity_k_learner_explicit",
            s * blocks,
            values,
            f"BNS Thm 39 (Alg 4 ParityLearner, block size {s}) with Prop 22 (A_dist); "
            "constants of dimcalc's implementation",
            proper=True,
            notes=(
                "alpha = 0 under the uniform distribution; independent of k",
                "order of growth: dimcalc.sample_size.parity_k_learner_sample_size",
            ),
        )
