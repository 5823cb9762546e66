"""Differentially private building blocks of the k-learners: selection and sanitizers.

Everything here is a small mechanism with its proof reference next to it:

* :func:`exponential_mechanism` -- the learners' one selection primitive (defined in
  :mod:`dimcalc.learners.mechanisms`, re-exported here); BNS Proposition 21.
* :func:`a_dist` -- the stability-based choice of Smith and Thakurta (2013); BNS
  Algorithm 1 / Proposition 22, with the accounting redone for the *substitution*
  neighbour relation of BNS §2.3 (see the function's notes).
* :func:`point_sanitizer` -- query release for point functions, BNS Algorithm 2 /
  Proposition 30, on integer counts.
* :func:`mwem` and :func:`mwem_step` -- private multiplicative weights (MWEM) of
  Hardt, Ligett and McSherry (2012), Algorithm 1, Theorems 2.1 (privacy) and 2.2
  (accuracy; :func:`mwem_error_bound` states it with explicit constants for this
  implementation), used as the sanitizer for ``C⊕`` in BNS Algorithm 3.

Noise comes from the learners' one noise source (:mod:`dimcalc.learners.mechanisms`):
``OpenDPNoise()`` (OpenDP's vetted samplers: exact discrete Laplace, and report-noisy-max
with **exponential** noise for selection; secure, not seedable) or ``ExactNoise(rng)``
(exact in-process samplers driven by an injected ``numpy.random.Generator``: the exact
exponential mechanism and exact discrete Laplace; reproducible).  Counts are released
with *discrete* Laplace noise (the geometric mechanism, Ghosh, Roughgarden and
Sundararajan 2009), so every noisy count and every threshold test is integer arithmetic;
continuous Laplace noise added to floats (whose porous support Mironov 2012 attacked) is
never used.

References
----------
.. [BNS] M. Bun, K. Nissim, U. Stemmer. Simultaneous Private Learning of Multiple
   Concepts. JMLR 20 (2019).
.. [HLM] M. Hardt, K. Ligett, F. McSherry. A Simple and Practical Algorithm for
   Differentially Private Data Release. NeurIPS 2012.
.. [CKS] C. Canonne, G. Kamath, T. Steinke. The Discrete Gaussian for Differential
   Privacy. NeurIPS 2020 (exact discrete Laplace sampling, used by OpenDP and ExactNoise).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from .._params import Number, as_fraction, check_epsilon
from ..errors import InvalidParameterError, parameter_error
from .mechanisms import (
    ExactNoise,
    NoiseSource,
    NumpyNoise,
    OpenDPNoise,
    check_random_state,
    exponential_mechanism,
    make_noise,
)

__all__ = [
    "NoiseSource",
    "NumpyNoise",
    "ExactNoise",
    "OpenDPNoise",
    "make_noise",
    "discrete_laplace_tail",
    "exponential_mechanism",
    "a_dist_threshold",
    "a_dist_required_gap",
    "a_dist",
    "point_sanitizer",
    "point_sanitizer_cutoffs",
    "MWEMResult",
    "mwem_step",
    "mwem",
    "mwem_error_bound",
    "mwem_rounds",
    "BOTTOM",
]

#: What :func:`a_dist` returns when the maximiser is not stable enough (BNS Algorithm 1's ⊥).
BOTTOM = None


# ---------------------------------------------------------------------------- validation
def _check_positive(value: Any, name: str, owner: str, *, upper: float = math.inf) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, Fraction, np.integer, np.floating)):
        raise parameter_error(name, owner, f"a float in (0, {upper})", value)
    if not (0 < value < upper):
        raise parameter_error(name, owner, f"a float in (0, {upper})", value)
    return float(value)


def _check_eps(value: Any, owner: str, name: str = "epsilon") -> Number:
    return check_epsilon(value, owner, name)


def _check_delta(value: Any, owner: str) -> float:
    return _check_positive(value, "delta", owner, upper=1.0)


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


# ---------------------------------------------------------------------------- A_dist
def a_dist_threshold(epsilon: float, delta: float, sensitivity: int = 1) -> tuple[int, float]:
    """Integer threshold ``T`` and noise scale ``b`` of :func:`a_dist`.

    ``b = 2 * sensitivity / epsilon`` and ``T = 2 * sensitivity + a`` with ``a >= 1`` the
    least integer with ``Pr[Z >= a] <= delta`` for ``Z ~ DLap(b)``.

    Examples
    --------
    >>> a_dist_threshold(1.0, 1e-6)
    (29, 2.0)
    """
    epsilon = _check_eps(epsilon, "a_dist")
    delta = _check_delta(delta, "a_dist")
    scale = float(2 * sensitivity / as_fraction(epsilon))
    return 2 * sensitivity + _least_tail_index(scale, delta), scale


def _least_tail_index(scale: float, p: float) -> int:
    """Least integer ``a >= 1`` with ``Pr[DLap(scale) >= a] <= p`` (with a 1e-12 relative safety margin
    for the floating-point evaluation of the tail)."""
    target = p * (1 - 1e-12)
    a = max(1, math.ceil(scale * math.log(1.0 / p)) - 2)
    while discrete_laplace_tail(scale, a) > target:
        a += 1
    while a > 1 and discrete_laplace_tail(scale, a - 1) <= target:
        a -= 1
    return a


def _scale(sensitivity: Number, epsilon: Number) -> Fraction:
    """The exact noise scale ``2 sensitivity / epsilon`` handed to the noise source."""
    return 2 * as_fraction(sensitivity) / as_fraction(epsilon)


def a_dist_required_gap(epsilon: float, delta: float, beta: float, sensitivity: int = 1) -> int:
    """Least integer gap with which :func:`a_dist` returns the maximiser with probability ``>= 1 - beta``.

    The maximiser is returned iff ``gap + Z >= T``, i.e. it fails with probability
    ``Pr[Z >= gap - T + 1]``; this is the explicit form of BNS Proposition 22(2).

    Examples
    --------
    >>> a_dist_required_gap(1.0, 1e-6, 0.05)
    34
    """
    beta = _check_positive(beta, "beta", "a_dist_required_gap", upper=1.0)
    threshold, scale = a_dist_threshold(epsilon, delta, sensitivity)
    c = max(1, math.ceil(scale * math.log(1.0 / beta)) - 2)
    while discrete_laplace_tail(scale, c) > beta:
        c += 1
    while c > 1 and discrete_laplace_tail(scale, c - 1) <= beta:
        c -= 1
    return threshold - 1 + c


def a_dist(
    scores: Mapping[Hashable, int],
    *,
    epsilon: float,
    delta: float,
    noise: NoiseSource,
    sensitivity: int = 1,
    unlisted_score: int | None = None,
) -> Hashable | None:
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
    >>> noise = NumpyNoise(np.random.default_rng(0))
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
    return best if gap + noise.discrete_laplace(_scale(sensitivity, epsilon)) >= threshold else BOTTOM


# ---------------------------------------------------------------------------- point sanitizer
def point_sanitizer_cutoffs(n: int, *, alpha: float, epsilon: float, delta: float) -> tuple[int, int, float]:
    """The integer cut-off ``tau``, release threshold ``r`` and noise scale of :func:`point_sanitizer`.

    ``tau = floor(alpha * n / 4)``; noise ``DLap(2/ε)`` per count; ``r = tau + 1 + a`` with
    ``a`` the least integer with ``Pr[Z >= a] <= delta / 2``.

    Examples
    --------
    >>> point_sanitizer_cutoffs(1000, alpha=0.1, epsilon=1.0, delta=1e-6)
    (25, 55, 2.0)
    """
    scale = float(_scale(1, epsilon))
    tau = int(math.floor(alpha * n / 4))
    return tau, tau + 1 + _least_tail_index(scale, delta / 2), scale


def point_sanitizer(
    points: Sequence[int] | np.ndarray, *, alpha: float, epsilon: float, delta: float, noise: NoiseSource
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
    >>> released = point_sanitizer([0] * 500 + [1] * 5 + list(range(2, 497)), alpha=0.2, epsilon=1.0,
    ...                            delta=1e-6, noise=NumpyNoise(np.random.default_rng(0)))
    >>> sorted(released), abs(released[0] - 500) < 50
    ([0], True)
    """
    owner = "point_sanitizer"
    alpha = _check_positive(alpha, "alpha", owner, upper=1.0)
    epsilon = _check_eps(epsilon, owner)
    delta = _check_delta(delta, owner)
    points = np.asarray(points, dtype=np.int64).reshape(-1)
    n = int(points.shape[0])
    tau, release, scale = point_sanitizer_cutoffs(n, alpha=alpha, epsilon=epsilon, delta=delta)
    values, counts = np.unique(points, return_counts=True)
    heavy = counts > tau
    values, counts = values[heavy], counts[heavy]
    if values.shape[0] == 0:
        return {}
    noisy = counts + noise.discrete_laplace(_scale(1, epsilon), size=int(values.shape[0]))
    keep = noisy >= release
    return {int(x): int(c) for x, c in zip(values[keep], noisy[keep])}


