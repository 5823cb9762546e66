"""The modes of ``dimcalc sweep`` (compute, list, report, search): library calls and their printing.

Loaded by :func:`dimcalc.cli.sweep.run` only when ``dimcalc sweep`` runs.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import shlex
from pathlib import Path
from typing import Any

from ..errors import InvalidParameterError
from ..io import load_psi_family, save
from ..io.writers import CLASS_FILE, check_output
from ..reports.check import ALL_KEYS
from ..sweep import sources
from ..sweep.canonical import canonical_form, parse_size
from ..sweep.compute import flatten_dimensions
from ..sweep.db import SweepDB
from ..sweep.extremal import local_search
from ..sweep.report import extremal_class, sweep_report
from ..sweep.run import run_sweep
from .clock import command_deadline
from .formats import TABLE_FORMATS, print_tables, resolve_format, sweep_report_tables
from .options import check_int_option, parameter_list, wants_progress
from .output import emit_json, printable
from .status import EXIT_OK

__all__ = ["run_mode"]


# ---------------------------------------------------------------------------- helpers
def _read_family(path: str) -> list[list[Any]]:
    try:
        raw = json.loads(Path(path).read_text())
        maps = raw["maps"] if isinstance(raw, dict) else raw
        labels = len(maps[0])
    except Exception:
        labels = 2  # let the loader name what is wrong with the file
    return [list(m) for m in load_psi_family(path, labels).user_maps]


#: Seconds one cell of a class table takes to write as JSON (a 1000 x 1000 table: about a second on a busy
#: machine): ``sweep --search`` keeps this aside per output of the best class.
OUTPUT_SECONDS_PER_CELL = 1e-6


def _write_class(H: Any, path: str, args: argparse.Namespace, option: str) -> None:
    save(H, path, inputs=[args.report, args.family, *args.paths], force=args.force, option=option)


def _check_class_outputs(args: argparse.Namespace, *options: tuple[str, str]) -> None:
    """Refuse the class-file outputs (``(attribute, option)``) before anything is computed."""
    for key, option in options:
        path = getattr(args, key)
        if path is not None:
            check_output(
                path,
                what="class file",
                kind=CLASS_FILE,
                option=option,
                inputs=[args.report, args.family, *args.paths],
                force=args.force,
            )


def _sources(args: argparse.Namespace) -> list[Any]:
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
            print(
                f"{i:>6}  {json.dumps(c.table.tolist(), separators=(',', ':'))}  labels={c.num_labels}  {printable(s)}"
            )
        what = ", ".join(f"every {s}" for s in args.all or []) or "the classes given"
        print(f"{len(seen)} classes up to isomorphism ({what})")
    return EXIT_OK


def _run_sweep(args: argparse.Namespace) -> int:
    if args.no_dims and args.dims:
        raise InvalidParameterError("give --dims or --no-dims, not both")
    dims = [] if args.no_dims else (parameter_list(args.dims, (*ALL_KEYS, "all"), "--dims") if args.dims else None)
    if dims and "all" in dims:
        dims = list(ALL_KEYS)
    check_int_option(args.jobs, "--jobs", 1)
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
            f"sweep {printable(s.db)}: {s.classes} classes ({s.new_classes} new to the database); "
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
    if (args.save_max or args.save_min) and len(args.expr) != 1:
        raise InvalidParameterError("--save-max / --save-min need exactly one --expr")
    if not os.path.exists(args.report):
        raise InvalidParameterError(f"--report {args.report}: no such file")
    _check_class_outputs(args, ("save_max", "--save-max"), ("save_min", "--save-min"))
    with SweepDB(args.report, read_only=True) as db:
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
            _write_class(
                extremal_class(db, ids[0], expression=args.expr[0], value=value),
                path,
                args,
                "--save-max" if path == args.save_max else "--save-min",
            )
            saved.append((path, ids[0], value))
    if args.json:
        out = report.to_json()
        out["saved"] = [{"file": p, "class_id": c, "value": v} for p, c, v in saved]
        emit_json(out)
        return report.exit_status
    if args.format in TABLE_FORMATS:
        print_tables(args.format, sweep_report_tables(report))
        return report.exit_status
    print(f"database {printable(report.db)}: {report.classes} classes, {report.runs} runs")
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
                    f"  class {v['class_id']}: {printable(v['source'])}: {v['statement']}: lhs {v['lhs']} "
                    f"{v['relation']} rhs {v['rhs']} fails"
                )
        else:
            print("violated statements: none")
    if report.error_count:
        print(f"{report.error_count} failed computations, e.g.:")
        for err in report.errors[:5]:
            print(f"  class {err['class_id']} ({printable(err['item'])}): {printable(err['message'])}")
    if report.verification is not None:
        v = report.verification
        print(
            f"stored witnesses re-checked: {v['checked']}, failing: {len(v['failed'])}"
            + ("" if not v["failed"] else f" e.g. {v['failed'][:5]}")
        )
    for e in report.extremes:
        why = "(a division by zero or log2 of a number <= 0)"
        undefined = f"; undefined on {e.undefined} {why}" if e.undefined else ""
        if e.max_value is None:
            if e.undefined and e.undefined == e.skipped:
                print(f"{e.expression}: undefined on every class {why}")
            else:
                print(
                    f"{e.expression}: no class has a value ({e.skipped - e.undefined} without an exact value "
                    f"for every name{undefined})"
                )
            continue
        more = lambda ids: f"class {ids[0]}" + (f" and {len(ids) - 1} more" if len(ids) > 1 else "")  # noqa: E731
        print(
            f"{e.expression}: over {e.evaluated} classes ({e.skipped} skipped{undefined}): max {_fmt(e.max_value)} "
            f"({more(e.max_classes)}), min {_fmt(e.min_value)} ({more(e.min_classes)})"
        )
        print("  distribution: " + ", ".join(f"{v}: {n}" for v, n in e.distribution.items()))
    for path, cid, value in saved:
        print(f"wrote {path}: class {cid} ({args.expr[0]} = {_fmt(value)}), results and witnesses in its metadata")
    return report.exit_status


def _run_search(args: argparse.Namespace) -> int:
    if args.size is None:
        raise InvalidParameterError("--search needs --size RxCxL")
    rows, cols, labels = parse_size(args.size, "--size")
    _check_class_outputs(args, ("output", "-o"))
    deadline = command_deadline(args.time_limit)  # from the process start: start-up counts
    # the best class is printed (and written with -o) within the limit too: its output time is kept aside
    writes = 1 + (args.output is not None) + (not args.json)
    total = deadline.left()
    if total is not None:
        total = max(1e-3, total - min(total / 2, writes * rows * cols * OUTPUT_SECONDS_PER_CELL))
    result = local_search(
        args.search,
        hypotheses=rows,
        points=cols,
        labels=labels,
        restarts=args.restarts,
        steps=args.steps,
        random_state=args.seed,  # --seed is the library's random_state
        time_limit=total,
        total_time=total,  # the whole search stays within --time-limit
        target=args.target,
    )
    if args.output:
        _write_class(result.hclass, args.output, args, "-o")
    if args.json:
        emit_json(result.to_json())
    else:
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


def run_mode(args: argparse.Namespace) -> int:
    """Run the mode of ``dimcalc sweep`` its options select, and print its result.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed ``dimcalc sweep`` command line.

    Returns
    -------
    int
        The exit status: 0 done; 1 a statement violated, a witness failed its checker or a class
        failed; 3 a time limit left some result as bounds.

    Examples
    --------
    >>> from dimcalc.cli import build_parser
    >>> run_mode(build_parser().parse_args(["sweep", "--all", "2x1x2", "--list"]))
         1  [[0],[1]]  labels=2  all 2x1x2
    1 classes up to isomorphism (every 2x1x2)
    0
    """
    modes = [m for m in ("report", "search") if getattr(args, m) is not None]
    if len(modes) > 1:
        raise InvalidParameterError("give either --report or --search, not both")
    if resolve_format(args) in TABLE_FORMATS and modes != ["report"]:
        raise InvalidParameterError(
            f"--format {args.format} goes with --report DB (the other modes print text or --json)"
        )
    if modes == ["report"]:
        return _run_report(args)
    if modes == ["search"]:
        return _run_search(args)
    if args.expr or args.save_max or args.save_min or args.verify:
        raise InvalidParameterError("--expr, --save-max, --save-min and --verify go with --report DB")
    if args.list:
        return _run_list(args)
    return _run_sweep(args)
