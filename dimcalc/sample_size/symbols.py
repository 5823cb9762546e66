"""The sympy symbols the sample-size bounds are written in, and exact numbers for them.

``log_size`` is ``ln |C|``, ``domain_size`` is ``|X|``, ``d`` a VC-type dimension,
``alpha`` accuracy, ``beta`` failure probability, ``(epsilon, delta)`` privacy, ``k``
the number of concepts learned at once (BNS Def 4), ``c`` the unspecified ``O(.)``
constant and ``n`` (in a :class:`~dimcalc.sample_size.Condition`) the bound's own
number of samples.

Examples
--------
>>> symbol("alpha") is ALPHA
True
>>> to_sympy_number(0.5), to_sympy_number(3)
(0.500000000000000000000000000000, 3)
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import sympy as sp

__all__ = [
    "ALPHA",
    "BETA",
    "EPSILON",
    "DELTA",
    "K",
    "D",
    "LOG_SIZE",
    "DOMAIN_SIZE",
    "ORDER_CONSTANT",
    "NUM_LABELS",
    "SAMPLES",
]

ALPHA = sp.Symbol("alpha", positive=True)
BETA = sp.Symbol("beta", positive=True)
EPSILON = sp.Symbol("epsilon", positive=True)
DELTA = sp.Symbol("delta", positive=True)
K = sp.Symbol("k", positive=True, integer=True)
D = sp.Symbol("d", nonnegative=True, integer=True)
LOG_SIZE = sp.Symbol("log_size", nonnegative=True)  # ln |C|
DOMAIN_SIZE = sp.Symbol("domain_size", positive=True, integer=True)  # |X|
ORDER_CONSTANT = sp.Symbol("c", positive=True)  # the unspecified O(.) constant
NUM_LABELS = sp.Symbol("num_labels", positive=True, integer=True)  # k + 1 labels
SAMPLES = sp.Symbol("n", positive=True)  # in a Condition: the bound's own number of samples

_SYMBOLS = {s.name: s for s in (ALPHA, BETA, EPSILON, DELTA, K, D, LOG_SIZE, DOMAIN_SIZE, ORDER_CONSTANT, NUM_LABELS)}


def symbol(name: str, **assumptions: Any) -> sp.Symbol:
    """The symbol called ``name``: a predefined one, else a new one (positive unless ``assumptions`` say otherwise).

    Parameters
    ----------
    name : str
        The symbol's name, e.g. ``"repdim"``.
    **assumptions
        sympy assumptions for a symbol not defined yet (default ``positive=True``).

    Returns
    -------
    sympy.Symbol
        The same object on every call with this name.

    Examples
    --------
    >>> symbol("repdim", nonnegative=True) is symbol("repdim")
    True
    """
    if name in _SYMBOLS:
        return _SYMBOLS[name]
    s = sp.Symbol(name, **(assumptions or {"positive": True}))
    _SYMBOLS[name] = s
    return s


def to_sympy_number(v: Any) -> sp.Expr:
    """A value as an exact sympy number (ints stay integers, floats keep their binary value, 30 digits).

    Parameters
    ----------
    v : int, float, Fraction or sympy number

    Returns
    -------
    sympy.Expr

    Examples
    --------
    >>> from fractions import Fraction
    >>> to_sympy_number(Fraction(1, 3))
    1/3
    """
    if isinstance(v, sp.Basic):
        return v
    if isinstance(v, (int,)) and not isinstance(v, bool):
        return sp.Integer(v)
    if isinstance(v, Fraction):
        return sp.Rational(v.numerator, v.denominator)
    return sp.Float(v, 30)


def substitute(expr: sp.Expr, values: Mapping[str, Any], extra: Mapping[sp.Symbol, sp.Expr] | None = None) -> sp.Expr:
    """``expr`` with every symbol that has a value in ``values`` (by name) replaced by it, exactly.

    Parameters
    ----------
    expr : sympy.Expr or relational
    values : mapping
        Symbol name -> number (see :func:`to_sympy_number`).
    extra : mapping, optional
        Symbol -> number substituted as well.

    Returns
    -------
    sympy.Expr
        Not evaluated: symbols without a value stay.

    Examples
    --------
    >>> substitute(ALPHA * BETA, {"alpha": 2})
    2*beta
    """
    subs = {s: to_sympy_number(values[s.name]) for s in expr.free_symbols if s.name in values}
    if extra:
        subs.update(extra)
    return expr.xreplace(subs)
