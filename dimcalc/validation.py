"""Parameter validation at the public boundary, in the spirit of scikit-learn's ``_param_validation``.

Every public function checks its parameters once, on entry, with one call per
parameter, and passes normalised values inward.  Every validator takes its
arguments in one order, ``check_x(value, name, owner, ...)``, and refuses a bad
value with dimcalc's one message shape (:func:`dimcalc.errors.parameter_error`)::

    The 'time_limit' parameter of vc_dimension must be a positive number of seconds or None. Got 'x' instead.

The rules shared by every validator:

* a ``bool`` is never a number (``True`` is not the int ``1`` here), nor a NumPy ``bool_``;
* NumPy integers are ints, NumPy floats are floats;
* NaN and infinities are refused where a finite number is wanted;
* exact numbers (``Fraction``, and text such as ``"1/3"`` where ``text=True``)
  are read by :mod:`dimcalc._params`, on which this module builds.

Layering: this module imports :class:`~dimcalc.HypothesisClass` (for
:func:`check_hypothesis_class`), so :mod:`dimcalc.classes.hypothesis_class` itself reads
numbers with :mod:`dimcalc._params` (:func:`is_int`, :func:`exact_number`), which
imports nothing of dimcalc but its errors.

Examples
--------
>>> check_int(3, "n", "f", 1)
3
>>> check_number("1/3", "alpha", "f", "(0, 1)", text=True)
Fraction(1, 3)
>>> check_int(True, "n", "f", 1)
Traceback (most recent call last):
...
dimcalc.errors.InvalidParameterError: The 'n' parameter of f must be an int >= 1. Got True instead.
"""

from __future__ import annotations

import functools
import math
import operator
import re
from collections.abc import Collection
from fractions import Fraction
from typing import Any

import numpy as np

from ._params import Number, check_epsilon, exact_number, is_int
from .classes.hypothesis_class import HypothesisClass
from .errors import parameter_error

__all__ = [
    "CLASS_REQUIREMENT",
    "is_int",
    "check_hypothesis_class",
    "check_int",
    "check_number",
    "check_epsilon",
    "check_bool",
    "check_option",
    "check_time_limit",
    "check_jobs",
    "check_jobs_or_auto",
]

#: What :func:`check_hypothesis_class` asks for (one wording for every function taking a class).
CLASS_REQUIREMENT = "a dimcalc.HypothesisClass"


def check_hypothesis_class(H: Any, owner: str, name: str = "H") -> HypothesisClass:
    """``H`` itself if it is a :class:`~dimcalc.HypothesisClass`, else an error naming its type.

    Parameters
    ----------
    H : object
        The value passed for the class.
    owner : str
        The public function (or class) that takes it, named in the message.
    name : str, default "H"
        The parameter's name, named in the message.

    Returns
    -------
    HypothesisClass
        ``H``, unchanged.

    Raises
    ------
    InvalidParameterError
        If ``H`` is not a :class:`~dimcalc.HypothesisClass`.

    Examples
    --------
    >>> H = HypothesisClass.from_table([[0, 1]])
    >>> check_hypothesis_class(H, "f") is H
    True
    >>> check_hypothesis_class([[0, 1]], "f")
    Traceback (most recent call last):
    ...
    dimcalc.errors.InvalidParameterError: The 'H' parameter of f must be a dimcalc.HypothesisClass. Got 'list' instead.
    """
    if not isinstance(H, HypothesisClass):
        raise parameter_error(name, owner, CLASS_REQUIREMENT, type(H).__name__)
    return H


