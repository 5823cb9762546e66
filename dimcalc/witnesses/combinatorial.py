"""Witnesses of threshold, DS, dual VC and star-number lower bounds, with their definition-level checkers.

Each checker reads the witness's columns of the full table (duplicate rows
included) into Python tuples and tests the definition; none shares code with
the solvers of :mod:`dimcalc.dims`.  The definitions (sources in
``docs/dimensions.md``):

* **thresholds** (ALMM19 §2, after Shelah and Hodges): points ``x_1..x_t`` and
  hypotheses ``h_1..h_t`` with ``h_i(x_j) = 1`` iff ``i <= j`` (binary classes);
* **pseudo-cube** (Daniely and Shalev-Shwartz 2014; BCDMY22 Def. 5): a set
  ``S`` is DS-shattered when ``H|_S`` contains a non-empty finite set ``B`` of
  patterns in which every pattern has, for every point ``x`` of ``S``, an
  ``x``-neighbour in ``B`` (a pattern that differs from it at ``x`` only);
* **dual shattering**: hypotheses ``h_1..h_k`` are shattered by the points
  when every 0/1 vector ``b`` is ``(h_1(x), ..., h_k(x))`` for some point ``x``
  (the VC dimension of the dual class, Assouad 1983; binary classes);
* **star** (Hanneke and Yang 2015): points ``x_1..x_s`` and hypotheses
  ``h_0, h_1..h_s`` with ``h_i`` differing from ``h_0`` on ``{x_1..x_s}``
  exactly at ``x_i``.

References
----------
.. [ALMM19] N. Alon, R. Livni, M. Malliaris, S. Moran. Private PAC learning
   implies finite Littlestone dimension. STOC 2019.
.. [DS14] A. Daniely, S. Shalev-Shwartz. Optimal learners for multiclass
   problems. COLT 2014.
.. [BCDMY22] N. Brukhim, D. Carmon, I. Dinur, S. Moran, A. Yehudayoff. A
   characterization of multiclass learnability. FOCS 2022.
.. [Ass83] P. Assouad. Densité et dimension. Ann. Inst. Fourier 33(3), 1983.
.. [HY15] S. Hanneke, L. Yang. Minimax analysis of active learning. JMLR 16, 2015.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..classes.hypothesis_class import HypothesisClass
from ..errors import InvalidWitnessError
from .base import DictWitness, ListWitness
from .shattered import _field, _witness_points

__all__ = [
    "is_threshold_sequence",
    "is_pseudo_cube",
    "is_dual_shattered",
    "is_star",
    "ThresholdWitness",
    "PseudoCube",
    "DualShatteredSet",
    "StarWitness",
]


def _witness_rows(H: HypothesisClass, rows: Any, what: str) -> list[int]:
    """Row indices of ``H``'s table (duplicates allowed only where the caller allows them)."""
    if isinstance(rows, (str, bytes, dict)) or not isinstance(rows, (Sequence, np.ndarray)):
        raise InvalidWitnessError(f"{what} must be a list of hypothesis row indices; got {type(rows).__name__}")
    out = []
    for r in rows:
        if isinstance(r, (bool, np.bool_)) or not isinstance(r, (int, np.integer)):
            raise InvalidWitnessError(f"{what}: {r!r} is not a row index (an integer)")
        if not 0 <= r < H.n_hypotheses:
            raise InvalidWitnessError(f"{what}: row {r} is outside the table's rows 0..{H.n_hypotheses - 1}")
        out.append(int(r))
    return out


def _cells(H: HypothesisClass, rows: list[int], points: list[int]) -> list[tuple[int, ...]]:
    """``[(h(x) for x in points) for h in rows]`` as Python tuples."""
    if not points:
        return [() for _ in rows]
    return [tuple(r) for r in H.columns(points)[rows].tolist()]


def _binary(H: HypothesisClass, what: str) -> None:
    if not H.is_binary:
        raise InvalidWitnessError(f"{what}: the class has {H.num_labels} labels; this notion is for binary classes")


# ------------------------------------------------------------------------------------------------- thresholds
def _threshold_problem(H: HypothesisClass, points: Any, rows: Any) -> str | None:
    what = "threshold witness"
    _binary(H, what)
    pts = _witness_points(H, points, f"{what}: points")
    hs = _witness_rows(H, rows, f"{what}: hypotheses")
    if len(pts) != len(hs):
        return f"{len(pts)} points but {len(hs)} hypotheses; a threshold sequence pairs them one to one"
    for i, row in enumerate(_cells(H, hs, pts)):
        for j, v in enumerate(row):
            if v != int(i <= j):
                return f"h_{i + 1} = row {hs[i]} has label {v} at x_{j + 1} = point {pts[j]}; thresholds need {int(i <= j)}"
    return None


