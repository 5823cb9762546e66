"""The ``dimcalc`` command line: a thin layer over the library.

Each subcommand lives in ``dimcalc/cli_<name>.py`` and exposes
``register(subparsers)``, which adds its parser and sets ``func`` to a handler
``handler(args) -> int``.  This module builds the parser, runs the handler and
maps errors to exit statuses (interface spec §4):

* ``0`` done;
* ``2`` refused input (bad file, bad option) — one line on stderr, no traceback;
* ``3`` a time limit stopped a search; the bounds found are reported;
* ``1`` an internal error, or the output could not be written (disk full,
  closed standard output) -- one line on stderr saying which;
* ``130`` interrupted (Ctrl-C), one line on stderr, at any moment.
"""

from __future__ import annotations

from ._startup import EXIT_INTERRUPTED, cli_interrupt_guard

with cli_interrupt_guard():
    import argparse
    import errno
    import importlib
    import json
    import math
    import os
    import sys
    import time
    from collections.abc import Sequence
    from typing import Any

    from ._json import json_default
    from .errors import DimcalcError, InvalidParameterError

__all__ = [
    "main",
    "build_parser",
    "emit_json",
    "add_json_option",
    "add_time_limit_option",
    "add_quiet_option",
    "add_witness_file_option",
    "present_witness",
    "write_file_atomically",
    "load_class_arg",
    "COMMAND_MODULES",
    "EXIT_OK",
    "EXIT_INPUT",
    "EXIT_TIME_LIMIT",
]

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_INPUT = 2
EXIT_TIME_LIMIT = 3

#: Subcommand modules, imported as ``dimcalc.cli_<name>``.
COMMAND_MODULES = ("check", "bench", "generate", "growth", "sample_size", "covers", "theorems", "repdim", "sweep")


class _Parser(argparse.ArgumentParser):
    """ArgumentParser whose errors are one line on stderr with exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(EXIT_INPUT, f"dimcalc: error: {message} (see '{self.prog} --help')\n")


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
        p.add_argument(
            "--time-limit",
            type=_positive_seconds,
            default=None,
            metavar="S",
            help="stop long searches after S seconds in all and report proven bounds (exit status 3)",
        )
    else:
        p.add_argument(
            "--time-limit",
            type=_seconds_or_none,
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


#: Class files at least this large get progress lines while they load.
PROGRESS_BYTES = 4 << 20


def load_class_arg(path: str, args: argparse.Namespace | None = None, deadline: Any = None):
    """Load the class file named on the command line (errors become exit 2).

    Commands create their :class:`~dimcalc._budget.Deadline` before calling
    this, so reading and parsing the file count against ``--time-limit``.
    With ``args``, a large file gets progress lines on stderr when progress is
    on; with ``deadline``, a load that used up the whole limit says so.
    """
    from ._budget import Progress
    from .io import load

    start = time.monotonic()
    try:
        size = os.stat(path).st_size
    except OSError:
        size = 0
    log = Progress(args is not None and size >= PROGRESS_BYTES and wants_progress(args), "load")
    log.update(f"reading {path} ({size / (1 << 20):.1f} MB) ...", force=True)
    H = load(path)
    log.update(
        f"loaded {H.n_hypotheses} hypotheses x {H.n_points} points in {time.monotonic() - start:.1f} s", force=True
    )
    if deadline is not None and deadline.seconds is not None and deadline.expired():
        print(
            f"dimcalc: note: reading {path} took the whole time limit ({deadline.seconds:g} s); "
            "only bounds can be reported",
            file=sys.stderr,
        )
    return H


#: A witness with more JSON values than this is summarised on stdout (``--witness-file PATH`` writes it whole).
WITNESS_PRINT_LIMIT = 500_000


def add_witness_file_option(p: argparse.ArgumentParser) -> None:
    """``--witness-file PATH``: write the full witness as JSON to PATH (it counts against --time-limit)."""
    p.add_argument(
        "--witness-file",
        metavar="PATH",
        default=None,
        help="write the full witness as JSON to PATH (written within --time-limit); a witness too "
        f"big to print (over {WITNESS_PRINT_LIMIT:,} values) is otherwise only summarised",
    )


def write_file_atomically(path: str, chunks: Any, *, what: str = "file", deadline: Any = None) -> bool:
    """Write the text ``chunks`` (an iterable of str) to ``path`` through a uniquely named temporary file
    in the same folder, renamed into place at the end (concurrent writers never share a temporary file,
    readers never see half a file).  Returns False, leaving ``path`` untouched, when ``deadline`` expires
    first; an OS error is refused in one line naming the option's file."""
    import tempfile

    target = os.path.abspath(path)
    if os.path.isdir(target):
        raise InvalidParameterError(f"{path}: is a directory; give a file name for the {what}")
    try:
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(target), prefix=os.path.basename(target) + ".", suffix=".tmp")
    except OSError as exc:
        raise InvalidParameterError(f"{path}: cannot write the {what} ({exc.strerror or exc})") from None
    ok = False
    try:
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)  # as open() would create it (mkstemp makes it private)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            for i, chunk in enumerate(chunks):
                fh.write(chunk)
                if deadline is not None and (len(chunk) > 4096 or not i % 1024) and deadline.expired():
                    return False
        os.replace(tmp, target)
        ok = True
        return True
    except OSError as exc:
        raise InvalidParameterError(f"{path}: cannot write the {what} ({exc.strerror or exc})") from None
    finally:
        if not ok:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def present_witness(witness: Any, size: int, args: argparse.Namespace, deadline: Any = None) -> tuple[Any, bool]:
    """``(shown, written)``: the witness as ``--json`` shows it -- itself when it has at most
    :data:`WITNESS_PRINT_LIMIT` values, else a summary ``{"omitted": why, "values": size, "file": PATH or
    null}`` -- and whether ``--witness-file`` was written (the full witness, within ``deadline``)."""
    path = getattr(args, "witness_file", None)
    written = None
    if path is not None:
        written = write_file_atomically(path, _json_chunks(witness), what="witness file", deadline=deadline)
        if not written:
            print(
                f"dimcalc: note: the time limit was reached while writing {path}; it was not written", file=sys.stderr
            )
    if size <= WITNESS_PRINT_LIMIT:
        return witness, bool(written)
    return (
        {
            "omitted": f"the witness has {size:,} values, over the {WITNESS_PRINT_LIMIT:,} printed inline",
            "values": size,
            "file": path if written else None,
        },
        bool(written),
    )


