"""``dimcalc cover FILE (--tree TREE.json | --depth n)``: 0-cover numbers (BGS §5)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .cli import EXIT_OK, EXIT_TIME_LIMIT, add_json_option, add_time_limit_option, emit_json, load_class_arg

__all__ = ["register"]

EXAMPLES = """examples:
  dimcalc cover data/thresholds-8.json --depth 3
  dimcalc cover data/thresholds-8.json --tree tree.json --json

tree files: a node is {"point": i, "children": [left, right]}, a bottom node {"point": i};
every bottom node at the same depth; the root is at depth 1 (BGS Def 5.1).

exit status: 0 done, 2 refused input, 3 time limit reached (bounds reported)"""


def register(sub: Any) -> None:
    p = sub.add_parser("cover", help="0-cover number N(0,H,z) of a tree or N(0,H,n) of a depth (BGS §5)",
                       description="Exact 0-cover numbers (BGS Defs 5.4-5.5) with a minimum cover and a fooling "
                                   "set of the same size as witness, plus the bounds of BGS Thm 5.6.",
                       epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", metavar="FILE", help="class file (.json or .csv, spec §1; .npy or .npz, §6)")
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--tree", metavar="TREE.json", help="input-labelled tree: compute N(0,H,z)")
    what.add_argument("--depth", metavar="n", type=int, help="depth n >= 0: compute N(0,H,n) = sup over trees")
    add_json_option(p)
    add_time_limit_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from .covers import (load_input_tree, sauer_zero_cover_bound, sauer_zero_cover_exponential_bound,
                         trivial_zero_cover_bound, zero_cover_function, zero_cover_number)
    from .errors import InvalidParameterError

    H = load_class_arg(args.file)
    if args.tree is not None:
        tree = load_input_tree(args.tree)
        result = zero_cover_number(H, tree)
        n = result.stats["depth"]
    else:
        if args.depth < 0:
            raise InvalidParameterError(f"--depth must be a non-negative integer; got {args.depth}")
        n = args.depth
        result = zero_cover_function(H, n, time_limit=args.time_limit)
    verified = result.verify(H)
    bounds: dict[str, Any] = {"trivial_upper": trivial_zero_cover_bound(H, n)}
    mld = None
    try:
        from .littlestone import multiclass_littlestone_dimension
        mld = multiclass_littlestone_dimension(H, time_limit=args.time_limit)
    except ImportError:  # pragma: no cover
        pass
    if mld is not None and mld.upper is not None:
        d, k = mld.upper, H.max_label
        bounds["mld"] = mld.to_json() | {"witness": None}
        bounds["thm_5_6_sum"] = sauer_zero_cover_bound(n, d, k)
        if 0 < d <= n and k > 0:
            bounds["thm_5_6_exponential"] = sauer_zero_cover_exponential_bound(n, d, k)
    if args.json:
        out = result.to_json()
        out.update(depth=n, verified=verified, bounds=bounds)
        emit_json(out)
    else:
        what = f"N(0, H, z) for the tree in {args.tree}" if args.tree else f"N(0, H, {n})"
        value = result.value if result.exact else f"[{result.lower}, {result.upper}] (bounds, search stopped)"
        print(f"class {H.name}: {H.n_distinct} distinct hypotheses, {H.n_points} points, {H.num_labels} labels")
        print(f"{what} = {value}")
        print(f"witness: a 0-cover of {len(result.witness['cover'])} output trees and a fooling set of "
              f"{len(result.witness['fooling_set'])} (hypothesis, path) pairs; verified: {'yes' if verified else 'NO'}")
        if "thm_5_6_sum" in bounds:
            print(f"BGS Thm 5.6 bound with d = MLD = {mld.upper}: {bounds['thm_5_6_sum']}"
                  + (f"  (e·k·n/d)^d = {bounds['thm_5_6_exponential']:.4g}" if "thm_5_6_exponential" in bounds else ""))
        print(f"trivial bound min(|H|, (k+1)^n): {bounds['trivial_upper']}")
    if not verified:
        print("dimcalc: internal error: the 0-cover witness failed dimcalc's checker", file=sys.stderr)
        return 1
    return EXIT_OK if result.exact else EXIT_TIME_LIMIT
