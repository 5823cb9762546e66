"""Exception types raised by dimcalc.

Every error dimcalc raises on bad input is a :class:`DimcalcError`, which is
also a :class:`ValueError` (as scikit-learn does), so callers may catch either.
Messages are one line and name the thing, the place and, where possible, the fix.
The CLI maps these errors to exit status 2.
"""

from __future__ import annotations

__all__ = [
    "DimcalcError",
    "InvalidClassError",
    "ClassFileError",
    "InvalidParameterError",
    "InvalidWitnessError",
]


class DimcalcError(ValueError):
    """Base class of every error dimcalc raises on bad input."""


class InvalidClassError(DimcalcError):
    """A table does not describe a valid finite hypothesis class."""


class ClassFileError(DimcalcError):
    """A class file (JSON or CSV) cannot be read or breaks the file format."""


class InvalidParameterError(DimcalcError):
    """A parameter of a public function or CLI option has a bad value.

    The message has the shape ``The 'epsilon' parameter of f must be a float in
    (0, inf). Got -1 instead.``
    """


class InvalidWitnessError(DimcalcError):
    """A witness (tree, cover, representation) file or object is malformed."""


def parameter_error(name: str, owner: str, requirement: str, got: object) -> InvalidParameterError:
    """Build an :class:`InvalidParameterError` with dimcalc's one message shape."""
    return InvalidParameterError(f"The {name!r} parameter of {owner} must be {requirement}. Got {got!r} instead.")
