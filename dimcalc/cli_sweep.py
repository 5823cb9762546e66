"""``dimcalc sweep``: dimensions and the theorem report over many classes, their summary, and extremal search.

Three modes, one command:

* ``dimcalc sweep SOURCES --db FILE``: compute and store (resumable; ``--jobs N``, ``--scheduler dask://...``);
* ``dimcalc sweep --report FILE``: summarise a database (``--expr`` for extremes, ``--save-max`` for the class);
* ``dimcalc sweep --search EXPR --size RxCxL``: local search for a class maximising an expression.

The library does the work (:mod:`dimcalc.sweep`); this module parses and prints.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
from pathlib import Path
from typing import Any

from .check import DIMENSION_KEYS
from .cli import (
    EXIT_OK,
    _positive_seconds,
    add_json_option,
    add_quiet_option,
    emit_json,
    parameter_list,
    wants_progress,
)
from .errors import InvalidParameterError

__all__ = ["register", "run"]

EXAMPLES = """examples:
  dimcalc sweep --all 4x3x2 --list                        # the 20 classes up to isomorphism
  dimcalc sweep --all 4x3x2 --theorems --db small.db      # every dimension + theorem report of each
  dimcalc sweep --all 4x3x3 --jobs 2 --db s.db            # on two cores; rerun the same line to resume
  dimcalc sweep data/ --dims vc,littlestone --db data.db  # every class file under data/
  dimcalc sweep --random 6x4x3 --count 500 --seed 0 --time-limit 5 --db r.db
  dimcalc sweep --generate bgs-thm61 --param k=5..9 --param d=1,2 --db bgs.db
  dimcalc sweep --all 4x3x3 --scheduler dask://127.0.0.1:8786 --db s.db
  dimcalc sweep --report s.db --expr 'psi_littlestone.bin - multiclass_littlestone' --save-max gap.json
  dimcalc sweep --search 'binary_restrictions.max - multiclass_littlestone' --size 8x8x16 --seed 0 -o best.json

result names in --expr / --search: vc, natarajan, graph, littlestone, multiclass_littlestone,
  psi_littlestone.{N,bin,B}, psi_littlestone_uniform.{N,bin,B}, binary_restrictions.{1,2,...},
  binary_restrictions.max, hypotheses, points, labels; operators + - * / ( ) max min abs log2.
