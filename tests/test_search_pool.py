"""The search core (dimcalc.search): budgets read at call time, tick, the stop record, and the one pool.

The pool must give the answer of one process: the first piece in order that
has an answer, accepted only once every earlier piece is refuted; a dead
worker's piece runs again; a stop before the answer is reported as a stop
(the solvers then return proven bounds).  The Dask tests run the same pieces
on a ``LocalCluster``.
"""

from __future__ import annotations

import os
import pickle
import signal
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brute_vc import brute_natarajan, brute_vc
from dimcalc import HypothesisClass, natarajan_dimension, vc_dimension
from dimcalc.cli import main
from dimcalc.errors import InvalidParameterError
from dimcalc.generators import intervals
from dimcalc.reports.check import _payloads
from dimcalc.search import budget, pool
from dimcalc.search.budget import Deadline, SearchStats, SearchStopped
from dimcalc.vc import dfs as search
from profile_examples import examples
from strategies import classes

forking = pytest.mark.skipif(not pool.can_fork(), reason="worker processes are forked")


# ---------------------------------------------------------------------------------------------- budget
def test_the_memory_limit_is_read_when_a_deadline_is_made(monkeypatch):
    monkeypatch.setattr(budget, "MEMORY_LIMIT_BYTES", budget.FROM_ENVIRONMENT)
    monkeypatch.setenv("DIMCALC_MEMORY_LIMIT_MB", "7")
    assert budget.memory_limit() == 7 << 20
    assert Deadline(None)._memory_limit == 7 << 20
    monkeypatch.setenv("DIMCALC_MEMORY_LIMIT_MB", "0")  # changed after import and after a first deadline
    assert Deadline(None)._memory_limit is None
    monkeypatch.delenv("DIMCALC_MEMORY_LIMIT_MB")
    assert Deadline(None)._memory_limit == 1280 << 20
    assert Deadline(None, memory_limit=5)._memory_limit == 5


def test_tick_reads_the_clock_once_in_every_calls(monkeypatch):
    reads = []
    d = Deadline(None, memory_limit=None)
    monkeypatch.setattr(d.__class__, "expired", lambda self: reads.append(1) or False)
    for _ in range(640):
        d.tick(64)
    assert len(reads) == 10
    reads.clear()
    for _ in range(5):
        d.tick()
    assert len(reads) == 5


def test_an_expired_tick_stays_expired():
    d = Deadline(1e-9)
    assert [d.tick(4) for _ in range(6)] == [False, False, False, True, True, True]


def test_the_stop_carries_one_stats_record_across_processes():
    stop = SearchStopped("memory", stats=SearchStats(nodes=3, tests=9, extra={"triple_rows": 1}))
    back = pickle.loads(pickle.dumps(stop))
    assert back.reason == "memory" and back.stats == stop.stats and back.info is back.stats
    stop.info = {"nodes": 1, "tests": 2, "cells": 5}  # an engine's counters become the record
    assert stop.stats == SearchStats(nodes=1, tests=2, extra={"cells": 5})
    assert set(SearchStats().as_dict()) == {"nodes", "tests", "elapsed", "stopped"}


def test_a_deadline_travels_as_the_time_left():
    d = Deadline(30.0, memory_limit=None)
    time.sleep(0.05)
    back = pickle.loads(pickle.dumps(d))
    assert back.remaining() is not None and back.remaining() <= 29.96
    gone = Deadline(1e-9)
    assert gone.expired() and pickle.loads(pickle.dumps(gone)).reason == "time"


# ---------------------------------------------------------------------------------------------- pool
def _pieces(outcomes, delays):
    """A piece function: outcome None (refuted), an int (answer) or "stop"; piece i sleeps delays[i]."""

    def piece(i):
        time.sleep(delays[i])
        if outcomes[i] == "stop":
            raise SearchStopped("time", stats=SearchStats(nodes=1))
        return outcomes[i], {"nodes": 1, "piece": i}

    return piece


def _serial(outcomes):
    for i, o in enumerate(outcomes):
        if o == "stop":
            return "stop", i
        if o is not None:
            return o, i + 1
    return None, len(outcomes)


