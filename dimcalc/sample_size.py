"""Sample sizes of (private) learners, from the papers, as sympy expressions.

Every calculator returns a :class:`SampleSizeBound`: a sympy expression in
named symbols (``alpha``, ``beta``, ``epsilon``, ``delta``, ``k``, ``d``, ...),
the numbers substituted for them, the paper and theorem it transcribes, the
learning setting it holds in, and whether its constants are *explicit* (the
paper gives them, e.g. BNS Thms 8-9) or an unspecified ``O(.)`` / ``Omega(.)``
constant.  Unspecified constants appear in the expression as the symbol ``c``
(``values["c"]`` is :attr:`SampleSizeBound.order_constant`, default 1), and
such a bound is an order of growth only: its number is not a guarantee.

Conventions
-----------
* ``log_size`` is the natural logarithm ``ln |C|`` of the class size
  (a sound number for an upper bound is ``math.log(H.n_distinct)``).
* ``domain_size`` is ``|X|``; ``d`` / ``vc`` is a VC-type dimension.
* ``alpha`` accuracy, ``beta`` failure probability, ``(epsilon, delta)``
  privacy; ``k`` the number of concepts learned at once (BNS Def 4).

References
----------
BNS: Bun, Nissim, Stemmer, *Simultaneous Private Learning of Multiple
Concepts*, JMLR (seed 001).  ABM: Alon, Bassily, Moran, *Limits of Private
Learning with Access to Public Data* (002).  BGS: Bun, Gaboardi, Sivakumar,
*Multiclass versus Binary Differentially Private PAC Learning* (003).
FX: Feldman, Xiao, *Sample Complexity Bounds on Differentially Private
Learning via Communication Complexity* (004).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Literal

import sympy as sp

from ._params import Number, check_epsilon, exact_number, number_text
from .errors import InvalidParameterError, parameter_error

__all__ = [
    "SampleSizeBound",
    "Condition",
    "OutOfRangeError",
    "ALPHA",
    "BETA",
    "EPSILON",
    "DELTA",
    "K",
    "D",
    "LOG_SIZE",
    "DOMAIN_SIZE",
    "ORDER_CONSTANT",
    "NUM_LABELS",
    "SAMPLES",
    "generic_learner_sample_size",
    "exponential_mechanism_sample_size",
    "vc_sample_size",
    "composition_sample_size",
    "advanced_composition_epsilon",
    "generic_k_learner_sample_size",
    "generic_learner_mwem_sample_size",
    "split_privacy_budget",
    "point_k_learner_sample_size",
    "parity_k_learner_sample_size",
    "abm_semi_private_sample_size",
    "asspp_sample_size",
    "public_sample_lower_bound",
    "multiclass_reduction_sample_size",
    "ggkm_sample_size",
    "multiclass_littlestone_sample_size",
    "bgs_boosted_sample_size",
    "repdim_sample_size",
    "representation_learner_sample_size",
    "prdim_sample_size",
    "line_learner_sample_size",
    "vc_lower_bound",
    "pure_k_learner_lower_bound",
    "parity_pure_lower_bound",
    "threshold_k_learner_lower_bound",
    "agnostic_k_learner_lower_bound",
    "repdim_lower_bound",
    "SampleSizeTable",
    "sample_size_table",
]

# --------------------------------------------------------------------------- symbols
ALPHA = sp.Symbol("alpha", positive=True)
BETA = sp.Symbol("beta", positive=True)
EPSILON = sp.Symbol("epsilon", positive=True)
DELTA = sp.Symbol("delta", positive=True)
K = sp.Symbol("k", positive=True, integer=True)
D = sp.Symbol("d", nonnegative=True, integer=True)
LOG_SIZE = sp.Symbol("log_size", nonnegative=True)  # ln |C|
DOMAIN_SIZE = sp.Symbol("domain_size", positive=True, integer=True)  # |X|
ORDER_CONSTANT = sp.Symbol("c", positive=True)  # the unspecified O(.) constant
NUM_LABELS = sp.Symbol("num_labels", positive=True, integer=True)  # k + 1 labels
SAMPLES = sp.Symbol("n", positive=True)  # in a Condition: the bound's own number of samples

_TASKS = ("PAC", "agnostic")
_PRIVACY = ("pure", "approximate", "none")


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
        subs = {s: _number(values[s.name]) for s in self.relation.free_symbols if s.name in values}
        if n is not None:
            subs[SAMPLES] = sp.Float(n, 30) if not isinstance(n, int) else sp.Integer(n)
        result = self.relation.xreplace(subs)
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
    order_constant: float | None = 1
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
        subs = {s: _number(self.values[s.name]) for s in self.expression.free_symbols if s.name in self.values}
        number = sp.N(self.expression.xreplace(subs), 30)
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
            "values": {k: _jsonable(v) for k, v in self.values.items()},
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


def _number(v: Any) -> sp.Expr:
    """A value as an exact sympy number (ints stay integers, floats keep their binary value)."""
    if isinstance(v, sp.Basic):
        return v
    if isinstance(v, (int,)) and not isinstance(v, bool):
        return sp.Integer(v)
    if isinstance(v, Fraction):
        return sp.Rational(v.numerator, v.denominator)
    return sp.Float(v, 30)


def _jsonable(v: Any) -> Any:
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, int):
        return v
    return float(v)


_SYMBOLS = {s.name: s for s in (ALPHA, BETA, EPSILON, DELTA, K, D, LOG_SIZE, DOMAIN_SIZE, ORDER_CONSTANT, NUM_LABELS)}


def _symbol(name: str, **assumptions: Any) -> sp.Symbol:
    """The module's symbol called ``name`` (a new positive symbol if not predefined)."""
    if name in _SYMBOLS:
        return _SYMBOLS[name]
    s = sp.Symbol(name, **(assumptions or {"positive": True}))
    _SYMBOLS[name] = s
    return s


# --------------------------------------------------------------------------- theorem ranges
def _enforce(bound: SampleSizeBound, owner: str) -> SampleSizeBound:
    """``bound`` if its theorem's conditions hold at its values, else :class:`OutOfRangeError`."""
    failed = bound.violations()
    if failed:
        first = failed[0]
        got = bound.values.get(first.parameter, "?")
        extra = "" if len(failed) == 1 else "; also " + "; ".join(str(c) for c in failed[1:])
        hint = ""
        if (
            isinstance(got, float)
            and Fraction(got) != Fraction(repr(got))
            and first.holds({**bound.values, first.parameter: Fraction(repr(got))}) is True
        ):
            side = "above" if Fraction(got) > Fraction(repr(got)) else "below"
            hint = (
                f" (a float is taken at its binary value, a hair {side} {got!r}: pass Fraction or the text "
                f"'{got!r}' to mean it exactly)"
            )
        raise OutOfRangeError(
            f"The {first.parameter!r} parameter of {owner} must satisfy {first.text} "
            f"({first.source}: the range {bound.source.split(' (')[0]} is stated for){extra}. "
            f"Got {number_text(got) if not isinstance(got, str) else got}{hint} instead.",
            bound,
            failed,
        )
    return bound


def _cond(relation: Any, source: str, parameter: str) -> Condition:
    return Condition(relation, source, parameter)


def _precheck(owner: str, values: Mapping[str, Any], source: str, *conditions: Condition) -> None:
    """Refuse ``values`` outside ``conditions`` before a bound is built (same message as :func:`_enforce`)."""
    probe = SampleSizeBound(
        name=owner,
        expression=sp.Integer(0),
        values=dict(values),
        source=source,
        setting={},
        constants_explicit=True,
        kind="upper",
        conditions=conditions,
    )
    _enforce(probe, owner)


#: BGS Thm 3.6 (GGKM20 Thm 6.4) is stated "for any epsilon, delta, alpha, beta in [0, 1]".
_BGS36_EPS = _cond(EPSILON <= 1, "BGS Thm 3.6: epsilon, delta, alpha, beta in [0, 1]", "epsilon")
#: BGS Thm 3.7 (and App. A Thm A.1) is stated for epsilon in [0, 1/4].
_BGS37_EPS = _cond(EPSILON <= sp.Rational(1, 4), "BGS Thm 3.7: epsilon in [0, 1/4]", "epsilon")


# --------------------------------------------------------------------------- validation
def _real(name: str, owner: str, v: Any, requirement: str, *, text: bool = False) -> Number:
    return exact_number(v, name, owner, requirement, text=text)


def _check_unit(name: str, owner: str, v: Any, *, closed_low: bool = False) -> Number:
    requirement = "a float in [0, 1)" if closed_low else "a float in (0, 1)"
    v = _real(name, owner, v, requirement)
    if not (0 < v < 1) and not (closed_low and v == 0):
        raise parameter_error(name, owner, requirement, v)
    return v


def _check_positive(name: str, owner: str, v: Any) -> Number:
    v = _real(name, owner, v, "a float in (0, inf)")
    if not v > 0:
        raise parameter_error(name, owner, "a float in (0, inf)", v)
    return v


def _check_eps(owner: str, v: Any, name: str = "epsilon") -> Number:
    """A privacy epsilon: a positive number, also a Fraction or exact text like ``"1/3"``."""
    return check_epsilon(v, owner, name)


def _check_int(name: str, owner: str, v: Any, low: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) and not hasattr(v, "__index__"):
        raise parameter_error(name, owner, f"an int >= {low}", v)
    v = int(v)
    if v < low:
        raise parameter_error(name, owner, f"an int >= {low}", v)
    return v


