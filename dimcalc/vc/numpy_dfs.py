"""The depth-first search of :mod:`dimcalc.vc.dfs` in vectorised numpy steps (no compiled kernel).

Used for small searches (a trial of :data:`dimcalc.vc.dfs.TRIAL_TESTS` cell
tests before the compiled kernel is loaded) and as the fallback where numba
cannot run.  It decides the same question as :mod:`dimcalc.vc.kernel` with
the same necessary conditions, each defined once in :mod:`dimcalc.vc.rules`:
a column ``z`` extends ``S + {y}`` when it splits every cell with at least
``2^(r - 1)`` hypotheses on each side (:func:`dimcalc.vc.rules.need`), and
the candidates of ``S + {y}`` are those of ``S`` on later points (downward
closure).  All candidate pairs ``(y, z)`` of a node are tested in one
vectorised pass, and small sibling nodes are expanded together in batches
(bounded by pairs x cells x words), so the cost follows the work and not a
per-node overhead; for Natarajan, a node whose alive hypotheses are few works
on columns compacted to those hypotheses (:func:`dimcalc.vc.columns.compact`).
"""

from __future__ import annotations

import numpy as np

from ..search.budget import Deadline, Progress, SearchStopped
from . import rules
from .columns import STEP_WORDS, Columns, compact

__all__ = ["BATCH_WORDS", "NumpyDFS"]

#: Pair-test work (pairs x cells x words) of the nodes expanded together in one batch.
BATCH_WORDS = 1 << 21


