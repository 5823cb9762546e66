"""Classes of every shape: wide, trivial, duplicated columns; limits kept with verified bounds.

The reduction (dimcalc.classes.reduction) must leave every dimension unchanged: checked
metamorphically (appending constant, duplicate and relabelled columns changes
nothing) on random small classes, with witnesses verified on the larger class.
Wide classes under a tiny time limit or a memory budget of zero must come back
with proven, verified bounds (and a stop recorded when not exact).
"""

from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dimcalc
from dimcalc import HypothesisClass
from dimcalc.classes.reduction import reduce_columns
from dimcalc.reports.check import check_class
from dimcalc.search import budget as _budget
from dimcalc.search.budget import Deadline, resident_bytes
from profile_examples import examples

SOLVERS = {
    "vc": lambda H, **kw: dimcalc.vc_dimension(H, **kw),
    "natarajan": lambda H, **kw: dimcalc.natarajan_dimension(H, **kw),
    "graph": lambda H, **kw: dimcalc.graph_dimension(H, **kw),
    "littlestone": lambda H, **kw: dimcalc.littlestone_dimension(H, **kw),
    "multiclass_littlestone": lambda H, **kw: dimcalc.multiclass_littlestone_dimension(H, **kw),
    "psi_N": lambda H, **kw: dimcalc.psi_littlestone_dimension(H, "N", **kw),
    "psi_bin": lambda H, **kw: dimcalc.psi_littlestone_dimension(H, "bin", **kw),
    "psi_B": lambda H, **kw: dimcalc.psi_littlestone_dimension(H, "B", **kw),
    "psi_bin_uniform": lambda H, **kw: dimcalc.psi_littlestone_dimension(H, "bin", uniform=True, **kw),
}


def _table(draw: st.DrawFn, labels: int) -> np.ndarray:
    rows = draw(st.integers(1, 9))
    cols = draw(st.integers(1, 5))
    cells = draw(st.lists(st.integers(0, labels - 1), min_size=rows * cols, max_size=rows * cols))
    return np.array(cells, dtype=np.int64).reshape(rows, cols)


@st.composite
def padded_classes(draw: st.DrawFn) -> tuple[np.ndarray, np.ndarray, int]:
    """A random table and the same table with constant, duplicate and relabelled columns added."""
    labels = draw(st.sampled_from([2, 3]))
    t = _table(draw, labels)
    extra = [np.full((t.shape[0], 1), draw(st.integers(0, labels - 1)))]
    for _ in range(draw(st.integers(1, 3))):
        c = draw(st.integers(0, t.shape[1] - 1))
        perm = draw(st.permutations(range(labels)))
        extra.append(np.array(perm)[t[:, c]][:, None])
    return t, np.concatenate([t] + extra, axis=1), labels


@settings(max_examples=examples(60), deadline=None)
@given(padded_classes())
def test_relabel_invariant_dimensions_ignore_added_columns(data):
    small, big, labels = data
    H, G = HypothesisClass(small, num_labels=labels), HypothesisClass(big, num_labels=labels)
    for name in ("natarajan", "graph", "multiclass_littlestone", "psi_N", "psi_B") + (
        ("vc", "littlestone") if labels == 2 else ()
    ):
        a, b = SOLVERS[name](H), SOLVERS[name](G)
        assert a.exact and b.exact and a.value == b.value, name
        assert b.verify(G, debug=True)


@settings(max_examples=examples(40), deadline=None)
@given(padded_classes())
def test_label_reading_families_ignore_added_exact_duplicates(data):
    small, _, labels = data
    big = np.concatenate([small, small, np.zeros((small.shape[0], 1), np.int64)], axis=1)
    H, G = HypothesisClass(small, num_labels=labels), HypothesisClass(big, num_labels=labels)
    for name in ("psi_bin", "psi_bin_uniform"):
        a, b = SOLVERS[name](H), SOLVERS[name](G)
        assert a.value == b.value and b.verify(G, debug=True), name


def test_reduction_merges_and_drops_as_documented():
    H = HypothesisClass([[0, 1, 2, 2, 0], [1, 0, 0, 2, 1], [2, 2, 1, 2, 2]], num_labels=3)
    r = reduce_columns(H, relabel=True)
    assert r.points.tolist() == [0] and r.multiplicity.tolist() == [4] and r.group.tolist() == [0, 0, 0, -1, 0]
    e = reduce_columns(H, relabel=False)
    assert e.points.tolist() == [0, 1, 2] and e.group.tolist() == [0, 1, 2, -1, 0]


