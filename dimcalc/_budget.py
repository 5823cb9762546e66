"""Time and memory budgets and progress reporting shared by every search.

A :class:`Deadline` is polled by solvers between units of work; when it has
expired the solver stops and reports proven bounds with ``exact=False``.
Besides its wall-clock budget, a deadline also expires when the process has
grown by more than :data:`MEMORY_LIMIT_BYTES` since the deadline was created
(resident memory, polled every few thousand ticks): a search that would
exhaust memory stops with proven bounds instead.  The limit defaults to
1.25 GiB of growth and is read from the environment variable
``DIMCALC_MEMORY_LIMIT_MB`` when set (``0`` disables it).
A :class:`Progress` writes throttled one-line updates to stderr.
"""

from __future__ import annotations

import os
import sys
import time
from typing import TextIO

from .errors import InvalidParameterError, parameter_error

__all__ = ["Deadline", "Progress", "check_time_limit", "check_environment", "memory_limit_from_env", "resident_bytes",
           "MEMORY_LIMIT_BYTES"]


_DEFAULT_MEMORY_LIMIT = 1280 << 20  # bytes of growth


def memory_limit_from_env(environ: "os._Environ[str] | dict[str, str] | None" = None) -> int | None:
    """The memory budget (bytes of growth) set by ``DIMCALC_MEMORY_LIMIT_MB``; ``None`` when ``0`` turns it off.

    Unset means the default (1.25 GiB).  A value that is not a finite number
    ``>= 0`` of megabytes (``nan``, ``inf``, ``1e400``, ``abc``, empty, ``-1``)
    raises :class:`~dimcalc.errors.InvalidParameterError`; the CLI reports it
    in one line at start-up (exit 2).

    >>> memory_limit_from_env({"DIMCALC_MEMORY_LIMIT_MB": "512"}) == 512 << 20
    True
    >>> memory_limit_from_env({"DIMCALC_MEMORY_LIMIT_MB": "0"}) is None
    True
    """
    env = os.environ if environ is None else environ
    text = env.get("DIMCALC_MEMORY_LIMIT_MB")
    if text is None:
        return _DEFAULT_MEMORY_LIMIT
    try:
        mb = float(text)
    except ValueError:
        mb = float("nan")
    if not (0 <= mb < float("inf")) or mb * (1 << 20) >= 1 << 63:
        raise InvalidParameterError(
            f"environment variable DIMCALC_MEMORY_LIMIT_MB={text!r} must be a number of megabytes >= 0 "
            "(0 turns the memory budget off; unset for the default 1280)")
    return None if mb == 0 else int(mb * (1 << 20))


def check_environment() -> None:
    """Raise :class:`~dimcalc.errors.InvalidParameterError` if ``DIMCALC_MEMORY_LIMIT_MB`` is malformed.

    Importing dimcalc never fails on a bad value (the default budget is used);
    the ``dimcalc`` command calls this first and refuses the value in one line.
    """
    memory_limit_from_env()


try:
    _ENV_LIMIT: int | None = memory_limit_from_env()
except InvalidParameterError:  # refused by the CLI at start-up (check_environment); the library uses the default
    _ENV_LIMIT = _DEFAULT_MEMORY_LIMIT

#: Growth of resident memory (bytes) after which a search stops with bounds;
#: ``None`` for no limit.
MEMORY_LIMIT_BYTES: int | None = _ENV_LIMIT

