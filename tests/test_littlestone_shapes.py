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
    from dimcalc.littlestone import counts, engine, splits

    monkeypatch.setattr(splits, "PYTHON_MAX_WORK", -1)
    monkeypatch.setattr(engine, "SHAPE_MIN_DEPTH", 2)  # the small classes' nodes of depth 2 too
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


def _shattered(tree: dict, table: np.ndarray, rows: list[tuple[int, ...]], depth: int) -> bool:
    """Every root-to-leaf path of ``tree`` (complete, of ``depth``) is realised by its leaf's row of ``table``
    (a row index), one of ``rows``: a mistake tree of that depth shattered by ``rows`` (nothing from dimcalc)."""

    def walk(node: dict, path: list[tuple[int, int]], level: int) -> bool:
        if "children" not in node:
            row = tuple(int(v) for v in table[node["hypothesis"]])
            return level == depth and row in rows and all(row[x] == b for x, b in path)
        x = int(node["point"])
        return all(walk(node["children"][b], [*path, (x, b)], level + 1) for b in (0, 1))

    return walk(tree, [], 0)


def engine_over_version_spaces(table: np.ndarray, data, max_size: int):
    """One engine (its memos kept between queries) over up to ``max_size`` drawn version spaces of ``table`` and
    the whole class: each answered at the recursion's value, each witness tree shattered by exactly that
    version space (checked by :func:`_shattered`, not by dimcalc).  Returns the engine (its counters)."""
    from dimcalc import HypothesisClass
    from dimcalc.littlestone.engine import Engine
    from dimcalc.littlestone.splitters import splitter_for
    from dimcalc.search.budget import Deadline

    H = HypothesisClass(table)
    rows = [tuple(int(v) for v in r) for r in H.distinct_rows]
    engine = Engine(H, splitter_for(H, "LD", None, Deadline(None)))
    engine.use_sat = False
    full = (1 << len(rows)) - 1
    masks = data.draw(st.lists(st.integers(1, full), min_size=1, max_size=max_size))
    for mask in masks + [full]:
        chosen = sorted(rows[i] for i in range(len(rows)) if mask >> i & 1)
        lower, upper, stopped = engine.solve(mask)
        assert not stopped and lower == upper == textbook_dimension(chosen), mask
        assert _shattered(engine.tree(mask, lower), table, chosen, lower), mask
    return engine


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(table=symmetric_tables(), data=st.data())
def test_twins_lower_bounds_give_shattered_trees_of_the_textbook_depth(compiled, table, data):
    """Rule 8: one engine over many version spaces (its shape memos kept between queries), each answered at
    the recursion's value, and each witness tree -- written from twins' trees, mapped column by column, where a
    twin proved the node -- shattered by exactly that version space (checked here, not by dimcalc)."""
    engine_over_version_spaces(table, data, 12)


def test_twins_prove_nodes_on_translates(compiled):
    """Intervals over 40 points (translates of one another): rule 8 proves nodes from twins (it fires), the
    value is that of the engine without twins (9), and both witness trees are shattered."""
    from dimcalc import generators
    from dimcalc.littlestone import counts
    from dimcalc.littlestone.engine import Engine
    from dimcalc.littlestone.splitters import splitter_for
    from dimcalc.search.budget import Deadline

    counts.load_kernels(1 << 40, None)
    H = generators.intervals(40)
    rows = [tuple(int(v) for v in r) for r in H.distinct_rows]
    values = []
    for twins in (False, True):
        engine = Engine(H, splitter_for(H, "LD", None, Deadline(None)))
        engine.use_sat = False
        if not twins:
            engine._twin_proves = lambda *args: False  # type: ignore[method-assign]
        lower, upper, _ = engine.solve(H.full_mask)
        assert lower == upper
        assert _shattered(engine.tree(H.full_mask, lower), H.table, rows, lower)
        values.append((lower, bool(engine.twins)))
    assert values == [(9, False), (9, True)]


def test_a_twin_with_its_columns_complemented_and_renamed_gets_a_shattered_tree(compiled):
    """Thresholds over 8 points (9 rows, D = 3) in columns 0-7, and a copy with its columns moved and
    complemented in columns 8-15 (a marker column tells the blocks apart): the copy is proven by its twin, the
    first block, and its tree is the first block's with each node's children swapped (9 rows: no column splits
    them half and half, so every column of the copy is complemented in the shape); it must be shattered."""
    from dimcalc import HypothesisClass
    from dimcalc.littlestone.engine import Engine
    from dimcalc.littlestone.splitters import splitter_for
    from dimcalc.search.budget import Deadline

    thresholds = np.array([[int(x >= t) for x in range(8)] for t in range(9)])
    a = np.hstack([thresholds, np.zeros((9, 8), dtype=int), np.zeros((9, 1), dtype=int)])
    b = np.hstack([np.zeros((9, 8), dtype=int), 1 - thresholds, np.ones((9, 1), dtype=int)])
    table = np.vstack([a, b])
    H = HypothesisClass(table)
    rows = [tuple(int(v) for v in r) for r in H.distinct_rows]
    engine = Engine(H, splitter_for(H, "LD", None, Deadline(None)))
    engine.use_sat = False
    first = sum(1 << i for i, r in enumerate(rows) if r[16] == 0)
    second = sum(1 << i for i, r in enumerate(rows) if r[16] == 1)
    assert engine.solve(first)[:2] == (3, 3)
    assert engine.at_least(second, 3, engine.splitter.columns) and second in engine.twins
    chosen = sorted(r for r in rows if r[16] == 1)
    assert _shattered(engine.tree(second, 3), table, chosen, 3)


