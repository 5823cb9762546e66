"""Semi-private learning with public data (ABM): ASSPP's sample sizes and the public-sample lower bound.

ASSPP (ABM Alg 1, Thm 3.1) as stated (``O(.)``, :func:`abm_semi_private_sample_size`) and
with its constants worked out for a finite class (:func:`asspp_sample_size`), and the
``Omega(1/alpha)`` public examples every semi-private learner of a hard family needs
(ABM Thms 4.1-4.2, :func:`public_sample_lower_bound`).

References
----------
ABM: Alon, Bassily, Moran, *Limits of Private Learning with Access to Public Data* (seed 002).

Examples
--------
>>> [b.name for b in asspp_sample_size(log_size=1.0, alpha=0.2, beta=0.1, epsilon=1.0)]
['asspp_private_explicit', 'asspp_public_explicit']
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy as sp

from ._build import learning_setting, make_bound
from ._validation import checked_values
from .bound import Condition, SampleSizeBound
from .single_concept import em_expression
from .symbols import ALPHA, BETA, EPSILON, LOG_SIZE, NUM_LABELS, ORDER_CONSTANT, D

__all__ = ["abm_semi_private_sample_size", "asspp_sample_size", "public_sample_lower_bound"]


def abm_semi_private_sample_size(
    *, vc: int, alpha: float, beta: float, epsilon: float, order_constant: float = 1
) -> tuple[SampleSizeBound, SampleSizeBound]:
    """ASSPP's private and public sample sizes as stated (ABM Thm 3.1).

    ``n_priv = O((d log(1/alpha) + log(1/beta)) max(1/alpha^2, 1/(epsilon alpha)))``
    labelled private and ``n_pub = O((d log(1/alpha) + log(1/beta)) / alpha)``
    unlabelled public examples suffice for an ``(alpha, beta, epsilon)``
    semi-supervised semi-private agnostic learner of a class of VC dimension
    ``d``.

    Returns
    -------
    (SampleSizeBound, SampleSizeBound)
        Private, then public; orders of growth only.

    References
    ----------
    ABM Theorem 3.1 (Algorithm 1, Lemma 3.3).

    Examples
    --------
    >>> priv, pub = abm_semi_private_sample_size(vc=1, alpha=0.1, beta=0.1, epsilon=1.0)
    >>> pub.expression
    c*(d*log(1/alpha) + log(1/beta))/alpha
    """
    owner = "abm_semi_private_sample_size"
    values = checked_values(owner, vc=vc, alpha=alpha, beta=beta, epsilon=epsilon, order_constant=order_constant)
    core = D * sp.log(1 / ALPHA) + sp.log(1 / BETA)
    return _private_and_public(
        owner,
        values,
        (
            "asspp_private",
            ORDER_CONSTANT * core * sp.Max(1 / ALPHA**2, 1 / (EPSILON * ALPHA)),
            "ABM Thm 3.1 (private sample)",
        ),
        ("asspp_public", ORDER_CONSTANT * core / ALPHA, "ABM Thm 3.1 / Lemma 3.3 (public unlabelled sample)"),
        explicit=False,
    )


def _private_and_public(
    owner: str, values: dict, private: tuple[str, sp.Expr, str], public: tuple[str, sp.Expr, str], *, explicit: bool
) -> tuple[SampleSizeBound, SampleSizeBound]:
    """ASSPP's two bounds, each ``(name, expression, source)``: same values, setting and constants."""
    setting = learning_setting("agnostic", True, "pure", data="public+private")
    priv, pub = (
        make_bound(owner, name, expression, dict(values), source, setting, explicit=explicit)
        for name, expression, source in (private, public)
    )
    return priv, pub


def asspp_sample_size(
    *, log_size: float, alpha: float, beta: float, epsilon: float
) -> tuple[SampleSizeBound, SampleSizeBound]:
    """Explicit private and public sample sizes of ASSPP on a finite class.

    Budget: cover radius ``alpha/4`` with failure ``beta/2``, selection and
    generalization with ``3 alpha/4`` and ``beta/2``.

    * Public (ABM Lemma 3.3 with the finite-class union bound in place of the
      double-sample argument): the cover fails only if two hypotheses at
      distance ``> alpha/4`` agree on every public point, which happens with
      probability at most ``|C|^2 (1 - alpha/4)^n``; so
      ``n_pub >= (4/alpha) (2 ln|C| + ln(2/beta))``.
    * Private: the agnostic exponential-mechanism bound of
      :func:`exponential_mechanism_sample_size` at ``(3 alpha/4, beta/2)``
      over the cover (at most ``|C|`` hypotheses).

    Then ``error(h) <= min_cover error + 3 alpha/4 <= OPT + alpha``.

    Returns
    -------
    (SampleSizeBound, SampleSizeBound)
        Private, then public; explicit constants.

    References
    ----------
    ABM Algorithm 1, Theorem 3.1, Lemma 3.3; BNS Proposition 21.

    Examples
    --------
    >>> import math
    >>> priv, pub = asspp_sample_size(log_size=math.log(9), alpha=0.2, beta=0.1, epsilon=1.0)
    >>> pub.samples, priv.samples
    (148, 2340)
    """
    owner = "asspp_sample_size"
    values = checked_values(owner, log_size=log_size, alpha=alpha, beta=beta, epsilon=epsilon)
    return _private_and_public(
        owner,
        values,
        (
            "asspp_private_explicit",
            em_expression(3 * ALPHA / 4, BETA / 2, agnostic=True),
            "ABM Thm 3.1 / Alg 1 (explicit: BNS Prop 21 + Hoeffding over the cover)",
        ),
        (
            "asspp_public_explicit",
            4 / ALPHA * (2 * LOG_SIZE + sp.log(2 / BETA)),
            "ABM Lemma 3.3 (explicit: union bound over pairs of C)",
        ),
        explicit=True,
    )


