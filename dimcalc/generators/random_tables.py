"""Seeded random tables (binary or multiclass), for tests, sweeps and benchmarks."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..classes.bit_table import BitTable
from ..classes.hypothesis_class import HypothesisClass
from ..classes.table_input import cell_limit
from ..param_validation import RANDOM_STATE, renamed_parameters
from ..validation import check_int
from ._common import check_size, make, numbered

__all__ = ["random_class"]


@renamed_parameters(seed="random_state")
def random_class(hypotheses: int, points: int, labels: int = 2, random_state: Any = 0) -> HypothesisClass:
    """A random table with labels drawn uniformly from ``0..labels-1`` (seeded).

    Parameters
    ----------
    hypotheses : int
        Number of rows, ``>= 1``.
    points : int
        Number of points, ``>= 1``.
    labels : int, default 2
        Number of labels ``k + 1``, ``2 <= labels <= 65536``.
    random_state : None, int or numpy.random.Generator, default 0
        The random source (:data:`dimcalc.param_validation.RANDOM_STATE`): an int seed of
        ``numpy.random.default_rng`` gives the same table every time and is recorded in the class's
        name and ``metadata["params"]["seed"]`` (``dimcalc generate random --seed`` rebuilds it); a
        Generator is drawn from (nothing to record: ``seed`` is ``None``); ``None`` is fresh
        entropy.  ``seed=`` is its former name, accepted for one release with a ``FutureWarning``.

    Returns
    -------
    HypothesisClass
        Duplicate rows may occur; ``num_labels = labels``.

    Examples
    --------
    >>> random_class(3, 4, labels=3, random_state=1) == random_class(3, 4, labels=3, random_state=1)
    True
    >>> random_class(3, 4, random_state=1).name
    'random-binary-3x4-seed1'
    """
    hypotheses = check_int(hypotheses, "hypotheses", "random_class", 1)
    points = check_int(points, "points", "random_class", 1)
    labels = check_int(labels, "labels", "random_class", 2, 1 << 16)
    rng = RANDOM_STATE.check(random_state, "random_state", "random_class")
    seed = int(random_state) if isinstance(random_state, (int, np.integer)) else None  # what can be replayed
    check_size(hypotheses, points, "random_class", "hypotheses, points", cell_limit(labels))
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
        name=f"random-{kind}-{hypotheses}x{points}" + (f"-seed{seed}" if seed is not None else ""),
        point_names=numbered("x", points),
        hypothesis_names=numbered("h", hypotheses),
    )
