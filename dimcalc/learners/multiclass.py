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

import inspect
import warnings
from collections.abc import Callable
from typing import Any, cast

import numpy as np

from .._params import as_fraction
from ..classes.hypothesis_class import HypothesisClass, label_bits
from ..errors import parameter_error
from ..sample_size import SampleSizeBound, multiclass_reduction_sample_size
from ._base import PrivateLearner, _class_argument
from ._validation import check_class, check_delta, check_points, check_sample
from .exponential import GenericPrivateLearner
from .privacy import Privacy

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


class BinaryReductionLearner(PrivateLearner):
    """Private multiclass PAC learner from private binary learners (BGS Thm 3.1).

    Guarantee: ``(epsilon, delta)``-DP (parallel composition, BGS Claim 3.2)
    when every binary learner is; if the binary learner for ``H|_i`` is
    ``(alpha/b, beta/b)``-accurate on its part, the recombined hypothesis has
    error ``<= alpha`` with probability ``>= 1 - beta`` (union bounds,
    BGS eqs. (1)-(3)).  The output is improper in general (a bitwise
    combination of hypotheses of the restrictions).

    Parameters
    ----------
    H : HypothesisClass
        The class (keyword-only).  Given positionally, or as ``hypothesis_class=`` (its former
        name), it is still taken, with a deprecation warning.
        Labels ``0..k``.
    epsilon : number > 0
    delta : number in [0, 1)
        Passed to the binary learners (the default one is pure: ``delta`` 0).
    binary_learner : callable, optional
        ``binary_learner(binary_class, epsilon=, delta=, random_state=)`` returning an
        object with ``fit``, ``predict``, ``privacy_spent`` and
        ``required_sample_size(alpha, beta)``.  Default: :class:`GenericPrivateLearner`
        (PAC mode) with this learner's ``noise``.
    noise : {"opendp", "exact"} or NoiseSource
        For the default binary learner.
    random_state : None, int or numpy.random.Generator
        Shared by the binary learners (``random_state=`` of a custom one; one taking only the former
        ``rng=`` still gets it, with a ``FutureWarning``).
    noise_multiplier : number
        Audit-only knob of the default binary learner.
    rng, backend
        Former names of ``random_state`` and ``noise``.

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
    >>> learner = BinaryReductionLearner(H=H, epsilon=1.0, noise="exact", random_state=3)
    >>> n = learner.required_sample_size(alpha=0.2, beta=0.1).samples
    >>> X = rng.integers(0, 4, size=n)
    >>> learner.fit(X, H.table[1, X]).predict([0, 1, 2, 3]).tolist()
    [3, 2, 1, 0]
    """

    def __init__(
        self,
        *args: HypothesisClass,
        H: HypothesisClass | None = None,
        epsilon: Any,
        delta: Any = 0.0,
        binary_learner: Callable[..., Any] | None = None,
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
        self.delta = delta
        self.binary_learner = binary_learner
        self.noise = noise
        self.random_state = random_state
        self.noise_multiplier = noise_multiplier
        self.rng = rng
        self.backend = backend

    def _validate(self) -> dict[str, Any]:
        params = self._check_common(self._owner)
        H = check_class(self._hclass(), self._owner)
        params["delta"] = check_delta(self.delta, self._owner)
        if self.binary_learner is not None and not callable(self.binary_learner):
            raise parameter_error(
                "binary_learner", self._owner, "None or a callable (G, epsilon=, delta=, rng=)", self.binary_learner
            )
        params["H"] = H
        params["n_bits"] = label_bits(H.num_labels)
        cached = getattr(self, "_restriction_cache", None)
        if cached is None or cached[0] is not H:  # built once per class, not at every fit
            cached = (H, [binary_restriction_table(H, i) for i in range(1, params["n_bits"] + 1)])
            self._restriction_cache = cached
        params["restrictions"] = cached[1]
        return params

    @property
    def n_bits(self) -> int:
        """``b = ceil(log2(k+1))``: the number of label bits (binary learners)."""
        return label_bits(check_class(self._hclass(), self._owner).num_labels)

    @property
    def restrictions(self) -> list:
        """The binary restrictions ``H|_1 .. H|_b`` (bit 1 least significant)."""
        return self._validate()["restrictions"]

    def _make(self, G: HypothesisClass, params: dict) -> Any:
        if self.binary_learner is None:
            return GenericPrivateLearner(
                H=G,
                epsilon=params["epsilon"],
                noise=params["noise"],
                random_state=params["generator"],
                noise_multiplier=params["noise_multiplier"],
            )
        return self.binary_learner(G, epsilon=params["epsilon"], delta=params["delta"], **self._random_keyword(params))

    def _random_keyword(self, params: dict) -> dict[str, Any]:
        """``random_state=`` for a custom binary learner; ``rng=`` (with a FutureWarning) when it takes only that."""
        try:
            accepted = inspect.signature(cast(Callable[..., Any], self.binary_learner)).parameters
        except (TypeError, ValueError):  # no signature to read (a builtin): the current name
            return {"random_state": params["generator"]}
        if "random_state" in accepted or any(p.kind is p.VAR_KEYWORD for p in accepted.values()):
            return {"random_state": params["generator"]}
        if "rng" in accepted:
            warnings.warn(
                f"{self._owner}: a binary_learner taking rng= is deprecated; make it take random_state= "
                "(the same Generator). The old name goes in the next release.",
                FutureWarning,
                stacklevel=5,
            )
            return {"rng": params["generator"]}
        return {"random_state": params["generator"]}

    def _privacy_claim(self, params: dict) -> Privacy:
        """Parallel composition of what the binary learners report (BGS Claim 3.2)."""
        learners = [self._make(G, params) for G in params["restrictions"]]
        return self._parallel(learners, params)

    def _parallel(self, learners: list, params: dict) -> Privacy:
        # Each binary learner reports its own privacy_spent (the default one already divided by the noise
        # multiplier, a custom one unaffected by it); privacy_spent divides this account by the multiplier once,
        # so the reports are multiplied by it here.
        multiplier = as_fraction(params["noise_multiplier"])
        parts = [
            Privacy.mechanism(
                as_fraction(learner.privacy_spent[0]) * multiplier,
                learner.privacy_spent[1],
                f"binary learner {type(learner).__name__}",
            )
            for learner in learners
        ]
        return Privacy.parallel(*parts)

    def fit(self, X: Any, y: Any) -> BinaryReductionLearner:
        """Split ``(X, y)`` into ``b`` consecutive equal parts (sizes differ by at most one) and fit bit ``i`` on part ``i``."""
        params = self._validate()
        H = params["H"]
        X, y = check_sample(X, y, H.n_points, H.num_labels, f"{self._owner}.fit")
        parts = np.array_split(np.arange(X.shape[0]), params["n_bits"])
        learners = []
        for i, idx in enumerate(parts, start=1):
            learner = self._make(params["restrictions"][i - 1], params)
            learner.fit(X[idx], (y[idx] >> (i - 1)) & 1)
            learners.append(learner)
        self.learners_ = learners
        self.part_sizes_ = [int(len(idx)) for idx in parts]
        self.privacy_ = self._parallel(learners, params)
        return self

    def predict(self, X: Any) -> np.ndarray:
        """``sum_i 2**(i-1) g_i(X)``: the bits predicted by the binary learners, recombined."""
        self._check_is_fitted()
        X = check_points(X, self._hclass().n_points, f"{self._owner}.predict")
        out = np.zeros(X.shape[0], dtype=np.int64)
        for i, learner in enumerate(self.learners_, start=1):
            out |= np.asarray(learner.predict(X), dtype=np.int64) << (i - 1)
        return out

    def required_sample_size(self, alpha: float, beta: float) -> SampleSizeBound:
        """Examples for ``(alpha, beta)``-accuracy with this learner's equal split.

        BGS Thm 3.1 sums ``SC^i_{alpha/b, beta/b}`` over the bits, with part
        ``i`` of that size; ``fit`` splits equally, so this returns
        ``b * max_i SC^i_{alpha/b, beta/b}`` (at least the theorem's sum).  Each
        binary learner's own conditions are checked at ``(alpha/b, beta/b)``, the
        accuracy it is run at.
        """
        params = self._validate()
        b = params["n_bits"]
        bounds = []
        for G in params["restrictions"]:
            learner = self._make(G, params)
            # validation only: the bound below is symbolic in alpha, beta and put in at alpha/b, beta/b
            learner.required_sample_size(alpha / b, beta / b)
            bounds.append(learner.required_sample_size(alpha, beta))
        return multiclass_reduction_sample_size(binary_bounds=bounds, alpha=alpha, beta=beta, equal_split=True)
