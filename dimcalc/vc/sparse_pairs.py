"""The pair graph of the sparse VC search (:mod:`dimcalc.vc.sparse`, fact 4): candidates, pairs, their orientation.

A pair ``x < y`` of candidates (fact 1) whose four traces each hold
``>= 2^(d-2)`` sets is an edge; a shattered ``d``-set is a ``d``-clique of
this graph [CCDV24]_ (the references of :mod:`dimcalc.vc.sparse`).  Built
by the compiled ``pairs`` kernel in steps, on the search's threads where it
has several (:func:`dimcalc.vc.sparse_threads.threaded_pairs`).

Examples
--------
>>> candidates(np.array([1, 4, 7, 8]), 8, 3).tolist()  # 2^(d-1) = 4 <= degree <= 8 - 4
[False, True, False, False]
"""

from __future__ import annotations

import time

import numpy as np

from ..classes.sparse_table import SparseTable
from ..search.budget import Deadline
from . import sparse_jit
from .sparse_threads import threaded_pairs

__all__ = ["candidates", "anchor_counts", "pair_work", "pair_graph", "filter_pairs", "orient_pairs"]

#: Wall-clock seconds aimed at per compiled step (the pairs here, the searches of :mod:`dimcalc.vc.sparse`): the
#: time limit is read between steps.
STEP_SECONDS = 0.02


def candidates(degrees: np.ndarray, n_sets: int, d: int) -> np.ndarray:
    """Elements that may lie in a shattered ``d``-set: in ``>= 2^(d-1)`` sets and out of ``>= 2^(d-1)``.

    >>> candidates(np.array([1, 2, 3, 4]), 4, 2).tolist()
    [False, True, False, False]
    """
    half = 1 << (d - 1)
    return (degrees >= half) & (n_sets - degrees >= half)


def anchor_counts(table: SparseTable, cand: np.ndarray) -> np.ndarray:
    """For each set, how many of its elements are candidates (``int64``).

    >>> T = SparseTable.from_cells(2, 3, [0, 0, 1], [0, 2, 1])
    >>> anchor_counts(T, np.array([True, False, True])).tolist()
    [2, 0]
    """
    # One cumulative sum over the incidences (int32 unless it could overflow), read at the row ends.
    running: np.ndarray = np.zeros(table.nnz + 1, dtype=np.int32 if table.nnz < 2**31 else np.int64)
    np.cumsum(cand[table.indices], out=running[1:])
    return (running[table.indptr[1:]] - running[table.indptr[:-1]]).astype(np.int64)


