"""Proven relations between the dimensions of one class, and the bounds they share.

:func:`tighten_by_relations` is how :func:`dimcalc.reports.check.check_class`
tightens stopped searches: along :data:`RELATIONS` (every class) and
:data:`BINARY_EQUAL` (binary classes) a stopped dimension takes a larger
dimension's proven upper bound, and a larger lower bound from a smaller one
when that one's tree, rewritten by :func:`retag_tree`, passes the target's own
checker.
"""

from __future__ import annotations

from typing import Any

from ..classes.hypothesis_class import HypothesisClass
from ..errors import InvalidWitnessError
from ..results import DimensionResult

__all__ = [
    "RELATIONS",
    "TREE_PATHS",
    "BINARY_EQUAL",
    "PSI_FAMILIES",
    "raise_lower",
    "results_of",
    "retag_tree",
    "tighten_by_relations",
]

PSI_FAMILIES = ("N", "bin", "B")


#: Proven inequalities ``small <= big`` between dimensions of every class, with their source: a
#: stopped search for ``small`` takes ``big``'s proven upper bound.  Names are report paths
#: (``psi_littlestone.bin``: the ``bin`` entry of ``psi_littlestone``; ``binary_restrictions.max``:
#: every entry of ``binary_restrictions``).
RELATIONS: tuple[tuple[str, str, str], ...] = (
    # Ben-David, Cesa-Bianchi, Haussler, Long 1995, recalled in BGS §1.2: a Natarajan-shattered set with
    # f0, f1 is graph-shattered with f = f1
    ("natarajan", "graph", "BDCHL95 (BGS §1.2)"),
    # Littlestone 1987: a shattered set, queried in any order, is a mistake tree
    ("vc", "littlestone", "Littlestone 1987"),
    # the same tree with edge labels f0(x), f1(x) (BGS Defs 2.10-2.13)
    ("natarajan", "multiclass_littlestone", "BGS Defs 2.10-2.13"),
    # BGS Lemma 4.5: MLD = Ψ^N-LD (both directions)
    ("multiclass_littlestone", "psi_littlestone.N", "BGS Lemma 4.5"),
    ("psi_littlestone.N", "multiclass_littlestone", "BGS Lemma 4.5"),
    # BGS Claim 4.7: Ψ^N-LD <= Ψ^bin-LD <= Ψ^B-LD
    ("psi_littlestone.N", "psi_littlestone.bin", "BGS Claim 4.7"),
    ("psi_littlestone.bin", "psi_littlestone.B", "BGS Claim 4.7"),
    # BGS Claim 4.6: max_j LDim(H|_j) <= Ψ^bin-LD-uniform <= Ψ^bin-LD; its first line (a uniformly
    # labelled shattered tree is a labelled one) holds for every family
    ("binary_restrictions.max", "psi_littlestone_uniform.bin", "BGS Claim 4.6"),
    ("psi_littlestone_uniform.N", "psi_littlestone.N", "BGS Claim 4.6 (proof, any Ψ)"),
    ("psi_littlestone_uniform.bin", "psi_littlestone.bin", "BGS Claim 4.6"),
    ("psi_littlestone_uniform.B", "psi_littlestone.B", "BGS Claim 4.6 (proof, any Ψ)"),
    ("psi_littlestone_uniform.user", "psi_littlestone.user", "BGS Claim 4.6 (proof, any Ψ)"),
    # Natarajan <= DS <= graph and RTD <= TD: docs/dimensions.md (DS14/BCDMY22; ZLHZ11)
    ("natarajan", "ds", "DS14 / BCDMY22"),
    ("ds", "graph", "DS14 / BCDMY22"),
    ("recursive_teaching", "teaching", "ZLHZ11"),
)

