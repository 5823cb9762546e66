"""The least value of a unimodal function of an integer, by ternary search.

Used to pick MWEM's number of rounds: its error bound (and the sample size it asks for) is
convex plus increasing in the number of rounds ``T``, hence unimodal.

Examples
--------
>>> integer_argmin(lambda t: (t - 7) ** 2, 1, 100)
7
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["integer_argmin"]


def integer_argmin(f: Callable[[int], float], lo: int, hi: int) -> int:
    """The ``t`` in ``[lo, hi]`` minimising the unimodal ``f`` (the first such ``t`` of the last three).

    Parameters
    ----------
    f : callable int -> float
        Unimodal on ``[lo, hi]`` (non-increasing, then non-decreasing).
    lo, hi : int
        The range, ``lo <= hi``.

    Returns
    -------
    int

    Examples
    --------
    >>> integer_argmin(lambda t: abs(t - 3.2), 0, 10)
    3
    """
    while hi - lo > 2:
        m1, m2 = lo + (hi - lo) // 3, hi - (hi - lo) // 3
        if f(m1) <= f(m2):
            hi = m2
        else:
            lo = m1
    return min(range(lo, hi + 1), key=f)
