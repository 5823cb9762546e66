"""Tree nodes of the witnesses (spec §3): one builder per family, and the depth-one tree.

Each builder maps a split's column index ``x`` back to its original point
``points[x]`` and returns ``{"point": ..., ["labels" | "map"]: ..., "children": [T0, T1]}``
(BGS Defs 2.10-2.13, 4.1-4.4; Littlestone 1987 for binary mistake trees).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from ..classes.hypothesis_class import HypothesisClass

# Each builder maps a split's column index ``x`` back to its original point ``points[x]``.


def binary_node(points: Sequence[int]) -> Callable[[int, dict, dict], dict]:
    def node(desc: int, T0: dict, T1: dict) -> dict:
        return {"point": points[desc], "children": [T0, T1]}

    return node


def multiclass_node(points: Sequence[int]) -> Callable[[tuple, dict, dict], dict]:
    def node(desc: tuple, T0: dict, T1: dict) -> dict:
        x, a, b = desc
        return {"point": points[x], "labels": [a, b], "children": [T0, T1]}

    return node


def pair_map_node(num_labels: int, points: Sequence[int]) -> Callable[[tuple, dict, dict], dict]:
    def node(desc: tuple, T0: dict, T1: dict) -> dict:
        x, a, b = desc
        phi: list[int | None] = [None] * num_labels
        phi[a], phi[b] = 0, 1
        return {"point": points[x], "map": phi, "children": [T0, T1]}

    return node


def bin_node(num_labels: int, n_bits: int, points: Sequence[int]) -> Callable[[int, dict, dict], dict]:
    def node(desc: int, T0: dict, T1: dict) -> dict:
        x, bit = divmod(desc, n_bits)
        return {"point": points[x], "map": [(lab >> bit) & 1 for lab in range(num_labels)], "children": [T0, T1]}

    return node


def bipartition_node(num_labels: int, points: Sequence[int]) -> Callable[[tuple, dict, dict], dict]:
    def node(desc: tuple, T0: dict, T1: dict) -> dict:
        x, subset, present = desc  # bit i of subset: present[i + 1] is on side 1
        phi: list[int | None] = [None] * num_labels
        phi[present[0]] = 0
        for i, lab in enumerate(present[1:]):
            phi[lab] = (subset >> i) & 1
        return {"point": points[x], "map": phi, "children": [T0, T1]}

    return node


def user_node(maps: Sequence[tuple], points: Sequence[int]) -> Callable[[tuple, dict, dict], dict]:
    def node(desc: tuple, T0: dict, T1: dict) -> dict:
        x, j = desc
        return {"point": points[x], "map": list(maps[j]), "children": [T0, T1]}

    return node


def depth_one_tree(H: HypothesisClass, family: str, maps: Sequence[tuple] | None) -> dict | None:
    """A shattered tree of depth 1 built from the first two distinct rows, when the family allows one.

    The rows differ at some point ``x`` (labels ``a != b``); a root at ``x`` whose
    split sends ``a`` and ``b`` to different sides, with the two rows as leaves,
    is shattered (each path is realised by its leaf's row) and uniform.  Costs
    one pass over one pair of rows, so a search stopped at once still reports
    the lower bound 1.
    """
    if H.n_distinct < 2:
        return None
    r0, r1 = H.distinct_row(0), H.distinct_row(1)
    x = int(np.flatnonzero(r0 != r1)[0])
    a, b = int(r0[x]), int(r1[x])
    leaves = [{"hypothesis": H.row_of(0)}, {"hypothesis": H.row_of(1)}]
    L = H.num_labels
    if family == "LD":
        return {"point": x, "children": leaves if a == 0 else leaves[::-1]}
    if family == "MLD":
        return {"point": x, "labels": [a, b], "children": leaves}
    phi: list[int | None]
    if family in ("N", "B"):
        phi = [None] * L
        phi[a], phi[b] = 0, 1
    elif family == "bin":
        bit = ((a ^ b) & -(a ^ b)).bit_length() - 1
        phi = [(lab >> bit) & 1 for lab in range(L)]
    else:
        usable = [m for m in (maps or ()) if m[a] is not None and m[b] is not None and m[a] != m[b]]
        if not usable:
            return None
        phi = list(usable[0])
    return {"point": x, "map": phi, "children": leaves if phi[a] == 0 else leaves[::-1]}


def cut_tree(tree: dict, depth: int) -> dict:
    """A complete tree (every path at least ``depth`` deep) cut to ``depth``: a node at depth 0 becomes its
    leftmost leaf, which realises the path down to it, so a shattered tree stays shattered.

    >>> cut_tree({"point": 0, "children": [{"hypothesis": 3}, {"hypothesis": 5}]}, 0)
    {'hypothesis': 3}
    """
    if depth == 0:
        while "children" in tree:
            tree = tree["children"][0]
        return tree
    return {**tree, "children": [cut_tree(c, depth - 1) for c in tree["children"]]}