def _check_nonneg(name: str, owner: str, v: Any) -> Number:
    v = _real(name, owner, v, "a float in [0, inf)")
    if not v >= 0:
        raise parameter_error(name, owner, "a float in [0, inf)", v)
    return v


def _setting(task: str, proper: bool, privacy: str, concepts: str = "single", data: str = "private") -> dict:
    assert task in _TASKS and privacy in _PRIVACY
    return {"task": task, "proper": proper, "privacy": privacy, "concepts": concepts, "data": data}


def _order(owner: str, order_constant: Any) -> Number:
    return _check_positive("order_constant", owner, order_constant)


# --------------------------------------------------------------------------- single concept
def vc_sample_size(*, vc: int, alpha: float, beta: float, agnostic: bool = False, erm: bool = False) -> SampleSizeBound:
    """Non-private VC generalization bound with the paper's explicit constants.

    PAC (BNS Thm 8, Blumer et al. 1989): with
    ``n >= (64/alpha) (d ln(64/alpha) + ln(8/beta))`` i.i.d. examples, every
    ``h`` in ``C`` with empirical error ``<= alpha/2`` has true error ``<= alpha``
    except with probability ``beta`` (so any consistent learner is
    ``(alpha, beta)``-accurate).

    Agnostic (BNS Thm 9, Anthony and Bartlett): with
    ``n >= (64/alpha^2) (d ln(6/alpha) + ln(8/beta))``, every ``h`` has
    ``error_P(h) - error_S(h) <= alpha`` except with probability ``beta``.  That is
    *uniform convergence*, not a learner's guarantee: an empirical risk minimiser at
    that ``n`` is within ``2 alpha`` of the optimum (``alpha`` from Thm 9 for the output,
    ``alpha`` for the best hypothesis), not ``alpha``.  ``erm=True`` gives the size for an
    ERM within ``alpha`` of the optimum: Thm 9 at ``(alpha/2, beta/2)`` for the output and
    Hoeffding for the one best hypothesis (``exp(-n alpha^2/2) <= beta/2``, far below
    Thm 9's size at these parameters).

    Parameters
    ----------
    vc : int
        The VC dimension ``d`` of the class (an upper bound is sound).
    alpha, beta : float in (0, 1)
        Accuracy and failure probability.
    agnostic : bool
        Use Thm 9 instead of Thm 8.
    erm : bool
        With ``agnostic``: the ERM version (error ``<= OPT + alpha``), see above.

    Returns
    -------
    SampleSizeBound
        ``kind="upper"``, ``constants_explicit=True``, privacy "none".

    References
    ----------
    BNS (JMLR), Theorem 8 and Theorem 9.

    Examples
    --------
    >>> vc_sample_size(vc=2, alpha=0.1, beta=0.1, agnostic=True).samples
    80453
    >>> vc_sample_size(vc=2, alpha=0.1, beta=0.1, agnostic=True, erm=True).samples
    375045
    """
    owner = "vc_sample_size"
    vc = _check_int("vc", owner, vc, 0)
    alpha = _check_unit("alpha", owner, alpha)
    beta = _check_unit("beta", owner, beta)
    if erm and not agnostic:
        raise parameter_error(
            "erm", owner, "False unless agnostic=True (Thm 8 already gives a consistent learner's error)", erm
        )
    notes: tuple = ()
    if agnostic and erm:
        a, b = ALPHA / 2, BETA / 2
        expr = 64 / a**2 * (D * sp.log(6 / a) + sp.log(8 / b))
        source = "BNS Thm 9 at (alpha/2, beta/2) + Hoeffding for the best hypothesis (ERM)"
        notes = ("an empirical risk minimiser at this n has error <= OPT + alpha",)
        name = "vc_erm_agnostic"
    elif agnostic:
        expr = 64 / ALPHA**2 * (D * sp.log(6 / ALPHA) + sp.log(8 / BETA))
        source = "BNS Thm 9 (Anthony & Bartlett 2009)"
        notes = (
            "uniform convergence: error_P(h) - error_S(h) <= alpha for every h; an ERM at this n is "
            "within 2 alpha of OPT (within alpha: vc_sample_size(..., agnostic=True, erm=True))",
        )
        name = "vc_generalization_agnostic"
    else:
        expr = 64 / ALPHA * (D * sp.log(64 / ALPHA) + sp.log(8 / BETA))
        source = "BNS Thm 8 (Blumer et al. 1989)"
        name = "vc_generalization"
    return SampleSizeBound(
        name=name,
        expression=expr,
        values={"d": vc, "alpha": alpha, "beta": beta},
        source=source,
        setting=_setting("agnostic" if agnostic else "PAC", True, "none"),
        constants_explicit=True,
        kind="upper",
        order_constant=None,
        notes=notes,
    )


def generic_learner_sample_size(
    *, log_size: float, alpha: float, beta: float, epsilon: float, order_constant: float = 1
) -> SampleSizeBound:
    """The generic pure-DP learner over a finite class (exponential mechanism).

    ``O((log|C| + log(1/beta)) (1/(alpha epsilon) + 1/alpha^2))`` examples
    suffice for an ``(alpha, beta, epsilon)``-private agnostic *proper* learner.

    Parameters
    ----------
    log_size : float
        ``ln |C|`` (natural logarithm of the number of distinct hypotheses).
    alpha, beta : float in (0, 1)
    epsilon : float > 0
    order_constant : float
        The unspecified ``O(.)`` constant (default 1).

    Returns
    -------
    SampleSizeBound
        ``constants_explicit=False``: an order of growth.  For the explicit
        bound of the learner implemented in :mod:`dimcalc.learners`, see
        :func:`exponential_mechanism_sample_size`.

    References
    ----------
    BNS (JMLR), Theorem 27 (Kasiviswanathan, Lee, Nissim, Raskhodnikova,
    Smith, *What can we learn privately?*, 2011).

    Examples
    --------
    >>> b = generic_learner_sample_size(log_size=math.log(16), alpha=0.1, beta=0.1, epsilon=1.0)
    >>> b.expression
    c*(log_size + log(1/beta))*(1/(alpha*epsilon) + alpha**(-2))
    >>> b.samples, b.order_of_growth_only
    (559, True)
    """
    owner = "generic_learner_sample_size"
    log_size = _check_nonneg("log_size", owner, log_size)
    alpha = _check_unit("alpha", owner, alpha)
    beta = _check_unit("beta", owner, beta)
    epsilon = _check_eps(owner, epsilon)
    oc = _order(owner, order_constant)
    expr = ORDER_CONSTANT * (LOG_SIZE + sp.log(1 / BETA)) * (1 / (ALPHA * EPSILON) + 1 / ALPHA**2)
    return SampleSizeBound(
        name="generic_learner",
        expression=expr,
        values={"log_size": log_size, "alpha": alpha, "beta": beta, "epsilon": epsilon, "c": oc},
        source="BNS Thm 27 (Kasiviswanathan et al. 2011)",
        setting=_setting("agnostic", True, "pure"),
        constants_explicit=False,
        kind="upper",
        order_constant=oc,
    )


def _exponential_mechanism_expression(alpha: sp.Expr, beta: sp.Expr, agnostic: bool) -> sp.Expr:
    """The bound of :func:`exponential_mechanism_sample_size` at accuracy ``alpha``, failure ``beta`` (expressions)."""
    selection = 4 / (alpha * EPSILON) * (LOG_SIZE + sp.log(2 / beta))
    if agnostic:
        generalization = 8 / alpha**2 * (LOG_SIZE + sp.log(4 / beta))
    else:
        generalization = 8 / alpha * (LOG_SIZE + sp.log(2 / beta))
    return sp.Max(selection, generalization)


