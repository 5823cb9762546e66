"""Result objects returned by every dimension solver.

A :class:`DimensionResult` carries the value, whether it is exact, proven
lower/upper bounds and a witness object (:mod:`dimcalc.witnesses`: the public
JSON data of the interface spec §3 that also knows how to check itself).
``verify(H)`` calls the witness's own ``certify(H)``, the independent
checker, so a result can always be audited.

**Extension point.**  A solver whose answer carries more than these fields
returns a *subclass*: a frozen dataclass adding keyword-only fields, still a
``DimensionResult`` (``isinstance`` holds, ``value/exact/lower/upper/witness/verify()``
mean the same).  :class:`MaximumResult` is the maximum of several results (the
binary restrictions' Littlestone dimensions); the representation results of
:mod:`dimcalc.representation` add ε, sizes and paper bounds.  A subclass whose
witness certifies the *upper* bound (a smallest representation) says so and
overrides ``verify``.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from ._json import to_jsonable
from .errors import InvalidWitnessError
from .witnesses import Witness, as_witness

if TYPE_CHECKING:  # pragma: no cover
    from .classes.hypothesis_class import HypothesisClass

__all__ = ["DimensionResult", "MaximumResult", "ListReadingDeprecated"]


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


class ListReadingDeprecated:
    """For a function that returned a list and now returns a result: the result still reads as that list
    (iteration, ``len``, indexing) for one release, with a :class:`FutureWarning` naming the attribute
    that holds the list now (``_list_attribute``)."""

    _list_attribute: ClassVar[str]

    def _former_list(self) -> list:
        warnings.warn(
            f"{type(self).__name__}: reading the result as a list is deprecated (the function returned a "
            f"list before); read its .{self._list_attribute} instead. This goes in the next release.",
            FutureWarning,
            stacklevel=3,
        )
        return list(getattr(self, self._list_attribute))

    def __iter__(self) -> Any:
        return iter(self._former_list())

    def __len__(self) -> int:
        return len(self._former_list())

    def __getitem__(self, index: Any) -> Any:
        return self._former_list()[index]

    def __bool__(self) -> bool:  # a result is always true (not "empty"), as every DimensionResult
        return True


@dataclass(frozen=True, kw_only=True)
class MaximumResult(ListReadingDeprecated, DimensionResult):
    """The maximum of several dimensions (e.g. ``max_i LDim(H|_i)`` over the binary restrictions), with each part.

    ``lower`` is the largest proven lower bound of the parts and ``witness`` the witness of that
    part (so ``verify(H)`` checks it); ``upper`` is the largest upper bound (``None`` when a part has
    none); exact when they meet.  ``parts`` holds every part's own result, in order.

    Examples
    --------
    >>> a = DimensionResult.exact_value("vc", 1, [0])
    >>> b = DimensionResult.bounds("vc", 2, 3, [0, 1])
    >>> m = MaximumResult.of("vc:max", [a, b])
    >>> m.lower, m.upper, m.exact, m.witness, len(m.parts)
    (2, 3, False, [0, 1], 2)
    """

    parts: tuple[DimensionResult, ...] = ()
    _list_attribute: ClassVar[str] = "parts"

    @classmethod
    def of(cls, kind: str, parts: Sequence[DimensionResult], **stats: Any) -> MaximumResult:
        """The maximum of ``parts`` (each a result of the same measure), as one result of ``kind``."""
        known = [r for r in parts if r.lower is not None]
        if not known:
            return cls(kind=kind, value=None, exact=False, lower=None, upper=None, parts=tuple(parts), stats=stats)
        best = max(known, key=lambda r: r.lower if r.lower is not None else -1)
        uppers = [r.upper for r in parts]
        upper = None if any(u is None for u in uppers) else max(u for u in uppers if u is not None)
        lower = best.lower
        exact = upper is not None and lower == upper
        return cls(
            kind=kind,
            value=lower if exact else None,
            exact=exact,
            lower=lower,
            upper=upper,
            witness=best.witness,
            parts=tuple(parts),
            stats=stats,
        )

    def to_json(self) -> dict:
        """The spec §2 object of the maximum, with ``parts`` (each part's own object) added."""
        return super().to_json() | {"parts": [r.to_json() for r in self.parts]}
