"""Sample sizes from Feldman and Xiao (FX): the PRDim upper bound and the Line_p learner.

References
----------
FX: Feldman, Xiao, *Sample Complexity Bounds on Differentially Private Learning via
Communication Complexity*, COLT 2014 (seed 004), Theorem 2.5 and Theorem 6.1 (Thm 1.3).

Examples
--------
>>> line_learner_sample_size(alpha=0.1, beta=0.1, epsilon=0.4, delta=0.6)
Traceback (most recent call last):
...
dimcalc.sample_size.bound.OutOfRangeError: The 'delta' parameter of line_learner_sample_size must satisfy delta < 1/2 (FX Thm 6.1: epsilon, delta, alpha, beta in (0, 1/2): the range FX Thm 6.1 / Thm 1.3 is stated for). Got 0.6 instead.
"""

from __future__ import annotations

import sympy as sp

from ._build import learning_setting, make_bound
from ._validation import checked_values
from .bound import Condition, SampleSizeBound
from .symbols import ALPHA, BETA, DELTA, EPSILON, ORDER_CONSTANT, symbol

__all__ = ["prdim_sample_size", "line_learner_sample_size"]


def prdim_sample_size(
    *, prdim: float, alpha: float, beta: float, epsilon: float, agnostic: bool = False, order_constant: float = 1
) -> SampleSizeBound:
    """Pure-DP sample complexity from the probabilistic representation dimension (FX Thm 2.5, upper).

    FX write ``SCDP_{alpha, eps, delta}`` with ``alpha`` the *privacy* and
    ``(eps, delta)`` the *accuracy* parameters; in dimcalc's names
    (``alpha`` accuracy, ``beta`` confidence, ``epsilon`` privacy):
    ``O(1/(alpha epsilon) (log(1/alpha) (PRDim + log log(1/(alpha beta))) + log(1/beta)))``,
    and for agnostic learning the factor ``1/(alpha epsilon)`` becomes
    ``1/(alpha epsilon) + 1/alpha^2``.  ``PRDim = PRDim_{1/4,1/4}``.  As usual inside
    ``O(.)``, ``log log(1/(alpha beta))`` is read as ``log max(e, log(1/(alpha beta)))`` (at least 1),
    so the expression is positive for every ``alpha, beta`` in (0, 1).

    References
    ----------
    FX Theorem 2.5 (Kasiviswanathan et al. 2011; Beimel et al. 2013a).

    Examples
    --------
    >>> prdim_sample_size(prdim=1.0, alpha=0.1, beta=0.1, epsilon=1.0).kind
    'upper'
    """
    owner = "prdim_sample_size"
    P = symbol("prdim", nonnegative=True)
    values = checked_values(owner, prdim=prdim, alpha=alpha, beta=beta, epsilon=epsilon, order_constant=order_constant)
    factor = 1 / (ALPHA * EPSILON) + (1 / ALPHA**2 if agnostic else 0)
    # O(.) convention: the iterated logarithm is read as log(max(e, log(1/(alpha beta)))), so the
    # expression stays positive when alpha * beta is close to 1 (unchanged for alpha * beta <= 1/16).
    body = sp.log(1 / ALPHA) * (P + sp.log(sp.Max(sp.E, sp.log(1 / (ALPHA * BETA))))) + sp.log(1 / BETA)
    return make_bound(
        owner,
        "prdim_learner" + ("_agnostic" if agnostic else ""),
        ORDER_CONSTANT * factor * body,
        values,
        "FX Thm 2.5 (upper" + (", agnostic)" if agnostic else ")"),
        learning_setting("agnostic" if agnostic else "PAC", False, "pure"),
    )


def line_learner_sample_size(
    *, alpha: float, beta: float, epsilon: float, delta: float, order_constant: float = 1
) -> SampleSizeBound:
    """Approximate-DP learner for Line_p (FX Thm 6.1, stated as Thm 1.3).

    FX Thm 6.1 in dimcalc's names: ``O(1/(alpha epsilon) log(1/delta) log(1/beta))``
    examples (independent of ``p``) for an ``(epsilon, delta)``-DP,
    ``(alpha, beta)``-accurate improper learner, for ``alpha, beta, epsilon,
    delta`` in ``(0, 1/2)`` (other values are refused).

    References
    ----------
    FX Theorem 6.1 and Theorem 1.3 (§6).

    Examples
    --------
    >>> line_learner_sample_size(alpha=0.1, beta=0.1, epsilon=0.4, delta=1e-6).expression
    c*log(1/beta)*log(1/delta)/(alpha*epsilon)
    """
    owner = "line_learner_sample_size"
    values = checked_values(owner, alpha=alpha, beta=beta, epsilon=epsilon, delta=delta, order_constant=order_constant)
    return make_bound(
        owner,
        "line_learner",
        ORDER_CONSTANT * sp.log(1 / DELTA) * sp.log(1 / BETA) / (ALPHA * EPSILON),
        values,
        "FX Thm 6.1 / Thm 1.3 (Line_p)",
        learning_setting("PAC", False, "approximate"),
        conditions=tuple(
            Condition(sym < sp.Rational(1, 2), "FX Thm 6.1: epsilon, delta, alpha, beta in (0, 1/2)", sym.name)
            for sym in (ALPHA, BETA, EPSILON, DELTA)
        ),
    )
