#!/usr/bin/env python
"""Run dimcalc's benchmark suites: ``python benchmarks/run.py [--quick] [--suite NAME ...] [--only TEXT ...] [--json]``.

A thin script over :func:`dimcalc.bench.run_suites` (the ``dimcalc bench``
command offers the same).  Prints one line per case: median seconds, peak
traced memory, the answer, and for side-by-side cases the baseline time and
the speed-up ratio.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))

from dimcalc.bench import BenchOptions, load_suites, run_suites  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="tiny instances (smoke test)")
    p.add_argument("--suite", action="append", default=None, help="suite to run (repeatable; default all)")
    p.add_argument("--only", action="append", default=None, help="only cases whose name contains TEXT")
    p.add_argument("--repeat", type=int, default=3, help="timed runs per case (median reported)")
    p.add_argument("--baseline-limit", type=float, default=120.0, help="abandon a baseline after S seconds")
    p.add_argument("--solver-limit", type=float, default=60.0, help="time limit of stretch cases (seconds)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--list", action="store_true", help="list the suites and exit")
    args = p.parse_args(argv)
    suites = load_suites()
    if args.list:
        for name, (_, desc) in sorted(suites.items()):
            print(f"{name:24s} {desc}")
        return 0
    for s in args.suite or []:
        if s not in suites:
            p.error(f"unknown suite {s!r}; choose from {', '.join(sorted(suites))}")
    options = BenchOptions(
        quick=args.quick,
        repeat=args.repeat,
        baseline_limit=args.baseline_limit,
        solver_limit=args.solver_limit,
        only=tuple(args.only or ()),
        progress=None if args.json else (lambda m: print(m, file=sys.stderr, flush=True)),
    )
    rows = run_suites(args.suite, options)
    machine = (
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    if args.json:
        print(json.dumps({"machine": machine, "rows": [r.to_json() for r in rows]}, indent=2))
        return 0
    print(f"# {machine}")
    print(f"{'suite':24s} {'case':40s} {'answer':>10s} {'seconds':>9s} {'MB':>7s} {'baseline':>9s} {'ratio':>9s}")
    for r in rows:
        base = (
            "-"
            if r.baseline_seconds is None
            else (">limit" if math.isinf(r.baseline_seconds) else f"{r.baseline_seconds:.2f}")
        )
        ratio = "-" if r.ratio is None else f"{r.ratio:.0f}x"
        print(
            f"{r.suite:24s} {r.case:40s} {str(r.answer):>10s} {r.seconds:9.4f} {r.peak_mb:7.1f} {base:>9s} {ratio:>9s}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
