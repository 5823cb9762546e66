"""VC dimension of a sparse set system (a class stored by its incidences), searched locally around each set.

A set ``S`` of ``d`` elements is shattered by the sets ``R`` when each of
the ``2^d`` traces ``S ∩ r`` occurs.  Three facts make the search local and
the refutation of ``d + 1`` quick on real networks (Coudert, Csikós,
Ducoffe, Viennot [CCDV24]_, §3-4, for graphs' closed neighbourhoods; they
hold for every set system):

1. *Degree pruning.*  Every element ``x`` of a shattered ``d``-set lies in
   at least ``2^(d-1)`` sets and misses at least ``2^(d-1)`` (half the
   traces contain ``x``): only the elements of ``C_d = {x : 2^(d-1) <=
   deg(x) <= |R| - 2^(d-1)}`` are candidates.
2. *Anchors.*  The full trace ``S`` is realised by a set containing ``S``,
   so ``S`` lies inside one set: it is a ``d``-subset of ``r ∩ C_d`` for an
   *anchor* ``r`` with ``|r ∩ C_d| >= d`` -- for a graph, inside one closed
   neighbourhood ``N[v]``.  The largest ``d`` with an anchor (and ``2^d <=
   |R|``) is a proven upper bound before any search.
3. *Counting traces* (partition refinement).  Choosing the elements of ``S``
   one by one, each trace ``c`` on the ``j`` chosen so far must be held by
   at least ``2^(d-j)`` distinct sets (it splits into all ``2^(d-j)`` traces
   on the rest).  Traces are bitmasks ``code[r]``; adding an element
   touches only the sets containing it (the element -> sets transpose), so
   a search node costs the element's degree.

4. *Pairs.*  Each pair of a shattered ``d``-set has its four traces held
   by ``>= 2^(d-2)`` sets each (fact 3 for two elements); these pairs form a
   sparse *pair graph* (built by counting, for each candidate, the sets it
   shares with the others), and a shattered ``d``-set is a ``d``-clique of
   it: from ``d = 3`` the search enumerates those cliques, each once (from
   its smallest element), with the trace counts of fact 3 at every node.

The search tries ``d = 1, 2, ...``: a shattered ``d``-set found (the first
one in anchor order, largest anchors first) raises the lower bound, an
exhausted search for ``d`` proves ``VC = d - 1``.  The per-anchor
depth-first search is compiled with numba (:mod:`dimcalc.vc.sparse_kernel`, :mod:`~dimcalc.vc.sparse_clique`,
loaded by :mod:`~dimcalc.vc.sparse_jit`)
and runs in bounded steps, the clock read between them, so a time limit
stops it with the proven bounds (``exact=False``).

References
----------
.. [CCDV24] D. Coudert, M. Csikós, G. Ducoffe, L. Viennot, *Practical
   Computation of Graph VC-Dimension*, SEA 2024, LIPIcs 301, 8:1-8:20
   (arXiv:2405.07588).
.. [VC71] V. Vapnik, A. Chervonenkis, 1971 (shattering).

Examples
--------
>>> import networkx as nx
>>> from dimcalc import HypothesisClass
>>> H = HypothesisClass.from_networkx(nx.petersen_graph(), storage="sparse")
>>> r = sparse_vc_dimension(H)
>>> r.value, r.exact, r.verify(H)
(2, True, True)
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from ..classes.hypothesis_class import HypothesisClass
from ..classes.sparse_table import SparseTable
from ..results import DimensionResult
from ..search.budget import Deadline, Progress
from . import sparse_jit, sparse_kernel
from .sparse_pairs import STEP_SECONDS, anchor_counts, candidates, filter_pairs, orient_pairs, pair_graph, pair_work
from .sparse_threads import threaded_clique_search, usable_cores

__all__ = ["sparse_vc_dimension", "candidates", "anchor_counts", "static_upper_bound"]

#: Search nodes per compiled step at first (then sized to about :data:`STEP_SECONDS`).
FIRST_STEP_NODES = 1 << 14
#: Nodes of the anchor search before the pair-graph search takes over (from d = 3).
TRIAL_NODES = 1 << 16
#: The pair graph (fact 4) is built when it reads at most this many cells (else the anchor search alone).
PAIR_WORK = 400_000_000
#: Third elements kept by the triple filter of the pair-graph search (int32 each; beyond, pairs go unfiltered).
TRIPLE_POOL = 1 << 24
#: The triple filter reads element bitsets (ranks x sets, one bit a cell) when they take at most this many bits.
BITSET_CELLS = 1 << 27
#: The compiled kernels are loaded (when not yet in this process) only with this many seconds left.
JIT_MIN_SECONDS = 2.0
#: ... and compiled afresh (nothing in the disk cache) only with this many.
JIT_COMPILE_SECONDS = 30.0


def element_levels(degrees: np.ndarray, n_sets: int) -> np.ndarray:
    """``level[x]``: the largest ``d`` with ``x`` a candidate for ``d`` (fact 1), 0 when none.

    >>> element_levels(np.array([0, 1, 2, 4, 7]), 8).tolist()
    [0, 1, 2, 3, 1]
    """
    low = np.minimum(degrees, n_sets - degrees)
    out = np.zeros(len(degrees), dtype=np.int64)
    pos = low > 0
    out[pos] = np.floor(np.log2(low[pos])).astype(np.int64) + 1
    # guard the float log at exact powers of two
    out[pos] -= (np.left_shift(1, out[pos] - 1) > low[pos]).astype(np.int64)
    out[pos] += (np.left_shift(1, out[pos]) <= low[pos]).astype(np.int64)
    return out


def set_levels(table: SparseTable, degrees: np.ndarray, levels_kernel: Any = None) -> np.ndarray:
    """``h[r]``: the largest ``d`` such that set ``r`` holds ``d`` candidates of ``C_d``: ``r`` anchors every
    ``d <= h[r]`` (fact 2).  With ``levels_kernel`` (compiled) in one pass, else one numpy pass per ``d``."""
    level = element_levels(degrees, table.n_rows)
    top = int(level.max()) + 2 if len(level) else 2
    out = np.zeros(table.n_rows, dtype=np.int64)
    if levels_kernel is not None:
        levels_kernel(table.indptr, table.indices, level, np.zeros(top, dtype=np.int64), out)
        return out
    for d in range(1, top):
        counts = anchor_counts(table, level >= d)
        out[counts >= d] = d
    return out


def static_upper_bound(table: SparseTable, degrees: np.ndarray, levels_kernel: Any = None) -> int:
    """The largest ``d`` with ``2^d <= |R|`` and a set holding ``d`` candidates of ``C_d`` (facts 1-2).

    >>> T = SparseTable.from_cells(4, 2, [1, 2, 3, 3], [0, 1, 0, 1])  # all four subsets of {0, 1}
    >>> static_upper_bound(T, T.degrees())
    2
    """
    n = table.n_rows
    return _bound_of_levels(set_levels(table, degrees, levels_kernel), n)


def _bound_of_levels(h: np.ndarray, n: int) -> int:
    return min(int(h.max()) if len(h) else 0, max(n, 1).bit_length() - 1)


class _Search:
    """The anchor search for one target ``d`` (facts 1-3): arrays the compiled step resumes from."""

    def __init__(
        self,
        table: SparseTable,
        transpose: tuple[np.ndarray, np.ndarray],
        degrees: np.ndarray,
        d: int,
        K: dict,
        h: np.ndarray | None = None,
    ):
        self.kernel = K["search"]
        n = table.n_rows
        cand = candidates(degrees, n, d)
        if h is not None:  # the sets' levels (fact 2): anchors of d are the sets of level >= d, highest first
            anchors = np.flatnonzero(h >= d)
            self.anchors = anchors[np.argsort(-h[anchors], kind="stable")].astype(np.int64)
            counts = table.row_sizes()
        else:
            counts = anchor_counts(table, cand)
            anchors = np.flatnonzero(counts >= d)
            # Largest anchors first: a shattered set, when there is one, is usually found among them at once.
            self.anchors = anchors[np.argsort(-counts[anchors], kind="stable")].astype(np.int64)
        cnt = np.zeros(1 << d, dtype=np.int64)
        cnt[0] = n
        code = np.zeros(n, dtype=np.int32)  # each set's trace on the chosen elements
        self.args = (d, self.anchors, table.indptr, table.indices, transpose[0], transpose[1], cand, code, cnt)
        self.state = np.array([0, -1, 0, 0], dtype=np.int64)
        self.pos = np.zeros(d + 1, dtype=np.int64)
        self.local = np.zeros(max(int(counts.max()) if len(counts) else 1, 1), dtype=np.int64)
        self.out = np.zeros(d, dtype=np.int64)

    def step(self, budget: int) -> int:
        return int(self.kernel(*self.args, self.state, self.pos, self.local, self.out, budget))

    @property
    def nodes(self) -> int:
        return int(self.state[3])


def _element_bits(
    elem: np.ndarray, transpose: tuple[np.ndarray, np.ndarray], n: int, d: int
) -> tuple[np.ndarray, np.ndarray]:
    """The sets of each ranked element as a bitset (row ``rank``, one bit per set) and a scratch word row, for the
    triple filter; width 0 (the filter counts traces instead) below ``d = 4`` or over :data:`BITSET_CELLS` cells.

    >>> bits, ab = _element_bits(np.array([1, 0]), (np.array([0, 2, 3]), np.array([0, 65, 1])), 66, 4)
    >>> bits.tolist(), ab.shape  # element 1 is in set 1; element 0 in sets 0 and 65
    ([[2, 0], [1, 2]], (2,))
    """
    words = (n + 63) >> 6
    if d < 4 or len(elem) * words * 64 > BITSET_CELLS:
        return np.zeros((0, 0), dtype=np.uint64), np.zeros(0, dtype=np.uint64)
    t_indptr, t_indices = transpose
    starts = t_indptr[elem]
    sizes = t_indptr[elem + 1] - starts
    total = int(sizes.sum())
    offsets = np.repeat(starts - (np.cumsum(sizes) - sizes), sizes) + np.arange(total)
    sets = t_indices[offsets].astype(np.int64)
    bits = np.zeros(len(elem) * words, dtype=np.uint64)
    cell = np.repeat(np.arange(len(elem), dtype=np.int64) * words, sizes) + (sets >> 6)
    np.bitwise_or.at(bits, cell, np.left_shift(np.uint64(1), (sets & 63).astype(np.uint64)))
    return bits.reshape(len(elem), words), np.zeros(words, dtype=np.uint64)


class _CliqueSearch:
    """The pair-graph search for one target ``d`` (a shattered ``d``-set is a ``d``-clique of the pair graph)."""

    def __init__(
        self,
        n: int,
        transpose: tuple[np.ndarray, np.ndarray],
        pairs: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
        d: int,
        K: dict,
        bits: tuple[np.ndarray, np.ndarray] | None = None,
    ):
        """``bits``: the element bitsets and a scratch row of :func:`_element_bits` (made here when not given)."""
        self.kernel = K["clique"]
        p_indptr, p_indices, elem, p_shared = pairs
        up = np.diff(p_indptr)
        roots = np.flatnonzero(up >= d - 1)
        self.roots = roots[np.argsort(-up[roots], kind="stable")].astype(np.int64)
        cnt = np.zeros(1 << d, dtype=np.int64)
        cnt[0] = n
        code = np.zeros(n, dtype=np.int32)
        self.args = (d, self.roots, p_indptr, p_indices, elem, transpose[0], transpose[1], code, cnt)
        self.state = np.array([0, -1, 0, 0], dtype=np.int64)
        self.pos = np.zeros(d + 1, dtype=np.int64)
        self.lists = np.zeros((d + 1, max(int(up.max()) if len(up) else 1, 1)), dtype=np.int64)
        self.lens = np.zeros(d + 1, dtype=np.int64)
        self.chosen = np.zeros(d, dtype=np.int64)
        self.out = np.zeros(d, dtype=np.int64)
        edges = len(p_indices)
        self.tri = (
            np.full(edges, -1, dtype=np.int64),  # tri_ptr
            np.zeros(edges, dtype=np.int64),  # tri_len
            np.zeros(TRIPLE_POOL if d >= 4 else 0, dtype=np.int32),  # pool of passing third elements
            np.zeros(2, dtype=np.int64),  # pool_used: entries used, triples tested by the last _tri call
            np.zeros(n, dtype=np.int32),  # code2
            np.array([n] + [0] * 7, dtype=np.int64),  # cnt2 (traces on a pair; [4:] scratch of _tri's tests)
            np.zeros(max(1 << (d - 1), 1), dtype=np.int64),  # hist: a tested element's sets by trace
            p_shared,
            *(bits if bits is not None else _element_bits(elem, transpose, n, d)),  # bits, ab
        )

    def step(self, budget: int) -> int:
        args = (self.state, self.pos, self.lists, self.lens, self.chosen, self.out, *self.tri, budget)
        return int(self.kernel(*self.args, *args))

    @property
    def nodes(self) -> int:
        return int(self.state[2])


def _run(
    search: _Search | _CliqueSearch, deadline: Deadline, max_nodes: int | None, first: int = FIRST_STEP_NODES
) -> tuple[int, bool]:
    """Step ``search`` until FOUND / DONE, ``max_nodes`` more nodes (PAUSED) or the deadline (stopped: True)."""
    budget = first
    start = search.nodes
    while True:
        if max_nodes is not None:
            budget = min(budget, start + max_nodes - search.nodes)
        t0 = time.monotonic()
        status = search.step(budget)
        spent = time.monotonic() - t0
        if status != sparse_kernel.PAUSED:
            return status, False
        if max_nodes is not None and search.nodes - start >= max_nodes:
            return status, False
        if deadline.expired():
            return status, True
        budget = int(min(max(budget * (STEP_SECONDS / max(spent, 1e-6)), 1 << 10), budget * 4, 1 << 26))


def sparse_vc_dimension(
    H: HypothesisClass,
    *,
    time_limit: float | None = None,
    progress: bool = False,
    deadline: Deadline | None = None,
    jobs: int | None = None,
) -> DimensionResult:
    """The VC dimension of a class stored sparse (``H.storage == "sparse"``), with a shattered set as witness.

    Called by :func:`dimcalc.vc_dimension` for sparse classes (see the module
    docstring for the algorithm); the witness is a list of point indices, as
    there.  A ``time_limit`` (seconds from the call; or a running
    ``deadline``) stops the search with proven bounds, ``exact=False``.
    ``jobs > 1``: the pair-graph search on that many threads of this process
    (:mod:`dimcalc.vc.sparse_threads`; the same value and witness); ``None``
    (the default): a thread on every core this process may use.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_sets([{0, 1}, {1, 2}, {0, 2}, {0}, {1}, {2}, set()], storage="sparse")
    >>> r = sparse_vc_dimension(H)
    >>> r.value, r.witness, r.stats["method"]
    (2, [0, 1], 'sparse: degree pruning, anchors, trace counting [CCDV24]')
    """
    deadline = deadline if deadline is not None else Deadline(time_limit)
    jobs = usable_cores() if jobs is None else jobs
    log = Progress(progress, "vc")
    table = H.distinct_sparse_table
    if table is None:
        table = SparseTable.from_bits(H.distinct_bit_table) if H.distinct_bit_table is not None else None
    if table is None:
        table = SparseTable.from_dense(H.distinct_rows)
    n = table.n_rows
    transpose = table.transpose()
    degrees = np.diff(transpose[0])
    # The compiled kernels, unless loading them (numba's disk cache: about a second) would not fit the time left;
    # the plain-Python kernels search in small steps, so a short limit still holds.
    left = deadline.remaining()
    need = JIT_MIN_SECONDS if sparse_jit.cached() else JIT_COMPILE_SECONDS
    jit = sparse_jit.available() and (sparse_jit.warm() or left is None or left >= need)
    if jit and not sparse_jit.warm():
        # Cached: load the two kernels every search runs (the pair and clique kernels load on first use, in
        # milliseconds); not cached: compile them all now, under the time check above, and record it.
        sparse_jit.warm_up(("levels", "search") if sparse_jit.cached() else tuple(sparse_jit.KERNEL_NAMES))
    K = sparse_jit.kernels(jit)
    first = FIRST_STEP_NODES if jit else 64
    if jit or left is None:
        h: np.ndarray | None = set_levels(table, degrees, K["levels"] if jit else None)
        upper = _bound_of_levels(h, n)  # type: ignore[arg-type]
    else:  # plain Python, little time: the cheap bounds of facts 1-2 (largest set, largest element level)
        level = element_levels(degrees, n)
        sizes = table.row_sizes()
        cheap = min(int(level.max()) if len(level) else 0, int(sizes.max()) if len(sizes) else 0)
        upper = min(cheap, max(n, 1).bit_length() - 1)
        h = None
    stats: dict[str, Any] = {"method": "sparse: degree pruning, anchors, trace counting [CCDV24]"}
    stats["static_upper"] = upper
    lower, witness = 0, []
    nodes = 0
    stopped = False
    last_pairs: tuple[int, tuple] | None = None  # the last pair graph built, by target
    d = 1
    while d <= upper:
        if deadline.expired():
            stopped = True
            break
        # The anchor search first, for TRIAL_NODES nodes (a count, not a time: the witness never depends on
        # speed); unfinished, the pair-graph search from d = 3 when the pair graph is cheap to build.  When the
        # pair graph of d - 1 was built, that of d is a filter of it, free: the pair-graph search at once.
        free_pairs = last_pairs is not None and last_pairs[0] == d - 1
        trial = 0 if free_pairs else TRIAL_NODES if d >= 3 else None
        search: Any = _Search(table, transpose, degrees, d, K, h)
        status, stopped = _run(search, deadline, trial, first)
        if status == sparse_kernel.PAUSED and not stopped:
            nodes += search.nodes
            if last_pairs is not None and last_pairs[0] == d - 1:  # a subset of the last pair graph
                raw: tuple | None = filter_pairs(last_pairs[1], degrees, n, d)
            elif pair_work(table, candidates(degrees, n, d)) <= PAIR_WORK:
                raw = pair_graph(table, transpose, degrees, d, deadline, K, jobs)
                if raw is None:
                    stopped = True
                    break
            else:
                raw = None
            if raw is not None:
                last_pairs = (d, raw)
                built = orient_pairs(raw[0], raw[1], table.n_cols, raw[2])
                stats[f"pair_graph_edges_{d}"] = len(built[1])
                if jit and jobs > 1:
                    search = threaded_clique_search(
                        jobs, n, transpose, built, d, K, deadline, _CliqueSearch, STEP_SECONDS
                    )
                    status, stopped = search.status, search.stopped
                else:
                    search = _CliqueSearch(n, transpose, built, d, K)
                    status, stopped = _run(search, deadline, None, first)
            else:
                nodes -= search.nodes
                status, stopped = _run(search, deadline, None, first)
        nodes += search.nodes
        if stopped:
            break
        if status == sparse_kernel.FOUND:
            lower, witness = d, sorted(int(x) for x in search.out)
            log.update(f"lower {lower}, upper {upper}")
            d += 1
        else:
            upper = d - 1
            break
    stats["nodes"] = nodes
    stats["compiled"] = jit
    if jit and jobs > 1:
        stats["threads"] = jobs
    if stopped:
        stats["stopped"] = deadline.stop_label
    stats["seconds"] = deadline.elapsed()
    log.update(f"lower {lower}, upper {upper}", force=True)
    return DimensionResult.bounds("vc", lower, upper, witness, **stats)
