"""The pair-graph search of :mod:`dimcalc.vc.sparse` on several threads of one process (``jobs > 1``).

The compiled kernels release the GIL (numba ``nogil``), so threads of one
process run them side by side with nothing started and nothing copied: the
set system, its transpose and the pair graph are shared, read-only.  Each
thread takes the next roots of the pair graph (ranks in the order of the
one-thread search) from a shared counter -- work stealing, a piece of roots
sized to about a step's time (one root at first; 200 000 roots of one each
cost more in calls than in search) -- and searches the cliques below them
with trace counts, lists and a lazy triple filter of its own
(:func:`dimcalc.vc.sparse_clique._tri`; a filter is computed again by each
thread that needs it: computing every edge's filter ahead, once, was
measured to cost more, as the search of a ``d`` that succeeds reads few).

Same answer and witness as one thread: the search below a root does not
depend on what was searched before it (the filter only drops third elements
that no shattered ``d``-set holds, so it prunes but never reorders), and a
shattered set found below root ``i`` is kept only when every root before
``i`` has been searched in full (a thread that finds one below an earlier
root replaces it): the root below which the one-thread search finds its set.
Node counts differ (filters computed twice; roots after the answer's searched
until the answer is known).  The clock is read between steps of about
``STEP_SECONDS`` of :mod:`dimcalc.vc.sparse`, so a time limit holds as in one
thread; a search stopped by it keeps no witness of ``d`` (as one thread).

Examples
--------
>>> import networkx as nx
>>> from dimcalc import HypothesisClass, vc_dimension
>>> H = HypothesisClass.from_networkx(nx.petersen_graph(), storage="sparse")
>>> one, two = vc_dimension(H), vc_dimension(H, jobs=2)
>>> (one.value, one.witness) == (two.value, two.witness), two.stats["threads"]
(True, 2)
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..search.budget import Deadline
from . import sparse_kernel

__all__ = ["threaded_clique_search", "threaded_pairs", "ThreadedSearch", "usable_cores"]


#: Nodes of a thread's first step (then sized to about ``step_seconds`` a step).
FIRST_BUDGET = 1 << 14


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system has one), at least 1: the threads of
    a sparse search when ``jobs`` is not given.

    >>> usable_cores() >= 1
    True
    """
    try:
        return max(len(os.sched_getaffinity(0)), 1)
    except AttributeError:  # no affinity on this system (macOS, Windows)
        return max(os.cpu_count() or 1, 1)


