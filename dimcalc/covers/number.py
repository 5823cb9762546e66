"""``N(0, H, z)``: the exact 0-cover number of a class on a fixed input tree, with its witness (BGS §5.1).

The recursion and its proof are in the :mod:`dimcalc.covers` docstring.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from ..classes.hypothesis_class import HypothesisClass
from ..results import DimensionResult
from ..search.budget import Deadline, SearchStopped
from ..validation import check_hypothesis_class, check_time_limit
from ..witnesses.cover_trees import depth_of, tree_json, tree_points
from ..witnesses.zero_cover import ZeroCover
from .bounds import trivial_zero_cover_bound

__all__ = ["zero_cover_number", "DEFAULT_MAX_WITNESS_NODES"]

#: Default cap on the size of a witness's cover (output-tree nodes in all): a bigger cover is not built,
#: and the fooling set alone certifies the value (its upper side is proven by the recursion).
DEFAULT_MAX_WITNESS_NODES = 2_000_000


def label_splits(H: HypothesisClass) -> list[list[tuple[int, int]]]:
    """For each point, the (label, mask) pairs with a non-empty mask."""
    return [[(lab, m) for lab, m in enumerate(H.label_masks[i]) if m] for i in range(H.n_points)]


class TreeCover:
    """Exact N(0, G, z) for cells G of H at the nodes of a fixed heap-ordered tree z.

    Two shortcuts keep the work on the part of the tree that separates
    hypotheses: a single hypothesis needs one output tree on any subtree
    (``N(0, {h}, z) = 1``), and on a subtree whose nodes all carry the same
    point ``p`` every path reads ``p`` again and again, so ``N(0, G, z)`` is the
    number of labels ``G`` puts on ``p`` (one constant output tree per label;
    two hypotheses with different labels at ``p`` already differ at the
    subtree's root).  Without them a deep tree costs ``2^n`` per cell.
    """

    def __init__(self, H: HypothesisClass, points: Sequence[int], deadline: Deadline | None = None) -> None:
        self.H = H
        self.points = list(points)
        self.size = len(self.points)
        self.splits = label_splits(H)
        self.memo: dict[tuple[int, int], int] = {}
        self.deadline = deadline
        self.constant = _constant_subtrees(self.points)

    def parts(self, u: int, mask: int) -> Iterator[tuple[int, int]]:
        for lab, m in self.splits[self.points[u]]:
            sub = mask & m
            if sub:
                yield lab, sub

    def height(self, u: int) -> int:
        """Levels of the subtree at heap node ``u`` (1 for a bottom node)."""
        return depth_of(self.size) - (u + 1).bit_length() + 1

    def count(self, u: int, mask: int) -> int:
        if u >= self.size or not mask & (mask - 1):
            return 1
        if self.constant[u]:
            return sum(1 for _ in self.parts(u, mask))
        key = (u, mask)
        got = self.memo.get(key)
        if got is None:
            if self.deadline is not None and self.deadline.tick(64):
                raise SearchStopped
            left, right = 2 * u + 1, 2 * u + 2
            got = sum(max(self.count(left, sub), self.count(right, sub)) for _, sub in self.parts(u, mask))
            self.memo[key] = got
        return got

    def cover(self, u: int, mask: int) -> list[dict | None]:
        """A minimum cover of the cell on the subtree at ``u`` (a list of output trees)."""
        if u >= self.size:
            return [None]
        if self.deadline is not None and self.deadline.tick(64):
            raise SearchStopped
        out: list[dict | None] = []
        left, right = 2 * u + 1, 2 * u + 2
        if self.constant[u]:
            return [_constant_output_tree(lab, self.height(u)) for lab, _ in self.parts(u, mask)]
        for lab, sub in self.parts(u, mask):
            if left >= self.size:
                out.append({"label": lab})
                continue
            a, b = self.cover(left, sub), self.cover(right, sub)
            width = max(len(a), len(b))
            for t in range(width):
                out.append({"label": lab, "children": [a[min(t, len(a) - 1)], b[min(t, len(b) - 1)]]})
        return out

    def fooling(self, u: int, mask: int) -> list[tuple[int, tuple[int, ...]]]:
        """A fooling set of the cell on the subtree at ``u``: (distinct index, turns)."""
        if u >= self.size:
            return [((mask & -mask).bit_length() - 1, ())]
        zeros: tuple[int, ...] = (0,) * (self.height(u) - 1)
        if not mask & (mask - 1):  # one hypothesis: any path below u
            return [((mask & -mask).bit_length() - 1, zeros)]
        if self.constant[u]:  # one hypothesis per label at the subtree's point, any path
            return [((sub & -sub).bit_length() - 1, zeros) for _, sub in self.parts(u, mask)]
        out: list[tuple[int, tuple[int, ...]]] = []
        left, right = 2 * u + 1, 2 * u + 2
        for _, sub in self.parts(u, mask):
            if left >= self.size:
                out.append(((sub & -sub).bit_length() - 1, ()))
                continue
            turn = 0 if self.count(left, sub) >= self.count(right, sub) else 1
            out.extend((j, (turn,) + path) for j, path in self.fooling(2 * u + 1 + turn, sub))
        return out


def _constant_subtrees(points: Sequence[int]) -> list[bool]:
    """For each heap node, whether every node of its subtree carries the same point (bottom-up, by level)."""
    size = len(points)
    if not size:
        return []
    p = np.asarray(points, dtype=np.int64)
    const = np.ones(size, dtype=bool)
    depth = depth_of(size)
    for level in range(depth - 2, -1, -1):  # levels 0..depth-1 (root 0); bottom nodes are constant
        u = np.arange((1 << level) - 1, (1 << (level + 1)) - 1)
        left, right = 2 * u + 1, 2 * u + 2
        const[u] = const[left] & const[right] & (p[left] == p[u]) & (p[right] == p[u])
    return const.tolist()


def _constant_output_tree(label: int, height: int) -> dict:
    """The output tree of ``height`` levels with ``label`` everywhere (subtrees shared, not copied)."""
    node: dict = {"label": label}
    for _ in range(height - 1):
        node = {"label": label, "children": [node, node]}
    return node


def zero_cover_witness(
    H: HypothesisClass,
    points: Sequence[int] | None,
    tc: TreeCover | None = None,
    *,
    value: int | None = None,
    max_nodes: int | None = None,
    deadline: Deadline | None = None,
) -> ZeroCover:
    """The witness ``{"tree", "cover", "fooling_set"}`` of ``N(0, H, z)`` for the tree ``points`` (heap order).

    The fooling set (``N`` pairs of ``n - 1`` turns) is always built.  The
    cover has ``N`` output trees of ``2^n - 1`` nodes: it is built when that is
    at most ``max_nodes`` and ``deadline`` allows, else ``"cover": None`` with
    ``"cover_omitted"`` saying why -- the fooling set then certifies the value
    alone (its other side is the recursion's, proven in the module docstring).
    """
    if not points:
        return ZeroCover({"tree": None, "cover": [None], "fooling_set": [{"hypothesis": H.row_of(0), "path": []}]})
    if tc is None:
        tc = TreeCover(H, points, deadline)
    if value is None:
        value = tc.count(0, H.full_mask)
    fooling = [{"hypothesis": H.row_of(j), "path": list(path)} for j, path in tc.fooling(0, H.full_mask)]
    out: dict[str, Any] = {"tree": tree_json(points), "cover": None, "fooling_set": fooling}
    nodes = value * len(points)
    if max_nodes is not None and nodes > max_nodes:
        out["cover_omitted"] = (
            f"{value} output trees of {len(points)} nodes = {nodes} nodes, over the witness "
            f"limit of {max_nodes}; the fooling set certifies the value"
        )
        return ZeroCover(out)
    tc.deadline = deadline
    try:
        out["cover"] = tc.cover(0, H.full_mask)
    except SearchStopped:
        out["cover_omitted"] = (
            "the time limit was reached while building the cover; the fooling set certifies the value"
        )
    return ZeroCover(out)


def fallback_witness(H: HypothesisClass, points: Sequence[int]) -> ZeroCover:
    """A witness of ``N >= 1``: the tree and one (hypothesis, path) pair."""
    return ZeroCover(
        {
            "tree": tree_json(points),
            "cover": None,
            "fooling_set": [{"hypothesis": H.row_of(0), "path": [0] * (depth_of(len(points)) - 1)}],
            "cover_omitted": "the time limit was reached before the tree's count",
        }
    )


def zero_cover_number(
    H: HypothesisClass,
    tree: Any,
    *,
    witness: bool = True,
    time_limit: float | None = None,
    max_witness_nodes: int | None = DEFAULT_MAX_WITNESS_NODES,
) -> DimensionResult:
    """``N(0, H, z)``: the size of a smallest 0-cover of ``H`` on the input tree ``z``, exactly.

    Parameters
    ----------
    H : HypothesisClass
        Any finite class (binary or multiclass).
    tree : dict or None
        A complete input-labelled tree ``{"point": i, "children": [L, R]}``
        (bottom nodes ``{"point": i}``), root at depth 1, or the same tree in
        heap form ``{"heap": [x0, x1, ...]}`` (children of ``u`` at ``2u+1``,
        ``2u+2``); ``None`` is the empty tree (depth 0, ``N = 1`` by BGS's
        convention).  A Littlestone-type witness tree is accepted and
        converted by :func:`input_tree_from_witness_tree`.
    witness : bool
        Build the witness (a fooling set and, within ``max_witness_nodes``, a
        minimum cover of the same size).
    time_limit : float, optional
        Seconds for the count and the witness; when the count is stopped the
        result is the bounds ``[1, min(|H|, (k+1)^n)]`` (``exact=False``).
    max_witness_nodes : int or None
        Largest cover built (``N`` trees of ``2^n - 1`` nodes); over it the
        witness has ``"cover": None`` and the fooling set certifies ``N``
        (``None``: no limit).

    Returns
    -------
    DimensionResult
        kind ``"zero_cover"``, witness ``{"tree", "cover", "fooling_set"}``
        (see the module docstring); ``verify(H)`` re-checks both halves.

    References
    ----------
    BGS Defs 5.1-5.5; the recursion and its proof are in the module docstring.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 0], [0, 1], [1, 1]])   # thresholds on 2 points
    >>> z = {"point": 0, "children": [{"point": 1}, {"point": 1}]}
    >>> r = zero_cover_number(H, z)
    >>> r.value, len(r.witness["cover"]), r.verify(H)
    (3, 3, True)
    >>> from dimcalc.covers import is_zero_cover
    >>> is_zero_cover(H, z, r.witness["cover"])
    True
    """
    H = check_hypothesis_class(H, "zero_cover_number")
    time_limit = check_time_limit(time_limit, "zero_cover_number")
    if tree is None:
        w = zero_cover_witness(H, None) if witness else None
        return DimensionResult.exact_value("zero_cover", 1, w, depth=0)
    deadline = Deadline(time_limit)
    points = tree_points(tree, H.n_points)
    depth = depth_of(len(points))
    tc = TreeCover(H, points, deadline)
    try:
        value = tc.count(0, H.full_mask)
    except SearchStopped:
        w = fallback_witness(H, points) if witness else None
        return DimensionResult.bounds(
            "zero_cover",
            1,
            trivial_zero_cover_bound(H, depth),
            w,
            depth=depth,
            stopped=deadline.stop_label,
            seconds=deadline.elapsed(),
        )
    w = (
        zero_cover_witness(H, points, tc, value=value, max_nodes=max_witness_nodes, deadline=deadline)
        if witness
        else None
    )
    return DimensionResult.exact_value("zero_cover", value, w, depth=depth, seconds=deadline.elapsed())
