"""Exact numbers at the public boundary: how dimcalc reads an ε (and other real parameters).

One rule everywhere an ε is taken (sample sizes, learners, mechanisms, audits,
representation dimension, and the CLI):

* a :class:`fractions.Fraction` or an ``int`` is exact;
* a ``str`` such as ``"1/3"``, ``"0.25"`` or ``"1e-6"`` is read **exactly** as the
  number its text names (``"0.1"`` is ``1/10``, ``"1/3"`` is one third) -- the CLI
  passes its options this way;
* a ``float`` is taken at **its own value**, the binary fraction it stores
  (``1/3`` typed as a float is ``6004799503160661/18014398509481984``, a hair under
  one third; ``0.1`` is a hair above ``1/10``).  Answers are exact at that value.
  To mean one third, pass ``Fraction(1, 3)`` or ``"1/3"``.

Examples
--------
>>> from fractions import Fraction
>>> exact_number("1/3", "epsilon", "f", text=True)
Fraction(1, 3)
>>> exact_number(0.5, "epsilon", "f") == Fraction(1, 2)
True
>>> exact_number(1 / 3, "epsilon", "f") < Fraction(1, 3)   # a float is its own value
True
>>> as_fraction(0.1) == Fraction(1, 10)
False
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np

from .errors import parameter_error

__all__ = ["Number", "is_int", "exact_number", "as_fraction", "check_epsilon", "float_up", "number_text"]

#: What :func:`exact_number` returns: the value as given, made exact where it was text.
Number = int | float | Fraction


def is_int(value: Any) -> bool:
    """Whether ``value`` is an integer (``int`` or a NumPy integer) and not a boolean.

    Parameters
    ----------
    value : object
        Anything.

    Returns
    -------
    bool
        ``True`` for ``3`` or ``np.int64(3)``; ``False`` for ``True``, ``3.0`` or ``"3"``.

    Examples
    --------
    >>> is_int(3), is_int(np.int8(3)), is_int(True), is_int(np.bool_(True)), is_int(3.0)
    (True, True, False, False, False)
    """
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def exact_number(value: Any, name: str, owner: str, requirement: str = "a number", *, text: bool = False) -> Number:
    """``value`` as an ``int``, ``float`` or ``Fraction`` (strings parsed exactly when ``text``).

    Refuses booleans, NaN, infinities and anything that is not a real number, with
    dimcalc's one-line message naming ``name`` and ``owner``.
    """
    if isinstance(value, (bool, np.bool_)):
        raise parameter_error(name, owner, requirement, value)
    if isinstance(value, np.integer):
        value = int(value)
    elif isinstance(value, np.floating):
        value = float(value)
    if isinstance(value, str):
        if not text:
            raise parameter_error(name, owner, requirement, value)
        try:
            return Fraction(value.strip())
        except (ValueError, ZeroDivisionError):
            raise parameter_error(name, owner, requirement, value) from None
    if isinstance(value, (int, Fraction)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise parameter_error(name, owner, requirement, value)
        return value
    raise parameter_error(name, owner, requirement, value)


def as_fraction(value: Number) -> Fraction:
    """The exact rational value of an ``int``, ``float`` (its binary value) or ``Fraction``."""
    return value if isinstance(value, Fraction) else Fraction(value)


def check_epsilon(value: Any, owner: str, name: str = "epsilon") -> Number:
    """A privacy parameter ε in ``(0, inf)``: int, float, Fraction or exact text like ``"1/3"``.

    Examples
    --------
    >>> check_epsilon("1/3", "f")
    Fraction(1, 3)
    >>> check_epsilon(0, "f")
    Traceback (most recent call last):
    ...
    dimcalc.errors.InvalidParameterError: The 'epsilon' parameter of f must be a number in (0, inf) (a float, a Fraction or text like '1/3'). Got 0 instead.
    """
    requirement = "a number in (0, inf) (a float, a Fraction or text like '1/3')"
    v = exact_number(value, name, owner, requirement, text=True)
    if not v > 0:
        raise parameter_error(name, owner, requirement, value)
    return v


def float_up(value: Number) -> float:
    """The least float ``>= value`` (so that a noise scale rounded to a float is never smaller).

    >>> float_up(Fraction(1, 3)) >= Fraction(1, 3)
    True
    """
    f = float(value)
    if isinstance(value, Fraction) and Fraction(f) < value:
        f = math.nextafter(f, math.inf)
    return f


def number_text(value: Number) -> str:
    """Short text for a number: decimals when exact (``0.1``), else the fraction (``1/3``).

    >>> number_text(Fraction(1, 10)), number_text(Fraction(1, 3)), number_text(0.25), number_text(2)
    ('0.1', '1/3', '0.25', '2')
    """
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return str(value.numerator)
        f = float(value)
        return repr(f) if Fraction(repr(f)) == value else f"{value.numerator}/{value.denominator}"
    return repr(value) if isinstance(value, float) else str(value)
