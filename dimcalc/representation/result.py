"""The answers of the representation solvers: DRDim (FX Def 2.3) and the bounds on PRDim (FX Def 2.4, BGS §8).

Both are :class:`~dimcalc.results.DimensionResult` subclasses (its extension point): ``value``,
``exact``, ``lower``, ``upper``, ``witness`` and ``verify(C)`` mean what they mean for every
dimension, with two differences stated here once:

* the dimensions are ``log2`` of sizes, so ``value``/``lower``/``upper`` are floats (bits);
* the witness -- a class ``H`` that ε-represents ``C`` -- certifies the **upper** bound
  (``|H| = size_upper``); ``verify(C)`` re-checks it in exact arithmetic.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar

from .._json import to_jsonable
from ..errors import InvalidWitnessError
from ..results import DimensionResult, ListReadingDeprecated
from ..witnesses.representation import Representation
from .paper_bounds import PaperBound

if TYPE_CHECKING:  # pragma: no cover
    from ..classes.hypothesis_class import HypothesisClass

__all__ = ["RepresentationDimensionResult", "ProbabilisticRepresentationResult"]


class _CertifiesUpper:
    """``verify``: the witness (a :class:`Representation`) certifies ``size_upper`` functions."""

    witness: Any
    size_upper: int

    def _problem(self, H: HypothesisClass) -> str | None:
        if not isinstance(self.witness, Representation):
            return f"no representation to check (the witness is {type(self.witness).__name__} data)"
        try:
            certified = self.witness.certify(H)
        except InvalidWitnessError as exc:
            return f"witness certifies nothing: {exc}"
        if certified != self.size_upper:
            return f"witness certifies {certified} functions, the result claims {self.size_upper}"
        return None


@dataclass(frozen=True, kw_only=True)
class RepresentationDimensionResult(_CertifiesUpper, DimensionResult):
    """Answer of :func:`~dimcalc.representation.deterministic_representation_dimension` (kind ``"drdim"``).

    ``size`` / ``size_lower`` / ``size_upper`` count functions (|H|);
    ``value`` / ``lower`` / ``upper`` are ``log2`` of them (FX's DRDim, in bits).
    ``witness`` is the smallest ε-representing class found, a
    :class:`~dimcalc.witnesses.Representation` (a list of rows that certifies
    itself with :func:`~dimcalc.witnesses.representation.is_representation`): it
    certifies ``size_upper``.  ``bounds`` lists the paper bounds used; ``pool`` names
    the candidate functions.

    Examples
    --------
    >>> r = RepresentationDimensionResult.from_sizes(Fraction(1, 4), 2, 4, [[0, 1], [1, 0], [0, 0], [1, 1]], "all")
    >>> r.kind, r.exact, r.lower, r.upper, r.size
    ('drdim', False, 1.0, 2.0, None)
    """

    # DRDim is log2 |H| bits: a float where the other dimensions are ints; both bounds always proven.
    value: float | None  # type: ignore[assignment]
    lower: float  # type: ignore[assignment]
    upper: float  # type: ignore[assignment]
    epsilon: Fraction
    size_lower: int
    size_upper: int
    pool: str
    # the paper bounds used (the name these results always had; on an instance it hides the
    # DimensionResult.bounds constructor, which builds plain results only)
    bounds: list[PaperBound] = field(default_factory=list)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.witness, Representation):  # rows given as plain lists
            object.__setattr__(self, "witness", Representation(self.witness, epsilon=self.epsilon))

    @classmethod
    def from_sizes(
        cls,
        epsilon: Fraction,
        size_lower: int,
        size_upper: int,
        witness: Any,
        pool: str,
        bounds: list[PaperBound] | None = None,
        **stats: Any,
    ) -> RepresentationDimensionResult:
        """The result for proven sizes ``size_lower <= |H| <= size_upper`` (exact when they meet)."""
        exact = size_lower == size_upper
        return cls(
            kind="drdim",
            value=math.log2(size_upper) if exact else None,
            exact=exact,
            lower=math.log2(size_lower),
            upper=math.log2(size_upper),
            witness=witness,
            stats=dict(stats),
            epsilon=epsilon,
            size_lower=size_lower,
            size_upper=size_upper,
            pool=pool,
            bounds=list(bounds or []),
        )

    @property
    def size(self) -> int | None:
        """The size of a smallest ε-representation when exact, else ``None``."""
        return self.size_upper if self.exact else None

    def to_json(self) -> dict:
        """``{epsilon, exact, pool, value, size | lower, upper, size_lower, size_upper, witness, bounds}``."""
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


@dataclass(frozen=True, kw_only=True)
class ProbabilisticRepresentationResult(ListReadingDeprecated, _CertifiesUpper, DimensionResult):
    """Answer of :func:`~dimcalc.representation.probabilistic_representation_bounds` (kind ``"prdim"``).

    The quantity is ``PRDim_{1/4,1/8}(C)`` in bits (FX Def 2.4; BGS's ``RepDim``, there in nats).
    dimcalc does not compute it: ``upper`` is ``DRDim_{1/4}(C)`` (a deterministic representation is
    a probabilistic one, Defs 2.3-2.4; ``log2 |C|`` when DRDim was not computed), certified by the
    representation in ``witness`` (``size_upper`` functions); ``lower`` is BGS Thm 8.8,
    ``MLD(C)/32`` nats ``= MLD/(32 ln 2)`` bits.  ``bounds`` lists every paper bound, those with
    unspecified constants too.  (The function returned the list of bounds before; reading the
    result as that list still works for one release, with a ``FutureWarning``.)
    """

    value: float | None  # type: ignore[assignment]
    lower: float  # type: ignore[assignment]
    upper: float  # type: ignore[assignment]
    epsilon: Fraction = Fraction(1, 4)
    delta: Fraction = Fraction(1, 8)
    size_upper: int
    bounds: list[PaperBound] = field(default_factory=list)  # type: ignore[assignment]  # as above
    _list_attribute: ClassVar[str] = "bounds"

    def to_json(self) -> dict:
        """The spec §2 object (bits), with ``epsilon``, ``delta``, ``size_upper`` and the ``bounds``."""
        return super().to_json() | {
            "epsilon": str(self.epsilon),
            "delta": str(self.delta),
            "size_upper": self.size_upper,
            "bounds": to_jsonable(self.bounds),
        }