def pair_work(table: SparseTable, cand: np.ndarray) -> int:
    """Pairs read to build the pair graph: ``sum over sets of |r ∩ C|^2 / 2``."""
    counts = anchor_counts(table, cand)
    return int((counts * counts).sum() // 2)


def pair_graph(
    table: SparseTable,
    transpose: tuple[np.ndarray, np.ndarray],
    degrees: np.ndarray,
    d: int,
    deadline: Deadline,
    K: dict,
    threads: int = 1,
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Fact 4: the pairs ``x < y`` of candidates whose four traces each hold ``>= 2^(d-2)`` sets, as
    ``(px, py, shared)`` (``None`` when the deadline expires while building them); :func:`orient_pairs`
    makes them the CSR ``(p_indptr, p_indices, elem)`` of the higher-ranked neighbours of each rank, ranks
    ordered by pair degree, ``elem[rank]`` the element.

    Every pair inside a shattered ``d``-set is such a pair (each of its traces
    extends to the ``2^(d-2)`` traces on the other elements), so a shattered
    ``d``-set is a ``d``-clique of this graph.  ``threads > 1`` (compiled
    kernels): the candidates are shared out in steps (:func:`dimcalc.vc.sparse_threads.threaded_pairs`; the same
    pairs in the same order).
    """
    n = table.n_rows
    cand = candidates(degrees, n, d)
    xs_all = np.flatnonzero(cand).astype(np.int64)
    keep = cand[table.indices]  # each set's candidates, ascending (the rows are sorted)
    c_indices = table.indices[keep]
    c_indptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(anchor_counts(table, cand), out=c_indptr[1:])
    need = 1 << (d - 2)
    args = (c_indptr, c_indices, transpose[0], transpose[1], degrees, n, need)
    if threads > 1 and K["pairs"] is not sparse_jit.kernels(False)["pairs"]:
        got = threaded_pairs(threads, xs_all, args, table.n_cols, K["pairs"], deadline, STEP_SECONDS)
        if got is None:
            return None
        found_x, found_y = got
    else:
        found = _pairs_here(xs_all, args, table.n_cols, K, deadline)
        if found is None:
            return None
        found_x, found_y = found
    px = np.concatenate(found_x) if found_x else np.zeros(0, dtype=np.int64)
    packed = np.concatenate(found_y) if found_y else np.zeros(0, dtype=np.int64)
    return px, packed & 0xFFFFFFFF, packed >> 32


def _pairs_here(
    xs_all: np.ndarray, args: tuple, n_cols: int, K: dict, deadline: Deadline
) -> tuple[list[np.ndarray], list[np.ndarray]] | None:
    """The pairs of :func:`pair_graph` in this thread, in steps of about :data:`STEP_SECONDS`: the ``x`` and the
    packed ``y | shared << 32`` of each step's pairs (``None`` when the deadline expires)."""
    counter = np.zeros(n_cols, dtype=np.int64)
    touched = np.zeros(n_cols, dtype=np.int64)
    found_x, found_y = [], []
    cap = 1 << 16
    out_x, out_y = np.zeros(cap, dtype=np.int64), np.zeros(cap, dtype=np.int64)
    step = 256 if K["pairs"] is not sparse_jit.kernels(False)["pairs"] else 4  # plain Python: small first steps
    start = 0
    while start < len(xs_all):
        if deadline.expired():
            return None
        xs = xs_all[start : start + step]
        t0 = time.monotonic()
        got = K["pairs"](xs, *args, counter, touched, out_x, out_y)
        if got < 0:
            cap *= 4
            out_x, out_y = np.zeros(cap, dtype=np.int64), np.zeros(cap, dtype=np.int64)
            continue
        found_x.append(out_x[:got].copy())
        found_y.append(out_y[:got].copy())
        start += len(xs)
        spent = time.monotonic() - t0
        step = int(min(max(step * STEP_SECONDS / max(spent, 1e-6), 1), step * 4))
    return found_x, found_y


def filter_pairs(
    pairs: tuple[np.ndarray, np.ndarray, np.ndarray], degrees: np.ndarray, n: int, d: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The pairs of target ``d`` among those of target ``d - 1`` (both endpoints candidates of ``C_d``, each
    trace held by ``>= 2^(d-2)`` sets): a subset, read off the shared-set counts without a new pass."""
    px, py, both = pairs
    need = 1 << (d - 2)
    cand = candidates(degrees, n, d)
    dx, dy = degrees[px], degrees[py]
    keep = cand[px] & cand[py] & (both >= need) & (dx - both >= need) & (dy - both >= need)
    keep &= n - dx - dy + both >= need
    return px[keep], py[keep], both[keep]


def orient_pairs(
    px: np.ndarray, py: np.ndarray, n_cols: int, shared: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The pair graph as ``(p_indptr, p_indices, elem, p_shared)`` on ranks (see :func:`pair_graph`);
    ``p_shared[e]``: the sets holding both ends of oriented edge ``e`` (from ``shared``, zeros without)."""
    # Orient every pair from the lower to the higher pair degree (ties: element index), on ranks: each root
    # then has few higher neighbours (the degeneracy order of clique enumeration).
    pdeg = np.bincount(px, minlength=n_cols) + np.bincount(py, minlength=n_cols)
    nodes = np.flatnonzero(pdeg)  # the elements in some pair, ascending (np.unique of 2.5 M ends: ~1 s more)
    elem = nodes[np.lexsort((nodes, pdeg[nodes]))]
    rank = np.zeros(n_cols, dtype=np.int64)
    rank[elem] = np.arange(len(elem))
    rx, ry = rank[px], rank[py]
    lo, hi = np.minimum(rx, ry), np.maximum(rx, ry)
    order = np.argsort(lo * len(elem) + hi, kind="stable")  # by (lo, hi): one key, faster than np.lexsort
    p_indptr = np.zeros(len(elem) + 1, dtype=np.int64)
    np.cumsum(np.bincount(lo, minlength=len(elem)), out=p_indptr[1:])
    both = shared[order] if shared is not None else np.zeros(len(order), dtype=np.int64)
    return p_indptr, hi[order], elem, both.astype(np.int64)
