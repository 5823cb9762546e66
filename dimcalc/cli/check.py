"""``dimcalc check FILE``: every dimension of a class file, with witnesses (spec §2)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..dims.summary import witness_summary
from ..io import load_psi_family
from ..reports.check import ALL_KEYS, DIMENSION_KEYS, EXTRA_KEYS, CheckInterrupted, check_class
from ..results import DimensionResult
from .clock import command_deadline
from .formats import TABLE_FORMATS, add_format_option, check_table, print_tables, resolve_format
from .inputs import load_class_arg
from .options import (
    add_class_file_argument,
    add_json_option,
    add_quiet_option,
    add_time_limit_option,
    parameter_list,
    positive_int,
    wants_progress,
)
from .output import emit_json, printable
from .status import EXIT_INTERRUPTED, EXIT_OK, EXIT_TIME_LIMIT

__all__ = ["register", "run"]

EXAMPLES = """examples:
  dimcalc check data/thresholds-15.json
  dimcalc check data/lines-5.json --json
  dimcalc check data/random-multiclass.json --dims natarajan,multiclass_littlestone --time-limit 10
  echo '[[0, 1, null, null], [null, null, 0, 1]]' > fam.json
  dimcalc check data/random-multiclass.json --dims psi_littlestone --family fam.json

