"""``N(0, H, n)``: the 0-cover function, a sup over input trees of depth ``n``, by branch and bound (BGS Def 5.5).

The search over families of cells and its pruning bound are explained in the
:mod:`dimcalc.covers` docstring.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ..classes.hypothesis_class import HypothesisClass
from ..errors import parameter_error
from ..results import DimensionResult
from ..search.budget import Deadline, SearchStopped
from ..validation import check_hypothesis_class, check_time_limit
from ..witnesses.cover_trees import MAX_DEPTH
from .bounds import trivial_zero_cover_bound
from .number import DEFAULT_MAX_WITNESS_NODES, TreeCover, fallback_witness, label_splits, zero_cover_witness

__all__ = ["zero_cover_function"]

#: Share of ``time_limit`` the search of :func:`zero_cover_function` may use; the rest is for the witness.
_SEARCH_SHARE = 0.8


class _FunctionSearch:
    """Branch and bound for W(F, m) = max_z sum_{G in F} N(0, G, z) (see the module docstring)."""

    def __init__(self, H: HypothesisClass, deadline: Deadline) -> None:
        self.H = H
        self.splits = label_splits(H)
        self.deadline = deadline
        self.relaxed: dict[tuple[int, int], int] = {}
        self.exact: dict[tuple[tuple[int, ...], int], tuple[int, Any]] = {}
        self.nodes = 0

    def tick(self) -> None:
        self.nodes += 1
        if self.deadline.tick(64):
            raise SearchStopped

    def split(self, cells: Sequence[int], x: int) -> list[int]:
        return [c & m for c in cells for _, m in self.splits[x] if c & m]

    def relax(self, cell: int, m: int) -> int:
        """R(cell, m): every cell picks its own subtree; an upper bound on N(0, cell, m), exact if binary."""
        if m == 0:
            return 1
        key = (cell, m)
        got = self.relaxed.get(key)
        if got is None:
            self.tick()
            got = 0
            cap = min(cell.bit_count(), self.H.num_labels**m)
            for x in range(self.H.n_points):
                val = sum(self.relax(c, m - 1) for c in self.split([cell], x))
                if val > got:
                    got = val
                    if got == cap:
                        break
            self.relaxed[key] = got
        return got

    def bound(self, cells: Sequence[int], m: int) -> int:
        return sum(self.relax(c, m) for c in cells)

    def best(self, cells: tuple[int, ...], m: int) -> tuple[int, Any]:
        """(W(cells, m), a tree achieving it as nested (x, left, right) / None)."""
        if m == 0:
            return len(cells), None
        key = (cells, m)
        got = self.exact.get(key)
        if got is not None:
            return got
        self.tick()
        cap = self.bound(cells, m)
        best_val, best_tree = -1, None
        for x in range(self.H.n_points):
            parts = self.split(cells, x)
            if m == 1:
                if len(parts) > best_val:
                    best_val, best_tree = len(parts), (x, None, None)
                if best_val == cap:
                    break
                continue
            if self.bound(parts, m - 1) <= best_val:
                continue
            for left, right in _bipartitions(parts):
                if self.bound(left, m - 1) + self.bound(right, m - 1) <= best_val:
                    continue
                lv, lt = self.best(left, m - 1)
                rv, rt = self.best(right, m - 1) if right else (0, lt)
                if lv + rv > best_val:
                    best_val, best_tree = lv + rv, (x, lt, rt if right else lt)
                    if best_val == cap:
                        break
            if best_val == cap:
                break
        self.exact[key] = (best_val, best_tree)
        return best_val, best_tree


def _bipartitions(parts: list[int]) -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Splits of the cells into a left and a right family (the first cell goes left; both sides used if possible)."""
    c = len(parts)
    if c == 1:
        yield (parts[0],), ()
        return
    first, rest = parts[0], parts[1:]
    for bits in range(1, 1 << (c - 1)):  # the all-left split is dominated (W is subadditive)
        left = [first] + [p for t, p in enumerate(rest) if not bits >> t & 1]
        right = [p for t, p in enumerate(rest) if bits >> t & 1]
        yield tuple(sorted(left)), tuple(sorted(right))


def _heap_from_nested(tree: Any, depth: int) -> list[int]:
    out = [0] * ((1 << depth) - 1)

    def fill(t: Any, u: int) -> None:
        if u >= len(out):
            return
        x, left, right = t
        out[u] = x
        fill(left, 2 * u + 1)
        fill(right if right is not None else left, 2 * u + 2)

    fill(tree, 0)
    return out


def _greedy_tree(H: HypothesisClass, depth: int, deadline: Deadline | None = None) -> list[int]:
    """A quick input tree for the lower bound: at each node the point splitting the cells most.

    Nodes reached only by single hypotheses are left at point 0: below them
    every point gives the same count (one output tree per hypothesis), so the
    work follows the nodes that separate hypotheses, not the ``2^depth`` nodes.
    When ``deadline`` expires the rest of the tree stays at point 0 (a valid
    tree, a weaker bound).
    """
    splits = label_splits(H)
    heap = [0] * ((1 << depth) - 1)
    queue = [(0, [H.full_mask])]
    while queue:
        u, cells = queue.pop()
        if all(not c & (c - 1) for c in cells):
            continue
        if deadline is not None and deadline.tick(16):
            break
        x = max(range(H.n_points), key=lambda p: sum(1 for c in cells for _, m in splits[p] if c & m))
        heap[u] = x
        if 2 * u + 1 >= len(heap):
            continue
        parts = sorted((c & m for c in cells for _, m in splits[x] if c & m), key=lambda c: -c.bit_count())
        queue.append((2 * u + 2, parts[1::2] or parts))
        queue.append((2 * u + 1, parts[0::2] or parts))
    return heap


