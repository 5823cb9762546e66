"""The one base of every learner: scikit-learn's estimator conventions and privacy accounting.

Conventions (scikit-learn's, see its developer guide "Rolling your own estimator"):

* the constructor stores its keyword-only parameters unchanged and does nothing else;
  ``get_params`` / ``set_params`` read and write them (a ``clone`` is
  ``type(L)(**L.get_params())``);
* parameters are validated when they are used -- in ``fit`` (and in
  ``required_sample_size`` / ``privacy_spent``, which need them) -- with dimcalc's one-line
  :class:`~dimcalc.errors.InvalidParameterError`;
* ``random_state`` is ``None``, an int seed (each ``fit`` then starts from that seed: fits
  are reproducible) or a ``numpy.random.Generator`` (used as is); it drives
  ``noise="exact"`` and any data-independent randomness (``rng`` is its former name);
* ``noise`` is ``"opendp"`` (default, OpenDP's vetted samplers) or ``"exact"`` (the exact
  in-process sampler: reproducible), see :mod:`dimcalc.learners.mechanisms`;
* fitted attributes end with ``_``; ``predict`` before ``fit`` raises
  :class:`NotFittedError`;
* privacy accounting is done in one place: each ``fit`` records a :class:`Privacy`
  (``privacy_``), composed with BNS Thm 17 / BGS Claim 3.2 by this module's rules, and
  ``privacy_spent`` reports it (before a fit: the guarantee any fit gives).
"""

from __future__ import annotations

import inspect
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from .._params import Number, as_fraction, check_epsilon, exact_number
from ..errors import InvalidParameterError, parameter_error
from ..hypothesis_class import HypothesisClass
from .mechanisms import NOISE_SOURCES, NoiseSource, check_random_state, make_noise

__all__ = [
    "NotFittedError",
    "Privacy",
    "PrivateLearner",
    "PrivateLearnerMixin",
    "check_class",
    "check_epsilon",
    "check_delta",
    "check_unit",
    "check_rng",
    "check_backend",
    "check_sample",
    "check_points",
    "check_indices",
    "check_label_matrix",
    "error_counts",
    "report_number",
]


class NotFittedError(InvalidParameterError, AttributeError):
    """``predict`` (or a fitted attribute) used before ``fit`` (as scikit-learn's, also an AttributeError)."""


# ---------------------------------------------------------------------------- parameter checks
def check_class(H: Any, owner: str, name: str = "hypothesis_class") -> HypothesisClass:
    if not isinstance(H, HypothesisClass):
        raise parameter_error(name, owner, "a dimcalc.HypothesisClass", type(H).__name__)
    return H


def check_delta(delta: Any, owner: str, *, allow_zero: bool = True) -> Number:
    requirement = "a number in [0, 1)" if allow_zero else "a number in (0, 1)"
    v = exact_number(delta, "delta", owner, requirement, text=True)
    if not ((0 <= v < 1) if allow_zero else (0 < v < 1)):
        raise parameter_error("delta", owner, requirement, delta)
    return v


def check_unit(value: Any, name: str, owner: str) -> Number:
    v = exact_number(value, name, owner, "a number in (0, 1)")
    if not 0 < v < 1:
        raise parameter_error(name, owner, "a number in (0, 1)", value)
    return v


def check_positive(value: Any, name: str, owner: str) -> Number:
    v = exact_number(value, name, owner, "a number in (0, inf)")
    if not v > 0:
        raise parameter_error(name, owner, "a number in (0, inf)", value)
    return v


def check_rng(rng: Any, owner: str) -> np.random.Generator:
    """Former helper: a Generator from None or a Generator (an int seed is also accepted now)."""
    return check_random_state(rng, owner, "rng")


def check_backend(backend: Any, owner: str) -> str:
    if backend not in NOISE_SOURCES:
        raise parameter_error("backend", owner, "'opendp' or 'exact'", backend)
    return backend


