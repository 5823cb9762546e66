"""``jobs=``: the root's candidate splits in worker processes give the same answers as one process.

Small random classes (a few seeds, not a property test: every call starts a
pool of worker processes).  The value and exactness must equal those of
``jobs=1``, the witness must pass the independent checker, and two runs with
``jobs=2`` must give the same witness (the answer is the first succeeding
candidate in search order, and the root's subtrees are re-found in the
calling process on its own memo: see ``dimcalc.littlestone.engine.Engine._parallel_at_least``).
"""

from __future__ import annotations

import numpy as np
import pytest

from dimcalc import HypothesisClass
from dimcalc.bench.littlestone import boxes_class, lines_class
from dimcalc.errors import InvalidParameterError
from dimcalc.littlestone import littlestone_dimension, multiclass_littlestone_dimension, psi_littlestone_dimension


def _random(seed: int, rows: int, points: int, labels: int) -> HypothesisClass:
    rng = np.random.default_rng(seed)
    return HypothesisClass(rng.integers(0, labels, (rows, points)), num_labels=labels)


SOLVERS = {
    "LD": lambda H, jobs: littlestone_dimension(H, jobs=jobs),
    "MLD": lambda H, jobs: multiclass_littlestone_dimension(H, jobs=jobs),
    "bin": lambda H, jobs: psi_littlestone_dimension(H, "bin", jobs=jobs),
    "uniform N": lambda H, jobs: psi_littlestone_dimension(H, "N", uniform=True, jobs=jobs),
    "B 4 labels": lambda H, jobs: psi_littlestone_dimension(H, "B", jobs=jobs),
}


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_jobs_2_gives_the_answers_of_one_process(name, seed):
    labels = 2 if name == "LD" else 4
    H = _random(seed, 12 + 9 * seed, 5 + seed, labels)
    one = SOLVERS[name](H, 1)
    two = SOLVERS[name](H, 2)
    assert (two.value, two.exact, two.kind) == (one.value, one.exact, one.kind)
    assert two.verify(H, debug=True)
    assert SOLVERS[name](H, 2).witness == two.witness


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_jobs_2_through_the_workers_gives_the_answers_of_one_process(name, monkeypatch):
    """Every root query past its first candidate in the workers (``PARALLEL_MIN_NODES = PARALLEL_WIDE = 0``): the value of one
    process, a verified witness, the same witness on two runs (re-found on this process's memo)."""
    from dimcalc.littlestone import engine, parallel

    calls: list[int] = []
    real = parallel.RootPool.first_success

    def counted(self, *args, **kwargs):
        calls.append(len(args[0]))
        return real(self, *args, **kwargs)

    for seed in range(4):
        # values below floor(log2 |H|): the queries for value + 1 are refuted, past the first candidate in the workers
        if name == "LD":
            H = lines_class(5) if seed % 2 else boxes_class(3 + seed)
        else:
            H = _random(10 + seed, 30 + 10 * seed, 3, 4)
        one = SOLVERS[name](H, 1)
        with monkeypatch.context() as m:
            m.setattr(engine, "PARALLEL_MIN_NODES", 0)
            m.setattr(engine, "PARALLEL_WIDE", 0)
            m.setattr(parallel.RootPool, "first_success", counted)
            two = SOLVERS[name](H, 2)
            again = SOLVERS[name](H, 2)
        assert (two.value, two.exact, two.kind) == (one.value, one.exact, one.kind)
        assert two.verify(H, debug=True)
        assert again.witness == two.witness
    if name in ("LD", "MLD", "uniform N"):  # Ψ^bin and Ψ^B of these classes reach floor(log2 |H|): nothing refuted
        assert sum(calls) > 0  # the workers decided root candidates (the refutations of value + 1)


