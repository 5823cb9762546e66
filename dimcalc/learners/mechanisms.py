"""The selection mechanism of the finite-class learners: the exponential mechanism.

:func:`exponential_mechanism` privately picks an index with (approximately)
maximal integer score, for scores of sensitivity ``sensitivity`` (for a
learner, ``score = -(number of errors)``, sensitivity 1: replacing one example
changes every hypothesis's error count by at most one).  Two back ends:

``backend="opendp"`` (default)
    OpenDP's ``make_noisy_max`` with the ``max_divergence`` measure on an
    integer score vector under the (non-monotonic) ``LInfDistance`` metric, with
    ``scale = 2 * sensitivity / epsilon``.  OpenDP adds exponential noise of that
    scale to every score and reports the arg max (report-noisy-max, equivalent
    to permute-and-flip, McKenna and Sheldon 2020); its privacy map, which is
    checked here, gives ``epsilon = 2 * sensitivity / scale``.  It dominates the
    exponential mechanism in utility and satisfies the same tail bound used by
    BNS Prop 21 (an index ``g`` below the maximum wins with probability at most
    ``exp(-epsilon g / (2 sensitivity))``), so every sample-size bound derived
    from Prop 21 applies.  OpenDP samples exactly, from a cryptographically
    secure generator: its draws cannot be seeded (the ``rng`` is not used).

``backend="exact"``
    The exponential mechanism of McSherry and Talwar (2007) itself,
    ``P[i] ∝ exp(epsilon * score_i / (2 sensitivity))``, sampled *exactly* from
    the injected ``numpy.random.Generator`` with rational arithmetic only:
    propose a uniform index ``i`` and accept it with probability
    ``exp(-gamma_i)``, ``gamma_i = epsilon (max - score_i) / (2 sensitivity)``
    (an exact Bernoulli(exp(-gamma)) sampler, Canonne, Kamath and Steinke
    2020, Algorithm 1); the accepted index has exactly the mechanism's law.
    ``epsilon`` is taken as the exact binary fraction of the float given.
    Reproducible, so the tests use it.  Its running time depends on the scores
    (a timing side channel): use the OpenDP back end for deployment.

``noise_multiplier`` scales the noise (``< 1`` voids the guarantee: it exists
for the negative controls of the privacy audits, which must be caught).

References
----------
F. McSherry, K. Talwar, *Mechanism Design via Differential Privacy*, FOCS 2007;
BNS (JMLR) Proposition 21.  R. McKenna, D. Sheldon, *Permute-and-Flip*,
NeurIPS 2020.  C. Canonne, G. Kamath, T. Steinke, *The Discrete Gaussian for
Differential Privacy*, NeurIPS 2020, Algorithm 1 (Bernoulli(exp(-gamma))).
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from typing import Literal, Sequence

import numpy as np

from ..errors import parameter_error

__all__ = ["exponential_mechanism", "bernoulli_exp", "BACKENDS"]

BACKENDS = ("opendp", "exact")


def _uniform_below(bound: int, rng: np.random.Generator) -> int:
    """A uniform integer in ``[0, bound)`` from the generator, exactly (big ints allowed)."""
    if bound < (1 << 62):
        return int(rng.integers(0, bound))
    bits = bound.bit_length()
    while True:  # rejection sampling over 62-bit chunks
        value = 0
        for _ in range((bits + 61) // 62):
            value = (value << 62) | int(rng.integers(0, 1 << 62))
        value >>= (62 * ((bits + 61) // 62) - bits)
        if value < bound:
            return value


def _bernoulli(p: Fraction, rng: np.random.Generator) -> bool:
    """Exact Bernoulli(p) for a rational ``p`` in [0, 1]."""
    if p <= 0:
        return False
    if p >= 1:
        return True
    return _uniform_below(p.denominator, rng) < p.numerator


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
    if gamma < 0:
        raise ValueError("gamma must be >= 0")
    if gamma <= 1:
        k = 1
        while _bernoulli(gamma / k, rng):
            k += 1
        return k % 2 == 1
    for _ in range(math.floor(gamma)):
        if not bernoulli_exp(Fraction(1), rng):
            return False
    return bernoulli_exp(gamma - math.floor(gamma), rng)


@lru_cache(maxsize=64)
def _opendp_noisy_max(scale: float):
    import opendp.prelude as dp

    # "contrib" enables OpenDP components that are vetted by its maintainers but not
    # yet externally certified; make_noisy_max is one of them.
    dp.enable_features("contrib")
    space = dp.vector_domain(dp.atom_domain(T="i64")), dp.linf_distance(T="i64")
    measurement = dp.m.make_noisy_max(*space, dp.max_divergence(), scale=scale)
    return measurement, measurement.map(1)


def exponential_mechanism(scores: Sequence[int] | np.ndarray, *, epsilon: float, rng: np.random.Generator,
                          sensitivity: int = 1, backend: Literal["opendp", "exact"] = "opendp",
                          noise_multiplier: float = 1.0) -> int:
    """Privately select an index of (approximately) maximal integer score.

    Parameters
    ----------
    scores : sequence of int
        One integer score per candidate; each has sensitivity ``sensitivity``.
    epsilon : float > 0
        The privacy parameter: the selection is ``(epsilon, 0)``-DP.
    rng : numpy.random.Generator
        Randomness of the ``"exact"`` back end (unused by ``"opendp"``).
    sensitivity : int >= 1
    backend : {"opendp", "exact"}
        See the module docstring.
    noise_multiplier : float
        Multiplies the noise scale; values below 1 void the guarantee (audits only).

    Returns
    -------
    int
        The selected index.

    References
    ----------
    McSherry and Talwar 2007; BNS (JMLR) Proposition 21; see the module docstring.

    Examples
    --------
    >>> rng = np.random.default_rng(7)
    >>> picks = [exponential_mechanism([0, -40, -40], epsilon=1.0, rng=rng, backend="exact") for _ in range(50)]
    >>> set(picks)
    {0}
    """
    owner = "exponential_mechanism"
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)) or not (0 < epsilon < math.inf):
        raise parameter_error("epsilon", owner, "a float in (0, inf)", epsilon)
    if isinstance(sensitivity, bool) or not isinstance(sensitivity, int) or sensitivity < 1:
        raise parameter_error("sensitivity", owner, "an int >= 1", sensitivity)
    if not (isinstance(noise_multiplier, (int, float)) and 0 < noise_multiplier < math.inf):
        raise parameter_error("noise_multiplier", owner, "a float in (0, inf)", noise_multiplier)
    values = [int(s) for s in np.asarray(scores).reshape(-1).tolist()]
    if not values:
        raise parameter_error("scores", owner, "a non-empty sequence of integers", scores)
    if len(values) == 1:
        return 0
    if backend == "opendp":
        scale = 2.0 * sensitivity / epsilon * noise_multiplier
        measurement, spent_per_unit = _opendp_noisy_max(scale)
        spent = spent_per_unit * sensitivity  # the map is linear in d_in for this measurement
        if noise_multiplier >= 1 and spent > epsilon * (1 + 1e-12):  # OpenDP's own privacy map
            raise AssertionError(f"OpenDP's privacy map gives {spent} > epsilon = {epsilon}")
        return int(measurement(values))
    if backend == "exact":
        rate = Fraction(epsilon) / (2 * sensitivity) / Fraction(noise_multiplier)
        best = max(values)
        gaps = [best - v for v in values]
        n = len(values)
        while True:
            i = _uniform_below(n, rng)
            if gaps[i] == 0 or bernoulli_exp(rate * gaps[i], rng):
                return i
    raise parameter_error("backend", owner, "'opendp' or 'exact'", backend)
