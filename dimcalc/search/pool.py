"""Independent pieces of one search run in worker processes, with the answer of a single process.

A search split into pieces ``0, 1, ..., n - 1`` (e.g. the blocks of the root's
candidates of a shattered-set search) is *ordered*: the sequential search
returns the answer of the first piece, in order, that has one.
:func:`first_answer` runs the pieces in a pool of ``jobs`` forked processes
(each inherits the search's arrays without copying them), reads their
answers in piece order and returns the same answer as the sequential loop --
the same value and the same witness -- stopping the pool as soon as it is
known.  The deadline is kept by the caller's process (polled while waiting)
and by every worker (it is inherited with the search).

Processes are forked: where ``fork`` is not available (Windows, or macOS
where it is unsafe) the pieces run in this process, in order.

Examples
--------
>>> first_answer(lambda i: (i * i if i >= 3 else None, 1), 6, jobs=1)
(9, 4)
>>> first_answer(lambda i: (None, 1), 3, jobs=1)
(None, 3)
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.pool
import sys
from collections.abc import Callable
from typing import Any

from .budget import Deadline, SearchStopped

__all__ = ["can_fork", "first_answer"]

#: Seconds between two reads of the deadline while the caller waits for a worker.
POLL_SECONDS = 0.05

# The piece function of the running pool, inherited by the forked workers.
_PIECE: Callable[[int], Any] | None = None


def can_fork() -> bool:
    """Whether worker processes can be forked here: Linux and the BSDs (not Windows or macOS), and not from
    inside a daemonic worker (e.g. a ``multiprocessing.Pool`` worker, which may not have children)."""
    return (
        sys.platform != "darwin"
        and "fork" in multiprocessing.get_all_start_methods()
        and not multiprocessing.current_process().daemon
    )


def _run_piece(i: int) -> tuple[str, Any]:
    assert _PIECE is not None
    try:
        return "done", _PIECE(i)
    except SearchStopped as stop:
        return "stopped", (stop.args[0] if stop.args else None, stop.info)


def first_answer(
    piece: Callable[[int], tuple[Any, Any]],
    n: int,
    *,
    jobs: int = 1,
    deadline: Deadline | None = None,
    collect: Callable[[Any], None] | None = None,
) -> tuple[Any, int]:
    """The answer of the first piece (in order) that has one, and how many pieces were decided.

    Parameters
    ----------
    piece : callable
        ``piece(i)`` searches piece ``i`` and returns ``(answer, info)``:
        its answer or ``None``, and what :func:`collect` is given (e.g. work
        counts); it may raise :class:`~dimcalc.search.budget.SearchStopped`, with
        the ``info`` of the work done so far as its attribute ``info``.
    n : int
        Number of pieces.
    jobs : int
        Worker processes; ``1`` (or no ``fork``) runs the pieces here, in order.
    deadline : Deadline, optional
        Polled while waiting for the workers.
    collect : callable, optional
        Called with the ``info`` of every piece decided, in order, and of a stopped one.

    Returns
    -------
    (answer, decided)
        ``answer`` is the first non-``None`` answer in piece order (``None``
        when every piece has none) and ``decided`` the number of pieces whose
        outcome was needed to know it.

    Raises
    ------
    SearchStopped
        When a piece before the answer was stopped, or the deadline expired while waiting.
    """
    global _PIECE
    if jobs <= 1 or n <= 1 or not can_fork():
        for i in range(n):
            try:
                answer, info = piece(i)
            except SearchStopped as stop:
                if collect is not None and stop.info is not None:
                    collect(stop.info)
                raise
            if collect is not None:
                collect(info)
            if answer is not None:
                return answer, i + 1
        return None, n
    _PIECE = piece
    pool = multiprocessing.get_context("fork").Pool(min(jobs, n))
    try:
        results = pool.imap(_run_piece, range(n))
        for i in range(n):
            while True:
                try:
                    status, answer = results.next(timeout=POLL_SECONDS)
                    break
                except multiprocessing.TimeoutError:
                    if deadline is not None:
                        deadline.check()
            if status == "stopped":
                reason, info = answer
                if collect is not None and info is not None:
                    collect(info)
                if deadline is not None and deadline.reason is None:
                    deadline.reason = reason
                raise SearchStopped(reason)
            answer, info = answer
            if collect is not None:
                collect(info)
            if answer is not None:
                return answer, i + 1
        return None, n
    finally:
        pool.terminate()
        pool.join()
        _PIECE = None
