"""Refutation on distinct traces: proving that no ``T``-set is shattered, one first point at a time.

A set ``S`` of points with first point ``y`` (in the order of the columns) is
shattered by a binary class ``H`` exactly when ``S - {y}`` is shattered by
*both* cells of ``y`` -- ``H_b = {h : h(y) = b}`` for ``b = 0, 1`` -- and
shattering by a cell depends only on the cell's *distinct traces* on the
points after ``y`` (Vapnik--Chervonenkis 1971: a set is shattered when all
``2^|S|`` patterns occur; duplicates add none).  So below ``y`` a cell is
replaced by its distinct traces on the later points, which on structured
classes is far narrower than the cell (intervals over 512 points: the
intervals containing ``y`` are ~65 000 hypotheses but at most ``512 - y``
traces on the later points, the prefixes), and the cells are kept *separate*
(never merged again), narrowest first: a cell alone that shatters no
``(T-1)``-set of the later points kills ``y`` before the wide cell is even
built.  Recursively, :func:`refute_cells` decides whether some ``r``-set of
the columns is shattered by every one of a list of cells:

* **trace size rule**: a cell that shatters an ``r``-set has at least
  ``2^r`` distinct traces on the columns (each pattern is its own trace) --
  stronger than ``2^r`` hypotheses, since duplicates are not counted;
* **one cell first**: ``S`` shattered by every cell is shattered by the
  narrowest, so that cell alone is tried first (a proof for it is a proof
  for the list); only when it does not refute are all the cells searched;
* ``r = 2``: a cell whose columns' 1-sets are nested (a chain) shatters no
  pair; otherwise the pairs shattered by each cell are counted exactly (one
  matrix product per cell) and intersected;
* ``r = 1``: some column splits every cell.

Every step is exact (a necessary and sufficient condition, or a necessary
condition used only to prune), so :func:`refute_cells` returning ``True`` is
a proof; ``False`` means a set exists -- or that the work budget ran out
(``Budget``), which proves nothing.  :func:`dead_first_points` applies this
to every first point of the root, last first (the traces on the later
points are kept incrementally, as ids of suffixes: one ``O(m)`` step per
point, no sort), and :func:`worth_it` decides from a sample of points
whether the traces collapse enough to be worth it (random classes: they do
not).  ``docs/vc.md`` ("Distinct traces") has the proof sketch and the
figures.

Examples
--------
>>> import numpy as np
>>> from dimcalc import generators as g
>>> table = g.intervals(16).distinct_rows.astype(bool)
>>> refute_cells([table.T.copy()], 3), refute_cells([table.T.copy()], 2)
(True, False)
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ..search.budget import Deadline

__all__ = [
    "Budget",
    "dead_first_points",
    "refute_cells",
    "refutes_sample",
    "sized_for",
    "suffix_step",
    "try_refute",
    "worth_it",
]

#: Points sampled by :func:`worth_it` ...
SAMPLE_POINTS = 8
#: ... whose narrower cells must keep at most this fraction of their hypotheses as distinct traces.
COLLAPSE_RATIO = 0.25
#: The trace search is tried only on classes with at least this many distinct hypotheses (cells of 16 words).
MIN_HYPOTHESES = 1024
#: ... and at least this many per root point: the trace search pays where cells are wide for the number of points
#: (intervals over 512 points: 256 a point; boxes over 32 x 32: 272).  A sparse set system of 2 500 sets over 3 000
#: elements (0.8 a point) passed every other test, and its full pass refuted 1 407 first points in 50 s before the
#: first live one where the compiled search answers in 1.6 s.
MIN_PER_POINT = 16
#: ... and a root table (points x hypotheses, one byte each) of at most this many cells ...
MAX_CELLS = 1 << 29
#: ... over at most this many points (the sample's backward pass is one numpy step per point).
MAX_POINTS = 4096
#: A node of the recursion counted as this many entries (its numpy calls cost tens of microseconds).
NODE_COST = 20_000
#: Work per first point (cell entries) allowed, in units of one pass of the compiled search over its candidates.
WORK_FACTOR = 4


@dataclass
class Budget:
    """Work left (cell entries read) before the trace search gives up, and the deadline read between steps."""

    deadline: Deadline
    left: float
    stats: dict = field(default_factory=dict)
    until: float | None = None  # time.monotonic() at which the trace search gives up (the rest is the kernel's)
    since: float = 0.0  # work since the clock was last read

    def spend(self, amount: float) -> bool:
        """Count ``amount`` of work and one node (:data:`NODE_COST`); ``False`` once the budget is spent (the
        deadline raises when it passes)."""
        amount += NODE_COST
        self.left -= amount
        self.since += amount
        self.stats["trace_work"] = self.stats.get("trace_work", 0) + int(amount)
        self.stats["trace_nodes"] = self.stats.get("trace_nodes", 0) + 1
        if self.since > 1 << 18:
            self.since = 0.0
            self.deadline.check()
            if self.until is not None and time.monotonic() > self.until:
                self.left = -1.0
        return self.left >= 0


def suffix_step(ids: np.ndarray, count: int, bits: np.ndarray) -> tuple[np.ndarray, int, np.ndarray]:
    """Ids of the traces on one more column: ``(ids, count)`` numbers the traces on the later columns.

    Returns the new ids (dense, ``0 .. new_count - 1``), their count and one
    row holding each (``rep[i]`` has id ``i``).  Two rows get one id exactly
    when they agree on the new column and had one id before: ``O(rows)``,
    no sort.

    >>> ids, n, rep = suffix_step(np.zeros(4, np.int64), 1, np.array([1, 0, 1, 0], bool))
    >>> ids.tolist(), n, sorted(rep.tolist())
    ([1, 0, 1, 0], 2, [2, 3])
    """
    new, n, rep, _ = _step(ids, count, bits)
    return new, n, rep


def _step(ids: np.ndarray, count: int, bits: np.ndarray) -> tuple[np.ndarray, int, np.ndarray, list[np.ndarray]]:
    """:func:`suffix_step`, and the two cells of the new column as rows holding their distinct later traces.

    A key ``2 * id + bit`` per row: the keys present in cell ``b`` are its
    distinct traces on the later columns, and the new ids number the keys.
    """
    key = ids * 2 + bits
    mark = np.zeros(2 * count, dtype=bool)
    mark[key] = True
    rank = np.cumsum(mark, dtype=np.int64) - 1
    new = rank[key]
    n = int(rank[-1]) + 1 if len(rank) else 0
    rep = np.empty(n, dtype=np.int64)
    rep[new] = np.arange(len(ids))
    cells = [rep[rank[b::2][mark[b::2]]] for b in (0, 1)]
    return new, n, rep, cells


def _cell_rows(cols: np.ndarray, ids: np.ndarray, count: int, y: int) -> list[np.ndarray]:
    """The two cells of column ``y`` as rows holding their distinct traces on the later columns, narrower first.

    The traces of a row on the columns after ``y`` are its suffix id; one row
    per id present in the cell.
    """
    rep = np.zeros(count, dtype=np.int64)
    rep[ids] = np.arange(len(ids))  # a row holding each id (any: they agree after y)
    out = []
    for b in (False, True):
        mark = np.zeros(count, dtype=bool)
        mark[ids[cols[y] == b]] = True
        out.append(rep[mark])
    return sorted(out, key=len)


def _cells_of(cols: np.ndarray, ids: np.ndarray, count: int, y: int) -> list[np.ndarray]:
    """The two cells of column ``y`` as their distinct traces on the columns after ``y`` (columns x rows)."""
    return [cols[y + 1 :][:, rows] for rows in _cell_rows(cols, ids, count, y)]


def _pairs_shattered(cell: np.ndarray) -> np.ndarray:
    """``(n, n)`` booleans: pair ``{a, b}`` (``a < b``) shattered by the cell's rows (one matrix product)."""
    x = cell.astype(np.float32)
    k = cell.shape[1]
    c11 = x @ x.T  # rows with a = 1 and b = 1
    s = x.sum(axis=1)
    c10 = s[:, None] - c11
    c01 = s[None, :] - c11
    c00 = k - s[:, None] - s[None, :] + c11
    return np.triu((c11 > 0) & (c10 > 0) & (c01 > 0) & (c00 > 0), 1)


