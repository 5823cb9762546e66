"""The compiled shape of a version space (rules 7 and 8, ``_counts_impl.shape_words``) against its definition.

The reference below is written from the definition in ``ColumnSplitter.shape`` and imports nothing from
dimcalc: the rows of ``V`` on the columns of ``live`` not constant on ``V`` (in ``live``'s order), each
column complemented when more than half of ``V`` has a 1 there, rows as words (column ``p`` is bit ``p % 64``
of word ``p // 64``) ordered by the top ``b`` bits of a fixed 64-bit mix of their words (``b = max(8, 32 - i)``,
``i`` the bits of a row index), ties by the words, word 0 most significant.  Wide cases (more than 64 such
columns) exercise rows of several words, with rows alike on their first words; version spaces made of runs of
consecutive hypotheses, the copy of a column's bits a run at a time (runs across words, whole words).  The mix's
constants are the kernel's (``_counts_impl.MIX_*``), written here again.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st


def reference_shape(cells: np.ndarray, live: list[int], rows: list[int], max_rows: int) -> list[int]:
    """``cells[h, c]``: hypothesis ``h``'s label at column ``c``; ``rows``: the hypotheses of ``V``."""
    r = len(rows)
    if r > max_rows:
        return []
    kept, out_rows = reference_rows(cells, live, rows)
    out_rows.sort(key=lambda row: (_mix(row) >> (64 - _top_bits(r)), row))
    return [kept, r] + [w for row in out_rows for w in row]


def reference_rows(cells: np.ndarray, live: list[int], rows: list[int]) -> tuple[int, list[tuple[int, ...]]]:
    """The number of columns of ``live`` not constant on ``rows``, and the rows on them (each complemented where
    more than half of ``rows`` has a 1), as words, in index order (before the shape's order)."""
    r = len(rows)
    kept, flips = [], []
    for c in live:
        n = sum(int(cells[h, c]) for h in rows)
        if 0 < n < r:
            kept.append(c)
            flips.append(2 * n > r)
    nw = max(1, (len(kept) + 63) // 64)
    out_rows = []
    for h in sorted(rows):
        words = [0] * nw
        for p, (c, f) in enumerate(zip(kept, flips)):
            words[p // 64] |= (int(cells[h, c]) ^ int(f)) << (p % 64)
        out_rows.append(tuple(words))
    return len(kept), out_rows


_MASK = (1 << 64) - 1


def _mix(row: tuple[int, ...]) -> int:
    """From pi's digits, ``h = (h ^ word) * (golden ratio's digits) mod 2^64``, then ``h ^= h >> 29``, word by word."""
    h = 0x243F6A8885A308D3
    for word in row:
        h = ((h ^ word) * 0x9E3779B97F4A7C15) & _MASK
        h ^= h >> 29
    return h


def _top_bits(r: int) -> int:
    """The bits of the mix that order rows: ``max(8, 32 - i)`` for the ``i`` bits of a row index (at least 1)."""
    return max(8, 32 - max(1, (r - 1).bit_length()))


@st.composite
def cases(draw):
    m = draw(st.integers(1, 300))
    n = draw(st.sampled_from([draw(st.integers(1, 12)), draw(st.integers(60, 200))]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    cells = (rng.random((m, n)) < draw(st.floats(0.05, 0.95))).astype(np.int64)
    live = draw(st.permutations(range(n)))[: draw(st.integers(0, n))]
    if draw(st.booleans()):  # many rows alike on the first live columns: ties in the rows' first words
        templates = rng.integers(0, 2, size=(draw(st.integers(1, 40)), n))
        first = live[: draw(st.integers(0, len(live)))]
        cells[:, first] = templates[rng.integers(0, len(templates), size=m)][:, first]
    if draw(st.booleans()):
        rows = sorted(draw(st.sets(st.integers(0, m - 1), min_size=1, max_size=m)))
    else:  # runs of consecutive hypotheses (whole words among them), as version spaces of intervals have
        ranges = draw(st.lists(st.tuples(st.integers(0, m - 1), st.integers(1, 200)), min_size=1, max_size=3))
        rows = sorted({h for a, n in ranges for h in range(a, min(m, a + n))})
    return cells, list(live), rows


def _compiled_shape(cells: np.ndarray, live: list[int], rows: list[int], max_rows: int) -> list[int]:
    from dimcalc.littlestone import counts

    counts.load_kernels(1 << 40, None)
    kernels = counts.compiled_kernels()
    if kernels is None:
        pytest.skip("numba not available")
    m, n = cells.shape
    n_words = (m + 63) // 64
    words = np.zeros((n, n_words), dtype=np.uint64)
    for h, c in zip(*np.nonzero(cells)):
        words[c, h >> 6] |= np.uint64(1) << np.uint64(h & 63)
    v = np.zeros(n_words, dtype=np.uint64)
    for h in rows:
        v[h >> 6] |= np.uint64(1) << np.uint64(h & 63)
    return kernels.shape_words(words, np.asarray(live, dtype=np.int64), v, max_rows).tolist()  # type: ignore[no-any-return]


@pytest.mark.parametrize("max_rows", [2048, 5])
@settings(max_examples=60, deadline=None)
@given(case=cases())
def test_compiled_shape_is_the_definition(case, max_rows):
    cells, live, rows = case
    assert _compiled_shape(cells, live, rows, max_rows) == reference_shape(cells, live, rows, max_rows)


@pytest.mark.parametrize("templates", [2, 40])
def test_rows_alike_on_their_first_word_are_ordered_by_the_rest(templates):
    """200 rows over 150 columns whose first 70 columns repeat a few template rows: many rows tie on their first
    word (groups of about 100 with 2 templates, about 5 with 40), and the later columns order them."""
    rng = np.random.default_rng(templates)
    cells = rng.integers(0, 2, size=(200, 150))
    cells[:, :70] = rng.integers(0, 2, size=(templates, 70))[rng.integers(0, templates, size=200)]
    live, rows = list(range(150)), list(range(200))
    assert _compiled_shape(cells, live, rows, 4096) == reference_shape(cells, live, rows, 4096)


@pytest.mark.parametrize("n_columns", [64, 100])
def test_rows_whose_mixes_tie_are_ordered_by_their_words(n_columns):
    """3 000 distinct random rows: their 20 top bits of the mix tie for a few pairs (about 4 expected), and for
    some of them the row of the lower index has the greater words, so the ties must be broken by the words (ties
    left in index order fail here; asserted below that such a pair is present, not left to chance)."""
    rng = np.random.default_rng(5)  # 7 and 5 ties, 2 and 4 of them inverted
    cells = rng.integers(0, 2, size=(3000, n_columns))
    live, rows = list(range(n_columns)), list(range(3000))
    expected = reference_shape(cells, live, rows, 4096)
    k, by_index = reference_rows(cells, live, rows)  # the rows in index order
    r = len(by_index)
    assert (k, r) == (n_columns, 3000)
    assert len(set(by_index)) == r  # distinct: every tie is a collision of the mix's top bits
    top: dict[int, int] = {}
    inverted = 0
    for i, row in enumerate(by_index):
        j = top.setdefault(_mix(row) >> (64 - _top_bits(r)), i)
        inverted += j != i and by_index[j] > row
    assert inverted >= 1
    assert _compiled_shape(cells, live, rows, 4096) == expected