def check_points(X: Any, n_points: int, owner: str, name: str = "X", what: str = "point indices") -> np.ndarray:
    """A 1-D int64 array of integers in ``range(n_points)`` (point indices, or labels with ``what="labels"``).

    Examples
    --------
    >>> check_points([2, 0], 3, "f").tolist()
    [2, 0]
    >>> check_points([0, 3], 3, "f", name="y", what="labels")
    Traceback (most recent call last):
    ...
    dimcalc.errors.InvalidParameterError: The 'y' parameter of f must be labels in [0, 3). Got 3 instead.
    """
    try:
        arr = np.asarray(X)
    except Exception:  # pragma: no cover - defensive
        raise parameter_error(name, owner, f"a 1-D array of {what}", type(X).__name__) from None
    if arr.ndim != 1:
        raise parameter_error(name, owner, f"a 1-D array of {what}", f"an array of shape {arr.shape}")
    if arr.size == 0:
        return arr.astype(np.int64)
    if not np.issubdtype(arr.dtype, np.integer):
        raise parameter_error(name, owner, f"integer {what}", f"dtype {arr.dtype}")
    if arr.min() < 0 or arr.max() >= n_points:
        bad = int(arr[(arr < 0) | (arr >= n_points)][0])
        raise parameter_error(name, owner, f"{what} in [0, {n_points})", bad)
    return arr.astype(np.int64)


def check_sample(X: Any, y: Any, n_points: int, num_labels: int, owner: str) -> tuple[np.ndarray, np.ndarray]:
    """Validated ``(X, y)``: point indices and one label in ``range(num_labels)`` per example."""
    X = check_points(X, n_points, owner)
    labels = check_points(y, num_labels, owner, name="y", what="labels")
    if labels.shape != X.shape:
        raise parameter_error("y", owner, f"one label per example ({X.shape[0]})", f"{labels.shape[0]} labels")
    return X, labels


def check_indices(X: Any, n_points: int, owner: str, name: str = "X") -> np.ndarray:
    """Point indices of a k-labelled database (the k-learners' message shape)."""
    X = np.asarray(X)
    if X.ndim != 1 or (X.size and not np.issubdtype(X.dtype, np.integer)):
        raise parameter_error(name, owner, "a 1-d array of point indices", getattr(X, "shape", X))
    if X.size and (X.min() < 0 or X.max() >= n_points):
        bad = int(X.min() if X.min() < 0 else X.max())
        raise parameter_error(name, owner, f"point indices in [0, {n_points})", bad)
    return X.astype(np.int64)


def check_label_matrix(Y: Any, m: int, owner: str) -> np.ndarray:
    """An ``(m, k)`` 0/1 label matrix (column ``j`` = concept ``j``); a 1-d vector is one concept."""
    Y = np.asarray(Y)
    if Y.ndim == 1:
        Y = Y.reshape(-1, 1)
    if Y.ndim != 2 or Y.shape[0] != m or Y.shape[1] == 0:
        raise parameter_error("Y", owner, f"an (m, k) 0/1 label matrix with m = {m} rows and k >= 1", Y.shape)
    if not np.issubdtype(Y.dtype, np.integer) and Y.dtype != np.bool_:
        raise parameter_error("Y", owner, "an integer 0/1 label matrix", str(Y.dtype))
    if Y.size and (Y.min() < 0 or Y.max() > 1):
        raise parameter_error("Y", owner, "binary labels 0/1 (one column per concept)", int(Y.max()))
    return Y.astype(np.int64)


# ---------------------------------------------------------------------------- error counts
def error_counts(table: np.ndarray, X: np.ndarray, y: np.ndarray, num_labels: int) -> np.ndarray:
    """Number of examples each row of ``table`` mislabels: ``n - sum_x count[x, h(x)]``.

    ``y`` is one label per example (result: one count per row) or an ``(m, k)`` label
    matrix (result: ``(rows, k)``, column ``j`` for label column ``j``).  Linear in
    ``rows * points`` (a count table over (point, label) first).  The exponential
    mechanism's score is minus this count (sensitivity 1, BNS Prop 21).

    Examples
    --------
    >>> table = np.array([[0, 1], [1, 1]])
    >>> error_counts(table, np.array([0, 0, 1]), np.array([0, 0, 1]), 2).tolist()
    [0, 2]
    >>> error_counts(table, np.array([0, 1]), np.array([[0, 1], [1, 1]]), 2).tolist()
    [[0, 1], [1, 0]]
    """
    y = np.asarray(y)
    if y.ndim == 2:
        return np.stack([error_counts(table, X, y[:, j], num_labels) for j in range(y.shape[1])], axis=1)
    n_points = table.shape[1]
    counts = np.bincount(X * num_labels + y, minlength=n_points * num_labels).reshape(n_points, num_labels)
    agreements = counts[np.arange(n_points)[None, :], table].sum(axis=1)
    return X.shape[0] - agreements


