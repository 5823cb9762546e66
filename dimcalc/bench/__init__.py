"""Benchmarks: ``dimcalc bench`` and ``python benchmarks/run.py``.

A *suite* is a function ``suite(options) -> list[BenchRow]`` registered with
:func:`register_suite`.  Each row is one case (a class and a solver), with the
median wall time over ``options.repeat`` runs, peak memory, the answer, and,
for side-by-side cases, the time of the baseline (textbook) algorithm and the
ratio.  Suite modules live in this package (``vc.py``, ``littlestone.py``, ...)
and are imported by :func:`load_suites`.

Use :func:`measure` to time a call: it reports the median over repeats and the
peak traced memory of one run.
"""

from __future__ import annotations

import dataclasses
import gc
import importlib
import os
import statistics
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = [
    "BenchOptions",
    "BenchRow",
    "CLUSTER_SUITES",
    "measure",
    "register_suite",
    "load_suites",
    "SUITES",
    "run_suites",
    "parse_jobs",
    "jobs_and_cluster",
    "core_speeds",
    "with_speedup",
    "check_settings",
]

#: The suites whose cases can run on a Dask ``LocalCluster`` (``--jobs 1,cluster:2``).
CLUSTER_SUITES = ("hard", "hard-littlestone")

#: Modules in this package that define suites (imported lazily by load_suites).
SUITE_MODULES = ("vc", "littlestone", "shapes", "sat", "graphs", "hard", "hard_littlestone")


@dataclass
class BenchOptions:
    """Options shared by every suite.

    quick : run small instances only (used by the test suite to smoke-test suites).
    repeat : number of timed runs per case (median reported).
    baseline_limit : seconds after which a baseline run is abandoned (reported as '>limit').
    only : case-name substrings to keep (empty = all).
    progress : callable(str) for progress lines, or None.
    jobs : worker processes the cases' solvers get (``jobs=options.jobs``); see :func:`run_suites`.
    cluster : when positive, the solvers run on a Dask ``LocalCluster`` of this many one-thread worker
        processes (``scheduler=``) instead of ``jobs`` processes; only the suites in :data:`CLUSTER_SUITES`.
    settings : two or more ``--jobs`` values (ints or ``"cluster:N"``) for a suite of :data:`CLUSTER_SUITES`,
        which then runs each case at every setting in turn (:func:`dimcalc.bench._child.interleaved_runs`) and
        returns rows with their speed-up (:func:`with_speedup`); see :func:`run_suites`.
    """

    quick: bool = False
    repeat: int = 3
    baseline_limit: float = 120.0
    solver_limit: float = 60.0
    only: tuple[str, ...] = ()
    progress: Callable[[str], None] | None = None
    jobs: int = 1
    cluster: int = 0
    settings: tuple[int | str, ...] = ()

    def wants(self, case: str) -> bool:
        return not self.only or any(s in case for s in self.only)

    def say(self, msg: str) -> None:
        if self.progress is not None:
            self.progress(msg)


@dataclass
class BenchRow:
    """One benchmark case."""

    suite: str
    case: str
    answer: Any
    exact: bool
    seconds: float  # median solver time
    peak_mb: float  # peak traced memory of one solver run
    baseline_seconds: float | None = None  # None: no baseline run; inf: abandoned at the limit
    baseline_answer: Any = None
    ratio: float | None = None  # baseline_seconds / seconds (a lower bound when abandoned)
    note: str = ""
    extra: dict = field(default_factory=dict)
    speedup: float | None = None  # seconds at the first jobs value / seconds at the last (run_suites with jobs)

    def to_json(self) -> dict:
        d = asdict(self)
        if d["baseline_seconds"] == float("inf"):
            d["baseline_seconds"] = None
            d["note"] = (d["note"] + "; " if d["note"] else "") + "baseline abandoned at the limit"
        return d


def measure(fn: Callable[[], Any], repeat: int = 3, memory: bool = True) -> tuple[float, float, Any]:
    """Run ``fn`` ``repeat`` times; return (median seconds, peak MB of a traced run, last result).

    The traced run (for memory) is separate from the timed runs, so tracing
    overhead does not inflate times.
    """
    times = []
    result = None
    for _ in range(max(1, repeat)):
        gc.collect()
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    peak = 0.0
    if memory:
        gc.collect()
        tracemalloc.start()
        try:
            fn()
            peak = tracemalloc.get_traced_memory()[1] / 2**20
        finally:
            tracemalloc.stop()
    return statistics.median(times), peak, result


