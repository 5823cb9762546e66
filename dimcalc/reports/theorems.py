"""The theorem report: every statement of the seed papers that can be evaluated on a finite class.

:func:`theorem_report` computes both sides of each statement with dimcalc's
solvers and says whether it **holds**, is **violated**, or is **unknown**.  A
side is an interval ``[lower, upper]`` of proven bounds (a point when exact).
For a statement ``A <= B``:

* holds for sure when ``upper(A) <= lower(B)``;
* violated for sure when ``lower(A) > upper(B)``;
* otherwise ``"unknown"`` (only possible when a side is not exact).

``A = B`` holds when both sides are exact and equal, is violated when the
intervals are disjoint, else unknown.  Real-valued sides (logarithms) are
compared with a slack of ``1e-9`` in the direction that never reports a false
violation.  A violation is either a bug in dimcalc or a counterexample to a
paper; the report's ``exact`` field says whether both numbers were exact.

Sources (BGS = Bun, Gaboardi, Sivakumar, NeurIPS 2021; FX = Feldman, Xiao,
COLT 2014): Lemma 4.5, Claims 4.6-4.7, Thm 3.4, Thm 5.6, Lemma 5.11, Thm 7.1,
Thm 8.8 (BGS); Sauer-Shelah; ``VC <= LDim <= floor(log2 |H|)`` (Littlestone
1987); FX Thm 3.2 with Cor 4.3.

The dimensions of :mod:`dimcalc.dims` add (details and proofs of the easy
ones in ``docs/dimensions.md``): threshold dimension vs Littlestone dimension
(ALMM19 Thm 3, after Shelah 1978 and Hodges 1997); ``Natarajan <= DS <= graph``
(Daniely and Shalev-Shwartz 2014; Brukhim et al. 2022); Assouad's dual bound
``VC* < 2^(VC+1)`` both ways (Assouad 1983); ``VC <= star number`` (Hanneke and
Yang 2015); ``RTD <= TD`` (Zilles et al. 2011) and ``RTD <= VC·2^(VC+1)``
(Chen, Cheng, Tang, NeurIPS 2016).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, cast

from ..classes.hypothesis_class import HypothesisClass, label_bits
from ..covers import zero_cover_function, zero_cover_number
from ..dims import (
    ds_dimension,
    dual_vc_dimension,
    recursive_teaching_dimension,
    star_number,
    teaching_dimension,
    threshold_dimension,
)
from ..littlestone import (
    binary_restriction_littlestone,
    littlestone_dimension,
    multiclass_littlestone_dimension,
    psi_littlestone_dimension,
)
from ..representation import MAX_ALL_FUNCTIONS, binary_entropy, deterministic_representation_dimension
from ..representation.communication import deterministic_one_way_complexity
from ..results import DimensionResult
from ..search.budget import Deadline
from ..validation import check_hypothesis_class, check_time_limit
from ..vc import graph_dimension, growth_function, natarajan_dimension, vc_dimension
from .statements import SLACK, Number, Side, TheoremCheck, TheoremReport, compare

__all__ = [
    "Side",
    "TheoremCheck",
    "TheoremReport",
    "theorem_report",
    "dimension_relations",
    "theorem_verdict",
    "compare",
]


class _Solvers:
    """Solver calls shared by the statements, each under a share of the report's time budget."""

    def __init__(self, H: HypothesisClass, deadline: Deadline, parts: int) -> None:
        self.H = H
        self.deadline = deadline
        self.parts = parts
        self.cache: dict[Any, Any] = {}

    def share(self) -> float | None:
        remaining = self.deadline.remaining()
        if remaining is None:
            return None
        self.parts = max(self.parts - 1, 1)
        return max(remaining / (self.parts + 1), 1e-3)

    def get(self, key: Any, fn: Callable[[float | None], Any]) -> Any:
        if key not in self.cache:
            self.cache[key] = fn(self.share())
        return self.cache[key]

    def vc(self) -> DimensionResult:
        return self.get("vc", lambda t: vc_dimension(self.H, time_limit=t))

    def ld(self) -> DimensionResult:
        return self.get("ld", lambda t: littlestone_dimension(self.H, time_limit=t))

    def mld(self) -> DimensionResult:
        return self.get("mld", lambda t: multiclass_littlestone_dimension(self.H, time_limit=t))

    def psi(self, family: str, uniform: bool = False) -> DimensionResult:
        return self.get(
            ("psi", family, uniform), lambda t: psi_littlestone_dimension(self.H, family, uniform=uniform, time_limit=t)
        )

    def restrictions(self) -> list[DimensionResult]:
        return self.get("restr", lambda t: list(binary_restriction_littlestone(self.H, time_limit=t).parts))

    def max_restriction(self) -> Side:
        rs = self.restrictions()
        lo = max(cast(int, r.lower) for r in rs)  # binary restrictions: lower bound always proven
        hi = None if any(r.upper is None for r in rs) else max(cast(int, r.upper) for r in rs)
        return Side(lo, hi, "max_i LDim(H|_i)")

    def cover_function(self, n: int) -> DimensionResult:
        return self.get(("N0", n), lambda t: zero_cover_function(self.H, n, time_limit=t))

    def growth(self, m: int) -> DimensionResult:
        return self.get(("growth", m), lambda t: growth_function(self.H, m, time_limit=t))

    def more(self, kind: str) -> DimensionResult:
        """A dimension of :mod:`dimcalc.dims` or the Natarajan / graph dimension, by result kind."""
        solvers: dict[str, Callable[..., DimensionResult]] = {
            "threshold": threshold_dimension,
            "ds": ds_dimension,
            "dual_vc": dual_vc_dimension,
            "star": star_number,
            "teaching": teaching_dimension,
            "recursive_teaching": recursive_teaching_dimension,
            "natarajan": natarajan_dimension,
            "graph": graph_dimension,
        }
        return cast(DimensionResult, self.get(kind, lambda t: solvers[kind](self.H, time_limit=t)))

    def drdim(self) -> Any:
        return self.get("drdim", lambda t: deterministic_representation_dimension(self.H, Fraction(1, 4), time_limit=t))