def is_threshold_sequence(H: HypothesisClass, points: Sequence[int], rows: Sequence[int]) -> bool:
    """True when ``rows[i](points[j]) = 1`` exactly when ``i <= j`` (``H`` contains ``len(points)`` thresholds).

    Parameters
    ----------
    H : HypothesisClass
        A binary class.
    points : sequence of int
        Distinct points ``x_1, ..., x_t``.
    rows : sequence of int
        Row indices of ``h_1, ..., h_t``.

    Returns
    -------
    bool

    References
    ----------
    ALMM19 §2 ("H contains t thresholds"), after Shelah (1978) and Hodges (1997).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[1, 1, 1], [0, 1, 1], [0, 0, 1], [0, 0, 0]])
    >>> is_threshold_sequence(H, [0, 1, 2], [0, 1, 2]), is_threshold_sequence(H, [0, 1], [1, 2])
    (True, False)
    """
    return _threshold_problem(H, points, rows) is None


class ThresholdWitness(DictWitness):
    """Witness ``{"points": [x_1..x_t], "hypotheses": [rows of h_1..h_t]}`` of a threshold dimension lower bound.

    ``certify(H)`` returns ``t`` when ``h_i(x_j) = 1`` iff ``i <= j`` (ALMM19 §2).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[1, 1], [0, 1], [0, 0]])
    >>> ThresholdWitness({"points": [0, 1], "hypotheses": [0, 1]}).certify(H)
    2
    """

    measure = "points"

    def certify(self, H: HypothesisClass) -> int:
        points, rows = _field(self, "points", "threshold witness"), _field(self, "hypotheses", "threshold witness")
        problem = _threshold_problem(H, points, rows)
        if problem is not None:
            raise InvalidWitnessError(f"threshold witness: {problem}")
        return len(points)


# ------------------------------------------------------------------------------------------------ pseudo-cubes
def _cube_problem(H: HypothesisClass, points: Any, rows: Any) -> str | None:
    what = "pseudo-cube"
    pts = _witness_points(H, points, f"{what}: points")
    hs = _witness_rows(H, rows, f"{what}: hypotheses")
    cube = set(_cells(H, hs, pts))
    if not cube:
        return "no hypotheses: a pseudo-cube is non-empty"
    for pattern in sorted(cube):
        for i, x in enumerate(pts):
            if not any(q[i] != pattern[i] and q[:i] == pattern[:i] and q[i + 1 :] == pattern[i + 1 :] for q in cube):
                return (
                    f"pattern {list(pattern)} on points {pts} has no neighbour in the cube differing at point {x} only"
                )
    return None


def is_pseudo_cube(H: HypothesisClass, points: Sequence[int], rows: Sequence[int]) -> bool:
    """True when the patterns of ``rows`` on ``points`` form a non-empty pseudo-cube (``points`` DS-shattered).

    Every pattern must have, for every point ``x`` of ``points``, an
    ``x``-neighbour among the patterns: one that differs from it at ``x`` and
    nowhere else.

    Parameters
    ----------
    H : HypothesisClass
    points : sequence of int
        Distinct points (the set ``S``).
    rows : sequence of int
        Row indices whose restrictions to ``S`` are the cube (a pattern may repeat).

    Returns
    -------
    bool

    References
    ----------
    Daniely and Shalev-Shwartz [DS14]; Brukhim et al. [BCDMY22], Def. 5 (pseudo-cube) and Def. 6 (DS dimension).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> hexagon = HypothesisClass.from_table([[0, 0], [1, 0], [1, 1], [2, 1], [2, 2], [0, 2]])
    >>> is_pseudo_cube(hexagon, [0, 1], range(6)), is_pseudo_cube(hexagon, [0, 1], [0, 1, 2])
    (True, False)
    """
    return _cube_problem(H, points, list(rows)) is None


class PseudoCube(DictWitness):
    """Witness ``{"points": [...], "hypotheses": [rows]}`` of a DS dimension lower bound: a pseudo-cube on the points.

    ``certify(H)`` returns the number of points (see :func:`is_pseudo_cube`).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> hexagon = HypothesisClass.from_table([[0, 0], [1, 0], [1, 1], [2, 1], [2, 2], [0, 2]])
    >>> PseudoCube({"points": [0, 1], "hypotheses": [0, 1, 2, 3, 4, 5]}).certify(hexagon)
    2
    """

    measure = "points"

    def certify(self, H: HypothesisClass) -> int:
        points, rows = _field(self, "points", "pseudo-cube"), _field(self, "hypotheses", "pseudo-cube")
        problem = _cube_problem(H, points, rows)
        if problem is not None:
            raise InvalidWitnessError(f"pseudo-cube: {problem}")
        return len(points)


# -------------------------------------------------------------------------------------------- dual shattering
def _dual_problem(H: HypothesisClass, rows: Any) -> str | None:
    what = "dual shattered set"
    _binary(H, what)
    hs = _witness_rows(H, rows, f"{what}: hypotheses")
    if len(set(hs)) != len(hs):
        return f"a row occurs twice in {hs}; give distinct rows"
    if not hs:
        return None
    # (k, n): column x is the point's vector (h_1(x), ..., h_k(x)); reads those rows only
    table = np.array([H.distinct_row(int(H.row_to_distinct[r])) for r in hs])
    seen = set(map(tuple, table.T.tolist()))
    for b in itertools.product((0, 1), repeat=len(hs)):
        if b not in seen:
            return f"no point x has (h(x) for h in rows {hs}) = {list(b)}"
    return None


def is_dual_shattered(H: HypothesisClass, rows: Sequence[int]) -> bool:
    """True when the points shatter the hypotheses ``rows`` (every 0/1 vector is ``(h(x))_h`` for some point ``x``).

    Parameters
    ----------
    H : HypothesisClass
        A binary class.
    rows : sequence of int
        Distinct row indices.

    Returns
    -------
    bool

    References
    ----------
    Assouad [Ass83] (the dual class ``{x -> h(x)}``).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 0, 1, 1], [0, 1, 0, 1], [1, 1, 1, 1]])
    >>> is_dual_shattered(H, [0, 1]), is_dual_shattered(H, [0, 2])
    (True, False)
    """
    return _dual_problem(H, rows) is None


class DualShatteredSet(ListWitness):
    """Witness of a dual VC dimension lower bound: a list of rows shattered by the points.

    ``certify(H)`` returns the number of rows (see :func:`is_dual_shattered`).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> DualShatteredSet([0, 1]).certify(HypothesisClass.from_table([[0, 0, 1, 1], [0, 1, 0, 1]]))
    2
    """

    measure = "hypotheses"

    def certify(self, H: HypothesisClass) -> int:
        problem = _dual_problem(H, list(self))
        if problem is not None:
            raise InvalidWitnessError(f"dual shattered set: {problem}")
        return len(self)


# ------------------------------------------------------------------------------------------------------- stars
def _star_problem(H: HypothesisClass, center: Any, points: Any, rows: Any) -> str | None:
    what = "star"
    (c,) = _witness_rows(H, [center], f"{what}: center")
    pts = _witness_points(H, points, f"{what}: points")
    hs = _witness_rows(H, rows, f"{what}: hypotheses")
    if len(pts) != len(hs):
        return f"{len(pts)} points but {len(hs)} hypotheses; a star pairs them one to one"
    cells = _cells(H, [c, *hs], pts)
    h0 = cells[0]
    for i, row in enumerate(cells[1:]):
        differs = [pts[j] for j in range(len(pts)) if row[j] != h0[j]]
        if differs != [pts[i]]:
            return f"row {hs[i]} differs from the center (row {c}) at points {differs}; it must differ at {pts[i]} only"
    return None


def is_star(H: HypothesisClass, center: int, points: Sequence[int], rows: Sequence[int]) -> bool:
    """True when ``rows[i]`` differs from ``center`` on ``points`` exactly at ``points[i]``, for every ``i``.

    Parameters
    ----------
    H : HypothesisClass
    center : int
        Row index of ``h_0``.
    points : sequence of int
        Distinct points ``x_1, ..., x_s``.
    rows : sequence of int
        Row indices of ``h_1, ..., h_s``.

    Returns
    -------
    bool

    References
    ----------
    Hanneke and Yang [HY15], Definition 2 (star number).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]])
    >>> is_star(H, 0, [0, 1, 2], [1, 2, 3]), is_star(H, 1, [0, 1], [0, 2])
    (True, False)
    """
    return _star_problem(H, center, points, rows) is None


class StarWitness(DictWitness):
    """Witness ``{"center": row, "points": [...], "hypotheses": [rows]}`` of a star number lower bound.

    ``certify(H)`` returns the number of points (see :func:`is_star`).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 0], [1, 0], [0, 1]])
    >>> StarWitness({"center": 0, "points": [0, 1], "hypotheses": [1, 2]}).certify(H)
    2
    """

    measure = "points"

    def certify(self, H: HypothesisClass) -> int:
        center, points, rows = (_field(self, key, "star") for key in ("center", "points", "hypotheses"))
        problem = _star_problem(H, center, points, rows)
        if problem is not None:
            raise InvalidWitnessError(f"star: {problem}")
        return len(points)