exit status: 0 done; 1 a statement violated, a witness failed its checker or a class failed;
             2 refused input; 3 a time limit left some result as bounds"""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "sweep",
        help="dimensions and theorem report over many classes (resumable, parallel, Dask)",
        description="Compute dimensions (and the theorem report) for many classes — class files, "
        "random tables, generator families, or every class of a small size up to "
        "isomorphism — into an SQLite database that a rerun resumes; summarise it "
        "(--report); search for extremal classes (--search).  Schema: docs/sweep.md.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    src = p.add_argument_group("classes to sweep")
    src.add_argument("paths", nargs="*", metavar="PATH", help="class files, or directories (every *.json, *.csv)")
    src.add_argument(
        "--all",
        action="append",
        default=None,
        metavar="RxCxL",
        help="every class of exactly R distinct hypotheses over C points with labels 0..L-1, "
        "up to permuting hypotheses and points (repeatable)",
    )
    src.add_argument("--random", metavar="RxCxL", default=None, help="random tables (dimcalc generate random)")
    src.add_argument("--count", type=int, default=None, metavar="N", help="how many random tables (with --random)")
    src.add_argument(
        "--seed",
        type=int,
        default=0,
        metavar="S",
        help="first seed of --random (seeds S, S+1, ...), or of --search (default 0)",
    )
    src.add_argument("--generate", metavar="FAMILY", default=None, help="a 'dimcalc generate' family ...")
    src.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="NAME=RANGE",
        help="... over a parameter range, e.g. k=5..9 or d=1,2 (repeatable; every combination)",
    )
    src.add_argument(
        "--list",
        action="store_true",
        help="list the classes (canonical tables) and their number; compute and store nothing",
    )

    comp = p.add_argument_group("what to compute, where")
    comp.add_argument("--db", metavar="FILE", default="sweep.db", help="SQLite database (default sweep.db)")
    comp.add_argument(
        "--dims",
        metavar="A,B,...",
        default=None,
        help=f"only these dimensions (default all); keys: {', '.join(DIMENSION_KEYS)}",
    )
    comp.add_argument("--no-dims", action="store_true", help="no dimensions (with --theorems: only the report)")
    comp.add_argument("--theorems", action="store_true", help="also the theorem report of each class")
    comp.add_argument(
        "--no-representation",
        action="store_true",
        help="theorem report without the representation-dimension statements (a MILP each)",
    )
    comp.add_argument(
        "--family",
        metavar="FAMILY.json",
        default=None,
        help="also Ψ-Littlestone for this user family (key 'user'; every class needs its label count)",
    )
    comp.add_argument(
        "--time-limit",
        type=_positive_seconds,
        default=None,
        metavar="S",
        help="seconds per class for its dimensions (and as much for its theorem report); a stopped "
        "search stores proven bounds (exit status 3)",
    )
    comp.add_argument("--jobs", type=int, default=1, metavar="N", help="worker processes on this machine (default 1)")
    comp.add_argument("--scheduler", metavar="dask://HOST:PORT", default=None, help="compute on this Dask cluster")
    comp.add_argument("--chunk-size", type=int, default=None, metavar="N", help="classes per task (default auto)")
    comp.add_argument(
        "--retry-inexact",
        action="store_true",
        help="compute again the results a time limit left as bounds (exact results are kept)",
    )

    rep = p.add_argument_group("report")
    rep.add_argument("--report", metavar="DB", default=None, help="summarise this sweep database")
    rep.add_argument(
        "--expr",
        action="append",
        default=[],
        metavar="EXPR",
        help="extremes of this expression of dimensions (repeatable)",
    )
    rep.add_argument(
        "--save-max",
        metavar="FILE",
        default=None,
        help="write the class maximising --expr as a class file (results and witnesses in metadata)",
    )
    rep.add_argument("--save-min", metavar="FILE", default=None, help="same for the minimum")
    rep.add_argument("--verify", action="store_true", help="re-check every stored witness against its class")

    sea = p.add_argument_group("extremal search")
    sea.add_argument("--search", metavar="EXPR", default=None, help="maximise this expression by local search")
    sea.add_argument("--size", metavar="RxCxL", default=None, help="size of the searched classes")
    sea.add_argument("--restarts", type=int, default=8, metavar="N", help="random restarts (default 8)")
    sea.add_argument("--steps", type=int, default=200, metavar="N", help="moves per restart (default 200)")
    sea.add_argument("--target", type=float, default=None, metavar="V", help="stop once the value reaches V")
    sea.add_argument("-o", "--output", metavar="FILE", default=None, help="write the best class found here")

    add_json_option(p)
    add_quiet_option(p)
    p.set_defaults(func=run)


# ---------------------------------------------------------------------------- helpers
def _read_family(path: str) -> list[list[Any]]:
    from .io import load_psi_family

    try:
        raw = json.loads(Path(path).read_text())
        maps = raw["maps"] if isinstance(raw, dict) else raw
        labels = len(maps[0])
    except Exception:
        labels = 2  # let the loader name what is wrong with the file
    return [list(m) for m in load_psi_family(path, labels).user_maps]


def _write_class(H: Any, path: str) -> None:
    from .io import save

    target = Path(path)
    if target.is_dir():
        raise InvalidParameterError(f"{path}: is a directory; give a file name")
    try:
        save(H, target)
    except OSError as exc:
        raise InvalidParameterError(f"{path}: cannot write ({exc.strerror})") from None


def _sources(args: argparse.Namespace) -> list[Any]:
    from .sweep import sources

    out: list[Any] = []
    if args.paths:
        out.append(sources.file_items(args.paths))
    for size in args.all or []:
        out.append(sources.all_items(size))
    if args.random is not None:
        if args.count is None:
            raise InvalidParameterError("--random needs --count N")
        out.append(sources.random_items(args.random, count=args.count, seed=args.seed))
    elif args.count is not None:
        raise InvalidParameterError("--count is for --random")
    if args.generate is not None:
        out.append(sources.generator_items(args.generate, args.param))
    elif args.param:
        raise InvalidParameterError("--param is for --generate")
    if not out:
        raise InvalidParameterError(
            "nothing to sweep: give class files or directories, --all, --random or "
            "--generate (or --report DB, --search EXPR)"
        )
    return out


def _command(args: argparse.Namespace) -> str:
    parts = ["dimcalc", "sweep", *args.paths]
    for opt in ("all", "random", "count", "generate", "param", "dims", "time_limit", "family"):
        v = getattr(args, opt)
        if v is None or v == [] or v is False:
            continue
        for item in v if isinstance(v, list) else [v]:
            parts += [f"--{opt.replace('_', '-')}", str(item)]
    if args.random is not None:
        parts += ["--seed", str(args.seed)]
    if args.theorems:
        parts.append("--theorems")
    return " ".join(shlex.quote(x) for x in parts)


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)


# ---------------------------------------------------------------------------- modes
def _run_list(args: argparse.Namespace) -> int:
    import itertools

    from .sweep.canonical import canonical_form

    seen: dict[str, Any] = {}
    for item in itertools.chain.from_iterable(_sources(args)):
        c = item.canonical if item.canonical is not None else canonical_form(item.hclass)
        seen.setdefault(c.canonical_hash, (c, item.source))
    if args.json:
        emit_json(
            {
                "classes": len(seen),
                "tables": [
                    {"canonical_hash": h, "labels": c.num_labels, "table": c.table.tolist(), "source": s}
                    for h, (c, s) in seen.items()
                ],
            }
        )
    else:
        for i, (c, s) in enumerate(seen.values(), start=1):
            print(f"{i:>6}  {json.dumps(c.table.tolist(), separators=(',', ':'))}  labels={c.num_labels}  {s}")
        what = ", ".join(f"every {s}" for s in args.all or []) or "the classes given"
        print(f"{len(seen)} classes up to isomorphism ({what})")
    return EXIT_OK


def _run_sweep(args: argparse.Namespace) -> int:
    import itertools

    from .sweep.run import run_sweep

    if args.no_dims and args.dims:
        raise InvalidParameterError("give --dims or --no-dims, not both")
    dims = [] if args.no_dims else (parameter_list(args.dims, DIMENSION_KEYS, "--dims") if args.dims else None)
    if args.jobs < 1:
        raise InvalidParameterError(f"--jobs must be a positive integer; got {args.jobs}")
    family = _read_family(args.family) if args.family else None
    items = itertools.chain.from_iterable(_sources(args))
    summary = run_sweep(
        items,
        db=args.db,
        dims=dims,
        theorems=args.theorems,
        time_limit=args.time_limit,
        family=family,
        representation=False if args.no_representation else None,
        jobs=args.jobs,
        scheduler=args.scheduler,
        chunk_size=args.chunk_size,
        retry_inexact=args.retry_inexact,
        progress=wants_progress(args),
        command=_command(args),
    )
    if args.json:
        emit_json(summary.to_json())
    else:
        s = summary
        print(
            f"sweep {s.db}: {s.classes} classes ({s.new_classes} new to the database); "
            f"{s.computed} computed now, {s.already_done} already stored"
        )
        print(f"  {s.seconds:.2f} s, {s.rate:.1f} classes/s ({s.executor})")
        print(
            f"  results over these classes: {s.inexact} only bounded (time limit), "
            f"{s.unverified} witnesses failing dimcalc's checker, {s.errors} failed classes"
        )
        if s.theorems_checked:
            print(f"  theorem report: {s.theorems_checked} statements, {s.violated} violated, {s.unknown} unknown")
        print(f"summary: dimcalc sweep --report {shlex.quote(s.db)}")
    return summary.exit_status


def _run_report(args: argparse.Namespace) -> int:
    from .sweep.db import SweepDB
    from .sweep.report import extremal_class, sweep_report

    if (args.save_max or args.save_min) and len(args.expr) != 1:
        raise InvalidParameterError("--save-max / --save-min need exactly one --expr")
    if not os.path.exists(args.report):
        raise InvalidParameterError(f"--report {args.report}: no such file")
    with SweepDB(args.report) as db:
        report = sweep_report(db, expressions=args.expr, verify=args.verify)
        saved = []
        for path, ids, value in (
            (
                args.save_max,
                report.extremes[0].max_classes if report.extremes else [],
                report.extremes[0].max_value if report.extremes else None,
            ),
            (
                args.save_min,
                report.extremes[0].min_classes if report.extremes else [],
                report.extremes[0].min_value if report.extremes else None,
            ),
        ):
            if path is None:
                continue
            if not ids:
                raise InvalidParameterError(f"--expr {args.expr[0]!r} has no value on any class; nothing to save")
            _write_class(extremal_class(db, ids[0], expression=args.expr[0], value=value), path)
            saved.append((path, ids[0], value))
    if args.json:
        out = report.to_json()
        out["saved"] = [{"file": p, "class_id": c, "value": v} for p, c, v in saved]
        emit_json(out)
        return report.exit_status
    print(f"database {report.db}: {report.classes} classes, {report.runs} runs")
    print(
        "sizes (hypotheses x points x labels: classes): "
        + ", ".join(f"{s['hypotheses']}x{s['points']}x{s['labels']}: {s['classes']}" for s in report.sizes)
    )
    rows = [("result", "stored", "exact", "bounds", "n/a", "unverified", "distribution (value: classes)")]
    for name, d in report.dimensions.items():
        dist = ", ".join(f"{v}: {n}" for v, n in d["distribution"].items())
        rows.append(
            (
                name,
                str(d["results"]),
                str(d["exact"]),
                str(d["inexact"]),
                str(d["undefined"]),
                str(d["unverified"]),
                dist,
            )
        )
    if len(rows) > 1:
        widths = [max(len(r[i]) for r in rows) for i in range(6)]
        for r in rows:
            print("  ".join(r[i].ljust(widths[i]) for i in range(6)) + "  " + r[6])
    t = report.theorems
    if t["statements"]:
        print(
            f"theorem report: {t['statements']} statements over {t['classes']} classes: {t['holds']} hold, "
            f"{t['violated']} violated, {t['unknown']} unknown (a side only bounded)"
        )
        if t["violated"]:
            print("VIOLATED statements (a bug in dimcalc or a counterexample to a paper):")
            for key, n in t["violated_by_statement"].items():
                print(f"  {key}: {n} classes")
            for v in report.violations:
                print(
                    f"  class {v['class_id']}: {v['source']}: {v['statement']}: lhs {v['lhs']} "
                    f"{v['relation']} rhs {v['rhs']} fails"
                )
        else:
            print("violated statements: none")
    if report.error_count:
        print(f"{report.error_count} failed computations, e.g.:")
        for err in report.errors[:5]:
            print(f"  class {err['class_id']} ({err['item']}): {err['message']}")
    if report.verification is not None:
        v = report.verification
        print(
            f"stored witnesses re-checked: {v['checked']}, failing: {len(v['failed'])}"
            + ("" if not v["failed"] else f" e.g. {v['failed'][:5]}")
        )
    for e in report.extremes:
        if e.max_value is None:
            print(f"{e.expression}: no class has an exact value for every name ({e.skipped} skipped)")
            continue
        more = lambda ids: f"class {ids[0]}" + (f" and {len(ids) - 1} more" if len(ids) > 1 else "")  # noqa: E731
        print(
            f"{e.expression}: over {e.evaluated} classes ({e.skipped} skipped): max {_fmt(e.max_value)} "
            f"({more(e.max_classes)}), min {_fmt(e.min_value)} ({more(e.min_classes)})"
        )
        print("  distribution: " + ", ".join(f"{v}: {n}" for v, n in e.distribution.items()))
    for path, cid, value in saved:
        print(f"wrote {path}: class {cid} ({args.expr[0]} = {_fmt(value)}), results and witnesses in its metadata")
    return report.exit_status


def _run_search(args: argparse.Namespace) -> int:
    from .sweep.canonical import parse_size
    from .sweep.extremal import local_search

    if args.size is None:
        raise InvalidParameterError("--search needs --size RxCxL")
    rows, cols, labels = parse_size(args.size, "--size")
    result = local_search(
        args.search,
        hypotheses=rows,
        points=cols,
        labels=labels,
        restarts=args.restarts,
        steps=args.steps,
        seed=args.seed,
        time_limit=args.time_limit,
        target=args.target,
    )
    if args.output:
        _write_class(result.hclass, args.output)
    if args.json:
        emit_json(result.to_json())
    else:
        from .sweep.compute import flatten_dimensions

        print(
            f"search {result.expression!r} over {rows}x{cols}x{labels}: best {_fmt(result.value)} "
            f"({result.evaluations} classes evaluated up to isomorphism, {result.seconds:.1f} s)"
        )
        print(f"  best per restart: {', '.join(_fmt(v) for v in result.restart_values)}")
        print(f"  class: {json.dumps(result.hclass.table.tolist(), separators=(',', ':'))}")
        for name, r in flatten_dimensions(result.report.dimensions).items():
            print(f"  {name} = {r.value if r.exact else f'[{r.lower}, {r.upper}]'}")
        print(f"  witnesses verified by dimcalc's checkers: {'yes' if result.verified else 'NO'}")
        if args.output:
            print(f"wrote {args.output} (witnesses in its metadata)")
    if not result.verified:
        return 1
    return EXIT_OK if result.value is not None else 3


def run(args: argparse.Namespace) -> int:
    """Handler of ``dimcalc sweep``."""
    modes = [m for m in ("report", "search") if getattr(args, m) is not None]
    if len(modes) > 1:
        raise InvalidParameterError("give either --report or --search, not both")
    if modes == ["report"]:
        return _run_report(args)
    if modes == ["search"]:
        return _run_search(args)
    if args.expr or args.save_max or args.save_min or args.verify:
        raise InvalidParameterError("--expr, --save-max, --save-min and --verify go with --report DB")
    if args.list:
        return _run_list(args)
    return _run_sweep(args)
