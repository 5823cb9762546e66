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

__all__ = ["TIMED"]

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
