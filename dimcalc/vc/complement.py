"""Classes closed under complement: a set's first column halves the hypotheses and takes one level off.

A binary class ``H`` is *closed under complement* when ``1 - h`` is in ``H``
for every ``h`` in ``H`` (halfspaces, which contain both orientations of
every cut; balls and their complements; any class with its complements
added).  Then for a set ``S`` and a point ``x`` of it, with ``H_b`` the
hypotheses giving ``x`` the label ``b``:

* ``S`` is shattered by ``H`` exactly when ``S - {x}`` is shattered by both
  ``H_0`` and ``H_1`` (the cells of ``S`` are those of ``S - {x}`` within
  ``H_0`` and within ``H_1``);
* ``H_1 = {1 - h : h in H_0}`` (complement closure), and a set is shattered
  by a class exactly when it is by its complements.

So ``S`` is shattered by ``H`` exactly when ``S - {x}`` is shattered by
``H_0`` alone.  The search for a ``T``-set is run head by head: the set's
first column ``x`` (every root position, or one per orbit of point
symmetries: :mod:`dimcalc.vc.symmetry`), then a compiled search
(:mod:`dimcalc.vc.kernel`) for a ``(T - 1)``-set among the columns after
``x`` shattered by ``H_0`` -- half the hypotheses (half the words in every
test), half the cells, one level less.  A set found is ``{x}`` plus the set
of the sub-search, shattered by ``H`` by the equivalence above (and checked
again by the caller's witness).  Halfspaces over 16 x 16 (closed under
complement, 36 orbits): VC <= 3 proved in a few CPU seconds.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..search.budget import Deadline, SearchStats, SearchStopped
from ..search.pool import first_answer
from . import kernel, rules
from .columns import Columns, pack_rows

__all__ = ["closed_under_complement", "find", "FORCE", "MAX_TABLE", "MAX_ENTRIES"]

#: ``False`` turns the head-by-head search off (A/B runs, tests); ``None`` uses it where it applies.
FORCE: bool | None = None
#: The search runs only when the root's table (columns x hypotheses, one byte each) has at most this many
#: entries ...
MAX_TABLE = 1 << 28
#: ... and the heads' sub-tables (heads x columns x hypotheses entries in all; each is sliced, deduplicated and
#: packed in numpy) at most this many: halfspaces over 16 x 16 with orbits, 36 x 256 x 40 150 = 3.7e8
#: (about 0.4 CPU s); without, 256 heads: 2.6e9.
MAX_ENTRIES = 1 << 32


def _row_keys(table: np.ndarray) -> np.ndarray:
    """The distinct rows of a boolean ``(m, V)`` table as sorted byte strings."""
    packed = np.ascontiguousarray(np.packbits(table, axis=1))
    return np.unique(packed.view(np.dtype((np.void, packed.shape[1])))[:, 0])


def closed_under_complement(ones: np.ndarray, m: int, deadline: Deadline) -> bool:
    """Whether the rows of the columns ``ones`` (``V x W`` words over ``m`` hypotheses) are closed under complement.

    Examples
    --------
    >>> ones = np.array([[0b0101], [0b0011]], dtype=np.uint64)      # rows 11, 01, 10, 00 (bit i = hypothesis i)
    >>> closed_under_complement(ones, 4, Deadline(None))
    True
    >>> closed_under_complement(ones, 3, Deadline(None))             # rows 11, 01, 10: 00 is missing
    False
    """
    if not deadline.fits(4 * ones.shape[0] * m):
        return False
    deadline.check()
    table = np.unpackbits(ones.view(np.uint8), axis=1, count=m, bitorder="little").T.astype(bool)
    keys = _row_keys(table)
    deadline.check()
    return bool(np.array_equal(keys, _row_keys(~table)))


def _distinct_traces(pool: np.ndarray) -> np.ndarray:
    """The columns ``pool`` (``k x n`` booleans, one row per column) on the distinct traces of the hypotheses only.

    A set of these columns is shattered by the hypotheses exactly when it is
    by their distinct traces on them; counted on distinct traces, the size
    rule (:func:`dimcalc.vc.rules.need`) is stronger, and every test reads
    fewer words.
    """
    if pool.shape[0] == 0 or pool.shape[1] == 0:
        return pool
    keys = np.packbits(pool.T, axis=1)
    _, first = np.unique(keys.view(np.dtype((np.void, keys.shape[1])))[:, 0], return_index=True)
    return pool[:, np.sort(first)]


def _stopped(deadline: Deadline, stats: dict) -> SearchStopped:
    deadline.expired()  # records the reason
    stop = SearchStopped(deadline.reason or "time")
    stop.info = stats
    return stop


def find(
    cols: Columns,
    root: np.ndarray,
    heads: np.ndarray,
    target: int,
    m: int,
    deadline: Deadline,
    stats: dict,
    jobs: int = 1,
    scheduler: Any = None,
) -> list[int] | None:
    """A shattered ``target``-set (indices into ``cols``) whose first column is at one of ``heads``, or ``None``.

    ``cols`` are binary columns (no dead hypotheses) of a class closed under
    complement; ``root`` the columns in exploration order, ``heads`` the
    positions a set may start at (all, or one per orbit); the rest of a set
    lies after its first column.  Node and test counts go to ``stats``.  The
    caller checks that ``2 * len(root) * m`` bytes fit the memory budget.
    Each head is a piece of :func:`dimcalc.search.pool.first_answer`: with
    ``jobs`` processes (or a Dask ``scheduler``) the answer and the set are
    those of one process.
    """
    words = np.ascontiguousarray(cols.ones[root])
    table = np.unpackbits(words.view(np.uint8), axis=1, count=m, bitorder="little").view(bool)  # (R, m)
    order = heads.tolist()

    def piece(i: int) -> tuple[list[int] | None, dict]:
        got: dict = {"complement_heads": 1}
        try:
            return _head(cols, root, table, order[i], target, deadline, got), got
        except SearchStopped as stop:
            stop.info = got
            raise

    def collect(got: dict | SearchStats) -> None:
        counts = got.as_dict() if isinstance(got, SearchStats) else got  # a stopped piece's record
        for key, value in counts.items():
            if key in ("elapsed", "stopped"):
                continue
            stats[key] = stats.get(key, 0) + value

    stats.setdefault("complement_heads", 0)
    found, _ = first_answer(
        piece,
        len(order),
        jobs=jobs,
        scheduler=scheduler if jobs > 1 else None,
        deadline=deadline,
        collect=collect,
        prepare=kernel.warm,
    )
    return found


def _head(
    cols: Columns, root: np.ndarray, table: np.ndarray, h: int, target: int, deadline: Deadline, stats: dict
) -> list[int] | None:
    """The search below the head at root position ``h``: a ``(target - 1)``-set among the later columns shattered
    by ``H_0`` (see the module docstring), as a ``target``-set of ``cols``, or ``None``."""
    deadline.check()
    sub_target = target - 1
    x = int(root[h])
    if sub_target < 1 or len(root) - h - 1 < sub_target:
        return None
    need = rules.need(sub_target, 1)
    half = ~table[h]  # H_0: the hypotheses giving x the label 0
    pool = _distinct_traces(table[h + 1 :, half])
    ones = pool.sum(axis=1, dtype=np.int64)
    n_half = pool.shape[1]
    score = np.minimum(ones, n_half - ones)
    keep = np.flatnonzero(score >= need)
    if len(np.unique(cols.rank[root[h + 1 + keep]])) < sub_target:
        return None
    keep = keep[np.argsort(-score[keep], kind="stable")]  # most balanced first
    sub = pool[keep]
    sub_ones, sub_zeros = pack_rows(sub), pack_rows(~sub)  # over H_0 only (the padding bits are 0 on both)
    members = root[h + 1 + keep]
    if sub_target == 1:
        return [int(cols.ids[x]), int(cols.ids[members[0]])]
    status, found, got = kernel.find(
        sub_ones, sub_zeros, cols.rank[members], np.arange(len(members)), sub_target, False, deadline.remaining()
    )
    for key, value in got.items():
        stats[key] = stats.get(key, 0) + value
    if status == "stopped":
        raise _stopped(deadline, stats)
    if status == "found":
        return [int(cols.ids[x])] + [int(cols.ids[members[p]]) for p in found]
    return None
