"""Single-concept learners over a finite class or a VC class (BNS §2-3).

The non-private VC generalization bounds with the paper's constants (BNS Thms 8-9), the
generic pure-DP learner (BNS Thm 27, ``O(.)``) and the exponential-mechanism learner with
its constants worked out (BNS Thm 27's proof with Prop 21).

References
----------
BNS: Bun, Nissim, Stemmer, *Simultaneous Private Learning of Multiple Concepts*, JMLR (seed 001).

Examples
--------
>>> exponential_mechanism_sample_size(log_size=0.0, alpha=0.5, beta=0.5, epsilon=1.0).samples
23
"""

from __future__ import annotations

import sympy as sp

from ..errors import parameter_error
from ._build import learning_setting, make_bound
from ._validation import checked_values
from .bound import SampleSizeBound
from .symbols import ALPHA, BETA, EPSILON, LOG_SIZE, ORDER_CONSTANT, D

__all__ = ["vc_sample_size", "generic_learner_sample_size", "exponential_mechanism_sample_size"]


def vc_sample_size(*, vc: int, alpha: float, beta: float, agnostic: bool = False, erm: bool = False) -> SampleSizeBound:
    """Non-private VC generalization bound with the paper's explicit constants.

    PAC (BNS Thm 8, Blumer et al. 1989): with
    ``n >= (64/alpha) (d ln(64/alpha) + ln(8/beta))`` i.i.d. examples, every
    ``h`` in ``C`` with empirical error ``<= alpha/2`` has true error ``<= alpha``
    except with probability ``beta`` (so any consistent learner is
    ``(alpha, beta)``-accurate).

    Agnostic (BNS Thm 9, Anthony and Bartlett): with
    ``n >= (64/alpha^2) (d ln(6/alpha) + ln(8/beta))``, every ``h`` has
    ``error_P(h) - error_S(h) <= alpha`` except with probability ``beta``.  That is
    *uniform convergence*, not a learner's guarantee: an empirical risk minimiser at
    that ``n`` is within ``2 alpha`` of the optimum (``alpha`` from Thm 9 for the output,
    ``alpha`` for the best hypothesis), not ``alpha``.  ``erm=True`` gives the size for an
    ERM within ``alpha`` of the optimum: Thm 9 at ``(alpha/2, beta/2)`` for the output and
    Hoeffding for the one best hypothesis (``exp(-n alpha^2/2) <= beta/2``, far below
    Thm 9's size at these parameters).

    Parameters
    ----------
    vc : int
        The VC dimension ``d`` of the class (an upper bound is sound).
    alpha, beta : float in (0, 1)
        Accuracy and failure probability.
    agnostic : bool
        Use Thm 9 instead of Thm 8.
    erm : bool
        With ``agnostic``: the ERM version (error ``<= OPT + alpha``), see above.

    Returns
    -------
    SampleSizeBound
        ``kind="upper"``, ``constants_explicit=True``, privacy "none".

    References
    ----------
    BNS (JMLR), Theorem 8 and Theorem 9.

    Examples
    --------
    >>> vc_sample_size(vc=2, alpha=0.1, beta=0.1, agnostic=True).samples
    80453
    >>> vc_sample_size(vc=2, alpha=0.1, beta=0.1, agnostic=True, erm=True).samples
    375045
    """
    owner = "vc_sample_size"
    values = checked_values(owner, vc=vc, alpha=alpha, beta=beta)
    if erm and not agnostic:
        raise parameter_error(
            "erm", owner, "False unless agnostic=True (Thm 8 already gives a consistent learner's error)", erm
        )
    notes: tuple = ()
    if agnostic and erm:
        expr = _uniform_convergence(ALPHA / 2, BETA / 2)
        source = "BNS Thm 9 at (alpha/2, beta/2) + Hoeffding for the best hypothesis (ERM)"
        notes = ("an empirical risk minimiser at this n has error <= OPT + alpha",)
        name = "vc_erm_agnostic"
    elif agnostic:
        expr = _uniform_convergence(ALPHA, BETA)
        source = "BNS Thm 9 (Anthony & Bartlett 2009)"
        notes = (
            "uniform convergence: error_P(h) - error_S(h) <= alpha for every h; an ERM at this n is "
            "within 2 alpha of OPT (within alpha: vc_sample_size(..., agnostic=True, erm=True))",
        )
        name = "vc_generalization_agnostic"
    else:
        expr = 64 / ALPHA * (D * sp.log(64 / ALPHA) + sp.log(8 / BETA))
        source = "BNS Thm 8 (Blumer et al. 1989)"
        name = "vc_generalization"
    task = "agnostic" if agnostic else "PAC"
    return make_bound(
        owner, name, expr, values, source, learning_setting(task, True, "none"), explicit=True, notes=notes
    )


def _uniform_convergence(alpha: sp.Expr, beta: sp.Expr) -> sp.Expr:
    """BNS Thm 9's ``(64/alpha^2) (d ln(6/alpha) + ln(8/beta))`` at accuracy ``alpha``, failure ``beta``."""
    return 64 / alpha**2 * (D * sp.log(6 / alpha) + sp.log(8 / beta))


