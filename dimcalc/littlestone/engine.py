"""The search engine: decides ``D(V) >= t`` with a memo of proven bounds, for every Littlestone-type family.

``D(V) = max over splits (V0, V1) of 1 + min(D(V0), D(V1))`` (the recursion
and its reductions are proved in :mod:`dimcalc.littlestone`); the engine runs
iterative deepening over ``t``, budgeted upper-bound probes, SAT on slow
queries (:mod:`.sat`, a leaf module it calls with ``V``, its splits and
``t``), and the root's candidates in worker processes when a
:class:`.parallel.RootPool` is attached.

References
----------
Littlestone (1987); BGS Defs 2.10-2.13 and 4.1-4.4.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from ..classes.hypothesis_class import HypothesisClass
from ..search.budget import Deadline, Progress
from .splitters import _VECTOR_MIN_LIVE, _Stop


class _Engine:
    """Decision search ``D(V) >= t`` with a memo of proven bounds (see the module docstring)."""

    def __init__(
        self, H: HypothesisClass, splitter: Any, *, deadline: Deadline | None = None, progress: Progress | None = None
    ) -> None:
        self.H = H
        self.splitter = splitter
        self.deadline = deadline or Deadline(None)
        if getattr(splitter, "deadline", False) is None:  # a splitter whose enumeration can be long polls it too
            splitter.deadline = self.deadline
        self.progress = progress or Progress(False)
        # V -> [lower, upper, (desc, V0, V1) proving lower or None]
        self.memo: dict[int, list] = {}
        self.nodes = 0
        self.target = 0
        self.node_budget: int | None = None
        self.use_sat = True
        self.sat_inside = SAT_INSIDE
        self.sat_min_nodes = _SAT_MIN_NODES
        self.sat_max_clauses: float = _SAT_INSIDE_MAX_CLAUSES
        self.top_down_probes = 2
        self.upper_probe_nodes = _UPPER_PROBE_NODES
        self.sat_calls = 0
        self.sat_answers = 0
        self.sat_seconds = 0.0
        # Root queries in worker processes (see parallel_root); (V, depth) -> a subtree found by a worker.
        self.pool: Any = None  # a parallel.RootPool while a parallel search runs
        self.subtrees: dict[tuple[int, int], dict] = {}
        self._parallel_roots: set[tuple[int, int]] = set()
        # Splits of version spaces with many live columns, kept across the queries of iterative deepening.
        self._split_cache: dict[int, tuple[list[int], list]] = {}
        self._split_cache_size = 0

    #: Bytes of splits kept in the cache (each split holds two bitsets of about |V| / 8 bytes).
    SPLIT_CACHE_BYTES = 128 << 20

    def _splits(self, V: int, live: Sequence[int]) -> tuple[list[int], list]:
        hit = self._split_cache.get(V)
        if hit is not None:
            return hit
        result = self.splitter.splits(V, live)
        cost = len(result[1]) * (V.bit_length() // 4 + 120)
        if len(live) >= _VECTOR_MIN_LIVE and self._split_cache_size + cost <= self.SPLIT_CACHE_BYTES:
            self._split_cache[V] = result
            self._split_cache_size += cost
        return result

    # -- bounds
    def bounds(self, V: int) -> tuple[int, int]:
        e = self.memo.get(V)
        if e is not None:
            return e[0], e[1]
        return 0, V.bit_count().bit_length() - 1

    def _entry(self, V: int) -> list:
        e = self.memo.get(V)
        if e is None:
            e = self.memo[V] = [0, V.bit_count().bit_length() - 1, None]
        return e

    # -- decision
    def at_least(self, V: int, t: int, live: Sequence[int]) -> bool:
        """Decide ``D(V) >= t``; raises _Stop when the deadline or node budget is spent."""
        if t <= 0:
            return True
        e = self.memo.get(V)
        if e is None:
            hi = V.bit_count().bit_length() - 1
            if hi < t:
                return False
            e = self.memo[V] = [0, hi, None]
        else:
            if e[0] >= t:
                return True
            if e[1] < t:
                return False
        self.nodes += 1
        if self.deadline.tick(64):
            raise _Stop
        if self.node_budget is not None and self.nodes > self.node_budget:
            raise _Stop
        if not self.nodes & 0x3FFF:
            self.progress.update(f"t={self.target} nodes={self.nodes} memo={len(self.memo)}")
        new_live, splits, cand = self._candidates(V, t, live)
        memo = self.memo
        t1 = t - 1
        # Quick pass: a split both of whose children are already proven deep enough.
        for c in cand:
            s = memo.get(c[1])
            if s is not None and s[0] >= t1:
                g = memo.get(c[2])
                if g is not None and g[0] >= t1:
                    e[0] = t
                    e[2] = (c[3], c[4], c[5])
                    return True
        start = self.nodes
        sat_pending = self.sat_inside and t >= 2
        for _, small, big, desc, V0, V1 in cand:
            if sat_pending and self.nodes - start >= self.sat_min_nodes:
                sat_pending = False
                answer = self._sat_inside(V, t, splits, self.nodes - start)
                if answer is not None:
                    return answer
            if self.at_least(small, t1, new_live) and self.at_least(big, t1, new_live):
                if e[0] < t:
                    e[0] = t
                    e[2] = (desc, V0, V1)
                return True
        if e[1] > t1:
            e[1] = t1
        return False

    def _candidates(self, V: int, t: int, live: Sequence[int]) -> tuple[list[int], list, list[tuple]]:
        """(new live columns, splits of ``V``, the splits passing the size test for ``t`` in search order).

        A candidate is ``(size of the smaller child, smaller, bigger, desc, V0, V1)``;
        most balanced first (stable order among ties).
        """
        new_live, splits = self._splits(V, live)
        need = 1 << (t - 1)
        cand = []
        for i, (V0, V1, desc) in enumerate(splits):
            if not i & 0xFFFF:  # millions of splits at the root of a wide class: read the clock between chunks
                self.deadline.check()
            n0 = V0.bit_count()
            n1 = V1.bit_count()
            if n0 < need or n1 < need:
                continue
            if n0 <= n1:
                cand.append((n0, V0, V1, desc, V0, V1))
            else:
                cand.append((n1, V1, V0, desc, V0, V1))
        cand.sort(key=lambda c: -c[0])
        return new_live, splits, cand

    # -- witness
    def tree(self, V: int, t: int) -> dict:
        """The tree of depth ``t <= lower(V)`` recorded in the memo (spec §3 format)."""
        if t <= 0:
            low = V & -V
            return {"hypothesis": self.H.row_of(low.bit_length() - 1)}
        given = self.subtrees.get((V, t))
        if given is not None:
            return given
        desc, V0, V1 = self.memo[V][2]
        return self.splitter.node(desc, self.tree(V0, t - 1), self.tree(V1, t - 1))

    # -- optimisation
    def solve(self, V: int, *, upper: int | None = None) -> tuple[int, int, bool]:
        """Raise the proven bounds of ``D(V)`` until they meet or time runs out.

        Returns ``(lower, upper, stopped)``.
        """
        live = self.splitter.columns
        e = self._entry(V)
        if upper is not None and upper < e[1]:
            e[1] = upper
        stopped = False
        try:
            # Without a time limit, top-down probes first: the size bound is often tight or off
            # by one, and a success at the bound skips the shallower trees of iterative
            # deepening.  Under a time limit, deepening alone gives certified lower bounds early.
            probes = self.top_down_probes if self.deadline.seconds is None else 0
            if probes == 0 and self.upper_probe_nodes:
                self._upper_probes(V, live)
            for _ in range(probes):
                if e[0] >= e[1]:
                    break
                self.target = e[1]
                self.progress.update(f"t={e[1]} nodes={self.nodes} memo={len(self.memo)}", force=True)
                self._decide(V, e[1], live)
            while e[0] < e[1]:
                t = e[0] + 1
                self.target = t
                self.progress.update(f"t={t} nodes={self.nodes} memo={len(self.memo)}", force=True)
                if not self._decide(V, t, live):
                    break
        except _Stop:
            stopped = True
        return e[0], e[1], stopped

    def _upper_probes(self, V: int, live: Sequence[int]) -> None:
        """Under a time limit: refute ``D(V) >= upper`` on a small node budget, level by level.

        The size bound ``floor(log2 |V|)`` is often refuted at once (no split
        of ``V`` has both children of ``2**(upper-1)`` hypotheses), yet
        iterative deepening only tests it at the end, so a stopped search
        reported it unchanged.  Each probe costs at most
        ``upper_probe_nodes`` nodes; a refutation lowers the proven upper
        bound and the next level is probed; a success at the bound makes the
        value exact; a spent budget ends the probes (the memo keeps what was proven).
        """
        e = self._entry(V)
        while e[0] < e[1]:
            t = e[1]
            self.target = t
            self.node_budget = self.nodes + self.upper_probe_nodes
            try:
                if self.at_least(V, t, live):
                    return
            except _Stop:
                if self.deadline.expired():
                    raise
                return
            finally:
                self.node_budget = None

    def _decide(self, V: int, t: int, live: Sequence[int]) -> bool:
        """``at_least`` at the root, alternating with SAT when the recursion is slow.

        The recursion runs under a node budget; when the budget is spent
        without an answer and the SAT encoding of the query is small enough,
        :meth:`_sat_query` gets a conflict budget; both
        budgets double each round.  The memo survives every interruption, so
        no proven fact is lost.
        """
        if self.pool is not None:
            return self._parallel_at_least(V, t, live)
        sat = _sat_module() if self.use_sat else None
        if sat is None:
            return self.at_least(V, t, live)
        budget = conflicts = _INITIAL_NODE_BUDGET
        while True:
            self.node_budget = self.nodes + budget
            try:
                return self.at_least(V, t, live)
            except _Stop:
                if self.deadline.expired():
                    raise
            finally:
                self.node_budget = None
            _, splits = self._splits(V, live)
            if sat.estimate_clauses(V.bit_count(), len(splits), t) <= sat.MAX_CLAUSES:
                answer = self._sat_query(V, t, splits, conflicts)
                if answer is not None:
                    return answer
            budget *= 2
            conflicts *= 2

    def _parallel_at_least(self, V: int, t: int, live: Sequence[int]) -> bool:
        """``at_least`` at the root with the candidate splits evaluated in the worker processes of ``self.pool``.

        The candidates are those of :meth:`at_least`, in the same order; each
        worker decides ``D(smaller) >= t - 1 and D(bigger) >= t - 1`` for one
        candidate with a fresh memo (so its answer and subtrees do not depend
        on which worker ran what before).  The answer is the FIRST candidate
        in order that succeeds -- later results are waited for only if every
        earlier one failed -- so value and witness are the same on every run
        and for every number of workers; the workers' subtrees are kept in
        ``self.subtrees`` for the witness.  All candidates failing proves
        ``D(V) <= t - 1``.  Workers run under the remaining time; a stopped
        worker stops the search (``_Stop``).
        """
        e = self._entry(V)
        if e[0] >= t:
            return True
        if e[1] < t:
            return False
        self.nodes += 1
        new_live, _, cand = self._candidates(V, t, live)
        assert self.pool is not None
        outcome = self.pool.first_success(
            [(small, big) for _, small, big, *_ in cand], t - 1, new_live, self.deadline.remaining()
        )
        self.nodes += outcome.nodes
        if outcome.stopped:
            raise _Stop
        if outcome.found is None:
            e[1] = min(e[1], t - 1)
            return False
        _, small, big, desc, V0, V1 = cand[outcome.found]
        assert outcome.trees is not None
        self.subtrees[(small, t - 1)], self.subtrees[(big, t - 1)] = outcome.trees
        self._parallel_roots.add((V, t))
        e[0], e[2] = t, (desc, V0, V1)
        return True

    def settle_subtrees(self, V: int, t: int) -> None:
        """Make the witness of a parallel search independent of timing: re-find the root's subtrees here.

        The subtrees a worker returned depend on the memo it had built from
        whatever tasks it ran before.  When time allows, the two children of
        the root's split are searched again in this process by a fresh engine
        (empty memo) over the same splitter -- a search for trees known to
        exist -- and their trees replace the workers'; the value is unchanged.
        If the deadline stops it, the workers' (verified) subtrees stay.
        """
        if t <= 0 or (V, t) not in self._parallel_roots:
            return
        _, V0, V1 = self.memo[V][2]
        fresh = _Engine(self.H, self.splitter, deadline=self.deadline)
        fresh.use_sat = False
        live, _ = self._splits(V, self.splitter.columns)
        try:
            if fresh.at_least(V0, t - 1, live) and fresh.at_least(V1, t - 1, live):
                self.subtrees[(V0, t - 1)] = fresh.tree(V0, t - 1)
                self.subtrees[(V1, t - 1)] = fresh.tree(V1, t - 1)
        except _Stop:
            pass
        self.nodes += fresh.nodes

    def _sat_inside(self, V: int, t: int, splits: list, spent: int) -> bool | None:
        """SAT on a query ``D(V) >= t`` inside the search, when the cost model says it can pay.

        Tried once per query, after the recursion has spent ``sat_min_nodes``
        nodes on it without an answer, if the encoding is small
        (``sat_max_clauses``) and at most about ``_SAT_CLAUSES_PER_NODE``
        clauses per node already spent (building and solving the CNF costs
        about that much), and while SAT has taken at most ``_SAT_SHARE`` of the
        time so far.  The conflict budget grows with the nodes spent.
        """
        sat = _sat_module()
        if sat is None:
            return None
        clauses = sat.estimate_clauses(V.bit_count(), len(splits), t)
        if clauses > self.sat_max_clauses:
            return None
        if self.sat_min_nodes and clauses > _SAT_CLAUSES_PER_NODE * spent:
            return None
        if self.sat_min_nodes and self.sat_seconds > _SAT_SHARE * self.deadline.elapsed() + 0.01:
            return None
        return self._sat_query(V, t, splits, max(1000, _SAT_CONFLICTS_PER_NODE * spent))

    def _sat_query(self, V: int, t: int, splits: list, conflicts: int | None) -> bool | None:
        """Decide ``D(V) >= t`` by :func:`dimcalc.sat.solve_tree_depth` over the canonical ``splits`` of ``V``.

        UNSAT proves ``D(V) <= t - 1`` (every tree of depth ``t`` for ``V``
        uses, at each node, a split of ``V`` restricted to the node's version
        space, and the encoding allows every such choice).  A model is
        checked -- every node's version space, followed down the chosen
        splits, keeps both children non-empty -- before it is written into
        the memo (each node's version space gets lower bound ``t - level`` and
        its split).  Returns None when the budget (conflicts, deadline) is spent.
        """
        sat = _sat_module()
        began = time.monotonic()
        try:
            answer, choice = sat.solve_tree_depth(
                V, splits, t, conflict_budget=conflicts, seconds=self.deadline.remaining()
            )
        finally:
            self.sat_calls += 1
            self.sat_seconds += time.monotonic() - began
        if self.deadline.expired():
            raise _Stop
        if answer is None:
            return None
        if not answer:
            self.sat_answers += 1
            e = self._entry(V)
            e[1] = min(e[1], t - 1)
            return False
        assert choice is not None  # given with a True answer
        steps: list[tuple[int, int, tuple]] = []

        def walk(node: int, W: int, level: int) -> bool:
            if level == t:
                return W != 0
            V0, V1, desc = splits[choice[node]]
            W0, W1 = W & V0, W & V1
            steps.append((W, t - level, (desc, W0, W1)))
            return walk(2 * node + 1, W0, level + 1) and walk(2 * node + 2, W1, level + 1)

        if not walk(0, V, 0):  # pragma: no cover - a model is a shattered tree; kept as a check
            return None
        self.sat_answers += 1
        for W, depth, split in steps:
            e = self._entry(W)
            if e[0] < depth:
                e[0], e[2] = depth, split
        return True


#: Node budget of each upper-bound probe under a time limit (0: no probes; see ``_Engine._upper_probes``).
_UPPER_PROBE_NODES = 8
#: SAT on failing queries inside the search (default chosen by ``dimcalc bench --suite sat``).
SAT_INSIDE = False
#: Nodes the recursion spends on a query before SAT is considered for it.
_SAT_MIN_NODES = 256
#: Encodings larger than this are never built inside the search.
_SAT_INSIDE_MAX_CLAUSES = 200_000
#: Clauses of encoding per node already spent that the cost model accepts.
_SAT_CLAUSES_PER_NODE = 200
#: Conflicts allowed per node already spent.
_SAT_CONFLICTS_PER_NODE = 20
#: Largest fraction of the elapsed time SAT may have taken before it is tried again.
_SAT_SHARE = 0.5

#: Nodes the recursion may spend on a root query before SAT is tried (then doubled each round).
_INITIAL_NODE_BUDGET = 20000


def _sat_module() -> Any:
    try:
        from . import sat  # python-sat: heavy, optional
    except ImportError:  # pragma: no cover - python-sat missing
        return None
    return sat
