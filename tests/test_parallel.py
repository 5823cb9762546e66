"""``jobs=``: searches shared by worker processes give the answer of one process.

The VC-type search cuts the root's candidates into ordered pieces
(:mod:`dimcalc.vc.dfs`) and :func:`dimcalc.search.pool.first_answer` takes the
first piece's answer in order: value *and* witness equal those of ``jobs=1``.
Small classes are one piece, so the tests make pieces of one candidate.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

from brute_vc import brute_natarajan, brute_vc
from dimcalc import HypothesisClass, graph_dimension, natarajan_dimension, vc_dimension
from dimcalc.errors import InvalidParameterError
from dimcalc.search.budget import Deadline, SearchStopped
from dimcalc.search.pool import can_fork, first_answer
from dimcalc.vc import dfs
from profile_examples import examples
from soundness import assert_sound
from strategies import classes

pytestmark = pytest.mark.skipif(not can_fork(), reason="worker processes are forked")

SOLVERS = {"vc": vc_dimension, "natarajan": natarajan_dimension, "graph": graph_dimension}


def _same(H, kind):
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(dfs, "MIN_PIECE", 1)
        one = SOLVERS[kind](H)
        two = SOLVERS[kind](H, jobs=2)
    assert (two.value, two.exact, two.witness) == (one.value, one.exact, one.witness)
    assert two.verify(H)
    return two


@settings(max_examples=examples(15), deadline=None)
@given(classes(min_labels=2, max_labels=2, min_points=3, max_points=7, min_rows=4, max_rows=24))
def test_vc_with_two_jobs_is_the_one_process_answer(H):
    r = _same(H, "vc")
    assert r.value == brute_vc(H.table.tolist(), H.n_points)[0]


@settings(max_examples=examples(15), deadline=None)
@given(classes(min_labels=3, max_labels=4, min_points=3, max_points=6, min_rows=4, max_rows=24, biased=True))
def test_natarajan_and_graph_with_two_jobs_are_the_one_process_answers(H):
    r = _same(H, "natarajan")
    assert r.value == brute_natarajan(H.table.tolist(), H.n_points)[0]
    _same(H, "graph")


def test_a_mid_size_class_has_several_pieces_and_the_same_witness():
    H = HypothesisClass(np.random.default_rng(3).integers(0, 2, (300, 80), dtype=np.uint8))
    one, two = vc_dimension(H), vc_dimension(H, jobs=2)
    assert one.exact and two.exact
    assert (two.value, two.witness) == (one.value, one.witness)
    assert two.stats["nodes"] == one.stats["nodes"]  # every piece's work is counted once


def test_a_stopped_parallel_search_returns_bounds():
    H = HypothesisClass(np.random.default_rng(1).integers(0, 2, (1000, 40), dtype=np.uint8))
    r = vc_dimension(H, time_limit=0.3, jobs=2)
    assert_sound(r, H)
    assert 1 <= r.lower


def test_first_answer_is_the_first_in_order_and_reports_a_stop():
    def piece(i):
        if i == 1:
            raise SearchStopped("time")
        return (i if i >= 3 else None), {}

    with pytest.raises(SearchStopped):
        first_answer(piece, 5, jobs=2, deadline=Deadline(None))
    assert first_answer(lambda i: ((i if i in (2, 4) else None), {}), 6, jobs=2) == (2, 3)


@pytest.mark.parametrize("jobs", [0, -1, 1.5, True, "2"])
def test_jobs_must_be_a_positive_int(jobs):
    H = HypothesisClass.from_table([[0, 1], [1, 0]])
    with pytest.raises(InvalidParameterError, match="'jobs' parameter of vc_dimension"):
        vc_dimension(H, jobs=jobs)


def _vc_value_in_a_pool_worker(seed):
    H = HypothesisClass(np.random.default_rng(seed).integers(0, 2, (300, 80), dtype=np.uint8))
    return vc_dimension(H, jobs=2).value


def test_jobs_inside_a_daemonic_pool_worker_run_in_that_worker():
    import multiprocessing

    with multiprocessing.get_context("fork").Pool(1) as pool:
        got = pool.map(_vc_value_in_a_pool_worker, [0])
    H = HypothesisClass(np.random.default_rng(0).integers(0, 2, (300, 80), dtype=np.uint8))
    assert got == [vc_dimension(H).value]
