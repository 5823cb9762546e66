"""One search on many cores, or on a Dask cluster, with the answer of a single process.

One pool for every parallel part of dimcalc: the ordered pieces of one search
(:func:`first_answer`, used by the VC-type and Littlestone-type solvers) and
independent tasks (:func:`run_tasks`: the dimensions of ``dimcalc check``, the
chunks of a sweep).  One fork policy: worker processes are **forked** where
the platform allows it (:func:`can_fork`), so they inherit the search's arrays
and filters, built once before the fork, without copying or pickling them;
where it does not, independent tasks run in ``spawn``-ed processes (their
function must be picklable) and the pieces of a search run in this process.
With ``scheduler=`` (a :class:`distributed.Client` or ``"dask://HOST:PORT"``)
the same pieces run on the workers of a Dask cluster.

Work is handed out as workers free up (work stealing from one ordered list:
make many more pieces than workers), and a worker that dies has its piece run
again (Dask re-runs it on another worker).

A search split into pieces ``0, 1, ..., n - 1`` is *ordered*: the sequential
search returns the answer of the first piece, in order, that has one.
:func:`first_answer` accepts a piece's answer only once every earlier piece
is decided (refuted), so the value and the witness are those of one process
whatever the timing or the number of workers; it stops the pool as soon as
the answer is known.  The deadline is kept by the caller (polled while
waiting) and by every worker (it is inherited with the search, or sent as the
time left).

The interface for an engine is one call::

    first_answer(piece, n, jobs=jobs, scheduler=scheduler, deadline=deadline, collect=collect)

where ``piece(i) -> (answer or None, counts)`` searches piece ``i`` and may
raise :class:`~dimcalc.search.budget.SearchStopped`.

Examples
--------
>>> first_answer(lambda i: (i * i if i >= 3 else None, 1), 6, jobs=1)
(9, 4)
>>> first_answer(lambda i: (None, 1), 3, jobs=1)
(None, 3)
"""

from __future__ import annotations

import collections
import contextlib
import multiprocessing
import multiprocessing.connection
import socket
import sys
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any

from ..errors import InvalidParameterError
from .budget import Deadline, SearchStopped

__all__ = [
    "can_fork",
    "first_answer",
    "run_tasks",
    "connect",
    "connected",
    "scheduler_address",
    "is_scheduler",
    "check_scheduler",
]

#: Seconds between two reads of the deadline while the caller waits for a worker.
POLL_SECONDS = 0.05

#: Pieces of :func:`first_answer` kept in flight per thread of a Dask cluster: a worker starts its next piece at
#: once instead of after a round trip to this process (20-50 ms a piece; 32 pieces of 0.2 s on 2 workers: 4.0 ->
#: 3.4 s).  Only for pieces: a task of :func:`run_tasks` may be sized when it is taken (a share of the time left).
QUEUED = 2

#: Times one task may lose its worker before the pool gives up on it.
MAX_RESTARTS = 3


def can_fork() -> bool:
    """Whether worker processes can be forked here: Linux and the BSDs (not Windows or macOS), and not from
    inside a daemonic worker (e.g. a pool worker, which may not have children)."""
    return (
        sys.platform != "darwin"
        and "fork" in multiprocessing.get_all_start_methods()
        and not multiprocessing.current_process().daemon
    )


def _outcome(run: Callable[[Any], Any], payload: Any) -> tuple[str, Any]:
    """``("done", run(payload))``, or ``("stopped", (reason, stats))`` when the task's search stopped."""
    try:
        return "done", run(payload)
    except SearchStopped as stop:
        return "stopped", (stop.reason, stop.stats)


def _worker_main(run: Callable[[Any], Any], conn: Any) -> None:
    """A worker process: run the tasks the parent sends, one at a time, until the pipe closes."""
    while True:
        try:
            index, payload = conn.recv()
        except (EOFError, OSError):
            return
        try:
            message: tuple[int, str, Any] = (index, *_outcome(run, payload))
        except BaseException as error:  # sent to the parent, which raises it
            message = (index, "error", error)
        try:
            conn.send(message)
        except Exception as error:  # an unpicklable result or error
            conn.send((index, "error", RuntimeError(f"task {index}: {type(error).__name__}: {error}")))


