"""Splitters: the canonical splits of a version space, one class per Littlestone-type family.

A splitter turns a version space ``V`` (bitset over distinct hypotheses) and
the list of live columns into ``(new_live, splits)`` with ``splits = [(V0, V1,
desc), ...]``, both children non-empty, one entry per unordered child pair
(reductions 1-4 of :mod:`dimcalc.littlestone`, proved at each class), and
builds a tree node from a description and two subtrees (:mod:`.nodes`).
:func:`splitter_for` picks the splitter of a family over the class's reduced columns: the one entry.
The splits' types and the protocol are in :mod:`.splits`, the binary word splitter in
:mod:`.column_splitter`, the label-class splitters in :mod:`.label_splitters`; all are re-exported here.

References
----------
Littlestone (1987); BGS Defs 2.10-2.13, 4.1-4.4, §4.2 (Lemma 4.5).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..classes.hypothesis_class import HypothesisClass, label_bits, words_to_ints
from ..search.budget import Deadline
from .column_splitter import ColumnSplitter
from .label_splitters import BipartitionSplitter, MapSplitter, PairSplitter
from .nodes import bin_node, binary_node, bipartition_node, multiclass_node, pair_map_node, user_node
from .splits import (
    VECTOR_MIN_LIVE,
    Candidate,
    ColumnCandidates,
    NodeSplits,
    Split,
    Splitter,
    balance_bound,
    candidates_of_splits,
    ints_in_steps,
)

__all__ = [
    "Split",
    "Candidate",
    "ColumnCandidates",
    "NodeSplits",
    "balance_bound",
    "candidates_of_splits",
    "Splitter",
    "ColumnSplitter",
    "PairSplitter",
    "BipartitionSplitter",
    "MapSplitter",
    "splitter_for",
    "reduced_points",
    "FAMILY_NAMES",
    "VECTOR_MIN_LIVE",
]


FAMILY_NAMES = ("N", "bin", "B")


def _bin_ones(
    H: HypothesisClass, points: Sequence[int], deadline: Deadline | None = None
) -> tuple[list[int], int, np.ndarray]:
    """Ψ^bin's virtual columns (point, bit): the rows whose label at the point has that bit set.

    Column ``x * bits + bit``; returned as Python ints and as numpy words.
    """
    bits = label_bits(H.num_labels)
    words = H.point_label_words(points, deadline)  # (labels, points, W)
    per_bit = np.zeros((len(points), bits, words.shape[2]), dtype=np.uint64)
    for lab in range(H.num_labels):
        for bit in range(bits):
            if lab >> bit & 1:
                per_bit[:, bit] |= words[lab]
    flat = per_bit.reshape(len(points) * bits, words.shape[2])
    return words_to_ints(flat), bits, flat


#: Families whose value is unchanged when a point's labels are renamed: their splitters may use the
#: columns reduced up to relabelling (dimcalc.classes.reduction); Ψ^bin and user maps read label values.
_RELABEL_INVARIANT = ("LD", "MLD", "N", "B")


def reduced_points(H: HypothesisClass, family: str, deadline: Deadline | None = None) -> list[int]:
    """The representative points of :meth:`HypothesisClass.column_reduction` for ``family``."""
    red = H.column_reduction(relabel=family in _RELABEL_INVARIANT, deadline=deadline)
    if deadline is not None:
        deadline.check()
    return red.points.tolist()


def splitter_for(
    H: HypothesisClass, family: str, maps: Sequence[tuple] | None = None, deadline: Deadline | None = None
) -> Any:
    """The splitter of a dimension: 'LD', 'MLD', 'N', 'bin', 'B' or 'user' (with maps).

    Splitters work on the class's reduced columns (constant points dropped,
    duplicate points merged: every Littlestone-type dimension is unchanged,
    see :mod:`dimcalc.classes.reduction`); tree nodes name the representatives' original points.
    """
    points = reduced_points(H, family, deadline)
    if family == "LD":
        words = H.point_label_words(points, deadline)[min(1, H.num_labels - 1)]
        return ColumnSplitter(ints_in_steps(words, deadline), binary_node(points), H.n_distinct, words)
    if family == "MLD":
        return PairSplitter(H, multiclass_node(points), points, deadline)
    if family == "N":
        return PairSplitter(H, pair_map_node(H.num_labels, points), points, deadline)
    if family == "bin":
        ones, bits, words = _bin_ones(H, points, deadline)
        return ColumnSplitter(ones, bin_node(H.num_labels, bits, points), H.n_distinct, words)
    if family == "B":
        return BipartitionSplitter(H, bipartition_node(H.num_labels, points), points, deadline)
    assert maps is not None
    return MapSplitter(H, maps, user_node(maps, points), points, deadline)
