"""Independent checkers for Littlestone-type witness trees (interface spec §3).

Each checker returns the depth ``d`` a tree certifies, or ``None`` when the tree
does not certify anything for the class.  A tree is accepted exactly when

1. it is **well-formed**: every node is a JSON object with exactly the keys of
   its kind, points are column indices of ``H``, edge labels are labels of
   ``H``, maps belong to the family (and, for uniform trees, every node of a
   level carries the same map), and every internal node has two children;
2. it is **complete**: every leaf is at the same depth ``d`` (``d`` internal
   levels; a single leaf ``{"hypothesis": j}`` has depth 0);
3. it is **shattered**, checked by the path definition: the hypothesis at each
   leaf (a *file row* index of ``H``) realises *every* edge on the leaf's
   root-to-leaf path.

Three formats (spec §3):

* binary mistake tree (Littlestone 1987; FX §2.5):
  ``{"point": i, "children": [T0, T1]}``; the edge to ``T_b`` says ``h(i) = b``;
* multiclass (io-labelled) tree (BGS Defs 2.10–2.12):
  ``{"point": i, "labels": [a, b], "children": [Ta, Tb]}`` with ``a ≠ b``; the
  edge to ``Ta`` says ``h(i) = a``;
* Ψ-tree (BGS Defs 4.1–4.3): ``{"point": i, "map": [φ(0), ..., φ(k)],
  "children": [T0, T1]}`` with ``φ ∈ Ψ``; the edge to ``T_b`` says
  ``φ(h(i)) = b`` (``φ(h(i)) = *`` realises neither edge).

The witness objects of :mod:`dimcalc.witnesses.trees` (what a solver's
result carries) call :func:`check_tree`, the raising form of these checkers.

References
----------
.. [Lit87] N. Littlestone. Learning quickly when irrelevant attributes abound.
   Machine Learning 2 (1987).
.. [FX14] V. Feldman, D. Xiao. Sample Complexity Bounds on Differentially
   Private Learning via Communication Complexity. COLT 2014, §2.5.
.. [BGS] M. Bun, M. Gaboardi, S. Sivakumar. Multiclass versus Binary
   Differentially Private PAC Learning. NeurIPS 2021, Defs 2.10–2.13, 4.1–4.4.

Examples
--------
>>> from dimcalc import HypothesisClass
>>> H = HypothesisClass([[0, 0], [0, 1], [1, 1]])          # thresholds on 2 points
>>> tree = {"point": 0, "children": [{"point": 1, "children": [{"hypothesis": 0}, {"hypothesis": 1}]},
...                                  {"point": 1, "children": [{"hypothesis": 2}, {"hypothesis": 2}]}]}
>>> is_mistake_tree(H, tree)                                  # path (x0=1, x1=0) is not realised
False
>>> is_mistake_tree(H, {"point": 0, "children": [{"hypothesis": 0}, {"hypothesis": 2}]})
True
>>> check_tree(H, {"point": 0, "children": [{"hypothesis": 0}, {"hypothesis": 2}]}, "binary")  # its depth
1
"""

from __future__ import annotations

from typing import Any, Literal

from ..classes.hypothesis_class import HypothesisClass
from ..errors import InvalidWitnessError, parameter_error
from ..psi import psi_family
from ..validation import check_hypothesis_class
from .tree_walk import TreeProblem, canonical_kind, tree_depth, walk

__all__ = [
    "is_mistake_tree",
    "is_multiclass_tree",
    "is_psi_tree",
    "explain_tree",
    "check_tree",
    "tree_depth",
    "TreeKind",
]

TreeKind = Literal["binary", "multiclass", "psi"]


def explain_tree(H: HypothesisClass, tree: Any, kind: str, family: Any = None, *, uniform: bool = False) -> str | None:
    """Why ``tree`` is not a valid shattered tree of ``kind`` for ``H``; ``None`` if it is valid.

    Parameters
    ----------
    H : HypothesisClass
    tree : object
        A tree in the spec §3 format.
    kind : {"binary", "multiclass", "psi"}
        Tree format (result kinds such as ``"littlestone"`` are accepted too).
    family : {"N", "bin", "B"}, PsiFamily or iterable of maps, optional
        Required for ``kind="psi"``.
    uniform : bool
        For Ψ-trees: require one map per level.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass([[0, 0], [0, 1], [1, 1]])
    >>> explain_tree(H, {"point": 0, "children": [{"hypothesis": 0}, {"hypothesis": 1}]}, "binary")
    "at root/1: hypothesis 1 gives label 0 to point 0, so it does not realise the edge 'x0 -> 1' at depth 0"
    """
    return _depth_or_reason(H, tree, kind, family, uniform, "explain_tree")[1]


