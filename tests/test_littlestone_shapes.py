"""Rule 7, the shape memo: a refutation of one version space refutes every version space of its shape.

Checked against Littlestone's recursion of ``test_littlestone_engine.textbook_dimension`` (imports nothing
from dimcalc) on classes built to hold many isomorphic version spaces (a pattern and copies of it with
columns renamed and complemented), with the compiled loops forced so that every node computes its shape.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from test_littlestone_engine import textbook_dimension


@pytest.fixture
def compiled(monkeypatch):
    from dimcalc.littlestone import counts, splits

    monkeypatch.setattr(splits, "PYTHON_MAX_WORK", -1)
    monkeypatch.setattr(counts, "FORCE", True)
    monkeypatch.setattr(splits, "SHAPE_MAX_ROWS", 4096)
    counts.load_kernels(1 << 40, None)


@st.composite
def symmetric_tables(draw) -> np.ndarray:
    """A pattern ``P`` (r x k) in the first k columns, and copies of ``P`` with columns permuted and some
    complemented in the next blocks, each block of rows marked by constant columns elsewhere; a few noise rows."""
    k = draw(st.integers(2, 4))
    r = draw(st.integers(2, 9))
    P = np.array(draw(st.lists(st.lists(st.integers(0, 1), min_size=k, max_size=k), min_size=r, max_size=r)))
    copies = draw(st.integers(1, 3))
    blocks = []
    for c in range(copies + 1):
        perm = draw(st.permutations(range(k))) if c else list(range(k))
        flip = np.array(draw(st.lists(st.integers(0, 1), min_size=k, max_size=k))) if c else np.zeros(k, dtype=int)
        rows = np.zeros((r, k * (copies + 1)), dtype=int)
        rows[:, c * k : (c + 1) * k] = P[:, perm] ^ flip
        blocks.append(rows)
    table = np.vstack(blocks)
    noise = draw(st.integers(0, 3))
    if noise:
        extra = draw(st.lists(st.integers(0, 1), min_size=noise * table.shape[1], max_size=noise * table.shape[1]))
        table = np.vstack([table, np.array(extra).reshape(noise, table.shape[1])])
    return table


def _distinct(table: np.ndarray) -> list[tuple[int, ...]]:
    return sorted({tuple(int(v) for v in r) for r in table})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(table=symmetric_tables())
def test_ldim_with_the_shape_memo_matches_the_textbook_recursion(compiled, table):
    from dimcalc import HypothesisClass
    from dimcalc.littlestone import littlestone_dimension, psi_littlestone_dimension

    H = HypothesisClass(table)
    r = littlestone_dimension(H)
    assert r.exact and r.value == textbook_dimension(_distinct(table))
    assert r.verify(H)
    b = psi_littlestone_dimension(H, "bin")  # Ψ^bin of a binary class = LDim, on the same column splitter
    assert b.value == r.value and b.verify(H)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(table=symmetric_tables(), data=st.data())
def test_isomorphic_version_spaces_have_one_shape(compiled, table, data):
    """Complementing columns and reordering rows does not change the shape (the columns keep their order:
    a translate of a pattern has the pattern's shape); the dimension does not change either."""
    from dimcalc import HypothesisClass
    from dimcalc.littlestone.splitters import splitter_for
    from dimcalc.search.budget import Deadline

    # an odd number of hypotheses: no column splits them half and half, so complementing is canonical
    assume(len(_distinct(table)) % 2 == 1)
    n = table.shape[1]
    flip = np.array(data.draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)))
    rows = data.draw(st.permutations(range(table.shape[0])))
    other = (table ^ flip)[list(rows)]
    shapes = []
    for t in (table, other):
        H = HypothesisClass(t)
        s = splitter_for(H, "LD", None, Deadline(None))
        shapes.append(s.shape(H.full_mask, s.columns))
    assert shapes[0] == shapes[1]
    assert textbook_dimension(_distinct(table)) == textbook_dimension(_distinct(other))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(table=symmetric_tables(), data=st.data())
def test_one_engine_over_many_version_spaces_matches_the_textbook_recursion(compiled, table, data):
    """One engine (its shape memo kept between queries) on many version spaces of one class: each value is
    the recursion's on those hypotheses -- refutations carried to isomorphic version spaces must be right."""
    from dimcalc import HypothesisClass
    from dimcalc.littlestone import VersionSpaceDimension

    H = HypothesisClass(table)
    rows = [tuple(int(v) for v in r) for r in H.distinct_rows]
    oracle = VersionSpaceDimension(H)
    full = (1 << len(rows)) - 1
    masks = data.draw(st.lists(st.integers(1, full), min_size=1, max_size=12))
    for mask in masks + [full]:
        chosen = sorted(rows[i] for i in range(len(rows)) if mask >> i & 1)
        assert oracle(H, mask) == textbook_dimension(chosen), mask
