"""The generic private k-learner of a finite class (BNS Thm 31, Lemma 36, Alg 3).

:func:`generic_k_learner_sample_size` is BNS Thm 31 as an order of growth (the minimum of
the direct sum of generic learners, Cor 34, and GenericLearner, Lemma 36);
:func:`generic_learner_mwem_sample_size` is the explicit size of dimcalc's
:class:`~dimcalc.learners.GenericLearner` (Alg 3 with MWEM as the sanitizer).

References
----------
BNS (JMLR), Theorem 31, Corollaries 33-34, Lemmas 35-36, Algorithm 3, Theorems 17, 24-25;
Hardt, Ligett, McSherry 2012 (MWEM), Theorem 2.2.

Examples
--------
>>> generic_k_learner_sample_size(vc=1, k=2, alpha=0.1, beta=0.1, epsilon=1.0, log_size=1.0).kind
'upper'
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import sympy as sp

from .._params import number_text
from ..errors import parameter_error
from ._build import learning_setting, make_bound
from ._unimodal import integer_argmin
from ._validation import checked_values
from .bound import Condition, SampleSizeBound
from .composition import advanced_composition_epsilon, evaluates_below_one, split_privacy_budget
from .symbols import ALPHA, BETA, DELTA, DOMAIN_SIZE, EPSILON, LOG_SIZE, ORDER_CONSTANT, D, K, symbol

__all__ = ["generic_k_learner_sample_size", "generic_learner_mwem_sample_size"]


def generic_k_learner_sample_size(
    *,
    vc: int,
    k: int,
    alpha: float,
    beta: float,
    epsilon: float,
    delta: float = 0,
    domain_size: int | None = None,
    log_size: float | None = None,
    order_constant: float = 1,
) -> SampleSizeBound:
    """Proper agnostic private k-learner for a general class (BNS Thm 31).

    BNS Thm 31 is the minimum of two constructions (pure DP) or three (approximate DP: GenericLearner
    with either sanitizer); this calculator keeps
    their ``alpha, beta, epsilon, delta`` dependence from the proofs (the
    theorem itself hides it in ``O_{alpha,beta,epsilon}``):

    * direct sum of the generic learner (BNS Cor 34 = Obs 32 + Thm 27): each
      of the ``k`` runs uses ``beta/k`` and ``epsilon/k`` (pure) or the
      advanced-composition ``epsilon_0`` (approximate):
      ``(log|C| + log(k/beta)) (1/(alpha epsilon_0) + 1/alpha^2)``; needs
      ``log_size``.  Advanced composition (Thm 17.2) is used only where its per-run
      ``epsilon_0 < 1`` (the theorem's range, a condition of the returned bound);
      otherwise basic composition ``epsilon/k`` (a note says so);
    * GenericLearner (BNS Alg 3, Lemma 36 with the sanitizer of Thm 24 for
      pure DP or Thm 25 for approximate DP; Lemma 35), half the budget for the
      sanitizer and half for the k exponential mechanisms (approximate DP: one branch per
      sanitizer, the pure Thm 24 one being approximate-DP too):
      ``m + d/(alpha^3 epsilon_0) log(1/alpha) + 1/(alpha epsilon_0) log(k/beta)
      + d/alpha^2 log(k/(alpha beta))``, ``m`` the sanitizer's sample size
      (``d log|X| log(1/alpha)/(alpha^3 epsilon) + log(1/beta)/(alpha epsilon)``,
      resp. ``(log|C| + log(1/beta)) sqrt(log|X| log(1/delta))/(alpha^2 epsilon)``);
      needs ``domain_size``.  When ``log_size`` is not given, the Sauer-Shelah
      bound ``ln|C| <= d ln(|X|+1)`` is used.

    Parameters
    ----------
    vc : int
        VC dimension ``d`` of ``C`` (VC(C xor C) = O(d) is absorbed in ``c``).
    k : int >= 1
    alpha, beta : float in (0, 1)
    epsilon : float > 0
    delta : float in [0, 1)
        0 for pure DP.
    domain_size : int, optional
        ``|X|``.  At least one of ``domain_size`` and ``log_size`` is needed.
    log_size : float, optional
        ``ln |C|``.
    order_constant : float
        The unspecified ``O(.)`` constant (default 1).

    Returns
    -------
    SampleSizeBound
        Order of growth only (``constants_explicit=False``).

    References
    ----------
    BNS (JMLR), Theorem 31, Corollaries 33-34, Lemmas 35-36, Algorithm 3,
    Theorems 24-25, Observation 32.

    Examples
    --------
    >>> b = generic_k_learner_sample_size(vc=1, k=10, alpha=0.1, beta=0.1, epsilon=1.0,
    ...                                   domain_size=16, log_size=math.log(16))
    >>> b.source.split(",")[0], b.kind, b.order_of_growth_only
    ('BNS Thm 31', 'upper', True)
    """
    owner = "generic_k_learner_sample_size"
    values = checked_values(
        owner,
        vc=vc,
        k=k,
        alpha=alpha,
        beta=beta,
        epsilon=epsilon,
        delta=delta,
        order_constant=order_constant,
        zero_allowed=("delta",),
    )
    if domain_size is None and log_size is None:
        raise parameter_error("domain_size", owner, "an int >= 1 (or give log_size)", None)
    delta = values.pop("delta")  # recorded (after c) for approximate DP only
    pure = delta == 0
    if not pure:
        values["delta"] = delta
    branches: list[sp.Expr] = []
    notes: list[str] = []
    size = LOG_SIZE
    if log_size is not None:
        values.update(checked_values(owner, log_size=log_size))
    if domain_size is not None:
        values.update(checked_values(owner, domain_size=domain_size))
        if log_size is None:
            size = D * sp.log(DOMAIN_SIZE + 1)
            notes.append("ln|C| bounded by Sauer-Shelah: d ln(|X|+1)")
    conditions: list[Condition] = []

    def per_run(total: sp.Expr, branch: str) -> sp.Expr:
        # BNS Thm 17.2 (advanced composition) needs a per-run epsilon_0 < 1; where it is not,
        # basic composition (Thm 17.1, total/k per run) is used: it holds for approximate DP too.
        if pure:
            return total / K
        adv = advanced_composition_epsilon(total, K, DELTA / 2)
        if evaluates_below_one(adv, values):
            conditions.append(Condition(adv < 1, f"BNS Thm 17.2 ({branch}): per-run epsilon_0 < 1", "epsilon"))
            return adv
        notes.append(
            f"{branch}: advanced composition would need a per-run epsilon_0 >= 1, outside BNS Thm 17.2; "
            "basic composition (Thm 17.1) used"
        )
        return total / K

    eps_each = per_run(EPSILON, "Cor 34 branch")
    branches.append((size + sp.log(K / BETA)) * (1 / (ALPHA * eps_each) + 1 / ALPHA**2))
    if domain_size is not None:
        eps_san = EPSILON / 2
        eps0 = per_run(eps_san, "Lemma 36 branch")
        # Thm 24's sanitizer is pure, so usable under approximate DP too: BNS Thm 31 (approximate) is the
        # minimum of three branches, Cor 34, Lemma 36 with Thm 24, Lemma 36 with Thm 25.
        sanitizers = [
            D * sp.log(DOMAIN_SIZE) * sp.log(1 / ALPHA) / (ALPHA**3 * eps_san) + sp.log(1 / BETA) / (ALPHA * eps_san)
        ]
        if not pure:
            sanitizers.append(
                (size + sp.log(1 / BETA)) * sp.sqrt(sp.log(DOMAIN_SIZE) * sp.log(2 / DELTA)) / (ALPHA**2 * eps_san)
            )
        for sanitizer in sanitizers:
            branches.append(
                sanitizer
                + D / (ALPHA**3 * eps0) * sp.log(1 / ALPHA)
                + sp.log(K / BETA) / (ALPHA * eps0)
                + D / ALPHA**2 * sp.log(K / (ALPHA * BETA))
            )
    body = branches[0] if len(branches) == 1 else sp.Min(*branches)
    return make_bound(
        owner,
        "generic_k_learner",
        ORDER_CONSTANT * body,
        values,
        "BNS Thm 31, via Cor 34 (Obs 32 + Thm 27) and Lemma 36 (Alg 3 with Thm 24/25 sanitizer)",
        learning_setting("agnostic", True, "pure" if pure else "approximate", "k"),
        notes=tuple(notes),
        conditions=tuple(conditions),
    )


def generic_learner_mwem_sample_size(
    *,
    log_size: float,
    n_queries: int,
    domain_size: int,
    k: int,
    alpha: float,
    beta: float,
    epsilon: Any,
    delta: Any = 0,
    sanitizer_fraction: Any = Fraction(1, 2),
    composition: str = "auto",
    iterations: int | None = None,
) -> SampleSizeBound:
    """Explicit sample size of :class:`dimcalc.learners.GenericLearner`: BNS Alg 3 with MWEM for ``C⊕``.

    The proof of BNS Lemma 36 with every constant worked out for the implemented learner
    (agnostic, proper, ``k`` concepts; ``|C| = e^log_size`` distinct hypotheses, ``|Q|``
    distinct queries of ``C⊕``, domain ``|X|``).  Privacy: MWEM gets
    ``epsilon_san = sanitizer_fraction * epsilon`` and the ``k`` exponential mechanisms the
    per-run ``epsilon_0`` of :func:`split_privacy_budget` on the rest.  With
    ``OPT_j = min_{c in C} error_{P_j}(c)``,
    ``error_{P_j}(h_j) <= OPT_j + eta_san + eta_sel + 2 eta_gen`` where, each failing with
    probability ``beta/4``:

    * ``eta_gen = alpha/10`` -- Hoeffding and a union bound: no ``f`` in ``C`` has
      ``error_P(f) - error_S(f) > eta`` and no ``c*_j`` has ``error_S - error_P > eta``:
      ``n >= ln(4 k (|C| + 1)/beta) / (2 (alpha/10)^2)``;
    * ``eta_sel = alpha/10`` -- BNS Prop 21 for each exponential mechanism over
      ``H`` (``|H| <= |C|``): ``n >= 2 ln(4 k |C|/beta) / (epsilon_0 alpha/10)``;
    * ``eta_san = t + e_MWEM`` -- the representative ``h*_j`` of ``c*_j``'s pattern on
      ``B = supp(D~)`` has ``q = h*_j xor c*_j`` in ``C⊕`` with ``q(D~) = 0``; a synthetic
      sample of ``m >= ln(4|Q|/beta)/t`` points from MWEM's average ``A`` hits every query
      with ``q(A) > t`` (``t = alpha/10``), and :func:`~dimcalc.learners.sanitizers.mwem_error_bound`
      (HLM Thm 2.2 with explicit constants) gives ``q(D)/n <= q(A) + e_MWEM``, with
      ``e_MWEM <= 6 alpha/10`` once
      ``n >= (2T ln(16T/beta) + 4T ln(8T|Q|/beta) + epsilon_san) / (epsilon_san (6 alpha/10 - 2 sqrt(ln|X|/T)))``
      for ``T`` rounds; ``T`` minimises this (or is the learner's ``iterations``).

    Returns
    -------
    SampleSizeBound
        ``constants_explicit=True``; ``values`` hold ``rounds`` (``T``) and
        ``synthetic_size`` (``m``) the learner runs with; a condition states that ``T`` is
        large enough for MWEM to reach its share.

    References
    ----------
    BNS (JMLR) Lemma 36, Algorithm 3 (GenericLearner), Proposition 21, Theorem 17;
    Hardt, Ligett, McSherry 2012, Algorithm 1 and Theorem 2.2.

    Examples
    --------
    >>> b = generic_learner_mwem_sample_size(log_size=math.log(17), n_queries=137, domain_size=16, k=3,
    ...                                      alpha=0.25, beta=0.1, epsilon=4)
    >>> b.constants_explicit, b.values["rounds"], b.values["synthetic_size"], b.samples
    (True, 1063, 345, 990348)
    """
    owner = "generic_learner_mwem_sample_size"
    values = checked_values(
        owner,
        log_size=log_size,
        n_queries=n_queries,
        domain_size=domain_size,
        k=k,
        alpha=alpha,
        beta=beta,
        epsilon=epsilon,
        delta=delta,
        sanitizer_fraction=sanitizer_fraction,
        zero_allowed=("delta",),
    )
    delta = values.pop("delta")  # recorded last, when positive
    q_count, x_count, k, frac = values["n_queries"], values["domain_size"], values["k"], values["sanitizer_fraction"]
    alpha, beta, epsilon = values["alpha"], values["beta"], values["epsilon"]
    if composition not in ("auto", "basic", "advanced"):
        raise parameter_error("composition", owner, "'auto', 'basic' or 'advanced'", composition)
    eps_san = Fraction(frac) * Fraction(epsilon)
    eps0, _, _, method = split_privacy_budget(Fraction(epsilon) - eps_san, delta, k, composition)
    a, b = float(alpha), float(beta)
    gamma, L, es = 0.6 * a, math.log(x_count), float(eps_san)

    def n_mwem(T: int) -> float:
        slack = gamma - 2 * math.sqrt(L / T)
        if slack <= 0:
            return math.inf
        return (2 * T * math.log(16 * T / b) + 4 * T * math.log(8 * T * q_count / b) + es) / (es * slack)

    if iterations is None:
        lo = max(1, math.floor(4 * L / gamma**2) + 1)
        rounds = integer_argmin(n_mwem, lo, max(lo + 3, 64 * lo))
    else:
        rounds = checked_values(owner, iterations=iterations)["iterations"]
    t = a / 10
    synthetic = math.ceil(math.log(4 * q_count / b) / t)
    T, Q, X, E0, F = (
        symbol("rounds", positive=True, integer=True),
        symbol("n_queries", positive=True, integer=True),
        DOMAIN_SIZE,
        symbol("epsilon_0"),
        symbol("sanitizer_fraction"),
    )
    ES = F * EPSILON
    size = sp.exp(LOG_SIZE)
    n_gen = sp.log(4 * K * (size + 1) / BETA) / (2 * (ALPHA / 10) ** 2)
    n_sel = 2 * sp.log(4 * K * size / BETA) / (E0 * ALPHA / 10)
    mw_slack = sp.Rational(6, 10) * ALPHA - 2 * sp.sqrt(sp.log(X) / T)
    n_mw = (2 * T * sp.log(16 * T / BETA) + 4 * T * sp.log(8 * T * Q / BETA) + ES) / (ES * mw_slack)
    values.update({"epsilon_0": eps0, "rounds": rounds, "synthetic_size": synthetic})
    if delta > 0 and method != "basic":
        values["delta"] = delta
    notes = (
        f"MWEM runs T = {rounds} rounds with epsilon_san = {number_text(eps_san)}; synthetic sample of "
        f"m = {synthetic} points; {method} composition of the k selections (epsilon_0 = {float(eps0):.6g})",
    )
    return make_bound(
        owner,
        "generic_learner_mwem",
        sp.Max(n_gen, n_sel, n_mw),
        values,
        "BNS Lemma 36 / Alg 3 with MWEM (HLM Thm 2.2; explicit constants of dimcalc's GenericLearner)",
        # MWEM is (epsilon_san, 0)-DP: with basic composition of the selections the learner is (epsilon, 0)-DP
        # whatever delta was allowed; only advanced composition (BNS Thm 17.2) spends delta.
        learning_setting("agnostic", True, "pure" if method == "basic" else "approximate", "k"),
        explicit=True,
        notes=notes,
        conditions=(
            Condition(
                mw_slack > 0,
                "HLM Thm 2.2: enough MWEM rounds for its share 6 alpha/10 (2 sqrt(ln|X|/T) < 6 alpha/10)",
                "rounds",
            ),
        ),
    )
