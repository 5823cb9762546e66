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
* :mod:`~dimcalc.sample_size.almm` -- ALMM19 Thm 1 (``Omega(log* LDim)``, order of growth);
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

from . import (
    almm,
    bns_lower_bounds,
    bound,
    composition,
    feldman_xiao,
    generic_k_learner,
    multiclass,
    point_and_parity,
    public_data,
    representation,
    single_concept,
    symbols,
    table,
)
from .almm import *
from .bns_lower_bounds import *
from .bound import *
from .composition import *
from .feldman_xiao import *
from .generic_k_learner import *
from .multiclass import *
from .point_and_parity import *
from .public_data import *
from .representation import *
from .single_concept import *
from .symbols import *
from .table import *

__all__ = [
    *bound.__all__,
    *symbols.__all__,
    *single_concept.__all__,
    *composition.__all__,
    *generic_k_learner.__all__,
    *point_and_parity.__all__,
    *public_data.__all__,
    *multiclass.__all__,
    *representation.__all__,
    *feldman_xiao.__all__,
    *bns_lower_bounds.__all__,
    *almm.__all__,
    *table.__all__,
]