def test_only_a_wide_root_query_goes_to_the_workers(monkeypatch):
    """Lines over Z_37^2: the query D >= 3 has 1 369 candidates (>= PARALLEL_WIDE), each refuted in a node or two, and
    passes PARALLEL_MIN_NODES (here 500) nodes: its candidates go to the workers; the value and a verified witness
    are those of one process, and the witness is the same on two runs.  Boxes over 8 x 8 (64 candidates, narrow):
    searched as one process searches them, the same witness as jobs=1, no worker."""
    from dimcalc.littlestone import engine, parallel

    calls: list[int] = []
    real = parallel.RootPool.first_success

    def counted(self, *args, **kwargs):
        calls.append(len(args[0]))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(parallel.RootPool, "first_success", counted)
    monkeypatch.setattr(engine, "PARALLEL_MIN_NODES", 500)
    H = lines_class(37)
    assert engine.PARALLEL_WIDE < H.n_points
    one = littlestone_dimension(H, jobs=1)
    two = littlestone_dimension(H, jobs=2)
    assert (one.value, one.exact) == (two.value, two.exact) == (2, True)
    assert calls and max(calls) >= engine.PARALLEL_WIDE - 1  # the wide query's candidates after the first
    assert two.verify(H, debug=True) and littlestone_dimension(H, jobs=2).witness == two.witness
    calls.clear()
    monkeypatch.setattr(engine, "PARALLEL_MIN_NODES", 0)
    B = boxes_class(8)
    one, two = littlestone_dimension(B, jobs=1), littlestone_dimension(B, jobs=2)
    assert not calls and (two.value, two.exact, two.witness) == (one.value, one.exact, one.witness)


@pytest.mark.parametrize("name", sorted(SOLVERS))
def test_a_tree_written_in_pieces_is_the_tree_of_one_process(name, monkeypatch):
    """``jobs=2`` writes a deep witness tree as the subtrees below its top levels in worker processes
    (``TreeWriter.tree``; forced here from depth 2, however cheap its first piece): the very tree ``jobs=1``
    writes, on every family."""
    from dimcalc.littlestone import memo

    pieces: list[int] = []
    real = memo.run_tasks

    def counted(run, payloads, **kwargs):
        pieces.append(len(payloads))
        return real(run, payloads, **kwargs)

    monkeypatch.setattr(memo, "run_tasks", counted)
    monkeypatch.setattr(memo, "PARALLEL_TREE_DEPTH", 2)
    monkeypatch.setattr(memo, "PARALLEL_TREE_SECONDS", 0.0)
    for seed in range(3):
        labels = 2 if name == "LD" else 4
        H = _random(seed, 24 + 8 * seed, 6 + seed, labels)
        one, two = SOLVERS[name](H, 1), SOLVERS[name](H, 2)
        assert (two.value, two.exact, two.witness) == (one.value, one.exact, one.witness)
        assert two.verify(H, debug=True)
    if name not in ("uniform N", "B 4 labels"):  # prefixed trees are written in one process; these Ψ^B classes
        assert pieces and max(pieces) > 1  # are settled by a direct tree of depth floor(log2 |H|), not the engine's


def test_tree_pieces_keep_the_deadline_and_start_no_worker_when_cheap(monkeypatch):
    """The engine's tree at every depth up to its bound: written in pieces by workers, the same as in one process;
    an expired deadline stops them (``SearchStopped``); pieces cheaper than ``PARALLEL_TREE_SECONDS`` are all
    written here (no worker), the same tree again."""
    from dimcalc.littlestone import memo
    from dimcalc.littlestone.engine import Engine
    from dimcalc.littlestone.splitters import splitter_for
    from dimcalc.search.budget import Deadline, SearchStopped

    monkeypatch.setattr(memo, "PARALLEL_TREE_DEPTH", 2)
    monkeypatch.setattr(memo, "PARALLEL_TREE_SECONDS", 0.0)
    H = boxes_class(6)
    engine = Engine(H, splitter_for(H, "LD", None, Deadline(None)))
    lower, upper, _ = engine.solve(H.full_mask)
    assert lower == upper >= 4
    for t in range(lower + 1):
        assert engine.tree(H.full_mask, t, jobs=2) == engine.tree(H.full_mask, t)
    with pytest.raises(SearchStopped):
        engine.tree(H.full_mask, lower, deadline=Deadline(0.0), jobs=2)
    calls: list[int] = []
    monkeypatch.setattr(memo, "run_tasks", lambda *a, **k: calls.append(1))
    monkeypatch.setattr(memo, "PARALLEL_TREE_SECONDS", 1e9)
    assert engine.tree(H.full_mask, lower, jobs=2) == engine.tree(H.full_mask, lower) and not calls


