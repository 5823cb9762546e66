"""Binary families on a line and on the cube: point functions, k-point functions, thresholds, intervals, parities.

References
----------
.. [BNS] M. Bun, K. Nissim, U. Stemmer. Simultaneous Private Learning of
   Multiple Concepts. JMLR 20 (2019), §6 (PointLearner, ParityLearner).
.. [FX] V. Feldman, D. Xiao. Sample Complexity Bounds on Differentially
   Private Learning via Communication Complexity. COLT 2014, §3.1 and §4.1 (``Thr_b``).
.. [BGS] M. Bun, M. Gaboardi, S. Sivakumar. Multiclass versus Binary
   Differentially Private PAC Learning. NeurIPS 2021, Theorem 7.2 (``d``-point functions).
"""

from __future__ import annotations

import math

import numpy as np

from ..classes.bit_table import BitTable
from ..classes.hypothesis_class import MAX_BINARY_CELLS, HypothesisClass
from ..validation import check_int
from ._common import check_size, k_subsets, make, numbered

__all__ = ["point_functions", "k_point_functions", "thresholds", "intervals", "parities"]


def point_functions(n: int) -> HypothesisClass:
    """Point functions over ``n`` points: ``f_j(x_i) = 1`` iff ``i = j``.

    ``n`` hypotheses (the all-zero function is *not* included); VC dimension
    and Littlestone dimension 1 when ``n >= 2``.

    Parameters
    ----------
    n : int
        Number of points, ``n >= 1``.

    Returns
    -------
    HypothesisClass

    References
    ----------
    BNS §6 (PointLearner, Algorithm 5; ``POINT_d``).

    Examples
    --------
    >>> point_functions(3).table.tolist()
    [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    """
    n = check_int(n, "n", "point_functions", 1)
    check_size(n, n, "point_functions", "n")
    return make(
        np.eye(n, dtype=np.int64),
        family="point-functions",
        params={"n": n},
        source="BNS §6, POINT (PointLearner)",
        name=f"point-functions-{n}",
        point_names=numbered("x", n),
        hypothesis_names=numbered("pt", n),
    )


def k_point_functions(n: int, k: int) -> HypothesisClass:
    """Indicators of the sets of exactly ``k`` of ``n`` points (``C(n, k)`` hypotheses).

    Rows follow the lexicographic order of the ``k``-sets.  VC and Littlestone
    dimension ``min(k, n - k)``.

    Parameters
    ----------
    n : int
        Number of points, ``n >= 1``.
    k : int
        Set size, ``1 <= k <= n``.

    Returns
    -------
    HypothesisClass

    References
    ----------
    BGS Theorem 7.2 (its binary restrictions are ``d``-point functions).

    Examples
    --------
    >>> H = k_point_functions(4, 2)
    >>> H.n_hypotheses, H.hypothesis_names[:2], H.table[0].tolist()
    (6, ('{0,1}', '{0,2}'), [1, 1, 0, 0])
    """
    n = check_int(n, "n", "k_point_functions", 1)
    k = check_int(k, "k", "k_point_functions", 1, n)
    check_size(math.comb(n, k), n, "k_point_functions", "n")
    table, names = k_subsets(n, k)
    return make(
        table,
        family="k-point-functions",
        params={"n": n, "k": k},
        source="BGS Theorem 7.2 (d-point functions)",
        name=f"{k}-point-functions-{n}",
        point_names=numbered("x", n),
        hypothesis_names=names,
    )


