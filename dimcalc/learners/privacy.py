"""Privacy accounting of the learners: what a fit is proven to satisfy, composed in one place.

Each ``fit`` records a :class:`Privacy` (``privacy_``), composed with BNS Thm 17 (basic and
advanced composition) or BGS Claim 3.2 (parallel composition) by this module's rules.

References
----------
M. Bun, K. Nissim, U. Stemmer, *Simultaneous Private Learning of Multiple Concepts*,
JMLR 2019, Theorem 17; M. Bun, M. Gaboardi, S. Sivakumar, *Multiclass versus Binary
Differentially Private PAC Learning*, NeurIPS 2021, Claim 3.2.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from .._params import Number, as_fraction
from ..errors import InvalidParameterError

__all__ = ["Privacy", "report_number"]


def report_number(x: Number) -> Number:
    """A float when that is exact (``Fraction(1, 2) -> 0.5``), else the exact Fraction (never rounded down)."""
    if isinstance(x, Fraction):
        f = float(x)
        return f if Fraction(f) == x else x
    return x


@dataclass(frozen=True)
class Privacy:
    """The privacy a fit is proven to satisfy, with how it was composed (one accounting for every learner).

    Attributes
    ----------
    epsilon, delta : number
        The guarantee.
    how : str
        The mechanism or composition rule, with its source.
    parts : tuple of Privacy
        What was composed.

    Examples
    --------
    >>> step = Privacy.mechanism(Fraction(1, 4), 0, "exponential mechanism (BNS Prop 21)")
    >>> Privacy.basic(step, step, step, step).pair
    (1.0, 0.0)
    >>> Privacy.parallel(step, Privacy.mechanism(0.5, 0, "x")).pair
    (0.5, 0.0)
    """

    epsilon: Number
    delta: Number
    how: str
    parts: tuple[Privacy, ...] = field(default=(), compare=False)

    @staticmethod
    def mechanism(epsilon: Number, delta: Number, how: str) -> Privacy:
        return Privacy(epsilon, delta, how)

    @staticmethod
    def basic(*parts: Privacy, how: str = "basic composition (BNS Thm 17.1)") -> Privacy:
        """``(sum epsilon_i, sum delta_i)`` (BNS Thm 17.1), summed exactly."""
        eps = sum((as_fraction(p.epsilon) for p in parts), Fraction(0))
        delta = sum((as_fraction(p.delta) for p in parts), Fraction(0))
        return Privacy(eps, delta, how, tuple(parts))

    @staticmethod
    def advanced(part: Privacy, k: int, delta_prime: Number) -> Privacy:
        """``k`` runs of a pure ``epsilon_0``-DP step: ``(sqrt(2k ln(1/delta')) e0 + 2k e0^2, delta')`` (BNS Thm 17.2).

        Needs ``0 < e0 < 1`` and ``0 < delta' < 1`` (the theorem's range).
        """
        e0 = float(part.epsilon)
        if not (0 < e0 < 1 and 0 < float(delta_prime) < 1) or part.delta:
            raise InvalidParameterError(
                "advanced composition (BNS Thm 17.2) needs pure steps with 0 < epsilon_0 < 1 "
                f"and 0 < delta' < 1; got epsilon_0 = {e0:g}, delta' = {float(delta_prime):g}"
            )
        total = math.sqrt(2 * k * math.log(1 / float(delta_prime))) * e0 + 2 * k * e0 * e0
        return Privacy(math.nextafter(total, math.inf), delta_prime, "advanced composition (BNS Thm 17.2)", (part,) * k)

    @staticmethod
    def parallel(*parts: Privacy) -> Privacy:
        """Disjoint parts of the sample: the largest ``(epsilon, delta)`` (BGS Claim 3.2)."""
        eps = max(as_fraction(p.epsilon) for p in parts)
        delta = max(as_fraction(p.delta) for p in parts)
        return Privacy(eps, delta, "parallel composition (BGS Claim 3.2)", tuple(parts))

    def scaled(self, noise_multiplier: Number) -> Privacy:
        """The guarantee when every noise scale is multiplied by ``noise_multiplier`` (audits)."""
        if noise_multiplier == 1:
            return self
        return Privacy(
            as_fraction(self.epsilon) / as_fraction(noise_multiplier),
            self.delta,
            f"{self.how}, noise x {noise_multiplier}",
            self.parts,
        )

    @property
    def pair(self) -> tuple[Number, Number]:
        """``(epsilon, delta)`` as numbers: floats when exact, else exact Fractions (never rounded down)."""

        def out(x: Number) -> Number:
            return x if isinstance(x, float) else report_number(as_fraction(x))

        delta = out(self.delta)
        return out(self.epsilon), (0.0 if delta == 0 else delta)