def exponential_mechanism_sample_size(
    *, log_size: float, alpha: float, beta: float, epsilon: float, agnostic: bool = False
) -> SampleSizeBound:
    """Explicit sample size of the exponential-mechanism learner over a finite class.

    This is the proof of BNS Thm 27 with its constants worked out.  The
    mechanism picks ``h`` with probability proportional to
    ``exp(epsilon * q(S, h) / 2)``, ``q = -(number of errors)`` (sensitivity 1);
    by BNS Prop 21 it outputs ``h`` with ``q <= OPT - t n`` with probability at
    most ``|C| exp(-epsilon t n / 2)`` (report-noisy-max with exponential noise
    of scale ``2/epsilon`` has the same tail bound).

    * PAC (target in ``C``): with ``t = alpha/2`` the empirical error is
      ``< alpha/2`` except with probability ``beta/2`` once
      ``n >= (4/(alpha epsilon)) ln(2|C|/beta)``; the multiplicative Chernoff
      bound ``P[Bin(n,p) <= np/2] <= exp(-np/8)`` and a union bound over ``C``
      give that no ``h`` with error ``> alpha`` has empirical error
      ``<= alpha/2`` except with probability ``beta/2`` once
      ``n >= (8/alpha) ln(2|C|/beta)``.
    * Agnostic: ``t = alpha/2`` and ``n >= (4/(alpha epsilon)) ln(2|C|/beta)``
      for the mechanism; Hoeffding and a union bound give
      ``|error_S(h) - error_P(h)| <= alpha/4`` for all ``h`` except with
      probability ``beta/2`` once ``n >= (8/alpha^2) ln(4|C|/beta)``; then
      ``error_P(h) <= OPT_P + alpha``.

    The bound is the maximum of the two terms.

    Parameters
    ----------
    log_size : float
        ``ln |C|``.
    alpha, beta : float in (0, 1)
    epsilon : float > 0
    agnostic : bool

    Returns
    -------
    SampleSizeBound
        ``constants_explicit=True``, proper, pure DP.

    References
    ----------
    BNS (JMLR), Theorem 27 and Proposition 21 (McSherry and Talwar 2007);
    Kasiviswanathan et al. 2011, Theorem 3.4.

    Examples
    --------
    >>> exponential_mechanism_sample_size(log_size=math.log(16), alpha=0.1, beta=0.1, epsilon=1.0).samples
    462
    """
    owner = "exponential_mechanism_sample_size"
    log_size = _check_nonneg("log_size", owner, log_size)
    alpha = _check_unit("alpha", owner, alpha)
    beta = _check_unit("beta", owner, beta)
    epsilon = _check_eps(owner, epsilon)
    return SampleSizeBound(
        name="exponential_mechanism_agnostic" if agnostic else "exponential_mechanism",
        expression=_exponential_mechanism_expression(ALPHA, BETA, agnostic),
        values={"log_size": log_size, "alpha": alpha, "beta": beta, "epsilon": epsilon},
        source="BNS Thm 27 / Prop 21 (explicit constants: Chernoff/Hoeffding union bound over C)",
        setting=_setting("agnostic" if agnostic else "PAC", True, "pure"),
        constants_explicit=True,
        kind="upper",
        order_constant=None,
    )


