"""What every generator shares: parameter checks, the size guard, the class builder and name lists."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np

from ..classes.hypothesis_class import MAX_CELLS, HypothesisClass
from ..errors import InvalidParameterError

__all__: list[str] = []


def check_size(rows: int, cols: int, owner: str, params: str, limit: int | None = None) -> None:
    """Refuse, before building, a table over ``limit`` cells (default MAX_CELLS; binary tables built one
    bit per cell may have MAX_BINARY_CELLS)."""
    limit = MAX_CELLS if limit is None else limit
    if rows * max(cols, 1) > limit:
        raise InvalidParameterError(
            f"{owner}: these parameters ({params}) give a {rows} x {cols} table, over dimcalc's limit of "
            f"{limit} cells; choose smaller ones"
        )


def make(
    table: Any,
    *,
    family: str,
    params: dict,
    source: str,
    name: str,
    point_names: list[str],
    hypothesis_names: list[str],
    num_labels: int = 2,
) -> HypothesisClass:
    """A generated class: its table, names and ``metadata = {"family", "params", "source"}``."""
    return HypothesisClass(
        table,
        num_labels=num_labels,
        point_names=point_names,
        hypothesis_names=hypothesis_names,
        name=name,
        metadata={"family": family, "params": dict(params), "source": source},
    )


def remake(G: HypothesisClass, *, family: str, params: dict, source: str, name: str) -> HypothesisClass:
    """Class ``G`` (built by an operation) with a generator's name and metadata; table, labels and names kept."""
    return make(
        G.table,
        family=family,
        params=params,
        source=source,
        num_labels=G.num_labels,
        name=name,
        point_names=list(G.point_names),
        hypothesis_names=list(G.hypothesis_names),
    )


def numbered(prefix: str, count: int) -> list[str]:
    """``[prefix0, prefix1, ...]``: the default names of points (``x``) and of hypotheses."""
    return [f"{prefix}{i}" for i in range(count)]


def tuples(base: int, length: int) -> np.ndarray:
    """All tuples of ``[base]^length`` as rows, first coordinate slowest (row-major order)."""
    return np.indices((base,) * length).reshape(length, -1).T.astype(np.int64)


def coordinate_names(points: np.ndarray) -> list[str]:
    """Names ``"a:b:..."`` of grid points given as rows."""
    return [":".join(map(str, row)) for row in points.tolist()]


def k_subsets(n: int, k: int) -> tuple[np.ndarray, list[str]]:
    """The indicator rows of the ``k``-subsets of ``{0..n-1}`` (lexicographic) and their names ``"{0,2}"``."""
    combos = np.array(list(itertools.combinations(range(n), k)), dtype=np.int64).reshape(-1, k)
    table = np.zeros((combos.shape[0], n), dtype=np.int64)
    np.put_along_axis(table, combos, 1, axis=1)
    names = ["{" + ",".join(map(str, c)) + "}" for c in combos.tolist()]
    return table, names
