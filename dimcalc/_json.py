"""JSON of dimcalc's values: what :func:`json.dumps` needs beside the standard types.

Used as ``json.dumps(obj, default=jsonable)`` by the CLI's output and the sweep
database, so both write the same JSON for the same result.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["jsonable"]


def jsonable(obj: Any) -> Any:
    """A JSON-ready stand-in for ``obj``: NumPy numbers and arrays, objects with ``to_json()``, sets, tuples.

    Parameters
    ----------
    obj : object
        A value :mod:`json` cannot encode by itself.

    Returns
    -------
    object
        ``int``/``float``/``list`` for NumPy values, ``obj.to_json()``, or a list for a set or tuple.

    Raises
    ------
    TypeError
        For anything else (as :func:`json.dumps` expects of a ``default``).

    Examples
    --------
    >>> import json
    >>> json.dumps({"n": np.int64(3), "points": np.arange(2), "set": frozenset({1})}, default=jsonable)
    '{"n": 3, "points": [0, 1], "set": [1]}'
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
