"""The result of every sample-size calculator: :class:`SampleSizeBound`, with its theorem's range.

A bound is a sympy expression in the symbols of :mod:`dimcalc.sample_size.symbols`, the
numbers substituted for them, the paper and theorem it transcribes, the learning setting,
whether its constants are explicit, and the :class:`Condition` s (the range its theorem is
stated for).  :class:`OutOfRangeError` is raised for parameters outside that range.

Examples
--------
>>> from dimcalc.sample_size import vc_sample_size
>>> vc_sample_size(vc=1, alpha=0.1, beta=0.05).samples
7384
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import sympy as sp

from .._params import Number
from ..errors import InvalidParameterError
from .symbols import SAMPLES, substitute

__all__ = ["Condition", "OutOfRangeError", "SampleSizeBound"]


@dataclass(frozen=True)
class Condition:
    """One hypothesis of the theorem a bound transcribes: the range the theorem is stated for.

    A bound carries its conditions as data (:attr:`SampleSizeBound.conditions`), beside its
    source; :meth:`SampleSizeBound.violations` evaluates them at the bound's values, and
    :func:`sample_size_table` omits (or, for an upper bound and a privacy cap, caps) every
    row outside its range, saying which condition failed.

    Attributes
    ----------
    relation : sympy relational
        In the module's symbols (``alpha``, ``beta``, ``epsilon``, ``delta``, ``num_labels``,
        ...); the symbol ``n`` (:data:`SAMPLES`) stands for the bound's own value.
    source : str
        The theorem, lemma or proof step that states it, e.g. ``"ABM Lemma 4.4"``.
    parameter : str
        The parameter an error message names when the condition fails.

    Examples
    --------
    >>> from dimcalc.sample_size import ALPHA
    >>> c = Condition(ALPHA <= sp.Rational(1, 100), "ABM Lemma 4.4", "alpha")
    >>> c.text, c.holds({"alpha": 0.4}), c.holds({"alpha": 0.005})
    ('alpha <= 1/100', False, True)
    """

    relation: Any
    source: str
    parameter: str

    @property
    def text(self) -> str:
        """The relation as text, e.g. ``"alpha <= 1/100"``."""
        return str(self.relation)

    def holds(self, values: Mapping[str, Any], n: float | None = None) -> bool | None:
        """Whether the relation holds at ``values`` (and ``n`` samples); None when a symbol has no value."""
        samples = None if n is None else {SAMPLES: sp.Float(n, 30) if not isinstance(n, int) else sp.Integer(n)}
        result = substitute(self.relation, values, samples)
        if result.free_symbols:
            return None
        if result in (sp.true, sp.false):
            return bool(result)
        return (
            bool(sp.N(result.lhs - result.rhs, 30).is_zero)
            if isinstance(result, sp.Eq)
            else bool(result.func(sp.N(result.lhs, 30), sp.N(result.rhs, 30)))
        )

    def __str__(self) -> str:
        return f"{self.text} ({self.source})"

    def to_json(self, values: Mapping[str, Any] | None = None, n: float | None = None) -> dict:
        out: dict[str, Any] = {"condition": self.text, "source": self.source, "parameter": self.parameter}
        if values is not None:
            out["holds"] = self.holds(values, n)
        return out


class OutOfRangeError(InvalidParameterError):
    """Parameters outside the range the cited theorem is stated for (a :class:`InvalidParameterError`).

    Attributes
    ----------
    bound : SampleSizeBound
        The bound that was built, with the values given (do not use its number).
    failed : tuple of Condition
        The conditions that do not hold.
    """

    def __init__(self, message: str, bound: SampleSizeBound, failed: tuple) -> None:
        super().__init__(message)
        self.bound = bound
        self.failed = failed


@dataclass(frozen=True)
class SampleSizeBound:
    """A sample-size bound from a paper, symbolic and evaluated.

    Attributes
    ----------
    name : str
        Short identifier, e.g. ``"generic_learner"``.
    expression : sympy.Expr
        The bound in the module's symbols (``alpha``, ``beta``, ``epsilon``,
        ``delta``, ``k``, ``d``, ``log_size``, ``domain_size``, ``c``, ...).
    values : dict
        Symbol name -> number substituted for it (int, float or ``Fraction``: exact).
    source : str
        Paper and theorem, e.g. ``"BNS Thm 27 (Kasiviswanathan et al. 2011)"``.
    setting : dict
        ``task`` ("PAC" | "agnostic"), ``proper`` (bool; for a lower bound
        False means "holds even for improper learners"), ``privacy``
        ("pure" | "approximate" | "none"), ``concepts`` ("single" | "k"),
        ``data`` ("private" | "public+private").
    constants_explicit : bool
        True when every constant comes from the paper; False when the paper
        states ``O(.)`` / ``Omega(.)``, in which case the number is an order of
        growth only, computed with ``order_constant``.
    kind : {"upper", "lower"}
        Sufficient (upper bound) or necessary (lower bound) number of samples.
    order_constant : float or None
        The constant used for the unspecified ``O(.)``; None when explicit.
    notes : tuple of str
        Caveats: dimensions replaced by sound bounds, variants, what the theorem gives, ...
    conditions : tuple of Condition
        The range the theorem is stated for (see :meth:`violations`).

    Examples
    --------
    >>> from dimcalc.sample_size import public_sample_lower_bound, vc_sample_size
    >>> b = vc_sample_size(vc=1, alpha=0.1, beta=0.05)
    >>> b.expression
    64*(d*log(64/alpha) + log(8/beta))/alpha
    >>> b.samples, b.constants_explicit, b.kind
    (7384, True, 'upper')
    >>> public_sample_lower_bound(alpha=0.001).conditions[0].text
    'alpha <= 1/100'
    """

    name: str
    expression: sp.Expr
    values: dict
    source: str
    setting: dict
    constants_explicit: bool
    kind: Literal["upper", "lower"]
    order_constant: Number | None = 1
    notes: tuple = field(default=())
    conditions: tuple = field(default=())

    @property
    def value(self) -> float:
        """The expression evaluated at :attr:`values` (a float, possibly ``inf``).

        Every value is put in at once, as an exact number (a float is its exact binary
        fraction, a ``Fraction`` a rational) with 30 significant digits, and the whole
        expression is then evaluated at that precision (no symbolic simplification of
        partly substituted ``Max``/``Min``).
        """
        number = sp.N(substitute(self.expression, self.values), 30)
        if number.free_symbols:
            missing = sorted(str(s) for s in number.free_symbols)
            raise ValueError(f"{self.name}: no value given for symbol(s) {', '.join(missing)}")
        if number in (sp.zoo, sp.oo):
            return math.inf
        return float(number)

    @property
    def samples(self) -> int:
        """``ceil(value)``: the number of examples the bound asks for (or proves necessary).

        A value at most ``1e-6`` above an integer counts as that integer (so that, e.g.,
        ``3/0.3`` in binary floating point is 10, not 11); never more than ``1e-6`` below
        the value.
        """
        v = self.value
        if math.isinf(v):
            raise OverflowError(f"{self.name}: the bound is infinite for these parameters")
        return max(0, math.ceil(v - min(1e-9 * max(1.0, abs(v)), 1e-6)))

    @property
    def order_of_growth_only(self) -> bool:
        """True when the number depends on an unspecified O(.) constant."""
        return not self.constants_explicit

    def violations(self) -> tuple:
        """The :attr:`conditions` that do not hold at :attr:`values` (empty: the bound is in range)."""
        if not self.conditions:
            return ()
        n: float | None = None
        if any(SAMPLES in c.relation.free_symbols for c in self.conditions):
            try:
                n = self.value
            except (ValueError, OverflowError):
                n = None
        return tuple(c for c in self.conditions if c.holds(self.values, n) is False)

    @property
    def in_range(self) -> bool:
        """True when every condition of the theorem holds at :attr:`values`."""
        return not self.violations()

    def with_values(self, **values: float) -> SampleSizeBound:
        """A copy with some symbol values replaced (e.g. ``order_constant`` via ``c=``)."""
        new = dict(self.values)
        new.update(values)
        oc = new.get("c", self.order_constant) if not self.constants_explicit else None
        return replace(self, values=new, order_constant=oc)

    def to_json(self) -> dict:
        """A JSON-ready dict (expression as a string and in LaTeX; conditions with ``holds``)."""
        try:
            value: Any = self.value
            samples: Any = self.samples
        except (OverflowError, ValueError):
            value, samples = None, None
        if isinstance(value, float) and math.isinf(value):
            value = None
        return {
            "name": self.name,
            "kind": self.kind,
            "expression": str(self.expression),
            "latex": sp.latex(self.expression),
            "values": {k: jsonable(v) for k, v in self.values.items()},
            "value": value,
            "samples": samples,
            "source": self.source,
            "setting": dict(self.setting),
            "constants_explicit": self.constants_explicit,
            "order_of_growth_only": not self.constants_explicit,
            "order_constant": self.order_constant,
            "notes": list(self.notes),
            "conditions": [c.to_json(self.values, value) for c in self.conditions],
        }

    def _repr_latex_(self) -> str:  # Jupyter display: the expression and its number
        from ..display import bound_latex

        return bound_latex(self)


def jsonable(v: Any) -> Any:
    """A parameter value for JSON: bools, None and ints as they are, other numbers (Fraction, ...) as floats.

    Examples
    --------
    >>> from fractions import Fraction
    >>> jsonable(Fraction(1, 4)), jsonable(3), jsonable(None)
    (0.25, 3, None)
    """
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, int):
        return v
    return float(v)