@pytest.mark.parametrize("shape", [(1, 0), (1, 7), (2, 5)])
def test_trivial_classes_are_exact_at_once(shape):
    rows, cols = shape
    table = np.arange(rows * cols).reshape(rows, cols) % 2 if cols else np.zeros((rows, 0), np.int64)
    H = HypothesisClass(table)
    for name, solve in SOLVERS.items():
        r = solve(H)
        assert r.exact and r.verify(H, debug=True), name
        assert r.value == (0 if rows == 1 or cols == 0 else 1), name


@pytest.fixture(scope="module")
def wide_binary():
    return HypothesisClass(np.random.default_rng(7).integers(0, 2, (40, 40000), dtype=np.uint8))


@pytest.fixture(scope="module")
def wide_multiclass():
    return HypothesisClass(np.random.default_rng(7).integers(0, 3, (40, 20000), dtype=np.uint8))


@pytest.mark.parametrize("name", list(SOLVERS))
def test_tiny_time_limit_on_a_wide_class_returns_verified_bounds(name, wide_binary, wide_multiclass):
    H = wide_multiclass if name not in ("vc", "littlestone") else wide_binary
    start = time.monotonic()
    r = SOLVERS[name](H, time_limit=0.05)
    elapsed = time.monotonic() - start
    assert r.lower is not None and r.upper is not None and r.lower <= r.upper
    assert r.verify(H, debug=True)
    assert r.exact or r.stats.get("stopped") == "time limit"
    assert r.lower >= 1  # two distinct rows: any split gives 1, even when stopped at once
    assert elapsed < 30  # a hang guard only; the overrun itself is measured by `dimcalc bench --suite shapes`


@pytest.mark.parametrize("name", list(SOLVERS))
def test_memory_budget_stops_every_solver_cleanly(name, wide_binary, wide_multiclass, monkeypatch):
    if resident_bytes() is None:
        pytest.skip("no /proc on this platform")
    H = wide_multiclass if name not in ("vc", "littlestone") else wide_binary
    H = HypothesisClass(H.table, num_labels=H.num_labels)  # no answer kept from an earlier test
    monkeypatch.setattr(_budget, "MEMORY_LIMIT_BYTES", -(1 << 40))  # a cap far below the current size
    monkeypatch.setattr(Deadline, "MEMORY_POLL_SECONDS", 0.0)  # read at every poll
    r = SOLVERS[name](H)
    assert not r.exact and r.stats.get("stopped") == "memory limit"
    assert r.lower is not None and r.upper is not None and r.lower <= r.upper
    assert r.verify(H, debug=True)


def test_check_under_a_budget_returns_verified_results(wide_multiclass):
    report = check_class(wide_multiclass, ["natarajan", "graph", "multiclass_littlestone"], time_limit=0.5)
    assert report.verify()
    for key, r in report.dimensions.items():
        assert r.exact or (r.stats.get("stopped") and r.lower <= r.upper), key


def test_second_run_keeps_the_tighter_proven_bounds():
    """check's leftover-time pass: the larger lower bound (with its witness) and the smaller upper bound."""
    from dimcalc.reports.check import _tighter
    from dimcalc.results import DimensionResult

    first = DimensionResult.bounds("vc", 2, 6, [0, 1], stopped="time limit")
    again = DimensionResult.bounds("vc", 3, 7, [0, 1, 2], stopped="time limit")
    both = _tighter(first, again)
    assert (both.lower, both.upper, both.witness) == (3, 6, [0, 1, 2])
    assert _tighter(first, DimensionResult.bounds("vc", 1, 3, [0])).upper == 3
    assert _tighter(first, DimensionResult.exact_value("vc", 4, [0, 1, 2, 3])).value == 4
    met = _tighter(DimensionResult.bounds("vc", 2, 6, [0, 1]), DimensionResult.bounds("vc", 1, 2, [0]))
    assert met.exact and met.value == 2 and met.witness == [0, 1]
    nested = _tighter({"B": first}, {"B": again})
    assert nested["B"].lower == 3


