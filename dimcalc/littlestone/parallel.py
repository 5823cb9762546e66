"""``jobs=``: the candidate splits at the root of the search in worker processes.

See :class:`RootPool` and :meth:`.engine.Engine.at_least` (its root query with a pool): the
answer is the first succeeding candidate in search order, the root's subtrees
are re-found in the calling process, so value and witness do not depend on
timing or on the number of workers.  The workers are those of the one pool,
:func:`dimcalc.search.pool.first_answer`: forked processes of this machine
(``jobs``) or the workers of a Dask cluster (``scheduler``).
"""

from __future__ import annotations

import copy
import os
import threading
from collections.abc import Sequence
from typing import Any, NamedTuple

from ..classes.hypothesis_class import HypothesisClass
from ..search.budget import Deadline, SearchStats, SearchStopped
from ..search.pool import can_fork, connected, first_answer
from . import engine as engine_module
from .engine import Engine
from .splitters import splitter_for

__all__ = ["RootPool", "solve_root"]


class _Outcome(NamedTuple):
    """What :meth:`RootPool.first_success` found: the first succeeding candidate (or None), its two subtrees."""

    found: int | None
    trees: tuple[dict, dict] | None
    nodes: int
    stopped: bool


class RootPool:
    """The root's candidate splits as ordered pieces of the one pool (:func:`dimcalc.search.pool.first_answer`).

    Each query (:meth:`first_success`) cuts the candidates into chunks of
    consecutive ones, 1, 1, 2, 4, ... up to :attr:`MAX_CHUNK` long (a success
    is usually among the first candidates; a refutation goes through all of
    them at a few nodes each), which the workers take as they free up.  The
    workers are forked for the query: they inherit the class, the splitter
    and the caller's engine with its memo of proven bounds (earlier depths of
    the deepening) without copying them; each keeps its copy of the engine
    for the chunks it runs.  The answer is the first succeeding
    candidate in order, so it does not depend on timing or on ``jobs``.  Use
    as a context manager (kept for the engine; nothing outlives a query).

    With ``scheduler`` (a :class:`distributed.Client`) the chunks run on the
    cluster's workers instead: the pool is sent to them without the caller's
    engine (its memo stays here, :meth:`__getstate__`), and each worker
    thread searches with its own engine over the shipped splitter -- the
    answers are exact, so they do not depend on what a worker knew before.
    """

    #: Longest run of consecutive candidates in one piece.
    MAX_CHUNK = 64

    def __init__(
        self,
        H: HypothesisClass,
        family: str,
        maps: Sequence[tuple] | None,
        jobs: int,
        splitter: Any = None,
        engine: Engine | None = None,
        scheduler: Any = None,
    ) -> None:
        self.H, self.family, self.maps, self.jobs, self.splitter = H, family, maps, jobs, splitter
        self.engine = engine  # the caller's engine: a forked worker searches on its copy (memo included)
        self.scheduler = scheduler  # a connected distributed.Client, or None for this machine's processes
        self._pid = os.getpid()

    def __getstate__(self) -> dict[str, Any]:
        """Sent to a Dask worker: everything but the caller's engine, its memo and its client."""
        return {**self.__dict__, "engine": None, "scheduler": None}

    def __enter__(self) -> RootPool:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def _engine(self, deadline: Deadline, cache: dict[int, Engine]) -> Engine:
        """The engine of this worker (process, or thread of a Dask worker) for the query (built on its first piece)."""
        key = threading.get_ident()  # a Dask worker may run pieces in several threads: one engine each
        engine = cache.get(key)
        if engine is None and self.engine is not None and os.getpid() != self._pid:
            # A forked worker: its copy of the caller's engine, with every bound the caller has proven
            # (earlier depths of the deepening); the answers are exact, so they do not depend on it.
            engine = cache[key] = self.engine
            engine.pool = None
            engine.use_sat = False
            engine.node_budget = None
        if engine is None:
            # A worker of another kind (Dask): a fresh engine; a shallow copy of the splitter, whose
            # deadline it sets, so that a worker thread of this process leaves the caller's splitter as it was.
            splitter = copy.copy(self.splitter) if self.splitter is not None else None
            if splitter is None:
                splitter = splitter_for(self.H, self.family, self.maps, deadline)
            engine = cache[key] = Engine(self.H, splitter, deadline=deadline)
            engine.use_sat = False
        engine.deadline = deadline
        for attr in ("deadline", "_deadline"):  # splitters whose enumeration polls the deadline
            if hasattr(engine.splitter, attr):
                setattr(engine.splitter, attr, deadline)
        return engine

    def first_success(
        self, cands: Sequence[tuple[int, int]], depth: int, live: list[int], deadline: Deadline
    ) -> _Outcome:
        """The first candidate (in the given order) both of whose children have ``D >= depth``.

        ``deadline`` is the search's: forked workers inherit it, Dask workers get it as the time left.
        """
        bounds = [0]
        size = 1
        while bounds[-1] < len(cands):
            bounds.append(min(len(cands), bounds[-1] + size))
            if len(bounds) > 2:
                size = min(2 * size, self.MAX_CHUNK)
        cache: dict[int, Engine] = {}  # one per worker process (each has its copy) and thread
        nodes = [0]

        def piece(j: int) -> tuple[Any, int]:
            engine = self._engine(deadline, cache)
            start = engine.nodes
            try:
                look = depth >= engine_module.LOOK_MIN_DEPTH and engine.look_first  # rule 9, as the caller's loop
                for k, (small, big) in enumerate(cands[bounds[j] : bounds[j + 1]]):
                    if look and engine._refuted_at_a_look(big, depth, live):
                        continue
                    if engine.at_least(small, depth, live) and engine.at_least(big, depth, live):
                        return (k, (engine.tree(small, depth), engine.tree(big, depth))), engine.nodes - start
            except SearchStopped:
                raise SearchStopped(deadline.reason or "time", stats=SearchStats(nodes=engine.nodes - start)) from None
            return None, engine.nodes - start

        def collect(info: Any) -> None:
            nodes[0] += info.nodes if isinstance(info, SearchStats) else int(info)

        try:
            found, decided = first_answer(
                piece, len(bounds) - 1, jobs=self.jobs, scheduler=self.scheduler, deadline=deadline, collect=collect
            )
        except SearchStopped:
            return _Outcome(None, None, nodes[0], True)
        if found is None:
            return _Outcome(None, None, nodes[0], False)
        k, trees = found
        return _Outcome(bounds[decided - 1] + k, trees, nodes[0], False)


def solve_root(
    engine: Engine, family: str, maps: Sequence[tuple] | None, jobs: int, scheduler: Any = None
) -> tuple[int, int, bool]:
    """``engine.solve`` of the whole class, with the root's candidate splits in ``jobs`` worker processes
    or on the workers of a Dask cluster (``scheduler``: a :class:`distributed.Client` or ``"dask://HOST:PORT"``,
    connected for the call within the deadline).

    In a daemonic process (e.g. a ``multiprocessing.Pool`` worker), which may not start processes,
    the search runs in this process: same value.
    """
    if engine.deadline.expired() or (scheduler is None and (jobs <= 1 or not can_fork())):
        return engine.solve(engine.H.full_mask)
    with (
        connected(scheduler, engine.deadline) as client,
        RootPool(engine.H, family, maps, jobs, engine.splitter, engine, client) as pool,
    ):
        engine.pool = pool
        try:
            result = engine.solve(engine.H.full_mask)
        finally:
            engine.pool = None
    return result