# --------------------------------------------------------------------------- composition
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
    >>> one = exponential_mechanism_sample_size(log_size=math.log(16), alpha=0.1, beta=0.1, epsilon=1.0)
    >>> composition_sample_size(single=one, k=4, epsilon=1.0).samples
    1145
    """
    owner = "composition_sample_size"
    if not isinstance(single, SampleSizeBound):
        raise parameter_error("single", owner, "a SampleSizeBound", type(single).__name__)
    if single.setting.get("privacy") == "none":
        raise parameter_error("single", owner, "a private learner's bound", single.name)
    k = _check_int("k", owner, k, 1)
    epsilon = _check_eps(owner, epsilon)
    delta = _check_unit("delta", owner, delta, closed_low=True)
    if advanced and delta == 0:
        raise parameter_error("delta", owner, "a float in (0, 1) for advanced composition", delta)
    if advanced:
        per_eps = advanced_composition_epsilon(EPSILON, K, DELTA / 2)
        per_delta = DELTA / (2 * K)
        how = "advanced composition (Thm 17.2)"
        extra = (_cond(per_eps < 1, "BNS Thm 17.2: per-run epsilon_0 < 1", "epsilon"),)
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
    return _enforce(
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


# --------------------------------------------------------------------------- k-learners
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

    BNS Thm 31 is the minimum of two constructions; this calculator keeps
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
      sanitizer and half for the k exponential mechanisms:
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
    vc = _check_int("vc", owner, vc, 0)
    k = _check_int("k", owner, k, 1)
    alpha = _check_unit("alpha", owner, alpha)
    beta = _check_unit("beta", owner, beta)
    epsilon = _check_eps(owner, epsilon)
    delta = _check_unit("delta", owner, delta, closed_low=True)
    oc = _order(owner, order_constant)
    if domain_size is None and log_size is None:
        raise parameter_error("domain_size", owner, "an int >= 1 (or give log_size)", None)
    values: dict[str, Any] = {"d": vc, "k": k, "alpha": alpha, "beta": beta, "epsilon": epsilon, "c": oc}
    pure = delta == 0
    if not pure:
        values["delta"] = delta
    branches = []
    notes = []
    size = LOG_SIZE
    if log_size is not None:
        values["log_size"] = _check_nonneg("log_size", owner, log_size)
    if domain_size is not None:
        values["domain_size"] = _check_int("domain_size", owner, domain_size, 1)
        if log_size is None:
            size = D * sp.log(DOMAIN_SIZE + 1)
            notes.append("ln|C| bounded by Sauer-Shelah: d ln(|X|+1)")
    conditions = []

    def per_run(total: sp.Expr, branch: str) -> sp.Expr:
        # BNS Thm 17.2 (advanced composition) needs a per-run epsilon_0 < 1; where it is not,
        # basic composition (Thm 17.1, total/k per run) is used: it holds for approximate DP too.
        if pure:
            return total / K
        adv = advanced_composition_epsilon(total, K, DELTA / 2)
        if _evaluates_below_one(adv, values):
            conditions.append(_cond(adv < 1, f"BNS Thm 17.2 ({branch}): per-run epsilon_0 < 1", "epsilon"))
            return adv
        notes.append(
            f"{branch}: advanced composition would need a per-run epsilon_0 >= 1, outside BNS Thm 17.2; "
            "basic composition (Thm 17.1) used"
        )
        return total / K

    if log_size is not None or domain_size is not None:
        eps_each = per_run(EPSILON, "Cor 34 branch")
        branches.append((size + sp.log(K / BETA)) * (1 / (ALPHA * eps_each) + 1 / ALPHA**2))
    if domain_size is not None:
        eps_san = EPSILON / 2
        if pure:
            eps0 = EPSILON / (2 * K)
            sanitizer = D * sp.log(DOMAIN_SIZE) * sp.log(1 / ALPHA) / (ALPHA**3 * eps_san) + sp.log(1 / BETA) / (
                ALPHA * eps_san
            )
        else:
            eps0 = per_run(EPSILON / 2, "Lemma 36 branch")
            sanitizer = (
                (size + sp.log(1 / BETA)) * sp.sqrt(sp.log(DOMAIN_SIZE) * sp.log(2 / DELTA)) / (ALPHA**2 * eps_san)
            )
        branches.append(
            sanitizer
            + D / (ALPHA**3 * eps0) * sp.log(1 / ALPHA)
            + sp.log(K / BETA) / (ALPHA * eps0)
            + D / ALPHA**2 * sp.log(K / (ALPHA * BETA))
        )
    body = branches[0] if len(branches) == 1 else sp.Min(*branches)
    return _enforce(
        SampleSizeBound(
            name="generic_k_learner",
            expression=ORDER_CONSTANT * body,
            values=values,
            source="BNS Thm 31, via Cor 34 (Obs 32 + Thm 27) and Lemma 36 (Alg 3 with Thm 24/25 sanitizer)",
            setting=_setting("agnostic", True, "pure" if pure else "approximate", "k"),
            constants_explicit=False,
            kind="upper",
            order_constant=oc,
            notes=tuple(notes),
            conditions=tuple(conditions),
        ),
        owner,
    )


def _evaluates_below_one(expr: sp.Expr, values: Mapping[str, Any]) -> bool:
    """``expr < 1`` at ``values`` (exact evaluation at 30 digits)."""
    subs = {s: _number(values[s.name]) for s in expr.free_symbols if s.name in values}
    return bool(sp.N(expr.xreplace(subs), 30) < 1)


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
    log_size = _check_nonneg("log_size", owner, log_size)
    q_count = _check_int("n_queries", owner, n_queries, 1)
    x_count = _check_int("domain_size", owner, domain_size, 1)
    k = _check_int("k", owner, k, 1)
    alpha = _check_unit("alpha", owner, alpha)
    beta = _check_unit("beta", owner, beta)
    epsilon = _check_eps(owner, epsilon)
    delta = _check_unit("delta", owner, delta, closed_low=True)
    frac = _check_unit("sanitizer_fraction", owner, sanitizer_fraction)
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
        hi = max(lo + 3, 64 * lo)
        while hi - lo > 2:
            m1, m2 = lo + (hi - lo) // 3, hi - (hi - lo) // 3
            if n_mwem(m1) <= n_mwem(m2):
                hi = m2
            else:
                lo = m1
        rounds = min(range(lo, hi + 1), key=n_mwem)
    else:
        rounds = _check_int("iterations", owner, iterations, 1)
    t = a / 10
    synthetic = math.ceil(math.log(4 * q_count / b) / t)
    T, Q, X, E0, F = (
        _symbol("rounds", positive=True, integer=True),
        _symbol("n_queries", positive=True, integer=True),
        DOMAIN_SIZE,
        _symbol("epsilon_0"),
        _symbol("sanitizer_fraction"),
    )
    ES = F * EPSILON
    size = sp.exp(LOG_SIZE)
    n_gen = sp.log(4 * K * (size + 1) / BETA) / (2 * (ALPHA / 10) ** 2)
    n_sel = 2 * sp.log(4 * K * size / BETA) / (E0 * ALPHA / 10)
    mw_slack = sp.Rational(6, 10) * ALPHA - 2 * sp.sqrt(sp.log(X) / T)
    n_mw = (2 * T * sp.log(16 * T / BETA) + 4 * T * sp.log(8 * T * Q / BETA) + ES) / (ES * mw_slack)
    values = {
        "log_size": log_size,
        "n_queries": q_count,
        "domain_size": x_count,
        "k": k,
        "alpha": alpha,
        "beta": beta,
        "epsilon": epsilon,
        "sanitizer_fraction": frac,
        "epsilon_0": eps0,
        "rounds": rounds,
        "synthetic_size": synthetic,
    }
    if delta > 0:
        values["delta"] = delta
    notes = (
        f"MWEM runs T = {rounds} rounds with epsilon_san = {number_text(eps_san)}; synthetic sample of "
        f"m = {synthetic} points; {method} composition of the k selections (epsilon_0 = {float(eps0):.6g})",
    )
    bound = SampleSizeBound(
        name="generic_learner_mwem",
        expression=sp.Max(n_gen, n_sel, n_mw),
        values=values,
        source="BNS Lemma 36 / Alg 3 with MWEM (HLM Thm 2.2; explicit constants of dimcalc's GenericLearner)",
        setting=_setting("agnostic", True, "pure" if method == "basic" and delta == 0 else "approximate", "k"),
        constants_explicit=True,
        kind="upper",
        order_constant=None,
        notes=notes,
        conditions=(
            _cond(
                mw_slack > 0,
                "HLM Thm 2.2: enough MWEM rounds for its share 6 alpha/10 (2 sqrt(ln|X|/T) < 6 alpha/10)",
                "rounds",
            ),
        ),
    )
    return _enforce(bound, owner)


def point_k_learner_sample_size(
    *,
    domain_size: int | None = None,
    k: int,
    alpha: float,
    beta: float,
    epsilon: float,
    delta: float,
    order_constant: float = 1,
) -> SampleSizeBound:
    """PointLearner: PAC k-learner for POINT_X with approximate DP (BNS Thm 40).

    ``O((1/(alpha epsilon)) log(1/(alpha beta delta)))`` examples, independent
    of ``k`` and ``|X|``.

    Parameters
    ----------
    domain_size : int, optional
        ``|X|`` (recorded, not used: the bound does not depend on it).
    k : int >= 1
    alpha, beta, delta : float in (0, 1)
    epsilon : float > 0
    order_constant : float

    References
    ----------
    BNS (JMLR), Theorem 40 and Algorithm 5 (PointLearner).

    Examples
    --------
    >>> b = point_k_learner_sample_size(domain_size=32, k=5, alpha=0.1, beta=0.1, epsilon=1.0, delta=1e-6)
    >>> b.expression
    c*log(1/(alpha*beta*delta))/(alpha*epsilon)
    >>> b.samples
    185
    """
    owner = "point_k_learner_sample_size"
    values: dict[str, Any] = {
        "k": _check_int("k", owner, k, 1),
        "alpha": _check_unit("alpha", owner, alpha),
        "beta": _check_unit("beta", owner, beta),
        "epsilon": _check_eps(owner, epsilon),
        "delta": _check_unit("delta", owner, delta),
        "c": _order(owner, order_constant),
    }
    if domain_size is not None:
        values["domain_size"] = _check_int("domain_size", owner, domain_size, 1)
    expr = ORDER_CONSTANT / (ALPHA * EPSILON) * sp.log(1 / (ALPHA * BETA * DELTA))
    return SampleSizeBound(
        name="point_k_learner",
        expression=expr,
        values=values,
        source="BNS Thm 40 (Alg 5 PointLearner)",
        setting=_setting("PAC", False, "approximate", "k"),
        constants_explicit=False,
        kind="upper",
        order_constant=values["c"],
    )


def parity_k_learner_sample_size(
    *,
    d: int,
    k: int,
    alpha: float = 0.0,
    beta: float,
    epsilon: float,
    delta: float,
    order_constant: float = 1,
    variant: Literal["theorem", "algorithm"] = "theorem",
) -> SampleSizeBound:
    """ParityLearner: exact PAC k-learner for PAR_d under the uniform distribution (BNS Thm 39).

    The theorem states ``O(d log(1/beta) + (1/epsilon) log(1/(beta delta)))``
    with ``alpha = 0`` (the targets are recovered exactly).  Algorithm 4, as
    written in its proof, splits the sample into
    ``O((1/epsilon) log(1/(beta delta)))`` parts of size ``O(d)``, i.e. uses
    ``O((d/epsilon) log(1/(beta delta)))`` examples; ``variant="algorithm"``
    returns that expression.

    Parameters
    ----------
    d : int >= 1
        Dimension of ``{0,1}^d`` (VC(PAR_d) = d).
    k : int >= 1
    alpha : float
        Ignored (the theorem is for ``alpha = 0``); kept for a uniform call shape.
    beta, delta : float in (0, 1)
    epsilon : float > 0
    order_constant : float
    variant : {"theorem", "algorithm"}

    References
    ----------
    BNS (JMLR), Theorem 39 and Algorithm 4 (ParityLearner).

    Examples
    --------
    >>> parity_k_learner_sample_size(d=4, k=3, beta=0.1, epsilon=1.0, delta=1e-6).expression
    c*(d*log(1/beta) + log(1/(beta*delta))/epsilon)
    """
    owner = "parity_k_learner_sample_size"
    values: dict[str, Any] = {
        "d": _check_int("d", owner, d, 1),
        "k": _check_int("k", owner, k, 1),
        "beta": _check_unit("beta", owner, beta),
        "epsilon": _check_eps(owner, epsilon),
        "delta": _check_unit("delta", owner, delta),
        "c": _order(owner, order_constant),
    }
    if variant == "theorem":
        expr = ORDER_CONSTANT * (D * sp.log(1 / BETA) + sp.log(1 / (BETA * DELTA)) / EPSILON)
        notes: tuple = ()
    elif variant == "algorithm":
        expr = ORDER_CONSTANT * D / EPSILON * sp.log(1 / (BETA * DELTA))
        notes = ("sample size used by Algorithm 4 in the proof of Thm 39",)
    else:
        raise parameter_error("variant", owner, "'theorem' or 'algorithm'", variant)
    return SampleSizeBound(
        name="parity_k_learner",
        expression=expr,
        values=values,
        source="BNS Thm 39 (Alg 4 ParityLearner), uniform distribution, alpha = 0",
        setting=_setting("PAC", True, "approximate", "k"),
        constants_explicit=False,
        kind="upper",
        order_constant=values["c"],
        notes=notes,
    )


# --------------------------------------------------------------------------- semi-private (ABM)
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
    values = {
        "d": _check_int("vc", owner, vc, 0),
        "alpha": _check_unit("alpha", owner, alpha),
        "beta": _check_unit("beta", owner, beta),
        "epsilon": _check_eps(owner, epsilon),
        "c": _order(owner, order_constant),
    }
    core = D * sp.log(1 / ALPHA) + sp.log(1 / BETA)
    setting = _setting("agnostic", True, "pure", data="public+private")
    priv = SampleSizeBound(
        name="asspp_private",
        expression=ORDER_CONSTANT * core * sp.Max(1 / ALPHA**2, 1 / (EPSILON * ALPHA)),
        values=dict(values),
        source="ABM Thm 3.1 (private sample)",
        setting=setting,
        constants_explicit=False,
        kind="upper",
        order_constant=values["c"],
    )
    pub = SampleSizeBound(
        name="asspp_public",
        expression=ORDER_CONSTANT * core / ALPHA,
        values=dict(values),
        source="ABM Thm 3.1 / Lemma 3.3 (public unlabelled sample)",
        setting=setting,
        constants_explicit=False,
        kind="upper",
        order_constant=values["c"],
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
    >>> priv, pub = asspp_sample_size(log_size=math.log(9), alpha=0.2, beta=0.1, epsilon=1.0)
    >>> pub.samples, priv.samples
    (148, 2340)
    """
    owner = "asspp_sample_size"
    log_size = _check_nonneg("log_size", owner, log_size)
    alpha = _check_unit("alpha", owner, alpha)
    beta = _check_unit("beta", owner, beta)
    epsilon = _check_eps(owner, epsilon)
    values = {"log_size": log_size, "alpha": alpha, "beta": beta, "epsilon": epsilon}
    setting = _setting("agnostic", True, "pure", data="public+private")
    priv_expr = _exponential_mechanism_expression(3 * ALPHA / 4, BETA / 2, agnostic=True)
    priv = SampleSizeBound(
        name="asspp_private_explicit",
        expression=priv_expr,
        values=dict(values),
        source="ABM Thm 3.1 / Alg 1 (explicit: BNS Prop 21 + Hoeffding over the cover)",
        setting=setting,
        constants_explicit=True,
        kind="upper",
        order_constant=None,
    )
    pub = SampleSizeBound(
        name="asspp_public_explicit",
        expression=4 / ALPHA * (2 * LOG_SIZE + sp.log(2 / BETA)),
        values=dict(values),
        source="ABM Lemma 3.3 (explicit: union bound over pairs of C)",
        setting=setting,
        constants_explicit=True,
        kind="upper",
        order_constant=None,
    )
    return priv, pub


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
    dimcalc.sample_size.OutOfRangeError: The 'alpha' parameter of public_sample_lower_bound must satisfy alpha <= 1/100 (ABM Lemma 4.4: the range ABM Thms 4.1-4.2 is stated for). Got 0.4 instead.
    """
    owner = "public_sample_lower_bound"
    values = {
        "alpha": _check_unit("alpha", owner, alpha),
        "epsilon": _check_eps(owner, epsilon),
        "beta": _check_unit("beta", owner, beta),
        "delta": _check_unit("delta", owner, delta, closed_low=True),
        "num_labels": _check_int("num_labels", owner, num_labels, 2),
    }
    conditions = (
        _cond(ALPHA <= sp.Rational(1, 100), "ABM Lemma 4.4", "alpha"),
        _cond(EPSILON <= sp.Rational(1, 10), "ABM Thms 4.1-4.2: a (0.1, delta)-private learner", "epsilon"),
        _cond(BETA <= sp.Rational(1, 18), "ABM Lemma 4.4: an (alpha, 1/18)-accurate learner", "beta"),
        _cond(sp.Eq(NUM_LABELS, 2), "ABM: binary classes", "num_labels"),
    )
    notes = [
        "applies to families of unbounded Littlestone dimension (Thm 4.1) or not pure-privately learnable "
        "(Thm 4.2); a finite class is pure-privately learnable (BNS Thm 27)"
    ]
    if values["delta"] > 0:
        notes.append(
            "delta > 0: Thm 4.1, for learners whose private sample n has delta <= 1/(100 n^2 log n) (ABM Thm 4.3)"
        )
    return _enforce(
        SampleSizeBound(
            name="public_sample_lower_bound",
            expression=1 / (1600 * ALPHA),
            values=values,
            source="ABM Thms 4.1-4.2 (Lemma 4.4; infinite Littlestone dimension / not pure-privately learnable)",
            setting=_setting(
                "agnostic", False, "pure" if values["delta"] == 0 else "approximate", data="public+private"
            ),
            constants_explicit=True,
            kind="lower",
            order_constant=None,
            notes=tuple(notes),
            conditions=conditions,
        ),
        owner,
    )


# --------------------------------------------------------------------------- multiclass (BGS)
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
    alpha = _check_unit("alpha", owner, alpha)
    beta = _check_unit("beta", owner, beta)
    b = len(bounds)
    B = _symbol("b", positive=True, integer=True)
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
    values.update({"alpha": alpha, "beta": beta, "b": b})
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
        setting=_setting("PAC", False, privacy),
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
    values = {
        "d": _check_int("littlestone", owner, littlestone, 0),
        "alpha": _check_unit("alpha", owner, alpha),
        "beta": _check_unit("beta", owner, beta),
        "epsilon": _check_eps(owner, epsilon),
        "delta": _check_unit("delta", owner, delta),
        "c": _order(owner, order_constant),
    }
    expr = ORDER_CONSTANT * D**6 * sp.log(D / (ALPHA * BETA * EPSILON * DELTA)) ** 2 / (EPSILON * ALPHA**2)
    if values["d"] == 0:
        expr = sp.Integer(0) * ORDER_CONSTANT
    return _enforce(
        SampleSizeBound(
            name="ggkm_littlestone",
            expression=expr,
            values=values,
            source="BGS Thm 3.6 (GGKM20 Thm 6.4)",
            setting=_setting("PAC", False, "approximate"),
            constants_explicit=False,
            kind="upper",
            order_constant=values["c"],
            conditions=(_BGS36_EPS,),
        ),
        owner,
    )


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
    num_labels = _check_int("num_labels", owner, num_labels, 2)
    alpha = _check_unit("alpha", owner, alpha)
    beta = _check_unit("beta", owner, beta)
    epsilon = _check_eps(owner, epsilon)
    _precheck(owner, {"epsilon": epsilon}, "BGS Cor 3.3/3.5 (with Thm 3.6)", _BGS36_EPS)
    delta = _check_unit("delta", owner, delta)
    oc = _order(owner, order_constant)
    bits = max(1, math.ceil(math.log2(num_labels)))
    candidates = []
    if restriction_littlestone is not None:
        dims = [_check_int("restriction_littlestone", owner, d, 0) for d in restriction_littlestone]
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
                setting=_setting("PAC", False, "approximate"),
                conditions=(_BGS36_EPS,),
            )
        )
    if multiclass_littlestone is not None:
        d = _check_int("multiclass_littlestone", owner, multiclass_littlestone, 0)
        KL = _symbol("num_labels", positive=True, integer=True)
        B = _symbol("b", positive=True, integer=True)
        dl = 6 * D * sp.log(KL)
        inner = dl**6 * sp.log(dl / ((ALPHA / B) * (BETA / B) * EPSILON * DELTA)) ** 2 / (EPSILON * (ALPHA / B) ** 2)
        expr = ORDER_CONSTANT * B * inner if d > 0 else sp.Integer(0) * ORDER_CONSTANT
        candidates.append(
            SampleSizeBound(
                name="multiclass_littlestone_cor35",
                expression=expr,
                values={
                    "d": d,
                    "num_labels": num_labels,
                    "b": bits,
                    "alpha": alpha,
                    "beta": beta,
                    "epsilon": epsilon,
                    "delta": delta,
                    "c": oc,
                },
                source="BGS Cor 3.5 (Thm 3.1 + Thm 3.4 + Thm 3.6)",
                setting=_setting("PAC", False, "approximate"),
                constants_explicit=False,
                kind="upper",
                order_constant=oc,
                conditions=(_BGS36_EPS,),
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
    epsilon = _check_eps(owner, epsilon)
    values = {
        "d": _check_int("multiclass_littlestone", owner, multiclass_littlestone, 0),
        "num_labels": _check_int("num_labels", owner, num_labels, 2),
        "alpha": _check_unit("alpha", owner, alpha),
        "beta": _check_unit("beta", owner, beta),
        "epsilon": epsilon,
        "delta": _check_unit("delta", owner, delta),
        "c": _order(owner, order_constant),
    }
    KL = _symbol("num_labels", positive=True, integer=True)
    lg = sp.log(KL) / sp.log(2)
    expr = ORDER_CONSTANT * D**6 * lg**8 * sp.log(D * lg**3 / (EPSILON * DELTA * ALPHA * BETA)) ** 4 / (EPSILON * ALPHA)
    if values["d"] == 0:
        expr = sp.Integer(0) * ORDER_CONSTANT
    return _enforce(
        SampleSizeBound(
            name="bgs_boosted",
            expression=expr,
            values=values,
            source="BGS Thm 3.7 (App. A boosting)",
            setting=_setting("PAC", False, "approximate"),
            constants_explicit=False,
            kind="upper",
            order_constant=values["c"],
            conditions=(_BGS37_EPS,),
        ),
        owner,
    )


# --------------------------------------------------------------------------- representation dimension
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
    R = _symbol("repdim", nonnegative=True)
    values = {
        "repdim": _check_nonneg("repdim", owner, repdim),
        "alpha": _check_unit("alpha", owner, alpha),
        "beta": _check_unit("beta", owner, beta),
        "epsilon": _check_eps(owner, epsilon),
        "c": _order(owner, order_constant),
    }
    return SampleSizeBound(
        name="repdim_learner",
        expression=ORDER_CONSTANT * (R + sp.log(1 / BETA)) / (ALPHA * EPSILON),
        values=values,
        source="BGS Lemma 8.3 (BNS19 Lemma 14)",
        setting=_setting("PAC", False, "pure"),
        constants_explicit=False,
        kind="upper",
        order_constant=values["c"],
    )


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
    >>> representation_learner_sample_size(size=math.log(6), alpha=0.3, beta=0.2, epsilon=1.0,
    ...                                    rep_beta=0.05).samples
    192
    """
    owner = "representation_learner_sample_size"
    size = _check_nonneg("size", owner, size)
    alpha = _check_unit("alpha", owner, alpha)
    beta = _check_unit("beta", owner, beta)
    epsilon = _check_eps(owner, epsilon)
    if isinstance(rep_alpha, bool) or not isinstance(rep_alpha, (int, float)) or not (0 <= rep_alpha <= alpha / 6):
        raise parameter_error("rep_alpha", owner, f"a float in [0, alpha/6 = {alpha / 6:g}]", rep_alpha)
    if isinstance(rep_beta, bool) or not isinstance(rep_beta, (int, float)) or not (0 <= rep_beta < beta):
        raise parameter_error("rep_beta", owner, f"a float in [0, beta = {beta:g})", rep_beta)
    S = _symbol("size", nonnegative=True)
    RB = _symbol("rep_beta", nonnegative=True)
    t = ALPHA / 6
    fail = sp.log(3 / (BETA - RB))
    expr = sp.Max(3 / t * fail, 2 / (t * EPSILON) * (S + fail), 4 / (3 * t) * (S + fail))
    return SampleSizeBound(
        name="representation_learner",
        expression=expr,
        values={"size": size, "alpha": alpha, "beta": beta, "epsilon": epsilon, "rep_beta": float(rep_beta)},
        source="BGS Lemma 8.3 (explicit: Chernoff + BNS Prop 21)",
        setting=_setting("PAC", False, "pure"),
        constants_explicit=True,
        kind="upper",
        order_constant=None,
    )


