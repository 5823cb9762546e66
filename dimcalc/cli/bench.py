"""``dimcalc bench``: run the benchmark suites and print medians, memory and speed-up ratios."""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any

from ..bench import BenchOptions, check_settings, core_speeds, load_suites, parse_jobs, run_suites
from ..errors import InvalidParameterError
from .formats import bench_markdown
from .options import add_json_option, check_int_option
from .output import emit_json
from .status import EXIT_OK

__all__ = ["register", "run"]

EXAMPLES = """examples:
  dimcalc bench --list
  dimcalc bench --suite vc --repeat 3
  dimcalc bench --suite littlestone --only lines --json
  dimcalc bench --quick            # tiny instances, a smoke test
  dimcalc bench --suite vc --markdown > benchmarks.md   # the page docs/benchmarks.md"""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "bench",
        help="run benchmarks (solver vs textbook baseline, side by side)",
        description="Run dimcalc's benchmark suites: median wall time, peak traced memory and, "
        "for side-by-side cases, the speed-up over the plain textbook algorithm.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--suite", action="append", default=None, metavar="NAME", help="suite to run (repeatable)")
    p.add_argument("--only", action="append", default=None, metavar="TEXT", help="only cases whose name contains TEXT")
    p.add_argument("--quick", action="store_true", help="tiny instances (smoke test)")
    p.add_argument("--repeat", type=int, default=3, help="timed runs per case; the median is reported (default 3)")
    p.add_argument(
        "--baseline-limit",
        type=float,
        default=120.0,
        metavar="S",
        help="abandon a baseline run after S seconds (default 120)",
    )
    p.add_argument(
        "--jobs",
        default=None,
        metavar="A,B",
        help="run every case with jobs=A, then jobs=B, ... and add the speed-up column (seconds at A / at the "
        "last value), e.g. --jobs 1,2; the suites hard and hard-littlestone run each case at every value in "
        "turns (A B A B ...), the others whole once per value; a value cluster:N runs the cases on a Dask "
        "LocalCluster of N workers (suites hard, hard-littlestone), e.g. --jobs 1,cluster:2",
    )
    p.add_argument("--list", action="store_true", help="list the suites and exit")
    p.add_argument(
        "--markdown",
        action="store_true",
        help="print a Markdown page (the machine, its load, one table per suite): docs/benchmarks.md",
    )
    add_json_option(p)
    p.set_defaults(func=run)


def _fmt_seconds(x: float | None) -> str:
    if x is None:
        return "-"
    if math.isinf(x):
        return ">limit"
    return f"{x:.4f}" if x < 1 else f"{x:.2f}"


def _ratio_text(r: Any, baseline_limit: float) -> str:
    """The speed-up; a lower bound (``>``) when the baseline was abandoned at ``baseline_limit`` seconds."""
    if r.ratio is None:
        return "-"
    if r.baseline_seconds == math.inf:
        ratio = r.ratio if math.isfinite(r.ratio) else baseline_limit / max(r.seconds, 1e-9)
        return f">{ratio:.0f}x"
    return f"{r.ratio:.0f}x"


def run(args: argparse.Namespace) -> int:
    suites = load_suites()
    if args.list:
        for name, (_, desc) in sorted(suites.items()):
            print(f"{name:16s} {desc}")
        return EXIT_OK
    check_int_option(args.repeat, "--repeat", 1)
    if not args.baseline_limit > 0:
        raise InvalidParameterError(f"--baseline-limit must be a positive number of seconds; got {args.baseline_limit}")
    for s in args.suite or []:
        if s not in suites:
            raise InvalidParameterError(f"--suite: unknown suite {s!r}; choose from {', '.join(sorted(suites))}")
    opts = BenchOptions(
        quick=args.quick,
        repeat=args.repeat,
        baseline_limit=args.baseline_limit,
        only=tuple(args.only or ()),
        progress=None if args.json or args.markdown else (lambda m: print(m, file=sys.stderr, flush=True)),
    )
    jobs = None
    if args.jobs is not None:
        try:
            jobs = parse_jobs(args.jobs)
            check_settings(args.suite or sorted(suites), jobs)
        except ValueError as exc:
            raise InvalidParameterError(str(exc)) from None
    before = core_speeds() if args.markdown else None
    rows = run_suites(args.suite, opts, jobs)
    if args.json:
        emit_json([r.to_json() for r in rows])
        return EXIT_OK
    speedup = () if jobs is None else (f"jobs={jobs[-1]} speed-up",)
    header = ("suite", "case", "answer", "exact", "median s", "peak MB", "baseline s", "ratio", *speedup, "note")
    table = [header] + [
        (
            r.suite,
            r.case,
            str(r.answer),
            "yes" if r.exact else "no",
            _fmt_seconds(r.seconds),
            f"{r.peak_mb:.1f}",
            _fmt_seconds(r.baseline_seconds),
            _ratio_text(r, args.baseline_limit),
            *(() if jobs is None else ("-" if r.speedup is None else f"{r.speedup:.2f}x",)),
            r.note,
        )
        for r in rows
    ]
    if args.markdown:
        speeds = (before or {}, core_speeds())
        print(bench_markdown(header, table[1:], {name: desc for name, (_, desc) in suites.items()}, opts, speeds))
        return EXIT_OK
    widths = [max(len(t[c]) for t in table) for c in range(len(header))]
    for t in table:
        print("  ".join(t[c].ljust(widths[c]) for c in range(len(header))).rstrip())
    return EXIT_OK
