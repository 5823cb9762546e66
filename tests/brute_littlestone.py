"""Definition-level references for Littlestone-type dimensions of tiny classes.

Independent of :mod:`dimcalc.littlestone` (no recursion on version spaces, no
bitsets, no memoisation).  A complete tree of depth ``t`` has internal nodes
``0 .. 2**t - 2`` in breadth-first order (children of ``i``: ``2i+1`` for edge
0, ``2i+2`` for edge 1).  We enumerate *every* assignment of an option to the
internal nodes, where an option is

* binary mistake trees (Littlestone 1987): a point ``x`` (edges ``h(x)=0`` / ``h(x)=1``);
* io-labelled trees (BGS Def 2.10): a point ``x`` and labels ``a < b`` (edges
  ``h(x)=a`` / ``h(x)=b``; ``[b, a]`` is the mirror image of ``[a, b]`` and
  shatters iff it does);
* Ψ-trees (BGS Def 4.1): a point ``x`` and a map ``φ ∈ Ψ`` (edges
  ``φ(h(x))=0`` / ``φ(h(x))=1``); uniform trees use one map per level;

and test shattering by the path definition (BGS Defs 2.11–2.12, 4.2–4.3): every
one of the ``2**t`` root-to-leaf paths must be realised by one hypothesis.
The enumeration abandons a partial assignment as soon as some root-to-node
prefix is realised by no hypothesis (a prefix of a realised path is realised),
which only skips assignments that cannot shatter; and at each node it tries
only one of several options that split the hypotheses realising the prefix
identically (no other hypothesis can realise a path through the node, so such
options are interchangeable; not done for uniform trees, whose maps are shared
by a level).  The dimension is the
largest ``t`` with a shattered tree; ``t <= floor(log2 |H|)`` because the
leaves of a shattered tree are pairwise different functions.

Feasible for about 4 points, 8 hypotheses and depth 3.

Imports nothing from dimcalc: the class is read through its documented attributes
(``n_points``, ``num_labels``, ``n_distinct``, ``distinct_rows``, ``row_of``), and the
families Ψ^N, Ψ^bin, Ψ^B are written here from BGS §4.2.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any

#: A finite class, read through its attributes only (dimcalc.HypothesisClass satisfies it).
HypothesisClass = Any

__all__ = [
    "shattered_tree",
    "brute_littlestone",
    "brute_multiclass_littlestone",
    "brute_psi_littlestone",
    "brute_dimension",
    "all_dimensions",
]


def _rows(H: HypothesisClass, mask: int | None) -> list[tuple[int, tuple[int, ...]]]:
    """(file row, labels) of the distinct hypotheses in ``mask`` (all when None)."""
    out = []
    for j in range(H.n_distinct):
        if mask is None or (mask >> j) & 1:
            out.append((H.row_of(j), tuple(int(v) for v in H.distinct_rows[j])))
    return out


def family_maps(family: Any, num_labels: int) -> list[tuple]:
    """The maps of a family over labels ``0 .. num_labels-1`` (``None`` for ``*``), from BGS §4.2.

    Ψ^N: ``φ(w) = 0, φ(w') = 1``, ``*`` elsewhere, for every ordered pair ``w != w'``;
    Ψ^bin: ``φ_i(l) = (l >> (i-1)) & 1`` for ``i = 1 .. ceil(log2 num_labels)`` (at least 1);
    Ψ^B: every map to ``{0, 1, *}``; otherwise an iterable of maps (``"*"`` read as ``None``).
    """
    L = num_labels
    if family == "N":
        return [
            tuple(0 if v == w else 1 if v == w2 else None for v in range(L))
            for w, w2 in itertools.permutations(range(L), 2)
        ]
    if family == "bin":
        return [tuple((v >> (i - 1)) & 1 for v in range(L)) for i in range(1, max(1, (L - 1).bit_length()) + 1)]
    if family == "B":
        return list(itertools.product((0, 1, None), repeat=L))
    return [tuple(None if v in (None, "*") else int(v) for v in phi) for phi in family]


def _options(H: HypothesisClass, kind: str, family: Any) -> list[tuple]:
    """Node options: (point, labels accepted by edge 0, labels accepted by edge 1, JSON extras)."""
    opts = []
    for x in range(H.n_points):
        if kind == "binary":
            opts.append((x, frozenset({0}), frozenset({1}), {}))
        elif kind == "multiclass":
            for a in range(H.num_labels):
                for b in range(a + 1, H.num_labels):
                    opts.append((x, frozenset({a}), frozenset({b}), {"labels": [a, b]}))
        else:
            for phi in family_maps(family, H.num_labels):
                acc0 = frozenset(lab for lab, v in enumerate(phi) if v == 0)
                acc1 = frozenset(lab for lab, v in enumerate(phi) if v == 1)
                opts.append((x, acc0, acc1, {"map": list(phi)}))
    return opts


def _path_realiser(rows, assignment, leaf: int) -> int | None:
    """A file row realising every edge on the path to BFS node ``leaf``, by scanning ``rows``."""
    edges = []
    node = leaf
    while node > 0:
        parent, side = (node - 1) // 2, (node - 1) % 2
        x, acc0, acc1, _ = assignment[parent]
        edges.append((x, acc0 if side == 0 else acc1))
        node = parent
    for row, labels in rows:
        if all(labels[x] in acc for x, acc in edges):
            return row
    return None


def _to_json(assignment, leaf_rows: dict[int, int], node: int, n_internal: int) -> dict:
    if node >= n_internal:
        return {"hypothesis": leaf_rows[node]}
    x, _, _, extra = assignment[node]
    return {
        "point": x,
        **extra,
        "children": [
            _to_json(assignment, leaf_rows, 2 * node + 1, n_internal),
            _to_json(assignment, leaf_rows, 2 * node + 2, n_internal),
        ],
    }


def shattered_tree(
    H: HypothesisClass, t: int, kind: str, family: Any = None, *, uniform: bool = False, mask: int | None = None
) -> dict | None:
    """A complete tree of depth ``t`` shattered by ``H`` (restricted to ``mask``), or None.

    ``kind`` is ``"binary"``, ``"multiclass"`` or ``"psi"``.  The tree is in the
    spec §3 JSON format (leaves are file rows).
    """
    rows = _rows(H, mask)
    if not rows:
        return None
    n_internal = 2**t - 1
    if t == 0:
        return {"hypothesis": rows[0][0]}
    options = _options(H, kind, family)
    assignment: list = [None] * n_internal
    # realisers[v] = rows realising the path prefix root -> v (for pruning only).
    realisers: dict[int, list] = {0: rows}
    found: list[dict] = []

    def assign(i: int) -> bool:
        if i == n_internal:
            # Shattering by the path definition, independently of the pruning data.
            leaf_rows = {}
            for leaf in range(n_internal, 2 * n_internal + 1):
                row = _path_realiser(rows, assignment, leaf)
                if row is None:
                    return False
                leaf_rows[leaf] = row
            found.append(_to_json(assignment, leaf_rows, 0, n_internal))
            return True
        level = (i + 1).bit_length() - 1
        first_of_level = 2**level - 1
        tried = set()
        for opt in options:
            if uniform and kind == "psi" and i != first_of_level and opt[3] != assignment[first_of_level][3]:
                continue
            x, acc0, acc1, _ = opt
            r0 = [r for r in realisers[i] if r[1][x] in acc0]
            r1 = [r for r in realisers[i] if r[1][x] in acc1]
            if not r0 or not r1:
                continue
            if not (uniform and kind == "psi"):
                # Only rows realising the prefix to node i can realise a path through it, so two
                # options splitting those rows identically are interchangeable here: try one.
                split = (tuple(r[0] for r in r0), tuple(r[0] for r in r1))
                if split in tried:
                    continue
                tried.add(split)
            assignment[i] = opt
            realisers[2 * i + 1], realisers[2 * i + 2] = r0, r1
            if assign(i + 1):
                return True
        assignment[i] = None
        return False

    return found[0] if assign(0) else None


def brute_dimension(
    H: HypothesisClass, kind: str, family: Any = None, *, uniform: bool = False, mask: int | None = None
) -> int:
    """Largest ``t`` with a shattered tree of ``kind``; ``-1`` for an empty version space."""
    n = len(_rows(H, mask))
    if n == 0:
        return -1
    cap = n.bit_length() - 1  # floor(log2 n): leaves of a shattered tree are distinct functions
    t = 0
    while t < cap and shattered_tree(H, t + 1, kind, family, uniform=uniform, mask=mask) is not None:
        t += 1
    return t


def brute_littlestone(H: HypothesisClass, mask: int | None = None) -> int:
    """Littlestone dimension of a binary class (of the version space ``mask``)."""
    assert H.is_binary
    return brute_dimension(H, "binary", mask=mask)


def brute_multiclass_littlestone(H: HypothesisClass, mask: int | None = None) -> int:
    """Multiclass Littlestone dimension (BGS Def 2.13)."""
    return brute_dimension(H, "multiclass", mask=mask)


def brute_psi_littlestone(H: HypothesisClass, family: Any, uniform: bool = False, mask: int | None = None) -> int:
    """Ψ-Littlestone dimension or its uniform variant (BGS Def 4.4)."""
    return brute_dimension(H, "psi", family, uniform=uniform, mask=mask)


def all_dimensions(H: HypothesisClass, families: Iterable[str] = ("N", "bin", "B")) -> dict:
    """Every brute-force dimension of ``H`` in a dict (for debugging and tables)."""
    out = {"multiclass_littlestone": brute_multiclass_littlestone(H)}
    if H.is_binary:
        out["littlestone"] = brute_littlestone(H)
    for f in families:
        out[f"psi_littlestone:{f}"] = brute_psi_littlestone(H, f)
        out[f"psi_littlestone_uniform:{f}"] = brute_psi_littlestone(H, f, True)
    return out
