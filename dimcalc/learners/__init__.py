"""Private learners over finite hypothesis classes: one stack, scikit-learn's estimator conventions.

Every learner derives from :class:`~dimcalc.learners._base.PrivateLearner`: the constructor
stores keyword-only parameters (``get_params`` / ``set_params``), ``fit`` validates them,
``random_state`` (None, an int seed or a ``numpy.random.Generator``) drives the reproducible
sampler and any data-independent randomness, ``noise="opendp"`` (default: OpenDP's vetted
samplers) or ``"exact"`` (exact in-process samplers, reproducible) is the one noise source
(:mod:`dimcalc.learners.mechanisms`), ``predict`` before ``fit`` raises
:class:`NotFittedError`, ``privacy_spent`` -> ``(epsilon, delta)`` comes from one accounting
(:class:`~dimcalc.learners.privacy.Privacy`), and ``required_sample_size(alpha, beta)`` ->
:class:`dimcalc.sample_size.SampleSizeBound`.

==========================  ==================================================
learner                     source
==========================  ==================================================
GenericPrivateLearner       BNS Thm 27 (Kasiviswanathan et al. 2011)
ASSPP                       ABM Alg 1 / Thm 3.1 (public unlabelled data; agnostic)
BinaryReductionLearner      BGS Thm 3.1 (multiclass from binary)
RepresentationLearner       BGS Lemma 8.3 (Beimel, Nissim, Stemmer Lemma 14)
CompositionLearner          BNS Obs 32 + Thm 17 (k concepts)
GenericLearner              BNS Alg 3 / Lemma 36 with MWEM (k concepts)
PointLearner                BNS Alg 5 / Thm 40 (k point functions)
ParityLearner               BNS Alg 4 / Thm 39 (k parities)
==========================  ==================================================
"""

from ._base import NotFittedError, PrivateLearner
from .exponential import GenericPrivateLearner
from .mechanisms import ExactNoise, NoiseSource, OpenDPNoise, exponential_mechanism
from .multi import CompositionLearner, GenericLearner, ParityLearner, PointLearner
from .multiclass import BinaryReductionLearner
from .privacy import Privacy
from .representation import RepresentationLearner
from .semi_private import ASSPP

__all__ = [
    "GenericPrivateLearner",
    "ASSPP",
    "BinaryReductionLearner",
    "RepresentationLearner",
    "CompositionLearner",
    "GenericLearner",
    "PointLearner",
    "ParityLearner",
    "PrivateLearner",
    "NotFittedError",
    "Privacy",
    "NoiseSource",
    "OpenDPNoise",
    "ExactNoise",
    "exponential_mechanism",
    "LEARNERS",
]

#: Every learner class (the shared contract test runs each through the same checks).
LEARNERS = (
    GenericPrivateLearner,
    ASSPP,
    BinaryReductionLearner,
    RepresentationLearner,
    CompositionLearner,
    GenericLearner,
    PointLearner,
    ParityLearner,
)
