"""The JSON formats of BGS §5 trees: complete input-labelled trees and output-labelled trees.

Trees follow BGS Definition 5.1: a complete tree of depth ``b`` has ``2^b - 1``
nodes, **with the root at depth 1** (unlike Littlestone trees, whose root is at
depth 0).  Formats (documented in ``docs/covers.md``):

* input tree: ``{"point": i, "children": [LEFT, RIGHT]}``; a bottom node is
  ``{"point": i}``.  Every bottom node must be at the same depth.  A big tree
  may be given in heap form ``{"heap": [x0, x1, ...]}`` (node ``u`` has
  children ``2u+1`` and ``2u+2``), a dimcalc extension.
* output tree (an element of a 0-cover): ``{"label": l, "children": [LEFT, RIGHT]}``;
  a bottom node is ``{"label": l}``.

Internally a tree is the list of its node labels in heap order.

References
----------
BGS: Bun, Gaboardi, Sivakumar, *Multiclass versus Binary Differentially Private
PAC Learning*, NeurIPS 2021, §5.1 (Defs 5.1-5.2), Lemma 5.11.

Examples
--------
>>> tree_points({"point": 0, "children": [{"point": 1}, {"point": 2}]}, 3)
[0, 1, 2]
>>> tree_json([0, 1, 2])
{'point': 0, 'children': [{'point': 1}, {'point': 2}]}
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from ..errors import InvalidWitnessError

__all__ = [
    "MAX_DEPTH",
    "NESTED_TREE_NODES",
    "heap_points",
    "tree_points",
    "tree_json",
    "depth_of",
    "input_tree_depth",
    "input_tree_from_witness_tree",
]

#: Deepest input tree handled: a witness holds the tree, which has ``2^n - 1`` nodes.
MAX_DEPTH = 22

#: Input trees with more nodes than this are written in heap form ``{"heap": [...]}`` in witnesses.
NESTED_TREE_NODES = (1 << 16) - 1


#: Keys a node may carry: input trees (``point``; Littlestone-type witness trees also ``labels`` / ``map``,
#: with leaves ``{"hypothesis": j}``) and output trees (``label``).
_NODE_KEYS = {"point": frozenset({"point", "children", "labels", "map"}), "label": frozenset({"label", "children"})}


def heap_points(tree: Any, n_points: int | None, key: str = "point", what: str = "input tree") -> list[int]:
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
                    f"{what}: {where}: a node must be an object with a {key!r} key; got {short_json(node)}"
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
                shown = short_json(value)
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


def tree_points(tree: Any, n_points: int | None, what: str = "input tree") -> list[int]:
    """The points of an input tree in heap order; the tree is nested or in heap form ``{"heap": [x0, x1, ...]}``.

    Heap form (a dimcalc extension for big trees): node ``u`` has children
    ``2u+1`` and ``2u+2``; a complete tree of depth ``d`` has ``2^d - 1`` entries.
    """
    if not (isinstance(tree, dict) and "heap" in tree):
        return heap_points(tree, n_points, what=what)
    extra = sorted(str(k) for k in tree if k != "heap")
    if extra:
        raise InvalidWitnessError(f'{what}: unknown key {extra[0]!r}; a tree in heap form is {{"heap": [points]}}')
    heap = tree["heap"]
    if not isinstance(heap, list) or not heap or (len(heap) + 1) & len(heap):
        size = len(heap) if isinstance(heap, list) else short_json(heap)
        raise InvalidWitnessError(f"{what}: 'heap' must list the 2^d - 1 points of a complete tree; got {size} entries")
    if depth_of(len(heap)) > MAX_DEPTH:
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
            raise InvalidWitnessError(f"{what}: heap entry {u}: point {short_json(v)} must be {bound}")
    return list(heap)


def tree_json(points: Sequence[int]) -> dict:
    """An input tree for a witness: nested when small, heap form when over :data:`NESTED_TREE_NODES` nodes."""
    if len(points) > NESTED_TREE_NODES:
        return {"heap": [int(x) for x in points]}
    return _tree_from_heap(points)


def short_json(value: Any) -> str:
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def depth_of(size: int) -> int:
    return (size + 1).bit_length() - 1


def input_tree_depth(tree: Any) -> int:
    """Depth of a complete input-labelled tree, root at depth 1 (BGS Def 5.1); 0 for ``None``.

    >>> input_tree_depth({"point": 0, "children": [{"point": 1}, {"point": 2}]})
    2
    """
    if tree is None:
        return 0
    return depth_of(len(tree_points(tree, None)))


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
