"""Equal rows and equal columns of a :class:`~dimcalc.classes.bit_table.BitTable`, found exactly without a dense copy.

The distinct rows of a dense table (:func:`distinct_dense_rows`: a sort of
the rows as byte strings), and two groupings of a bit-packed binary table,
needed to build and reduce a class (:class:`~dimcalc.classes.hypothesis_class.HypothesisClass`,
:mod:`dimcalc.classes.reduction`):

* :func:`distinct_rows` -- the distinct hypotheses, in order of first
  occurrence;
* :func:`reduce_bit_columns` -- the constant columns dropped and the equal
  columns (equal or complementary with ``relabel``) merged, the same
  :class:`~dimcalc.classes.reduction.ColumnReduction` that
  :func:`dimcalc.classes.reduction.reduce_columns` computes from a dense table.

Both hash every row (column) to 64 bits in bounded chunks, group by hash, and
then compare every member of a group with the group's first member bit for
bit; a member that differs (a hash collision) is regrouped by its exact bits.
So the result is exact whatever the hash does, and each group is represented
by its smallest index, as the dense code does.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .bit_table import BitTable
from .bitsets import CHUNK_CELLS, transpose_blocks
from .reduction import ColumnReduction

__all__ = ["distinct_rows", "distinct_dense_rows", "reduce_bit_columns"]

_MIX = np.uint64(0x9E3779B97F4A7C15)


def _mix(v: np.ndarray, mult: np.ndarray) -> np.ndarray:
    """A non-linear 64-bit scramble of ``v * mult`` (so that structured differences do not cancel in a sum)."""
    v = v * mult
    v ^= v >> np.uint64(29)
    v *= _MIX
    v ^= v >> np.uint64(32)
    return v


def _multipliers(count: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(1, 1 << 63, size=max(count, 1), dtype=np.uint64) | np.uint64(1)


def _groups(
    keys: np.ndarray, differ: Callable[[np.ndarray, np.ndarray], np.ndarray], exact: Callable[[np.ndarray], np.ndarray]
) -> np.ndarray | None:
    """For each item, the smallest index of the items equal to it, given 64-bit ``keys`` (equal items, equal keys).

    ``differ(a, b)`` says which pairs of items ``a[t], b[t]`` differ;
    ``exact(idx)`` gives the items ``idx`` as rows of a 2-D array (to regroup
    hash collisions by their bytes).  ``None`` when every key is distinct
    (every item its own group).
    """
    n = len(keys)
    # Only the items whose key occurs twice need grouping: found with a plain sort (no argsort of them all).
    sorted_keys = np.sort(keys)
    repeated = sorted_keys[1:] == sorted_keys[:-1]
    if not repeated.any():  # every key distinct (e.g. random columns): every item is its own group
        return None
    rep = np.arange(n)
    dup_values = np.unique(sorted_keys[1:][repeated])
    del sorted_keys, repeated
    involved = np.flatnonzero(dup_values[np.searchsorted(dup_values, keys).clip(max=len(dup_values) - 1)] == keys)
    sub = keys[involved]
    order = np.argsort(sub, kind="stable")
    sorted_sub = sub[order]
    starts = np.flatnonzero(np.r_[True, sorted_sub[1:] != sorted_sub[:-1]])
    first_of_run = involved[order[starts]]  # stable sort: the first of a run is the smallest index with that key
    rep[involved[order]] = np.repeat(first_of_run, np.diff(np.r_[starts, len(sub)]))
    del sub, order, sorted_sub, starts, first_of_run, involved
    members = np.flatnonzero(rep != np.arange(n))
    if len(members) == 0:
        return rep
    bad = members[differ(members, rep[members])]
    if len(bad):
        # Rare (64-bit collisions): regroup the members that differ from their group's first by exact bytes.
        data = np.ascontiguousarray(exact(bad))
        view = data.view(np.dtype((np.void, data.itemsize * data.shape[1]))).reshape(-1)
        _, first, inverse = np.unique(view, return_index=True, return_inverse=True)
        rep[bad] = bad[first[inverse.reshape(-1)]]
    return rep


def _numbered(rep: np.ndarray | None, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``(firsts, group)`` from :func:`_groups`' output for ``n`` items: the representatives ascending, and each
    item's group number (groups numbered by representative, i.e. by first occurrence), without another sort."""
    if rep is None:
        return np.arange(n), np.arange(n)
    is_first = rep == np.arange(len(rep))
    number = np.cumsum(is_first) - 1
    return np.flatnonzero(is_first), number[rep]