# ---------------------------------------------------------------------------- MWEM
@dataclass(frozen=True)
class MWEMResult:
    """Output of :func:`mwem`.

    Attributes
    ----------
    distribution : ndarray of float, shape (n_domain,)
        The average of the multiplicative-weights distributions ``A_0 .. A_{T-1}`` (sums to 1).
    selected : tuple of int
        The query chosen in each round.
    measurements : tuple of int
        The noisy count measured in each round.
    synthetic : ndarray of int
        ``synthetic_size`` points drawn i.i.d. from ``distribution`` (post-processing).
    epsilon : number
        The privacy parameter spent (pure DP).
    """

    distribution: np.ndarray
    selected: tuple[int, ...]
    measurements: tuple[int, ...]
    synthetic: np.ndarray
    epsilon: Number


def _histogram(points: np.ndarray, n_domain: int, owner: str) -> np.ndarray:
    points = np.asarray(points, dtype=np.int64).reshape(-1)
    if points.size and (points.min() < 0 or points.max() >= n_domain):
        raise parameter_error(
            "points",
            owner,
            f"point indices in [0, {n_domain})",
            int(points.min() if points.min() < 0 else points.max()),
        )
    return np.bincount(points, minlength=n_domain).astype(np.int64)


def mwem_step(
    histogram: np.ndarray, estimate: np.ndarray, queries: np.ndarray, *, epsilon_round: Any, noise: NoiseSource
) -> tuple[int, int]:
    """One private round of MWEM: choose a badly answered query, then measure it.

    Parameters
    ----------
    histogram : ndarray of int, shape (n_domain,)
        The private data as counts per domain point.
    estimate : ndarray of float, shape (n_domain,)
        The current synthetic histogram (public: it is built from earlier outputs).
    queries : ndarray of {0,1}, shape (n_queries, n_domain)
        The counting queries.
    epsilon_round : number
        Privacy spent by this round (half on selection, half on measurement).
    noise : NoiseSource
        Where the randomness comes from.

    Returns
    -------
    (int, int)
        The selected query and its noisy count.

    Notes
    -----
    [HLM]_ Algorithm 1, one iteration: the exponential mechanism with parameter
    ``epsilon_round / 2`` on the integer score ``|round(q(estimate)) - q(data)|``
    (sensitivity 1, since replacing one row changes a count by at most 1; rounding the
    public estimate is post-processing of earlier outputs and costs at most one count of
    accuracy), then the count plus ``DLap(2 / epsilon_round)`` (the geometric mechanism,
    ``epsilon_round / 2``-DP).  Composition (BNS Theorem 17(1)): ``epsilon_round``-DP.

    Examples
    --------
    >>> q = np.array([[1, 0, 0], [0, 1, 0]])
    >>> mwem_step(np.array([90, 5, 5]), np.array([100 / 3] * 3), q, epsilon_round=2.0,
    ...           noise=ExactNoise(np.random.default_rng(0)))[0]
    0
    """
    epsilon_round = _check_eps(epsilon_round, "mwem_step", "epsilon_round")
    true_answers = queries.astype(np.int64) @ histogram
    public = np.rint(queries @ estimate).astype(np.int64)
    errors = np.abs(public - true_answers)
    index = exponential_mechanism(errors, epsilon=as_fraction(epsilon_round) / 2, noise=noise)
    measured = int(true_answers[index]) + int(noise.discrete_laplace(_scale(1, epsilon_round)))
    return index, measured


