"""How a class is stored: the storage choice, and the interface a storage offers the class and the solvers.

:class:`~dimcalc.classes.hypothesis_class.HypothesisClass` keeps its table either dense (one
byte per cell, two beyond 256 labels) or, for binary tables, one bit per cell
(:class:`~dimcalc.classes.bit_table.BitTable`).  A storage other than the dense array is an
object satisfying :class:`TableStorage`: the class and the solvers read it only through
these methods, so a new storage (a sparse one, say) is a new class in this package behind
the same protocol, not a new branch in every solver (networkx keeps its graph classes side
by side in ``networkx/classes/`` in the same way).

>>> from dimcalc.classes.bit_table import BitTable
>>> import numpy as np
>>> isinstance(BitTable.from_dense(np.eye(3, dtype=np.uint8)), TableStorage)
True
>>> label_bits(2), label_bits(5)
(1, 3)
"""

from __future__ import annotations

import math
from typing import Any, Literal, Protocol, runtime_checkable

import numpy as np

__all__ = [
    "BITS_MIN_CELLS",
    "DENSE_CACHE_CELLS",
    "SPARSE_MAX_DENSITY",
    "Storage",
    "TableStorage",
    "Polled",
    "label_bits",
    "read_only",
    "storage_dtype",
]

#: Binary tables of at least this many cells are stored one bit per cell by default (``storage="auto"``).
BITS_MIN_CELLS = 1 << 20

#: Dense views of a bit-packed class (``table``, ``distinct_rows``) up to this many cells are kept once built;
#: larger ones are rebuilt on each access (callers that need them hold them).
DENSE_CACHE_CELLS = 1 << 24

#: The ``storage=`` choices of :class:`~dimcalc.classes.hypothesis_class.HypothesisClass`.
Storage = Literal["auto", "bits", "dense", "sparse"]

#: ``storage="auto"`` keeps a set system sparse when it has at most one incidence per this many cells.
SPARSE_MAX_DENSITY = 64


class Polled(Protocol):
    """What a long loop over a table polls between chunks: a search deadline (``check()`` raises when expired)."""

    def check(self) -> None: ...


@runtime_checkable
class TableStorage(Protocol):
    """A 0/1 table of ``n_rows`` hypotheses by ``n_cols`` points, stored other than as a dense array.

    Per point, the hypotheses labelling it 1 are read as little-endian ``uint64`` words
    (:mod:`dimcalc.classes.bitsets`), the layout every solver searches in.
    """

    n_rows: int

    @property
    def n_cols(self) -> int: ...

    @property
    def shape(self) -> tuple[int, int]: ...

    @property
    def nbytes(self) -> int: ...

    def label_words(self, points: Any, deadline: Any = None) -> np.ndarray: ...

    def count_ones(self) -> np.ndarray: ...

    def columns(self, points: Any) -> np.ndarray: ...

    def rows(self, idx: Any) -> np.ndarray: ...

    def dense(self, deadline: Any = None) -> np.ndarray: ...

    def take_rows(self, idx: Any, deadline: Any = None) -> Any: ...


def storage_dtype(num_labels: int) -> type:
    """The dtype dense tables are stored in: uint8 up to 256 labels, else uint16 (at most ``1 << 16`` labels)."""
    return np.uint8 if num_labels <= 1 << 8 else np.uint16


def read_only(arr: np.ndarray) -> np.ndarray:
    """``arr``, made read-only in place (the class's arrays are never written after it is built)."""
    arr.setflags(write=False)
    return arr


def label_bits(num_labels: int) -> int:
    """Number of bits of a label's binary expansion: ``ceil(log2(k+1))`` (at least 1)."""
    return max(1, math.ceil(math.log2(num_labels))) if num_labels > 1 else 1
