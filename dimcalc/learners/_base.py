"""Shared plumbing of the finite-class learners: validation, error counts, prediction."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..errors import parameter_error
from ..hypothesis_class import HypothesisClass
from .mechanisms import BACKENDS

__all__ = ["check_class", "check_epsilon", "check_rng", "check_backend", "check_sample", "check_points",
           "error_counts", "PrivateLearnerMixin"]


def check_class(H: Any, owner: str, name: str = "hypothesis_class") -> HypothesisClass:
    if not isinstance(H, HypothesisClass):
        raise parameter_error(name, owner, "a dimcalc.HypothesisClass", type(H).__name__)
    return H


def check_epsilon(epsilon: Any, owner: str) -> float:
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)) or not (0 < epsilon < math.inf):
        raise parameter_error("epsilon", owner, "a float in (0, inf)", epsilon)
    return float(epsilon)


def check_rng(rng: Any, owner: str) -> np.random.Generator:
    if rng is None:
        return np.random.default_rng()
    if not isinstance(rng, np.random.Generator):
        raise parameter_error("rng", owner, "a numpy.random.Generator or None", type(rng).__name__)
    return rng


def check_backend(backend: Any, owner: str) -> str:
    if backend not in BACKENDS:
        raise parameter_error("backend", owner, "'opendp' or 'exact'", backend)
    return backend


def check_noise_multiplier(value: Any, owner: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not (0 < value < math.inf):
        raise parameter_error("noise_multiplier", owner, "a float in (0, inf)", value)
    return float(value)


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


def error_counts(table: np.ndarray, X: np.ndarray, y: np.ndarray, num_labels: int) -> np.ndarray:
    """Number of examples each row of ``table`` mislabels: ``n - sum_x count[x, h(x)]``.

    Linear in ``rows * points`` (a count table over (point, label) first).  The
    exponential mechanism's score is minus this count (sensitivity 1, BNS Prop 21).

    Examples
    --------
    >>> table = np.array([[0, 1], [1, 1]])
    >>> error_counts(table, np.array([0, 0, 1]), np.array([0, 0, 1]), 2).tolist()
    [0, 2]
    """
    n_points = table.shape[1]
    counts = np.zeros((n_points, num_labels), dtype=np.int64)
    np.add.at(counts, (X, y), 1)
    agreements = counts[np.arange(n_points)[None, :], table].sum(axis=1)
    return X.shape[0] - agreements


class PrivateLearnerMixin:
    """Common attributes: ``epsilon``, ``delta``, ``privacy_spent``, fitted-state checks."""

    epsilon: float
    delta: float = 0.0
    noise_multiplier: float = 1.0

    @property
    def privacy_spent(self) -> tuple[float, float]:
        """``(epsilon, delta)`` this learner's ``fit`` spends on its private sample."""
        return (self.epsilon / self.noise_multiplier, self.delta)

    def _check_fitted(self, owner: str) -> None:
        if not getattr(self, "fitted_", False):
            raise parameter_error("self", owner, "a fitted learner (call fit first)", "an unfitted learner")
