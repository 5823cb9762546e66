"""Running a sweep: register the classes, compute what is missing, stream the results into the database.

Three ways to run, one code path: in this process (the default: nothing to
start), on a local process pool (``jobs=N``, :mod:`concurrent.futures`), or on
a Dask cluster (``scheduler="dask://HOST:PORT"`` or ``client=`` a
:class:`distributed.Client`).  Work is cut into small tasks of a few classes
each, so one slow class holds up only its own task; results are written to the
database as each task finishes, one transaction per class.  Dask re-runs a
task whose worker was lost; a resumed sweep skips every class whose results
were committed.
"""

from __future__ import annotations

import concurrent.futures as cf
import json
import multiprocessing
import os
import socket
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ..errors import InvalidParameterError, parameter_error
from ..psi import psi_family
from ..reports.check import DIMENSION_KEYS
from ..validation import check_int, check_jobs
from .canonical import canonical_form
from .compute import THEOREMS_ITEM, Outcome, Task, compute_chunk
from .db import SweepDB
from .progress import ProgressBar
from .sources import SweepItem

__all__ = ["run_sweep", "register_classes", "SweepSummary", "connect_dask", "scheduler_address"]

#: Classes registered per database transaction.
_REGISTER_BATCH = 500


@dataclass
class SweepSummary:
    """What a sweep did.  ``classes`` counts the distinct classes (up to isomorphism) the sweep covers."""

    db: str
    run_id: int
    executor: str
    classes: int = 0
    new_classes: int = 0
    computed: int = 0
    already_done: int = 0
    seconds: float = 0.0
    results: int = 0
    inexact: int = 0
    unverified: int = 0
    errors: int = 0
    theorems_checked: int = 0
    violated: int = 0
    unknown: int = 0
    class_ids: list[int] = field(default_factory=list, repr=False)

    @property
    def rate(self) -> float:
        """Classes computed per second (0 when none were)."""
        return self.computed / self.seconds if self.seconds > 0 else 0.0

    @property
    def exit_status(self) -> int:
        """``1`` a witness failed its checker, a statement is violated or a class failed; ``3`` some result
        is only bounds (time limit) or some statement unknown; else ``0``."""
        if self.unverified or self.violated or self.errors:
            return 1
        if self.inexact or self.unknown:
            return 3
        return 0

    def to_json(self) -> dict:
        d = asdict(self)
        d.pop("class_ids")
        d["classes_per_second"] = round(self.rate, 3)
        return d


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


