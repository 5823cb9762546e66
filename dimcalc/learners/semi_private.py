"""ASSPP: the semi-supervised semi-private agnostic learner of Alon, Bassily and Moran.

Public *unlabelled* points build an alpha-cover of the class (one hypothesis
per pattern the class realises on the distinct public points); the
exponential mechanism then chooses from the cover on the *private* labelled
sample.  Privacy concerns the private sample only (ABM Def 2.4).

References
----------
N. Alon, R. Bassily, S. Moran, *Limits of Private Learning with Access to
Public Data*, NeurIPS 2019 (ABM): Algorithm 1, Theorem 3.1, Lemmas 3.2-3.3.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..classes.hypothesis_class import HypothesisClass
from ..sample_size import SampleSizeBound, asspp_sample_size
from ._base import PrivateLearner, _class_argument
from ._validation import check_class, check_points, check_sample
from .privacy import Privacy

__all__ = ["ASSPP", "public_cover"]


def public_cover(H: HypothesisClass, public_points: Any) -> np.ndarray:
    """ABM Alg 1 steps 1-5: one distinct hypothesis per pattern on the distinct public points.

    Returns the distinct indices of the cover, ascending (the first distinct
    hypothesis of each pattern, an "arbitrary" choice fixed for determinism).

    References
    ----------
    ABM Algorithm 1 (steps 1-5), Definition 2.7 (alpha-cover), Lemma 3.3.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass([[0, 0, 1], [0, 1, 1], [1, 1, 1], [0, 0, 0]])
    >>> public_cover(H, [2, 2]).tolist()      # patterns on point 2: 1 (rows 0-2) and 0 (row 3)
    [0, 3]
    """
    T = np.unique(check_points(public_points, H.n_points, "public_cover", name="public_points"))
    if T.size == 0:
        return np.array([0], dtype=np.int64)
    _, first = np.unique(H.distinct_rows[:, T], axis=0, return_index=True)
    return np.sort(first).astype(np.int64)


class ASSPP(PrivateLearner):
    """Semi-private **agnostic** learner: public cover + exponential mechanism (ABM Alg 1).

    Guarantee (ABM Thm 3.1): for every public sample, ``fit`` is
    ``(epsilon, 0)``-DP with respect to the private labelled sample (Lemma
    3.2); with ``required_public_sample_size(alpha, beta)`` public and
    ``required_sample_size(alpha, beta)`` private i.i.d. examples from any
    distribution over labelled points (agnostic: no target need be in the class), the
    output has error ``<= min_h error(h) + alpha`` with probability ``>= 1 - beta``.
    The output is a hypothesis of the class (proper); in the realisable case
    (``min_h error(h) = 0``) this is PAC learning.

    Parameters
    ----------
    H : HypothesisClass
        The class (keyword-only).  Given positionally, or as ``hypothesis_class=`` (its former
        name), it is still taken, with a deprecation warning.
    epsilon : number > 0
    noise : {"opendp", "exact"} or NoiseSource
    random_state : None, int or numpy.random.Generator
    noise_multiplier : number
        Audit-only knob (``< 1`` voids the guarantee).
    rng, backend
        Former names of ``random_state`` and ``noise``.

    Attributes
    ----------
    cover_ : ndarray
        Distinct indices of the public cover (after ``fit``).
    hypothesis_ : int
        File row of the selected hypothesis.

    References
    ----------
    ABM Algorithm 1, Theorem 3.1, Lemma 3.2 (privacy), Lemma 3.3 (cover).

    Examples
    --------
    >>> import numpy as np
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass([[int(x >= t) for x in range(8)] for t in range(9)])
    >>> rng = np.random.default_rng(1)
    >>> learner = ASSPP(H=H, epsilon=1.0, noise="exact", random_state=1)
    >>> n_pub = learner.required_public_sample_size(alpha=0.2, beta=0.1).samples
    >>> n = learner.required_sample_size(alpha=0.2, beta=0.1).samples
    >>> X = rng.integers(0, 8, size=n)
    >>> learner.fit(X, H.table[5, X], public=rng.integers(0, 8, size=n_pub)).privacy_spent
    (1.0, 0.0)
    """

    def __init__(
        self,
        *args: HypothesisClass,
        H: HypothesisClass | None = None,
        epsilon: Any,
        noise: Any = "opendp",
        random_state: Any = None,
        noise_multiplier: float = 1.0,
        rng: Any = None,
        backend: Any = None,
        hypothesis_class: HypothesisClass | None = None,
    ) -> None:
        self.H = _class_argument(type(self).__name__, args, H, hypothesis_class)
        self.hypothesis_class = hypothesis_class
        self.epsilon = epsilon
        self.noise = noise
        self.random_state = random_state
        self.noise_multiplier = noise_multiplier
        self.rng = rng
        self.backend = backend

    def _validate(self) -> dict[str, Any]:
        params = self._check_common(self._owner)
        params["H"] = check_class(self._hclass(), self._owner)
        return params

    def _privacy_claim(self, params: dict[str, Any]) -> Privacy:
        return Privacy.mechanism(params["epsilon"], 0, "exponential mechanism over the public cover (ABM Lemma 3.2)")

    def fit(self, X: Any, y: Any, *, public: Any) -> ASSPP:
        """Build the cover from the public points, then select on the private ``(X, y)``."""
        params = self._validate()
        H = params["H"]
        owner = f"{self._owner}.fit"
        X, y = check_sample(X, y, H.n_points, H.num_labels, owner)
        cover = public_cover(H, check_points(public, H.n_points, owner, name="public"))
        j = self._select(H.distinct_rows[cover], X, y, H.num_labels, params)
        self.cover_ = cover
        self.distinct_index_ = int(cover[j])
        self.hypothesis_ = H.row_of(int(cover[j]))
        self.privacy_ = self._privacy_claim(params)
        return self

    def predict(self, X: Any) -> np.ndarray:
        """Labels the selected hypothesis gives to ``X``."""
        self._check_is_fitted()
        return self._predict_row(self._hclass(), self.hypothesis_, X)

    def _bounds(self, alpha: float, beta: float) -> tuple[SampleSizeBound, SampleSizeBound]:
        params = self._validate()
        return asspp_sample_size(
            log_size=math.log(params["H"].n_distinct), alpha=alpha, beta=beta, epsilon=params["epsilon"]
        )

    def required_sample_size(self, alpha: float, beta: float) -> SampleSizeBound:
        """Private labelled examples for ``(alpha, beta)`` (explicit, agnostic; see :func:`asspp_sample_size`)."""
        return self._bounds(alpha, beta)[0]

    def required_public_sample_size(self, alpha: float, beta: float) -> SampleSizeBound:
        """Public unlabelled examples for ``(alpha, beta)`` (explicit; ABM Lemma 3.3, finite class)."""
        return self._bounds(alpha, beta)[1]
