"""ALMM19's lower bound: approximate-DP PAC learning needs ``Omega(log* LDim)`` examples.

References
----------
ALMM19: N. Alon, R. Livni, M. Malliaris, S. Moran, *Private PAC learning implies finite
Littlestone dimension*, STOC 2019, Theorem 1: every ``(1/16, 1/16)``-accurate learner of a
binary class of Littlestone dimension ``d`` that is ``(0.1, O(1/(n^2 log n)))``-differentially
private, with ``n`` examples, has ``n >= Omega(log* d)``.  The constant of ``Omega`` is not
explicit: the row is an order of growth.  The proof goes through the threshold dimension
(:func:`dimcalc.threshold_dimension`): a class of Littlestone dimension ``d`` contains
``⌊log2 d⌋`` thresholds (ALMM19 Thm 3, after Shelah and Hodges).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import sympy as sp

from ._build import learning_setting, make_bound
from ._validation import checked_values
from .bound import Condition, SampleSizeBound
from .symbols import ALPHA, BETA, EPSILON, NUM_LABELS, ORDER_CONSTANT, D

__all__ = ["log_star", "almm_private_lower_bound"]


class log_star(sp.Function):  # noqa: N801  (a sympy function: lower case like sp.log)
    """The iterated logarithm ``log*(x)``: how many times ``log2`` is applied before the value is ``<= 1``.

    Examples
    --------
    >>> [log_star(x) for x in (1, 2, 4, 16, 65536, 65537)]
    [0, 1, 2, 3, 4, 5]
    """

    @classmethod
    def eval(cls, x: Any) -> Any:
        if not x.is_number:
            return None
        count, value = 0, sp.Float(x, 30)
        while value > 1:
            value = sp.log(value, 2).evalf(30)
            count += 1
        return sp.Integer(count)


def almm_private_lower_bound(
    *,
    littlestone: int,
    alpha: Any = Fraction(1, 16),
    beta: Any = Fraction(1, 16),
    epsilon: Any = Fraction(1, 10),
    delta: Any = 1e-6,
    num_labels: int = 2,
    order_constant: float = 1,
) -> SampleSizeBound:
    """Examples an approximate-DP PAC learner of a binary class needs: ``Omega(log* LDim)`` (ALMM19 Thm 1).

    The theorem is stated for ``(1/16, 1/16)``-accurate, ``(0.1, delta)``-private learners
    with ``delta = O(1/(n^2 log n))`` for their sample size ``n`` (the constant of that
    ``O`` is not explicit either: stated in a note).  A learner with smaller ``alpha``,
    ``beta`` or ``epsilon`` is such a learner, so the bound holds for ``alpha, beta <= 1/16``
    and ``epsilon <= 1/10``; outside that range (or for a multiclass class) the calculator
    refuses.  **Order of growth only**: ``c * log*(d)`` with the unspecified constant ``c``.

    Parameters
    ----------
    littlestone : int
        The Littlestone dimension ``d`` (a proven lower bound of it gives a valid bound).
    alpha, beta : number, default 1/16
        Accuracy and failure probability (``<= 1/16``).
    epsilon : number, default 1/10
        Privacy (``<= 1/10``).
    delta : number
        Privacy; the theorem needs ``delta = O(1/(n^2 log n))``.
    num_labels : int, default 2
        ALMM19's classes are binary.
    order_constant : float, default 1
        The value of ``c``.

    Returns
    -------
    SampleSizeBound
        Kind ``"lower"``, ``constants_explicit=False``.

    Raises
    ------
    OutOfRangeError
        Parameters outside the range above.

    References
    ----------
    ALMM19 Theorem 1 (and Thm 3, after Shelah 1978 and Hodges 1997).

    Examples
    --------
    >>> b = almm_private_lower_bound(littlestone=65536)
    >>> b.expression, b.samples, b.order_of_growth_only
    (c*log_star(d), 4, True)
    >>> almm_private_lower_bound(littlestone=16, epsilon=0.5)
    Traceback (most recent call last):
    ...
    dimcalc.sample_size.bound.OutOfRangeError: The 'epsilon' parameter of almm_private_lower_bound must satisfy epsilon <= 1/10 (ALMM19 Thm 1: a (0.1, delta)-private learner: the range ALMM19 Thm 1 is stated for). Got 0.5 instead.
    """
    owner = "almm_private_lower_bound"
    values = checked_values(
        owner,
        littlestone=littlestone,
        alpha=alpha,
        beta=beta,
        epsilon=epsilon,
        delta=delta,
        num_labels=num_labels,
        order_constant=order_constant,
    )
    conditions = (
        Condition(ALPHA <= sp.Rational(1, 16), "ALMM19 Thm 1: a (1/16, 1/16)-accurate learner", "alpha"),
        Condition(BETA <= sp.Rational(1, 16), "ALMM19 Thm 1: a (1/16, 1/16)-accurate learner", "beta"),
        Condition(EPSILON <= sp.Rational(1, 10), "ALMM19 Thm 1: a (0.1, delta)-private learner", "epsilon"),
        Condition(sp.Eq(NUM_LABELS, 2), "ALMM19: binary classes", "num_labels"),
    )
    return make_bound(
        owner,
        "almm19_private_lower",
        ORDER_CONSTANT * log_star(D),
        values,
        "ALMM19 Thm 1 (order of growth: Omega(log* LDim))",
        learning_setting("PAC", False, "approximate"),
        kind="lower",
        notes=("ALMM19 Thm 1 needs delta = O(1/(n^2 log n)) for the learner's sample size n",),
        conditions=conditions,
    )
