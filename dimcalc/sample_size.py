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
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Mapping

import sympy as sp

from .errors import parameter_error

__all__ = [
    "SampleSizeBound",
    "ALPHA", "BETA", "EPSILON", "DELTA", "K", "D", "LOG_SIZE", "DOMAIN_SIZE", "ORDER_CONSTANT",
    "generic_learner_sample_size",
    "exponential_mechanism_sample_size",
    "vc_sample_size",
    "composition_sample_size",
    "advanced_composition_epsilon",
    "generic_k_learner_sample_size",
    "point_k_learner_sample_size",
    "parity_k_learner_sample_size",
]

# --------------------------------------------------------------------------- symbols
ALPHA = sp.Symbol("alpha", positive=True)
BETA = sp.Symbol("beta", positive=True)
EPSILON = sp.Symbol("epsilon", positive=True)
DELTA = sp.Symbol("delta", positive=True)
K = sp.Symbol("k", positive=True, integer=True)
D = sp.Symbol("d", nonnegative=True, integer=True)
LOG_SIZE = sp.Symbol("log_size", nonnegative=True)       # ln |C|
DOMAIN_SIZE = sp.Symbol("domain_size", positive=True, integer=True)  # |X|
ORDER_CONSTANT = sp.Symbol("c", positive=True)            # the unspecified O(.) constant

_TASKS = ("PAC", "agnostic")
_PRIVACY = ("pure", "approximate", "none")


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
        Symbol name -> number substituted for it.
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
        Caveats: dimensions replaced by sound bounds, variants, ...

    Examples
    --------
    >>> b = vc_sample_size(vc=1, alpha=0.1, beta=0.05)
    >>> b.expression
    64*(d*log(64/alpha) + log(8/beta))/alpha
    >>> b.samples, b.constants_explicit, b.kind
    (7384, True, 'upper')
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

    @property
    def value(self) -> float:
        """The expression evaluated at :attr:`values` (a float, possibly ``inf``)."""
        subs = {sp.Symbol(name, **_assumptions(name)): v for name, v in self.values.items()}
        number = sp.N(self.expression.subs(subs), 30)
        if number.free_symbols:
            missing = sorted(str(s) for s in number.free_symbols)
            raise ValueError(f"{self.name}: no value given for symbol(s) {', '.join(missing)}")
        if number in (sp.zoo, sp.oo):
            return math.inf
        return float(number)

    @property
    def samples(self) -> int:
        """``ceil(value)``: the number of examples the bound asks for (or proves necessary)."""
        v = self.value
        if math.isinf(v):
            raise OverflowError(f"{self.name}: the bound is infinite for these parameters")
        return max(0, math.ceil(v - 1e-9 * max(1.0, abs(v))))

    @property
    def order_of_growth_only(self) -> bool:
        """True when the number depends on an unspecified O(.) constant."""
        return not self.constants_explicit

    def with_values(self, **values: float) -> "SampleSizeBound":
        """A copy with some symbol values replaced (e.g. ``order_constant`` via ``c=``)."""
        new = dict(self.values)
        new.update(values)
        oc = new.get("c", self.order_constant) if not self.constants_explicit else None
        return replace(self, values=new, order_constant=oc)

    def to_json(self) -> dict:
        """A JSON-ready dict (expression as a string and in LaTeX)."""
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
        }


def _jsonable(v: Any) -> Any:
    if isinstance(v, bool) or v is None:
        return v
    if isinstance(v, int):
        return v
    return float(v)


_SYMBOLS = {s.name: s for s in (ALPHA, BETA, EPSILON, DELTA, K, D, LOG_SIZE, DOMAIN_SIZE, ORDER_CONSTANT)}


def _assumptions(name: str) -> dict:
    s = _SYMBOLS.get(name)
    return s.assumptions0 if s is not None else {}


def _symbol(name: str, **assumptions: Any) -> sp.Symbol:
    """The module's symbol called ``name`` (a new positive symbol if not predefined)."""
    if name in _SYMBOLS:
        return _SYMBOLS[name]
    s = sp.Symbol(name, **(assumptions or {"positive": True}))
    _SYMBOLS[name] = s
    return s


# --------------------------------------------------------------------------- validation
def _check_unit(name: str, owner: str, v: Any, *, closed_low: bool = False) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v:
        raise parameter_error(name, owner, "a float in (0, 1)", v)
    if not (0 < v < 1) and not (closed_low and v == 0):
        raise parameter_error(name, owner, "a float in [0, 1)" if closed_low else "a float in (0, 1)", v)
    return float(v)


