"""Differentially private mechanisms of the learners, one family per module, with their proofs.

=====================  ================================================================
module                 what
=====================  ================================================================
:mod:`.noise`          the noise sources (``OpenDPNoise``, the reproducible ``ExactNoise``)
:mod:`.sampling`       exact samplers (CKS 2020) and the discrete Laplace tail
:mod:`.exponential`    the exponential mechanism, the learners' one selection primitive
                       (BNS Prop 21), and its error-count score
:mod:`.stability`      ``A_dist``, stability-based selection (BNS Alg 1 / Prop 22)
:mod:`.sanitizers`     query release for point functions (BNS Alg 2 / Prop 30)
:mod:`.mwem`           private multiplicative weights, the sanitizer for ``C⊕`` (HLM 2012)
=====================  ================================================================

Every mechanism draws its noise from the learner's one noise source: ``OpenDPNoise()``
(OpenDP's vetted samplers: exact discrete Laplace, and report-noisy-max with
**exponential** noise for selection; secure, not seedable) or ``ExactNoise(rng)`` (exact
in-process samplers driven by an injected ``numpy.random.Generator``: the exact exponential
mechanism and exact discrete Laplace; reproducible).

References
----------
.. [BNS] M. Bun, K. Nissim, U. Stemmer. Simultaneous Private Learning of Multiple
   Concepts. JMLR 20 (2019).
.. [HLM] M. Hardt, K. Ligett, F. McSherry. A Simple and Practical Algorithm for
   Differentially Private Data Release. NeurIPS 2012.
.. [CKS] C. Canonne, G. Kamath, T. Steinke. The Discrete Gaussian for Differential
   Privacy. NeurIPS 2020 (exact discrete Laplace sampling, used by OpenDP and ExactNoise).
"""

from .exponential import error_counts, exponential_mechanism
from .mwem import MWEMResult, mwem, mwem_error_bound, mwem_rounds, mwem_step
from .noise import (
    BACKENDS,
    NOISE_SOURCES,
    ExactNoise,
    NoiseSource,
    NumpyNoise,
    OpenDPNoise,
    check_noise,
    check_random_state,
    make_noise,
    noise_scale,
)
from .sampling import bernoulli_exp, discrete_laplace_exact, discrete_laplace_tail, least_tail_index
from .sanitizers import point_sanitizer, point_sanitizer_cutoffs
from .stability import BOTTOM, a_dist, a_dist_required_gap, a_dist_threshold

__all__ = [
    "NoiseSource",
    "OpenDPNoise",
    "ExactNoise",
    "NumpyNoise",
    "make_noise",
    "check_noise",
    "check_random_state",
    "noise_scale",
    "BACKENDS",
    "NOISE_SOURCES",
    "bernoulli_exp",
    "discrete_laplace_exact",
    "discrete_laplace_tail",
    "least_tail_index",
    "exponential_mechanism",
    "error_counts",
    "a_dist_threshold",
    "a_dist_required_gap",
    "a_dist",
    "BOTTOM",
    "point_sanitizer",
    "point_sanitizer_cutoffs",
    "MWEMResult",
    "mwem_step",
    "mwem",
    "mwem_error_bound",
    "mwem_rounds",
]
