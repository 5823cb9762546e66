"""Result objects returned by every dimension solver.

A :class:`DimensionResult` carries the value, whether it is exact, proven
lower/upper bounds and a witness in the public JSON format of the interface
spec (§3).  ``verify(H)`` re-checks the witness with the independent checker
registered for that dimension kind, so a result can always be audited.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from .hypothesis_class import HypothesisClass

__all__ = ["DimensionResult", "register_verifier", "verifier_for"]

# kind -> function(H, witness) -> size certified by the witness (int) or None if invalid.
_VERIFIERS: dict[str, Callable[[HypothesisClass, Any], int | None]] = {}


def register_verifier(kind: str, checker: Callable[[HypothesisClass, Any], int | None]) -> None:
    """Register the independent witness checker for a dimension kind.

    ``checker(H, witness)`` must return the size the witness certifies (the
    number of points of a shattered set, the depth of a shattered tree, ...) or
    ``None`` when the witness is not valid for ``H``.
    """
    _VERIFIERS[kind] = checker


def verifier_for(kind: str) -> Callable[[HypothesisClass, Any], int | None]:
    """Return the checker registered for ``kind`` (KeyError if none)."""
    return _VERIFIERS[kind]


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
    witness : object
        Certificate for ``lower`` in the spec §3 JSON format (point indices and
        hypothesis row indices refer to the class file's rows and columns).
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
        """Check the witness against ``H`` with the independent checker.

        Returns True when the witness certifies ``lower`` (the value when
        exact).  With ``debug=True`` a failure raises ``AssertionError`` with
        the reason instead of returning False.
        """
        if self.reason is not None and self.value is None and self.lower is None:
            return True  # nothing claimed
        base = self.kind.split(":", 1)[0]
        checker = _VERIFIERS.get(self.kind) or _VERIFIERS.get(base)
        if checker is None:
            if debug:
                raise AssertionError(f"no checker registered for {self.kind!r}")
            return False
        certified = checker(H, self.witness)
        ok = certified is not None and certified == self.lower
        if not ok and debug:
            raise AssertionError(
                f"{self.kind}: witness certifies {certified!r}, result claims lower bound {self.lower!r}"
            )
        return ok

    def to_json(self) -> dict:
        """The spec §2 JSON object for this result."""
        if self.reason is not None and self.value is None and self.lower is None:
            return {"value": None, "exact": self.exact, "reason": self.reason}
        if self.exact:
            return {"value": self.value, "exact": True, "witness": self.witness}
        return {"value": None, "exact": False, "lower": self.lower, "upper": self.upper, "witness": self.witness}
