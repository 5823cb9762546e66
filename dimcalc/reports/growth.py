"""The growth table: ``π_H(m)`` for ``m = 0..M`` beside the Sauer–Shelah and trivial bounds.

``π_H(m)`` is the most label patterns ``H`` realises on ``m`` points (Vapnik and
Chervonenkis 1971); for a binary class of VC dimension ``d`` the Sauer–Shelah
lemma (Sauer 1972, Shelah 1972) bounds it by ``sum_{i<=d} C(m, i)``, and any
class by ``min(|H|, (k+1)^m)``.  What ``dimcalc growth`` prints.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..classes.hypothesis_class import HypothesisClass
from ..results import DimensionResult
from ..search.budget import Deadline
from ..validation import check_hypothesis_class, check_int, check_time_limit
from ..vc import growth_function, sauer_shelah_bound, vc_dimension

__all__ = ["GrowthRow", "GrowthTable", "growth_table", "DEFAULT_MAX_M"]

#: The largest ``m`` of a table when none is asked for (also capped at the domain size and VC + 2).
DEFAULT_MAX_M = 8


@dataclass(frozen=True)
class GrowthRow:
    """One ``m`` of a :class:`GrowthTable`: ``π_H(m)`` (or proven bounds) with a subset achieving it."""

    m: int
    value: int | None
    exact: bool
    lower: int | None
    upper: int | None
    witness: Any
    verified: bool
    sauer_shelah: int | None
    trivial: int

    def to_json(self) -> dict:
        """The row as ``dimcalc growth --json`` prints it."""
        return {
            "m": self.m,
            "value": self.value,
            "exact": self.exact,
            "lower": self.lower,
            "upper": self.upper,
            "witness": self.witness,
            "verified": self.verified,
            "sauer_shelah": self.sauer_shelah,
            "trivial": self.trivial,
        }


@dataclass(frozen=True)
class GrowthTable:
    """``π_H(m)`` for ``m = 0..max_m``, with the VC dimension the Sauer–Shelah column uses.

    ``exact`` is whether every row up to ``max_m`` was computed exactly (a time
    limit may stop the table early: the rows then end before ``max_m``);
    ``requested_max_m`` is the ``max_m`` asked for, ``max_m`` the one used (at
    most the number of points).
    """

    hclass: HypothesisClass
    vc: DimensionResult | None
    rows: list[GrowthRow]
    exact: bool
    max_m: int
    requested_max_m: int | None

    @property
    def capped(self) -> bool:
        """Whether the ``max_m`` asked for was above the number of points (and was lowered to it)."""
        return self.requested_max_m is not None and self.requested_max_m > self.max_m

    @property
    def complete(self) -> bool:
        """Whether every number of the table is exact (the VC dimension too)."""
        return self.exact and (self.vc is None or self.vc.exact)

    def to_json(self) -> dict:
        """The object ``dimcalc growth --json`` prints: ``{class, vc, growth, exact}``."""
        return {
            "class": self.hclass.summary(),
            "vc": None if self.vc is None else self.vc.to_json(),
            "growth": [row.to_json() for row in self.rows],
            "exact": self.exact,
        }

    def to_pandas(self) -> Any:
        """One row per ``m`` (:func:`dimcalc.display.frames.growth_frame`; needs the ``pandas`` extra)."""
        from ..display.frames import growth_frame

        return growth_frame(self)

    def _repr_html_(self) -> str:  # Jupyter display: dimcalc.display (imported when a notebook asks)
        from ..display import growth_html

        return growth_html(self)


def growth_table(H: HypothesisClass, max_m: int | None = None, *, time_limit: float | None = None) -> GrowthTable:
    """The growth function of ``H`` for ``m = 0..max_m`` beside the Sauer–Shelah bound.

    Parameters
    ----------
    H : HypothesisClass
        The class.
    max_m : int, optional
        Largest ``m``; default ``min(domain size, d + 2, 8)`` with ``d`` the VC dimension
        (binary classes) or ``floor(log2 |H|)``.  A value above the domain size is lowered to it
        (``π_H(m)`` counts patterns on ``m`` of the ``n`` points).
    time_limit : float, optional
        Seconds for the whole table; when they run out the table ends early
        (``exact=False``) and a stopped row holds proven bounds.

    Returns
    -------
    GrowthTable
        The rows, each with a subset of points achieving ``π_H(m)`` and whether dimcalc's checker
        verified it; the Sauer–Shelah column is ``None`` for multiclass classes and uses the proven
        upper bound on the VC dimension when its search was stopped.

    References
    ----------
    Vapnik and Chervonenkis (1971), growth function; Sauer (1972), Shelah (1972):
    ``π_H(m) <= sum_{i<=d} C(m, i)``.

    Examples
    --------
    >>> import numpy as np
    >>> from dimcalc import HypothesisClass
    >>> T = HypothesisClass.from_table(np.tril(np.ones((5, 4), dtype=int), -1))   # thresholds on 4 points
    >>> table = growth_table(T)
    >>> [(row.m, row.value, row.sauer_shelah) for row in table.rows]
    [(0, 1, 1), (1, 2, 2), (2, 3, 3), (3, 4, 4)]
    >>> table.complete
    True
    """
    owner = "growth_table"
    H = check_hypothesis_class(H, owner)
    if max_m is not None:
        max_m = check_int(max_m, "max_m", owner, 0)
    deadline = Deadline(check_time_limit(time_limit, owner))
    vc = vc_dimension(H, time_limit=deadline.left()) if H.is_binary else None
    d = None if vc is None else (vc.value if vc.exact else vc.upper)
    if max_m is None:
        used = min(H.n_points, (d if d is not None else H.log2_size()) + 2, DEFAULT_MAX_M)
    else:
        used = min(max_m, H.n_points)
    rows: list[GrowthRow] = []
    exact = True
    for m in range(used + 1):
        if deadline.expired():
            exact = False
            break
        r = growth_function(H, m, time_limit=deadline.left())
        exact &= r.exact
        rows.append(
            GrowthRow(
                m=m,
                value=r.value,
                exact=r.exact,
                lower=r.lower,
                upper=r.upper,
                witness=r.witness,
                verified=r.verify(H),
                sauer_shelah=None if d is None else sauer_shelah_bound(m, d),
                trivial=min(H.n_distinct, H.num_labels**m),
            )
        )
    return GrowthTable(H, vc, rows, exact, used, max_m)
