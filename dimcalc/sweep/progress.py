"""A progress bar on stderr for long sweeps: classes done / total, rate, ETA."""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["ProgressBar", "format_duration"]


def format_duration(seconds: float | None) -> str:
    """``h:mm:ss`` (``--:--`` when unknown).

    >>> format_duration(3725.2), format_duration(None)
    ('1:02:05', '--:--')
    """
    if seconds is None or seconds != seconds or seconds == float("inf"):
        return "--:--"
    s = int(round(seconds))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


class ProgressBar:
    """``sweep [#####-----]  120/500  24%  35.2 classes/s  ETA 0:00:11`` on stderr.

    On a terminal the line is redrawn in place (at most ten times a second);
    otherwise one line is printed every ``interval`` seconds.  Disabled, every
    call is a no-op.

    Parameters
    ----------
    total : int
        Number of classes to compute.
    enabled : bool
    stream : file, optional
        Defaults to ``sys.stderr``.
    interval : float
        Seconds between two lines when the stream is not a terminal.
    """

    WIDTH = 24

    def __init__(
        self,
        total: int,
        *,
        enabled: bool = True,
        stream: TextIO | None = None,
        interval: float = 10.0,
        label: str = "sweep",
    ) -> None:
        self.total = total
        self.enabled = enabled and total > 0
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.interval = 0.1 if self.tty else interval
        self.label = label
        self.done = 0
        self.start = time.monotonic()
        self._last = 0.0
        self._drawn: int | None = None

    def line(self) -> str:
        """The current progress line."""
        elapsed = time.monotonic() - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        eta = (self.total - self.done) / rate if rate > 0 else None
        frac = self.done / self.total if self.total else 1.0
        fill = int(frac * self.WIDTH)
        bar = "#" * fill + "-" * (self.WIDTH - fill)
        return (
            f"{self.label} [{bar}] {self.done}/{self.total} {100 * frac:3.0f}%  {rate:.1f} classes/s  "
            f"elapsed {format_duration(elapsed)}  ETA {format_duration(eta)}"
        )

    def update(self, done: int) -> None:
        """Set the number of classes done and redraw when the throttle allows."""
        self.done = done
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._last >= self.interval or done >= self.total:
            self._last = now
            self._draw()

    def _draw(self) -> None:
        self._drawn = self.done
        if self.tty:
            self.stream.write("\r" + self.line() + "\x1b[K")
        else:
            self.stream.write(self.line() + "\n")
        self.stream.flush()

    def close(self) -> None:
        """Draw the final state and end the line."""
        if not self.enabled:
            return
        if self._drawn != self.done:
            self._draw()
        if self.tty:
            self.stream.write("\n")
        self.stream.flush()
