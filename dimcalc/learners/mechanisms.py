"""The randomness of every learner: one noise source, one exponential mechanism.

Every private step of every learner in :mod:`dimcalc.learners` draws its noise from a
*noise source* (:class:`NoiseSource`), chosen by the learner's ``noise`` parameter:

``noise="opendp"`` (the default everywhere) -- :class:`OpenDPNoise`
    OpenDP's vetted samplers (``contrib`` features) from a cryptographically secure
    generator; not seedable.

    * *Selection*: ``make_noisy_max`` with the ``max_divergence`` measure on the score
      vector under the (non-monotonic) ``LInfDistance`` metric, with
      ``scale = 2 * sensitivity / epsilon``.  OpenDP adds **exponential** noise of that
      scale to every score and reports the arg max: report-noisy-max with exponential
      noise, whose output law is that of *permute-and-flip* (McKenna and Sheldon 2020) --
      **not** Gumbel noise and **not** ``P[i] ∝ exp(epsilon * score_i / (2 sensitivity))``
      (for scores ``[0, -1]`` at scale 1 index 0 wins with probability
      ``1 - e^{-1}/2 = 0.816``; Gumbel noise, i.e. the exponential mechanism's law, would
      give ``1/(1 + e^{-1}) = 0.731``).  Its privacy map, checked here, gives
      ``epsilon = 2 * sensitivity / scale``: the same ``epsilon``-DP as the exponential
      mechanism, and the same tail bound used by BNS Prop 21 (an index ``t`` below the
      maximum wins with probability at most ``exp(-epsilon t / (2 sensitivity))``: it
      needs its exponential noise to exceed ``t``), so every sample size derived from
      Prop 21 applies.
    * *Counts*: ``make_laplace`` on integers, i.e. exact discrete Laplace noise
      (Canonne, Kamath and Steinke 2020).

``noise="exact"`` -- :class:`ExactNoise` (the reproducible option)
    Exact in-process samplers driven by the injected ``numpy.random.Generator``, with
    rational arithmetic only, so runs are reproducible (the tests and audits use it).

    * *Selection*: the exponential mechanism of McSherry and Talwar (2007) itself,
      ``P[i] ∝ exp(epsilon * score_i / (2 sensitivity))``: propose a uniform index ``i``
      and accept it with probability ``exp(-gamma_i)``,
      ``gamma_i = epsilon (max - score_i) / (2 sensitivity)`` (an exact
      Bernoulli(exp(-gamma)), CKS 2020 Algorithm 1); the accepted index has exactly the
      mechanism's law.
    * *Counts*: exact discrete Laplace noise (CKS 2020 Algorithm 2).

    ``epsilon`` and scales are taken at their exact values (a float is its binary
    fraction).  The running time depends on the scores (a timing side channel): use the
    OpenDP source for deployment.

``NumpyNoise`` is the former name of :class:`ExactNoise` (which replaced numpy's
floating-point samplers); ``"numpy"`` is accepted as a synonym of ``"exact"``.

A learner's ``noise_multiplier`` (audit-only) scales the noise of every step
(``< 1`` voids the guarantee: it exists for the negative controls of the audits).

References
----------
F. McSherry, K. Talwar, *Mechanism Design via Differential Privacy*, FOCS 2007;
BNS (JMLR) Proposition 21.  R. McKenna, D. Sheldon, *Permute-and-Flip*, NeurIPS 2020.
C. Canonne, G. Kamath, T. Steinke, *The Discrete Gaussian for Differential Privacy*,
NeurIPS 2020, Algorithms 1 (Bernoulli(exp(-gamma))) and 2 (discrete Laplace).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any, Literal, Protocol

import numpy as np

from .._params import Number, as_fraction, check_epsilon, float_up
from ..errors import parameter_error

__all__ = [
    "NoiseSource",
    "OpenDPNoise",
    "ExactNoise",
    "NumpyNoise",
    "make_noise",
    "check_random_state",
    "exponential_mechanism",
    "bernoulli_exp",
    "discrete_laplace_exact",
    "BACKENDS",
    "NOISE_SOURCES",
]

#: The noise sources by name ("numpy" is a synonym of "exact").
NOISE_SOURCES = ("opendp", "exact")
#: Former name of :data:`NOISE_SOURCES` (the single-concept learners' ``backend=``).
BACKENDS = NOISE_SOURCES


# ---------------------------------------------------------------------------- exact samplers
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


def _source(rng: Any) -> _RandomInts:
    return rng if isinstance(rng, _RandomInts) else _RandomInts(rng, block=64)


def _uniform_below(bound: int, rng: Any) -> int:
    """A uniform integer in ``[0, bound)``, exactly (big ints allowed)."""
    return _source(rng).below(bound)


def _bernoulli(p: Fraction, rng: np.random.Generator) -> bool:
    """Exact Bernoulli(p) for a rational ``p`` in [0, 1]."""
    if p <= 0:
        return False
    if p >= 1:
        return True
    return _source(rng).below(p.denominator) < p.numerator


def bernoulli_exp(gamma: Fraction, rng: np.random.Generator) -> bool:
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


_TWO62 = float(1 << 62)


def _exp_band_compare(num: int, den: int, ints: _RandomInts, u: int) -> bool:
    """``U < exp(-num/den)`` for the uniform ``U = 0.u...`` (62-bit word ``u``, extended lazily), exactly.

    Used only when a floating-point comparison cannot decide (probability about 1e-12): both
    sides are refined -- ``exp`` with :mod:`decimal` (correctly rounded) at growing precision,
    ``U`` with more random words -- until they separate.
    """
    from decimal import Decimal, localcontext

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
    when the two are more than 1e-12 (relative) apart and by :func:`_exp_band_compare` otherwise."""
    u = ints.word()
    g = num / den
    e = math.exp(-g) if g < 745 else 0.0
    uf = u / _TWO62
    band = 1e-12 * max(e, uf) + 1e-300
    if uf < e - band:
        return True
    if uf > e + band:
        return False
    return _exp_band_compare(num, den, ints, u)


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


