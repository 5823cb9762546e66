"""Exact samplers on an injected generator: uniform integers, Bernoulli(exp(-gamma)), discrete Laplace.

The samplers of :class:`~dimcalc.learners.mechanisms.noise.ExactNoise` (the reproducible noise
source), in rational and integer arithmetic only, and the tail of the discrete Laplace law that
the mechanisms' thresholds are set from.

References
----------
C. Canonne, G. Kamath, T. Steinke, *The Discrete Gaussian for Differential Privacy*,
NeurIPS 2020, Algorithms 1 (Bernoulli(exp(-gamma))) and 2 (discrete Laplace).
"""

from __future__ import annotations

import math
from decimal import Decimal, localcontext
from fractions import Fraction

import numpy as np

from ..._params import Number, as_fraction

__all__ = ["bernoulli_exp", "discrete_laplace_exact", "discrete_laplace_tail", "least_tail_index"]

#: Relative width of the band in which a floating-point comparison with exp(-gamma) is not trusted.
RELATIVE_BAND = 1e-12
#: A uniform 62-bit word as a float in [0, 1) is ``word / TWO62``.
TWO62 = float(1 << 62)


class _RandomInts:
    """Exact uniform integers from a ``numpy.random.Generator``, drawn in blocks of 62-bit words.

    ``below(b)`` takes the top ``bits(b - 1)`` bits of a fresh word and rejects values
    ``>= b`` (exactly uniform; several words for bounds beyond 2^62).  Buffering only changes
    how the generator's stream is consumed, not the law.
    """

    __slots__ = ("rng", "buf", "block")

    def __init__(self, rng: np.random.Generator, block: int = 1024) -> None:
        self.rng = rng
        self.buf: list[int] = []
        self.block = block

    def word(self) -> int:
        if not self.buf:
            self.buf = self.rng.integers(0, 1 << 62, size=self.block, dtype=np.int64).tolist()
        return self.buf.pop()

    def below(self, bound: int) -> int:
        if bound <= 1:
            return 0
        bits = (bound - 1).bit_length()
        if bits <= 62:
            shift = 62 - bits
            while True:
                v = self.word() >> shift
                if v < bound:
                    return v
        words = (bits + 61) // 62
        while True:
            v = 0
            for _ in range(words):
                v = (v << 62) | self.word()
            v >>= 62 * words - bits
            if v < bound:
                return v


#: What the samplers draw from: a generator, or its buffered integer source.
Randomness = np.random.Generator | _RandomInts


def _source(rng: Randomness) -> _RandomInts:
    return rng if isinstance(rng, _RandomInts) else _RandomInts(rng, block=64)


def bernoulli_exp(gamma: Fraction, rng: Randomness) -> bool:
    """Exact Bernoulli(exp(-gamma)) for a rational ``gamma >= 0`` (CKS 2020, Algorithm 1).

    For ``gamma <= 1``: draw ``A_k ~ Bernoulli(gamma/k)`` for ``k = 1, 2, ...``
    until the first ``A_k = 0``; return 1 iff that ``k`` is odd.  For
    ``gamma > 1``: ``floor(gamma)`` independent Bernoulli(exp(-1)) draws and one
    Bernoulli(exp(-(gamma - floor(gamma)))), all of which must be 1.

    Examples
    --------
    >>> rng = np.random.default_rng(0)
    >>> draws = [bernoulli_exp(Fraction(1, 2), rng) for _ in range(20000)]
    >>> abs(sum(draws) / 20000 - math.exp(-0.5)) < 0.01
    True
    """
    gamma = Fraction(gamma)
    if gamma < 0:
        raise ValueError("gamma must be >= 0")
    return _bernoulli_exp_int(gamma.numerator, gamma.denominator, _source(rng))


