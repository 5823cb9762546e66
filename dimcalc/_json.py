"""One way to turn dimcalc's result objects into JSON data (interface spec §2-3).

Every result class has a ``to_json()`` returning plain JSON data; what they
share is written here once:

* :func:`to_jsonable` -- a value with the objects inside it (results, witnesses,
  bounds: anything with ``to_json()``) replaced by their JSON data, recursively
  through dicts, lists and tuples;
* :func:`fields_to_json` -- the ``to_json()`` of a record: chosen attributes, in
  order, through :func:`to_jsonable`;
* :func:`json_default` -- the ``default=`` hook of :func:`json.dumps` for what
  the encoder does not know (numpy scalars and arrays, objects with ``to_json``,
  sets and tuples).

Examples
--------
>>> import json
>>> import numpy as np
>>> from dimcalc.results import DimensionResult
>>> to_jsonable({"vc": DimensionResult.exact_value("vc", 1, [0])})
{'vc': {'value': 1, 'exact': True, 'witness': [0]}}
>>> json.dumps({"n": np.int64(3), "s": frozenset({1})}, default=json_default)
'{"n": 3, "s": [1]}'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

__all__ = ["to_jsonable", "fields_to_json", "json_default"]


def to_jsonable(value: Any) -> Any:
    """``value`` with every object that has ``to_json()`` replaced by its JSON data (through dicts, lists, tuples).

    Dicts keep their keys and order; lists and tuples become lists; other
    values are returned unchanged.

    Parameters
    ----------
    value : object
        A result, a witness, or a dict/list/tuple holding them.

    Returns
    -------
    object
        Plain JSON data (as far as the objects inside go).

    Examples
    --------
    >>> class P:
    ...     def to_json(self):
    ...         return {"p": 1}
    >>> to_jsonable({"a": [P(), (2, 3)], "b": "x"})
    {'a': [{'p': 1}, [2, 3]], 'b': 'x'}
    """
    if hasattr(value, "to_json"):
        return value.to_json()
    if isinstance(value, dict):
        return {k: to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    return value


def fields_to_json(obj: Any, names: Iterable[str]) -> dict:
    """``{name: to_jsonable(obj.name)}`` for ``names``, in order: the ``to_json()`` of a record.

    Parameters
    ----------
    obj : object
        The record.
    names : iterable of str
        Its attributes, in output order.

    Returns
    -------
    dict
        One entry per name.

    Examples
    --------
    >>> from fractions import Fraction
    >>> class R:
    ...     a, b = 1, [Fraction(1, 2)]
    >>> fields_to_json(R(), ("b", "a"))
    {'b': [Fraction(1, 2)], 'a': 1}
    """
    return {name: to_jsonable(getattr(obj, name)) for name in names}


def json_default(obj: Any) -> Any:
    """The ``default=`` hook of :func:`json.dumps`: numpy numbers and arrays, ``to_json()``, sets and tuples.

    Parameters
    ----------
    obj : object
        A value :mod:`json` cannot encode by itself.

    Returns
    -------
    object
        ``int``/``float``/``list`` for numpy values, ``obj.to_json()``, or a list for a set or tuple.

    Raises
    ------
    TypeError
        For any other object (as :func:`json.dumps` expects).

    Examples
    --------
    >>> json_default(np.arange(3)), json_default((1, 2))
    ([0, 1, 2], [1, 2])
    """
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if hasattr(obj, "to_json"):
        return obj.to_json()
    if isinstance(obj, (set, frozenset, tuple)):
        return list(obj)
    raise TypeError(f"not JSON serialisable: {type(obj).__name__}")
