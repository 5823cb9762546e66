"""Start-up and end of the ``dimcalc`` command: Ctrl-C before :func:`dimcalc.cli.main` runs; a quick exit after.

Importing the package (numpy, scipy, the solvers) takes a few tenths of a
second.  A Ctrl-C in that window would end the ``dimcalc`` command with a
``KeyboardInterrupt`` traceback; :func:`cli_interrupt_guard` turns it into the
same one line and exit status 130 as an interrupt later on.  In any other
process (a script or notebook importing dimcalc) the interrupt is re-raised
unchanged: importing dimcalc never changes how a program handles Ctrl-C.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator

__all__ = ["cli_interrupt_guard", "is_cli_process", "exit_now", "EXIT_INTERRUPTED"]

#: Exit status after Ctrl-C (128 + SIGINT), as shells report it.
EXIT_INTERRUPTED = 130


def is_cli_process() -> bool:
    """True when this interpreter runs the ``dimcalc`` command (console script or ``python -m dimcalc``)."""
    argv0 = sys.argv[0] if sys.argv else ""
    if os.path.basename(argv0) in ("dimcalc", "dimcalc.exe", "dimcalc-script.py"):
        return True
    if argv0.endswith(os.path.join("dimcalc", "__main__.py")):
        return True
    orig = list(getattr(sys, "orig_argv", []))
    return any(a == "-m" and b in ("dimcalc", "dimcalc.cli") for a, b in zip(orig, orig[1:]))


@contextlib.contextmanager
def cli_interrupt_guard() -> Iterator[None]:
    """Within the ``dimcalc`` command, turn a ``KeyboardInterrupt`` into one stderr line and exit 130."""
    try:
        yield
    except KeyboardInterrupt:
        if not is_cli_process():
            raise
        with contextlib.suppress(Exception):
            sys.stderr.write("dimcalc: interrupted\n")
            sys.stderr.flush()
        raise SystemExit(EXIT_INTERRUPTED) from None


def exit_now(status: int) -> None:
    """End the ``dimcalc`` command with ``status``, without tearing numba's compiled code down object by object.

    After a compiled search, the interpreter's own shut-down frees numba's
    and LLVM's objects one by one: 0.3-1 s on the 2-core machine, a quarter of
    a two-second ``dimcalc check`` (measured whole-process on
    facebook-combined).  The command is done by then, so when numba is loaded
    and only the main thread is left, the exit handlers run (``atexit``:
    logging, multiprocessing, Dask, coverage), the standard streams are
    flushed and the process ends at once (``os._exit``), as mypy does.  Files
    dimcalc writes are closed before its commands return.  Otherwise (numba
    not loaded, a thread still running, no ``atexit._run_exitfuncs``):
    ``sys.exit(status)`` as usual.
    """
    import atexit
    import threading

    run_exit_handlers = getattr(atexit, "_run_exitfuncs", None)
    if "numba" not in sys.modules or threading.active_count() > 1 or run_exit_handlers is None:
        sys.exit(status)
    run_exit_handlers()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # a closed pipe: nothing more to say
            stream.flush()
    os._exit(status)
