"""Time and memory budgets and progress reporting shared by every search.

A :class:`Deadline` is polled by solvers between units of work; when it has
expired the solver stops and reports proven bounds with ``exact=False``.
Besides its wall-clock budget, a deadline also expires when the process has
grown by more than :data:`MEMORY_LIMIT_BYTES` since the deadline was created
(resident memory, read every few hundredths of a second): a search that would
exhaust memory stops with proven bounds instead.  The limit defaults to
1.25 GiB of growth and is read from the environment variable
``DIMCALC_MEMORY_LIMIT_MB`` when set (``0`` disables it).
A :class:`Progress` writes throttled one-line updates to stderr.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any, TextIO

from ..errors import InvalidParameterError

__all__ = [
    "Deadline",
    "SearchStopped",
    "Progress",
    "check_environment",
    "memory_limit_from_env",
    "resident_bytes",
    "MEMORY_LIMIT_BYTES",
]


_DEFAULT_MEMORY_LIMIT = 1280 << 20  # bytes of growth


def memory_limit_from_env(environ: os._Environ[str] | dict[str, str] | None = None) -> int | None:
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
            "(0 turns the memory budget off; unset for the default 1280)"
        )
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


class SearchStopped(Exception):
    """Raised inside a search when its :class:`Deadline` has expired (time or memory).

    Solvers catch it at their top level and return proven bounds with
    ``exact=False``; ``Deadline.reason`` says which budget ran out.  A part of
    a search may attach what it did before the stop as ``info`` (work counts).
    """

    info: Any = None


class Deadline:
    """A wall-clock and memory budget, read by time rather than by work counts.

    The clock is read on every call of :meth:`expired` (about 50 ns: negligible
    beside any unit of search work), so a search that polls between units of
    work stops within one unit of the limit however costly a unit is.  The
    resident memory is read at most every :attr:`MEMORY_POLL_SECONDS`.

    Parameters
    ----------
    seconds : float or None
        Budget in seconds from construction; ``None`` means no limit.

    Examples
    --------
    >>> d = Deadline(None)
    >>> d.expired()
    False
    >>> Deadline(1e-9).expired()
    True
    """

    __slots__ = ("_end", "seconds", "_start", "_memory_cap", "_next_poll", "reason")

    #: Seconds between two reads of the resident memory.
    MEMORY_POLL_SECONDS = 0.02

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self._start = time.monotonic()
        self._end = None if seconds is None else self._start + seconds
        base = resident_bytes() if MEMORY_LIMIT_BYTES is not None else None
        self._memory_cap = None if base is None or MEMORY_LIMIT_BYTES is None else base + MEMORY_LIMIT_BYTES
        self._next_poll = self._start
        #: Why the budget expired: ``"time"``, ``"memory"`` or ``None`` while it has not.
        self.reason: str | None = None

    def _memory_exceeded(self, now: float) -> bool:
        if self._memory_cap is None or now < self._next_poll:
            return False
        self._next_poll = now + self.MEMORY_POLL_SECONDS
        rss = resident_bytes()
        if rss is not None and rss > self._memory_cap:
            self.reason = "memory"
            return True
        return False

    def expired(self) -> bool:
        """Return True once the time budget is spent or memory has grown past its limit."""
        if self.reason is not None:
            return True
        now = time.monotonic()
        if self._end is not None and now >= self._end:
            self.reason = "time"
            return True
        return self._memory_exceeded(now)

    def tick(self, every: int = 1) -> bool:
        """Same as :meth:`expired` (kept for callers that passed a polling period)."""
        return self.expired()

    def check(self) -> None:
        """Raise :class:`SearchStopped` once the budget is spent."""
        if self.expired():
            raise SearchStopped(self.reason)

    def memory_left(self) -> int | None:
        """Bytes the process may still grow before the memory budget stops it (``None``: no budget)."""
        if self._memory_cap is None:
            return None
        rss = resident_bytes()
        return None if rss is None else max(0, self._memory_cap - rss)

    def fits(self, nbytes: float) -> bool:
        """Whether an allocation of ``nbytes`` stays inside the memory budget (always True without one).

        A solver asks before building a large array; when the answer is no it
        stops with bounds (``reason = "memory"``) instead of dying of ``MemoryError``.
        """
        left = self.memory_left()
        if left is None or nbytes <= left:
            return True
        self.reason = "memory"
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

    def share(self, parts_left: int, default: float | None = None) -> float | None:
        """An equal share of what is left for the next of ``parts_left`` parts, as a ``time_limit``.

        Time a part does not use flows to the later parts (each share is taken
        when its part starts).  Never below a millisecond; ``default`` when unlimited.

        Examples
        --------
        >>> Deadline(None).share(3) is None
        True
        >>> 0 < Deadline(9.0).share(3) <= 3.0
        True
        """
        remaining = self.remaining()
        return default if remaining is None else max(remaining / max(parts_left, 1), 1e-3)

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

    def __init__(
        self, enabled: bool = False, label: str = "", interval: float = 1.0, stream: TextIO | None = None
    ) -> None:
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
