"""Private k-learners: learn k concepts at once from one k-labelled sample (BNS), one learner per module.

A *k-labelled database* (BNS Def 3) has one row per individual: a domain point and
``k`` binary labels, one per concept.  Neighbouring databases differ in one whole row
(BNS §2.3), and every learner here is differentially private for that relation.

=========================  ==========================================  =====================
learner                    paper                                       privacy
=========================  ==========================================  =====================
:class:`CompositionLearner` BNS Obs 32 + Thm 17 over Thm 27 / Prop 21  pure, or approximate
:class:`GenericLearner`     BNS Alg 3 (Lemma 36, Thm 31), MWEM for C⊕  pure, or approximate
:class:`PointLearner`       BNS Alg 5 (Thm 40): Alg 2 + A_dist          approximate
:class:`ParityLearner`      BNS Alg 4 (Thm 39): GF(2) + A_dist          approximate
=========================  ==========================================  =====================

They share the single-concept learners' base (:class:`~dimcalc.learners._base.PrivateLearner`:
scikit-learn's estimator conventions, ``noise="opendp"`` by default or ``"exact"`` for the
reproducible sampler, ``random_state``, ``get_params``/``set_params``, ``NotFittedError``,
one privacy accounting).  ``fit(X, Y)`` takes ``Y`` an ``(m, k)`` 0/1 label matrix (column
``j`` = concept ``j``), ``predict(X) -> (n, k)``, ``privacy_spent -> (epsilon, delta)``.
``X`` holds point *indices* of the class's domain, except for :class:`ParityLearner` where
it holds the points of ``{0,1}^d`` themselves (rows of an ``(m, d)`` 0/1 array, since
``2^d`` columns would not fit a table).  ``required_sample_size(alpha, beta)`` returns a
:class:`dimcalc.sample_size.SampleSizeBound`.

References
----------
.. [BNS] M. Bun, K. Nissim, U. Stemmer. Simultaneous Private Learning of Multiple
   Concepts. JMLR 20 (2019): Defs 3-5, Thm 17, Props 21-22, Prop 30 / Alg 2,
   Obs 32, Lemma 36 / Alg 3, Thm 39 / Alg 4, Thm 40 / Alg 5.
.. [HLM] M. Hardt, K. Ligett, F. McSherry. A Simple and Practical Algorithm for
   Differentially Private Data Release. NeurIPS 2012.
"""

from .budget import BudgetSplit, split_budget
from .composition import CompositionLearner
from .generic import GenericLearner, xor_queries
from .parity import ParityLearner, solve_parities_gf2
from .point import PointLearner

__all__ = [
    "BudgetSplit",
    "split_budget",
    "xor_queries",
    "solve_parities_gf2",
    "CompositionLearner",
    "GenericLearner",
    "PointLearner",
    "ParityLearner",
]
