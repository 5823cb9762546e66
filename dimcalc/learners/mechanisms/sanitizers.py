"""Private query release for point functions (BNS Algorithm 2 / Proposition 30), on integer counts.

Counts are released with *discrete* Laplace noise (the geometric mechanism, Ghosh,
Roughgarden and Sundararajan 2009), so every noisy count and every threshold test is
integer arithmetic; continuous Laplace noise added to floats (whose porous support
Mironov 2012 attacked) is never used.

References
----------
.. [BNS] M. Bun, K. Nissim, U. Stemmer. Simultaneous Private Learning of Multiple
   Concepts. JMLR 20 (2019), Algorithm 2, Proposition 30.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from ..._params import Number, check_epsilon
from .._validation import check_real
from .noise import NoiseSource, noise_scale
from .sampling import least_tail_index

__all__ = ["point_sanitizer", "point_sanitizer_cutoffs"]


def point_sanitizer_cutoffs(n: int, *, alpha: float, epsilon: Number, delta: float) -> tuple[int, int, float]:
    """The integer cut-off ``tau``, release threshold ``r`` and noise scale of :func:`point_sanitizer`.

    ``tau = floor(alpha * n / 4)``; noise ``DLap(2/ε)`` per count; ``r = tau + 1 + a`` with
    ``a`` the least integer with ``Pr[Z >= a] <= delta / 2``.

    Examples
    --------
    >>> point_sanitizer_cutoffs(1000, alpha=0.1, epsilon=1.0, delta=1e-6)
    (25, 55, 2.0)
    """
    scale = float(noise_scale(1, epsilon))
    tau = int(math.floor(alpha * n / 4))
    return tau, tau + 1 + least_tail_index(scale, delta / 2), scale


def point_sanitizer(
    points: Sequence[int] | np.ndarray, *, alpha: Number, epsilon: Number, delta: Number, noise: NoiseSource
) -> dict[int, int]:
    """Private query release for point functions (BNS Algorithm 2 / Proposition 30), on counts.

    Parameters
    ----------
    points : sequence of int
        The database ``D``: one domain point (index) per row.
    alpha : float
        Target accuracy (as a fraction of ``n = len(points)``).
    epsilon, delta : float
        Privacy parameters.
    noise : NoiseSource
        Where the randomness comes from.

    Returns
    -------
    dict int -> int
        The released noisy counts ``n * a_x`` of the points whose answer is not 0; every
        other point's answer is 0.

    Notes
    -----
    For every point ``x``: if its count is at most ``tau`` release 0; otherwise add
    ``DLap(2/ε)`` and release 0 when the noisy count is below ``r`` (see
    :func:`point_sanitizer_cutoffs`).  This is Algorithm 2 with its thresholds
    ``α/4``, ``α/2`` on fractions replaced by integer counts, and with the release
    threshold ``r`` set so that privacy holds for **every** ``n`` (the paper's
    ``α/2`` needs ``n = Ω(log(1/δ)/(αε))`` for its privacy proof).  **Privacy**
    ((ε, δ)-DP, the proof of Proposition 30): replacing one row changes the counts of two
    points by one each; for each of them either both counts exceed ``tau`` (ε/2-DP by
    the geometric mechanism) or the larger is ``tau + 1`` and it is released non-zero
    with probability ``Pr[Z >= a] <= δ/2``.  **Accuracy**: every answer is within
    ``alpha * n`` of the true count with probability ``>= 1 - beta`` once
    ``n >= 4 (1 + a) / alpha`` and ``n >= (4 / (alpha * epsilon)) ln(8 / (alpha * beta))``
    (see ``docs/multi.md``).

    Examples
    --------
    >>> from dimcalc.learners.mechanisms import ExactNoise
    >>> released = point_sanitizer([0] * 500 + [1] * 5 + list(range(2, 497)), alpha=0.2, epsilon=1.0,
    ...                            delta=1e-6, noise=ExactNoise(np.random.default_rng(0)))
    >>> sorted(released), abs(released[0] - 500) < 50
    ([0], True)
    """
    owner = "point_sanitizer"
    alpha = float(check_real(alpha, "alpha", owner, upper=1.0))
    epsilon = check_epsilon(epsilon, owner)
    delta = float(check_real(delta, "delta", owner, upper=1.0))
    points = np.asarray(points, dtype=np.int64).reshape(-1)
    n = int(points.shape[0])
    tau, release, scale = point_sanitizer_cutoffs(n, alpha=alpha, epsilon=epsilon, delta=delta)
    values, counts = np.unique(points, return_counts=True)
    heavy = counts > tau
    values, counts = values[heavy], counts[heavy]
    if values.shape[0] == 0:
        return {}
    noisy = counts + noise.discrete_laplace(noise_scale(1, epsilon), size=int(values.shape[0]))
    keep = noisy >= release
    return {int(x): int(c) for x, c in zip(values[keep], noisy[keep])}