def discrete_laplace_exact(scale: Number, rng: np.random.Generator) -> int:
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
    rng = _source(rng)
    while True:
        u = rng.below(t)
        if not _bernoulli_exp_fast(u, t, rng):
            continue
        v = 0
        while _bernoulli_exp_fast(1, 1, rng):
            v += 1
        y = (u + t * v) // s
        negative = bool(rng.below(2))
        if negative and y == 0:
            continue
        return -y if negative else y


def _exact_scores(scores: Sequence[Any]) -> list:
    """Scores as exact numbers: ints stay ints, anything else becomes its exact Fraction."""
    out = []
    for v in scores:
        if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
            out.append(int(v))
        else:
            f = float(v) if not isinstance(v, Fraction) else v
            if isinstance(f, float) and not math.isfinite(f):
                raise ValueError("scores must be finite")
            out.append(as_fraction(f))
    return out


# ---------------------------------------------------------------------------- noise sources
class NoiseSource(Protocol):
    """What a mechanism needs from a source of randomness."""

    rng: np.random.Generator | None

    def discrete_laplace(self, scale: Number, size: int | None = None) -> Any:
        """Integer noise with ``P[Z = z]`` proportional to ``exp(-|z| / scale)`` (``size`` draws)."""

    def exponential_mechanism(self, scores: Sequence[Any], epsilon: Number, sensitivity: Number) -> int:
        """An ``epsilon``-DP choice of an index of approximately maximal score (see the module docstring)."""