def test_jobs_on_a_class_with_many_failing_root_candidates():
    H = lines_class(5)  # LDim 2: the query t = 3 refutes every root split in the workers
    r = littlestone_dimension(H, jobs=2)
    assert (r.value, r.exact) == (2, True) and r.verify(H, debug=True)


def test_jobs_under_a_time_limit_stop_with_bounds():
    H = lines_class(31)
    r = littlestone_dimension(H, jobs=2, time_limit=0.05)
    # Sound either way (seen once exact under the full suite's load): exact and right, or stopped with bounds.
    assert r.exact or r.stats["stopped"] == "time limit"
    assert r.lower is not None and r.upper is not None and r.lower <= 2 <= r.upper
    assert r.verify(H, debug=True)


@pytest.mark.parametrize("jobs", [0, -1, 1.5, True, "2"])
def test_jobs_must_be_a_positive_int(jobs):
    with pytest.raises(InvalidParameterError, match="jobs"):
        littlestone_dimension(lines_class(2), jobs=jobs)


def _value_with_jobs(seed: int) -> int | None:
    return littlestone_dimension(_random(seed, 20, 6, 2), jobs=2).value


def test_jobs_inside_a_daemonic_worker_runs_in_that_process():
    """A multiprocessing.Pool worker is daemonic and may not start processes: jobs=2 there searches in the worker."""
    import multiprocessing

    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    with context.Pool(1) as pool:
        value = pool.apply(_value_with_jobs, (4,))
    assert value == littlestone_dimension(_random(4, 20, 6, 2)).value


# ---------------------------------------------------------------- Dask: the root's pieces on a cluster
@pytest.fixture(scope="module", params=[True, False], ids=["processes", "threads"])
def dask_client(request):
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=request.param, dashboard_address=None, silence_logs=50
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield client


DASK_SOLVERS = {
    "LD": lambda H, **kw: littlestone_dimension(H, **kw),
    "MLD": lambda H, **kw: multiclass_littlestone_dimension(H, **kw),
    "bin": lambda H, **kw: psi_littlestone_dimension(H, "bin", **kw),
    "uniform N": lambda H, **kw: psi_littlestone_dimension(H, "N", uniform=True, **kw),
}


@pytest.mark.parametrize("name", sorted(DASK_SOLVERS))
def test_dask_scheduler_gives_the_answers_of_one_process(dask_client, name):
    """The root's candidate splits on two Dask workers: the value of one process, a verified witness, and the
    witness of ``jobs=2`` (first succeeding root split in order, its subtrees re-found in this process)."""
    labels = 2 if name == "LD" else 4
    for seed in (0, 1):
        H = _random(seed, 14 + 9 * seed, 5 + seed, labels)
        one = DASK_SOLVERS[name](H)
        dask = DASK_SOLVERS[name](H, scheduler=dask_client)
        assert (dask.value, dask.exact, dask.kind) == (one.value, one.exact, one.kind)
        assert dask.verify(H, debug=True)
        assert dask.witness == DASK_SOLVERS[name](H, jobs=2).witness


def test_dask_scheduler_by_address_refutes_every_root_split(dask_client):
    H = lines_class(5)  # LDim 2: the query t = 3 refutes every root split on the workers
    if not dask_client.scheduler.address.startswith("tcp://"):
        pytest.skip("the threads cluster is in this process: it has no TCP address (the processes one has)")
    address = dask_client.scheduler.address.replace("tcp://", "dask://")
    r = littlestone_dimension(H, scheduler=address)
    assert (r.value, r.exact) == (2, True) and r.verify(H, debug=True)


def test_dask_scheduler_under_a_time_limit_stops_with_bounds(dask_client):
    H = lines_class(31)
    r = littlestone_dimension(H, scheduler=dask_client, time_limit=0.3)
    # Sound either way (a fast machine may finish in 0.3 s): exact and right, or stopped with proven bounds.
    assert r.verify(H, debug=True)
    if r.exact:
        assert r.value == 2
    else:
        assert r.stats["stopped"] == "time limit"
        assert r.lower is not None and r.upper is not None and r.lower <= 2 <= r.upper


def test_scheduler_must_be_a_client_or_an_address():
    with pytest.raises(InvalidParameterError, match="scheduler"):
        littlestone_dimension(lines_class(2), scheduler=3)
