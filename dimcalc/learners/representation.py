"""The pure-DP learner from a probabilistic representation (Beimel, Nissim, Stemmer).

A pair ``(P, G)`` with ``G = {G_1, ..., G_r}`` (finite hypothesis classes
over the domain) and ``P`` a distribution on ``{1..r}`` is an
``(a, b)``-probabilistic representation of ``H`` if for every target ``f`` in
``H`` and every distribution ``D``, with probability ``>= 1 - b`` over
``i ~ P`` some ``g`` in ``G_i`` has ``P_D[g != f] <= a`` (BGS Def 8.1).
The learner draws ``G_i ~ P`` (data-independently) and runs the exponential
mechanism over ``G_i`` on the sample.

References
----------
A. Beimel, K. Nissim, U. Stemmer, *Characterizing the Sample Complexity of
Pure Private Learners*, JMLR 2019, Lemma 14; BGS Definitions 8.1-8.2 and
Lemma 8.3.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from ..classes.hypothesis_class import HypothesisClass
from ..errors import parameter_error
from ..sample_size import SampleSizeBound, representation_learner_sample_size
from ._base import PrivateLearner
from ._validation import check_sample
from .privacy import Privacy

__all__ = ["RepresentationLearner"]


class RepresentationLearner(PrivateLearner):
    """Pure-DP (improper) PAC learner from a probabilistic representation (BGS Lemma 8.3).

    Guarantee: ``(epsilon, 0)``-DP (the draw of ``G_i`` ignores the data;
    the exponential mechanism over ``G_i`` is ``epsilon``-DP).  If ``(P, G)``
    is an ``(rep_alpha, rep_beta)``-probabilistic representation of the
    target's class, then with ``required_sample_size(alpha, beta)`` i.i.d.
    examples (``alpha >= 6 rep_alpha``, ``beta > rep_beta``) the output has
    error ``<= alpha`` with probability ``>= 1 - beta``: Lemma 8.3's
    ``(6 alpha, 4 beta)`` with explicit constants (see
    :func:`dimcalc.sample_size.representation_learner_sample_size`).

    Parameters
    ----------
    classes : sequence of HypothesisClass
        ``G_1..G_r``, all over the same domain and label set as the target class.
    probabilities : sequence of float or Fraction
        ``P``: non-negative, summing to 1.
    rep_alpha, rep_beta : float
        The representation's parameters (as proved for it; used only for the sample size).
    epsilon : number > 0
    noise : {"opendp", "exact"} or NoiseSource
    random_state : None, int or numpy.random.Generator
        Draws ``i ~ P`` and drives ``noise="exact"``.
    noise_multiplier : number
        Audit-only knob (``< 1`` voids the guarantee).
    rng, backend
        Former names of ``random_state`` and ``noise``.

    Attributes
    ----------
    class_index_ : int
        The ``i`` drawn by ``fit``.
    hypothesis_ : int
        Row (in ``G_i``'s table) of the selected hypothesis.

    References
    ----------
    BGS Lemma 8.3 (Beimel, Nissim, Stemmer 2019, Lemma 14), Definitions 8.1-8.2.

    Examples
    --------
    >>> import numpy as np
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass([[int(x == p) for x in range(6)] for p in range(6)])  # point functions
    >>> zero = HypothesisClass([[0] * 6])
    >>> learner = RepresentationLearner([H, zero], [0.95, 0.05], rep_alpha=0.0, rep_beta=0.05,
    ...                                 epsilon=1.0, noise="exact", random_state=0)
    >>> learner.required_sample_size(alpha=0.3, beta=0.2).samples
    192
    """

    def __init__(
        self,
        classes: Sequence[HypothesisClass],
        probabilities: Sequence[float | Fraction],
        *,
        rep_alpha: float,
        rep_beta: float,
        epsilon: Any,
        noise: Any = "opendp",
        random_state: Any = None,
        noise_multiplier: float = 1.0,
        rng: Any = None,
        backend: Any = None,
    ) -> None:
        self.classes = classes
        self.probabilities = probabilities
        self.rep_alpha = rep_alpha
        self.rep_beta = rep_beta
        self.epsilon = epsilon
        self.noise = noise
        self.random_state = random_state
        self.noise_multiplier = noise_multiplier
        self.rng = rng
        self.backend = backend

    def _validate(self) -> dict[str, Any]:
        owner = self._owner
        params = self._check_common(owner)
        try:
            classes = None if isinstance(self.classes, HypothesisClass) else list(self.classes)
        except TypeError:
            classes = None
        if not classes or not all(isinstance(G, HypothesisClass) for G in classes):
            raise parameter_error("classes", owner, "a non-empty sequence of HypothesisClass", self.classes)
        shapes = {(G.n_points, G.num_labels) for G in classes}
        if len(shapes) != 1:
            raise parameter_error("classes", owner, "classes over one domain and one label set", sorted(shapes))
        wanted = f"{len(classes)} non-negative numbers summing to 1"
        try:
            given = list(self.probabilities)
        except TypeError:
            raise parameter_error("probabilities", owner, wanted, self.probabilities) from None
        if not all(
            isinstance(p, Fraction)
            or (
                isinstance(p, (int, float, np.integer, np.floating))
                and not isinstance(p, (bool, np.bool_))
                and math.isfinite(p)
            )
            for p in given
        ):
            raise parameter_error("probabilities", owner, wanted, given)
        probs = [p if isinstance(p, Fraction) else Fraction(float(p)) for p in given]
        if len(probs) != len(classes) or any(p < 0 for p in probs) or abs(float(sum(probs)) - 1) > 1e-9:
            raise parameter_error("probabilities", owner, wanted, given)
        for name in ("rep_alpha", "rep_beta"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float, Fraction)) or not (0 <= v < 1):
                raise parameter_error(name, owner, "a float in [0, 1)", v)
        weights = np.array([float(p) for p in probs])
        params.update(
            classes=classes,
            weights=weights / weights.sum(),
            n_points=classes[0].n_points,
            num_labels=classes[0].num_labels,
        )
        return params

    def _privacy_claim(self, params: dict[str, Any]) -> Privacy:
        return Privacy.mechanism(
            params["epsilon"], 0, "data-independent draw of G_i, then the exponential mechanism over G_i (BNS Prop 21)"
        )

    @property
    def size(self) -> float:
        """``size(G) = max_i ln |G_i|`` (BGS Def 8.2), over distinct hypotheses."""
        return max(math.log(G.n_distinct) for G in self._validate()["classes"])

    def fit(self, X: Any, y: Any) -> RepresentationLearner:
        """Draw ``G_i ~ P`` (ignoring the data), then select from ``G_i`` with the exponential mechanism on ``(X, y)``."""
        params = self._validate()
        X, y = check_sample(X, y, params["n_points"], params["num_labels"], f"{self._owner}.fit")
        i = int(params["generator"].choice(len(params["classes"]), p=params["weights"]))
        G = params["classes"][i]
        j = self._select(G.distinct_rows, X, y, G.num_labels, params)
        self.class_index_ = i
        self.hypothesis_ = G.row_of(int(j))
        self.privacy_ = self._privacy_claim(params)
        return self

    def predict(self, X: Any) -> np.ndarray:
        """Labels the selected hypothesis of ``G_i`` gives to ``X``."""
        self._check_is_fitted()
        return self._predict_row(self.classes[self.class_index_], self.hypothesis_, X)

    def required_sample_size(self, alpha: float, beta: float) -> SampleSizeBound:
        """Explicit sample size (BGS Lemma 8.3 with constants; needs ``alpha >= 6 rep_alpha``, ``beta > rep_beta``)."""
        params = self._validate()
        return representation_learner_sample_size(
            size=max(math.log(G.n_distinct) for G in params["classes"]),
            alpha=alpha,
            beta=beta,
            epsilon=params["epsilon"],
            rep_alpha=self.rep_alpha,
            rep_beta=self.rep_beta,
        )
