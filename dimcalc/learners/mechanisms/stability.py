"""Stability-based selection ``A_dist`` (Smith and Thakurta 2013; BNS Algorithm 1 / Proposition 22).

The accounting is redone for the *substitution* neighbour relation of BNS §2.3 (see
:func:`a_dist`'s notes); the noise is discrete Laplace, so every threshold test is integer
arithmetic.

References
----------
.. [BNS] M. Bun, K. Nissim, U. Stemmer. Simultaneous Private Learning of Multiple
   Concepts. JMLR 20 (2019), Algorithm 1, Proposition 22.
A. Smith, A. Thakurta. Differentially Private Feature Selection via Stability Arguments,
and the Robustness of the Lasso. COLT 2013.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import TypeVar

from ..._params import Number, check_epsilon
from .._validation import check_real
from .noise import NoiseSource, noise_scale
from .sampling import least_tail_index

__all__ = ["a_dist_threshold", "a_dist_required_gap", "a_dist", "BOTTOM"]

#: A candidate of :func:`a_dist` (any hashable).
Candidate = TypeVar("Candidate", bound=Hashable)

#: What :func:`a_dist` returns when the maximiser is not stable enough (BNS Algorithm 1's ⊥).
BOTTOM = None


def a_dist_threshold(epsilon: Number, delta: Number, sensitivity: int = 1) -> tuple[int, float]:
    """Integer threshold ``T`` and noise scale ``b`` of :func:`a_dist`.

    ``b = 2 * sensitivity / epsilon`` and ``T = 2 * sensitivity + a`` with ``a >= 1`` the
    least integer with ``Pr[Z >= a] <= delta`` for ``Z ~ DLap(b)``.

    Examples
    --------
    >>> a_dist_threshold(1.0, 1e-6)
    (29, 2.0)
    """
    eps = check_epsilon(epsilon, "a_dist")
    delta = check_real(delta, "delta", "a_dist", upper=1.0)
    scale = float(noise_scale(sensitivity, eps))
    return 2 * sensitivity + least_tail_index(scale, float(delta)), scale


def a_dist_required_gap(epsilon: Number, delta: Number, beta: float, sensitivity: int = 1) -> int:
    """Least integer gap with which :func:`a_dist` returns the maximiser with probability ``>= 1 - beta``.

    The maximiser is returned iff ``gap + Z >= T``, i.e. it fails with probability
    ``Pr[Z >= gap - T + 1]``; this is the explicit form of BNS Proposition 22(2).

    Examples
    --------
    >>> a_dist_required_gap(1.0, 1e-6, 0.05)
    34
    """
    beta = float(check_real(beta, "beta", "a_dist_required_gap", upper=1.0))
    threshold, scale = a_dist_threshold(epsilon, delta, sensitivity)
    return threshold - 1 + least_tail_index(scale, beta, margin=0)


def a_dist(
    scores: Mapping[Candidate, int],
    *,
    epsilon: Number,
    delta: Number,
    noise: NoiseSource,
    sensitivity: int = 1,
    unlisted_score: int | None = None,
) -> Candidate | None:
    """Stability-based selection (BNS Algorithm 1, ``A_dist``): the maximiser, or ``None`` (⊥).

    Parameters
    ----------
    scores : mapping candidate -> int
        Integer quality of the listed candidates (e.g. counts).  Each score changes by at
        most ``sensitivity`` between neighbouring databases.
    epsilon, delta : float
        Privacy parameters.
    noise : NoiseSource
        Where the randomness comes from.
    sensitivity : int
        ``Δ``, the largest change of any single score between neighbours.
    unlisted_score : int, optional
        The score of every candidate not listed (e.g. ``0`` when the candidates are all
        vectors and ``scores`` lists the observed ones).  ``None`` means the listed
        candidates are all the candidates.

    Returns
    -------
    candidate or None
        The highest-scoring candidate (ties broken by the mapping's order), or ``None`` (⊥).

    Notes
    -----
    Let ``f1`` be the maximiser and ``gap = q(f1) - max_{f != f1} q(f)``.  The mechanism
    releases ``f1`` iff ``gap + Z >= T`` with ``Z ~ DLap(2Δ/ε)`` and ``T`` from
    :func:`a_dist_threshold`.  **Privacy** ((ε, δ)-DP), following Smith and Thakurta (2013)
    and BNS Proposition 22(1), but for neighbours that *replace* one row (BNS §2.3), where
    ``gap`` can move by ``2Δ`` (one score drops by Δ while the runner-up gains Δ), not Δ:
    if ``f1`` is the same on both neighbours the output is post-processing of
    ``gap + Z``, which is ε-DP since ``gap`` has sensitivity ``2Δ``; if the maximisers
    differ then ``gap <= 2Δ`` on both sides, so each releases its maximiser with
    probability ``Pr[Z >= T - 2Δ] <= δ`` and otherwise outputs ⊥ on both.  **Utility**:
    :func:`a_dist_required_gap`.

    Examples
    --------
    >>> import numpy as np
    >>> from dimcalc.learners.mechanisms import ExactNoise
    >>> noise = ExactNoise(np.random.default_rng(0))
    >>> a_dist({"a": 100, "b": 3}, epsilon=1.0, delta=1e-6, noise=noise)
    'a'
    >>> a_dist({"a": 5, "b": 3}, epsilon=1.0, delta=1e-6, noise=noise) is None
    True
    """
    threshold, scale = a_dist_threshold(epsilon, delta, sensitivity)
    best, top, second = None, None, None
    for cand, score in scores.items():
        score = int(score)
        if top is None or score > top:
            best, second, top = cand, top, score
        elif second is None or score > second:
            second = score
    if unlisted_score is not None:
        second = unlisted_score if second is None else max(second, int(unlisted_score))
        if top is None or second > top:  # an unlisted candidate is the maximiser: nothing to name
            return BOTTOM
    if top is None:
        return BOTTOM
    if second is None:  # a single candidate: it is the answer whatever the data
        return best
    gap = top - second
    return best if gap + noise.discrete_laplace(noise_scale(sensitivity, epsilon)) >= threshold else BOTTOM
