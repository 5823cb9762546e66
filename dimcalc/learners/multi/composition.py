"""The direct-sum baseline k-learner: one private learner per concept, composed (BNS Obs 32).

References
----------
M. Bun, K. Nissim, U. Stemmer, *Simultaneous Private Learning of Multiple Concepts*,
JMLR 2019: Observation 32, Theorem 17, Theorem 27 (Kasiviswanathan et al. 2011), Prop 21.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...classes.hypothesis_class import HypothesisClass
from ...sample_size import (
    SampleSizeBound,
    composition_sample_size,
    exponential_mechanism_sample_size,
    split_privacy_budget,
)
from .._validation import check_indices, check_label_matrix
from ..mechanisms.exponential import error_counts
from ._klearner import SelectionKLearner, check_composition
from .budget import Composition, budget_split, selection_privacy

__all__ = ["CompositionLearner"]


class CompositionLearner(SelectionKLearner):
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

    def _validate(self) -> dict[str, Any]:
        params = self._check_class_and_delta()
        params["composition"] = check_composition(self.composition, self._owner)
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
        chosen = self._select_per_concept(errors, split[0], noise, params["noise_multiplier"])
        self.hypotheses_ = H.distinct_to_row[np.array(chosen, dtype=np.int64)]
        self.k_ = k
        self.split_ = budget_split(split, params["epsilon"])
        self.privacy_ = selection_privacy(split, k)
        return self

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
