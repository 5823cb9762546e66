"""Benchmark suite ``vc``: the VC solver against the textbook brute force.

Side by side, in the same run, on random binary classes (seeded numpy):
:func:`dimcalc.vc.vc_dimension` and :func:`brute_force_vc_dimension`, the
definition-level algorithm (all subsets in increasing size, patterns counted
with a Python set of tuples, stop at the first size with no shattered set).
Then the solver alone on random dense 1000 x 40 classes, where millions of
sets are shattered.  ``quick`` mode uses tiny instances (a smoke test).
"""

from __future__ import annotations

import itertools
import time

import numpy as np

from ..classes.hypothesis_class import HypothesisClass
from ..vc import vc_dimension
from . import BenchOptions, BenchRow, measure, register_suite

__all__ = ["brute_force_vc_dimension", "random_binary_class", "vc_suite"]


def brute_force_vc_dimension(H: HypothesisClass, time_limit: float | None = None) -> int | None:
    """The VC dimension by the definition; ``None`` when ``time_limit`` seconds ran out.

    Every subset of points in increasing size; a set is shattered when the
    rows show ``2^|S|`` distinct 0/1 patterns on it (counted with a Python
    set); stops at the first size with no shattered set.

    Examples
    --------
    >>> H = HypothesisClass.from_table([[0, 0], [0, 1], [1, 0], [1, 1]])
    >>> brute_force_vc_dimension(H)
    2
    """
    end = None if time_limit is None else time.monotonic() + time_limit
    rows = [tuple(r) for r in H.table.tolist()]
    best = 0
    for size in range(1, H.n_points + 1):
        found = False
        for points in itertools.combinations(range(H.n_points), size):
            if end is not None and time.monotonic() > end:
                return None
            if len({tuple(r[p] for p in points) for r in rows}) == 2**size:
                found = True
                break
        if not found:
            break
        best = size
    return best


def random_binary_class(rows: int, points: int, seed: int, density: float = 0.5) -> HypothesisClass:
    """A random 0/1 table, each entry 1 with probability ``density`` (seeded)."""
    rng = np.random.default_rng(seed)
    table = (rng.random((rows, points)) < density).astype(np.int64)
    return HypothesisClass(table, name=f"random-{rows}x{points}-seed{seed}")


@register_suite("vc", "VC dimension: solver vs definition-level brute force; dense 1000x40 solver alone")
def vc_suite(options: BenchOptions) -> list[BenchRow]:
    """Run the cases; see the module docstring."""
    if options.quick:
        side_by_side = [(12, 6, 0), (16, 7, 1)]
        solver_only = [(40, 8, 0)]
    else:
        side_by_side = [(100, 20, 0), (100, 20, 1), (150, 24, 0), (150, 24, 1)]
        solver_only = [(1000, 40, 0), (1000, 40, 1)]
    rows: list[BenchRow] = []
    for n_rows, n_points, seed in side_by_side:
        case = f"random-{n_rows}x{n_points}-seed{seed}"
        if not options.wants(case):
            continue
        H = random_binary_class(n_rows, n_points, seed)
        options.say(f"vc: {case} solver")
        seconds, peak, result = measure(lambda: vc_dimension(H), options.repeat)
        options.say(f"vc: {case} brute force")
        base_seconds, _, base = measure(lambda: brute_force_vc_dimension(H, options.baseline_limit), 1, memory=False)
        if base is None:
            base_seconds = float("inf")
        note = "" if base is None or base == result.value else f"MISMATCH: brute force says {base}"
        ratio = (options.baseline_limit if base is None else base_seconds) / seconds
        rows.append(
            BenchRow(
                "vc",
                case,
                result.value,
                result.exact,
                seconds,
                peak,
                base_seconds,
                base,
                ratio,
                note,
                {"nodes": result.stats.get("nodes")},
            )
        )
    for n_rows, n_points, seed in solver_only:
        case = f"dense-{n_rows}x{n_points}-seed{seed}"
        if not options.wants(case):
            continue
        H = random_binary_class(n_rows, n_points, seed)
        options.say(f"vc: {case} solver")
        seconds, peak, result = measure(lambda: vc_dimension(H, time_limit=options.solver_limit), options.repeat)
        answer = result.value if result.exact else f"[{result.lower}, {result.upper}]"
        rows.append(
            BenchRow(
                "vc",
                case,
                answer,
                result.exact,
                seconds,
                peak,
                note="solver only (brute force is hopeless here)",
                extra={"nodes": result.stats.get("nodes")},
            )
        )
    return rows
