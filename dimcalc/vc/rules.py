"""The necessary conditions of the VC-type search, each defined once (numpy search and compiled kernel).

A set ``S`` of virtual columns (:mod:`dimcalc.vc.columns`) on distinct points
is shattered when the hypotheses alive on all its columns fall into all
``2^|S|`` cells.  Every rule below is a *necessary* condition for a set to
grow into a shattered set of the target size ``T``; a rule that fails prunes
the set and never a set that can be completed, so the search stays exact.
The functions are plain Python on integers: the numpy search
(:mod:`dimcalc.vc.numpy_dfs`, :mod:`dimcalc.vc.dfs`) calls them as they are,
and the compiled kernel (:mod:`dimcalc.vc._kernel_impl`) compiles the very
same functions with ``numba.njit`` -- a pruning rule is changed here, in one
place, for both searches.  ``docs/vc.md`` ("Where a VC pruning rule goes")
lists each with its proof sketch.

Examples
--------
>>> need(6, 1), need(6, 6), triple_need(6), pair_need(6)
(32, 1, 8, 16)
>>> enough(3, 2), enough(1, 2)
(True, False)
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "need",
    "triple_need",
    "pair_need",
    "truss_need",
    "truss_clique",
    "enough",
    "alive_only",
    "side_sizes",
    "count_bound",
]


def need(target: int, size: int) -> int:
    """Hypotheses each cell of a ``size``-set needs on *each side* of the column that makes it ``size``.

    Size rule: a shattered ``T``-set has ``2^(T - |A|)`` of its patterns in
    every cell of a subset ``A``, each from its own hypothesis; so when a
    column ``z`` turns ``S`` (``size - 1`` columns) into ``S + {z}``, every
    cell of ``S`` needs ``2^(T - size)`` hypotheses with ``z = 1`` and as
    many with ``z = 0``.  At the root (``size = 1``) a column needs
    ``2^(T - 1)`` on each side; at the last column, ``1``.

    >>> [need(4, k) for k in (1, 2, 3, 4)]
    [8, 4, 2, 1]
    """
    return 1 << (target - size)


def pair_need(target: int) -> int:
    """Hypotheses in each of the 4 cells of a pair of a shattered ``target``-set: ``need(target, 2)``.

    >>> pair_need(3)
    2
    """
    return need(target, 2)


def triple_need(target: int) -> int:
    """Hypotheses in each of the 8 cells of a triple of a shattered ``target``-set: ``need(target, 3)``.

    Triple filter: every 3-subset of a shattered ``T``-set is a shattered
    3-set whose 8 cells hold ``2^(T - 3)`` hypotheses each (size rule on the
    triple), so a candidate ``z`` of ``S + {y}`` must form passing triples
    ``{s, y, z}`` with every ``s`` in ``S``.

    >>> triple_need(5)
    4
    """
    return need(target, 3)


def truss_need(target: int) -> int:
    """Common neighbours each edge of a completion has in the head graph of its first column: ``target - 3``.

    Head truss: join two candidates ``a, b`` of ``{y0}`` when ``{y0, a, b}``
    passes at ``triple_need(target)``.  The ``target - 1`` columns a
    shattered ``target``-set adds to its first column ``y0`` are pairwise
    joined (triple filter), a clique, so each edge between two of them has the
    ``target - 3`` others as common neighbours; an edge with fewer is in no
    completion of ``{y0}`` and is cut, repeatedly (the count is taken in what
    is left, which still holds every completion).

    >>> truss_need(6), truss_need(4)
    (3, 1)
    """
    return target - 3


def truss_clique(target: int) -> int:
    """Size of a clique each edge of a completion has among its common neighbours in the head graph (at most 3).

    The ``target - 3`` common neighbours :func:`truss_need` counts are the
    other columns of the completion, themselves pairwise joined: a clique of
    ``target - 3``, which holds a clique of ``min(target - 3, 3)`` (the size
    the kernel looks for).  An edge whose common neighbours hold none is cut.

    >>> truss_clique(6), truss_clique(5), truss_clique(9)
    (3, 2, 3)
    """
    return max(0, min(target - 3, 3))


def enough(distinct_points: int, still: int) -> bool:
    """Downward closure: a node whose candidates lie on fewer than ``still`` distinct points is dropped.

    Every completion of ``S`` uses ``still`` more columns, on distinct
    points, each a candidate of ``S`` (a column that fails at ``S`` fails at
    every superset: the cells of a superset refine those of ``S``).

    >>> enough(2, 2), enough(2, 3)
    (True, False)
    """
    return distinct_points >= still


def alive_only(ones: np.ndarray, zeros: np.ndarray) -> np.ndarray:
    """The hypotheses every cell below a column holds: those on one of its sides (``ones | zeros``).

    Narrowing: a hypothesis with another label at a Natarajan pair column
    ``(x, {a, b})`` is dead for every set containing it, so the cells of such a
    set, and the sides of every later column within them, are read on the
    hypotheses alive on that column only -- the same counts, fewer words.

    >>> alive_only(np.array([True, False, False]), np.array([False, False, True])).tolist()
    [True, False, True]
    """
    return ones | zeros


def side_sizes(counts: np.ndarray, kind: str) -> np.ndarray:
    """The largest smaller side of a virtual column on each point, from its label counts ``counts[point, label]``.

    VC: ``min(#1, #0)``; graph: the indicator ``[h(x) = l]`` of the best label,
    ``max_l min(#l, m - #l)``; Natarajan: the pair of the two most frequent
    labels, whose smaller side is the second largest count.

    >>> side_sizes(np.array([[5, 3, 1]]), "natarajan").tolist(), side_sizes(np.array([[5, 3, 1]]), "graph").tolist()
    ([3], [4])
    """
    m = counts.sum(axis=1, keepdims=True)
    if kind == "vc":
        return np.minimum(counts[:, 0], counts[:, -1]) if counts.shape[1] >= 2 else np.zeros(len(counts), np.int64)
    if kind == "graph":
        return np.minimum(counts, m - counts).max(axis=1)
    if counts.shape[1] < 2:
        return np.zeros(len(counts), np.int64)
    return -np.partition(-counts, 1, axis=1)[:, 1]


def count_bound(sides: np.ndarray) -> int:
    """Largest ``T`` such that ``T`` points have a virtual column with ``need(T, 1) = 2^(T-1)`` on each side.

    Points rule (an upper bound counted before any search): each of the ``T``
    points of a shattered ``T``-set carries a column of the set, whose sides
    hold ``2^(T-1)`` hypotheses each (size rule at ``k = 1``); ``sides`` holds
    the best smaller side of each point (:func:`side_sizes`).

    >>> count_bound(np.array([8, 8, 4, 4, 1]))
    3
    >>> count_bound(np.array([0, 0]))
    0
    """
    best = np.sort(np.asarray(sides, dtype=np.int64))[::-1]
    t = 0
    while t < len(best) and best[t] >= need(t + 1, 1):  # the (t+1)-th largest side reaches 2^t
        t += 1
    return t
