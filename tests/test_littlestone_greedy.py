"""The greedy mistake tree (dimcalc.littlestone.greedy): a certified lower bound that settles big classes."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dimcalc.littlestone.api as api
from brute_littlestone import brute_littlestone
from dimcalc import HypothesisClass, generators, littlestone_dimension, multiclass_littlestone_dimension
from dimcalc.littlestone.greedy import greedy_lower_bound, greedy_mistake_tree
from dimcalc.search.budget import Deadline
from dimcalc.witnesses.tree_checks import is_mistake_tree, tree_depth
from strategies import classes

BINARY = classes(min_labels=2, max_labels=2, min_points=1, max_points=7, max_rows=24, biased=True)


@given(BINARY, st.integers(0, 5), st.sampled_from(["dense", "bits"]))
def test_greedy_tree_is_shattered_and_below_the_dimension(H, depth, storage):
    """Every tree it returns certifies its depth (independent checker), never above the brute-force LDim."""
    if storage == "bits":
        H = HypothesisClass(H.table, storage="bits")
    tree = greedy_mistake_tree(H, depth, Deadline(None))
    if tree is not None:
        assert is_mistake_tree(H, tree) and tree_depth(tree) == depth
        assert depth <= brute_littlestone(H)
    got, best = greedy_lower_bound(H, H.log2_size(), Deadline(None))
    assert (got == 0) == (best is None)
    if best is not None:
        assert is_mistake_tree(H, best) and tree_depth(best) == got <= brute_littlestone(H)


@pytest.mark.parametrize("n", [1, 2, 6, 7, 100, 1023, 3000])
def test_thresholds_by_halving(n):
    """Thresholds over n points: the halving tree has depth floor(log2(n + 1)) = LDim."""
    H = generators.thresholds(n)
    depth, tree = greedy_lower_bound(H, H.log2_size(), Deadline(None))
    assert depth == int(np.log2(n + 1)) == H.log2_size()
    assert is_mistake_tree(H, tree) and tree_depth(tree) == depth


def test_a_big_class_is_settled_by_the_greedy_tree(monkeypatch):
    H = HypothesisClass(generators.thresholds(511).table, storage="bits")
    monkeypatch.setattr(api, "GREEDY_MIN_CELLS", 0)
    r = littlestone_dimension(H)
    assert r.exact and r.value == 9 and "greedy" in r.stats["method"]
    assert r.verify(H)


def test_a_stopped_search_keeps_the_greedy_lower_bound(monkeypatch):
    """When the exact search stops below it, the greedy tree is the lower bound (and the witness)."""
    H = generators.boxes(3, 2)  # greedy 8 below floor(log2 1297) = 10
    monkeypatch.setattr(api, "GREEDY_MIN_CELLS", 0)
    monkeypatch.setattr(
        api, "solve_root", lambda engine, family, maps, jobs, scheduler=None: (0, engine.H.log2_size(), True)
    )
    depth, _ = greedy_lower_bound(H, H.log2_size(), Deadline(None))
    r = littlestone_dimension(H, time_limit=5)
    assert depth >= 2 and not r.exact and r.lower == depth
    assert r.verify(H) and is_mistake_tree(H, r.witness.to_json()) and tree_depth(r.witness.to_json()) == depth


def test_greedy_stops_at_the_deadline():
    H = generators.thresholds(255)
    assert greedy_lower_bound(H, 8, Deadline(1e-9)) == (0, None)


def test_multiclass_littlestone_of_a_big_binary_class_uses_the_greedy_tree(monkeypatch):
    """On a binary class MLD = LDim: the greedy tree, io-labelled with [0, 1], settles it too."""
    H = HypothesisClass(generators.thresholds(255).table, storage="bits")
    monkeypatch.setattr(api, "GREEDY_MIN_CELLS", 0)
    r = multiclass_littlestone_dimension(H)
    assert r.exact and r.value == 8 and "greedy" in r.stats["method"]
    assert r.verify(H) and r.witness["labels"] == [0, 1]


@given(BINARY, st.sampled_from(["dense", "bits"]))
def test_one_pass_depth_is_that_of_the_first_greedy_tree_from_the_top(H, storage):
    """``deepest_greedy_tree`` in one pass = the first ``greedy_tree`` that completes trying upper, upper - 1, ...;
    its (cut) tree passes the independent checker at that depth."""
    from dimcalc.littlestone.greedy import _columns, _MistakeTreeSpace
    from dimcalc.search.greedy import deepest_greedy_tree, greedy_tree

    if storage == "bits":
        H = HypothesisClass(H.table, storage="bits")
    space = _MistakeTreeSpace(H, Deadline(None))
    root = space.root(_columns(H, Deadline(None)))
    upper = H.log2_size()
    tries = [k for k in range(upper, 0, -1) if greedy_tree(space, root, k) is not None]
    depth, tree = deepest_greedy_tree(space, root, upper)
    assert depth == (tries[0] if tries else 0)
    if tree is not None:
        assert is_mistake_tree(H, tree) and tree_depth(tree) == depth


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(65, 400),
    st.integers(2, 14),
    st.sampled_from([0.5, 0.2, 0.05]),
    st.sampled_from([1 << 22, 7]),
)
def test_the_compiled_greedy_steps_build_the_numpy_tree(seed, rows, points, density, step):
    """The compiled most-balanced column, restriction and compaction (``_counts_impl.greedy_*``) give the very
    tree of the numpy steps, over several words (compacted version spaces) and in tiny steps (``STEP_WORDS = 7``:
    many chunks, the first perfect split in a later one).  The compiled most-balanced step is counted: it must
    run whenever the class has a split at all, or the comparison would be of numpy with itself."""
    import dimcalc.littlestone.greedy as greedy
    from dimcalc.littlestone import counts

    pytest.importorskip("numba")
    counts.load_kernels(counts.COMPILED_MIN_WORK, None)
    kernels = counts.compiled_kernels()
    assert kernels is not None
    H = HypothesisClass((np.random.default_rng(seed).random((rows, points)) < density).astype(np.uint8))
    trees, calls = [], []
    balance = kernels.greedy_balance
    saved = greedy.STEP_WORDS, counts.FORCE
    try:
        greedy.STEP_WORDS = step
        kernels.greedy_balance = lambda *a: calls.append(1) or balance(*a)
        for force in (False, True):
            counts.FORCE = force
            trees.append(greedy_lower_bound(H, H.log2_size(), Deadline(None)))
            assert bool(calls) == (force and trees[-1][0] > 0)
    finally:
        greedy.STEP_WORDS, counts.FORCE = saved
        kernels.greedy_balance = balance
    assert trees[0] == trees[1]
    if trees[1][1] is not None:
        assert is_mistake_tree(H, trees[1][1]) and tree_depth(trees[1][1]) == trees[1][0]
