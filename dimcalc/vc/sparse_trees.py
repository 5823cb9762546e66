"""A greedy complete mistake tree of a sparse set system, built on its incidences (a lower bound on LDim).

A complete mistake tree of depth ``d`` (Littlestone 1987; [BGS]_ Def. 2.10 for
the binary case) proves ``LDim >= d``.  For a class too big for the dense
Littlestone search, :func:`greedy_mistake_tree` builds one level by level:
each node's version space ``V`` (a set of distinct hypotheses, kept as an
array of row indices) is split on the point that splits it most evenly --
the element ``x`` maximising ``min(|V ∩ x|, |V \\ x|)``, counted from the
incidences of ``V``'s rows (ties: the smallest element) -- into the rows
without ``x`` (child 0) and the rows with ``x`` (child 1).  Two distinct
rows differ on an element, so every version space of two or more rows has a
split; the tree grows until a version space is a single row (or a time budget
runs out) and is then cut to its last complete level.  A level costs one
pass over the incidences of the rows (``O(nnz log)``), and nothing dense is
built.  The leaves name file rows; :func:`dimcalc.witnesses.tree_checks.is_mistake_tree`
certifies the tree on the sparse class (it reads ``H.label``).

References
----------
.. [L87] N. Littlestone, *Learning quickly when irrelevant attributes
   abound*, Machine Learning 2 (1988) -- mistake trees, ``LDim``.
.. [BGS] the seed paper's Definition 2.10 (complete mistake tree).

Examples
--------
>>> from dimcalc import HypothesisClass
>>> H = HypothesisClass.from_sets([set(), {0}, {0, 1}, {0, 1, 2}], storage="sparse")  # thresholds: LDim 2
>>> tree, depth = greedy_mistake_tree(H)
>>> depth, tree["point"]
(2, 1)
>>> from dimcalc.witnesses.tree_checks import is_mistake_tree
>>> is_mistake_tree(H, tree)
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..classes.hypothesis_class import HypothesisClass
from ..classes.sparse_table import SparseTable
from ..search.budget import Deadline

__all__ = ["greedy_mistake_tree", "best_split"]


def best_split(table: SparseTable, rows: np.ndarray) -> tuple[int, np.ndarray]:
    """``(x, has_x)``: the element splitting ``rows`` most evenly (ties: smallest) and which rows contain it.

    >>> T = SparseTable.from_cells(3, 3, [0, 1, 1, 2], [0, 0, 2, 2])
    >>> x, has = best_split(T, np.array([0, 1, 2]))
    >>> int(x), has.tolist()
    (0, [True, True, False])
    """
    sizes = table.indptr[rows + 1] - table.indptr[rows]
    total = int(sizes.sum())
    if total == 0:
        return -1, np.zeros(len(rows), dtype=bool)
    starts = np.repeat(table.indptr[rows], sizes)
    offs = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    elements = table.indices[starts + offs]
    values, counts = np.unique(elements, return_counts=True)
    balance = np.minimum(counts, len(rows) - counts)
    best = int(np.argmax(balance))  # first maximum: the smallest element (np.unique sorts)
    if balance[best] == 0:
        return -1, np.zeros(len(rows), dtype=bool)
    x = int(values[best])
    owner = np.repeat(np.arange(len(rows)), sizes)
    has_x = np.zeros(len(rows), dtype=bool)
    has_x[owner[elements == x]] = True
    return x, has_x


def greedy_mistake_tree(
    H: HypothesisClass, *, deadline: Deadline | None = None, max_depth: int | None = None
) -> tuple[dict[str, Any], int]:
    """A complete binary mistake tree of ``H`` (stored sparse or not) by the most even split, and its depth.

    Parameters
    ----------
    H : HypothesisClass
        A binary class; its distinct rows are read as a sparse table.
    deadline : Deadline, optional
        Stops the growth between version spaces; the tree is then cut to its last complete level.
    max_depth : int, optional
        Stop at this depth.

    Returns
    -------
    (dict, int)
        The tree in dimcalc's JSON form (``{"point", "children"}`` nodes, ``{"hypothesis": file row}`` leaves)
        and its depth; depth 0 is a single leaf.
    """
    table = H.distinct_sparse_table
    if table is None:
        table = SparseTable.from_bits(H.distinct_bit_table) if H.distinct_bit_table is not None else None
    if table is None:
        table = SparseTable.from_dense(H.distinct_rows)
    to_row = np.asarray(H.distinct_to_row)
    levels: list[list[int]] = []  # per level: the split point of each version space, left to right
    current = [np.arange(table.n_rows, dtype=np.int64)]
    limit = max_depth if max_depth is not None else H.log2_size()
    while len(levels) < limit and all(len(v) >= 2 for v in current):
        splits: list[int] = []
        children: list[np.ndarray] = []
        for v in current:
            if deadline is not None and deadline.expired():
                break
            x, has_x = best_split(table, v)
            splits.append(x)
            children += [v[~has_x], v[has_x]]
        if len(splits) < len(current):  # stopped inside the level: keep the complete levels
            break
        levels.append(splits)
        current = children

    # ``current`` holds the version spaces at depth len(levels), in order: the leaves.
    def build(level: int, index: int) -> dict[str, Any]:
        if level == len(levels):
            return {"hypothesis": int(to_row[current[index][0]])}
        x = levels[level][index]
        return {"point": x, "children": [build(level + 1, 2 * index), build(level + 1, 2 * index + 1)]}

    return build(0, 0), len(levels)
