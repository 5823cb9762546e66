"""One reduction of a class, computed once (vectorised) and shared by every solver.

A class is reduced by dropping the domain points on which every distinct
hypothesis agrees (*constant columns*) and merging the points that induce the
same labelled partition of the distinct hypotheses (*duplicate columns*).
Two notions of "the same" are used:

* ``relabel=False`` -- identical columns.  Sound for every dimension of
  dimcalc: a dimension is a property of the set of columns, and two identical
  columns give identical splits of every version space.
* ``relabel=True`` -- columns equal up to a renaming of the labels (for a
  binary class: equal or complementary).  Sound for the dimensions that do not
  look at label *values*: VC, Natarajan, graph, Littlestone, multiclass
  Littlestone, Ψ^N and Ψ^B (renaming the labels of one point maps shattered
  sets / trees to shattered sets / trees with renamed labels).  Not for Ψ^bin
  or a user family, whose maps read the label values.

Why merging is sound (and why one representative is enough): two merged points
``x ~ y`` split every subset of hypotheses in the same way, so a mistake tree
can use ``x`` wherever it uses ``y``; and no shattered set contains both (on
them every hypothesis has one of only ``|labels|`` label pairs, while
shattering two points needs four patterns), so a largest shattered set uses at
most one point per merged group.  A constant point splits nothing and is in no
shattered set.  Hence every dimension of the reduced class equals the
dimension of the class, and a witness over representatives is a witness for
the class (representatives are original point indices).

The reduction also gives the trivial bounds every solver starts from:
``floor(log2 |H|)`` (a shattered set or tree of depth ``d`` needs ``2^d``
distinct hypotheses) and the number of live (reduced) columns for the
VC-type dimensions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pragma: no cover
    from ._budget import Deadline
    from .hypothesis_class import HypothesisClass

__all__ = ["ColumnReduction", "reduce_columns"]


@dataclass(frozen=True)
class ColumnReduction:
    """The distinct, non-constant columns of a class (see the module docstring).

    Attributes
    ----------
    points : numpy.ndarray of int64
        For each kept column, the original point index of its representative
        (the first point of its group), ascending.
    multiplicity : numpy.ndarray of int64
        How many original points each kept column stands for.
    group : numpy.ndarray of int64
        For each original point, the index in ``points`` of its representative,
        or ``-1`` for a constant point.
    relabel : bool
        Whether columns equal up to renaming labels were merged.
    """

    points: np.ndarray
    multiplicity: np.ndarray
    group: np.ndarray
    relabel: bool

    @property
    def n_columns(self) -> int:
        """Number of kept (live, pairwise different) columns."""
        return int(self.points.shape[0])


def _canonical_columns(cols: np.ndarray, num_labels: int, relabel: bool) -> np.ndarray:
    """Columns (one per row of ``cols``: points x distinct hypotheses) in a canonical labelling."""
    if not relabel:
        return cols
    if num_labels <= 2:
        # Binary: a column and its complement partition the hypotheses alike; flip so that row 0 reads 0.
        return cols ^ cols[:, :1]
    # Rename each column's labels by order of first appearance down the hypotheses.
    n, m = cols.shape
    keys = np.arange(n, dtype=np.int64)[:, None] * num_labels + cols.astype(np.int64)
    uniq, first, inverse = np.unique(keys.reshape(-1), return_index=True, return_inverse=True)
    col_of = uniq // num_labels
    first_row = first % m
    order = np.lexsort((first_row, col_of))          # by column, then by first appearance
    start = np.searchsorted(col_of[order], col_of[order])
    rank = np.empty(len(uniq), dtype=np.int64)
    rank[order] = np.arange(len(uniq)) - start
    return rank[inverse.reshape(-1)].reshape(n, m).astype(cols.dtype)


def reduce_columns(H: "HypothesisClass", *, relabel: bool, deadline: "Deadline | None" = None,
                   chunk_cells: int = 1 << 26) -> ColumnReduction:
    """Drop constant columns and merge duplicate ones (up to renaming labels when ``relabel``).

    Prefer :meth:`HypothesisClass.column_reduction`, which caches the result on the class.

    Parameters
    ----------
    H : HypothesisClass
    relabel : bool
        Merge columns equal up to a renaming of labels (sound for every
        dimension but Ψ^bin and user families; see the module docstring).
    deadline : Deadline, optional
        Polled between chunks of columns; :class:`~dimcalc._budget.SearchStopped`
        is raised when it has expired.
    chunk_cells : int
        Cells handled per vectorised step (bounds the step's memory and time).

    Returns
    -------
    ColumnReduction

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 1, 1, 0, 5], [1, 0, 1, 1, 5], [1, 0, 1, 1, 5]])
    >>> r = reduce_columns(H, relabel=True)      # x1 = not x0, x3 = x0, x2 and x4 constant
    >>> r.points.tolist(), r.multiplicity.tolist(), r.group.tolist()
    ([0], [3], [0, 0, -1, 0, -1])
    >>> reduce_columns(H, relabel=False).points.tolist()
    [0, 1]
    """
    rows = H.distinct_rows
    m, n = rows.shape
    group = np.full(n, -1, dtype=np.int64)
    if n == 0 or m < 2:
        return ColumnReduction(np.zeros(0, np.int64), np.zeros(0, np.int64), group, relabel)
    step = max(1, chunk_cells // m)
    # Pass 1, by chunks of points: canonical columns as opaque byte strings; constant columns dropped.
    keys: list[np.ndarray] = []
    pts: list[np.ndarray] = []
    width = m * rows.itemsize
    for start in range(0, n, step):
        if deadline is not None:
            deadline.check()
        cols = np.ascontiguousarray(rows[:, start:start + step].T)
        live = (cols != cols[:, :1]).any(axis=1)
        if not live.any():
            continue
        cols = _canonical_columns(cols[live], H.num_labels, relabel)
        keys.append(np.ascontiguousarray(cols).view(np.dtype((np.void, width))).reshape(-1))
        pts.append(np.flatnonzero(live) + start)
    if not keys:
        return ColumnReduction(np.zeros(0, np.int64), np.zeros(0, np.int64), group, relabel)
    if deadline is not None:
        deadline.check()
    key = np.concatenate(keys)
    point = np.concatenate(pts)
    _, first, inverse, counts = np.unique(key, return_index=True, return_inverse=True, return_counts=True)
    order = np.argsort(first, kind="stable")        # groups in order of their first point
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    group[point] = rank[inverse.reshape(-1)]
    return ColumnReduction(point[first[order]].astype(np.int64), counts[order].astype(np.int64), group, relabel)