def _is_chain(cell: np.ndarray) -> bool:
    """Whether the cell's columns' 1-sets are nested (then no pair is shattered)."""
    order = np.argsort(cell.sum(axis=1), kind="stable")
    x = cell[order]
    return not bool(np.any(x[:-1] & ~x[1:]))


def refute_cells(cells: list[np.ndarray], r: int, budget: Budget | None = None) -> bool:
    """Whether *no* ``r``-set of the columns is shattered by every cell (``True`` is a proof).

    ``cells`` are boolean ``(n, k_i)`` arrays over the same ``n`` columns
    (column-major: row ``j`` is column ``j`` over the cell's ``k_i`` rows),
    each with distinct rows.  ``False``: a set exists, or ``budget`` ran out.

    >>> import numpy as np
    >>> square = np.array([[0, 0], [0, 1], [1, 0], [1, 1]], bool).T.copy()
    >>> refute_cells([square], 2), refute_cells([square, square[:, :3]], 2), refute_cells([square], 3)
    (False, True, True)
    """
    n = cells[0].shape[0]
    if r <= 0:
        return False
    if n < r or any(c.shape[1] < (1 << r) for c in cells):  # trace size rule: 2^r distinct traces per cell
        return True
    cells = sorted(cells, key=lambda c: c.shape[1])
    if budget is not None and not budget.spend(sum(c.size for c in cells)):
        return False
    if r == 1:
        split = np.ones(n, dtype=bool)
        for c in cells:
            split &= c.any(axis=1) & ~c.all(axis=1)
        return not bool(split.any())
    if r == 2:
        if any(_is_chain(c) for c in cells):
            return True
        both = None
        for c in cells:
            if budget is not None and not budget.spend(c.shape[1] * n * n / 16):
                return False
            pairs = _pairs_shattered(c)
            both = pairs if both is None else both & pairs
            if not both.any():
                return True
        return False
    return _refute_deep(cells, r, budget)


