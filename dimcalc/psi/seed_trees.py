"""Ψ^B-shattered trees built without search: a certified lower bound for Ψ^B, plain or uniform (BGS §4.2)."""

from __future__ import annotations

from typing import Any

from ..search.greedy import GreedyChoice, deepest_greedy_tree

__all__ = ["bipartition_seed_tree"]


def bipartition_seed_tree(H: Any, *, uniform: bool = False, deadline: Any = None) -> tuple[int, dict]:
    """A Ψ^B-shattered tree found without search: a certified lower bound for Ψ^B (plain or uniform).

    Two constructions, the deeper one is returned (as ``(depth, tree)`` in the
    spec §3 Ψ-tree format, leaves are file rows):

    * **one point** -- a point ``x`` at which ``m`` labels are present: put
      ``x`` at every node and split the set of labels of each node into two
      halves.  The label sets of the nodes of one level are disjoint, so one
      map per level serves them all: a *uniform* Ψ^B tree of depth
      ``floor(log2 m)`` (BGS Defs 4.1-4.4; maps of Ψ^B are arbitrary, §4.2).
    * **greedy** (plain Ψ^B only) -- the one greedy tree of dimcalc
      (:func:`dimcalc.search.greedy.greedy_tree`): at each version space the
      point whose label classes split it most evenly (largest class first onto
      the lighter side), both sides recursed into; the deepest complete tree.

    Both trees are checked by dimcalc's independent checker wherever they are
    returned as witnesses.  When they reach ``floor(log2 |H|)`` (the size
    bound: a tree of depth ``d`` has ``2^d`` leaves realised by different
    hypotheses) the dimension is settled without any search -- e.g. 300
    hypotheses over 300 labels.  ``deadline`` (a :class:`dimcalc.search.budget.Deadline`)
    is polled; when it expires the deepest tree finished so far is returned.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[i, (3 * i) % 8] for i in range(8)])
    >>> bipartition_seed_tree(H)[0], bipartition_seed_tree(H, uniform=True)[0]
    (3, 3)
    """
    L = H.num_labels
    if H.n_points == 0 or H.n_distinct < 2:
        return 0, {"hypothesis": H.row_of(0)}
    classes = [[(lab, m) for lab, m in enumerate(H.label_masks[x]) if m] for x in range(H.n_points)]
    best_x = max(range(H.n_points), key=lambda x: len(classes[x]))
    depth = len(classes[best_x]).bit_length() - 1
    tree = _one_point_tree(H, best_x, classes[best_x], depth, L)
    if uniform or depth >= H.log2_size():
        return depth, tree
    found, greedy = deepest_greedy_tree(
        _BipartitionSpace(H, classes), H.full_mask, H.log2_size(), deadline, lowest=depth + 1
    )
    if greedy is not None and found > depth:
        return found, greedy
    return depth, tree


def _one_point_tree(H: Any, x: int, cls: list, depth: int, L: int) -> dict:
    """The uniform single-point tree of :func:`bipartition_seed_tree` over the first ``2^depth`` classes at ``x``."""
    used = cls[: 1 << depth]
    maps: list[list[int | None]] = []
    for level in range(depth):
        phi: list[int | None] = [None] * L
        block = 1 << (depth - level)
        for start in range(0, len(used), block):
            for i in range(start, start + block):
                phi[used[i][0]] = 0 if i - start < block // 2 else 1
        maps.append(phi)

    def build(level: int, start: int) -> dict:
        if level == depth:
            m = used[start][1]
            return {"hypothesis": H.row_of((m & -m).bit_length() - 1)}
        half = 1 << (depth - level - 1)
        return {
            "point": x,
            "map": list(maps[level]),
            "children": [build(level + 1, start), build(level + 1, start + half)],
        }

    return build(0, 0)


class _BipartitionSpace:
    """Ψ^B as a :class:`~dimcalc.search.greedy.GreedySpace` over Python-int version spaces.

    The most balanced split of ``V``: at each point, the label classes on ``V``
    put largest first onto the lighter side; the point whose lighter side is
    heaviest (the first such point).  The node's map sends the labels of side
    ``b`` to ``b`` and the others to ``*``.
    """

    def __init__(self, H: Any, classes: list) -> None:
        self.H = H
        self.classes = classes
        self.L = H.num_labels
        self._best: dict[int, GreedyChoice[int] | None] = {}  # the tries of deepest_greedy_tree revisit nodes

    def size(self, V: int) -> int:
        return V.bit_count()

    def leaf(self, V: int) -> dict:
        return {"hypothesis": self.H.row_of((V & -V).bit_length() - 1)}

    def node(self, desc: Any, T0: dict, T1: dict) -> dict:
        x, zeros, ones = desc
        phi: list[int | None] = [None] * self.L
        for lab in zeros:
            phi[lab] = 0
        for lab in ones:
            phi[lab] = 1
        return {"point": x, "map": phi, "children": [T0, T1]}

    def best(self, V: int, size: int) -> GreedyChoice[int] | None:
        if V in self._best:
            return self._best[V]
        choice = self._best[V] = self._most_balanced(V)
        return choice

    def _most_balanced(self, V: int) -> GreedyChoice[int] | None:
        best: tuple[int, int, list[int], list[list[int]]] | None = None
        for x, cls in enumerate(self.classes):
            parts = [(c.bit_count(), lab, c) for lab, m in cls if (c := V & m)]
            if len(parts) < 2:
                continue
            parts.sort(key=lambda t: -t[0])
            sizes, masks = [0, 0], [0, 0]  # per side: hypotheses, their bitset, and their labels
            labels: list[list[int]] = [[], []]
            for n, lab, c in parts:  # largest class first, onto the lighter side
                side = 0 if sizes[0] <= sizes[1] else 1
                sizes[side] += n
                masks[side] |= c
                labels[side].append(lab)
            score = min(sizes)
            if best is None or score > best[0]:
                best = (score, x, masks, labels)
        if best is None:
            return None
        score, x, masks, labels = best
        return GreedyChoice(score, (x, labels[0], labels[1]), masks[0], masks[1])
