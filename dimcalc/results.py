"""Result objects returned by every dimension solver.

A :class:`DimensionResult` carries the value, whether it is exact, proven
lower/upper bounds and a witness object (:mod:`dimcalc.witnesses`: the public
JSON data of the interface spec §3 that also knows how to check itself).
``verify(H)`` calls the witness's own ``certify(H)``, the independent
checker, so a result can always be audited.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ._json import to_jsonable
from .errors import InvalidWitnessError
from .witnesses import Witness, as_witness

if TYPE_CHECKING:  # pragma: no cover
    from .classes.hypothesis_class import HypothesisClass

__all__ = ["DimensionResult"]


@dataclass(frozen=True)
class DimensionResult:
    """The answer of a dimension solver.

    Attributes
    ----------
    kind : str
        Which dimension, e.g. ``"vc"``, ``"littlestone"``, ``"psi_littlestone:bin"``.
    value : int or None
        The dimension when ``exact``; ``None`` when only bounds are known.
    exact : bool
        True when ``value`` is proven (lower == upper).
    lower, upper : int or None
        Proven bounds.  ``lower`` is certified by ``witness``; ``upper`` is a
        proven upper bound (``None`` if unbounded/unknown).
    witness : Witness or None
        Certificate for ``lower``: a :mod:`dimcalc.witnesses` object, which is
        the spec §3 JSON data itself (a list or dict subclass; point indices
        and hypothesis row indices refer to the class file's rows and columns)
        with ``certify(H)``.  Plain data given to the constructor is turned
        into the witness object of ``kind`` (:func:`dimcalc.witnesses.as_witness`).
    reason : str or None
        Why a value is absent (e.g. "not defined for multiclass classes").
    stats : dict
        Solver statistics (nodes, time, method), for reports and benchmarks.
    """

    kind: str
    value: int | None
    exact: bool
    lower: int | None
    upper: int | None
    witness: Any = None
    reason: str | None = None
    stats: dict = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "witness", as_witness(self.kind, self.witness))

    @classmethod
    def exact_value(cls, kind: str, value: int, witness: Any, **stats: Any) -> DimensionResult:
        """Build an exact result."""
        return cls(kind=kind, value=value, exact=True, lower=value, upper=value, witness=witness, stats=dict(stats))

    @classmethod
    def bounds(cls, kind: str, lower: int, upper: int | None, witness: Any, **stats: Any) -> DimensionResult:
        """Build a result from proven bounds; exact when they meet."""
        if upper is not None and lower == upper:
            return cls.exact_value(kind, lower, witness, **stats)
        return cls(kind=kind, value=None, exact=False, lower=lower, upper=upper, witness=witness, stats=dict(stats))

    @classmethod
    def undefined(cls, kind: str, reason: str) -> DimensionResult:
        """A dimension that is not defined for this class (e.g. VC of a multiclass class)."""
        return cls(kind=kind, value=None, exact=True, lower=None, upper=None, witness=None, reason=reason)

    def __int__(self) -> int:
        if self.value is None:
            raise ValueError(f"{self.kind}: no exact value (bounds [{self.lower}, {self.upper}])")
        return self.value

    def verify(self, H: HypothesisClass, *, debug: bool = False) -> bool:
        """Check the witness against ``H`` with its independent checker (``witness.certify(H)``).

        Returns True when the witness certifies ``lower`` (the value when
        exact).  With ``debug=True`` a failure raises ``AssertionError`` with
        the reason instead of returning False.
        """
        if self.reason is not None and self.value is None and self.lower is None:
            return True  # nothing claimed
        problem = self._problem(H)
        if problem is not None and debug:
            raise AssertionError(f"{self.kind}: {problem}")
        return problem is None

    def _problem(self, H: HypothesisClass) -> str | None:
        """Why the witness does not certify ``lower`` for ``H``; None when it does."""
        if not isinstance(self.witness, Witness):
            return f"no witness object to check (the witness is {type(self.witness).__name__} data)"
        try:
            certified = self.witness.certify(H)
        except InvalidWitnessError as exc:
            return f"witness certifies nothing: {exc}"
        if certified != self.lower:
            return f"witness certifies {certified!r}, result claims lower bound {self.lower!r}"
        return None

    def _repr_html_(self) -> str:  # Jupyter display: dimcalc.display (imported when a notebook asks)
        from .display import result_html

        return result_html(self)

    def to_json(self) -> dict:
        """The spec §2 JSON object for this result."""
        if self.reason is not None and self.value is None and self.lower is None:
            return {"value": None, "exact": self.exact, "reason": self.reason}
        witness = to_jsonable(self.witness)
        if self.exact:
            return {"value": self.value, "exact": True, "witness": witness}
        return {"value": None, "exact": False, "lower": self.lower, "upper": self.upper, "witness": witness}
