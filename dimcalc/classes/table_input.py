"""Validation of the parts a :class:`~dimcalc.classes.hypothesis_class.HypothesisClass` is built from.

A class is validated once, at the boundary (tables given as nested lists or
numpy arrays, point and hypothesis names), with one-line
:class:`~dimcalc.errors.InvalidClassError` messages naming the row, the column
and the fix; inner code trusts the class afterwards.  The size limits live
here: :data:`MAX_CELLS` for tables of one byte per cell,
:data:`MAX_BINARY_CELLS` for binary tables, stored one bit per cell
(:mod:`dimcalc.classes.bit_table`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import InvalidClassError

__all__ = ["MAX_CELLS", "MAX_BINARY_CELLS", "cell_limit", "check_cells", "check_num_labels", "describe", "check_names"]

#: Largest table (rows x columns) with more than two labels dimcalc accepts; larger inputs are refused
#: up front rather than exhausting memory.  Such tables are stored one byte per cell (two with more
#: than 256 labels), so the largest takes about 500 MB, and its bitsets an eighth of that per label.
MAX_CELLS = 500_000_000

#: Largest binary table (at most two labels) dimcalc accepts: ``2**32`` cells (65 536 x 65 535
#: thresholds fit).  Binary tables are stored one bit per cell, so the largest takes 512 MiB.
MAX_BINARY_CELLS = 1 << 32


def cell_limit(num_labels: int | None) -> int:
    """The largest table dimcalc accepts with ``num_labels`` labels (``None``: not known yet, the larger limit).

    >>> cell_limit(2) == MAX_BINARY_CELLS, cell_limit(3) == MAX_CELLS
    (True, True)
    """
    return MAX_BINARY_CELLS if num_labels is None or num_labels <= 2 else MAX_CELLS


def check_cells(rows: int, cols: int, num_labels: int | None = None) -> None:
    """Refuse a ``rows x cols`` table over :func:`cell_limit` ``(num_labels)`` cells (one line)."""
    limit = cell_limit(num_labels)
    if rows * cols > limit:
        what = "" if limit == MAX_CELLS or num_labels is None else " for a binary table"
        if num_labels is not None and num_labels > 2:
            what = f" for a table with {num_labels} labels (binary tables may have up to {MAX_BINARY_CELLS})"
        raise InvalidClassError(f"the table has {rows}x{cols} cells, more than dimcalc's limit of {limit}{what}")


def describe(value: Any) -> str:
    """``repr(value)``, cut to 40 characters, for error messages."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


_PLAIN_INT = frozenset({int})  # type(True) is bool: booleans take the cell-by-cell path and are refused


def table_from_lists(rows: Sequence[Any]) -> np.ndarray:
    """Validate nested Python lists cell by cell and return an int64 array."""
    if isinstance(rows, (str, bytes)) or not isinstance(rows, Sequence):
        raise InvalidClassError(f"hypotheses must be a list of rows (lists of labels); got {type(rows).__name__}")
    if len(rows) == 0:
        raise InvalidClassError("the class is empty: give at least one hypothesis (row)")
    width = None
    for r, row in enumerate(rows):
        if isinstance(row, (str, bytes)) or not isinstance(row, (Sequence, np.ndarray)):
            raise InvalidClassError(f"row {r}: a hypothesis must be a list of labels; got {describe(row)}")
        if width is None:
            width = len(row)
        elif len(row) != width:
            raise InvalidClassError(
                f"row {r}: has {len(row)} labels but row 0 has {width}; every row needs one label per domain point"
            )
        if _PLAIN_INT.issuperset(map(type, row)) and (not row or min(row) >= 0):
            continue  # plain non-negative ints (the common case), checked at C speed
        for c, v in enumerate(row):
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
                raise InvalidClassError(
                    f"row {r}, column {c}: label {describe(v)} is not an integer; labels are integers 0..k"
                )
            if v < 0:
                raise InvalidClassError(f"row {r}, column {c}: label {v} is negative; labels are integers 0..k")
    if len(rows) * (width or 0) > MAX_CELLS:  # nested lists take far more than a byte per cell
        raise InvalidClassError(f"the table has {len(rows)}x{width} cells, more than dimcalc's limit of {MAX_CELLS}")
    try:
        return np.array(rows, dtype=np.int64).reshape(len(rows), width or 0)
    except OverflowError:
        raise InvalidClassError("a label is too large; labels are small integers 0..k") from None