def test_numpy_split_enumeration_matches_the_loop(monkeypatch):
    """The vectorised splitters (many live columns) give the loop's splits, in the loop's order."""
    from dimcalc.littlestone import splits
    from dimcalc.littlestone import splitters as ls

    rng = np.random.default_rng(0)
    for _ in range(examples(20)):  # 20 random classes in make test, 5 in make test-fast
        m, n, labels = int(rng.integers(2, 150)), int(rng.integers(1, 400)), int(rng.integers(2, 4))
        H = HypothesisClass(rng.integers(0, labels, (m, n)))
        for family in (["LD"] if labels == 2 else []) + ["MLD", "N", "B", "bin"]:
            splitter = ls.splitter_for(H, family)
            for _ in range(4):
                V = (int(rng.integers(1, 2**62)) & H.full_mask) or H.full_mask
                monkeypatch.setattr(splits, "VECTOR_MIN_LIVE", 10**9)
                loop = splitter.splits(V, splitter.columns)
                monkeypatch.setattr(splits, "VECTOR_MIN_LIVE", 0)
                assert splitter.splits(V, splitter.columns) == loop, family
                monkeypatch.setattr(splits, "SPLIT_CHUNK", 7)  # chunks read the deadline; same splits, same order
                assert splitter.splits(V, splitter.columns) == loop, family
                monkeypatch.setattr(splits, "SPLIT_CHUNK", 1 << 16)


@pytest.mark.slow  # two bench suites with their time limits: make test runs it
def test_shapes_and_sat_bench_suites_quick_smoke():
    """`dimcalc bench --suite shapes/sat --quick` run, and report verified answers within their limits."""
    from dimcalc.bench import BenchOptions, run_suites

    rows = run_suites(["shapes"], BenchOptions(quick=True, repeat=1, only=("2x1000000",)))
    assert rows and all("WITNESS NOT VERIFIED" not in r.note and r.answer != "error" for r in rows)
    assert all(r.exact for r in rows)  # two hypotheses: every dimension is 1, found at once
    rows = run_suites(["sat"], BenchOptions(quick=True, repeat=1, only=("dense",)))
    assert len(rows) == 1 and rows[0].exact and rows[0].baseline_answer == [rows[0].answer] * 2


def test_relations_tighten_a_stopped_upper_bound():
    """Natarajan <= graph: a stopped Natarajan search takes graph's proven upper bound (never below its lower)."""
    from dimcalc.reports.check import _tighten_by_relations
    from dimcalc.results import DimensionResult

    nat = DimensionResult.bounds("natarajan", 3, 10, {"points": [], "f0": [], "f1": []})
    graph = DimensionResult.exact_value("graph", 5, {"points": [], "f": []})
    dims = {"natarajan": nat, "graph": graph}
    _tighten_by_relations(dims)
    assert (dims["natarajan"].lower, dims["natarajan"].upper) == (3, 5)
    assert dims["natarajan"].stats["upper_from"] == "graph"
    dims = {"natarajan": DimensionResult.bounds("natarajan", 5, 10, None), "graph": graph}
    _tighten_by_relations(dims)
    assert dims["natarajan"].exact and dims["natarajan"].value == 5


@settings(max_examples=examples(40), deadline=None)
@given(padded_classes())
def test_relations_used_by_check_hold(data):
    """The inequalities behind check's tightening hold on random classes (exact values)."""
    _, table, labels = data
    H = HypothesisClass(table, num_labels=labels)
    n, g = dimcalc.natarajan_dimension(H).value, dimcalc.graph_dimension(H).value
    assert n <= g and n <= dimcalc.multiclass_littlestone_dimension(H).value
    if labels == 2:
        assert dimcalc.vc_dimension(H).value <= dimcalc.littlestone_dimension(H).value


@settings(max_examples=examples(40), deadline=None)
@given(padded_classes())
def test_reduction_is_exact_even_when_every_hash_collides(data):
    """Grouping by hash is only a first pass: with a hash that maps every column to 0 the groups are the same."""
    from dimcalc.classes import reduction

    _, table, labels = data
    H = HypothesisClass(table, num_labels=labels)
    for relabel in (True, False):
        honest = reduce_columns(H, relabel=relabel)
        original = reduction._hashes
        reduction._hashes = lambda block, weights: np.zeros(block.shape[1], dtype=np.uint64)
        try:
            colliding = reduce_columns(H, relabel=relabel)
        finally:
            reduction._hashes = original
        assert colliding.points.tolist() == honest.points.tolist()
        assert colliding.group.tolist() == honest.group.tolist()
        assert colliding.multiplicity.tolist() == honest.multiplicity.tolist()
