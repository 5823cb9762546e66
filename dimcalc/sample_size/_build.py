"""How every calculator builds its :class:`SampleSizeBound`: setting, range check, constants.

:func:`make_bound` is the one constructor the calculators call: it records the order
constant (``values["c"]``) of an ``O(.)`` bound, or none for explicit constants, and refuses
values outside the bound's conditions (:func:`enforce`: an :class:`OutOfRangeError` in
scikit-learn's message shape, naming the condition and the theorem).

Examples
--------
>>> from dimcalc.sample_size import ALPHA
>>> b = make_bound("f", "demo", 1 / ALPHA, {"alpha": 0.5}, "demo source", learning_setting("PAC", True, "none"), explicit=True)
>>> b.samples, b.order_constant
(2, None)
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Literal

import sympy as sp

from .._params import number_text
from .bound import Condition, OutOfRangeError, SampleSizeBound

__all__ = ["learning_setting", "make_bound", "enforce", "precheck"]

_TASKS = ("PAC", "agnostic")
_PRIVACY = ("pure", "approximate", "none")


def learning_setting(task: str, proper: bool, privacy: str, concepts: str = "single", data: str = "private") -> dict:
    """The ``setting`` dict of a bound (see :class:`SampleSizeBound`)."""
    assert task in _TASKS and privacy in _PRIVACY
    return {"task": task, "proper": proper, "privacy": privacy, "concepts": concepts, "data": data}


def enforce(bound: SampleSizeBound, owner: str) -> SampleSizeBound:
    """``bound`` if its theorem's conditions hold at its values, else :class:`OutOfRangeError`.

    Parameters
    ----------
    bound : SampleSizeBound
    owner : str
        The calculator's name, for the message.

    Returns
    -------
    SampleSizeBound
        ``bound`` itself.

    Examples
    --------
    >>> from dimcalc.sample_size import public_sample_lower_bound
    >>> enforce(public_sample_lower_bound(alpha=0.001), "g").in_range
    True
    """
    failed = bound.violations()
    if failed:
        first = failed[0]
        got = bound.values.get(first.parameter, "?")
        extra = "" if len(failed) == 1 else "; also " + "; ".join(str(c) for c in failed[1:])
        hint = ""
        if (
            isinstance(got, float)
            and Fraction(got) != Fraction(repr(got))
            and first.holds({**bound.values, first.parameter: Fraction(repr(got))}) is True
        ):
            side = "above" if Fraction(got) > Fraction(repr(got)) else "below"
            hint = (
                f" (a float is taken at its binary value, a hair {side} {got!r}: pass Fraction or the text "
                f"'{got!r}' to mean it exactly)"
            )
        raise OutOfRangeError(
            f"The {first.parameter!r} parameter of {owner} must satisfy {first.text} "
            f"({first.source}: the range {bound.source.split(' (')[0]} is stated for){extra}. "
            f"Got {number_text(got) if not isinstance(got, str) else got}{hint} instead.",
            bound,
            failed,
        )
    return bound


def make_bound(
    owner: str,
    name: str,
    expression: sp.Expr,
    values: dict,
    source: str,
    setting: dict,
    *,
    kind: Literal["upper", "lower"] = "upper",
    explicit: bool = False,
    notes: tuple = (),
    conditions: tuple[Condition, ...] = (),
) -> SampleSizeBound:
    """A bound of ``owner``, refused (:func:`enforce`) outside its ``conditions``.

    ``explicit=False`` (an ``O(.)`` / ``Omega(.)`` bound): its order constant is ``values["c"]``.

    Parameters
    ----------
    owner : str
        The calculator's name, for error messages.
    name, expression, values, source, setting, kind, notes, conditions
        As the fields of :class:`SampleSizeBound`.
    explicit : bool
        ``constants_explicit``.

    Returns
    -------
    SampleSizeBound
    """
    bound = SampleSizeBound(
        name=name,
        expression=expression,
        values=values,
        source=source,
        setting=setting,
        constants_explicit=explicit,
        kind=kind,
        order_constant=None if explicit else values.get("c", 1),
        notes=notes,
        conditions=conditions,
    )
    return enforce(bound, owner)


def precheck(owner: str, values: Mapping[str, Any], source: str, *conditions: Condition) -> None:
    """Refuse ``values`` outside ``conditions`` before a bound is built (same message as :func:`enforce`).

    Examples
    --------
    >>> from dimcalc.sample_size import EPSILON
    >>> precheck("f", {"epsilon": 0.5}, "T", Condition(EPSILON <= 1, "T", "epsilon"))
    """
    make_bound(owner, owner, sp.Integer(0), dict(values), source, {}, explicit=True, conditions=conditions)
