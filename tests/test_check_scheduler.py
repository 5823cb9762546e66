"""``check_class(H, dims, scheduler=...)`` on one dimension sends its search to the cluster (issue 21/22).

It ran locally and silently: the scheduler was only used for many dimensions side by side.  Now the
one search gets it when its solver takes ``scheduler`` (the VC-type solvers); the answer and witness
are the one-process ones.  Runs on a ``distributed.LocalCluster``.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest

from dimcalc import HypothesisClass
from dimcalc.reports import check as check_module
from dimcalc.reports.check import check_class
from dimcalc.search import pool
from dimcalc.vc import dfs as search


@pytest.fixture(scope="module")
def client(local_cluster):
    return local_cluster[1]


def _fresh(H: HypothesisClass) -> HypothesisClass:
    """A copy without the derived tables a first run caches, so both runs search."""
    return HypothesisClass(H.table, num_labels=H.num_labels)


# make test-fast runs vc on the cluster; make test runs all three.
@pytest.mark.parametrize(
    "dims",
    [
        ["vc"],
        pytest.param(["natarajan"], marks=pytest.mark.slow),
        pytest.param(["vc", "graph"], marks=pytest.mark.slow),
    ],
)
def test_one_dimension_check_runs_on_the_cluster(client, dims, monkeypatch):
    """The solver connects to the cluster it is given (it ran locally, silently), and answers as one process."""
    monkeypatch.setattr(search, "MIN_PIECE", 1)
    rows = np.random.default_rng(3).integers(0, 2, (300, 80), dtype=np.uint8)  # binary: vc, graph one search
    H = HypothesisClass(rows) if dims != ["natarajan"] else HypothesisClass(rows * 2 + 1 - rows, num_labels=3)
    one = check_class(_fresh(H), dims)
    real, seen = pool.connected, []

    def connected(scheduler, deadline):
        seen.append(scheduler)
        return real(scheduler, deadline)

    monkeypatch.setattr(pool, "connected", connected)
    there = check_class(_fresh(H), dims, scheduler=client)
    assert seen == [client]  # one search, handed the cluster
    for key in dims:
        a, b = one.dimensions[key], there.dimensions[key]
        assert (b.value, b.exact, b.witness) == (a.value, a.exact, a.witness) and b.verify(H)


def test_scheduler_and_jobs_given_only_to_solvers_that_take_them():
    def takes_both(H, *, time_limit=None, progress=False, jobs=1, scheduler=None): ...

    def takes_jobs(H, *, time_limit=None, progress=False, jobs=1): ...

    def takes_neither(H, *, time_limit=None, progress=False): ...

    spread = check_module._spread
    assert spread(takes_both, 2, "dask://x:1") == {"jobs": 2, "scheduler": "dask://x:1"}
    assert spread(takes_jobs, 2, "dask://x:1") == {"jobs": 2}
    assert spread(takes_neither, 2, "dask://x:1") == {}
    assert spread(takes_both, None, None) == {}  # jobs not given: the solver's own default
    assert spread(takes_both, 1, None) == {"jobs": 1}  # given: passed (one core even for a sparse class's search)
    solvers = check_module._solvers()
    for key in ("vc", "natarajan", "graph"):
        assert "scheduler" in inspect.signature(solvers[key]).parameters
