"""Witnesses of teaching-dimension and recursive-teaching-dimension lower bounds, with their checkers.

A class is a *set* of concepts here: duplicate rows are one concept (no
sample can tell two copies apart).  A **teaching set** for a concept ``c`` in
a set of concepts ``C`` is a set of points on which no other concept of ``C``
agrees with ``c`` (Goldman and Kearns 1995).  ``TD(c, C)`` is the size of a
smallest one, ``TD(C) = max_c TD(c, C)``.

A teaching set stays one when points are added, so ``TD(c, C) = t`` is
proven by a teaching set of size ``t`` and the check that *no* set of
``t - 1`` points teaches ``c`` (smaller sets are subsets of those).  The
checkers do exactly that, enumerating every ``(t - 1)``-subset of the domain
with Python tuples; they share no code with :mod:`dimcalc.dims.teaching`.

The recursive teaching dimension (Zilles, Lange, Holte, Zinkevich 2011) equals
``max_{C' ⊆ C} min_{c ∈ C'} TD(c, C')`` (Doliwa, Fan, Simon, Zilles 2014), so
a subclass ``C'`` in which no concept has a teaching set of fewer than ``t``
points, with one concept that has one of ``t`` points, proves ``RTD(C) >= t``.

References
----------
.. [GK95] S. A. Goldman, M. J. Kearns. On the complexity of teaching. JCSS 50(1), 1995.
.. [ZLHZ11] S. Zilles, S. Lange, R. Holte, M. Zinkevich. Models of cooperative
   teaching and learning. JMLR 12, 2011.
.. [DFSZ14] T. Doliwa, G. Fan, H. U. Simon, S. Zilles. Recursive teaching
   dimension, VC-dimension and sample compression. JMLR 15, 2014.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..classes.hypothesis_class import HypothesisClass
from ..errors import InvalidWitnessError
from .base import DictWitness
from .combinatorial import _witness_rows
from .shattered import _field, _witness_points

__all__ = ["is_teaching_set", "TeachingWitness", "RecursiveTeachingWitness"]


def _row(H: HypothesisClass, r: int) -> tuple[int, ...]:
    """Row ``r`` of the table as a tuple (reads that row only, whatever the storage)."""
    return tuple(H.distinct_row(int(H.row_to_distinct[r])).tolist())


def _concepts(H: HypothesisClass, rows: list[int] | None) -> list[tuple[int, ...]]:
    """The distinct label vectors of ``rows`` (every row when None), as tuples."""
    if rows is None:
        return sorted({tuple(r) for r in H.columns(np.arange(H.n_points)).tolist()})
    return sorted({_row(H, r) for r in rows})


def _teaches(concepts: list[tuple[int, ...]], c: tuple[int, ...], points: Sequence[int]) -> bool:
    """No concept other than ``c`` agrees with ``c`` on ``points``."""
    return not any(d != c and all(d[x] == c[x] for x in points) for d in concepts)


def _proof(H: HypothesisClass, rows: list[int] | None, row: Any, points: Any, what: str) -> tuple[int, list]:
    """Check that ``points`` teaches ``row`` among the concepts of ``rows``; return its size and the concepts."""
    (r,) = _witness_rows(H, [row], f"{what}: hypothesis")
    pts = _witness_points(H, points, f"{what}: teaching_set")
    concepts = _concepts(H, rows)
    c = _row(H, r)
    if c not in concepts:
        raise InvalidWitnessError(f"{what}: row {r} is not one of the subclass's rows")
    if not _teaches(concepts, c, pts):
        raise InvalidWitnessError(f"{what}: points {pts} do not teach row {r}: another concept agrees with it there")
    return len(pts), concepts


def is_teaching_set(H: HypothesisClass, row: int, points: Sequence[int]) -> bool:
    """True when no hypothesis of ``H`` other than (copies of) ``row`` agrees with ``row`` on ``points``.

    Parameters
    ----------
    H : HypothesisClass
    row : int
        Row index of the concept to teach.
    points : sequence of int
        Distinct points.

    Returns
    -------
    bool

    References
    ----------
    Goldman and Kearns [GK95].

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 0], [1, 0], [0, 1]])
    >>> is_teaching_set(H, 1, [0]), is_teaching_set(H, 0, [0])
    (True, False)
    """
    try:
        _proof(H, None, row, points, "teaching set")
    except InvalidWitnessError as exc:
        if "do not teach" in str(exc):
            return False
        raise
    return True


class TeachingWitness(DictWitness):
    """Witness ``{"hypothesis": row, "teaching_set": [points]}`` of a teaching dimension lower bound.

    ``certify(H)`` checks that the set teaches the row and that no set of one
    point fewer does (every such subset of the domain is tried), and returns
    its size ``t = TD(row, H) <= TD(H)`` (Goldman and Kearns [GK95]).  A
    search stopped before any concept was finished gives the bound alone,
    ``{"hypothesis": row, "at_least": t}``: no set of ``t - 1`` points teaches
    the row, so ``TD(row, H) >= t``.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 0], [1, 0], [0, 1]])
    >>> TeachingWitness({"hypothesis": 0, "teaching_set": [0, 1]}).certify(H)
    2
    >>> TeachingWitness({"hypothesis": 2, "at_least": 1}).certify(H)
    1
    >>> TeachingWitness({"hypothesis": 1, "teaching_set": [0, 1]}).certify(H)
    Traceback (most recent call last):
    ...
    dimcalc.errors.InvalidWitnessError: teaching witness: points [0] teach row 1 too, so its teaching dimension is below 2
    """

    measure = "points"

    def certify(self, H: HypothesisClass) -> int:
        what = "teaching witness"
        row = _field(self, "hypothesis", what)
        if "teaching_set" not in self and "at_least" in self:
            (r,) = _witness_rows(H, [row], f"{what}: hypothesis")
            t = self["at_least"]
            if isinstance(t, bool) or not isinstance(t, (int, np.integer)) or t < 0:
                raise InvalidWitnessError(f"{what}: at_least must be an integer >= 0; got {t!r}")
            if t <= 1:  # no set of t - 1 <= 0 points teaches the row iff another concept exists
                if t == 1 and H.n_distinct < 2:
                    raise InvalidWitnessError(f"{what}: the class has one concept; the empty set teaches it")
                return int(t)
            t, concepts = int(t), _concepts(H, None)
        else:
            t, concepts = _proof(H, None, row, _field(self, "teaching_set", what), what)
        c = _row(H, int(row))
        for smaller in itertools.combinations(range(H.n_points), max(t - 1, 0)):
            if t > 0 and _teaches(concepts, c, smaller):
                raise InvalidWitnessError(
                    f"{what}: points {list(smaller)} teach row {row} too, so its teaching dimension is below {t}"
                )
        return t


class RecursiveTeachingWitness(DictWitness):
    """Witness ``{"subclass": [rows], "hypothesis": row, "teaching_set": [points]}`` of an RTD lower bound.

    ``certify(H)`` checks that ``teaching_set`` teaches ``hypothesis`` within
    the subclass ``C'`` and that no set of one point fewer teaches *any*
    concept of ``C'``, so ``min_{c ∈ C'} TD(c, C') = t``; it returns ``t``,
    a lower bound on ``RTD(H) = max_{C' ⊆ H} min_{c ∈ C'} TD(c, C')``
    (Doliwa et al. [DFSZ14]; RTD of Zilles et al. [ZLHZ11]).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 0], [1, 0], [0, 1], [1, 1]])
    >>> RecursiveTeachingWitness({"subclass": [0, 1, 2, 3], "hypothesis": 0, "teaching_set": [0, 1]}).certify(H)
    2
    """

    measure = "points"

    def certify(self, H: HypothesisClass) -> int:
        what = "recursive teaching witness"
        sub = _witness_rows(H, _field(self, "subclass", what), f"{what}: subclass")
        if not sub:
            raise InvalidWitnessError(f"{what}: the subclass is empty; give at least one row")
        t, concepts = _proof(H, sub, _field(self, "hypothesis", what), _field(self, "teaching_set", what), what)
        if t == 0:
            return 0
        for smaller in itertools.combinations(range(H.n_points), t - 1):
            counts = Counter(tuple(c[x] for x in smaller) for c in concepts)
            alone = [c for c in concepts if counts[tuple(c[x] for x in smaller)] == 1]
            if alone:
                raise InvalidWitnessError(
                    f"{what}: points {list(smaller)} teach the concept {list(alone[0])} of the subclass, "
                    f"so its least teaching dimension is below {t}"
                )
        return t
