"""Time and memory budgets and progress reporting shared by every search.

A :class:`Deadline` is polled by solvers between units of work; when it has
expired the solver stops and reports proven bounds with ``exact=False``.
Besides its wall-clock budget, a deadline also expires when the process has
grown by more than :data:`MEMORY_LIMIT_BYTES` since the deadline was created
(resident memory, read every few hundredths of a second): a search that would
exhaust memory stops with proven bounds instead.  The limit defaults to
1.25 GiB of growth and is read from the environment variable
``DIMCALC_MEMORY_LIMIT_MB`` when a deadline is created (``0`` disables it):
setting the variable in a running program applies to the next search.
A :class:`Progress` writes throttled one-line updates to stderr.

A search that stops raises :class:`SearchStopped`, the one stop exception,
with its reason and a :class:`SearchStats` record of the work done; every
solver reports the same keys (:meth:`SearchStats.as_dict`).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
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
    "FROM_ENVIRONMENT",
    "memory_limit",
    "SearchStats",
    "StopReason",
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


class _FromEnvironment:
    """The marker of :data:`MEMORY_LIMIT_BYTES`: read ``DIMCALC_MEMORY_LIMIT_MB`` when a deadline is made."""

    def __repr__(self) -> str:
        return "FROM_ENVIRONMENT"


#: The default of :data:`MEMORY_LIMIT_BYTES`: the environment is read at call time.
FROM_ENVIRONMENT: Any = _FromEnvironment()

#: Growth of resident memory (bytes) after which a search stops with bounds; ``None`` for no limit;
#: :data:`FROM_ENVIRONMENT` (the default) reads ``DIMCALC_MEMORY_LIMIT_MB`` each time a deadline is made.
#: A program (or a test) may set it to override the environment.
MEMORY_LIMIT_BYTES: int | None | Any = FROM_ENVIRONMENT


def memory_limit() -> int | None:
    """The memory budget a new :class:`Deadline` gets, read now (not when dimcalc was imported).

    :data:`MEMORY_LIMIT_BYTES` when a program set it, else ``DIMCALC_MEMORY_LIMIT_MB``
    (a malformed value gives the default here; the CLI refuses it at start-up).

    Examples
    --------
    >>> import os
    >>> os.environ["DIMCALC_MEMORY_LIMIT_MB"] = "512"
    >>> memory_limit() == 512 << 20
    True
    >>> del os.environ["DIMCALC_MEMORY_LIMIT_MB"]
    >>> memory_limit() == 1280 << 20
    True
    """
    if MEMORY_LIMIT_BYTES is not FROM_ENVIRONMENT:
        return MEMORY_LIMIT_BYTES  # type: ignore[no-any-return]
    try:
        return memory_limit_from_env()
    except InvalidParameterError:  # refused by the CLI at start-up (check_environment); the library uses the default
        return _DEFAULT_MEMORY_LIMIT


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def resident_bytes() -> int | None:
    """The process's resident memory in bytes (Linux ``/proc``), or ``None`` when unknown."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE
    except (OSError, ValueError, IndexError):
        return None


#: Why a search stopped: its time or memory budget, a test budget (``"trial"``), or the pool moved on
#: (``"cancelled"``: another piece answered first).
StopReason = str

_STAT_FIELDS = ("nodes", "tests", "elapsed", "stopped")


