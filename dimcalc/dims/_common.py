"""What the solvers of :mod:`dimcalc.dims` share: validation at the boundary, the binary-only refusal, results."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..classes.hypothesis_class import HypothesisClass
from ..results import DimensionResult
from ..search.budget import Deadline
from ..validation import check_hypothesis_class, check_jobs, check_time_limit

__all__ = ["checked", "binary_only", "result", "distinct_columns", "bits"]


def checked(H: Any, time_limit: Any, jobs: Any, owner: str) -> tuple[HypothesisClass, Deadline, int]:
    """Validate the public arguments once and start the clock (set-up is inside the limit)."""
    H = check_hypothesis_class(H, owner)
    seconds = check_time_limit(time_limit, owner)
    return H, Deadline(seconds), check_jobs(jobs, owner)


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


def bits(mask: int) -> list[int]:
    """The positions of the set bits of ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
