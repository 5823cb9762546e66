"""Seeded random tables (binary or multiclass), for tests, sweeps and benchmarks."""

from __future__ import annotations

import numpy as np

from ..classes.bit_table import BitTable
from ..classes.hypothesis_class import HypothesisClass
from ..classes.table_input import cell_limit
from ..validation import check_int
from ._common import check_size, make, numbered

__all__ = ["random_class"]


def random_class(hypotheses: int, points: int, labels: int = 2, seed: int = 0) -> HypothesisClass:
    """A random table with labels drawn uniformly from ``0..labels-1`` (seeded).

    Parameters
    ----------
    hypotheses : int
        Number of rows, ``>= 1``.
    points : int
        Number of points, ``>= 1``.
    labels : int, default 2
        Number of labels ``k + 1``, ``2 <= labels <= 65536``.
    seed : int, default 0
        Seed of ``numpy.random.default_rng``; the same seed gives the same table.

    Returns
    -------
    HypothesisClass
        Duplicate rows may occur; ``num_labels = labels``.

    Examples
    --------
    >>> random_class(3, 4, labels=3, seed=1) == random_class(3, 4, labels=3, seed=1)
    True
    """
    hypotheses = check_int(hypotheses, "hypotheses", "random_class", 1)
    points = check_int(points, "points", "random_class", 1)
    labels = check_int(labels, "labels", "random_class", 2, 1 << 16)
    seed = check_int(seed, "seed", "random_class", 0)
    check_size(hypotheses, points, "random_class", "hypotheses, points", cell_limit(labels))
    rng = np.random.default_rng(seed)
    table: np.ndarray | BitTable
    if labels == 2:  # the same stream drawn in chunks, one bit per cell: no dense table
        table = BitTable.from_row_stream(hypotheses, points, lambda k: rng.integers(0, 2, size=k, dtype=np.int64))
    else:
        table = rng.integers(0, labels, size=(hypotheses, points), dtype=np.int64)
    kind = "binary" if labels == 2 else f"{labels}-labels"
    return make(
        table,
        family="random",
        params={"hypotheses": hypotheses, "points": points, "labels": labels, "seed": seed},
        source="uniform random labels (numpy default_rng)",
        num_labels=labels,
        name=f"random-{kind}-{hypotheses}x{points}-seed{seed}",
        point_names=numbered("x", points),
        hypothesis_names=numbered("h", hypotheses),
    )
