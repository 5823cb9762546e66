"""The answer of the DRDim solver: sizes, bounds and the representing class (FX Def 2.3)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .._json import to_jsonable
from ..errors import InvalidWitnessError
from ..witnesses.representation import Representation
from .paper_bounds import PaperBound

__all__ = ["RepresentationDimensionResult"]


@dataclass(frozen=True)
class RepresentationDimensionResult:
    """Answer of :func:`deterministic_representation_dimension`.

    ``size`` / ``size_lower`` / ``size_upper`` count functions (|H|);
    ``value`` / ``lower`` / ``upper`` are ``log2`` of them (FX's DRDim, in bits).
    ``witness`` is the smallest ε-representing class found, a
    :class:`~dimcalc.witnesses.Representation` (a list of rows that certifies
    itself with :func:`~dimcalc.witnesses.representation.is_representation`).
    ``bounds`` lists the paper bounds used.
    """

    epsilon: Fraction
    exact: bool
    size_lower: int
    size_upper: int
    witness: Representation
    pool: str
    bounds: list[PaperBound] = field(default_factory=list)
    stats: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.witness, Representation):  # rows given as plain lists
            object.__setattr__(self, "witness", Representation(self.witness, epsilon=self.epsilon))

    @property
    def size(self) -> int | None:
        return self.size_upper if self.exact else None

    @property
    def value(self) -> float | None:
        return math.log2(self.size_upper) if self.exact else None

    @property
    def lower(self) -> float:
        return math.log2(self.size_lower)

    @property
    def upper(self) -> float:
        return math.log2(self.size_upper)

    def verify(self, C: Any) -> bool:
        """Re-check that the witness ε-represents ``C`` (exact arithmetic)."""
        try:
            return self.witness.certify(C) == self.size_upper
        except InvalidWitnessError:
            return False

    def to_json(self) -> dict:
        out: dict[str, Any] = {"epsilon": str(self.epsilon), "exact": self.exact, "pool": self.pool}
        if self.exact:
            out.update(value=self.value, size=self.size)
        else:
            out.update(
                value=None, lower=self.lower, upper=self.upper, size_lower=self.size_lower, size_upper=self.size_upper
            )
        out["witness"] = to_jsonable(self.witness)
        out["bounds"] = to_jsonable(self.bounds)
        return out