def _row_hashes(T: BitTable, deadline: Any = None) -> np.ndarray:
    """A 64-bit hash of every row of ``T``: blocks of 64 columns are transposed into one word per row and mixed."""
    m, n = T.shape
    w_all = T.words.shape[1]
    n_blocks = (n + 63) // 64
    mult = _multipliers(n_blocks, 0x5EED)
    h = np.zeros(m, dtype=np.uint64)
    wc = min(w_all, max(1, CHUNK_CELLS // 4096))  # row words per step
    nb = max(1, CHUNK_CELLS // (4096 * wc))  # column blocks per step
    for b0 in range(0, n_blocks, nb):
        cols = T.words[b0 * 64 : (b0 + nb) * 64]
        blocks = (cols.shape[0] + 63) // 64
        for w0 in range(0, w_all, wc):
            if deadline is not None:
                deadline.check()
            sub = np.zeros((blocks * 64, min(wc, w_all - w0)), dtype=np.uint64)
            sub[: cols.shape[0]] = cols[:, w0 : w0 + wc]
            k = sub.shape[1]
            out = transpose_blocks(sub.reshape(blocks, 64, k))  # word r of a block: row 63 - r
            row_words = np.ascontiguousarray(out[:, ::-1, :].transpose(0, 2, 1)).reshape(blocks, 64 * k)
            r0 = 64 * w0
            r1 = min(m, r0 + 64 * k)
            mixed = _mix(row_words[:, : r1 - r0], mult[b0 : b0 + blocks, None])
            h[r0:r1] += mixed.sum(axis=0, dtype=np.uint64)
    return h


def distinct_dense_rows(arr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(first, inverse)`` of the distinct rows of a dense table, in order of first occurrence.

    >>> [a.tolist() for a in distinct_dense_rows(np.array([[0, 1], [1, 1], [0, 1]], dtype=np.uint8))]
    [[0, 1], [0, 1, 0]]
    """
    if arr.shape[1] == 0:
        return np.array([0], dtype=np.int64), np.zeros(arr.shape[0], dtype=np.int64)
    # Each row as one opaque byte string: np.unique sorts these with memcmp,
    # without the per-column copies of np.unique(axis=0).
    rows_as_bytes = np.ascontiguousarray(arr).view(np.dtype((np.void, arr.itemsize * arr.shape[1])))
    _, first, inverse = np.unique(rows_as_bytes.reshape(-1), return_index=True, return_inverse=True)
    del rows_as_bytes
    inverse = inverse.reshape(-1)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return first[order].astype(np.int64), rank[inverse].astype(np.int64)


def distinct_rows(T: BitTable, deadline: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of ``T``: ``(first, inverse)`` as :meth:`HypothesisClass.distinct_to_row` / ``row_to_distinct``.

    ``first`` lists the index of each distinct row's first occurrence,
    ascending (order of first occurrence); ``inverse[r]`` is the distinct index
    of row ``r``.

    Examples
    --------
    >>> T = BitTable.from_dense(np.array([[0, 1], [1, 1], [0, 1], [0, 0]], dtype=np.uint8))
    >>> [a.tolist() for a in distinct_rows(T)]
    [[0, 1, 3], [0, 1, 0, 2]]
    """
    m = T.n_rows
    if m == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    if T.n_cols == 0:
        return np.array([0], dtype=np.int64), np.zeros(m, dtype=np.int64)
    keys = _row_hashes(T, deadline)

    def differ(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        out = np.zeros(len(a), dtype=bool)
        step = max(1, CHUNK_CELLS // max(T.n_cols, 1))
        for s in range(0, len(a), step):
            if deadline is not None:
                deadline.check()
            out[s : s + step] = (T.rows(a[s : s + step]) != T.rows(b[s : s + step])).any(axis=1)
        return out

    first, inverse = _numbered(_groups(keys, differ, T.rows), m)
    return first.astype(np.int64), inverse.astype(np.int64)


def reduce_bit_columns(D: BitTable, *, relabel: bool, deadline: Any = None) -> ColumnReduction:
    """:func:`dimcalc.classes.reduction.reduce_columns` over the distinct rows ``D`` of a binary class, kept packed.

    A column is constant when all its bits are equal; with ``relabel`` a
    column and its complement are merged (each column is flipped so that row
    0 reads 0, as the dense reduction does).  See :mod:`dimcalc.classes.reduction`
    for why every dimension is unchanged.

    Examples
    --------
    >>> D = BitTable.from_dense(np.array([[0, 1, 1, 0, 1], [1, 0, 1, 1, 1]], dtype=np.uint8))
    >>> r = reduce_bit_columns(D, relabel=True)
    >>> r.points.tolist(), r.multiplicity.tolist(), r.group.tolist()
    ([0], [3], [0, 0, -1, 0, -1])
    >>> reduce_bit_columns(D, relabel=False).points.tolist()
    [0, 1]
    """
    m, n = D.shape
    group = np.full(n, -1, dtype=np.int64)
    empty = ColumnReduction(np.zeros(0, np.int64), np.zeros(0, np.int64), group, relabel)
    if n == 0 or m < 2:
        return empty
    full = D.full_word()
    w_all = D.words.shape[1]
    mult = _multipliers(w_all, 0xC0FFEE)
    step = max(1, CHUNK_CELLS // (8 * w_all))

    def canonical(points: np.ndarray | slice) -> np.ndarray:
        words = D.words[points]
        if not relabel:
            return words
        return words ^ (full[None, :] * (words[:, :1] & np.uint64(1)))  # flipped where row 0 reads 1

    keys: list[np.ndarray] = []
    pts: list[np.ndarray] = []
    for start in range(0, n, step):
        if deadline is not None:
            deadline.check()
        words = canonical(slice(start, start + step))
        if w_all == 1:  # one word per column: 1-D operations, and the word itself is an exact key
            col = words[:, 0]
            live = np.flatnonzero((col != 0) & (col != full[0]))
            if len(live):
                pts.append(live + start)
                keys.append(col[live])
            continue
        live = np.flatnonzero(words.any(axis=1) & ~(words == full).all(axis=1))
        if len(live):
            pts.append(live + start)
            keys.append(_mix(words[live], mult[None, :]).sum(axis=1, dtype=np.uint64))
    if not pts:
        return empty
    if deadline is not None:
        deadline.check()
    point = np.concatenate(pts)
    del pts

    def differ(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        if w_all == 1:  # the key is the column itself
            return np.zeros(len(a), dtype=bool)
        out = np.zeros(len(a), dtype=bool)
        for s in range(0, len(a), step):
            out[s : s + step] = (canonical(point[a[s : s + step]]) != canonical(point[b[s : s + step]])).any(axis=1)
        return out

    all_keys = np.concatenate(keys)
    del keys[:]
    rep = _groups(all_keys, differ, lambda idx: canonical(point[idx]))
    del all_keys
    if rep is None:  # every live column distinct
        group[point] = np.arange(len(point))
        return ColumnReduction(point, np.ones(len(point), dtype=np.int64), group, relabel)
    reps, inverse = _numbered(rep, len(point))
    del rep
    counts = np.bincount(inverse, minlength=len(reps))
    group[point] = inverse
    return ColumnReduction(point[reps].astype(np.int64), counts.astype(np.int64), group, relabel)
