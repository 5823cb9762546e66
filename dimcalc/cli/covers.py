"""``dimcalc cover FILE (--tree TREE.json | --depth n)``: 0-cover numbers (BGS §5)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..covers import DEFAULT_MAX_WITNESS_NODES, MAX_DEPTH
from ..errors import InvalidParameterError
from ..io import load_input_tree
from ..reports.covers import cover_report
from .clock import command_deadline
from .inputs import load_class_arg
from .options import (
    add_class_file_argument,
    add_json_option,
    add_time_limit_option,
    add_witness_file_option,
    check_int_option,
)
from .output import check_outputs, class_line, emit_json, present_witness
from .status import EXIT_OK, EXIT_TIME_LIMIT

__all__ = ["register", "run"]

EXAMPLES = """examples:
  dimcalc cover data/thresholds-15.json --depth 3
  echo '{"point": 7, "children": [{"point": 3}, {"point": 11}]}' > tree.json
  dimcalc cover data/thresholds-15.json --tree tree.json --json
  dimcalc cover data/boxes-b2-d2.json --depth 10 --time-limit 2 --json --witness-file cover-witness.json

tree files: a node is {"point": i, "children": [left, right]}, a bottom node {"point": i};
every bottom node at the same depth; the root is at depth 1 (BGS Def 5.1); a big tree may be given
in heap form {"heap": [x0, x1, ...]} (the children of node u are 2u+1 and 2u+2).
witness: the tree, a fooling set (proves >=) and a minimum cover (proves <=); a cover of more than
2,000,000 nodes is not built (the fooling set certifies the value, the recursion proves the other side),
and a witness too big to print is summarised: --witness-file writes it in full.

exit status: 0 done, 2 refused input, 3 time limit reached (bounds reported)"""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "cover",
        help="0-cover number N(0,H,z) of a tree or N(0,H,n) of a depth (BGS §5)",
        description="Exact 0-cover numbers (BGS Defs 5.4-5.5) with a minimum cover and a fooling "
        "set of the same size as witness, plus the bounds of BGS Thm 5.6.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_class_file_argument(p)
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--tree", metavar="TREE.json", help="input-labelled tree: compute N(0,H,z)")
    what.add_argument("--depth", metavar="n", type=int, help="depth n >= 0: compute N(0,H,n) = sup over trees")
    add_json_option(p)
    add_time_limit_option(p)
    add_witness_file_option(p)
    p.set_defaults(func=run)


#: Cover nodes built per second of budget left (build, check and write), to keep the witness in the limit.
_NODES_PER_SECOND = 400_000

#: Largest cover built for --witness-file.
_MAX_FILE_COVER_NODES = 50_000_000


def run(args: argparse.Namespace) -> int:
    """Handler of ``dimcalc cover``: :func:`dimcalc.reports.cover_report`, printed."""
    deadline = command_deadline(args.time_limit)  # from the process start: start-up and loading count
    check_outputs(args, "witness_file")  # refused before anything is computed
    H = load_class_arg(args.file, args, deadline)
    cap = _MAX_FILE_COVER_NODES if args.witness_file else DEFAULT_MAX_WITNESS_NODES
    remaining = deadline.remaining()
    if remaining is not None:
        cap = min(cap, int(_NODES_PER_SECOND * remaining / 2))
    tree = None
    if args.tree is not None:
        tree = load_input_tree(args.tree, n_points=H.n_points)
    else:
        check_int_option(args.depth, "--depth", 0)
        if args.depth > 0 and H.n_points == 0:
            raise InvalidParameterError(
                f"--depth {args.depth}: {args.file} has no points, so no input tree of depth "
                ">= 1 exists; only --depth 0 (N(0,H,0) = 1)"
            )
        if args.depth > MAX_DEPTH:
            raise InvalidParameterError(
                f"--depth must be at most {MAX_DEPTH} (a witness holds a tree of 2^n - 1 nodes); got {args.depth}"
            )
    report = cover_report(
        H, tree, None if tree is not None else args.depth, time_limit=deadline.left(), max_witness_nodes=cap
    )
    result, n, verified, bounds = report.result, report.depth, report.verified, report.bounds
    witness = result.witness
    shown, written = (
        present_witness(witness, report.witness_values, args, deadline)
        if (args.json or args.witness_file)
        else (witness, False)
    )
    if args.json:
        emit_json(report.to_json(witness=shown))
    else:
        what = f"N(0, H, z) for the tree in {args.tree}" if args.tree else f"N(0, H, {n})"
        value = result.value if result.exact else f"[{result.lower}, {result.upper}] (bounds, search stopped)"
        print(class_line(H))
        print(f"{what} = {value}")
        cover = witness["cover"]
        cover_text = (
            f"a 0-cover of {len(cover)} output trees and "
            if cover is not None
            else "(cover not kept: " + witness.get("cover_omitted", "too big") + ") "
        )
        print(
            f"witness: {cover_text}a fooling set of {len(witness['fooling_set'])} (hypothesis, path) pairs; "
            f"verified: {'yes' if verified else 'NO'}"
        )
        if written:
            print(f"full witness written to {args.witness_file}")
        if "thm_5_6_sum" in bounds:
            print(
                f"BGS Thm 5.6 bound with d = MLD = {report.mld.upper}: {bounds['thm_5_6_sum']}"
                + (f"  (e·k·n/d)^d = {bounds['thm_5_6_exponential']:.4g}" if "thm_5_6_exponential" in bounds else "")
            )
        print(f"trivial bound min(|H|, (k+1)^n): {bounds['trivial_upper']}")
    if not verified:
        print("dimcalc: internal error: the 0-cover witness failed dimcalc's checker", file=sys.stderr)
        return 1
    return EXIT_OK if result.exact else EXIT_TIME_LIMIT
