"""Composition: k runs of a single-concept learner as one private k-learner (BNS Thm 17, Obs 32).

The per-run epsilon of basic and advanced composition (BNS Thm 17.1-17.2), symbolic
(:func:`advanced_composition_epsilon`) and numeric (:func:`split_privacy_budget`, used by
the learners), and the direct-sum k-learner's sample size (:func:`composition_sample_size`).

References
----------
BNS (JMLR) Theorem 17 (Dwork, Rothblum, Vadhan 2010) and Observation 32.

Examples
--------
>>> split_privacy_budget(1, 0, 2)
(Fraction(1, 2), Fraction(1, 1), 0, 'basic')
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import sympy as sp

from ..errors import InvalidParameterError, parameter_error
from ._build import enforce
from ._validation import checked_values
from .bound import Condition, SampleSizeBound
from .symbols import BETA, DELTA, EPSILON, K, substitute

__all__ = ["advanced_composition_epsilon", "composition_sample_size", "split_privacy_budget"]


def advanced_composition_epsilon(
    total_epsilon: sp.Expr | float, k: sp.Expr | int, delta_prime: sp.Expr | float
) -> sp.Expr:
    """Per-run epsilon so that k runs compose to ``total_epsilon`` (BNS Thm 17.2).

    Solves ``sqrt(2 k ln(1/delta')) e + 2 k e^2 = total_epsilon`` for ``e > 0``:
    ``e = (sqrt(a^2 + 8 k total) - a) / (4 k)`` with ``a = sqrt(2 k ln(1/delta'))``.
    The theorem needs ``e < 1``.

    References
    ----------
    BNS (JMLR) Theorem 17, item 2 (Dwork, Rothblum, Vadhan 2010).

    Examples
    --------
    >>> e = advanced_composition_epsilon(1.0, 4, 1e-6)
    >>> total = math.sqrt(2 * 4 * math.log(1e6)) * float(e) + 2 * 4 * float(e) ** 2
    >>> round(total, 12)
    1.0
    """
    a = sp.sqrt(2 * k * sp.log(1 / sp.sympify(delta_prime)))
    return (sp.sqrt(a**2 + 8 * k * total_epsilon) - a) / (4 * k)


def composition_sample_size(
    *, single: SampleSizeBound, k: int, epsilon: float, delta: float = 0, advanced: bool = False
) -> SampleSizeBound:
    """Sample size of the direct-sum k-learner built from a single-concept learner.

    Runs the single-concept learner once per concept on the same sample
    (BNS Obs 32).  To give total privacy ``(epsilon, delta)`` and total failure
    probability ``beta``, each run gets failure probability ``beta/k`` and

    * basic composition (BNS Thm 17.1): ``epsilon/k`` and ``delta/k``;
    * advanced composition (BNS Thm 17.2): ``delta' = delta/2`` for the
      composition slack, ``delta/(2k)`` per run, and the per-run
      ``epsilon_0`` solving ``sqrt(2k ln(2/delta)) epsilon_0 + 2k epsilon_0^2
      = epsilon`` (see :func:`advanced_composition_epsilon`).  Thm 17.2 is
      stated for ``epsilon_0 < 1``; a larger ``epsilon_0`` is refused.

    The returned expression is ``single.expression`` with ``epsilon``,
    ``beta``, ``delta`` replaced by these per-run values (symbolic in the
    totals and ``k``): the sample size every run, hence the k-learner, needs.

    Parameters
    ----------
    single : SampleSizeBound
        A single-concept bound whose expression uses ``epsilon`` (and ``beta``,
        ``delta`` if it depends on them).
    k : int >= 1
    epsilon, delta : float
        Total privacy of the k-learner; ``advanced=True`` needs ``delta > 0``.
    advanced : bool

    Returns
    -------
    SampleSizeBound
        ``concepts="k"``; explicit constants iff ``single`` has them.

    References
    ----------
    BNS (JMLR), Theorem 17 (Dwork et al. 2006, 2010) and Observation 32.

    Examples
    --------
    >>> from dimcalc.sample_size import exponential_mechanism_sample_size
    >>> one = exponential_mechanism_sample_size(log_size=math.log(16), alpha=0.1, beta=0.1, epsilon=1.0)
    >>> composition_sample_size(single=one, k=4, epsilon=1.0).samples
    1145
    """
    owner = "composition_sample_size"
    if not isinstance(single, SampleSizeBound):
        raise parameter_error("single", owner, "a SampleSizeBound", type(single).__name__)
    if single.setting.get("privacy") == "none":
        raise parameter_error("single", owner, "a private learner's bound", single.name)
    checked = checked_values(owner, k=k, epsilon=epsilon, delta=delta, zero_allowed=("delta",))
    k, epsilon, delta = checked["k"], checked["epsilon"], checked["delta"]
    if advanced and delta == 0:
        raise parameter_error("delta", owner, "a float in (0, 1) for advanced composition", delta)
    if advanced:
        per_eps = advanced_composition_epsilon(EPSILON, K, DELTA / 2)
        per_delta = DELTA / (2 * K)
        how = "advanced composition (Thm 17.2)"
        extra: tuple[Condition, ...] = (Condition(per_eps < 1, "BNS Thm 17.2: per-run epsilon_0 < 1", "epsilon"),)
    else:
        extra = ()
        per_eps = EPSILON / K
        per_delta = DELTA / K
        how = "basic composition (Thm 17.1)"
    subs = {EPSILON: per_eps, BETA: BETA / K}
    if DELTA in single.expression.free_symbols:
        subs[DELTA] = per_delta
    expr = single.expression.subs(subs, simultaneous=True)
    values = dict(single.values)
    values.update({"k": k, "epsilon": epsilon})
    if delta > 0 or "delta" in values:
        values["delta"] = delta
    approximate = advanced or single.setting.get("privacy") == "approximate"
    setting = dict(single.setting, concepts="k", privacy="approximate" if approximate else "pure")
    # The single learner's own range, now at the per-run parameters.
    inherited = tuple(
        Condition(c.relation.subs(subs, simultaneous=True), c.source, c.parameter) for c in single.conditions
    )
    return enforce(
        SampleSizeBound(
            name=f"composition[{single.name}]",
            expression=expr,
            values=values,
            source=f"BNS Thm 17 / Obs 32, {how}, applied to {single.source}",
            setting=setting,
            constants_explicit=single.constants_explicit,
            kind="upper",
            order_constant=single.order_constant,
            notes=single.notes,
            conditions=inherited + extra,
        ),
        owner,
    )


def evaluates_below_one(expr: sp.Expr, values: Mapping[str, Any]) -> bool:
    """``expr < 1`` at ``values`` (exact evaluation at 30 digits).

    Examples
    --------
    >>> evaluates_below_one(advanced_composition_epsilon(EPSILON, K, 1e-6), {"epsilon": 1.0, "k": 4})
    True
    """
    return bool(sp.N(substitute(expr, values), 30) < 1)


def split_privacy_budget(epsilon: Any, delta: Any, k: int, composition: str = "auto") -> tuple:
    """Per-run epsilon for ``k`` pure-DP runs composing to at most ``(epsilon, delta)`` (BNS Thm 17).

    Returns ``(epsilon_each, total_epsilon, total_delta, method)``.  Basic composition (Thm 17.1):
    ``epsilon/k`` each, exactly (a Fraction), total ``(epsilon, 0)``.  Advanced composition
    (Thm 17.2) with slack ``delta' = delta/2``: ``e`` solving
    ``sqrt(2k ln(1/delta')) e + 2k e^2 = epsilon`` (rounded down so that the total never exceeds
    ``epsilon``), total ``(epsilon, delta/2)``; it needs ``delta > 0`` and ``e < 1`` (the theorem's
    range).  ``"auto"`` takes the larger per-run epsilon among the methods in range.

    Examples
    --------
    >>> split_privacy_budget(1, 0, 4)
    (Fraction(1, 4), Fraction(1, 1), 0, 'basic')
    >>> split_privacy_budget(2.0, 1e-6, 400)[3]
    'advanced'
    """
    eps = Fraction(epsilon) if not isinstance(epsilon, Fraction) else epsilon
    basic = (eps / k, eps, 0, "basic")
    if composition == "basic" or (composition == "auto" and delta == 0):
        return basic
    if delta == 0:
        raise parameter_error("delta", "split_budget", "a float in (0, 1) for advanced composition", delta)
    slack = delta / 2
    a = math.sqrt(2 * k * math.log(1 / float(slack)))
    each = (math.sqrt(a * a + 8 * k * float(eps)) - a) / (4 * k)
    each = math.nextafter(each, 0.0) if each > 0 else each  # never above the exact root
    if each >= 1:
        if composition == "advanced":
            raise InvalidParameterError(
                f"split_budget: advanced composition needs a per-run epsilon below 1 (BNS Thm 17.2), got {each:.3g}; "
                "use composition='basic' or a smaller epsilon"
            )
        return basic
    total = a * each + 2 * k * each * each
    advanced = (each, min(total, float(eps)) if total <= float(eps) * (1 + 1e-12) else total, slack, "advanced")
    if composition == "advanced" or advanced[0] > basic[0]:
        return advanced
    return basic