def _check_positive(name: str, owner: str, v: Any) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v or not (0 < v < math.inf):
        raise parameter_error(name, owner, "a float in (0, inf)", v)
    return float(v)


def _check_int(name: str, owner: str, v: Any, low: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int) and not hasattr(v, "__index__"):
        raise parameter_error(name, owner, f"an int >= {low}", v)
    v = int(v)
    if v < low:
        raise parameter_error(name, owner, f"an int >= {low}", v)
    return v


def _check_nonneg(name: str, owner: str, v: Any) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v or not (0 <= v < math.inf):
        raise parameter_error(name, owner, "a float in [0, inf)", v)
    return float(v)


def _setting(task: str, proper: bool, privacy: str, concepts: str = "single",
             data: str = "private") -> dict:
    assert task in _TASKS and privacy in _PRIVACY
    return {"task": task, "proper": proper, "privacy": privacy, "concepts": concepts, "data": data}


def _order(owner: str, order_constant: Any) -> float:
    return _check_positive("order_constant", owner, order_constant)


# --------------------------------------------------------------------------- single concept
def vc_sample_size(*, vc: int, alpha: float, beta: float, agnostic: bool = False) -> SampleSizeBound:
    """Non-private VC generalization bound with the paper's explicit constants.

    PAC (BNS Thm 8, Blumer et al. 1989): with
    ``n >= (64/alpha) (d ln(64/alpha) + ln(8/beta))`` i.i.d. examples, every
    ``h`` in ``C`` with empirical error ``<= alpha/2`` has true error ``<= alpha``
    except with probability ``beta`` (so any consistent learner is
    ``(alpha, beta)``-accurate).  Agnostic (BNS Thm 9, Anthony and Bartlett):
    with ``n >= (64/alpha^2) (d ln(6/alpha) + ln(8/beta))``, every ``h`` has
    ``error_P(h) - error_S(h) <= alpha`` except with probability ``beta``.

    Parameters
    ----------
    vc : int
        The VC dimension ``d`` of the class (an upper bound is sound).
    alpha, beta : float in (0, 1)
        Accuracy and failure probability.
    agnostic : bool
        Use Thm 9 instead of Thm 8.

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
    """
    owner = "vc_sample_size"
    vc = _check_int("vc", owner, vc, 0)
    alpha = _check_unit("alpha", owner, alpha)
    beta = _check_unit("beta", owner, beta)
    if agnostic:
        expr = 64 / ALPHA**2 * (D * sp.log(6 / ALPHA) + sp.log(8 / BETA))
        source = "BNS Thm 9 (Anthony & Bartlett 2009)"
    else:
        expr = 64 / ALPHA * (D * sp.log(64 / ALPHA) + sp.log(8 / BETA))
        source = "BNS Thm 8 (Blumer et al. 1989)"
    return SampleSizeBound(
        name="vc_generalization_agnostic" if agnostic else "vc_generalization",
        expression=expr, values={"d": vc, "alpha": alpha, "beta": beta}, source=source,
        setting=_setting("agnostic" if agnostic else "PAC", True, "none"),
        constants_explicit=True, kind="upper", order_constant=None)


def generic_learner_sample_size(*, log_size: float, alpha: float, beta: float, epsilon: float,
                                order_constant: float = 1) -> SampleSizeBound:
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
    epsilon = _check_positive("epsilon", owner, epsilon)
    oc = _order(owner, order_constant)
    expr = ORDER_CONSTANT * (LOG_SIZE + sp.log(1 / BETA)) * (1 / (ALPHA * EPSILON) + 1 / ALPHA**2)
    return SampleSizeBound(
        name="generic_learner", expression=expr,
        values={"log_size": log_size, "alpha": alpha, "beta": beta, "epsilon": epsilon, "c": oc},
        source="BNS Thm 27 (Kasiviswanathan et al. 2011)",
        setting=_setting("agnostic", True, "pure"), constants_explicit=False, kind="upper",
        order_constant=oc)