OUTCOMES = st.lists(st.one_of(st.none(), st.integers(0, 9), st.just("stop")), min_size=1, max_size=12)


@forking
@settings(max_examples=examples(12), deadline=None)
@given(OUTCOMES, st.data())
def test_first_answer_in_two_processes_is_the_one_process_answer(outcomes, data):
    delays = data.draw(
        st.lists(st.sampled_from([0.0, 0.0, 0.002, 0.01]), min_size=len(outcomes), max_size=len(outcomes))
    )
    piece = _pieces(outcomes, delays)
    seen: list = []
    expected, decided = _serial(outcomes)
    if expected == "stop":
        with pytest.raises(SearchStopped) as stop:
            pool.first_answer(piece, len(outcomes), jobs=2, collect=seen.append)
        assert stop.value.reason == "time" and stop.value.stats == SearchStats(nodes=1)
    else:
        assert pool.first_answer(piece, len(outcomes), jobs=2, collect=seen.append) == (expected, decided)
    # every piece before the answer (or the stop) is collected once, in order
    assert [s["piece"] for s in seen if isinstance(s, dict)] == list(range(decided))


@forking
def test_a_dead_worker_has_its_piece_run_again(tmp_path: Path):
    marker = tmp_path / "killed"

    def piece(i):
        if i == 2 and not marker.exists():
            marker.touch()
            os.kill(os.getpid(), signal.SIGKILL)  # the worker dies mid-piece
        return (i if i == 2 else None), i

    assert pool.first_answer(piece, 6, jobs=2) == (2, 3)
    assert marker.exists()


@forking
def test_the_pool_stops_at_the_deadline_while_a_piece_runs():
    start = time.monotonic()
    with pytest.raises(SearchStopped):
        pool.first_answer(lambda i: (time.sleep(30), None), 4, jobs=2, deadline=Deadline(0.3))
    assert time.monotonic() - start < 10  # the workers are killed, not waited for


def test_run_tasks_errors_reach_the_caller():
    def boom(x):
        raise ValueError(f"bad {x}")

    with pytest.raises(ValueError, match="bad"):
        list(pool.run_tasks(boom, [1, 2], jobs=2))


def _fresh(H):
    return HypothesisClass(H.table, num_labels=H.num_labels)


@forking
@settings(max_examples=examples(10), deadline=None)
@given(classes(min_labels=2, max_labels=3, min_points=3, max_points=7, min_rows=4, max_rows=24, biased=True))
def test_solvers_on_two_processes_match_brute_force_and_one_process(H):
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(search, "MIN_PIECE", 1)  # many small pieces
        for solve, brute in ((vc_dimension, brute_vc), (natarajan_dimension, brute_natarajan)):
            if solve is vc_dimension and H.num_labels != 2:
                continue
            one, two = solve(_fresh(H)), solve(_fresh(H), jobs=2)
            assert (two.value, two.exact, two.witness) == (one.value, one.exact, one.witness)
            assert two.verify(H) and two.value == brute(H.table.tolist(), H.n_points)[0]


@forking
def test_a_stopped_pool_search_returns_sound_verified_bounds():
    H = intervals(200)  # VC 2 (closed form), whose refutation takes far longer than the limit
    r = vc_dimension(H, time_limit=0.3, jobs=2)
    assert r.verify(H)
    assert r.exact or (r.lower <= 2 <= r.upper and r.stats["stopped"] == "time limit")


# ---------------------------------------------------------------------------------------------- check
class _Clock:
    def __init__(self, left):
        self.left = left

    def share(self, parts):
        return self.left / parts


def test_check_shares_are_never_below_one_process_shares():
    keys = ["vc", "littlestone", "multiclass_littlestone", "psi_littlestone", "psi_littlestone_uniform", "b"]
    for workers in (1, 2, 3):
        shares = [share for _, share in _payloads(keys, _Clock(60.0), workers)]  # type: ignore[arg-type]
        one = [60.0 / (len(keys) - i) for i in range(len(keys))]
        assert all(s >= o for s, o in zip(shares, one))
        assert shares[-1] == 60.0  # the last one started gets all the time left


