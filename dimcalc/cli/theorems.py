"""``dimcalc theorems FILE``: every finite-class statement of the seed papers, evaluated."""

from __future__ import annotations

import argparse
from typing import Any

from ..reports.theorems import theorem_report, theorem_verdict
from .clock import command_deadline
from .formats import TABLE_FORMATS, add_format_option, print_tables, resolve_format, theorems_table
from .inputs import load_class_arg
from .options import add_class_file_argument, add_json_option, add_time_limit_option
from .output import class_line, emit_json
from .status import EXIT_FAILURE, EXIT_OK, EXIT_TIME_LIMIT

__all__ = ["register", "run"]

EXAMPLES = """examples:
  dimcalc theorems data/thresholds-15.json
  dimcalc theorems data/random-multiclass.json --json --time-limit 30

holds: yes (proven from the numbers), NO (violated: a bug or a counterexample), ? (a side is only bounded)
exit status: 0 every statement holds, 1 a statement is violated, 2 refused input,
             3 some statement unknown (a solver stopped by --time-limit left bounds)"""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "theorems",
        help="evaluate the seed papers' statements on a class (holds / violated)",
        description="Evaluate BGS Lemma 4.5, Claims 4.6-4.7, Thms 3.4, 5.6, 7.1, 8.8, Lemma 5.11, "
        "Sauer-Shelah, VC <= LDim <= floor(log2|H|), FX Thm 3.2/Cor 4.3 on a class file.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_class_file_argument(p)
    add_json_option(p)
    add_format_option(p)
    add_time_limit_option(p)
    p.set_defaults(func=run)


def _text(side: Any) -> str:
    if side.exact:
        v = side.lower
        return f"{v:.4g}" if isinstance(v, float) else str(v)
    fmt = lambda v: "?" if v is None else (f"{v:.4g}" if isinstance(v, float) else str(v))  # noqa: E731
    return f"[{fmt(side.lower)}, {fmt(side.upper)}]"


#: Exit status of each verdict of :func:`dimcalc.reports.theorem_verdict`.
_EXIT = {"holds": EXIT_OK, "violated": EXIT_FAILURE, "unknown": EXIT_TIME_LIMIT}


def run(args: argparse.Namespace) -> int:
    """Handler of ``dimcalc theorems``: :func:`dimcalc.reports.theorem_report`, printed."""
    deadline = command_deadline(args.time_limit)  # from the process start: start-up and loading count
    fmt = resolve_format(args)
    H = load_class_arg(args.file, args, deadline)
    report = theorem_report(H, time_limit=deadline.left())
    if args.json:
        emit_json([c.to_json() for c in report])
    elif fmt in TABLE_FORMATS:
        print_tables(fmt, [theorems_table(report)])
    else:
        print(class_line(H))
        rows = [("source", "statement", "lhs", "rel", "rhs", "exact", "holds")]
        for c in report:
            holds = {True: "yes", False: "NO"}.get(c.holds, "?") if not isinstance(c.holds, str) else "?"
            rows.append(
                (c.source, c.statement, _text(c.lhs), c.relation, _text(c.rhs), "yes" if c.exact else "bounds", holds)
            )
        widths = [max(len(r[i]) for r in rows) for i in range(7)]
        for r in rows:
            print("  ".join(r[i].ljust(widths[i]) for i in range(7)).rstrip())
        print("exact = both sides are exact numbers; 'bounds' = a side is a proven interval [lower, upper]")
    # "unknown" only arises when a solver stopped at the time limit and left a side as bounds
    return _EXIT[theorem_verdict(report)]
