"""What the child scripts of the ``hard`` and ``hard-littlestone`` suites share (each case runs in a fresh process).

:data:`TIMED` is Python source, prepended to a child script: it defines
``timed(call, jobs, cluster, warm)``, which runs ``call(jobs=jobs)`` -- or,
with ``cluster = N``, ``call(scheduler=client)`` on a Dask ``LocalCluster`` of
``N`` one-thread worker processes, started and warmed (``warm`` run on each)
before the clock -- and returns ``(result, wall, cpu, workers, load)``: wall
seconds of the call, CPU seconds of this process, of its forked workers and
the cluster's workers, and the highest load average seen.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from typing import Any

from . import BenchOptions, BenchRow, jobs_and_cluster, with_speedup

__all__ = ["TIMED", "case_rows", "interleaved_runs", "runs_note"]

TIMED = textwrap.dedent("""
    def worker_cpu():  # run on each Dask worker: its process's CPU seconds so far
        import resource
        r = resource.getrusage(resource.RUSAGE_SELF)
        return r.ru_utime + r.ru_stime

    def timed(call, jobs, cluster, warm):
        import os, resource, time
        kw, client = {"jobs": jobs}, None
        if cluster:  # a LocalCluster of one-thread worker processes, started and warmed before the clock
            from dask.distributed import Client, LocalCluster
            client = Client(LocalCluster(n_workers=cluster, threads_per_worker=1, processes=True,
                                         dashboard_address=None))
            kw = {"scheduler": client}
            client.run(warm)
            before = client.run(worker_cpu)
        load = os.getloadavg()[0]
        t, c = time.perf_counter(), time.process_time()
        r = call(**kw)
        wall, cpu = time.perf_counter() - t, time.process_time() - c
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)  # the forked workers' CPU with jobs > 1
        workers = kids.ru_utime + kids.ru_stime
        if client is not None:
            after = client.run(worker_cpu)
            workers += sum(after[w] - before.get(w, 0.0) for w in after)
            client.close()
        return r, wall, cpu, workers, max(load, os.getloadavg()[0])
""")


def _median(outs: list[dict]) -> dict:
    """The run of median wall time, with ``walls`` (every run's, in order)."""
    walls = [o["wall"] for o in outs]
    chosen = sorted(outs, key=lambda o: o["wall"])[(len(outs) - 1) // 2]
    return {**chosen, "walls": walls}


def interleaved_runs(run: Callable[[Any], dict], settings: Sequence[Any], repeat: int) -> list[dict]:
    """``run(setting)`` (one fresh child process) for each setting in turn, ``repeat`` rounds -- A B A B A B,
    not A A A B B B --; for each setting the run of median wall time with ``walls`` (every run's, in order),
    or its first ``error``.

    This machine's speed drifts by tens of percent over minutes (the same search's CPU seconds included), so
    runs of one setting taken minutes after the other's (a whole suite at ``jobs=1``, then at ``jobs=2``) can
    put the drift into their ratio; in turns, both settings see it alike.

    >>> times = iter([3.0, 2.0, 5.0, 4.0])
    >>> [o["walls"] for o in interleaved_runs(lambda s: {"wall": next(times), "s": s}, ["a", "b"], 2)]
    [[3.0, 5.0], [2.0, 4.0]]
    >>> interleaved_runs(lambda s: {"error": "no answer"} if s == "b" else {"wall": 1.0}, ["a", "b"], 2)[1]
    {'error': 'no answer'}
    """
    outs: list[list[dict]] = [[] for _ in settings]
    errors: dict[int, dict] = {}
    for _ in range(max(1, repeat)):
        for i, setting in enumerate(settings):
            if i not in errors:
                out = run(setting)
                if "error" in out:
                    errors[i] = out
                else:
                    outs[i].append(out)
    return [errors.get(i) or _median(outs[i]) for i in range(len(settings))]


def case_rows(
    options: BenchOptions, run: Callable[[int, int], dict], row: Callable[[dict, int, int], BenchRow]
) -> list[BenchRow]:
    """One case's row: ``run(jobs, cluster)`` (one fresh child process) ``options.repeat`` times at the options'
    setting, the row ``row(out, jobs, cluster)`` of the run of median wall time (with ``walls``); or, with two
    or more ``options.settings`` (``--jobs 1,2,cluster:2``), the runs of every setting in turns
    (:func:`interleaved_runs`) and the first setting's row with the speed-up (:func:`dimcalc.bench.with_speedup`).

    One run of a multi-second search varies by up to 20 % on a shared 2-core machine (CPU seconds of the
    same nodes included), so a speed-up between two single runs says little: ``--repeat 3`` (the default)
    reports medians.

    >>> times = iter([3.0, 1.0, 2.0])
    >>> [r.seconds for r in case_rows(BenchOptions(), lambda j, c: {"wall": next(times)},
    ...                               lambda out, j, c: BenchRow("t", "c", 1, True, out["wall"], 0.0))]
    [2.0]
    """
    pairs = (
        [jobs_and_cluster(s) for s in options.settings]
        if len(options.settings) > 1
        else [(options.jobs, options.cluster)]
    )
    made = [row(out, *p) for out, p in zip(interleaved_runs(lambda p: run(*p), pairs, options.repeat), pairs)]
    if len(made) == 1:
        return made
    return with_speedup(made[:1], [[r] for r in made[1:]], options.settings)


def runs_note(walls: list[float]) -> str:
    """The spread of a row's runs (``--repeat``), before its note; nothing for one run.

    >>> runs_note([7.1, 6.9, 7.4])
    'median of 3 runs (6.90-7.40 s); '
    >>> runs_note([7.1])
    ''
    """
    return f"median of {len(walls)} runs ({min(walls):.2f}-{max(walls):.2f} s); " if len(walls) > 1 else ""