class _Worker:
    __slots__ = ("process", "conn", "task")

    def __init__(self, context: Any, run: Callable[[Any], Any]) -> None:
        parent, child = context.Pipe()
        self.process = context.Process(target=_worker_main, args=(run, child), daemon=True)
        self.process.start()
        child.close()
        self.conn = parent
        self.task: tuple[int, Any] | None = None

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self.conn.close()
        if self.process.is_alive():
            self.process.kill()
        self.process.join()


def _local_tasks(
    run: Callable[[Any], Any], tasks: Iterator[tuple[int, Any]], jobs: int, deadline: Deadline | None
) -> Iterator[tuple[int, str, Any]]:
    """:func:`run_tasks` on ``jobs`` worker processes of this machine."""
    context = multiprocessing.get_context("fork" if can_fork() else "spawn")
    workers: list[_Worker] = []
    again: collections.deque[tuple[int, Any]] = collections.deque()  # tasks whose worker died
    restarts: dict[int, int] = collections.Counter()
    try:
        workers = [_Worker(context, run)]  # more are started while there are tasks
        while True:
            for w in workers:
                if w.task is None:
                    w.task = again.popleft() if again else next(tasks, None)
                    if w.task is not None:
                        with contextlib.suppress(OSError):  # a dead worker: found below by its sentinel
                            w.conn.send(w.task)
            busy = [w for w in workers if w.task is not None]
            if not busy:
                return
            if len(workers) < jobs and len(busy) == len(workers):
                workers.append(_Worker(context, run))
                continue
            waited = [w.conn for w in busy] + [w.process.sentinel for w in busy]
            ready = set(multiprocessing.connection.wait(waited, POLL_SECONDS))
            for w in busy:
                if w.conn in ready or (w.process.sentinel in ready and w.conn.poll()):
                    try:
                        index, status, value = w.conn.recv()
                    except (EOFError, OSError):
                        ready.add(w.process.sentinel)
                    else:
                        w.task = None
                        if status == "error":
                            raise value
                        yield index, status, value
                        continue
                if w.process.sentinel in ready and w.task is not None:  # the worker died: its task runs again
                    lost = w.task
                    restarts[lost[0]] += 1
                    if restarts[lost[0]] > MAX_RESTARTS:
                        raise RuntimeError(f"task {lost[0]}: its worker process died {MAX_RESTARTS + 1} times")
                    again.append(lost)
                    w.task = None
                    w.stop()
                    workers[workers.index(w)] = _Worker(context, run)
            if deadline is not None:
                deadline.check()
    finally:
        for w in workers:
            w.stop()


def _dask_call(run: Callable[[Any], Any], payload: Any) -> tuple[str, Any]:
    return _outcome(run, payload)


def _dask_tasks(
    run: Callable[[Any], Any],
    tasks: Iterator[tuple[int, Any]],
    client: Any,
    deadline: Deadline | None,
    queued: int = 1,
) -> Iterator[tuple[int, str, Any]]:
    """:func:`run_tasks` on the workers of a Dask cluster (a lost worker's task is re-run by Dask), ``queued``
    tasks in flight per worker thread."""
    from distributed import wait

    slots = max(1, queued) * max(1, sum(client.nthreads().values()))
    [shared] = client.scatter([run], broadcast=True, hash=False)  # sent once to every worker, not with each task
    running: dict[Any, int] = {}
    try:
        while True:
            while len(running) < slots:
                task = next(tasks, None)
                if task is None:
                    break
                running[client.submit(_dask_call, shared, task[1], pure=False)] = task[0]
            if not running:
                return
            with contextlib.suppress(TimeoutError):
                wait(list(running), timeout=POLL_SECONDS, return_when="FIRST_COMPLETED")
            for fut in [f for f in running if f.done()]:
                index = running.pop(fut)
                status, value = fut.result()  # raises the task's error
                fut.release()
                yield index, status, value
            if deadline is not None:
                deadline.check()
    finally:
        if running:
            client.cancel(list(running), force=True)
        shared.release()


