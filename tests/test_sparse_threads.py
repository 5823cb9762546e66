"""The sparse VC search on threads (:mod:`dimcalc.vc.sparse_threads`): the value and witness of one thread.

The brute-force property tests of ``tests/test_sparse.py`` run every class with ``jobs=1`` and ``jobs=3``;
here, classes with many roots, and threads forced to step a few nodes at a time so that they interleave
(a set found below a later root first, then below an earlier one).
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from brute_sparse import closed_neighbourhoods, shattered
from dimcalc import HypothesisClass, vc_dimension
from dimcalc.errors import InvalidParameterError
from dimcalc.vc import sparse as sparse_vc
from dimcalc.vc import sparse_jit, sparse_threads

pytestmark = pytest.mark.skipif(not sparse_jit.available(), reason="threads run the compiled kernels only")


def _graphs(seed: int) -> list[nx.Graph]:
    return [
        nx.powerlaw_cluster_graph(400, 6, 0.4, seed=seed),
        nx.gnp_random_graph(120, 0.25, seed=seed),
        nx.random_geometric_graph(500, 0.12, seed=seed),
    ]


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("threads", [2, 4])
def test_threads_give_the_witness_of_one_thread_when_they_interleave(seed, threads, monkeypatch):
    monkeypatch.setattr(sparse_vc, "TRIAL_NODES", 0)  # the pair-graph search from d = 3, at once
    monkeypatch.setattr(sparse_threads, "FIRST_BUDGET", 4)  # steps of a few nodes: the threads interleave
    for G in _graphs(seed):
        H = HypothesisClass.from_networkx(G, storage="sparse")
        one = vc_dimension(H, jobs=1)
        many = vc_dimension(H, jobs=threads)
        assert one.exact and many.exact and many.stats["threads"] == threads
        assert (many.value, many.witness) == (one.value, one.witness)
        assert shattered(closed_neighbourhoods({v: set(G[v]) for v in G}), many.witness)


def test_the_default_uses_every_usable_core_and_jobs_1_one_thread():
    H = HypothesisClass.from_networkx(nx.petersen_graph(), storage="sparse")
    cores = sparse_threads.usable_cores()
    assert vc_dimension(H).stats.get("threads", 1) == cores
    assert "threads" not in vc_dimension(H, jobs=1).stats


def test_a_stopped_threaded_search_returns_proven_bounds():
    G = nx.powerlaw_cluster_graph(3000, 8, 0.5, seed=2)
    H = HypothesisClass.from_networkx(G, storage="sparse")
    exact = vc_dimension(H, jobs=1)
    for limit in (1e-6, 0.05):
        stopped = vc_dimension(H, jobs=2, time_limit=limit)
        assert stopped.lower <= exact.value <= stopped.upper
        assert stopped.verify(H)
        if not stopped.exact:
            assert stopped.stats["stopped"] == "time limit"


def test_jobs_is_refused_in_one_line_when_not_a_positive_int():
    H = HypothesisClass.from_networkx(nx.petersen_graph(), storage="sparse")
    with pytest.raises(InvalidParameterError, match="jobs"):
        vc_dimension(H, jobs=0)
    rng = np.random.default_rng(0)
    with pytest.raises(InvalidParameterError, match="jobs"):
        vc_dimension(H, jobs=float(rng.uniform(1, 2)))


@pytest.mark.parametrize("d", [3, 4])
def test_the_pair_graph_on_threads_is_that_of_one_thread_in_its_order(d):
    from dimcalc.search.budget import Deadline

    G = nx.powerlaw_cluster_graph(6000, 5, 0.5, seed=d)
    H = HypothesisClass.from_networkx(G, storage="sparse")
    table = H.distinct_sparse_table
    transpose = table.transpose()
    degrees = np.diff(transpose[0])
    K = sparse_jit.kernels(True)
    one = sparse_vc.pair_graph(table, transpose, degrees, d, Deadline(None), K)
    assert len(sparse_vc.candidates(degrees, table.n_rows, d).nonzero()[0]) > 4 * 256  # several steps
    for threads in (2, 3):
        many = sparse_vc.pair_graph(table, transpose, degrees, d, Deadline(None), K, threads)
        assert all(np.array_equal(a, b) for a, b in zip(one, many, strict=True))
    assert len(one[0]) > 0
