"""Every cut of a point set by a family of orders: the exactness machinery of halfspaces and balls.

A halfspace (or ball) trace on a finite point set is a prefix of the order of the
points by a score (``w·x``, or minus the distance to a center).  The generators
sample one generic score per cell of the arrangement where that order is
constant; this module turns orders into the distinct prefix sets and finds the
centers of the ball arrangement in the plane.
"""

from __future__ import annotations

import numpy as np

__all__: list[str] = []


def sorted_distinct(table: np.ndarray) -> np.ndarray:
    """Distinct rows of a 0/1 table in a canonical (sorted) order."""
    if table.shape[0] == 0:
        return table
    packed = np.packbits(table.astype(np.uint8), axis=1)
    keys = np.ascontiguousarray(packed).view(np.dtype((np.void, packed.shape[1])))[:, 0]
    _, first = np.unique(keys, return_index=True)
    return table[first]


def prefix_sets(orders: np.ndarray) -> np.ndarray:
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
        return sorted_distinct(table.astype(np.int64))
    rank = np.empty_like(orders)
    np.put_along_axis(rank, orders, np.arange(n)[None, :].repeat(n_orders, axis=0), axis=1)
    chunk = max(1, 4_000_000 // ((n + 1) * max(n, 1)))
    sizes = np.arange(n + 1)[None, :, None]
    parts = []
    for start in range(0, n_orders, chunk):
        block = rank[start : start + chunk][:, None, :] < sizes  # chunk x (N+1) x N
        parts.append(sorted_distinct(block.reshape(-1, n)))
    return sorted_distinct(np.concatenate(parts, axis=0))


def order_from_scores(scores: np.ndarray, owner: str) -> np.ndarray:
    """Orders of the points by decreasing score; the scores of a row must have no ties."""
    orders = np.argsort(-scores, axis=1, kind="stable")
    ranked = np.take_along_axis(scores, orders, axis=1)
    gaps = ranked[:, :-1] - ranked[:, 1:]
    scale = max(1.0, float(np.abs(scores).max()))
    if gaps.size and gaps.min() <= 1e-12 * scale:  # cannot happen for generic directions/centers
        raise RuntimeError(f"{owner}: internal error: a sampled direction is not generic (tie in the order)")
    return orders


def ball_centers_2d(pts: np.ndarray) -> np.ndarray:
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


def cut_table(scores: np.ndarray, owner: str) -> np.ndarray:
    """The distinct prefix sets of the orders of the points by decreasing score, one order per row of ``scores``.

    Each row of ``scores`` must order the points without ties (a generic
    direction or center); equal orders are merged before their prefixes are
    formed.  Rows of the result are sorted canonically.
    """
    orders = order_from_scores(scores, owner)
    # point indices fit in 16 bits: the grids here have at most 1024 points
    keys = np.ascontiguousarray(orders.astype(np.uint16)).view(np.dtype((np.void, 2 * orders.shape[1])))[:, 0]
    return prefix_sets(orders[np.unique(keys, return_index=True)[1]])  # distinct orders only
