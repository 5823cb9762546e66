"""Differentially private building blocks of the k-learners: noise, selection, sanitizers.

Everything here is a small mechanism with its proof reference next to it:

* :func:`exponential_mechanism` -- McSherry and Talwar (2007); BNS Proposition 21.
* :func:`a_dist` -- the stability-based choice of Smith and Thakurta (2013); BNS
  Algorithm 1 / Proposition 22, with the accounting redone for the *substitution*
  neighbour relation of BNS §2.3 (see the function's notes).
* :func:`point_sanitizer` -- query release for point functions, BNS Algorithm 2 /
  Proposition 30, on integer counts.
* :func:`mwem` and :func:`mwem_step` -- private multiplicative weights (MWEM) of
  Hardt, Ligett and McSherry (2012), Theorems 2.1 (privacy) and 2.2 (accuracy),
  used as the sanitizer for ``C⊕`` in BNS Algorithm 3.

Noise comes from a *noise source*.  ``NumpyNoise(rng)`` draws from an injected
``numpy.random.Generator`` so that runs and tests are reproducible; ``OpenDPNoise()``
delegates to OpenDP's vetted samplers (exact discrete Laplace and Gumbel report-noisy-max
from a cryptographically secure generator; not seedable).  Counts are released with
*discrete* Laplace noise (the geometric mechanism, Ghosh, Roughgarden and Sundararajan
2009), so every noisy count and every threshold test is integer arithmetic.

Floating-point caveats of ``NumpyNoise`` (the reason ``OpenDPNoise`` exists):
numpy samples a geometric variate by inverting a binary64 CDF, so each probability is
exact only up to rounding (relative error about 1e-16) and the far tail beyond about
``37 * scale`` is never produced; the exponential mechanism is sampled by the Gumbel-max
trick with binary64 Gumbel variates.  These effects change output probabilities by
amounts far below anything an audit can see, but they are not covered by the proofs.
Continuous Laplace noise added to floats (whose porous support Mironov 2012 attacked)
is never used.

References
----------
.. [BNS] M. Bun, K. Nissim, U. Stemmer. Simultaneous Private Learning of Multiple
   Concepts. JMLR 20 (2019).
.. [HLM] M. Hardt, K. Ligett, F. McSherry. A Simple and Practical Algorithm for
   Differentially Private Data Release. NeurIPS 2012.
.. [CKS] C. Canonne, G. Kamath, T. Steinke. The Discrete Gaussian for Differential
   Privacy. NeurIPS 2020 (exact discrete Laplace sampling, used by OpenDP).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Hashable, Mapping, Protocol, Sequence

import numpy as np

from dimcalc.errors import InvalidParameterError, parameter_error

__all__ = [
    "NoiseSource",
    "NumpyNoise",
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
    "BOTTOM",
]

#: What :func:`a_dist` returns when the maximiser is not stable enough (BNS Algorithm 1's ⊥).
BOTTOM = None


# ---------------------------------------------------------------------------- validation
def _check_positive(value: Any, name: str, owner: str, *, upper: float = math.inf) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise parameter_error(name, owner, f"a float in (0, {upper})", value)
    value = float(value)
    if not (0.0 < value < upper):
        raise parameter_error(name, owner, f"a float in (0, {upper})", value)
    return value


def _check_delta(value: Any, owner: str) -> float:
    return _check_positive(value, "delta", owner, upper=1.0)


# ---------------------------------------------------------------------------- noise sources
class NoiseSource(Protocol):
    """What a mechanism needs from a source of randomness."""

    def discrete_laplace(self, scale: float, size: int | None = None) -> Any:
        """Integer noise with ``Pr[Z = z]`` proportional to ``exp(-|z| / scale)``."""

    def exponential_mechanism(self, scores: np.ndarray, epsilon: float, sensitivity: float) -> int:
        """Index ``i`` with probability proportional to ``exp(epsilon * scores[i] / (2 * sensitivity))``."""


class NumpyNoise:
    """Reproducible noise from a ``numpy.random.Generator`` (see the module notes on rounding).

    The discrete Laplace variate is the difference of two i.i.d. geometric variates with
    success probability ``1 - exp(-1/scale)`` (its standard representation); the
    exponential mechanism is sampled with the Gumbel-max trick, which is exactly the
    exponential mechanism in exact arithmetic (report-noisy-max with Gumbel noise).

    Examples
    --------
    >>> noise = NumpyNoise(np.random.default_rng(0))
    >>> z = noise.discrete_laplace(2.0, size=20000)
    >>> bool(abs(z.mean()) < 0.1), z.dtype.kind
    (True, 'i')
    """

    def __init__(self, rng: np.random.Generator) -> None:
        if not isinstance(rng, np.random.Generator):
            raise parameter_error("rng", "NumpyNoise", "a numpy.random.Generator", rng)
        self.rng = rng

    def discrete_laplace(self, scale: float, size: int | None = None) -> Any:
        p = -math.expm1(-1.0 / scale)  # 1 - exp(-1/scale), without cancellation
        g = self.rng.geometric(p, size=2 if size is None else (2, size)) - 1
        diff = g[0] - g[1]
        return int(diff) if size is None else diff.astype(np.int64)

    def exponential_mechanism(self, scores: np.ndarray, epsilon: float, sensitivity: float) -> int:
        scores = np.asarray(scores, dtype=float)
        keys = scores * (epsilon / (2.0 * sensitivity)) + self.rng.gumbel(size=scores.shape[0])
        return int(np.argmax(keys))


class OpenDPNoise:
    """Noise from OpenDP's vetted samplers (``contrib`` features; not seedable).

    ``discrete_laplace`` uses ``opendp.measurements.make_laplace`` on integers (exact
    sampling after [CKS]_); ``exponential_mechanism`` uses ``make_noisy_max`` with the
    max-divergence measure (report-noisy-max with Gumbel noise, which is the exponential
    mechanism).  Randomness comes from OpenDP's secure generator, so an injected ``rng``
    does not control it.
    """

    def __init__(self) -> None:
        import opendp.prelude as dp

        dp.enable_features("contrib")
        self._dp = dp
        self._laplace: dict[float, Any] = {}
        self._noisy_max: dict[float, Any] = {}

    def discrete_laplace(self, scale: float, size: int | None = None) -> Any:
        dp = self._dp
        meas = self._laplace.get(scale)
        if meas is None:
            meas = dp.m.make_laplace(dp.vector_domain(dp.atom_domain(T=int)), dp.l1_distance(T=int), scale=scale)
            self._laplace[scale] = meas
        values = meas([0] * (1 if size is None else size))
        return int(values[0]) if size is None else np.asarray(values, dtype=np.int64)

    def exponential_mechanism(self, scores: np.ndarray, epsilon: float, sensitivity: float) -> int:
        dp = self._dp
        # OpenDP's noisy max over scores with L-inf sensitivity s is (2 s / scale)-DP.
        scale = 2.0 * sensitivity / epsilon
        meas = self._noisy_max.get(scale)
        if meas is None:
            meas = dp.m.make_noisy_max(dp.vector_domain(dp.atom_domain(T=float, nan=False)),
                                       dp.linf_distance(T=float), dp.max_divergence(), scale=scale)
            self._noisy_max[scale] = meas
        return int(meas([float(s) for s in np.asarray(scores, dtype=float)]))


def make_noise(noise: str | NoiseSource, rng: np.random.Generator | None, owner: str) -> NoiseSource:
    """Normalise a ``noise`` argument: ``"numpy"`` (uses ``rng``), ``"opendp"``, or a noise source."""
    if noise == "numpy":
        if rng is None:
            rng = np.random.default_rng()
        if not isinstance(rng, np.random.Generator):
            raise parameter_error("rng", owner, "a numpy.random.Generator or None", rng)
        return NumpyNoise(rng)
    if noise == "opendp":
        return OpenDPNoise()
    if hasattr(noise, "discrete_laplace") and hasattr(noise, "exponential_mechanism"):
        return noise  # type: ignore[return-value]
    raise parameter_error("noise", owner, "'numpy', 'opendp' or a noise source", noise)


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
        return r ** a / (1.0 + r)
    return 1.0 - r ** (1 - a) / (1.0 + r)


# ---------------------------------------------------------------------------- exponential mechanism
def exponential_mechanism(scores: Sequence[float] | np.ndarray, *, epsilon: float, sensitivity: float = 1.0,
                          noise: NoiseSource) -> int:
    """Choose an index with probability proportional to ``exp(epsilon * score / (2 * sensitivity))``.

    Parameters
    ----------
    scores : sequence of float
        Quality of each candidate (higher is better); each score may change by at most
        ``sensitivity`` between neighbouring databases.
    epsilon : float
        Privacy parameter.
    sensitivity : float
        The sensitivity ``Δq`` of every score.
    noise : NoiseSource
        Where the randomness comes from.

    Returns
    -------
    int
        The chosen index.

    Notes
    -----
    ``epsilon``-differentially private, and with probability at least
    ``1 - |F| exp(-epsilon * t / (2 * sensitivity))`` the chosen score is at least
    ``max(scores) - t`` (BNS Proposition 21, McSherry and Talwar 2007).

    Examples
    --------
    >>> exponential_mechanism([0, -10, -10], epsilon=5.0, noise=NumpyNoise(np.random.default_rng(1)))
    0
    """
    scores = np.asarray(scores, dtype=float)
    if scores.ndim != 1 or scores.shape[0] == 0:
        raise parameter_error("scores", "exponential_mechanism", "a non-empty 1-d sequence", scores.shape)
    epsilon = _check_positive(epsilon, "epsilon", "exponential_mechanism")
    sensitivity = _check_positive(sensitivity, "sensitivity", "exponential_mechanism")
    return noise.exponential_mechanism(scores, epsilon, sensitivity)


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
    epsilon = _check_positive(epsilon, "epsilon", "a_dist")
    delta = _check_delta(delta, "a_dist")
    scale = 2.0 * sensitivity / epsilon
    a = max(1, math.ceil(scale * math.log(1.0 / delta)) - 2)
    while discrete_laplace_tail(scale, a) > delta:
        a += 1
    while a > 1 and discrete_laplace_tail(scale, a - 1) <= delta:
        a -= 1
    return 2 * sensitivity + a, scale


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


def a_dist(scores: Mapping[Hashable, int], *, epsilon: float, delta: float, noise: NoiseSource,
           sensitivity: int = 1, unlisted_score: int | None = None) -> Hashable | None:
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
    return best if gap + noise.discrete_laplace(scale) >= threshold else BOTTOM


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
    scale = 2.0 / epsilon
    tau = int(math.floor(alpha * n / 4))
    a = max(1, math.ceil(scale * math.log(2.0 / delta)) - 2)
    while discrete_laplace_tail(scale, a) > delta / 2:
        a += 1
    while a > 1 and discrete_laplace_tail(scale, a - 1) <= delta / 2:
        a -= 1
    return tau, tau + 1 + a, scale


def point_sanitizer(points: Sequence[int] | np.ndarray, *, alpha: float, epsilon: float, delta: float,
                    noise: NoiseSource) -> dict[int, int]:
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
    epsilon = _check_positive(epsilon, "epsilon", owner)
    delta = _check_delta(delta, owner)
    points = np.asarray(points, dtype=np.int64).reshape(-1)
    n = int(points.shape[0])
    tau, release, scale = point_sanitizer_cutoffs(n, alpha=alpha, epsilon=epsilon, delta=delta)
    values, counts = np.unique(points, return_counts=True)
    heavy = counts > tau
    values, counts = values[heavy], counts[heavy]
    if values.shape[0] == 0:
        return {}
    noisy = counts + noise.discrete_laplace(scale, size=int(values.shape[0]))
    keep = noisy >= release
    return {int(x): int(c) for x, c in zip(values[keep], noisy[keep])}


# ---------------------------------------------------------------------------- MWEM
@dataclass(frozen=True)
class MWEMResult:
    """Output of :func:`mwem`.

    Attributes
    ----------
    distribution : ndarray of float, shape (n_domain,)
        The average of the multiplicative-weights distributions (sums to 1).
    selected : tuple of int
        The query chosen in each round.
    measurements : tuple of int
        The noisy count measured in each round.
    synthetic : ndarray of int
        ``synthetic_size`` points drawn i.i.d. from ``distribution`` (post-processing).
    epsilon : float
        The privacy parameter spent (pure DP).
    """

    distribution: np.ndarray
    selected: tuple[int, ...]
    measurements: tuple[int, ...]
    synthetic: np.ndarray
    epsilon: float


def _histogram(points: np.ndarray, n_domain: int, owner: str) -> np.ndarray:
    points = np.asarray(points, dtype=np.int64).reshape(-1)
    if points.size and (points.min() < 0 or points.max() >= n_domain):
        raise parameter_error("points", owner, f"point indices in [0, {n_domain})",
                              int(points.min() if points.min() < 0 else points.max()))
    return np.bincount(points, minlength=n_domain).astype(np.int64)


def mwem_step(histogram: np.ndarray, estimate: np.ndarray, queries: np.ndarray, *, epsilon_round: float,
              noise: NoiseSource) -> tuple[int, int]:
    """One private round of MWEM: choose a badly answered query, then measure it.

    Parameters
    ----------
    histogram : ndarray of int, shape (n_domain,)
        The private data as counts per domain point.
    estimate : ndarray of float, shape (n_domain,)
        The current synthetic histogram (public: it is built from earlier outputs).
    queries : ndarray of {0,1}, shape (n_queries, n_domain)
        The counting queries.
    epsilon_round : float
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
    ``epsilon_round / 2`` on the score ``|q(estimate) - q(data)|`` (sensitivity 1, since
    replacing one row changes a count by at most 1), then the count plus
    ``DLap(2 / epsilon_round)`` (the geometric mechanism, ``epsilon_round / 2``-DP).
    Composition (BNS Theorem 17(1)): ``epsilon_round``-DP.

    Examples
    --------
    >>> q = np.array([[1, 0, 0], [0, 1, 0]])
    >>> mwem_step(np.array([90, 5, 5]), np.array([100 / 3] * 3), q, epsilon_round=2.0,
    ...           noise=NumpyNoise(np.random.default_rng(0)))[0]
    0
    """
    true_answers = queries @ histogram
    errors = np.abs(queries @ estimate - true_answers)
    index = exponential_mechanism(errors, epsilon=epsilon_round / 2, noise=noise)
    measured = int(true_answers[index]) + int(noise.discrete_laplace(2.0 / epsilon_round))
    return index, measured


def mwem(points: Sequence[int] | np.ndarray, queries: np.ndarray, *, epsilon: float, iterations: int,
         noise: NoiseSource, synthetic_size: int = 0, n_domain: int | None = None,
         update_passes: int = 1) -> MWEMResult:
    """Private multiplicative weights with the exponential mechanism (MWEM), a sanitizer for ``queries``.

    Parameters
    ----------
    points : sequence of int
        The database: one domain point (index) per row.  Its size ``n`` is public.
    queries : ndarray of {0,1}, shape (n_queries, n_domain)
        Counting queries (for BNS Algorithm 3: the class ``C⊕`` as rows over the domain).
    epsilon : float
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
        ``1`` is [HLM]_ Algorithm 1 (one update per round, the analysed version).  More
        passes replay every measurement so far that many times per round ([HLM]_ §3,
        "iterating the update"): post-processing, so privacy is unchanged, and much more
        accurate in practice, though Theorem 2.2's bound is stated for one pass.

    Returns
    -------
    MWEMResult

    Notes
    -----
    [HLM]_ Algorithm 1: each round runs :func:`mwem_step`, then the multiplicative-weights
    update ``A(x) <- A(x) * exp(q(x) * (m - q(A)) / (2n))`` with the measured query.  **Privacy**: Theorem 2.1 of [HLM]_ (and BNS
    Theorem 17(1)): ``epsilon``-DP, since the rounds are ``epsilon / T``-DP each and the
    update and the synthetic sample are post-processing.  **Accuracy**: Theorem 2.2 of
    [HLM]_: with probability ``>= 1 - 2T / |Q|^c``, every query's answer on the average
    distribution is within ``2n sqrt(log|X| / T) + 10 T log|Q| / epsilon`` of the truth
    (counts); a synthetic sample of size ``m`` adds the uniform-convergence error of the
    query class (VC bound, BNS Theorem 8/9).

    Examples
    --------
    >>> q = np.eye(4, dtype=int)
    >>> res = mwem([0] * 50 + [3] * 50, q, epsilon=5.0, iterations=4, synthetic_size=10,
    ...            update_passes=30, noise=NumpyNoise(np.random.default_rng(0)))
    >>> bool(res.distribution[0] + res.distribution[3] > 0.8), res.synthetic.shape
    (True, (10,))
    """
    owner = "mwem"
    epsilon = _check_positive(epsilon, "epsilon", owner)
    if isinstance(iterations, bool) or not isinstance(iterations, (int, np.integer)) or iterations < 1:
        raise parameter_error("iterations", owner, "a positive int", iterations)
    if isinstance(update_passes, bool) or not isinstance(update_passes, (int, np.integer)) or update_passes < 1:
        raise parameter_error("update_passes", owner, "a positive int", update_passes)
    queries = np.asarray(queries)
    if queries.ndim != 2 or queries.shape[0] == 0:
        raise parameter_error("queries", owner, "a non-empty 2-d 0/1 array (queries x domain)", queries.shape)
    n_domain = queries.shape[1] if n_domain is None else int(n_domain)
    histogram = _histogram(np.asarray(points), n_domain, owner)
    queries = queries.astype(np.float64)
    n = float(histogram.sum())
    if n == 0:
        raise InvalidParameterError("mwem: the database is empty; give at least one point")
    eps_round = epsilon / iterations
    log_weights = np.zeros(n_domain)
    selected: list[int] = []
    measured: list[int] = []
    average = np.zeros(n_domain)
    for _ in range(iterations):
        weights = np.exp(log_weights - log_weights.max())
        estimate = n * weights / weights.sum()
        index, value = mwem_step(histogram, estimate, queries, epsilon_round=eps_round, noise=noise)
        selected.append(index)
        measured.append(value)
        log_weights = log_weights + queries[index] * (value - queries[index] @ estimate) / (2.0 * n)
        for _ in range(update_passes - 1):
            for i, m in zip(selected, measured):
                weights = np.exp(log_weights - log_weights.max())
                estimate = n * weights / weights.sum()
                log_weights = log_weights + queries[i] * (m - queries[i] @ estimate) / (2.0 * n)
        weights = np.exp(log_weights - log_weights.max())
        average += weights / weights.sum()
    distribution = average / iterations
    synthetic = np.zeros(0, dtype=np.int64)
    if synthetic_size > 0:
        rng = getattr(noise, "rng", None) or np.random.default_rng()
        synthetic = rng.choice(n_domain, size=int(synthetic_size), p=distribution).astype(np.int64)
    return MWEMResult(distribution=distribution, selected=tuple(selected), measurements=tuple(measured),
                      synthetic=synthetic, epsilon=epsilon)
