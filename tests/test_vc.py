"""Tests of dimcalc.vc: brute-force agreement, closed forms, relations, checkers, time limits."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from brute_vc import brute_graph, brute_growth, brute_natarajan, brute_vc
from dimcalc import HypothesisClass, generators
from dimcalc.errors import InvalidParameterError, InvalidWitnessError
from dimcalc.results import DimensionResult
from dimcalc.vc import (
    graph_dimension,
    growth_function,
    is_graph_shattered,
    is_natarajan_shattered,
    is_shattered,
    natarajan_dimension,
    sauer_shelah_bound,
    vc_dimension,
)
from dimcalc.witnesses import GraphWitness, GrowthWitness, NatarajanWitness, ShatteredSet, as_witness
from soundness import assert_sound
from strategies import classes

# Random classes on up to 8 points with up to 12 rows, uniform, sparse or from a small cube.
BINARY = classes(min_labels=2, max_labels=2, min_points=0, max_points=8, max_rows=12, biased=True)
MULTICLASS = classes(min_labels=2, max_labels=4, min_points=0, max_points=8, max_rows=12, biased=True)


def _check(result, H):
    assert result.exact
    assert result.lower == result.value == result.upper
    assert result.verify(H, debug=True)
    assert result.witness.certify(H) == result.value


@given(BINARY, st.permutations(["vc", "natarajan", "graph"]))
def test_binary_class_three_notions_agree_and_nothing_is_kept(H, order):
    """VC = Natarajan = graph on a binary class, in any order; each call searches (no answer kept on the class)."""
    solvers = {"vc": vc_dimension, "natarajan": natarajan_dimension, "graph": graph_dimension}
    expected = brute_vc(H.table.tolist(), H.n_points)[0]
    results = [solvers[kind](H) for kind in order]
    for kind, r in zip(order, results):
        assert r.kind == kind and r.value == expected
        assert as_witness(kind, r.witness.to_json()).certify(H) == expected  # the checker of its kind
    assert all("shared" not in r.stats["method"] for r in results)
    assert not any("shattered" in key for key in vars(H))  # no answer written into the class


@given(BINARY)
def test_vc_matches_brute_force(H):
    r = vc_dimension(H)
    _check(r, H)
    assert r.value == brute_vc(H.table.tolist(), H.n_points)[0]
    assert is_shattered(H, r.witness)


@given(MULTICLASS)
def test_natarajan_matches_brute_force(H):
    r = natarajan_dimension(H)
    _check(r, H)
    assert r.value == brute_natarajan(H.table.tolist(), H.n_points)[0]
    w = r.witness
    assert is_natarajan_shattered(H, w["points"], w["f0"], w["f1"])


@given(MULTICLASS)
def test_graph_matches_brute_force(H):
    r = graph_dimension(H)
    _check(r, H)
    assert r.value == brute_graph(H.table.tolist(), H.n_points)[0]
    assert is_graph_shattered(H, r.witness["points"], r.witness["f"])


@given(MULTICLASS, st.integers(0, 9))
def test_growth_matches_brute_force(H, m):
    r = growth_function(H, m)
    assert r.exact and r.verify(H, debug=True)
    assert r.value == brute_growth(H.table.tolist(), H.n_points, min(m, H.n_points))
    assert len(r.witness) == min(m, H.n_points)


@given(MULTICLASS)
def test_relations(H):
    nat, graph = natarajan_dimension(H).value, graph_dimension(H).value
    assert nat <= graph <= H.log2_size()
    # A Natarajan-shattered set is graph-shattered by f1; both need 2^d distinct hypotheses.
    if H.is_binary:
        assert vc_dimension(H).value == nat == graph
    else:
        assert vc_dimension(H).value is None


@given(BINARY)
def test_sauer_shelah_holds(H):
    d = vc_dimension(H).value
    assert H.n_distinct <= sauer_shelah_bound(H.n_points, d)
    for m in range(H.n_points + 1):
        assert growth_function(H, m).value <= sauer_shelah_bound(m, d)


# ----------------------------------------------------------------------------- closed forms


def _binary(rows):
    return HypothesisClass.from_table(rows, num_labels=2)


@pytest.mark.parametrize("n", [1, 2, 5, 9])
def test_thresholds_points_intervals(n):
    thresholds = _binary([[int(x >= t) for x in range(n)] for t in range(n + 1)])
    points = _binary([[int(x == p) for x in range(n)] for p in range(n)] + [[0] * n])
    intervals = _binary([[int(a <= x < b) for x in range(n)] for a in range(n + 1) for b in range(a, n + 1)])
    for H, expected in ((thresholds, 1), (points, 1), (intervals, min(2, n))):
        for solver in (vc_dimension, natarajan_dimension, graph_dimension):
            r = solver(H)
            _check(r, H)
            assert r.value == expected


@pytest.mark.parametrize("d", [1, 2, 3, 5])
def test_parities(d):
    cube = list(itertools.product((0, 1), repeat=d))
    H = _binary([[sum(a * x for a, x in zip(s, p)) % 2 for p in cube] for s in cube])
    r = vc_dimension(H)
    _check(r, H)
    assert r.value == d


@pytest.mark.parametrize("n", [0, 1, 4, 7])
def test_all_binary_functions(n):
    H = _binary(list(itertools.product((0, 1), repeat=n)) if n else [[]])
    r = vc_dimension(H)
    _check(r, H)
    assert r.value == n
    assert growth_function(H, n).value == 2**n


def test_single_hypothesis():
    for table, k in (([[0, 1, 1, 0]], 2), ([[2, 0, 1]], 3)):
        H = HypothesisClass.from_table(table, num_labels=k)
        for solver in (natarajan_dimension, graph_dimension) + ((vc_dimension,) if k == 2 else ()):
            r = solver(H)
            _check(r, H)
            assert r.value == 0


@pytest.mark.parametrize("n,k", [(1, 3), (2, 3), (3, 4), (4, 3)])
def test_all_multiclass_functions(n, k):
    H = HypothesisClass.from_table(list(itertools.product(range(k), repeat=n)), num_labels=k)
    for solver in (natarajan_dimension, graph_dimension):
        r = solver(H)
        _check(r, H)
        assert r.value == n
    assert growth_function(H, n).value == k**n


def test_natarajan_strictly_below_graph():
    # Constant hypotheses h_l = l: any two labels give a Natarajan pair on one point, never on two.
    H = HypothesisClass.from_table([[lab] * 3 for lab in range(5)], num_labels=5)
    assert natarajan_dimension(H).value == graph_dimension(H).value == 1
    # Agreement with f = (0, 0) is (1,1), (0,0), (1,0), (0,1): graph-shattered; but point 0
    # needs all three labels, so no cube {a,b} x {c,d} is realised.
    G = HypothesisClass.from_table([[0, 0], [1, 1], [0, 2], [2, 0]], num_labels=3)
    assert graph_dimension(G).value == 2
    assert natarajan_dimension(G).value == 1
    assert brute_natarajan(G.table.tolist(), 2)[0] == 1


def test_multiclass_vc_is_undefined():
    H = HypothesisClass.from_table([[0, 2], [1, 0]], num_labels=3)
    r = vc_dimension(H)
    assert r.value is None and r.reason and "binary" in r.reason
    assert r.to_json()["value"] is None
    assert r.verify(H)


def test_duplicate_rows_do_not_count():
    H = HypothesisClass.from_table([[0, 1]] * 5 + [[1, 0]] * 4)
    assert vc_dimension(H).value == 1
    assert growth_function(H, 2).value == 2


def test_sauer_shelah_values():
    assert [sauer_shelah_bound(5, d) for d in range(7)] == [1, 6, 16, 26, 31, 32, 32]
    assert sauer_shelah_bound(0, 3) == 1
    with pytest.raises(InvalidParameterError, match="'d' parameter of sauer_shelah_bound"):
        sauer_shelah_bound(3, -1)


# ----------------------------------------------------------------------------- checkers


def test_checkers_reject_corrupted_witnesses():
    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(60):
        H = HypothesisClass(rng.integers(0, 3, size=(12, 5)), num_labels=3)
        r = natarajan_dimension(H)
        if r.value == 0:
            continue
        w = r.witness
        points, f0, f1 = w["points"], w["f0"], w["f1"]
        # Change f1 at one point to a label that makes a mix unrealised, or equal to f0.
        assert not is_natarajan_shattered(H, points, f0, f0)
        with pytest.raises(InvalidWitnessError, match="agree at a point"):
            NatarajanWitness({"points": points, "f0": f0, "f1": f0}).certify(H)
        bad_f1 = [f1[0] + 3] + f1[1:]  # label 3+ never occurs
        assert not is_natarajan_shattered(H, points, f0, bad_f1)
        g = graph_dimension(H).witness
        bad_f = [g["f"][0] + 3] + g["f"][1:]
        assert not is_graph_shattered(H, g["points"], bad_f)
        with pytest.raises(InvalidWitnessError, match="not shattered"):
            GraphWitness({"points": g["points"], "f": bad_f}).certify(H)
        checked += 1
    assert checked > 10
    B = HypothesisClass.from_table([[0, 0, 0], [0, 1, 1], [1, 0, 1], [1, 1, 0]])
    r = vc_dimension(B)
    assert r.value == 2
    assert not is_shattered(B, [0, 1, 2])  # a set one too big
    for points, reason in [([0, 1, 2], "not shattered"), ([0, 0], "occurs twice"), ([0, 9], "outside the domain")]:
        with pytest.raises(InvalidWitnessError, match=reason):
            ShatteredSet(points).certify(B)
        assert not DimensionResult.exact_value("vc", len(points), points).verify(B)
    assert not DimensionResult.exact_value("vc", 2, "01").verify(B)  # not a list: no witness object to check
    with pytest.raises(InvalidWitnessError, match="no 'f0' key"):
        NatarajanWitness({"points": [0]}).certify(B)
    assert GrowthWitness([0, 1]).certify(B) == 4
    with pytest.raises(InvalidWitnessError, match="outside the domain"):
        is_shattered(B, [3])
    with pytest.raises(InvalidWitnessError, match="one label per point"):
        is_graph_shattered(B, [0, 1], [1])


def test_lying_result_fails_verification():
    B = HypothesisClass.from_table([[0, 0], [1, 1], [0, 1]])
    r = vc_dimension(B)
    assert r.value == 1
    lie = DimensionResult.exact_value("vc", 2, [0, 1])
    assert not lie.verify(B)
    with pytest.raises(AssertionError):
        lie.verify(B, debug=True)


# ----------------------------------------------------------------------------- limits and input


def test_time_limit_gives_proven_bounds():
    rng = np.random.default_rng(3)
    H = HypothesisClass(rng.integers(0, 2, size=(1000, 40)))
    for solver in (vc_dimension, graph_dimension, natarajan_dimension):
        r = solver(H, time_limit=0.05)
        assert_sound(r, H, high=H.log2_size())
        assert r.verify(H, debug=True)
        assert r.to_json()["lower"] == r.lower
    M = HypothesisClass(rng.integers(0, 10, size=(2000, 12)), num_labels=10)
    r = natarajan_dimension(M, time_limit=0.2)  # ~80 s without a limit (README, Known limits)
    assert_sound(r, M)
    g = growth_function(H, 12, time_limit=0.05)
    assert_sound(g, H)


def test_time_limit_not_needed_on_small_classes():
    H = HypothesisClass.from_table([[0, 1], [1, 0], [1, 1], [0, 0]])
    assert vc_dimension(H, time_limit=5).exact


@pytest.mark.parametrize("bad", [0, -1, "1", float("nan"), True])
def test_bad_time_limit(bad):
    H = HypothesisClass.from_table([[0, 1]])
    with pytest.raises(InvalidParameterError, match="'time_limit' parameter of vc_dimension"):
        vc_dimension(H, time_limit=bad)


def test_bad_arguments():
    with pytest.raises(InvalidParameterError, match="'H' parameter of graph_dimension"):
        graph_dimension([[0, 1]])
    H = HypothesisClass.from_table([[0, 1]])
    with pytest.raises(InvalidParameterError, match="'m' parameter of growth_function"):
        growth_function(H, -2)


def test_progress_goes_to_stderr(capsys):
    H = HypothesisClass.from_table(list(itertools.product((0, 1), repeat=3)))
    vc_dimension(H, progress=True)
    out, err = capsys.readouterr()
    assert out == "" and "[vc" in err


def test_log2_bound_is_respected_on_random_classes():
    rng = np.random.default_rng(11)
    for _ in range(20):
        m, n = int(rng.integers(2, 60)), int(rng.integers(1, 12))
        H = HypothesisClass(rng.integers(0, 2, size=(m, n)))
        r = vc_dimension(H)
        assert r.value <= math.floor(math.log2(H.n_distinct))
        assert r.value == brute_vc(H.table.tolist(), n)[0]


@pytest.mark.slow
def test_bench_suite_quick():
    from dimcalc.bench import BenchOptions, load_suites

    fn, _ = load_suites()["vc"]
    rows = fn(BenchOptions(quick=True, repeat=1))
    assert rows and all(r.exact for r in rows)
    assert all("MISMATCH" not in r.note for r in rows)
    assert any(r.baseline_answer is not None and r.baseline_answer == r.answer for r in rows)


@given(BINARY)
def test_check_runs_one_shattering_search_on_a_binary_class(H):
    from dimcalc.reports.check import check_class

    report = check_class(H, ["natarajan", "graph", "vc"])
    assert list(report.dimensions) == ["vc", "natarajan", "graph"]
    expected = brute_vc(H.table.tolist(), H.n_points)[0]
    for kind, r in report.dimensions.items():
        assert r.kind == kind and r.value == expected and r.verify(H, debug=True)
    assert "one search" in report.dimensions["graph"].stats["method"]


def test_check_copies_a_stopped_shattering_search_as_bounds():
    from dimcalc.reports.check import check_class

    H = HypothesisClass(np.random.default_rng(1).integers(0, 2, (1000, 40), dtype=np.uint8))
    report = check_class(H, ["vc", "natarajan", "graph"], time_limit=0.5)
    vc = report.dimensions["vc"]
    assert not vc.exact
    for kind in ("natarajan", "graph"):
        r = report.dimensions[kind]
        assert (r.exact, r.lower, r.upper) == (False, vc.lower, vc.upper) and r.stats["stopped"]
        assert r.verify(H, debug=True)


@pytest.mark.parametrize("storage", ["dense", "bits"])
def test_nested_columns_settle_vc_one_at_once(storage):
    """Thresholds: the columns' 1-sets form a chain, so VC = 1 without a search (any size)."""
    H = HypothesisClass(generators.thresholds(300).table, storage=storage)
    for solver in (vc_dimension, natarajan_dimension, graph_dimension):
        r = solver(HypothesisClass(H.table, storage=storage))
        assert r.exact and r.value == 1 and "chain" in r.stats["method"] and r.verify(H)
    # one more hypothesis, 1 on point 0 only: columns 0 and 1 are no longer nested, {0, 1} is shattered
    table = np.vstack([H.table, np.eye(1, H.n_points, dtype=H.table.dtype)])
    r = vc_dimension(HypothesisClass(table, storage=storage))
    assert r.exact and r.value == 2 and "chain" not in r.stats["method"] and r.verify(HypothesisClass(table))
