"""The time limit of a ``dimcalc`` command, counted from the start of its process.

A user who types ``dimcalc repdim FILE --time-limit 2`` waits from the moment
the command starts: the interpreter and the imports (a few tenths of a second,
more on a busy machine) count against ``--time-limit`` like the search does.
:func:`command_deadline` is the :class:`~dimcalc.search.budget.Deadline` every
command handler starts with: in the ``dimcalc`` process (console script or
``python -m dimcalc``) it is shortened by :func:`process_age`; called from
another program (``dimcalc.cli.main([...])`` in a script or a test) it starts
now, as the library's limits do.
"""

from __future__ import annotations

import os
import time

from .._startup import is_cli_process
from ..search.budget import Deadline

__all__ = ["command_deadline", "process_age", "slowdown"]


def process_age() -> float:
    """Seconds since this process started (Linux ``/proc``, to 0.01 s; ``0.0`` where it cannot be read).

    Examples
    --------
    >>> 0.0 <= process_age() < 365 * 86400
    True
    """
    try:
        with open("/proc/self/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()  # after the command name, which may hold spaces
        with open("/proc/uptime", "rb") as f:
            uptime = float(f.read().split()[0])
        started = int(fields[19]) / os.sysconf("SC_CLK_TCK")  # field 22, starttime: clock ticks since boot
        return max(0.0, uptime - started)
    except (OSError, ValueError, IndexError, AttributeError):
        return 0.0


def command_deadline(seconds: float | None) -> Deadline:
    """The deadline of a command's ``--time-limit``: from the start of the ``dimcalc`` process, else from now.

    Parameters
    ----------
    seconds : float or None
        The ``--time-limit`` value (``None``: no limit).

    Returns
    -------
    Deadline
        Expired at once when the process start-up already took the whole limit: the command then
        reports the bounds it has before any search (interface spec §4: exit status 3).

    Examples
    --------
    >>> command_deadline(None).remaining() is None
    True
    >>> 0 < command_deadline(5.0).remaining() <= 5.0  # not the dimcalc process here: from now
    True
    """
    if seconds is None:
        return Deadline(None)
    spent = process_age() if is_cli_process() else 0.0
    return Deadline(max(seconds - spent, 0.0))


def slowdown() -> float:
    """How much slower than its own CPU time this ``dimcalc`` process has run so far (``>= 1``; ``1.0`` in
    another program, whose idle time would be counted too).

    The start-up of the command is imports, as loading a heavy library later is: on a busy machine both
    take this many times their CPU time, which scales the load estimates a command compares with the time
    left (``repdim``'s MILP solver, a compiled kernel).

    Examples
    --------
    >>> slowdown()  # not the dimcalc process here
    1.0
    """
    if not is_cli_process():
        return 1.0
    return max(1.0, process_age() / max(time.process_time(), 0.05))
