"""The geometric classes of Feldman and Xiao over grids: boxes, halfspaces, balls (§4.1) and lines (§5).

References
----------
.. [FX] V. Feldman, D. Xiao. Sample Complexity Bounds on Differentially
   Private Learning via Communication Complexity. COLT 2014, §4.1
   (``BOX_b^d``, ``HS_b^d``, ``BALL_b^d``) and §5 (``Line_p``).
"""

from __future__ import annotations

import math

import numpy as np

from ..classes.hypothesis_class import HypothesisClass
from ..errors import parameter_error
from ..validation import check_int
from ._common import check_size, coordinate_names, make, numbered, tuples
from ._cuts import ball_centers_2d, cut_table

__all__ = ["boxes", "halfspaces", "balls", "lines"]


def _is_prime(p: int) -> bool:
    if p < 2:
        return False
    return all(p % q for q in range(2, math.isqrt(p) + 1))


def _grid_class(table: np.ndarray, family: str, fx_name: str, b: int, d: int, names: list[str]) -> HypothesisClass:
    """A class of FX §4.1 over the grid ``[2^b]^d`` (points ``"x_1:...:x_d"``, first coordinate slowest)."""
    return make(
        table,
        family=family,
        params={"b": b, "d": d},
        source=f"FX §4.1 ({fx_name})",
        name=f"{family}-b{b}-d{d}",
        point_names=coordinate_names(tuples(1 << b, d)),
        hypothesis_names=names,
    )


def boxes(b: int, d: int) -> HypothesisClass:
    """Axis-parallel boxes ``BOX_b^d`` over the grid ``[2^b]^d`` (FX §4.1).

    ``r_{s,t}(x) = 1`` iff ``s_i <= x_i <= t_i`` for all ``i``.  FX let ``s, t``
    range over the whole grid; every pair with some ``s_i > t_i`` gives the
    empty box, so this class lists the ``(2^b (2^b + 1)/2)^d`` non-empty boxes
    (lexicographic in ``(s_1, t_1, ..., s_d, t_d)``) and then the empty box
    once.  Points are named ``"x_1:...:x_d"``, first coordinate slowest.

    The VC dimension is ``2d`` when ``2^b >= 3`` (FX write ``d + 1``; the
    classical value for axis-parallel boxes is ``2d``); FX cite
    ``LDim >= b·d``.

    Parameters
    ----------
    b : int
        Bits per coordinate, ``b >= 1`` (grid side ``2^b``).
    d : int
        Dimension, ``d >= 1``.

    Returns
    -------
    HypothesisClass

    References
    ----------
    FX §4.1, item 2 (``BOX_b^d``).

    Examples
    --------
    >>> H = boxes(1, 2)
    >>> H.n_hypotheses, H.point_names
    (10, ('0:0', '0:1', '1:0', '1:1'))
    >>> H.hypothesis_names[1], H.table[1].tolist()
    ('[0:0..0:1]', [1, 1, 0, 0])
    """
    b = check_int(b, "b", "boxes", 1, 30)
    d = check_int(d, "d", "boxes", 1, 30)
    side = 1 << b
    per_dim = side * (side + 1) // 2
    check_size(per_dim**d + 1, side**d, "boxes", "b, d")
    lo, hi = np.triu_indices(side)
    x = np.arange(side)[None, :]
    member = (x >= lo[:, None]) & (x <= hi[:, None])  # per_dim x side
    table = member
    for _ in range(d - 1):
        table = (table[:, None, :, None] & member[None, :, None, :]).reshape(table.shape[0] * per_dim, -1)
    table = np.vstack([table, np.zeros((1, table.shape[1]), dtype=bool)])
    names = []
    for row in tuples(per_dim, d).tolist():
        s = ":".join(str(int(lo[w])) for w in row)
        t = ":".join(str(int(hi[w])) for w in row)
        names.append(f"[{s}..{t}]")
    names.append("empty")
    return _grid_class(table, "boxes", "BOX_b^d", b, d, names)


def halfspaces(b: int, d: int = 2) -> HypothesisClass:
    """Linear threshold functions ``HS_b^d`` over the grid ``[2^b]^d`` (FX §4.1), for ``d`` in {1, 2}.

    All distinct restrictions ``x -> 1[w·x >= θ]`` (``w`` in ``R^d``, ``θ`` in ``R``)
    to the grid, including the constant functions.

    Exactness: a cut of the grid by a halfspace is a prefix of the order of the
    points by ``w·x``.  That order only changes when ``w`` crosses a direction
    orthogonal to a difference of two grid points (an integer vector), and a
    cut made with a tied order is also a prefix of the order for any nearby
    direction.  So taking one direction strictly inside each arc between
    consecutive critical directions (``d = 2``), or ``w = ±1`` (``d = 1``), and
    every prefix of its order, yields every halfspace cut exactly.  Rows are
    sorted canonically (lexicographically by packed bits).

    VC dimension ``d + 1``; FX state ``LDim(HS_b^d) = b·d(d-1)/2``.

    Parameters
    ----------
    b : int
        Bits per coordinate (grid side ``2^b``); ``1 <= b <= 4`` for ``d = 2``,
        ``1 <= b <= 10`` for ``d = 1``.
    d : int, default 2
        Dimension, 1 or 2.

    Returns
    -------
    HypothesisClass

    References
    ----------
    FX §4.1, item 3 (``HS_b^d``).

    Examples
    --------
    >>> halfspaces(1, 2).n_hypotheses   # all 16 subsets of the 2x2 grid but the 2 diagonals
    14
    >>> halfspaces(2, 1).n_hypotheses   # rays up and down over 4 points, empty and full
    8
    """
    d = check_int(d, "d", "halfspaces", 1, 2)
    b = check_int(b, "b", "halfspaces", 1, 4 if d == 2 else 10)
    side = 1 << b
    pts = tuples(side, d).astype(np.float64)
    if d == 1:
        directions = np.array([[1.0], [-1.0]])
    else:
        r = np.arange(-(side - 1), side)
        v = np.stack(np.meshgrid(r, r, indexing="ij"), axis=-1).reshape(-1, 2)
        v = v[np.gcd(v[:, 0], v[:, 1]) == 1]  # primitive difference vectors
        # orthogonal complements of these directions are again primitive vectors in range: same angle set
        angles = np.sort(np.arctan2(v[:, 1], v[:, 0]))
        mids = (angles + np.append(angles[1:], angles[0] + 2 * np.pi)) / 2
        directions = np.stack([np.cos(mids), np.sin(mids)], axis=1)
    n = side**d
    check_size(directions.shape[0] * (n + 1), n, "halfspaces", "b, d")
    table = cut_table(directions @ pts.T, "halfspaces")
    return _grid_class(table, "halfspaces", "HS_b^d", b, d, numbered("hs", table.shape[0]))


