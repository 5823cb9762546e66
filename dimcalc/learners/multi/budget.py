"""Sharing a privacy budget among k runs of a pure-DP mechanism (BNS Thm 17).

References
----------
M. Bun, K. Nissim, U. Stemmer, *Simultaneous Private Learning of Multiple Concepts*,
JMLR 2019, Theorem 17 (basic and advanced composition).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from ..._params import Number
from ...sample_size import split_privacy_budget
from ..privacy import Privacy, report_number

__all__ = ["BudgetSplit", "split_budget", "budget_split", "selection_privacy", "Composition"]

Composition = Literal["basic", "advanced", "auto"]

#: What :func:`dimcalc.sample_size.split_privacy_budget` returns: ``(each, total, slack, method)``.
RawSplit = tuple[Any, Any, Any, str]


@dataclass(frozen=True)
class BudgetSplit:
    """How a total privacy budget is shared by ``k`` runs of an ``epsilon_each``-DP mechanism.

    Attributes
    ----------
    epsilon_each : number
        Pure-DP parameter of each run (exact for basic composition).
    epsilon, delta : number
        What the ``k`` runs together are proven to satisfy (BNS Thm 17).
    method : str
        ``"basic"`` (Thm 17.1) or ``"advanced"`` (Thm 17.2).
    """

    epsilon_each: Number
    epsilon: Number
    delta: Number
    method: str


def split_budget(epsilon: Any, delta: Any, k: int, composition: Composition = "auto") -> BudgetSplit:
    """Per-run epsilon for ``k`` pure-DP runs to compose to at most ``(epsilon, delta)``.

    Basic composition (BNS Thm 17.1): ``epsilon / k`` each (exactly), total ``(epsilon, 0)``.
    Advanced composition (BNS Thm 17.2) with slack ``delta' = delta / 2`` (as
    :func:`dimcalc.sample_size.composition_sample_size` does): ``e`` solving
    ``sqrt(2k ln(1/delta')) e + 2k e^2 = epsilon``, total ``(epsilon, delta / 2)``;
    needs ``delta > 0`` and ``e < 1`` (the theorem's hypothesis).  ``"auto"`` takes the
    larger per-run epsilon.  (The numbers are those of
    :func:`dimcalc.sample_size.split_privacy_budget`.)

    Examples
    --------
    >>> split_budget(1.0, 0.0, 4)
    BudgetSplit(epsilon_each=0.25, epsilon=1.0, delta=0.0, method='basic')
    >>> s = split_budget(2.0, 1e-6, 400)
    >>> s.method, round(s.epsilon, 9), s.delta, s.epsilon_each > 2.0 / 400
    ('advanced', 2.0, 5e-07, True)
    """
    return budget_split(split_privacy_budget(epsilon, delta, k, composition), epsilon)


def budget_split(split: RawSplit, epsilon: Any) -> BudgetSplit:
    """The :class:`BudgetSplit` of a raw split of the total ``epsilon``: floats where exact, unless ``epsilon``
    was given as a Fraction (then the Fractions as they are).

    >>> budget_split((Fraction(1, 4), Fraction(1), 0, "basic"), 1.0)
    BudgetSplit(epsilon_each=0.25, epsilon=1.0, delta=0.0, method='basic')
    """
    each, total, slack, method = split

    def out(x: Any) -> Any:
        return x if isinstance(epsilon, Fraction) else report_number(x)

    return BudgetSplit(out(each), out(total), float(slack) if not isinstance(slack, Fraction) else slack, method)


def selection_privacy(split: RawSplit, k: int) -> Privacy:
    """The k exponential mechanisms at ``epsilon_0`` each, composed as ``split`` says (BNS Thm 17)."""
    each, _, slack, method = split
    step = Privacy.mechanism(each, 0, "exponential mechanism (BNS Prop 21)")
    if method == "advanced":
        return Privacy.advanced(step, k, slack)
    return Privacy.basic(*([step] * k))
