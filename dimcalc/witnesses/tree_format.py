"""Format-level tools for witness trees: format validation and a networkx graph for drawing.

Nothing here checks shattering (that is :mod:`dimcalc.witnesses.tree_checks`): these read
the spec §3 tree formats only -- binary mistake trees, multiclass
(io-labelled) trees and Ψ-trees.

Examples
--------
>>> validate_tree_json({"point": 0, "children": [{"hypothesis": 0}, {"hypothesis": 1}]}, "binary")
1
>>> sorted(tree_to_networkx({"point": 0, "children": [{"hypothesis": 0}, {"hypothesis": 1}]}).nodes)
[0, 1, 2]
"""

from __future__ import annotations

from typing import Any

import networkx as nx

from ..classes.hypothesis_class import HypothesisClass
from ..errors import InvalidWitnessError, parameter_error
from ..psi import PsiFamily, psi_family
from ..validation import check_hypothesis_class
from .tree_walk import TreeProblem, canonical_kind, tree_depth, walk

__all__ = ["validate_tree_json", "tree_to_networkx"]


def validate_tree_json(
    obj: Any, kind: str, *, H: HypothesisClass | None = None, family: Any = None, uniform: bool = False
) -> int:
    """Check the *format* of a witness tree and return its depth.

    Checks keys, types, that every internal node has two children, that all
    leaves are at the same depth, that multiclass edge labels differ, and (for
    Ψ-trees with a ``family``) that maps belong to the family.  With ``H``,
    points, labels and hypothesis rows must also be in range.  Shattering is
    *not* checked: use the ``is_*_tree`` checkers for that.

    Parameters
    ----------
    obj : object
        A parsed JSON tree.
    kind : str
        ``"binary"``, ``"multiclass"`` or ``"psi"`` (or a result kind such as
        ``"littlestone"``, ``"psi_littlestone:bin"``).
    H : HypothesisClass, optional
        Class to check ranges against.
    family : optional
        Ψ family for ``kind="psi"`` (needs ``H`` or a :class:`PsiFamily`).
    uniform : bool
        For Ψ-trees: require one map per level.

    Returns
    -------
    int
        The depth of the tree.

    Raises
    ------
    InvalidWitnessError
        With a one-line message naming the node (``root/0/1`` = left child, then
        right child) and the defect.

    Examples
    --------
    >>> validate_tree_json({"point": 0, "children": [{"hypothesis": 0}, {"hypothesis": 1}]}, "binary")
    1
    >>> validate_tree_json({"point": 0, "children": [{"hypothesis": 0}]}, "binary")
    Traceback (most recent call last):
    ...
    dimcalc.errors.InvalidWitnessError: binary tree: at root: 'children' must be a list of two subtrees; got [{'hypothesis': 0}]
    """
    canon = canonical_kind(kind)
    fam = None
    if family is not None:
        if isinstance(family, PsiFamily):
            fam = family
        elif H is not None:
            fam = psi_family(family, H.num_labels)
        else:
            raise parameter_error("family", "validate_tree_json", "a PsiFamily when H is not given", family)
    if H is not None:
        check_hypothesis_class(H, "validate_tree_json")
    try:
        return walk(obj, canon, H, fam, uniform, check_paths=False)
    except TreeProblem as problem:
        raise InvalidWitnessError(f"{canon} tree: {problem.text()}") from None


def tree_to_networkx(tree: Any) -> nx.DiGraph:
    """The tree as a :class:`networkx.DiGraph`, ready to draw.

    Nodes are integers in preorder (root 0).  Node attributes: ``kind``
    (``"internal"`` or ``"leaf"``), ``depth``, ``path`` (tuple of child
    indices from the root), ``point`` / ``labels`` / ``map`` or ``hypothesis``,
    ``label`` (short text for drawing) and ``pos`` (``(x, -depth)`` with leaves
    at ``x = 0, 1, 2, ...``).  Edge attributes: ``label``, the edge label
    (``0``/``1`` for binary and Ψ-trees, ``a``/``b`` for multiclass trees), and
    ``child`` (0 or 1).  Graph attribute ``depth``.

    Examples
    --------
    >>> G = tree_to_networkx({"point": 0, "labels": [2, 0], "children": [{"hypothesis": 2}, {"hypothesis": 0}]})
    >>> sorted(G.nodes), [G.edges[e]["label"] for e in sorted(G.edges)], G.graph["depth"]
    ([0, 1, 2], [2, 0], 1)
    >>> G.nodes[0]["label"], G.nodes[1]["pos"], G.nodes[0]["pos"]
    ('x0', (0.0, -1), (0.5, 0))
    """
    depth = tree_depth(tree)
    G = nx.DiGraph(depth=depth)
    counter = 0
    next_leaf_x = 0.0

    def add(node: dict, d: int, path: tuple[int, ...]) -> tuple[int, float]:
        nonlocal counter, next_leaf_x
        nid = counter
        counter += 1
        if "children" not in node:
            x = next_leaf_x
            next_leaf_x += 1.0
            G.add_node(
                nid,
                kind="leaf",
                depth=d,
                path=path,
                hypothesis=node["hypothesis"],
                label=f"h{node['hypothesis']}",
                pos=(x, -d),
            )
            return nid, x
        attrs: dict[str, Any] = {"kind": "internal", "depth": d, "path": path, "point": node.get("point")}
        text = f"x{node.get('point')}"
        if "labels" in node:
            attrs["labels"] = list(node["labels"])
            edge_labels = list(node["labels"])
        else:
            edge_labels = [0, 1]
        if "map" in node:
            attrs["map"] = list(node["map"])
            text += " φ=" + "".join("*" if v is None else str(v) for v in node["map"])
        attrs["label"] = text
        G.add_node(nid, **attrs)
        xs = []
        for c in (0, 1):
            cid, cx = add(node["children"][c], d + 1, path + (c,))
            G.add_edge(nid, cid, label=edge_labels[c], child=c)
            xs.append(cx)
        x = (xs[0] + xs[1]) / 2
        G.nodes[nid]["pos"] = (x, -d)
        return nid, x

    add(tree, 0, ())
    return G