def public_sample_lower_bound(
    *, alpha: float, epsilon: Any = Fraction(1, 10), beta: Any = Fraction(1, 18), delta: Any = 0, num_labels: int = 2
) -> SampleSizeBound:
    """Public examples a semi-private learner needs: ``n_pub > 1/(1600 alpha)`` (ABM Thms 4.1-4.2).

    The theorems, through Lemma 4.4, are stated for a semi-private learner of a
    **binary** class that is ``(alpha, 1/18)``-accurate with ``alpha <= 1/100`` and
    ``(0.1, delta)``-private (Thm 4.1, via Thm 4.3 of ALMM19: ``delta <= 1/(100 n^2 log n)``
    for its private sample size ``n``; Thm 4.2: pure, ``delta = 0``).  A learner with
    smaller ``epsilon`` and ``beta`` is such a learner, so the bound holds for
    ``epsilon <= 1/10`` and ``beta <= 1/18``; outside that range (or for a multiclass class)
    the theorem says nothing and the calculator refuses.  The defaults of ``epsilon``
    and ``beta`` are the theorem's own.

    It concerns classes of **unbounded Littlestone dimension** (Thm 4.1) and, for pure
    semi-private learners, classes that are not pure-privately learnable (Thm 4.2).  A
    *finite* class is pure-privately learnable (BNS Thm 27), so for it the bound speaks
    only about the family it belongs to (e.g. thresholds over growing domains).  The
    constant comes from the proofs (Lemma 4.4 with excess error ``100 n_pub alpha > 1/16``).

    Parameters
    ----------
    alpha : float in (0, 1)
        The learner's excess error; the theorem needs ``alpha <= 1/100``.
    epsilon : number, default 1/10
        The learner's privacy (``<= 1/10``).
    beta : number, default 1/18
        The learner's failure probability (``<= 1/18``).
    delta : number, default 0
        The learner's delta (pure: Thm 4.2; positive: Thm 4.1 for learners whose private sample
        ``n`` has ``delta <= 1/(100 n^2 log n)``, stated in a note).
    num_labels : int, default 2
        ABM's classes are binary.

    Raises
    ------
    OutOfRangeError
        Parameters outside the range above.

    References
    ----------
    ABM Theorems 4.1 and 4.2, Lemma 4.4 (and Thm 4.3, ALMM19 Corollary 2).

    Examples
    --------
    >>> public_sample_lower_bound(alpha=0.0001).samples
    7
    >>> public_sample_lower_bound(alpha=0.4)
    Traceback (most recent call last):
    ...
    dimcalc.sample_size.bound.OutOfRangeError: The 'alpha' parameter of public_sample_lower_bound must satisfy alpha <= 1/100 (ABM Lemma 4.4: the range ABM Thms 4.1-4.2 is stated for). Got 0.4 instead.
    """
    owner = "public_sample_lower_bound"
    values = checked_values(
        owner, alpha=alpha, epsilon=epsilon, beta=beta, delta=delta, num_labels=num_labels, zero_allowed=("delta",)
    )
    conditions = (
        Condition(ALPHA <= sp.Rational(1, 100), "ABM Lemma 4.4", "alpha"),
        Condition(EPSILON <= sp.Rational(1, 10), "ABM Thms 4.1-4.2: a (0.1, delta)-private learner", "epsilon"),
        Condition(BETA <= sp.Rational(1, 18), "ABM Lemma 4.4: an (alpha, 1/18)-accurate learner", "beta"),
        Condition(sp.Eq(NUM_LABELS, 2), "ABM: binary classes", "num_labels"),
    )
    notes = [
        "applies to families of unbounded Littlestone dimension (Thm 4.1) or not pure-privately learnable "
        "(Thm 4.2); a finite class is pure-privately learnable (BNS Thm 27)"
    ]
    if values["delta"] > 0:
        notes.append(
            "delta > 0: Thm 4.1, for learners whose private sample n has delta <= 1/(100 n^2 log n) (ABM Thm 4.3)"
        )
    return make_bound(
        owner,
        "public_sample_lower_bound",
        1 / (1600 * ALPHA),
        values,
        "ABM Thms 4.1-4.2 (Lemma 4.4; infinite Littlestone dimension / not pure-privately learnable)",
        learning_setting("agnostic", False, "pure" if values["delta"] == 0 else "approximate", data="public+private"),
        kind="lower",
        explicit=True,
        notes=tuple(notes),
        conditions=conditions,
    )
