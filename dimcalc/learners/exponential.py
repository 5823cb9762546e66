"""The generic pure-DP learner over a finite class (the exponential mechanism).

References
----------
S. Kasiviswanathan, H. Lee, K. Nissim, S. Raskhodnikova, A. Smith, *What Can
We Learn Privately?*, SICOMP 2011, Theorem 3.4; BNS (JMLR) Theorem 27 and
Proposition 21.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..classes.hypothesis_class import HypothesisClass
from ..sample_size import SampleSizeBound, exponential_mechanism_sample_size
from ._base import PrivateLearner, _class_argument
from ._validation import check_class, check_sample
from .privacy import Privacy

__all__ = ["GenericPrivateLearner"]


class GenericPrivateLearner(PrivateLearner):
    """Proper ``epsilon``-DP learner for a finite class: the exponential mechanism.

    ``fit`` scores every distinct hypothesis ``h`` by ``-(number of examples
    h mislabels)`` (sensitivity 1) and selects one with the learners' selection
    primitive (:func:`dimcalc.learners.mechanisms.exponential_mechanism`).

    Guarantee: ``(epsilon, 0)``-DP with respect to the labelled sample (for
    any sample); with ``n >= required_sample_size(alpha, beta).samples``
    i.i.d. examples the output has error ``<= alpha`` (PAC: target in the
    class) or ``<= min_h error(h) + alpha`` (``agnostic=True``) with
    probability ``>= 1 - beta``.  The algorithm is the same in both modes;
    ``agnostic`` selects the guarantee and hence the sample size.

    Parameters
    ----------
    H : HypothesisClass
        The class (keyword-only).  Given positionally, or as ``hypothesis_class=`` (its former
        name), it is still taken, with a deprecation warning.
        The finite class (binary or multiclass; 0-1 loss).
    epsilon : number > 0
        Exact as given (a Fraction or text like ``"1/3"`` is that number).
    agnostic : bool
    noise : {"opendp", "exact"} or NoiseSource
        ``"opendp"`` (default): OpenDP's report-noisy-max with exponential noise (not
        seedable); ``"exact"``: the exact exponential mechanism driven by ``random_state``.
    random_state : None, int or numpy.random.Generator
    noise_multiplier : number
        Audit-only knob; ``< 1`` voids the guarantee (``privacy_spent`` says so).
    rng, backend
        Former names of ``random_state`` and ``noise``.

    Attributes
    ----------
    hypothesis_ : int
        File row index of the selected hypothesis (after ``fit``).
    privacy_ : Privacy
        The accounting of the last fit.

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
    >>> learner = GenericPrivateLearner(H=H, epsilon=1.0, noise="exact", random_state=0)
    >>> n = learner.required_sample_size(alpha=0.1, beta=0.1).samples
    >>> X = rng.integers(0, 8, size=n); y = H.table[3, X]
    >>> learner.fit(X, y).privacy_spent
    (1.0, 0.0)
    >>> float(np.mean(learner.predict(np.arange(8)) != H.table[3])) <= 0.125
    True
    """

    def __init__(
        self,
        *args: HypothesisClass,
        H: HypothesisClass | None = None,
        epsilon: Any,
        agnostic: bool = False,
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
        self.agnostic = agnostic
        self.noise = noise
        self.random_state = random_state
        self.noise_multiplier = noise_multiplier
        self.rng = rng
        self.backend = backend

    def _validate(self) -> dict[str, Any]:
        params = self._check_common(self._owner)
        params["H"] = check_class(self._hclass(), self._owner)
        params["agnostic"] = bool(self.agnostic)
        return params

    def _privacy_claim(self, params: dict[str, Any]) -> Privacy:
        return Privacy.mechanism(params["epsilon"], 0, "exponential mechanism (BNS Prop 21)")

    def fit(self, X: Any, y: Any) -> GenericPrivateLearner:
        """Select a hypothesis privately from the labelled sample ``(X, y)`` (point indices, labels)."""
        params = self._validate()
        H = params["H"]
        X, y = check_sample(X, y, H.n_points, H.num_labels, f"{self._owner}.fit")
        j = self._select(H.distinct_rows, X, y, H.num_labels, params)
        self.distinct_index_ = int(j)
        self.hypothesis_ = H.row_of(int(j))
        self.privacy_ = self._privacy_claim(params)
        return self

    def predict(self, X: Any) -> np.ndarray:
        """Labels the selected hypothesis gives to the points ``X``."""
        self._check_is_fitted()
        return self._predict_row(self._hclass(), self.hypothesis_, X)

    def required_sample_size(self, alpha: float, beta: float) -> SampleSizeBound:
        """Explicit sample size for ``(alpha, beta)``-accuracy (BNS Thm 27 / Prop 21, explicit constants)."""
        params = self._validate()
        return exponential_mechanism_sample_size(
            log_size=math.log(params["H"].n_distinct),
            alpha=alpha,
            beta=beta,
            epsilon=params["epsilon"],
            agnostic=params["agnostic"],
        )
