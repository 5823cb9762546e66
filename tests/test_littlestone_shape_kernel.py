"""The compiled shape of a version space (rules 7 and 8, ``_counts_impl.shape_words``) against its definition.

The reference below is written from the definition in ``ColumnSplitter.shape`` and imports nothing from
dimcalc: the rows of ``V`` on the columns of ``live`` not constant on ``V`` (in ``live``'s order), each
column complemented when more than half of ``V`` has a 1 there, rows as words (column ``p`` is bit ``p % 64``
of word ``p // 64``) sorted with word 0 most significant.  Wide cases (more than 64 such columns) exercise the
sort on whole rows; version spaces made of runs of consecutive hypotheses, the copy of a column's bits a run at a
time (runs across words, whole words).
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
    out_rows.sort()
    return [len(kept), r] + [w for row in out_rows for w in row]


@st.composite
def cases(draw):
    m = draw(st.integers(1, 300))
    n = draw(st.sampled_from([draw(st.integers(1, 12)), draw(st.integers(60, 140))]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    cells = (rng.random((m, n)) < draw(st.floats(0.05, 0.95))).astype(np.int64)
    live = draw(st.permutations(range(n)))[: draw(st.integers(0, n))]
    if draw(st.booleans()):
        rows = sorted(draw(st.sets(st.integers(0, m - 1), min_size=1, max_size=m)))
    else:  # runs of consecutive hypotheses (whole words among them), as version spaces of intervals have
        ranges = draw(st.lists(st.tuples(st.integers(0, m - 1), st.integers(1, 200)), min_size=1, max_size=3))
        rows = sorted({h for a, n in ranges for h in range(a, min(m, a + n))})
    return cells, list(live), rows


@pytest.mark.parametrize("max_rows", [2048, 5])
@settings(max_examples=60, deadline=None)
@given(case=cases())
def test_compiled_shape_is_the_definition(case, max_rows):
    from dimcalc.littlestone import counts

    counts.load_kernels(1 << 40, None)
    kernels = counts.compiled_kernels()
    if kernels is None:
        pytest.skip("numba not available")
    cells, live, rows = case
    m, n = cells.shape
    n_words = (m + 63) // 64
    words = np.zeros((n, n_words), dtype=np.uint64)
    for h, c in zip(*np.nonzero(cells)):
        words[c, h >> 6] |= np.uint64(1) << np.uint64(h & 63)
    v = np.zeros(n_words, dtype=np.uint64)
    for h in rows:
        v[h >> 6] |= np.uint64(1) << np.uint64(h & 63)
    got = kernels.shape_words(words, np.asarray(live, dtype=np.int64), v, max_rows).tolist()
    assert got == reference_shape(cells, live, rows, max_rows)
