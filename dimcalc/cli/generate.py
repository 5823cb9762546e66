"""``dimcalc generate FAMILY``: write a standard class file (see :data:`dimcalc.generators.GENERATORS`)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from ..errors import InvalidParameterError
from ..generators import GENERATORS, Generator
from ..io import save
from ..io.writers import CLASS_FILE, STDOUT, check_output
from .options import add_force_option

__all__ = ["register", "run"]

EXAMPLES = """examples:
  dimcalc generate --list
  dimcalc generate thresholds --n 15 -o thresholds-15.json
  dimcalc generate lines --p 5 --format csv > lines-5.csv
  dimcalc generate boxes --b 2 --d 2 -o boxes.json
  dimcalc generate bgs-thm61 --k 7 --d 2 -o bgs61.json
  dimcalc generate gap-amplification --input bgs61.json --ell 2 -o amplified.json
  dimcalc generate random --hypotheses 20 --points 6 --labels 3 --seed 4
  dimcalc generate thresholds --n 4095 -o thresholds-4095.npz

Without -o the class is written to stdout.  The format follows --format, else
the extension of -o (.csv, .npy, .npz or JSON), else JSON.  CSV keeps names and
labels but not the declared label count or the metadata (interface spec §1);
.npy keeps the table only; .npz (numpy arrays, read memory-mapped) keeps
everything (docs/interface.md §6).  .npy and .npz need -o.  JSON or CSV over
dimcalc's 256 MiB read limit is refused (write .npz).  An existing file that is
not a class file (or is an input) is not replaced without --force."""


def _all_params() -> dict[str, list[str]]:
    """Parameter name -> families that take it (in registry order)."""
    out: dict[str, list[str]] = {}
    for g in GENERATORS.values():
        for p in g.params:
            out.setdefault(p.name, []).append(g.name)
    return out


def register(sub: Any) -> None:
    p = sub.add_parser(
        "generate",
        help="write a standard class file (thresholds, boxes, lines, BGS classes, ...)",
        description="Generate a class from a named family (FX, BGS, BNS) and write it as a spec §1 "
        "class file.  'dimcalc generate --list' shows the families and their parameters.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("family", nargs="?", metavar="FAMILY", help="family name (see --list)")
    p.add_argument("--list", action="store_true", help="list the families and their parameters, then exit")
    p.add_argument("-o", "--output", metavar="FILE", default=None, help="write here instead of stdout (- is stdout)")
    add_force_option(p)
    p.add_argument(
        "--format",
        choices=("json", "csv", "npy", "npz"),
        default=None,
        help="file format (default: from the extension of -o, else json)",
    )
    params = p.add_argument_group("family parameters (each family uses some; see --list)")
    for name, families in _all_params().items():
        params.add_argument(
            f"--{name}", dest=f"param_{name}", metavar=name.upper(), default=None, help="for " + ", ".join(families)
        )
    p.set_defaults(func=run)


def _list_text() -> str:
    lines = ["families (dimcalc generate FAMILY --param VALUE ...):", ""]
    for g in GENERATORS.values():
        lines.append(f"  {g.name:<19} {g.summary}  [{g.source}]")
        for prm in g.params:
            if prm.required:
                state = "required"
            elif prm.default is not None:
                state = f"default {prm.default}"
            else:
                state = "optional"
            lines.append(f"      --{prm.name:<12} {prm.type:<5} {prm.help} ({state})")
    return "\n".join(lines) + "\n"


def _convert(g: Generator, args: argparse.Namespace) -> dict[str, Any]:
    given = {
        name: getattr(args, f"param_{name}")
        for name in _all_params()
        if getattr(args, f"param_{name}", None) is not None
    }
    own = {prm.name: prm for prm in g.params}
    kwargs: dict[str, Any] = {}
    for name, text in given.items():
        if name not in own:
            allowed = ", ".join(f"--{n}" for n in own)
            raise InvalidParameterError(f"family {g.name!r} has no parameter --{name}; its parameters are {allowed}")
        if own[name].type == "int":
            try:
                kwargs[name] = int(text)
            except ValueError:
                raise InvalidParameterError(f"--{name} of family {g.name!r} must be an integer; got {text!r}") from None
        else:
            kwargs[name] = text
    return kwargs


def run(args: argparse.Namespace) -> int:
    """Handler of ``dimcalc generate``."""
    if args.list:
        sys.stdout.write(_list_text())
        return 0
    if args.family is None:
        raise InvalidParameterError("generate needs a FAMILY; see 'dimcalc generate --list'")
    g = GENERATORS.get(args.family)
    if g is None:
        raise InvalidParameterError(f"unknown family {args.family!r}; choose from {', '.join(GENERATORS)}")
    fmt = args.format
    if fmt is None:
        suffix = Path(args.output).suffix.lower().lstrip(".") if args.output else ""
        fmt = suffix if suffix in ("csv", "npy", "npz") else "json"
    target = STDOUT if args.output is None else args.output
    if fmt in ("npy", "npz") and target == STDOUT:
        raise InvalidParameterError(f"--format {fmt} writes a binary file: give it with -o FILE.{fmt}")
    inputs = [getattr(args, "param_input", None)]
    force = args.force
    check_output(target, what="class file", kind=CLASS_FILE, option="-o", inputs=inputs, force=force)
    H = g.build(**_convert(g, args))
    save(H, target, fmt=fmt, inputs=inputs, force=force, option=None if target == STDOUT else "-o")
    if target != STDOUT:
        print(
            f"wrote {target}: {H.name}, {H.n_hypotheses} hypotheses, {H.n_points} points, {H.num_labels} labels",
            file=sys.stderr,
        )
    return 0