def _refute_deep(cells: list[np.ndarray], r: int, budget: Budget | None) -> bool:
    """:func:`refute_cells` for ``r >= 3``: every first column ``y`` refuted, last first (suffix ids per cell)."""
    n = cells[0].shape[0]
    state = [(np.zeros(c.shape[1], dtype=np.int64), 1) for c in cells]
    for y in range(n - 1, -1, -1):
        if y <= n - r:  # enough columns after y for the r - 1 others
            below = [part for c, (ids, cnt) in zip(cells, state) for part in _cells_of(c, ids, cnt, y)]
            if not refute_cells([min(below, key=lambda c: c.shape[1])], r - 1, budget):
                if not refute_cells(below, r - 1, budget):
                    return False
        state = [suffix_step(ids, cnt, c[y])[:2] for c, (ids, cnt) in zip(cells, state)]
    return True


def dead_first_points(cols: np.ndarray, target: int, budget: Budget, *, stop_at_live: bool = True) -> np.ndarray:
    """Which columns cannot be the first point of a shattered ``target``-set (booleans, one per column).

    ``cols`` is the class's boolean ``(n, m)`` table, column-major, columns in
    the search order (every later point of a set comes after its first).
    Columns are taken last first (the traces on the later columns kept as
    suffix ids); each cell of ``y`` is its distinct traces on the columns
    after ``y``, the narrower tried alone first, then both
    (:func:`refute_cells`).  With ``stop_at_live`` the pass ends at the first
    column not refuted (the columns not reached are reported live).
    """
    n, m = cols.shape
    dead = np.zeros(n, dtype=bool)
    ids, count = np.zeros(m, dtype=np.int64), 1
    for y in range(n - 1, -1, -1):
        budget.deadline.check()
        new, new_count, _, cells = _step(ids, count, cols[y])
        if y > n - target:
            dead[y] = True  # fewer than target - 1 columns after y
        else:
            dead[y] = _refute_first(cols, sorted(cells, key=len), y, target, budget)
            budget.stats["trace_first_points"] = budget.stats.get("trace_first_points", 0) + 1
            if not dead[y] and stop_at_live:
                return dead
        ids, count = new, new_count
    return dead