def theorem_report(
    H: HypothesisClass, *, time_limit: float | None = None, representation: bool | None = None
) -> TheoremReport:
    """Evaluate every finite-class statement of the seed papers on ``H``.

    Parameters
    ----------
    H : HypothesisClass
    time_limit : float, optional
        Seconds for the whole report, shared among the solvers; a solver
        stopped early gives bounds and its statements may come out ``"unknown"``.
    representation : bool, optional
        Include the representation-dimension statements (a MILP over all
        functions on the domain).  Default: when the domain has at most 64
        functions.

    Returns
    -------
    TheoremReport
        A list of :class:`TheoremCheck`; ``to_json()`` of each is ``{source, statement, lhs, relation, rhs, exact, holds, ...}``
        with ``holds`` one of ``true``, ``false``, ``"unknown"``.

    References
    ----------
    BGS Lemma 4.5, Claims 4.6-4.7, Thms 3.4, 5.6, 7.1, 8.8, Lemma 5.11; FX Thm 3.2, Cor 4.3;
    Sauer-Shelah; Littlestone (1987).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 0, 0], [0, 0, 1], [0, 1, 1], [1, 1, 1]])
    >>> report = theorem_report(H)
    >>> all(c.holds is True and c.exact for c in report)
    True
    >>> [(c.lhs.lower, c.rhs.lower) for c in report if c.source == "BGS Lemma 5.11"]
    [(4, 4)]
    """
    H = check_hypothesis_class(H, "theorem_report")
    time_limit = check_time_limit(time_limit, "theorem_report")
    if representation is None:
        representation = H.num_labels**H.n_points <= MAX_ALL_FUNCTIONS
    s = _Solvers(H, Deadline(time_limit), parts=22)
    k = H.max_label
    out = TheoremReport()

    def add(source: str, statement: str, lhs: Side, relation: str, rhs: Side, note: str = "") -> None:
        out.append(TheoremCheck(source, statement, lhs, relation, rhs, compare(lhs, relation, rhs), note))

    mld = Side.of(s.mld(), "MLD(H)")
    psiN, psiB = Side.of(s.psi("N"), "Ψ^N-LD(H)"), Side.of(s.psi("B"), "Ψ^B-LD(H)")
    psibin, psibinU = Side.of(s.psi("bin"), "Ψ^bin-LD(H)"), Side.of(s.psi("bin", True), "Ψ^bin-LD_U(H)")
    maxbin = s.max_restriction()

    add("BGS Lemma 4.5", "Ψ^N-LD(H) = MLD(H)", psiN, "=", mld)
    add("BGS Claim 4.6", "max_j LDim(H|_j) <= Ψ^bin-LD_U(H)", maxbin, "<=", psibinU)
    add("BGS Claim 4.6", "Ψ^bin-LD_U(H) <= Ψ^bin-LD(H)", psibinU, "<=", psibin)
    add("BGS Claim 4.7", "Ψ^N-LD(H) <= Ψ^bin-LD(H)", psiN, "<=", psibin)
    add("BGS Claim 4.7", "Ψ^bin-LD(H) <= Ψ^B-LD(H)", psibin, "<=", psiB)
    factor = 6 * math.log(k + 1)
    add(
        "BGS Thm 3.4",
        "max_i LDim(H|_i) <= 6·MLD(H)·ln(k+1)",
        maxbin,
        "<=",
        Side(
            None if mld.lower is None else mld.lower * factor,
            None if mld.upper is None else mld.upper * factor,
            f"6·MLD·ln({k + 1})",
        ),
    )
    bits = label_bits(H.num_labels)
    assert maxbin.lower is not None  # see max_restriction
    add(
        "BGS Thm 7.1",
        "MLD(H) <= max_i LDim(H|_i)·⌈log2(k+1)⌉",
        mld,
        "<=",
        Side(maxbin.lower * bits, None if maxbin.upper is None else maxbin.upper * bits, f"max_i LDim(H|_i)·{bits}"),
        note="log(k+1) read as the number of binary restrictions",
    )

    # 0-cover statements at n = d_B (the depth BGS §5.3 uses)
    d_b = s.psi("B").lower or 0
    n = max(d_b, 1) if H.n_points else 0  # no input tree of depth >= 1 over an empty domain
    cover = s.cover_function(n)
    N0 = Side.of(cover, f"N(0,H,{n})")
    if mld.upper is not None and n >= mld.upper:
        mld_lo, mld_hi = cast(int, mld.lower), cast(int, mld.upper)  # integers; lower proven when upper is
        add(
            "BGS Thm 5.6 (4)",
            f"N(0,H,n) <= Σ_{{i<=d}} C(n,i)·k^i at n = {n}, d = MLD",
            N0,
            "<=",
            Side(
                sum(math.comb(n, i) * k**i for i in range(mld_lo + 1)),
                sum(math.comb(n, i) * k**i for i in range(mld_hi + 1)),
                f"Σ_{{i<=MLD}} C({n},i)·{k}^i",
            ),
        )
        if mld.lower and mld.lower > 0:
            e_bound = lambda d: (math.e * k * n / d) ** d  # noqa: E731  (increasing in d for d <= kn)
            add(
                "BGS Thm 5.6 (5)",
                f"Σ_{{i<=d}} C(n,i)·k^i <= (e·k·n/d)^d at n = {n}, d = MLD",
                Side(
                    sum(math.comb(n, i) * k**i for i in range(mld_lo + 1)),
                    sum(math.comb(n, i) * k**i for i in range(mld_hi + 1)),
                    "Σ_{i<=d} C(n,i)·k^i",
                ),
                "<=",
                Side(
                    min(e_bound(mld.lower), e_bound(mld.upper)),
                    max(e_bound(mld.lower), e_bound(mld.upper)),
                    "(e·k·n/d)^d",
                ),
            )
    elif mld.lower is not None and n < mld.lower:
        add("BGS Thm 5.6", f"N(0,H,n) <= (k+1)^n for n = {n} < MLD", N0, "<=", Side.point((k + 1) ** n, f"{k + 1}^{n}"))
    lemma_tree = s.psi("B").witness
    note = "lhs lower bound includes N(0,H,T') for the Ψ^B witness tree T' (the proof's tree)"
    if d_b >= 1 and lemma_tree is not None:
        on_tree = cast(int, zero_cover_number(H, lemma_tree, witness=False).value)
        N0 = Side(max(N0.lower or 0, on_tree), N0.upper, f"N(0,H,{d_b})")
    rel_b = "=" if s.psi("B").exact else ">="
    add(
        "BGS Lemma 5.11",
        f"N(0,H,d_B) >= 2^d_B with d_B = Ψ^B-LD(H) {rel_b} {d_b}",
        N0 if d_b >= 1 else Side.point(1, "N(0,H,0)"),
        ">=",
        Side.point(2**d_b, f"2^{d_b}"),
        note=note + ("" if s.psi("B").exact else "; evaluated at the proven lower bound of d_B"),
    )

    if H.is_binary:
        vc, ld = Side.of(s.vc(), "VC(H)"), Side.of(s.ld(), "LDim(H)")
        add("Littlestone 1987", "VC(H) <= LDim(H)", vc, "<=", ld)
        add("Littlestone 1987", "LDim(H) <= ⌊log2 |H|⌋", ld, "<=", Side.point(H.log2_size(), "⌊log2 |H|⌋"))
        if vc.upper is not None and vc.upper < H.n_points:
            vc_lo, vc_hi = cast(int, vc.lower), cast(int, vc.upper)  # integers; lower proven when upper is
            m = vc_hi + 1
            g = s.growth(m)
            add(
                "Sauer-Shelah",
                f"π_H(m) <= Σ_{{i<=VC}} C(m,i) at m = VC + 1 = {m}",
                Side.of(g, f"π_H({m})"),
                "<=",
                Side(
                    sum(math.comb(m, i) for i in range(vc_lo + 1)),
                    sum(math.comb(m, i) for i in range(vc_hi + 1)),
                    f"Σ_{{i<=VC}} C({m},i)",
                ),
            )
        lb = 1 - binary_entropy(0.25)
        ld_scaled = Side(
            None if ld.lower is None else lb * ld.lower,
            None if ld.upper is None else lb * ld.upper,
            "(1 - H(1/4))·LDim",
        )
        add(
            "FX Cor 4.3",
            "D→(Eval_H) >= R→_{1/4}(H) >= (1 - H(1/4))·LDim(H)",
            Side.point(deterministic_one_way_complexity(H), "D→(Eval_H) = ⌈log2 |H|⌉"),
            ">=",
            ld_scaled,
        )
        if representation:
            rep = s.drdim()
            add(
                "FX Thm 3.2 + Cor 4.3",
                "⌈DRDim_{1/4}(H)⌉ >= R→_{1/4}(H) >= (1 - H(1/4))·LDim(H)",
                Side(math.ceil(rep.lower - SLACK), math.ceil(rep.upper - SLACK), "⌈log2 |H_min|⌉ (ε = 1/4)"),
                ">=",
                ld_scaled,
            )
    out.extend(_more_dimensions(H, s))
    if representation:
        rep = s.drdim()
        add(
            "BGS Thm 8.8",
            "MLD(H)/32 <= RepDim(H) <= ln |H_min| (RepDim: (1/4,1/8)-representations, nats)",
            Side(
                None if mld.lower is None else mld.lower / 32, None if mld.upper is None else mld.upper / 32, "MLD/32"
            ),
            "<=",
            Side(
                math.log(rep.size_lower),
                math.log(rep.size_upper),
                "ln |H_min|, H_min a smallest deterministic 1/4-representation",
            ),
            note="a deterministic 1/4-representation is a (1/4, 0)-probabilistic one, so RepDim <= ln|H_min|",
        )
    return out