def exp_band_compare(num: int, den: int, ints: _RandomInts, u: int) -> bool:
    """``U < exp(-num/den)`` for the uniform ``U = 0.u...`` (62-bit word ``u``, extended lazily), exactly.

    Used only when a floating-point comparison cannot decide (probability about ``RELATIVE_BAND``): both
    sides are refined -- ``exp`` with :mod:`decimal` (correctly rounded) at growing precision,
    ``U`` with more random words -- until they separate.
    """
    bits, prec = 62, 40
    while True:
        with localcontext() as ctx:
            ctx.prec = prec + bits // 3 + 20
            x = (Decimal(-num) / Decimal(den)).exp()
            err = x * Decimal(10) ** (-prec) + Decimal(10) ** (-(prec + bits // 3 + 10))
            scale = Decimal(2) ** bits
            lo = Decimal(u) / scale
            hi = (Decimal(u) + 1) / scale
            if hi <= x - err:
                return True
            if lo >= x + err:
                return False
        u = (u << 62) | ints.word()
        bits += 62
        prec += 20


def _bernoulli_exp_fast(num: int, den: int, ints: _RandomInts) -> bool:
    """Bernoulli(exp(-num/den)) exactly: ``U < exp(-gamma)`` for a uniform ``U``, decided in floating point
    when the two are more than ``RELATIVE_BAND`` (relative) apart and by :func:`exp_band_compare` otherwise."""
    u = ints.word()
    g = num / den
    e = math.exp(-g) if g < 745 else 0.0
    uf = u / TWO62
    band = RELATIVE_BAND * max(e, uf) + 1e-300
    if uf < e - band:
        return True
    if uf > e + band:
        return False
    return exp_band_compare(num, den, ints, u)


def _bernoulli_exp_int(num: int, den: int, rng: _RandomInts) -> bool:
    """Bernoulli(exp(-num/den)) exactly, in integer arithmetic (the same algorithm as :func:`bernoulli_exp`)."""
    whole, rem = divmod(num, den)
    for _ in range(whole):
        if not _bernoulli_exp_at_most_one(den, den, rng):
            return False
    return _bernoulli_exp_at_most_one(rem, den, rng)


def _bernoulli_exp_at_most_one(num: int, den: int, rng: _RandomInts) -> bool:
    """Bernoulli(exp(-gamma)) for ``gamma = num/den`` in [0, 1]: stop at the first failing Bernoulli(gamma/k)."""
    if num == 0:
        return True
    k = 1
    while rng.below(den * k) < num:  # Bernoulli(gamma / k)
        k += 1
    return k % 2 == 1


def discrete_laplace_exact(scale: Number, rng: Randomness) -> int:
    """One exact draw of the discrete Laplace law ``P[z] ∝ exp(-|z|/scale)`` (CKS 2020, Algorithm 2).

    With ``scale = t/s`` in lowest terms: draw ``U`` uniform in ``[0, t)`` and keep it with
    probability ``exp(-U/t)``; draw ``V`` geometric (count of Bernoulli(exp(-1)) successes);
    ``Y = floor((U + t V)/s)``; a fair sign, rejecting ``-0``.

    Examples
    --------
    >>> rng = np.random.default_rng(1)
    >>> z = [discrete_laplace_exact(Fraction(3, 2), rng) for _ in range(20000)]
    >>> r = math.exp(-2 / 3)                          # P[Z >= 1] = r / (1 + r)
    >>> abs(sum(v >= 1 for v in z) / 20000 - r / (1 + r)) < 0.015
    True
    """
    frac = as_fraction(scale)
    if frac <= 0:
        raise ValueError("scale must be > 0")
    t, s = frac.numerator, frac.denominator
    ints = _source(rng)
    while True:
        u = ints.below(t)
        if not _bernoulli_exp_fast(u, t, ints):
            continue
        v = 0
        while _bernoulli_exp_fast(1, 1, ints):
            v += 1
        y = (u + t * v) // s
        negative = bool(ints.below(2))
        if negative and y == 0:
            continue
        return -y if negative else y


# ---------------------------------------------------------------------------- the discrete Laplace tail
def discrete_laplace_tail(scale: float, a: int) -> float:
    """``Pr[Z >= a]`` for discrete Laplace ``Z`` with the given scale.

    With ``r = exp(-1/scale)``, ``Pr[Z = z] = (1 - r) / (1 + r) * r**|z|``, so
    ``Pr[Z >= a] = r**a / (1 + r)`` for ``a >= 1`` and ``1 - Pr[Z >= 1 - a]`` otherwise.

    Examples
    --------
    >>> round(discrete_laplace_tail(1.0, 1) + discrete_laplace_tail(1.0, 0), 12)  # symmetry
    1.0
    """
    r = math.exp(-1.0 / scale)
    if a >= 1:
        return r**a / (1.0 + r)
    return 1.0 - r ** (1 - a) / (1.0 + r)


def least_tail_index(scale: float, p: float, *, margin: float = RELATIVE_BAND) -> int:
    """Least integer ``a >= 1`` with ``Pr[DLap(scale) >= a] <= p (1 - margin)``.

    The default ``margin`` is a safety margin for the floating-point evaluation of the
    tail (thresholds that privacy rests on); ``margin=0`` is the plain least index (the
    gaps that accuracy rests on).

    Examples
    --------
    >>> least_tail_index(2.0, 1e-6)
    27
    """
    target = p * (1 - margin)
    a = max(1, math.ceil(scale * math.log(1.0 / p)) - 2)
    while discrete_laplace_tail(scale, a) > target:
        a += 1
    while a > 1 and discrete_laplace_tail(scale, a - 1) <= target:
        a -= 1
    return a
