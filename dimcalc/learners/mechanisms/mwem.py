"""Private multiplicative weights with the exponential mechanism (MWEM): the sanitizer for ``C⊕``.

Hardt, Ligett and McSherry (2012), Algorithm 1, Theorems 2.1 (privacy) and 2.2 (accuracy;
:func:`mwem_error_bound` states it with explicit constants for this implementation), used
as the sanitizer for ``C⊕`` in BNS Algorithm 3.

References
----------
.. [HLM] M. Hardt, K. Ligett, F. McSherry. A Simple and Practical Algorithm for
   Differentially Private Data Release. NeurIPS 2012.
.. [BNS] M. Bun, K. Nissim, U. Stemmer. Simultaneous Private Learning of Multiple
   Concepts. JMLR 20 (2019), Algorithm 3, Theorem 17.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..._params import Number, as_fraction, check_epsilon
from ...errors import InvalidParameterError, parameter_error
from ...param_validation import renamed_parameters
from .._validation import check_count, check_indices
from .exponential import exponential_mechanism
from .noise import NoiseSource, check_random_state, noise_scale

__all__ = ["MWEMResult", "mwem_step", "mwem", "mwem_error_bound", "mwem_rounds"]


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
    points = check_indices(np.asarray(points, dtype=np.int64).reshape(-1), n_domain, owner, name="points")
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
    >>> from dimcalc.learners.mechanisms import ExactNoise
    >>> mwem_step(np.array([90, 5, 5]), np.array([100 / 3] * 3), q, epsilon_round=2.0,
    ...           noise=ExactNoise(np.random.default_rng(0)))[0]
    0
    """
    epsilon_round = check_epsilon(epsilon_round, "mwem_step", "epsilon_round")
    true_answers = queries.astype(np.int64) @ histogram
    public = np.rint(queries @ estimate).astype(np.int64)
    errors = np.abs(public - true_answers)
    index = exponential_mechanism(errors, epsilon=as_fraction(epsilon_round) / 2, noise=noise)
    measured = int(true_answers[index]) + int(noise.discrete_laplace(noise_scale(1, epsilon_round)))
    return index, measured


def _multiplicative_update(
    log_weights: np.ndarray, query: np.ndarray, measured: int, estimate: np.ndarray, n: float
) -> np.ndarray:
    """[HLM]_ Algorithm 1's update in log space: ``A(x) * exp(q(x) (m - q(A)) / (2n))``, unnormalised."""
    return log_weights + query * (measured - query @ estimate) / (2.0 * n)


@renamed_parameters(rng="random_state")
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
    random_state: Any = None,
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
    random_state : None, int or numpy.random.Generator
        Randomness of the synthetic sample (post-processing); default: the noise source's
        generator, else a fresh one.  (``rng=`` is its former name, accepted for one release with a
        ``FutureWarning``.)

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
    >>> from dimcalc.learners.mechanisms import ExactNoise
    >>> res = mwem([0] * 50 + [3] * 50, q, epsilon=5.0, iterations=4, synthetic_size=10,
    ...            update_passes=30, noise=ExactNoise(np.random.default_rng(0)))
    >>> bool(res.distribution[0] + res.distribution[3] > 0.6), res.synthetic.shape
    (True, (10,))
    """
    owner = "mwem"
    epsilon = check_epsilon(epsilon, owner)
    check_count(iterations, "iterations", owner)
    check_count(update_passes, "update_passes", owner)
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
        log_weights = _multiplicative_update(log_weights, queries_f[index], value, estimate, n)
        for _ in range(update_passes - 1):
            for i, m in zip(selected, measured):
                weights = np.exp(log_weights - log_weights.max())
                estimate = n * weights / weights.sum()
                log_weights = _multiplicative_update(log_weights, queries_f[i], m, estimate, n)
    distribution = average / int(iterations)
    synthetic = np.zeros(0, dtype=np.int64)
    if synthetic_size > 0:
        source = random_state if random_state is not None else getattr(noise, "rng", None)
        generator = check_random_state(source, owner, "random_state")
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
