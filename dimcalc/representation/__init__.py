"""Deterministic and probabilistic representation dimension (FX §2.3, BGS §8).

Layout: the exact check :func:`is_representation` and the witness object are in
:mod:`dimcalc.witnesses.representation` (apart from the solver); the MILP for
``DRDim`` in :mod:`~dimcalc.representation.milp`; its result class in
:mod:`~dimcalc.representation.result`; the paper bounds in
:mod:`~dimcalc.representation.paper_bounds` and :mod:`~dimcalc.representation.prdim`.

``H`` **ε-represents** ``C`` (FX Def 2.3; multiclass as in BGS Def 8.1 with a
single class) when for every ``f in C`` and every distribution ``D`` on the
domain some ``h in H`` has ``Pr_{x~D}[h(x) != f(x)] <= ε``.  By von Neumann's
minimax theorem (the game of FX Thm 3.2's proof, payoff ``1[h(x) != f(x)]``)
this holds for ``f`` exactly when some *mixture* ``q`` over ``H`` has

    max_x Pr_{h~q}[h(x) != f(x)] <= ε,

one small linear program per ``f``.  When it fails, the optimal dual solution
is a distribution ``D`` under which every ``h in H`` errs more than ``ε``.
``DRDim_ε(C) = log2 |H|`` for the smallest such ``H``.

Exactness.  The LPs are solved in floating point (scipy HiGHS), then the answer
is certified with exact rational arithmetic: the mixture (or the distribution)
is rounded to nearby fractions with small denominators and its worst error is
recomputed exactly with :class:`fractions.Fraction`.  A mixture certifies
"represents" when its exact worst error is ``<= ε``; a distribution certifies
"does not represent" when the exact least error over ``H`` is ``> ε``.  If
neither rounding certifies (a numerical tie finer than the tolerance
``LP_TOLERANCE``), the result says so (``certified=False``) instead of
guessing.

``ε`` is exact wherever it is taken (:mod:`dimcalc._params`): a ``Fraction`` or
text such as ``"1/3"`` or ``"0.25"`` is that number; a ``float`` is taken at its
own (binary) value -- ``1/3`` typed as a float is a hair under one third, and the
answer is exact at that value.  Pass ``Fraction(1, 3)`` or ``"1/3"`` to mean one
third.  The MILP of :func:`deterministic_representation_dimension` decides "error
``<= ε``" at a threshold chosen away from every error a candidate set can have
(those are rationals whose denominators are bounded by a Hadamard bound), so it
answers at the exact ``ε`` even when ``ε`` is within floating-point noise of such
an error; when the domain is too large for that margin, the answer is given as
proven bounds.

References
----------
FX: Feldman, Xiao, *Sample Complexity Bounds on Differentially Private Learning
via Communication Complexity*, COLT 2014: Def 2.3 (DRDim), Def 2.4 (PRDim),
Thm 3.1, Thm 3.2, Cor 4.3, §3.1 (Newman; point functions).
BGS: Bun, Gaboardi, Sivakumar, NeurIPS 2021: Defs 8.1-8.2, Thm 8.8.
"""

from ..witnesses.representation import (
    LP_TOLERANCE,
    Representation,
    RepresentationCheck,
    check_representation,
    exact_fraction,
    is_representation,
    representation_error,
)
from .milp import MAX_ALL_FUNCTIONS, MAX_MILP_PAIRS, MILP_SAFE_MARGIN, deterministic_representation_dimension
from .paper_bounds import PaperBound, binary_entropy
from .prdim import probabilistic_representation_bounds
from .result import ProbabilisticRepresentationResult, RepresentationDimensionResult

__all__ = [
    "LP_TOLERANCE",
    "RepresentationCheck",
    "RepresentationDimensionResult",
    "ProbabilisticRepresentationResult",
    "Representation",
    "PaperBound",
    "is_representation",
    "check_representation",
    "representation_error",
    "deterministic_representation_dimension",
    "probabilistic_representation_bounds",
    "binary_entropy",
    "exact_fraction",
    "MAX_ALL_FUNCTIONS",
    "MAX_MILP_PAIRS",
    "MILP_SAFE_MARGIN",
]