# ---------------------------------------------------------------------------- privacy accounting
def report_number(x: Number) -> Number:
    """A float when that is exact (``Fraction(1, 2) -> 0.5``), else the exact Fraction (never rounded down)."""
    if isinstance(x, Fraction):
        f = float(x)
        return f if Fraction(f) == x else x
    return x


@dataclass(frozen=True)
class Privacy:
    """The privacy a fit is proven to satisfy, with how it was composed (one accounting for every learner).

    Attributes
    ----------
    epsilon, delta : number
        The guarantee.
    how : str
        The mechanism or composition rule, with its source.
    parts : tuple of Privacy
        What was composed.

    Examples
    --------
    >>> step = Privacy.mechanism(Fraction(1, 4), 0, "exponential mechanism (BNS Prop 21)")
    >>> Privacy.basic(step, step, step, step).pair
    (1.0, 0.0)
    >>> Privacy.parallel(step, Privacy.mechanism(0.5, 0, "x")).pair
    (0.5, 0.0)
    """

    epsilon: Number
    delta: Number
    how: str
    parts: tuple = field(default=(), compare=False)

    @staticmethod
    def mechanism(epsilon: Number, delta: Number, how: str) -> Privacy:
        return Privacy(epsilon, delta, how)

    @staticmethod
    def basic(*parts: Privacy, how: str = "basic composition (BNS Thm 17.1)") -> Privacy:
        """``(sum epsilon_i, sum delta_i)`` (BNS Thm 17.1), summed exactly."""
        eps = sum((as_fraction(p.epsilon) for p in parts), Fraction(0))
        delta = sum((as_fraction(p.delta) for p in parts), Fraction(0))
        return Privacy(eps, delta, how, tuple(parts))

    @staticmethod
    def advanced(part: Privacy, k: int, delta_prime: Number) -> Privacy:
        """``k`` runs of a pure ``epsilon_0``-DP step: ``(sqrt(2k ln(1/delta')) e0 + 2k e0^2, delta')`` (BNS Thm 17.2).

        Needs ``0 < e0 < 1`` and ``0 < delta' < 1`` (the theorem's range).
        """
        e0 = float(part.epsilon)
        if not (0 < e0 < 1 and 0 < float(delta_prime) < 1) or part.delta:
            raise InvalidParameterError(
                "advanced composition (BNS Thm 17.2) needs pure steps with 0 < epsilon_0 < 1 "
                f"and 0 < delta' < 1; got epsilon_0 = {e0:g}, delta' = {float(delta_prime):g}"
            )
        total = math.sqrt(2 * k * math.log(1 / float(delta_prime))) * e0 + 2 * k * e0 * e0
        return Privacy(math.nextafter(total, math.inf), delta_prime, "advanced composition (BNS Thm 17.2)", (part,) * k)

    @staticmethod
    def parallel(*parts: Privacy) -> Privacy:
        """Disjoint parts of the sample: the largest ``(epsilon, delta)`` (BGS Claim 3.2)."""
        eps = max(as_fraction(p.epsilon) for p in parts)
        delta = max(as_fraction(p.delta) for p in parts)
        return Privacy(eps, delta, "parallel composition (BGS Claim 3.2)", tuple(parts))

    def scaled(self, noise_multiplier: Number) -> Privacy:
        """The guarantee when every noise scale is multiplied by ``noise_multiplier`` (audits)."""
        if noise_multiplier == 1:
            return self
        return Privacy(
            as_fraction(self.epsilon) / as_fraction(noise_multiplier),
            self.delta,
            f"{self.how}, noise x {noise_multiplier}",
            self.parts,
        )

    @property
    def pair(self) -> tuple:
        """``(epsilon, delta)`` as numbers: floats when exact, else exact Fractions (never rounded down)."""

        def out(x: Number) -> Number:
            return x if isinstance(x, float) else report_number(as_fraction(x))

        delta = out(self.delta)
        return out(self.epsilon), (0.0 if delta == 0 else delta)