#: On a binary class these are equal (each group shares its tightest upper bound).  VC = Natarajan =
#: graph: with two labels f0 and f1 must differ everywhere on S, so f0 = 1 - f1 and every split is a
#: shattering pattern (BGS §1.2).  LDim = MLD = Ψ-LD for Ψ^N, Ψ^bin, Ψ^B, uniform or not, = LDim(H|_1):
#: with k = 1 a collapsing map that separates the two labels is the identity or its flip (BGS Def 4.1),
#: so a Ψ-labelled tree is an io-labelled tree with its children possibly swapped (Defs 2.10, 4.2), and
#: H|_1 = H (Def 3.3).
BINARY_EQUAL: tuple[tuple[str, ...], ...] = (
    ("vc", "natarajan", "graph"),
    (
        "littlestone",
        "multiclass_littlestone",
        "psi_littlestone.N",
        "psi_littlestone.bin",
        "psi_littlestone.B",
        "psi_littlestone_uniform.N",
        "psi_littlestone_uniform.bin",
        "psi_littlestone_uniform.B",
        "binary_restrictions.max",
    ),
)


def _paths(dimensions: dict[str, Any], name: str) -> list[tuple[str, Any]]:
    """``(path, result)`` pairs a relation name stands for (``binary_restrictions.max``: every entry)."""
    key, _, sub = name.partition(".")
    value = dimensions.get(key)
    if isinstance(value, DimensionResult) and not sub:
        return [(name, value)]
    if isinstance(value, dict) and sub in value:
        return [(name, value[sub])]
    if isinstance(value, list) and sub == "max":
        return [(f"{key}.{i}", r) for i, r in enumerate(value, start=1)]
    return []


def _upper_of(dimensions: dict[str, Any], name: str) -> int | None:
    """The proven upper bound of ``name`` (``binary_restrictions.max``: the largest of the entries')."""
    results = [r for _, r in _paths(dimensions, name)]
    if not results or any(r.upper is None or r.lower is None for r in results):
        return None
    return max(r.upper for r in results) if name.endswith(".max") else results[0].upper


def _lower_upper(dimensions: dict[str, Any], name: str, upper: int, big: str, source: str) -> bool:
    """Replace the results behind ``name`` whose upper bound is above ``upper`` (``True`` if any was)."""
    changed = False
    key, _, sub = name.partition(".")
    for path, r in _paths(dimensions, name):
        if r.exact or r.lower is None or (r.upper is not None and r.upper <= upper):
            continue
        stats = dict(r.stats, upper_from=big, upper_relation=source)
        new = DimensionResult.bounds(r.kind, r.lower, max(r.lower, upper), r.witness, **stats)
        if isinstance(dimensions[key], DimensionResult):
            dimensions[key] = new
        elif isinstance(dimensions[key], dict):
            dimensions[key] = {**dimensions[key], sub: new}
        else:
            index = int(path.rsplit(".", 1)[1]) - 1
            dimensions[key] = [new if i == index else x for i, x in enumerate(dimensions[key])]
        changed = True
    return changed


def _node_map(node: dict, num_labels: int) -> list[int | None] | None:
    """A tree node's test as a collapsing map over the labels (``None``: not a tree node dimcalc knows)."""
    if "map" in node:
        return list(node["map"])
    if "labels" in node:
        w0, w1 = node["labels"]
        return [0 if label == w0 else 1 if label == w1 else None for label in range(num_labels)]
    if num_labels == 2:  # a binary mistake tree: the identity map
        return [0, 1]
    return None


