"""Parameter and data checks of the learners and their mechanisms, validated once at the boundary.

Every check returns the normalised value or raises dimcalc's one-line
:class:`~dimcalc.errors.InvalidParameterError` (scikit-learn's message shape: "The 'x'
parameter of f must be ... Got ... instead.").  Nothing here imports the rest of
:mod:`dimcalc.learners`, so the mechanisms and the learners can both use it.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from .._params import Number, exact_number
from ..classes.hypothesis_class import HypothesisClass
from ..errors import InvalidParameterError, parameter_error
from ..validation import check_hypothesis_class

__all__ = [
    "check_class",
    "check_delta",
    "check_unit",
    "check_positive",
    "check_count",
    "check_real",
    "check_sample",
    "check_points",
    "check_indices",
    "check_label_matrix",
    "check_nonempty",
]

#: The types :func:`check_real` takes by default (numpy scalars as well as Python numbers).
REALS: tuple[type, ...] = (int, float, Fraction, np.integer, np.floating)


# ---------------------------------------------------------------------------- numbers
def check_class(H: Any, owner: str, name: str = "hypothesis_class") -> HypothesisClass:
    """``H`` if it is a :class:`~dimcalc.classes.hypothesis_class.HypothesisClass` (a learner's parameter name by default)."""
    return check_hypothesis_class(H, owner, name)


def check_delta(delta: Any, owner: str, *, allow_zero: bool = True) -> Number:
    """A privacy parameter ``delta`` in ``[0, 1)`` (``(0, 1)`` without ``allow_zero``), exact."""
    requirement = "a number in [0, 1)" if allow_zero else "a number in (0, 1)"
    v = exact_number(delta, "delta", owner, requirement, text=True)
    if not ((0 <= v < 1) if allow_zero else (0 < v < 1)):
        raise parameter_error("delta", owner, requirement, delta)
    return v


def _check_exact_in(value: Any, name: str, owner: str, requirement: str, upper: float) -> Number:
    v = exact_number(value, name, owner, requirement, text=True)  # "1/10" is exact, as the CLI reads it
    if not 0 < v < upper:
        raise parameter_error(name, owner, requirement, value)
    return v


def check_unit(value: Any, name: str, owner: str) -> Number:
    """A number in ``(0, 1)`` (an accuracy or confidence parameter), exact."""
    return _check_exact_in(value, name, owner, "a number in (0, 1)", 1)


def check_positive(value: Any, name: str, owner: str) -> Number:
    """A number in ``(0, inf)``, exact."""
    return _check_exact_in(value, name, owner, "a number in (0, inf)", math.inf)


def check_real(
    value: Any,
    name: str,
    owner: str,
    *,
    upper: float = math.inf,
    requirement: str | None = None,
    types: tuple[type, ...] = REALS,
) -> Any:
    """``value`` unchanged if it is a number of ``types`` (never a bool) in ``(0, upper)``.

    The default requirement is ``"a float in (0, upper)"``.

    >>> check_real(0.5, "alpha", "f", upper=1.0)
    0.5
    """
    number = isinstance(value, types) and not isinstance(value, bool)
    if not number or not (0 < value < upper):
        raise parameter_error(name, owner, requirement or f"a float in (0, {upper})", value)
    return value


def check_count(value: Any, name: str, owner: str, *, minimum: int = 1, requirement: str = "a positive int") -> int:
    """An ``int`` (Python or numpy, never a bool) of at least ``minimum``, as a Python int.

    >>> check_count(3, "k", "f")
    3
    """
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise parameter_error(name, owner, requirement, value)
    return int(value)


# ---------------------------------------------------------------------------- samples
def check_points(X: Any, n_points: int, owner: str, name: str = "X", what: str = "point indices") -> np.ndarray:
    """A 1-D int64 array of integers in ``range(n_points)`` (point indices, or labels with ``what="labels"``).

    Booleans are taken as 0/1 (a boolean class file's labels), and floats whose values
    are whole numbers as those integers (scikit-learn's tools hand over float arrays);
    any other float is refused with a message about its values.

    Examples
    --------
    >>> check_points([2, 0], 3, "f").tolist()
    [2, 0]
    >>> check_points(np.array([2.0, 0.0]), 3, "f").tolist()
    [2, 0]
    >>> check_points([True, False], 2, "f", name="y", what="labels").tolist()
    [1, 0]
    >>> check_points([0, 3], 3, "f", name="y", what="labels")
    Traceback (most recent call last):
    ...
    dimcalc.errors.InvalidParameterError: The 'y' parameter of f must be labels in [0, 3). Got 3 instead.
    >>> check_points([0.5], 3, "f")
    Traceback (most recent call last):
    ...
    dimcalc.errors.InvalidParameterError: The 'X' parameter of f must be whole-number point indices. Got 0.5 instead.
    """
    try:
        arr = np.asarray(X)
    except Exception:  # pragma: no cover - defensive
        raise parameter_error(name, owner, f"a 1-D array of {what}", type(X).__name__) from None
    if arr.ndim == 2 and arr.shape[1] == 1:  # a column, as scikit-learn's tools pass X
        arr = arr[:, 0]
    if arr.ndim != 1:
        raise parameter_error(name, owner, f"a 1-D array of {what}", f"an array of shape {arr.shape}")
    if arr.size == 0:
        return arr.astype(np.int64)
    if arr.dtype == np.bool_:
        arr = arr.astype(np.int64)
    elif np.issubdtype(arr.dtype, np.floating):
        finite = np.isfinite(arr)
        whole = finite & (arr == np.round(np.where(finite, arr, 0)))
        if not whole.all():
            bad = arr[~whole][0].item()
            raise parameter_error(name, owner, f"whole-number {what}", bad)
        arr = arr.astype(np.int64)
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
    check_nonempty(X, owner)  # a learner fitted on nothing would answer from its noise alone
    return X, labels


def check_indices(X: Any, n_points: int, owner: str, name: str = "X") -> np.ndarray:
    """Point indices of a k-labelled database (the k-learners' and the sanitizers' message shape)."""
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


def check_nonempty(X: np.ndarray, owner: str) -> None:
    """A k-learner's ``fit`` needs at least one example."""
    if X.shape[0] == 0:
        raise InvalidParameterError(f"{owner}: the sample is empty; give at least one example")