def _depth_or_reason(
    H: HypothesisClass, tree: Any, kind: str, family: Any, uniform: bool, owner: str
) -> tuple[int | None, str | None]:
    """``(depth, None)`` for a valid shattered tree, else ``(None, why)``."""
    H = check_hypothesis_class(H, owner)
    canon = canonical_kind(kind)
    fam = None
    if canon == "psi":
        if family is None:
            raise parameter_error("family", owner, "a Ψ family for kind 'psi'", None)
        fam = psi_family(family, H.num_labels)
    if canon == "binary" and not H.is_binary:
        return None, f"binary mistake trees need a binary class; this class has {H.num_labels} labels"
    try:
        return walk(tree, canon, H, fam, uniform, check_paths=True), None
    except TreeProblem as problem:
        return None, problem.text()


def check_tree(H: HypothesisClass, tree: Any, kind: str, family: Any = None, *, uniform: bool = False) -> int:
    """The depth ``tree`` certifies for ``H``; raises :class:`InvalidWitnessError` with the reason when none.

    The raising form of :func:`is_mistake_tree`, :func:`is_multiclass_tree` and
    :func:`is_psi_tree` (same checks, same order), used by the witness objects'
    ``certify``.

    Parameters
    ----------
    H : HypothesisClass
    tree : object
        A tree in the spec §3 format.
    kind : {"binary", "multiclass", "psi"}
        Tree format (result kinds such as ``"littlestone"`` are accepted too).
    family : {"N", "bin", "B"}, PsiFamily or iterable of maps, optional
        Required for ``kind="psi"`` (built over ``H.num_labels`` labels).
    uniform : bool
        For Ψ-trees: require one map per level.

    Returns
    -------
    int
        The depth of the tree.

    Raises
    ------
    InvalidWitnessError
        When the tree is malformed, incomplete or not shattered, naming the node.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass([[0, 0], [0, 1], [1, 1]])
    >>> check_tree(H, {"point": 0, "children": [{"hypothesis": 0}, {"hypothesis": 2}]}, "binary")
    1
    """
    depth, reason = _depth_or_reason(H, tree, kind, family, uniform, "check_tree")
    if depth is None:
        raise InvalidWitnessError(f"{canonical_kind(kind)} tree: {reason}")
    return depth


def _verdict(depth: int | None, reason: str | None, kind: str, explain: bool) -> bool:
    """``True`` for a valid tree; ``False``, or with ``explain`` an :class:`InvalidWitnessError` giving the reason."""
    if depth is None and explain:
        raise InvalidWitnessError(f"{kind} tree: {reason}")
    return depth is not None


def is_mistake_tree(H: HypothesisClass, tree: Any, *, explain: bool = False) -> bool:
    """Whether ``tree`` is a complete binary mistake tree shattered by ``H`` (its depth: :func:`tree_depth`).

    Format (spec §3): a leaf is ``{"hypothesis": j}`` (file row ``j``); an
    internal node is ``{"point": i, "children": [T0, T1]}`` where ``T_b`` is
    the subtree for label ``b`` at point ``i``.  ``H`` must be binary.

    Parameters
    ----------
    H : HypothesisClass
        A binary class (at most two labels).
    tree : object
        The tree (plain dicts, lists and ints).
    explain : bool, default False
        Raise :class:`~dimcalc.errors.InvalidWitnessError` with the reason instead of returning ``False``
        (as OpenDP's ``debug=True``; :func:`explain_tree` returns the reason as text).

    Returns
    -------
    bool
        ``True`` when every leaf's hypothesis realises its whole root-to-leaf path and all
        leaves are at the same depth ``d`` (the depth it certifies, :func:`tree_depth` or
        :func:`check_tree`).

    References
    ----------
    Littlestone (1987); Feldman & Xiao (COLT 2014), §2.5 (complete mistake trees).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass([[0, 0], [0, 1], [1, 1]])
    >>> is_mistake_tree(H, {"hypothesis": 2})
    True
    >>> is_mistake_tree(H, {"point": 1, "children": [{"hypothesis": 0}, {"hypothesis": 2}]})
    True
    >>> is_mistake_tree(H, {"point": 1, "children": [{"hypothesis": 2}, {"hypothesis": 0}]})
    False
    >>> is_mistake_tree(H, {"point": 1, "children": [{"hypothesis": 2}, {"hypothesis": 0}]}, explain=True)
    Traceback (most recent call last):
    ...
    dimcalc.errors.InvalidWitnessError: binary tree: at root/0: hypothesis 2 gives label 1 to point 1, so it does not realise the edge 'x1 -> 0' at depth 0
    """
    return _verdict(*_depth_or_reason(H, tree, "binary", None, False, "is_mistake_tree"), "binary", explain)


