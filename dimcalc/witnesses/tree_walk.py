"""The shape of Littlestone-type witness trees: the one walker that reads the spec §3 formats.

:func:`walk` checks a tree node by node (keys, types, completeness, ranges and,
when asked, that each leaf realises its root-to-leaf path) and raises
:class:`TreeProblem` naming the first defective node; :func:`tree_depth` reads
the depth of any complete tree.  The checkers of
:mod:`dimcalc.witnesses.tree_checks` (shattering) and the format tools of
:mod:`dimcalc.witnesses.tree_format` are written on top of it.

Examples
--------
>>> tree_depth({"point": 0, "children": [{"hypothesis": 0}, {"hypothesis": 1}]})
1
>>> canonical_kind("littlestone")
'binary'
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..classes.hypothesis_class import HypothesisClass
from ..errors import InvalidWitnessError, parameter_error
from ..psi import PsiFamily

__all__ = ["TreeProblem", "walk", "canonical_kind", "tree_depth", "MAX_LEVELS", "gc_paused"]

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


# An edge: (accepted labels of each child, the edge's text with a {point} field, formatted on a defect).
_BINARY_EDGES: tuple[tuple[frozenset[int], ...], tuple[str, ...]] = (
    (frozenset({0}), frozenset({1})),
    ("x{point} -> 0", "x{point} -> 1"),
)
_MAP_TYPES = frozenset({int, type(None)})
_MAP_VALUES = frozenset({0, 1, None})

#: Deepest tree accepted by the format-only checks (guards against cyclic objects).
MAX_LEVELS = 256


class TreeProblem(Exception):
    """Why a tree is rejected, and where (``text()``: ``"at root/0: ..."``); the checkers turn it into a reason."""

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


@contextmanager
def gc_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off for the block, as it was after it.

    A walk allocates a path tuple per node and keeps every leaf's until its
    batch is read: on a tree of 65 535 nodes the collector's passes over those
    (they hold no cycles) took ~40 % of the check.
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def walk(
    tree: Any, kind: str, H: HypothesisClass | None, family: PsiFamily | None, uniform: bool, check_paths: bool
) -> int:
    """Check ``tree`` and return its depth; raise :class:`TreeProblem` on the first defect.

    Without ``H`` only the structure is checked (keys, types, completeness,
    distinct multiclass labels, map shape when ``family`` is given).  With
    ``H``, ranges are checked too and, if ``check_paths``, every leaf's
    hypothesis must realise every edge of its root-to-leaf path.
    """
    with gc_paused():
        return _walk(tree, kind, H, family, uniform, check_paths)


def _walk(
    tree: Any, kind: str, H: HypothesisClass | None, family: PsiFamily | None, uniform: bool, check_paths: bool
) -> int:
    node_keys = _NODE_KEYS[kind]
    num_labels = H.num_labels if H is not None else (family.num_labels if family is not None else None)
    # Depth cap: the 2^d leaves of a shattered tree are pairwise different functions
    # (they differ at the node where their paths split), so d <= log2(#distinct).
    # Otherwise the cap only guards against cyclic Python objects (no witness has 2^256 leaves).
    capped = H is not None and check_paths
    max_depth = H.log2_size() if H is not None and capped else MAX_LEVELS
    leaf_depth: int | None = None
    level_maps: dict[int, tuple] = {}
    # Stack of (node, location, path); path = list of (point, accepted-labels predicate description).
    stack: list[tuple[Any, tuple[int, ...], tuple]] = [(tree, (), ())]
    leaves: list[tuple[int, tuple[int, ...], tuple]] = []  # leaves whose paths are still to be read
    map_edges: dict[tuple, tuple] = {}  # a checked Ψ map -> its edges' accepted labels and texts
    pending = 0
    try:
        while stack:
            node, where, path = stack.pop()
            depth = len(where)
            if not isinstance(node, dict):
                raise TreeProblem(where, f"a node must be a JSON object; got {_describe(node)}")
            keys = frozenset(node)
            if keys == _LEAF_KEYS:
                j = node["hypothesis"]
                if not _is_int(j):
                    raise TreeProblem(where, f"'hypothesis' must be an integer row index; got {_describe(j)}")
                if H is not None and not 0 <= j < H.n_hypotheses:
                    raise TreeProblem(where, f"hypothesis {j} is not a row of the class (0..{H.n_hypotheses - 1})")
                if leaf_depth is None:
                    leaf_depth = depth
                elif depth != leaf_depth:
                    raise TreeProblem(
                        where,
                        f"leaf at depth {depth} but another leaf is at depth {leaf_depth}; the tree must be complete",
                    )
                if H is not None and check_paths:
                    # Read in batches (one array call for many leaves); a batch is read before any later
                    # defect is raised, so the first defect in walking order is the one reported.
                    leaves.append((j, where, path))
                    pending += len(path)
                    if pending >= _LEAF_BATCH:
                        _check_leaves(H, leaves)
                        pending = 0
                continue
            if keys != node_keys:
                expected = sorted(node_keys)
                raise TreeProblem(
                    where,
                    f"an internal node must have exactly the keys {expected} and a leaf exactly "
                    f"['hypothesis']; got {sorted(map(str, keys))}",
                )
            if leaf_depth is not None and depth >= leaf_depth:
                raise TreeProblem(
                    where,
                    f"internal node at depth {depth} but a leaf is at depth {leaf_depth}; the tree must be complete",
                )
            if depth >= max_depth:
                raise TreeProblem(
                    where,
                    f"the tree is deeper than {max_depth}"
                    + (" = floor(log2 #distinct hypotheses), so it cannot be shattered" if capped else " levels"),
                )
            point = node["point"]
            if not _is_int(point):
                raise TreeProblem(where, f"'point' must be an integer column index; got {_describe(point)}")
            if H is not None and not 0 <= point < H.n_points:
                raise TreeProblem(where, f"point {point} is not a column of the class (0..{H.n_points - 1})")
            children = node["children"]
            if not isinstance(children, (list, tuple)) or len(children) != 2:
                raise TreeProblem(where, f"'children' must be a list of two subtrees; got {_describe(children)}")
            if kind == "binary":
                accepted, texts = _BINARY_EDGES
            elif kind == "multiclass":
                labels = node["labels"]
                if not isinstance(labels, (list, tuple)) or len(labels) != 2 or not all(map(_is_int, labels)):
                    raise TreeProblem(where, f"'labels' must be a list of two integer labels; got {_describe(labels)}")
                a, b = labels
                if a == b:
                    raise TreeProblem(where, f"the two edge labels must differ; got [{a}, {b}]")
                if num_labels is not None and not (0 <= a < num_labels and 0 <= b < num_labels):
                    raise TreeProblem(
                        where, f"labels [{a}, {b}] are not both labels of the class (0..{num_labels - 1})"
                    )
                accepted, texts = (frozenset({a}), frozenset({b})), (f"x{{point}} -> {a}", f"x{{point}} -> {b}")
            else:
                phi = node["map"]
                # Plain ints (not bools) and None only, read at C speed; then the tuple is a safe memo key.
                if (
                    not isinstance(phi, (list, tuple))
                    or not _MAP_TYPES.issuperset(map(type, phi))
                    or not _MAP_VALUES.issuperset(phi)
                ):
                    raise TreeProblem(where, f"'map' must be a list of entries 0, 1 or null; got {_describe(phi)}")
                phi = tuple(phi)
                known = map_edges.get(phi)
                if known is not None:
                    accepted, texts = known
                elif num_labels is not None and len(phi) != num_labels:
                    raise TreeProblem(where, f"'map' has {len(phi)} entries but the class has {num_labels} labels")
                elif family is not None and phi not in family:
                    raise TreeProblem(where, f"map {list(phi)} is not in the family Ψ^{family.name}")
                else:
                    accepted = tuple(frozenset(lab for lab, v in enumerate(phi) if v == bit) for bit in (0, 1))
                    texts = tuple(f"φ(h(x{{point}})) = {bit} with φ = {list(phi)}" for bit in (0, 1))
                    map_edges[phi] = accepted, texts
                if uniform:
                    first = level_maps.setdefault(depth, phi)
                    if first != phi:
                        raise TreeProblem(
                            where,
                            f"uniform tree: map {list(phi)} differs from map {list(first)} used elsewhere at depth {depth}",
                        )
            # Right child pushed first so the left subtree is examined first.
            for c in (1, 0):
                stack.append((children[c], where + (c,), path + ((point, accepted[c], texts[c]),)))
    except TreeProblem:
        _check_leaves(H, leaves)  # an earlier leaf's defect comes first
        raise
    _check_leaves(H, leaves)
    assert leaf_depth is not None
    return leaf_depth


#: Path entries read per batch by :func:`_check_leaves` (bounds the batch's memory).
_LEAF_BATCH = 1 << 16


def _check_leaves(H: HypothesisClass | None, leaves: list[tuple[int, tuple[int, ...], tuple]]) -> None:
    """Check that each leaf's hypothesis realises its path, in order; raise on the first that does not.

    The labels are read in one :meth:`HypothesisClass.labels` call for the
    whole batch (a depth-15 tree has ~5·10⁵ path entries); ``leaves`` is
    emptied.
    """
    if H is None or not leaves:
        leaves.clear()
        return
    rows = [j for j, _, path in leaves for _ in path]
    points = [entry[0] for _, _, path in leaves for entry in path]
    labs = H.labels(rows, points).tolist()
    k = 0
    for j, where, path in leaves:
        for level, (point, accepted, edge_text) in enumerate(path):
            lab = labs[k]
            k += 1
            if lab not in accepted:
                leaves.clear()
                raise TreeProblem(
                    where,
                    f"hypothesis {j} gives label {lab} to point {point}, so it "
                    f"does not realise the edge '{edge_text.format(point=point)}' at depth {level}",
                )
    leaves.clear()


def canonical_kind(kind: str) -> str:
    base = kind.split(":", 1)[0] if isinstance(kind, str) else kind
    if base not in _KIND_ALIASES:
        raise parameter_error(
            "kind", "validate_tree_json", '"binary", "multiclass", "psi" (or a result kind such as "littlestone")', kind
        )
    return _KIND_ALIASES[base]


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
        if d > MAX_LEVELS:
            raise InvalidWitnessError(f"tree: deeper than {MAX_LEVELS} levels (a cyclic object?)")
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
