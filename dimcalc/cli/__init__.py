"""The ``dimcalc`` command line: a thin layer over the library.

Each subcommand lives in a module of this package (``dimcalc/cli/<name>.py``)
exposing ``register(subparsers)``, which adds its parser and sets ``func`` to a
handler ``handler(args) -> int`` that parses, calls the library (mostly a
report of :mod:`dimcalc.reports`) and formats.  This module builds the parser,
runs the handler and maps errors to exit statuses (:mod:`dimcalc.cli.status`,
interface spec §4):

* ``0`` done;
* ``2`` refused input (bad file, bad option) — one line on stderr, no traceback;
* ``3`` a time limit stopped a search; the bounds found are reported;
* ``1`` an internal error, or the output could not be written (disk full,
  closed standard output) -- one line on stderr saying which;
* ``130`` interrupted (Ctrl-C), one line on stderr, at any moment.

Shared pieces: options (:mod:`~dimcalc.cli.options`), the class file argument
(:mod:`~dimcalc.cli.inputs`), JSON and witness output (:mod:`~dimcalc.cli.output`).
"""

from __future__ import annotations

from .._startup import EXIT_INTERRUPTED, cli_interrupt_guard, exit_now

with cli_interrupt_guard():
    import argparse
    import errno
    import importlib
    import sys
    from collections.abc import Sequence
    from typing import Any

    from .. import __version__
    from ..errors import DimcalcError
    from ..search.budget import check_environment
    from .inputs import load_class_arg
    from .options import (
        add_class_file_argument,
        add_json_option,
        add_quiet_option,
        add_time_limit_option,
        add_witness_file_option,
        check_int_option,
        parameter_list,
        wants_progress,
    )
    from .output import check_outputs, class_line, emit_json, present_witness
    from .status import EXIT_FAILURE, EXIT_INPUT, EXIT_OK, EXIT_TIME_LIMIT
    from .stdout import CheckedStdout, OutputError, discard_stdout

__all__ = [
    "main",
    "console_main",
    "build_parser",
    "add_class_file_argument",
    "class_line",
    "emit_json",
    "add_json_option",
    "add_time_limit_option",
    "add_quiet_option",
    "add_witness_file_option",
    "check_int_option",
    "present_witness",
    "check_outputs",
    "load_class_arg",
    "parameter_list",
    "wants_progress",
    "COMMAND_MODULES",
    "EXIT_OK",
    "EXIT_INPUT",
    "EXIT_TIME_LIMIT",
]

#: Subcommands (each a module of this package, ``sample-size`` in ``sample_size``), in the order ``dimcalc --help``
#: lists them.
COMMAND_NAMES = ("check", "bench", "generate", "growth", "sample_size", "covers", "theorems", "repdim", "sweep")
#: The subcommands as typed -> their module (the others are typed as their module is named).
_TYPED = {"sample-size": "sample_size", "cover": "covers"}


def _command_module(name: str) -> Any:
    return importlib.import_module(f".{name}", __name__)


