"""The search for a largest shattered set, shared by the VC, Natarajan and graph dimensions.

All three notions are shattering of *virtual columns* of the distinct
hypotheses (BGS §1.2; Ben-David, Cesa-Bianchi, Haussler, Long 1995):

* VC: the point itself, side 1 = hypotheses labelling it 1;
* graph: an indicator ``[h(x) = l]`` for a label ``l`` present at ``x``;
* Natarajan: a pair ``(x, {a, b})``: side 0 = label ``a``, side 1 = label
  ``b``, every other hypothesis *dead* for that column.

A set ``S`` of virtual columns on distinct points is shattered when the
hypotheses alive on every column of ``S`` fall into all ``2^|S|`` cells
(patterns).  ``S + {y}`` is shattered exactly when ``y`` splits every cell of
``S`` into two non-empty halves (partition refinement).

Representation and cost
-----------------------
Hypotheses are bits of ``uint64`` words (``W = ceil(m / 64)`` words for ``m``
distinct hypotheses); a cell and a column side are ``W`` words, and the size
of ``cell & side`` is a popcount.  Testing ``c`` cells against ``p`` columns
costs ``c * p * W`` word operations, done in numpy steps of bounded size
(:data:`STEP_WORDS`), with the deadline read between steps.  Nothing is
quadratic in the number of columns beyond the candidate pairs the search
actually visits, and the columns are first reduced once
(:mod:`dimcalc.reduction`: constant points dropped, points with the same
partition merged) -- so a class with few hypotheses over a huge domain costs
what its distinct columns cost.

Pruning (each step keeps only sets that can still reach the target ``T``)
-------------------------------------------------------------------------
* Size: a set of ``t`` shattered columns needs ``2^t`` alive hypotheses, so
  when ``S`` (``|S| = j``) must still grow by ``r = T - j``, every cell of
  ``S + {y}`` needs at least ``2^(r - 1)`` hypotheses on each side of the
  column added after it -- in particular ``T <= floor(log2 m)``.
  Columns whose sides are smaller than ``2^(T-1)`` are never built (for
  Natarajan: labels rarer than that are never paired), so many labels cost
  nothing.
* Downward closure (Apriori): a child ``S + {y}`` only considers the columns
  ``z`` that passed the test at ``S`` and lie on later points; a node with
  fewer candidate points than it still needs is dropped.
* Order: the children of a node are tested together (one batched test for all
  candidate pairs ``(y, z)``), and explored most balanced first, so that a
  shattered set, when there is one, is met early.

Search plan: a greedy pass (add the most balanced splitting column while one
exists) gives a certified lower bound at once; then targets ``T = lower + 1,
...`` are decided by the depth-first search above, up to ``floor(log2 m)``
and the number of live points.  The first target with no shattered set
proves the upper bound (shattered sets are closed under subsets).  A time or
memory limit stops the search with the proven bounds so far.

A target whose search is not tiny runs compiled (:mod:`dimcalc.vc.kernel`,
numba: the same search with early-exit tests and, from target 4, a triple
filter); a smaller one runs in the numpy steps above, for a fixed number of
tests first, and compiled only if those do not settle it
(:meth:`_Search._mode`).

Each target's search is cut into ordered *pieces* by the first column of the
set; ``jobs`` worker processes share the pieces and the answer of the first
piece in order is taken -- the value and the witness of one process
(:mod:`dimcalc.search.pool`).  The columns themselves are built in
:mod:`dimcalc.vc.columns`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..hypothesis_class import HypothesisClass
from ..search.budget import Deadline, Progress, SearchStopped
from ..search.pool import first_answer
from . import kernel
from .columns import STEP_WORDS, Columns, compact, label_counts, pack_columns, pack_rows, virtual_columns

__all__ = ["largest_shattered_set", "witness_of"]

#: Pair-test work (pairs x cells x words) of the nodes expanded together in one batch.
BATCH_WORDS = 1 << 21
#: A target's search runs compiled when its first level tests at least this many words (or when forced).
KERNEL_MIN_WORDS = 1 << 24
#: Below that, numpy searches (in one process) for this many cell tests before the compiled search takes
#: over -- a count of work, not a time, so that which search answers (and its witness) never depends on speed.
TRIAL_TESTS = 1 << 23


class _TrialOver(Exception):
    """The numpy trial of a target's search used up :data:`TRIAL_TESTS`."""


