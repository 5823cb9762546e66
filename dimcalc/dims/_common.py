"""What the solvers of :mod:`dimcalc.dims` share: validation at the boundary, the binary-only refusal, results."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..classes.hypothesis_class import HypothesisClass
from ..results import DimensionResult
from ..search.budget import Deadline, SearchStopped

__all__ = ["checked", "binary_only", "result", "distinct_columns", "dense_rows", "masks"]


def checked(H: Any, time_limit: Any, jobs: Any, owner: str) -> tuple[HypothesisClass, Deadline, int]:
    """Start the clock (set-up is inside the limit).  The arguments were validated once, at the boundary, by
    each solver's :func:`~dimcalc.param_validation.validate_params` rules; ``owner`` is kept for callers."""
    return H, Deadline(None if time_limit is None else float(time_limit)), int(jobs)


def binary_only(H: HypothesisClass, kind: str, what: str) -> DimensionResult | None:
    """The ``undefined`` result of a binary-only dimension on a class with more than two labels (else None)."""
    if H.is_binary:
        return None
    return DimensionResult.undefined(
        kind, f"the {what} is defined for binary classes; this class has {H.num_labels} labels"
    )


def result(
    kind: str, lower: int, upper: int, witness: Any, deadline: Deadline, stopped: bool, **stats: Any
) -> DimensionResult:
    """Proven bounds as a result (exact when they meet), with the stop reason and the time taken."""
    if stopped:
        stats["stopped"] = deadline.stop_label
    stats["seconds"] = deadline.elapsed()
    return DimensionResult.bounds(kind, lower, max(lower, upper), witness, **stats)


def distinct_columns(rows: np.ndarray) -> np.ndarray:
    """Indices of the first occurrence of each distinct column of ``rows`` (in increasing order)."""
    if rows.shape[1] == 0:
        return np.zeros(0, dtype=np.int64)
    _, first = np.unique(rows, axis=1, return_index=True)
    return np.sort(first)


def dense_rows(H: HypothesisClass, deadline: Deadline) -> np.ndarray:
    """The distinct rows as a dense array, after asking the memory budget (``SearchStopped`` when it says no).

    A big bit-stored class (thresholds over 65 535 points) would need gigabytes; the solvers then
    stop with their trivial proven bounds instead of running out of memory.
    """
    nbytes = 2.0 * H.n_distinct * max(H.n_points, 1) * (1 if H.num_labels <= 256 else 8)
    if not deadline.fits(nbytes):
        raise SearchStopped("memory")
    deadline.check()
    return np.asarray(H.distinct_rows)


def masks(matrix: np.ndarray, deadline: Deadline) -> list[int]:
    """Row ``i`` of a boolean matrix as the Python int whose bit ``j`` is ``matrix[i, j]``.

    Examples
    --------
    >>> masks(np.array([[1, 0, 1], [0, 1, 0]], dtype=bool), Deadline(None))
    [5, 2]
    """
    packed = np.packbits(np.asarray(matrix, dtype=bool), axis=1, bitorder="little")
    out = []
    for i, row in enumerate(packed):
        if i % 1024 == 0:
            deadline.check()
        out.append(int.from_bytes(row.tobytes(), "little"))
    return out
