"""Private learners over finite hypothesis classes, with a scikit-learn-like API.

Every learner has ``fit(X, y)`` (``X``: point indices, ``y``: labels),
``predict(X)``, keyword-only privacy parameters, an injected
``numpy.random.Generator`` (``rng=``), ``privacy_spent`` -> ``(epsilon, delta)``
and ``required_sample_size(alpha, beta)`` -> :class:`dimcalc.sample_size.SampleSizeBound`.

==========================  ==================================================
learner                     source
==========================  ==================================================
GenericPrivateLearner       BNS Thm 27 (Kasiviswanathan et al. 2011)
ASSPP                       ABM Alg 1 / Thm 3.1 (public unlabelled data)
BinaryReductionLearner      BGS Thm 3.1 (multiclass from binary)
RepresentationLearner       BGS Lemma 8.3 (Beimel, Nissim, Stemmer Lemma 14)
CompositionLearner, ...     BNS k-learners (:mod:`dimcalc.learners.multi`)
==========================  ==================================================
"""

from .exponential import GenericPrivateLearner
from .mechanisms import exponential_mechanism
from .multiclass import BinaryReductionLearner
from .representation import RepresentationLearner
from .semi_private import ASSPP

__all__ = ["GenericPrivateLearner", "ASSPP", "BinaryReductionLearner", "RepresentationLearner",
           "exponential_mechanism"]

try:  # the k-learners live in multi.py (owned by another module author)
    from .multi import CompositionLearner, GenericLearner, ParityLearner, PointLearner  # noqa: F401
except ImportError:  # pragma: no cover - multi.py absent or not importable yet
    pass
else:
    __all__ += ["CompositionLearner", "GenericLearner", "PointLearner", "ParityLearner"]
