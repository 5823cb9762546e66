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
from ..psi import PsiFamily, psi_family
from ..validation import check_hypothesis_class

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

_LEAF_KEYS = frozenset({"hypothesis"})
_NODE_KEYS = {
    "binary": frozenset({"point", "children"}),
    "multiclass": frozenset({"point", "labels", "children"}),
    "psi": frozenset({"point", "map", "children"}),
}
# Accepted spellings of a tree kind (result kinds included).
_KIND_ALIASES = {
    "binary": "binary",
    "littlestone": "binary",
    "mistake": "binary",
    "multiclass": "multiclass",
    "multiclass_littlestone": "multiclass",
    "psi": "psi",
    "psi_littlestone": "psi",
    "psi_littlestone_uniform": "psi",
}


#: Deepest tree accepted by the format-only checks (guards against cyclic objects).
_MAX_LEVELS = 256


class _TreeProblem(Exception):
    """Internal: why a tree is rejected, and where."""

    def __init__(self, where: tuple[int, ...], message: str) -> None:
        super().__init__(message)
        self.where = where
        self.message = message

    def text(self) -> str:
        return f"at {_location(self.where)}: {self.message}"


def _location(where: tuple[int, ...]) -> str:
    """``root``, ``root/0/1`` (left child, then its right child), ..."""
    return "root" if not where else "root/" + "/".join(str(c) for c in where)


def _is_int(v: Any) -> bool:
    # Plain ints only: witnesses are JSON (spec §3); numpy ints or bools are refused.
    return type(v) is int


def _describe(v: Any) -> str:
    text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


def _walk(
    tree: Any, kind: str, H: HypothesisClass | None, family: PsiFamily | None, uniform: bool, check_paths: bool
) -> int:
    """Check ``tree`` and return its depth; raise :class:`_TreeProblem` on the first defect.

    Without ``H`` only the structure is checked (keys, types, completeness,
    distinct multiclass labels, map shape when ``family`` is given).  With
    ``H``, ranges are checked too and, if ``check_paths``, every leaf's
    hypothesis must realise every edge of its root-to-leaf path.
    """
    node_keys = _NODE_KEYS[kind]
    num_labels = H.num_labels if H is not None else (family.num_labels if family is not None else None)
    # Depth cap: the 2^d leaves of a shattered tree are pairwise different functions
    # (they differ at the node where their paths split), so d <= log2(#distinct).
    # Otherwise the cap only guards against cyclic Python objects (no witness has 2^256 leaves).
    capped = H is not None and check_paths
    max_depth = H.log2_size() if H is not None and capped else _MAX_LEVELS
    leaf_depth: int | None = None
    level_maps: dict[int, tuple] = {}
    # Stack of (node, location, path); path = list of (point, accepted-labels predicate description).
    stack: list[tuple[Any, tuple[int, ...], tuple]] = [(tree, (), ())]
    while stack:
        node, where, path = stack.pop()
        depth = len(where)
        if not isinstance(node, dict):
            raise _TreeProblem(where, f"a node must be a JSON object; got {_describe(node)}")
        keys = frozenset(node)
        if keys == _LEAF_KEYS:
            j = node["hypothesis"]
            if not _is_int(j):
                raise _TreeProblem(where, f"'hypothesis' must be an integer row index; got {_describe(j)}")
            if H is not None and not 0 <= j < H.n_hypotheses:
                raise _TreeProblem(where, f"hypothesis {j} is not a row of the class (0..{H.n_hypotheses - 1})")
            if leaf_depth is None:
                leaf_depth = depth
            elif depth != leaf_depth:
                raise _TreeProblem(
                    where, f"leaf at depth {depth} but another leaf is at depth {leaf_depth}; the tree must be complete"
                )
            if H is not None and check_paths:
                for level, (point, accepted, edge_text) in enumerate(path):
                    lab = H.label(j, point)
                    if lab not in accepted:
                        raise _TreeProblem(
                            where,
                            f"hypothesis {j} gives label {lab} to point {point}, so it "
                            f"does not realise the edge '{edge_text}' at depth {level}",
                        )
            continue
        if keys != node_keys:
            expected = sorted(node_keys)
            raise _TreeProblem(
                where,
                f"an internal node must have exactly the keys {expected} and a leaf exactly "
                f"['hypothesis']; got {sorted(map(str, keys))}",
            )
        if leaf_depth is not None and depth >= leaf_depth:
            raise _TreeProblem(
                where, f"internal node at depth {depth} but a leaf is at depth {leaf_depth}; the tree must be complete"
            )
        if depth >= max_depth:
            raise _TreeProblem(
                where,
                f"the tree is deeper than {max_depth}"
                + (" = floor(log2 #distinct hypotheses), so it cannot be shattered" if capped else " levels"),
            )
        point = node["point"]
        if not _is_int(point):
            raise _TreeProblem(where, f"'point' must be an integer column index; got {_describe(point)}")
        if H is not None and not 0 <= point < H.n_points:
            raise _TreeProblem(where, f"point {point} is not a column of the class (0..{H.n_points - 1})")
        children = node["children"]
        if not isinstance(children, (list, tuple)) or len(children) != 2:
            raise _TreeProblem(where, f"'children' must be a list of two subtrees; got {_describe(children)}")
        if kind == "binary":
            accepted = (frozenset({0}), frozenset({1}))
            texts: tuple[str, ...] = (f"x{point} -> 0", f"x{point} -> 1")
        elif kind == "multiclass":
            labels = node["labels"]
            if not isinstance(labels, (list, tuple)) or len(labels) != 2 or not all(map(_is_int, labels)):
                raise _TreeProblem(where, f"'labels' must be a list of two integer labels; got {_describe(labels)}")
            a, b = labels
            if a == b:
                raise _TreeProblem(where, f"the two edge labels must differ; got [{a}, {b}]")
            if num_labels is not None and not (0 <= a < num_labels and 0 <= b < num_labels):
                raise _TreeProblem(where, f"labels [{a}, {b}] are not both labels of the class (0..{num_labels - 1})")
            accepted = (frozenset({a}), frozenset({b}))
            texts = (f"x{point} -> {a}", f"x{point} -> {b}")
        else:
            phi = node["map"]
            if not isinstance(phi, (list, tuple)) or not all(v is None or (_is_int(v) and v in (0, 1)) for v in phi):
                raise _TreeProblem(where, f"'map' must be a list of entries 0, 1 or null; got {_describe(phi)}")
            phi = tuple(phi)
            if num_labels is not None and len(phi) != num_labels:
                raise _TreeProblem(where, f"'map' has {len(phi)} entries but the class has {num_labels} labels")
            if family is not None and phi not in family:
                raise _TreeProblem(where, f"map {list(phi)} is not in the family Ψ^{family.name}")
            if uniform:
                first = level_maps.setdefault(depth, phi)
                if first != phi:
                    raise _TreeProblem(
                        where,
                        f"uniform tree: map {list(phi)} differs from map {list(first)} used elsewhere at depth {depth}",
                    )
            accepted = tuple(frozenset(lab for lab, v in enumerate(phi) if v == bit) for bit in (0, 1))
            texts = tuple(f"φ(h(x{point})) = {bit} with φ = {list(phi)}" for bit in (0, 1))
        # Right child pushed first so the left subtree is examined first.
        for c in (1, 0):
            stack.append((children[c], where + (c,), path + ((point, accepted[c], texts[c]),)))
    assert leaf_depth is not None
    return leaf_depth