def mwem(
    points: Sequence[int] | np.ndarray,
    queries: np.ndarray,
    *,
    epsilon: Any,
    iterations: int,
    noise: NoiseSource,
    synthetic_size: int = 0,
    n_domain: int | None = None,
    update_passes: int = 1,
    rng: Any = None,
) -> MWEMResult:
    """Private multiplicative weights with the exponential mechanism (MWEM), a sanitizer for ``queries``.

    Parameters
    ----------
    points : sequence of int
        The database: one domain point (index) per row.  Its size ``n`` is public.
    queries : ndarray of {0,1}, shape (n_queries, n_domain)
        Counting queries (for BNS Algorithm 3: the class ``C⊕`` as rows over the domain).
    epsilon : number
        Total privacy parameter (pure DP).
    iterations : int
        Number of rounds ``T``; each round spends ``epsilon / T``.
    noise : NoiseSource
        Where the randomness comes from.
    synthetic_size : int
        Number of points to draw from the final distribution (post-processing).
    n_domain : int, optional
        Domain size; defaults to ``queries.shape[1]``.
    update_passes : int
        ``1`` is [HLM]_ Algorithm 1 (one update per round, the analysed version, whose
        accuracy :func:`mwem_error_bound` states).  More passes replay every measurement so
        far that many times per round ([HLM]_ §3): post-processing, so privacy is
        unchanged, but outside the accuracy theorem.
    rng : None, int or numpy.random.Generator
        Randomness of the synthetic sample (post-processing); default: the noise source's
        generator, else a fresh one.

    Returns
    -------
    MWEMResult

    Notes
    -----
    [HLM]_ Algorithm 1: ``A_0`` uniform; each round ``t`` runs :func:`mwem_step` against
    ``A_{t-1}``, then the multiplicative-weights update
    ``A_t(x) ∝ A_{t-1}(x) exp(q(x) (m - q(A_{t-1})) / (2n))``; the output is the average
    of ``A_0 .. A_{T-1}`` (the distributions the selections were made against).
    **Privacy** ([HLM]_ Thm 2.1, BNS Thm 17(1)): ``epsilon``-DP, the rounds being
    ``epsilon / T``-DP each and the update and the synthetic sample post-processing.
    **Accuracy** ([HLM]_ Thm 2.2 with this implementation's constants): see
    :func:`mwem_error_bound`.

    Examples
    --------
    >>> q = np.eye(4, dtype=int)
    >>> res = mwem([0] * 50 + [3] * 50, q, epsilon=5.0, iterations=4, synthetic_size=10,
    ...            update_passes=30, noise=ExactNoise(np.random.default_rng(0)))
    >>> bool(res.distribution[0] + res.distribution[3] > 0.6), res.synthetic.shape
    (True, (10,))
    """
    owner = "mwem"
    epsilon = _check_eps(epsilon, owner)
    if isinstance(iterations, bool) or not isinstance(iterations, (int, np.integer)) or iterations < 1:
        raise parameter_error("iterations", owner, "a positive int", iterations)
    if isinstance(update_passes, bool) or not isinstance(update_passes, (int, np.integer)) or update_passes < 1:
        raise parameter_error("update_passes", owner, "a positive int", update_passes)
    queries = np.asarray(queries)
    if queries.ndim != 2 or queries.shape[0] == 0:
        raise parameter_error("queries", owner, "a non-empty 2-d 0/1 array (queries x domain)", queries.shape)
    n_domain = queries.shape[1] if n_domain is None else int(n_domain)
    histogram = _histogram(np.asarray(points), n_domain, owner)
    queries_f = queries.astype(np.float64)
    n = float(histogram.sum())
    if n == 0:
        raise InvalidParameterError("mwem: the database is empty; give at least one point")
    eps_round = as_fraction(epsilon) / int(iterations)
    log_weights = np.zeros(n_domain)
    selected: list[int] = []
    measured: list[int] = []
    average = np.zeros(n_domain)
    for _ in range(int(iterations)):
        weights = np.exp(log_weights - log_weights.max())
        weights /= weights.sum()
        average += weights  # A_{t-1}: the distribution this round selects against
        estimate = n * weights
        index, value = mwem_step(histogram, estimate, queries, epsilon_round=eps_round, noise=noise)
        selected.append(index)
        measured.append(value)
        log_weights = log_weights + queries_f[index] * (value - queries_f[index] @ estimate) / (2.0 * n)
        for _ in range(update_passes - 1):
            for i, m in zip(selected, measured):
                weights = np.exp(log_weights - log_weights.max())
                estimate = n * weights / weights.sum()
                log_weights = log_weights + queries_f[i] * (m - queries_f[i] @ estimate) / (2.0 * n)
    distribution = average / int(iterations)
    synthetic = np.zeros(0, dtype=np.int64)
    if synthetic_size > 0:
        generator = check_random_state(rng if rng is not None else getattr(noise, "rng", None), owner, "rng")
        synthetic = generator.choice(n_domain, size=int(synthetic_size), p=distribution).astype(np.int64)
    return MWEMResult(
        distribution=distribution,
        selected=tuple(selected),
        measurements=tuple(measured),
        synthetic=synthetic,
        epsilon=epsilon,
    )


