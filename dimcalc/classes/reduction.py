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
from typing import Protocol, cast

import numpy as np

from .storage import Polled


class DistinctTable(Protocol):
    """What the reduction reads of a class (:class:`~dimcalc.classes.hypothesis_class.HypothesisClass`)."""

    @property
    def distinct_rows(self) -> np.ndarray: ...

    @property
    def num_labels(self) -> int: ...


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
    order = np.lexsort((first_row, col_of))  # by column, then by first appearance
    start = np.searchsorted(col_of[order], col_of[order])
    rank = np.empty(len(uniq), dtype=np.int64)
    rank[order] = np.arange(len(uniq)) - start
    return rank[inverse.reshape(-1)].reshape(n, m).astype(cols.dtype)


def _hashes(block: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """A 64-bit hash of each column of ``block`` (hypotheses x points): a random linear form mod 2^64."""
    return (block.astype(np.uint64) * weights[:, None]).sum(axis=0, dtype=np.uint64)


def _canonical_block(block: np.ndarray, num_labels: int, relabel: bool) -> np.ndarray:
    """Columns of ``block`` (hypotheses x points) in a canonical labelling, same layout."""
    if not relabel:
        return block
    if num_labels <= 2:
        # Binary: a column and its complement partition the hypotheses alike; flip so that row 0 reads 0.
        return block ^ block[:1]
    return np.ascontiguousarray(_canonical_columns(np.ascontiguousarray(block.T), num_labels, True).T)


def reduce_columns(
    H: DistinctTable, *, relabel: bool, deadline: Polled | None = None, chunk_cells: int = 1 << 23
) -> ColumnReduction:
    """Drop constant columns and merge duplicate ones (up to renaming labels when ``relabel``).

    Prefer :meth:`HypothesisClass.column_reduction`, which caches the result on the class.
    Columns are grouped by a 64-bit hash (a random linear form, computed in
    bounded chunks without transposing the table), and every group is then
    checked cell by cell, so the result is exact whatever the hash does.

    Parameters
    ----------
    H : HypothesisClass
    relabel : bool
        Merge columns equal up to a renaming of labels (sound for every
        dimension but Ψ^bin and user families; see the module docstring).
    deadline : Deadline, optional
        Polled between chunks of columns; :class:`~dimcalc.search.budget.SearchStopped`
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
    empty = ColumnReduction(np.zeros(0, np.int64), np.zeros(0, np.int64), group, relabel)
    if n == 0 or m < 2:
        return empty
    weights = cast(
        np.ndarray, np.random.default_rng(0x5EED).integers(1, 1 << 63, size=m, dtype=np.uint64) | np.uint64(1)
    )
    step = max(1, chunk_cells // m)

    def canonical(points: np.ndarray) -> np.ndarray:
        return _canonical_block(rows[:, points], H.num_labels, relabel)

    # Pass 1, by chunks of points: constant columns dropped, the others hashed in canonical form.
    hashes: list[np.ndarray] = []
    pts: list[np.ndarray] = []
    for start in range(0, n, step):
        if deadline is not None:
            deadline.check()
        block = rows[:, start : start + step]
        live = (block != block[:1]).any(axis=0)
        if not live.any():
            continue
        idx = np.flatnonzero(live) + start
        hashes.append(_hashes(_canonical_block(block[:, live], H.num_labels, relabel), weights))
        pts.append(idx)
    if not hashes:
        return empty
    if deadline is not None:
        deadline.check()
    point = np.concatenate(pts)
    _, first, inverse = np.unique(np.concatenate(hashes), return_index=True, return_inverse=True)
    inverse = inverse.reshape(-1)
    # Pass 2: check every member against its group's first point; a member that differs (a hash
    # collision) is split off into a group of its own, and the check repeats until none differs.
    rep = first[inverse]
    while True:
        members = np.flatnonzero(rep != np.arange(len(point)))
        bad: list[np.ndarray] = []
        for s in range(0, len(members), step):
            if deadline is not None:
                deadline.check()
            mem = members[s : s + step]
            differ = (canonical(point[mem]) != canonical(point[rep[mem]])).any(axis=0)
            bad.append(mem[differ])
        bad_members = np.concatenate(bad) if bad else np.zeros(0, np.int64)
        if len(bad_members) == 0:
            break
        # Regroup the colliding members by their exact bytes (rare: 64-bit collisions).
        keys = np.ascontiguousarray(canonical(point[bad_members]).T)
        view = keys.view(np.dtype((np.void, keys.itemsize * keys.shape[1]))).reshape(-1)
        _, f2, inv2 = np.unique(view, return_index=True, return_inverse=True)
        rep[bad_members] = bad_members[f2[inv2.reshape(-1)]]
    reps, inverse = np.unique(rep, return_inverse=True)  # reps ascending = by first point
    counts = np.bincount(inverse.reshape(-1), minlength=len(reps))
    group[point] = inverse.reshape(-1)
    return ColumnReduction(point[reps].astype(np.int64), counts.astype(np.int64), group, relabel)
