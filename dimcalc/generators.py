"""Standard hypothesis classes: named families from the papers, built with numpy.

Every generator returns a :class:`~dimcalc.HypothesisClass` with a name, point
names, hypothesis names and ``metadata = {"family": ..., "params": {...},
"source": ...}``, so a generated file says where it came from.  Parameters are
validated up front; a class that would exceed
:data:`~dimcalc.hypothesis_class.MAX_CELLS` table cells is refused before
anything is built.

Binary families
---------------
* :func:`point_functions` ``(n)`` -- the ``n`` indicators ``1[x = j]``.
* :func:`k_point_functions` ``(n, k)`` -- indicators of the ``C(n, k)`` sets of
  exactly ``k`` points.
* :func:`thresholds` ``(n)`` -- the ``n + 1`` distinct thresholds
  ``t_j(x_i) = 1[i >= j]``, ``j = 0..n`` (``t_n`` is all zeros).
* :func:`intervals` ``(n)`` -- the ``n(n + 1)/2`` intervals ``[a, b]`` and the
  empty interval.
* :func:`parities` ``(d)`` -- the ``2^d`` parities over ``{0, 1}^d``.
* :func:`boxes`, :func:`halfspaces`, :func:`balls` ``(b, d)`` -- FX §4.1
  ``BOX_b^d``, ``HS_b^d``, ``BALL_b^d`` over the grid ``[2^b]^d``.
* :func:`lines` ``(p)`` -- FX §5 ``Line_p`` over ``Z_p^2``.
* :func:`random_class` -- seeded random tables (binary or multiclass).

Multiclass families (BGS)
-------------------------
* :func:`bgs_thm61_class` ``(k, d)`` -- BGS Theorem 6.1: ``MLD = d`` while
  the first binary restriction has Littlestone dimension about ``d log k``.
* :func:`bgs_thm72_class` ``(d, bits, n)`` -- BGS Theorem 7.2: every binary
  restriction is the class of ``d``-point functions, ``MLD = d · bits``.
* BGS Claim 6.2 is :func:`dimcalc.operations.gap_amplification`.

:data:`GENERATORS` describes every family and its parameters for
``dimcalc generate``.

References
----------
.. [BGS] M. Bun, M. Gaboardi, S. Sivakumar. Multiclass versus Binary
   Differentially Private PAC Learning. NeurIPS 2021.
.. [FX] V. Feldman, D. Xiao. Sample Complexity Bounds on Differentially
   Private Learning via Communication Complexity. COLT 2014.
.. [BNS] M. Bun, K. Nissim, U. Stemmer. Simultaneous Private Learning of
   Multiple Concepts. JMLR 20 (2019).
"""

from __future__ import annotations

import itertools
import math
import operator
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from .bit_table import BitTable
from .errors import InvalidParameterError, parameter_error
from .hypothesis_class import MAX_BINARY_CELLS, MAX_CELLS, HypothesisClass
from .operations import gap_amplification
from .table_input import cell_limit

__all__ = [
    "point_functions",
    "k_point_functions",
    "thresholds",
    "intervals",
    "parities",
    "boxes",
    "halfspaces",
    "balls",
    "lines",
    "random_class",
    "bgs_thm61_class",
    "bgs_thm72_class",
    "Generator",
    "GeneratorParam",
    "GENERATORS",
]


# ---------------------------------------------------------------------------- helpers
def _int_param(value: Any, name: str, owner: str, low: int, high: int | None = None) -> int:
    requirement = f"an int in [{low}, {high}]" if high is not None else f"an int >= {low}"
    if isinstance(value, (bool, np.bool_)):
        raise parameter_error(name, owner, requirement, value)
    try:
        value = operator.index(value)
    except TypeError:
        raise parameter_error(name, owner, requirement, value) from None
    if value < low or (high is not None and value > high):
        raise parameter_error(name, owner, requirement, value)
    return int(value)


def _check_size(rows: int, cols: int, owner: str, params: str, limit: int | None = None) -> None:
    """Refuse, before building, a table over ``limit`` cells (default MAX_CELLS; binary tables built one
    bit per cell may have MAX_BINARY_CELLS)."""
    limit = MAX_CELLS if limit is None else limit
    if rows * max(cols, 1) > limit:
        raise InvalidParameterError(
            f"{owner}: these parameters ({params}) give a {rows} x {cols} table, over dimcalc's limit of "
            f"{limit} cells; choose smaller ones"
        )


def _make(
    table: np.ndarray | BitTable,
    *,
    family: str,
    params: dict,
    source: str,
    name: str,
    point_names: list[str],
    hypothesis_names: list[str],
    num_labels: int = 2,
) -> HypothesisClass:
    return HypothesisClass(
        table,
        num_labels=num_labels,
        point_names=point_names,
        hypothesis_names=hypothesis_names,
        name=name,
        metadata={"family": family, "params": dict(params), "source": source},
    )


