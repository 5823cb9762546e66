"""The engine's memo: its entries, the proven bounds by shape, and the witness trees written from it.

A :class:`MemoEntry` holds what is proven about ``D(V)`` for one version space
(or one ``(V, prefix)`` node of the uniform variant); :class:`MemoStore`, the
part of :class:`~.engine.Engine` that reads and writes those facts (and the
refutations shared by shape, rule 7); :class:`TreeWriter`, the part that
writes witness trees, walks the splits the entries record (spec §3 format).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..classes.hypothesis_class import HypothesisClass
from ..search.budget import Deadline, SearchStopped
from ..search.pool import can_fork, run_tasks
from ..witnesses.tree_walk import gc_paused
from . import splits as tunables  # read at call time: tests and benchmarks set them
from .memo_table import MemoTable
from .splits import VECTOR_MIN_LIVE, NodeSplits, Split, Splitter
from .twins import shape_key, twin_tree

__all__ = ["MemoEntry", "MemoKey", "LevelSplitter", "MemoStore", "TreeWriter"]


@dataclass(slots=True)
class MemoEntry:
    """What is proven about ``D(V)`` for one version space ``V``: ``lower <= D(V) <= upper``.

    ``split`` is the split of ``V`` whose two children were proven to reach
    ``lower - 1`` (it builds the witness tree), or None while ``lower == 0``.
    """

    lower: int
    upper: int
    split: Split | None = None


#: A memo key: a version space, or ``(V, prefix)`` for a node whose first levels use the maps of ``prefix``.
MemoKey = int | tuple[int, tuple[int, ...]]


class LevelSplitter(Protocol):
    """The splits of one map at a time, for nodes whose level is given a map (the uniform variant).

    ``map_candidates(V, t, live, j)`` is :meth:`Splitter.candidates <.splitters.Splitter.candidates>`
    restricted to the splits by map ``j``; ``columns`` and ``node`` as in the
    :class:`~.splitters.Splitter` protocol (``desc = (x, j)``).
    """

    columns: list[int]
    node: Callable[[Any, dict, dict], dict]
    #: Number of maps (``j`` in ``range(n_maps)``).
    n_maps: int

    def map_candidates(self, V: int, t: int, live: Sequence[int], j: int) -> NodeSplits: ...


#: With ``jobs > 1``, trees of at least this depth are written in worker processes (:meth:`TreeWriter.tree`) ...
PARALLEL_TREE_DEPTH = 10
#: ... as the subtrees below this many levels (up to 2^levels pieces, taken by the workers as they free up) ...
PARALLEL_TREE_LEVELS = 3
#: ... when the first of them took at least this many seconds to write here.
PARALLEL_TREE_SECONDS = 0.25

#: The first walk's mark of a node written from its twin's tree (rule 8), read by the second walk.
_TWIN = Split(None, 0, 0)


class TreeWriter:
    """Witness trees from the memo of proven bounds (the :class:`~.engine.Engine` is one)."""

    H: HypothesisClass
    splitter: Splitter
    levels: LevelSplitter | None
    memo: MemoTable
    subtrees: dict[tuple[int, int], dict]
    #: Nodes whose lower bound is their twin's (rule 8, :mod:`.twins`): node -> twin (their memo keys,
    #: :meth:`.memo_table.MemoTable.key`); its subtree is the twin's, mapped.
    twins: dict[Any, Any]
    twin_cache: dict[tuple[int, int], tuple | None] = {}
    _walk: Iterator[Split | None] = iter(())
    _write_deadline: Deadline | None = None
    _written = 0
    _pending: list[int] = []
    _slots: list[int] = []
    #: Splits by a column of the column splitter, kept without their children (set by the engine,
    #: :meth:`.engine.Engine._kept`): the writer splits ``V`` again (:meth:`children`).
    _columns_kept = False
    #: Depth-1 nodes whose splits are found in one ``splitter.pair_splits`` call while a tree is written.
    PAIR_BATCH = 4096

    def tree(
        self, V: int, t: int, prefix: tuple[int, ...] = (), deadline: Deadline | None = None, jobs: int = 1
    ) -> dict:
        """The tree of depth ``t <= lower(V)`` recorded in the memo (spec §3 format); see :meth:`at_least` for ``prefix``.

        The depth-1 nodes proven by size get their splits first, all in one
        call of ``splitter.pair_splits`` (a tree of depth ``t`` has up to
        ``2^(t-1)`` of them: one call each would cost more than the search).
        With ``deadline``, raises ``SearchStopped`` when it expires (read every 1 024 nodes): a depth-16
        tree over 278 785 hypotheses is seconds of work.

        With ``jobs > 1`` (forked processes: :func:`dimcalc.search.pool.run_tasks`), a tree of depth
        :data:`PARALLEL_TREE_DEPTH` or more is written as the subtrees below its first
        :data:`PARALLEL_TREE_LEVELS` levels (its top levels here).  The first subtree is written here; when it
        took :data:`PARALLEL_TREE_SECONDS` or more, the others go to worker processes that inherit the memo and
        take them as they free up, else they are written here too.  A tree is a function of the memo alone, so
        it is the one ``jobs=1`` writes, whoever writes its pieces.  Boxes over 28 x 28, depth 16: 4.9-5.1 s in one
        process, 3.9-4.2 s at ``jobs=2`` (the workers' copy-on-write faults cost them about a fifth more CPU).
        Intervals over 512 and halfspaces over 16 x 16 (under 1 s of tree) start no worker: all in workers,
        they took 0.98 and 1.07 s against 0.97 and 0.85 s in one process -- hence the first piece's test.
        """
        self.twin_cache = {}  # twins' trees, mapped once for the whole tree (its pieces too)
        try:
            if jobs > 1 and t >= PARALLEL_TREE_DEPTH and not prefix and can_fork():
                return self._in_pieces(V, t, deadline, jobs)
            return self._write(V, t, prefix, deadline)
        finally:
            self.twin_cache = {}

    def _in_pieces(self, V: int, t: int, deadline: Deadline | None, jobs: int) -> dict:
        """:meth:`tree` with ``jobs > 1``: its subtrees below :data:`PARALLEL_TREE_LEVELS` levels, the first here,
        the others here or in worker processes (see :meth:`tree`)."""
        pieces: list[tuple[int, int]] = []
        plan = self._plan(V, t, PARALLEL_TREE_LEVELS, pieces)
        began = time.monotonic()
        written = {0: self._write(*pieces[0], (), deadline)}
        rest = list(range(1, len(pieces)))
        if not rest or time.monotonic() - began < PARALLEL_TREE_SECONDS:  # cheap pieces: no worker pays its fork
            written.update((i, self._write(*pieces[i], (), deadline)) for i in rest)
            return self._assemble(plan, written)
        with gc_paused():  # the subtrees' dicts come back by the ten thousand
            for index, status, value in run_tasks(
                lambda piece: self._write(piece[0], piece[1], (), deadline),  # a worker keeps its twin_cache
                [pieces[i] for i in rest],
                jobs=jobs,
                deadline=deadline,
            ):
                if status == "stopped":
                    raise SearchStopped(value[0])
                written[rest[index]] = value
        return self._assemble(plan, written)

    def _write(self, V: int, t: int, prefix: tuple[int, ...], deadline: Deadline | None) -> dict:
        """:meth:`tree` in this process, in two walks (the first collects the splits, the second the nodes)."""
        self._write_deadline, self._written = deadline, 0
        walk: list[Split | None] = []  # each node's split, in the order both walks visit the nodes
        self._pending, self._slots = [], []  # depth-1 nodes without a split in the memo, and their places in walk
        with gc_paused():  # millions of new dicts and no cycles: the collector's passes would walk the whole memo
            try:
                self._depth_one_nodes(V, t, prefix, walk)
                self._pair_splits(walk)
                self._walk = iter(walk)
                return self._tree(V, t, prefix)
            finally:
                self._walk, self._pending, self._slots = iter(()), [], []

    def _plan(self, V: int, t: int, levels: int, pieces: list[tuple[int, int]]) -> Any:
        """The first ``levels`` levels of :meth:`tree` ``(V, t)`` as ``(desc, plan0, plan1)`` nodes down to pieces:
        an ``int``, the index in ``pieces`` of a subtree ``(W, k)`` to write whole.  A node is a piece when its
        levels are done or it is not written from a split of its own (a given subtree, a twin, depth 1)."""
        halves = self._root_halves(V, t) if levels > 0 else None
        if halves is None:
            pieces.append((V, t))
            return len(pieces) - 1
        desc, V0, V1 = halves
        return desc, self._plan(V0, t - 1, levels - 1, pieces), self._plan(V1, t - 1, levels - 1, pieces)

    def _root_halves(self, V: int, t: int) -> tuple[Any, int, int] | None:
        """``(desc, V0, V1)``: the split :meth:`_tree` writes at the root of ``(V, t)``, or None when the root is
        not written from a split of its own (a given subtree, a twin, depth 1)."""
        if t < 2 or (self.subtrees and (V, t) in self.subtrees) or (self.twins and self.memo.key(V) in self.twins):
            return None
        e = self.memo.get(V)
        split = e.split if e is not None else None
        if split is None:
            return None
        if split.V1 < 0:  # kept without its children: split V again (as _tree does)
            split = self.children(V, split.desc, keys=False)
        return split.desc, split.V0, split.V1

    def _assemble(self, plan: Any, written: dict[int, dict]) -> dict:
        """The tree of a :meth:`_plan`, its pieces taken from ``written``."""
        if isinstance(plan, int):
            return written[plan]
        desc, plan0, plan1 = plan
        return self.splitter.node(desc, self._assemble(plan0, written), self._assemble(plan1, written))

    def _pair_splits(self, walk: list[Split | None]) -> None:
        """The splits of the pending depth-1 nodes (one ``splitter.pair_splits`` call) into their places in
        ``walk``; on a column splitter their columns alone (``Split(column, -1, -1)``), so that the version
        spaces are not kept: a tree of depth 17 over boxes 32 x 32 has 65 536 of them, 35 KB each."""
        if self._write_deadline is not None:
            self._write_deadline.check()
        batch = self.splitter.pair_splits(self._pending)
        for k, split in zip(self._slots, batch):
            walk[k] = Split(split.desc, -1, -1) if self._columns_kept else split
        self._pending, self._slots = [], []

    def _depth_one_nodes(self, V: int, t: int, prefix: tuple[int, ...], walk: list) -> None:
        """The first walk of :meth:`tree`: each node's split from the memo into ``walk`` (one lookup per
        node: hashing a version space of 278 785 bits costs ~30 µs), the depth-1 nodes without one into
        ``_pending`` (their splits found :attr:`PAIR_BATCH` at a time, :meth:`_pair_splits`).  A split kept without its
        children stays so in ``walk`` (the second walk splits ``V`` again): only the version spaces of the
        path being walked are kept, not those of the whole tree."""
        if t <= 0:
            return
        if prefix:
            split = self.memo[(V, prefix)].split
            assert split is not None
            self._depth_one_nodes(split.V0, t - 1, prefix[1:], walk)
            self._depth_one_nodes(split.V1, t - 1, prefix[1:], walk)
            return
        if self.subtrees and (V, t) in self.subtrees:
            return
        if self.twins and self.memo.key(V) in self.twins:  # written by _tree from its twin's tree (rule 8)
            walk.append(_TWIN)
            return
        e = self.memo.get(V)
        split = e.split if e is not None else None
        if t == 1 and split is None:  # proven by size (at_least's depth-1 rule): the split of pair_splits
            self._slots.append(len(walk))
            self._pending.append(V)
            walk.append(None)
            if len(self._pending) >= self.PAIR_BATCH:
                self._pair_splits(walk)
            return
        walk.append(split)
        if t > 1 and split is not None:
            if split.V1 < 0:  # kept without its children: split V again
                split = self.children(V, split.desc)
            self._depth_one_nodes(split.V0, t - 1, (), walk)
            self._depth_one_nodes(split.V1, t - 1, (), walk)

    def children(self, V: int, column: int, keys: bool = True) -> Split:
        """The split of ``V`` by a column of the column splitter (side 1: the hypotheses with a 1 there), for the
        splits the engine keeps without their children (:meth:`.engine.Engine._kept`); with ``keys``, the
        children's words go to the memo's :class:`~.memo_table.Recent` (their keys are looked up next)."""
        splitter: Any = self.splitter
        V1 = V & splitter.ones[column]
        V0 = V ^ V1
        recent = splitter.recent
        if keys and recent is not None:  # the children's memo keys from V's words (as the engine's candidates do)
            v = recent.words(V)
            v1 = v & splitter.words[column]
            recent.put(V1, v1)
            recent.put(V0, v ^ v1)
        return Split(column, V0, V1)

    def _tree(self, V: int, t: int, prefix: tuple[int, ...] = ()) -> dict:
        self._written += 1
        if self._write_deadline is not None and not self._written & 1023:
            self._write_deadline.check()
        if t <= 0:
            low = V & -V
            return {"hypothesis": self.H.row_of(low.bit_length() - 1)}
        if prefix:
            split = self.memo[(V, prefix)].split
            assert split is not None and self.levels is not None
            rest = prefix[1:]
            return self.levels.node(split.desc, self._tree(split.V0, t - 1, rest), self._tree(split.V1, t - 1, rest))
        if self.subtrees:
            given = self.subtrees.get((V, t))
            if given is not None:
                return given
        split = next(self._walk)  # this node's, from the first walk (same order)
        if split is _TWIN:
            return twin_tree(self, V, t)
        assert split is not None  # lower(V) >= t >= 1 was proven by a split
        if split.V1 < 0:  # kept without its children (no memo lookups below: the first walk did them)
            split = self.children(V, split.desc, keys=False)
        return self.splitter.node(split.desc, self._tree(split.V0, t - 1), self._tree(split.V1, t - 1))


class MemoStore(TreeWriter):
    """The engine's memo of proven bounds, its refutations by shape (rule 7) and its cache of splits.

    Every fact kept here is proven (``lower <= D(V) <= upper``), so it holds
    whatever is asked next: the memo survives deepening, probes and SAT calls.
    """

    deadline: Any
    #: Proven upper bounds by shape (rule 7, :meth:`.column_splitter.ColumnSplitter.shape`): kept across queries.
    shape_upper: dict[bytes, int]
    #: Rule 8: shape key -> (depth proven, a version space of that shape proven by its own split).
    shape_lower: dict[tuple[int, int], tuple[int, Any]]
    _shape: Callable[[int, Sequence[int]], bytes | None] | None
    _shape_calls: int
    _shape_hits: int
    _split_cache: dict[int, tuple[list[int], list]]
    _split_cache_size: int

    #: Bytes of splits kept in the cache (each split holds two bitsets of about |V| / 8 bytes).
    SPLIT_CACHE_BYTES = 128 << 20

    def _splits(self, V: int, live: Sequence[int]) -> tuple[list[int], list]:
        """All canonical splits of ``V`` (for SAT), cached for version spaces with many live columns."""
        hit = self._split_cache.get(V)
        if hit is not None:
            return hit
        result = self.splitter.splits(V, live)
        cost = len(result[1]) * (V.bit_length() // 4 + 120)
        if len(live) >= VECTOR_MIN_LIVE and self._split_cache_size + cost <= self.SPLIT_CACHE_BYTES:
            self._split_cache[V] = result
            self._split_cache_size += cost
        return result

    # -- bounds
    def bounds(self, V: int) -> tuple[int, int]:
        e = self.memo.get(V)
        if e is not None:
            return e.lower, e.upper
        return 0, self.memo.size_bound(V)

    def _entry(self, V: int) -> MemoEntry:
        e = self.memo.get(V)
        if e is None:
            e = self.memo[V] = MemoEntry(0, self.memo.size_bound(V))
        return e

    def known_lower(self, V: int, depth: int) -> None:
        """Record ``D(V) >= depth`` proven elsewhere (a verified tree the caller keeps as the witness).

        The entry gets no split: :meth:`tree` cannot rebuild that tree, so the
        caller returns its own tree whenever the search ends at ``depth``; the
        search itself starts iterative deepening at ``depth + 1``.
        """
        e = self._entry(V)
        if depth > e.lower:
            e.lower = min(depth, e.upper)

    # -- rule 7: refutations by shape
    def _shape_of(self, V: int, live: Sequence[int]) -> bytes | None:
        """The shape of ``V`` (rule 7), or None when shapes are off or ``V`` is too big for one."""
        if self._shape is None:
            return None
        n = self.memo.size(V)
        if n > tunables.SHAPE_MAX_ROWS or n * len(live) > SHAPE_MAX_WORK:
            return None
        if (n > SHAPE_SMALL_ROWS or n * len(live) > SHAPE_SMALL_WORK) and (
            self._shape_hits * SHAPE_BIG_HIT_RATIO < self._shape_calls
        ):
            return None  # a big shape costs up to 4x a small one: only while shapes pay (intervals, not boxes)
        shape = self._shape(V, live)
        if shape is not None:
            self._shape_calls += 1
            if self._shape_calls == SHAPE_TRIAL and self._shape_hits * SHAPE_MIN_HIT_RATIO < SHAPE_TRIAL:
                self._shape = None  # shapes rarely repeat in this class (boxes): not worth their cost
        return shape

    def _twin_proves(self, shape: bytes, V: int, t: int, e: MemoEntry) -> bool:
        """Rule 8: a version space of this shape was proven to reach ``d >= t``, so ``V`` does (an isomorphic
        class); ``e`` gets ``lower = d`` and no split, ``V``'s subtree is the twin's, mapped (:mod:`.twins`)."""
        rep = self.shape_lower.get(shape_key(shape))
        key = self.memo.key(V)  # twins are kept by their memo keys: packed on a big class (not 35 KB integers)
        if rep is None or rep[0] < t or rep[1] == key:
            return False
        self._shape_hits += 1
        e.lower, e.split = rep[0], None
        self.twins[key] = rep[1]
        return True

    def _twin_store(self, shape: bytes, V: int, e: MemoEntry) -> None:
        """After ``V`` was proven to reach ``e.lower`` by a split of its own: keep it as its shape's twin."""
        key = shape_key(shape)
        rep = self.shape_lower.get(key)
        if rep is None or rep[0] < e.lower:
            self.shape_lower[key] = (e.lower, self.memo.key(V))

    def _shape_refutes(self, shape: bytes, t: int, e: MemoEntry) -> bool:
        """Rule 7: a refutation of one version space refutes every one of its shape (an isomorphic class).

        True when a version space of this shape was proven below ``t``; ``e`` (the node's entry) gets that bound.
        """
        u = self.shape_upper.get(shape)
        if u is None or u >= t:
            return False
        self._shape_hits += 1
        e.upper = min(e.upper, u)
        return True


#: Rule 7 is switched off for an engine whose first SHAPE_TRIAL shapes refuted fewer than one node in
#: SHAPE_MIN_HIT_RATIO (a shape costs 10-100 µs; on boxes they rarely repeat).
SHAPE_TRIAL = 4096
#: ... and computed only for nodes with at most this many (hypothesis, live column) pairs (2^18 until the fifth
#: session of issue 20; see ``splits.SHAPE_MAX_ROWS``).
SHAPE_MAX_WORK = 1 << 20
#: Shapes of more than SHAPE_SMALL_ROWS hypotheses or SHAPE_SMALL_WORK pairs (the limits before the fifth session)
#: are computed only while at least one shape in SHAPE_BIG_HIT_RATIO so far was a hit (rules 7 or 8): boxes 32 x 32,
#: whose shapes rarely repeat, took 119 CPU s with them against 98 s without, for the same nodes.
SHAPE_SMALL_ROWS = 2048
SHAPE_SMALL_WORK = 1 << 18
SHAPE_BIG_HIT_RATIO = 2
SHAPE_MIN_HIT_RATIO = 20