@dataclass
class SearchStats:
    """The work of one search (or of one piece of it): the same keys for every solver.

    Attributes
    ----------
    nodes : int
        Search nodes visited.
    tests : int
        Candidate tests (shattering tests, split tests: each engine says what it counts).
    elapsed : float
        Seconds.
    stopped : str or None
        ``None`` when the search finished, else its :data:`StopReason`
        (``"time"``, ``"memory"``, ``"trial"``, ``"cancelled"``).
    extra : dict
        Counters of one engine (e.g. ``triple_rows``), summed by :meth:`merge`.

    Examples
    --------
    >>> a = SearchStats(nodes=3, tests=10, extra={"triple_rows": 2})
    >>> a.merge(SearchStats(nodes=1, tests=5, stopped="time")).as_dict()
    {'nodes': 4, 'tests': 15, 'elapsed': 0.0, 'stopped': 'time', 'triple_rows': 2}
    >>> a["nodes"], a["triple_rows"]
    (4, 2)
    """

    nodes: int = 0
    tests: int = 0
    elapsed: float = 0.0
    stopped: StopReason | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_mapping(cls, counts: Mapping[str, Any]) -> SearchStats:
        """A record from an engine's counters (``{"nodes": ..., "tests": ..., ...}``); other keys go to ``extra``."""
        known = {k: counts[k] for k in _STAT_FIELDS if k in counts}
        return cls(**known, extra={k: v for k, v in counts.items() if k not in _STAT_FIELDS})

    def merge(self, other: SearchStats | Mapping[str, Any]) -> SearchStats:
        """Add ``other``'s counts to this record (in place; returned for chaining); a stop is kept."""
        o = other if isinstance(other, SearchStats) else SearchStats.from_mapping(other)
        self.nodes += o.nodes
        self.tests += o.tests
        self.elapsed = max(self.elapsed, o.elapsed)
        self.stopped = self.stopped or o.stopped
        for k, v in o.extra.items():
            self.extra[k] = self.extra.get(k, 0) + v if isinstance(v, int | float) else v
        return self

    def as_dict(self) -> dict[str, Any]:
        """The record as a flat dict: ``nodes, tests, elapsed, stopped`` then the engine's counters."""
        return {
            "nodes": self.nodes,
            "tests": self.tests,
            "elapsed": self.elapsed,
            "stopped": self.stopped,
            **self.extra,
        }

    def __getitem__(self, key: str) -> Any:
        return getattr(self, key) if key in _STAT_FIELDS else self.extra[key]


class SearchStopped(Exception):
    """The one stop exception: raised inside a search when its :class:`Deadline` has expired.

    Solvers catch it at their top level and return proven bounds with
    ``exact=False``.  ``reason`` (also ``args[0]``) says which budget ran out
    (:data:`StopReason`); ``stats`` is the :class:`SearchStats` of the work
    done before the stop (``info`` is the same record, by its older name:
    assigning a dict of counters converts it).

    Examples
    --------
    >>> stop = SearchStopped("time", stats=SearchStats(nodes=5))
    >>> stop.reason, stop.stats.nodes, stop.info is stop.stats
    ('time', 5, True)
    """

    def __init__(self, reason: StopReason | None = None, *, stats: SearchStats | None = None) -> None:
        super().__init__(reason)
        self.stats: SearchStats | None = stats

    @property
    def reason(self) -> StopReason | None:
        """Why the search stopped."""
        return self.args[0] if self.args else None

    @property
    def info(self) -> SearchStats | None:
        """The work done before the stop (same as :attr:`stats`)."""
        return self.stats

    @info.setter
    def info(self, value: SearchStats | Mapping[str, Any] | None) -> None:
        self.stats = value if value is None or isinstance(value, SearchStats) else SearchStats.from_mapping(value)

    def __reduce__(self) -> Any:
        return (_stopped, (self.reason, self.stats))


