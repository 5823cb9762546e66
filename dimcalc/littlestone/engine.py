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
from ..search.budget import Deadline, Progress, SearchStopped
from .column_splitter import ColumnSplitter
from .memo import LevelSplitter, MemoEntry, MemoKey, MemoStore
from .memo_table import MemoTable
from .splits import ColumnCandidates, NodeSplits, Split, Splitter
from .turns import Turns

__all__ = ["Engine", "MemoEntry", "MemoKey", "LevelSplitter", "sat_module"]


class Engine(MemoStore, Turns):
    """Decision search ``D(V) >= t`` with a memo of proven bounds (see the module docstring).

    Pruning rules live in two places only: the splitter's
    :meth:`~dimcalc.littlestone.splitters.Splitter.candidates` (which splits
    of ``V`` can give depth ``t`` at all, in search order) and
    :meth:`at_least` (what the memo already proves).  ``docs/littlestone.md``
    says where a new rule goes.
    """

    def __init__(
        self,
        H: HypothesisClass,
        splitter: Splitter,
        *,
        deadline: Deadline | None = None,
        progress: Progress | None = None,
        levels: LevelSplitter | None = None,
    ) -> None:
        self.H = H
        self.splitter = splitter
        #: Splits by one map at a time, for nodes with a prefix of maps (see :meth:`at_least`); None: plain search.
        self.levels = levels
        #: Depth-1 queries answered by ``|V| >= 2`` (see :attr:`.splits.Splitter.separates`).
        self.separates = bool(getattr(splitter, "separates", False))
        self.deadline = deadline or Deadline(None)
        if getattr(splitter, "deadline", False) is None:  # a splitter whose enumeration can be long polls it too
            splitter.deadline = self.deadline
        self.progress = progress or Progress(False)
        #: Proven bounds by version space (keys packed on a big class: :mod:`.memo_table`).
        self.memo = MemoTable(H.n_distinct)
        if self.memo.packed and isinstance(splitter, ColumnSplitter) and splitter.n_words == self.memo.recent.n_words:
            splitter.recent = self.memo.recent  # the words of a node's version space, converted once
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
        #: Proven upper bounds by shape (rule 7, :meth:`.column_splitter.ColumnSplitter.shape`): kept across queries.
        self.shape_upper: dict[bytes, int] = {}
        self.shape_lower: dict[tuple[int, int], tuple[int, Any]] = {}  # rule 8 (.twins): (depth, a memo key)
        self.twins: dict[Any, Any] = {}  # memo keys
        self._shape = getattr(splitter, "shape", None)
        #: Depth-2 splits kept as their column alone (:meth:`_kept`): the column splitter (LDim, Ψ^bin).
        self._columns_kept = isinstance(splitter, ColumnSplitter)
        self._shape_calls = self._shape_hits = 0
        # Splits of version spaces with many live columns, kept across the queries of iterative deepening.
        self._split_cache: dict[int, tuple[list[int], list]] = {}
        self._split_cache_size = 0
        #: Rule 9 (:meth:`_refuted_at_a_look`): look at a candidate's bigger child before searching the smaller.
        self.look_first = True
        #: Rule 10 (:meth:`_both_alternating`) at the root of each query.
        self.alternate = True
        #: The version space of the query being decided (:meth:`_decide`): its candidates use rule 10.
        self.query_root: int | None = None
        self.looks = 0
        self._looked: dict[int, tuple[int, NodeSplits]] = {}

    # -- decision
    def at_least(self, V: int, t: int, live: Sequence[int], prefix: tuple[int, ...] = ()) -> bool:
        """Decide ``D(V) >= t``; raises SearchStopped when the deadline or node budget is spent.

        ``live``: columns that may split ``V`` (those constant on an ancestor dropped).
        ``prefix``: maps ``(j_0, j_1, ...)`` of the :attr:`levels` splitter that
        the first levels of the tree must use, one map per level (the uniform
        variant, :mod:`.uniform`); the levels below the prefix are free.  With a
        prefix the node is ``(V, prefix)`` in the memo, its splits are those of
        map ``j_0`` and ``live`` are columns of :attr:`levels`; below the prefix
        the search goes on with the family's splitter.  The same recursion,
        bounds and memo serve both: a tree of depth ``t`` whose first levels use
        the prefix's maps is a split by map ``j_0`` whose two children have such
        trees of depth ``t - 1`` for the rest of the prefix.
        """
        if t <= 0:
            return True
        if t == 1 and self.separates and not prefix:
            # Depth 1 by size: any two distinct hypotheses are split apart by the family (Splitter.separates),
            # and a split with two non-empty children is a tree of depth 1 (its node: Splitter.pair_split).
            if V & (V - 1) == 0:
                return False
            e = self.memo.get(V)
            if e is not None and e.lower < 1:  # an entry the caller reads (solve's root): keep it true
                e.lower = 1
            return True
        memo = self.memo
        key = memo.key((V, prefix) if prefix else V)
        e = memo.table.get(key)
        if e is None:
            hi = memo.size_bound(V)
            if hi < t:
                return False
            e = memo.table[key] = MemoEntry(0, hi)
        else:
            if e.lower >= t:
                return True
            if e.upper < t:
                return False
        self.nodes += 1
        if self.deadline.tick(64):
            raise SearchStopped
        if self.node_budget is not None and self.nodes > self.node_budget:
            raise SearchStopped
        if not self.nodes & 0x3FFF:
            self.progress.update(f"t={self.target} nodes={self.nodes} memo={len(memo)}")
        shape = None if prefix or t < SHAPE_MIN_DEPTH else self._shape_of(V, live)
        if shape is not None:
            if self._shape_refutes(shape, t, e):
                return False
            if self._twin_proves(shape, V, t, e):
                return True
        if prefix:
            assert self.levels is not None  # a prefix is a sequence of the levels splitter's maps
            new_live, cand, upper = self._candidates(V, t, live, prefix[0])
            rest = prefix[1:]
            if not rest:  # below the prefix: the family's splitter and its columns
                new_live = self.splitter.columns
        else:
            new_live, cand, upper = self._candidates(V, t, live)
            rest = ()
        if upper is not None and upper < e.upper:  # the balance bound, kept for later queries on V
            e.upper = upper
        t1 = t - 1
        # Quick pass: a split both of whose children are already proven deep enough (of the candidates built).
        for c in cand.built() if isinstance(cand, ColumnCandidates) else cand:
            s = memo.get((c.small, rest) if rest else c.small)
            if s is not None and s.lower >= t1:
                g = memo.get((c.big, rest) if rest else c.big)
                if g is not None and g.lower >= t1:
                    e.lower, e.split = t, self._kept(c.split, t, prefix)
                    self._proved(V, e, shape)
                    return True
        start = self.nodes
        sat_pending = self.sat_inside and t >= 2 and not prefix
        look = t1 >= LOOK_MIN_DEPTH and not prefix and self.look_first
        # Rule 10 at the root of a query from its second candidate on (the first proved t - 1 and usually succeeds).
        turns = look and self.alternate and V is self.query_root
        for i, c in enumerate(cand):
            if sat_pending and self.nodes - start >= self.sat_min_nodes:
                sat_pending = False
                answer = self._sat_inside(V, t, self._splits(V, live)[1], self.nodes - start)
                if answer is not None:
                    return answer
            if look and self._refuted_at_a_look(c.big, t1, new_live):
                continue
            if turns and i:
                both = self._both_alternating(c.small, c.big, t1, new_live)
            else:
                both = self.at_least(c.small, t1, new_live, rest) and self.at_least(c.big, t1, new_live, rest)
            if both:
                if e.lower < t:
                    e.lower, e.split = t, self._kept(c.split, t, prefix)
                    self._proved(V, e, shape)
                return True
        if e.upper > t1:
            e.upper = t1
        if shape is not None:
            self.shape_upper[shape] = min(e.upper, self.shape_upper.get(shape, e.upper))
        return False

    def _kept(self, split: Split, t: int, prefix: tuple[int, ...]) -> Split:
        """The split a memo entry keeps: on the column splitter, its column alone; the witness writer splits ``V``
        again (:meth:`.memo.TreeWriter.children`).  At depth 2 (``Split(column, -1, -1)``) the children, decided
        by size, are not memo keys (boxes 28 x 28 kept 40 754 such ints, 430 MB, against 680 MB of keys); deeper
        (``Split(column, -2, -2)``) they are, under packed keys (:mod:`.memo_table`), and their integers were
        all that was left of them: boxes 32 x 32, 17 exact, peaked at 5.5 GB with them."""
        if prefix or not self._columns_kept:
            return split
        if t == 2:
            return Split(split.desc, -1, -1)
        return Split(split.desc, -2, -2) if self.memo.packed else split

    def _proved(self, V: int, e: MemoEntry, shape: bytes | None) -> None:
        """``e.lower`` was just proven by ``e.split``: ``V`` is no longer written from a twin (rule 8), and
        becomes its shape's twin."""
        if self.twins:
            self.twins.pop(self.memo.key(V), None)
        if shape is not None:
            self._twin_store(shape, V, e)

    def _candidates(self, V: int, t: int, live: Sequence[int], level_map: int | None = None) -> NodeSplits:
        """The splitter's :class:`~.splitters.NodeSplits` of ``V`` for ``t``, candidates in search order.

        With ``level_map``: the splits of ``V`` by that map of :attr:`levels` only.
        Search order: most balanced first (stable among ties) -- the
        splitter's order -- except that the split which proved ``D(V) >= t - 1``
        in an earlier round of iterative deepening (kept by the memo) is tried first.
        """
        if level_map is None:
            looked = self._looked.pop(V, None) if self._looked else None
            node = looked[1] if looked is not None and looked[0] == t else self.splitter.candidates(V, t, live)
            e = self.memo.get(V)
        else:
            assert self.levels is not None
            node = self.levels.map_candidates(V, t, live, level_map)
            e = None  # prefixed nodes keep the splitter's order
        cand = node.candidates
        if e is None or e.split is None:
            return node
        if isinstance(cand, ColumnCandidates):
            cand.move_to_front(e.split.desc)
        elif len(cand) > 1 and not _same(cand[0].split, e.split):
            for i, c in enumerate(cand):
                if _same(c.split, e.split):
                    cand.insert(0, cand.pop(i))
                    break
        return node

    # -- optimisation
    def solve(self, V: int, *, upper: int | None = None) -> tuple[int, int, bool]:
        """Raise the proven bounds of ``D(V)`` until they meet or time runs out.

        Returns ``(lower, upper, stopped)``.
        """
        live = self.splitter.columns
        e = self._entry(V)
        if upper is not None and upper < e.upper:
            e.upper = upper
        stopped = False
        try:
            # Without a time limit, top-down probes first: the size bound is often tight or off
            # by one, and a success at the bound skips the shallower trees of iterative
            # deepening.  Under a time limit, deepening alone gives certified lower bounds early.
            probes = self.top_down_probes if self.deadline.seconds is None else 0
            if probes == 0 and self.upper_probe_nodes:
                self._upper_probes(V, live)
            for _ in range(probes):
                if e.lower >= e.upper:
                    break
                self.target = e.upper
                self.progress.update(f"t={e.upper} nodes={self.nodes} memo={len(self.memo)}", force=True)
                self._decide(V, e.upper, live)
            while e.lower < e.upper:
                t = e.lower + 1
                self.target = t
                self.progress.update(f"t={t} nodes={self.nodes} memo={len(self.memo)}", force=True)
                if not self._decide(V, t, live):
                    break
        except SearchStopped:
            stopped = True
        return e.lower, e.upper, stopped

    def _decide(self, V: int, t: int, live: Sequence[int]) -> bool:
        """``at_least`` at the root, alternating with SAT when the recursion is slow.

        The recursion runs under a node budget; when the budget is spent
        without an answer and the SAT encoding of the query is small enough,
        :meth:`sat_query` gets a conflict budget; both
        budgets double each round.  The memo survives every interruption, so
        no proven fact is lost.
        """
        self.query_root = V
        if self.pool is not None and len(self._candidates(V, t, live).candidates) >= PARALLEL_WIDE:
            return self._parallel_at_least(V, t, live)
        # A narrow query (fewer candidates) is searched as one process searches it, whatever ``jobs``: the
        # first candidate usually succeeds, and a later one found by a worker is searched again here for a
        # witness independent of timing, which doubled its cost (boxes 28 x 28 at jobs=2: 0.48x).
        sat = sat_module() if self.use_sat else None
        if sat is None:
            return self.at_least(V, t, live)
        budget = conflicts = _INITIAL_NODE_BUDGET
        while True:
            answer = self._within_nodes(V, t, live, budget)
            if answer is not None:
                return answer
            _, splits = self._splits(V, live)
            if sat.estimate_clauses(V.bit_count(), len(splits), t) <= sat.MAX_CLAUSES:
                answer = self.sat_query(V, t, splits, conflicts)
                if answer is not None:
                    return answer
            budget *= 2
            conflicts *= 2

    def _parallel_at_least(self, V: int, t: int, live: Sequence[int]) -> bool:
        """``at_least`` at the root with the candidate splits after the first evaluated in the worker processes of ``self.pool``.

        Only for a *wide* query (:data:`PARALLEL_WIDE` candidates or more, see :meth:`_decide`).  A query that
        takes fewer than :data:`PARALLEL_MIN_NODES` nodes is answered here first, as one process would.  Otherwise the candidates are those of :meth:`at_least`, in the same order.  The
        first is decided here, as one process would (it is the split that
        proved ``t - 1`` in the round before and usually succeeds: then no
        worker starts).  When it fails, the others go to the workers, each
        deciding ``D(smaller) >= t - 1 and D(bigger) >= t - 1`` on its copy of
        this engine; the answer is the FIRST candidate in order that succeeds
        -- later results are waited for only if every earlier one failed --
        and its two subtrees are searched again here, on this process's memo
        (refutations by the workers write nothing into it), so value and
        witness are the same on every run and for every number of workers.
        All candidates failing proves ``D(V) <= t - 1``.  Workers run under
        the remaining time; a stopped worker stops the search (``SearchStopped``).
        """
        e = self._entry(V)
        if e.lower >= t:
            return True
        if e.upper < t:
            return False
        # A query cheaper than PARALLEL_MIN_NODES is answered here, as one process would: no worker starts.
        # A node count, so what runs here does not depend on timing.  Stopped by that budget, the memo keeps
        # what it proved (the workers inherit it).
        answer = self._within_nodes(V, t, live, PARALLEL_MIN_NODES)
        if answer is not None:
            return answer
        self.nodes += 1
        new_live, cand, _ = self._candidates(V, t, live)
        assert self.pool is not None
        # The first candidate here, as one process would (it is the split that proved t - 1 in the round
        # before, and usually succeeds): no workers, no subtrees to re-find; the rest only when it fails.
        first = next(iter(cand), None)
        if (
            first is not None
            and self.at_least(first.small, t - 1, new_live)
            and self.at_least(first.big, t - 1, new_live)
        ):
            e.lower, e.split = t, first.split
            return True
        rest = [(c.small, c.big) for c in cand][1:]
        outcome = self.pool.first_success(rest, t - 1, new_live, self.deadline)
        self.nodes += outcome.nodes
        if outcome.stopped:
            raise SearchStopped
        if outcome.found is None:
            e.upper = min(e.upper, t - 1)
            return False
        c = cand[outcome.found + 1]
        assert outcome.trees is not None
        try:
            # Its subtrees re-found here, on this process's memo, which no worker's timing has touched (the
            # earlier candidates were decided here or refuted, which writes nothing): the same witness on every run.
            found = self.at_least(c.small, t - 1, new_live) and self.at_least(c.big, t - 1, new_live)
        except SearchStopped:  # stopped: the workers' subtrees (verified like any) are the witness
            self.subtrees[(c.small, t - 1)], self.subtrees[(c.big, t - 1)] = outcome.trees
            e.lower, e.split = t, c.split
            raise
        assert found, "a worker proved this split"
        e.lower, e.split = t, c.split
        return True

    def _sat_inside(self, V: int, t: int, splits: list, spent: int) -> bool | None:
        """SAT on a query ``D(V) >= t`` inside the search, when the cost model says it can pay.

        Tried once per query, after the recursion has spent ``sat_min_nodes``
        nodes on it without an answer, if the encoding is small
        (``sat_max_clauses``) and at most about ``_SAT_CLAUSES_PER_NODE``
        clauses per node already spent (building and solving the CNF costs
        about that much), and while SAT has taken at most ``_SAT_SHARE`` of the
        time so far.  The conflict budget grows with the nodes spent.
        """
        sat = sat_module()
        if sat is None:
            return None
        clauses = sat.estimate_clauses(V.bit_count(), len(splits), t)
        if clauses > self.sat_max_clauses:
            return None
        if self.sat_min_nodes and clauses > _SAT_CLAUSES_PER_NODE * spent:
            return None
        if self.sat_min_nodes and self.sat_seconds > _SAT_SHARE * self.deadline.elapsed() + 0.01:
            return None
        return self.sat_query(V, t, splits, max(1000, _SAT_CONFLICTS_PER_NODE * spent))

    def sat_query(self, V: int, t: int, splits: list, conflicts: int | None) -> bool | None:
        """Decide ``D(V) >= t`` by :func:`dimcalc.sat.solve_tree_depth` over the canonical ``splits`` of ``V``.

        UNSAT proves ``D(V) <= t - 1`` (every tree of depth ``t`` for ``V``
        uses, at each node, a split of ``V`` restricted to the node's version
        space, and the encoding allows every such choice).  A model is
        checked -- every node's version space, followed down the chosen
        splits, keeps both children non-empty -- before it is written into
        the memo (each node's version space gets lower bound ``t - level`` and
        its split).  Returns None when the budget (conflicts, deadline) is spent.
        """
        sat = sat_module()
        began = time.monotonic()
        try:
            answer, choice = sat.solve_tree_depth(
                V, splits, t, conflict_budget=conflicts, seconds=self.deadline.remaining()
            )
        finally:
            self.sat_calls += 1
            self.sat_seconds += time.monotonic() - began
        if self.deadline.expired():
            raise SearchStopped
        if answer is None:
            return None
        if not answer:
            self.sat_answers += 1
            e = self._entry(V)
            e.upper = min(e.upper, t - 1)
            return False
        assert choice is not None  # given with a True answer
        steps: list[tuple[int, int, Split]] = []

        def walk(node: int, W: int, level: int) -> bool:
            if level == t:
                return W != 0
            V0, V1, desc = splits[choice[node]]
            W0, W1 = W & V0, W & V1
            steps.append((W, t - level, Split(desc, W0, W1)))
            return walk(2 * node + 1, W0, level + 1) and walk(2 * node + 2, W1, level + 1)

        if not walk(0, V, 0):  # pragma: no cover - a model is a shattered tree; kept as a check
            return None
        self.sat_answers += 1
        for W, depth, split in steps:
            e = self._entry(W)
            if e.lower < depth:
                e.lower, e.split = depth, split
                self._proved(W, e, None)
        return True


