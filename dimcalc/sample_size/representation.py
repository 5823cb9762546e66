"""Pure-DP learning from a probabilistic representation (BGS §8): upper and lower bounds.

BGS Lemma 8.3 (Beimel, Nissim, Stemmer 2019, Lemma 14) as an order of growth
(:func:`repdim_sample_size`) and with its constants worked out for dimcalc's
:class:`~dimcalc.learners.RepresentationLearner` (:func:`representation_learner_sample_size`);
BGS Lemma 8.5, the matching lower bound (:func:`repdim_lower_bound`).

References
----------
BGS: Bun, Gaboardi, Sivakumar, *Multiclass versus Binary Differentially Private PAC
Learning* (seed 003), Definitions 8.1-8.2, Lemmas 8.3 and 8.5.

Examples
--------
>>> repdim_lower_bound(repdim=0.5, alpha=0.1, epsilon=1.0).samples
0
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy as sp

from ..errors import parameter_error
from ._build import learning_setting, make_bound
from ._validation import checked_values
from .bound import Condition, SampleSizeBound
from .symbols import ALPHA, BETA, EPSILON, NUM_LABELS, ORDER_CONSTANT, symbol

__all__ = ["repdim_sample_size", "representation_learner_sample_size", "repdim_lower_bound"]

REPDIM = symbol("repdim", nonnegative=True)


def repdim_sample_size(
    *, repdim: float, alpha: float, beta: float, epsilon: float, order_constant: float = 1
) -> SampleSizeBound:
    """Pure-DP learner from a probabilistic representation (BGS Lemma 8.3): ``O((RepDim + ln(1/beta))/(alpha epsilon))``.

    (The lemma's learner is ``(6 alpha, 4 beta)``-accurate for an
    ``(alpha, beta)``-representation; the ``O`` absorbs the constants.)

    References
    ----------
    BGS Lemma 8.3 (Beimel, Nissim, Stemmer 2019, Lemma 14).

    Examples
    --------
    >>> repdim_sample_size(repdim=2.0, alpha=0.1, beta=0.1, epsilon=1.0).expression
    c*(repdim + log(1/beta))/(alpha*epsilon)
    """
    owner = "repdim_sample_size"
    values = checked_values(
        owner, repdim=repdim, alpha=alpha, beta=beta, epsilon=epsilon, order_constant=order_constant
    )
    expr = ORDER_CONSTANT * (REPDIM + sp.log(1 / BETA)) / (ALPHA * EPSILON)
    source = "BGS Lemma 8.3 (BNS19 Lemma 14)"
    return make_bound(owner, "repdim_learner", expr, values, source, learning_setting("PAC", False, "pure"))


def representation_learner_sample_size(
    *, size: float, alpha: float, beta: float, epsilon: float, rep_alpha: float = 0.0, rep_beta: float = 0.0
) -> SampleSizeBound:
    """Explicit sample size of :class:`dimcalc.learners.RepresentationLearner`.

    With ``t = alpha/6 >= rep_alpha`` and ``beta' = (beta - rep_beta)/3``:
    the drawn ``G_i`` holds ``g*`` at distance ``<= t`` from the target
    (failure ``rep_beta``); ``g*`` has empirical error ``<= 2t``
    (Chernoff, failure ``exp(-t n/3)``); the exponential mechanism returns
    ``g`` with at most ``t n`` more errors (BNS Prop 21, failure
    ``|G_i| exp(-epsilon t n/2)``); no ``g`` with error ``> 6t`` has empirical
    error ``< 3t`` (Chernoff and union bound, failure ``|G_i| exp(-3 t n/4)``):

    ``n >= max(3/t ln(1/beta'), 2/(t epsilon) (size + ln(1/beta')), 4/(3t) (size + ln(1/beta')))``,

    ``size = max_i ln|G_i|``.  This is BGS Lemma 8.3's ``(6 alpha, 4 beta)``
    with constants.

    References
    ----------
    BGS Lemma 8.3 (BNS19 Lemma 14); BNS Proposition 21.

    Examples
    --------
    >>> import math
    >>> representation_learner_sample_size(size=math.log(6), alpha=0.3, beta=0.2, epsilon=1.0,
    ...                                    rep_beta=0.05).samples
    192
    """
    owner = "representation_learner_sample_size"
    values = checked_values(owner, size=size, alpha=alpha, beta=beta, epsilon=epsilon)
    alpha, beta = values["alpha"], values["beta"]
    if isinstance(rep_alpha, bool) or not isinstance(rep_alpha, (int, float)) or not (0 <= rep_alpha <= alpha / 6):
        raise parameter_error("rep_alpha", owner, f"a float in [0, alpha/6 = {alpha / 6:g}]", rep_alpha)
    if isinstance(rep_beta, bool) or not isinstance(rep_beta, (int, float)) or not (0 <= rep_beta < beta):
        raise parameter_error("rep_beta", owner, f"a float in [0, beta = {beta:g})", rep_beta)
    S = symbol("size", nonnegative=True)
    RB = symbol("rep_beta", nonnegative=True)
    t = ALPHA / 6
    fail = sp.log(3 / (BETA - RB))
    expr = sp.Max(3 / t * fail, 2 / (t * EPSILON) * (S + fail), 4 / (3 * t) * (S + fail))
    values["rep_beta"] = float(rep_beta)
    source = "BGS Lemma 8.3 (explicit: Chernoff + BNS Prop 21)"
    setting = learning_setting("PAC", False, "pure")
    return make_bound(owner, "representation_learner", expr, values, source, setting, explicit=True)


def repdim_lower_bound(
    *,
    repdim: float,
    alpha: float,
    epsilon: float,
    num_labels: int = 2,
    beta: Any = Fraction(1, 2),
    order_constant: float = 1,
) -> SampleSizeBound:
    """Pure-DP PAC learning needs ``Omega((RepDim - ln(k+1))/(alpha epsilon))`` (BGS Lemma 8.5; FX Thm 2.5 lower).

    BGS Lemma 8.5 is stated for ``(epsilon, 0)``-DP, ``(alpha, 1/2)``-accurate learners (so
    ``beta <= 1/2``) and its proof reweights the distribution by ``4 alpha`` (so
    ``alpha <= 1/4``).  For binary classes (``k + 1 = 2``) this is FX Thm 2.5's
    ``Omega(PRDim/(alpha epsilon))`` up to the additive ``ln 2``.

    References
    ----------
    BGS Lemma 8.5 and the remark after it; FX Theorem 2.5 (lower bound).

    Examples
    --------
    >>> repdim_lower_bound(repdim=3.0, alpha=0.1, epsilon=1.0, num_labels=2).samples
    24
    """
    owner = "repdim_lower_bound"
    values = checked_values(
        owner,
        repdim=repdim,
        alpha=alpha,
        epsilon=epsilon,
        beta=beta,
        num_labels=num_labels,
        order_constant=order_constant,
    )
    return make_bound(
        owner,
        "repdim_lower",
        ORDER_CONSTANT * sp.Max(0, REPDIM - sp.log(NUM_LABELS)) / (ALPHA * EPSILON),
        values,
        "BGS Lemma 8.5 (FX Thm 2.5 lower bound)",
        learning_setting("PAC", False, "pure"),
        kind="lower",
        conditions=(
            Condition(ALPHA <= sp.Rational(1, 4), "BGS Lemma 8.5 (proof: mass 1 - 4 alpha)", "alpha"),
            Condition(BETA <= sp.Rational(1, 2), "BGS Lemma 8.5: (alpha, 1/2)-accurate", "beta"),
        ),
    )
