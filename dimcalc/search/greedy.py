"""The greedy tree: a complete tree built by most-balanced splits, a certified lower bound for every tree dimension.

One implementation for every family: :func:`greedy_tree` walks a
:class:`GreedySpace` (the family's most balanced split of a version space,
its leaves and nodes).  Used by the binary mistake trees of
:mod:`dimcalc.littlestone.greedy` (numpy words) and the Ψ^B seed trees of
:mod:`dimcalc.psi.seed_trees` (Python-int bitsets).

References
----------
Littlestone (1987) (mistake trees, the size bound ``2^d`` leaves); BGS Defs 4.1-4.4 (Ψ-trees).
"""

from __future__ import annotations

from typing import Any, Generic, NamedTuple, Protocol, TypeVar

from .budget import Deadline, SearchStopped

__all__ = ["GreedyChoice", "GreedySpace", "greedy_tree", "deepest_greedy_tree"]

S = TypeVar("S")


class GreedyChoice(NamedTuple, Generic[S]):
    """The split a greedy tree takes at a node: its balance ``min(|V0|, |V1|)``, description and two children."""

    balance: int
    desc: Any
    child0: S
    child1: S


class GreedySpace(Protocol[S]):
    """What :func:`greedy_tree` needs of a family: the most balanced split of a node, leaves and tree nodes.

    A node's state ``S`` is the family's view of a version space (a Python-int
    bitset, numpy words with the columns still live, ...).
    """

    def size(self, state: S) -> int:
        """``|V|``."""
        ...

    def best(self, state: S, size: int) -> GreedyChoice[S] | None:
        """The family's most balanced split of ``V`` (``size = |V|``), or None when nothing splits it."""
        ...

    def leaf(self, state: S) -> dict[str, Any]:
        """A leaf ``{"hypothesis": row}`` for a hypothesis of ``V``."""
        ...

    def node(self, desc: Any, T0: dict[str, Any], T1: dict[str, Any]) -> dict[str, Any]:
        """The tree node of a split's description over two subtrees."""
        ...


def greedy_tree(space: GreedySpace[S], root: S, depth: int, deadline: Deadline | None = None) -> dict[str, Any] | None:
    """A complete tree of ``depth`` levels built by most-balanced splits (``space.best``), or None.

    The one greedy tree of dimcalc (mistake trees here, Ψ^B trees in
    :mod:`dimcalc.psi.seed_trees`).  A node with ``k`` levels wanted takes the
    split ``space.best`` gives and fails when its smaller child has fewer
    than ``2^(k-1)`` hypotheses (size bound: a tree of depth ``k - 1`` needs
    ``2^(k-1)`` distinct hypotheses); both children are recursed into.  No
    backtracking: None proves nothing.  Every path of a tree returned is
    realised by its leaf's hypothesis (each child is the set of hypotheses of
    its parent sent to that side).  Raises
    :class:`~dimcalc.search.budget.SearchStopped` when ``deadline`` expires.

    Examples
    --------
    >>> class Halves:  # version spaces as ranges; each node splits its range in two
    ...     def size(self, r): return len(r)
    ...     def best(self, r, n): return GreedyChoice(n // 2, r[n // 2], r[: n // 2], r[n // 2 :]) if n > 1 else None
    ...     def leaf(self, r): return {"hypothesis": r[0]}
    ...     def node(self, desc, T0, T1): return {"point": desc, "children": [T0, T1]}
    >>> greedy_tree(Halves(), range(8), 3)["point"], greedy_tree(Halves(), range(6), 3)
    (4, None)
    """

    def grow(state: S, k: int) -> dict[str, Any] | None:
        if deadline is not None:
            deadline.check()
        if k == 0:
            return space.leaf(state)
        size = space.size(state)
        if size < 1 << k:
            return None
        choice = space.best(state, size)
        if choice is None or choice.balance < 1 << (k - 1):
            return None
        T0 = grow(choice.child0, k - 1)
        if T0 is None:
            return None
        T1 = grow(choice.child1, k - 1)
        if T1 is None:
            return None
        return space.node(choice.desc, T0, T1)

    return grow(root, depth)


def deepest_greedy_tree(
    space: GreedySpace[S], root: S, upper: int, deadline: Deadline | None = None, *, lowest: int = 1
) -> tuple[int, dict[str, Any] | None]:
    """The deepest :func:`greedy_tree` of depth at most ``upper`` (and at least ``lowest``): ``(depth, tree)``.

    One pass instead of trying ``upper, upper - 1, ...`` in turn (each failed
    try rebuilt the same greedy splits).  The split :func:`greedy_tree` takes at
    a node does not depend on the depth wanted, so the deepest depth ``g(V)``
    it completes at ``V`` is ``min(floor(log2 |V|), 1 + floor(log2 balance),
    1 + g(V0), 1 + g(V1))`` (0 without a split): the smaller child is searched
    with the cap its sibling left, and a subtree found deeper than needed is cut
    at the depth reached (a node becomes the leftmost leaf below it, whose
    hypothesis realises the whole path to that leaf, hence to the node).  The
    depth is that of the first :func:`greedy_tree` that completes from
    ``upper`` down; the tree's cut leaves may name other hypotheses of the
    same nodes.  ``(0, None)`` when it is below ``lowest``, or the deadline
    expired first.

    Examples
    --------
    >>> class Halves:  # version spaces as ranges; each node splits its range in two
    ...     def size(self, r): return len(r)
    ...     def best(self, r, n): return GreedyChoice(n // 2, r[n // 2], r[: n // 2], r[n // 2 :]) if n > 1 else None
    ...     def leaf(self, r): return {"hypothesis": r[0]}
    ...     def node(self, desc, T0, T1): return {"point": desc, "children": [T0, T1]}
    >>> deepest_greedy_tree(Halves(), range(13), 10)[0], deepest_greedy_tree(Halves(), range(1), 10)
    (3, (0, None))
    """

    def cut(tree: dict[str, Any], depth: int) -> dict[str, Any]:
        if depth == 0 or "children" not in tree:
            node = tree
            while "children" in node:
                node = node["children"][0]
            return node
        return {**tree, "children": [cut(c, depth - 1) for c in tree["children"]]}

    def grow(state: S, cap: int) -> tuple[int, dict[str, Any]]:
        if deadline is not None:
            deadline.check()
        size = space.size(state) if cap > 0 else 1
        cap = min(cap, size.bit_length() - 1)
        choice = space.best(state, size) if cap > 0 else None
        if choice is None or choice.balance < 1:
            return 0, space.leaf(state)
        cap = min(cap, choice.balance.bit_length())  # 2^(k-1) <= balance
        d0, T0 = grow(choice.child0, cap - 1)
        d1, T1 = grow(choice.child1, d0)
        if d1 < d0:
            T0 = cut(T0, d1)
        return 1 + d1, space.node(choice.desc, T0, T1)

    try:
        depth, tree = grow(root, upper)
    except SearchStopped:
        return 0, None
    if depth < max(lowest, 1):
        return 0, None
    return depth, tree
