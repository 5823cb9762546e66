"""``dimcalc growth FILE``: the growth function π_H(m) for m = 0..M, with the Sauer–Shelah bound beside it."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..reports.growth import growth_table
from .clock import command_deadline
from .inputs import load_class_arg
from .options import add_class_file_argument, add_json_option, add_time_limit_option, check_int_option
from .output import class_line, emit_json, printable
from .status import EXIT_OK, EXIT_TIME_LIMIT

__all__ = ["register", "run"]

EXAMPLES = """examples:
  dimcalc growth data/intervals-10.json
  dimcalc growth data/random-multiclass.json --max-m 4 --json

columns: m, pi_H(m) (exact, or [lower, upper] when --time-limit stopped it), the Sauer-Shelah bound
sum_{i<=d} C(m, i) with d = VC (binary classes), and the trivial bound min(|H|, (k+1)^m).
exit status: 0 done, 2 refused input, 3 a time limit left bounds"""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "growth",
        help="growth function pi_H(m) with the Sauer-Shelah bound beside it",
        description="The growth function pi_H(m) (most label patterns on m points; Vapnik-"
        "Chervonenkis 1971) for m = 0..M, each with a subset of points achieving it, "
        "beside the Sauer-Shelah bound (Sauer 1972, Shelah 1972) for binary classes.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_class_file_argument(p)
    p.add_argument(
        "--max-m", type=int, default=None, metavar="M", help="largest m (default: min(domain size, VC + 2, 8))"
    )
    add_json_option(p)
    add_time_limit_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Handler of ``dimcalc growth``: :func:`dimcalc.reports.growth_table`, printed."""
    deadline = command_deadline(args.time_limit)  # from the process start: start-up and loading count
    check_int_option(args.max_m, "--max-m", 0)
    H = load_class_arg(args.file, args, deadline)
    if args.max_m is not None and args.max_m > H.n_points:
        print(f"dimcalc: note: --max-m {args.max_m} capped at {H.n_points}, the number of points", file=sys.stderr)
    table = growth_table(H, args.max_m, time_limit=deadline.left())
    if args.json:
        emit_json(table.to_json())
        return EXIT_OK if table.complete else EXIT_TIME_LIMIT
    vc = table.vc
    print(class_line(H))
    if vc is not None:
        print(
            f"VC dimension d = {vc.value if vc.exact else f'in [{vc.lower}, {vc.upper}]'}"
            + ("" if vc.exact else " (Sauer-Shelah column uses the upper bound)")
        )
    print(f"{'m':>3}  {'pi_H(m)':>12}  {'Sauer-Shelah':>12}  {'min(|H|,(k+1)^m)':>16}  points achieving it")
    for row in table.rows:
        v = str(row.value) if row.exact else f"[{row.lower}, {row.upper}]"
        ss = "-" if row.sauer_shelah is None else str(row.sauer_shelah)
        print(f"{row.m:>3}  {v:>12}  {ss:>12}  {row.trivial:>16}  {printable(row.witness)}")
    if not table.exact:
        print("stopped by the time limit: bracketed values are proven [lower, upper] bounds")
    return EXIT_OK if table.complete else EXIT_TIME_LIMIT
