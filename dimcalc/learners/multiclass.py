"""The multiclass-to-binary reduction of Bun, Gaboardi and Sivakumar.

Split the sample (data-independently) into ``b = ceil(log2(k+1))`` parts; on
part ``i`` relabel every example by bit ``i`` of its label and run a private
binary learner for the binary restriction ``H|_i``; predict
``sum_i 2**(i-1) g_i(x)``.  Each example is seen by one binary learner only,
so the whole is ``(epsilon, delta)``-DP by parallel composition (BGS Claim
3.2) and post-processing.

Bits follow dimcalc's convention: ``i = 1`` is the least significant bit,
``h_i(x) = (h(x) >> (i-1)) & 1`` (as :func:`dimcalc.operations.binary_restriction`).

References
----------
M. Bun, M. Gaboardi, S. Sivakumar, *Multiclass versus Binary Differentially
Private PAC Learning*, NeurIPS 2021 (BGS): Theorem 3.1, Claim 3.2,
Corollaries 3.3 and 3.5.
"""

from __future__ import annotations

from typing import Any, Callable, Literal

import numpy as np

from ..hypothesis_class import HypothesisClass, label_bits
from ..sample_size import SampleSizeBound, multiclass_reduction_sample_size
from ._base import (PrivateLearnerMixin, check_backend, check_class, check_epsilon, check_noise_multiplier,
                    check_points, check_rng, check_sample)
from .exponential import GenericPrivateLearner

__all__ = ["BinaryReductionLearner", "binary_restriction_table"]


def binary_restriction_table(H: HypothesisClass, i: int) -> HypothesisClass:
    """The binary restriction ``H|_i`` (bit ``i``, 1 = least significant), rows preserved.

    References
    ----------
    BGS §3.1 (binary restrictions, before Theorem 3.1).

    Examples
    --------
    >>> H = HypothesisClass([[0, 1, 2, 3]], num_labels=4)
    >>> binary_restriction_table(H, 1).table.tolist(), binary_restriction_table(H, 2).table.tolist()
    ([[0, 1, 0, 1]], [[0, 0, 1, 1]])
    """
    return HypothesisClass((H.table >> (i - 1)) & 1, num_labels=2, name=f"{H.name}|{i}")