def connect_dask(scheduler: str, *, timeout: float = 30.0) -> Any:
    """A :class:`distributed.Client` for ``dask://HOST:PORT`` (or ``tcp://HOST:PORT``).

    The address is checked first (one line naming it), then probed with a plain
    TCP connection (a port nobody listens on is refused at once), then Dask
    connects within ``timeout`` seconds.

    Examples
    --------
    >>> connect_dask("dask://")
    Traceback (most recent call last):
    ...
    dimcalc.errors.InvalidParameterError: --scheduler dask://: give the scheduler as dask://HOST:PORT (e.g. dask://127.0.0.1:8786)
    """
    host, port = scheduler_address(scheduler)
    try:  # probed before Dask is imported (a second or more): a port nobody listens on is refused at once
        socket.create_connection((host, port), timeout=timeout).close()
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise InvalidParameterError(
            f"--scheduler {scheduler}: cannot reach a Dask scheduler ({reason}, within {timeout:g} s)"
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


def register_classes(db: SweepDB, items: Iterable[SweepItem], *, check_labels: Any = None) -> tuple[list[int], int]:
    """Canonicalise the classes and store them; return their ids (in first-seen order, no repeats)
    and how many were new to the database."""
    before = db.count("classes")
    ids: list[int] = []
    seen: set[int] = set()
    batch: list[tuple[Any, str | None, str]] = []

    def flush() -> None:
        for cid in db.add_classes(batch):
            if cid not in seen:
                seen.add(cid)
                ids.append(cid)
        batch.clear()

    for item in items:
        if check_labels is not None:
            check_labels(item)
        H = item.hclass
        c = item.canonical if item.canonical is not None else canonical_form(H)
        batch.append((c, H.name if H.name != "unnamed" else None, item.source))
        if len(batch) >= _REGISTER_BATCH:
            flush()
    if batch:
        flush()
    return ids, db.count("classes") - before


def _chunks(tasks: Sequence[Task], size: int) -> list[list[Task]]:
    return [list(tasks[i : i + size]) for i in range(0, len(tasks), size)]


def _serial(chunks: Sequence[list[Task]], options: dict) -> Iterator[list[Outcome]]:
    for chunk in chunks:
        yield compute_chunk(chunk, options)


def _pool(chunks: Sequence[list[Task]], options: dict, jobs: int) -> Iterator[list[Outcome]]:
    # spawn: workers start clean (no copy of the parent's database connection or threads)
    ctx = multiprocessing.get_context("spawn")
    pool = cf.ProcessPoolExecutor(max_workers=jobs, mp_context=ctx)
    window = 4 * jobs
    todo = iter(chunks)
    running: set[cf.Future] = set()
    try:
        for chunk in todo:
            running.add(pool.submit(compute_chunk, chunk, options))
            if len(running) >= window:
                break
        while running:
            done, running = cf.wait(running, return_when=cf.FIRST_COMPLETED)
            for fut in done:
                yield fut.result()
                nxt = next(todo, None)
                if nxt is not None:
                    running.add(pool.submit(compute_chunk, nxt, options))
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def _dask(chunks: Sequence[list[Task]], options: dict, client: Any) -> Iterator[list[Outcome]]:
    from distributed import as_completed

    workers = max(1, sum(client.nthreads().values()))
    window = 4 * workers
    todo = iter(chunks)
    first = []
    for chunk in todo:
        first.append(client.submit(compute_chunk, chunk, options, pure=False))
        if len(first) >= window:
            break
    stream = as_completed(first)
    try:
        for fut in stream:
            result = fut.result()
            fut.release()
            yield result
            nxt = next(todo, None)
            if nxt is not None:
                stream.add(client.submit(compute_chunk, nxt, options, pure=False))
    except BaseException:
        for fut in list(stream.futures):
            fut.cancel()
        raise


def _dask_workers(client: Any) -> int:
    return max(1, sum(client.nthreads().values()))


def run_sweep(
    items: Iterable[SweepItem],
    *,
    db: str | os.PathLike | SweepDB,
    dims: Sequence[str] | None = None,
    theorems: bool = False,
    time_limit: float | None = None,
    family: Sequence[Sequence[Any]] | None = None,
    representation: bool | None = None,
    jobs: int = 1,
    scheduler: str | None = None,
    client: Any = None,
    chunk_size: int | None = None,
    retry_inexact: bool = False,
    progress: bool = False,
    command: str = "",
) -> SweepSummary:
    """Sweep classes: store them in a database and compute, for each, what the database does not hold yet.

    Parameters
    ----------
    items : iterable of SweepItem
        The classes (see :mod:`dimcalc.sweep.sources`).  Isomorphic classes are
        stored and computed once.
    db : path or SweepDB
        The SQLite file (created when missing).
    dims : sequence of str, optional
        Keys of :data:`dimcalc.reports.check.DIMENSION_KEYS` (default: all of them).
        An empty list computes no dimension (e.g. only the theorem report).
    theorems : bool
        Also store :func:`dimcalc.theorems.theorem_report` for each class.
    time_limit : float, optional
        Seconds per class for its dimensions (and as much for its theorem
        report); a stopped search stores proven bounds (``exact = 0``).
    family : list of maps, optional
        A user Ψ family (BGS Def 4.3) for the ``psi_littlestone*`` keys
        (``"user"`` entry); every class must have its number of labels.
    representation : bool, optional
        Passed to :func:`~dimcalc.theorems.theorem_report`.
    jobs : int
        Worker processes on this machine (1: compute in this process).
    scheduler : str, optional
        ``dask://HOST:PORT``: compute on that Dask cluster.
    client : distributed.Client, optional
        An existing Dask client (instead of ``scheduler``).
    chunk_size : int, optional
        Classes per task (default: 1 in this process; else small enough for
        about eight tasks per worker, at most 16).
    retry_inexact : bool
        Compute again the results a time limit left inexact (exact ones are kept).
    progress : bool
        Progress bar on stderr.
    command : str
        Recorded in the ``runs`` table.

    Returns
    -------
    SweepSummary

    Examples
    --------
    >>> import os, tempfile
    >>> from dimcalc.sweep.sources import all_items
    >>> path = os.path.join(tempfile.mkdtemp(), "s.db")
    >>> s = run_sweep(all_items("2x2x2"), db=path, dims=["vc", "littlestone"])
    >>> s.classes, s.computed, s.exit_status
    (4, 4, 0)
    >>> run_sweep(all_items("2x2x2"), db=path, dims=["vc", "littlestone"]).computed   # resumed: nothing left
    0
    """
    if dims is None:
        dims = list(DIMENSION_KEYS)
    dims = list(dims)
    for d in dims:
        if d not in DIMENSION_KEYS:
            raise parameter_error("dims", "run_sweep", f"keys among {', '.join(DIMENSION_KEYS)}", d)
    items_wanted = dims + ([THEOREMS_ITEM] if theorems else [])
    if not items_wanted:
        raise InvalidParameterError("a sweep needs at least one dimension or the theorem report")
    jobs = check_jobs(jobs, "run_sweep")
    if chunk_size is not None:
        chunk_size = check_int(chunk_size, "chunk_size", "run_sweep", 1)
    if scheduler is not None and client is not None:
        raise InvalidParameterError("give either scheduler or client, not both")
    if (scheduler is not None or client is not None) and jobs != 1:
        raise InvalidParameterError("--jobs is for this machine; with --scheduler the cluster sets the workers")

    if scheduler is not None:
        scheduler_address(scheduler)  # a malformed address refused before the database is touched
    own_db = not isinstance(db, SweepDB)
    database = db if isinstance(db, SweepDB) else SweepDB(db)  # own_db: a new one
    own_client = False
    try:
        check_labels = None
        if family is not None:
            maps = [list(m) for m in family]
            database.ensure_meta("psi_user_family", json.dumps(maps), "user Ψ family (--family)")

            def check_labels(item: SweepItem) -> None:
                try:
                    psi_family(maps, item.hclass.num_labels)
                except InvalidParameterError as exc:
                    raise InvalidParameterError(f"--family does not fit {item.source}: {exc}") from None

            family = maps
        elif any(k.startswith("psi_littlestone") for k in dims) and database.get_meta("psi_user_family"):
            raise InvalidParameterError(f"--db {database.path}: was swept with a user Ψ family; give the same --family")

        if scheduler is not None:
            # the connection is part of the budget: a cluster that does not answer is given up quickly
            client = connect_dask(scheduler, timeout=10.0 if time_limit is None else min(30.0, max(1.0, time_limit)))
            own_client = True
        executor = (
            ("dask:" + str(getattr(client.scheduler, "address", "client")))
            if client is not None
            else (f"processes:{jobs}" if jobs > 1 else "serial")
        )
        run_id = database.start_run(command, executor)
        summary = SweepSummary(db=str(database.path), run_id=run_id, executor=executor)

        ids, summary.new_classes = register_classes(database, items, check_labels=check_labels)
        summary.classes = len(ids)
        summary.class_ids = ids
        done = database.completed_items(ids, items_wanted, retry_inexact=retry_inexact)
        tasks = []
        for cid in ids:
            missing = tuple(i for i in items_wanted if i not in done[cid])
            if missing:
                table, labels = database.class_table(cid)
                tasks.append(Task(cid, table, labels, missing))
        summary.already_done = len(ids) - len(tasks)

        options = {"time_limit": time_limit, "family": family, "representation": representation}
        workers = _dask_workers(client) if client is not None else jobs
        if chunk_size is None:
            chunk_size = 1 if workers == 1 and client is None else max(1, min(16, len(tasks) // (8 * workers)))
        chunks = _chunks(tasks, chunk_size)
        if client is not None:
            stream = _dask(chunks, options, client)
        elif jobs > 1:
            stream = _pool(chunks, options, jobs)
        else:
            stream = _serial(chunks, options)

        bar = ProgressBar(len(tasks), enabled=progress)
        start = time.monotonic()
        try:
            for outcomes in stream:
                for o in outcomes:
                    database.store_outcome(
                        o.class_id,
                        run_id,
                        results=o.results,
                        theorems=o.theorems,
                        completed=o.completed,
                        errors=o.errors,
                    )
                    summary.computed += 1
                    summary.results += len(o.results)
                bar.update(summary.computed)
        finally:
            summary.seconds = time.monotonic() - start
            bar.close()
        database.finish_run(run_id)
        _tally(database, summary)
        return summary
    finally:
        if own_client and client is not None:
            client.close()
        if own_db:
            database.close()


def _tally(db: SweepDB, s: SweepSummary) -> None:
    """Counts over every class of this sweep (also those stored by earlier runs)."""
    wanted = set(s.class_ids)
    for cid, exact, verified in db.conn.execute("SELECT class_id, exact, verified FROM results"):
        if cid in wanted:
            s.inexact += not exact
            s.unverified += verified == 0
    for cid, holds in db.conn.execute("SELECT class_id, holds FROM theorems"):
        if cid in wanted:
            s.theorems_checked += 1
            s.violated += holds == "false"
            s.unknown += holds == "unknown"
    for cid, run in db.conn.execute("SELECT class_id, run_id FROM errors"):
        if cid in wanted and run == s.run_id:
            s.errors += 1