SUITES: dict[str, tuple[Callable[[BenchOptions], list[BenchRow]], str]] = {}


def register_suite(name: str, description: str) -> Callable:
    """Decorator registering ``fn(options) -> list[BenchRow]`` as suite ``name``."""

    def deco(fn: Callable[[BenchOptions], list[BenchRow]]) -> Callable:
        SUITES[name] = (fn, description)
        return fn

    return deco


def load_suites() -> dict[str, tuple[Callable[[BenchOptions], list[BenchRow]], str]]:
    """Import every suite module and return the registry."""
    for mod in SUITE_MODULES:
        try:
            importlib.import_module(f"{__name__}.{mod}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{mod}":
                raise
    return SUITES


def parse_jobs(text: str) -> list[int | str]:
    """The settings of ``dimcalc bench --jobs``: positive ints (worker processes) or ``cluster:N``.

    ``cluster:N`` runs the cases on a Dask ``LocalCluster`` of ``N`` one-thread worker processes.

    Examples
    --------
    >>> parse_jobs("1,2,cluster:2")
    [1, 2, 'cluster:2']
    """
    out: list[int | str] = []
    for part in (x.strip() for x in text.split(",")):
        if part.isdigit() and int(part) >= 1:
            out.append(int(part))
        elif part.startswith("cluster:") and part[8:].isdigit() and int(part[8:]) >= 1:
            out.append(f"cluster:{int(part[8:])}")
        else:
            raise ValueError(
                f"--jobs takes positive ints or cluster:N separated by commas, like 1,2,cluster:2; got {text!r}"
            )
    return out


def check_settings(suites: Sequence[str], jobs: Sequence[int | str] | None) -> None:
    """Refuse (``ValueError``) a ``cluster:N`` setting for a suite outside :data:`CLUSTER_SUITES`."""
    if any(isinstance(j, str) for j in jobs or ()):
        others = [n for n in suites if n not in CLUSTER_SUITES]
        if others:
            raise ValueError(
                f"--jobs cluster:N runs only the suites {', '.join(CLUSTER_SUITES)} (their solvers take a Dask"
                f" scheduler); not {', '.join(others)}: add --suite hard"
            )


def core_speeds(loops: int = 3_000_000) -> dict[int, float]:
    """CPU seconds of one fixed pure-Python loop (``loops`` additions) on each core this process may run on
    (Linux: ``os.sched_setaffinity``; elsewhere, once, on whichever core runs it: key ``-1``).

    A yardstick for the figures beside it: on this project's 2-core virtual machine (2026-11-26) a loop of
    3·10⁷ Python multiply-adds took 3.3 s of CPU alone, then 6.0 s alone a minute later, and 6.3 s on one
    core while 4.1 s on the other (the host's load on its cores: no steal time was reported), so
    a ratio between runs minutes apart carries that drift, and two workers are not always two equal cores.

    >>> speeds = core_speeds(1000)
    >>> all(v >= 0 for v in speeds.values()) and len(speeds) >= 1
    True
    """

    def loop() -> float:
        t = time.process_time()
        x = 0
        for i in range(loops):
            x += i
        return time.process_time() - t

    if not hasattr(os, "sched_setaffinity"):
        return {-1: loop()}
    allowed = os.sched_getaffinity(0)
    out = {}
    try:
        for cpu in sorted(allowed):
            os.sched_setaffinity(0, {cpu})
            out[cpu] = loop()
    finally:
        os.sched_setaffinity(0, allowed)
    return out


def jobs_and_cluster(j: int | str) -> tuple[int, int]:
    """``(jobs, cluster)`` of one ``--jobs`` value.

    >>> jobs_and_cluster(2), jobs_and_cluster("cluster:2")
    ((2, 0), (1, 2))
    """
    if isinstance(j, str):  # "cluster:N"
        return 1, int(j.split(":")[1])
    return j, 0


def _setting(options: BenchOptions, j: int | str) -> BenchOptions:
    jobs, cluster = jobs_and_cluster(j)
    return dataclasses.replace(options, jobs=jobs, cluster=cluster)


def with_speedup(first: list[BenchRow], others: Sequence[list[BenchRow]], jobs: Sequence[int | str]) -> list[BenchRow]:
    """The rows of the first ``jobs`` value, each with ``extra["seconds_by_jobs"]`` and ``speedup`` = its seconds
    over the last value's (``others``: the rows of the other values, matched by suite and case); a case whose
    answer or exactness differs between the values says so in its note."""
    later = [{(r.suite, r.case): r for r in rows} for rows in others]
    for row in first:
        others_rows = [by_case.get((row.suite, row.case)) for by_case in later]
        row.extra["seconds_by_jobs"] = {
            jobs[0]: row.seconds,
            **{j: r.seconds for j, r in zip(jobs[1:], others_rows) if r is not None},
        }
        for key, by in (("walls", "walls_by_jobs"), ("cpu", "cpu_by_jobs"), ("cpu_seconds", "cpu_by_jobs")):
            if key in row.extra:  # every run's wall seconds, the median run's CPU seconds, at each value
                row.extra[by] = {
                    jobs[0]: row.extra[key],
                    **{j: r.extra.get(key) for j, r in zip(jobs[1:], others_rows) if r is not None},
                }
        last = others_rows[-1] if others_rows else None
        if last is not None and last.seconds > 0:
            row.speedup = row.seconds / last.seconds
        if any(r is not None and (r.answer, r.exact) != (row.answer, row.exact) for r in others_rows):
            row.note = (row.note + "; " if row.note else "") + "answers differ between jobs values"
    return first


def run_suites(
    names: list[str] | None, options: BenchOptions, jobs: Sequence[int | str] | None = None
) -> list[BenchRow]:
    """Run the named suites (all when ``names`` is empty/None).

    With ``jobs`` (e.g. ``[1, 2]``) every case runs once per value (the
    suites pass ``options.jobs`` to the solvers that take it); a value
    ``"cluster:N"`` runs them on a Dask ``LocalCluster`` of ``N`` workers
    instead (only the suites of :data:`CLUSTER_SUITES`: anything else is
    refused with a ``ValueError`` before a case runs).  The suites of
    :data:`CLUSTER_SUITES` run each case at every value in turn, round after
    round (``options.settings``); any other suite runs whole once per value.
    Each row is the first value's, with ``extra["seconds_by_jobs"]`` and
    ``speedup`` = its seconds over the last value's (:func:`with_speedup`).
    """
    suites = load_suites()
    chosen = names or sorted(suites)
    check_settings(chosen, jobs)
    rows: list[BenchRow] = []
    for name in chosen:
        fn, _ = suites[name]
        if not jobs or len(jobs) == 1:
            options.say(f"suite {name}" + (f" (jobs={jobs[0]})" if jobs else ""))
            rows.extend(fn(_setting(options, jobs[0]) if jobs else options))
        elif name in CLUSTER_SUITES:  # each case at every value in turn
            options.say(f"suite {name} (jobs={','.join(map(str, jobs))}, in turns)")
            rows.extend(fn(dataclasses.replace(options, settings=tuple(jobs))))
        else:
            runs = []
            for j in jobs:
                options.say(f"suite {name} (jobs={j})")
                runs.append(fn(_setting(options, j)))
            rows.extend(with_speedup(runs[0], runs[1:], jobs))
    return rows
    later = [{(r.suite, r.case): r for r in rows} for rows in runs[1:]]
    for row in runs[0]:
        others_rows = [by_case.get((row.suite, row.case)) for by_case in later]
        row.extra["seconds_by_jobs"] = {
            jobs[0]: row.seconds,
            **{j: r.seconds for j, r in zip(jobs[1:], others_rows) if r is not None},
        }
        last = others_rows[-1]
        if last is not None and last.seconds > 0:
            row.speedup = row.seconds / last.seconds
        if any(r is not None and (r.answer, r.exact) != (row.answer, row.exact) for r in others_rows):
            row.note = (row.note + "; " if row.note else "") + "answers differ between jobs values"
    return runs[0]
