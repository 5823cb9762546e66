"""The trace search (dimcalc.vc.traces) against the definition: every rule it refutes with, on every class.

The brute force here imports nothing from dimcalc: a set is shattered by a
list of row sets when every one of them realises all ``2^|S|`` patterns on it
(itertools and Python sets).  Checked: :func:`refute_cells` on random lists of
cells and every size, the first points :func:`dead_first_points` reports dead
(none is the first point of a shattered set, and with enough budget every
other one is), the stronger size rule (a cell of a shattered set's prefix holds
``2^r`` distinct traces on the later points) on every shattered set, the suffix
ids, and ``vc_dimension`` with the trace search forced on and off on random and
structured small classes (value, witness checked by the definition).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dimcalc import generators as g
from dimcalc.search.budget import Deadline
from dimcalc.vc import closure, search, traces, vc_dimension
from profile_examples import examples
from strategies import classes


@pytest.fixture(autouse=True)
def closure_off(monkeypatch):
    """The closure refutation (dimcalc.vc.closure, tried first) off: these tests are about the trace search."""
    monkeypatch.setattr(closure, "FORCE", False)


BINARY = classes(min_labels=2, max_labels=2, min_points=1, max_points=7, max_rows=48, biased=True)


def _shattered_by(rows: list[tuple[int, ...]], s: tuple[int, ...]) -> bool:
    """Definition: all 2^|s| patterns of ``s`` realised by ``rows``."""
    return len({tuple(r[p] for p in s) for r in rows}) == 2 ** len(s)


def _brute_common(cells: list[list[tuple[int, ...]]], n: int, r: int) -> bool:
    """Whether some ``r``-set of the ``n`` columns is shattered by every cell."""
    return any(all(_shattered_by(c, s) for c in cells) for s in itertools.combinations(range(n), r))


def _brute_vc(rows: list[tuple[int, ...]], n: int) -> int:
    best = 0
    for size in range(1, n + 1):
        if not any(_shattered_by(rows, s) for s in itertools.combinations(range(n), size)):
            break
        best = size
    return best


def _as_cell(rows: list[tuple[int, ...]], n: int) -> np.ndarray:
    """Distinct rows as a column-major boolean array ``(n, k)`` (the layout of dimcalc.vc.traces)."""
    distinct = sorted(set(rows))
    return np.array(distinct, dtype=bool).reshape(len(distinct), n).T.copy()


@st.composite
def cell_lists(draw):
    n = draw(st.integers(1, 6))
    row = st.tuples(*[st.integers(0, 1)] * n)
    cells = draw(st.lists(st.lists(row, min_size=1, max_size=40), min_size=1, max_size=3))
    return n, cells


def _rows(H) -> list[tuple[int, ...]]:
    return sorted({tuple(int(v) for v in r) for r in H.table.tolist()})


@settings(max_examples=examples(150), deadline=None)
@given(cell_lists(), st.integers(1, 5))
def test_refute_cells_matches_brute_force(drawn, r):
    """refute_cells is exact: True exactly when no r-set is shattered by every cell (each rule inside)."""
    n, cells = drawn
    got = traces.refute_cells([_as_cell(c, n) for c in cells], r)
    assert got == (not _brute_common(cells, n, r))


@settings(max_examples=examples(150), deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 4))
def test_refute_cells_matches_brute_force_on_dense_cells(seed, r):
    """Dense random cells (3-7 columns, 8-60 rows each, 1-3 cells): the deep levels (r >= 3: one cell alone
    first, then all) and the pair products are reached and exact."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(r, 8))
    density = rng.uniform(0.2, 0.8)
    cells = [
        [tuple(int(v) for v in row) for row in (rng.random((int(rng.integers(8, 61)), n)) < density)]
        for _ in range(int(rng.integers(1, 4)))
    ]
    got = traces.refute_cells([_as_cell(c, n) for c in cells], r)
    assert got == (not _brute_common(cells, n, r))


@settings(max_examples=examples(100), deadline=None)
@given(BINARY, st.integers(2, 5))
def test_dead_first_points_match_brute_force(H, target):
    """A first point is reported dead exactly when no shattered target-set starts there (suffix ids, both cells)."""
    rows = _rows(H)
    n = H.n_points
    cols = np.array(rows, dtype=bool).reshape(len(rows), n).T.copy()
    budget = traces.Budget(Deadline(None), float("inf"))
    dead = traces.dead_first_points(cols, target, budget, stop_at_live=False)
    for y in range(n):
        starts = any(_shattered_by(rows, (y, *rest)) for rest in itertools.combinations(range(y + 1, n), target - 1))
        assert bool(dead[y]) == (not starts), (y, target)


