"""The order of the engine's work under node budgets: upper-bound probes, a query on a node budget, and rules 9
and 10 (a candidate's bigger child looked at first; the two children of a root candidate searched in turns).

None of these changes what is proven, only what is searched first (docs/littlestone.md, *Pruning rules*); the
part of :class:`~.engine.Engine` that they are, kept here so that the decision search stays one screenful.

References
----------
Littlestone (1987) (the recursion ``D(V) = max over splits of 1 + min(D(V0), D(V1))``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..search.budget import SearchStopped
from .memo import MemoEntry
from .memo_table import MemoTable
from .splits import NodeSplits

__all__ = ["Turns", "ALTERNATE_NODES", "LEAN_LOOKS"]


class Turns:
    """Node budgets and the order of work of the :class:`~.engine.Engine` (a mixin: it reads the engine's memo,
    splitter, node count, budget and deadline, and calls its :meth:`~.engine.Engine.at_least`)."""

    memo: MemoTable
    splitter: Any
    nodes: int
    node_budget: int | None
    deadline: Any
    target: int
    upper_probe_nodes: int
    looks: int
    _looked: dict[int, tuple[int, NodeSplits]]

    def at_least(self, V: int, t: int, live: Sequence[int], prefix: tuple[int, ...] = ()) -> bool:
        raise NotImplementedError  # pragma: no cover - the engine's

    def _entry(self, V: int) -> MemoEntry:
        raise NotImplementedError  # pragma: no cover - the memo store's

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
        while e.lower < e.upper:
            t = e.upper
            self.target = t
            self.node_budget = self.nodes + self.upper_probe_nodes
            try:
                if self.at_least(V, t, live):
                    return
            except SearchStopped:
                if self.deadline.expired():
                    raise
                return
            finally:
                self.node_budget = None

    def _within_nodes(self, V: int, t: int, live: Sequence[int], nodes: int) -> bool | None:
        """:meth:`at_least` stopped after ``nodes`` more nodes: its answer, or None when that budget ran out
        (the memo keeps what it proved); the deadline still raises ``SearchStopped``."""
        self.node_budget = self.nodes + nodes
        try:
            return self.at_least(V, t, live)
        except SearchStopped:
            if self.deadline.expired():
                raise
            return None
        finally:
            self.node_budget = None

    def _both_alternating(self, small: int, big: int, t: int, live: Sequence[int]) -> bool:
        """Rule 10: ``D(small) >= t and D(big) >= t`` for a candidate at the root of a query, the two children
        searched in turns on node budgets that double (:data:`ALTERNATE_NODES` first), until one fails or both succeed.

        The search of a child stopped by its budget keeps what it proved in the memo, and the next turn goes on
        from there; so the cheaper of a failing child and a succeeding one decides a failing candidate.  Boxes
        over 32 x 32, ``D >= 17``: 72 of the 96 root candidates survive rule 9, and the first one's smaller child
        (71 820 boxes) reaches 16 in 40 990 nodes while the bigger (206 965) is refuted in 3 017.  The answer is
        the same as searching the smaller child and then the bigger (both must succeed); only the order of the
        work, and so the memo's facts, differ, the same at every ``jobs``.  A budget above (``node_budget``) and
        the deadline still stop the search.
        """
        outer = self.node_budget
        pending = [small, big]
        budget = ALTERNATE_NODES
        while pending:
            for W in list(pending):
                limit = self.nodes + budget
                self.node_budget = limit if outer is None else min(limit, outer)
                try:
                    decided = self.at_least(W, t, live)
                except SearchStopped:
                    if self.deadline.expired() or (outer is not None and self.nodes > outer):
                        raise
                    continue
                finally:
                    self.node_budget = outer
                if not decided:
                    return False
                pending.remove(W)
            budget *= 2
        return True

    def _refuted_at_a_look(self, V: int, t: int, live: Sequence[int]) -> bool:
        """Rule 9 (*look at the bigger child first*): whether ``D(V) < t`` follows from ``V``'s memo entry or from
        counting ``V`` once -- no column passes the size test for ``t`` (rule 2) or the balance bound is below
        ``t`` (rule 3) -- without searching below ``V``.

        The search decides a candidate's smaller child first (likelier to fail, and cheaper); when it succeeds
        after a long search while the bigger child fails at its first node, that search was wasted: boxes over
        32 x 32, ``D >= 17`` at the root, every one of the 96 candidates has a smaller child (the 73 984 boxes
        through a central point) reaching 16 in 12 000-14 000 nodes and a bigger child refuted by counting.
        The bounds go into the memo (proven facts, rules 2 and 3).  On the column splitter with its compiled loops
        the look is one pass that finds the largest smaller side (:meth:`.column_splitter.ColumnSplitter.balance_upper`:
        no split passes the size test for ``t`` exactly when the balance bound is below ``t``); otherwise the
        splitter's candidates are built and kept for the search of ``V`` that may follow (:meth:`_candidates`).
        That reuse was rare (125 of 14 151 searched nodes of intervals 384), and building the list was most of a
        look's cost: intervals 384, 23.2 -> 19.5 CPU s, the same 40 684 nodes.
        """
        memo = self.memo
        e = memo.get(V)
        if e is not None:
            return e.upper < t
        hi = memo.size_bound(V)
        if hi < t:
            return True
        self.looks += 1
        lean = getattr(self.splitter, "balance_upper", None)
        upper = lean(V, live, memo.size(V)) if lean is not None and LEAN_LOOKS else None
        if upper is not None:  # the same bound, counted without a candidate list (kept for a later search of V
            # 125 times in 14 151 on intervals 384: not worth building)
            memo[V] = MemoEntry(0, upper)
            return upper < t
        node = self.splitter.candidates(V, t, live)
        if node.upper is not None and node.upper < hi:
            hi = node.upper
        if not node.candidates and hi >= t:  # no split passes the size test for t (rule 2)
            hi = t - 1
        memo[V] = MemoEntry(0, hi)
        if hi < t:
            return True
        if len(self._looked) >= 256:  # pending looks are at most one per level of the search: a stale one goes
            self._looked.clear()
        self._looked[V] = (t, node)
        return False


#: Rule 10 (``Turns._both_alternating``): the first node budget of each child of a root candidate.
ALTERNATE_NODES = 1000

#: Rule 9's count of a bigger child by :meth:`.column_splitter.ColumnSplitter.balance_upper` (one compiled pass,
#: no candidate list) where the splitter has it.
LEAN_LOOKS = True