# ---------------------------------------------------------------------------- the base class
class PrivateLearner:
    """Base of every learner in :mod:`dimcalc.learners` (see the module docstring for the conventions).

    Subclasses define ``__init__`` (storing keyword-only parameters), ``_validate()``
    (returning the checked parameters), ``fit`` (calling :meth:`_start_fit` and recording
    ``self.privacy_``), ``predict``, ``_privacy_claim(params)`` (the guarantee before a fit)
    and ``required_sample_size``.
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._owner = cls.__name__

    # ---- parameters
    @classmethod
    def _param_names(cls) -> list[str]:
        sig = inspect.signature(cls.__init__)
        return [p.name for p in sig.parameters.values() if p.name != "self" and p.kind != p.VAR_KEYWORD]

    def get_params(self, deep: bool = True) -> dict:
        """The constructor's parameters as stored (scikit-learn's ``get_params``)."""
        return {name: getattr(self, name) for name in self._param_names()}

    def set_params(self, **params: Any) -> PrivateLearner:
        """Set constructor parameters (validated at the next ``fit``); returns ``self``."""
        valid = set(self._param_names())
        for name, value in params.items():
            if name not in valid:
                raise parameter_error(name, f"{self._owner}.set_params", f"one of {sorted(valid)}", name)
            setattr(self, name, value)
        return self

    def __repr__(self) -> str:
        shown = []
        for name, value in self.get_params().items():
            if isinstance(value, (HypothesisClass, np.random.Generator)):
                text = f"<{type(value).__name__}>"
            elif isinstance(value, (list, tuple, np.ndarray)) and len(value) > 4:
                text = f"<{len(value)} items>"
            else:
                text = repr(value)
            shown.append(f"{name}={text}")
        return f"{type(self).__name__}({', '.join(shown)})"

    # ---- shared parameter handling
    def _check_common(self, owner: str) -> dict:
        """epsilon, noise (from ``noise`` or the former ``backend``), noise_multiplier, the random state."""
        out = {"epsilon": check_epsilon(self.epsilon, owner)}
        noise = getattr(self, "noise", "opendp")
        backend = getattr(self, "backend", None)
        if backend is not None:
            if backend not in NOISE_SOURCES:
                raise parameter_error("backend", owner, "'opendp' or 'exact'", backend)
            noise = backend
        if not (
            noise in ("opendp", "exact", "numpy")
            or (hasattr(noise, "discrete_laplace") and hasattr(noise, "exponential_mechanism"))
        ):
            raise parameter_error("noise", owner, "'opendp', 'exact' or a noise source", noise)
        out["noise"] = noise
        out["noise_multiplier"] = check_positive(getattr(self, "noise_multiplier", 1), "noise_multiplier", owner)
        random_state = getattr(self, "random_state", None)
        rng = getattr(self, "rng", None)
        name = "random_state"
        if random_state is None and rng is not None:
            random_state, name = rng, "rng"
        out["generator"] = check_random_state(random_state, owner, name)
        return out

    def _noise_source(self, params: dict) -> NoiseSource:
        return make_noise(params["noise"], params["generator"], self._owner)

    # ---- fitted state
    def _check_is_fitted(self, method: str = "predict") -> None:
        if not hasattr(self, "privacy_"):
            raise NotFittedError(
                f"{self._owner}.{method}: this {self._owner} is not fitted yet; call fit(X, y) before {method}"
            )

    @property
    def fitted_(self) -> bool:
        """True once ``fit`` has succeeded."""
        return hasattr(self, "privacy_")

    # ---- privacy, accounted in one place
    @property
    def privacy_spent(self) -> tuple:
        """``(epsilon, delta)`` the last ``fit`` is proven to satisfy; before a fit, what every fit satisfies.

        Computed from :class:`Privacy` records (BNS Thm 17, BGS Claim 3.2) and divided by
        ``noise_multiplier`` (audits only).
        """
        if hasattr(self, "privacy_"):
            account = self.privacy_
        else:
            account = self._privacy_claim(self._validate())
        multiplier = getattr(self, "noise_multiplier", 1)
        return account.scaled(multiplier).pair

    def _privacy_claim(self, params: dict) -> Privacy:  # pragma: no cover - overridden
        raise NotImplementedError

    def _validate(self) -> dict:  # pragma: no cover - overridden
        raise NotImplementedError


#: Former name of the single-concept learners' base (kept for imports).
PrivateLearnerMixin = PrivateLearner
