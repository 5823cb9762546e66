"""Time budgets and progress reporting shared by every search.

A :class:`Deadline` is polled by solvers between units of work; when it has
expired the solver stops and reports proven bounds with ``exact=False``.
A :class:`Progress` writes throttled one-line updates to stderr.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from .errors import parameter_error

__all__ = ["Deadline", "Progress", "check_time_limit"]


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

    __slots__ = ("_end", "seconds", "_start", "_ticks")

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self._start = time.monotonic()
        self._end = None if seconds is None else self._start + seconds
        self._ticks = 0

    def expired(self) -> bool:
        """Return True once the budget is spent."""
        return self._end is not None and time.monotonic() >= self._end

    def tick(self, every: int = 256) -> bool:
        """Cheap poll for hot loops: consults the clock once every ``every`` calls."""
        if self._end is None:
            return False
        self._ticks += 1
        if self._ticks % every:
            return False
        return time.monotonic() >= self._end

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
