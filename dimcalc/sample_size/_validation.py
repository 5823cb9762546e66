"""Parameter checks of the sample-size calculators, by parameter name, with one message shape.

Every calculator validates its parameters with one call of :func:`checked_values`, which
applies the rule of each parameter's name (``alpha`` in (0, 1), ``epsilon`` > 0, ``k`` an
int >= 1, ...) in the order given and returns the dict of values the bound is evaluated at,
keyed by the bound's symbol names (``vc`` -> ``d``, ``order_constant`` -> ``c``).  Numbers are
read exactly (:func:`dimcalc._params.exact_number`); errors are
:func:`dimcalc.errors.parameter_error`'s ("The 'alpha' parameter of f must be ...").

Examples
--------
>>> checked_values("f", vc=2, alpha=0.1, order_constant=1)
{'d': 2, 'alpha': 0.1, 'c': 1}
>>> checked_values("f", delta=0, zero_allowed=("delta",))
{'delta': 0}
>>> checked_values("f", alpha=1.5)
Traceback (most recent call last):
...
dimcalc.errors.InvalidParameterError: The 'alpha' parameter of f must be a float in (0, 1). Got 1.5 instead.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from .._params import Number, check_epsilon, exact_number
from ..errors import parameter_error
from ..validation import check_int

__all__ = ["checked_values", "check_unit", "check_positive", "check_nonnegative"]


def check_unit(name: str, owner: str, v: Any, *, closed_low: bool = False) -> Number:
    """``v`` in (0, 1), or in [0, 1) with ``closed_low``."""
    requirement = "a float in [0, 1)" if closed_low else "a float in (0, 1)"
    v = exact_number(v, name, owner, requirement, text=True)
    if not (0 < v < 1) and not (closed_low and v == 0):
        raise parameter_error(name, owner, requirement, v)
    return v


def check_positive(name: str, owner: str, v: Any) -> Number:
    """``v`` in (0, inf)."""
    v = exact_number(v, name, owner, "a float in (0, inf)", text=True)
    if not v > 0:
        raise parameter_error(name, owner, "a float in (0, inf)", v)
    return v


def check_nonnegative(name: str, owner: str, v: Any) -> Number:
    """``v`` in [0, inf)."""
    v = exact_number(v, name, owner, "a float in [0, inf)", text=True)
    if not v >= 0:
        raise parameter_error(name, owner, "a float in [0, inf)", v)
    return v


def _int_at_least(low: int) -> Callable[[str, str, Any], int]:
    return lambda name, owner, v: check_int(v, name, owner, low)


def _epsilon(name: str, owner: str, v: Any) -> Number:
    return check_epsilon(v, owner, name)


#: Parameter name -> (its key in ``SampleSizeBound.values``, its check).
_RULES: dict[str, tuple[str, Callable[[str, str, Any], Any]]] = {
    "alpha": ("alpha", check_unit),
    "beta": ("beta", check_unit),
    "delta": ("delta", check_unit),
    "epsilon": ("epsilon", _epsilon),
    "order_constant": ("c", check_positive),
    "log_size": ("log_size", check_nonnegative),
    "size": ("size", check_nonnegative),
    "repdim": ("repdim", check_nonnegative),
    "prdim": ("prdim", check_nonnegative),
    "k": ("k", _int_at_least(1)),
    "n_queries": ("n_queries", _int_at_least(1)),
    "iterations": ("iterations", _int_at_least(1)),
    "sanitizer_fraction": ("sanitizer_fraction", check_unit),
    "domain_size": ("domain_size", _int_at_least(1)),
    "num_labels": ("num_labels", _int_at_least(2)),
    "d": ("d", _int_at_least(1)),  # the dimension of {0,1}^d (parities)
    "vc": ("d", _int_at_least(0)),
    "littlestone": ("d", _int_at_least(0)),
    "multiclass_littlestone": ("d", _int_at_least(0)),
}


def checked_values(owner: str, /, *, zero_allowed: Collection[str] = (), **params: Any) -> dict[str, Any]:
    """Check ``params`` by the rule of each name, in the order given; the values a bound is evaluated at.

    Parameters
    ----------
    owner : str
        The calculator's name, for error messages.
    zero_allowed : collection of str
        Unit-interval parameters that may also be 0 (``delta = 0``: pure DP; ``alpha = 0``: exact).
    **params
        Parameter name -> value as given.

    Returns
    -------
    dict
        Symbol name (``d`` for ``vc``, ``c`` for ``order_constant``, else the parameter's
        name) -> the checked value (exact where it was text).

    Raises
    ------
    InvalidParameterError
        The first parameter (in the order given) that breaks its rule.

    Examples
    --------
    >>> checked_values("f", k=3, epsilon="1/3")
    {'k': 3, 'epsilon': Fraction(1, 3)}
    """
    values: dict[str, Any] = {}
    for name, v in params.items():
        key, check = _RULES[name]
        values[key] = check_unit(name, owner, v, closed_low=True) if name in zero_allowed else check(name, owner, v)
    return values
