"""Tests of dimcalc.dims: threshold, DS, dual VC, star number, teaching and recursive teaching dimensions.

Each solver against the definition-level brute force of ``brute_dims`` (which imports nothing from dimcalc)
on random binary and multiclass classes, every witness through its independent checker, closed forms on the
named families, refusals, and time limits.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

from brute_dims import brute_ds, brute_dual_vc, brute_rtd, brute_star, brute_td, brute_threshold
from dimcalc import HypothesisClass, generators, natarajan_dimension
from dimcalc.dims import (
    ds_dimension,
    dual_vc_dimension,
    largest_pseudo_cube,
    recursive_teaching_dimension,
    star_number,
    teaching_dimension,
    threshold_dimension,
)
from dimcalc.errors import InvalidParameterError, InvalidWitnessError
from dimcalc.witnesses import (
    DualShatteredSet,
    PseudoCube,
    RecursiveTeachingWitness,
    StarWitness,
    TeachingWitness,
    ThresholdWitness,
    as_witness,
)
from profile_examples import examples
from strategies import classes

BINARY = classes(min_labels=2, max_labels=2, min_points=0, max_points=5, max_rows=9, biased=True)
SMALL_BINARY = classes(min_labels=2, max_labels=2, min_points=0, max_points=4, max_rows=7, biased=True)
ANY = classes(min_labels=2, max_labels=4, min_points=0, max_points=4, max_rows=8, biased=True)
TINY = classes(min_labels=2, max_labels=3, min_points=0, max_points=3, max_rows=7, biased=True)

SOLVERS = {
    "threshold": threshold_dimension,
    "ds": ds_dimension,
    "dual_vc": dual_vc_dimension,
    "star": star_number,
    "teaching": teaching_dimension,
    "recursive_teaching": recursive_teaching_dimension,
}


def _exact(r, H, expected):
    """Exact, equal to the brute force, and its witness (re-read from plain JSON) certifies the value."""
    assert r.exact and r.value == r.lower == r.upper == expected, (r, expected)
    assert r.verify(H, debug=True)
    assert as_witness(r.kind, r.witness.to_json()).certify(H) == expected


@given(BINARY)
def test_threshold_matches_brute_force(H):
    _exact(threshold_dimension(H), H, brute_threshold(H.table.tolist(), H.n_points))


@given(BINARY)
def test_dual_vc_matches_brute_force(H):
    _exact(dual_vc_dimension(H), H, brute_dual_vc(H.table.tolist(), H.n_points))


@given(TINY)
def test_ds_matches_brute_force(H):
    _exact(ds_dimension(H), H, brute_ds(H.table.tolist(), H.n_points))


@given(classes(min_labels=3, max_labels=4, min_points=2, max_points=3, min_rows=4, max_rows=9, biased=True))
@settings(max_examples=examples(60))
def test_ds_matches_brute_force_multiclass(H):
    _exact(ds_dimension(H), H, brute_ds(H.table.tolist(), H.n_points))


@given(ANY)
def test_star_matches_brute_force(H):
    _exact(star_number(H), H, brute_star(H.table.tolist(), H.n_points))


@given(ANY)
def test_teaching_dimension_matches_brute_force(H):
    _exact(teaching_dimension(H), H, brute_td(H.table.tolist(), H.n_points))


@given(classes(min_labels=2, max_labels=3, min_points=0, max_points=4, max_rows=7, biased=True))
def test_recursive_teaching_dimension_matches_brute_force(H):
    _exact(recursive_teaching_dimension(H), H, brute_rtd(H.table.tolist(), H.n_points))


@given(SMALL_BINARY)
def test_bit_storage_gives_the_same_answers(H):
    B = HypothesisClass(H.table, storage="bits")
    for kind, f in SOLVERS.items():
        a, b = f(H), f(B)
        assert (a.value, a.lower, a.upper) == (b.value, b.lower, b.upper), kind
        assert b.verify(B, debug=True)


# ------------------------------------------------------------------------------------------------ closed forms
@pytest.mark.parametrize("n", [1, 2, 3, 5, 8])
def test_thresholds_closed_forms(n):
    """Thresholds over n points: n thresholds (t_{i-1} on x_{i-1}..), VC = DS = RTD = 1,
    star = TD = min(n, 2), dual VC 1 once two points tell the thresholds apart."""
    H = generators.thresholds(n)
    values = {kind: f(H) for kind, f in SOLVERS.items()}
    expected = {
        "threshold": n,
        "ds": 1,
        "dual_vc": min(n - 1, 1),
        "star": min(n, 2),
        "teaching": min(n, 2),
        "recursive_teaching": 1,
    }
    for kind, r in values.items():
        _exact(r, H, expected[kind])


@pytest.mark.parametrize("n", [2, 3, 6])
def test_point_functions_closed_forms(n):
    """Point functions (no all-zero row): one threshold, VC 1, star n - 1 (centre 1_x0), TD = RTD = 1."""
    H = generators.point_functions(n)
    expected = {"threshold": 1, "ds": 1, "dual_vc": 1, "star": n - 1, "teaching": 1, "recursive_teaching": 1}
    for kind, f in SOLVERS.items():
        _exact(f(H), H, expected[kind])


@pytest.mark.parametrize("n", [2, 3, 5])
def test_intervals_closed_forms(n):
    """Intervals with the empty one: the n suffixes are thresholds, VC = DS = 2, the singletons are a star around
    the empty interval, which needs every point to be taught."""
    H = generators.intervals(n)
    expected = {"threshold": n, "ds": 2, "star": n, "teaching": n}
    for kind, value in expected.items():
        _exact(SOLVERS[kind](H), H, value)


@pytest.mark.parametrize("d", [1, 2, 3])
def test_parities_closed_forms(d):
    """Parities on {0,1}^d: every one of these dimensions is d (GF(2) rank arguments, docs/dimensions.md)."""
    H = generators.parities(d)
    for f in SOLVERS.values():
        _exact(f(H), H, d)


def test_ds_exceeds_natarajan_on_the_hexagon():
    """Six patterns on two points, each with a neighbour along both axes, and no 2x2 product inside."""
    hexagon = HypothesisClass.from_table([[0, 0], [1, 0], [1, 1], [2, 1], [2, 2], [0, 2]])
    _exact(ds_dimension(hexagon), hexagon, 2)
    assert natarajan_dimension(hexagon).value == 1


def test_all_functions_multiclass():
    H = HypothesisClass.from_table([[a, b, c] for a in range(3) for b in range(3) for c in range(3)])
    for kind, value in {"ds": 3, "star": 3, "teaching": 3, "recursive_teaching": 3}.items():
        _exact(SOLVERS[kind](H), H, value)


def test_largest_pseudo_cube_is_the_deletion_fixpoint():
    pats = np.array([[0, 0], [1, 0], [0, 1], [1, 1], [2, 2]])
    assert largest_pseudo_cube(pats).tolist() == [0, 1, 2, 3]


# ----------------------------------------------------------------------------------------- refusals and limits
@pytest.mark.parametrize("f", [threshold_dimension, dual_vc_dimension])
def test_binary_only_dimensions_are_undefined_on_multiclass(f):
    r = f(HypothesisClass.from_table([[0, 1], [2, 0]]))
    assert r.value is None and r.reason is not None and "binary" in r.reason and r.verify(None)


@pytest.mark.parametrize("f", list(SOLVERS.values()))
def test_bad_arguments_are_refused(f):
    with pytest.raises(InvalidParameterError):
        f([[0, 1]])
    with pytest.raises(InvalidParameterError):
        f(generators.thresholds(2), time_limit=-1)
    with pytest.raises(InvalidParameterError):
        f(generators.thresholds(2), jobs=0)


@pytest.mark.parametrize("kind", list(SOLVERS))
def test_stopped_searches_keep_proven_bounds(kind):
    H = generators.random_class(40, 14, random_state=3)
    r = SOLVERS[kind](H, time_limit=0.001)
    assert r.lower is not None and r.upper is not None and r.lower <= r.upper
    assert r.verify(H, debug=True)
    if not r.exact:
        assert r.stats["stopped"] == "time limit"
        full = SOLVERS[kind](H)
        assert r.lower <= full.value <= r.upper


# ------------------------------------------------------------------------------------------------ the checkers
def test_checkers_reject_wrong_witnesses():
    thr = generators.thresholds(3)
    assert ThresholdWitness({"points": [0, 1, 2], "hypotheses": [0, 1, 2]}).certify(thr) == 3
    with pytest.raises(InvalidWitnessError, match="thresholds need"):
        ThresholdWitness({"points": [0, 1, 2], "hypotheses": [1, 0, 2]}).certify(thr)
    with pytest.raises(InvalidWitnessError, match="neighbour"):
        PseudoCube({"points": [0, 1], "hypotheses": [0, 1, 2]}).certify(thr)
    with pytest.raises(InvalidWitnessError, match="no point"):
        DualShatteredSet([0, 3]).certify(thr)
    with pytest.raises(InvalidWitnessError, match="must differ"):
        StarWitness({"center": 1, "points": [0, 1, 2], "hypotheses": [0, 2, 3]}).certify(thr)
    with pytest.raises(InvalidWitnessError, match="below 2"):  # t_0 = all ones is taught by x0 alone
        TeachingWitness({"hypothesis": 0, "teaching_set": [0, 1]}).certify(thr)
    with pytest.raises(InvalidWitnessError, match="do not teach"):
        TeachingWitness({"hypothesis": 1, "teaching_set": [1]}).certify(thr)
    with pytest.raises(InvalidWitnessError, match="least teaching dimension is below 2"):
        RecursiveTeachingWitness({"subclass": [0, 1, 2, 3], "hypothesis": 1, "teaching_set": [0, 1]}).certify(thr)
    with pytest.raises(InvalidWitnessError, match="binary"):
        ThresholdWitness({"points": [0], "hypotheses": [0]}).certify(HypothesisClass.from_table([[2], [1]]))


def test_threshold_memo_keeps_smaller_targets_open():
    """A state that failed for r pairs fails for more, not for fewer (fails when the memo stores r - 1)."""
    from dimcalc.dims.threshold import _Search
    from dimcalc.search.budget import Deadline

    rows = np.asarray(generators.point_functions(4).distinct_rows)
    search = _Search(rows, Deadline(None))
    assert search.find(15, 15, 2) is None
    assert search.find(15, 15, 1) is not None and search.find(15, 15, 3) is None


# ------------------------------------------------------------------------------------------ check and sweeps
def test_check_class_runs_the_new_keys_by_name_and_with_all():
    from dimcalc.reports.check import ALL_KEYS, DIMENSION_KEYS, EXTRA_KEYS, check_class

    H = generators.thresholds(4)
    assert list(check_class(H).dimensions) == [k for k in DIMENSION_KEYS]  # the default set is unchanged
    report = check_class(H, "all")
    assert list(report.dimensions) == list(ALL_KEYS) and report.verify()
    assert {k: report.dimensions[k].value for k in EXTRA_KEYS} == {
        "threshold": 4,
        "ds": 1,
        "dual_vc": 1,
        "star": 2,
        "teaching": 2,
        "recursive_teaching": 1,
    }
    assert report.to_json()["dimensions"]["threshold"] == {
        "value": 4,
        "exact": True,
        "witness": {"points": [0, 1, 2, 3], "hypotheses": [0, 1, 2, 3]},
    }


def test_cli_check_dims_all_and_sweep_store_them(tmp_path, capsys):
    import json

    from dimcalc.cli import main
    from dimcalc.sweep.run import run_sweep
    from dimcalc.sweep.sources import all_items

    path = tmp_path / "hexagon.json"
    path.write_text(json.dumps({"labels": 3, "hypotheses": [[0, 0], [1, 0], [1, 1], [2, 1], [2, 2], [0, 2]]}))
    assert main(["check", str(path), "--dims", "natarajan,ds,threshold", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)["dimensions"]
    assert out["natarajan"]["value"] == 1 and out["ds"]["value"] == 2
    assert out["threshold"]["value"] is None and "binary" in out["threshold"]["reason"]
    summary = run_sweep(all_items("2x2x2"), db=str(tmp_path / "s.db"), dims=["threshold", "star"])
    assert summary.computed == 4 and summary.exit_status == 0


# ----------------------------------------------------------------------------------- relations on small classes
def _every_class(n_rows: int, n_points: int, num_labels: int, up_to_renaming_points: bool = False):
    """Every class of ``n_rows`` distinct rows on ``n_points`` points with labels ``0..num_labels-1``.

    With ``up_to_renaming_points``, one class per orbit under permutations of the points (the sorted
    table that is least over all of them): every dimension and every statement of the theorem report is
    unchanged by renaming points, so the orbit's other classes say nothing new (3 x 3 x 3: 573 of 2925).
    """
    import itertools

    patterns = list(itertools.product(range(num_labels), repeat=n_points))
    orders = list(itertools.permutations(range(n_points)))
    for rows in itertools.combinations(patterns, n_rows):
        if up_to_renaming_points and any(
            sorted(tuple(r[p] for p in order) for r in rows) < list(rows) for order in orders
        ):
            continue  # not the least table of its orbit: that one is checked instead
        yield HypothesisClass.from_table([list(r) for r in rows], num_labels=num_labels)


def test_every_class_up_to_renaming_points_keeps_one_class_per_orbit():
    """The orbit counts (Burnside's lemma over the 3! point orders) and exactly one class from every orbit."""
    import itertools

    def tables(*size):
        return {tuple(map(tuple, H.table.tolist())) for H in _every_class(*size)}

    def orbit(table):
        return {tuple(sorted(tuple(r[p] for p in order) for r in table)) for order in itertools.permutations(range(3))}

    assert [sum(1 for _ in _every_class(*s, up_to_renaming_points=True)) for s in [(4, 3, 2), (3, 3, 3)]] == [20, 573]
    every, kept = tables(4, 3, 2), tables(4, 3, 2, True)
    assert len(every) == 70 and len(kept) == 20 and kept <= every
    assert all(len(orbit(t) & kept) == 1 for t in every)


def _no_violation(checks, H):
    bad = [c.to_json() for c in checks if c.holds is not True]
    assert not bad, (H.table.tolist(), bad)


# 3 x 3 x 3 (2925 classes, 573 up to renaming points) is marked slow: make test runs it, make test-fast does not.
@pytest.mark.parametrize("size", [(4, 3, 2), pytest.param((3, 3, 3), marks=pytest.mark.slow)])
def test_dimension_relations_hold_on_every_small_class(size):
    """Every class of 4 x 3 x 2 (70) and, up to renaming points, 3 x 3 x 3 (573 of 2925): every statement about
    the new dimensions holds, exactly."""
    from dimcalc.reports.theorems import dimension_relations

    count = 0
    for H in _every_class(*size, up_to_renaming_points=size == (3, 3, 3)):
        checks = dimension_relations(H)
        _no_violation(checks, H)
        count += 1
        assert 7 <= len(checks) <= 9 if H.is_binary else len(checks) == 3  # ALMM19 rows need LDim / T >= 1
    assert count == {(4, 3, 2): 70, (3, 3, 3): 573}[size]


def test_theorem_report_holds_on_every_4x3x2_class():
    from dimcalc.reports.theorems import theorem_report

    for H in _every_class(4, 3, 2):
        _no_violation(theorem_report(H), H)


@pytest.mark.slow
def test_theorem_report_holds_on_every_3x3x3_class():
    """Up to renaming points (573 classes of the 2925 tables; no statement depends on the points' order)."""
    from dimcalc.reports.theorems import theorem_report

    for H in _every_class(3, 3, 3, up_to_renaming_points=True):
        _no_violation(theorem_report(H), H)


# ------------------------------------------------------------------------------------- ALMM19 sample-size row
def test_almm_lower_bound_is_an_order_of_growth_in_log_star():
    from fractions import Fraction

    from dimcalc.sample_size import OutOfRangeError, almm_private_lower_bound, log_star, sample_size_table

    assert [int(log_star(x)) for x in (0, 1, 2, 3, 4, 5, 16, 17, 65536, 65537)] == [0, 0, 1, 2, 2, 3, 3, 4, 4, 5]
    b = almm_private_lower_bound(littlestone=2**16, epsilon=Fraction(1, 10))
    assert (b.kind, b.samples, b.order_of_growth_only) == ("lower", 4, True)
    with pytest.raises(OutOfRangeError):
        almm_private_lower_bound(littlestone=4, num_labels=3)
    with pytest.raises(OutOfRangeError):
        almm_private_lower_bound(littlestone=4, alpha=0.1)
    H = generators.thresholds(300)  # LDim 8, log*(8) = 3
    approx = sample_size_table(H, alpha=0.05, beta=0.05, epsilon=0.05, delta=1e-8)
    assert [r.samples for r in approx.rows if r.name == "almm19_private_lower"] == [3]
    pure = sample_size_table(H, alpha=0.05, beta=0.05, epsilon=0.05)
    assert not [r for r in pure.rows if r.name == "almm19_private_lower"]


def test_teaching_bound_alone_needs_a_second_concept():
    one = HypothesisClass.from_table([[0, 1], [0, 1]])
    two = HypothesisClass.from_table([[0, 1], [1, 1]])
    assert TeachingWitness({"hypothesis": 1, "at_least": 1}).certify(two) == 1
    with pytest.raises(InvalidWitnessError, match="one concept"):
        TeachingWitness({"hypothesis": 0, "at_least": 1}).certify(one)
    with pytest.raises(InvalidWitnessError, match="below 2"):
        TeachingWitness({"hypothesis": 0, "at_least": 2}).certify(two)