def retag_tree(tree: Any, kind: str, num_labels: int) -> dict | None:
    """The same shattered tree written as a witness of ``kind`` (``None`` when it cannot be).

    Every node keeps its point and children; its test is rewritten: a mistake tree's identity map
    and an io-labelled node's edge labels ``(w, w')`` are the collapsing map ``φ_{w,w'}`` (BGS
    Lemma 4.5), a collapsing map that sends one label to 0, one to 1 and the rest to ``*`` is the
    io-labelled node ``(w, w')``, a map stays a map (BGS Claim 4.7: Ψ^bin ⊆ Ψ^B; Claim 4.6: a
    uniform tree is a tree).  Whether the rewritten tree proves anything is the target checker's
    decision: :func:`raise_lower` certifies it before using it.
    """
    if not isinstance(tree, dict):
        return None
    if "hypothesis" in tree:
        return {"hypothesis": tree["hypothesis"]}
    phi = _node_map(tree, num_labels)
    children = tree.get("children")
    if phi is None or not isinstance(children, list) or len(children) != 2:
        return None
    kids = [retag_tree(c, kind, num_labels) for c in children]
    if kids[0] is None or kids[1] is None:
        return None
    if kind == "littlestone":
        if phi == [1, 0]:
            kids = kids[::-1]
        elif phi != [0, 1]:
            return None
        return {"point": tree["point"], "children": kids}
    if kind == "multiclass_littlestone":
        zeros = [label for label, v in enumerate(phi) if v == 0]
        ones = [label for label, v in enumerate(phi) if v == 1]
        if len(zeros) != 1 or len(ones) != 1:
            return None
        return {"point": tree["point"], "labels": [zeros[0], ones[0]], "children": kids}
    return {"point": tree["point"], "map": phi, "children": kids}


def witness_as(tree: Any, name: str, num_labels: int) -> Any:
    """``tree`` as the witness object of report path ``name`` (``None`` when it cannot be one)."""
    from ..witnesses.tree_walk import gc_paused

    with gc_paused():  # a copy of every node: nothing to collect, and the collector's passes cost ~40 %
        return _witness_as(tree, name, num_labels)


def _witness_as(tree: Any, name: str, num_labels: int) -> Any:
    from ..witnesses.trees import MistakeTree, MulticlassTree, PsiTree

    key, _, family = name.partition(".")
    if key == "littlestone":
        body = retag_tree(tree, "littlestone", num_labels)
        return None if body is None else MistakeTree(body)
    if key == "multiclass_littlestone":
        body = retag_tree(tree, "multiclass_littlestone", num_labels)
        return None if body is None else MulticlassTree(body)
    if key in ("psi_littlestone", "psi_littlestone_uniform") and family in PSI_FAMILIES:
        body = retag_tree(tree, "psi", num_labels)
        return None if body is None else PsiTree(body, family=family, uniform=key == "psi_littlestone_uniform")
    return None


#: Report paths whose witnesses are trees :func:`retag_tree` can rewrite.
TREE_PATHS = ("littlestone", "multiclass_littlestone") + tuple(
    f"{key}.{family}" for key in ("psi_littlestone", "psi_littlestone_uniform") for family in PSI_FAMILIES
)


def raise_lower(
    dimensions: dict[str, Any],
    big: str,
    lower: int,
    tree: Any,
    H: HypothesisClass,
    lower_from: str,
    source: str,
    certified: Any = None,
    record: list | None = None,
) -> bool:
    """Raise the lower bound of a stopped ``big`` to ``lower``, with ``tree`` rewritten as ``big``'s witness
    (:func:`retag_tree`) and certified by ``big``'s own checker first (never an unwitnessed bound).

    ``certified``: ``big``'s witness already rewritten and certified at ``lower`` by ``big``'s checker (on
    ``H``, by the caller), used as it is.  ``True`` when the result behind ``big`` was replaced (stats
    ``lower_from``, ``lower_relation``); the new result is appended to ``record`` when given (its witness
    has passed its checker: a report need not check it again).
    """
    if big == "binary_restrictions.max":
        return _raise_restriction(dimensions, lower, tree, H, lower_from, source, record)
    b = _paths(dimensions, big) if big in TREE_PATHS else []
    if not b:
        return False
    target = b[0][1]
    if target.lower is None or target.exact or lower <= target.lower:
        return False
    witness = certified
    if witness is None:
        witness = witness_as(tree, big, H.num_labels)
        if not _proves(witness, H, lower):
            return False
    new = _raised(target, lower, witness, lower_from, source)
    if record is not None:
        record.append(new)
    key, _, sub = big.partition(".")
    dimensions[key] = {**dimensions[key], sub: new} if sub else new
    return True


