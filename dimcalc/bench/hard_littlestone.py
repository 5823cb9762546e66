"""Benchmark suite ``hard-littlestone``: Littlestone dimensions whose proof of "nothing deeper" is the work.

Every case is a structured class whose value is below the size bound
``floor(log2 |H|)``, so the search must refute a deeper tree, not just find
one (issue 20's table: lines over Z_101^2, boxes over 28 x 28 and 32 x 32,
intervals over 512 points, halfspaces over 16 x 16).  Each case runs in a
fresh Python process (as the ``hard`` suite's), so that forked ``jobs``
workers inherit that case's class alone.  A row reports the value (or the
proven ``[lower, upper]`` when the time limit stopped it), ``exact``, wall
seconds from the call to the return, and in ``extra``: the CPU seconds of
the search process *and its workers* (load does not change them), nodes,
memo size, CPU microseconds per node, the load average when the case ran,
the time to build the class, and whether the witness tree passed the
independent checker; ``peak_mb`` is the case process's peak resident memory
(class, search and witness: the memory budget, ``DIMCALC_MEMORY_LIMIT_MB``,
counts the growth of the same figure).  Run it with::

    dimcalc bench --suite hard-littlestone            # the cases above, 60 s each, 3 runs (the median)
    dimcalc bench --suite hard-littlestone --repeat 1 # one run each
    dimcalc bench --suite hard-littlestone --quick    # small instances (a smoke test)
    dimcalc bench --suite hard-littlestone --jobs 1,2 # each case at jobs=1 and 2, and the speed-up

With ``--jobs 1,cluster:2`` the solver gets ``scheduler=`` a Dask
``LocalCluster`` of two one-thread worker processes, started and warmed
(dimcalc imported, the compiled loops loaded) before the clock.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from . import BenchOptions, BenchRow, register_suite
from ._child import TIMED, case_rows, runs_note

__all__ = ["hard_littlestone", "CASES", "QUICK_CASES"]

#: (case, Python expression building the class from `g` = dimcalc.generators, `boxes_class`, `intervals_class`,
#: why the value needs a refutation).
CASES: list[tuple[str, str, str]] = [
    ("LDim lines Z101^2", "g.lines(101)", "LDim 2 < floor(log2 10201) = 13"),
    ("LDim boxes 28x28", "boxes_class(28)", "size bound 17"),
    ("LDim intervals 512", "intervals_class(512)", "size bound 17"),
    ("LDim halfspaces 16x16", "g.halfspaces(4)", "size bound above the value"),
    ("LDim boxes 32x32", "boxes_class(32)", "size bound 18"),
]

#: Small instances of the same families (``--quick``).
QUICK_CASES: list[tuple[str, str, str]] = [
    ("LDim lines Z13^2", "g.lines(13)", "LDim 2 < floor(log2 169) = 7"),
    ("LDim boxes 8x8", "boxes_class(8)", "size bound 10"),
    ("LDim intervals 32", "intervals_class(32)", "size bound 9"),
]

_CHILD = TIMED + textwrap.dedent("""
    import json, resource, sys, time
    from dimcalc import generators as g
    from dimcalc.bench.littlestone import boxes_class, intervals_class
    from dimcalc.littlestone import littlestone_dimension
    expr, limit, jobs, cluster = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    t = time.perf_counter()
    H = eval(expr)
    built = time.perf_counter() - t
    def warm_worker():  # a cluster in use: dimcalc imported, the compiled loops loaded
        from dimcalc.littlestone import counts
        counts.load_kernels(counts.COMPILED_MIN_WORK, None)
    r, wall, cpu, workers, load = timed(lambda **kw: littlestone_dimension(H, time_limit=limit, **kw), jobs, cluster,
                                        warm_worker)
    print(json.dumps({"value": r.value, "exact": r.exact, "lower": r.lower, "upper": r.upper, "wall": wall,
                      "cpu": cpu + workers, "worker_cpu": workers, "load": load,
                      "verified": r.verify(H), "nodes": int(r.stats.get("nodes", 0)), "memo": r.stats.get("memo"),
                      "built": built, "m": H.n_distinct, "n": H.n_points,
                      "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
""")


def _run_case(expr: str, limit: float, jobs: int = 1, cluster: int = 0) -> dict:
    allowed = max(300.0, 6 * limit + 60)
    try:
        proc = subprocess.run(
            [sys.executable, "-c", _CHILD, expr, str(limit), str(jobs), str(cluster)],
            capture_output=True,
            text=True,
            timeout=allowed,
        )
    except subprocess.TimeoutExpired:  # a loaded machine: the row says so, the other rows are kept
        return {"error": f"no answer within {allowed:g} s (class build, search and check)"}
    if proc.returncode != 0:
        return {"error": (proc.stderr.strip().splitlines() or ["failed"])[-1]}
    return json.loads(proc.stdout)


@register_suite("hard-littlestone", "LDim of structured classes whose value needs a refutation (issue 20)")
def hard_littlestone(options: BenchOptions) -> list[BenchRow]:
    """One row per case: value or proven bounds, exact, seconds, nodes, CPU seconds, load, witness checked.

    The solver gets ``jobs=options.jobs`` (``--jobs 1,2`` runs both and reports the speed-up), or with
    ``options.cluster = N`` a Dask ``LocalCluster`` of ``N`` workers as ``scheduler=``.
    """
    limit = options.solver_limit
    rows = []
    for case, expr, why in QUICK_CASES if options.quick else CASES:
        if not options.wants(case):
            continue
        options.say(f"hard-littlestone: {case} at {limit:g} s")  # run_suites said the jobs values
        rows.extend(
            case_rows(
                options,
                lambda jobs, cluster: _run_case(expr, limit, jobs, cluster),
                lambda out, jobs, cluster: _row(case, why, out, limit, jobs, cluster),
            )
        )
    return rows


def _row(case: str, why: str, out: dict, limit: float, jobs: int, cluster: int) -> BenchRow:
    """The row of one case from its (median) run."""
    if "error" in out:
        return BenchRow("hard-littlestone", case, "error", False, float("nan"), 0.0, note=out["error"])
    nodes, cpu = out["nodes"], out["cpu"]
    return BenchRow(
        suite="hard-littlestone",
        case=case,
        answer=out["value"] if out["exact"] else [out["lower"], out["upper"]],
        exact=out["exact"],
        seconds=round(out["wall"], 3),
        # the child's peak resident memory (class and search; not traced: tracing would slow the search)
        peak_mb=round(out["max_rss_mb"], 1),
        note=("" if out["verified"] else "WITNESS NOT VERIFIED; ")
        + runs_note(out["walls"])
        + f"nodes {nodes}, cpu {cpu:.2f} s (workers {out['worker_cpu']:.2f}), load {out['load']:.2f}; {why}",
        extra={
            "hypotheses": out["m"],
            "points": out["n"],
            "nodes": nodes,
            "memo": out["memo"],
            "cpu_seconds": round(cpu, 3),
            "worker_cpu_seconds": round(out["worker_cpu"], 3),
            "cpu_us_per_node": round(1e6 * cpu / nodes, 1) if nodes else None,
            "load_average": round(out["load"], 2),
            "build_seconds": round(out["built"], 3),
            "time_limit": limit,
            "jobs": jobs,
            "cluster": cluster,
            "walls": out["walls"],
        },
    )