def _grid(side: int, d: int) -> np.ndarray:
    """All points of ``[side]^d`` as rows, first coordinate slowest (row-major)."""
    return np.indices((side,) * d).reshape(d, -1).T.astype(np.int64)


def _coord_names(points: np.ndarray) -> list[str]:
    return [":".join(map(str, row)) for row in points.tolist()]


def _sorted_distinct(table: np.ndarray) -> np.ndarray:
    """Distinct rows of a 0/1 table in a canonical (sorted) order."""
    if table.shape[0] == 0:
        return table
    packed = np.packbits(table.astype(np.uint8), axis=1)
    keys = np.ascontiguousarray(packed).view(np.dtype((np.void, packed.shape[1])))[:, 0]
    _, first = np.unique(keys, return_index=True)
    return table[first]


def _prefix_sets(orders: np.ndarray) -> np.ndarray:
    """Distinct sets formed by the first ``j`` points (``j = 0..N``) of each order.

    ``orders`` is an ``O x N`` array of permutations of the points.  Work is
    chunked so memory stays bounded; the result is sorted canonically.
    """
    n_orders, n = orders.shape
    if n <= 64:  # each prefix set is exactly a 64-bit mask (sums of distinct powers of two)
        bits = np.left_shift(np.uint64(1), orders.astype(np.uint64))
        masks = np.cumsum(bits, axis=1, dtype=np.uint64)
        masks = np.unique(np.concatenate([[np.uint64(0)], masks.reshape(-1)]))
        table = (masks[:, None] >> np.arange(n, dtype=np.uint64)[None, :]) & np.uint64(1)
        return _sorted_distinct(table.astype(np.int64))
    rank = np.empty_like(orders)
    np.put_along_axis(rank, orders, np.arange(n)[None, :].repeat(n_orders, axis=0), axis=1)
    chunk = max(1, 4_000_000 // ((n + 1) * max(n, 1)))
    sizes = np.arange(n + 1)[None, :, None]
    parts = []
    for start in range(0, n_orders, chunk):
        block = rank[start : start + chunk][:, None, :] < sizes  # chunk x (N+1) x N
        parts.append(_sorted_distinct(block.reshape(-1, n)))
    return _sorted_distinct(np.concatenate(parts, axis=0))


def _order_from_scores(scores: np.ndarray, owner: str) -> np.ndarray:
    """Orders of the points by decreasing score; the scores of a row must have no ties."""
    orders = np.argsort(-scores, axis=1, kind="stable")
    ranked = np.take_along_axis(scores, orders, axis=1)
    gaps = ranked[:, :-1] - ranked[:, 1:]
    scale = max(1.0, float(np.abs(scores).max()))
    if gaps.size and gaps.min() <= 1e-12 * scale:  # cannot happen for generic directions/centers
        raise RuntimeError(f"{owner}: internal error: a sampled direction is not generic (tie in the order)")
    return orders


def _is_prime(p: int) -> bool:
    if p < 2:
        return False
    return all(p % q for q in range(2, math.isqrt(p) + 1))


# ---------------------------------------------------------------------------- binary families
def point_functions(n: int) -> HypothesisClass:
    """Point functions over ``n`` points: ``f_j(x_i) = 1`` iff ``i = j``.

    ``n`` hypotheses (the all-zero function is *not* included); VC dimension
    and Littlestone dimension 1 when ``n >= 2``.

    Parameters
    ----------
    n : int
        Number of points, ``n >= 1``.

    Returns
    -------
    HypothesisClass

    References
    ----------
    BNS §6 (PointLearner, Algorithm 5; ``POINT_d``).

    Examples
    --------
    >>> point_functions(3).table.tolist()
    [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    """
    n = _int_param(n, "n", "point_functions", 1)
    _check_size(n, n, "point_functions", "n")
    return _make(
        np.eye(n, dtype=np.int64),
        family="point-functions",
        params={"n": n},
        source="BNS §6, POINT (PointLearner)",
        name=f"point-functions-{n}",
        point_names=[f"x{i}" for i in range(n)],
        hypothesis_names=[f"pt{j}" for j in range(n)],
    )


def k_point_functions(n: int, k: int) -> HypothesisClass:
    """Indicators of the sets of exactly ``k`` of ``n`` points (``C(n, k)`` hypotheses).

    Rows follow the lexicographic order of the ``k``-sets.  VC and Littlestone
    dimension ``min(k, n - k)``.

    Parameters
    ----------
    n : int
        Number of points, ``n >= 1``.
    k : int
        Set size, ``1 <= k <= n``.

    Returns
    -------
    HypothesisClass

    References
    ----------
    BGS Theorem 7.2 (its binary restrictions are ``d``-point functions).

    Examples
    --------
    >>> H = k_point_functions(4, 2)
    >>> H.n_hypotheses, H.hypothesis_names[:2], H.table[0].tolist()
    (6, ('{0,1}', '{0,2}'), [1, 1, 0, 0])
    """
    n = _int_param(n, "n", "k_point_functions", 1)
    k = _int_param(k, "k", "k_point_functions", 1, n)
    _check_size(math.comb(n, k), n, "k_point_functions", "n")
    table, names = _k_subsets(n, k)
    return _make(
        table,
        family="k-point-functions",
        params={"n": n, "k": k},
        source="BGS Theorem 7.2 (d-point functions)",
        name=f"{k}-point-functions-{n}",
        point_names=[f"x{i}" for i in range(n)],
        hypothesis_names=names,
    )


def _k_subsets(n: int, k: int) -> tuple[np.ndarray, list[str]]:
    combos = np.array(list(itertools.combinations(range(n), k)), dtype=np.int64).reshape(-1, k)
    table = np.zeros((combos.shape[0], n), dtype=np.int64)
    np.put_along_axis(table, combos, 1, axis=1)
    names = ["{" + ",".join(map(str, c)) + "}" for c in combos.tolist()]
    return table, names


def thresholds(n: int) -> HypothesisClass:
    """The ``n + 1`` threshold functions over ``n`` ordered points.

    ``t_j(x_i) = 1`` iff ``i >= j``, for ``j = 0, ..., n``; ``t_0`` is all ones
    and ``t_n`` all zeros.  These are all the distinct thresholds on ``n``
    points, so the VC dimension is 1 and the Littlestone dimension is
    ``floor(log2(n + 1))``.  (FX's ``Thr_b`` is ``t_0..t_{n-1}`` with
    ``n = 2^b``, i.e. this class without the all-zero function.)

    Parameters
    ----------
    n : int
        Number of points, ``n >= 1``.

    Returns
    -------
    HypothesisClass

    References
    ----------
    FX §3.1 and §4.1 (``Thr_b``, ``LDim = b``); Littlestone (1988).

    Examples
    --------
    >>> thresholds(2).table.tolist()
    [[1, 1], [0, 1], [0, 0]]
    """
    n = _int_param(n, "n", "thresholds", 1)
    _check_size(n + 1, n, "thresholds", "n", MAX_BINARY_CELLS)
    table = BitTable.from_prefixes(n + 1, np.arange(1, n + 1))  # t_j(x_i) = 1 iff j <= i: one bit per cell
    return _make(
        table,
        family="thresholds",
        params={"n": n},
        source="FX §4.1 (Thr_b), with the all-zero threshold",
        name=f"thresholds-{n}",
        point_names=[f"x{i}" for i in range(n)],
        hypothesis_names=[f"t{j}" for j in range(n + 1)],
    )


def intervals(n: int) -> HypothesisClass:
    """Intervals over ``n`` ordered points, the empty interval included.

    Rows are ``[a, b]`` (``1[a <= i <= b]``) for ``0 <= a <= b < n`` in
    lexicographic order, then the empty interval: ``n(n + 1)/2 + 1``
    hypotheses.  VC dimension 2 when ``n >= 2``.

    Parameters
    ----------
    n : int
        Number of points, ``n >= 1``.

    Returns
    -------
    HypothesisClass

    Examples
    --------
    >>> H = intervals(2)
    >>> H.table.tolist(), H.hypothesis_names
    ([[1, 0], [1, 1], [0, 1], [0, 0]], ('[0,0]', '[0,1]', '[1,1]', 'empty'))
    """
    n = _int_param(n, "n", "intervals", 1)
    _check_size(n * (n + 1) // 2 + 1, n, "intervals", "n")
    a, b = np.triu_indices(n)
    x = np.arange(n)[None, :]
    table = np.vstack([(x >= a[:, None]) & (x <= b[:, None]), np.zeros((1, n), dtype=bool)])
    names = [f"[{i},{j}]" for i, j in zip(a.tolist(), b.tolist())] + ["empty"]
    return _make(
        table,
        family="intervals",
        params={"n": n},
        source="intervals on a line (with the empty interval)",
        name=f"intervals-{n}",
        point_names=[f"x{i}" for i in range(n)],
        hypothesis_names=names,
    )


def parities(d: int) -> HypothesisClass:
    """All ``2^d`` parity functions over the domain ``{0, 1}^d``.

    ``chi_S(x) = <S, x> mod 2`` for ``S, x`` in ``{0, 1}^d``.  Point ``u`` and
    hypothesis ``s`` are the integers whose ``d``-bit binary strings (most
    significant first) name them.  VC and Littlestone dimension ``d``.

    Parameters
    ----------
    d : int
        Dimension, ``1 <= d <= 13``.

    Returns
    -------
    HypothesisClass

    References
    ----------
    BNS §6 (ParityLearner, Algorithm 4).

    Examples
    --------
    >>> H = parities(2)
    >>> H.point_names, H.table.tolist()
    (('00', '01', '10', '11'), [[0, 0, 0, 0], [0, 1, 0, 1], [0, 0, 1, 1], [0, 1, 1, 0]])
    """
    d = _int_param(d, "d", "parities", 1, 13)
    size = 1 << d
    _check_size(size, size, "parities", "d")
    v = np.arange(size)[:, None] & np.arange(size)[None, :]
    parity = np.zeros_like(v)
    for bit in range(d):
        parity ^= (v >> bit) & 1
    labels = [format(u, f"0{d}b") for u in range(size)]
    return _make(
        parity,
        family="parities",
        params={"d": d},
        source="BNS §6 (PARITY, ParityLearner)",
        name=f"parities-{d}",
        point_names=labels,
        hypothesis_names=[f"chi_{s}" for s in labels],
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
    b = _int_param(b, "b", "boxes", 1, 30)
    d = _int_param(d, "d", "boxes", 1, 30)
    side = 1 << b
    per_dim = side * (side + 1) // 2
    _check_size(per_dim**d + 1, side**d, "boxes", "b, d")
    lo, hi = np.triu_indices(side)
    x = np.arange(side)[None, :]
    member = (x >= lo[:, None]) & (x <= hi[:, None])  # per_dim x side
    table = member
    for _ in range(d - 1):
        table = (table[:, None, :, None] & member[None, :, None, :]).reshape(table.shape[0] * per_dim, -1)
    table = np.vstack([table, np.zeros((1, table.shape[1]), dtype=bool)])
    which = np.indices((per_dim,) * d).reshape(d, -1).T
    names = []
    for row in which.tolist():
        s = ":".join(str(int(lo[w])) for w in row)
        t = ":".join(str(int(hi[w])) for w in row)
        names.append(f"[{s}..{t}]")
    names.append("empty")
    return _make(
        table,
        family="boxes",
        params={"b": b, "d": d},
        source="FX §4.1 (BOX_b^d)",
        name=f"boxes-b{b}-d{d}",
        point_names=_coord_names(_grid(side, d)),
        hypothesis_names=names,
    )


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
    d = _int_param(d, "d", "halfspaces", 1, 2)
    b = _int_param(b, "b", "halfspaces", 1, 4 if d == 2 else 10)
    side = 1 << b
    pts = _grid(side, d).astype(np.float64)
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
    _check_size(directions.shape[0] * (n + 1), n, "halfspaces", "b, d")
    orders = _order_from_scores(directions @ pts.T, "halfspaces")
    table = _prefix_sets(orders)
    return _make(
        table,
        family="halfspaces",
        params={"b": b, "d": d},
        source="FX §4.1 (HS_b^d)",
        name=f"halfspaces-b{b}-d{d}",
        point_names=_coord_names(_grid(side, d)),
        hypothesis_names=[f"hs{j}" for j in range(table.shape[0])],
    )


def _ball_centers_2d(pts: np.ndarray) -> np.ndarray:
    """One center strictly inside every face of the arrangement of perpendicular bisectors."""
    p_idx, q_idx = np.triu_indices(pts.shape[0], k=1)
    p, q = pts[p_idx], pts[q_idx]
    # bisector of p, q:  2(q - p)·c = |q|^2 - |p|^2   (integers), normalised and deduplicated
    lines = np.column_stack([2 * (q - p), (q * q).sum(1) - (p * p).sum(1)])
    g = np.gcd.reduce(np.abs(lines), axis=1)
    lines //= g[:, None]
    sign = np.where((lines[:, 0] < 0) | ((lines[:, 0] == 0) & (lines[:, 1] < 0)), -1, 1)
    lines = np.unique(lines * sign[:, None], axis=0)
    a, bb, c = (lines[:, i].astype(np.float64) for i in range(3))
    norm = np.hypot(a, bb)
    nx, ny = a / norm, bb / norm  # unit normals
    ux, uy = -ny, nx  # unit directions
    ox, oy = nx * c / norm, ny * c / norm  # a point on each line
    cross = a[:, None] * bb[None, :] - a[None, :] * bb[:, None]
    parallel = cross == 0
    with np.errstate(divide="ignore", invalid="ignore"):
        ix = (c[:, None] * bb[None, :] - c[None, :] * bb[:, None]) / cross
        iy = (a[:, None] * c[None, :] - a[None, :] * c[:, None]) / cross
    t = (ix - ox[:, None]) * ux[:, None] + (iy - oy[:, None]) * uy[:, None]  # parameter along line i
    sines = np.abs(cross) / (norm[:, None] * norm[None, :])
    s_min = float(sines[~parallel].min()) if (~parallel).any() else 1.0
    offsets = c / norm
    gaps = np.abs(offsets[:, None] - offsets[None, :])[parallel & ~np.eye(len(c), dtype=bool)]
    g_min = float(gaps.min()) if gaps.size else 1.0
    centers = []
    for i in range(len(c)):
        ts = np.unique(np.round(t[i][~parallel[i]], 9))
        if ts.size == 0:
            params, half_gaps = np.array([0.0]), np.array([1.0])
        else:
            params = np.concatenate([[ts[0] - 1.0], (ts[:-1] + ts[1:]) / 2, [ts[-1] + 1.0]])
            half_gaps = np.concatenate([[1.0], (ts[1:] - ts[:-1]) / 2, [1.0]])
        # any other line is at distance >= min(half_gap * s_min, g_min) from these points
        eps = 0.5 * np.minimum(half_gaps * s_min, g_min)
        for side in (1.0, -1.0):
            centers.append(
                np.column_stack(
                    [ox[i] + params * ux[i] + side * eps * nx[i], oy[i] + params * uy[i] + side * eps * ny[i]]
                )
            )
    return np.concatenate(centers, axis=0)


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
    d = _int_param(d, "d", "balls", 1, 2)
    b = _int_param(b, "b", "balls", 1, 3 if d == 2 else 10)
    side = 1 << b
    pts = _grid(side, d)
    if d == 1:
        # bisectors are the half-integers and integers (p+q)/2; these centers avoid all of them
        centers = (np.arange(-1, 2 * side) / 2 + 0.25)[:, None]
    else:
        centers = _ball_centers_2d(pts)
    n = side**d
    _check_size(centers.shape[0] * d, n, "balls", "b, d")
    diff = centers[:, None, :] - pts[None, :, :].astype(np.float64)
    orders = _order_from_scores(-(diff * diff).sum(axis=2), "balls")
    keys = np.ascontiguousarray(orders.astype(np.uint16)).view(np.dtype((np.void, 2 * n)))[:, 0]
    orders = orders[np.unique(keys, return_index=True)[1]]  # distinct orders only
    del diff
    table = _prefix_sets(orders)
    return _make(
        table,
        family="balls",
        params={"b": b, "d": d},
        source="FX §4.1 (BALL_b^d)",
        name=f"balls-b{b}-d{d}",
        point_names=_coord_names(pts),
        hypothesis_names=[f"ball{j}" for j in range(table.shape[0])],
    )


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
    p = _int_param(p, "p", "lines", 2, 113)
    if not _is_prime(p):
        raise parameter_error("p", "lines", "a prime (Z_p must be a field)", p)
    _check_size(p * p, p * p, "lines", "p")
    a, b = (v.reshape(-1, 1) for v in np.indices((p, p)).reshape(2, -1))
    x, y = (v.reshape(1, -1) for v in np.indices((p, p)).reshape(2, -1))
    table = (a * x + b - y) % p == 0
    names = [f"y={i}x+{j}" for i in range(p) for j in range(p)]
    return _make(
        table,
        family="lines",
        params={"p": p},
        source="FX §5 (Line_p)",
        name=f"lines-{p}",
        point_names=_coord_names(_grid(p, 2)),
        hypothesis_names=names,
    )


def random_class(hypotheses: int, points: int, labels: int = 2, seed: int = 0) -> HypothesisClass:
    """A random table with labels drawn uniformly from ``0..labels-1`` (seeded).

    Parameters
    ----------
    hypotheses : int
        Number of rows, ``>= 1``.
    points : int
        Number of points, ``>= 1``.
    labels : int, default 2
        Number of labels ``k + 1``, ``2 <= labels <= 65536``.
    seed : int, default 0
        Seed of ``numpy.random.default_rng``; the same seed gives the same table.

    Returns
    -------
    HypothesisClass
        Duplicate rows may occur; ``num_labels = labels``.

    Examples
    --------
    >>> random_class(3, 4, labels=3, seed=1) == random_class(3, 4, labels=3, seed=1)
    True
    """
    hypotheses = _int_param(hypotheses, "hypotheses", "random_class", 1)
    points = _int_param(points, "points", "random_class", 1)
    labels = _int_param(labels, "labels", "random_class", 2, 1 << 16)
    seed = _int_param(seed, "seed", "random_class", 0)
    _check_size(hypotheses, points, "random_class", "hypotheses, points", cell_limit(labels))
    rng = np.random.default_rng(seed)
    table: np.ndarray | BitTable
    if labels == 2:  # the same stream drawn in chunks, one bit per cell: no dense table
        table = BitTable.from_row_stream(hypotheses, points, lambda k: rng.integers(0, 2, size=k, dtype=np.int64))
    else:
        table = rng.integers(0, labels, size=(hypotheses, points), dtype=np.int64)
    kind = "binary" if labels == 2 else f"{labels}-labels"
    return _make(
        table,
        family="random",
        params={"hypotheses": hypotheses, "points": points, "labels": labels, "seed": seed},
        source="uniform random labels (numpy default_rng)",
        num_labels=labels,
        name=f"random-{kind}-{hypotheses}x{points}-seed{seed}",
        point_names=[f"x{i}" for i in range(points)],
        hypothesis_names=[f"h{j}" for j in range(hypotheses)],
    )


# ---------------------------------------------------------------------------- BGS multiclass classes
def _bgs_thm61_base(k: int) -> HypothesisClass:
    """The class F of the proof of BGS Theorem 6.1 (d = 1), labels 0..k."""
    kp = k if k % 2 == 0 else k + 1  # k' of the proof
    half = kp // 2  # |X| = k'/2, X = [k'/2 - 1]
    t = np.arange(half)[:, None]
    x = np.arange(half)[None, :]
    table = 2 * t + (t >= x)  # f_t(x) = (g_t(x), t), g_t = bit 1
    return HypothesisClass(
        table.astype(np.int64),
        num_labels=k + 1,
        point_names=[f"x{i}" for i in range(half)],
        hypothesis_names=[f"f{i}" for i in range(half)],
        name=f"bgs-thm61-F-k{k}",
    )


def bgs_thm61_class(k: int, d: int = 1) -> HypothesisClass:
    """The class of BGS Theorem 6.1: ``MLD = d``, binary restrictions of Littlestone dimension ``Ω(d log k)``.

    Construction from the proof, for ``k >= 5`` and ``d >= 1``: let ``k' = k``
    (``k`` even) or ``k + 1`` (``k`` odd), ``X = [k'/2 - 1] = {0, ..., k'/2 - 1}``
    and ``g_t(x) = 1[t >= x]`` for ``t`` in ``X``.  The class ``F`` has one
    function per ``t``: ``f_t(x) = (g_t(x), t)``, encoded as the label
    ``2t + g_t(x)`` so that the threshold bit ``g_t`` is binary restriction
    ``F|_1`` (bit 1 = least significant, dimcalc's convention).  Labels used
    are ``0..k'-1``; the class declares ``k + 1`` labels, so for even ``k``
    label ``k`` is the extra unused label of the proof.  ``MLD(F) = 1``
    (a label names ``t``) and ``F|_1`` is the class of thresholds over ``X``.
    For ``d > 1`` the result is :func:`~dimcalc.operations.gap_amplification`
    ``(F, d)`` (Claim 6.2): ``MLD = d`` and ``LDim(·|_1) >= d·floor(log2(k'/2))``.

    The cases ``k <= 4`` and ``d = 0`` are trivial in the paper (any class
    works) and are refused.

    Parameters
    ----------
    k : int
        Largest label, ``5 <= k``; the class has ``k + 1`` labels.
    d : int, default 1
        Target multiclass Littlestone dimension, ``d >= 1``.

    Returns
    -------
    HypothesisClass
        ``(k'/2)^d`` hypotheses over ``d·k'/2`` points.

    References
    ----------
    BGS Theorem 6.1 and its proof; Claim 6.2 (gap amplification).

    Examples
    --------
    >>> F = bgs_thm61_class(5)
    >>> F.num_labels, F.table.tolist()
    (6, [[1, 0, 0], [3, 3, 2], [5, 5, 5]])
    >>> bgs_thm61_class(5, d=2).n_hypotheses
    9
    """
    k = _int_param(k, "k", "bgs_thm61_class", 5, (1 << 16) - 1)
    d = _int_param(d, "d", "bgs_thm61_class", 1)
    half = (k if k % 2 == 0 else k + 1) // 2
    if half**d * d * half > MAX_CELLS:
        raise parameter_error("d", "bgs_thm61_class", f"small enough for (k'/2)^d x d·k'/2 <= {MAX_CELLS} cells", d)
    F = _bgs_thm61_base(k)
    G = F if d == 1 else gap_amplification(F, d)
    return _make(
        G.table,
        family="bgs-thm61",
        params={"k": k, "d": d},
        source="BGS Theorem 6.1 (proof), amplified by Claim 6.2",
        num_labels=k + 1,
        name=f"bgs-thm61-k{k}-d{d}",
        point_names=list(G.point_names),
        hypothesis_names=list(G.hypothesis_names),
    )


def bgs_thm72_class(d: int, bits: int, n: int | None = None) -> HypothesisClass:
    """A finite version of the class of BGS Theorem 7.2: ``MLD = d·bits``, every ``H|_i`` of LDim ``d``.

    BGS take the class ``H`` over ``N`` whose binary restrictions
    ``H|_1, ..., H|_bits`` are *all* the class of ``d``-point functions: ``H``
    has one function per tuple ``(S_1, ..., S_bits)`` of ``d``-subsets, with
    ``h(x) = sum_i 2^(i-1)·1[x in S_i]`` (bit 1 = least significant).  Here the
    domain is ``{0, ..., n-1}``, giving ``C(n, d)^bits`` hypotheses with
    ``2^bits`` labels (``k = 2^bits - 1``).

    With ``n >= (bits + 1)·d`` (the default) the theorem's conclusion holds for
    the finite class: each ``H|_i`` is the class of ``d``-point functions over
    ``n >= 2d`` points, whose Littlestone dimension is ``d`` (predicting 0
    errs at most ``d`` times; a depth-``d`` tree queries ``d`` fixed points and
    the remaining ones of every ``S`` fit among the other ``n - d >= d``), and
    the proof's tree uses ``bits`` disjoint blocks of ``d`` points plus ``d``
    spare points to complete every ``S_i``, so ``MLD >= d·bits``, while
    ``MLD <= d·bits`` by Theorem 7.1.

    Parameters
    ----------
    d : int
        Points per set, ``d >= 1``.
    bits : int
        Number of bits of a label, ``1 <= bits <= 16``.
    n : int, optional
        Domain size, ``n >= d``; default ``(bits + 1)·d``.

    Returns
    -------
    HypothesisClass
        Rows enumerate ``(S_1, ..., S_bits)`` with ``S_1`` slowest, each
        ``S_i`` in lexicographic order; hypotheses are named
        ``"S_1|S_2|..."``, e.g. ``"{0}|{2}"``.

    References
    ----------
    BGS Theorem 7.2 and its proof; Theorem 7.1.

    Examples
    --------
    >>> H = bgs_thm72_class(1, 2)
    >>> H.n_hypotheses, H.n_points, H.num_labels
    (9, 3, 4)
    >>> H.hypothesis_names[1], H.table[1].tolist()
    ('{0}|{1}', [1, 2, 0])
    """
    d = _int_param(d, "d", "bgs_thm72_class", 1)
    bits = _int_param(bits, "bits", "bgs_thm72_class", 1, 16)
    n = (bits + 1) * d if n is None else _int_param(n, "n", "bgs_thm72_class", d)
    m = math.comb(n, d)
    _check_size(m**bits, n, "bgs_thm72_class", "d, bits, n")
    sets, set_names = _k_subsets(n, d)
    rows = np.arange(m**bits, dtype=np.int64)
    table = np.zeros((m**bits, n), dtype=np.int64)
    digits = []
    for i in range(1, bits + 1):
        choice = (rows // m ** (bits - i)) % m  # S_i, with S_1 slowest
        table += sets[choice] << (i - 1)
        digits.append(choice.tolist())
    names = ["|".join(set_names[digits[i][r]] for i in range(bits)) for r in range(m**bits)]
    return _make(
        table,
        family="bgs-thm72",
        params={"d": d, "bits": bits, "n": n},
        source="BGS Theorem 7.2 (finite domain)",
        num_labels=1 << bits,
        name=f"bgs-thm72-d{d}-bits{bits}-n{n}",
        point_names=[f"x{i}" for i in range(n)],
        hypothesis_names=names,
    )


# ---------------------------------------------------------------------------- registry
@dataclass(frozen=True)
class GeneratorParam:
    """One parameter of a generator family.

    Attributes
    ----------
    name : str
        Keyword argument of the generator function (``--name`` on the CLI).
    type : str
        ``"int"`` or ``"path"`` (a class file, loaded with :func:`dimcalc.io.load`).
    help : str
        What it means.
    default : int or None
        Default value; ``None`` means the parameter is required (or, where the
        function has its own ``None`` default, computed by it).
    required : bool
        Whether it must be given.
    """

    name: str
    type: str
    help: str
    default: int | None = None
    required: bool = False


@dataclass(frozen=True)
class Generator:
    """A family of classes: its CLI name, generator function, parameters and source."""

    name: str
    function: Callable[..., HypothesisClass]
    summary: str
    source: str
    params: tuple[GeneratorParam, ...]

    def build(self, **kwargs: Any) -> HypothesisClass:
        """Build the class; missing parameters take their defaults (required ones must be given)."""
        known = {p.name for p in self.params}
        for key in kwargs:
            if key not in known:
                raise parameter_error(key, f"family {self.name!r}", f"one of {sorted(known)}", key)
        args = {}
        for p in self.params:
            if kwargs.get(p.name) is not None:
                args[p.name] = kwargs[p.name]
            elif p.required:
                raise parameter_error(p.name, f"family {self.name!r}", f"given ({p.help})", None)
            elif p.default is not None:
                args[p.name] = p.default
        return self.function(**args)


def _gap_amplification_file(input: str | os.PathLike, ell: int) -> HypothesisClass:
    from .io import load

    H = load(input)
    G = gap_amplification(H, ell)
    return HypothesisClass(
        G.table,
        num_labels=G.num_labels,
        point_names=list(G.point_names),
        hypothesis_names=list(G.hypothesis_names),
        name=G.name,
        metadata={
            "family": "gap-amplification",
            "params": {"input": H.name, "ell": G.metadata["ell"]},
            "source": "BGS Claim 6.2, equation (7)",
        },
    )


def _p(name: str, help: str, default: int | None = None, required: bool = False, type: str = "int") -> GeneratorParam:
    return GeneratorParam(name=name, type=type, help=help, default=default, required=required)


#: Every family ``dimcalc generate`` knows, by CLI name.
GENERATORS: dict[str, Generator] = {
    g.name: g
    for g in (
        Generator(
            "point-functions",
            point_functions,
            "indicators 1[x = j] of single points",
            "BNS §6",
            (_p("n", "number of points", required=True),),
        ),
        Generator(
            "k-point-functions",
            k_point_functions,
            "indicators of all sets of exactly k points",
            "BGS Thm 7.2",
            (_p("n", "number of points", required=True), _p("k", "points per set", required=True)),
        ),
        Generator(
            "thresholds",
            thresholds,
            "the n+1 thresholds 1[i >= j], j = 0..n, over n points",
            "FX §4.1",
            (_p("n", "number of points", required=True),),
        ),
        Generator(
            "intervals",
            intervals,
            "intervals [a, b] over n points, plus the empty interval",
            "-",
            (_p("n", "number of points", required=True),),
        ),
        Generator(
            "parities",
            parities,
            "the 2^d parities over {0,1}^d",
            "BNS §6",
            (_p("d", "dimension (1..13)", required=True),),
        ),
        Generator(
            "boxes",
            boxes,
            "axis-parallel boxes over the grid [2^b]^d, plus the empty box",
            "FX §4.1 BOX_b^d",
            (_p("b", "bits per coordinate (grid side 2^b)", required=True), _p("d", "dimension", default=2)),
        ),
        Generator(
            "halfspaces",
            halfspaces,
            "halfspaces (linear thresholds) over the grid [2^b]^d, d <= 2",
            "FX §4.1 HS_b^d",
            (
                _p("b", "bits per coordinate (grid side 2^b; b <= 4 when d = 2)", required=True),
                _p("d", "dimension (1 or 2)", default=2),
            ),
        ),
        Generator(
            "balls",
            balls,
            "Euclidean balls over the grid [2^b]^d, d <= 2, plus the empty set",
            "FX §4.1 BALL_b^d",
            (
                _p("b", "bits per coordinate (grid side 2^b; b <= 3 when d = 2)", required=True),
                _p("d", "dimension (1 or 2)", default=2),
            ),
        ),
        Generator(
            "lines",
            lines,
            "non-vertical lines y = ax + b in Z_p^2",
            "FX §5 Line_p",
            (_p("p", "a prime <= 113", required=True),),
        ),
        Generator(
            "bgs-thm61",
            bgs_thm61_class,
            "f_t(x) = (1[t >= x], t), amplified d times: MLD d, LDim(H|1) ~ d log k",
            "BGS Thm 6.1",
            (
                _p("k", "largest label (>= 5); k+1 labels", required=True),
                _p("d", "multiclass Littlestone dimension", default=1),
            ),
        ),
        Generator(
            "bgs-thm72",
            bgs_thm72_class,
            "all binary restrictions are d-point functions: MLD d*bits",
            "BGS Thm 7.2",
            (
                _p("d", "points per set", required=True),
                _p("bits", "bits per label", required=True),
                _p("n", "domain size (default (bits+1)*d)"),
            ),
        ),
        Generator(
            "gap-amplification",
            _gap_amplification_file,
            "ell copies of a class on disjoint domains",
            "BGS Claim 6.2",
            (
                _p("input", "class file to amplify", required=True, type="path"),
                _p("ell", "number of copies", required=True),
            ),
        ),
        Generator(
            "random",
            random_class,
            "uniform random labels, seeded",
            "-",
            (
                _p("hypotheses", "number of rows", required=True),
                _p("points", "number of points", required=True),
                _p("labels", "number of labels k+1", default=2),
                _p("seed", "random seed", default=0),
            ),
        ),
    )
}
