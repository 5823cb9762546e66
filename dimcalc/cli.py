"""The ``dimcalc`` command line: a thin layer over the library.

Each subcommand lives in ``dimcalc/cli_<name>.py`` and exposes
``register(subparsers)``, which adds its parser and sets ``func`` to a handler
``handler(args) -> int``.  This module builds the parser, runs the handler and
maps errors to exit statuses (interface spec §4):

* ``0`` done;
* ``2`` refused input (bad file, bad option) — one line on stderr, no traceback;
* ``3`` a time limit stopped a search; the bounds found are reported.
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import sys
from typing import Any, Sequence

from .errors import DimcalcError, InvalidParameterError

__all__ = ["main", "build_parser", "emit_json", "add_json_option", "add_time_limit_option",
           "add_quiet_option", "load_class_arg", "COMMAND_MODULES", "EXIT_OK", "EXIT_INPUT", "EXIT_TIME_LIMIT"]

EXIT_OK = 0
EXIT_INPUT = 2
EXIT_TIME_LIMIT = 3

#: Subcommand modules, imported as ``dimcalc.cli_<name>``.
COMMAND_MODULES = ("check", "bench", "generate", "growth", "sample_size", "covers", "theorems", "repdim",
                   "sweep")


class _Parser(argparse.ArgumentParser):
    """ArgumentParser whose errors are one line on stderr with exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(EXIT_INPUT, f"dimcalc: error: {self.prog}: {message} (see '{self.prog} --help')\n")


class _Formatter(argparse.RawDescriptionHelpFormatter):
    pass


def _positive_seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text!r}") from None
    if not (value > 0) or math.isinf(value):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text!r}")
    return value


def add_json_option(p: argparse.ArgumentParser) -> None:
    """``--json``: print one JSON object on stdout instead of the readable report."""
    p.add_argument("--json", action="store_true", help="print one JSON object on stdout")


def _seconds_or_none(text: str) -> float | None:
    if text.strip().lower() == "none":
        return None
    return _positive_seconds(text)


def add_time_limit_option(p: argparse.ArgumentParser, default: float | None = None) -> None:
    """``--time-limit S``: stop searches after S seconds and report proven bounds (exit 3).

    With a ``default``, the option also accepts ``none`` (no limit).
    """
    if default is None:
        p.add_argument("--time-limit", type=_positive_seconds, default=None, metavar="S",
                       help="stop long searches after S seconds in all and report proven bounds (exit status 3)")
    else:
        p.add_argument("--time-limit", type=_seconds_or_none, default=default, metavar="S",
                       help=f"stop after S seconds in all, file loading included, and report proven bounds "
                            f"(exit status 3); default {default:g}; 'none' for no limit")


def add_quiet_option(p: argparse.ArgumentParser) -> None:
    """``--quiet`` / ``--progress``: progress lines on stderr (on for the readable report, off for --json)."""
    g = p.add_mutually_exclusive_group()
    g.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    g.add_argument("--progress", action="store_true", help="progress lines on stderr even with --json")


def wants_progress(args: argparse.Namespace) -> bool:
    """Progress is on for readable output unless --quiet; off for --json unless --progress."""
    if getattr(args, "quiet", False):
        return False
    if getattr(args, "progress", False):
        return True
    return not getattr(args, "json", False) and sys.stderr.isatty()


def load_class_arg(path: str):
    """Load the class file named on the command line (errors become exit 2)."""
    from .io import load
    return load(path)


def _json_default(obj: Any) -> Any:
    try:
        import numpy as np
        if isinstance(obj, np.integer):
            return int(obj)
        if isinstance(obj, np.floating):
            return float(obj)
        if isinstance(obj, np.ndarray):
            return obj.tolist()
    except ImportError:  # pragma: no cover
        pass
    if hasattr(obj, "to_json"):
        return obj.to_json()
    if isinstance(obj, (set, frozenset, tuple)):
        return list(obj)
    raise TypeError(f"not JSON serialisable: {type(obj).__name__}")


def emit_json(obj: Any) -> None:
    """Print ``obj`` as one JSON document on stdout."""
    sys.stdout.write(json.dumps(obj, default=_json_default, indent=2, allow_nan=False) + "\n")


def build_parser() -> argparse.ArgumentParser:
    """The full ``dimcalc`` parser with every registered subcommand."""
    parser = _Parser(
        prog="dimcalc",
        formatter_class=_Formatter,
        description="Exact combinatorial dimensions of finite hypothesis classes, with certificates.",
        epilog="examples:\n  dimcalc check data/thresholds-15.json\n  dimcalc check data/thresholds-15.json --json\n"
               "  dimcalc <command> --help",
    )
    from . import __version__
    parser.add_argument("--version", action="version", version=f"dimcalc {__version__}")
    parser.add_argument("--debug", action="store_true", help="show a traceback on internal errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in COMMAND_MODULES:
        importlib.import_module(f".cli_{name}", __package__).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``dimcalc`` console script; returns the exit status."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a usage error (already printed)
        return int(exc.code or 0)
    try:
        return int(args.func(args))
    except DimcalcError as exc:
        print(f"dimcalc: error: {exc}", file=sys.stderr)
        return EXIT_INPUT
    except KeyboardInterrupt:
        print("dimcalc: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except MemoryError:
        print("dimcalc: error: out of memory; try a smaller class or --time-limit", file=sys.stderr)
        return EXIT_INPUT
    except Exception as exc:  # an internal error: still one line unless --debug
        if getattr(args, "debug", False):
            raise
        print(f"dimcalc: internal error: {type(exc).__name__}: {exc} (rerun with --debug for a traceback;"
              " please report it)", file=sys.stderr)
        return 1


def parameter_list(text: str, allowed: Sequence[str], option: str) -> list[str]:
    """Parse a comma-separated option value whose items must be in ``allowed``."""
    items = [t.strip() for t in text.split(",") if t.strip()]
    if not items:
        raise InvalidParameterError(f"{option} needs at least one name; choose from {', '.join(allowed)}")
    for t in items:
        if t not in allowed:
            raise InvalidParameterError(f"{option}: unknown name {t!r}; choose from {', '.join(allowed)}")
    return items


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
