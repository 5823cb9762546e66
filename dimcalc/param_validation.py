"""Declarative parameter rules, checked once at the public boundary (scikit-learn's ``_param_validation``).

A public function states its rules beside its signature and receives normalised values::

    @validate_params(H=CLASS, jobs=JOBS, progress=PROGRESS, time_limit=TIME_LIMIT)
    def vc_dimension(H, *, time_limit=None, progress=False, jobs=1): ...

A rule is an object (:class:`Interval`, :class:`StrOptions`, :class:`Flag`, ...) whose
``check(value, name, owner)`` returns the normalised value or raises
:class:`~dimcalc.errors.InvalidParameterError` (a ``ValueError``) with dimcalc's one message
shape, ``The 'epsilon' parameter of f must be ... Got ... instead.``  Each kind of
parameter has **one** rule, defined here and shared by every function that takes it
(:data:`JOBS`, :data:`PROGRESS`, :data:`TIME_LIMIT`, :data:`REPRESENTATION_EPSILON`, ...), so the
same value gets the same answer everywhere: ``jobs=np.int64(2)`` is 2 for every solver,
``progress=1`` is refused by every solver, ``epsilon=0.75`` is refused by every
representation-dimension function.  The rules are built on the ``check_*`` validators of
:mod:`dimcalc.validation` (the one reading of numbers: a ``bool`` is never a number, NumPy
numbers are numbers, text read exactly where ``text=True``).

Examples
--------
>>> @validate_params(n=Interval(int, 1, None, closed="left"), how=StrOptions({"fast", "exact"}))
... def f(n, how="exact"):
...     return n, how
>>> import numpy as np
>>> f(np.int64(3))
(3, 'exact')
>>> f(0)
Traceback (most recent call last):
...
dimcalc.errors.InvalidParameterError: The 'n' parameter of f must be an int >= 1. Got 0 instead.
>>> JOBS.check(np.int64(2), "jobs", "littlestone_dimension")
2
"""

from __future__ import annotations

import functools
import inspect
import warnings
from collections.abc import Callable, Collection
from numbers import Real
from typing import Any, Literal, TypeVar

import numpy as np

from ._params import check_epsilon
from .errors import parameter_error
from .validation import (
    check_bool,
    check_hypothesis_class,
    check_int,
    check_jobs,
    check_jobs_or_auto,
    check_number,
    check_option,
    check_time_limit,
)

__all__ = [
    "Rule",
    "Interval",
    "StrOptions",
    "Flag",
    "Options",
    "validate_params",
    "renamed_parameters",
    "CLASS",
    "FLAG",
    "JOBS",
    "JOBS_OR_AUTO",
    "PROGRESS",
    "TIME_LIMIT",
    "PRIVACY_EPSILON",
    "REPRESENTATION_EPSILON",
    "RANDOM_STATE",
    "RandomState",
]

F = TypeVar("F", bound=Callable[..., Any])


class Rule:
    """A constraint on one parameter: :meth:`check` returns the normalised value or raises."""

    def check(self, value: Any, name: str, owner: str) -> Any:
        """The normalised value, or :class:`~dimcalc.errors.InvalidParameterError` naming ``name`` and ``owner``.

        Parameters
        ----------
        value : object
            The value given.
        name, owner : str
            The parameter and the public function, named in the message.

        Returns
        -------
        object
            ``value`` normalised (a plain ``int`` for a NumPy integer, exact ``Fraction`` for text, ...).
        """
        raise NotImplementedError