def run_tasks(
    run: Callable[[Any], Any],
    payloads: Iterable[Any],
    *,
    jobs: int = 1,
    scheduler: Any = None,
    deadline: Deadline | None = None,
    queued: int = 1,
) -> Generator[tuple[int, str, Any], None, None]:
    """Run ``run(payload)`` for every payload in worker processes; yield ``(index, status, value)`` as each ends.

    ``status`` is ``"done"`` (``value = run(payload)``) or ``"stopped"``
    (``value = (reason, stats)`` of the :class:`~dimcalc.search.budget.SearchStopped` it raised); any other
    error is raised here.  Payloads are taken from ``payloads`` only when a
    worker is free, so a generator can size each task when it starts (e.g. a
    share of the time left).  Closing the iterator stops every worker.

    Parameters
    ----------
    run : callable
        Inherited by forked workers (any callable); with ``spawn`` or a Dask
        scheduler it is pickled once (``cloudpickle`` for Dask).
    payloads : iterable
        Small picklable values, each sent to the worker that runs it.
    jobs : int
        Worker processes on this machine; ``1`` runs the tasks here, in order.
    scheduler : distributed.Client or str, optional
        Run on a Dask cluster instead (``jobs`` is then ignored).
    deadline : Deadline, optional
        Polled while waiting: :class:`~dimcalc.search.budget.SearchStopped` once expired.
    queued : int
        Tasks in flight per thread of a Dask cluster (payloads taken that much ahead of the workers: only for
        payloads that do not depend on when they start).

    Examples
    --------
    >>> sorted(v for _, _, v in run_tasks(abs, [-2, 3, -1], jobs=2))
    [1, 2, 3]
    """
    tasks = iter(enumerate(payloads))
    if scheduler is not None:
        with connected(scheduler, deadline) as client:
            yield from _dask_tasks(run, tasks, client, deadline, queued)
        return
    if jobs <= 1 or multiprocessing.current_process().daemon:
        for index, payload in tasks:
            yield (index, *_outcome(run, payload))
        return
    yield from _local_tasks(run, tasks, jobs, deadline)


def first_answer(
    piece: Callable[[int], tuple[Any, Any]],
    n: int,
    *,
    jobs: int = 1,
    scheduler: Any = None,
    deadline: Deadline | None = None,
    collect: Callable[[Any], None] | None = None,
    prepare: Callable[[], Any] | None = None,
) -> tuple[Any, int]:
    """The answer of the first piece (in order) that has one, and how many pieces were decided.

    Parameters
    ----------
    piece : callable
        ``piece(i)`` searches piece ``i`` and returns ``(answer, info)``:
        its answer or ``None``, and what ``collect`` is given (e.g. work
        counts); it may raise :class:`~dimcalc.search.budget.SearchStopped`
        with the :class:`~dimcalc.search.budget.SearchStats` of the work done
        so far (``stop.info``).
    n : int
        Number of pieces.  Make many more pieces than workers, cheapest last:
        workers take the next piece as they free up.
    jobs : int
        Worker processes; ``1`` (or no ``fork``) runs the pieces here, in order.
    scheduler : distributed.Client or str, optional
        Run the pieces on a Dask cluster (``piece`` is pickled once, with
        ``cloudpickle``; its deadline travels as the time left).
    deadline : Deadline, optional
        Polled while waiting for the workers.
    collect : callable, optional
        Called with the ``info`` of every piece decided, in order, and of a stopped one.
    prepare : callable, optional
        Called once here before forked workers start (e.g. load a compiled kernel,
        so that they inherit it instead of each loading it); not with ``scheduler``, whose
        workers run the pieces (a compiled kernel loaded here would serve nothing).

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
    if scheduler is None and (jobs <= 1 or n <= 1 or not can_fork()):
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
    if prepare is not None and scheduler is None:  # a cluster's workers load their own (not this process)
        prepare()
    decided: dict[int, tuple[str, Any]] = {}
    following = 0  # the first piece not yet accepted
    stream = run_tasks(piece, range(n), jobs=min(jobs, n), scheduler=scheduler, deadline=deadline, queued=QUEUED)
    try:
        for index, status, value in stream:
            decided[index] = (status, value)
            while following in decided:
                status, value = decided.pop(following)
                if status == "stopped":
                    reason, stats = value
                    if collect is not None and stats is not None:
                        collect(stats)
                    if deadline is not None and deadline.reason is None:
                        deadline.reason = reason
                    raise SearchStopped(reason, stats=stats)
                answer, info = value
                if collect is not None:
                    collect(info)
                following += 1
                if answer is not None:
                    return answer, following
        return None, n
    finally:
        stream.close()


# ------------------------------------------------------------------------------------------------ Dask
def is_scheduler(scheduler: Any) -> bool:
    """Whether ``scheduler`` is something :func:`connected` accepts: an address string or a Dask client."""
    return isinstance(scheduler, str) or hasattr(scheduler, "submit") and hasattr(scheduler, "nthreads")


def check_scheduler(scheduler: Any, owner: str) -> Any:
    """``scheduler`` if it is ``None``, a :class:`distributed.Client` or an address ``"dask://HOST:PORT"``.

    >>> check_scheduler("dask://127.0.0.1:8786", "f")
    'dask://127.0.0.1:8786'
    >>> check_scheduler(3, "f")
    Traceback (most recent call last):
    ...
    dimcalc.errors.InvalidParameterError: The 'scheduler' parameter of f must be a distributed.Client or an \