def prdim_sample_size(
    *, prdim: float, alpha: float, beta: float, epsilon: float, agnostic: bool = False, order_constant: float = 1
) -> SampleSizeBound:
    """Pure-DP sample complexity from the probabilistic representation dimension (FX Thm 2.5, upper).

    FX write ``SCDP_{alpha, eps, delta}`` with ``alpha`` the *privacy* and
    ``(eps, delta)`` the *accuracy* parameters; in dimcalc's names
    (``alpha`` accuracy, ``beta`` confidence, ``epsilon`` privacy):
    ``O(1/(alpha epsilon) (log(1/alpha) (PRDim + log log(1/(alpha beta))) + log(1/beta)))``,
    and for agnostic learning the factor ``1/(alpha epsilon)`` becomes
    ``1/(alpha epsilon) + 1/alpha^2``.  ``PRDim = PRDim_{1/4,1/4}``.  As usual inside
    ``O(.)``, ``log log(1/(alpha beta))`` is read as ``log max(e, log(1/(alpha beta)))`` (at least 1),
    so the expression is positive for every ``alpha, beta`` in (0, 1).

    References
    ----------
    FX Theorem 2.5 (Kasiviswanathan et al. 2011; Beimel et al. 2013a).

    Examples
    --------
    >>> prdim_sample_size(prdim=1.0, alpha=0.1, beta=0.1, epsilon=1.0).kind
    'upper'
    """
    owner = "prdim_sample_size"
    P = _symbol("prdim", nonnegative=True)
    values = {
        "prdim": _check_nonneg("prdim", owner, prdim),
        "alpha": _check_unit("alpha", owner, alpha),
        "beta": _check_unit("beta", owner, beta),
        "epsilon": _check_eps(owner, epsilon),
        "c": _order(owner, order_constant),
    }
    factor = 1 / (ALPHA * EPSILON) + (1 / ALPHA**2 if agnostic else 0)
    # O(.) convention: the iterated logarithm is read as log(max(e, log(1/(alpha beta)))), so the
    # expression stays positive when alpha * beta is close to 1 (unchanged for alpha * beta <= 1/16).
    body = sp.log(1 / ALPHA) * (P + sp.log(sp.Max(sp.E, sp.log(1 / (ALPHA * BETA))))) + sp.log(1 / BETA)
    return SampleSizeBound(
        name="prdim_learner" + ("_agnostic" if agnostic else ""),
        expression=ORDER_CONSTANT * factor * body,
        values=values,
        source="FX Thm 2.5 (upper" + (", agnostic)" if agnostic else ")"),
        setting=_setting("agnostic" if agnostic else "PAC", False, "pure"),
        constants_explicit=False,
        kind="upper",
        order_constant=values["c"],
    )


