"""Benchmark suite ``hard-littlestone``: Littlestone dimensions whose proof of "nothing deeper" is the work.

Every case is a structured class whose value is below the size bound
``floor(log2 |H|)``, so the search must refute a deeper tree, not just find
one (issue 20's table: lines over Z_101^2, boxes over 28 x 28 and 32 x 32,
intervals over 512 points, halfspaces over 16 x 16).  Each row reports the
value (or the proven ``[lower, upper]`` when the time limit stopped it),
``exact``, wall seconds, and in ``extra``: the search's CPU seconds (load
does not change them), nodes, memo size, CPU microseconds per node, the
load average when the case ran, the time to build the class, and whether the
witness tree passed the independent checker.  Run it with::

    dimcalc bench --suite hard-littlestone            # the cases above, 60 s each
    dimcalc bench --suite hard-littlestone --quick    # small instances (a smoke test)
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable

from .. import generators
from ..classes.hypothesis_class import HypothesisClass
from ..littlestone import littlestone_dimension
from . import BenchOptions, BenchRow, register_suite
from .littlestone import boxes_class, intervals_class

__all__ = ["hard_littlestone", "CASES", "QUICK_CASES"]

#: (case, builder, why the value needs a refutation).
CASES: list[tuple[str, Callable[[], HypothesisClass], str]] = [
    ("LDim lines Z101^2", lambda: generators.lines(101), "LDim 2 < floor(log2 10201) = 13"),
    ("LDim boxes 28x28", lambda: boxes_class(28), "size bound 17"),
    ("LDim intervals 512", lambda: intervals_class(512), "size bound 17"),
    ("LDim halfspaces 16x16", lambda: generators.halfspaces(4), "size bound above the value"),
    ("LDim boxes 32x32", lambda: boxes_class(32), "size bound 18"),
]

#: Small instances of the same families (``--quick``).
QUICK_CASES: list[tuple[str, Callable[[], HypothesisClass], str]] = [
    ("LDim lines Z13^2", lambda: generators.lines(13), "LDim 2 < floor(log2 169) = 7"),
    ("LDim boxes 8x8", lambda: boxes_class(8), "size bound 10"),
    ("LDim intervals 32", lambda: intervals_class(32), "size bound 9"),
]


def _load() -> float:
    try:
        return round(os.getloadavg()[0], 2)
    except OSError:  # pragma: no cover - no load average on this platform
        return math.nan


@register_suite("hard-littlestone", "LDim of structured classes whose value needs a refutation (issue 20)")
def hard_littlestone(options: BenchOptions) -> list[BenchRow]:
    """One row per case: value or proven bounds, exact, seconds, nodes, CPU seconds, load, witness checked."""
    rows = []
    for case, build, why in QUICK_CASES if options.quick else CASES:
        if not options.wants(case):
            continue
        options.say(case)
        t0 = time.perf_counter()
        H = build()
        built = time.perf_counter() - t0
        load = _load()
        cpu0, t0 = time.process_time(), time.perf_counter()
        r = littlestone_dimension(H, time_limit=options.solver_limit)
        seconds = time.perf_counter() - t0
        cpu = time.process_time() - cpu0
        nodes = int(r.stats.get("nodes", 0))
        verified = r.verify(H)
        rows.append(
            BenchRow(
                suite="hard-littlestone",
                case=case,
                answer=r.value if r.exact else [r.lower, r.upper],
                exact=r.exact,
                seconds=round(seconds, 3),
                peak_mb=0.0,  # not traced: tracing would slow the search it measures
                note=("" if verified else "WITNESS NOT VERIFIED; ")
                + f"nodes {nodes}, cpu {cpu:.2f} s, load {load}; {why}",
                extra={
                    "hypotheses": H.n_distinct,
                    "points": H.n_points,
                    "nodes": nodes,
                    "memo": r.stats.get("memo"),
                    "cpu_seconds": round(cpu, 3),
                    "cpu_us_per_node": round(1e6 * cpu / nodes, 1) if nodes else None,
                    "load_average": load,
                    "build_seconds": round(built, 3),
                    "time_limit": options.solver_limit,
                },
            )
        )
    return rows
