"""Multiclass private learning from binary learners (BGS §3).

The multiclass-to-binary reduction (BGS Thm 3.1), the approximate-DP binary learner from the
Littlestone dimension (BGS Thm 3.6 = GGKM20 Thm 6.4) and its multiclass consequences
(Cor 3.3, Cor 3.5 with Thm 3.4), and the boosted learner (Thm 3.7, App. A).

References
----------
BGS: Bun, Gaboardi, Sivakumar, *Multiclass versus Binary Differentially Private PAC
Learning* (seed 003).

Examples
--------
>>> ggkm_sample_size(littlestone=0, alpha=0.1, beta=0.1, epsilon=1.0, delta=1e-6).samples
0
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import sympy as sp

from ..errors import parameter_error
from ..validation import check_int
from ._build import learning_setting, make_bound, precheck
from ._validation import checked_values
from .bound import Condition, SampleSizeBound
from .symbols import ALPHA, BETA, DELTA, EPSILON, NUM_LABELS, ORDER_CONSTANT, D, symbol

__all__ = [
    "multiclass_reduction_sample_size",
    "ggkm_sample_size",
    "multiclass_littlestone_sample_size",
    "bgs_boosted_sample_size",
]

#: BGS Thm 3.6 (GGKM20 Thm 6.4) is stated "for any epsilon, delta, alpha, beta in [0, 1]".
BGS36_EPSILON = Condition(EPSILON <= 1, "BGS Thm 3.6: epsilon, delta, alpha, beta in [0, 1]", "epsilon")
#: BGS Thm 3.7 (and App. A Thm A.1) is stated for epsilon in [0, 1/4].
BGS37_EPSILON = Condition(EPSILON <= sp.Rational(1, 4), "BGS Thm 3.7: epsilon in [0, 1/4]", "epsilon")

#: Symbols the bounds of the reduction share (the others get the suffix of their bit).
_SHARED = {"alpha", "beta", "epsilon", "delta", "c"}


def multiclass_reduction_sample_size(
    *, binary_bounds: list[SampleSizeBound], alpha: float, beta: float, equal_split: bool = False
) -> SampleSizeBound:
    """Sample size of the multiclass-to-binary reduction (BGS Thm 3.1).

    ``sum_{i=1}^{b} SC^i_{alpha/b, beta/b}`` where ``SC^i`` is the bound of
    the private binary learner of the restriction ``H|_i`` and
    ``b = ceil(log2(k+1))`` (the number of bounds given).  Symbols other than
    ``alpha, beta, epsilon, delta, c`` get the suffix ``_i`` of their bit.
    With ``equal_split=True``: ``b * max_i SC^i_{alpha/b, beta/b}``, which
    is what a learner splitting its sample into equal parts needs.

    When every bound has explicit constants, part ``i`` is a whole number of
    examples: the sum is ``sum_i ceil(SC^i)`` and the equal split
    ``b * ceil(max_i SC^i)`` (so that ``b`` parts of sizes differing by at most
    one, as :class:`dimcalc.learners.BinaryReductionLearner` makes, each get at
    least ``max_i SC^i``).  Orders of growth are not rounded.

    Parameters
    ----------
    binary_bounds : list of SampleSizeBound
        One per bit (bit 1 = least significant first), each depending on
        ``alpha`` and ``beta`` symbolically.
    alpha, beta : float in (0, 1)
        The multiclass learner's targets.
    equal_split : bool

    References
    ----------
    BGS Theorem 3.1 and Claim 3.2 (parallel composition).

    Examples
    --------
    >>> from dimcalc.sample_size import vc_sample_size
    >>> bits = [vc_sample_size(vc=1, alpha=0.1, beta=0.1), vc_sample_size(vc=2, alpha=0.1, beta=0.1)]
    >>> r = multiclass_reduction_sample_size(binary_bounds=bits, alpha=0.1, beta=0.1)
    >>> r.samples == (vc_sample_size(vc=1, alpha=0.05, beta=0.05).samples
    ...               + vc_sample_size(vc=2, alpha=0.05, beta=0.05).samples)
    True
    >>> eq = multiclass_reduction_sample_size(binary_bounds=bits, alpha=0.1, beta=0.1, equal_split=True)
    >>> eq.samples == 2 * vc_sample_size(vc=2, alpha=0.05, beta=0.05).samples
    True
    """
    owner = "multiclass_reduction_sample_size"
    bounds = list(binary_bounds)
    if not bounds or not all(isinstance(b, SampleSizeBound) for b in bounds):
        raise parameter_error("binary_bounds", owner, "a non-empty list of SampleSizeBound", binary_bounds)
    checked = checked_values(owner, alpha=alpha, beta=beta)
    b = len(bounds)
    B = symbol("b", positive=True, integer=True)
    terms = []
    values: dict[str, Any] = {}
    for i, bound in enumerate(bounds, start=1):
        rename = {}
        for s in bound.expression.free_symbols:
            if s.name not in _SHARED:
                rename[s] = sp.Symbol(f"{s.name}_{i}", **s.assumptions0)
        rename[ALPHA] = ALPHA / B
        rename[BETA] = BETA / B
        terms.append(bound.expression.subs(rename, simultaneous=True))
        for name, v in bound.values.items():
            if name in _SHARED:
                if name in values and name not in ("alpha", "beta") and values[name] != v:
                    raise parameter_error(
                        "binary_bounds", owner, f"bounds sharing one value of {name}", f"{values[name]} and {v}"
                    )
                values[name] = v
            else:
                values[f"{name}_{i}"] = v
    values.update(checked)
    values["b"] = b
    explicit = all(x.constants_explicit for x in bounds)
    if equal_split:
        largest = sp.Max(*terms)
        expr = B * (sp.ceiling(largest) if explicit else largest)
    else:
        expr = sp.Add(*[sp.ceiling(t) if explicit else t for t in terms])
    first = bounds[0]
    privacy = first.setting.get("privacy", "pure")
    return SampleSizeBound(
        name="multiclass_reduction" + ("_equal_split" if equal_split else ""),
        expression=expr,
        values=values,
        source="BGS Thm 3.1"
        + (" (equal split: b * max_i SC^i)" if equal_split else "")
        + f", binary learners: {first.source}",
        setting=learning_setting("PAC", False, privacy),
        constants_explicit=explicit,
        kind="upper",
        order_constant=None if explicit else first.order_constant,
        notes=first.notes,
    )


def ggkm_sample_size(
    *, littlestone: int, alpha: float, beta: float, epsilon: float, delta: float, order_constant: float = 1
) -> SampleSizeBound:
    """Approximate-DP binary PAC learner from the Littlestone dimension (BGS Thm 3.6 = GGKM20 Thm 6.4).

    ``O(d_L^6 log^2(d_L/(alpha beta epsilon delta)) / (epsilon alpha^2))``
    (0 for ``d_L = 0``: a single hypothesis needs no sample).  The theorem is
    stated for ``epsilon, delta, alpha, beta`` in ``[0, 1]``; for a larger
    ``epsilon`` use the bound at ``epsilon = 1`` (a ``(1, delta)``-DP learner
    is ``(epsilon, delta)``-DP), as :func:`sample_size_table` does.

    Raises
    ------
    InvalidParameterError
        ``epsilon > 1`` (outside the theorem's range), or another bad value.

    References
    ----------
    BGS Theorem 3.6 (Ghazi, Golowich, Kumar, Manurangsi 2020, Theorem 6.4).

    Examples
    --------
    >>> ggkm_sample_size(littlestone=1, alpha=0.1, beta=0.1, epsilon=1.0, delta=1e-6).expression
    c*d**6*log(d/(alpha*beta*delta*epsilon))**2/(alpha**2*epsilon)
    """
    owner = "ggkm_sample_size"
    values = checked_values(
        owner,
        littlestone=littlestone,
        alpha=alpha,
        beta=beta,
        epsilon=epsilon,
        delta=delta,
        order_constant=order_constant,
    )
    expr = _unless_trivial(values["d"], ORDER_CONSTANT * _ggkm_expression(D, ALPHA, BETA))
    return make_bound(
        owner,
        "ggkm_littlestone",
        expr,
        values,
        "BGS Thm 3.6 (GGKM20 Thm 6.4)",
        learning_setting("PAC", False, "approximate"),
        conditions=(BGS36_EPSILON,),
    )


def _ggkm_expression(d: sp.Expr, alpha: sp.Expr, beta: sp.Expr) -> sp.Expr:
    """BGS Thm 3.6's ``d^6 log^2(d/(alpha beta epsilon delta)) / (epsilon alpha^2)`` (without its ``O(.)`` constant)."""
    return d**6 * sp.log(d / (alpha * beta * EPSILON * DELTA)) ** 2 / (EPSILON * alpha**2)


def _unless_trivial(d: int, expr: sp.Expr) -> sp.Expr:
    """``expr``, or 0 for dimension ``d = 0``: a single hypothesis needs no sample."""
    return expr if d > 0 else sp.Integer(0) * ORDER_CONSTANT


def multiclass_littlestone_sample_size(
    *,
    alpha: float,
    beta: float,
    epsilon: float,
    delta: float,
    num_labels: int,
    restriction_littlestone: list[int] | None = None,
    multiclass_littlestone: int | None = None,
    order_constant: float = 1,
) -> SampleSizeBound:
    """Approximate-DP multiclass learner via binary restrictions (BGS Cor 3.3 / Cor 3.5 with Thm 3.6).

    * ``restriction_littlestone=[d_1, ..., d_b]`` (Cor 3.3):
      ``sum_i SC(d_i, alpha/b, beta/b)``;
    * ``multiclass_littlestone=d`` (Cor 3.5, via Thm 3.4 ``d_i <= 6 d ln(k+1)``):
      ``b * SC(6 d ln(k+1), alpha/b, beta/b)``;

    with ``SC`` the bound of :func:`ggkm_sample_size` and
    ``b = ceil(log2(k+1))``.  Given both, the smaller is returned.  As for
    BGS Thm 3.6, ``epsilon`` must be at most 1.

    References
    ----------
    BGS Corollaries 3.3 and 3.5, Theorems 3.4 and 3.6.

    Examples
    --------
    >>> b = multiclass_littlestone_sample_size(alpha=0.1, beta=0.1, epsilon=1.0, delta=1e-6, num_labels=4,
    ...                                        restriction_littlestone=[1, 2])
    >>> b.source.startswith("BGS Cor 3.3")
    True
    """
    owner = "multiclass_littlestone_sample_size"
    values = checked_values(owner, num_labels=num_labels, alpha=alpha, beta=beta, epsilon=epsilon)
    precheck(owner, values, "BGS Cor 3.3/3.5 (with Thm 3.6)", BGS36_EPSILON)
    values.update(checked_values(owner, delta=delta, order_constant=order_constant))
    num_labels, alpha, beta, epsilon = values["num_labels"], values["alpha"], values["beta"], values["epsilon"]
    delta, oc = values["delta"], values["c"]
    bits = max(1, math.ceil(math.log2(num_labels)))
    candidates = []
    if restriction_littlestone is not None:
        dims = [check_int(d, "restriction_littlestone", owner, 0) for d in restriction_littlestone]
        if len(dims) != bits:
            raise parameter_error("restriction_littlestone", owner, f"{bits} dimensions (one per label bit)", dims)
        parts = [
            ggkm_sample_size(littlestone=d, alpha=alpha, beta=beta, epsilon=epsilon, delta=delta, order_constant=oc)
            for d in dims
        ]
        r = multiclass_reduction_sample_size(binary_bounds=parts, alpha=alpha, beta=beta)
        candidates.append(
            replace(
                r,
                name="multiclass_littlestone_cor33",
                source="BGS Cor 3.3 (Thm 3.1 + Thm 3.6)",
                setting=learning_setting("PAC", False, "approximate"),
                conditions=(BGS36_EPSILON,),
            )
        )
    if multiclass_littlestone is not None:
        d = checked_values(owner, multiclass_littlestone=multiclass_littlestone)["d"]
        B = symbol("b", positive=True, integer=True)
        dl = 6 * D * sp.log(NUM_LABELS)  # BGS Thm 3.4: every d_i <= 6 d ln(k+1)
        candidates.append(
            make_bound(
                owner,
                "multiclass_littlestone_cor35",
                _unless_trivial(d, ORDER_CONSTANT * B * _ggkm_expression(dl, ALPHA / B, BETA / B)),
                {"d": d, "num_labels": num_labels, "b": bits} | values,
                "BGS Cor 3.5 (Thm 3.1 + Thm 3.4 + Thm 3.6)",
                learning_setting("PAC", False, "approximate"),
                conditions=(BGS36_EPSILON,),
            )
        )
    if not candidates:
        raise parameter_error("restriction_littlestone", owner, "given (or multiclass_littlestone given)", None)
    return min(candidates, key=lambda c: c.value)


def bgs_boosted_sample_size(
    *,
    multiclass_littlestone: int,
    num_labels: int,
    alpha: float,
    beta: float,
    epsilon: float,
    delta: float,
    order_constant: float = 1,
) -> SampleSizeBound:
    """Approximate-DP multiclass learner with boosting (BGS Thm 3.7; App. A Thm A.1).

    ``O(d^6 log^8(k+1) log^4(d log^3(k+1) / (epsilon delta alpha beta)) / (epsilon alpha))``
    for ``epsilon <= 1/4``; logarithms of ``k+1`` in base 2.

    References
    ----------
    BGS Theorem 3.7, Appendix A (Theorem A.1).

    Examples
    --------
    >>> bgs_boosted_sample_size(multiclass_littlestone=1, num_labels=4, alpha=0.1, beta=0.1, epsilon=0.25,
    ...                         delta=1e-6).kind
    'upper'
    """
    owner = "bgs_boosted_sample_size"
    checked_values(owner, epsilon=epsilon)  # epsilon first: the range of Thm 3.7 is about it
    values = checked_values(
        owner,
        multiclass_littlestone=multiclass_littlestone,
        num_labels=num_labels,
        alpha=alpha,
        beta=beta,
        epsilon=epsilon,
        delta=delta,
        order_constant=order_constant,
    )
    lg = sp.log(NUM_LABELS) / sp.log(2)
    body = D**6 * lg**8 * sp.log(D * lg**3 / (EPSILON * DELTA * ALPHA * BETA)) ** 4 / (EPSILON * ALPHA)
    return make_bound(
        owner,
        "bgs_boosted",
        _unless_trivial(values["d"], ORDER_CONSTANT * body),
        values,
        "BGS Thm 3.7 (App. A boosting)",
        learning_setting("PAC", False, "approximate"),
        conditions=(BGS37_EPSILON,),
    )
