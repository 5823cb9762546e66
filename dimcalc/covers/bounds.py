"""Upper bounds on the 0-cover function ``N(0, H, n)`` (BGS Thm 5.6)."""

from __future__ import annotations

import math

from ..classes.hypothesis_class import HypothesisClass
from ..errors import parameter_error

__all__ = ["sauer_zero_cover_bound", "sauer_zero_cover_exponential_bound", "trivial_zero_cover_bound"]


def sauer_zero_cover_bound(n: int, d: int, k: int) -> int:
    """BGS Thm 5.6 (4): ``N(0, H, n) <= sum_{i<=d} C(n, i) k^i`` for ``n >= d`` (``d`` = MLD, labels ``0..k``).

    For ``n < d`` the theorem gives ``(k+1)^n`` instead, which this function
    returns then (``sum_{i<=n} C(n,i) k^i = (k+1)^n``).  Explicit constants.

    >>> sauer_zero_cover_bound(3, 1, 1), sauer_zero_cover_bound(2, 5, 2)
    (4, 9)
    """
    for name, value in (("n", n), ("d", d), ("k", k)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise parameter_error(name, "sauer_zero_cover_bound", "a non-negative integer", value)
    return sum(math.comb(n, i) * k**i for i in range(min(d, n) + 1))


def sauer_zero_cover_exponential_bound(n: int, d: int, k: int) -> float:
    """BGS Thm 5.6 (5): ``(e k n / d)^d`` for ``n >= d > 0`` (an upper bound on the sum of (4)).

    >>> round(sauer_zero_cover_exponential_bound(4, 2, 1), 3)
    29.556
    """
    if isinstance(d, bool) or not isinstance(d, int) or d <= 0:
        raise parameter_error("d", "sauer_zero_cover_exponential_bound", "a positive integer", d)
    if isinstance(n, bool) or not isinstance(n, int) or n < d:
        raise parameter_error("n", "sauer_zero_cover_exponential_bound", f"an integer >= d = {d}", n)
    return (math.e * k * n / d) ** d


def trivial_zero_cover_bound(H: HypothesisClass, n: int) -> int:
    """``min(|H|, (k+1)^n)``: one tree per hypothesis, or one per label sequence (BGS proof of Thm 5.6)."""
    return min(H.n_distinct, H.num_labels**n)