class _Shared:
    """What the threads share: the next root, the answer so far (root index and set), nodes, a stop flag."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.next = 0
        self.best = -1  # root index of the set found, -1: none
        self.out: list[int] = []
        self.nodes = 0
        self.stop = False

    def take(self, limit: int, size: int) -> int:
        """The first of the next ``size`` roots (``-1``: none left, stopped, or all after the set found)."""
        with self.lock:
            i = self.next
            if i >= limit or self.stop or (self.best >= 0 and i > self.best):
                return -1
            self.next += size
            return i


@dataclass
class ThreadedSearch:
    """The outcome of :func:`threaded_clique_search`: ``status`` FOUND or DONE of
    :mod:`dimcalc.vc.sparse_kernel` (PAUSED when ``stopped`` by the deadline), ``nodes`` of every thread,
    ``out`` the shattered set found (elements; empty unless FOUND)."""

    status: int
    stopped: bool
    nodes: int
    out: list[int] = field(default_factory=list)


def threaded_clique_search(
    threads: int,
    n: int,
    transpose: tuple[np.ndarray, np.ndarray],
    pairs: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    d: int,
    K: dict,
    deadline: Deadline,
    clique_search: Any,
    step_seconds: float = 0.02,
) -> ThreadedSearch:
    """The pair-graph search for target ``d`` on ``threads`` threads (see the module docstring).

    ``clique_search(n, transpose, pairs, d, K, bits=None)`` makes one thread's
    search state (:class:`dimcalc.vc.sparse._CliqueSearch`), one a thread; the
    first thread's element bitsets are given to the others; a thread's steps
    are sized to about ``step_seconds`` (the clock is read between them).
    """
    K = {"clique": K["clique"]}  # loaded here, once, before the threads look it up
    searches = [clique_search(n, transpose, pairs, d, K)]
    bits = searches[0].tri[8]  # the element bitsets, read-only: shared (each thread its own scratch row)
    searches += [clique_search(n, transpose, pairs, d, K, (bits, np.zeros_like(searches[0].tri[9]))) for _ in
                 range(threads - 1)]  # fmt: skip
    roots = searches[0].roots
    shared = _Shared()

    def work(t: int) -> None:
        s = searches[t]
        budget, size = FIRST_BUDGET, 1  # nodes a step; roots a piece (both sized to about step_seconds)
        while (i := shared.take(len(roots), size)) >= 0:
            s.args = (d, roots[i : i + size], *s.args[2:])
            s.state[:] = (0, -1, s.state[2], 0)
            started = time.monotonic()
            while True:
                t0 = time.monotonic()
                status = s.step(budget)
                spent = time.monotonic() - t0
                if status == sparse_kernel.FOUND:  # below root i + state[0] - 1 (the kernel counts it taken)
                    with shared.lock:
                        root = i + int(s.state[0]) - 1
                        if shared.best < 0 or root < shared.best:
                            shared.best, shared.out = root, [int(x) for x in s.out]
                    break
                if deadline.expired() or shared.stop:
                    shared.stop = True
                    break
                if status == sparse_kernel.DONE:
                    break
                if 0 <= shared.best < i + int(s.state[0]) - 1:
                    # a set was found below an earlier root: this one's cannot be the first.  Its trace counts are
                    # left mid-search, but this thread takes no root again (every root left is after the best).
                    break
                budget = int(min(max(budget * (step_seconds / max(spent, 1e-6)), 16), budget * 4, 1 << 26))
            if shared.stop:
                break
            took = time.monotonic() - started
            if took < step_seconds / 2:
                size = min(size * 2, 1 << 16)
            elif took > 2 * step_seconds:
                size = max(size // 2, 1)
        with shared.lock:
            shared.nodes += s.nodes

    with ThreadPoolExecutor(threads) as ex:
        list(ex.map(work, range(threads)))
    nodes = shared.nodes
    if shared.stop:
        return ThreadedSearch(sparse_kernel.PAUSED, True, nodes)
    if shared.best >= 0:
        return ThreadedSearch(sparse_kernel.FOUND, False, nodes, sorted(shared.out))
    return ThreadedSearch(sparse_kernel.DONE, False, nodes)


def threaded_pairs(
    threads: int,
    xs_all: np.ndarray,
    args: tuple,
    n_cols: int,
    kernel: Any,
    deadline: Deadline,
    step_seconds: float = 0.02,
) -> tuple[list[np.ndarray], list[np.ndarray]] | None:
    """The pairs of :func:`dimcalc.vc.sparse.pair_graph` on ``threads`` threads: each takes the next candidates
    ``xs_all[start : start + step]`` (its ``step`` sized to about ``step_seconds``) and
    runs the compiled ``pairs`` kernel on them with counters of its own; the steps' pairs are joined in the
    order of ``start``, so they are those of one thread, in its order.  ``None`` when the deadline expires.
    """
    lock = threading.Lock()
    cursor = [0]
    parts: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    stop = [False]

    def work(_: int) -> None:
        counter = np.zeros(n_cols, dtype=np.int64)
        touched = np.zeros(n_cols, dtype=np.int64)
        out_x, out_y = np.zeros(1 << 16, dtype=np.int64), np.zeros(1 << 16, dtype=np.int64)
        step = 256
        while True:
            with lock:
                start = cursor[0]
                if start >= len(xs_all) or stop[0]:
                    return
                cursor[0] = start + step
            xs = xs_all[start : start + step]
            t0 = time.monotonic()
            while (got := kernel(xs, *args, counter, touched, out_x, out_y)) < 0:  # grow the output and again
                out_x, out_y = np.zeros(4 * len(out_x), dtype=np.int64), np.zeros(4 * len(out_y), dtype=np.int64)
            parts[start] = (out_x[:got].copy(), out_y[:got].copy())
            if deadline.expired():
                stop[0] = True
                return
            spent = time.monotonic() - t0
            step = int(min(max(step * step_seconds / max(spent, 1e-6), 1), step * 4))

    with ThreadPoolExecutor(threads) as ex:
        list(ex.map(work, range(threads)))
    if stop[0]:
        return None
    ordered = [parts[k] for k in sorted(parts)]
    return [x for x, _ in ordered], [y for _, y in ordered]