def _log2_floor(v: Number | None) -> int | None:
    """``⌊log2 v⌋`` for ``v >= 1``; None for None."""
    return None if v is None else int(v).bit_length() - 1


def _more_dimensions(H: HypothesisClass, s: _Solvers) -> list[TheoremCheck]:
    """The statements about the dimensions of :mod:`dimcalc.dims` (module docstring; docs/dimensions.md)."""
    out: list[TheoremCheck] = []

    def add(source: str, statement: str, lhs: Side, relation: str, rhs: Side, note: str = "") -> None:
        out.append(TheoremCheck(source, statement, lhs, relation, rhs, compare(lhs, relation, rhs), note))

    nat, ds = Side.of(s.more("natarajan"), "Natarajan(H)"), Side.of(s.more("ds"), "DS(H)")
    graph = Side.of(s.more("graph"), "graph(H)")
    add("DS14; BCDMY22", "Natarajan(H) <= DS(H)", nat, "<=", ds, note="a Natarajan cube {f0, f1}^S is a pseudo-cube")
    add("DS14; BCDMY22", "DS(H) <= graph(H)", ds, "<=", graph)
    td, rtd = Side.of(s.more("teaching"), "TD(H)"), Side.of(s.more("recursive_teaching"), "RTD(H)")
    add("ZLHZ11", "RTD(H) <= TD(H)", rtd, "<=", td)
    if not H.is_binary:
        return out
    vc, ld = Side.of(s.vc(), "VC(H)"), Side.of(s.ld(), "LDim(H)")
    thr = Side.of(s.more("threshold"), "T(H)")
    if ld.lower is not None and ld.lower >= 1:
        add(
            "ALMM19 Thm 3 (Shelah; Hodges)",
            "LDim(H) = d >= 1 ⇒ T(H) >= ⌊log2 d⌋",
            thr,
            ">=",
            Side(_log2_floor(ld.lower), _log2_floor(ld.upper), "⌊log2 LDim(H)⌋"),
        )
    if thr.lower is not None and thr.lower >= 1:
        add(
            "ALMM19 Thm 3 (Shelah; Hodges)",
            "T(H) = t >= 1 ⇒ LDim(H) >= ⌊log2 t⌋",
            ld,
            ">=",
            Side(_log2_floor(thr.lower), _log2_floor(thr.upper), "⌊log2 T(H)⌋"),
        )
    dual = Side.of(s.more("dual_vc"), "VC*(H)")
    add(
        "Assouad 1983",
        "VC*(H) < 2^(VC(H)+1)",
        dual,
        "<=",
        Side.of(s.vc(), "2^(VC+1) - 1", lambda v: 2 ** (int(v) + 1) - 1),
    )
    add(
        "Assouad 1983",
        "VC(H) < 2^(VC*(H)+1)  (H** = H)",
        vc,
        "<=",
        Side.of(s.more("dual_vc"), "2^(VC*+1) - 1", lambda v: 2 ** (int(v) + 1) - 1),
    )
    add("HY15", "VC(H) <= star number s(H)", vc, "<=", Side.of(s.more("star"), "s(H)"))
    add(
        "Chen-Cheng-Tang 2016",
        "RTD(H) <= VC(H)·2^(VC(H)+1)",
        rtd,
        "<=",
        Side.of(s.vc(), "d·2^(d+1), d = VC", lambda v: int(v) * 2 ** (int(v) + 1)),
    )
    return out


