"""Seed trees for the binary restrictions ``H|_i``: a tree certified for ``H`` carried to each restriction.

A mistake tree of ``H|_i`` (BGS §3: ``h_i(x) = (h(x) >> (i - 1)) & 1``) is read off any shattered
Littlestone-type tree of ``H`` -- a mistake tree (binary class), an io-labelled tree (MLD, BGS Defs
2.10-2.13) or a Ψ-tree (BGS Defs 4.1-4.4) -- by :func:`restriction_tree`:

* a node whose two children's label sets ``S_0`` and ``S_1`` (the labels that lead to each child:
  ``{0}`` / ``{1}`` for a mistake tree, ``{a}`` / ``{b}`` for labels ``[a, b]``, ``φ⁻¹(0)`` / ``φ⁻¹(1)``
  for a map ``φ``, each intersected with the labels present in ``H``) are *separated by bit i* --
  every label of ``S_0`` has bit ``i`` equal to ``c``, every label of ``S_1`` has ``1 - c`` -- stays,
  as a mistake-tree node on the same point with its children put in the order ``c = 0`` first;
  depth ``1 + min(d_0, d_1)``;
* any other node is dropped and replaced by its child of the larger depth ``max(d_0, d_1)``;
* the result is cut to that depth (a node at depth 0 becomes the leftmost leaf below it).

**Proof that the result is a shattered mistake tree of** ``H|_i`` (Littlestone 1987; the complete
mistake tree of Feldman-Xiao §2.5, every root-to-leaf path realised by a hypothesis). Every leaf
``{"hypothesis": h}`` of the input is below a path of nodes ``(x_j, child b_j)`` with
``h(x_j) ∈ S_{b_j}`` (the input is shattered). The leaf's path in the output keeps a sub-sequence
of these nodes, and at a kept node the output child is the bit ``i`` shared by all of
``S_{b_j}`` -- so ``h_i(x_j)`` is that bit: ``h`` realises its output path in ``H|_i``. A leaf made
by a cut is a leaf below the cut node, realising the path down to it. Depths: by induction every
root-to-leaf path of the uncut output has at least the computed depth, so the cut output is
complete. A binary class has ``H|_1 = H`` and bit 1 of a label is the label: its mistake trees carry
over whole; an io-labelled or Ψ tree carries over as far as its nodes are separated by bit ``i``.

What does *not* carry is a bound without a tree: on one point, ``{0, 2}`` has MLD 1 while its
``H|_1`` is constant (LDim 0); the io-labelled tree with labels ``[0, 2]`` is not separated by bit 1
and gives depth 0 there (second example). Each carried tree is certified again by the restriction's
own checker (:class:`~dimcalc.witnesses.RestrictionTree`, via :meth:`.seeds.SeedTree.certify`).

Examples
--------
>>> tree = {"point": 0, "labels": [0, 3], "children": [{"hypothesis": 0}, {"hypothesis": 1}]}
>>> restriction_tree(tree, 1, labels=range(4)), restriction_tree(tree, 2, labels=range(4))[0]
((1, {'point': 0, 'children': [{'hypothesis': 0}, {'hypothesis': 1}]}), 1)
>>> restriction_tree({"point": 0, "labels": [0, 2], "children": [{"hypothesis": 0}, {"hypothesis": 1}]}, 1, range(3))
(0, {'hypothesis': 0})
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from ..errors import parameter_error
from .nodes import cut_tree
from .seeds import SeedTree, checked_seed

__all__ = ["restriction_tree", "child_labels", "given_tree"]


def child_labels(node: dict[str, Any], labels: Collection[int]) -> tuple[set[int], set[int]]:
    """The labels (of ``labels``) that lead to child 0 and to child 1 of a tree node (any witness format)."""
    if "labels" in node:  # io-labelled (MLD): children[j] is for label labels[j]
        a, b = node["labels"]
        return {a} & set(labels), {b} & set(labels)
    if "map" in node:  # Ψ: children[b] is for the labels l with φ(l) = b
        phi = node["map"]
        return {lab for lab in labels if lab < len(phi) and phi[lab] == 0}, {
            lab for lab in labels if lab < len(phi) and phi[lab] == 1
        }
    return {0} & set(labels), {1} & set(labels)  # a mistake tree: children[b] for label b


def _bit_side(S: set[int], i: int) -> int | None:
    """The bit ``i`` (1 = least significant) shared by every label of ``S``, or None (empty or mixed)."""
    bits = {(lab >> (i - 1)) & 1 for lab in S}
    return bits.pop() if len(bits) == 1 else None


def _lift(node: dict[str, Any], i: int, labels: Collection[int]) -> tuple[int, dict[str, Any]]:
    """(depth, tree) before the cut: every root-to-leaf path of the tree is at least that deep."""
    if "children" not in node:
        return 0, {"hypothesis": node["hypothesis"]}
    S0, S1 = child_labels(node, labels)
    c0, c1 = _bit_side(S0, i), _bit_side(S1, i)
    (d0, T0), (d1, T1) = _lift(node["children"][0], i, labels), _lift(node["children"][1], i, labels)
    if c0 is not None and c1 is not None and c0 != c1:
        kids = [T0, T1] if c0 == 0 else [T1, T0]
        return 1 + min(d0, d1), {"point": node["point"], "children": kids}
    return (d0, T0) if d0 >= d1 else (d1, T1)


def restriction_tree(tree: dict[str, Any], i: int, labels: Collection[int] = (0, 1)) -> tuple[int, dict[str, Any]]:
    """A shattered mistake tree of ``H|_i`` read off a shattered tree of ``H`` (see the module docstring).

    ``labels``: the labels present in ``H`` (default: a binary class); labels outside it lead nowhere.
    Returns ``(depth, tree)``; depth 0 is a single leaf.
    """
    depth, lifted = _lift(tree, i, frozenset(labels))
    return depth, cut_tree(lifted, depth)


def given_tree(H: Any, seed_tree: Any, owner: str) -> dict | None:
    """``seed_tree`` of :func:`~dimcalc.littlestone.binary_restriction_littlestone` as a tree ``H`` shatters (checked), or None."""
    if seed_tree is None:
        return None
    if isinstance(seed_tree, SeedTree):
        if seed_tree.hclass is not H and seed_tree.hclass != H:
            raise parameter_error("seed_tree", owner, "a SeedTree certified on this class", seed_tree)
        return seed_tree.witness()
    kind = "littlestone" if H.is_binary else "multiclass_littlestone"
    return checked_seed(H, seed_tree, kind, owner).witness()  # type: ignore[union-attr]