def exponential_mechanism_sample_size(*, log_size: float, alpha: float, beta: float, epsilon: float,
                                      agnostic: bool = False) -> SampleSizeBound:
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
    epsilon = _check_positive("epsilon", owner, epsilon)
    selection = 4 / (ALPHA * EPSILON) * (LOG_SIZE + sp.log(2 / BETA))
    if agnostic:
        generalization = 8 / ALPHA**2 * (LOG_SIZE + sp.log(4 / BETA))
    else:
        generalization = 8 / ALPHA * (LOG_SIZE + sp.log(2 / BETA))
    return SampleSizeBound(
        name="exponential_mechanism_agnostic" if agnostic else "exponential_mechanism",
        expression=sp.Max(selection, generalization),
        values={"log_size": log_size, "alpha": alpha, "beta": beta, "epsilon": epsilon},
        source="BNS Thm 27 / Prop 21 (explicit constants: Chernoff/Hoeffding union bound over C)",
        setting=_setting("agnostic" if agnostic else "PAC", True, "pure"),
        constants_explicit=True, kind="upper", order_constant=None)


# --------------------------------------------------------------------------- composition
def advanced_composition_epsilon(total_epsilon: sp.Expr | float, k: sp.Expr | int,
                                 delta_prime: sp.Expr | float) -> sp.Expr:
    """Per-run epsilon so that k runs compose to ``total_epsilon`` (BNS Thm 17.2).

    Solves ``sqrt(2 k ln(1/delta')) e + 2 k e^2 = total_epsilon`` for ``e > 0``:
    ``e = (sqrt(a^2 + 8 k total) - a) / (4 k)`` with ``a = sqrt(2 k ln(1/delta'))``.

    Examples
    --------
    >>> e = advanced_composition_epsilon(1.0, 4, 1e-6)
    >>> total = math.sqrt(2 * 4 * math.log(1e6)) * float(e) + 2 * 4 * float(e) ** 2
    >>> round(total, 12)
    1.0
    """
    a = sp.sqrt(2 * k * sp.log(1 / sp.sympify(delta_prime)))
    return (sp.sqrt(a**2 + 8 * k * total_epsilon) - a) / (4 * k)


def composition_sample_size(*, single: SampleSizeBound, k: int, epsilon: float, delta: float = 0,
                            advanced: bool = False) -> SampleSizeBound:
    """Sample size of the direct-sum k-learner built from a single-concept learner.

    Runs the single-concept learner once per concept on the same sample
    (BNS Obs 32).  To give total privacy ``(epsilon, delta)`` and total failure
    probability ``beta``, each run gets failure probability ``beta/k`` and

    * basic composition (BNS Thm 17.1): ``epsilon/k`` and ``delta/k``;
    * advanced composition (BNS Thm 17.2): ``delta' = delta/2`` for the
      composition slack, ``delta/(2k)`` per run, and the per-run
      ``epsilon_0`` solving ``sqrt(2k ln(2/delta)) epsilon_0 + 2k epsilon_0^2
      = epsilon`` (see :func:`advanced_composition_epsilon`).

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
    epsilon = _check_positive("epsilon", owner, epsilon)
    delta = _check_unit("delta", owner, delta, closed_low=True)
    if advanced and delta == 0:
        raise parameter_error("delta", owner, "a float in (0, 1) for advanced composition", delta)
    if advanced:
        per_eps = advanced_composition_epsilon(EPSILON, K, DELTA / 2)
        per_delta = DELTA / (2 * K)
        how = "advanced composition (Thm 17.2)"
    else:
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
    privacy = "approximate" if (delta > 0) else "pure"
    setting = dict(single.setting, concepts="k", privacy=privacy)
    return SampleSizeBound(
        name=f"composition[{single.name}]", expression=expr, values=values,
        source=f"BNS Thm 17 / Obs 32, {how}, applied to {single.source}",
        setting=setting, constants_explicit=single.constants_explicit, kind="upper",
        order_constant=single.order_constant, notes=single.notes)


# --------------------------------------------------------------------------- k-learners
def generic_k_learner_sample_size(*, vc: int, k: int, alpha: float, beta: float, epsilon: float,
                                  delta: float = 0, domain_size: int | None = None,
                                  log_size: float | None = None,
                                  order_constant: float = 1) -> SampleSizeBound:
    """Proper agnostic private k-learner for a general class (BNS Thm 31).

    BNS Thm 31 is the minimum of two constructions; this calculator keeps
    their ``alpha, beta, epsilon, delta`` dependence from the proofs (the
    theorem itself hides it in ``O_{alpha,beta,epsilon}``):

    * direct sum of the generic learner (BNS Cor 34 = Obs 32 + Thm 27): each
      of the ``k`` runs uses ``beta/k`` and ``epsilon/k`` (pure) or the
      advanced-composition ``epsilon_0`` (approximate):
      ``(log|C| + log(k/beta)) (1/(alpha epsilon_0) + 1/alpha^2)``; needs
      ``log_size``;
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
    epsilon = _check_positive("epsilon", owner, epsilon)
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
    if log_size is not None or domain_size is not None:
        eps_each = EPSILON / K if pure else advanced_composition_epsilon(EPSILON, K, DELTA / 2)
        branches.append((size + sp.log(K / BETA)) * (1 / (ALPHA * eps_each) + 1 / ALPHA**2))
    if domain_size is not None:
        eps_san = EPSILON / 2
        if pure:
            eps0 = EPSILON / (2 * K)
            sanitizer = (D * sp.log(DOMAIN_SIZE) * sp.log(1 / ALPHA) / (ALPHA**3 * eps_san)
                         + sp.log(1 / BETA) / (ALPHA * eps_san))
        else:
            eps0 = advanced_composition_epsilon(EPSILON / 2, K, DELTA / 2)
            sanitizer = ((size + sp.log(1 / BETA)) * sp.sqrt(sp.log(DOMAIN_SIZE) * sp.log(2 / DELTA))
                         / (ALPHA**2 * eps_san))
        branches.append(sanitizer + D / (ALPHA**3 * eps0) * sp.log(1 / ALPHA)
                        + sp.log(K / BETA) / (ALPHA * eps0) + D / ALPHA**2 * sp.log(K / (ALPHA * BETA)))
    body = branches[0] if len(branches) == 1 else sp.Min(*branches)
    return SampleSizeBound(
        name="generic_k_learner", expression=ORDER_CONSTANT * body, values=values,
        source="BNS Thm 31, via Cor 34 (Obs 32 + Thm 27) and Lemma 36 (Alg 3 with Thm 24/25 sanitizer)",
        setting=_setting("agnostic", True, "pure" if pure else "approximate", "k"),
        constants_explicit=False, kind="upper", order_constant=oc, notes=tuple(notes))


