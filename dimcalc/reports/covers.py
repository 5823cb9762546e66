"""The cover report: a 0-cover number with its witness beside the bounds of BGS Thm 5.6.

``N(0, H, z)`` for an input tree ``z`` (BGS Def 5.4) or ``N(0, H, n)``, its
supremum over trees of depth ``n`` (Def 5.5), each with a minimum cover and a
fooling set of the same size as witness; beside it the trivial bound
``min(|H|, (k+1)^n)`` and, with ``d`` the multiclass Littlestone dimension, BGS
Thm 5.6's ``sum_{i<=d} C(n, i) k^i`` and ``(e k n / d)^d``.  What ``dimcalc cover`` prints.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..classes.hypothesis_class import HypothesisClass
from ..covers import (
    DEFAULT_MAX_WITNESS_NODES,
    sauer_zero_cover_bound,
    sauer_zero_cover_exponential_bound,
    trivial_zero_cover_bound,
    zero_cover_function,
    zero_cover_number,
)
from ..errors import InvalidParameterError
from ..littlestone import multiclass_littlestone_dimension
from ..results import DimensionResult
from ..search.budget import Deadline
from ..validation import check_hypothesis_class, check_int, check_time_limit

__all__ = ["CoverReport", "cover_report", "SEARCH_SHARE"]

#: Share of the time limit the search for ``N(0, H, n)`` gets; the rest checks (and prints) the witness.
SEARCH_SHARE = 0.85


@dataclass(frozen=True)
class CoverReport:
    """A 0-cover number (``result``) for ``depth``, whether its witness passed dimcalc's checker, and bounds.

    ``bounds`` holds ``trivial_upper`` always; with the multiclass Littlestone
    dimension ``d`` (``mld``, its proven upper bound when stopped) also ``mld``
    (its JSON without witness), ``thm_5_6_sum`` and, when ``0 < d <= depth``
    and ``k > 0``, ``thm_5_6_exponential``.
    """

    result: DimensionResult
    depth: int
    verified: bool
    mld: DimensionResult
    bounds: dict

    @property
    def witness_values(self) -> int:
        """JSON values in the witness: the tree, the cover's output trees, the fooling set's pairs."""
        witness = self.result.witness
        nodes = (1 << self.depth) - 1
        cover = witness.get("cover")
        return nodes + (len(cover) * nodes if cover else 0) + len(witness["fooling_set"]) * max(self.depth, 1)

    def to_json(self, witness: Any = None) -> dict:
        """The result's JSON with ``depth``, ``verified`` and ``bounds`` (``witness``, if given, replaces its witness)."""
        out = self.result.to_json()
        if witness is not None:
            out["witness"] = witness
        out.update(depth=self.depth, verified=self.verified, bounds=self.bounds)
        return out


def cover_report(
    H: HypothesisClass,
    tree: Any = None,
    depth: int | None = None,
    *,
    time_limit: float | None = None,
    max_witness_nodes: int = DEFAULT_MAX_WITNESS_NODES,
) -> CoverReport:
    """``N(0, H, tree)`` (given a tree) or ``N(0, H, depth)``, verified, with the bounds of BGS Thm 5.6.

    Parameters
    ----------
    H : HypothesisClass
        The class.
    tree : dict, optional
        An input-labelled tree (spec format; see :func:`dimcalc.io`'s tree loading): compute
        ``N(0, H, tree)``.  Exactly one of ``tree`` and ``depth``.
    depth : int, optional
        Compute ``N(0, H, depth)``, the supremum over trees of this depth.
    time_limit : float, optional
        Seconds for the whole report; the search for ``N(0, H, depth)`` gets
        :data:`SEARCH_SHARE` of them, the rest checks the witness.  A stopped
        search leaves proven bounds.
    max_witness_nodes : int, default DEFAULT_MAX_WITNESS_NODES
        Largest cover built as witness (nodes); beyond it the fooling set certifies the value alone.

    Returns
    -------
    CoverReport
        The result (witness: tree, fooling set, minimum cover), its verification and the bounds.

    References
    ----------
    BGS Defs 5.4-5.5, Thm 5.6 (Bun, Gaboardi, Sivakumar, NeurIPS 2021).

    Examples
    --------
    >>> import numpy as np
    >>> from dimcalc import HypothesisClass
    >>> T = HypothesisClass.from_table(np.tril(np.ones((5, 4), dtype=int), -1))   # thresholds on 4 points
    >>> report = cover_report(T, depth=2)
    >>> report.result.value, report.verified, report.bounds["trivial_upper"], report.bounds["thm_5_6_sum"]
    (4, True, 4, 4)
    """
    owner = "cover_report"
    H = check_hypothesis_class(H, owner)
    if (tree is None) == (depth is None):
        raise InvalidParameterError("cover_report needs exactly one of tree and depth")
    if depth is not None:
        depth = check_int(depth, "depth", owner, 0)
    deadline = Deadline(check_time_limit(time_limit, owner))
    if depth is None:
        result = zero_cover_number(H, tree, time_limit=deadline.left(), max_witness_nodes=max_witness_nodes)
        n = result.stats["depth"]
    else:
        n = depth
        left = deadline.remaining()
        result = zero_cover_function(
            H,
            n,
            time_limit=None if left is None else max(left * SEARCH_SHARE, 1e-3),
            max_witness_nodes=max_witness_nodes,
        )
    verified = result.verify(H)
    bounds: dict[str, Any] = {"trivial_upper": trivial_zero_cover_bound(H, n)}
    mld = multiclass_littlestone_dimension(H, time_limit=deadline.left())
    if mld.upper is not None:
        d, k = mld.upper, H.max_label
        bounds["mld"] = mld.to_json() | {"witness": None}
        bounds["thm_5_6_sum"] = sauer_zero_cover_bound(n, d, k)
        if 0 < d <= n and k > 0:
            bounds["thm_5_6_exponential"] = sauer_zero_cover_exponential_bound(n, d, k)
    return CoverReport(result, n, verified, mld, bounds)
