"""One-way communication complexity of ``Eval_C`` (FX §2.4, §3).

Alice holds a concept ``f in C``, Bob a point ``x``; Alice sends one message and
Bob must output ``f(x)``.  Messages are bit strings of a fixed length ``c``
(the cost), as in FX §2.4.

Deterministic complexity (exact).  ``D→(Eval_C) = ceil(log2 r)`` where ``r`` is
the number of distinct rows of ``C``.  *Upper bound:* Alice sends the index of
her row among the ``r`` distinct rows (``ceil(log2 r)`` bits) and Bob looks
``f(x)`` up.  *Lower bound:* if two concepts with different rows got the same
message, Bob's output on that message and a point ``x`` where the rows differ
would be wrong for one of them; so the message map is injective on distinct
rows and ``2^c >= r``.  (Concepts with equal rows are indistinguishable and may
share a message.)

Randomized complexities are bounded through FX's equivalences (binary ``C``):

* private coin, FX Thm 3.2: ``R→_ε(C) <= ceil(DRDim_ε(C))`` (Alice samples from
  the minimax mixture over a smallest ε-representation and sends its index);
  ``R→_ε(C) >= ceil(DRDim_{2ε}(C))`` for ``2ε <= 1/2`` (from
  ``DRDim_{2ε} <= R→_ε``; the cost is an integer);
* FX Cor 4.3: ``R→_ε(C) >= (1 - H(ε))·LDim(C)`` (explicit);
* public coin: ``R→,pub_ε(C) <= R→_ε(C)`` (private coins are a special case);
  FX Thm 1.2(1): ``R→,pub = Ω(LDim)`` (constant not specified), and
  FX Thm 3.1 ties it to PRDim.

References
----------
FX: Feldman, Xiao, COLT 2014, §2.4, Thms 3.1-3.2, Lemma 4.1-4.2, Cor 4.3.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .._params import as_fraction
from ..classes.hypothesis_class import HypothesisClass
from ..littlestone import littlestone_dimension
from ..param_validation import CLASS, REPRESENTATION_EPSILON, TIME_LIMIT, renamed_parameters, validate_params
from ..results import DimensionResult
from ..search.budget import Deadline
from ..witnesses.representation import MessageTable
from . import (
    MAX_ALL_FUNCTIONS,
    PaperBound,
    RepresentationDimensionResult,
    binary_entropy,
    deterministic_representation_dimension,
)

__all__ = ["CommunicationResult", "deterministic_one_way_complexity", "one_way_communication_complexity"]


@renamed_parameters(C="H")
@validate_params(H=CLASS)
def deterministic_one_way_complexity(H: HypothesisClass) -> int:
    """``D→(Eval_C) = ceil(log2(number of distinct rows))`` (proof in the module docstring).

    Parameters
    ----------
    H : HypothesisClass
        The class ``C`` whose evaluation problem Alice (holding ``c``) and Bob (holding ``x``) solve
        (``C=`` is still accepted for one release, with a ``FutureWarning``).

    Returns
    -------
    int
        The deterministic one-way communication complexity in bits, exactly.

    Examples
    --------
    >>> import numpy as np
    >>> from dimcalc import HypothesisClass
    >>> deterministic_one_way_complexity(HypothesisClass.from_table(np.eye(5, dtype=int)))
    3
    """
    return (H.n_distinct - 1).bit_length()  # ceil(log2 r) for r >= 1, exactly in integers


@dataclass(frozen=True, kw_only=True)
class CommunicationResult(DimensionResult):
    """Deterministic one-way complexity (exact, with the message table as witness) and randomized bounds.

    A :class:`~dimcalc.results.DimensionResult` of kind ``"one_way_communication"``: ``value``
    (= ``lower`` = ``upper`` = :attr:`deterministic`) is ``D→(Eval_C)`` in bits, exactly.
    ``witness`` is a :class:`~dimcalc.witnesses.representation.MessageTable`: it maps each
    distinct row of ``C`` (by file row index) to Alice's message (an ``int`` below
    ``2**deterministic``); Bob's table is ``C`` itself; ``verify(C)`` re-checks that the
    messages tell every distinct row apart within that many bits.
    ``private_coin`` / ``public_coin`` are ``(lower, upper)`` pairs of bits at error
    ``epsilon`` (``None`` when no bound applies) and ``bounds`` names the theorem of each.
    """

    epsilon: Fraction
    private_coin: tuple[int | None, int | None]
    public_coin: tuple[int | None, int | None]
    # the theorems (the name these results always had; hides the DimensionResult.bounds constructor on instances)
    bounds: list[PaperBound] = field(default_factory=list)  # type: ignore[assignment]

    @property
    def deterministic(self) -> int:
        """``D→(Eval_C)`` in bits (the ``value``)."""
        return int(self)

    def to_json(self) -> dict:
        """``{epsilon, deterministic, private_coin, public_coin, bounds}`` as ``dimcalc repdim --json`` prints it."""
        return {
            "epsilon": str(self.epsilon),
            "deterministic": {"value": self.deterministic, "exact": True, "witness": dict(self.witness)},
            "private_coin": {
                "lower": self.private_coin[0],
                "upper": self.private_coin[1],
                "exact": self.private_coin[0] == self.private_coin[1],
            },
            "public_coin": {
                "lower": self.public_coin[0],
                "upper": self.public_coin[1],
                "exact": self.public_coin[0] == self.public_coin[1],
            },
            "bounds": [b.to_json() for b in self.bounds],
        }


@renamed_parameters(C="H")
@validate_params(H=CLASS, epsilon=REPRESENTATION_EPSILON, time_limit=TIME_LIMIT)
def one_way_communication_complexity(
    H: HypothesisClass,
    epsilon: Any = Fraction(1, 3),
    *,
    time_limit: float | None = None,
    representation: RepresentationDimensionResult | None = None,
) -> CommunicationResult:
    """One-way communication complexity of ``Eval_C``: deterministic exactly, randomized bounded.

    Parameters
    ----------
    H : HypothesisClass
        The class ``C`` of ``Eval_C`` (``C=`` is still accepted for one release, with a ``FutureWarning``).
    epsilon : float, Fraction or str
        Error of the randomized protocols, in ``[0, 1/2]``.
    time_limit : float, optional
        Budget for the representation MILPs and the Littlestone dimension.
    representation : RepresentationDimensionResult, optional
        A ``DRDim_ε`` result already computed for this ``ε`` (saves a MILP).

    Returns
    -------
    CommunicationResult
        A :class:`~dimcalc.results.DimensionResult`: ``value`` is the deterministic complexity
        (exact, witness the message table); ``private_coin`` / ``public_coin`` bound the
        randomized ones at error ``epsilon``, with their theorems in ``bounds``.

    References
    ----------
    FX §2.4 (protocols), Thm 3.2, Cor 4.3, Thm 1.2.

    Examples
    --------
    >>> import numpy as np
    >>> from dimcalc import HypothesisClass
    >>> T = HypothesisClass.from_table(np.tril(np.ones((5, 4), dtype=int), -1))   # 5 thresholds on 4 points
    >>> r = one_way_communication_complexity(T, 0.25)
    >>> r.value, r.exact, r.verify(T), r.private_coin[1] <= r.deterministic
    (3, True, True, True)
    """
    C = H
    eps = as_fraction(epsilon)
    deadline = Deadline(time_limit)
    det = deterministic_one_way_complexity(C)
    witness = MessageTable({int(C.row_of(j)): j for j in range(C.n_distinct)})
    bounds = [
        PaperBound("D→(Eval_C)", "=", det, "dimcalc.representation.communication (message = distinct row index)", True)
    ]
    lower, upper = 0, det
    small = C.num_labels**C.n_points <= MAX_ALL_FUNCTIONS
    if small:
        rep = (
            representation
            if representation is not None and representation.epsilon == eps
            else deterministic_representation_dimension(C, eps, time_limit=deadline.left())
        )
        up = math.ceil(rep.upper - 1e-12)
        bounds.append(
            PaperBound(
                "R→_ε",
                "<=",
                up,
                "FX Thm 3.2 (R→_ε <= DRDim_ε, index of a sampled h)",
                True,
                f"|H| = {rep.size_upper}" + ("" if rep.exact else " (upper bound)"),
            )
        )
        upper = min(upper, up)
        if 2 * eps <= Fraction(1, 2) and C.is_binary:  # majority vote needs binary labels
            rep2 = deterministic_representation_dimension(C, 2 * eps, time_limit=deadline.left())
            lo = math.ceil(rep2.lower - 1e-12)
            bounds.append(
                PaperBound(
                    "R→_ε", ">=", lo, "FX Thm 3.2 (DRDim_{2ε} <= R→_ε)", True, f"DRDim_{{2ε}} >= log2 {rep2.size_lower}"
                )
            )
            lower = max(lower, lo)
    if C.is_binary:
        ld = littlestone_dimension(C, time_limit=deadline.left())
        if ld.lower is not None:
            value = (1 - binary_entropy(float(eps))) * ld.lower
            lo = math.ceil(value - 1e-9)
            bounds.append(
                PaperBound("R→_ε", ">=", value, "FX Cor 4.3 (R→_ε >= (1 - H(ε))·LDim)", True, f"LDim >= {ld.lower}")
            )
            lower = max(lower, lo)
            bounds.append(
                PaperBound(
                    "R→,pub_ε",
                    ">=",
                    None,
                    "FX Thm 1.2(1): R→,pub = Ω(LDim)",
                    False,
                    f"Ω(LDim) with LDim >= {ld.lower}; constant not specified",
                )
            )
    lower = min(lower, upper)
    return CommunicationResult(
        kind="one_way_communication",
        value=det,
        exact=True,
        lower=det,
        upper=det,
        witness=witness,
        stats={"seconds": deadline.elapsed()},
        epsilon=eps,
        private_coin=(lower, upper),
        public_coin=(0, upper),
        bounds=bounds,
    )
