"""A step worked out ahead in another process (dimcalc.search.ahead.Ahead) and its use by the VC-type search.

The value must be the step's whoever works it out: a process that dies, fails
or cannot send its value has the step run here (the same value, error or
stop as without it); the deadline holds while waiting; a step not needed is
stopped.  In the search (:func:`dimcalc.vc.search.symmetry_ahead`): the point
symmetries and the complement closure looked for in a forked process give the
answer, witness and symmetry figures of one process.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from dimcalc import generators, vc_dimension
from dimcalc.search import pool
from dimcalc.search.ahead import Ahead
from dimcalc.search.budget import Deadline, SearchStopped
from dimcalc.vc import kernel, search

forking = pytest.mark.skipif(not pool.can_fork(), reason="the step runs in a forked process")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_one_job_runs_the_step_here_when_asked():
    calls = []
    early = Ahead(lambda: calls.append(os.getpid()) or 7, jobs=1)
    assert early.where == "here" and calls == []  # nothing started
    assert early.result() == 7 and calls == [os.getpid()]


@forking
def test_the_step_runs_in_another_process_with_jobs():
    early = Ahead(os.getpid, jobs=2)
    assert early.where == "fork"
    assert early.result(Deadline(60)) != os.getpid()


@forking
def test_a_dying_process_has_its_step_run_here():
    parent = os.getpid()

    def step():
        if os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)  # the other process dies mid-step
        return os.getpid()

    assert Ahead(step, jobs=2).result(Deadline(60)) == parent


@forking
def test_a_failing_step_fails_here_alike():
    def boom():
        raise ValueError("bad step")

    with pytest.raises(ValueError, match="bad step"):
        Ahead(boom, jobs=2).result()
    # a value that cannot be sent back (a lambda) is worked out here
    assert Ahead(lambda: lambda: 3, jobs=2).result()() == 3


@forking
def test_the_deadline_holds_while_waiting_and_the_process_is_stopped():
    parent = os.getpid()
    early = Ahead(lambda: time.sleep(0 if os.getpid() == parent else 60), jobs=2)
    pid = early._process.pid
    start = time.monotonic()
    with pytest.raises(SearchStopped):
        early.result(Deadline(0.3))
    assert time.monotonic() - start < 30  # not the 60 s of the step
    assert not _alive(pid)


@forking
def test_close_stops_a_step_not_needed():
    early = Ahead(lambda: time.sleep(60), jobs=2)
    pid = early._process.pid
    early.close()
    assert not _alive(pid)


# ------------------------------------------------------------------------------------ in the VC search
@pytest.fixture
def looked_for(monkeypatch, tmp_path: Path):
    """Record the pid of every call of search.symmetry_of that looks for the group (nothing known yet); ``kill``:
    a process other than the test's dies there; ``sleep``: it sleeps a minute there."""
    if not kernel.available():
        pytest.skip("numba is not installed: the symmetric search runs in the compiled kernel")
    log = tmp_path / "pids"
    plain = search.symmetry_of
    parent = os.getpid()
    mode = {"kill": False, "sleep": False}

    def recorded(found, cols, m, deadline, stats):
        if not found:
            with open(log, "a") as f:
                f.write(f"{os.getpid()}\n")
            if os.getpid() != parent and mode["kill"]:
                os.kill(os.getpid(), signal.SIGKILL)
            if os.getpid() != parent and mode["sleep"]:
                time.sleep(60)
        return plain(found, cols, m, deadline, stats)

    monkeypatch.setattr(search, "symmetry_of", recorded)

    def pids() -> list[int]:
        out = [int(x) for x in log.read_text().split()] if log.exists() else []
        log.unlink(missing_ok=True)
        return out

    return pids, mode, parent


def _figures(r):
    return (
        r.value,
        r.exact,
        r.witness,
        {k: v for k, v in r.stats.items() if k.startswith(("symmetry_", "complement"))},
    )


@forking
def test_symmetries_looked_for_ahead_are_those_of_one_process(looked_for):
    """Halfspaces over 8 x 8 (orbits, then the complement split): with jobs=2 the group is looked for once, in
    another process, and the value, witness and symmetry figures (seconds aside) are one process's."""
    pids, _, parent = looked_for
    H = generators.halfspaces(3, 2)
    one = vc_dimension(H, jobs=1)
    assert pids() == [parent]
    two = vc_dimension(H, jobs=2)
    there = pids()
    assert len(there) == 1 and there[0] != parent  # looked for there only, and taken here
    a, b = _figures(one), _figures(two)
    a[3].pop("symmetry_seconds"), b[3].pop("symmetry_seconds")
    assert a == b and a[3]["symmetry_orbits"] == 10 and "complement_heads" in a[3]
    assert two.verify(H)


@forking
def test_a_process_dying_while_looking_for_symmetries_changes_nothing(looked_for):
    pids, mode, parent = looked_for
    H = generators.halfspaces(3, 2)
    one = vc_dimension(H, jobs=1)
    pids()
    mode["kill"] = True
    two = vc_dimension(H, jobs=2)
    there = pids()
    assert there[-1] == parent and len(there) == 2  # tried there, died, looked for here
    a, b = _figures(one), _figures(two)
    a[3].pop("symmetry_seconds"), b[3].pop("symmetry_seconds")
    assert a == b and two.verify(H)


@forking
def test_the_time_limit_holds_while_the_symmetries_are_awaited(looked_for):
    """The other process takes a minute: the call stops at its 3 s limit with proven bounds and a verified
    witness (the parent polls the deadline while it waits, and stops the process)."""
    _, mode, _ = looked_for
    mode["sleep"] = True
    H = generators.halfspaces(3, 2)
    start = time.monotonic()
    r = vc_dimension(H, jobs=2, time_limit=3.0)
    assert time.monotonic() - start < 30
    assert r.exact is False and r.lower == 3 and r.upper >= 3 and r.verify(H)


# ------------------------------------------------------------------------------------ on a Dask cluster
@pytest.fixture(scope="module")
def cluster(local_cluster):
    return local_cluster[1]


def test_the_step_runs_as_a_cluster_task_and_fails_here_alike(cluster):
    early = Ahead(os.getpid, client=cluster)
    assert early.where == "dask" and early.result(Deadline(60)) != os.getpid()

    def boom():
        raise ValueError("bad step")

    with pytest.raises(ValueError, match="bad step"):  # failed there: run here, where it fails alike
        Ahead(boom, client=cluster).result(Deadline(60))


def test_symmetries_looked_for_on_a_cluster_are_those_of_one_process(cluster, looked_for):
    pids, _, parent = looked_for
    H = generators.halfspaces(3, 2)
    one = vc_dimension(H, jobs=1)
    assert pids() == [parent]
    two = vc_dimension(H, scheduler=cluster)
    there = pids()
    assert len(there) == 1 and there[0] in set(cluster.run(os.getpid).values())  # a worker's (one machine)
    a, b = _figures(one), _figures(two)
    a[3].pop("symmetry_seconds"), b[3].pop("symmetry_seconds")
    assert a == b and two.verify(H)
