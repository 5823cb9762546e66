"""The representation report: DRDim_ε by MILP, the paper bounds on PRDim, one-way communication of Eval_C.

Feldman and Xiao (COLT 2014): a class ``H`` ε-represents ``C`` (FX Def 2.3) when
every ``c`` in ``C`` has an ``h`` in ``H`` within error ε; ``DRDim_ε(C)`` is
``log2`` of the smallest such ``H``; ``PRDim`` (FX Def 2.4) is bounded through it
and through the Littlestone dimension (BGS Thm 8.8); the one-way communication
complexity of evaluating ``C`` (FX §4) is bounded by the same numbers.  What
``dimcalc repdim`` prints.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .._params import as_fraction
from ..classes.hypothesis_class import HypothesisClass
from ..param_validation import CLASS, REPRESENTATION_EPSILON, TIME_LIMIT, validate_params
from ..representation import (
    PaperBound,
    RepresentationDimensionResult,
    deterministic_representation_dimension,
    probabilistic_representation_bounds,
)
from ..representation.communication import CommunicationResult, one_way_communication_complexity
from ..search.budget import Deadline

__all__ = ["RepdimReport", "repdim_report"]


@dataclass(frozen=True)
class RepdimReport:
    """DRDim_ε with its witness, the one-way communication of Eval_C, and the paper bounds on PRDim.

    ``verified`` says whether dimcalc's checker accepted the representation;
    ``stopped`` whether the time limit stopped the search (the DRDim numbers are
    then proven bounds).  Without a stop, a pool that is not every function
    also gives bounds only (``representation.exact`` is ``False``).
    """

    hclass: HypothesisClass
    epsilon: Fraction
    representation: RepresentationDimensionResult
    verified: bool
    communication: CommunicationResult
    prdim_bounds: list[PaperBound]
    stopped: bool

    @property
    def witness(self) -> dict:
        """The whole witness: the representing class and Alice's message table."""
        return {"representation": self.representation.witness, "messages": self.communication.witness}

    @property
    def witness_values(self) -> int:
        """How many JSON values :attr:`witness` holds (a row per function of H, two per message)."""
        return len(self.representation.witness) * max(self.hclass.n_points, 1) + 2 * len(self.communication.witness)

    @property
    def bounds(self) -> list[PaperBound]:
        """Every paper bound of the report, in the order ``dimcalc repdim`` lists them."""
        return self.representation.bounds + self.communication.bounds[1:] + self.prdim_bounds

    def to_json(self, witness: Any = None) -> dict:
        """``{drdim, communication, prdim_bounds}`` as ``dimcalc repdim --json`` prints it.

        With ``witness`` (a summary of a witness too big to print), it stands in for both parts of the witness.
        """
        drdim = self.representation.to_json() | {"verified": self.verified}
        communication = self.communication.to_json()
        if witness is not None:
            drdim["witness"] = witness
            communication["deterministic"]["witness"] = witness
        return {
            "drdim": drdim,
            "communication": communication,
            "prdim_bounds": [b.to_json() for b in self.prdim_bounds],
        }


@validate_params(H=CLASS, epsilon=REPRESENTATION_EPSILON, time_limit=TIME_LIMIT)
def repdim_report(
    H: HypothesisClass, epsilon: Any = Fraction(1, 4), *, pool: str | None = None, time_limit: float | None = None
) -> RepdimReport:
    """DRDim_ε of ``H`` (exact with every function as candidate), PRDim bounds and one-way communication.

    Parameters
    ----------
    H : HypothesisClass
        The class ``C`` to represent.
    epsilon : float, Fraction or str, default 1/4
        Accuracy ε in ``[0, 1/2]``; text such as ``"1/3"`` is read exactly.
    pool : {"all", "class"} or sequence, optional
        Candidate functions, as :func:`~dimcalc.deterministic_representation_dimension` takes them:
        every function on the domain (exact) or the class itself (an upper bound); default every
        function when there are at most 64.
    time_limit : float, optional
        Seconds for the whole report; a stopped search leaves proven bounds.

    Returns
    -------
    RepdimReport
        The representation (with its verification), the communication result and the PRDim bounds
        (which reuse DRDim when ε = 1/4).

    References
    ----------
    FX Defs 2.3-2.4, Thm 3.2, Cor 4.3 (Feldman and Xiao, COLT 2014); BGS Thm 8.8.

    Examples
    --------
    >>> import numpy as np
    >>> from dimcalc import HypothesisClass
    >>> P = HypothesisClass.from_table(np.eye(4, dtype=int))          # 4 point functions
    >>> report = repdim_report(P, "1/4")
    >>> report.representation.size, report.verified, report.communication.deterministic, report.stopped
    (4, True, 2, False)
    """
    eps = as_fraction(epsilon)
    deadline = Deadline(time_limit)
    rep = deterministic_representation_dimension(H, eps, pool=pool, time_limit=deadline.left())
    # the witness is checked once by dimcalc's checker (is_representation, what rep.verify runs): inside the
    # solver when it chose it from the MILP, else here (C itself: linear time)
    verified = bool(rep.stats.get("witness_checked")) or rep.verify(H)
    comm = one_way_communication_complexity(H, eps, time_limit=deadline.left(), representation=rep)
    prdim = probabilistic_representation_bounds(
        H, drdim=rep if eps == Fraction(1, 4) else None, time_limit=deadline.left()
    )
    stopped = not rep.exact and (deadline.expired() or bool(rep.stats.get("milp_stopped")))
    return RepdimReport(H, eps, rep, verified, comm, prdim.bounds, stopped=stopped)
