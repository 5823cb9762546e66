"""Statements with proven sides: :class:`Side`, :func:`compare`, :class:`TheoremCheck`, :class:`TheoremReport`.

The vocabulary of :func:`dimcalc.reports.theorems.theorem_report`: a side is an
interval ``[lower, upper]`` of proven bounds (a point when exact), and a
statement ``A <= B`` holds for sure when ``upper(A) <= lower(B)``, is violated
for sure when ``lower(A) > upper(B)``, else is ``"unknown"``.  ``A = B`` holds
when both sides are exact and equal, is violated when the intervals are
disjoint.  Real-valued sides (logarithms) are compared with a slack of
``1e-9`` in the direction that never reports a false violation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..results import DimensionResult

__all__ = ["Side", "TheoremCheck", "TheoremReport", "compare", "Number", "SLACK"]

SLACK = 1e-9
Number = int | float


@dataclass(frozen=True)
class Side:
    """One side of a statement: proven bounds ``lower <= value <= upper`` (None = unbounded)."""

    lower: Number | None
    upper: Number | None
    description: str

    @property
    def exact(self) -> bool:
        return self.lower is not None and self.lower == self.upper

    def to_json(self) -> Any:
        if self.exact:
            return self.lower
        return {"lower": self.lower, "upper": self.upper}

    @classmethod
    def point(cls, value: Number, description: str) -> Side:
        return cls(value, value, description)

    @classmethod
    def of(cls, r: DimensionResult, description: str, scale: Callable[[Number], Number] = lambda v: v) -> Side:
        lo = None if r.lower is None else scale(r.lower)
        hi = None if r.upper is None else scale(r.upper)
        return cls(lo, hi, description)


def compare(lhs: Side, relation: str, rhs: Side) -> bool | str:
    """``True`` / ``False`` / ``"unknown"`` for ``lhs relation rhs`` from proven bounds (see module docstring).

    Parameters
    ----------
    lhs, rhs : Side
        The two sides, each an interval of proven bounds.
    relation : {"<=", ">=", "="}
        The statement's relation.

    Returns
    -------
    bool or str
        ``True`` when the bounds prove the statement, ``False`` when they refute it, else ``"unknown"``.

    Examples
    --------
    >>> compare(Side(1, 2, "A"), "<=", Side(2, 5, "B")), compare(Side(3, 4, "A"), "<=", Side(1, 2, "B"))
    (True, False)
    >>> compare(Side(1, 3, "A"), "<=", Side(2, 2, "B"))
    'unknown'
    """
    if relation == ">=":
        return compare(rhs, "<=", lhs)
    if relation == "=":
        le, ge = compare(lhs, "<=", rhs), compare(rhs, "<=", lhs)
        if le is False or ge is False:
            return False
        return True if (le is True and ge is True) else "unknown"
    if relation != "<=":
        raise ValueError(f"unknown relation {relation!r}")
    if lhs.upper is not None and rhs.lower is not None and lhs.upper <= rhs.lower + SLACK:
        return True
    if lhs.lower is not None and rhs.upper is not None and lhs.lower > rhs.upper + SLACK:
        return False
    return "unknown"


@dataclass(frozen=True)
class TheoremCheck:
    """One evaluated statement: ``lhs relation rhs`` with its source and verdict."""

    source: str
    statement: str
    lhs: Side
    relation: str
    rhs: Side
    holds: bool | str
    note: str = ""

    @property
    def exact(self) -> bool:
        return self.lhs.exact and self.rhs.exact

    def to_json(self) -> dict:
        return {
            "source": self.source,
            "statement": self.statement,
            "lhs": self.lhs.to_json(),
            "relation": self.relation,
            "rhs": self.rhs.to_json(),
            "exact": self.exact,
            "holds": self.holds,
            "lhs_is": self.lhs.description,
            "rhs_is": self.rhs.description,
            "note": self.note,
        }


class TheoremReport(list):
    """The answer of :func:`theorem_report`: a list of :class:`TheoremCheck` that also shows itself as a table."""

    def to_pandas(self) -> Any:
        """One row per statement (:func:`dimcalc.display.frames.theorems_frame`; needs the ``pandas`` extra)."""
        from ..display.frames import theorems_frame

        return theorems_frame(self)

    def _repr_html_(self) -> str:  # Jupyter display: dimcalc.display (imported when a notebook asks)
        from ..display import theorems_html

        return theorems_html(self)