def _json_chunks(obj: Any, levels: int = 2) -> Any:
    """JSON text of ``obj`` in pieces: the top ``levels`` of containers are split, each element below is
    encoded whole by the C encoder (fast), so a big witness is written piece by piece, the deadline
    polled in between, and never held as one string."""
    if levels and isinstance(obj, dict):
        yield "{"
        for i, (key, value) in enumerate(obj.items()):
            yield ("," if i else "") + json.dumps(str(key)) + ":"
            yield from _json_chunks(value, levels - 1)
        yield "}"
    elif levels and isinstance(obj, (list, tuple)):
        yield "["
        for i, value in enumerate(obj):
            if i:
                yield ","
            yield from _json_chunks(value, levels - 1)
        yield "]"
    else:
        yield json.dumps(obj, default=json_default, allow_nan=False)


def emit_json(obj: Any) -> None:
    """Print ``obj`` as one JSON document on stdout."""
    sys.stdout.write(json.dumps(obj, default=json_default, indent=2, allow_nan=False) + "\n")


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


class _OutputError(Exception):
    """Writing to standard output failed (disk full, closed descriptor, broken pipe)."""

    def __init__(self, exc: OSError) -> None:
        super().__init__(str(exc))
        self.exc = exc


class _CheckedStdout:
    """``sys.stdout`` for the duration of a command: a write failure becomes :class:`_OutputError`,
    so it is reported as such rather than as an internal error.  A closed standard output
    (``sys.stdout is None``) fails on the first write instead of swallowing the output."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        if self._stream is None:
            raise _OutputError(OSError(errno.EBADF, "standard output is closed"))
        try:
            return self._stream.write(text)
        except OSError as exc:
            raise _OutputError(exc) from None

    def flush(self) -> None:
        if self._stream is None:
            return
        try:
            self._stream.flush()
        except OSError as exc:
            raise _OutputError(exc) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def _discard_stdout() -> None:
    """Point descriptor 1 at /dev/null so the interpreter's final flush of what could not be
    written does not fail again (with a second message and exit status 120)."""
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, sys.__stdout__.fileno() if sys.__stdout__ is not None else 1)
        os.close(fd)
    except (OSError, ValueError, AttributeError):
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``dimcalc`` console script; returns the exit status."""
    try:
        return _main(argv)
    except KeyboardInterrupt:  # Ctrl-C at any moment, parsing included
        print("dimcalc: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def _main(argv: Sequence[str] | None) -> int:
    from ._budget import check_environment

    try:
        check_environment()
    except DimcalcError as exc:
        print(f"dimcalc: error: {exc}", file=sys.stderr)
        return EXIT_INPUT
    real_stdout = sys.stdout
    sys.stdout = _CheckedStdout(real_stdout)  # type: ignore[assignment]
    try:
        return _run(argv)
    except _OutputError as exc:
        if exc.exc.errno == errno.EPIPE:  # the reader went away (e.g. `| head`): nothing left to say
            _discard_stdout()
            return EXIT_OK
        _discard_stdout()
        reason = exc.exc.strerror or str(exc.exc)
        print(f"dimcalc: error: cannot write the output to standard output ({reason})", file=sys.stderr)
        return EXIT_FAILURE
    finally:
        sys.stdout = real_stdout


def _run(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a usage error (already printed)
        sys.stdout.flush()
        return int(exc.code or 0)
    try:
        status = int(args.func(args))
        sys.stdout.flush()
        return status
    except _OutputError:
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
