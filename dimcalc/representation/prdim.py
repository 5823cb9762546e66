"""Bounds on the probabilistic representation dimension stated by FX and BGS §8 (dimcalc does not compute PRDim)."""

from __future__ import annotations

import math
from fractions import Fraction

from ..classes.hypothesis_class import HypothesisClass
from ..errors import parameter_error
from ..littlestone import littlestone_dimension, multiclass_littlestone_dimension
from ..param_validation import CLASS, TIME_LIMIT, renamed_parameters, validate_params
from ..search.budget import Deadline
from ..validation import check_time_limit
from ..witnesses.representation import Representation
from .milp import MAX_ALL_FUNCTIONS, deterministic_representation_dimension
from .paper_bounds import PaperBound
from .result import ProbabilisticRepresentationResult, RepresentationDimensionResult

__all__ = ["probabilistic_representation_bounds"]


@renamed_parameters(C="H")
@validate_params(H=CLASS, time_limit=TIME_LIMIT)
def probabilistic_representation_bounds(
    H: HypothesisClass, *, drdim: RepresentationDimensionResult | None = None, time_limit: float | None = None
) -> ProbabilisticRepresentationResult:
    """The bounds FX and BGS §8 state on the probabilistic representation dimension of ``C``.

    dimcalc does not compute PRDim exactly: the result bounds ``PRDim_{1/4,1/8}(C)`` in bits
    (``lower`` from BGS Thm 8.8, ``upper`` from DRDim with its representation as witness) and
    lists every bound as a :class:`PaperBound` in ``bounds``, each with its source and whether
    its constants are explicit:

    * ``PRDim_{ε,δ}(C) <= DRDim_ε(C)`` for every δ (a deterministic
      representation is a probabilistic one with δ = 0; Defs 2.3-2.4) -- explicit,
      numeric when ``drdim`` (or its computation) is available.
    * BGS Thm 8.8: ``RepDim(C) >= MLD(C)/32`` where RepDim uses
      ``(1/4, 1/8)``-representations and size ``ln |G|`` (nats) -- explicit.
    * FX Thm 3.1 with Thm 1.2(1): ``PRDim_{ε,δ}(C) >= R→,pub_{ε+δ-εδ}(C) = Ω(LDim(C))`` -- unspecified constant.
    * FX §3.1 (Newman): ``DRDim(C) = O(PRDim(C) + log log |X|)`` -- unspecified constant.

    Parameters
    ----------
    H : HypothesisClass
        The concept class (FX's ``C``; ``C=`` is still accepted for one release, with a ``FutureWarning``).
    drdim : RepresentationDimensionResult, optional
        A computed ``DRDim_{1/4}(C)`` (at ε = 1/4); computed here (within ``time_limit``)
        when omitted and the domain is small enough.
    time_limit : float, optional
        Seconds for that computation.

    Returns
    -------
    ProbabilisticRepresentationResult
        A :class:`~dimcalc.results.DimensionResult` of kind ``"prdim"`` (bits; ``exact`` only when
        the bounds meet), its witness the representation that certifies ``upper``, and ``bounds``:
        each bound with its relation, value, source and whether its constants are explicit.

    Examples
    --------
    >>> import numpy as np
    >>> from dimcalc import HypothesisClass
    >>> P = HypothesisClass.from_table(np.eye(4, dtype=int))
    >>> r = probabilistic_representation_bounds(P)
    >>> r.upper, round(r.lower, 4), r.verify(P)          # DRDim_{1/4} = 2 bits; MLD 1 / (32 ln 2)
    (2.0, 0.0451, True)
    >>> [b.source.split(':')[0] for b in r.bounds][:2]
    ['Defs 2.3-2.4 (FX)', 'BGS Thm 8.8']
    """
    C = H
    time_limit = check_time_limit(time_limit, "probabilistic_representation_bounds")
    deadline = Deadline(time_limit)
    out: list[PaperBound] = []
    if drdim is not None and drdim.epsilon != Fraction(1, 4):
        raise parameter_error(
            "drdim", "probabilistic_representation_bounds", "a DRDim result at epsilon 1/4", drdim.epsilon
        )
    if drdim is None and C.num_labels**C.n_points <= MAX_ALL_FUNCTIONS:
        drdim = deterministic_representation_dimension(C, Fraction(1, 4), time_limit=deadline.left())
    upper = drdim.upper if drdim is not None else math.log2(C.n_distinct)
    out.append(
        PaperBound(
            "PRDim_{1/4,δ} (bits)",
            "<=",
            upper,
            "Defs 2.3-2.4 (FX): PRDim_{ε,δ} <= DRDim_ε",
            True,
            "DRDim_{1/4} computed by dimcalc" if drdim is not None else "log2 |C| (C represents itself)",
        )
    )
    mld = multiclass_littlestone_dimension(C, time_limit=deadline.left())
    lower = 0.0
    if mld.lower is not None:
        lower = mld.lower / (32 * math.log(2))  # ln|G| >= MLD/32 nats, in bits
        out.append(
            PaperBound(
                "RepDim = PRDim_{1/4,1/8} (nats, ln|G|)",
                ">=",
                mld.lower / 32,
                "BGS Thm 8.8: RepDim(H) >= MLD(H)/32",
                True,
                f"MLD >= {mld.lower}" + ("" if mld.exact else " (lower bound only)"),
            )
        )
    if C.is_binary:
        ld = littlestone_dimension(C, time_limit=deadline.left())
        out.append(
            PaperBound(
                "PRDim_{ε,δ}",
                ">=",
                None,
                "FX Thm 3.1 (PRDim_{ε,δ} >= R→,pub_{ε+δ-εδ}) and Thm 1.2(1) (R→,pub = Ω(LDim))",
                False,
                f"Ω(LDim) with LDim >= {ld.lower}; constant not specified",
            )
        )
    out.append(
        PaperBound(
            "DRDim_{1/4}",
            "<=",
            None,
            "FX §3.1 (Newman): DRDim = O(PRDim + log log |X|)",
            False,
            f"O(PRDim + log log |X|) with log2 log2 |X| = "
            f"{math.log2(max(1.0, math.log2(max(C.n_points, 2)))):.3g}; constant not specified "
            "(for point functions PRDim = O(1) while DRDim = Θ(log b), FX §3.1)",
        )
    )
    if drdim is not None:
        witness, size_upper = drdim.witness, drdim.size_upper
    else:  # C represents itself (checked in linear time: every concept is a row of it)
        witness, size_upper = Representation(C.distinct_rows.tolist(), epsilon=Fraction(1, 4)), C.n_distinct
    exact = lower == upper
    return ProbabilisticRepresentationResult(
        kind="prdim",
        value=upper if exact else None,
        exact=exact,
        lower=lower,
        upper=upper,
        witness=witness,
        size_upper=size_upper,
        bounds=out,
        stats={"seconds": deadline.elapsed(), "drdim_computed": drdim is not None},
    )