@st.composite
def blocks_with_duplicate_columns(draw) -> tuple[np.ndarray, list[list[int]]]:
    """A pattern ``P`` and copies of it with some columns complemented, each followed by repeats of some of its
    columns (some complemented: duplicates up to labels, which the class's reduction keeps), one block each, each block marked by a column of its own; and each block's rows.  The columns
    keep their order (a shape lists them in the live list's order) and ``P`` has an odd number of rows (no column
    splits them half and half, so complementing is canonical): the copies are twins of the first block."""
    k = draw(st.integers(2, 4))
    r = draw(st.sampled_from([5, 7, 9, 11]))
    P = np.array(draw(st.lists(st.lists(st.integers(0, 1), min_size=k, max_size=k), min_size=r, max_size=r)))
    again = draw(st.lists(st.integers(0, k - 1), min_size=1, max_size=3))
    flips = np.array(draw(st.lists(st.integers(0, 1), min_size=len(again), max_size=len(again))))
    width = k + len(again)
    copies = draw(st.integers(1, 3))
    table = np.zeros((r * (copies + 1), width * (copies + 1) + copies + 1), dtype=int)
    for c in range(copies + 1):
        flip = np.array(draw(st.lists(st.integers(0, 1), min_size=k, max_size=k))) if c else np.zeros(k, dtype=int)
        Q = P ^ flip
        table[c * r : (c + 1) * r, c * width : (c + 1) * width] = np.hstack([Q, Q[:, again] ^ flips])
        table[c * r : (c + 1) * r, width * (copies + 1) + c] = 1
    return table, [list(range(c * r, (c + 1) * r)) for c in range(copies + 1)]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(drawn=blocks_with_duplicate_columns())
@pytest.mark.parametrize("packed", [False, True])
def test_every_column_of_a_twins_tree_is_a_column_of_its_shape(compiled, monkeypatch, packed, drawn):
    """Rule 8's map (``twins._mapped``) renames the columns of the rep's tree by their place among the columns not
    constant on the rep.  That covers every column of the tree: each splits a part of the rep into two non-empty
    parts, so it is not constant on the rep -- duplicate columns included (the pattern repeats some of its columns,
    some complemented).  One block solved, then the others (its twins), then the whole class; after each query
    every twin's rep tree is checked to use only columns not constant on the rep (on the splitter's column
    bitsets), and the twin's own tree shattered (on the table).  With ``packed``, the memo's keys are packed
    (``dimcalc.littlestone.memo_table``): twins are kept by their keys and read back as version spaces."""
    from dimcalc import HypothesisClass
    from dimcalc.littlestone import memo_table
    from dimcalc.littlestone.engine import Engine
    from dimcalc.littlestone.splitters import splitter_for
    from dimcalc.littlestone.twins import column_tree
    from dimcalc.search.budget import Deadline

    table, blocks = drawn
    H = HypothesisClass(table)
    rows = [tuple(int(v) for v in r) for r in H.distinct_rows]
    index = {r: i for i, r in enumerate(rows)}
    monkeypatch.setattr(memo_table, "PACK_MIN_ROWS", 0 if packed else 1 << 62)
    engine = Engine(H, splitter_for(H, "LD", None, Deadline(None)))
    assert engine.memo.packed == packed
    engine.use_sat = False
    ones = engine.splitter.ones  # each (reduced) column's 1s as a bitset over the distinct rows
    masks = [sum(1 << index[tuple(int(v) for v in table[i])] for i in set(b)) for b in blocks]
    seen = 0
    for mask in masks + [(1 << len(rows)) - 1]:
        engine.solve(mask)
        for V, rep in [tuple(map(engine.memo.version_space, kv)) for kv in engine.twins.items()]:
            depth = engine.memo[rep].lower
            engine.twin_cache = {}
            used = _tree_columns(column_tree(engine, rep, depth))
            not_constant = {c for c in range(len(ones)) if 0 < (rep & ones[c]).bit_count() < rep.bit_count()}
            assert used <= not_constant, (V, rep)
            chosen = sorted(rows[i] for i in range(len(rows)) if V >> i & 1)
            assert _shattered(engine.tree(V, depth), table, chosen, depth), V
            seen += 1
    TWINS_SEEN.append(seen)


TWINS_SEEN: list[int] = []


def _tree_columns(T: tuple | None) -> set[int]:
    """The columns of a nested ``(column, T0, T1)`` tree."""
    return set() if T is None else {T[0]} | _tree_columns(T[1]) | _tree_columns(T[2])


def test_twins_were_checked_above():
    """The property test above met twins (it is not vacuous): about a third of the drawn classes have some."""
    if TWINS_SEEN:  # run alone, this test has nothing to read
        assert sum(1 for n in TWINS_SEEN if n) >= max(1, len(TWINS_SEEN) // 8), TWINS_SEEN