class ExactNoise:
    """Exact samplers driven by an injected ``numpy.random.Generator`` (reproducible).

    Examples
    --------
    >>> noise = ExactNoise(np.random.default_rng(0))
    >>> z = noise.discrete_laplace(2.0, size=4000)
    >>> bool(abs(z.mean()) < 0.2), z.dtype.kind
    (True, 'i')
    >>> noise.exponential_mechanism([0, -40, -40], 1.0, 1)
    0
    """

    name = "exact"

    def __init__(self, rng: np.random.Generator) -> None:
        if not isinstance(rng, np.random.Generator):
            raise parameter_error("rng", "ExactNoise", "a numpy.random.Generator", rng)
        self.rng = rng
        self._ints = _RandomInts(rng)

    def discrete_laplace(self, scale: Number, size: int | None = None) -> Any:
        if size is None:
            return discrete_laplace_exact(scale, self._ints)
        return np.array([discrete_laplace_exact(scale, self._ints) for _ in range(int(size))], dtype=np.int64)

    def exponential_mechanism(self, scores: Sequence[Any], epsilon: Number, sensitivity: Number) -> int:
        rate = as_fraction(epsilon) / (2 * as_fraction(sensitivity))
        arr = np.asarray(scores) if not isinstance(scores, np.ndarray) else scores
        if arr.dtype.kind in "iu" and arr.size and abs(int(arr.max())) < (1 << 62) and abs(int(arr.min())) < (1 << 62):
            gaps = int(arr.max()) - arr.astype(np.int64).reshape(-1)  # exact integer gaps

            def gamma(i: int) -> tuple[int, int]:
                return rate.numerator * int(gaps[i]), rate.denominator

            with np.errstate(over="ignore", under="ignore"):
                acceptance = np.exp(-gaps * float(rate))
        else:
            values = _exact_scores(list(arr.reshape(-1)) if isinstance(arr, np.ndarray) else list(scores))
            best = max(values)
            gammas = [rate * (best - v) for v in values]

            def gamma(i: int) -> tuple[int, int]:
                return gammas[i].numerator, gammas[i].denominator

            with np.errstate(over="ignore", under="ignore"):
                acceptance = np.exp(-np.array([float(g) for g in gammas], dtype=float))
        n = len(acceptance)
        rng, ints = self.rng, self._ints
        # Rejection sampling: propose i uniformly, accept iff U_i < exp(-gamma_i) for a fresh uniform U_i.
        # Proposals and 62-bit uniforms come in numpy blocks; a comparison within 1e-12 (relative) of the
        # boundary (the float gamma and exp are accurate to ~1e-15) is settled exactly by _exp_band_compare,
        # so the accepted index has exactly the law P[i] ∝ exp(-gamma_i).
        while True:
            idx = rng.integers(0, n, size=64)
            words = rng.integers(0, 1 << 62, size=64, dtype=np.int64)
            uf = words / _TWO62
            e = acceptance[idx]
            band = 1e-12 * np.maximum(e, uf) + 1e-300
            sure = uf < e - band
            unsure = ~sure & (uf <= e + band)
            decided = np.flatnonzero(sure | unsure)
            for j in decided:
                if sure[j]:
                    return int(idx[j])
                i = int(idx[j])
                if _exp_band_compare(*gamma(i), ints, int(words[j])):
                    return i


#: Former name of :class:`ExactNoise` (it replaced numpy's floating-point samplers).
NumpyNoise = ExactNoise


@lru_cache(maxsize=256)
def _opendp_noisy_max(scale: float, integer: bool):
    import opendp.prelude as dp

    # "contrib" enables OpenDP components vetted by its maintainers but not yet externally
    # certified; make_noisy_max and make_laplace are among them.
    dp.enable_features("contrib")
    atom = dp.atom_domain(T="i64") if integer else dp.atom_domain(T=float, nan=False)
    metric = dp.linf_distance(T="i64") if integer else dp.linf_distance(T=float)
    measurement = dp.m.make_noisy_max(dp.vector_domain(atom), metric, dp.max_divergence(), scale=scale)
    return measurement, measurement.map(1 if integer else 1.0)


@lru_cache(maxsize=256)
def _opendp_laplace(scale: float):
    import opendp.prelude as dp

    dp.enable_features("contrib")
    return dp.m.make_laplace(dp.vector_domain(dp.atom_domain(T=int)), dp.l1_distance(T=int), scale=scale)


class OpenDPNoise:
    """OpenDP's vetted samplers (secure generator, not seedable); see the module docstring.

    Examples
    --------
    >>> OpenDPNoise().exponential_mechanism([0, -60, -60], 1.0, 1)
    0
    """

    name = "opendp"
    rng = None

    def discrete_laplace(self, scale: Number, size: int | None = None) -> Any:
        meas = _opendp_laplace(float_up(scale))  # never a smaller scale than asked for
        values = meas([0] * (1 if size is None else int(size)))
        return int(values[0]) if size is None else np.asarray(values, dtype=np.int64)

    def exponential_mechanism(self, scores: Sequence[Any], epsilon: Number, sensitivity: Number) -> int:
        values = np.asarray(scores).reshape(-1).tolist() if isinstance(scores, np.ndarray) else list(scores)
        integer = all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in values)
        scale = float_up(2 * as_fraction(sensitivity) / as_fraction(epsilon))
        measurement, spent_per_unit = _opendp_noisy_max(scale, integer)
        spent = Fraction(spent_per_unit) * as_fraction(sensitivity)  # the map is linear in d_in
        if spent > as_fraction(epsilon) * (1 + Fraction(1, 10**12)):  # OpenDP's own privacy map
            raise AssertionError(f"OpenDP's privacy map gives {float(spent)} > epsilon = {float(epsilon)}")
        return int(measurement([int(v) for v in values] if integer else [float(v) for v in values]))


