"""The sample-size table of a class: its dimensions and every bound of the papers that applies.

:func:`sample_size_table` computes the dimensions (VC / graph / Natarajan, Littlestone,
multiclass Littlestone, those of the binary restrictions, ``ln |H|``) and builds every row
of :mod:`dimcalc.sample_size` inside its theorem's range; the CLI's ``dimcalc sample-size``
prints it.

Examples
--------
>>> from dimcalc import HypothesisClass
>>> H = HypothesisClass([[0, 0], [0, 1], [1, 1]])
>>> len(sample_size_table(H, alpha=0.1, beta=0.1, epsilon=1.0)) > 0
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from .. import littlestone as ls
from .. import vc as vcmod
from .._params import Number, number_text
from ..classes.hypothesis_class import HypothesisClass, label_bits
from ..errors import parameter_error
from ..search.budget import Deadline
from ..validation import check_int, check_time_limit
from ._validation import checked_values
from .almm import almm_private_lower_bound
from .bns_lower_bounds import (
    agnostic_k_learner_lower_bound,
    parity_pure_lower_bound,
    pure_k_learner_lower_bound,
    threshold_k_learner_lower_bound,
    vc_lower_bound,
)
from .bound import OutOfRangeError, SampleSizeBound, jsonable
from .composition import composition_sample_size
from .generic_k_learner import generic_k_learner_sample_size, generic_learner_mwem_sample_size
from .multiclass import (
    bgs_boosted_sample_size,
    ggkm_sample_size,
    multiclass_littlestone_sample_size,
    multiclass_reduction_sample_size,
)
from .point_and_parity import parity_k_learner_sample_size, point_k_learner_sample_size
from .public_data import abm_semi_private_sample_size, asspp_sample_size
from .representation import repdim_sample_size
from .single_concept import exponential_mechanism_sample_size, generic_learner_sample_size, vc_sample_size

__all__ = ["SampleSizeTable", "sample_size_table"]


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

    def __iter__(self) -> Iterator[SampleSizeBound]:
        return iter(self.rows)

    def __len__(self) -> int:
        return len(self.rows)

    def to_json(self) -> dict:
        """A JSON-ready dict: class, parameters, dimensions, exact, rows (each :meth:`SampleSizeBound.to_json`), omitted."""
        return {
            "class": self.class_summary,
            "parameters": {k: jsonable(v) for k, v in self.parameters.items()},
            "dimensions": self.dimensions,
            "exact": self.exact,
            "rows": [r.to_json() for r in self.rows],
            "omitted": list(self.omitted),
        }

    def to_pandas(self) -> Any:
        """One row per bound (:func:`dimcalc.display.frames.sample_size_frame`; needs the ``pandas`` extra)."""
        from ..display.frames import sample_size_frame

        return sample_size_frame(self)

    def _repr_html_(self) -> str:  # Jupyter display: dimcalc.display (imported when a notebook asks)
        from ..display import sample_size_html

        return sample_size_html(self)


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
    """``bound`` with the given notes (those not None) added."""
    extra = tuple(n for n in notes if n)
    return replace(bound, notes=tuple(bound.notes) + extra) if extra else bound


def _capped_epsilon(epsilon: Number, cap: Number, theorem: str) -> tuple[Number, str | None]:
    """``min(epsilon, cap)`` for a theorem stated for ``epsilon <= cap``, with a note when it caps.

    An ``(cap, delta)``-DP learner is ``(epsilon, delta)``-DP for ``epsilon >= cap``, so the
    bound at the cap applies.
    """
    if not epsilon > cap:
        return min(epsilon, cap), None
    text = str(Fraction(cap))  # '1', '1/4'
    return cap, (
        f"{theorem} is stated for epsilon <= {text}: bound at epsilon = {text} (a ({text}, delta)-DP learner is "
        f"({number_text(epsilon)}, delta)-DP)"
    )


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
    owner = "sample_size_table"
    if not isinstance(H, HypothesisClass):
        raise parameter_error("H", owner, "a dimcalc.HypothesisClass", type(H).__name__)
    checked = checked_values(owner, alpha=alpha, beta=beta, epsilon=epsilon, delta=delta, zero_allowed=("delta",))
    alpha, beta, epsilon, delta = checked["alpha"], checked["beta"], checked["epsilon"], checked["delta"]
    k = check_int(concepts, "concepts", owner, 1)
    time_limit = check_time_limit(time_limit, owner)
    deadline = Deadline(time_limit)

    dims: dict[str, Any] = {}
    if H.is_binary:
        dims["vc"] = vcmod.vc_dimension(H, time_limit=deadline.left())
        dims["littlestone"] = ls.littlestone_dimension(H, time_limit=deadline.left())
    else:
        dims["graph"] = vcmod.graph_dimension(H, time_limit=deadline.left())
        dims["natarajan"] = vcmod.natarajan_dimension(H, time_limit=deadline.left())
        dims["multiclass_littlestone"] = ls.multiclass_littlestone_dimension(H, time_limit=deadline.left())
        restriction = ls.binary_restriction_littlestone(H, time_limit=deadline.left())
        for i, r in enumerate(restriction.parts, start=1):
            dims[f"littlestone|{i}"] = r
    exact = all(r.exact for r in dims.values())
    log_size = math.log(H.n_distinct)
    rows: list[SampleSizeBound] = []
    pure = delta == 0
    accuracy: dict[str, Any] = {"alpha": alpha, "beta": beta}
    privacy: dict[str, Any] = {"epsilon": epsilon, "delta": delta}

    vc_hi: int | None = None
    vc_note: str | None = None
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

    def attempt(make: Callable[..., SampleSizeBound], *notes: str | None, **kwargs: Any) -> None:
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
    exponential = {
        agnostic: exponential_mechanism_sample_size(
            log_size=log_size, alpha=alpha, beta=beta, epsilon=epsilon, agnostic=agnostic
        )
        for agnostic in (False, True)
    }
    rows += [exponential[False], exponential[True]]
    rows.append(generic_learner_sample_size(log_size=log_size, alpha=alpha, beta=beta, epsilon=epsilon))
    rows.append(
        _with_note(
            repdim_sample_size(repdim=log_size, alpha=alpha, beta=beta, epsilon=epsilon),
            "RepDim <= ln|H| (the trivial representation {H}): a sound upper bound",
        )
    )
    if H.is_binary and vc_hi is not None:
        for agnostic, erm in ((False, False), (True, False), (True, True)):
            rows.append(
                _with_note(vc_sample_size(vc=vc_hi, alpha=alpha, beta=beta, agnostic=agnostic, erm=erm), vc_note)
            )
    if vc_lo is not None and H.is_binary:  # BNS §2.2 states Omega(d/alpha) for binary classes only
        for agnostic in (False, True):
            attempt(vc_lower_bound, lower_note, vc=vc_lo, alpha=alpha, agnostic=agnostic)
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
        eps36, note36 = _capped_epsilon(epsilon, 1, "BGS Thm 3.6")
        eps37, note37 = _capped_epsilon(epsilon, Fraction(1, 4), "BGS Thm 3.7")
        if H.is_binary:
            lo, hi, note = _dimension_bounds(dims["littlestone"], "Littlestone dimension")
            attempt(ggkm_sample_size, note, note36, littlestone=hi, **accuracy, epsilon=eps36, delta=delta)
            attempt(almm_private_lower_bound, note, littlestone=lo or 0, **accuracy, **privacy)  # ALMM19 Thm 1
        else:
            parts = [
                _dimension_bounds(dims[f"littlestone|{i}"], f"Littlestone dimension of H|{i}")
                for i in range(1, label_bits(H.num_labels) + 1)
            ]
            mlo, mhi, mnote = _dimension_bounds(dims["multiclass_littlestone"], "multiclass Littlestone dimension")
            cor33 = {"restriction_littlestone": [p[1] for p in parts]}
            for notes, dimension in (([p[2] for p in parts], cor33), ([mnote], {"multiclass_littlestone": mhi})):
                attempt(
                    multiclass_littlestone_sample_size,
                    *notes,
                    note36,
                    **accuracy,
                    epsilon=eps36,
                    delta=delta,
                    num_labels=H.num_labels,
                    **dimension,
                )
            attempt(
                bgs_boosted_sample_size,
                mnote,
                note37,
                multiclass_littlestone=mhi,
                num_labels=H.num_labels,
                **accuracy,
                epsilon=eps37,
                delta=delta,
            )

    # ---- k concepts
    if k > 1:
        single = exponential[True]
        rows.append(composition_sample_size(single=single, k=k, **privacy))
        if not pure:  # omitted (and listed) when the per-run epsilon reaches 1, outside BNS Thm 17.2
            attempt(composition_sample_size, single=single, k=k, **privacy, advanced=True)
        if H.is_binary and vc_hi is not None:
            attempt(
                generic_k_learner_sample_size,
                vc_note,
                vc=vc_hi,
                k=k,
                **accuracy,
                **privacy,
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
                **accuracy,
                **privacy,
            )
        family = H.metadata.get("family")
        params = H.metadata.get("params", {}) or {}
        if not pure and family == "point-functions":
            rows.append(point_k_learner_sample_size(domain_size=H.n_points, k=k, **accuracy, **privacy))
        if family == "parities" and isinstance(params.get("d"), int):
            if not pure:
                rows.append(parity_k_learner_sample_size(d=params["d"], k=k, beta=beta, **privacy))
            else:
                attempt(parity_pure_lower_bound, d=params["d"], k=k, epsilon=epsilon, **accuracy)
        if H.n_distinct >= 2 and H.is_binary:  # BNS Thm 52, Thm 47 / Cor 50: binary concept classes
            if pure:
                attempt(pure_k_learner_lower_bound, k=k, epsilon=epsilon, beta=beta)
            else:
                fingerprinting: list[Callable[..., SampleSizeBound]] = [agnostic_k_learner_lower_bound]
                if family == "thresholds":
                    fingerprinting.append(threshold_k_learner_lower_bound)
                for lower_bound in fingerprinting:
                    attempt(lower_bound, k=k, domain_size=H.n_points, **accuracy, **privacy)

    # ---- public data
    if public:
        rows += asspp_sample_size(log_size=log_size, **accuracy, epsilon=epsilon)
        if H.is_binary and vc_hi is not None:
            rows += [
                _with_note(b, vc_note) for b in abm_semi_private_sample_size(vc=vc_hi, **accuracy, epsilon=epsilon)
            ]
        # ABM Thms 4.1-4.2 bound the public data of classes of unbounded Littlestone dimension; a finite
        # class needs none (BNS Thm 27 learns it privately from private data alone): not a requirement here.
        omitted.append(
            {
                "name": "public_sample_lower_bound",
                "source": "ABM Thms 4.1-4.2",
                "kind": "lower",
                "failed": [
                    "a finite class needs no public examples (BNS Thm 27); ABM Thms 4.1-4.2 concern classes "
                    "of unbounded Littlestone dimension"
                ],
            }
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
