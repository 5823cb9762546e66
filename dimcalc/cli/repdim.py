"""``dimcalc repdim FILE``: deterministic representation dimension and one-way communication (FX §2-4)."""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Any

from ..errors import InvalidParameterError
from ..reports.repdim import repdim_report
from ..representation import exact_fraction, milp
from .clock import command_deadline, slowdown
from .inputs import load_class_arg
from .options import add_class_file_argument, add_json_option, add_time_limit_option, add_witness_file_option
from .output import check_outputs, class_line, emit_json, present_witness
from .status import EXIT_OK, EXIT_TIME_LIMIT

__all__ = ["register", "run"]

EXAMPLES = """examples:
  dimcalc repdim data/thresholds-6.csv --epsilon 0.25
  dimcalc repdim data/point-functions-8.json --epsilon 1/3 --pool class --json
  dimcalc repdim data/boxes-b2-d2.json --time-limit 2 --json --witness-file representation.json

witness: the representing class H (one row per function) and Alice's message table; a witness too
big to print is summarised (--witness-file writes it in full); checking it counts against --time-limit.
exit status: 0 done, 2 refused input, 3 a time limit stopped the search (bounds reported);
             without a stop, a pool that is not every function also gives bounds (exit 0, "exact": false)"""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "repdim",
        help="DRDim_ε by MILP, PRDim bounds, one-way communication of Eval_C (FX)",
        description="Smallest H that ε-represents the class (FX Def 2.3) by mixed-integer "
        "programming, the paper bounds on PRDim, and the one-way communication "
        "complexity of Eval_C.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_class_file_argument(p)
    p.add_argument(
        "--epsilon",
        default="1/4",
        help="accuracy ε in [0, 1/2] (default 1/4), read exactly: 0.1 is 1/10, 1/3 is one third",
    )
    p.add_argument(
        "--pool",
        choices=("auto", "all", "class"),
        default="auto",
        help="candidate functions: all functions on the domain (exact), the class itself (upper bound); "
        "auto = all when there are at most 64",
    )
    add_json_option(p)
    add_time_limit_option(p)
    add_witness_file_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Handler of ``dimcalc repdim``: :func:`dimcalc.reports.repdim_report`, printed."""
    eps = exact_fraction(args.epsilon, owner="dimcalc repdim --epsilon")
    if eps > Fraction(1, 2):  # the range --help states (FX: error ε <= 1/2 for Eval_C protocols)
        raise InvalidParameterError(f"--epsilon must be a number in [0, 1/2]; got {args.epsilon}")
    milp.SCIPY_LOAD_SECONDS = milp.SCIPY_LOAD_SECONDS * slowdown()  # a busy machine loads scipy slower too
    deadline = command_deadline(args.time_limit)  # from the process start: start-up and loading count
    check_outputs(args, "witness_file")  # refused before anything is computed
    H = load_class_arg(args.file, args, deadline)
    report = repdim_report(H, eps, pool=None if args.pool == "auto" else args.pool, time_limit=deadline.left())
    rep, comm, verified = report.representation, report.communication, report.verified
    witness = report.witness
    shown, written = (
        present_witness(witness, report.witness_values, args, deadline)
        if args.json or args.witness_file
        else (witness, False)
    )
    if args.json:  # a summarised witness stands for both parts (the file, if any, holds both)
        emit_json(report.to_json(witness=None if shown is witness else shown))
    else:
        print(class_line(H))
        if rep.exact:
            print(
                f"DRDim_{eps} = log2 {rep.size} = {rep.value:.4f}  (pool: {rep.pool}; witness verified: "
                f"{'yes' if verified else 'NO'})"
            )
        else:
            print(
                f"DRDim_{eps} in [log2 {rep.size_lower}, log2 {rep.size_upper}] = [{rep.lower:.4f}, {rep.upper:.4f}]"
                f"  (pool: {rep.pool}; bounds only; witness verified: {'yes' if verified else 'NO'})"
            )
        print(
            f"one-way communication of Eval_C: deterministic = {comm.deterministic} bits (exact); "
            f"private coin R→_{comm.epsilon} in {list(comm.private_coin)}"
        )
        for b in report.bounds:
            if b.value is None:  # an order of growth: no number to print, say what the paper gives
                val = f" (order of growth: {b.note})" if b.note else " (order of growth)"
            else:
                val = f" {b.value:.4g}" if isinstance(b.value, float) else f" {b.value}"
            print(
                f"  {b.quantity} {b.relation}{val}   [{b.source}; constants "
                f"{'explicit' if b.explicit_constants else 'unspecified'}]"
            )
        if written:
            print(f"full witness (representing class and message table) written to {args.witness_file}")
        if report.stopped:
            print("stopped by the time limit: [lower, upper] are proven bounds")
    if not verified:
        return 1
    # Bounds without a stop (pool too large for an exact answer) are a complete answer: exit 0.
    return EXIT_TIME_LIMIT if report.stopped else EXIT_OK