def check_int(
    value: Any,
    name: str,
    owner: str,
    low: int | None = None,
    high: int | None = None,
    *,
    requirement: str | None = None,
) -> int:
    """An integer parameter in ``[low, high]`` (either end may be open-ended), as a plain ``int``.

    Parameters
    ----------
    value : object
        The value given; ``int`` or anything with ``__index__`` (NumPy integers), never a bool.
    name, owner : str
        Parameter and public function named in the message.
    low, high : int or None
        Inclusive bounds; ``None`` for no bound.
    requirement : str, optional
        The message's requirement, when a function states it in its own words
        (default ``"an int in [low, high]"``, ``"an int >= low"``, ``"an int <= high"`` or ``"an int"``).

    Returns
    -------
    int
        ``value`` as an ``int``.

    Raises
    ------
    InvalidParameterError
        If ``value`` is not an integer or lies outside ``[low, high]``.

    Examples
    --------
    >>> check_int(np.int64(4), "n", "f", 0, 4)
    4
    >>> check_int(5, "n", "f", 0, 4)
    Traceback (most recent call last):
    ...
    dimcalc.errors.InvalidParameterError: The 'n' parameter of f must be an int in [0, 4]. Got 5 instead.
    """
    if requirement is None:
        if low is not None and high is not None:
            requirement = f"an int in [{low}, {high}]"
        elif low is not None:
            requirement = f"an int >= {low}"
        elif high is not None:
            requirement = f"an int <= {high}"
        else:
            requirement = "an int"
    if isinstance(value, (bool, np.bool_)):
        raise parameter_error(name, owner, requirement, value)
    try:
        number = operator.index(value)
    except TypeError:
        raise parameter_error(name, owner, requirement, value) from None
    if (low is not None and number < low) or (high is not None and number > high):
        raise parameter_error(name, owner, requirement, value)
    return int(number)


_INTERVAL = re.compile(r"^\s*([\[(])\s*([^,\s]+)\s*,\s*([^\]\s)]+)\s*([\])])\s*$")


@functools.lru_cache(maxsize=64)
def _interval(text: str) -> tuple[Fraction | float, Fraction | float, bool, bool]:
    """``(low, high, low_closed, high_closed)`` of an interval written ``"(0, 1]"``, ``"[0, inf)"``, ..."""
    match = _INTERVAL.match(text)
    if match is None:
        raise ValueError(f"not an interval: {text!r}")
    left, low, high, right = match.groups()

    def bound(t: str) -> Fraction | float:
        return math.inf if t == "inf" else -math.inf if t == "-inf" else Fraction(t)

    return bound(low), bound(high), left == "[", right == "]"


def check_number(
    value: Any,
    name: str,
    owner: str,
    interval: str = "(-inf, inf)",
    *,
    text: bool = False,
    kind: str = "a number",
) -> Number:
    """A real parameter in ``interval``, read exactly (see :mod:`dimcalc._params`).

    Parameters
    ----------
    value : object
        ``int``, ``float`` or ``Fraction`` (NumPy numbers too); with ``text``, also a
        string such as ``"1/3"`` or ``"1e-6"``, read exactly.  Never a bool, NaN or an infinity.
    name, owner : str
        Parameter and public function named in the message.
    interval : str, default "(-inf, inf)"
        The allowed range as it reads in the message: ``"(0, 1)"``, ``"[0, 1)"``, ``"(0, inf)"``, ...
        (bounds are ``inf``, ``-inf`` or exact numbers such as ``1/2``).
    text : bool, default False
        Whether text is read as a number.
    kind : str, default "a number"
        What the message calls the value (e.g. ``"a float"``): the requirement is ``f"{kind} in {interval}"``.

    Returns
    -------
    int, float or Fraction
        The value (exact when it was text).

    Raises
    ------
    InvalidParameterError
        If ``value`` is not a finite real number in ``interval``.

    Examples
    --------
    >>> check_number(0.25, "alpha", "f", "(0, 1)")
    0.25
    >>> check_number(0, "delta", "f", "[0, 1)")
    0
    >>> check_number(1, "alpha", "f", "(0, 1)", kind="a float")
    Traceback (most recent call last):
    ...
    dimcalc.errors.InvalidParameterError: The 'alpha' parameter of f must be a float in (0, 1). Got 1 instead.
    """
    requirement = f"{kind} in {interval}"
    low, high, low_closed, high_closed = _interval(interval)
    number = exact_number(value, name, owner, requirement, text=text)
    above = number >= low if low_closed else number > low
    below = number <= high if high_closed else number < high
    if not (above and below):
        raise parameter_error(name, owner, requirement, value)
    return number


def check_bool(value: Any, name: str, owner: str) -> bool:
    """A flag: ``True`` or ``False`` (a NumPy ``bool_`` too), never ``0``, ``1`` or ``None``.

    Parameters
    ----------
    value : object
        The value given.
    name, owner : str
        Parameter and public function named in the message.

    Returns
    -------
    bool
        ``value`` as a plain ``bool``.

    Raises
    ------
    InvalidParameterError
        If ``value`` is not a boolean.

    Examples
    --------
    >>> check_bool(np.bool_(True), "uniform", "f")
    True
    >>> check_bool(1, "uniform", "f")
    Traceback (most recent call last):
    ...
    dimcalc.errors.InvalidParameterError: The 'uniform' parameter of f must be True or False. Got 1 instead.
    """
    if not isinstance(value, (bool, np.bool_)):
        raise parameter_error(name, owner, "True or False", value)
    return bool(value)


