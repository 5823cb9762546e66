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

__all__ = ["need", "triple_need", "pair_need", "enough"]


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


def enough(distinct_points: int, still: int) -> bool:
    """Downward closure: a node whose candidates lie on fewer than ``still`` distinct points is dropped.

    Every completion of ``S`` uses ``still`` more columns, on distinct
    points, each a candidate of ``S`` (a column that fails at ``S`` fails at
    every superset: the cells of a superset refine those of ``S``).

    >>> enough(2, 2), enough(2, 3)
    (True, False)
    """
    return distinct_points >= still