def dimension_relations(H: HypothesisClass, *, time_limit: float | None = None) -> list[TheoremCheck]:
    """Only the statements of :func:`theorem_report` about threshold, DS, dual VC, star and teaching dimensions.

    Parameters
    ----------
    H : HypothesisClass
    time_limit : float, optional
        Seconds for the whole report, shared among the solvers.

    Returns
    -------
    list of TheoremCheck

    References
    ----------
    ALMM19 Thm 3 (Shelah; Hodges); Daniely and Shalev-Shwartz (COLT 2014) and Brukhim et al. (FOCS 2022);
    Assouad (1983); Hanneke and Yang (JMLR 2015); Zilles et al. (JMLR 2011); Chen, Cheng, Tang (NeurIPS 2016).

    Examples
    --------
    >>> from dimcalc import generators
    >>> checks = dimension_relations(generators.thresholds(8))
    >>> [(c.statement, c.lhs.lower, c.rhs.lower) for c in checks if c.source.startswith("ALMM19")]
    [('LDim(H) = d >= 1 ⇒ T(H) >= ⌊log2 d⌋', 8, 1), ('T(H) = t >= 1 ⇒ LDim(H) >= ⌊log2 t⌋', 3, 3)]
    >>> theorem_verdict(checks)
    'holds'
    """
    H = check_hypothesis_class(H, "dimension_relations")
    time_limit = check_time_limit(time_limit, "dimension_relations")
    return _more_dimensions(H, _Solvers(H, Deadline(time_limit), parts=10))


def theorem_verdict(checks: Sequence[TheoremCheck]) -> str:
    """The report's verdict: ``"violated"`` if any statement is, ``"holds"`` if all hold, else ``"unknown"``.

    ``"unknown"`` only arises when a solver stopped at the time limit and left a side as bounds.

    Parameters
    ----------
    checks : sequence of TheoremCheck
        A :func:`theorem_report`.

    Returns
    -------
    str
        ``"violated"``, ``"holds"`` or ``"unknown"``.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> theorem_verdict(theorem_report(HypothesisClass.from_table([[0, 1], [1, 1]])))
    'holds'
    """
    if any(c.holds is False for c in checks):
        return "violated"
    return "holds" if all(c.holds is True for c in checks) else "unknown"