def zero_cover_function(
    H: HypothesisClass,
    n: int,
    *,
    time_limit: float | None = None,
    max_witness_nodes: int | None = DEFAULT_MAX_WITNESS_NODES,
) -> DimensionResult:
    """``N(0, H, n) = sup`` of ``N(0, H, z)`` over complete input trees ``z`` of depth ``n`` (BGS Def 5.5).

    Exact (by the branch and bound of the module docstring) unless the time
    limit stops the search; then ``exact=False`` with the proven bounds
    ``lower`` (certified by the best tree found and its fooling set) and
    ``upper = min(|H|, (k+1)^n, sum_G R(G, n))``.  The time limit covers the
    whole call, witness included.

    Parameters
    ----------
    H : HypothesisClass
    n : int
        Depth (root at depth 1), at most :data:`MAX_DEPTH`; ``N(0, H, 0) = 1``.
        Depth ``n >= 1`` needs a class with at least one point.
    time_limit : float, optional
        Seconds for the search and the witness.
    max_witness_nodes : int or None
        Largest cover put in the witness (see :func:`zero_cover_number`).

    Returns
    -------
    DimensionResult
        kind ``"zero_cover_function"``, witness ``{"tree", "cover", "fooling_set"}``
        for the lower bound; ``stats["method"]`` names how the value was found.

    References
    ----------
    BGS Def 5.5; Thm 5.6 (upper bound), Lemma 5.11 (lower bound).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 0, 0], [0, 0, 1], [0, 1, 1], [1, 1, 1]])  # thresholds
    >>> r = zero_cover_function(H, 2)
    >>> r.value, r.exact, r.verify(H)
    (4, True, True)
    >>> from dimcalc.covers import sauer_zero_cover_bound
    >>> sauer_zero_cover_bound(2, 2, 1)   # Thm 5.6 with d = MLD = 2: tight here
    4
    """
    H = check_hypothesis_class(H, "zero_cover_function")
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise parameter_error("n", "zero_cover_function", "a non-negative integer (tree depth)", n)
    if n > MAX_DEPTH:
        raise parameter_error(
            "n", "zero_cover_function", f"at most {MAX_DEPTH} (a witness holds a tree of 2^n - 1 nodes)", n
        )
    time_limit = check_time_limit(time_limit, "zero_cover_function")
    if n == 0:
        return DimensionResult.exact_value("zero_cover_function", 1, zero_cover_witness(H, None), method="convention")
    if H.n_points == 0:
        raise parameter_error(
            "n",
            "zero_cover_function",
            "0 for a class without points (an input tree of depth n >= 1 needs a point at every node)",
            n,
        )
    deadline = Deadline(time_limit)
    # The search stops early enough to leave the witness (tree, fooling set, cover) its share of the limit.
    search_deadline = Deadline(None if time_limit is None else time_limit * _SEARCH_SHARE)
    search = _FunctionSearch(H, search_deadline)
    trivial = trivial_zero_cover_bound(H, n)
    greedy = _greedy_tree(H, n, search_deadline)
    tc = TreeCover(H, greedy, deadline)
    try:
        lower = tc.count(0, H.full_mask)
    except SearchStopped:
        return DimensionResult.bounds(
            "zero_cover_function",
            1,
            trivial,
            fallback_witness(H, greedy),
            depth=n,
            method="stopped by time limit",
            nodes=search.nodes,
            seconds=deadline.elapsed(),
            stopped=deadline.stop_label,
        )
    best_points = greedy
    try:
        upper = min(trivial, search.relax(H.full_mask, n))
        if lower < upper:
            value, nested = search.best((H.full_mask,), n)
            points = _heap_from_nested(nested, n)
            best_tc = TreeCover(H, points, search_deadline)
            check = best_tc.count(0, H.full_mask)
            if check != value:  # pragma: no cover - the recursion and the search must agree
                raise AssertionError(f"zero_cover_function: search value {value} but tree gives {check}")
            best_points, lower, upper, tc = points, value, value, best_tc
        method = "branch and bound" if not H.is_binary else "exact recursion (binary: R is exact)"
        stopped: str | bool = False
    except SearchStopped:
        upper = min(trivial, search.relaxed.get((H.full_mask, n), trivial))
        method, stopped = "stopped by time limit", search_deadline.stop_label
    witness = zero_cover_witness(H, best_points, tc, value=lower, max_nodes=max_witness_nodes, deadline=deadline)
    return DimensionResult.bounds(
        "zero_cover_function",
        lower,
        upper,
        witness,
        depth=n,
        method=method,
        nodes=search.nodes,
        seconds=deadline.elapsed(),
        stopped=stopped,
    )