class Interval(Rule):
    """A number in an interval: ``Interval(int, 1, None, closed="left")`` is an int >= 1 (scikit-learn's ``Interval``).

    Parameters
    ----------
    kind : {int, numbers.Real}
        ``int`` (NumPy integers accepted, never a bool) or any real number (``int``, ``float``,
        ``Fraction``; with ``text``, exact text such as ``"1/3"``).
    left, right : number, str or None
        The bounds (``None`` for no bound; text such as ``"1/2"`` for an exact rational bound).
    closed : {"left", "right", "both", "neither"}
        Which bounds belong to the interval.
    text : bool, default False
        Read text as an exact number (the CLI's ``--epsilon 1/3``).
    requirement : str, optional
        The message's wording when a function states it in its own words.

    Examples
    --------
    >>> Interval(Real, 0, "1/2", closed="both", text=True).check("1/3", "epsilon", "f")
    Fraction(1, 3)
    >>> Interval(int, 0, 4, closed="both").check(5, "n", "f")
    Traceback (most recent call last):
    ...
    dimcalc.errors.InvalidParameterError: The 'n' parameter of f must be an int in [0, 4]. Got 5 instead.
    """

    def __init__(
        self,
        kind: type,
        left: Any,
        right: Any,
        *,
        closed: Literal["left", "right", "both", "neither"],
        text: bool = False,
        requirement: str | None = None,
    ) -> None:
        if kind not in (int, Real) or closed not in ("left", "right", "both", "neither"):
            raise TypeError(f"Interval({kind!r}, closed={closed!r}): kind is int or numbers.Real")
        self.kind, self.left, self.right, self.closed = kind, left, right, closed
        self.text, self.requirement = text, requirement

    def _interval_text(self) -> str:
        lo = "-inf" if self.left is None else str(self.left)
        hi = "inf" if self.right is None else str(self.right)
        return (
            ("[" if self.closed in ("left", "both") else "(")
            + f"{lo}, {hi}"
            + ("]" if self.closed in ("right", "both") else ")")
        )

    def check(self, value: Any, name: str, owner: str) -> Any:
        """See :meth:`Rule.check`."""
        if self.kind is int:
            low = None if self.left is None else int(self.left) + (self.closed in ("right", "neither"))
            high = None if self.right is None else int(self.right) - (self.closed in ("left", "neither"))
            return check_int(value, name, owner, low, high, requirement=self.requirement)
        kind = self.requirement if self.requirement is not None else "a number"
        return check_number(value, name, owner, self._interval_text(), text=self.text, kind=kind)


class StrOptions(Rule):
    """One of a set of strings (scikit-learn's ``StrOptions``), listed sorted in the message.

    Examples
    --------
    >>> StrOptions({"all", "class"}).check("some", "pool", "f")
    Traceback (most recent call last):
    ...
    dimcalc.errors.InvalidParameterError: The 'pool' parameter of f must be one of 'all', 'class'. Got 'some' instead.
    """

    def __init__(self, options: Collection[str]) -> None:
        self.options = tuple(sorted(options))

    def check(self, value: Any, name: str, owner: str) -> Any:
        """See :meth:`Rule.check`."""
        return check_option(value, name, owner, self.options)


class Options(Rule):
    """One of a fixed tuple of values of any type, listed in order in the message."""

    def __init__(self, options: Collection[Any]) -> None:
        self.options = tuple(options)

    def check(self, value: Any, name: str, owner: str) -> Any:
        """See :meth:`Rule.check`."""
        return check_option(value, name, owner, self.options)


class Flag(Rule):
    """``True`` or ``False`` (a NumPy ``bool_`` too), never ``0``, ``1`` or ``None``."""

    def check(self, value: Any, name: str, owner: str) -> bool:
        """See :meth:`Rule.check`."""
        return check_bool(value, name, owner)


class _Checker(Rule):
    """A rule made of one of :mod:`dimcalc.validation`'s ``check_x(value, owner, name)`` functions."""

    def __init__(self, checker: Callable[..., Any]) -> None:
        self.checker = checker

    def check(self, value: Any, name: str, owner: str) -> Any:
        """See :meth:`Rule.check`."""
        return self.checker(value, owner, name)


#: The class argument (``H`` everywhere): a :class:`~dimcalc.HypothesisClass`.
CLASS: Rule = _Checker(check_hypothesis_class)
#: Worker processes: an int >= 1 (NumPy integers too).
JOBS: Rule = _Checker(check_jobs)
#: Worker processes or threads, or ``None``: the solver's own choice (a sparse set system's VC search: every core).
JOBS_OR_AUTO: Rule = _Checker(check_jobs_or_auto)
#: A flag (``uniform=``, ``verify=``, ...): True or False.
FLAG: Rule = Flag()
#: Progress lines on stderr: True or False.
PROGRESS: Rule = Flag()
#: Seconds: a positive finite number, or None for no limit.
TIME_LIMIT: Rule = _Checker(check_time_limit)
#: A privacy parameter ε in (0, inf), exact text accepted.
PRIVACY_EPSILON: Rule = _Checker(check_epsilon)
#: The error ε of a deterministic representation / one-way protocol, in [0, 1/2] (FX Def 2.3, Thm 3.2: the
#: randomized protocols of the report are meaningful up to error 1/2; the CLI's ``--epsilon`` has the same range).
REPRESENTATION_EPSILON: Rule = Interval(Real, 0, "1/2", closed="both", text=True)