address 'dask://HOST:PORT'. Got 3 instead.
    """
    if scheduler is None or (is_scheduler(scheduler) and not isinstance(scheduler, str)):
        return scheduler
    if isinstance(scheduler, str) and "://" in scheduler and scheduler.split("://", 1)[1]:
        return scheduler
    raise InvalidParameterError(
        f"The 'scheduler' parameter of {owner} must be a distributed.Client or an address "
        f"'dask://HOST:PORT'. Got {scheduler!r} instead."
    )


def connect_timeout(deadline: Deadline | None) -> float:
    """Seconds to wait for a Dask scheduler: a tenth of the time left, between 1 and 10 (10 without a limit)."""
    left = None if deadline is None else deadline.remaining()
    return 10.0 if left is None else min(10.0, max(1.0, left / 10))


def scheduler_address(scheduler: str) -> tuple[str, int]:
    """``(host, port)`` of ``dask://HOST:PORT`` / ``tcp://HOST:PORT``, or a one-line refusal."""
    from urllib.parse import urlsplit

    usage = f"--scheduler {scheduler}: give the scheduler as dask://HOST:PORT (e.g. dask://127.0.0.1:8786)"
    if not isinstance(scheduler, str) or "://" not in scheduler:
        raise InvalidParameterError(usage)
    parts = urlsplit(scheduler)
    if parts.scheme not in ("dask", "tcp") or parts.path not in ("", "/") or parts.query or parts.fragment:
        raise InvalidParameterError(usage)
    try:
        port = parts.port
    except ValueError:
        raise InvalidParameterError(usage) from None
    if not parts.hostname or port is None or port == 0:
        raise InvalidParameterError(usage)
    return parts.hostname, port


def connect(scheduler: str, *, timeout: float = 10.0) -> Any:
    """A :class:`distributed.Client` for ``dask://HOST:PORT`` (or ``tcp://HOST:PORT``).

    The address is checked first (one line naming it), then probed with a plain
    TCP connection (a port nobody listens on is refused at once), then Dask
    connects within ``timeout`` seconds.

    Examples
    --------
    >>> connect("dask://")
    Traceback (most recent call last):
    ...
    dimcalc.errors.InvalidParameterError: --scheduler dask://: give the scheduler as dask://HOST:PORT (e.g. dask://127.0.0.1:8786)
    """
    host, port = scheduler_address(scheduler)
    try:  # probed before Dask is imported (a second or more): a port nobody listens on is refused at once
        socket.create_connection((host, port), timeout=min(timeout, 1.0)).close()
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise InvalidParameterError(
            f"--scheduler {scheduler}: cannot reach a Dask scheduler ({reason}); start one (dask scheduler) "
            "or give its address"
        ) from None
    try:
        from distributed import Client
    except ImportError:
        raise InvalidParameterError("--scheduler needs Dask: pip install 'dimcalc[sweep]'") from None
    address = f"tcp://{host}:{port}" if ":" not in host else f"tcp://[{host}]:{port}"
    try:
        return Client(address, timeout=timeout)
    except (OSError, TimeoutError) as exc:
        raise InvalidParameterError(f"--scheduler {scheduler}: cannot reach a Dask scheduler ({exc})") from None
    except (MemoryError, ValueError, TypeError) as exc:  # something answered, but not in Dask's protocol
        raise InvalidParameterError(
            f"--scheduler {scheduler}: what answers there is not a Dask scheduler ({type(exc).__name__})"
        ) from None


@contextlib.contextmanager
def connected(scheduler: Any, deadline: Deadline | None = None) -> Iterator[Any]:
    """The client of ``scheduler``: a given client as is, an address connected for the block and closed after
    (the connect timeout comes from the deadline: :func:`connect_timeout`)."""
    if not isinstance(scheduler, str):
        yield scheduler
        return
    start = time.monotonic()
    client = connect(scheduler, timeout=connect_timeout(deadline))
    try:
        yield client
    finally:
        client.close(timeout=max(1.0, 5.0 - (time.monotonic() - start)))
