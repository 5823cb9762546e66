"""``jobs=``: the candidate splits at the root of the search in worker processes.

See :class:`RootPool` and :meth:`.engine._Engine._parallel_at_least`: the
answer is the first succeeding candidate in search order, the root's subtrees
are re-found in the calling process, so value and witness do not depend on
timing or on the number of workers.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import time
from collections.abc import Sequence
from typing import Any, NamedTuple

from ..classes.hypothesis_class import HypothesisClass
from ..search.budget import Deadline, SearchStopped
from .engine import _Engine
from .splitters import _splitter_for


class _Outcome(NamedTuple):
    """What :meth:`RootPool.first_success` found: the first succeeding candidate (or None), its two subtrees."""

    found: int | None
    trees: tuple[dict, dict] | None
    nodes: int
    stopped: bool


#: The worker process's class, splitter arguments, engine and the pool's shared query counter.
_WORKER: dict[str, Any] = {}


class _TaskDeadline(Deadline):
    """A worker task's deadline: the search's end (absolute, ``time.monotonic``: one clock for every
    process of the machine), and also expired once the pool has moved on to another query."""

    __slots__ = ("_counter", "_query")

    def __init__(self, end: float | None, counter: Any, query: int) -> None:
        super().__init__(None if end is None else end - time.monotonic())
        self._counter = counter
        self._query = query

    def expired(self) -> bool:
        if self.reason is None and self._counter.value != self._query:
            self.reason = "cancelled"
        return super().expired()


def _worker_init(H: HypothesisClass, family: str, maps: Sequence[tuple] | None, splitter: Any, counter: Any) -> None:
    """Set up a worker: with the ``fork`` start method it inherits the parent's splitter (no set-up, no
    pickling); otherwise it builds its own on its first task."""
    _WORKER.clear()
    _WORKER.update(H=H, family=family, maps=maps, engine=None, counter=counter)
    if splitter is not None:
        engine = _WORKER["engine"] = _Engine(H, splitter)
        engine.use_sat = False


def _worker_task(chunk: list[tuple[int, int]], depth: int, live: list[int], end: float | None, query: int) -> tuple:
    """In a worker: the first candidate ``(small, big)`` of ``chunk`` with ``D(small), D(big) >= depth``.

    The decisions use the worker's engine, whose memo of proven bounds is kept
    across tasks (answers are exact, so they do not depend on it; the
    subtrees returned do, see :meth:`_Engine.settle_subtrees`).  A task whose
    query is over (the pool's counter moved on) or whose deadline passed stops
    at its next node.  Returns ``(position in chunk, or -1 when none succeeds,
    or None when stopped; (tree of small, tree of big) or None; nodes)``.
    """
    deadline = _TaskDeadline(end, _WORKER["counter"], query)
    engine: _Engine | None = _WORKER["engine"]
    nodes = 0
    try:
        deadline.check()
        if engine is None:
            H = _WORKER["H"]
            engine = _Engine(H, _splitter_for(H, _WORKER["family"], _WORKER["maps"], deadline), deadline=deadline)
            engine.use_sat = False
            _WORKER["engine"] = engine
        engine.deadline = deadline
        for attr in ("deadline", "_deadline"):  # splitters whose enumeration polls the deadline
            if hasattr(engine.splitter, attr):
                setattr(engine.splitter, attr, deadline)
        start = engine.nodes
        try:
            for k, (small, big) in enumerate(chunk):
                if engine.at_least(small, depth, live) and engine.at_least(big, depth, live):
                    return k, (engine.tree(small, depth), engine.tree(big, depth)), engine.nodes - start
        finally:
            nodes = engine.nodes - start
    except SearchStopped:
        return None, None, nodes
    return -1, None, nodes


class RootPool:
    """Worker processes that evaluate the root's candidate splits (``jobs=`` of the public functions).

    One single-process executor per worker; chunk ``j`` of a query's
    candidates always goes to worker ``j mod jobs``, so each worker's memo
    serves the same candidates at every depth of iterative deepening.  Each worker holds the
    class and the splitter (inherited with ``fork``, else built once).  A
    shared counter numbers the queries: when a query is answered the counter
    moves on and the tasks still running for it stop at their next node.
    Use as a context manager; on exit every task is stopped and the workers joined.
    """

    #: Longest run of consecutive candidates sent as one task.
    MAX_CHUNK = 64

    def __init__(
        self, H: HypothesisClass, family: str, maps: Sequence[tuple] | None, jobs: int, splitter: Any = None
    ) -> None:
        fork = "fork" in multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if fork else None)
        self.jobs = jobs
        self._counter = context.Value("q", 0, lock=False)
        args = (H, family, maps, splitter if fork else None, self._counter)
        self._workers = [
            cf.ProcessPoolExecutor(max_workers=1, mp_context=context, initializer=_worker_init, initargs=args)
            for _ in range(jobs)
        ]

    def __enter__(self) -> RootPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self._counter.value += 1
        for pool in self._workers:
            pool.shutdown(wait=True, cancel_futures=True)

    def first_success(
        self, cands: Sequence[tuple[int, int]], depth: int, live: list[int], seconds: float | None
    ) -> _Outcome:
        """The first candidate (in the given order) both of whose children have ``D >= depth``.

        Candidates go in chunks of consecutive ones (chunk ``j`` to worker
        ``j mod jobs``); at most two chunks per worker are in flight; results
        are read in order, so the answer does not depend on timing.
        """
        end = None if seconds is None else time.monotonic() + seconds
        query = self._counter.value
        # Chunks of consecutive candidates, 1, 1, 2, 4, ... up to MAX_CHUNK long: a success is usually
        # among the first candidates, a refutation goes through all of them at a few nodes each.
        bounds = [0]
        size = 1
        while bounds[-1] < len(cands):
            bounds.append(min(len(cands), bounds[-1] + size))
            if len(bounds) > 2:
                size = min(2 * size, self.MAX_CHUNK)
        n_chunks = len(bounds) - 1
        nodes = 0
        window = 2 * self.jobs
        futures: dict[int, cf.Future] = {}
        try:
            for i in range(n_chunks):
                for j in range(i, min(i + window, n_chunks)):
                    if j not in futures:
                        chunk = list(cands[bounds[j] : bounds[j + 1]])
                        worker = self._workers[j % self.jobs]
                        futures[j] = worker.submit(_worker_task, chunk, depth, live, end, query)
                k, trees, n = futures.pop(i).result()
                nodes += n
                if k is None:
                    return _Outcome(None, None, nodes, True)
                if k >= 0:
                    return _Outcome(bounds[i] + k, trees, nodes, False)
            return _Outcome(None, None, nodes, False)
        finally:
            self._counter.value += 1
            for fut in futures.values():
                fut.cancel()


def _solve_root(engine: _Engine, family: str, maps: Sequence[tuple] | None, jobs: int) -> tuple[int, int, bool]:
    """``engine.solve`` of the whole class, with the root's candidate splits in ``jobs`` worker processes.

    In a daemonic process (e.g. a ``multiprocessing.Pool`` worker), which may not start processes,
    the search runs in this process: same value.
    """
    if jobs <= 1 or engine.deadline.expired() or multiprocessing.current_process().daemon:
        return engine.solve(engine.H.full_mask)
    with RootPool(engine.H, family, maps, jobs, engine.splitter) as pool:
        engine.pool = pool
        try:
            result = engine.solve(engine.H.full_mask)
        finally:
            engine.pool = None
    engine.settle_subtrees(engine.H.full_mask, result[0])
    return result