class BinaryReductionLearner(PrivateLearnerMixin):
    """Private multiclass PAC learner from private binary learners (BGS Thm 3.1).

    Guarantee: ``(epsilon, delta)``-DP (parallel composition, BGS Claim 3.2)
    when every binary learner is; if the binary learner for ``H|_i`` is
    ``(alpha/b, beta/b)``-accurate on its part, the recombined hypothesis has
    error ``<= alpha`` with probability ``>= 1 - beta`` (union bounds,
    BGS eqs. (1)-(3)).  The output is improper in general (a bitwise
    combination of hypotheses of the restrictions).

    Parameters
    ----------
    hypothesis_class : HypothesisClass
        Labels ``0..k``.
    epsilon : float > 0
    delta : float in [0, 1)
        Passed to the binary learners (the default one is pure: ``delta`` 0).
    binary_learner : callable, optional
        ``binary_learner(binary_class, epsilon=, delta=, rng=)`` returning an
        object with ``fit``, ``predict`` and ``required_sample_size(alpha, beta)``.
        Default: :class:`GenericPrivateLearner` (PAC mode).
    rng : numpy.random.Generator, optional
    backend : {"opendp", "exact"}
        For the default binary learner.
    noise_multiplier : float
        Audit-only knob of the default binary learner.

    Attributes
    ----------
    learners_ : list
        The fitted binary learners, bit 1 first.
    part_sizes_ : list of int

    References
    ----------
    BGS Theorem 3.1 and Claim 3.2.

    Examples
    --------
    >>> import numpy as np
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass([[0, 1, 2, 3], [3, 2, 1, 0], [1, 1, 2, 2]], num_labels=4)
    >>> rng = np.random.default_rng(3)
    >>> learner = BinaryReductionLearner(H, epsilon=1.0, rng=rng, backend="exact")
    >>> n = learner.required_sample_size(alpha=0.2, beta=0.1).samples
    >>> X = rng.integers(0, 4, size=n)
    >>> learner.fit(X, H.table[1, X]).predict([0, 1, 2, 3]).tolist()
    [3, 2, 1, 0]
    """

    def __init__(self, hypothesis_class: HypothesisClass, *, epsilon: float, delta: float = 0.0,
                 binary_learner: Callable[..., Any] | None = None, rng: np.random.Generator | None = None,
                 backend: Literal["opendp", "exact"] = "opendp", noise_multiplier: float = 1.0) -> None:
        owner = "BinaryReductionLearner"
        self.hypothesis_class = check_class(hypothesis_class, owner)
        self.epsilon = check_epsilon(epsilon, owner)
        if isinstance(delta, bool) or not isinstance(delta, (int, float)) or not (0 <= delta < 1):
            from ..errors import parameter_error
            raise parameter_error("delta", owner, "a float in [0, 1)", delta)
        self.delta = float(delta)
        self.rng = check_rng(rng, owner)
        self.backend = check_backend(backend, owner)
        self.noise_multiplier = check_noise_multiplier(noise_multiplier, owner)
        self.binary_learner = binary_learner
        self.n_bits = label_bits(self.hypothesis_class.num_labels)
        self.restrictions = [binary_restriction_table(self.hypothesis_class, i) for i in range(1, self.n_bits + 1)]
        self.fitted_ = False

    def _make(self, G: HypothesisClass) -> Any:
        if self.binary_learner is None:
            return GenericPrivateLearner(G, epsilon=self.epsilon, rng=self.rng, backend=self.backend,
                                         noise_multiplier=self.noise_multiplier)
        return self.binary_learner(G, epsilon=self.epsilon, delta=self.delta, rng=self.rng)

    def fit(self, X: Any, y: Any) -> "BinaryReductionLearner":
        """Split ``(X, y)`` into ``b`` consecutive equal parts (sizes differ by at most one) and fit bit ``i`` on part ``i``."""
        H = self.hypothesis_class
        X, y = check_sample(X, y, H.n_points, H.num_labels, "BinaryReductionLearner.fit")
        parts = np.array_split(np.arange(X.shape[0]), self.n_bits)
        self.learners_ = []
        for i, idx in enumerate(parts, start=1):
            learner = self._make(self.restrictions[i - 1])
            learner.fit(X[idx], (y[idx] >> (i - 1)) & 1)
            self.learners_.append(learner)
        self.part_sizes_ = [int(len(idx)) for idx in parts]
        self.fitted_ = True
        return self

    def predict(self, X: Any) -> np.ndarray:
        """``sum_i 2**(i-1) g_i(X)``: the bits predicted by the binary learners, recombined."""
        self._check_fitted("BinaryReductionLearner.predict")
        X = check_points(X, self.hypothesis_class.n_points, "BinaryReductionLearner.predict")
        out = np.zeros(X.shape[0], dtype=np.int64)
        for i, learner in enumerate(self.learners_, start=1):
            out |= np.asarray(learner.predict(X), dtype=np.int64) << (i - 1)
        return out

    @property
    def privacy_spent(self) -> tuple[float, float]:
        """Parallel composition: the largest ``(epsilon, delta)`` of the binary learners (BGS Claim 3.2).

        Each example reaches one binary learner, so the whole spends what the most
        expensive binary learner spends (as reported by its own ``privacy_spent``).
        """
        if self.binary_learner is None:
            return (self.epsilon / self.noise_multiplier, 0.0)
        learners = self.learners_ if self.fitted_ else [self._make(G) for G in self.restrictions]
        spent = [tuple(learner.privacy_spent) for learner in learners]
        return (max(e for e, _ in spent), max(d for _, d in spent))

    def required_sample_size(self, alpha: float, beta: float) -> SampleSizeBound:
        """Examples for ``(alpha, beta)``-accuracy with this learner's equal split.

        BGS Thm 3.1 sums ``SC^i_{alpha/b, beta/b}`` over the bits, with part
        ``i`` of that size; ``fit`` splits equally, so this returns
        ``b * max_i SC^i_{alpha/b, beta/b}`` (at least the theorem's sum).  Each
        binary learner's own conditions are checked at ``(alpha/b, beta/b)``, the
        accuracy it is run at.
        """
        bounds = []
        for G in self.restrictions:
            learner = self._make(G)
            # validation only: the bound below is symbolic in alpha, beta and put in at alpha/b, beta/b
            learner.required_sample_size(alpha / self.n_bits, beta / self.n_bits)
            bounds.append(learner.required_sample_size(alpha, beta))
        return multiclass_reduction_sample_size(binary_bounds=bounds, alpha=alpha, beta=beta, equal_split=True)