def balls(b: int, d: int = 2) -> HypothesisClass:
    """Euclidean balls ``BALL_b^d`` restricted to the grid ``[2^b]^d`` (FX §4.1), for ``d`` in {1, 2}.

    All distinct sets ``{x in grid : |x - c| <= r}`` (``c`` in ``R^d``, ``r >= 0``),
    the empty set included.  Rows are sorted canonically.

    Exactness: a ball's trace is a prefix of the order of the grid points by
    distance to ``c``; the order only changes when ``c`` crosses a
    perpendicular bisector of two grid points, and cuts made with ties are
    prefixes for nearby centers too.  One center is taken strictly inside every
    face of the bisector arrangement (next to the middle of every edge, at a
    distance proven smaller than that to any other bisector), so every trace is
    found.  For ``d = 1`` this is the class of intervals with the empty one.

    VC dimension ``d + 1``; FX cite ``LDim(BALL_b^d) = Ω(b·d^2)``.

    Parameters
    ----------
    b : int
        Bits per coordinate (grid side ``2^b``); ``1 <= b <= 3`` for ``d = 2``,
        ``1 <= b <= 10`` for ``d = 1``.
    d : int, default 2
        Dimension, 1 or 2.

    Returns
    -------
    HypothesisClass

    References
    ----------
    FX §4.1, item 4 (``BALL_b^d``).

    Examples
    --------
    >>> balls(1, 2).n_hypotheses   # the 2 diagonals of the 2x2 grid are not traces of discs
    14
    >>> balls(2, 1).n_hypotheses   # 10 intervals of 4 points and the empty set
    11
    """
    d = check_int(d, "d", "balls", 1, 2)
    b = check_int(b, "b", "balls", 1, 3 if d == 2 else 10)
    side = 1 << b
    pts = tuples(side, d)
    if d == 1:
        # bisectors are the half-integers and integers (p+q)/2; these centers avoid all of them
        centers = (np.arange(-1, 2 * side) / 2 + 0.25)[:, None]
    else:
        centers = ball_centers_2d(pts)
    n = side**d
    check_size(centers.shape[0] * d, n, "balls", "b, d")
    table = cut_table(-((centers[:, None, :] - pts[None, :, :].astype(np.float64)) ** 2).sum(axis=2), "balls")
    return _grid_class(table, "balls", "BALL_b^d", b, d, numbered("ball", table.shape[0]))


def lines(p: int) -> HypothesisClass:
    """``Line_p``: the non-vertical lines of the plane ``Z_p^2`` (FX §5).

    ``f_{a,b}(x, y) = 1`` iff ``a·x + b = y (mod p)``, for ``a, b`` in ``Z_p``:
    ``p^2`` hypotheses over the ``p^2`` points ``(x, y)`` (named ``"x:y"``,
    ``x`` slowest; hypothesis ``(a, b)`` is row ``a·p + b``, named
    ``"y=ax+b"``).  Two distinct lines meet in at most one point; FX note
    ``LDim(Line_p) = 2``.

    Parameters
    ----------
    p : int
        A prime, ``p <= 113`` (so the table stays within ``MAX_CELLS``).

    Returns
    -------
    HypothesisClass

    References
    ----------
    FX §5 (definition of ``Line_p``, separation of PRDim from LDim).

    Examples
    --------
    >>> H = lines(2)
    >>> H.hypothesis_names[3], H.table[3].tolist()   # y = x + 1 contains (0,1) and (1,0)
    ('y=1x+1', [0, 1, 1, 0])
    """
    p = check_int(p, "p", "lines", 2, 113)
    if not _is_prime(p):
        raise parameter_error("p", "lines", "a prime (Z_p must be a field)", p)
    check_size(p * p, p * p, "lines", "p")
    plane = tuples(p, 2)  # the pairs (a, b) of the rows and the points (x, y) of the columns, in one order
    a, b = plane[:, :1], plane[:, 1:]
    x, y = plane[:, 0][None, :], plane[:, 1][None, :]
    table = (a * x + b - y) % p == 0
    names = [f"y={i}x+{j}" for i, j in plane.tolist()]
    return make(
        table,
        family="lines",
        params={"p": p},
        source="FX §5 (Line_p)",
        name=f"lines-{p}",
        point_names=coordinate_names(plane),
        hypothesis_names=names,
    )
