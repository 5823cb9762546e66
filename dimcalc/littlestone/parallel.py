"""``jobs=``: the candidate splits at the root of the search in worker processes.

See :class:`RootPool` and :meth:`.engine.Engine.at_least` (its root query with a pool): the
answer is the first succeeding candidate in search order, the root's subtrees
are re-found in the calling process, so value and witness do not depend on
timing or on the number of workers.  The workers are those of the one pool,
:func:`dimcalc.search.pool.first_answer`.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, NamedTuple

from ..classes.hypothesis_class import HypothesisClass
from ..search.budget import Deadline, SearchStats, SearchStopped
from ..search.pool import can_fork, first_answer
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
    ) -> None:
        self.H, self.family, self.maps, self.jobs, self.splitter = H, family, maps, jobs, splitter
        self.engine = engine  # the caller's engine: a forked worker searches on its copy (memo included)
        self._pid = os.getpid()

    def __enter__(self) -> RootPool:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def _engine(self, deadline: Deadline, cache: dict[str, Engine]) -> Engine:
        """The engine of this worker process for the query (built on its first piece, then kept)."""
        engine = cache.get("engine")
        if engine is None and self.engine is not None and os.getpid() != self._pid:
            # A forked worker: its copy of the caller's engine, with every bound the caller has proven
            # (earlier depths of the deepening); the answers are exact, so they do not depend on it.
            engine = cache["engine"] = self.engine
            engine.pool = None
            engine.use_sat = False
            engine.node_budget = None
        if engine is None:
            splitter = self.splitter
            if splitter is None:
                splitter = splitter_for(self.H, self.family, self.maps, deadline)
            engine = cache["engine"] = Engine(self.H, splitter, deadline=deadline)
            engine.use_sat = False
        engine.deadline = deadline
        for attr in ("deadline", "_deadline"):  # splitters whose enumeration polls the deadline
            if hasattr(engine.splitter, attr):
                setattr(engine.splitter, attr, deadline)
        return engine

    def first_success(
        self, cands: Sequence[tuple[int, int]], depth: int, live: list[int], seconds: float | None
    ) -> _Outcome:
        """The first candidate (in the given order) both of whose children have ``D >= depth``."""
        deadline = Deadline(seconds)
        bounds = [0]
        size = 1
        while bounds[-1] < len(cands):
            bounds.append(min(len(cands), bounds[-1] + size))
            if len(bounds) > 2:
                size = min(2 * size, self.MAX_CHUNK)
        cache: dict[str, Engine] = {}  # one per worker process (each has its copy)
        nodes = [0]

        def piece(j: int) -> tuple[Any, int]:
            engine = self._engine(deadline, cache)
            start = engine.nodes
            try:
                for k, (small, big) in enumerate(cands[bounds[j] : bounds[j + 1]]):
                    if engine.at_least(small, depth, live) and engine.at_least(big, depth, live):
                        return (k, (engine.tree(small, depth), engine.tree(big, depth))), engine.nodes - start
            except SearchStopped:
                raise SearchStopped(deadline.reason or "time", stats=SearchStats(nodes=engine.nodes - start)) from None
            return None, engine.nodes - start

        def collect(info: Any) -> None:
            nodes[0] += info.nodes if isinstance(info, SearchStats) else int(info)

        try:
            found, decided = first_answer(piece, len(bounds) - 1, jobs=self.jobs, deadline=deadline, collect=collect)
        except SearchStopped:
            return _Outcome(None, None, nodes[0], True)
        if found is None:
            return _Outcome(None, None, nodes[0], False)
        k, trees = found
        return _Outcome(bounds[decided - 1] + k, trees, nodes[0], False)


def solve_root(engine: Engine, family: str, maps: Sequence[tuple] | None, jobs: int) -> tuple[int, int, bool]:
    """``engine.solve`` of the whole class, with the root's candidate splits in ``jobs`` worker processes.

    In a daemonic process (e.g. a ``multiprocessing.Pool`` worker), which may not start processes,
    the search runs in this process: same value.
    """
    if jobs <= 1 or engine.deadline.expired() or not can_fork():
        return engine.solve(engine.H.full_mask)
    with RootPool(engine.H, family, maps, jobs, engine.splitter, engine) as pool:
        engine.pool = pool
        try:
            result = engine.solve(engine.H.full_mask)
        finally:
            engine.pool = None
    engine.settle_subtrees(engine.H.full_mask, result[0])
    return result