class RandomState(Rule):
    """The random source, ``random_state`` everywhere: ``None``, an int seed ``>= 0`` or a ``numpy.random.Generator``.

    Normalised to a ``numpy.random.Generator``: ``None`` is a fresh one (operating-system entropy), an
    int seeds a new one (the same int gives the same stream), a Generator is used as is (its state
    advances).  This follows the shape of scikit-learn's ``check_random_state``, which accepts
    ``None`` (numpy's *global* ``RandomState``), an int (a new ``RandomState`` seeded with it) or a
    ``RandomState`` instance (used as is), and raises ``ValueError`` otherwise -- with numpy's
    ``Generator`` API in place of the legacy ``RandomState``, and no global state behind ``None``.
    A ``bool``, a negative int, a float or anything else is refused in one line.

    Examples
    --------
    >>> rule = RandomState()
    >>> int(rule.check(3, "random_state", "f").integers(100)) == int(rule.check(np.int64(3), "random_state", "f").integers(100))
    True
    >>> rule.check(-1, "random_state", "f")
    Traceback (most recent call last):
    ...
    dimcalc.errors.InvalidParameterError: The 'random_state' parameter of f must be None, a non-negative int seed or a numpy.random.Generator. Got -1 instead.
    """

    def check(self, value: Any, name: str, owner: str) -> np.random.Generator:
        """See :meth:`Rule.check`."""
        if value is None:
            return np.random.default_rng()
        if isinstance(value, np.random.Generator):
            return value
        if isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)) and value >= 0:
            return np.random.default_rng(int(value))
        raise parameter_error(name, owner, "None, a non-negative int seed or a numpy.random.Generator", value)


#: The random source (``random_state=`` everywhere): None, an int seed >= 0 or a numpy Generator.
RANDOM_STATE: Rule = RandomState()


def validate_params(**rules: Rule) -> Callable[[F], F]:
    """Check the named parameters of a public function on every call, and pass their normalised values in.

    Parameters
    ----------
    **rules : Rule
        One rule per parameter name (a name missing from the signature is a programming error,
        raised at decoration time).

    Returns
    -------
    callable
        The decorator; the decorated function keeps its name, signature and docstring.

    Examples
    --------
    >>> @validate_params(jobs=JOBS, progress=PROGRESS)
    ... def solve(*, jobs=1, progress=False):
    ...     return jobs, progress
    >>> solve(jobs=2)
    (2, False)
    >>> solve(progress=1)
    Traceback (most recent call last):
    ...
    dimcalc.errors.InvalidParameterError: The 'progress' parameter of solve must be True or False. Got 1 instead.
    """

    def decorate(func: F) -> F:
        signature = inspect.signature(func)
        unknown = set(rules) - set(signature.parameters)
        if unknown:
            raise TypeError(f"validate_params: {func.__name__} has no parameter {sorted(unknown)}")
        owner = func.__name__

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            bound = signature.bind(*args, **kwargs)
            for name, rule in rules.items():
                if name in bound.arguments:
                    bound.arguments[name] = rule.check(bound.arguments[name], name, owner)
            return func(*bound.args, **bound.kwargs)

        wrapper.__dict__["param_rules"] = dict(rules)
        return wrapper  # type: ignore[return-value]

    return decorate


def renamed_parameters(**old_to_new: str) -> Callable[[F], F]:
    """Accept a parameter's old keyword name for one release, with a :class:`FutureWarning` naming the new one.

    Parameters
    ----------
    **old_to_new : str
        ``old="new"`` for every renamed keyword (``C="H"``, ``rng="random_state"``, ``seed="random_state"``).

    Returns
    -------
    callable
        The decorator.

    Examples
    --------
    >>> import warnings
    >>> @renamed_parameters(C="H")
    ... def size(H):
    ...     return len(H)
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     size(C=[1, 2]), str(caught[0].message)
    (2, "size: the parameter 'C' is now called 'H'; the old name goes in the next release.")
    """

    def decorate(func: F) -> F:
        parameters = inspect.signature(func).parameters
        for old, new in old_to_new.items():
            if new not in parameters or old in parameters:
                raise TypeError(f"renamed_parameters: {func.__name__} has no {new!r} or still has {old!r}")

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            for old, new in old_to_new.items():
                if old in kwargs:
                    if new in kwargs:
                        raise TypeError(f"{func.__name__}() got both {old!r} (the old name) and {new!r}")
                    warnings.warn(
                        f"{func.__name__}: the parameter {old!r} is now called {new!r}; "
                        "the old name goes in the next release.",
                        FutureWarning,
                        stacklevel=2,
                    )
                    kwargs[new] = kwargs.pop(old)
            return func(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate
