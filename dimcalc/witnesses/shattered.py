"""Shattered sets and their definition-level checkers: VC, Natarajan and graph shattering, growth patterns.

A set of points ``S`` is

* **shattered** (VC) when every labelling ``S -> {0, 1}`` is realised by a
  hypothesis;
* **Natarajan-shattered** by two label vectors ``f0, f1`` that differ at every
  point of ``S`` when every *mix* (``f1`` on ``T``, ``f0`` on ``S \\ T``, for
  each ``T ⊆ S``) is realised;
* **graph-shattered** by a label vector ``f`` when every in/out pattern of
  agreement with ``f`` (``h(x) = f(x)`` exactly for ``x ∈ T``) is realised.

The checkers work at the level of the definitions on the full table
(duplicates included), with Python sets of label tuples, and share no code
with the solvers of :mod:`dimcalc.vc` (its search in :mod:`dimcalc.vc.search`).  The witness
classes wrap them: :class:`ShatteredSet` (kind ``"vc"``),
:class:`NatarajanWitness`, :class:`GraphWitness` and :class:`GrowthWitness`
(the points of a growth-function answer; it certifies their number of patterns).

References
----------
.. [BCHL95] S. Ben-David, N. Cesa-Bianchi, D. Haussler, P. M. Long.
   Characterizations of learnability for classes of {0, ..., n}-valued
   functions. JCSS 50(1), 1995.  (Ψ^N gives the Natarajan and Ψ^G the graph dimension.)
.. [Nat89] B. K. Natarajan. On learning sets and functions. Mach. Learn. 4, 1989.
.. [VC71] V. Vapnik, A. Chervonenkis. On the uniform convergence of relative
   frequencies of events to their probabilities. 1971.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..classes.hypothesis_class import HypothesisClass
from ..errors import InvalidWitnessError
from .base import DictWitness, ListWitness

__all__ = [
    "is_shattered",
    "is_natarajan_shattered",
    "is_graph_shattered",
    "ShatteredSet",
    "NatarajanWitness",
    "GraphWitness",
    "GrowthWitness",
]


def _witness_points(H: HypothesisClass, points: Any, what: str = "points") -> list[int]:
    if isinstance(points, (str, bytes, dict)) or not isinstance(points, (Sequence, np.ndarray)):
        raise InvalidWitnessError(f"{what} must be a list of point indices; got {type(points).__name__}")
    out = []
    for p in points:
        if isinstance(p, (bool, np.bool_)) or not isinstance(p, (int, np.integer)):
            raise InvalidWitnessError(f"{what}: {p!r} is not a point index (an integer)")
        if not 0 <= p < H.n_points:
            raise InvalidWitnessError(f"{what}: point {p} is outside the domain 0..{H.n_points - 1}")
        out.append(int(p))
    if len(set(out)) != len(out):
        raise InvalidWitnessError(f"{what}: a point occurs twice in {out}; give distinct points")
    return out


def _witness_labels(values: Any, length: int, what: str) -> list[int]:
    if isinstance(values, (str, bytes, dict)) or not isinstance(values, (Sequence, np.ndarray)):
        raise InvalidWitnessError(f"{what} must be a list of labels; got {type(values).__name__}")
    if len(values) != length:
        raise InvalidWitnessError(f"{what} has {len(values)} labels for {length} points; give one label per point")
    out = []
    for v in values:
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise InvalidWitnessError(f"{what}: {v!r} is not a label (an integer)")
        out.append(int(v))
    return out


def _missing_pattern(seen: set, size: int) -> tuple[int, ...] | None:
    """The first 0/1 pattern of length ``size`` (in :func:`itertools.product` order) not in ``seen``; None if all are."""
    return next((pattern for pattern in itertools.product((0, 1), repeat=size) if pattern not in seen), None)


def _distinct(rows: np.ndarray) -> set:
    """The distinct rows of a small-integer matrix, as a set of tuples (``np.unique`` over rows: a class of
    10^5 hypotheses is read in milliseconds, not as 10^5 Python tuples)."""
    rows = np.asarray(rows, dtype=np.int64)
    if rows.shape[0] == 0:
        return set()
    if rows.shape[1] == 0:
        return {()}
    lo, base = int(rows.min()), int(rows.max()) - int(rows.min()) + 1
    if lo >= 0 and rows.shape[1] * max(1, base - 1).bit_length() <= 62:  # each row one int64: a 1-D unique
        codes = np.zeros(rows.shape[0], dtype=np.int64)
        for i in range(rows.shape[1] - 1, -1, -1):
            codes = codes * base + (rows[:, i] - lo)
        out = set()
        for code in np.unique(codes).tolist():
            row = []
            for _ in range(rows.shape[1]):
                code, v = divmod(code, base)
                row.append(v + lo)
            out.add(tuple(row))
        return out
    return set(map(tuple, np.unique(rows, axis=0).tolist()))


def _vc_patterns(H: HypothesisClass, points: Any) -> tuple[list[int], set]:
    """The checked points and the set of label tuples the hypotheses put on them."""
    pts = _witness_points(H, points)
    return pts, _distinct(H.columns(pts))  # only the witness's columns are read


def _natarajan_patterns(H: HypothesisClass, points: Any, f0: Any, f1: Any) -> tuple[list[int], set | None]:
    """The checked points and the set of realised mixes (0 = ``f0``, 1 = ``f1``); None when ``f0, f1`` meet."""
    pts = _witness_points(H, points)
    f0 = _witness_labels(f0, len(pts), "f0")
    f1 = _witness_labels(f1, len(pts), "f1")
    if any(a == b for a, b in zip(f0, f1)):
        return pts, None
    cols = np.asarray(H.columns(pts), dtype=np.int64)  # row r: the labels at pts
    on0 = cols == np.asarray(f0, dtype=np.int64)
    on1 = cols == np.asarray(f1, dtype=np.int64)
    mixed = np.all(on0 | on1, axis=1)  # rows that take f0 or f1 at every point; mix bit 1 = f1
    return pts, _distinct(on1[mixed].astype(np.int64))


def _graph_patterns(H: HypothesisClass, points: Any, f: Any) -> tuple[list[int], set]:
    """The checked points and the set of realised agreement patterns with ``f`` (1 = agrees)."""
    pts = _witness_points(H, points)
    f = _witness_labels(f, len(pts), "f")
    cols = np.asarray(H.columns(pts), dtype=np.int64)
    return pts, _distinct((cols == np.asarray(f, dtype=np.int64)).astype(np.int64))


def is_shattered(H: HypothesisClass, points: Sequence[int]) -> bool:
    """True when every labelling of ``points`` with 0/1 is realised by a hypothesis of ``H``.

    Parameters
    ----------
    H : HypothesisClass
    points : sequence of int
        Distinct point indices.

    Returns
    -------
    bool

    Raises
    ------
    InvalidWitnessError
        If ``points`` is not a list of distinct point indices of ``H``.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 0], [0, 1], [1, 0], [1, 1], [1, 1]])
    >>> is_shattered(H, [0, 1]), is_shattered(HypothesisClass.from_table([[0, 0], [1, 1]]), [0, 1])
    (True, False)
    """
    pts, seen = _vc_patterns(H, points)
    if len(seen) < 2 ** len(pts):
        return False
    return _missing_pattern(seen, len(pts)) is None


def is_natarajan_shattered(H: HypothesisClass, points: Sequence[int], f0: Sequence[int], f1: Sequence[int]) -> bool:
    """True when ``f0, f1`` differ at every point and every mix of them on ``points`` is realised.

    A mix takes ``f1`` on a subset ``T`` of ``points`` and ``f0`` on the rest.

    Parameters
    ----------
    H : HypothesisClass
    points : sequence of int
        Distinct point indices.
    f0, f1 : sequence of int
        Labels, aligned with ``points``.

    Returns
    -------
    bool

    Raises
    ------
    InvalidWitnessError
        If the points or label vectors are malformed.

    References
    ----------
    Natarajan [Nat89]; Ψ^N-shattering in [BCHL95].

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 2], [1, 2], [0, 0], [1, 0]])
    >>> is_natarajan_shattered(H, [0, 1], [0, 0], [1, 2])
    True
    >>> is_natarajan_shattered(H, [0, 1], [0, 0], [1, 1])
    False
    """
    pts, seen = _natarajan_patterns(H, points, f0, f1)
    return seen is not None and _missing_pattern(seen, len(pts)) is None


def is_graph_shattered(H: HypothesisClass, points: Sequence[int], f: Sequence[int]) -> bool:
    """True when every pattern of agreement with ``f`` on ``points`` is realised.

    For every subset ``T`` of ``points`` some hypothesis ``h`` has
    ``h(x) = f(x)`` exactly for the ``x`` in ``T``.

    Parameters
    ----------
    H : HypothesisClass
    points : sequence of int
        Distinct point indices.
    f : sequence of int
        Labels, aligned with ``points``.

    Returns
    -------
    bool

    Raises
    ------
    InvalidWitnessError
        If the points or the label vector are malformed.

    References
    ----------
    Natarajan [Nat89]; Ψ^G-shattering in [BCHL95].

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 0], [1, 0], [2, 1], [0, 2]])
    >>> is_graph_shattered(H, [0, 1], [0, 0]), is_graph_shattered(H, [0, 1], [1, 1])
    (True, False)
    """
    pts, seen = _graph_patterns(H, points, f)
    return _missing_pattern(seen, len(pts)) is None


# ---------------------------------------------------------------------------------------------- witness objects
def _require_all(pts: list[int], seen: set, what: str, sides: tuple[str, str]) -> int:
    """``len(pts)`` when every 0/1 pattern on ``pts`` is in ``seen``; else raise naming one that is not.

    ``sides`` says what bits 0 and 1 of a pattern mean at a point ``x`` (``{x}`` is filled in).
    """
    missing = _missing_pattern(seen, len(pts))
    if missing is not None:
        shown = ", ".join(sides[b].format(x=p) for p, b in zip(pts, missing))
        raise InvalidWitnessError(f"{what}: points {pts} are not shattered: no hypothesis realises ({shown})")
    return len(pts)


def _field(witness: dict, key: str, what: str) -> Any:
    if key not in witness:
        raise InvalidWitnessError(f"{what}: the witness has no {key!r} key; it has {sorted(map(str, witness))}")
    return witness[key]


class ShatteredSet(ListWitness):
    """Witness of a VC dimension lower bound: a list of distinct points shattered by the class.

    ``certify(H)`` returns the number of points, or raises
    :class:`~dimcalc.errors.InvalidWitnessError` naming a labelling no
    hypothesis realises (Vapnik and Chervonenkis [VC71]).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 0], [0, 1], [1, 1]])
    >>> ShatteredSet([1]).certify(H)
    1
    >>> ShatteredSet([0, 1]).certify(H)
    Traceback (most recent call last):
    ...
    dimcalc.errors.InvalidWitnessError: shattered set: points [0, 1] are not shattered: no hypothesis realises (x0 -> 1, x1 -> 0)
    """

    measure = "points"

    def certify(self, H: HypothesisClass) -> int:
        pts, seen = _vc_patterns(H, self)
        return _require_all(pts, seen, "shattered set", ("x{x} -> 0", "x{x} -> 1"))


class GrowthWitness(ListWitness):
    """Witness of a growth-function lower bound ``pi_H(m) >= N``: ``m`` distinct points carrying ``N`` patterns.

    ``certify(H)`` returns the number of distinct label patterns of ``H`` on the points.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> GrowthWitness([0, 1]).certify(HypothesisClass.from_table([[0, 0], [0, 1], [1, 1]]))
    3
    """

    measure = "patterns"

    def certify(self, H: HypothesisClass) -> int:
        return len(_vc_patterns(H, self)[1])


class NatarajanWitness(DictWitness):
    """Witness ``{"points": [...], "f0": [...], "f1": [...]}`` of a Natarajan dimension lower bound.

    ``certify(H)`` returns the number of points when ``f0, f1`` differ at every
    point and every mix of them is realised (Natarajan [Nat89]); otherwise it
    raises :class:`~dimcalc.errors.InvalidWitnessError` with the reason.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 2], [1, 2], [0, 0], [1, 0]])
    >>> NatarajanWitness({"points": [0, 1], "f0": [0, 0], "f1": [1, 2]}).certify(H)
    2
    """

    measure = "points"

    def certify(self, H: HypothesisClass) -> int:
        what = "Natarajan witness"
        points, f0, f1 = (_field(self, key, what) for key in ("points", "f0", "f1"))
        pts, seen = _natarajan_patterns(H, points, f0, f1)
        if seen is None:
            raise InvalidWitnessError(f"{what}: f0 = {list(f0)} and f1 = {list(f1)} agree at a point; they must differ")
        return _require_all(pts, seen, what, ("x{x} -> f0(x{x})", "x{x} -> f1(x{x})"))


class GraphWitness(DictWitness):
    """Witness ``{"points": [...], "f": [...]}`` of a graph dimension lower bound.

    ``certify(H)`` returns the number of points when every pattern of agreement
    with ``f`` is realised (Natarajan [Nat89]; Ψ^G of [BCHL95]).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 0], [1, 0], [2, 1], [0, 2]])
    >>> GraphWitness({"points": [0, 1], "f": [0, 0]}).certify(H)
    2
    """

    measure = "points"

    def certify(self, H: HypothesisClass) -> int:
        what = "graph witness"
        points, f = (_field(self, key, what) for key in ("points", "f"))
        pts, seen = _graph_patterns(H, points, f)
        return _require_all(pts, seen, what, ("h(x{x}) != f(x{x})", "h(x{x}) = f(x{x})"))