def check_random_state(random_state: Any, owner: str, name: str = "random_state") -> np.random.Generator:
    """A ``numpy.random.Generator`` from ``None`` (fresh), an int seed, or a Generator (used as is).

    >>> int(check_random_state(3, "f").integers(100)) == int(check_random_state(3, "f").integers(100))
    True
    """
    if random_state is None:
        return np.random.default_rng()
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, (int, np.integer)) and not isinstance(random_state, bool) and random_state >= 0:
        return np.random.default_rng(int(random_state))
    raise parameter_error(name, owner, "None, a non-negative int seed or a numpy.random.Generator", random_state)


def make_noise(noise: Any, rng: Any, owner: str) -> NoiseSource:
    """The noise source named by ``noise``: ``"opendp"``, ``"exact"`` (``"numpy"``: a synonym) or a source.

    ``rng`` (None, a seed or a Generator) drives the exact source.
    """
    if isinstance(noise, str):
        if noise == "opendp":
            return OpenDPNoise()
        if noise in ("exact", "numpy"):
            return ExactNoise(check_random_state(rng, owner, "random_state"))
    elif hasattr(noise, "discrete_laplace") and hasattr(noise, "exponential_mechanism"):
        return noise
    raise parameter_error("noise", owner, "'opendp', 'exact' or a noise source", noise)


# ---------------------------------------------------------------------------- the exponential mechanism
def exponential_mechanism(
    scores: Sequence[Any] | np.ndarray,
    *,
    epsilon: Any,
    sensitivity: Number = 1,
    noise: NoiseSource | str | None = None,
    rng: Any = None,
    backend: Literal["opendp", "exact"] | None = None,
    noise_multiplier: Number = 1,
) -> int:
    """Privately select an index of (approximately) maximal score: ``epsilon``-DP.

    The one selection primitive of every learner.  The noise source is ``noise`` (a
    :class:`NoiseSource` or its name), or -- the single-concept learners' older call shape
    -- ``backend`` (``"opendp"`` or ``"exact"``) with ``rng``; default OpenDP.

    Parameters
    ----------
    scores : sequence of numbers
        One score per candidate (higher is better); each changes by at most
        ``sensitivity`` between neighbouring datasets.  Integer scores are used as is
        by both sources.
    epsilon : number > 0
        The privacy parameter (Fraction and text such as ``"1/3"`` are exact).
    sensitivity : number > 0
    noise, rng, backend
        Where the randomness comes from (see the module docstring).
    noise_multiplier : number
        Multiplies the noise scale (runs at ``epsilon / noise_multiplier``); values below
        1 void the guarantee (audits only).

    Returns
    -------
    int
        The selected index.

    Notes
    -----
    ``epsilon``-differentially private; with probability at least
    ``1 - |F| exp(-epsilon t / (2 sensitivity))`` the chosen score is at least
    ``max(scores) - t`` (BNS Proposition 21; for OpenDP's exponential-noise
    report-noisy-max, a candidate ``t`` below the maximum must draw noise above ``t``).

    References
    ----------
    McSherry and Talwar 2007; BNS (JMLR) Proposition 21; McKenna and Sheldon 2020.

    Examples
    --------
    >>> rng = np.random.default_rng(7)
    >>> {exponential_mechanism([0, -40, -40], epsilon=1.0, rng=rng, backend="exact") for _ in range(50)}
    {0}
    >>> exponential_mechanism([0, -10, -10], epsilon="5", noise=ExactNoise(np.random.default_rng(1)))
    0
    """
    owner = "exponential_mechanism"
    eps = check_epsilon(epsilon, owner)
    if (
        isinstance(sensitivity, bool)
        or not isinstance(sensitivity, (int, float, Fraction))
        or not (0 < sensitivity < math.inf)
    ):
        raise parameter_error("sensitivity", owner, "a number in (0, inf)", sensitivity)
    if (
        isinstance(noise_multiplier, bool)
        or not isinstance(noise_multiplier, (int, float, Fraction))
        or not (0 < noise_multiplier < math.inf)
    ):
        raise parameter_error("noise_multiplier", owner, "a number in (0, inf)", noise_multiplier)
    values = np.asarray(scores).reshape(-1) if isinstance(scores, np.ndarray) else list(scores)
    if len(values) == 0:
        raise parameter_error("scores", owner, "a non-empty sequence of numbers", scores)
    if noise is None:
        if backend not in (None, "opendp", "exact"):
            raise parameter_error("backend", owner, "'opendp' or 'exact'", backend)
        noise = backend or "opendp"
    source = make_noise(noise, rng, owner)
    if len(values) == 1:
        return 0
    effective = as_fraction(eps) / as_fraction(noise_multiplier)
    return source.exponential_mechanism(values, effective, sensitivity)