def _proves(witness: Any, H: HypothesisClass, lower: int) -> bool:
    """Whether ``witness`` (or ``None``) is certified on ``H`` at exactly ``lower`` by its own checker."""
    try:
        return witness is not None and witness.certify(H) == lower
    except InvalidWitnessError:
        return False


def _raised(target: DimensionResult, lower: int, witness: Any, lower_from: str, source: str) -> DimensionResult:
    """``target`` with its lower bound raised to ``lower`` by ``witness``, saying where the bound came from."""
    upper = target.upper if target.upper is None else max(target.upper, lower)
    stats = dict(target.stats, lower_from=lower_from, lower_relation=source)
    return DimensionResult.bounds(target.kind, lower, upper, witness, **stats)


def _raise_restriction(
    dimensions: dict[str, Any], lower: int, tree: Any, H: HypothesisClass, lower_from: str, source: str, record: Any
) -> bool:
    """:func:`raise_lower` for the binary restriction of a binary class: ``H|_1 = H`` (BGS Def 3.3), so a
    mistake tree of ``H`` is one of ``H|_1``; certified by the restriction's checker before it is used."""
    from ..witnesses.trees import RestrictionTree

    parts = dimensions.get("binary_restrictions")
    if not H.is_binary or not isinstance(parts, list) or len(parts) != 1:
        return False
    target = parts[0]
    if not isinstance(target, DimensionResult) or target.lower is None or target.exact or lower <= target.lower:
        return False
    body = retag_tree(tree, "littlestone", H.num_labels)
    witness = None if body is None else RestrictionTree(body, restriction=1)
    if not _proves(witness, H, lower):
        return False
    new = _raised(target, lower, witness, lower_from, source)
    if record is not None:
        record.append(new)
    dimensions["binary_restrictions"] = [new]
    return True


def _carry_lowers(
    dimensions: dict[str, Any], pairs: list[tuple[str, str, str]], H: HypothesisClass, record: list | None
) -> bool:
    """Raise the lower bound of a stopped ``big`` to a ``small``'s larger one (:func:`raise_lower`)."""
    changed = False
    for small, big, source in pairs:
        a = _paths(dimensions, small) if small in TREE_PATHS else []
        if a and a[0][1].lower is not None:
            changed |= raise_lower(dimensions, big, a[0][1].lower, a[0][1].witness, H, small, source, record=record)
    return changed


def tighten_by_relations(
    dimensions: dict[str, Any], binary: bool = False, H: HypothesisClass | None = None, record: list | None = None
) -> None:
    """Share proven bounds along :data:`RELATIONS` (and :data:`BINARY_EQUAL` on a binary class) until
    nothing changes; results are replaced, not mutated.  A stopped ``small`` takes ``big``'s upper
    bound; with ``H``, a stopped ``big`` takes a ``small``'s larger lower bound when the ``small``'s
    tree, rewritten for ``big`` (:func:`retag_tree`), passes ``big``'s checker (stats ``lower_from``,
    ``lower_relation`` name where it came from; each such result is appended to ``record`` when given)."""
    pairs = [(small, big, source) for small, big, source in RELATIONS]
    if binary:
        for group in BINARY_EQUAL:
            pairs += [(a, b, "equal on binary classes (see BINARY_EQUAL)") for a in group for b in group if a != b]
    for _ in range(len(pairs) + 1):
        changed = H is not None and _carry_lowers(dimensions, pairs, H, record)
        for small, big, source in pairs:
            upper = _upper_of(dimensions, big)
            if upper is not None and _lower_upper(dimensions, small, upper, big, source):
                changed = True
        if not changed:
            break


def results_of(value: Any) -> list[DimensionResult]:
    if isinstance(value, DimensionResult):
        return [value]
    if isinstance(value, dict):
        return [r for v in value.values() for r in results_of(v)]
    if isinstance(value, list):
        return [r for v in value for r in results_of(v)]
    return []