# ---------------------------------------------------------------------------------------------- Dask
def test_a_dead_scheduler_address_is_refused_at_once():
    pytest.importorskip("distributed")
    start = time.monotonic()
    with pytest.raises(InvalidParameterError, match="cannot reach a Dask scheduler"):
        vc_dimension(HypothesisClass([[0, 1], [1, 0]]), scheduler="dask://127.0.0.1:9", time_limit=60)
    assert time.monotonic() - start < 5
    with pytest.raises(InvalidParameterError, match="'scheduler' parameter of vc_dimension"):
        vc_dimension(HypothesisClass([[0, 1], [1, 0]]), scheduler=3)


@pytest.fixture(scope="module")
def cluster(local_cluster):
    return local_cluster


def test_dask_pieces_give_the_one_process_answer_and_witness(cluster):
    _, client = cluster
    H = HypothesisClass(np.random.default_rng(3).integers(0, 2, (300, 80), dtype=np.uint8))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(search, "MIN_PIECE", 1)
        one = vc_dimension(_fresh(H))
        two = vc_dimension(_fresh(H), scheduler=client)
    assert (two.value, two.exact, two.witness) == (one.value, one.exact, one.witness) and two.verify(H)
    M = HypothesisClass(np.random.default_rng(0).integers(0, 4, (60, 8)), num_labels=4)
    address = cluster[0].scheduler_address.replace("tcp://", "dask://")
    three = natarajan_dimension(_fresh(M), scheduler=address)  # connected for the call
    assert three.witness == natarajan_dimension(_fresh(M)).witness and three.verify(M)


def test_a_killed_dask_worker_has_its_piece_run_again(cluster, tmp_path: Path):
    _, client = cluster
    marker = tmp_path / "killed"

    def piece(i):
        if i == 1 and not marker.exists():
            marker.touch()
            os.kill(os.getpid(), signal.SIGKILL)  # this worker process dies mid-piece
        time.sleep(0.05)
        return (i if i >= 1 else None), {"nodes": 1}

    assert pool.first_answer(piece, 4, scheduler=client, deadline=Deadline(120)) == (1, 2)
    assert marker.exists()


def test_queued_dask_pieces_answer_in_piece_order(cluster):
    """Two pieces in flight per worker (pool.QUEUED): later pieces finish first, the answer is still the first
    piece's in order, and a stop before it is a stop."""
    _, client = cluster

    def piece(i):
        time.sleep(0.3 if i == 1 else 0.01)
        return (i if i % 2 else None), {"nodes": 1}

    assert pool.QUEUED >= 2
    assert pool.first_answer(piece, 8, scheduler=client) == (1, 2)

    def stopped(i):
        if i == 0:
            time.sleep(0.2)
            raise SearchStopped("time")
        return i, {"nodes": 1}

    with pytest.raises(SearchStopped):
        pool.first_answer(stopped, 6, scheduler=client)


def test_dask_tasks_are_taken_only_as_workers_free_up(cluster):
    """run_tasks (dimcalc check's dimensions) takes a payload only when a worker thread is free: a payload may be
    sized when it is taken (a share of the time left), so it is not queued ahead as first_answer's pieces are."""
    _, client = cluster
    slots = sum(client.nthreads().values())
    taken: list[float] = []
    start = time.monotonic()

    def payloads():
        for i in range(slots + 1):
            taken.append(time.monotonic() - start)
            yield i

    done = list(pool.run_tasks(time.sleep, (0.3 for _ in payloads()), scheduler=client))
    assert len(done) == slots + 1
    assert max(taken[:slots]) < 0.3 <= taken[slots]


def test_prepare_runs_here_before_forked_workers_only(cluster):
    """``prepare`` (loading the compiled kernel) serves forked workers; with a scheduler the cluster's workers run
    the pieces, so this process skips it (it cost the client ~1 s of kernel loading, in series)."""
    _, client = cluster
    calls: list[int] = []

    def piece(i):
        return (i if i >= 2 else None), {"nodes": 1}

    assert pool.first_answer(piece, 4, scheduler=client, prepare=lambda: calls.append(1)) == (2, 3)
    assert calls == []
    if pool.can_fork():
        assert pool.first_answer(piece, 4, jobs=2, prepare=lambda: calls.append(1)) == (2, 3)
        assert calls == [1]


