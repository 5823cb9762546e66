"""Rules 9 and 10 of the Littlestone engine against the definition.

Rule 9 (``turns.Turns._refuted_at_a_look``): before the smaller child of a candidate is searched, the bigger child
is counted once and the candidate dropped when that count refutes it (no column passes the size test, or the
balance bound is below the depth).  Rule 10 (``turns.Turns._both_alternating``): at the root of a query, the two
children of a candidate are searched in turns on doubling node budgets.  Both only change the order of the
work, so the value must be Littlestone's recursion (``test_littlestone_engine.textbook_dimension``, which
imports nothing from dimcalc) and every witness tree must be shattered.  The small classes drawn here are
shallow, so the tests make the rules fire from depth 1 (``engine.LOOK_MIN_DEPTH``) and interrupt a child after every
node (``turns.ALTERNATE_NODES``).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from profile_examples import examples
from test_littlestone_engine import textbook_dimension
from test_littlestone_shapes import _distinct, engine_over_version_spaces


@pytest.fixture
def eager(monkeypatch):
    """Rules 9 and 10 at every depth, the alternation interrupted after one node; the compiled word path."""
    from dimcalc.littlestone import counts, engine, splits, turns

    monkeypatch.setattr(engine, "LOOK_MIN_DEPTH", 1)
    monkeypatch.setattr(turns, "ALTERNATE_NODES", 1)
    monkeypatch.setattr(splits, "PYTHON_MAX_WORK", -1)
    monkeypatch.setattr(counts, "FORCE", True)
    counts.load_kernels(1 << 40, None)


def _tables(draw, rows: int = 40, points: int = 8) -> np.ndarray:
    m = draw(st.integers(2, rows))
    n = draw(st.integers(1, points))
    cells = draw(st.lists(st.integers(0, 1), min_size=m * n, max_size=m * n))
    return np.array(cells, dtype=np.int64).reshape(m, n)


tables = st.composite(_tables)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(table=tables())
def test_looks_and_turns_match_the_textbook_recursion(eager, table):
    """LDim and Ψ^bin (the same column splitter) with rules 9 and 10 at every depth: the recursion's value, and
    the witness passes the independent checker."""
    from dimcalc import HypothesisClass
    from dimcalc.littlestone import littlestone_dimension, psi_littlestone_dimension

    H = HypothesisClass(table)
    r = littlestone_dimension(H)
    assert r.exact and r.value == textbook_dimension(_distinct(table))
    assert r.verify(H)
    b = psi_littlestone_dimension(H, "bin")
    assert b.value == r.value and b.verify(H)


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(table=tables(), data=st.data())
def test_one_engine_with_looks_over_many_version_spaces(eager, table, data):
    """One engine (its memo, with the bounds rule 9 stored, kept between queries) over many version spaces: each
    answered at the recursion's value, each tree shattered by exactly that version space; the rules fired."""
    engine = engine_over_version_spaces(table, data, 10)
    LOOKS.append(engine.looks)


LOOKS: list[int] = []


def test_the_looks_fired_above():
    """The property test above is not vacuous: rule 9 counted children on most drawn classes."""
    if LOOKS:  # run alone, this test has nothing to read
        assert sum(1 for n in LOOKS if n) >= len(LOOKS) // 2, LOOKS


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_looks_and_turns_at_jobs_2_give_the_answers_of_one_process(monkeypatch, seed):
    """With rules 9 and 10 at every depth and every root query past its first candidate in the workers: the value
    and witness of ``jobs=2`` are those of ``jobs=1``, and the witness passes the checker."""
    from dimcalc import HypothesisClass
    from dimcalc.littlestone import engine, littlestone_dimension, turns

    monkeypatch.setattr(engine, "LOOK_MIN_DEPTH", 1)
    monkeypatch.setattr(turns, "ALTERNATE_NODES", 1)
    monkeypatch.setattr(engine, "PARALLEL_MIN_NODES", 0)
    monkeypatch.setattr(engine, "PARALLEL_WIDE", 0)
    rng = np.random.default_rng(seed)
    H = HypothesisClass(rng.integers(0, 2, (24 + 8 * seed, 6 + seed)))
    one = littlestone_dimension(H, jobs=1)
    two = littlestone_dimension(H, jobs=2)
    assert one.exact and two.exact and two.value == one.value == textbook_dimension(_distinct(H.table))
    assert two.witness == one.witness
    assert two.verify(H)


def test_a_look_refutes_the_root_candidates_of_boxes():
    """Boxes over 12 x 12 (LDim 11): at ``D >= 12`` the bigger child of each root candidate (the boxes avoiding a
    point) is refuted by counting it once; the answer and the witness are those of the engine without looks."""
    from dimcalc.bench.littlestone import boxes_class
    from dimcalc.littlestone.engine import Engine
    from dimcalc.littlestone.splitters import splitter_for
    from dimcalc.search.budget import Deadline

    H = boxes_class(12)
    results = []
    for look in (False, True):
        engine = Engine(H, splitter_for(H, "LD", None, Deadline(None)))
        engine.use_sat = False
        engine.look_first = look
        lower, upper, _ = engine.solve(H.full_mask)
        results.append((lower, upper, engine.looks > 0))
    assert results == [(11, 11, False), (11, 11, True)]


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(table=tables(), data=st.data())
def test_each_rule_alone_against_the_recursion(eager, table, data):
    """Rule 10 decides ``D(A) >= t and D(B) >= t`` for any two version spaces (in turns of one node, from a fresh
    engine and from one that has answered earlier pairs); rule 9 refutes only version spaces below the depth."""
    from dimcalc import HypothesisClass
    from dimcalc.littlestone.engine import Engine
    from dimcalc.littlestone.splitters import splitter_for
    from dimcalc.search.budget import Deadline

    H = HypothesisClass(table)
    rows = [tuple(int(v) for v in r) for r in H.distinct_rows]
    engine = Engine(H, splitter_for(H, "LD", None, Deadline(None)))
    engine.use_sat = False
    live = engine.splitter.columns
    full = (1 << len(rows)) - 1

    def dim(mask: int) -> int:
        return textbook_dimension(sorted(rows[i] for i in range(len(rows)) if mask >> i & 1))

    for _ in range(4):
        A, B = data.draw(st.integers(1, full)), data.draw(st.integers(1, full))
        t = data.draw(st.integers(1, 4))
        assert engine._both_alternating(A, B, t, live) == (dim(A) >= t and dim(B) >= t), (A, B, t)
        V, u = data.draw(st.integers(1, full)), data.draw(st.integers(1, 5))
        if engine._refuted_at_a_look(V, u, live):
            assert dim(V) < u, (V, u)