exit status: 0 done, 2 refused input, 3 time (or memory) limit reached (bounds reported)"""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "check",
        help="compute every dimension of a class file, with witnesses",
        description="Compute VC, Natarajan, graph, Littlestone-type dimensions (spec §2) of a class "
        "file (.json, .csv, .npy or .npz), each with a witness that dimcalc's checker verifies.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_class_file_argument(p)
    add_json_option(p)
    add_format_option(p)
    p.add_argument(
        "--dims",
        metavar="A,B,...",
        default=None,
        help=f"only these dimensions; keys: {', '.join(ALL_KEYS)}, or 'all' (default: {', '.join(DIMENSION_KEYS)})",
    )
    p.add_argument(
        "--family",
        metavar="FAMILY.json",
        default=None,
        help="also the Ψ-Littlestone dimensions (plain and uniform) for this user family of "
        "collapsing maps: a JSON list of maps, each a list of k+1 entries 0, 1 or null (*); "
        "reported under the key 'user'",
    )
    p.add_argument(
        "--jobs",
        type=positive_int,
        default=None,
        metavar="N",
        help="compute the dimensions in N processes side by side, or one dimension's search in N "
        "processes (threads for a set system's VC search); default: one process, whose VC search of a "
        "set system (--graph, .mtx, .sets) runs a thread on every core; --jobs 1: one core",
    )
    p.add_argument(
        "--scheduler",
        metavar="dask://HOST:PORT",
        default=None,
        help="compute on the workers of this Dask cluster instead (refused at once when none answers)",
    )
    p.add_argument(
        "--graph",
        action="store_true",
        help="FILE is an edge list (two vertex ids per line, #/%% comments, .gz allowed): check the set system "
        "of its closed neighbourhoods N[v] (SEA 2024's graph VC dimension), stored sparse",
    )
    add_time_limit_option(p, default=DEFAULT_TIME_LIMIT)
    add_quiet_option(p)
    p.set_defaults(func=run)


#: Seconds a ``dimcalc check`` may take unless ``--time-limit`` says otherwise (``none``: unbounded).
DEFAULT_TIME_LIMIT = 60.0


def _witness_summary(r: DimensionResult, H: Any) -> str:
    w = r.witness
    names = [printable(n) for n in H.point_names]
    if w is None:
        return printable(r.reason or "")
    if r.kind in EXTRA_KEYS:
        return printable(witness_summary(w, H))
    if isinstance(w, list):
        return "points {" + ", ".join(names[i] for i in w) + "}"
    if isinstance(w, dict) and "points" in w:
        pts = ", ".join(names[i] for i in w["points"])
        if "f0" in w:
            return f"points {{{pts}}}, f0={w['f0']}, f1={w['f1']}"
        return f"points {{{pts}}}, f={w.get('f')}"
    if isinstance(w, dict) and "hypothesis" in w:
        return f"leaf {printable(H.hypothesis_names[w['hypothesis']])}"
    if isinstance(w, dict) and "point" in w:
        return f"tree rooted at {names[w['point']]}"
    return ""


def _value_text(r: DimensionResult) -> tuple[str, str]:
    if r.value is None and r.lower is None:
        return "-", "n/a"
    if r.exact:
        return str(r.value), "yes"
    upper = "?" if r.upper is None else str(r.upper)
    return f"[{r.lower}, {upper}]", "no"


def _rows(report: Any) -> list[tuple[str, str, str, str, str]]:
    H = report.hclass
    rows = []
    for key, val in report.dimensions.items():
        secs = f"{report.seconds.get(key, 0.0):.2f}"
        if isinstance(val, DimensionResult):
            v, e = _value_text(val)
            rows.append((key, v, e, secs, _witness_summary(val, H)))
        elif isinstance(val, dict):
            for fam, r in val.items():
                v, e = _value_text(r)
                rows.append((f"{key} [{fam}]", v, e, "", _witness_summary(r, H)))
        elif isinstance(val, list):
            for i, r in enumerate(val, start=1):
                v, e = _value_text(r)
                rows.append((f"littlestone of H|_{i}", v, e, "", _witness_summary(r, H)))
    return rows


def run(args: argparse.Namespace) -> int:
    deadline = command_deadline(args.time_limit)  # from the process start: start-up and loading count
    fmt = resolve_format(args)
    dims = parameter_list(args.dims, (*ALL_KEYS, "all"), "--dims") if args.dims is not None else None
    if dims is not None and "all" in dims:
        dims = list(ALL_KEYS)
    H = load_class_arg(args.file, args, deadline, graph=args.graph)
    family = None
    if args.family is not None:
        family = load_psi_family(args.family, H.num_labels)
    try:
        report = check_class(
            H,
            dims,
            time_limit=deadline.left(),
            progress=wants_progress(args),
            family=family,
            jobs=args.jobs,
            scheduler=args.scheduler,
        )
    except CheckInterrupted as stop:  # Ctrl-C: the bounds proven so far, then exit 130
        _print(stop.report, args, H, stop.report.verify(), fmt)
        print(
            f"dimcalc: interrupted during {stop.report.interrupted}; the results above were finished before it",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    verified = report.verify()
    _print(report, args, H, verified, fmt)
    if not verified:
        print(
            "dimcalc: internal error: a witness failed dimcalc's own checker; the answer above is not "
            "certified (please report it)",
            file=sys.stderr,
        )
        return 1
    return EXIT_OK if report.complete else EXIT_TIME_LIMIT


def _print(report: Any, args: argparse.Namespace, H: Any, verified: bool, fmt: str) -> None:
    limit = None if args.time_limit is None else args.time_limit
    if args.json:
        out = report.to_json()
        out["time_limit"] = limit
        if report.interrupted is not None:
            out["interrupted"] = report.interrupted
        if getattr(args, "graph", False):  # witnesses also by the vertex ids as written in the edge list
            from ..io.graph_files import name_witnesses

            name_witnesses(out, H)
        emit_json(out)
        return
    if fmt in TABLE_FORMATS:
        print_tables(fmt, [check_table(report)])
        return
    s = H.summary()
    print(
        f"class {printable(s['name'])}: {s['hypotheses']} hypotheses ({s['distinct_hypotheses']} distinct), "
        f"{s['domain_size']} points, {s['labels']} labels; time limit " + ("none" if limit is None else f"{limit:g} s")
    )
    rows = [("dimension", "value", "exact", "secs", "witness")] + _rows(report)
    widths = [max(len(r[c]) for r in rows) for c in range(4)]
    for r in rows:
        print("  ".join(r[c].ljust(widths[c]) for c in range(4)) + "  " + r[4])
    print(f"witnesses verified by dimcalc's checkers: {'yes' if verified else 'NO'}")
    if report.interrupted is not None:
        print(f"interrupted (Ctrl-C) during {report.interrupted}: the rows above are what was proven before it")
    elif not report.complete:
        limits = " and the ".join(report.stopped_by) or "time limit"
        extra = " (DIMCALC_MEMORY_LIMIT_MB)" if "memory limit" in report.stopped_by else ""
        print(f"some searches were stopped by the {limits}{extra}: [lower, upper] are proven bounds")