def _stopped(reason: StopReason | None, stats: SearchStats | None) -> SearchStopped:
    return SearchStopped(reason, stats=stats)


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
    memory_limit : int or None, optional
        Bytes the process may grow by before the deadline expires (``None``: no
        limit); by default :func:`memory_limit`, read now.

    Examples
    --------
    >>> d = Deadline(None, memory_limit=None)
    >>> d.expired()
    False
    >>> Deadline(1e-9).expired()
    True

    A deadline sent to another process (a Dask worker) travels as the time
    left, so it holds on a machine whose clock differs:

    >>> import pickle
    >>> 0 < pickle.loads(pickle.dumps(Deadline(60.0))).remaining() <= 60.0
    True
    """

    __slots__ = ("_end", "seconds", "_start", "_memory_cap", "_memory_limit", "_next_poll", "_calls", "reason")

    #: Seconds between two reads of the resident memory.
    MEMORY_POLL_SECONDS = 0.02

    def __init__(self, seconds: float | None, *, memory_limit: int | None | Any = FROM_ENVIRONMENT) -> None:
        self.seconds = seconds
        self._start = time.monotonic()
        self._end = None if seconds is None else self._start + seconds
        limit = _read_memory_limit() if memory_limit is FROM_ENVIRONMENT else memory_limit
        self._memory_limit: int | None = limit
        base = resident_bytes() if limit is not None else None
        self._memory_cap = None if base is None or limit is None else base + limit
        self._next_poll = self._start
        self._calls = 0
        #: Why the budget expired: ``"time"``, ``"memory"`` (a :data:`StopReason`) or ``None`` while it has not.
        self.reason: str | None = None

    def __reduce__(self) -> Any:
        return (_restore_deadline, (self.remaining(), self._memory_limit, self.reason))

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
        """:meth:`expired`, read on one call in ``every`` (the others answer from the last reading).

        For loops whose unit of work is far cheaper than reading the clock.

        Examples
        --------
        >>> d = Deadline(1e-9)
        >>> [d.tick(3) for _ in range(4)]
        [False, False, True, True]
        """
        self._calls += 1
        if self.reason is None and self._calls < every:
            return False
        self._calls = 0
        return self.expired()

    def check(self, stats: SearchStats | None = None) -> None:
        """Raise :class:`SearchStopped` (carrying ``stats``) once the budget is spent."""
        if self.expired():
            raise SearchStopped(self.reason, stats=stats)

    def stop(self, stats: SearchStats | Mapping[str, Any] | None = None) -> SearchStopped:
        """The :class:`SearchStopped` of this deadline's reason (``"time"`` when none recorded), with ``stats``."""
        self.expired()  # records the reason
        stop = SearchStopped(self.reason or "time")
        stop.info = stats
        return stop

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

    def part(self, parts_left: int) -> Deadline:
        """The deadline of the next of ``parts_left`` parts: :meth:`share` of the time, this memory budget.

        For a solver that hands a part of its budget to a sub-solver: the part
        ends at its share of what is left (or with this deadline, whichever is
        first: a share is never longer than what is left) and stops on the
        same memory cap, measured from when this deadline was made.

        Examples
        --------
        >>> d = Deadline(9.0)
        >>> 0 < d.part(3).remaining() <= 3.0, Deadline(None).part(2).remaining() is None
        (True, True)
        """
        part = Deadline(self.share(parts_left), memory_limit=None)
        part._memory_limit, part._memory_cap, part.reason = self._memory_limit, self._memory_cap, self.reason
        return part

    def before_end(self, fraction: float) -> Deadline:
        """A part ending when ``fraction`` of the time left is still left (this memory budget): for a
        search whose caller has work to do after it, inside the same limit.

        >>> 0 < Deadline(10.0).before_end(0.1).remaining() <= 9.0, Deadline(None).before_end(0.1).remaining()
        (True, None)
        """
        left = self.remaining()
        part = self.part(1)
        if left is not None:
            part._end = time.monotonic() + left * (1 - fraction)
        return part

    def elapsed(self) -> float:
        """Seconds since the deadline was created."""
        return time.monotonic() - self._start

    def remaining(self) -> float | None:
        """Seconds left, or ``None`` when unlimited."""
        if self._end is None:
            return None
        return max(0.0, self._end - time.monotonic())


def _read_memory_limit() -> int | None:
    return memory_limit()


def _restore_deadline(seconds: float | None, limit: int | None, reason: str | None) -> Deadline:
    d = Deadline(seconds, memory_limit=limit)
    d.reason = reason
    return d


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

    def __reduce__(self) -> Any:
        # Sent to another process (a Dask worker): silent there (its stream stays here).
        return (Progress, (False, self.label, self.interval))

    def update(self, message: str, force: bool = False) -> None:
        """Print ``message`` if enabled and the throttle allows."""
        if not self.enabled:
            return
        now = time.monotonic()
        if force or now - self._last >= self.interval:
            self._last = now
            print(f"[{self.label} {now - self._start:6.1f}s] {message}", file=self.stream, flush=True)
