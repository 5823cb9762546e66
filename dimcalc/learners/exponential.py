"""The generic pure-DP learner over a finite class (the exponential mechanism).

References
----------
S. Kasiviswanathan, H. Lee, K. Nissim, S. Raskhodnikova, A. Smith, *What Can
We Learn Privately?*, SICOMP 2011, Theorem 3.4; BNS (JMLR) Theorem 27 and
Proposition 21.
"""

from __future__ import annotations

import math
from typing import Any, Literal

import numpy as np

from ..hypothesis_class import HypothesisClass
from ..sample_size import SampleSizeBound, exponential_mechanism_sample_size
from ._base import (PrivateLearnerMixin, check_backend, check_class, check_epsilon, check_noise_multiplier,
                    check_points, check_rng, check_sample, error_counts)
from .mechanisms import exponential_mechanism

__all__ = ["GenericPrivateLearner"]


class GenericPrivateLearner(PrivateLearnerMixin):
    """Proper ``epsilon``-DP learner for a finite class: the exponential mechanism.

    ``fit`` scores every distinct hypothesis ``h`` by ``-(number of examples
    h mislabels)`` (sensitivity 1) and selects one with the exponential
    mechanism (see :mod:`dimcalc.learners.mechanisms`).

    Guarantee: ``(epsilon, 0)``-DP with respect to the labelled sample (for
    any sample); with ``n >= required_sample_size(alpha, beta).samples``
    i.i.d. examples the output has error ``<= alpha`` (PAC: target in the
    class) or ``<= min_h error(h) + alpha`` (``agnostic=True``) with
    probability ``>= 1 - beta``.  The algorithm is the same in both modes;
    ``agnostic`` selects the guarantee and hence the sample size.

    Parameters
    ----------
    hypothesis_class : HypothesisClass
        The finite class (binary or multiclass; 0-1 loss).
    epsilon : float > 0
    agnostic : bool
    rng : numpy.random.Generator, optional
        Randomness of the ``"exact"`` back end.
    backend : {"opendp", "exact"}
        ``"opendp"``: OpenDP's report-noisy-max (not seedable);
        ``"exact"``: the exact exponential mechanism driven by ``rng``.
    noise_multiplier : float
        Audit-only knob; ``< 1`` voids the guarantee (``privacy_spent`` says so).

    Attributes
    ----------
    hypothesis_ : int
        File row index of the selected hypothesis (after ``fit``).

    References
    ----------
    BNS (JMLR) Theorem 27 (Kasiviswanathan et al. 2011), Proposition 21
    (McSherry and Talwar 2007).

    Examples
    --------
    >>> import numpy as np
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass([[int(x >= t) for x in range(8)] for t in range(9)])  # thresholds
    >>> rng = np.random.default_rng(0)
    >>> learner = GenericPrivateLearner(H, epsilon=1.0, rng=rng, backend="exact")
    >>> n = learner.required_sample_size(alpha=0.1, beta=0.1).samples
    >>> X = rng.integers(0, 8, size=n); y = H.table[3, X]
    >>> learner.fit(X, y).privacy_spent
    (1.0, 0.0)
    >>> float(np.mean(learner.predict(np.arange(8)) != H.table[3])) <= 0.125
    True
    """

    def __init__(self, hypothesis_class: HypothesisClass, *, epsilon: float, agnostic: bool = False,
                 rng: np.random.Generator | None = None, backend: Literal["opendp", "exact"] = "opendp",
                 noise_multiplier: float = 1.0) -> None:
        owner = "GenericPrivateLearner"
        self.hypothesis_class = check_class(hypothesis_class, owner)
        self.epsilon = check_epsilon(epsilon, owner)
        self.delta = 0.0
        self.agnostic = bool(agnostic)
        self.rng = check_rng(rng, owner)
        self.backend = check_backend(backend, owner)
        self.noise_multiplier = check_noise_multiplier(noise_multiplier, owner)
        self.fitted_ = False

    def fit(self, X: Any, y: Any) -> "GenericPrivateLearner":
        """Select a hypothesis privately from the labelled sample ``(X, y)`` (point indices, labels)."""
        H = self.hypothesis_class
        X, y = check_sample(X, y, H.n_points, H.num_labels, "GenericPrivateLearner.fit")
        errors = error_counts(H.distinct_rows, X, y, H.num_labels)
        j = exponential_mechanism(-errors, epsilon=self.epsilon, rng=self.rng, backend=self.backend,
                                  noise_multiplier=self.noise_multiplier)
        self.distinct_index_ = int(j)
        self.hypothesis_ = H.row_of(int(j))
        self.fitted_ = True
        return self

    def predict(self, X: Any) -> np.ndarray:
        """Labels the selected hypothesis gives to the points ``X``."""
        self._check_fitted("GenericPrivateLearner.predict")
        X = check_points(X, self.hypothesis_class.n_points, "GenericPrivateLearner.predict")
        return self.hypothesis_class.table[self.hypothesis_, X].copy()

    def required_sample_size(self, alpha: float, beta: float) -> SampleSizeBound:
        """Explicit sample size for ``(alpha, beta)``-accuracy (BNS Thm 27 / Prop 21, explicit constants)."""
        return exponential_mechanism_sample_size(
            log_size=math.log(self.hypothesis_class.n_distinct), alpha=alpha, beta=beta,
            epsilon=self.epsilon, agnostic=self.agnostic)
