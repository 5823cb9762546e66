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

The version space is a bitset over the distinct hypotheses, each point's
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

from .._budget import Deadline, SearchStopped
from ..hypothesis_class import HypothesisClass
from ..vc.columns import STEP_WORDS, pack_columns

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


def _popcounts(cols: np.ndarray, idx: np.ndarray, mask: np.ndarray, deadline: Deadline) -> np.ndarray:
    """``|cols[j] & mask|`` for every ``j`` in ``idx``, gathered in bounded steps (no copy of the columns)."""
    out = np.empty(len(idx), dtype=np.int64)
    step = max(1, STEP_WORDS // max(cols.shape[1], 1))
    for s in range(0, len(idx), step):
        deadline.check()
        out[s : s + step] = np.bitwise_count(cols[idx[s : s + step]] & mask).sum(axis=1, dtype=np.int64)
    return out


def _restrict(cols: np.ndarray, idx: np.ndarray, mask: np.ndarray, ids: np.ndarray, deadline: Deadline) -> tuple:
    """The columns ``idx``, the mask and the ids on the words where ``mask`` has bits, and then, when
    those words are sparse, on the hypotheses of ``mask`` only (each a bit of new words)."""
    nz = np.flatnonzero(mask)
    out = np.empty((len(idx), len(nz)), dtype=np.uint64)
    step = max(1, STEP_WORDS // max(cols.shape[1], 1))
    for s in range(0, len(idx), step):
        deadline.check()
        out[s : s + step] = cols[idx[s : s + step]][:, nz]
    cols, mask, ids = out, mask[nz], ids.reshape(-1, 64)[nz].reshape(-1)
    v = int(np.bitwise_count(mask).sum())
    if v * COMPACT_RATIO > len(nz) * 64 or len(nz) == 1:
        return cols, np.arange(len(idx)), mask, ids
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
    return packed, np.arange(len(cols)), new_mask, new_ids


def greedy_mistake_tree(H: HypothesisClass, depth: int, deadline: Deadline) -> dict[str, Any] | None:
    """A complete shattered mistake tree of ``depth`` built by most-balanced splits, or ``None``.

    ``None`` when some node's most balanced point leaves fewer than
    ``2^(k - 1)`` hypotheses on a side (``k`` levels wanted below it): the
    greedy choice does not backtrack, so ``None`` proves nothing.  Raises
    :class:`~dimcalc._budget.SearchStopped` when ``deadline`` expires.

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
    return _tree(H, _columns(H, deadline), depth, deadline)


def _tree(H: HypothesisClass, columns: tuple[np.ndarray, np.ndarray], depth: int, deadline: Deadline) -> Any:
    """:func:`greedy_mistake_tree` on columns built once (:func:`_columns`)."""
    cols, points = columns
    m = H.n_distinct
    ids = np.full(cols.shape[1] * 64, -1, dtype=np.int64)  # bit position -> distinct hypothesis
    ids[:m] = np.arange(m)
    mask = pack_columns(np.ones((m, 1), dtype=bool), max(1, (m + 63) // 64))[0]
    return _node(H, cols, np.arange(len(points)), points, mask, ids, depth, deadline)


def _node(
    H: HypothesisClass,
    cols: np.ndarray,
    idx: np.ndarray,
    points: np.ndarray,
    mask: np.ndarray,
    ids: np.ndarray,
    k: int,
    deadline: Deadline,
) -> dict[str, Any] | None:
    """The greedy subtree of ``k`` levels over the version space ``mask`` (bits over ``ids``).

    ``cols[idx]`` are the columns still splitting the parent's version space,
    ``points[idx]`` their points; ``cols`` is shared down the tree until a
    version space is compacted to its own words.
    """
    deadline.check()
    v = int(np.bitwise_count(mask).sum())
    if k == 0:
        first = int(np.flatnonzero(np.unpackbits(mask.view(np.uint8), bitorder="little"))[0])
        return {"hypothesis": H.row_of(int(ids[first]))}
    if v < 1 << k:
        return None
    if mask.shape[0] > 1 and (np.count_nonzero(mask) * 2 <= mask.shape[0] or v * COMPACT_RATIO <= mask.shape[0] * 64):
        points = points[idx]
        cols, idx, mask, ids = _restrict(cols, idx, mask, ids, deadline)
    ones = _popcounts(cols, idx, mask, deadline)
    balance = np.minimum(ones, v - ones)
    best = int(np.argmax(balance))
    if balance[best] < 1 << (k - 1):
        return None
    live = balance > 0
    live[best] = False
    column = cols[idx[best]]
    children = []
    for side in (mask & ~column, mask & column):
        child = _node(H, cols, idx[live], points, side, ids, k - 1, deadline)
        if child is None:
            return None
        children.append(child)
    return {"point": int(points[idx[best]]), "children": children}


def greedy_lower_bound(H: HypothesisClass, upper: int, deadline: Deadline) -> tuple[int, dict[str, Any] | None]:
    """The deepest greedy tree found trying ``upper, upper - 1, ...`` before ``deadline``: ``(depth, tree)``.

    ``(0, None)`` when none was completed (every try failed or the deadline expired first).
    """
    try:
        columns = _columns(H, deadline)
        for depth in range(min(upper, H.log2_size()), 0, -1):
            tree = _tree(H, columns, depth, deadline)
            if tree is not None:
                return depth, tree
    except SearchStopped:
        pass
    return 0, None