def line_learner_sample_size(
    *, alpha: float, beta: float, epsilon: float, delta: float, order_constant: float = 1
) -> SampleSizeBound:
    """Approximate-DP learner for Line_p (FX Thm 6.1, stated as Thm 1.3).

    FX Thm 6.1 in dimcalc's names: ``O(1/(alpha epsilon) log(1/delta) log(1/beta))``
    examples (independent of ``p``) for an ``(epsilon, delta)``-DP,
    ``(alpha, beta)``-accurate improper learner, for ``alpha, beta, epsilon,
    delta`` in ``(0, 1/2)`` (other values are refused).

    References
    ----------
    FX Theorem 6.1 and Theorem 1.3 (§6).

    Examples
    --------
    >>> line_learner_sample_size(alpha=0.1, beta=0.1, epsilon=0.4, delta=1e-6).expression
    c*log(1/beta)*log(1/delta)/(alpha*epsilon)
    """
    owner = "line_learner_sample_size"
    values: dict[str, Any] = {
        "alpha": _check_unit("alpha", owner, alpha),
        "beta": _check_unit("beta", owner, beta),
        "epsilon": _check_eps(owner, epsilon),
        "delta": _check_unit("delta", owner, delta),
    }
    values["c"] = _order(owner, order_constant)
    return _enforce(
        SampleSizeBound(
            name="line_learner",
            expression=ORDER_CONSTANT * sp.log(1 / DELTA) * sp.log(1 / BETA) / (ALPHA * EPSILON),
            values=values,
            source="FX Thm 6.1 / Thm 1.3 (Line_p)",
            setting=_setting("PAC", False, "approximate"),
            constants_explicit=False,
            kind="upper",
            order_constant=values["c"],
            conditions=tuple(
                _cond(sym < sp.Rational(1, 2), "FX Thm 6.1: epsilon, delta, alpha, beta in (0, 1/2)", sym.name)
                for sym in (ALPHA, BETA, EPSILON, DELTA)
            ),
        ),
        owner,
    )


