"""Benchmark suite ``sat``: what SAT buys the Littlestone-type search, side by side in one run.

Each case runs the engine of :mod:`dimcalc.littlestone` on the same class
under the same time limit in several SAT modes:

``off``
    the recursion alone;
``root``
    the recursion alternating with SAT on the root query under doubling
    node/conflict budgets when a root query is slow (the default);
``inside``
    ``root`` plus SAT on failing queries ``D(V) >= t`` inside the search,
    under the engine's cost model (a query must have cost ``sat_min_nodes``
    nodes, an encoding of at most about 200 clauses per node spent, SAT at most
    half the time so far);
``forced``
    SAT on every query with ``t >= 2`` whose encoding fits, with no cost model
    (how much SAT costs where the model would not let it run);
``no-probe``
    ``off`` without the budgeted upper-bound probes (``Engine._upper_probes``),
    on the stopped cases: what the probes add to the upper-bound side.

The row reports the answer and seconds of the default mode, ``off`` as the
baseline column, and for every mode the bounds, seconds, nodes, SAT calls,
SAT answers and seconds spent in SAT -- so the figures say whether SAT earned
its place on that class.
"""

from __future__ import annotations

import time

from ..classes.hypothesis_class import HypothesisClass
from ..generators import boxes
from ..littlestone import engine as ls
from ..littlestone.splitters import splitter_for
from ..search.budget import Deadline
from . import BenchOptions, BenchRow, register_suite
from .littlestone import boxes_class, intervals_class, lines_class, random_class

__all__ = ["sat_suite", "MODES"]

#: SAT modes compared side by side (see the module docstring).
MODES = ("off", "root", "inside", "forced", "no-probe")


def _solve(H: HypothesisClass, family: str, mode: str, limit: float) -> dict:
    """Run the engine once in ``mode``; return its bounds, seconds, nodes and SAT figures."""
    t = time.perf_counter()
    deadline = Deadline(limit)
    engine = ls.Engine(H, splitter_for(H, family, None, deadline), deadline=deadline)
    engine.use_sat = mode not in ("off", "no-probe")
    if mode == "no-probe":
        engine.upper_probe_nodes = 0
    engine.sat_inside = mode in ("inside", "forced")
    if mode == "forced":
        engine.sat_min_nodes = 0
    lower, upper, _ = engine.solve(H.full_mask)
    return {
        "bounds": [lower, upper],
        "seconds": round(time.perf_counter() - t, 3),
        "nodes": engine.nodes,
        "sat_calls": engine.sat_calls,
        "sat_answers": engine.sat_answers,
        "sat_seconds": round(engine.sat_seconds, 3),
    }


def _cases(quick: bool) -> list[tuple[str, object, str, tuple[str, ...]]]:
    """(name, builder, family, modes) -- ``forced`` only where it ends in reasonable time."""
    all_modes = MODES[:4]
    stopped = ("off", "root", "inside", "no-probe")
    if quick:
        return [
            ("boxes 8x8 LDim", lambda: boxes(3, 2), "LD", all_modes),
            ("intervals-64 LDim", lambda: intervals_class(64), "LD", all_modes),
            ("random 200x10, 4 labels MLD", lambda: random_class(200, 10, 4, seed=3), "MLD", all_modes),
            ("dense random 300x24 LDim", lambda: random_class(300, 24, seed=3), "LD", all_modes[:3]),
        ]
    return [
        ("boxes 20x20 LDim", lambda: boxes_class(20), "LD", stopped),
        ("boxes 32x32 LDim (stopped: upper-bound side)", lambda: boxes(5, 2), "LD", stopped),
        ("intervals-256 LDim (stopped: upper-bound side)", lambda: intervals_class(256), "LD", stopped),
        ("intervals-128 LDim", lambda: intervals_class(128), "LD", all_modes),
        ("lines-Z31^2 LDim", lambda: lines_class(31), "LD", all_modes),
        ("dense random 1000x40 LDim", lambda: random_class(1000, 40, seed=5), "LD", all_modes),
        ("dense random 300x24 LDim", lambda: random_class(300, 24, seed=3), "LD", all_modes),
        ("random 200x10, 4 labels MLD", lambda: random_class(200, 10, 4, seed=3), "MLD", all_modes),
    ]


@register_suite("sat", "Littlestone-type search in SAT modes off / root / inside / forced, side by side")
def sat_suite(opts: BenchOptions) -> list[BenchRow]:
    """One row per case: the default mode's answer and time; ``off`` as the baseline column; every mode in extra."""
    limit = 1.0 if opts.quick else min(opts.solver_limit, 20.0)  # quick: a smoke test, "forced" stops at 1 s
    default = "inside" if ls.SAT_INSIDE else "root"
    rows = []
    for name, build, family, modes in _cases(opts.quick):
        if not opts.wants(name):
            continue
        H = build()  # type: ignore[operator]
        opts.say(f"sat: {name}")
        runs = {mode: _solve(H, family, mode, limit) for mode in modes}
        main, off = runs[default], runs["off"]
        lower, upper = main["bounds"]
        note = "; ".join(
            f"{m}: {r['bounds']} {r['seconds']}s nodes {r['nodes']} SAT {r['sat_answers']}/{r['sat_calls']} "
            f"({r['sat_seconds']}s)"
            for m, r in runs.items()
        )
        rows.append(
            BenchRow(
                "sat",
                name,
                lower if lower == upper else [lower, upper],
                lower == upper,
                main["seconds"],
                0.0,
                baseline_seconds=off["seconds"],
                baseline_answer=off["bounds"],
                ratio=off["seconds"] / max(main["seconds"], 1e-9),
                note=note,
                extra={"limit": limit, **runs},
            )
        )
    return rows
