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
(:mod:`dimcalc.classes.reduction`: constant points dropped, points with the same
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

Before the depth-first search of a target, binary classes are tried by
closures (:mod:`dimcalc.vc.closure`) and distinct traces
(:mod:`dimcalc.vc.traces`); the compiled search then starts its sets at one
column per orbit of the class's point symmetries (:mod:`dimcalc.vc.symmetry`),
and a class closed under complement is searched head by head on half its
hypotheses (:mod:`dimcalc.vc.complement`).  With ``jobs > 1`` (or a Dask
scheduler) the symmetries and the complement closure of a target's columns
are looked for in another process while this one tries the closures and
traces (:func:`symmetry_ahead`, :class:`dimcalc.search.ahead.Ahead`): the
same values, off the critical path (halfspaces over 16 x 16: about 0.9 s).

Where the pieces live: the rules (size, pairs, triples, downward closure) in
:mod:`dimcalc.vc.rules`, the search of one target in :mod:`dimcalc.vc.dfs`
(numpy steps in :mod:`dimcalc.vc.numpy_dfs`, compiled in
:mod:`dimcalc.vc.kernel`), the columns in :mod:`dimcalc.vc.columns`; this
module runs the targets in turn.  Nothing is kept on the class between calls.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..classes.hypothesis_class import HypothesisClass
from ..search.ahead import Ahead
from ..search.budget import Deadline, Progress, SearchStopped
from ..search.pool import can_fork
from . import closure, complement, kernel, rules, symmetry, traces
from .columns import STEP_WORDS, Columns, label_counts, pack_columns, virtual_columns
from .dfs import Search

__all__ = ["largest_shattered_set", "witness_of"]


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
    whether the deadline cut the search short.  Nothing is kept on the
    class: every call searches (on a binary class the three notions are one,
    and :func:`dimcalc.vc.binary_twin` reads one result as another, explicitly).
    ``jobs`` processes share each target's search (same answer and witness as
    one process).
    """
    best: list[dict] = []
    upper = H.log2_size()
    stats.update(method="bitset-dfs", nodes=0, tests=0, log2_bound=upper)
    if H.n_distinct >= 2:
        # A point where two distinct hypotheses differ is shattered alone: the lower bound 1, before any search.
        r0, r1 = H.distinct_row(0), H.distinct_row(1)
        p0 = int(np.flatnonzero(r0 != r1)[0])
        l0, l1 = int(r0[p0]), int(r1[p0])
        best = [{"point": p0, "one": 1 if kind == "vc" else l1, "zero": -1 if kind == "vc" else l0}]
    early: Ahead | None = None  # the symmetries of a target's columns, looked for ahead (symmetry_ahead)
    try:
        red = H.column_reduction(relabel=True, deadline=deadline)
        stats["reduced_columns"] = red.n_columns
        upper = min(upper, red.n_columns)
        if upper <= 0:
            return (best, max(upper, 0), False)
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

        # Points rule: T points each need a column with 2^(T-1) hypotheses on both sides (rules.count_bound).
        stats["count_bound"] = rules.count_bound(rules.side_sizes(counts, kind))
        upper = min(upper, stats["count_bound"])
        if upper <= len(best):
            return best, upper, False
        if H.is_binary and upper >= 2 and counts.shape[1] == 2 and _is_chain(H, points, counts[:, 1], deadline):
            # The columns' 1-sets are nested: no two points are shattered, and one point is (a live column).
            stats.update(method="nested columns (a chain): no pair is shattered")
            return (best, 1, False)

        def columns(need: int, top: int | None = None) -> Columns:
            return virtual_columns(H, kind, need, points, sub, counts, deadline, top)

        def describe(cols: Columns, chosen: list[int]) -> list[dict]:
            return [{"point": int(cols.point[v]), "one": int(cols.one[v]), "zero": int(cols.zero[v])} for v in chosen]

        cols = columns(1, top=8)
        binary = H.is_binary and counts.shape[1] == 2  # one column per point, side 0 = not side 1
        search = Search(cols, H.n_distinct, deadline, log, stats)
        try:
            best = describe(cols, search.greedy())
        except SearchStopped:
            if len(search.greedy_chosen) > len(best):  # every prefix of the greedy set is shattered
                best = describe(cols, search.greedy_chosen)
            raise
        stats["greedy"] = len(best)
        target = len(best) + 1
        closed = closure.Attempt()
        by_rank: list[np.ndarray | None] = []  # the orbit of each reduced column, found once (dimcalc.vc.symmetry)
        halves: list[bool] = []  # whether the class is closed under complement, found once (dimcalc.vc.complement)
        while target <= upper:
            log.update(f"searching for a shattered set of size {target} (upper bound {upper})", force=True)
            deadline.check()
            cols = columns(rules.need(target, 1))
            if early is not None:  # an earlier target's, not needed (decided before its symmetries)
                early.close()
            early = symmetry_ahead(by_rank, halves, cols, H.n_distinct, deadline, jobs, scheduler) if binary else None
            decided = closure_decide(closed, cols, target, H.n_distinct, deadline, stats) if binary else None
            if decided == "refuted":
                upper = target - 1  # no independent target-set, so no shattered one (dimcalc.vc.closure)
                break
            if isinstance(decided, list):
                best = describe(cols, decided)  # an independent set, checked shattered on the class
                target += 1
                continue
            if binary and traces_refute(cols, target, H.n_distinct, deadline, stats):
                upper = target - 1  # no target-set: proved on distinct traces (dimcalc.vc.traces)
                break
            searcher = Search(cols, H.n_distinct, deadline, log, stats, scheduler=scheduler)
            complemented = take_ahead(early, by_rank, stats, deadline) if early is not None else None
            early = None
            if binary and not cols.partial:
                searcher.arrange = symmetry_of(by_rank, cols, H.n_distinct, deadline, stats)
            if binary and complement_applies(halves, cols, searcher.arrange, H.n_distinct, deadline, complemented):
                found = complement_find(searcher, target, jobs, scheduler)
            else:
                found = searcher.find(target, jobs)
            if found is None:
                upper = target - 1
                break
            best = describe(cols, found)
            target += 1
    except SearchStopped:
        return best, upper, True
    finally:
        if early is not None:
            early.close()
    return (best, upper, False)


#: Whether the trace search (:mod:`dimcalc.vc.traces`) may try a target: ``None`` decides by measure
#: (:func:`dimcalc.vc.traces.try_refute`), ``True`` / ``False`` force it on every target from 3 / off (tests).
TRACES: bool | None = None


def traces_refute(cols: Columns, target: int, m: int, deadline: Deadline, stats: dict) -> bool:
    """Whether no ``target``-set is shattered, proved on distinct traces (:mod:`dimcalc.vc.traces`).

    Binary classes only (``cols`` one column per point, no dead hypotheses),
    from target 3.  The root's columns (both sides with ``2^(target-1)``
    hypotheses; size rule) are unpacked in the order of their points, within
    the memory budget.  ``False`` proves nothing: the compiled search decides.
    """
    if TRACES is False or target < 3 or cols.partial or (TRACES is None and m < traces.MIN_HYPOTHESES):
        return False  # the cheap part of traces.sized_for, before any column is counted
    ones = np.bitwise_count(cols.ones).sum(axis=1, dtype=np.int64)
    need = rules.need(target, 1)
    keep = np.flatnonzero((ones >= need) & (m - ones >= need))
    keep = keep[np.argsort(cols.rank[keep], kind="stable")]
    if len(keep) < target or not deadline.fits(2 * len(keep) * m):
        return False
    if TRACES is None and not traces.sized_for(len(keep), m):
        return False  # before the table is unpacked
    deadline.check()
    table = np.unpackbits(cols.ones[keep].view(np.uint8), axis=1, count=m, bitorder="little").view(bool)
    if TRACES:
        budget = traces.Budget(deadline, float("inf"), stats)
        proved = bool(traces.dead_first_points(table, target, budget).all())
    else:
        proved = traces.try_refute(table, target, deadline, stats)
    if proved:
        stats["trace_refuted"] = target
    return proved


def symmetry_of(
    found: list[np.ndarray | None], cols: Columns, m: int, deadline: Deadline, stats: dict
) -> symmetry.Orbits | None:
    """The orbits of point symmetries (:mod:`dimcalc.vc.symmetry`) of the binary columns ``cols``, or ``None``.

    Looked for once per search, on the first target's columns, and kept in
    ``found`` as an orbit per reduced column (``cols.rank``): a later target's
    columns (those with larger sides) are a union of orbits, since an
    automorphism keeps a column's side sizes.
    """
    if len(np.unique(cols.rank)) < len(cols.rank):  # several columns on a point (graph kind): found afresh
        return symmetry.find_orbits(cols.ones, m, deadline, stats)
    if not found:
        orbits = symmetry.find_orbits(cols.ones, m, deadline, stats)
        label = np.full(int(cols.rank.max()) + 1 if len(cols.rank) else 0, -1, dtype=np.int64)
        if orbits is not None:
            label[cols.rank] = orbits.label
        found.append(label if orbits is not None else None)
    known = found[0]
    if known is None or int(cols.rank.max(initial=-1)) >= len(known) or np.any(known[cols.rank] < 0):
        return None
    return symmetry.Orbits(known[cols.rank])


def complement_applies(
    found: list[bool],
    cols: Columns,
    arrange: symmetry.Orbits | None,
    m: int,
    deadline: Deadline,
    known: bool | None = None,
) -> bool:
    """Whether the head-by-head search of a class closed under complement runs (:mod:`dimcalc.vc.complement`).

    Binary columns without dead hypotheses, a first level of at least
    :data:`dimcalc.vc.symmetry.MIN_WORDS` words, the compiled kernel usable,
    the boolean table (``V x m``) within :data:`dimcalc.vc.complement.MAX_TABLE`
    and the memory budget, and the heads' sub-tables (heads ``x V x m``
    entries: every column, or one per orbit of ``arrange``) within
    :data:`dimcalc.vc.complement.MAX_ENTRIES`; the closure is checked once per
    search (kept in ``found``; ``known``: already checked on ``cols``, by :func:`symmetry_ahead`).
    """
    if not _complement_sized(cols, arrange, m):
        return False
    if not kernel.usable(deadline.remaining()) or not deadline.fits(4 * cols.ones.shape[0] * m):
        return False
    if not found:
        found.append(complement.closed_under_complement(cols.ones, m, deadline) if known is None else known)
    return found[0]


def _complement_sized(cols: Columns, arrange: symmetry.Orbits | None, m: int) -> bool:
    """The size gates of :func:`complement_applies` (all but the kernel's and the memory budget's)."""
    v, w = cols.ones.shape
    if complement.FORCE is False or cols.partial or v < 2 or v * v * w < symmetry.MIN_WORDS:
        return False
    heads = v if arrange is None else int(arrange.label.max()) + 1
    return v * m <= complement.MAX_TABLE and heads * v * m <= complement.MAX_ENTRIES


def symmetry_ahead(
    found: list[np.ndarray | None],
    halves: list[bool],
    cols: Columns,
    m: int,
    deadline: Deadline,
    jobs: int,
    scheduler: Any = None,
) -> Ahead | None:
    """The point symmetries of ``cols`` (:func:`symmetry_of`) and, where :func:`complement_applies` would check
    it, their closure under complement, started in another process (:class:`~dimcalc.search.ahead.Ahead`:
    forked with ``jobs > 1``, or a task of the Dask ``scheduler``) while this one tries the closures and traces
    of the same target; their values are taken by :func:`take_ahead`.

    ``None`` (nothing started) with one job, on columns whose symmetries are known (``found``) or looked for
    afresh (several on a point), or would not be looked for (:func:`dimcalc.vc.symmetry.looked_for`).  The
    values are those :func:`symmetry_of` and :func:`complement_applies` would find here, on the same columns.
    """
    if (jobs <= 1 and scheduler is None) or (scheduler is None and not can_fork()) or found or cols.partial:
        return None
    if len(np.unique(cols.rank)) < len(cols.rank) or not symmetry.looked_for(cols.ones, m):
        return None
    known = bool(halves)

    def step() -> tuple[list[np.ndarray | None], dict, bool | None]:
        there: list[np.ndarray | None] = []
        stats: dict = {}
        arrange = symmetry_of(there, cols, m, deadline, stats)
        closed = None
        if not known and _complement_sized(cols, arrange, m) and deadline.fits(4 * cols.ones.shape[0] * m):
            closed = complement.closed_under_complement(cols.ones, m, deadline)
            if deadline.reason is not None:  # the budget said no on the way: checked again where it is used
                closed = None
        return there, stats, closed

    return Ahead(step, jobs=jobs, client=scheduler)


def take_ahead(early: Ahead, found: list[np.ndarray | None], stats: dict, deadline: Deadline) -> bool | None:
    """The values of :func:`symmetry_ahead`: the orbits go to ``found`` (as :func:`symmetry_of` keeps them), the
    symmetry stats to ``stats``; returns the closure under complement checked there (``None``: not checked)."""
    there, got, closed = early.result(deadline)
    if not found:
        found.extend(there)
    seconds = got.pop("symmetry_seconds", None)
    stats.update(got)
    if seconds is not None:
        stats["symmetry_seconds"] = round(stats.get("symmetry_seconds", 0.0) + seconds, 3)
    return closed


def complement_find(searcher: Search, target: int, jobs: int = 1, scheduler: Any = None) -> list[int] | None:
    """:meth:`Search.find <dimcalc.vc.dfs.Search.find>` for a class closed under complement, head by head
    (:func:`dimcalc.vc.complement.find`, the heads shared by ``jobs`` processes or a Dask ``scheduler``): the
    root of :meth:`Search.root_order <dimcalc.vc.dfs.Search.root_order>`, the heads one per orbit when the
    searcher's ``arrange`` is set."""
    root = searcher.root_order(target)
    if root is None:
        return None
    root, heads = (root, np.arange(len(root))) if searcher.arrange is None else searcher.arrange(root)
    searcher.stats["compiled"] = True
    return complement.find(
        searcher.cols, root, heads, target, searcher.m, searcher.deadline, searcher.stats, jobs, scheduler
    )


def closure_decide(
    attempt: closure.Attempt, cols: Columns, target: int, m: int, deadline: Deadline, stats: dict
) -> str | list[int] | None:
    """The closure refutation of ``target`` (:mod:`dimcalc.vc.closure`) on the root's columns: ``"refuted"``, a
    shattered ``target``-set (indices into ``cols``) or ``None`` (declined or not decided).  Binary classes only
    (one column per point, no dead hypotheses)."""
    if cols.partial or attempt.declined:
        return None
    ones = np.bitwise_count(cols.ones).sum(axis=1, dtype=np.int64)
    need = rules.need(target, 1)
    keep = np.flatnonzero((ones >= need) & (m - ones >= need))
    keep = keep[np.argsort(cols.rank[keep], kind="stable")]
    if len(keep) < target:
        return None
    return attempt.decide(cols.ones, cols.rank, keep, m, target, deadline, stats)


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
