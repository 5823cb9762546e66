"""Benchmark suite ``hard``: VC-type refutation (proving that nothing larger exists) on random and structured classes.

Each case runs ``--repeat`` times (default 3; the run of median wall time is
the row, every run's wall time in its note); with several ``--jobs`` values the
runs of one case take turns (``1 2 1 2 1 2``: the machine's drift over minutes
falls on both), each in a fresh Python process that builds its class from a seeded
generator and calls the solver under a time limit (60 s; ``quick``: small
cases at 10 s).  A row reports the answer (value or ``[lower, upper]``),
whether it is exact, the wall and CPU seconds from the call to the return,
the load average beside them (the CPU seconds count the worker processes of
``jobs``; the machine may be shared: CPU seconds and
node counts are what load does not change), the search's nodes and
candidate tests, tests per CPU second, and the *bit floor*: the seconds the
tests would take at one word operation per nanosecond, reading one cell of
``ceil(m / 64)`` words each (``m`` distinct hypotheses) -- a lower bound on
the cost of the tests done, so ``cpu / floor`` is the overhead above it.

A row also says whether its answer *needs refutation*: an answer below
``floor(log2 |H|)`` is only exact once every larger set has been refuted; an
answer equal to it is settled by the count of hypotheses alone (issue 20: the
README's random 64 x 50 000 row was seed 1, the one seed of five whose
answer needs no refutation).  See ``docs/vc.md`` for the search and its rules.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

from . import BenchOptions, BenchRow, register_suite
from ._child import TIMED, case_rows, runs_note

__all__ = ["HARD", "hard_suite"]

_RANDOM = "HypothesisClass(np.random.default_rng({seed}).integers(0, {labels}, ({m}, {n}), dtype=np.uint8))"
#: Boxes over the 20 x 20 grid (not a power of 2, so not a generator): products of two intervals, and the empty box.
_BOXES_20 = (
    "HypothesisClass(np.vstack([(lambda iv: (iv[:, None, :, None] & iv[None, :, None, :]).reshape(-1, 400))("
    "np.array([[a <= x <= b for x in range(20)] for a in range(20) for b in range(a, 20)])), np.zeros((1, 400), bool)"
    "]).astype(np.uint8))"
)

#: name -> (Python expression building the class from `np`, `HypothesisClass` and `g` = dimcalc.generators,
#: solvers to run).
HARD: dict[str, tuple[str, tuple[str, ...]]] = {
    **{
        f"random 64x50000 seed {seed}": (
            _RANDOM.format(seed=seed, labels=2, m=64, n=50000),
            ("vc", "natarajan", "graph") if seed == 0 else ("vc",),
        )
        for seed in range(5)
    },
    "random 5000x16, 16 labels, seed 1": (_RANDOM.format(seed=1, labels=16, m=5000, n=16), ("natarajan",)),
    "intervals over 512 points": ("g.intervals(512)", ("vc",)),
    "halfspaces over 16x16": ("g.halfspaces(4, 2)", ("vc",)),
    "boxes over 32x32": ("g.boxes(5, 2)", ("vc",)),
    "boxes over 20x20": (_BOXES_20, ("vc",)),
}

#: Small stand-ins for ``quick`` (the test suite's smoke run).
_QUICK: dict[str, tuple[str, tuple[str, ...]]] = {
    "random 64x2000 seed 0": (_RANDOM.format(seed=0, labels=2, m=64, n=2000), ("vc",)),
    "intervals over 32 points": ("g.intervals(32)", ("vc",)),
}

_CHILD = TIMED + textwrap.dedent("""
    import json, sys
    import numpy as np
    import dimcalc
    from dimcalc import HypothesisClass, generators as g
    expr, solver, limit, jobs, cluster = sys.argv[1], sys.argv[2], float(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    H = eval(expr)
    fn = getattr(dimcalc, solver + "_dimension")
    def warm_worker():  # a cluster in use: dimcalc imported, the compiled kernels loaded
        from dimcalc.vc import kernel
        kernel.warm()
    r, wall, cpu, workers, load = timed(lambda **kw: fn(H, time_limit=limit, **kw), jobs, cluster, warm_worker)
    cpu += workers
    print(json.dumps({"value": r.value, "exact": r.exact, "lower": r.lower, "upper": r.upper, "wall": wall,
                      "cpu": cpu, "load": load, "verified": r.verify(H),
                      "nodes": r.stats.get("nodes", 0), "tests": r.stats.get("tests", 0),
                      "log2": H.log2_size(), "m": H.n_distinct,
                      "traces": {k: v for k, v in r.stats.items() if k.startswith(("trace", "closure", "symmetry", "complement"))}}))
""")


def _run_case(expr: str, solver: str, limit: float, jobs: int = 1, cluster: int = 0) -> dict:
    try:
        proc = subprocess.run(
            [sys.executable, "-c", _CHILD, expr, solver, str(limit), str(jobs), str(cluster)],
            capture_output=True,
            text=True,
            timeout=max(300.0, 6 * limit + 60),
        )
    except subprocess.TimeoutExpired:  # a loaded machine: the row says so, the other rows are kept
        return {"error": f"no answer within {max(300.0, 6 * limit + 60):g} s (class build, search and check)"}
    if proc.returncode != 0:
        return {"error": (proc.stderr.strip().splitlines() or ["failed"])[-1]}
    return json.loads(proc.stdout)


def _symmetry_note(stats: dict) -> str:
    """What the point symmetries and the complement split (:mod:`dimcalc.vc.symmetry`, :mod:`dimcalc.vc.complement`)
    did in a row.

    >>> _symmetry_note({"symmetry_orbits": 36, "symmetry_generators": 2, "symmetry_seconds": 0.6})
    '; 36 orbits of points (2 checked generators, 0.6 s)'
    >>> _symmetry_note({"symmetry_orbits": 36, "symmetry_generators": 2, "symmetry_seconds": 0.6, "complement_heads": 36})
    '; 36 orbits of points (2 checked generators, 0.6 s); closed under complement: 36 heads searched on H_0'
    >>> _symmetry_note({"symmetry_orbits": 36, "symmetry_generators": 2, "symmetry_group_order": 8, "symmetry_seconds": 0.6})
    '; 36 orbits of points (2 checked generators, group of order 8, 0.6 s)'
    >>> _symmetry_note({"symmetry_generators": 0, "symmetry_seconds": 0.01})
    '; no point symmetry found (0.01 s)'
    """
    note = ""
    if "symmetry_orbits" in stats:
        order = f", group of order {stats['symmetry_group_order']}" if "symmetry_group_order" in stats else ""
        note = (
            f"; {stats['symmetry_orbits']} orbits of points ({stats.get('symmetry_generators', 0)} checked"
            f" generators{order}, {stats.get('symmetry_seconds', 0):g} s)"
        )
    elif "symmetry_seconds" in stats:
        note = f"; no point symmetry found ({stats['symmetry_seconds']:g} s)"
    if "complement_heads" in stats:
        note += f"; closed under complement: {stats['complement_heads']} heads searched on H_0"
    return note


def _traces_note(stats: dict) -> str:
    """What the closure and trace searches (:mod:`dimcalc.vc.closure`, :mod:`dimcalc.vc.traces`) did in a row.

    >>> _traces_note({"trace_refuted": 3, "trace_nodes": 517, "trace_work": 4.6e7})
    '; target 3 refuted on distinct traces (517 trace nodes, 4.6e+07 entries read)'
    >>> _traces_note({"trace_ratio": 0.3})
    '; traces not tried (collapse ratio 0.3)'
    >>> _traces_note({"closure_refuted": 5, "closure_irreducible": 125, "closure_nodes": 1})
    '; target 5 refuted by closures (125 irreducible members, 1 clique nodes)'
    """
    if "closure_refuted" in stats:  # decided by closures (dimcalc.vc.closure): the trace search never ran
        return (
            f"; target {stats['closure_refuted']} refuted by closures ({stats.get('closure_irreducible', 0)}"
            f" irreducible members, {stats.get('closure_nodes', 0)} clique nodes)"
        )
    if not any(k.startswith("trace") for k in stats):
        return ""
    if "trace_refuted" in stats:
        return (
            f"; target {stats['trace_refuted']} refuted on distinct traces ({stats.get('trace_nodes', 0)} trace"
            f" nodes, {stats.get('trace_work', 0):.2g} entries read)"
        )
    if "trace_nodes" in stats:
        return f"; traces tried, not refuted ({stats.get('trace_nodes', 0)} trace nodes)"
    return f"; traces not tried (collapse ratio {stats.get('trace_ratio', 'n/a')})"


@register_suite("hard", "VC-type refutation on random and structured classes (CPU s, nodes, tests vs the bit floor)")
def hard_suite(opts: BenchOptions) -> list[BenchRow]:
    """Run every case of :data:`HARD` (``quick``: two small stand-ins); one row per (class, solver).

    The solvers get ``jobs=opts.jobs`` (``dimcalc bench --suite hard --jobs 1,2`` runs both and reports the
    speed-up); with ``opts.cluster = N`` (``--jobs 1,cluster:2``) they get ``scheduler=`` a Dask ``LocalCluster``
    of ``N`` one-thread worker processes, started and warmed before the clock (dimcalc imported and the
    compiled kernels loaded on each worker, as on a cluster already in use; forked ``jobs`` workers inherit
    them from the calling process alike).  Everything else -- sending the class, building each worker's
    filter rows, the pieces -- is inside the timed call.  The CPU seconds of a row are the search
    process's and its workers'.
    """
    cases = _QUICK if opts.quick else HARD
    limit = 10.0 if opts.quick else opts.solver_limit
    rows = []
    for name, (expr, solvers) in cases.items():
        for solver in solvers:
            case = f"{name} / {solver}"
            if not opts.wants(case):
                continue
            opts.say(f"hard: {case} at {limit:g} s")
            rows.extend(
                case_rows(
                    opts,
                    lambda jobs, cluster: _run_case(expr, solver, limit, jobs, cluster),
                    lambda out, jobs, cluster: _row(case, out, limit, jobs, cluster),
                )
            )
    return rows


def _row(case: str, out: dict, limit: float, jobs: int, cluster: int) -> BenchRow:
    """The row of one case from its (median) run."""
    if "error" in out:
        return BenchRow("hard", case, "error", False, float("nan"), 0.0, note=out["error"])
    answer = out["value"] if out["exact"] else [out["lower"], out["upper"]]
    floor = out["tests"] * max(1, (out["m"] + 63) // 64) * 1e-9
    refute = out["lower"] < out["log2"]
    note = (
        runs_note(out["walls"])
        + f"cpu {out['cpu']:.1f} s, load {out['load']:.1f}; {out['nodes']} nodes, {out['tests']} tests"
        f" ({out['tests'] / max(out['cpu'], 1e-9):.3g}/s; bit floor {floor:.2f} s); "
        + (
            f"needs refutation ({out['lower']} < floor(log2|H|) = {out['log2']})"
            if refute
            else "settled by the count of hypotheses (no refutation needed)"
        )
        + _traces_note(out.get("traces") or {})
        + _symmetry_note(out.get("traces") or {})
        + ("" if out["verified"] else "; WITNESS NOT VERIFIED")
    )
    return BenchRow(
        "hard",
        case,
        answer,
        out["exact"],
        out["wall"],
        0.0,
        note=note,
        extra={
            "cpu": out["cpu"],
            "load": out["load"],
            "nodes": out["nodes"],
            "tests": out["tests"],
            "bit_floor_seconds": floor,
            "needs_refutation": refute,
            "limit": limit,
            "jobs": jobs,
            "cluster": cluster,
            "traces": out.get("traces") or {},
            "walls": out["walls"],
        },
    )
