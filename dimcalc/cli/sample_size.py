"""``dimcalc sample-size FILE``: the class's dimensions and the sample sizes they give.

Prints a table (or ``--json``) of every bound of :func:`dimcalc.sample_size.sample_size_table`:
its number of samples, whether it is an upper or lower bound, its source and setting,
and whether its constants are explicit or an unspecified O(.) constant (order of growth only).
"""

from __future__ import annotations

import argparse
import math
from fractions import Fraction

from .._params import number_text
from ..errors import InvalidParameterError
from .clock import command_deadline
from .formats import TABLE_FORMATS, add_format_option, print_tables, resolve_format, sample_size_table_rows
from .inputs import load_class_arg
from .options import add_json_option, add_time_limit_option
from .output import emit_json, printable
from .status import EXIT_OK, EXIT_TIME_LIMIT

__all__ = ["register", "run"]


def _number(name: str):
    """Parse an option exactly: ``0.1`` is 1/10, ``1/3`` one third, ``1e-6`` one millionth."""

    def parse(text: str) -> Fraction:
        try:
            return Fraction(text.strip())
        except (ValueError, ZeroDivisionError):
            raise argparse.ArgumentTypeError(
                f"{name} must be a number such as 0.1, 1e-6 or 1/3, got {text!r}"
            ) from None

    return parse


_RANGES = {
    "alpha": ("in (0, 1)", lambda v: 0 < v < 1),
    "beta": ("in (0, 1)", lambda v: 0 < v < 1),
    "epsilon": ("in (0, inf)", lambda v: v > 0),
    "delta": ("in [0, 1)", lambda v: 0 <= v < 1),
}


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}") from None


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "sample-size",
        help="sample sizes of private learners from the class's dimensions",
        description="Compute the class's dimensions and the sample sizes of (private) learners they give, "
        "each with its source (paper, theorem), setting, and whether its constants are explicit "
        "or an unspecified O(.) constant (order of growth only).",
        epilog="examples:\n  dimcalc sample-size data/thresholds-15.json --alpha 0.1 --beta 0.05 --epsilon 1\n"
        "  dimcalc sample-size data/point-functions-8.json --alpha 0.1 --beta 0.1 --epsilon 1 "
        "--delta 1e-6 --concepts 10 --json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("file", metavar="FILE", help="class file (.json or .csv, spec §1; .npy or .npz, §6)")
    p.add_argument("--alpha", type=_number("--alpha"), required=True, help="accuracy, in (0, 1)")
    p.add_argument("--beta", type=_number("--beta"), required=True, help="failure probability, in (0, 1)")
    p.add_argument(
        "--epsilon",
        type=_number("--epsilon"),
        required=True,
        help="privacy epsilon > 0 (exact: 0.1 is 1/10; fractions like 1/3 allowed)",
    )
    p.add_argument(
        "--delta", type=_number("--delta"), default=Fraction(0), help="privacy delta in [0, 1) (default 0: pure)"
    )
    p.add_argument("--concepts", type=_int, default=1, metavar="K", help="number of concepts learned at once")
    p.add_argument("--public", action="store_true", help="also rows for learners with public unlabelled data")
    add_json_option(p)
    add_format_option(p)
    add_time_limit_option(p)
    p.set_defaults(func=run)


def _format_samples(row) -> str:
    try:
        v = row.value
    except ValueError:
        return "?"
    if math.isinf(v):
        return "inf"
    if v >= _EXACT_DIGITS_BELOW:  # a float's ~16 significant digits: more would print rounding noise
        return f"~{v:.4g}"
    return f"{row.samples:,}"


#: Sample sizes from this value up are printed in scientific notation (they come from floating point).
_EXACT_DIGITS_BELOW = 1e15


def run(args: argparse.Namespace) -> int:
    from ..sample_size import sample_size_table  # sympy: loaded only when the command runs

    # Options are checked before the file is read, and the message names the option.
    fmt = resolve_format(args)
    for name, (what, ok) in _RANGES.items():
        v = getattr(args, name)
        if not ok(v):
            raise InvalidParameterError(f"--{name} must be a number {what}; got {number_text(v)}")
    if args.concepts < 1:
        raise InvalidParameterError(f"--concepts must be a positive integer; got {args.concepts}")
    deadline = command_deadline(args.time_limit)  # from the process start: start-up and loading count
    H = load_class_arg(args.file, args, deadline)
    table = sample_size_table(
        H,
        alpha=args.alpha,
        beta=args.beta,
        epsilon=args.epsilon,
        delta=args.delta,
        concepts=args.concepts,
        public=args.public,
        time_limit=deadline.left(),
    )
    if args.json:
        emit_json(table.to_json())
        return EXIT_OK if table.exact else EXIT_TIME_LIMIT
    if fmt in TABLE_FORMATS:
        print_tables(fmt, [sample_size_table_rows(table)])
        return EXIT_OK if table.exact else EXIT_TIME_LIMIT
    s = H.summary()
    print(
        f"class {printable(s['name'])}: {s['distinct_hypotheses']} distinct hypotheses, {s['domain_size']} points, "
        f"{s['labels']} labels"
    )
    dims = ", ".join(
        f"{k}={d['value']}" if d.get("exact") else f"{k} in [{d.get('lower')}, {d.get('upper')}]"
        for k, d in table.dimensions.items()
    )
    print(f"dimensions: {dims}")
    p = table.parameters
    print(
        " ".join(f"{name}={number_text(p[name])}" for name in ("alpha", "beta", "epsilon", "delta"))
        + f" concepts={p['concepts']}{' (public data)' if p['public'] else ''}"
    )
    print()

    def setting_text(st: dict) -> str:
        return (
            f"{st['task']}, {'proper' if st['proper'] else 'improper'}, {st['privacy']}, "
            f"{st['concepts']}{', public' if st['data'] != 'private' else ''}"
        )

    width = max([len("setting")] + [len(setting_text(row.setting)) for row in table.rows])
    header = f"{'samples':>20}  {'kind':5}  {'constants':9}  {'setting':{width}}  source"
    print(header)
    print("-" * len(header))
    for row in table.rows:
        constants = "explicit" if row.constants_explicit else f"O(.) c={row.order_constant:g}"
        print(
            f"{_format_samples(row):>20}  {row.kind:5}  {constants:9}  {setting_text(row.setting):{width}}  "
            f"{row.source}"
        )
        for note in row.notes:
            print(f"{'':>20}  note: {note}")
    print()
    print("O(.) rows are orders of growth only (unspecified constant c); explicit rows are guarantees.")
    if table.omitted:
        print()
        print("omitted: outside the range their theorem is stated for")
        for row in table.omitted:
            print(f"  {row['source']}: needs " + "; ".join(row["failed"]))
    return EXIT_OK if table.exact else EXIT_TIME_LIMIT
