"""Options shared by the ``dimcalc`` subcommands, and the argparse types that read them."""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence

from ..errors import InvalidParameterError
from .output import WITNESS_PRINT_LIMIT

__all__ = [
    "check_int_option",
    "add_class_file_argument",
    "add_json_option",
    "add_time_limit_option",
    "add_quiet_option",
    "add_witness_file_option",
    "add_force_option",
    "wants_progress",
    "positive_seconds",
    "seconds_or_none",
    "positive_int",
    "parameter_list",
]


def positive_seconds(text: str) -> float:
    """Argparse type of ``--time-limit S``: a positive finite number of seconds.

    Parameters
    ----------
    text : str
        The option's value as typed.

    Returns
    -------
    float
        The seconds.

    Raises
    ------
    argparse.ArgumentTypeError
        If ``text`` is not a positive finite number (argparse then refuses it in one line).

    Examples
    --------
    >>> positive_seconds("2.5")
    2.5
    >>> positive_seconds("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be a positive number of seconds, got '0'
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text!r}") from None
    if not (value > 0) or math.isinf(value):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text!r}")
    return value


def positive_int(text: str) -> int:
    """Argparse type of an option that takes a positive integer (``--jobs N``).

    Parameters
    ----------
    text : str
        The option's value as typed.

    Returns
    -------
    int
        The integer.

    Raises
    ------
    argparse.ArgumentTypeError
        If ``text`` is not an integer >= 1.

    Examples
    --------
    >>> positive_int("3")
    3
    >>> positive_int("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be a positive integer, got '0'
    """
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}")
    return value


def check_int_option(value: int | None, option: str, low: int) -> None:
    """Refuse an integer option below ``low`` (``0`` or ``1``) in one line naming the option.

    Parameters
    ----------
    value : int or None
        The parsed value (``None``: the option was not given).
    option : str
        The option, e.g. ``"--depth"``.
    low : int
        The least value allowed: ``0`` (a non-negative integer) or ``1`` (a positive integer).

    Raises
    ------
    InvalidParameterError
        If ``value`` is below ``low``.

    Examples
    --------
    >>> check_int_option(0, "--depth", 0)
    >>> check_int_option(0, "--jobs", 1)
    Traceback (most recent call last):
    ...
    dimcalc.errors.InvalidParameterError: --jobs must be a positive integer; got 0
    """
    if value is not None and value < low:
        what = "a positive integer" if low == 1 else "a non-negative integer" if low == 0 else f"an integer >= {low}"
        raise InvalidParameterError(f"{option} must be {what}; got {value}")


def add_class_file_argument(p: argparse.ArgumentParser) -> None:
    """``FILE``: the class file a command reads (see :func:`dimcalc.cli.inputs.load_class_arg`).

    Parameters
    ----------
    p : argparse.ArgumentParser
        The subcommand's parser.

    Examples
    --------
    >>> p = argparse.ArgumentParser()
    >>> add_class_file_argument(p)
    >>> p.parse_args(["data/thresholds-15.json"]).file
    'data/thresholds-15.json'
    """
    p.add_argument("file", metavar="FILE", help="class file (.json or .csv, spec §1; .npy or .npz, §6)")


def add_json_option(p: argparse.ArgumentParser) -> None:
    """``--json``: print one JSON object on stdout instead of the readable report.

    Parameters
    ----------
    p : argparse.ArgumentParser
        The subcommand's parser.

    Examples
    --------
    >>> p = argparse.ArgumentParser()
    >>> add_json_option(p)
    >>> p.parse_args(["--json"]).json, p.parse_args([]).json
    (True, False)
    """
    p.add_argument("--json", action="store_true", help="print one JSON object on stdout")


def seconds_or_none(text: str) -> float | None:
    """Argparse type of ``--time-limit S`` with a default: seconds, or ``none`` for no limit.

    Parameters
    ----------
    text : str
        The option's value as typed.

    Returns
    -------
    float or None
        The seconds, or ``None`` for ``none``.

    Examples
    --------
    >>> seconds_or_none("none"), seconds_or_none("10")
    (None, 10.0)
    """
    if text.strip().lower() == "none":
        return None
    return positive_seconds(text)


def add_time_limit_option(p: argparse.ArgumentParser, default: float | None = None) -> None:
    """``--time-limit S``: stop searches after S seconds and report proven bounds (exit 3).

    Parameters
    ----------
    p : argparse.ArgumentParser
        The subcommand's parser.
    default : float, optional
        Seconds when the option is not given; with a default, the option also accepts ``none`` (no limit).

    Examples
    --------
    >>> p = argparse.ArgumentParser()
    >>> add_time_limit_option(p, default=60.0)
    >>> p.parse_args([]).time_limit, p.parse_args(["--time-limit", "none"]).time_limit
    (60.0, None)
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
    """``--quiet`` / ``--progress``: progress lines on stderr (on for the readable report, off for --json).

    Parameters
    ----------
    p : argparse.ArgumentParser
        The subcommand's parser.

    Examples
    --------
    >>> p = argparse.ArgumentParser()
    >>> add_quiet_option(p)
    >>> p.parse_args(["--progress"]).progress
    True
    """
    g = p.add_mutually_exclusive_group()
    g.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    g.add_argument("--progress", action="store_true", help="progress lines on stderr even with --json")


def wants_progress(args: argparse.Namespace) -> bool:
    """Whether to print progress lines: for readable output on a terminal unless --quiet; for --json only with --progress.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.

    Returns
    -------
    bool
        Whether progress lines go to stderr.

    Examples
    --------
    >>> wants_progress(argparse.Namespace(json=True, progress=True)), wants_progress(argparse.Namespace(quiet=True))
    (True, False)
    """
    if getattr(args, "quiet", False):
        return False
    if getattr(args, "progress", False):
        return True
    return not getattr(args, "json", False) and sys.stderr.isatty()


def add_witness_file_option(p: argparse.ArgumentParser) -> None:
    """``--witness-file PATH``: write the full witness as JSON to PATH (it counts against --time-limit).

    Parameters
    ----------
    p : argparse.ArgumentParser
        The subcommand's parser.

    Examples
    --------
    >>> p = argparse.ArgumentParser()
    >>> add_witness_file_option(p)
    >>> p.parse_args(["--witness-file", "w.json"]).witness_file
    'w.json'
    """
    p.add_argument(
        "--witness-file",
        metavar="PATH",
        default=None,
        help="write the full witness as JSON to PATH (written within --time-limit); a witness too "
        f"big to print (over {WITNESS_PRINT_LIMIT:,} values) is otherwise only summarised",
    )
    add_force_option(p)


def add_force_option(p: argparse.ArgumentParser) -> None:
    """``--force``: replace an existing output file of another kind (a sweep database, a class file ...).

    Without it an output that exists and is not of the kind written is refused;
    an output that is one of the command's inputs is refused even with it.

    Parameters
    ----------
    p : argparse.ArgumentParser
        The subcommand's parser.

    Examples
    --------
    >>> p = argparse.ArgumentParser()
    >>> add_force_option(p)
    >>> p.parse_args(["--force"]).force
    True
    """
    p.add_argument(
        "--force",
        action="store_true",
        help="replace an existing output file of another kind (never one of the command's inputs)",
    )


def parameter_list(text: str, allowed: Sequence[str], option: str) -> list[str]:
    """Parse a comma-separated option value whose items must be in ``allowed``.

    Parameters
    ----------
    text : str
        The option's value, e.g. ``"vc,littlestone"``.
    allowed : sequence of str
        The names it may hold.
    option : str
        The option, named in the message (e.g. ``"--dims"``).

    Returns
    -------
    list of str
        The names, in the order given.

    Raises
    ------
    InvalidParameterError
        If the list is empty or holds an unknown name.

    Examples
    --------
    >>> parameter_list("vc, graph", ["vc", "graph", "natarajan"], "--dims")
    ['vc', 'graph']
    >>> parameter_list("vcd", ["vc"], "--dims")
    Traceback (most recent call last):
    ...
    dimcalc.errors.InvalidParameterError: --dims: unknown name 'vcd'; choose from vc
    """
    items = [t.strip() for t in text.split(",") if t.strip()]
    if not items:
        raise InvalidParameterError(f"{option} needs at least one name; choose from {', '.join(allowed)}")
    for t in items:
        if t not in allowed:
            raise InvalidParameterError(f"{option}: unknown name {t!r}; choose from {', '.join(allowed)}")
    return items
