"""A :class:`~dimcalc.results.DimensionResult` in a notebook: value or bounds, exactness, time, witness drawn.

Examples
--------
>>> from dimcalc import HypothesisClass, vc_dimension
>>> H = HypothesisClass([[0, 0], [0, 1], [1, 0], [1, 1]])
>>> html = result_html(vc_dimension(H), H)
>>> "shattered set of 2 points" in html and "h3" in html
True
"""

from __future__ import annotations

from typing import Any

from ._html import block, number, table
from .witnesses import witness_html, witness_summary

# The display layer reads the model's objects by duck typing and imports none of it (no import circle:
# the model's _repr_html_ methods import this package lazily).
HypothesisClass = Any
DimensionResult = Any

__all__ = ["result_html", "value_text", "seconds_of"]


def value_text(result: Any) -> str:
    """``"4"`` for an exact result, ``"[2, 5]"`` for proven bounds, ``"undefined"`` when the dimension is not defined.

    Parameters
    ----------
    result : DimensionResult

    Returns
    -------
    str

    Examples
    --------
    >>> from dimcalc import DimensionResult
    >>> value_text(DimensionResult.bounds("vc", 2, 5, [0, 1])), value_text(DimensionResult.exact_value("vc", 1, [0]))
    ('[2, 5]', '1')
    """
    if result.value is not None:
        return str(result.value)
    if result.lower is None and result.upper is None:
        return "undefined"
    return f"[{number(result.lower)}, {'∞' if result.upper is None else number(result.upper)}]"


def seconds_of(result: Any) -> float | None:
    """The solver's time in seconds (``stats["seconds"]``), None when not recorded.

    Parameters
    ----------
    result : DimensionResult

    Returns
    -------
    float or None

    Examples
    --------
    >>> from dimcalc import DimensionResult
    >>> seconds_of(DimensionResult.exact_value("vc", 1, [0], seconds=0.5))
    0.5
    """
    s = result.stats.get("seconds") if isinstance(result.stats, dict) else None
    return float(s) if isinstance(s, (int, float)) else None


def result_html(result: DimensionResult, H: HypothesisClass | None = None) -> str:
    """HTML for a result: kind, value or ``[lower, upper]``, exact, time, method, witness summary and picture.

    Parameters
    ----------
    result : DimensionResult
    H : HypothesisClass, optional
        The class it is about: the witness is then drawn with point and
        hypothesis names and the rows realising each pattern.

    Returns
    -------
    str
        An HTML fragment (names escaped).

    Examples
    --------
    >>> from dimcalc import DimensionResult
    >>> "[2, 5]" in result_html(DimensionResult.bounds("vc", 2, 5, [0, 1]))
    True
    """
    rows: list[list[Any]] = [
        ["dimension", result.kind],
        ["value" if result.exact else "bounds", value_text(result)],
        ["exact", "yes" if result.exact else "no (proven bounds)"],
    ]
    seconds = seconds_of(result)
    if seconds is not None:
        rows.append(["time", f"{seconds:.3g} s"])
    method = result.stats.get("method") if isinstance(result.stats, dict) else None
    if method:
        rows.append(["method", method])
    if result.reason:
        rows.append(["reason", result.reason])
    if result.witness is not None:
        rows.append(["witness", witness_summary(result.witness)])
    picture = witness_html(result.witness, H)
    return block(table(None, rows, row_header=True), f"<div>{picture}</div>" if picture else "")
