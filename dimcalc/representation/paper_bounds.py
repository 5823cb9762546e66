"""Bounds from the papers on representation dimensions, and the binary entropy they use (FX §3-4, BGS §8)."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from fractions import Fraction

from .._json import fields_to_json
from ..classes.hypothesis_class import HypothesisClass
from ..errors import parameter_error
from ..littlestone import littlestone_dimension

__all__ = ["PaperBound", "binary_entropy", "littlestone_lower_bound"]


def binary_entropy(p: float) -> float:
    """``H(p) = p log2(1/p) + (1-p) log2(1/(1-p))`` (FX Lemma 4.1), with ``H(0) = H(1) = 0``.

    >>> binary_entropy(0.5), round(binary_entropy(0.25), 4)
    (1.0, 0.8113)
    """
    p = float(p)
    if not 0 <= p <= 1:
        raise parameter_error("p", "binary_entropy", "a number in [0, 1]", p)
    if p in (0.0, 1.0):
        return 0.0
    return -p * math.log2(p) - (1 - p) * math.log2(1 - p)


@dataclass(frozen=True)
class PaperBound:
    """A bound taken from a paper: value, direction, source and whether its constants are explicit."""

    quantity: str
    relation: str  # "<=" or ">="  (quantity relation value)
    value: float | None
    source: str
    explicit_constants: bool
    note: str = ""

    def to_json(self) -> dict:
        """Every field, in order."""
        return fields_to_json(self, (f.name for f in fields(self)))


def littlestone_lower_bound(C: HypothesisClass, eps: Fraction, time_limit: float | None) -> PaperBound | None:
    """FX Thm 3.2 (>=) and Cor 4.3: ceil(log2|H|) >= R→_ε(C) >= (1 - H(ε))·LDim(C) (binary, ε <= 1/2)."""
    if not C.is_binary or eps > Fraction(1, 2):
        return None
    ld = littlestone_dimension(C, time_limit=time_limit)
    if ld.lower is None:
        return None
    value = (1 - binary_entropy(float(eps))) * ld.lower
    return PaperBound(
        "ceil(log2 |H|)",
        ">=",
        value,
        "FX Thm 3.2 (DRDim_ε >= R→_ε) and Cor 4.3 (R→_ε >= (1 - H(ε))·LDim)",
        True,
        f"LDim >= {ld.lower}" + ("" if ld.exact else " (lower bound only)"),
    )