def test_a_dask_search_stops_with_sound_bounds(cluster):
    _, client = cluster
    H = intervals(200)  # VC 2 (closed form)
    r = vc_dimension(H, time_limit=0.5, scheduler=client)
    assert r.verify(H) and r.lower <= 2 <= r.upper
    assert r.exact or r.stats["stopped"] == "time limit"


# ---------------------------------------------------------------------------------------------- bench
def test_bench_jobs_adds_the_speedup_of_each_case(monkeypatch):
    from dimcalc import bench

    def suite(options):
        H = HypothesisClass(np.random.default_rng(3).integers(0, 2, (60, 20), dtype=np.uint8))
        seconds, peak, r = bench.measure(lambda: vc_dimension(_fresh(H), jobs=options.jobs), repeat=1, memory=False)
        return [bench.BenchRow("t", "random 60x20", r.value, r.exact, seconds, peak, extra={"jobs": options.jobs})]

    monkeypatch.setitem(bench.SUITES, "t-jobs", (suite, "test"))
    [row] = bench.run_suites(["t-jobs"], bench.BenchOptions(repeat=1), jobs=[1, 2])
    assert row.extra["jobs"] == 1 and set(row.extra["seconds_by_jobs"]) == {1, 2}
    assert row.speedup is not None and row.speedup > 0 and "differ" not in row.note


def test_bench_runs_the_cluster_suites_settings_in_turns(monkeypatch):
    """``--jobs 1,2`` on a suite of CLUSTER_SUITES: one call with both settings (the suite runs each case at
    both in turns: dimcalc.bench._child.interleaved_runs); another suite: one whole call per setting."""
    from dimcalc import bench

    calls: list[tuple] = []

    def suite(options):
        calls.append((options.settings, options.jobs))
        return [bench.BenchRow("t", "case", 1, True, 1.0, 0.0)]

    monkeypatch.setitem(bench.SUITES, "t-turns", (suite, "test"))
    monkeypatch.setitem(bench.SUITES, "t-whole", (suite, "test"))
    monkeypatch.setattr(bench, "CLUSTER_SUITES", (*bench.CLUSTER_SUITES, "t-turns"))
    bench.run_suites(["t-turns"], bench.BenchOptions(repeat=1), jobs=[1, 2])
    assert calls == [((1, 2), 1)]
    calls.clear()
    [row] = bench.run_suites(["t-whole"], bench.BenchOptions(repeat=1), jobs=[1, 2])
    assert calls == [((), 1), ((), 2)] and row.speedup == 1.0


@pytest.mark.slow  # starts a Dask LocalCluster: make test runs it, make test-fast does not
def test_bench_cluster_setting_runs_the_hard_suite_on_a_local_cluster(capsys):
    """``--jobs 1,cluster:2``: the same answers on a 2-worker LocalCluster; other suites refused before running."""
    pytest.importorskip("distributed")
    from dimcalc import bench

    assert bench.parse_jobs("1, 2,cluster:2") == [1, 2, "cluster:2"]
    for bad in ("0", "cluster:0", "cluster:", "2,x"):
        with pytest.raises(ValueError, match="cluster:N"):
            bench.parse_jobs(bad)
    with pytest.raises(ValueError, match="not vc"):
        bench.run_suites(["vc"], bench.BenchOptions(quick=True, repeat=1), jobs=[1, "cluster:2"])
    assert main(["bench", "--suite", "littlestone", "--jobs", "cluster:2"]) == 2
    assert "runs only the suites hard" in capsys.readouterr().err
    opts = bench.BenchOptions(quick=True, repeat=1, only=("64x2000",))
    [row] = bench.run_suites(["hard"], opts, jobs=[1, "cluster:2"])
    assert row.exact and row.answer == 5 and "differ" not in row.note and "NOT VERIFIED" not in row.note
    assert set(row.extra["seconds_by_jobs"]) == {1, "cluster:2"} and row.speedup is not None