def mwem_error_bound(*, n: int, iterations: int, n_domain: int, n_queries: int, epsilon: Any, beta: float) -> float:
    """Explicit accuracy of :func:`mwem` ([HLM]_ Thm 2.2 with this implementation's constants).

    With probability at least ``1 - beta`` over the noise, for **every** query ``q``,
    ``|q(A) - q(D)| / n`` is at most

        ``2 sqrt(ln|X| / T) + (2T/(epsilon n)) ln(4T/beta) + (4T ln(2 T |Q|/beta) / epsilon + 1) / n``

    for the output average ``A`` of ``T = iterations`` rounds (one update pass) on a
    database of ``n`` rows over a domain of ``|X|`` points, when this is below 1.

    Proof ([HLM]_'s, with the constants worked out).  Let ``p = D/n`` and ``Ψ_t`` the
    relative entropy ``RE(p || A_t)``; ``Ψ_0 <= ln|X|`` and ``Ψ_t >= 0``.  With
    ``a_t = (q_t(A_{t-1}) - q_t(D))/n`` and ``e_t = (m_t - q_t(D))/n`` (the measurement
    error), ``e^x <= 1 + x + x^2`` (``|x| <= 1``) gives
    ``Ψ_{t-1} - Ψ_t >= a_t^2/4 - e_t^2/4``, so ``(1/T) Σ|a_t| <= 2 sqrt(ln|X|/T) + max|e_t|``.
    Measurements: ``|Z| >= z`` for ``DLap(2T/epsilon)`` has probability
    ``<= 2 exp(-z epsilon/(2T))``; over ``T`` rounds, ``max|e_t| <= (2T/(epsilon n)) ln(4T/beta)``
    except with probability ``beta/2``.  Selections (BNS Prop 21 with ``epsilon/(2T)``, score
    sensitivity 1): each chosen score is within ``(4T/epsilon) ln(2T|Q|/beta)`` of the
    largest except with probability ``beta/(2T)``; the rounding of the public estimate adds
    at most one count.  Then
    ``max_q |q(A) - q(D)| <= (1/T) Σ_t max_q |q(A_{t-1}) - q(D)| <= n (1/T) Σ|a_t| + (selection slack)``.

    Examples
    --------
    >>> round(mwem_error_bound(n=10**6, iterations=300, n_domain=16, n_queries=137, epsilon=2.0, beta=0.1), 4)
    0.2033
    """
    eps = float(as_fraction(check_epsilon(epsilon, "mwem_error_bound")))
    T = int(iterations)
    if n < 1 or T < 1 or n_domain < 1 or n_queries < 1 or not 0 < beta < 1:
        raise parameter_error(
            "n", "mwem_error_bound", "positive sizes and beta in (0, 1)", (n, iterations, n_domain, n_queries, beta)
        )
    measurement = 2 * T / (eps * n) * math.log(4 * T / beta)
    selection = (4 * T / eps * math.log(2 * T * n_queries / beta) + 1) / n
    return 2 * math.sqrt(math.log(n_domain) / T) + measurement + selection


