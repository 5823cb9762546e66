"""Options shared by the ``dimcalc`` subcommands, and the argparse types that read them."""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence

from ..errors import InvalidParameterError
from .output import WITNESS_PRINT_LIMIT

__all__ = [
    "add_class_file_argument",
    "add_json_option",
    "add_time_limit_option",
    "add_quiet_option",
    "add_witness_file_option",
    "wants_progress",
    "positive_seconds",
    "seconds_or_none",
    "positive_int",
    "parameter_list",
]


def positive_seconds(text: str) -> float:
    """Argparse type of ``--time-limit S``: a positive finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text!r}") from None
    if not (value > 0) or math.isinf(value):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text!r}")
    return value


def positive_int(text: str) -> int:
    """Argparse type of an option that takes a positive integer (``--jobs N``)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}")
    return value


def add_class_file_argument(p: argparse.ArgumentParser) -> None:
    """``FILE``: the class file a command reads (see :func:`dimcalc.cli.inputs.load_class_arg`)."""
    p.add_argument("file", metavar="FILE", help="class file (.json or .csv, spec §1; .npy or .npz, §6)")


def add_json_option(p: argparse.ArgumentParser) -> None:
    """``--json``: print one JSON object on stdout instead of the readable report."""
    p.add_argument("--json", action="store_true", help="print one JSON object on stdout")


def seconds_or_none(text: str) -> float | None:
    """Argparse type of ``--time-limit S`` with a default: seconds, or ``none`` for no limit."""
    if text.strip().lower() == "none":
        return None
    return positive_seconds(text)


def add_time_limit_option(p: argparse.ArgumentParser, default: float | None = None) -> None:
    """``--time-limit S``: stop searches after S seconds and report proven bounds (exit 3).

    With a ``default``, the option also accepts ``none`` (no limit).
    """
    if default is None:
        p.add_argument(
            "--time-limit",
            type=positive_seconds,
            default=None,
            metavar="S",
            help="stop long searches after S seconds in all and report proven bounds (exit status 3)",
        )
    else:
        p.add_argument(
            "--time-limit",
            type=seconds_or_none,
            default=default,
            metavar="S",
            help=f"stop after S seconds in all, file loading included, and report proven bounds "
            f"(exit status 3); default {default:g}; 'none' for no limit",
        )


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


def add_witness_file_option(p: argparse.ArgumentParser) -> None:
    """``--witness-file PATH``: write the full witness as JSON to PATH (it counts against --time-limit)."""
    p.add_argument(
        "--witness-file",
        metavar="PATH",
        default=None,
        help="write the full witness as JSON to PATH (written within --time-limit); a witness too "
        f"big to print (over {WITNESS_PRINT_LIMIT:,} values) is otherwise only summarised",
    )


def parameter_list(text: str, allowed: Sequence[str], option: str) -> list[str]:
    """Parse a comma-separated option value whose items must be in ``allowed``."""
    items = [t.strip() for t in text.split(",") if t.strip()]
    if not items:
        raise InvalidParameterError(f"{option} needs at least one name; choose from {', '.join(allowed)}")
    for t in items:
        if t not in allowed:
            raise InvalidParameterError(f"{option}: unknown name {t!r}; choose from {', '.join(allowed)}")
    return items