def _sample(n: int) -> np.ndarray:
    """:data:`SAMPLE_POINTS` first points spread over the first half of the order (the largest later pools)."""
    return np.unique(np.linspace(0, max(n // 2 - 1, 0), SAMPLE_POINTS).astype(np.int64))


def _distinct_later(cols: np.ndarray, y: int, b: bool) -> np.ndarray:
    """The cell ``h(y) = b`` as its distinct traces on the columns after ``y`` (columns x rows), by a sort.

    For the sampled points only (:func:`worth_it`, :func:`refutes_sample`):
    no backward pass of suffix ids down to them.
    """
    later = cols[y + 1 :][:, cols[y] == b]
    if later.shape[0] == 0 or later.shape[1] == 0:
        return later
    packed = np.ascontiguousarray(np.packbits(later.T, axis=1))
    _, first = np.unique(packed.view(np.dtype((np.void, packed.shape[1]))).ravel(), return_index=True)
    return later[:, np.sort(first)]


def _rarer(cols: np.ndarray, y: int) -> bool:
    """The rarer label at column ``y`` (its cell is the narrower before deduplication)."""
    return bool(cols[y].sum() * 2 <= cols.shape[1])


def worth_it(cols: np.ndarray, deadline: Deadline | None = None) -> float:
    """The mean fraction of the hypotheses a sampled point's narrower cell keeps as distinct later traces.

    ``cols`` as in :func:`dead_first_points`.  At each point of a sample
    spread over the first half of the order (their pools of later points
    are the largest), the cell of the rarer label is reduced to its distinct
    traces on the later columns.  A cell test in the trace search reads
    that many rows where the compiled search reads all ``m`` hypotheses, so
    the trace search may pay when this is at most :data:`COLLAPSE_RATIO`
    (intervals over 512 points: 0.034, boxes over 32 x 32: 0.014,
    halfspaces over 16 x 16: 0.30; a random class keeps about one half).

    >>> from dimcalc import generators as g
    >>> round(worth_it(g.intervals(64).distinct_rows.astype(bool).T.copy()), 3)
    0.053
    """
    n, m = cols.shape
    ratios = []
    for y in _sample(n):
        if y + 1 < n:
            if deadline is not None:
                deadline.check()
            ratios.append(_distinct_later(cols, int(y), _rarer(cols, int(y))).shape[1] / m)
    return float(np.mean(ratios)) if ratios else 1.0


def refutes_sample(cols: np.ndarray, target: int, budget: Budget, per_point: float) -> bool:
    """Whether every sampled first point (:func:`worth_it`'s sample) is refuted within ``per_point`` work.

    The measured criterion for the whole pass: the trace search is run on
    the sampled points first, each under its own work budget (the cell of
    the rarer label alone, then both); a point not refuted within it (too
    costly, or really the start of a shattered set) sends the target to the
    compiled search.
    """
    n, m = cols.shape
    need = 1 << (target - 1)  # trace size rule
    for y in (int(p) for p in _sample(n)):
        if y > n - target:
            continue
        budget.deadline.check()
        b = _rarer(cols, y)
        low = _distinct_later(cols, y, b)
        alone = _fresh(budget, per_point)
        if low.shape[1] < need or refute_cells([low], target - 1, alone):
            continue
        # The rarer label's cell may keep more traces than the other (intervals at the middle point): the other
        # alone, then both -- each attempt under its own share; not when the other is far larger by count.
        rows = int(cols[y].sum())
        if max(rows, m - rows) > 2 * min(rows, m - rows):
            if alone.left < 0:  # out of work alone: both cells cost at least as much
                return False
            high = _distinct_later(cols, y, not b)
            if high.shape[1] >= need and not refute_cells([low, high], target - 1, _fresh(budget, per_point)):
                return False
            continue
        high = _distinct_later(cols, y, not b)
        if high.shape[1] < need:
            continue
        if high.shape[1] < low.shape[1] and refute_cells([high], target - 1, _fresh(budget, per_point)):
            continue
        if not refute_cells([low, high], target - 1, _fresh(budget, per_point)):
            return False
    return True


def _fresh(budget: Budget, work: float) -> Budget:
    """A budget of ``work`` for one attempt, counting into ``budget``'s stats, deadline and time share."""
    return Budget(budget.deadline, work, budget.stats, budget.until)


def _refute_first(cols: np.ndarray, cells: list[np.ndarray], y: int, target: int, budget: Budget) -> bool:
    """Whether no shattered ``target``-set starts at ``y``; ``cells``: rows holding the distinct later traces
    of its two cells, narrower first.

    The narrower cell alone first; the wider one is built only when that
    does not refute.
    """
    narrow, wide = cells
    need = 1 << (target - 1)  # trace size rule
    if len(narrow) < need or len(wide) < need:
        return True
    low = cols[y + 1 :][:, narrow]
    if refute_cells([low], target - 1, budget):
        return True
    if not budget.spend(len(wide) * (cols.shape[0] - y)):
        return False
    return refute_cells([low, cols[y + 1 :][:, wide]], target - 1, budget)


def sized_for(n: int, m: int) -> bool:
    """Whether ``n`` root points and ``m`` hypotheses are in the trace search's range (before any table is read).

    At least :data:`MIN_HYPOTHESES` hypotheses and :data:`MIN_PER_POINT` a point, at most :data:`MAX_POINTS`
    points and :data:`MAX_CELLS` cells.

    >>> sized_for(512, 131_329), sized_for(3000, 2500), sized_for(64, 50_000 // 64)
    (True, False, False)
    """
    return m >= MIN_HYPOTHESES and m >= MIN_PER_POINT * n and n <= MAX_POINTS and n * m <= MAX_CELLS


def try_refute(cols: np.ndarray, target: int, deadline: Deadline, stats: dict) -> bool:
    """Whether the trace search proves that no ``target``-set is shattered (``False``: not tried, or not proved).

    ``cols`` is the boolean ``(n, m)`` table of the root's columns (both
    sides with ``2^(target-1)`` hypotheses), in the order of the points.
    Tried only when the class has :data:`MIN_HYPOTHESES` hypotheses and
    :data:`MIN_PER_POINT` a root point, the sampled cells collapse (:func:`worth_it` at most :data:`COLLAPSE_RATIO`)
    and every sampled first point is refuted within the work of testing its
    candidates once in the compiled search (``n * m / 64`` words, times
    :data:`WORK_FACTOR`: :func:`refutes_sample`); then every first point, under
    ``n`` times that work and half the time left.  Measured, not by the name
    of the class.
    """
    n, m = cols.shape
    if not sized_for(n, m) or n < target:
        return False
    ratio = worth_it(cols, deadline)
    stats["trace_ratio"] = round(ratio, 4)
    if ratio > COLLAPSE_RATIO:
        return False
    per_point = WORK_FACTOR * n * m / 64
    left = deadline.remaining()
    budget = Budget(deadline, per_point * n, stats, None if left is None else time.monotonic() + left / 2)
    if not refutes_sample(cols, target, budget, per_point):
        stats["trace_sample"] = "not refuted"
        return False
    return bool(dead_first_points(cols, target, budget).all())