def table_from_array(arr: np.ndarray) -> np.ndarray:
    """Validate an integer (or boolean) array, possibly memory-mapped; returned as is (never copied)."""
    if arr.ndim != 2:
        raise InvalidClassError(f"the table must be 2-dimensional (hypotheses x points); got shape {arr.shape}")
    if arr.shape[0] == 0:
        raise InvalidClassError("the class is empty: give at least one hypothesis (row)")
    check_cells(arr.shape[0], arr.shape[1])
    if arr.dtype == np.bool_:
        return arr
    if not np.issubdtype(arr.dtype, np.integer):
        raise InvalidClassError(f"the table has dtype {arr.dtype}; labels must be integers 0..k (use an integer array)")
    if arr.size and np.issubdtype(arr.dtype, np.signedinteger) and arr.min() < 0:
        r, c = (int(v) for v in np.argwhere(arr < 0)[0])
        raise InvalidClassError(f"row {r}, column {c}: label {int(arr[r, c])} is negative; labels are integers 0..k")
    return arr


def check_names(names: Any, expected: int, what: str, unique: bool) -> tuple[str, ...] | None:
    """Validate point or hypothesis names: ``expected`` strings (distinct when ``unique``); ``None`` passes."""
    if names is None:
        return None
    if isinstance(names, (str, bytes)) or not isinstance(names, (Sequence, np.ndarray)):
        raise InvalidClassError(f"{what} must be a list of {expected} strings; got {type(names).__name__}")
    names = list(names)
    if len(names) != expected:
        raise InvalidClassError(f"{what} has {len(names)} names but the table has {expected}; give one name each")
    if all(type(n) is str for n in names) and (not unique or len(set(names)) == len(names)):
        return tuple(names)  # the common case, checked in C; the loops below only find the culprit
    for i, n in enumerate(names):
        if not isinstance(n, str):
            raise InvalidClassError(f"{what}[{i}]: {describe(n)} is not a string")
    if unique:
        seen: dict[str, int] = {}
        for i, n in enumerate(names):
            if n in seen:
                raise InvalidClassError(f"{what}[{i}]: duplicate name {n!r} (also at {seen[n]}); names must be unique")
            seen[n] = i
    return tuple(names)


def check_num_labels(num_labels: Any, max_entry: int, arr: np.ndarray | None) -> int:
    """The number of labels: given (validated against the largest entry) or ``max(2, max entry + 1)``."""
    if num_labels is None:
        num_labels = max(2, max_entry + 1)
    elif isinstance(num_labels, (bool, np.bool_)) or not isinstance(num_labels, (int, np.integer)):
        raise InvalidClassError(
            f"labels must be a positive integer (the number of labels k+1); got {describe(num_labels)}"
        )
    elif num_labels < 1:
        raise InvalidClassError(f"labels must be a positive integer (the number of labels k+1); got {num_labels}")
    elif max_entry >= num_labels:
        assert arr is not None  # a bit table's entries are 0 and 1, and it needs 2 labels (checked by the caller)
        r, c = (int(v) for v in np.argwhere(np.asarray(arr) >= num_labels)[0])
        raise InvalidClassError(
            f"row {r}, column {c}: label {int(arr[r, c])} is not below the declared number of labels "
            f"{num_labels}; raise 'labels' or fix the entry"
        )
    if num_labels > 1 << 16:
        raise InvalidClassError(f"labels is {num_labels}; dimcalc supports at most {1 << 16} labels")
    return int(num_labels)
