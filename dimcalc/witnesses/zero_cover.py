"""0-covers on input-labelled trees and their fooling sets: definition-level checkers and the witness object.

``V`` is a **0-cover** of ``H`` on an input tree ``z`` (BGS Def 5.4) when for
every ``f in H`` and every root-to-leaf path ``A`` of ``z`` some output tree
``v in V`` carries the label sequence ``f(A)`` on the path of ``v`` taking the
same turns (Def 5.2).  A *fooling set* is a list of pairs
``{"hypothesis": row, "path": [t1, ..., t_{b-1}]}`` no two of which one output
tree can serve; ``L`` fooling pairs prove ``N(0, H, z) >= L``.

The witness of :func:`dimcalc.covers.zero_cover_number` and
:func:`dimcalc.covers.zero_cover_function` (kinds ``"zero_cover"`` and
``"zero_cover_function"``) is :class:`ZeroCover`::

    {"tree": INPUT_TREE, "cover": [OUTPUT_TREE, ...], "fooling_set": [PAIR, ...]}

with ``len(cover) == len(fooling_set)``: the cover proves ``<=``, the fooling
set proves ``>=``, both checked path by path.  A cover too big to keep is
``null`` (with ``"cover_omitted"`` saying why); the fooling set then certifies
the value alone.

References
----------
BGS: Bun, Gaboardi, Sivakumar, NeurIPS 2021, §5.1 (Defs 5.1-5.5, Thm 5.6).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from itertools import product
from typing import Any

import numpy as np

from ..classes.hypothesis_class import HypothesisClass
from ..errors import InvalidWitnessError
from ..validation import check_hypothesis_class
from .base import DictWitness
from .cover_trees import depth_of, heap_points, tree_points

__all__ = ["is_zero_cover", "is_zero_cover_fooling_set", "ZeroCover"]


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

    Parameters
    ----------
    H : HypothesisClass
        The class.
    tree : dict or None
        The input tree (spec §3 nested ``{"point", "left", "right"}``); ``None``
        for the empty tree of depth 0.
    cover : sequence of dict
        The output trees (nested ``{"label", "left", "right"}``).

    Returns
    -------
    bool
        Whether every (path, hypothesis) is served by some output tree.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 1], [1, 0]])
    >>> is_zero_cover(H, {"point": 0}, [{"label": 0}, {"label": 1}])
    True
    >>> is_zero_cover(H, {"point": 0}, [{"label": 0}])
    False
    """
    H = check_hypothesis_class(H, "is_zero_cover")
    if tree is None:
        return isinstance(cover, (list, tuple)) and len(cover) >= 1
    points = tree_points(tree, H.n_points)
    depth = depth_of(len(points))
    labelled = []
    try:
        for v in cover:
            labels = heap_points(v, H.num_labels, key="label", what="output tree")
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

    Parameters
    ----------
    H : HypothesisClass
        The class.
    tree : dict or None
        The input tree (spec §3); ``None`` for the empty tree.
    pairs : sequence of dict
        ``{"hypothesis": row, "path": turns}``, turns a list of 0/1 of length depth - 1.

    Returns
    -------
    bool
        Whether the pairs are pairwise unservable by one output tree (a lower
        bound ``len(pairs)`` on the 0-cover number).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 1], [1, 0]])
    >>> is_zero_cover_fooling_set(H, {"point": 0}, [{"hypothesis": 0, "path": []}, {"hypothesis": 1, "path": []}])
    True
    """
    H = check_hypothesis_class(H, "is_zero_cover_fooling_set")
    if tree is None:
        return len(pairs) <= 1
    points = tree_points(tree, H.n_points)
    depth = depth_of(len(points))
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


class ZeroCover(DictWitness):
    """Witness ``{"tree", "cover", "fooling_set"}`` of ``N(0, H, z)`` (BGS Defs 5.4-5.5; see the module docstring).

    ``certify(H)`` returns ``len(fooling_set)`` when the fooling set is one and,
    unless omitted, the cover (of the same size) is a 0-cover of ``H`` on the tree.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 1], [1, 0]])
    >>> ZeroCover({"tree": {"point": 0}, "cover": [{"label": 0}, {"label": 1}],
    ...            "fooling_set": [{"hypothesis": 0, "path": []}, {"hypothesis": 1, "path": []}]}).certify(H)
    2
    """

    measure = "output trees"

    def certify(self, H: HypothesisClass) -> int:
        missing = {"tree", "cover", "fooling_set"} - set(self)
        if missing:
            raise InvalidWitnessError(f"0-cover witness: missing keys {sorted(missing)}")
        tree, cover, fooling = self["tree"], self["cover"], self["fooling_set"]
        try:
            if cover is None:  # a cover too big to keep: the fooling set certifies the lower bound on its own
                if not isinstance(fooling, list) or not is_zero_cover_fooling_set(H, tree, fooling):
                    raise InvalidWitnessError("0-cover witness: 'fooling_set' is not a fooling set on the tree")
                return len(fooling)
            if len(cover) != len(fooling):
                raise InvalidWitnessError(
                    f"0-cover witness: {len(cover)} output trees but {len(fooling)} fooling pairs; they must match"
                )
            if not is_zero_cover(H, tree, cover):
                raise InvalidWitnessError("0-cover witness: 'cover' is not a 0-cover of the class on the tree")
            if not is_zero_cover_fooling_set(H, tree, fooling):
                raise InvalidWitnessError("0-cover witness: 'fooling_set' is not a fooling set on the tree")
        except (TypeError, KeyError) as exc:
            raise InvalidWitnessError(f"0-cover witness: malformed ({type(exc).__name__}: {exc})") from None
        return len(cover)
