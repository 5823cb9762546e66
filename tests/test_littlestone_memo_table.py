"""The memo's packed keys (``dimcalc.littlestone.memo_table``): lossless, the same bytes compiled or not, and the
same values and witnesses as the integer keys.

Twins kept by packed keys (rule 8): ``test_littlestone_shapes.test_every_column_of_a_twins_tree_is_a_column_of_its_shape``.
Searches run with packing forced on small classes (``PACK_MIN_ROWS = 0``) and are checked against
Littlestone's recursion of ``test_littlestone_engine.textbook_dimension`` (imports nothing from dimcalc) and
against the search with integer keys (the same value and the same witness tree).
"""

from __future__ import annotations

import gc

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from test_littlestone_engine import textbook_dimension

_WORDS = st.lists(
    st.one_of(st.just(0), st.just(0), st.integers(0, (1 << 64) - 1), st.integers(1, 255)), min_size=1, max_size=40
)


@settings(max_examples=200, deadline=None)
@given(words=_WORDS)
def test_packed_words_read_back_and_agree_compiled_or_not(words):
    from dimcalc.littlestone import counts
    from dimcalc.littlestone.memo_table import pack_words, unpack_words

    v = np.array(words, dtype=np.uint64)
    counts.load_kernels(1 << 40, None)
    by_numba = pack_words(v)
    counts.FORCE = False
    try:
        plain = pack_words(v)
    finally:
        counts.FORCE = None
    assert by_numba == plain
    assert unpack_words(plain, len(words)).tolist() == words
    assert len(plain) == 12 * sum(1 for w in words if w)


@settings(max_examples=100, deadline=None)
@given(a=_WORDS, b=_WORDS)
def test_two_version_spaces_share_a_key_only_when_equal(a, b):
    from dimcalc.littlestone.memo_table import pack_words

    n = max(len(a), len(b))
    a, b = a + [0] * (n - len(a)), b + [0] * (n - len(b))
    same = pack_words(np.array(a, dtype=np.uint64)) == pack_words(np.array(b, dtype=np.uint64))
    assert same == (a == b)


def test_recent_words_follow_the_object_not_its_identity():
    """An identity freed and reused by another version space never hands back the first one's words."""
    from dimcalc.littlestone.counts import words_of_int
    from dimcalc.littlestone.memo_table import Recent

    recent = Recent(3)
    rng = np.random.default_rng(0)
    for _ in range(2000):
        V = int(rng.integers(1, 1 << 62)) << int(rng.integers(0, 120))
        assert recent.words(V).tolist() == words_of_int(V, 3).tolist()
        assert recent.key(V) == recent.key(int(str(V)))  # an equal int, another object: the same key
        del V
        gc.collect(0)


@pytest.fixture(params=["numpy", "compiled"])
def packed(request, monkeypatch):
    from dimcalc.littlestone import counts, memo_table, splits

    monkeypatch.setattr(memo_table, "PACK_MIN_ROWS", 0)
    if request.param == "compiled":
        monkeypatch.setattr(splits, "PYTHON_MAX_WORK", -1)
        monkeypatch.setattr(counts, "FORCE", True)
        counts.load_kernels(1 << 40, None)
    else:
        monkeypatch.setattr(counts, "FORCE", False)
    return monkeypatch


@st.composite
def _tables(draw, rows: int, points: int) -> np.ndarray:
    """Distinct rows, drawn as integers; more than 64 when there are 7 points or more (several words of hypotheses)."""
    n = draw(st.integers(2, points))
    got = sorted(draw(st.sets(st.integers(0, (1 << n) - 1), min_size=min(65, 1 << n), max_size=rows)))
    return np.array([[(r >> j) & 1 for j in range(n)] for r in got])


def _distinct(table: np.ndarray) -> list[tuple[int, ...]]:
    return sorted({tuple(int(v) for v in r) for r in table})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(table=_tables(rows=200, points=9))  # up to 4 words of hypotheses: keys of several non-zero words
def test_packed_memo_gives_the_recursions_values_and_the_same_witnesses(packed, table):
    from dimcalc import HypothesisClass
    from dimcalc.littlestone import littlestone_dimension, memo_table, psi_littlestone_dimension

    H = HypothesisClass(table)
    r = littlestone_dimension(H, time_limit=20)  # a limit: a wrong memo may loop (a test that fails, not hangs)
    assert r.exact and r.value == textbook_dimension(_distinct(table))
    assert r.verify(H)
    u = psi_littlestone_dimension(H, "bin", uniform=True, time_limit=20)  # (V, prefix) keys: a tuple, V packed
    assert u.verify(H)
    assert memo_table.PACK_MIN_ROWS == 0
    with packed.context() as local:  # this example only (the fixture's patch holds for every example)
        local.setattr(memo_table, "PACK_MIN_ROWS", 1 << 62)
        plain = littlestone_dimension(H)
        plain_u = psi_littlestone_dimension(H, "bin", uniform=True)
    assert (plain.value, plain.witness) == (r.value, r.witness)
    assert (plain_u.value, plain_u.witness) == (u.value, u.witness)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(table=_tables(rows=200, points=9), batch=st.integers(1, 5))
def test_depth_one_splits_found_in_small_batches_give_the_same_tree(packed, table, batch):
    """The witness writer finds the splits of depth-1 nodes a batch at a time while it walks the memo (so that
    their version spaces are not all kept at once); batches of 1 to 5 give the tree of one batch."""
    from dimcalc import HypothesisClass
    from dimcalc.littlestone import littlestone_dimension
    from dimcalc.littlestone.memo import TreeWriter

    H = HypothesisClass(table)
    r = littlestone_dimension(H)
    with packed.context() as local:
        local.setattr(TreeWriter, "PAIR_BATCH", batch)
        small = littlestone_dimension(H)
    assert small.witness == r.witness and small.verify(H)


def test_the_engine_packs_the_keys_of_a_big_class():
    from dimcalc.bench.littlestone import intervals_class
    from dimcalc.littlestone.engine import Engine
    from dimcalc.littlestone.splitters import splitter_for
    from dimcalc.search.budget import Deadline

    H = intervals_class(200)  # 20 101 hypotheses: above PACK_MIN_ROWS
    engine = Engine(H, splitter_for(H, "LD", None, Deadline(None)))
    assert engine.memo.packed
    assert engine.at_least(H.full_mask, 3, engine.splitter.columns)
    assert all(isinstance(k, bytes) for k in engine.memo.table)
    assert engine.tree(H.full_mask, 3)["point"] is not None


def test_the_words_kept_for_a_child_are_its_own(monkeypatch):
    """The children's words come from the parent's (``v & words[column]`` and the rest), not from their integers:
    each one put in :class:`Recent` is checked against the integer's own words, on a search with packed keys."""
    from dimcalc.bench.littlestone import intervals_class
    from dimcalc.littlestone import littlestone_dimension
    from dimcalc.littlestone.counts import words_of_int
    from dimcalc.littlestone.memo_table import Recent

    put = Recent.put
    checked = []

    def checked_put(self, V, words, size=-1):
        assert words.tolist() == words_of_int(V, self.n_words).tolist()
        assert size in (-1, V.bit_count())  # a size kept with the words (from the parent's counts) is V's own
        checked.append(V)
        put(self, V, words, size)

    monkeypatch.setattr(Recent, "put", checked_put)
    H = intervals_class(190)  # 18 146 hypotheses: packed keys
    r = littlestone_dimension(H)
    assert r.value == 13 and r.verify(H) and len(checked) > 100
