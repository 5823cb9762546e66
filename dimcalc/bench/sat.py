"""Benchmark suite ``sat``: what SAT buys the Littlestone-type search, side by side in one run.

Each case runs the engine of :mod:`dimcalc.littlestone` twice on the same
class under the same time limit: with SAT (the recursion alternates with
:func:`dimcalc.sat.decide_tree_depth` under doubling node/conflict budgets
when a root query is slow) and without (``use_sat = False``).  The row reports
both answers, seconds and nodes, and how many SAT calls were made and
answered -- so the figures say whether SAT earned its place on that class.
"""

from __future__ import annotations

import time

import numpy as np

from .. import littlestone as ls
from ..generators import boxes
from ..hypothesis_class import HypothesisClass
from . import BenchOptions, BenchRow, register_suite

__all__ = ["sat_suite"]


def _solve(H: HypothesisClass, family: str, use_sat: bool, limit: float) -> tuple[list[int], float, dict]:
    from .._budget import Deadline

    deadline = Deadline(limit)
    engine = ls._Engine(H, ls._splitter_for(H, family, None, deadline), deadline=deadline)
    engine.use_sat = use_sat
    t = time.perf_counter()
    lower, upper, _ = engine.solve(H.full_mask)
    return (
        [lower, upper],
        time.perf_counter() - t,
        {"nodes": engine.nodes, "sat_calls": engine.sat_calls, "sat_answers": engine.sat_answers},
    )


@register_suite("sat", "Littlestone-type search with and without SAT, side by side (nodes, seconds, SAT calls)")
def sat_suite(opts: BenchOptions) -> list[BenchRow]:
    """One row per case: the answer and time with SAT; the run without SAT as the baseline column."""
    rng = np.random.default_rng(3)
    cases = [
        ("boxes 8x8 LDim" if opts.quick else "boxes 16x16 LDim", lambda: boxes(3 if opts.quick else 4, 2), "LD"),
        ("dense random 300x24 LDim", lambda: HypothesisClass(rng.integers(0, 2, (300, 24))), "LD"),
        ("random 200x10, 4 labels MLD", lambda: HypothesisClass(rng.integers(0, 4, (200, 10))), "MLD"),
    ]
    if not opts.quick:
        cases.append(("boxes 20x20 LDim", lambda: ls_boxes(20), "LD"))
    limit = 5.0 if opts.quick else opts.solver_limit
    rows = []
    for name, build, family in cases:
        if not opts.wants(name):
            continue
        H = build()
        opts.say(f"sat: {name}")
        with_sat, t_with, s_with = _solve(H, family, True, limit)
        without, t_without, s_without = _solve(H, family, False, limit)
        note = (
            f"nodes {s_with['nodes']} vs {s_without['nodes']} without; SAT calls {s_with['sat_calls']}, "
            f"answered {s_with['sat_answers']}"
        )
        rows.append(
            BenchRow(
                "sat",
                name,
                with_sat[0] if with_sat[0] == with_sat[1] else with_sat,
                with_sat[0] == with_sat[1],
                t_with,
                0.0,
                baseline_seconds=t_without,
                baseline_answer=without,
                ratio=t_without / max(t_with, 1e-9),
                note=note,
                extra={"with": s_with, "without": s_without},
            )
        )
    return rows


def ls_boxes(side: int) -> HypothesisClass:
    """Boxes (intervals on each axis, and the empty box) over a ``side x side`` grid."""
    from .littlestone import boxes_class

    return boxes_class(side)