_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def resident_bytes() -> int | None:
    """The process's resident memory in bytes (Linux ``/proc``), or ``None`` when unknown."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None


def check_time_limit(time_limit: float | None, owner: str) -> float | None:
    """Validate a ``time_limit`` parameter (seconds, positive, or ``None``)."""
    if time_limit is None:
        return None
    if isinstance(time_limit, bool) or not isinstance(time_limit, (int, float)):
        raise parameter_error("time_limit", owner, "a positive number of seconds or None", time_limit)
    if not (time_limit > 0) or time_limit != time_limit or time_limit == float("inf"):
        raise parameter_error("time_limit", owner, "a positive finite number of seconds or None", time_limit)
    return float(time_limit)


class Deadline:
    """A wall-clock budget.

    Parameters
    ----------
    seconds : float or None
        Budget in seconds from construction; ``None`` means no limit.

    Examples
    --------
    >>> d = Deadline(None)
    >>> d.expired()
    False
    """

    __slots__ = ("_end", "seconds", "_start", "_ticks", "_memory_cap", "reason")

    #: Calls of :meth:`tick` (resp. :meth:`expired`) between two reads of the resident memory.
    MEMORY_POLL = 4096
    MEMORY_POLL_EXPIRED = 64

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self._start = time.monotonic()
        self._end = None if seconds is None else self._start + seconds
        self._ticks = 0
        base = resident_bytes() if MEMORY_LIMIT_BYTES is not None else None
        self._memory_cap = None if base is None else base + MEMORY_LIMIT_BYTES
        #: Why the budget expired: ``"time"``, ``"memory"`` or ``None`` while it has not.
        self.reason: str | None = None

    def _memory_exceeded(self) -> bool:
        if self._memory_cap is None:
            return False
        now = resident_bytes()
        if now is not None and now > self._memory_cap:
            self.reason = "memory"
            return True
        return False

    def expired(self) -> bool:
        """Return True once the time budget is spent or memory has grown past its limit
        (memory is read on every :attr:`MEMORY_POLL_EXPIRED`-th call)."""
        if self.reason is not None:
            return True
        if self._end is not None and time.monotonic() >= self._end:
            self.reason = "time"
            return True
        self._ticks += 1
        return not self._ticks % self.MEMORY_POLL_EXPIRED and self._memory_exceeded()

    def tick(self, every: int = 256) -> bool:
        """Cheap poll for hot loops: consults the clock once every ``every`` calls
        and the resident memory once every :attr:`MEMORY_POLL` calls."""
        if self.reason is not None:
            return True
        self._ticks += 1
        if not self._ticks % self.MEMORY_POLL and self._memory_exceeded():
            return True
        if self._end is None or self._ticks % every:
            return False
        if time.monotonic() >= self._end:
            self.reason = "time"
            return True
        return False

    @property
    def stop_label(self) -> str:
        """What stopped the search, for result stats: ``"memory limit"`` or ``"time limit"``."""
        return "memory limit" if self.reason == "memory" else "time limit"

    def left(self, default: float | None = None) -> float | None:
        """What is left of the budget as a solver's ``time_limit``: never below a millisecond
        (solvers refuse 0); ``default`` when unlimited."""
        remaining = self.remaining()
        return default if remaining is None else max(remaining, 1e-3)

    def elapsed(self) -> float:
        """Seconds since the deadline was created."""
        return time.monotonic() - self._start

    def remaining(self) -> float | None:
        """Seconds left, or ``None`` when unlimited."""
        if self._end is None:
            return None
        return max(0.0, self._end - time.monotonic())


class Progress:
    """Throttled progress lines on stderr for long searches.

    Parameters
    ----------
    enabled : bool
        When False every call is a no-op.
    label : str
        Prefix of every line, e.g. ``"littlestone"``.
    interval : float
        Minimum seconds between two lines.
    """

    def __init__(self, enabled: bool = False, label: str = "", interval: float = 1.0,
                 stream: TextIO | None = None) -> None:
        self.enabled = enabled
        self.label = label
        self.interval = interval
        self.stream = stream if stream is not None else sys.stderr
        self._last = 0.0
        self._start = time.monotonic()

    def update(self, message: str, force: bool = False) -> None:
        """Print ``message`` if enabled and the throttle allows."""
        if not self.enabled:
            return
        now = time.monotonic()
        if force or now - self._last >= self.interval:
            self._last = now
            print(f"[{self.label} {now - self._start:6.1f}s] {message}", file=self.stream, flush=True)
