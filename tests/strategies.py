"""Hypothesis strategies for finite classes, shared by every property test.

One place for the random classes the property tests draw: :func:`tables` draws the rows of a class
over a given domain and label set, :func:`classes` a whole :class:`~dimcalc.HypothesisClass` with the
number of labels, points and rows drawn from the given ranges (bounds inclusive; duplicate rows are
possible, as in real class files).  ``biased=True`` mixes in sparse and small-cube tables, on which
shattered sets are common (uniform tables over many points rarely shatter anything).

Every test states its ranges at the call site; the defaults are the small classes that the
definition-level references (``brute_littlestone``, ``brute_vc``) handle in milliseconds.
"""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from dimcalc import HypothesisClass

__all__ = ["classes", "tables"]


def tables(n_points: int, num_labels: int, *, min_rows: int = 1, max_rows: int = 8) -> st.SearchStrategy:
    """Rows (lists of ``n_points`` labels in ``0..num_labels-1``), between ``min_rows`` and ``max_rows`` of them."""
    row = st.lists(st.integers(0, num_labels - 1), min_size=n_points, max_size=n_points)
    return st.lists(row, min_size=min_rows, max_size=max_rows)


@st.composite
def _biased_table(draw, n_points: int, num_labels: int, *, min_rows: int, max_rows: int) -> np.ndarray:
    """A table drawn from a seeded generator in one of three styles: uniform, sparse, small cube."""
    m = draw(st.integers(min_rows, max_rows))
    style = draw(st.sampled_from(["uniform", "sparse", "structured"]))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    shape = (m, n_points)
    if style == "uniform":
        return rng.integers(0, num_labels, size=shape)
    if style == "sparse":
        return np.where(rng.random(shape) < 0.3, rng.integers(0, num_labels, size=shape), 0)
    # Rows from a small cube {0, 1} + offset, so that shattered sets are common.
    return rng.integers(0, 2, size=shape) + rng.integers(0, num_labels - 1, size=(1, n_points))


@st.composite
def classes(
    draw,
    *,
    min_labels: int = 2,
    max_labels: int = 4,
    min_points: int = 1,
    max_points: int = 4,
    min_rows: int = 1,
    max_rows: int = 8,
    biased: bool = False,
) -> HypothesisClass:
    """A class with ``min_labels..max_labels`` labels, ``min_points..max_points`` points and
    ``min_rows..max_rows`` rows (duplicates possible); ``biased`` draws the table as :func:`_biased_table`."""
    num_labels = draw(st.integers(min_labels, max_labels))
    n_points = draw(st.integers(min_points, max_points))
    if biased:
        table = draw(_biased_table(n_points, num_labels, min_rows=min_rows, max_rows=max_rows))
    else:
        rows = draw(tables(n_points, num_labels, min_rows=min_rows, max_rows=max_rows))
        table = np.array(rows, dtype=np.int64).reshape(len(rows), n_points)
    return HypothesisClass(table.astype(np.int64), num_labels=num_labels)
