"""What ``dimcalc check`` computes on a sparse class too big for a dense view: every dimension it can bound.

A sparse class over :data:`dimcalc.classes.sparse_table.DENSE_VIEW_CELLS` cells has
no dense or bit table, so the solvers that search one (Littlestone-type
dimensions) cannot run.  For a binary class the report still gives:

* ``vc``, ``natarajan``, ``graph`` -- exact, by the sparse search
  (:mod:`dimcalc.vc.sparse`; on a binary class the three are one search);
* ``littlestone`` and ``multiclass_littlestone`` -- proven bounds
  ``max(VC, g) <= LDim <= floor(log2 |H|)``: a shattered set, its points
  queried in order, is a complete mistake tree (Littlestone 1987), and ``g``
  is the depth of the greedy mistake tree built on the incidences
  (:func:`dimcalc.vc.sparse_trees.greedy_mistake_tree`, within the
  dimension's time share); the deeper of the two trees is the witness,
  checked by the tree checker on the sparse class; a mistake tree of depth
  ``d`` has ``2^d`` leaves realised by distinct hypotheses, hence the upper
  bound;
* the Ψ-Littlestone dimensions and the binary restrictions -- not computed,
  with the reason.

Examples
--------
>>> import numpy as np
>>> from dimcalc import HypothesisClass
>>> from dimcalc.classes.sparse_table import SparseTable
>>> n = 12_000
>>> H = HypothesisClass(SparseTable.from_cells(n, n, np.arange(n), np.arange(n)), num_labels=2)
>>> r = sparse_littlestone_bounds(H, "littlestone")
>>> (r.lower, r.upper, r.verify(H))
(1, 13, True)
>>> rows, cols = np.repeat(np.arange(64), np.arange(64)), np.concatenate([np.arange(i) for i in range(64)])
>>> T = SparseTable.from_cells(64, 2_000_000, rows, cols)  # 64 thresholds on 2e6 points: VC 1, LDim 6
>>> r = sparse_littlestone_bounds(HypothesisClass(T, num_labels=2), "littlestone")
>>> (r.lower, r.upper, r.stats["vc_lower"], r.stats["greedy_depth"])
(6, 6, 1, 6)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..classes.hypothesis_class import HypothesisClass
from ..classes.sparse_table import DENSE_VIEW_CELLS
from ..results import DimensionResult
from ..search.budget import Deadline
from ..witnesses import MistakeTree
from .dimensions import vc_dimension
from .sparse_trees import greedy_mistake_tree

__all__ = ["needs_sparse_reports", "sparse_littlestone_bounds", "sparse_solvers"]


def needs_sparse_reports(H: HypothesisClass) -> bool:
    """Whether ``H`` is stored sparse and too big for the dense views the other solvers read."""
    return H.storage == "sparse" and H.shape_cells() > DENSE_VIEW_CELLS


def _vc(H: HypothesisClass, time_limit: float | None) -> DimensionResult:
    """The VC result of ``H``, kept on the class once exact (the check asks for it again for LDim)."""
    cached = H.__dict__.get("_sparse_vc_result")
    if cached is not None:
        return cached
    r = vc_dimension(H, time_limit=time_limit)
    if r.exact:
        H.__dict__["_sparse_vc_result"] = r
    return r


def _tree(H: HypothesisClass, points: list[int], multiclass: bool) -> dict:
    """The complete mistake tree querying ``points`` in order, leaves the first file row of each pattern."""
    cols = H.columns(points)  # n_hypotheses x d: only the witness's columns
    first: dict[tuple[int, ...], int] = {}
    for row, pattern in enumerate(map(tuple, cols.tolist())):
        first.setdefault(pattern, row)

    def build(depth: int, prefix: tuple[int, ...]) -> dict:
        if depth == len(points):
            return {"hypothesis": first[prefix]}
        node: dict[str, Any] = {"point": points[depth]}
        if multiclass:
            node["labels"] = [0, 1]
        node["children"] = [build(depth + 1, prefix + (b,)) for b in (0, 1)]
        return node

    return build(0, ())


def _with_labels(tree: dict) -> dict:
    """The binary tree as a multiclass one (edge labels [0, 1])."""
    if "hypothesis" in tree:
        return tree
    return {"point": tree["point"], "labels": [0, 1], "children": [_with_labels(c) for c in tree["children"]]}


def sparse_littlestone_bounds(
    H: HypothesisClass, kind: str, *, time_limit: float | None = None, progress: bool = False
) -> DimensionResult:
    """``max(VC, greedy) <= LDim <= floor(log2 |H|)`` for a sparse binary class, the deeper tree as witness."""
    deadline = Deadline(time_limit)
    vc = _vc(H, time_limit)
    points = [int(p) for p in vc.witness] if isinstance(vc.witness, list) else []
    multiclass = kind == "multiclass_littlestone"
    tree = _tree(H, points, multiclass)
    lower = len(points)
    greedy, depth = greedy_mistake_tree(H, deadline=deadline)
    if depth > lower:
        tree, lower = (_with_labels(greedy) if multiclass else greedy), depth
    if kind == "littlestone":
        witness: Any = MistakeTree(tree)
    else:
        from ..witnesses import MulticlassTree

        witness = MulticlassTree(tree)
    reason = (
        f"sparse class of {H.n_hypotheses}x{H.n_points} cells (over the dense-view limit of {DENSE_VIEW_CELLS}): "
        "bounded by max(VC, greedy tree) <= LDim <= floor(log2 |H|), the deeper mistake tree as witness"
    )
    upper = max(lower, H.log2_size())
    return DimensionResult.bounds(kind, lower, upper, witness, method=reason, greedy_depth=depth, vc_lower=len(points))


def _not_computed(key: str) -> Callable[..., Any]:
    def run(H: HypothesisClass, *, time_limit: float | None = None, progress: bool = False) -> DimensionResult:
        return DimensionResult.undefined(
            key,
            f"not computed: a sparse class of {H.n_hypotheses}x{H.n_points} cells is over the dense-view limit "
            f"of {DENSE_VIEW_CELLS} its search reads; see 'littlestone' for the bounds this class has",
        )

    return run


def sparse_solvers(H: HypothesisClass, solvers: dict[str, Callable[..., Any]]) -> dict[str, Callable[..., Any]]:
    """``solvers`` (of :func:`dimcalc.reports.check.check_class`) adapted to ``H``: unchanged unless ``H`` is a
    sparse class over the dense-view limit, then the entries of the module docstring."""
    if not needs_sparse_reports(H):
        return solvers
    out = dict(solvers)
    for key in solvers:
        if key in ("vc", "natarajan", "graph"):
            continue
        if key in ("littlestone", "multiclass_littlestone"):
            out[key] = lambda H, *, time_limit=None, progress=False, _k=key: sparse_littlestone_bounds(
                H, _k, time_limit=time_limit, progress=progress
            )
        else:
            out[key] = _not_computed(key)
    return out
