"""The growth function ``π_H(m)`` and the Sauer–Shelah bound (Vapnik–Chervonenkis 1971; Sauer 1972, Shelah 1972).

``π_H(m)`` is the largest number of distinct label patterns a class realises
on ``m`` points (any number of labels).  :func:`growth_function` finds it by
enumerating the ``m``-subsets of the domain in numpy batches, stopping as soon
as a subset reaches the proven upper bound; :func:`sauer_shelah_bound` is
``sum_{i<=d} C(m, i)``.

References
----------
.. [VC71] V. Vapnik, A. Chervonenkis. On the uniform convergence of relative
   frequencies of events to their probabilities. 1971.
.. [Sau72] N. Sauer. On the density of families of sets. JCTA 13, 1972
   (Sauer–Shelah lemma: ``|H|_S| <= sum_{i<=d} C(|S|, i)`` for VC dimension d).
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from ..classes.hypothesis_class import HypothesisClass
from ..errors import parameter_error
from ..results import DimensionResult
from ..search.budget import Deadline
from ..validation import check_hypothesis_class, check_time_limit
from .dimensions import vc_dimension

__all__ = ["growth_function", "sauer_shelah_bound"]

#: Elements (rows x pairs) processed per numpy step; bounds the memory of a step.
_CHUNK_ELEMENTS = 1 << 21


def sauer_shelah_bound(m: int, d: int) -> int:
    """``sum_{i=0}^{d} C(m, i)``: the Sauer–Shelah bound on ``pi_H(m)`` for VC dimension ``d``.

    Parameters
    ----------
    m : int
        Number of points, ``m >= 0``.
    d : int
        VC dimension (or an upper bound on it), ``d >= 0``.

    Returns
    -------
    int
        ``2^m`` when ``d >= m``.

    References
    ----------
    Sauer [Sau72], Shelah (1972), Vapnik–Chervonenkis [VC71]: a binary class of
    VC dimension ``d`` has at most this many patterns on any ``m`` points.

    Examples
    --------
    >>> sauer_shelah_bound(10, 2), sauer_shelah_bound(3, 5)
    (56, 8)
    """
    for name, value in (("m", m), ("d", d)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
            raise parameter_error(name, "sauer_shelah_bound", "a non-negative integer", value)
    return sum(math.comb(int(m), i) for i in range(min(int(d), int(m)) + 1))


def _dense_ranks(codes: np.ndarray) -> np.ndarray:
    """Replace each column of ``codes`` by the ranks of its values (0, 1, ... per distinct value)."""
    order = np.argsort(codes, axis=0, kind="stable")
    sorted_codes = np.take_along_axis(codes, order, axis=0)
    new = np.zeros(codes.shape, dtype=np.int64)
    new[1:] = np.cumsum(sorted_codes[1:] != sorted_codes[:-1], axis=0)
    out = np.empty_like(new)
    np.put_along_axis(out, order, new, axis=0)
    return out


def _count_patterns(rows: np.ndarray, subsets: np.ndarray, base: int) -> np.ndarray:
    """Number of distinct label patterns of ``rows`` on each subset (a row of ``subsets``)."""
    codes = np.zeros((rows.shape[0], subsets.shape[0]), dtype=np.int64)
    limit = (1 << 62) // base
    bound = 1  # codes < bound
    for j in range(subsets.shape[1]):
        if bound > limit:
            codes = _dense_ranks(codes)
            bound = rows.shape[0]
        codes = codes * base + rows[:, subsets[:, j]]
        bound *= base
    ordered = np.sort(codes, axis=0)
    return 1 + (ordered[1:] != ordered[:-1]).sum(axis=0)


def growth_function(H: HypothesisClass, m: int, *, time_limit: float | None = None) -> DimensionResult:
    """The growth function ``pi_H(m)``: the most label patterns ``H`` realises on ``m`` points.

    Exact by enumerating the ``m``-subsets of the domain (numpy batches),
    stopping early when a subset reaches the proven upper bound
    ``min(|H|, (k+1)^m, sum_{i<=d} C(m, i))`` (the last term for binary
    classes, with ``d`` the VC dimension or a proven upper bound on it).
    For ``m`` larger than the domain the value is ``pi_H(n)`` on all ``n``
    points (points may repeat in the usual definition over sequences).

    Parameters
    ----------
    H : HypothesisClass
    m : int
        Number of points, ``m >= 0``.
    time_limit : float, optional
        Seconds; when stopped, ``exact=False`` with ``lower`` = the best subset
        found (the witness) and ``upper`` = the bound above.

    Returns
    -------
    DimensionResult
        Kind ``"growth"``: ``value`` = ``pi_H(m)``, ``witness`` = the sorted
        list of points of a subset achieving ``lower``; ``stats["m"]`` = m.

    References
    ----------
    Vapnik and Chervonenkis [VC71]; Sauer–Shelah lemma [Sau72].

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> thresholds = HypothesisClass.from_table([[int(x >= t) for x in range(6)] for t in range(7)])
    >>> r = growth_function(thresholds, 3)
    >>> r.value, r.exact, r.verify(thresholds)
    (4, True, True)
    """
    check_hypothesis_class(H, "growth_function")
    if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or m < 0:
        raise parameter_error("m", "growth_function", "a non-negative integer", m)
    time_limit = check_time_limit(time_limit, "growth_function")
    deadline = Deadline(time_limit)
    size = min(int(m), H.n_points)
    upper = min(H.n_distinct, H.num_labels**size)
    stats: dict[str, Any] = {"m": int(m), "subsets": 0}
    if H.is_binary and upper > size + 1:
        share = None if time_limit is None else max(time_limit / 4, 1e-3)
        vc = vc_dimension(H, time_limit=share)
        stats["vc_upper"] = vc.upper
        assert vc.upper is not None  # a binary class's VC search always proves an upper bound
        upper = min(upper, sauer_shelah_bound(size, vc.upper))
    rows = H.distinct_rows
    best, best_points = -1, list(range(size))
    batch = max(1, _CHUNK_ELEMENTS // max(rows.shape[0] * max(size, 1), 1))
    combos = itertools.combinations(range(H.n_points), size)
    while best < upper:
        chunk = list(itertools.islice(combos, batch))
        if not chunk:
            break
        if best >= 0 and deadline.expired():
            stats["stopped"] = deadline.stop_label
            break
        subsets = np.array(chunk, dtype=np.int64).reshape(len(chunk), size)
        counts = _count_patterns(rows, subsets, H.num_labels)
        stats["subsets"] += len(chunk)
        i = int(np.argmax(counts))
        if counts[i] > best:
            best, best_points = int(counts[i]), [int(p) for p in subsets[i]]
    else:
        stats["reached_upper_bound"] = True
    if "stopped" not in stats and best < upper:
        upper = best  # every subset was counted
    stats["seconds"] = deadline.elapsed()
    return DimensionResult.bounds("growth", best, upper, best_points, **stats)
