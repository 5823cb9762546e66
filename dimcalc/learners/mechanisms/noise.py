"""Noise sources: where every private step of every learner draws its randomness.

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
from types import ModuleType
from typing import Any, Protocol, cast

import numpy as np

from ..._params import Number, as_fraction, float_up
from ...errors import parameter_error
from ...param_validation import RANDOM_STATE
from .sampling import RELATIVE_BAND, TWO62, _RandomInts, discrete_laplace_exact, exp_band_compare

__all__ = [
    "NoiseSource",
    "OpenDPNoise",
    "ExactNoise",
    "NumpyNoise",
    "make_noise",
    "check_noise",
    "noise_scale",
    "check_random_state",
    "BACKENDS",
    "NOISE_SOURCES",
]

#: The noise sources by name ("numpy" is a synonym of "exact").
NOISE_SOURCES = ("opendp", "exact")
#: Every name ``noise=`` accepts.
NOISE_NAMES = ("opendp", "exact", "numpy")
#: Former name of :data:`NOISE_SOURCES` (the single-concept learners' ``backend=``).
BACKENDS = NOISE_SOURCES


def _exact_scores(scores: Sequence[Any]) -> list[int | Fraction]:
    """Scores as exact numbers: ints stay ints, anything else becomes its exact Fraction."""
    out: list[int | Fraction] = []
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

    @property
    def rng(self) -> np.random.Generator | None:
        """The generator driving the source, if it has one (the exact source), else None."""

    def discrete_laplace(self, scale: Number, size: int | None = None) -> Any:
        """Integer noise with ``P[Z = z]`` proportional to ``exp(-|z| / scale)`` (``size`` draws)."""

    def exponential_mechanism(self, scores: Sequence[Any] | np.ndarray, epsilon: Number, sensitivity: Number) -> int:
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

    def exponential_mechanism(self, scores: Sequence[Any] | np.ndarray, epsilon: Number, sensitivity: Number) -> int:
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
        # boundary (the float gamma and exp are accurate to ~1e-15) is settled exactly by exp_band_compare,
        # so the accepted index has exactly the law P[i] ∝ exp(-gamma_i).
        while True:
            idx = rng.integers(0, n, size=64)
            words = rng.integers(0, 1 << 62, size=64, dtype=np.int64)
            uf = words / TWO62
            e = acceptance[idx]
            band = RELATIVE_BAND * np.maximum(e, uf) + 1e-300
            sure = uf < e - band
            unsure = ~sure & (uf <= e + band)
            decided = np.flatnonzero(sure | unsure)
            for j in decided:
                if sure[j]:
                    return int(idx[j])
                i = int(idx[j])
                if exp_band_compare(*gamma(i), ints, int(words[j])):
                    return i


#: Former name of :class:`ExactNoise` (it replaced numpy's floating-point samplers).
NumpyNoise = ExactNoise


def _opendp() -> ModuleType:
    """OpenDP's prelude with the ``contrib`` features enabled (imported on first use: ~0.3 s)."""
    import opendp.prelude as dp

    # "contrib" enables OpenDP components vetted by its maintainers but not yet externally
    # certified; make_noisy_max and make_laplace are among them.
    dp.enable_features("contrib")
    return dp


@lru_cache(maxsize=256)
def _opendp_noisy_max(scale: float, integer: bool) -> tuple[Any, Any]:
    dp = _opendp()
    atom = dp.atom_domain(T="i64") if integer else dp.atom_domain(T=float, nan=False)
    metric = dp.linf_distance(T="i64") if integer else dp.linf_distance(T=float)
    measurement = dp.m.make_noisy_max(dp.vector_domain(atom), metric, dp.max_divergence(), scale=scale)
    return measurement, measurement.map(1 if integer else 1.0)


@lru_cache(maxsize=256)
def _opendp_laplace(scale: float) -> Any:
    dp = _opendp()
    return dp.m.make_laplace(dp.vector_domain(dp.atom_domain(T=int)), dp.l1_distance(T=int), scale=scale)


class OpenDPNoise:
    """OpenDP's vetted samplers (secure generator, not seedable); see the module docstring.

    Examples
    --------
    >>> OpenDPNoise().exponential_mechanism([0, -60, -60], 1.0, 1)
    0
    """

    name = "opendp"
    rng: None = None

    def discrete_laplace(self, scale: Number, size: int | None = None) -> Any:
        meas = _opendp_laplace(float_up(scale))  # never a smaller scale than asked for
        values = meas([0] * (1 if size is None else int(size)))
        return int(values[0]) if size is None else np.asarray(values, dtype=np.int64)

    def exponential_mechanism(self, scores: Sequence[Any] | np.ndarray, epsilon: Number, sensitivity: Number) -> int:
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

    The shared rule :data:`dimcalc.param_validation.RANDOM_STATE` (the same answer everywhere).

    >>> int(check_random_state(3, "f").integers(100)) == int(check_random_state(3, "f").integers(100))
    True
    """
    return RANDOM_STATE.check(random_state, name, owner)


def noise_scale(sensitivity: Number, epsilon: Number) -> Fraction:
    """The exact noise scale ``2 sensitivity / epsilon`` handed to the noise source.

    >>> noise_scale(1, 0.5)
    Fraction(4, 1)
    """
    return 2 * as_fraction(sensitivity) / as_fraction(epsilon)


def check_noise(noise: Any, owner: str) -> str | NoiseSource:
    """``noise`` unchanged if it names a noise source (:data:`NOISE_NAMES`) or is one, else a one-line error.

    >>> check_noise("exact", "f")
    'exact'
    """
    if isinstance(noise, str):
        if noise in NOISE_NAMES:
            return noise
    elif hasattr(noise, "discrete_laplace") and hasattr(noise, "exponential_mechanism"):
        return cast(NoiseSource, noise)
    raise parameter_error("noise", owner, "'opendp', 'exact' or a noise source", noise)


def make_noise(noise: Any, rng: Any, owner: str) -> NoiseSource:
    """The noise source named by ``noise``: ``"opendp"``, ``"exact"`` (``"numpy"``: a synonym) or a source.

    ``rng`` (None, a seed or a Generator) drives the exact source.
    """
    checked = check_noise(noise, owner)
    if checked == "opendp":
        return OpenDPNoise()
    if isinstance(checked, str):  # "exact" or its synonym "numpy"
        return ExactNoise(check_random_state(rng, owner, "random_state"))
    return checked
