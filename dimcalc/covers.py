"""0-cover numbers of a finite class on input-labelled trees (BGS §5, after RST15).

Trees here follow BGS Definition 5.1: a *complete input-labelled tree* of depth
``b`` has ``2^b - 1`` nodes, each labelled by a domain point, **with the root at
depth 1** (unlike Littlestone trees, whose root is at depth 0).  A complete
*output-labelled* tree has the same shape with labels in ``[k] = {0..k}``.

A root-to-leaf path ``A`` of ``z`` is named by its ``b - 1`` turns (0 = left,
1 = right); the path ``B`` of an output tree ``v`` *corresponding* to ``A`` takes
the same turns (Def 5.2).  ``V`` is a **0-cover** of ``H`` on ``z`` (Def 5.4) when
for every ``f in H`` and every path ``A`` some ``v in V`` carries the label
sequence ``f(A)`` on its corresponding path.  ``N(0, H, z)`` is the size of a
smallest 0-cover and ``N(0, H, n) = sup_z N(0, H, z)`` over trees of depth ``n``
(Def 5.5, with ``N(0, H, 0) = 1``).

JSON formats (documented in ``docs/covers.md``)
-----------------------------------------------
* input tree: ``{"point": i, "children": [LEFT, RIGHT]}``; a bottom node is
  ``{"point": i}``.  Every bottom node must be at the same depth.
* output tree (cover element): ``{"label": l, "children": [LEFT, RIGHT]}``; a
  bottom node is ``{"label": l}``.
* fooling pair: ``{"hypothesis": row, "path": [t1, ..., t_{b-1}]}`` (a file row
  and the turns of a path).  Pairs are *fooling* when no single output tree can
  serve two of them: for any two, the hypotheses differ somewhere on the
  common part of their two paths.  ``L`` fooling pairs prove ``N(0,H,z) >= L``.

Witness of :func:`zero_cover_number` / :func:`zero_cover_function` (kinds
``"zero_cover"`` and ``"zero_cover_function"``)::

    {"tree": INPUT_TREE, "cover": [OUTPUT_TREE, ...], "fooling_set": [PAIR, ...]}

with ``len(cover) == len(fooling_set)``: the cover proves ``<=``, the fooling set
proves ``>=``, both checked path by path by :func:`is_zero_cover` and
:func:`is_zero_cover_fooling_set`.

The exact formula (proof)
-------------------------
For a class ``G`` and a tree ``z`` with root point ``x`` and subtrees
``zL, zR`` write ``G^i = {f in G : f(x) = i}``.  Then

    N(0, G, z) = sum over labels i with G^i non-empty of max(N(0, G^i, zL), N(0, G^i, zR)),

with ``N(0, G, empty tree) = 1`` for non-empty ``G`` (so a bottom node counts
the labels ``G`` puts on its point).  *Lower bound:* in any cover the trees
whose root carries ``i`` must, cut below the root, cover ``G^i`` on ``zL`` (every
path through ``zL`` and every ``f in G^i`` needs a tree whose root label is
``f(x) = i``) and likewise on ``zR``; trees with different root labels are
different trees.  *Upper bound:* pad the smaller of two minimum covers of ``G^i``
on ``zL`` and ``zR`` by repetition, pair them up and put root label ``i`` above
each pair (the stitching of the proof of BGS Thm 5.6).  The same induction
gives a fooling set of the same size (take, for each ``i``, the fooling set of
the larger side), so the value is certified from both sides.

For the function ``N(0, H, n)`` the sup over trees is taken by a search over
*families of cells*: the cells reaching a node are the subclasses of ``H``
sharing a label sequence on the path so far; a node's point ``x`` splits every
cell by label and the resulting cells are sent to the two children in any of
the ways that put each cell on one side.  ``W(F, m) = max_z sum_{G in F} N(0, G, z)``
over trees of depth ``m`` obeys ``W(F, m) = max_x max_{(P, Q)} W(P, m-1) + W(Q, m-1)``
(the two subtrees are chosen independently), ``W(F, 0) = |F|``.  Branches are
pruned with the proven bound ``W(F, m) <= sum_G R(G, m)`` where
``R(G, m) = max_x sum_i R(G^i, m-1)`` lets every cell choose its own subtree;
for binary classes ``R`` is exact (a node never receives two cells).

References
----------
BGS: Bun, Gaboardi, Sivakumar, *Multiclass versus Binary Differentially Private
PAC Learning*, NeurIPS 2021, §5.1 (Defs 5.1-5.5, Thm 5.6), §5.2 (Lemma 5.11).
RST15: Rakhlin, Sridharan, Tewari, *Sequential complexities and uniform
martingale laws of large numbers*, PTRF 2015.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Sequence
from itertools import product
from typing import Any

import numpy as np

from ._budget import Deadline, check_time_limit
from .errors import InvalidWitnessError, parameter_error
from .hypothesis_class import HypothesisClass
from .results import DimensionResult, register_verifier

__all__ = [
    "zero_cover_number",
    "zero_cover_function",
    "is_zero_cover",
    "is_zero_cover_fooling_set",
    "input_tree_from_witness_tree",
    "input_tree_depth",
    "sauer_zero_cover_bound",
    "sauer_zero_cover_exponential_bound",
    "trivial_zero_cover_bound",
]


#: Deepest input tree handled: a witness holds the tree, which has ``2^n - 1`` nodes.
MAX_DEPTH = 22

#: Input trees with more nodes than this are written in heap form ``{"heap": [...]}`` in witnesses.
NESTED_TREE_NODES = (1 << 16) - 1

#: Share of ``time_limit`` the search of :func:`zero_cover_function` may use; the rest is for the witness.
_SEARCH_SHARE = 0.8

#: Default cap on the size of a witness's cover (output-tree nodes in all): a bigger cover is not built,
#: and the fooling set alone certifies the value (its upper side is proven by the recursion).
DEFAULT_MAX_WITNESS_NODES = 2_000_000


# ---------------------------------------------------------------------------------------------- tree parsing
class _Stop(Exception):
    """Raised inside a search when the deadline has passed."""


def _check_class(H: Any, owner: str) -> HypothesisClass:
    if not isinstance(H, HypothesisClass):
        raise parameter_error("H", owner, "a HypothesisClass", type(H).__name__)
    return H


#: Keys a node may carry: input trees (``point``; Littlestone-type witness trees also ``labels`` / ``map``,
#: with leaves ``{"hypothesis": j}``) and output trees (``label``).
_NODE_KEYS = {"point": frozenset({"point", "children", "labels", "map"}), "label": frozenset({"label", "children"})}


def _heap_points(tree: Any, n_points: int | None, key: str = "point", what: str = "input tree") -> list[int]:
    """Validate a complete tree and return its node labels in heap order (root 0, children 2u+1, 2u+2).

    ``key`` is ``"point"`` for input trees and ``"label"`` for output trees;
    values must be integers in ``range(n_points)`` when ``n_points`` is given.
    A Littlestone-type node whose two children are leaves ``{"hypothesis": j}``
    counts as a bottom node (see :func:`input_tree_from_witness_tree`).  A node
    with a key it cannot have is refused (a misspelt ``"chidren"`` would
    otherwise silently make it a bottom node).
    """
    allowed = _NODE_KEYS[key]
    levels: list[list[Any]] = [[tree]]
    where = "root"
    while True:
        nodes = levels[-1]
        kids: list[Any] = []
        bottoms = 0
        for pos, node in enumerate(nodes):
            where = f"depth {len(levels)}, node {pos}"
            if not isinstance(node, dict) or key not in node:
                raise InvalidWitnessError(
                    f"{what}: {where}: a node must be an object with a {key!r} key; got {_short_json(node)}"
                )
            extra = sorted(str(k) for k in node if k not in allowed)
            if extra:
                raise InvalidWitnessError(
                    f"{what}: {where}: unknown key {extra[0]!r}; a node has the keys "
                    f"{', '.join(repr(k) for k in sorted(allowed))}"
                )
            value = node[key]
            if (
                isinstance(value, bool)
                or not isinstance(value, int)
                or value < 0
                or (n_points is not None and value >= n_points)
            ):
                shown = _short_json(value)
                if n_points is None:
                    raise InvalidWitnessError(f"{what}: {where}: {key} {shown} must be a non-negative integer")
                if n_points == 0:
                    raise InvalidWitnessError(
                        f"{what}: {where}: {key} {shown} is out of range: the class has "
                        f"no {'points' if key == 'point' else 'labels'}"
                    )
                raise InvalidWitnessError(f"{what}: {where}: {key} {shown} must be an integer in 0..{n_points - 1}")
            children = node.get("children")
            if children is None or (
                isinstance(children, list)
                and len(children) == 2
                and all(isinstance(c, dict) and "hypothesis" in c for c in children)
            ):
                if children is not None and any(set(c) != {"hypothesis"} for c in children):
                    raise InvalidWitnessError(f'{what}: {where}: a leaf must be exactly {{"hypothesis": j}}')
                bottoms += 1
                continue
            if not isinstance(children, list) or len(children) != 2:
                raise InvalidWitnessError(f"{what}: {where}: 'children' must be a list of two nodes")
            kids.extend(children)
        if bottoms and kids:
            raise InvalidWitnessError(
                f"{what}: not complete: depth {len(levels)} has both bottom and inner "
                "nodes; every bottom node must be at the same depth"
            )
        if not kids:
            break
        levels.append(kids)
        if len(levels) > MAX_DEPTH:
            raise InvalidWitnessError(
                f"{what}: deeper than {MAX_DEPTH} levels; dimcalc handles complete trees of depth <= {MAX_DEPTH}"
            )
    return [node[key] for level in levels for node in level]


def _tree_points(tree: Any, n_points: int | None, what: str = "input tree") -> list[int]:
    """The points of an input tree in heap order; the tree is nested or in heap form ``{"heap": [x0, x1, ...]}``.

    Heap form (a dimcalc extension for big trees): node ``u`` has children
    ``2u+1`` and ``2u+2``; a complete tree of depth ``d`` has ``2^d - 1`` entries.
    """
    if not (isinstance(tree, dict) and "heap" in tree):
        return _heap_points(tree, n_points, what=what)
    extra = sorted(str(k) for k in tree if k != "heap")
    if extra:
        raise InvalidWitnessError(f'{what}: unknown key {extra[0]!r}; a tree in heap form is {{"heap": [points]}}')
    heap = tree["heap"]
    if not isinstance(heap, list) or not heap or (len(heap) + 1) & len(heap):
        size = len(heap) if isinstance(heap, list) else _short_json(heap)
        raise InvalidWitnessError(f"{what}: 'heap' must list the 2^d - 1 points of a complete tree; got {size} entries")
    if _depth_of(len(heap)) > MAX_DEPTH:
        raise InvalidWitnessError(
            f"{what}: deeper than {MAX_DEPTH} levels; dimcalc handles complete trees of depth <= {MAX_DEPTH}"
        )
    for u, v in enumerate(heap):
        if type(v) is not int or v < 0 or (n_points is not None and v >= n_points):
            bound = (
                "a non-negative integer"
                if n_points is None
                else (f"an integer in 0..{n_points - 1}" if n_points else "a point, but the class has no points")
            )
            raise InvalidWitnessError(f"{what}: heap entry {u}: point {_short_json(v)} must be {bound}")
    return list(heap)


def _tree_json(points: Sequence[int]) -> dict:
    """An input tree for a witness: nested when small, heap form when over :data:`NESTED_TREE_NODES` nodes."""
    if len(points) > NESTED_TREE_NODES:
        return {"heap": [int(x) for x in points]}
    return _tree_from_heap(points)


def _short_json(value: Any) -> str:
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _depth_of(size: int) -> int:
    return (size + 1).bit_length() - 1


def input_tree_depth(tree: Any) -> int:
    """Depth of a complete input-labelled tree, root at depth 1 (BGS Def 5.1); 0 for ``None``.

    >>> input_tree_depth({"point": 0, "children": [{"point": 1}, {"point": 2}]})
    2
    """
    if tree is None:
        return 0
    return _depth_of(len(_tree_points(tree, None)))


def _tree_from_heap(values: Sequence[int], key: str = "point", u: int = 0) -> dict:
    if 2 * u + 1 >= len(values):
        return {key: int(values[u])}
    return {
        key: int(values[u]),
        "children": [_tree_from_heap(values, key, 2 * u + 1), _tree_from_heap(values, key, 2 * u + 2)],
    }


def input_tree_from_witness_tree(tree: Any) -> dict | None:
    """The input-labelled tree of a Littlestone-type witness tree (BGS Lemma 5.11's construction).

    Removes the leaves ``{"hypothesis": j}`` and the edge labels / collapsing
    maps; a mistake (or Ψ-) tree of depth ``d`` (root at depth 0) becomes an
    input tree of depth ``d`` (root at depth 1).  A depth-0 witness (a single
    leaf) gives ``None``, the empty tree.

    >>> input_tree_from_witness_tree({"point": 3, "children": [{"hypothesis": 0}, {"hypothesis": 1}]})
    {'point': 3}
    """
    if isinstance(tree, dict) and "hypothesis" in tree and "point" not in tree:
        return None
    if not isinstance(tree, dict) or "point" not in tree:
        raise InvalidWitnessError(f"witness tree: expected a node with a 'point' key; got {str(tree)[:40]}")
    children = tree.get("children")
    if not isinstance(children, list) or len(children) != 2:
        raise InvalidWitnessError("witness tree: an inner node needs 'children': [T0, T1]")
    kids = [input_tree_from_witness_tree(c) for c in children]
    if kids[0] is None and kids[1] is None:
        return {"point": tree["point"]}
    if kids[0] is None or kids[1] is None:
        raise InvalidWitnessError("witness tree: not complete (leaves at different depths)")
    return {"point": tree["point"], "children": kids}


# ---------------------------------------------------------------------------------------------- exact N(0,H,z)
def _label_splits(H: HypothesisClass) -> list[list[tuple[int, int]]]:
    """For each point, the (label, mask) pairs with a non-empty mask."""
    return [[(lab, m) for lab, m in enumerate(H.label_masks[i]) if m] for i in range(H.n_points)]


class _TreeCover:
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
        self.splits = _label_splits(H)
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
        return _depth_of(self.size) - (u + 1).bit_length() + 1

    def count(self, u: int, mask: int) -> int:
        if u >= self.size or not mask & (mask - 1):
            return 1
        if self.constant[u]:
            return sum(1 for _ in self.parts(u, mask))
        key = (u, mask)
        got = self.memo.get(key)
        if got is None:
            if self.deadline is not None and self.deadline.tick(64):
                raise _Stop
            left, right = 2 * u + 1, 2 * u + 2
            got = sum(max(self.count(left, sub), self.count(right, sub)) for _, sub in self.parts(u, mask))
            self.memo[key] = got
        return got

    def cover(self, u: int, mask: int) -> list[dict | None]:
        """A minimum cover of the cell on the subtree at ``u`` (a list of output trees)."""
        if u >= self.size:
            return [None]
        if self.deadline is not None and self.deadline.tick(64):
            raise _Stop
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
    depth = _depth_of(size)
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


def _witness_for(
    H: HypothesisClass,
    points: Sequence[int] | None,
    tc: _TreeCover | None = None,
    *,
    value: int | None = None,
    max_nodes: int | None = None,
    deadline: Deadline | None = None,
) -> dict:
    """The witness ``{"tree", "cover", "fooling_set"}`` of ``N(0, H, z)`` for the tree ``points`` (heap order).

    The fooling set (``N`` pairs of ``n - 1`` turns) is always built.  The
    cover has ``N`` output trees of ``2^n - 1`` nodes: it is built when that is
    at most ``max_nodes`` and ``deadline`` allows, else ``"cover": None`` with
    ``"cover_omitted"`` saying why -- the fooling set then certifies the value
    alone (its other side is the recursion's, proven in the module docstring).
    """
    if not points:
        return {"tree": None, "cover": [None], "fooling_set": [{"hypothesis": H.row_of(0), "path": []}]}
    if tc is None:
        tc = _TreeCover(H, points, deadline)
    if value is None:
        value = tc.count(0, H.full_mask)
    fooling = [{"hypothesis": H.row_of(j), "path": list(path)} for j, path in tc.fooling(0, H.full_mask)]
    out: dict[str, Any] = {"tree": _tree_json(points), "cover": None, "fooling_set": fooling}
    nodes = value * len(points)
    if max_nodes is not None and nodes > max_nodes:
        out["cover_omitted"] = (
            f"{value} output trees of {len(points)} nodes = {nodes} nodes, over the witness "
            f"limit of {max_nodes}; the fooling set certifies the value"
        )
        return out
    tc.deadline = deadline
    try:
        out["cover"] = tc.cover(0, H.full_mask)
    except _Stop:
        out["cover_omitted"] = (
            "the time limit was reached while building the cover; the fooling set certifies the value"
        )
    return out


def _fallback_witness(H: HypothesisClass, points: Sequence[int]) -> dict:
    """A witness of ``N >= 1``: the tree and one (hypothesis, path) pair."""
    return {
        "tree": _tree_json(points),
        "cover": None,
        "fooling_set": [{"hypothesis": H.row_of(0), "path": [0] * (_depth_of(len(points)) - 1)}],
        "cover_omitted": "the time limit was reached before the tree's count",
    }


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
    >>> is_zero_cover(H, z, r.witness["cover"])
    True
    """
    H = _check_class(H, "zero_cover_number")
    time_limit = check_time_limit(time_limit, "zero_cover_number")
    if tree is None:
        w = _witness_for(H, None) if witness else None
        return DimensionResult.exact_value("zero_cover", 1, w, depth=0)
    deadline = Deadline(time_limit)
    points = _tree_points(tree, H.n_points)
    depth = _depth_of(len(points))
    tc = _TreeCover(H, points, deadline)
    try:
        value = tc.count(0, H.full_mask)
    except _Stop:
        w = _fallback_witness(H, points) if witness else None
        return DimensionResult.bounds(
            "zero_cover",
            1,
            trivial_zero_cover_bound(H, depth),
            w,
            depth=depth,
            stopped=deadline.stop_label,
            seconds=deadline.elapsed(),
        )
    w = _witness_for(H, points, tc, value=value, max_nodes=max_witness_nodes, deadline=deadline) if witness else None
    return DimensionResult.exact_value("zero_cover", value, w, depth=depth, seconds=deadline.elapsed())


# ---------------------------------------------------------------------------------------------- checkers
def _paths(depth: int) -> Iterator[tuple[list[int], tuple[int, ...]]]:
    """Every root-to-leaf path of a complete tree of ``depth``: (heap node indices, turns)."""
    for turns in product((0, 1), repeat=max(depth - 1, 0)):
        u, nodes = 0, [0]
        for t in turns:
            u = 2 * u + 1 + t
            nodes.append(u)
        yield nodes, turns


def is_zero_cover(H: HypothesisClass, tree: Any, cover: Sequence[Any]) -> bool:
    """True when ``cover`` is a 0-cover of ``H`` on ``tree``, checked path by path (BGS Def 5.4).

    For every root-to-leaf path ``A`` of the input tree and every hypothesis
    ``f`` some output tree of ``cover`` must carry ``f(A)`` on the path taking
    the same turns (Def 5.2).  Output trees must be complete, of the input
    tree's depth, with labels in ``0..k``; anything else is not a cover.

    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 1], [1, 0]])
    >>> is_zero_cover(H, {"point": 0}, [{"label": 0}, {"label": 1}])
    True
    >>> is_zero_cover(H, {"point": 0}, [{"label": 0}])
    False
    """
    H = _check_class(H, "is_zero_cover")
    if tree is None:
        return isinstance(cover, (list, tuple)) and len(cover) >= 1
    points = _tree_points(tree, H.n_points)
    depth = _depth_of(len(points))
    labelled = []
    try:
        for v in cover:
            labels = _heap_points(v, H.num_labels, key="label", what="output tree")
            if len(labels) != len(points):
                return False
            labelled.append(labels)
    except (InvalidWitnessError, TypeError):
        return False
    if not labelled:
        return False
    rows = H.distinct_rows.astype(np.int64)
    trees = np.asarray(labelled, dtype=np.int64)
    base = H.num_labels
    exact_codes = depth * math.log2(max(base, 2)) < 62  # label sequences fit in one int64 code
    weights = base ** np.arange(depth, dtype=np.int64)
    for nodes, _ in _paths(depth):
        cols = [points[u] for u in nodes]
        if exact_codes:
            shown = trees[:, nodes] @ weights
            need = rows[:, cols] @ weights
            if not np.isin(need, shown).all():
                return False
        else:
            shown_set = set(map(tuple, trees[:, nodes].tolist()))
            if any(t not in shown_set for t in map(tuple, rows[:, cols].tolist())):
                return False
    return True


def is_zero_cover_fooling_set(H: HypothesisClass, tree: Any, pairs: Sequence[Any]) -> bool:
    """True when no output tree can serve two of ``pairs`` (each pair ``{"hypothesis": row, "path": turns}``).

    One output tree serves ``(f1, A1)`` and ``(f2, A2)`` exactly when ``f1`` and
    ``f2`` agree on every node the two paths share (the corresponding paths of
    one output tree share those nodes and so their labels).  So pairwise
    disagreement on the shared part means every 0-cover has at least
    ``len(pairs)`` trees.  Checked in linear time: at each node the pairs
    passing it are grouped by their label there; a group must not split over
    both children, and at a bottom node a group must be a single pair.

    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 1], [1, 0]])
    >>> is_zero_cover_fooling_set(H, {"point": 0}, [{"hypothesis": 0, "path": []}, {"hypothesis": 1, "path": []}])
    True
    """
    H = _check_class(H, "is_zero_cover_fooling_set")
    if tree is None:
        return len(pairs) <= 1
    points = _tree_points(tree, H.n_points)
    depth = _depth_of(len(points))
    parsed = []
    for p in pairs:
        if not isinstance(p, dict) or "hypothesis" not in p or "path" not in p:
            return False
        row, path = p["hypothesis"], p["path"]
        if isinstance(row, bool) or not isinstance(row, int) or not 0 <= row < H.n_hypotheses:
            return False
        if (
            not isinstance(path, (list, tuple))
            or len(path) != depth - 1
            or any(t not in (0, 1) or isinstance(t, bool) for t in path)
        ):
            return False
        parsed.append((row, tuple(path)))
    table = H.table

    def ok(u: int, level: int, group: list[tuple[int, tuple[int, ...]]]) -> bool:
        by_label: dict[int, list] = {}
        for row, path in group:
            by_label.setdefault(int(table[row, points[u]]), []).append((row, path))
        for members in by_label.values():
            if level == depth - 1:
                if len(members) > 1:
                    return False
                continue
            turns = {path[level] for _, path in members}
            if len(turns) > 1:
                return False
            if len(members) > 1 and not ok(2 * u + 1 + turns.pop(), level + 1, members):
                return False
        return True

    return ok(0, 0, parsed) if parsed else True


def _verify_zero_cover(H: HypothesisClass, witness: Any) -> int | None:
    if not isinstance(witness, dict) or not {"tree", "cover", "fooling_set"} <= set(witness):
        return None
    try:
        tree, cover, fooling = witness["tree"], witness["cover"], witness["fooling_set"]
        if cover is None:  # a cover too big to keep: the fooling set certifies the lower bound on its own
            return len(fooling) if isinstance(fooling, list) and is_zero_cover_fooling_set(H, tree, fooling) else None
        if len(cover) != len(fooling):
            return None
        if is_zero_cover(H, tree, cover) and is_zero_cover_fooling_set(H, tree, fooling):
            return len(cover)
    except (InvalidWitnessError, TypeError, KeyError):
        return None
    return None


register_verifier("zero_cover", _verify_zero_cover)
register_verifier("zero_cover_function", _verify_zero_cover)


# ---------------------------------------------------------------------------------------------- bounds
def sauer_zero_cover_bound(n: int, d: int, k: int) -> int:
    """BGS Thm 5.6 (4): ``N(0, H, n) <= sum_{i<=d} C(n, i) k^i`` for ``n >= d`` (``d`` = MLD, labels ``0..k``).

    For ``n < d`` the theorem gives ``(k+1)^n`` instead, which this function
    returns then (``sum_{i<=n} C(n,i) k^i = (k+1)^n``).  Explicit constants.

    >>> sauer_zero_cover_bound(3, 1, 1), sauer_zero_cover_bound(2, 5, 2)
    (4, 9)
    """
    for name, value in (("n", n), ("d", d), ("k", k)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise parameter_error(name, "sauer_zero_cover_bound", "a non-negative integer", value)
    return sum(math.comb(n, i) * k**i for i in range(min(d, n) + 1))


def sauer_zero_cover_exponential_bound(n: int, d: int, k: int) -> float:
    """BGS Thm 5.6 (5): ``(e k n / d)^d`` for ``n >= d > 0`` (an upper bound on the sum of (4)).

    >>> round(sauer_zero_cover_exponential_bound(4, 2, 1), 3)
    29.556
    """
    if isinstance(d, bool) or not isinstance(d, int) or d <= 0:
        raise parameter_error("d", "sauer_zero_cover_exponential_bound", "a positive integer", d)
    if isinstance(n, bool) or not isinstance(n, int) or n < d:
        raise parameter_error("n", "sauer_zero_cover_exponential_bound", f"an integer >= d = {d}", n)
    return (math.e * k * n / d) ** d


def trivial_zero_cover_bound(H: HypothesisClass, n: int) -> int:
    """``min(|H|, (k+1)^n)``: one tree per hypothesis, or one per label sequence (BGS proof of Thm 5.6)."""
    return min(H.n_distinct, H.num_labels**n)


# ---------------------------------------------------------------------------------------------- N(0,H,n)
class _FunctionSearch:
    """Branch and bound for W(F, m) = max_z sum_{G in F} N(0, G, z) (see the module docstring)."""

    def __init__(self, H: HypothesisClass, deadline: Deadline) -> None:
        self.H = H
        self.splits = _label_splits(H)
        self.deadline = deadline
        self.relaxed: dict[tuple[int, int], int] = {}
        self.exact: dict[tuple[tuple[int, ...], int], tuple[int, Any]] = {}
        self.nodes = 0

    def tick(self) -> None:
        self.nodes += 1
        if self.deadline.tick(64):
            raise _Stop

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
    splits = _label_splits(H)
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
    >>> sauer_zero_cover_bound(2, 2, 1)   # Thm 5.6 with d = MLD = 2: tight here
    4
    """
    H = _check_class(H, "zero_cover_function")
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise parameter_error("n", "zero_cover_function", "a non-negative integer (tree depth)", n)
    if n > MAX_DEPTH:
        raise parameter_error(
            "n", "zero_cover_function", f"at most {MAX_DEPTH} (a witness holds a tree of 2^n - 1 nodes)", n
        )
    time_limit = check_time_limit(time_limit, "zero_cover_function")
    if n == 0:
        return DimensionResult.exact_value("zero_cover_function", 1, _witness_for(H, None), method="convention")
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
    tc = _TreeCover(H, greedy, deadline)
    try:
        lower = tc.count(0, H.full_mask)
    except _Stop:
        return DimensionResult.bounds(
            "zero_cover_function",
            1,
            trivial,
            _fallback_witness(H, greedy),
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
            best_tc = _TreeCover(H, points, search_deadline)
            check = best_tc.count(0, H.full_mask)
            if check != value:  # pragma: no cover - the recursion and the search must agree
                raise AssertionError(f"zero_cover_function: search value {value} but tree gives {check}")
            best_points, lower, upper, tc = points, value, value, best_tc
        method = "branch and bound" if not H.is_binary else "exact recursion (binary: R is exact)"
        stopped: str | bool = False
    except _Stop:
        upper = min(trivial, search.relaxed.get((H.full_mask, n), trivial))
        method, stopped = "stopped by time limit", search_deadline.stop_label
    witness = _witness_for(H, best_points, tc, value=lower, max_nodes=max_witness_nodes, deadline=deadline)
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