def generic_learner_sample_size(
    *, log_size: float, alpha: float, beta: float, epsilon: float, order_constant: float = 1
) -> SampleSizeBound:
    """The generic pure-DP learner over a finite class (exponential mechanism).

    ``O((log|C| + log(1/beta)) (1/(alpha epsilon) + 1/alpha^2))`` examples
    suffice for an ``(alpha, beta, epsilon)``-private agnostic *proper* learner.

    Parameters
    ----------
    log_size : float
        ``ln |C|`` (natural logarithm of the number of distinct hypotheses).
    alpha, beta : float in (0, 1)
    epsilon : float > 0
    order_constant : float
        The unspecified ``O(.)`` constant (default 1).

    Returns
    -------
    SampleSizeBound
        ``constants_explicit=False``: an order of growth.  For the explicit
        bound of the learner implemented in :mod:`dimcalc.learners`, see
        :func:`exponential_mechanism_sample_size`.

    References
    ----------
    BNS (JMLR), Theorem 27 (Kasiviswanathan, Lee, Nissim, Raskhodnikova,
    Smith, *What can we learn privately?*, 2011).

    Examples
    --------
    >>> import math
    >>> b = generic_learner_sample_size(log_size=math.log(16), alpha=0.1, beta=0.1, epsilon=1.0)
    >>> b.expression
    c*(log_size + log(1/beta))*(1/(alpha*epsilon) + alpha**(-2))
    >>> b.samples, b.order_of_growth_only
    (559, True)
    """
    owner = "generic_learner_sample_size"
    values = checked_values(
        owner, log_size=log_size, alpha=alpha, beta=beta, epsilon=epsilon, order_constant=order_constant
    )
    expr = ORDER_CONSTANT * (LOG_SIZE + sp.log(1 / BETA)) * (1 / (ALPHA * EPSILON) + 1 / ALPHA**2)
    source = "BNS Thm 27 (Kasiviswanathan et al. 2011)"
    return make_bound(owner, "generic_learner", expr, values, source, learning_setting("agnostic", True, "pure"))


def em_expression(alpha: sp.Expr, beta: sp.Expr, agnostic: bool) -> sp.Expr:
    """The bound of :func:`exponential_mechanism_sample_size` at accuracy ``alpha``, failure ``beta`` (expressions).

    Parameters
    ----------
    alpha, beta : sympy.Expr
        Accuracy and failure probability (e.g. ``3 alpha/4`` and ``beta/2`` inside ASSPP).
    agnostic : bool

    Returns
    -------
    sympy.Expr
        ``Max(selection, generalization)``.

    Examples
    --------
    >>> em_expression(ALPHA, BETA, agnostic=False)
    Max(8*(log_size + log(2/beta))/alpha, 4*(log_size + log(2/beta))/(alpha*epsilon))
    """
    selection = 4 / (alpha * EPSILON) * (LOG_SIZE + sp.log(2 / beta))
    if agnostic:
        generalization = 8 / alpha**2 * (LOG_SIZE + sp.log(4 / beta))
    else:
        generalization = 8 / alpha * (LOG_SIZE + sp.log(2 / beta))
    return sp.Max(selection, generalization)


def exponential_mechanism_sample_size(
    *, log_size: float, alpha: float, beta: float, epsilon: float, agnostic: bool = False
) -> SampleSizeBound:
    """Explicit sample size of the exponential-mechanism learner over a finite class.

    This is the proof of BNS Thm 27 with its constants worked out.  The
    mechanism picks ``h`` with probability proportional to
    ``exp(epsilon * q(S, h) / 2)``, ``q = -(number of errors)`` (sensitivity 1);
    by BNS Prop 21 it outputs ``h`` with ``q <= OPT - t n`` with probability at
    most ``|C| exp(-epsilon t n / 2)`` (report-noisy-max with exponential noise
    of scale ``2/epsilon`` has the same tail bound).

    * PAC (target in ``C``): with ``t = alpha/2`` the empirical error is
      ``< alpha/2`` except with probability ``beta/2`` once
      ``n >= (4/(alpha epsilon)) ln(2|C|/beta)``; the multiplicative Chernoff
      bound ``P[Bin(n,p) <= np/2] <= exp(-np/8)`` and a union bound over ``C``
      give that no ``h`` with error ``> alpha`` has empirical error
      ``<= alpha/2`` except with probability ``beta/2`` once
      ``n >= (8/alpha) ln(2|C|/beta)``.
    * Agnostic: ``t = alpha/2`` and ``n >= (4/(alpha epsilon)) ln(2|C|/beta)``
      for the mechanism; Hoeffding and a union bound give
      ``|error_S(h) - error_P(h)| <= alpha/4`` for all ``h`` except with
      probability ``beta/2`` once ``n >= (8/alpha^2) ln(4|C|/beta)``; then
      ``error_P(h) <= OPT_P + alpha``.

    The bound is the maximum of the two terms.

    Parameters
    ----------
    log_size : float
        ``ln |C|``.
    alpha, beta : float in (0, 1)
    epsilon : float > 0
    agnostic : bool

    Returns
    -------
    SampleSizeBound
        ``constants_explicit=True``, proper, pure DP.

    References
    ----------
    BNS (JMLR), Theorem 27 and Proposition 21 (McSherry and Talwar 2007);
    Kasiviswanathan et al. 2011, Theorem 3.4.

    Examples
    --------
    >>> import math
    >>> exponential_mechanism_sample_size(log_size=math.log(16), alpha=0.1, beta=0.1, epsilon=1.0).samples
    462
    """
    owner = "exponential_mechanism_sample_size"
    values = checked_values(owner, log_size=log_size, alpha=alpha, beta=beta, epsilon=epsilon)
    return make_bound(
        owner,
        "exponential_mechanism_agnostic" if agnostic else "exponential_mechanism",
        em_expression(ALPHA, BETA, agnostic),
        values,
        "BNS Thm 27 / Prop 21 (explicit constants: Chernoff/Hoeffding union bound over C)",
        learning_setting("agnostic" if agnostic else "PAC", True, "pure"),
        explicit=True,
    )
