"""Benchmark suite ``shapes``: every solver on classes of every shape, under time limits.

Wide classes (a few hypotheses over a huge domain), square and tall ones,
trivial ones and many labels -- the shapes of issue "the engine at every
shape".  Each case runs in a fresh Python process (so that its peak resident
memory is its own and nothing is cached across cases), builds its class from
a seeded generator, and calls the solver with ``time_limit``; the row reports
the answer (value or ``[lower, upper]``), whether it is exact, the wall time
from the call to the return (set-up included), the process's peak resident
memory, and the *overrun ratio* = wall time / time limit.  The limits are 1, 5
and 30 s (``quick``: 1 s on small cases only).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from . import BenchOptions, BenchRow, register_suite

__all__ = ["SHAPES", "shapes_suite"]

#: name -> (Python expression building the class from `np`, `HypothesisClass` and `g` = dimcalc.generators,
#: solvers to run; ``solver@N`` runs it with ``jobs=N`` worker processes).
SHAPES: dict[str, tuple[str, tuple[str, ...]]] = {
    "random 20x100000": (
        "HypothesisClass(np.random.default_rng(1).integers(0, 2, (20, 100000), dtype=np.uint8))",
        ("vc", "natarajan", "graph", "littlestone", "multiclass_littlestone"),
    ),
    "random 64x50000": (
        "HypothesisClass(np.random.default_rng(1).integers(0, 2, (64, 50000), dtype=np.uint8))",
        ("vc", "natarajan", "graph", "littlestone", "multiclass_littlestone"),
    ),
    "2x1000000": (
        "HypothesisClass(np.random.default_rng(1).integers(0, 2, (2, 1000000), dtype=np.uint8))",
        ("vc", "natarajan", "graph", "littlestone", "multiclass_littlestone"),
    ),
    "1x3000000": (
        "HypothesisClass(np.zeros((1, 3000000), dtype=np.uint8))",
        ("vc", "natarajan", "graph", "littlestone", "multiclass_littlestone"),
    ),
    "1000x100000 identical columns": (
        "HypothesisClass(np.repeat(np.random.default_rng(1).integers(0, 2, (1000, 1), dtype=np.uint8), 100000, 1))",
        ("vc", "natarajan", "graph", "littlestone"),
    ),
    "thresholds-2047": ("g.thresholds(2047)", ("vc", "littlestone")),
    "thresholds-4095": ("g.thresholds(4095)", ("vc",)),
    "boxes 16x16": ("g.boxes(4, 2)", ("vc", "littlestone")),
    "random 2000x12, 10 labels": (
        "HypothesisClass(np.random.default_rng(1).integers(0, 10, (2000, 12), dtype=np.uint8))",
        ("natarajan", "natarajan@2", "graph", "multiclass_littlestone"),
    ),
    "dense random 1000x40": (
        "HypothesisClass(np.random.default_rng(1).integers(0, 2, (1000, 40), dtype=np.uint8))",
        ("vc", "vc@2", "littlestone"),
    ),
    "boxes 32x32": ("g.boxes(5, 2)", ("littlestone",)),
    "thresholds-65535, 4.3e9 cells, one bit per cell": ("g.thresholds(65535)", ("vc", "littlestone")),
    "labels300 (300x6)": (
        "HypothesisClass([[(7 * i + 13 * j) % 300 for j in range(6)] for i in range(300)])",
        ("natarajan", "graph", "multiclass_littlestone"),
    ),
}

_QUICK = ("random 20x100000", "2x1000000", "thresholds-2047", "labels300 (300x6)")

_CHILD = textwrap.dedent("""
    import json, resource, sys, time
    import numpy as np
    import dimcalc
    from dimcalc import HypothesisClass, generators as g
    expr, solver, limit = sys.argv[1], sys.argv[2], float(sys.argv[3])
    solver, _, jobs = solver.partition("@")
    H = eval(expr)
    fn = getattr(dimcalc, solver + "_dimension")
    t = time.perf_counter()
    r = fn(H, time_limit=limit, **({"jobs": int(jobs)} if jobs else {}))
    wall = time.perf_counter() - t
    ok = r.verify(H)
    print(json.dumps({"value": r.value, "exact": r.exact, "lower": r.lower, "upper": r.upper, "wall": wall,
                      "verified": ok, "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
""")


def _run_case(expr: str, solver: str, limit: float) -> dict:
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, expr, solver, str(limit)],
        capture_output=True,
        text=True,
        timeout=max(120.0, 4 * limit + 60),
    )
    if proc.returncode != 0:
        return {"error": (proc.stderr.strip().splitlines() or ["failed"])[-1]}
    return json.loads(proc.stdout)


@register_suite("shapes", "every solver on wide/square/tall/trivial/many-label classes at limits 1, 5, 30 s")
def shapes_suite(opts: BenchOptions) -> list[BenchRow]:
    """Run every case of :data:`SHAPES` at each time limit; one row per (class, solver, limit)."""
    limits = (1.0,) if opts.quick else (1.0, 5.0, 30.0)
    rows = []
    for name, (expr, solvers) in SHAPES.items():
        if opts.quick and name not in _QUICK:
            continue
        for solver in solvers:
            case = f"{name} / {solver}"
            if not opts.wants(case):
                continue
            for limit in limits:
                opts.say(f"shapes: {case} at {limit:g} s")
                out = _run_case(expr, solver, limit)
                if "error" in out:
                    rows.append(
                        BenchRow("shapes", f"{case} @{limit:g}s", "error", False, float("nan"), 0.0, note=out["error"])
                    )
                    continue
                answer = out["value"] if out["exact"] else [out["lower"], out["upper"]]
                ratio = out["wall"] / limit
                note = f"overrun {ratio:.2f}" + ("" if out["verified"] else "; WITNESS NOT VERIFIED")
                rows.append(
                    BenchRow(
                        "shapes",
                        f"{case} @{limit:g}s",
                        answer,
                        out["exact"],
                        out["wall"],
                        out["peak_mb"],
                        note=note,
                        extra={"limit": limit, "overrun": ratio},
                    )
                )
                if out["exact"] and out["wall"] < limit / 4:
                    break  # exact well inside this limit: the larger limits would repeat it
    return rows