@settings(max_examples=examples(60), deadline=None)
@given(BINARY)
def test_stronger_size_rule_holds_on_every_shattered_set(H):
    """Trace size rule: below a prefix A of a shattered T-set (in point order), every cell of A holds at least
    2^(T - |A|) distinct traces on the points after A's last -- and refute_cells never refutes there."""
    rows = _rows(H)
    n = H.n_points
    for size in range(1, n + 1):
        for s in itertools.combinations(range(n), size):
            if not _shattered_by(rows, s):
                continue
            for k in range(1, size + 1):
                later = range(s[k - 1] + 1, n)
                cells: dict[tuple[int, ...], set[tuple[int, ...]]] = {}
                for row in rows:
                    cells.setdefault(tuple(row[p] for p in s[:k]), set()).add(tuple(row[p] for p in later))
                assert len(cells) == 2**k
                assert all(len(c) >= 2 ** (size - k) for c in cells.values()), (s, k)
                if later:
                    arrays = [_as_cell(sorted(c), len(later)) for c in cells.values()]
                    assert not traces.refute_cells(arrays, size - k), (s, k)


@settings(max_examples=examples(60), deadline=None)
@given(BINARY)
def test_suffix_ids_number_the_traces(H):
    """Two rows get one suffix id exactly when they agree on every later column."""
    rows = _rows(H)
    n = H.n_points
    cols = np.array(rows, dtype=bool).reshape(len(rows), n).T
    ids, count = np.zeros(len(rows), dtype=np.int64), 1
    for y in range(n - 1, -1, -1):
        ids, count, rep = traces.suffix_step(ids, count, cols[y])
        assert count == len({r[y:] for r in rows})
        for a, b in itertools.combinations(range(len(rows)), 2):
            assert (ids[a] == ids[b]) == (rows[a][y:] == rows[b][y:])
        assert sorted(ids[rep].tolist()) == list(range(count))


@pytest.fixture(params=[True, False, None], ids=["traces-forced", "traces-off", "traces-measured"])
def trace_mode(request, monkeypatch):
    monkeypatch.setattr(search, "TRACES", request.param)
    return request.param


@settings(max_examples=examples(60), deadline=None)
@given(BINARY)
def test_vc_with_traces_forced_matches_brute_force(H):
    """vc_dimension with the trace search forced on every target from 3: the brute-force value, a checked set."""
    saved = search.TRACES
    search.TRACES = True
    try:
        r = vc_dimension(H)
    finally:
        search.TRACES = saved
    rows = _rows(H)
    assert r.value == _brute_vc(rows, H.n_points)
    assert _shattered_by(rows, tuple(r.witness)) and len(r.witness) == r.value


@pytest.mark.parametrize(
    "make, value",
    [
        (lambda: g.intervals(40), 2),
        (lambda: g.intervals(300), 2),  # 45 151 hypotheses: the measured criterion takes the trace search
        (lambda: g.boxes(2, 2), 4),
        (lambda: g.boxes(3, 1), 2),
        (lambda: g.halfspaces(2, 2), 3),
        (lambda: g.halfspaces(5, 1), 2),
        (lambda: g.thresholds(30), 1),
    ],
)
def test_structured_classes_with_and_without_traces(trace_mode, make, value):
    """Closed forms (intervals 2, boxes 2d, halfspaces d + 1, thresholds 1) in every mode, witness verified."""
    H = make()
    if trace_mode is not None and H.n_distinct > 40_000:
        pytest.skip("the large class is for the measured mode")
    r = vc_dimension(H)
    assert (r.value, r.exact) == (value, True)
    assert r.verify(H)
    if trace_mode is None and H.n_distinct > 40_000:
        assert r.stats.get("trace_refuted") == 3


def test_trace_search_stops_within_its_time_limit():
    """Stopped by the time limit: exact=False with proven bounds, within the limit plus a step."""
    import time

    H = g.intervals(512)
    start = time.perf_counter()
    r = vc_dimension(H, time_limit=0.3)
    assert time.perf_counter() - start < 2.0
    assert r.exact is False or r.value == 2
    assert r.lower <= 2 <= r.upper


def test_measured_criterion_declines_random_classes():
    """Random classes keep their traces: the collapse ratio is far above the threshold (no trace search)."""
    cols = np.random.default_rng(0).integers(0, 2, (4000, 200)).astype(bool).T.copy()
    assert traces.worth_it(cols) > traces.COLLAPSE_RATIO
    stats: dict = {}
    assert traces.try_refute(cols, 9, Deadline(None), stats) is False
    assert "trace_refuted" not in stats


@pytest.mark.parametrize("kind", ["natarajan", "graph"])
def test_binary_natarajan_and_graph_with_traces_forced(trace_mode, kind):
    """On a binary class the three dimensions are one search: the trace refutation serves Natarajan and graph."""
    import dimcalc

    H = g.boxes(2, 2)
    r = getattr(dimcalc, f"{kind}_dimension")(H)
    assert (r.value, r.exact) == (4, True)
    assert r.verify(H)


def test_few_hypotheses_a_point_are_left_to_the_compiled_search():
    """A sparse set system (2 000 sets over 400 elements: 5 a point) is not tried on traces, whatever its cells."""
    rng = np.random.default_rng(0)
    table = rng.random((400, 2000)) < 0.02
    stats: dict = {}
    assert traces.try_refute(table, 3, Deadline(None), stats) is False
    assert "trace_ratio" not in stats  # declined before the sample is read