def __getattr__(name: str) -> Any:
    """``COMMAND_MODULES`` and the subcommand modules, imported on first use (start-up cost: a command imports
    only its own module and what it runs)."""
    if name == "COMMAND_MODULES":
        return tuple(_command_module(n) for n in COMMAND_NAMES)
    if name in COMMAND_NAMES:
        return _command_module(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class _Parser(argparse.ArgumentParser):
    """ArgumentParser whose errors are one line on stderr with exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(EXIT_INPUT, f"dimcalc: error: {message} (see '{self.prog} --help')\n")


class _Formatter(argparse.RawDescriptionHelpFormatter):
    pass


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The full ``dimcalc`` parser with every registered subcommand (or only the subcommand ``only``).

    Parameters
    ----------
    only : str, optional
        A subcommand's name as typed (``check``, ``sample-size``): register that one alone, so a command
        imports only its own module (:func:`main` does this when the command line names a subcommand).

    Returns
    -------
    argparse.ArgumentParser
        The parser; each subcommand sets ``func``, its handler ``func(args) -> int``.

    Examples
    --------
    >>> args = build_parser().parse_args(["growth", "data/intervals-10.json", "--max-m", "3"])
    >>> args.command, args.max_m
    ('growth', 3)
    """
    parser = _Parser(
        prog="dimcalc",
        formatter_class=_Formatter,
        description="Exact combinatorial dimensions of finite hypothesis classes, with certificates.",
        epilog="examples:\n  dimcalc check data/thresholds-15.json\n  dimcalc check data/thresholds-15.json --json\n"
        "  dimcalc <command> --help",
    )
    parser.add_argument("--version", action="version", version=f"dimcalc {__version__}")
    parser.add_argument("--debug", action="store_true", help="show a traceback on internal errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in COMMAND_NAMES:
        if only is None or _TYPED.get(only, only) == name:
            _command_module(name).register(sub)
    return parser


def _named_command(argv: Sequence[str] | None) -> str | None:
    """The subcommand the command line names, when its first word (after global options) is one."""
    words = list(sys.argv[1:] if argv is None else argv)
    while words and words[0] == "--debug":
        words.pop(0)
    typed = {name for name in COMMAND_NAMES if name not in _TYPED.values()} | set(_TYPED)
    if words and words[0] in typed:
        return words[0]
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``dimcalc`` console script and of ``python -m dimcalc``.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments after ``dimcalc``; default ``sys.argv[1:]``.

    Returns
    -------
    int
        The exit status (:mod:`dimcalc.cli.status`): 0 done, 1 internal error, 2 refused input,
        3 a time limit left bounds, 130 interrupted.

    Examples
    --------
    >>> main(["--version"])  # doctest: +ELLIPSIS
    dimcalc ...
    0
    >>> main(["growth", "no-such-file.json"])
    2
    """
    try:
        return _main(argv)
    except KeyboardInterrupt:  # Ctrl-C at any moment, parsing included
        print("dimcalc: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def console_main() -> None:
    """The ``dimcalc`` console script and ``python -m dimcalc``: :func:`main`, then its status as the exit status
    (:func:`dimcalc._startup.exit_now`: without numba's slow tear-down once a search is done)."""
    exit_now(main())


def _main(argv: Sequence[str] | None) -> int:
    try:
        check_environment()
    except DimcalcError as exc:
        print(f"dimcalc: error: {exc}", file=sys.stderr)
        return EXIT_INPUT
    real_stdout = sys.stdout
    sys.stdout = CheckedStdout(real_stdout)  # type: ignore[assignment]
    try:
        return _run(argv)
    except OutputError as exc:
        if exc.exc.errno == errno.EPIPE:  # the reader went away (e.g. `| head`): nothing left to say
            discard_stdout()
            return EXIT_OK
        discard_stdout()
        reason = exc.exc.strerror or str(exc.exc)
        print(f"dimcalc: error: cannot write the output to standard output ({reason})", file=sys.stderr)
        return EXIT_FAILURE
    finally:
        sys.stdout = real_stdout


def _run(argv: Sequence[str] | None) -> int:
    parser = build_parser(_named_command(argv))
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a usage error (already printed)
        sys.stdout.flush()
        return int(exc.code or 0)
    try:
        status = int(args.func(args))
        sys.stdout.flush()
        return status
    except OutputError:
        raise
    except DimcalcError as exc:
        print(f"dimcalc: error: {exc}", file=sys.stderr)
        return EXIT_INPUT
    except MemoryError:
        print(
            "dimcalc: error: out of memory (the input is valid, the computation did not fit); "
            "try --time-limit or a smaller DIMCALC_MEMORY_LIMIT_MB",
            file=sys.stderr,
        )
        return EXIT_FAILURE
    except Exception as exc:  # an internal error: still one line unless --debug
        if getattr(args, "debug", False):
            raise
        print(
            f"dimcalc: internal error: {type(exc).__name__}: {exc} (rerun with --debug for a traceback;"
            " please report it)",
            file=sys.stderr,
        )
        return 1