def check_option(value: Any, name: str, owner: str, options: Collection[Any]) -> Any:
    """One of a fixed set of ``options`` (scikit-learn's ``StrOptions``).

    Parameters
    ----------
    value : object
        The value given.
    name, owner : str
        Parameter and public function named in the message.
    options : collection
        The allowed values, listed in the message in their order.

    Returns
    -------
    object
        ``value``, unchanged.

    Raises
    ------
    InvalidParameterError
        If ``value`` is not one of ``options``.

    Examples
    --------
    >>> check_option("all", "pool", "f", ("all", "class"))
    'all'
    >>> check_option("some", "pool", "f", ("all", "class"))
    Traceback (most recent call last):
    ...
    dimcalc.errors.InvalidParameterError: The 'pool' parameter of f must be one of 'all', 'class'. Got 'some' instead.
    """
    if isinstance(value, (bool, np.bool_)) or value not in options:
        raise parameter_error(name, owner, "one of " + ", ".join(repr(o) for o in options), value)
    return value


def check_time_limit(time_limit: Any, owner: str, name: str = "time_limit") -> float | None:
    """A time limit: a positive finite number of seconds, or ``None`` for no limit.

    Parameters
    ----------
    time_limit : object
        Seconds (``int`` or ``float``, never a bool), or ``None``.
    owner : str
        The public function named in the message.
    name : str, default "time_limit"
        The parameter's name.

    Returns
    -------
    float or None
        The limit in seconds as a ``float``, or ``None``.

    Raises
    ------
    InvalidParameterError
        If ``time_limit`` is not ``None`` and not a positive finite number.

    Examples
    --------
    >>> check_time_limit(2, "f"), check_time_limit(None, "f")
    (2.0, None)
    >>> check_time_limit(0, "f")
    Traceback (most recent call last):
    ...
    dimcalc.errors.InvalidParameterError: The 'time_limit' parameter of f must be a positive finite number of seconds or None. Got 0 instead.
    """
    if time_limit is None:
        return None
    if isinstance(time_limit, (bool, np.bool_)) or not isinstance(time_limit, (int, float, np.integer, np.floating)):
        raise parameter_error(name, owner, "a positive number of seconds or None", time_limit)
    if not (time_limit > 0) or not math.isfinite(time_limit):
        raise parameter_error(name, owner, "a positive finite number of seconds or None", time_limit)
    return float(time_limit)


def check_jobs(jobs: Any, owner: str, name: str = "jobs") -> int:
    """A number of worker processes: an int >= 1.

    Parameters
    ----------
    jobs : object
        The value given.
    owner : str
        The public function named in the message.
    name : str, default "jobs"
        The parameter's name.

    Returns
    -------
    int
        ``jobs`` as an ``int``.

    Raises
    ------
    InvalidParameterError
        If ``jobs`` is not an int >= 1.

    Examples
    --------
    >>> check_jobs(2, "f")
    2
    >>> check_jobs(0, "f")
    Traceback (most recent call last):
    ...
    dimcalc.errors.InvalidParameterError: The 'jobs' parameter of f must be a positive int. Got 0 instead.
    """
    return check_int(jobs, name, owner, 1, requirement="a positive int")


def check_jobs_or_auto(jobs: Any, owner: str, name: str = "jobs") -> int | None:
    """A number of workers as :func:`check_jobs`, or ``None``: the solver's own choice of cores (see the solver).

    Parameters
    ----------
    jobs : object
        The value given.
    owner : str
        The public function named in the message.
    name : str, default "jobs"
        The parameter's name.

    Returns
    -------
    int or None
        ``jobs`` as an ``int``, or ``None``.

    Raises
    ------
    InvalidParameterError
        If ``jobs`` is neither ``None`` nor an int >= 1.

    Examples
    --------
    >>> check_jobs_or_auto(None, "f") is None, check_jobs_or_auto(2, "f")
    (True, 2)
    """
    return None if jobs is None else check_jobs(jobs, owner, name)