def _canonical_kind(kind: str) -> str:
    base = kind.split(":", 1)[0] if isinstance(kind, str) else kind
    if base not in _KIND_ALIASES:
        raise parameter_error(
            "kind", "validate_tree_json", '"binary", "multiclass", "psi" (or a result kind such as "littlestone")', kind
        )
    return _KIND_ALIASES[base]


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
    canon = _canonical_kind(kind)
    fam = None
    if canon == "psi":
        if family is None:
            raise parameter_error("family", owner, "a Ψ family for kind 'psi'", None)
        fam = psi_family(family, H.num_labels)
    if canon == "binary" and not H.is_binary:
        return None, f"binary mistake trees need a binary class; this class has {H.num_labels} labels"
    try:
        return _walk(tree, canon, H, fam, uniform, check_paths=True), None
    except _TreeProblem as problem:
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
        raise InvalidWitnessError(f"{_canonical_kind(kind)} tree: {reason}")
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


def tree_depth(tree: Any) -> int:
    """Number of internal levels of a complete tree of any of the three formats (0 for a leaf).

    Raises
    ------
    InvalidWitnessError
        If ``tree`` is not a tree (a node that is neither ``{"hypothesis": j}``
        nor a dict with two ``children``) or its leaves are at different depths.

    Examples
    --------
    >>> tree_depth({"hypothesis": 3})
    0
    >>> tree_depth({"point": 0, "labels": [0, 2], "children": [{"hypothesis": 0}, {"hypothesis": 1}]})
    1
    """
    depth: int | None = None
    stack: list[tuple[Any, int, tuple[int, ...]]] = [(tree, 0, ())]
    while stack:
        node, d, where = stack.pop()
        if d > _MAX_LEVELS:
            raise InvalidWitnessError(f"tree: deeper than {_MAX_LEVELS} levels (a cyclic object?)")
        if not isinstance(node, dict):
            raise InvalidWitnessError(
                f"tree: at {_location(where)}: a node must be a JSON object; got {_describe(node)}"
            )
        if "children" not in node:
            if set(node) != _LEAF_KEYS:
                raise InvalidWitnessError(
                    f"tree: at {_location(where)}: a leaf must be {{'hypothesis': j}}; got keys {sorted(node)}"
                )
            if depth is None:
                depth = d
            elif d != depth:
                raise InvalidWitnessError(
                    f"tree: at {_location(where)}: leaf at depth {d} but another leaf is at depth {depth}; "
                    "the tree is not complete"
                )
            continue
        children = node["children"]
        if not isinstance(children, (list, tuple)) or len(children) != 2:
            raise InvalidWitnessError(f"tree: at {_location(where)}: 'children' must be a list of two subtrees")
        stack.append((children[1], d + 1, where + (1,)))
        stack.append((children[0], d + 1, where + (0,)))
    assert depth is not None
    return depth