# --------------------------------------------------------------------------- lower bounds
def _lower(
    name: str,
    expr: sp.Expr,
    values: dict,
    source: str,
    setting: dict,
    explicit: bool = False,
    notes: tuple = (),
    conditions: tuple = (),
    owner: str | None = None,
) -> SampleSizeBound:
    bound = SampleSizeBound(
        name=name,
        expression=expr,
        values=values,
        source=source,
        setting=setting,
        constants_explicit=explicit,
        kind="lower",
        order_constant=None if explicit else values.get("c", 1),
        notes=notes,
        conditions=conditions,
    )
    return _enforce(bound, owner or name)


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
    values = {
        "d": _check_int("vc", owner, vc, 0),
        "alpha": _check_unit("alpha", owner, alpha),
        "c": _order(owner, order_constant),
    }
    expr = ORDER_CONSTANT * D / (ALPHA**2 if agnostic else ALPHA)
    return _lower(
        "vc_lower" + ("_agnostic" if agnostic else ""),
        expr,
        values,
        "BNS §2.2 (after Cor 13)",
        _setting("agnostic" if agnostic else "PAC", False, "none"),
        notes=("order of growth: the classical statements need alpha, beta below small constants",),
        owner=owner,
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
    values = {
        "k": _check_int("k", owner, k, 1),
        "epsilon": _check_eps(owner, epsilon),
        "beta": _check_unit("beta", owner, beta),
        "c": _order(owner, order_constant),
    }
    return _lower(
        "pure_k_lower",
        ORDER_CONSTANT * K / EPSILON,
        values,
        "BNS Thm 52 (packing; |C| >= 2)",
        _setting("PAC", False, "pure", "k"),
        conditions=(_cond(BETA <= sp.Rational(1, 2), "BNS Thm 52: beta = 1/2", "beta"),),
        owner=owner,
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
    values = {
        "d": _check_int("d", owner, d, 1),
        "k": _check_int("k", owner, k, 1),
        "epsilon": _check_eps(owner, epsilon),
        "alpha": _check_unit("alpha", owner, alpha, closed_low=True),
        "beta": _check_unit("beta", owner, beta),
        "c": _order(owner, order_constant),
    }
    return _lower(
        "parity_pure_lower",
        ORDER_CONSTANT * K * D / EPSILON,
        values,
        "BNS Thm 55",
        _setting("PAC", False, "pure", "k"),
        conditions=(
            _cond(ALPHA < sp.Rational(1, 4), "BNS Thm 55 / Lemma 54: alpha < 1/4", "alpha"),
            _cond(BETA <= sp.Rational(1, 2), "BNS Thm 55: beta = 1/2", "beta"),
        ),
        owner=owner,
    )


def _fingerprinting_conditions(theorem: str) -> tuple:
    # Thm 43 / Thm 47: alpha <= 1/3 and delta < (1 - xi - beta)/n' - e^eps xi for the empirical
    # learner's n' (xi -> 0 is absorbed in the log factors); Thm 28 turns a PAC learner with n samples
    # into an empirical learner with n' = 9n, for epsilon <= 1.  With n the row's own (PAC) number:
    # delta < (1 - beta)/(9 n), the numeric reading of "delta = o(1/n)".
    return (
        _cond(ALPHA <= sp.Rational(1, 3), f"{theorem}: alpha <= 1/3", "alpha"),
        _cond(
            EPSILON <= 1, "BNS Thm 28 (PAC -> empirical learner): epsilon <= 1; Cor 46/50: epsilon = O(1)", "epsilon"
        ),
        _cond(
            DELTA < (1 - BETA) / (9 * SAMPLES),
            f"{theorem} with Thm 28: delta < (1 - beta)/n' for the empirical learner's n' = 9n (delta = o(1/n))",
            "delta",
        ),
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
    owner = "threshold_k_learner_lower_bound"
    values = {
        "k": _check_int("k", owner, k, 1),
        "alpha": _check_unit("alpha", owner, alpha),
        "domain_size": _check_int("domain_size", owner, domain_size, 1),
        "epsilon": _check_eps(owner, epsilon),
        "delta": _check_unit("delta", owner, delta, closed_low=True),
        "beta": _check_unit("beta", owner, beta),
        "c": _order(owner, order_constant),
    }
    return _lower(
        "threshold_k_lower",
        sp.Min(DOMAIN_SIZE, ORDER_CONSTANT * K ** sp.Rational(1, 3) / ALPHA) / 9,
        values,
        "BNS Cor 46 (fingerprinting codes; empirical learners) via Thm 28 (PAC: 1/9 of it)",
        _setting("PAC", False, "approximate", "k"),
        notes=("log factors of Omega~ dropped",),
        conditions=_fingerprinting_conditions("BNS Thm 43"),
        owner=owner,
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
    owner = "agnostic_k_learner_lower_bound"
    values = {
        "k": _check_int("k", owner, k, 1),
        "domain_size": _check_int("domain_size", owner, domain_size, 1),
        "alpha": _check_unit("alpha", owner, alpha),
        "epsilon": _check_eps(owner, epsilon),
        "delta": _check_unit("delta", owner, delta, closed_low=True),
        "beta": _check_unit("beta", owner, beta),
        "c": _order(owner, order_constant),
    }
    return _lower(
        "agnostic_k_lower",
        sp.Min(DOMAIN_SIZE, ORDER_CONSTANT * sp.sqrt(K)) / 9,
        values,
        "BNS Cor 50 / Thm 47 (fingerprinting codes; empirical learners) via Thm 28 (PAC: 1/9 of it)",
        _setting("agnostic", False, "approximate", "k"),
        notes=("log factors of Omega~ dropped",),
        conditions=_fingerprinting_conditions("BNS Thm 47"),
        owner=owner,
    )


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
    R = _symbol("repdim", nonnegative=True)
    values = {
        "repdim": _check_nonneg("repdim", owner, repdim),
        "alpha": _check_unit("alpha", owner, alpha),
        "epsilon": _check_eps(owner, epsilon),
        "beta": _check_unit("beta", owner, beta),
        "num_labels": _check_int("num_labels", owner, num_labels, 2),
        "c": _order(owner, order_constant),
    }
    expr = ORDER_CONSTANT * sp.Max(0, R - sp.log(NUM_LABELS)) / (ALPHA * EPSILON)
    return _lower(
        "repdim_lower",
        expr,
        values,
        "BGS Lemma 8.5 (FX Thm 2.5 lower bound)",
        _setting("PAC", False, "pure"),
        conditions=(
            _cond(ALPHA <= sp.Rational(1, 4), "BGS Lemma 8.5 (proof: mass 1 - 4 alpha)", "alpha"),
            _cond(BETA <= sp.Rational(1, 2), "BGS Lemma 8.5: (alpha, 1/2)-accurate", "beta"),
        ),
        owner=owner,
    )


# --------------------------------------------------------------------------- the table for a class
@dataclass(frozen=True)
class SampleSizeTable:
    """The sample-size bounds that apply to one class, with the dimensions used.

    Attributes
    ----------
    class_summary : dict
        ``H.summary()``.
    parameters : dict
        ``alpha, beta, epsilon, delta, concepts, public``.
    dimensions : dict
        Kind -> ``DimensionResult.to_json()`` of every dimension computed.
    rows : list of SampleSizeBound
        Every row is inside the range its theorem is stated for (``row.in_range``).
    exact : bool
        False when some dimension was only bounded (time limit); the rows then
        use sound bounds and say so in their notes.
    omitted : list of dict
        The bounds left out because the parameters are outside their theorem's range:
        ``{"name", "source", "kind", "failed": [condition text (source), ...]}``.
    """

    class_summary: dict
    parameters: dict
    dimensions: dict
    rows: list
    exact: bool = True
    omitted: list = field(default_factory=list)

    def __iter__(self):
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def to_json(self) -> dict:
        return {
            "class": self.class_summary,
            "parameters": {k: _jsonable(v) for k, v in self.parameters.items()},
            "dimensions": self.dimensions,
            "exact": self.exact,
            "rows": [r.to_json() for r in self.rows],
            "omitted": list(self.omitted),
        }


def _dimension_bounds(result: Any, name: str) -> tuple[int | None, int | None, str | None]:
    """(lower, upper, note) of a DimensionResult; note set when it is not exact."""
    if result is None or (result.value is None and result.lower is None):
        return None, None, None
    if result.exact:
        return result.value, result.value, None
    return (
        result.lower,
        result.upper,
        (
            f"{name} not exact (time limit): proven bounds [{result.lower}, "
            f"{result.upper}]; upper bounds use {result.upper}, lower bounds use "
            f"{result.lower}"
        ),
    )


def _with_note(bound: SampleSizeBound, *notes: str | None) -> SampleSizeBound:
    extra = tuple(n for n in notes if n)
    return replace(bound, notes=tuple(bound.notes) + extra) if extra else bound


def sample_size_table(
    H: Any,
    *,
    alpha: float,
    beta: float,
    epsilon: float,
    delta: float = 0,
    concepts: int = 1,
    public: bool = False,
    time_limit: float | None = None,
) -> SampleSizeTable:
    """Compute the class's dimensions and every sample-size bound that applies to it.

    Dimensions: VC (binary classes) or graph/Natarajan (multiclass) via
    :mod:`dimcalc.vc`, Littlestone (binary), multiclass Littlestone and the
    Littlestone dimensions of the binary restrictions (multiclass) via
    :mod:`dimcalc.littlestone`, and ``ln |H|`` (distinct hypotheses).  A
    dimension stopped by the time limit is replaced by its proven *upper*
    bound in upper-bound rows and its proven *lower* bound in lower-bound
    rows; those rows say so in ``notes``.

    Rows (each a :class:`SampleSizeBound` with its source):

    * one concept, private data: the exponential-mechanism learner (explicit,
      PAC and agnostic), BNS Thm 27, the VC bounds of BNS Thms 8-9 (binary),
      with the ERM version of Thm 9 (error ``<= OPT + alpha``),
      the non-private lower bounds of BNS §2.2 (with the Natarajan dimension
      for a multiclass class), the representation learner with the
      trivial representation ``{H}`` (``RepDim <= ln|H|``), BGS Thm 3.1 with
      per-bit exponential-mechanism learners (multiclass), and with ``delta > 0``
      BGS Thm 3.6 / Cor 3.3 / Cor 3.5 / Thm 3.7 (at ``min(epsilon, 1)``,
      resp. ``min(epsilon, 1/4)``: the ranges the theorems are stated for);
    * ``concepts = k > 1``: BNS Obs 32 (basic, and advanced with ``delta > 0``
      when its per-run epsilon is below 1, the range of BNS Thm 17.2),
      Thm 31 (O(.)) and the explicit size of dimcalc's GenericLearner (BNS Lemma 36 with
      MWEM), Thm 40 / Thm 39 for point functions / parities (by the class's
      generator metadata), and the lower bounds of BNS Thm 52, 55, Cor 46, 50;
    * ``public=True``: ASSPP's explicit sizes and ABM Thm 3.1, and the public
      lower bound of ABM Thms 4.1-4.2 (informative for families only).

    **Theorem ranges.**  Every row carries the conditions its theorem is stated
    for (:attr:`SampleSizeBound.conditions`).  A row outside them is never
    returned: an upper bound stated for ``epsilon <= e0`` (BGS Thms 3.6, 3.7) is
    *capped* (evaluated at ``e0``: an ``(e0, delta)``-DP learner is
    ``(epsilon, delta)``-DP) with a note; every other row is *omitted* and listed in
    :attr:`SampleSizeTable.omitted` with the conditions that failed (e.g. ABM's
    public lower bound needs ``alpha <= 1/100``, ``epsilon <= 1/10``, ``beta <= 1/18``
    and a binary class; BNS Cor 46/50 as PAC bounds need ``alpha <= 1/3``,
    ``epsilon <= 1`` and ``delta < (1 - beta)/(9 n)``; BNS Thm 55 needs ``alpha < 1/4``).

    Parameters
    ----------
    H : HypothesisClass
    alpha, beta : float in (0, 1)
    epsilon : float > 0
    delta : float in [0, 1)
    concepts : int >= 1
    public : bool
    time_limit : float, optional
        Seconds for all dimension computations together.

    Returns
    -------
    SampleSizeTable

    References
    ----------
    The sources of the rows: BNS Thms 8, 9, 17, 27, 31, 39, 40, 52, 55, Cors 46, 50, §2.2;
    ABM Thm 3.1, Lemma 3.3, Thms 4.1-4.2; BGS Thms 3.1, 3.6, 3.7, Cors 3.3, 3.5, Lemma 8.3.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass([[int(x >= t) for x in range(4)] for t in range(5)])
    >>> table = sample_size_table(H, alpha=0.1, beta=0.1, epsilon=1.0)
    >>> table.dimensions["vc"]["value"], table.dimensions["littlestone"]["value"]
    (1, 2)
    >>> [r.source for r in table.rows][0]
    'BNS Thm 27 / Prop 21 (explicit constants: Chernoff/Hoeffding union bound over C)'
    """
    from ._budget import Deadline, check_time_limit
    from .hypothesis_class import HypothesisClass, label_bits

    owner = "sample_size_table"
    if not isinstance(H, HypothesisClass):
        raise parameter_error("H", owner, "a dimcalc.HypothesisClass", type(H).__name__)
    alpha = _check_unit("alpha", owner, alpha)
    beta = _check_unit("beta", owner, beta)
    epsilon = _check_eps(owner, epsilon)
    delta = _check_unit("delta", owner, delta, closed_low=True)
    k = _check_int("concepts", owner, concepts, 1)
    time_limit = check_time_limit(time_limit, owner)
    deadline = Deadline(time_limit)

    def remaining() -> float | None:
        rem = deadline.remaining()
        return None if rem is None else max(rem, 1e-3)

    from . import littlestone as ls
    from . import vc as vcmod

    dims: dict[str, Any] = {}
    if H.is_binary:
        dims["vc"] = vcmod.vc_dimension(H, time_limit=remaining())
        dims["littlestone"] = ls.littlestone_dimension(H, time_limit=remaining())
    else:
        dims["graph"] = vcmod.graph_dimension(H, time_limit=remaining())
        dims["natarajan"] = vcmod.natarajan_dimension(H, time_limit=remaining())
        dims["multiclass_littlestone"] = ls.multiclass_littlestone_dimension(H, time_limit=remaining())
        restriction = ls.binary_restriction_littlestone(H, time_limit=remaining())
        for i, r in enumerate(restriction, start=1):
            dims[f"littlestone|{i}"] = r
    exact = all(r.exact for r in dims.values())
    log_size = math.log(H.n_distinct)
    rows: list[SampleSizeBound] = []
    pure = delta == 0

    vc_lo = vc_hi = None
    vc_note = lower_note = None
    if H.is_binary:
        vc_lo, vc_hi, vc_note = _dimension_bounds(dims["vc"], "VC dimension")
        lower_note = vc_note
    else:
        # Thms 8-9 are for binary classes.  The Omega(d/alpha) lower bounds carry over with the
        # Natarajan dimension: on a Natarajan-shattered set the class contains every mix of two
        # label vectors f0, f1, a binary class of VC dimension d_N.  (The graph dimension does not
        # give a lower bound: a label may name the hypothesis, BGS / Daniely et al.)
        vc_lo, _, lower_note = _dimension_bounds(dims["natarajan"], "Natarajan dimension")

    omitted: list[dict] = []

    def attempt(make: Any, *notes: str | None, **kwargs: Any) -> None:
        """Add the bound ``make(**kwargs)`` to the rows, or record it as omitted (outside its range)."""
        try:
            bound = make(**kwargs)
        except OutOfRangeError as err:
            omitted.append(
                {
                    "name": err.bound.name,
                    "source": err.bound.source,
                    "kind": err.bound.kind,
                    "failed": [str(c) for c in err.failed],
                }
            )
            return
        rows.append(_with_note(bound, *notes))

    # ---- one concept
    rows.append(exponential_mechanism_sample_size(log_size=log_size, alpha=alpha, beta=beta, epsilon=epsilon))
    rows.append(
        exponential_mechanism_sample_size(log_size=log_size, alpha=alpha, beta=beta, epsilon=epsilon, agnostic=True)
    )
    rows.append(generic_learner_sample_size(log_size=log_size, alpha=alpha, beta=beta, epsilon=epsilon))
    rows.append(
        _with_note(
            repdim_sample_size(repdim=log_size, alpha=alpha, beta=beta, epsilon=epsilon),
            "RepDim <= ln|H| (the trivial representation {H}): a sound upper bound",
        )
    )
    if H.is_binary and vc_hi is not None:
        rows.append(_with_note(vc_sample_size(vc=vc_hi, alpha=alpha, beta=beta), vc_note))
        rows.append(_with_note(vc_sample_size(vc=vc_hi, alpha=alpha, beta=beta, agnostic=True), vc_note))
        rows.append(_with_note(vc_sample_size(vc=vc_hi, alpha=alpha, beta=beta, agnostic=True, erm=True), vc_note))
    if vc_lo is not None:
        note = None if H.is_binary else "Natarajan dimension in place of VC (multiclass)"
        attempt(vc_lower_bound, lower_note, note, vc=vc_lo, alpha=alpha)
        attempt(vc_lower_bound, lower_note, note, vc=vc_lo, alpha=alpha, agnostic=True)
    if not H.is_binary:
        bits = label_bits(H.num_labels)
        per_bit = []
        for i in range(1, bits + 1):
            restricted = HypothesisClass((H.distinct_rows >> (i - 1)) & 1, num_labels=2)
            per_bit.append(
                exponential_mechanism_sample_size(
                    log_size=math.log(restricted.n_distinct), alpha=alpha, beta=beta, epsilon=epsilon
                )
            )
        rows.append(multiclass_reduction_sample_size(binary_bounds=per_bit, alpha=alpha, beta=beta))
    if not pure:
        # BGS Thm 3.6 holds for epsilon <= 1 and Thm 3.7 for epsilon <= 1/4; for a larger epsilon
        # the bound at the cap applies (an (e, delta)-DP learner is (epsilon, delta)-DP for e <= epsilon).
        eps36, eps37 = min(epsilon, 1), min(epsilon, Fraction(1, 4))
        note36 = (
            (
                f"BGS Thm 3.6 is stated for epsilon <= 1: bound at epsilon = 1 (a (1, delta)-DP learner is "
                f"({number_text(epsilon)}, delta)-DP)"
            )
            if epsilon > 1
            else None
        )
        note37 = (
            (
                f"BGS Thm 3.7 is stated for epsilon <= 1/4: bound at epsilon = 1/4 (a (1/4, delta)-DP learner "
                f"is ({number_text(epsilon)}, delta)-DP)"
            )
            if epsilon > Fraction(1, 4)
            else None
        )
        if H.is_binary:
            lo, hi, note = _dimension_bounds(dims["littlestone"], "Littlestone dimension")
            attempt(ggkm_sample_size, note, note36, littlestone=hi, alpha=alpha, beta=beta, epsilon=eps36, delta=delta)
        else:
            parts = [
                _dimension_bounds(dims[f"littlestone|{i}"], f"Littlestone dimension of H|{i}")
                for i in range(1, label_bits(H.num_labels) + 1)
            ]
            mlo, mhi, mnote = _dimension_bounds(dims["multiclass_littlestone"], "multiclass Littlestone dimension")
            attempt(
                multiclass_littlestone_sample_size,
                *[p[2] for p in parts],
                note36,
                alpha=alpha,
                beta=beta,
                epsilon=eps36,
                delta=delta,
                num_labels=H.num_labels,
                restriction_littlestone=[p[1] for p in parts],
            )
            attempt(
                multiclass_littlestone_sample_size,
                mnote,
                note36,
                alpha=alpha,
                beta=beta,
                epsilon=eps36,
                delta=delta,
                num_labels=H.num_labels,
                multiclass_littlestone=mhi,
            )
            attempt(
                bgs_boosted_sample_size,
                mnote,
                note37,
                multiclass_littlestone=mhi,
                num_labels=H.num_labels,
                alpha=alpha,
                beta=beta,
                epsilon=eps37,
                delta=delta,
            )

    # ---- k concepts
    if k > 1:
        single = exponential_mechanism_sample_size(
            log_size=log_size, alpha=alpha, beta=beta, epsilon=epsilon, agnostic=True
        )
        rows.append(composition_sample_size(single=single, k=k, epsilon=epsilon, delta=delta))
        if not pure:  # omitted (and listed) when the per-run epsilon reaches 1, outside BNS Thm 17.2
            attempt(composition_sample_size, single=single, k=k, epsilon=epsilon, delta=delta, advanced=True)
        if H.is_binary and vc_hi is not None:
            attempt(
                generic_k_learner_sample_size,
                vc_note,
                vc=vc_hi,
                k=k,
                alpha=alpha,
                beta=beta,
                epsilon=epsilon,
                delta=delta,
                domain_size=H.n_points,
                log_size=log_size,
            )
        if H.is_binary:  # the size of the GenericLearner dimcalc runs (explicit), beside Thm 31's O(.)
            n_c = H.n_distinct
            attempt(
                generic_learner_mwem_sample_size,
                "|C xor C| bounded by |C|(|C|-1)/2 + 1 (the learner counts it exactly)",
                log_size=log_size,
                n_queries=n_c * (n_c - 1) // 2 + 1,
                domain_size=H.n_points,
                k=k,
                alpha=alpha,
                beta=beta,
                epsilon=epsilon,
                delta=delta,
            )
        family = H.metadata.get("family")
        params = H.metadata.get("params", {}) or {}
        if not pure and family == "point-functions":
            rows.append(
                point_k_learner_sample_size(
                    domain_size=H.n_points, k=k, alpha=alpha, beta=beta, epsilon=epsilon, delta=delta
                )
            )
        if family == "parities" and isinstance(params.get("d"), int):
            if not pure:
                rows.append(parity_k_learner_sample_size(d=params["d"], k=k, beta=beta, epsilon=epsilon, delta=delta))
            else:
                attempt(parity_pure_lower_bound, d=params["d"], k=k, epsilon=epsilon, alpha=alpha, beta=beta)
        if H.n_distinct >= 2:
            if pure:
                attempt(pure_k_learner_lower_bound, k=k, epsilon=epsilon, beta=beta)
            else:
                attempt(
                    agnostic_k_learner_lower_bound,
                    k=k,
                    domain_size=H.n_points,
                    alpha=alpha,
                    epsilon=epsilon,
                    delta=delta,
                    beta=beta,
                )
                if family == "thresholds":
                    attempt(
                        threshold_k_learner_lower_bound,
                        k=k,
                        alpha=alpha,
                        domain_size=H.n_points,
                        epsilon=epsilon,
                        delta=delta,
                        beta=beta,
                    )

    # ---- public data
    if public:
        priv, pub = asspp_sample_size(log_size=log_size, alpha=alpha, beta=beta, epsilon=epsilon)
        rows += [priv, pub]
        if H.is_binary and vc_hi is not None:
            rows += [
                _with_note(b, vc_note)
                for b in abm_semi_private_sample_size(vc=vc_hi, alpha=alpha, beta=beta, epsilon=epsilon)
            ]
        attempt(
            public_sample_lower_bound, alpha=alpha, epsilon=epsilon, beta=beta, delta=delta, num_labels=H.num_labels
        )

    assert all(r.in_range for r in rows), [r.name for r in rows if not r.in_range]
    parameters = {
        "alpha": alpha,
        "beta": beta,
        "epsilon": epsilon,
        "delta": delta,
        "concepts": k,
        "public": bool(public),
    }
    return SampleSizeTable(
        class_summary=H.summary(),
        parameters=parameters,
        dimensions={name: r.to_json() | {"lower": r.lower, "upper": r.upper} for name, r in dims.items()},
        rows=rows,
        exact=exact,
        omitted=omitted,
    )