#: The root's candidates are searched in up to this many pieces (in order; in parallel with ``jobs``) ...
ROOT_PIECES = 16
#: ... of at least this many candidates each (a small class is one piece).
MIN_PIECE = 32


class _Search:
    """Depth-first search for a shattered set of a target size (see the module docstring)."""

    #: A connected Dask client for the pieces of :meth:`find` (:func:`dimcalc.search.pool.first_answer`).
    scheduler: Any = None

    def __init__(
        self, cols: Columns, m: int, deadline: Deadline, log: Progress, stats: dict, trial: dict | None = None
    ) -> None:
        self.cols = cols
        self.m = m
        self.deadline = deadline
        self.log = log
        self.stats = stats
        self.trial = trial  # {"left": tests} while a numpy trial runs (shared by its pieces)
        self.greedy_chosen: list[int] = []  # the greedy set so far (see greedy)

    def _spend(self, tests: int) -> None:
        """Count ``tests`` cell tests; a trial that has used up its tests ends (:class:`_TrialOver`)."""
        self.stats["tests"] += tests
        if self.trial is not None:
            self.trial["left"] -= tests
            if self.trial["left"] < 0:
                raise _TrialOver

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

    def _scores(self, cells: np.ndarray, idx: np.ndarray) -> np.ndarray:
        """``min`` over the cells of both side sizes, for every column of ``idx``; cells x columns counts are
        taken a bounded step of columns at a time (a wide class has millions of columns)."""
        score = np.empty(len(idx), dtype=np.int64)
        step = max(1, STEP_WORDS // max(cells.shape[0] * cells.shape[1], 1))
        for s in range(0, len(idx), step):
            ones, zeros = self.counts(cells, idx[s : s + step])
            score[s : s + step] = np.minimum(ones.min(axis=0), zeros.min(axis=0))
        return score

    def everyone(self) -> np.ndarray:
        """The single cell of the empty set: every distinct hypothesis."""
        return pack_rows(np.ones((1, self.m), dtype=bool))

    def split(self, cells: np.ndarray, v: int) -> np.ndarray:
        """The cells of ``S + {v}`` from those of ``S``: side 0 then side 1 of each cell."""
        return np.concatenate([cells & self.cols.zeros[v], cells & self.cols.ones[v]])

    def greedy(self) -> list[int]:
        """A shattered set built by adding the most balanced splitting column while one exists.

        Each step scans the columns in growing steps and stops at the first
        that splits every cell perfectly (no column can do better), so a wide
        class costs what its first balanced columns cost.  Every prefix is
        shattered: the set so far is kept in :attr:`greedy_chosen`, a lower
        bound when the deadline stops the pass.
        """
        cols = self.cols
        cells = self.everyone()
        chosen: list[int] = []
        self.greedy_chosen = []
        idx = np.arange(len(cols.rank))
        while len(idx):
            perfect = int(np.bitwise_count(cells).sum(axis=1).min()) // 2
            best, best_score = -1, 0
            kept: list[np.ndarray] = []
            s, size = 0, 1024
            while s < len(idx):
                self.deadline.check()
                chunk = idx[s : s + size]
                score = self._scores(cells, chunk)
                j = int(np.argmax(score))
                if score[j] > best_score:
                    best, best_score = int(chunk[j]), int(score[j])
                kept.append(chunk[score >= 1])  # a column splitting every cell of a set did so for its subsets
                s, size = s + size, min(2 * size, 1 << 20)
                if best_score >= max(perfect, 1):
                    kept.append(idx[s:])
                    break
            if best_score < 1:
                break
            chosen.append(best)
            self.greedy_chosen = sorted(chosen, key=lambda v: int(cols.rank[v]))
            cells = self.split(cells, best)
            idx = np.concatenate(kept)
            idx = idx[cols.rank[idx] != cols.rank[best]]
        return sorted(chosen, key=lambda v: int(cols.rank[v]))

    def find(self, target: int, jobs: int = 1) -> list[int] | None:
        """A shattered set of ``target`` columns, or None when there is none.

        The root's candidates are cut into ordered pieces (the first column of
        the set comes from piece ``i``); the pieces run in order, or in
        ``jobs`` processes with the same answer (:func:`dimcalc.search.pool.first_answer`).
        """
        cols = self.cols
        if len(np.unique(cols.rank)) < target:
            return None
        alive = self.everyone()
        ones, zeros = self.counts(alive, np.arange(len(cols.rank)))
        score = np.minimum(ones[0], zeros[0])
        need = 1 << (target - 1)
        ok = np.flatnonzero(score >= need)
        if len(np.unique(cols.rank[ok])) < target:
            return None
        root = ok[np.argsort(-score[ok], kind="stable")]
        mode = self._mode(root, target, alive.shape[1])
        if mode == "compiled":
            return self._find_compiled(root, target, jobs)
        if mode == "numpy":
            return self._find_numpy(alive, root, target, jobs)
        # Small first level: numpy in one process for TRIAL_TESTS tests (no kernel to load when that settles
        # it), then compiled -- or numpy on, in `jobs` processes, where the kernel cannot run.
        try:
            return self._find_numpy(alive, root, target, 1, {"left": TRIAL_TESTS})
        except _TrialOver:
            pass
        if self._kernel_fits(root, target, alive.shape[1]):
            return self._find_compiled(root, target, jobs)
        return self._find_numpy(alive, root, target, jobs)

    def _find_numpy(
        self, alive: np.ndarray, root: np.ndarray, target: int, jobs: int, trial: dict | None = None
    ) -> list[int] | None:
        """:meth:`find` in vectorised numpy steps: ordered pieces of the root (``trial``: a test budget)."""
        cols = self.cols
        step = max(1, STEP_WORDS // max(2 * len(root) * alive.shape[1], 1))
        size = min(step, max(MIN_PIECE, -(-len(root) // ROOT_PIECES)))
        pieces = [root[s : s + size] for s in range(0, len(root), size)]

        def piece(i: int) -> tuple[list[int] | None, dict]:
            sub = _Search(cols, self.m, self.deadline, Progress(False), {"nodes": 0, "tests": 0}, trial)
            try:
                return sub._explore([], alive, root, target, first=pieces[i]), sub.stats
            except _TrialOver:
                self.stats["nodes"] += sub.stats["nodes"]
                self.stats["tests"] += sub.stats["tests"]
                raise
            except SearchStopped as stop:
                stop.info = sub.stats  # the work done before the stop counts too
                raise

        def collect(stats: dict) -> None:
            self.stats["nodes"] += stats["nodes"]
            self.stats["tests"] += stats["tests"]
            self.log.update(f"target {target}: {self.stats['nodes']} nodes")

        found, _ = first_answer(
            piece, len(pieces), jobs=jobs, scheduler=self._scheduler(jobs), deadline=self.deadline, collect=collect
        )
        return found

    def __getstate__(self) -> dict:
        # Sent to Dask workers with a piece: without the client (pieces run where they are sent).
        return {k: v for k, v in self.__dict__.items() if k != "scheduler"}

    def _scheduler(self, jobs: int) -> Any:
        """The Dask client the pieces go to: only when the search is split (``jobs > 1``; not for the trial)."""
        return self.scheduler if jobs > 1 else None

    def _mode(self, root: np.ndarray, target: int, n_words: int) -> str:
        """How this target is searched: ``"compiled"`` (:mod:`dimcalc.vc.kernel`), ``"numpy"`` or ``"trial"``.

        Compiled when forced (``kernel.FORCE``), or when the first level tests
        at least :data:`KERNEL_MIN_WORDS` words and the kernel can run
        (:meth:`_kernel_fits`); with a smaller first level, numpy for
        :data:`TRIAL_TESTS` cell tests first, in one process (a small search
        needs no kernel, and numba is not even imported), then compiled if it
        can run (``"trial"``).
        """
        if kernel.FORCE is not None:
            return "compiled" if kernel.FORCE and kernel.available() else "numpy"
        if len(root) * len(root) * n_words * 2 < KERNEL_MIN_WORDS:
            return "trial"
        return "compiled" if self._kernel_fits(root, target, n_words) else "numpy"

    def _kernel_fits(self, root: np.ndarray, target: int, n_words: int) -> bool:
        """Whether the kernel can run here: numba is there, the time left covers loading it, and its arrays
        fit the memory budget and :data:`kernel.MAX_BYTES` (if not, the numpy search keeps its own budget)."""
        if not kernel.usable(self.deadline.remaining()):
            return False
        need = kernel.bytes_needed(len(root), n_words, target)
        memory = self.deadline.memory_left()
        return need <= kernel.MAX_BYTES and (memory is None or need <= memory)

    def _find_compiled(self, root: np.ndarray, target: int, jobs: int) -> list[int] | None:
        """:meth:`find` by the compiled search: one call, or ordered pieces of the root in ``jobs`` processes."""
        cols = self.cols
        ones, zeros, rank = cols.ones[root], cols.zeros[root], cols.rank[root]
        n = len(root)
        size = n if jobs <= 1 else max(MIN_PIECE, -(-n // ROOT_PIECES))
        pieces = [np.arange(s, min(n, s + size)) for s in range(0, n, size)]

        def piece(i: int) -> tuple[list[int] | None, dict]:
            status, found, stats = kernel.find(
                ones, zeros, rank, pieces[i], target, cols.partial, self.deadline.remaining()
            )
            if status == "stopped":
                self.deadline.expired()  # records the reason
                stop = SearchStopped(self.deadline.reason or "time")
                stop.info = stats
                raise stop
            return ([int(cols.ids[root[p]]) for p in found] if status == "found" else None), stats

        def collect(stats: dict) -> None:
            self.stats["nodes"] += stats["nodes"]
            self.stats["tests"] += stats["tests"]
            self.stats["triple_rows"] = self.stats.get("triple_rows", 0) + stats["triple_rows"]
            self.log.update(f"target {target}: {self.stats['nodes']} nodes (compiled)")

        self.stats["compiled"] = True
        if not kernel.cached():
            self.log.update("compiling the search kernel (once per machine, a few seconds)", force=True)
        found, _ = first_answer(
            piece,
            len(pieces),
            jobs=jobs,
            scheduler=self._scheduler(jobs),
            deadline=self.deadline,
            collect=collect,
            prepare=kernel.warm,
        )
        return found

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
        need = 1 << (remaining - 2)
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
            if len(zs) < remaining - 1 or len(np.unique(cols.rank[zs])) < remaining - 1:
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
        need = 1 << (remaining - 2)  # each cell of chosen + {y, z} needs this many on both sides
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
            for i in np.flatnonzero(points_ok >= remaining - 1):
                zi = np.flatnonzero(ok[i])
                order = zi[np.argsort(-score[i, zi], kind="stable")]
                children.append((chosen + [int(cols.ids[ys[i]])], child[i], zs[order]))
            found = self._visit(children, target, cols)
            if found is not None:
                return found
            self.log.update(f"target {target}: {self.stats['nodes']} nodes, depth {len(chosen)}")
        return None


#: Key of the exact answer kept on a binary class: its VC, Natarajan and graph dimensions are one search.
_SHARED = "_largest_shattered_binary"


def largest_shattered_set(
    H: HypothesisClass,
    kind: str,
    deadline: Deadline,
    log: Progress,
    stats: dict,
    jobs: int = 1,
    scheduler: Any = None,
) -> tuple[list[dict], int, bool]:
    """Largest shattered set of ``kind`` (``"vc"``, ``"natarajan"``, ``"graph"``) under ``deadline``.

    Returns ``(chosen, upper, stopped)`` where ``chosen`` lists the shattered
    virtual columns as ``{"point", "one", "zero"}`` dicts (a certified lower
    bound ``len(chosen)``), ``upper`` a proven upper bound and ``stopped``
    whether the deadline cut the search short.  On a binary class the VC,
    Natarajan and graph searches are the same search (sets shattered with
    ``f0 = 0``, ``f1 = f = 1``; BCHL95, recalled in BGS §1.2), so an exact
    answer is kept on the class and reused by the other two.  ``jobs`` processes share each
    target's search (same answer and witness as one process); with ``scheduler`` (a connected
    :class:`distributed.Client`) the pieces run on a Dask cluster (:mod:`dimcalc.search.pool`).
    """
    best: list[dict] = []
    upper = H.log2_size()
    if H.is_binary and _SHARED in H.__dict__:
        # On a binary class the three notions are one (f0 = 0, f1 = f = 1): an exact answer is reused.
        stats.update(method=f"bitset-dfs (shared with the {H.__dict__[_SHARED][0]} search)", log2_bound=upper)
        return [dict(c) for c in H.__dict__[_SHARED][1]], H.__dict__[_SHARED][2], False
    stats.update(method="bitset-dfs", nodes=0, tests=0, log2_bound=upper)
    if H.n_distinct >= 2:
        # A point where two distinct hypotheses differ is shattered alone: the lower bound 1, before any search.
        r0, r1 = H.distinct_row(0), H.distinct_row(1)
        p0 = int(np.flatnonzero(r0 != r1)[0])
        l0, l1 = int(r0[p0]), int(r1[p0])
        best = [{"point": p0, "one": 1 if kind == "vc" else l1, "zero": -1 if kind == "vc" else l0}]
    try:
        red = H.column_reduction(relabel=True, deadline=deadline)
        stats["reduced_columns"] = red.n_columns
        upper = min(upper, red.n_columns)
        if upper <= 0:
            return _keep(H, kind, best, max(upper, 0))
        points = red.points
        bits = H.distinct_bit_table
        sub: np.ndarray | None = None
        if bits is None:
            rows = H.distinct_rows
            # No copy when nothing was merged or dropped (a square class can be hundreds of MB).
            sub = rows if len(points) == rows.shape[1] else rows[:, points]
            counts = label_counts(sub, H.num_labels, deadline)
        else:  # binary, one bit per cell: label counts by popcount, columns read from the storage (no dense copy)
            ones = np.empty(len(points), dtype=np.int64)
            step = max(1, STEP_WORDS // max(bits.words.shape[1], 1))
            for s in range(0, len(points), step):  # bounded steps, the deadline read between them
                deadline.check()
                ones[s : s + step] = np.bitwise_count(bits.words[points[s : s + step]]).sum(axis=1, dtype=np.int64)
            counts = np.stack([H.n_distinct - ones, ones], axis=1)

        if H.is_binary and upper >= 2 and counts.shape[1] == 2 and _is_chain(H, points, counts[:, 1], deadline):
            # The columns' 1-sets are nested: no two points are shattered, and one point is (a live column).
            stats.update(method="nested columns (a chain): no pair is shattered")
            return _keep(H, kind, best, 1)

        def columns(need: int, top: int | None = None) -> Columns:
            return virtual_columns(H, kind, need, points, sub, counts, deadline, top)

        def describe(cols: Columns, chosen: list[int]) -> list[dict]:
            return [{"point": int(cols.point[v]), "one": int(cols.one[v]), "zero": int(cols.zero[v])} for v in chosen]

        cols = columns(1, top=8)
        search = _Search(cols, H.n_distinct, deadline, log, stats)
        try:
            best = describe(cols, search.greedy())
        except SearchStopped:
            if len(search.greedy_chosen) > len(best):  # every prefix of the greedy set is shattered
                best = describe(cols, search.greedy_chosen)
            raise
        stats["greedy"] = len(best)
        target = len(best) + 1
        while target <= upper:
            log.update(f"searching for a shattered set of size {target} (upper bound {upper})", force=True)
            deadline.check()
            cols = columns(1 << (target - 1))
            searcher = _Search(cols, H.n_distinct, deadline, log, stats)
            searcher.scheduler = scheduler
            found = searcher.find(target, jobs)
            if found is None:
                upper = target - 1
                break
            best = describe(cols, found)
            target += 1
    except SearchStopped:
        return best, upper, True
    return _keep(H, kind, best, upper)


def _is_chain(H: HypothesisClass, points: np.ndarray, ones: np.ndarray, deadline: Deadline) -> bool:
    """Whether the 1-sets of the binary columns ``points`` (``ones`` hypotheses each) are nested.

    Sorted by size, each 1-set must lie in the next.  Then no pair ``{x, y}``
    is shattered (the pattern ``x = 1, y = 0`` or ``x = 0, y = 1`` is missing
    for every pair), so the VC dimension is at most 1 -- thresholds, and any
    class whose points are ordered by the hypotheses that contain them.  Read
    in bounded steps from the storage (packed words, or the dense table
    packed a step at a time); stops at the first pair that is not nested.
    """
    order = points[np.argsort(ones, kind="stable")]
    m = H.n_distinct
    n_words = max(1, (m + 63) // 64)
    bits = H.distinct_bit_table
    rows = None if bits is not None else H.distinct_rows
    most = max(2, min(STEP_WORDS // n_words, STEP_WORDS * 8 // max(m, 1)))
    s, step = 0, min(most, 64)  # growing steps: most classes fail on their first columns
    while s < len(order) - 1:
        deadline.check()
        part = order[s : s + step]
        if bits is not None:
            words = bits.words[part]
        else:
            assert rows is not None
            words = pack_columns(rows[:, part] == 1, n_words)
        if np.any(words[:-1] & ~words[1:]):
            return False
        s += step - 1  # consecutive steps share one column
        step = min(most, 2 * step)
    return True


def _keep(H: HypothesisClass, kind: str, best: list[dict], upper: int) -> tuple[list[dict], int, bool]:
    """An exact answer, kept on a binary class for its other two searches (see :func:`largest_shattered_set`)."""
    if H.is_binary:
        H.__dict__[_SHARED] = (kind, [{"point": c["point"], "one": 1, "zero": -1} for c in best], upper)
    return best, upper, False


def witness_of(kind: str, H: HypothesisClass, chosen: list[dict]) -> Any:
    """The spec §3 witness of a shattered set found by :func:`largest_shattered_set`."""
    points = [c["point"] for c in chosen]
    if kind == "vc":
        return points
    if kind == "graph":
        return {"points": points, "f": [c["one"] for c in chosen]}
    f0 = []
    for c in chosen:
        if c["zero"] >= 0:
            f0.append(c["zero"])
        else:  # an indicator column used as a pair: side 0 is the column's other present label
            present = H.point_label_words([c["point"]])[:, 0].any(axis=1)  # the labels present at the point
            labels = np.flatnonzero(present).tolist()
            f0.append(next(lab for lab in labels if lab != c["one"]))
    return {"points": points, "f0": f0, "f1": [c["one"] for c in chosen]}
