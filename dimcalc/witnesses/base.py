"""The witness protocol: a certificate that checks itself against a class and serialises itself.

Every exact answer of dimcalc carries a witness (interface spec §3).  A
witness object is the spec's JSON data itself -- a :class:`list` or a
:class:`dict` subclass, so it compares equal to, indexes and serialises
(``json.dumps``) exactly like the plain data -- with two methods:

* ``certify(H)``: the independent, definition-level check.  Returns what the
  witness certifies (the size of a shattered set, the depth of a tree, the
  size of a 0-cover, ...) or raises :class:`~dimcalc.errors.InvalidWitnessError`
  saying why it certifies nothing for ``H``;
* ``to_json()``: the plain spec §3 data (lists, dicts, ints, ``None``).

No checker is looked up in a registry: a result holds its witness object and
:meth:`dimcalc.results.DimensionResult.verify` calls its ``certify``.

Examples
--------
>>> from dimcalc import HypothesisClass
>>> from dimcalc.witnesses import ShatteredSet
>>> w = ShatteredSet([0, 1])
>>> w == [0, 1], w.to_json(), w.certify(HypothesisClass.from_table([[0, 0], [0, 1], [1, 0], [1, 1]]))
(True, [0, 1], 2)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from ..classes.hypothesis_class import HypothesisClass

__all__ = ["Witness", "ListWitness", "DictWitness"]


class Witness:
    """Base of every witness object: ``certify(H)`` and ``to_json()`` (see the module docstring)."""

    __slots__ = ()

    #: What ``certify`` counts, for messages ("points", "levels", "output trees", ...).
    measure = "size"

    def certify(self, H: HypothesisClass) -> int:  # pragma: no cover - every witness class overrides it
        """What the witness certifies for ``H``; raises ``InvalidWitnessError`` when it certifies nothing."""
        raise NotImplementedError

    def to_json(self) -> Any:  # pragma: no cover - overridden by ListWitness / DictWitness
        """The plain spec §3 data."""
        raise NotImplementedError

    def _repr_html_(self) -> str:  # Jupyter display: dimcalc.display (imported when a notebook asks)
        from ..display import witness_html

        return witness_html(self)


class ListWitness(list, Witness):
    """A witness whose spec format is a JSON list (a shattered set, the rows of a representation)."""

    def to_json(self) -> list:
        """The witness as a plain list."""
        return list(self)

    def __reduce__(self) -> Any:  # pickle (sweep workers): class, data and attributes
        return (self.__class__, (list(self),), dict(getattr(self, "__dict__", {})))


class DictWitness(dict, Witness):
    """A witness whose spec format is a JSON object (a tree's root node, a 0-cover witness, ...)."""

    def to_json(self) -> dict:
        """The witness as a plain dict."""
        return dict(self)

    def __reduce__(self) -> Any:  # pickle (sweep workers): class, data and attributes
        return (self.__class__, (dict(self),), dict(getattr(self, "__dict__", {})))