def is_multiclass_tree(H: HypothesisClass, tree: Any, *, explain: bool = False) -> bool:
    """Whether ``tree`` is a complete io-labelled tree shattered by ``H`` (its depth: :func:`tree_depth`).

    Format (spec §3): internal nodes ``{"point": i, "labels": [a, b],
    "children": [Ta, Tb]}`` with ``a ≠ b`` labels of ``H``; leaves
    ``{"hypothesis": j}``.  The edge into ``Ta`` says ``h(i) = a``.

    Parameters
    ----------
    H : HypothesisClass
        Any class (binary classes too).
    tree : object
    explain : bool, default False
        Raise :class:`~dimcalc.errors.InvalidWitnessError` with the reason instead of returning ``False``.

    Returns
    -------
    bool
        Whether the tree certifies its depth for the multiclass Littlestone dimension.

    References
    ----------
    BGS Defs 2.10–2.13 (after Daniely et al. 2011).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass([[0], [1], [2]])
    >>> is_multiclass_tree(H, {"point": 0, "labels": [2, 0], "children": [{"hypothesis": 2}, {"hypothesis": 0}]})
    True
    >>> is_multiclass_tree(H, {"point": 0, "labels": [1, 1], "children": [{"hypothesis": 1}, {"hypothesis": 1}]})
    False
    """
    depth, reason = _depth_or_reason(H, tree, "multiclass", None, False, "is_multiclass_tree")
    return _verdict(depth, reason, "multiclass", explain)


def is_psi_tree(H: HypothesisClass, tree: Any, family: Any, uniform: bool = False, *, explain: bool = False) -> bool:
    """Whether ``tree`` is a complete Ψ-labelled tree Ψ-shattered by ``H`` (its depth: :func:`tree_depth`).

    Format (spec §3): internal nodes ``{"point": i, "map": [φ(0), ..., φ(k)],
    "children": [T0, T1]}`` with ``φ`` in the family (``null`` for ``*``);
    ``T0`` is the side where ``φ(h(i)) = 0``.  Leaves ``{"hypothesis": j}``.

    Parameters
    ----------
    H : HypothesisClass
    tree : object
    family : {"N", "bin", "B"}, PsiFamily or iterable of maps
        The family Ψ (built over ``H.num_labels`` labels, see
        :func:`dimcalc.psi.psi_family`).
    uniform : bool, default False
        Also require that all nodes at the same depth carry the same map
        (Ψ-uniformly labelled tree).
    explain : bool, default False
        Raise :class:`~dimcalc.errors.InvalidWitnessError` with the reason instead of returning ``False``.

    Returns
    -------
    bool

    Raises
    ------
    InvalidParameterError
        If ``family`` is not a valid family for ``H.num_labels`` labels.

    References
    ----------
    BGS Defs 4.1–4.4, §4.2.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass([[0, 3], [1, 2], [2, 1]], num_labels=4)
    >>> tree = {"point": 0, "map": [0, 1, 0, 1], "children": [{"hypothesis": 0}, {"hypothesis": 1}]}
    >>> is_psi_tree(H, tree, "bin"), is_psi_tree(H, tree, "N")
    (True, False)
    """
    return _verdict(*_depth_or_reason(H, tree, "psi", family, bool(uniform), "is_psi_tree"), "psi", explain)