def point_k_learner_sample_size(*, domain_size: int | None = None, k: int, alpha: float, beta: float,
                                epsilon: float, delta: float, order_constant: float = 1) -> SampleSizeBound:
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
        "alpha": _check_unit("alpha", owner, alpha), "beta": _check_unit("beta", owner, beta),
        "epsilon": _check_positive("epsilon", owner, epsilon), "delta": _check_unit("delta", owner, delta),
        "c": _order(owner, order_constant)}
    if domain_size is not None:
        values["domain_size"] = _check_int("domain_size", owner, domain_size, 1)
    expr = ORDER_CONSTANT / (ALPHA * EPSILON) * sp.log(1 / (ALPHA * BETA * DELTA))
    return SampleSizeBound(
        name="point_k_learner", expression=expr, values=values, source="BNS Thm 40 (Alg 5 PointLearner)",
        setting=_setting("PAC", False, "approximate", "k"), constants_explicit=False, kind="upper",
        order_constant=values["c"])


def parity_k_learner_sample_size(*, d: int, k: int, alpha: float = 0.0, beta: float, epsilon: float,
                                 delta: float, order_constant: float = 1,
                                 variant: Literal["theorem", "algorithm"] = "theorem") -> SampleSizeBound:
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
        "d": _check_int("d", owner, d, 1), "k": _check_int("k", owner, k, 1),
        "beta": _check_unit("beta", owner, beta), "epsilon": _check_positive("epsilon", owner, epsilon),
        "delta": _check_unit("delta", owner, delta), "c": _order(owner, order_constant)}
    if variant == "theorem":
        expr = ORDER_CONSTANT * (D * sp.log(1 / BETA) + sp.log(1 / (BETA * DELTA)) / EPSILON)
        notes: tuple = ()
    elif variant == "algorithm":
        expr = ORDER_CONSTANT * D / EPSILON * sp.log(1 / (BETA * DELTA))
        notes = ("sample size used by Algorithm 4 in the proof of Thm 39",)
    else:
        raise parameter_error("variant", owner, "'theorem' or 'algorithm'", variant)
    return SampleSizeBound(
        name="parity_k_learner", expression=expr, values=values,
        source="BNS Thm 39 (Alg 4 ParityLearner), uniform distribution, alpha = 0",
        setting=_setting("PAC", True, "approximate", "k"), constants_explicit=False, kind="upper",
        order_constant=values["c"], notes=notes)
