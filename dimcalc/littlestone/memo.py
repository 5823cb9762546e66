"""The engine's memo: its entries, and the witness trees written from it.

A :class:`MemoEntry` holds what is proven about ``D(V)`` for one version space
(or one ``(V, prefix)`` node of the uniform variant); :class:`TreeWriter`, the
part of :class:`~.engine.Engine` that writes witness trees, walks the splits
the entries record (spec §3 format).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..classes.hypothesis_class import HypothesisClass
from .splits import NodeSplits, Split, Splitter

__all__ = ["MemoEntry", "MemoKey", "LevelSplitter", "TreeWriter", "size_bound"]


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


def size_bound(V: int) -> int:
    """``floor(log2 |V|)``: a tree of depth ``t`` has ``2^t`` leaves realised by distinct hypotheses (reduction 5)."""
    return V.bit_count().bit_length() - 1


class TreeWriter:
    """Witness trees from the memo of proven bounds (the :class:`~.engine.Engine` is one)."""

    H: HypothesisClass
    splitter: Splitter
    levels: LevelSplitter | None
    memo: dict[MemoKey, MemoEntry]
    subtrees: dict[tuple[int, int], dict]
    _pair_splits: dict[int, Split]

    def tree(self, V: int, t: int, prefix: tuple[int, ...] = ()) -> dict:
        """The tree of depth ``t <= lower(V)`` recorded in the memo (spec §3 format); see :meth:`at_least` for ``prefix``.

        The depth-1 nodes proven by size get their splits first, all in one
        call of ``splitter.pair_splits`` (a tree of depth ``t`` has up to
        ``2^(t-1)`` of them: one call each would cost more than the search).
        """
        pending: list[int] = []
        self._depth_one_nodes(V, t, prefix, pending)
        if pending:
            self._pair_splits.update(zip(pending, self.splitter.pair_splits(pending)))
        try:
            return self._tree(V, t, prefix)
        finally:
            self._pair_splits.clear()

    def _depth_one_nodes(self, V: int, t: int, prefix: tuple[int, ...], out: list[int]) -> None:
        """Append to ``out`` the depth-1 nodes of :meth:`tree` without a split in the memo."""
        if t <= 0:
            return
        if prefix:
            split = self.memo[(V, prefix)].split
            assert split is not None
            self._depth_one_nodes(split.V0, t - 1, prefix[1:], out)
            self._depth_one_nodes(split.V1, t - 1, prefix[1:], out)
            return
        if self.subtrees and (V, t) in self.subtrees:
            return
        if t == 1:  # the walk stops here: the pending splits are those of depth-1 nodes without one
            e = self.memo.get(V)
            if e is None or e.split is None:
                out.append(V)
            return
        e = self.memo.get(V)
        if e is None or e.split is None:
            return
        self._depth_one_nodes(e.split.V0, t - 1, (), out)
        self._depth_one_nodes(e.split.V1, t - 1, (), out)

    def _tree(self, V: int, t: int, prefix: tuple[int, ...] = ()) -> dict:
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
        split = self._pair_splits.get(V) if t == 1 else None  # proven by size: the split of pair_splits
        if split is None:
            e = self.memo.get(V)
            split = e.split if e is not None else None
        if split is None and t == 1:  # proven by size (at_least's depth-1 rule): any split with two children
            split = self.splitter.pair_split(V)
        assert split is not None  # lower(V) >= t >= 1 was proven by a split
        return self.splitter.node(split.desc, self._tree(split.V0, t - 1), self._tree(split.V1, t - 1))
