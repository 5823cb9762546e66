"""The depth-first search for a shattered set of a target size, and the greedy lower bound.

All three notions (VC, Natarajan, graph) are shattering of *virtual columns*
of the distinct hypotheses (:mod:`dimcalc.vc.columns`; BGS §1.2, BCHL95): a
set ``S`` of columns on distinct points is shattered when the hypotheses
alive on every column fall into all ``2^|S|`` cells, and ``S + {y}`` is
shattered exactly when ``y`` splits every cell of ``S`` (partition
refinement).  :class:`Search` decides one target ``T``:

* the root keeps the columns both of whose sides hold ``2^(T-1)``
  hypotheses (:func:`dimcalc.vc.rules.need`), most balanced first;
* a target whose first level is large runs compiled
  (:mod:`dimcalc.vc.kernel`); a smaller one runs in numpy steps
  (:mod:`dimcalc.vc.numpy_dfs`) for :data:`TRIAL_TESTS` cell tests first
  -- a count of work, not a time, so that which search answers (and its
  witness) never depends on speed -- and compiled only if those do not
  settle it (:meth:`Search._mode`);
* the root is cut into ordered *pieces* by the first column of the set;
  ``jobs`` worker processes share them and the answer of the first piece in
  order is taken -- the value and the witness of one process
  (:func:`dimcalc.search.pool.first_answer`).

The greedy pass (:meth:`Search.greedy`) adds the most balanced splitting
column while one exists: a certified lower bound at once.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..search.budget import Deadline, Progress, SearchStopped
from ..search.pool import can_fork, first_answer
from . import kernel, rules
from .columns import STEP_WORDS, Columns, pack_rows
from .numpy_dfs import NumpyDFS

__all__ = ["FILL_WORDS", "KERNEL_MIN_WORDS", "MIN_PIECE", "NARROW_ALIVE", "ROOT_PIECES", "Search", "TRIAL_TESTS"]

#: A target's search runs compiled when its first level tests at least this many words (or when forced).
KERNEL_MIN_WORDS = 1 << 24
#: Below that, numpy searches (in one process) for this many cell tests before the compiled search takes
#: over -- a count of work, not a time, so that which search answers (and its witness) never depends on speed.
TRIAL_TESTS = 1 << 23
#: The root's candidates are searched in up to this many pieces (in order; in parallel with ``jobs``) ...
ROOT_PIECES = 16
#: ... of at least this many candidates each (a small class is one piece).
MIN_PIECE = 32
#: With forked workers, the pair rows are built before the fork when they cost at most this many words of tests.
FILL_WORDS = 1 << 29
#: Natarajan searches run narrowed (one first column at a time, on its alive hypotheses: ``Search._narrow_piece``)
#: when the root's columns are alive on at most this fraction of the hypotheses on average ...
NARROW_ALIVE = 0.25
#: ... their sides fit in this many bytes as booleans ...
NARROW_BYTES = 1 << 27
#: ... and every pair row costs at most this many words of tests (built first, between deadline checks).
NARROW_FILL_WORDS = 1 << 32


class Search(NumpyDFS):
    """Depth-first search for a shattered set of a target size (see the module docstring).

    ``scheduler`` is a connected Dask client the pieces of :meth:`find` go to
    (:func:`dimcalc.search.pool.first_answer`), or ``None`` for this machine.
    """

    def __getstate__(self) -> dict:
        # Sent to Dask workers with a piece: without the client (pieces run where they are sent).
        return {k: v for k, v in self.__dict__.items() if k != "scheduler"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state, scheduler=None)

    def _scheduler(self, jobs: int) -> Any:
        """The Dask client the pieces go to: only when the search is split (``jobs > 1``; not for the trial)."""
        return self.scheduler if jobs > 1 else None

    def __init__(
        self,
        cols: Columns,
        m: int,
        deadline: Deadline,
        log: Progress,
        stats: dict,
        trial: dict | None = None,
        *,
        scheduler: Any = None,
    ) -> None:
        self.cols = cols
        self.scheduler = scheduler
        self.m = m
        self.deadline = deadline
        self.log = log
        self.stats = stats
        self.trial = trial  # {"left": tests} while a numpy trial runs (shared by its pieces)
        self.greedy_chosen: list[int] = []  # the greedy set so far (see greedy)
        # a root's order and heads by symmetry (dimcalc.vc.symmetry.Orbits; compiled search only), or None
        self.arrange: Any = None

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

    def root_order(self, target: int, alive: np.ndarray | None = None) -> np.ndarray | None:
        """The columns a ``target``-set may contain, most balanced first (stable), or None when too few points.

        A column passes the size rule at one point (``rules.need(target, 1)`` rows on each side); the set needs
        ``target`` distinct points among them (``rules.enough``).  ``alive``: the rows counted (all by default).
        """
        cols = self.cols
        if len(np.unique(cols.rank)) < target:
            return None
        ones, zeros = self.counts(self.everyone() if alive is None else alive, np.arange(len(cols.rank)))
        score = np.minimum(ones[0], zeros[0])
        ok = np.flatnonzero(score >= rules.need(target, 1))
        if not rules.enough(len(np.unique(cols.rank[ok])), target):
            return None
        return ok[np.argsort(-score[ok], kind="stable")]

    def find(self, target: int, jobs: int = 1) -> list[int] | None:
        """A shattered set of ``target`` columns, or None when there is none.

        The root's candidates are cut into ordered pieces (the first column of
        the set comes from piece ``i``); the pieces run in order, or in
        ``jobs`` processes with the same answer (:func:`dimcalc.search.pool.first_answer`).
        """
        alive = self.everyone()
        root = self.root_order(target, alive)
        if root is None:
            return None
        mode = self._mode(root, target, alive.shape[1])
        if mode == "compiled":
            return self._find_compiled(root, target, jobs)
        if mode == "numpy":
            return self._find_numpy(alive, root, target, jobs)
        # Small first level: numpy in one process for TRIAL_TESTS tests (no kernel to load when that settles
        # it), then compiled -- or numpy on, in `jobs` processes, where the kernel cannot run.
        try:
            return self._find_numpy(alive, root, target, 1, {"left": TRIAL_TESTS})
        except SearchStopped as stop:
            if stop.reason != "trial":
                raise
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
            sub = Search(cols, self.m, self.deadline, Progress(False), {"nodes": 0, "tests": 0}, trial)
            try:
                return sub._explore([], alive, root, target, first=pieces[i]), sub.stats
            except SearchStopped as stop:  # a time or memory stop, or the end of a trial: its work counts too
                stop.info = sub.stats
                raise

        def collect(stats: dict) -> None:
            self.stats["nodes"] += stats["nodes"]
            self.stats["tests"] += stats["tests"]
            self.log.update(f"target {target}: {self.stats['nodes']} nodes")

        found, _ = first_answer(
            piece, len(pieces), jobs=jobs, scheduler=self._scheduler(jobs), deadline=self.deadline, collect=collect
        )
        return found

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
        """:meth:`find` by the compiled search: one call, or ordered pieces of the root in ``jobs`` processes
        (with :attr:`arrange` set, the root ordered by it and the sets started at the positions it gives)."""
        heads = None
        if self.arrange is not None:  # one head per orbit of point symmetries (dimcalc.vc.symmetry)
            root, heads = self.arrange(root)
        cols = self.cols
        ones, zeros, rank = cols.ones[root], cols.zeros[root], cols.rank[root]
        n = len(root)
        starts = np.arange(n) if heads is None else heads
        size = len(starts) if jobs <= 1 else max(MIN_PIECE, -(-len(starts) // ROOT_PIECES))
        pieces = [starts[s : s + size] for s in range(0, len(starts), size)]

        # The pair and triple rows of this target, kept for every piece run in a process (kernel.Filters); with
        # forked workers the pair rows are built here first, so that both share them instead of building them.
        filters = kernel.filters_for(n, target)
        scheduler = self._scheduler(jobs)
        if jobs > 1 and len(pieces) > 1 and scheduler is None and can_fork():
            left = self.deadline.remaining()
            if 2 * n * n * ones.shape[1] <= FILL_WORDS and (left is None or left >= 1.0):
                kernel.warm()
                filters.fill_pairs(ones, zeros, rank, target, cols.partial, self.deadline.check)
        narrow = self._narrow(ones, zeros, rank, filters, target, root, here=scheduler is None)

        def piece(i: int) -> tuple[list[int] | None, dict]:
            if narrow is not None:
                return self._narrow_piece(narrow, ones, zeros, rank, root, pieces[i], target, filters)
            status, found, stats = kernel.find(
                ones, zeros, rank, pieces[i], target, cols.partial, self.deadline.remaining(), filters=filters
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
            for key in ("triple_rows", "pair_rows", "core_peeled", "truss_cut"):
                self.stats[key] = self.stats.get(key, 0) + stats[key]
            self.log.update(f"target {target}: {self.stats['nodes']} nodes (compiled)")

        self.stats["compiled"] = True
        if not kernel.cached():
            self.log.update("compiling the search kernel (once per machine, a few seconds)", force=True)
        found, _ = first_answer(
            piece,
            len(pieces),
            jobs=jobs,
            scheduler=scheduler,
            deadline=self.deadline,
            collect=collect,
            prepare=kernel.warm,
        )
        return found

    def _narrow(
        self,
        ones: np.ndarray,
        zeros: np.ndarray,
        rank: np.ndarray,
        filters: kernel.Filters,
        target: int,
        root: np.ndarray,
        here: bool = True,
    ) -> tuple[np.ndarray, ...] | None:
        """What :meth:`_narrow_piece` repacks the root's sides from when the search runs narrowed, else None.

        ``(ind, one, zero)``: the label indicators as booleans ``(I, m)``,
        and the indicator on each side of each root column
        (Natarajan pairs: ``I`` indicators for ``R`` pairs, so a first
        column's repacking gathers ``I`` columns, not ``R``); or ``(ones,
        zeros)``, the root's sides as booleans ``(R, m)``.  ``here``: every pair row is built first, in this
        process (the pieces run here or in workers forked from it); from the indicators they are built here
        in any case (numpy, no kernel to load).

        Only with dead hypotheses (Natarajan) whose root columns are alive on at
        most :data:`NARROW_ALIVE` of the hypotheses on average, with the pair
        filter on and the triple filter off; every pair row is then built first,
        on all the hypotheses (a row built inside a narrowed search would hold
        for that first column's sets only).
        """
        n, m = ones.shape[0], self.m
        if not (self.cols.partial and filters.pairs and not filters.triples and n > 1):
            return None
        if 2 * n * m > NARROW_BYTES or 2 * n * n * ones.shape[1] > NARROW_FILL_WORDS:
            return None
        if not self.deadline.fits(2 * n * m):  # the sides as booleans: within the memory budget, or not narrowed
            return None
        if int(np.bitwise_count(ones | zeros).sum(dtype=np.int64)) > NARROW_ALIVE * n * m:
            return None
        self.stats["narrowed"] = self.stats.get("narrowed", 0) + 1
        cols = self.cols
        if cols.ind is not None and cols.one_ind is not None and cols.zero_ind is not None:
            one, zero = cols.one_ind[root], cols.zero_ind[root]
            if len(one) and int(zero.min()) >= 0:
                # read off the indicators' counts (numpy, I^2 * W words): here, also for a Dask cluster's workers,
                # which receive the rows with the pieces (kernel.Filters.complete) instead of each building them
                filters.fill_pairs(ones, zeros, rank, target, True, self.deadline.check, (cols.ind, one, zero))
                return _unpack(cols.ind, m), one, zero
        if here:
            kernel.warm()
            filters.fill_pairs(ones, zeros, rank, target, True, self.deadline.check)
        return _unpack(ones, m), _unpack(zeros, m)

    def _narrow_piece(
        self,
        narrow: tuple[np.ndarray, ...],
        ones: np.ndarray,
        zeros: np.ndarray,
        rank: np.ndarray,
        root: np.ndarray,
        heads: np.ndarray,
        target: int,
        filters: kernel.Filters,
    ) -> tuple[list[int] | None, dict]:
        """A piece searched one first column ``y`` at a time, on the hypotheses alive on ``y`` only.

        Every set searched below ``y`` contains ``y``, so its cells hold only
        hypotheses alive on ``y`` (:func:`dimcalc.vc.rules.alive_only`): the
        columns after ``y`` are repacked over those (a Natarajan pair column is
        alive on ~2/k of them: ``W`` words become ~``2W/k``), every test reads
        fewer words, and the sets are visited in the same order as on all the
        hypotheses -- the same answer and witness.  The pair rows are those of
        all the hypotheses (built before: :meth:`_narrow`).
        """
        stats = dict.fromkeys(("nodes", "tests", "triple_rows", "pair_rows", "core_peeled", "truss_cut"), 0)
        # Every pair row on all the hypotheses first: built before the fork (nothing to do here then), or here
        # where the filters came without them (a Dask worker) -- never inside a narrowed search (see _narrow).
        by_indicators = len(narrow) == 3
        given = None
        if by_indicators and self.cols.ind is not None:
            given = (self.cols.ind, narrow[1], narrow[2])
        filters.fill_pairs(ones, zeros, rank, target, True, self.deadline.check, given)
        distinct = len(np.unique(rank)) == len(rank)  # counted once, not in each of the heads' kernel calls
        # One buffer per array a head repacks, reused by every head of the piece (views of their first bytes):
        # fresh large arrays for each head fault in zeroed pages where malloc serves them by mmap (a Dask
        # worker: kernel.workspace); contents never read before they are written.
        kept = np.empty(len(narrow[0]) * self.m if by_indicators else 0, dtype=bool)
        side_words = np.empty((2, len(rank) * ones.shape[1] if by_indicators else 0), dtype=np.uint64)
        for p in heads:
            p = int(p)
            if self.deadline.expired():
                stop = SearchStopped(self.deadline.reason or "time")
                stop.info = stats
                raise stop
            if by_indicators:  # the indicators: keep the alive hypotheses (contiguous rows), pack, read each side
                ind, one, zero = narrow
                alive = np.flatnonzero(rules.alive_only(ind[one[p]], ind[zero[p]]))
                # np.take unbuffered (mode "clip": the indices are in range); np.compress would buffer its output
                packed = pack_rows(np.take(ind, alive, axis=1, out=_view(kept, (len(ind), len(alive))), mode="clip"))
                sub_ones = np.take(
                    packed, one, axis=0, out=_view(side_words[0], (len(one), packed.shape[1])), mode="clip"
                )
                sub_zeros = np.take(
                    packed, zero, axis=0, out=_view(side_words[1], (len(zero), packed.shape[1])), mode="clip"
                )
                indicators: tuple[np.ndarray, np.ndarray, np.ndarray] | None = (packed, one, zero)
                sub_ones[:p] = 0  # the columns before y are never read below y (as below)
                sub_zeros[:p] = 0
            else:
                ob, zb = narrow
                keep = np.flatnonzero(rules.alive_only(ob[p], zb[p]))
                words = max(1, (len(keep) + 63) // 64)
                sub_ones = np.zeros((len(rank), words), dtype=np.uint64)
                sub_zeros = np.zeros((len(rank), words), dtype=np.uint64)
                sub_ones[p:] = pack_rows(ob[p:, keep])  # the columns before y are never read below y
                sub_zeros[p:] = pack_rows(zb[p:, keep])
                indicators = None
            status, found, got = kernel.find(
                sub_ones,
                sub_zeros,
                rank,
                np.array([p]),
                target,
                True,
                self.deadline.remaining(),
                filters=filters,
                indicators=indicators,
                distinct=distinct,
            )
            for key, value in got.items():
                stats[key] += value
            if status == "stopped":
                self.deadline.expired()  # records the reason
                stop = SearchStopped(self.deadline.reason or "time")
                stop.info = stats
                raise stop
            if status == "found":
                return [int(self.cols.ids[root[q]]) for q in found], stats
        return None, stats


def _view(buffer: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    """The first ``shape[0] * shape[1]`` items of the flat ``buffer`` as a C-contiguous ``shape`` array.

    >>> _view(np.arange(6), (2, 2)).tolist()
    [[0, 1], [2, 3]]
    """
    return buffer[: shape[0] * shape[1]].reshape(shape)


def _unpack(words: np.ndarray, m: int) -> np.ndarray:
    """``(k, m)`` booleans of packed rows (:func:`dimcalc.vc.columns.pack_rows` read back)."""
    return np.unpackbits(words.view(np.uint8), axis=1, bitorder="little", count=m).astype(bool)