#: Shapes (rules 7 and 8) are computed for queries ``D(V) >= t`` with ``t`` at least this (at t = 2 a shape saves
#: no node: the children are decided by size; measured neutral for rule 7, and it cuts rule 8's cost on boxes).
SHAPE_MIN_DEPTH = 3
#: Rule 9 (``Turns._refuted_at_a_look``) for candidates of queries ``D(V) >= t`` with ``t - 1`` at least this.  From
#: 3, halfspaces over 16 x 16 took 17.1 CPU s against 13.9 s without (bigger children counted for smaller ones that
#: then failed); from 8, 13.7 s (load 1.8).  Deep down a look costs as much as the search it may save.
LOOK_MIN_DEPTH = 8
#: With ``jobs > 1``, the root queries with at least this many candidate splits use the workers (mostly
#: refutations of a node or two each, as on lines over Z_p^2); the others are searched as by one process.
PARALLEL_WIDE = 1024
#: ... after this many nodes in the calling process (lines over Z_101^2: D >= 3 is 10 195 nodes).
PARALLEL_MIN_NODES = 2000
#: Node budget of each upper-bound probe under a time limit (0: no probes; see ``Engine._upper_probes``).
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


def _same(split: Split, kept: Split) -> bool:
    """Whether a candidate's split of ``V`` is the split a memo entry of ``V`` keeps (:meth:`Engine._kept`: without
    its children deeper than 2, the column tells; a split kept at depth 2 is not moved first, as before)."""
    return split.desc == kept.desc if kept.V1 == -2 else split == kept


def sat_module() -> Any:
    """:mod:`dimcalc.littlestone.sat`, or None when python-sat is missing."""
    try:
        from . import sat  # python-sat: heavy, optional
    except ImportError:  # pragma: no cover - python-sat missing
        return None
    return sat
