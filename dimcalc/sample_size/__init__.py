"""Sample sizes of (private) learners, from the papers, as sympy expressions.

Every calculator returns a :class:`SampleSizeBound`: a sympy expression in
named symbols (``alpha``, ``beta``, ``epsilon``, ``delta``, ``k``, ``d``, ...),
the numbers substituted for them, the paper and theorem it transcribes, the
learning setting it holds in, and whether its constants are *explicit* (the
paper gives them, e.g. BNS Thms 8-9) or an unspecified ``O(.)`` / ``Omega(.)``
constant.  Unspecified constants appear in the expression as the symbol ``c``
(``values["c"]`` is :attr:`SampleSizeBound.order_constant`, default 1), and
such a bound is an order of growth only: its number is not a guarantee.

The package, by paper and section:

* :mod:`~dimcalc.sample_size.bound` -- :class:`SampleSizeBound`, :class:`Condition`, :class:`OutOfRangeError`;
* :mod:`~dimcalc.sample_size.symbols` -- the symbols the bounds are written in;
* :mod:`~dimcalc.sample_size.single_concept` -- BNS Thms 8-9 and 27 (one concept);
* :mod:`~dimcalc.sample_size.composition` -- BNS Thm 17 and Obs 32 (k runs composed);
* :mod:`~dimcalc.sample_size.generic_k_learner` -- BNS Thm 31 and Lemma 36 (GenericLearner);
* :mod:`~dimcalc.sample_size.point_and_parity` -- BNS Thms 39-40;
* :mod:`~dimcalc.sample_size.bns_lower_bounds` -- BNS §2.2, Thms 52, 55, Cors 46, 50;
* :mod:`~dimcalc.sample_size.public_data` -- ABM Thm 3.1, Lemma 3.3, Thms 4.1-4.2;
* :mod:`~dimcalc.sample_size.multiclass` -- BGS Thms 3.1, 3.6, 3.7, Cors 3.3, 3.5;
* :mod:`~dimcalc.sample_size.representation` -- BGS Lemmas 8.3 and 8.5;
* :mod:`~dimcalc.sample_size.feldman_xiao` -- FX Thm 2.5 and Thm 6.1;
* :mod:`~dimcalc.sample_size.table` -- :func:`sample_size_table`, every row that applies to a class.

Conventions
-----------
* ``log_size`` is the natural logarithm ``ln |C|`` of the class size
  (a sound number for an upper bound is ``math.log(H.n_distinct)``).
* ``domain_size`` is ``|X|``; ``d`` / ``vc`` is a VC-type dimension.
* ``alpha`` accuracy, ``beta`` failure probability, ``(epsilon, delta)``
  privacy; ``k`` the number of concepts learned at once (BNS Def 4).

References
----------
BNS: Bun, Nissim, Stemmer, *Simultaneous Private Learning of Multiple
Concepts*, JMLR (seed 001).  ABM: Alon, Bassily, Moran, *Limits of Private
Learning with Access to Public Data* (002).  BGS: Bun, Gaboardi, Sivakumar,
*Multiclass versus Binary Differentially Private PAC Learning* (003).
FX: Feldman, Xiao, *Sample Complexity Bounds on Differentially Private
Learning via Communication Complexity* (004).

Examples
--------
>>> from dimcalc.sample_size import vc_sample_size
>>> vc_sample_size(vc=1, alpha=0.1, beta=0.05).samples
7384
"""

from .bns_lower_bounds import (
    agnostic_k_learner_lower_bound,
    parity_pure_lower_bound,
    pure_k_learner_lower_bound,
    threshold_k_learner_lower_bound,
    vc_lower_bound,
)
from .bound import Condition, OutOfRangeError, SampleSizeBound
from .composition import advanced_composition_epsilon, composition_sample_size, split_privacy_budget
from .feldman_xiao import line_learner_sample_size, prdim_sample_size
from .generic_k_learner import generic_k_learner_sample_size, generic_learner_mwem_sample_size
from .multiclass import (
    bgs_boosted_sample_size,
    ggkm_sample_size,
    multiclass_littlestone_sample_size,
    multiclass_reduction_sample_size,
)
from .point_and_parity import parity_k_learner_sample_size, point_k_learner_sample_size
from .public_data import abm_semi_private_sample_size, asspp_sample_size, public_sample_lower_bound
from .representation import repdim_lower_bound, repdim_sample_size, representation_learner_sample_size
from .single_concept import exponential_mechanism_sample_size, generic_learner_sample_size, vc_sample_size
from .symbols import (
    ALPHA,
    BETA,
    DELTA,
    DOMAIN_SIZE,
    EPSILON,
    LOG_SIZE,
    NUM_LABELS,
    ORDER_CONSTANT,
    SAMPLES,
    D,
    K,
)
from .table import SampleSizeTable, sample_size_table

__all__ = [
    "SampleSizeBound",
    "Condition",
    "OutOfRangeError",
    "ALPHA",
    "BETA",
    "EPSILON",
    "DELTA",
    "K",
    "D",
    "LOG_SIZE",
    "DOMAIN_SIZE",
    "ORDER_CONSTANT",
    "NUM_LABELS",
    "SAMPLES",
    "generic_learner_sample_size",
    "exponential_mechanism_sample_size",
    "vc_sample_size",
    "composition_sample_size",
    "advanced_composition_epsilon",
    "generic_k_learner_sample_size",
    "generic_learner_mwem_sample_size",
    "split_privacy_budget",
    "point_k_learner_sample_size",
    "parity_k_learner_sample_size",
    "abm_semi_private_sample_size",
    "asspp_sample_size",
    "public_sample_lower_bound",
    "multiclass_reduction_sample_size",
    "ggkm_sample_size",
    "multiclass_littlestone_sample_size",
    "bgs_boosted_sample_size",
    "repdim_sample_size",
    "representation_learner_sample_size",
    "prdim_sample_size",
    "line_learner_sample_size",
    "vc_lower_bound",
    "pure_k_learner_lower_bound",
    "parity_pure_lower_bound",
    "threshold_k_learner_lower_bound",
    "agnostic_k_learner_lower_bound",
    "repdim_lower_bound",
    "SampleSizeTable",
    "sample_size_table",
]
