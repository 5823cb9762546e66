"""Lower bounds of BNS: the samples every (private) learner needs.

The non-private ``Omega(d/alpha)`` (BNS §2.2), the pure-DP packing bounds for k-learners
(Thms 52, 55) and the approximate-DP fingerprinting-code bounds (Cors 46, 50, moved from
empirical to PAC learners by Thm 28).  All are orders of growth (``Omega(.)`` constant ``c``).

References
----------
BNS: Bun, Nissim, Stemmer, *Simultaneous Private Learning of Multiple Concepts*, JMLR (seed 001).

Examples
--------
>>> pure_k_learner_lower_bound(k=4, epsilon=2.0).samples
2
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy as sp

from ._build import learning_setting, make_bound
from ._validation import checked_values
from .bound import Condition, SampleSizeBound
from .symbols import ALPHA, BETA, DELTA, DOMAIN_SIZE, EPSILON, ORDER_CONSTANT, SAMPLES, D, K

__all__ = [
    "vc_lower_bound",
    "pure_k_learner_lower_bound",
    "parity_pure_lower_bound",
    "threshold_k_learner_lower_bound",
    "agnostic_k_learner_lower_bound",
]


def vc_lower_bound(*, vc: int, alpha: float, agnostic: bool = False, order_constant: float = 1) -> SampleSizeBound:
    """Non-private lower bound: ``Omega(d/alpha)`` (PAC), ``Omega(d/alpha^2)`` (agnostic).

    BNS states it without a range; the classical theorems behind it (Ehrenfeucht et al.
    1989; Anthony and Bartlett 2009, Thm 5.3) need ``alpha`` and ``beta`` below small
    constants, which the unspecified ``Omega`` constant absorbs only in order of growth.

    References
    ----------
    BNS (JMLR) §2.2, after Corollary 13.

    Examples
    --------
    >>> vc_lower_bound(vc=3, alpha=0.1).samples
    30
    """
    owner = "vc_lower_bound"
    values = checked_values(owner, vc=vc, alpha=alpha, order_constant=order_constant)
    expr = ORDER_CONSTANT * D / (ALPHA**2 if agnostic else ALPHA)
    return make_bound(
        owner,
        "vc_lower" + ("_agnostic" if agnostic else ""),
        expr,
        values,
        "BNS §2.2 (after Cor 13)",
        learning_setting("agnostic" if agnostic else "PAC", False, "none"),
        notes=("order of growth: the classical statements need alpha, beta below small constants",),
        kind="lower",
    )


def pure_k_learner_lower_bound(
    *, k: int, epsilon: float, beta: Any = Fraction(1, 2), order_constant: float = 1
) -> SampleSizeBound:
    """Every pure-DP PAC k-learner of a non-trivial class needs ``Omega(k/epsilon)`` (BNS Thm 52).

    Stated for ``(alpha, beta = 1/2, epsilon)``-private learners (``|C| >= 2``); a learner
    with ``beta <= 1/2`` is one, so the bound holds for ``beta <= 1/2`` (the default is the
    theorem's own ``beta``).

    References
    ----------
    BNS (JMLR) Theorem 52 (packing argument; ``|C| >= 2``).

    Examples
    --------
    >>> pure_k_learner_lower_bound(k=10, epsilon=0.5).samples
    20
    """
    owner = "pure_k_learner_lower_bound"
    values = checked_values(owner, k=k, epsilon=epsilon, beta=beta, order_constant=order_constant)
    return make_bound(
        owner,
        "pure_k_lower",
        ORDER_CONSTANT * K / EPSILON,
        values,
        "BNS Thm 52 (packing; |C| >= 2)",
        learning_setting("PAC", False, "pure", "k"),
        conditions=(Condition(BETA <= sp.Rational(1, 2), "BNS Thm 52: beta = 1/2", "beta"),),
        kind="lower",
    )


def parity_pure_lower_bound(
    *, d: int, k: int, epsilon: float, alpha: Any = 0, beta: Any = Fraction(1, 2), order_constant: float = 1
) -> SampleSizeBound:
    """Pure-DP PAC k-learning of PAR_d (uniform) needs ``Omega(k d/epsilon)`` (BNS Thm 55).

    Stated for ``alpha < 1/4`` (Lemma 54 rounds a hypothesis to the nearest parity) and
    ``beta = 1/2``; holds for every learner with ``alpha < 1/4`` and ``beta <= 1/2``.
    ``alpha = 0`` (the default) is exact learning.

    References
    ----------
    BNS (JMLR) Theorem 55 and Lemma 54.

    Examples
    --------
    >>> parity_pure_lower_bound(d=3, k=2, epsilon=1.0).samples
    6
    """
    owner = "parity_pure_lower_bound"
    values = checked_values(
        owner, d=d, k=k, epsilon=epsilon, alpha=alpha, beta=beta, order_constant=order_constant, zero_allowed=("alpha",)
    )
    return make_bound(
        owner,
        "parity_pure_lower",
        ORDER_CONSTANT * K * D / EPSILON,
        values,
        "BNS Thm 55",
        learning_setting("PAC", False, "pure", "k"),
        conditions=(
            Condition(ALPHA < sp.Rational(1, 4), "BNS Thm 55 / Lemma 54: alpha < 1/4", "alpha"),
            Condition(BETA <= sp.Rational(1, 2), "BNS Thm 55: beta = 1/2", "beta"),
        ),
        kind="lower",
    )


def _fingerprinting_conditions(theorem: str) -> tuple[Condition, ...]:
    # Thm 43 / Thm 47: alpha <= 1/3 and delta < (1 - xi - beta)/n' - e^eps xi for the empirical
    # learner's n' (xi -> 0 is absorbed in the log factors); Thm 28 turns a PAC learner with n samples
    # into an empirical learner with n' = 9n, for epsilon <= 1.  With n the row's own (PAC) number:
    # delta < (1 - beta)/(9 n), the numeric reading of "delta = o(1/n)".
    return (
        Condition(ALPHA <= sp.Rational(1, 3), f"{theorem}: alpha <= 1/3", "alpha"),
        Condition(
            EPSILON <= 1, "BNS Thm 28 (PAC -> empirical learner): epsilon <= 1; Cor 46/50: epsilon = O(1)", "epsilon"
        ),
        Condition(
            DELTA < (1 - BETA) / (9 * SAMPLES),
            f"{theorem} with Thm 28: delta < (1 - beta)/n' for the empirical learner's n' = 9n (delta = o(1/n))",
            "delta",
        ),
    )


def _fingerprinting_bound(
    owner: str, name: str, growth: sp.Expr, source: str, task: str, theorem: str, params: dict[str, Any]
) -> SampleSizeBound:
    """``min{|X|, c growth} / 9``: a fingerprinting-code bound (``theorem``) for PAC k-learners via BNS Thm 28.

    ``params`` are the calculator's parameters, checked in their order (``delta = 0`` allowed).
    """
    return make_bound(
        owner,
        name,
        sp.Min(DOMAIN_SIZE, ORDER_CONSTANT * growth) / 9,
        checked_values(owner, zero_allowed=("delta",), **params),
        source,
        learning_setting(task, False, "approximate", "k"),
        kind="lower",
        notes=("log factors of Omega~ dropped",),
        conditions=_fingerprinting_conditions(theorem),
    )


def threshold_k_learner_lower_bound(
    *,
    k: int,
    alpha: float,
    domain_size: int,
    epsilon: Any = 1,
    delta: Any = 0,
    beta: Any = Fraction(1, 2),
    order_constant: float = 1,
) -> SampleSizeBound:
    """Approximate-DP PAC k-learning of THRESH_X: ``min{|X|, Omega~(k^(1/3)/alpha)} / 9`` (BNS Cor 46 + Thm 28).

    BNS Cor 46 is stated for **empirical** k-learners that are ``(epsilon = O(1),
    delta = o(1/n))``-DP, with ``alpha <= 1/3`` (Thm 43, Remark 44).  A PAC k-learner with
    ``n`` samples and ``epsilon <= 1`` gives an empirical one with ``9n`` (BNS Thm 28), so a
    PAC learner needs at least a ninth of the empirical bound; the returned row is that PAC
    bound, with conditions ``alpha <= 1/3``, ``epsilon <= 1`` and ``delta < (1 - beta)/(9 n)``
    (``n`` the row's number).  The ``Omega~`` hides logarithmic factors, dropped here.  The
    defaults of ``epsilon``, ``delta``, ``beta`` are a setting the corollary covers.

    References
    ----------
    BNS (JMLR) Corollary 46 (Theorem 43 with the Boneh-Shaw code, Lemma 45), Theorem 28.

    Examples
    --------
    >>> threshold_k_learner_lower_bound(k=1000, alpha=0.1, domain_size=64).samples
    8
    """
    return _fingerprinting_bound(
        "threshold_k_learner_lower_bound",
        "threshold_k_lower",
        K ** sp.Rational(1, 3) / ALPHA,
        "BNS Cor 46 (fingerprinting codes; empirical learners) via Thm 28 (PAC: 1/9 of it)",
        "PAC",
        "BNS Thm 43",
        dict(
            k=k,
            alpha=alpha,
            domain_size=domain_size,
            epsilon=epsilon,
            delta=delta,
            beta=beta,
            order_constant=order_constant,
        ),
    )


def agnostic_k_learner_lower_bound(
    *,
    k: int,
    domain_size: int,
    alpha: Any = Fraction(1, 3),
    epsilon: Any = 1,
    delta: Any = 0,
    beta: Any = Fraction(1, 2),
    order_constant: float = 1,
) -> SampleSizeBound:
    """Approximate-DP agnostic PAC k-learning: ``min{|X|, Omega~(sqrt(k))} / 9`` (BNS Cor 50 + Thm 28).

    BNS Cor 50 (POINT, THRESH, PAR; Thm 47 for every class with two distinct concepts)
    is stated for **empirical** agnostic k-learners that are ``(epsilon = O(1),
    delta = o(1/n))``-DP, with ``alpha <= 1/3`` (Thm 47).  As for
    :func:`threshold_k_learner_lower_bound`, BNS Thm 28 (``epsilon <= 1``) moves it to PAC
    learners at a ninth of the size; conditions ``alpha <= 1/3``, ``epsilon <= 1``,
    ``delta < (1 - beta)/(9 n)``.

    References
    ----------
    BNS (JMLR) Corollary 50 and Theorem 47 (Tardos codes, Proposition 49), Theorem 28.

    Examples
    --------
    >>> agnostic_k_learner_lower_bound(k=100, domain_size=64).samples
    2
    """
    return _fingerprinting_bound(
        "agnostic_k_learner_lower_bound",
        "agnostic_k_lower",
        sp.sqrt(K),
        "BNS Cor 50 / Thm 47 (fingerprinting codes; empirical learners) via Thm 28 (PAC: 1/9 of it)",
        "agnostic",
        "BNS Thm 47",
        dict(
            k=k,
            domain_size=domain_size,
            alpha=alpha,
            epsilon=epsilon,
            delta=delta,
            beta=beta,
            order_constant=order_constant,
        ),
    )
