"""A complete mistake tree built by most-balanced splits: a fast lower bound on the Littlestone dimension.

A *mistake tree* of depth ``d`` (Littlestone 1987; FX §2.5) is shattered when
every root-to-leaf path is realised by a hypothesis, so a tree built
greedily -- at each node the point that splits the version space ``V`` most
evenly, the two halves ``V_0 = {h in V : h(x) = 0}`` and ``V_1`` recursed into
with one level less -- certifies ``LDim >= d`` as soon as it is complete.
When ``d`` reaches ``floor(log2 |H|)`` (the upper bound every solver knows)
the dimension is settled without the exact search: thresholds over ``n``
points (``d = floor(log2 (n + 1))`` by halving) or a few random hypotheses
over a huge domain are answered this way in seconds, where the exact engine
would first have to build its splitters over every column.

The tree is :func:`dimcalc.search.greedy.greedy_tree` (the one greedy tree,
also behind the Ψ^B seed trees of :mod:`dimcalc.psi.seed_trees`) over the
binary family's :class:`_MistakeTreeSpace`.  The version space is a bitset over the distinct hypotheses, each point's
column a bitset too (``uint64`` words, straight from bit storage); a node
costs one popcount pass over the columns still splitting its parent's
version space, and a small version space is compacted to its own words.
A node fails when its most balanced point leaves fewer than ``2^(k-1)``
hypotheses on a side (``k`` levels still wanted; a tree of depth ``k`` needs
``2^k`` distinct hypotheses) -- the greedy tree does not backtrack, so a
failure proves nothing: it is only a lower bound.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..classes.hypothesis_class import HypothesisClass
from ..search.budget import Deadline, SearchStopped
from ..search.greedy import GreedyChoice, deepest_greedy_tree, greedy_tree
from ..vc.columns import STEP_WORDS, pack_columns
from . import counts

__all__ = ["greedy_mistake_tree", "greedy_lower_bound"]

#: A version space is kept on the words where it has bits when that halves them, and compacted to its own
#: bits when they fill fewer than one in this many bits of those words.
COMPACT_RATIO = 8


def _columns(H: HypothesisClass, deadline: Deadline) -> tuple[np.ndarray, np.ndarray]:
    """The reduced columns as bitsets over the distinct hypotheses ``(L, W)`` and their points ``(L,)``."""
    red = H.column_reduction(relabel=True, deadline=deadline)
    points = red.points
    m = H.n_distinct
    n_words = max(1, (m + 63) // 64)
    bits = H.distinct_bit_table
    if bits is not None:
        if len(points) == bits.words.shape[0]:  # nothing merged or dropped: the storage itself, no copy
            return bits.words, points
        return bits.words[points], points
    rows = H.distinct_rows
    out = np.empty((len(points), n_words), dtype=np.uint64)
    step = max(1, STEP_WORDS // max(m, 1))
    for s in range(0, len(points), step):
        deadline.check()
        out[s : s + step] = pack_columns(rows[:, points[s : s + step]] == 1, n_words)
    return out, points


def _most_balanced(
    cols: np.ndarray, idx: np.ndarray, mask: np.ndarray, v: int, deadline: Deadline
) -> tuple[int, int, np.ndarray]:
    """The first most balanced column of ``idx`` on the version space ``mask`` (``v`` hypotheses).

    Returns ``(column, balance, live)``: ``balance = min(|V_0|, |V_1|)`` and
    ``live`` the columns of ``idx`` still worth scanning below (those seen
    constant on ``V`` dropped).  Scanned in bounded steps, in order, stopping at
    the first perfect split (``balance = v // 2``: none can be better), so a
    wide class costs what its first balanced columns cost.
    """
    step = max(1, STEP_WORDS // max(cols.shape[1], 1))
    best, best_balance = -1, -1
    kept: list[np.ndarray] = []
    kernels = _compiled(len(idx) * int(np.count_nonzero(mask)), deadline, cols)
    s, size = 0, min(step, 1024)  # growing steps: a perfect split is often among the first columns
    while s < len(idx):
        deadline.check()
        chunk = idx[s : s + size]
        if kernels is not None:  # one compiled pass, in order, up to the first perfect split: the same column
            b, balance, scanned, live, k = kernels.greedy_balance(cols, chunk, mask, v)
            chunk_best, chunk_balance, live = int(b), int(balance), live[:k]
        else:
            ones = np.bitwise_count(cols[chunk] & mask).sum(axis=1, dtype=np.int64)
            balances = np.minimum(ones, v - ones)
            j = int(np.argmax(balances))
            chunk_best, chunk_balance, scanned, live = int(chunk[j]), int(balances[j]), len(chunk), chunk[balances > 0]
        if chunk_balance > best_balance:
            best, best_balance = chunk_best, chunk_balance
        kept.append(live)
        s += int(scanned)
        size = min(step, 2 * size)
        if best_balance == v // 2:
            if s * 8 < len(idx):  # stopped early: dropping the few columns seen constant is not worth a copy
                return best, best_balance, idx
            kept.append(idx[s:])
            break
    return best, best_balance, np.concatenate(kept) if kept else idx


def _restrict(cols: np.ndarray, idx: np.ndarray, mask: np.ndarray, ids: np.ndarray, deadline: Deadline) -> tuple:
    """The columns of ``idx`` that split ``mask``, on the words where ``mask`` has bits, and then, when those
    words are sparse, on the hypotheses of ``mask`` only (each a bit of new words).

    Returns ``(cols, kept, mask, ids)``: the new columns are ``idx[kept]``.
    """
    nz = np.flatnonzero(mask)
    sub_mask = mask[nz]
    v = int(np.bitwise_count(sub_mask).sum())
    parts, kept = [], []
    step = max(1, STEP_WORDS // max(cols.shape[1], 1))
    kernels = _compiled(len(idx) * len(nz), deadline, cols)
    for s in range(0, len(idx), step):
        deadline.check()
        if kernels is not None:  # the same rows, in one compiled pass
            part, split = kernels.greedy_restrict(cols, idx[s : s + step], nz, sub_mask, v)
            parts.append(part)
            kept.append(split + s)
            continue
        part = cols[idx[s : s + step]][:, nz]
        ones = np.bitwise_count(part & sub_mask).sum(axis=1, dtype=np.int64)
        split = np.flatnonzero((ones > 0) & (ones < v))
        parts.append(part[split])
        kept.append(split + s)
    cols = np.concatenate(parts) if parts else np.zeros((0, len(nz)), dtype=np.uint64)
    where = np.concatenate(kept) if kept else np.zeros(0, dtype=np.int64)
    mask, ids = sub_mask, ids.reshape(-1, 64)[nz].reshape(-1)
    if v * COMPACT_RATIO > len(nz) * 64 or len(nz) == 1:
        return cols, where, mask, ids
    if kernels is not None and len(cols) * v <= STEP_WORDS * 64:  # the same words, ids and mask, compiled
        packed, new_ids, new_mask = kernels.greedy_compact(cols, sub_mask, ids, v)
        return packed, where, new_mask, new_ids
    keep = np.flatnonzero(np.unpackbits(mask.view(np.uint8), bitorder="little"))
    n_words = max(1, (len(keep) + 63) // 64)
    packed = np.empty((len(cols), n_words), dtype=np.uint64)
    step = max(1, STEP_WORDS // max(cols.shape[1] * 64, 1))
    for s in range(0, len(cols), step):
        deadline.check()
        dense = np.unpackbits(cols[s : s + step].view(np.uint8), axis=1, bitorder="little")[:, keep]
        packed[s : s + step] = pack_columns(dense.T.astype(bool), n_words)
    new_ids = np.full(n_words * 64, -1, dtype=np.int64)
    new_ids[: len(keep)] = ids[keep]
    new_mask = pack_columns(np.ones((len(keep), 1), dtype=bool), n_words)[0]
    return packed, where, new_mask, new_ids


def _compiled(work: int, deadline: Deadline, cols: np.ndarray) -> Any:
    """The compiled loops (:mod:`._counts_impl`) for a step of ``work`` word operations on ``cols``: loaded for a
    big one when the time left allows, as the engine's nodes load them (:func:`.counts.load_kernels`); else None
    (numpy).  Also None for columns that are not writable C-ordered words (a read-only store, say), which numba
    would compile a second version of, unbudgeted."""
    if cols.dtype != np.uint64 or not cols.flags.c_contiguous or not cols.flags.writeable:
        return None
    return counts.kernels_for(work, deadline.remaining())


class _MistakeTreeSpace:
    """The binary family as a :class:`GreedySpace`: states ``(idx, points, mask, ids, cols)`` over numpy words.

    ``cols[idx]`` are the columns still splitting the parent's version space,
    ``points[idx]`` their points, ``mask`` the version space as bits over
    ``ids`` (bit position -> distinct hypothesis); ``cols`` is shared down the
    tree until a version space is compacted to its own words (:func:`_restrict`).
    """

    def __init__(self, H: HypothesisClass, deadline: Deadline) -> None:
        self.H, self.deadline = H, deadline

    def root(self, columns: tuple[np.ndarray, np.ndarray]) -> tuple:
        cols, points = columns
        m = self.H.n_distinct
        ids = np.full(cols.shape[1] * 64, -1, dtype=np.int64)
        ids[:m] = np.arange(m)
        mask = pack_columns(np.ones((m, 1), dtype=bool), max(1, (m + 63) // 64))[0]
        return np.arange(len(points)), points, mask, ids, cols

    def size(self, state: tuple) -> int:
        return int(np.bitwise_count(state[2]).sum())

    def leaf(self, state: tuple) -> dict[str, Any]:
        _, _, mask, ids, _ = state
        first = int(np.flatnonzero(np.unpackbits(mask.view(np.uint8), bitorder="little"))[0])
        return {"hypothesis": self.H.row_of(int(ids[first]))}

    def node(self, desc: Any, T0: dict[str, Any], T1: dict[str, Any]) -> dict[str, Any]:
        return {"point": int(desc), "children": [T0, T1]}

    def best(self, state: tuple, v: int) -> GreedyChoice[tuple] | None:
        idx, points, mask, ids, cols = state
        if mask.shape[0] > 1 and (
            np.count_nonzero(mask) * 2 <= mask.shape[0] or v * COMPACT_RATIO <= mask.shape[0] * 64
        ):
            cols, kept, mask, ids = _restrict(cols, idx, mask, ids, self.deadline)
            points, idx = points[idx[kept]], np.arange(len(kept))
        best, balance, live = _most_balanced(cols, idx, mask, v, self.deadline)
        if balance <= 0:
            return None
        column = cols[best]
        return GreedyChoice(
            balance, points[best], (live, points, mask & ~column, ids, cols), (live, points, mask & column, ids, cols)
        )


def greedy_mistake_tree(H: HypothesisClass, depth: int, deadline: Deadline) -> dict[str, Any] | None:
    """A complete shattered mistake tree of ``depth`` built by most-balanced splits, or ``None``.

    ``None`` when some node's most balanced point leaves fewer than
    ``2^(k - 1)`` hypotheses on a side (``k`` levels wanted below it): the
    greedy choice does not backtrack, so ``None`` proves nothing.  Raises
    :class:`~dimcalc.search.budget.SearchStopped` when ``deadline`` expires.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> thresholds = HypothesisClass([[int(x >= t) for x in range(7)] for t in range(8)])
    >>> tree = greedy_mistake_tree(thresholds, 3, Deadline(None))
    >>> tree["point"], tree["children"][0]["point"]
    (3, 5)
    >>> greedy_mistake_tree(thresholds, 4, Deadline(None)) is None  # 8 hypotheses: depth 3 at most
    True
    """
    if depth <= 0:
        return {"hypothesis": H.row_of(0)}
    if H.n_distinct < 1 << depth:
        return None
    space = _MistakeTreeSpace(H, deadline)
    return greedy_tree(space, space.root(_columns(H, deadline)), depth, deadline)


def greedy_lower_bound(H: HypothesisClass, upper: int, deadline: Deadline) -> tuple[int, dict[str, Any] | None]:
    """The deepest greedy mistake tree found trying ``upper, upper - 1, ...`` before ``deadline``: ``(depth, tree)``.

    ``(0, None)`` when none was completed (every try failed or the deadline expired first).
    """
    space = _MistakeTreeSpace(H, deadline)
    try:
        root = space.root(_columns(H, deadline))
    except SearchStopped:
        return 0, None
    return deepest_greedy_tree(space, root, min(upper, H.log2_size()), deadline)