def thresholds(n: int) -> HypothesisClass:
    """The ``n + 1`` threshold functions over ``n`` ordered points.

    ``t_j(x_i) = 1`` iff ``i >= j``, for ``j = 0, ..., n``; ``t_0`` is all ones
    and ``t_n`` all zeros.  These are all the distinct thresholds on ``n``
    points, so the VC dimension is 1 and the Littlestone dimension is
    ``floor(log2(n + 1))``.  (FX's ``Thr_b`` is ``t_0..t_{n-1}`` with
    ``n = 2^b``, i.e. this class without the all-zero function.)

    Parameters
    ----------
    n : int
        Number of points, ``n >= 1``.

    Returns
    -------
    HypothesisClass

    References
    ----------
    FX §3.1 and §4.1 (``Thr_b``, ``LDim = b``); Littlestone (1988).

    Examples
    --------
    >>> thresholds(2).table.tolist()
    [[1, 1], [0, 1], [0, 0]]
    """
    n = check_int(n, "n", "thresholds", 1)
    check_size(n + 1, n, "thresholds", "n", MAX_BINARY_CELLS)
    table = BitTable.from_prefixes(n + 1, np.arange(1, n + 1))  # t_j(x_i) = 1 iff j <= i: one bit per cell
    return make(
        table,
        family="thresholds",
        params={"n": n},
        source="FX §4.1 (Thr_b), with the all-zero threshold",
        name=f"thresholds-{n}",
        point_names=numbered("x", n),
        hypothesis_names=numbered("t", n + 1),
    )


def intervals(n: int) -> HypothesisClass:
    """Intervals over ``n`` ordered points, the empty interval included.

    Rows are ``[a, b]`` (``1[a <= i <= b]``) for ``0 <= a <= b < n`` in
    lexicographic order, then the empty interval: ``n(n + 1)/2 + 1``
    hypotheses.  VC dimension 2 when ``n >= 2``.

    Parameters
    ----------
    n : int
        Number of points, ``n >= 1``.

    Returns
    -------
    HypothesisClass

    Examples
    --------
    >>> H = intervals(2)
    >>> H.table.tolist(), H.hypothesis_names
    ([[1, 0], [1, 1], [0, 1], [0, 0]], ('[0,0]', '[0,1]', '[1,1]', 'empty'))
    """
    n = check_int(n, "n", "intervals", 1)
    check_size(n * (n + 1) // 2 + 1, n, "intervals", "n")
    a, b = np.triu_indices(n)
    x = np.arange(n)[None, :]
    table = np.vstack([(x >= a[:, None]) & (x <= b[:, None]), np.zeros((1, n), dtype=bool)])
    names = [f"[{i},{j}]" for i, j in zip(a.tolist(), b.tolist())] + ["empty"]
    return make(
        table,
        family="intervals",
        params={"n": n},
        source="intervals on a line (with the empty interval)",
        name=f"intervals-{n}",
        point_names=numbered("x", n),
        hypothesis_names=names,
    )


def parities(d: int) -> HypothesisClass:
    """All ``2^d`` parity functions over the domain ``{0, 1}^d``.

    ``chi_S(x) = <S, x> mod 2`` for ``S, x`` in ``{0, 1}^d``.  Point ``u`` and
    hypothesis ``s`` are the integers whose ``d``-bit binary strings (most
    significant first) name them.  VC and Littlestone dimension ``d``.

    Parameters
    ----------
    d : int
        Dimension, ``1 <= d <= 13``.

    Returns
    -------
    HypothesisClass

    References
    ----------
    BNS §6 (ParityLearner, Algorithm 4).

    Examples
    --------
    >>> H = parities(2)
    >>> H.point_names, H.table.tolist()
    (('00', '01', '10', '11'), [[0, 0, 0, 0], [0, 1, 0, 1], [0, 0, 1, 1], [0, 1, 1, 0]])
    """
    d = check_int(d, "d", "parities", 1, 13)
    size = 1 << d
    check_size(size, size, "parities", "d")
    v = np.arange(size)[:, None] & np.arange(size)[None, :]
    parity = np.zeros_like(v)
    for bit in range(d):
        parity ^= (v >> bit) & 1
    labels = [format(u, f"0{d}b") for u in range(size)]
    return make(
        parity,
        family="parities",
        params={"d": d},
        source="BNS §6 (PARITY, ParityLearner)",
        name=f"parities-{d}",
        point_names=labels,
        hypothesis_names=[f"chi_{s}" for s in labels],
    )