class NumpyDFS:
    """The numpy node expansion of :class:`dimcalc.vc.dfs.Search` (a base class: the state is the search's)."""

    cols: Columns
    m: int
    deadline: Deadline
    log: Progress
    stats: dict
    trial: dict | None

    def _spend(self, tests: int) -> None:
        """Count ``tests`` cell tests; a trial that has used up its tests ends: the one stop exception,
        :class:`~dimcalc.search.budget.SearchStopped`, with the reason ``"trial"``."""
        self.stats["tests"] += tests
        if self.trial is not None:
            self.trial["left"] -= tests
            if self.trial["left"] < 0:
                raise SearchStopped("trial")

    def counts(self, cells: np.ndarray, idx: np.ndarray, cols: Columns | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``(ones, zeros)``: sizes of ``cell & side`` for every cell (rows) and column ``idx`` (columns)."""
        cols = self.cols if cols is None else cols
        self._spend(cells.shape[0] * len(idx))
        if cols.ind is not None and cols.one_ind is not None and cols.zero_ind is not None:
            # Count each indicator once, then read both sides of every pair from those counts.
            used, back = np.unique(np.concatenate([cols.one_ind[idx], cols.zero_ind[idx]]), return_inverse=True)
            per = self._popcounts(cells, cols.ind, used)
            return per[:, back[: len(idx)]], per[:, back[len(idx) :]]
        ones = self._popcounts(cells, cols.ones, idx)
        if cols.partial:
            return ones, self._popcounts(cells, cols.zeros, idx)
        sizes = np.bitwise_count(cells).sum(axis=1, dtype=np.int64)
        return ones, sizes[:, None] - ones

    def _popcounts(self, cells: np.ndarray, sides: np.ndarray, idx: np.ndarray) -> np.ndarray:
        """``|cell & sides[j]|`` for every cell (rows) and ``j`` in ``idx`` (columns), in bounded steps."""
        n_cells, n_words = cells.shape
        out = np.empty((n_cells, len(idx)), dtype=np.int64)
        step = max(1, STEP_WORDS // max(n_cells * n_words, 1))
        for s in range(0, len(idx), step):
            self.deadline.check()
            part = idx[s : s + step]
            out[:, s : s + step] = np.bitwise_count(cells[:, None, :] & sides[part][None, :, :]).sum(
                axis=2, dtype=np.int64
            )
        return out

    def _pair_words(self, k: int, n_cells: int, n_words: int) -> int:
        """Words a node with ``k`` candidates and ``n_cells`` cells costs to expand (all candidate pairs)."""
        return k * k * n_cells * n_words

    def _visit(
        self, children: list[tuple[list[int], np.ndarray, np.ndarray]], target: int, cols: Columns
    ) -> list[int] | None:
        """Explore child nodes: small ones batched together, large ones one by one (in the given order).

        With dead hypotheses (Natarajan), a child whose alive hypotheses fit in
        far fewer words is first compacted (:func:`compact`) and explored on
        its own copy of the columns.
        """
        batch: list[tuple[list[int], np.ndarray, np.ndarray]] = []
        load = 0
        for chosen, cells, cand in children:
            own = cols
            if cols.partial:
                smaller = compact(cols, cells, cand)
                if smaller is not None:
                    own, cells, cand = smaller
            cost = self._pair_words(len(cand), cells.shape[0] * 2, cells.shape[1])
            found = None
            if own is not cols or cost >= BATCH_WORDS:
                found = self._explore(chosen, cells, cand, target, own)
            else:
                batch.append((chosen, cells, cand))
                load += cost
                if load >= BATCH_WORDS:
                    found = self._explore_batch(batch, target, cols)
                    batch, load = [], 0
            if found is not None:
                return found
        return self._explore_batch(batch, target, cols) if batch else None

    def _explore_batch(
        self, nodes: list[tuple[list[int], np.ndarray, np.ndarray]], target: int, cols: Columns
    ) -> list[int] | None:
        """:meth:`_explore` for several nodes of one depth at once, on the same columns ``cols``.

        Every pair ``(y, z)`` of candidates of every node (``z`` on a later
        point) is tested in one vectorised pass, in bounded steps; the children
        that keep enough candidate points form the next batch, explored in
        order (most balanced first within each node).  Same sets visited and
        same tests as the node-by-node search, without its per-node overhead.
        """
        self.stats["nodes"] += len(nodes)
        remaining = target - len(nodes[0][0])
        if remaining == 1:
            for chosen, _, cand in nodes:
                if len(cand):
                    return chosen + [int(cols.ids[cand[0]])]
            return None
        need = rules.need(target, len(nodes[0][0]) + 2)
        n_words = nodes[0][1].shape[1]
        n_cells = nodes[0][1].shape[0] * 2
        # Flatten the children (node i, candidate y) and their candidate pairs (y, z), z on a later point.
        child_node, child_y, pair_child, pair_z = [], [], [], []
        n_children = 0
        for i, (_, _, cand) in enumerate(nodes):
            k = len(cand)
            if k < remaining:
                continue
            r = cols.rank[cand]
            a, b = np.nonzero(r[None, :] > r[:, None])  # pairs (y = cand[a], z = cand[b])
            child_node.append(np.full(k, i))
            child_y.append(cand)
            pair_child.append(a + n_children)
            pair_z.append(cand[b])
            n_children += k
        if not n_children:
            return None
        c_node = np.concatenate(child_node)
        c_y = np.concatenate(child_y)
        p_child = np.concatenate(pair_child)
        p_z = np.concatenate(pair_z)
        parent_cells = np.stack([n[1] for n in nodes])  # (nodes, cells, W)
        child_cells = np.concatenate(
            [parent_cells[c_node] & cols.zeros[c_y][:, None], parent_cells[c_node] & cols.ones[c_y][:, None]], axis=1
        )
        score = np.empty(len(p_child), dtype=np.int64)
        # Without dead hypotheses side 0 is the rest of the cell: its size is read off the cell's, counted once.
        child_sizes = None if cols.partial else np.bitwise_count(child_cells).sum(axis=2, dtype=np.int64)
        step = max(1, STEP_WORDS // max(n_cells * n_words, 1))
        for s in range(0, len(p_child), step):
            self.deadline.check()
            pc = p_child[s : s + step]
            z = p_z[s : s + step]
            cells = child_cells[pc]  # (pairs, cells, W): a copy, and-ed in place below
            if child_sizes is None:
                zeros = np.bitwise_count(cells & cols.zeros[z][:, None]).sum(axis=2, dtype=np.int64)
            cells &= cols.ones[z][:, None]
            ones = np.bitwise_count(cells).sum(axis=2, dtype=np.int64)
            if child_sizes is not None:
                zeros = child_sizes[pc] - ones
            score[s : s + step] = np.minimum(ones, zeros).min(axis=1)
        self._spend(len(p_child) * n_cells)
        ok = score >= need
        p_child, p_z, score = p_child[ok], p_z[ok], score[ok]
        # Group the passing pairs by child; keep children with enough candidate points, in order.
        order = np.lexsort((-score, p_child))
        p_child, p_z = p_child[order], p_z[order]
        bounds = np.searchsorted(p_child, np.arange(n_children + 1))
        children: list[tuple[list[int], np.ndarray, np.ndarray]] = []
        for ci in range(n_children):
            zs = p_z[bounds[ci] : bounds[ci + 1]]
            if not rules.enough(len(np.unique(cols.rank[zs])), remaining - 1):
                continue
            children.append((nodes[c_node[ci]][0] + [int(cols.ids[c_y[ci]])], child_cells[ci], zs))
        self.log.update(f"target {target}: {self.stats['nodes']} nodes")
        return self._visit(children, target, cols)

    def _explore(
        self,
        chosen: list[int],
        cells: np.ndarray,
        cand: np.ndarray,
        target: int,
        cols: Columns | None = None,
        first: np.ndarray | None = None,
    ) -> list[int] | None:
        """Extend ``chosen`` (cells ``cells``) by ``target - len(chosen)`` columns of ``cand``.

        Every column of ``cand`` (indices into ``cols``) already passes the test
        at ``chosen`` and ``cand`` holds enough distinct points; it is in
        exploration order (most balanced first).  ``cols`` defaults to all
        columns; below a node whose alive hypotheses are few (Natarajan's dead
        rows) it is a compacted copy over those hypotheses only.  With
        ``first`` (a part of ``cand``), only the sets whose next column is in
        ``first`` are searched.
        """
        cols = self.cols if cols is None else cols
        self.stats["nodes"] += 1
        remaining = target - len(chosen)
        if remaining == 1:
            return chosen + [int(cols.ids[cand[0]])]
        need = rules.need(target, len(chosen) + 2)  # each cell of chosen + {y} on both sides of z
        n_words = cells.shape[1]
        n_cells = cells.shape[0] * 2
        by_rank = cand[np.argsort(cols.rank[cand], kind="stable")]
        rank_sorted = cols.rank[by_rank]
        step = max(1, STEP_WORDS // max(n_cells * len(cand) * n_words, 1))
        heads = cand if first is None else first
        for s in range(0, len(heads), step):
            ys = heads[s : s + step]
            # Cells of chosen + {y} for every y of the chunk: (len(ys), n_cells, W).
            child = np.concatenate(
                [cells[None] & cols.zeros[ys][:, None], cells[None] & cols.ones[ys][:, None]], axis=1
            )
            # Candidates for y: later points only; tested all at once against every child's cells.
            lo = int(np.searchsorted(rank_sorted, cols.rank[ys].min(), side="right"))
            zs = by_rank[lo:]
            if len(zs) == 0:
                continue
            ones, zeros = self.counts(child.reshape(-1, n_words), zs, cols)
            score = np.minimum(
                ones.reshape(len(ys), n_cells, len(zs)).min(axis=1),
                zeros.reshape(len(ys), n_cells, len(zs)).min(axis=1),
            )
            zr = cols.rank[zs]
            ok = (score >= need) & (zr[None, :] > cols.rank[ys][:, None])
            starts = np.flatnonzero(np.r_[True, zr[1:] != zr[:-1]])
            points_ok = np.logical_or.reduceat(ok, starts, axis=1).sum(axis=1)
            children = []
            for i in np.flatnonzero([rules.enough(int(k), remaining - 1) for k in points_ok]):
                zi = np.flatnonzero(ok[i])
                order = zi[np.argsort(-score[i, zi], kind="stable")]
                children.append((chosen + [int(cols.ids[ys[i]])], child[i], zs[order]))
            found = self._visit(children, target, cols)
            if found is not None:
                return found
            self.log.update(f"target {target}: {self.stats['nodes']} nodes, depth {len(chosen)}")
        return None
