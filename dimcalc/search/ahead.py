"""A value worked out ahead, in another process, while this one does other work (``jobs > 1``, or a Dask cluster).

A search's set-up is a chain of steps, each on one core; some of them do not
depend on the ones before (e.g. the point symmetries of a VC search and the
closure refutation that runs first: :mod:`dimcalc.vc.search`).  With
``jobs > 1`` the user has given this call more than one core, and the
second is idle until the search's pieces start: :class:`Ahead` starts such a
step at once in a forked process (or, with a Dask client, as a task on the
cluster) and :meth:`Ahead.result` takes its value when it is needed.

Its value is the step's, whoever works it out: when the other process fails,
dies, stops or cannot return its value, :meth:`Ahead.result` runs the step
here -- the same value, or the same error or stop, as without it.  The
deadline is polled while waiting (a stop is raised here), and
:meth:`Ahead.close` (also called by :meth:`Ahead.result`) kills the process
or cancels the task: a value not needed (the step before decided the search)
costs nothing more.  With ``jobs = 1`` nothing runs ahead: the step runs here, when its value is asked for.

Examples
--------
>>> early = Ahead(lambda: sum(range(10)), jobs=2)
>>> early.result()
45
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
from collections.abc import Callable
from typing import Any

from .budget import Deadline
from .pool import POLL_SECONDS, can_fork

__all__ = ["Ahead"]


def _child(fn: Callable[[], Any], conn: Any) -> None:
    """The forked process: send ``("done", fn())``, or ``("failed", None)`` when it raised (it runs again there)."""
    try:
        message: tuple[str, Any] = ("done", fn())
    except BaseException:  # the caller runs fn itself, and meets the same error or stop
        message = ("failed", None)
    try:
        conn.send(message)
    except Exception:  # an unpicklable value
        conn.send(("failed", None))


def _call(fn: Callable[[], Any]) -> Any:
    return fn()


class Ahead:
    """``fn()`` started now in a forked process (``jobs > 1``) or on a Dask cluster (``client``), taken later.

    Parameters
    ----------
    fn : callable
        The step, with no argument; inherited by the forked process, pickled
        (``cloudpickle``) for a Dask client.  Its value must be picklable.
    jobs : int
        ``1``: nothing runs ahead (``fn`` runs in :meth:`result`).
    client : distributed.Client, optional
        Run ``fn`` as a task on this cluster instead of a forked process.
    """

    def __init__(self, fn: Callable[[], Any], *, jobs: int = 1, client: Any = None) -> None:
        self.fn = fn
        self.where = "here"  # where fn runs: "here", "fork" or "dask"
        self._process: Any = None
        self._conn: Any = None
        self._future: Any = None
        if client is not None:
            self._future = client.submit(_call, fn, pure=False)
            self.where = "dask"
        elif jobs > 1 and can_fork():
            context = multiprocessing.get_context("fork")
            receive, send = context.Pipe(duplex=False)
            self._process = context.Process(target=_child, args=(fn, send), daemon=True)
            self._process.start()
            send.close()
            self._conn = receive
            self.where = "fork"

    def result(self, deadline: Deadline | None = None) -> Any:
        """``fn()``'s value: the other process's, or ``fn()`` run here when it has none to give (see the module
        docstring); :class:`~dimcalc.search.budget.SearchStopped` when ``deadline`` expires while waiting."""
        try:
            got = self._wait(deadline)
        finally:
            self.close()
        return got[0] if got is not None else self.fn()

    def _wait(self, deadline: Deadline | None) -> tuple[Any] | None:
        """``(value,)`` from the other process, or ``None`` when it has none (failed, died, or nothing ran)."""
        if self._future is not None:
            from distributed import wait

            while not self._future.done():
                with contextlib.suppress(TimeoutError):
                    wait([self._future], timeout=POLL_SECONDS)
                if deadline is not None:
                    deadline.check()
            return (self._future.result(),) if self._future.status == "finished" else None
        if self._process is None:
            return None
        while True:
            ready = multiprocessing.connection.wait([self._conn, self._process.sentinel], POLL_SECONDS)
            if self._conn in ready or (ready and self._conn.poll()):
                try:
                    status, value = self._conn.recv()
                except (EOFError, OSError):  # died before sending
                    return None
                return (value,) if status == "done" else None
            if ready:  # the process ended without a word
                return None
            if deadline is not None:
                deadline.check()

    def close(self) -> None:
        """Stop the other process (or cancel the task) if it still runs; the value is not taken."""
        if self._process is not None:
            with contextlib.suppress(Exception):
                self._conn.close()
            if self._process.is_alive():
                self._process.kill()
            self._process.join()
            self._process = None
        if self._future is not None:
            with contextlib.suppress(Exception):
                self._future.cancel()
            self._future = None