def mwem_rounds(
    *, n: int, n_domain: int, n_queries: int, epsilon: Any, beta: float, max_rounds: int = 10**6
) -> tuple[int, float]:
    """The number of rounds ``T`` minimising :func:`mwem_error_bound` at ``n`` rows, and that bound.

    ``n`` is public (neighbouring databases replace a row), so choosing ``T`` from it is
    data-independent.  The bound's first term falls like ``T^(-1/2)`` and the others grow
    about linearly in ``T``; the minimum is near ``T* = (ln|X| (epsilon n)^2 / c^2)^(1/3)``.

    Examples
    --------
    >>> T, bound = mwem_rounds(n=10**6, n_domain=16, n_queries=137, epsilon=2.0, beta=0.1)
    >>> T, round(bound, 4)
    (1134, 0.145)
    """

    def bound(T: int) -> float:
        return mwem_error_bound(n=n, iterations=T, n_domain=n_domain, n_queries=n_queries, epsilon=epsilon, beta=beta)

    lo, hi = 1, max(1, int(max_rounds))
    while hi - lo > 2:  # the bound is unimodal in T (convex plus increasing): ternary search
        m1, m2 = lo + (hi - lo) // 3, hi - (hi - lo) // 3
        if bound(m1) <= bound(m2):
            hi = m2
        else:
            lo = m1
    best = min(range(lo, hi + 1), key=bound)
    return best, bound(best)
