"""The views a class offers of its storage: the dense table, bit tables, sparse tables, columns and rows.

:class:`~dimcalc.classes.hypothesis_class.HypothesisClass` keeps its table in one
storage (dense, one bit per cell, or sparse: :mod:`dimcalc.classes.storage`) and
derives the others on demand, here: a dense view of a bit-stored class is built on
access and kept up to :data:`~dimcalc.classes.storage.DENSE_CACHE_CELLS` cells; a
sparse class refuses, in one line, a dense or bit view over
:data:`~dimcalc.classes.sparse_table.DENSE_VIEW_CELLS` cells.  The caches are the
class's own (views of its immutable table), never answers of a solver.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import InvalidClassError
from .bit_table import BitTable
from .bitsets import dense_label_words, words_to_ints
from .sparse_table import DENSE_VIEW_CELLS, SparseTable
from .storage import DENSE_CACHE_CELLS
from .storage import read_only as _read_only

__all__ = ["StorageViews"]


class StorageViews:
    """The storage views of :class:`~dimcalc.classes.hypothesis_class.HypothesisClass` (a base class of it)."""

    __slots__ = ()  # the attributes are the class's slots

    _shape: tuple[int, int]
    _table: np.ndarray | None
    _distinct: np.ndarray | None
    _bits: BitTable | None
    _distinct_bits: BitTable | None
    _sparse: SparseTable | None
    _distinct_sparse: SparseTable | None
    _distinct_to_row: np.ndarray
    _row_to_distinct: np.ndarray
    _num_labels: int

    # ------------------------------------------------------------------ storage
    @property
    def storage(self) -> str:
        """``"bits"`` (one bit per cell), ``"dense"`` (one byte per cell; two beyond 256 labels) or ``"sparse"``."""
        return "sparse" if self._sparse is not None else "bits" if self._bits is not None else "dense"

    @property
    def sparse_table(self) -> SparseTable | None:
        """The 1 cells of every row (:class:`~dimcalc.classes.sparse_table.SparseTable`), or ``None`` unless sparse."""
        return self._sparse

    @property
    def distinct_sparse_table(self) -> SparseTable | None:
        """The 1 cells of the distinct rows, or ``None`` unless sparse."""
        return self._distinct_sparse

    def _refuse_dense(self, what: str) -> None:
        """Refuse, in one line, a dense view of a sparse class over :data:`DENSE_VIEW_CELLS` cells."""
        cells = self._shape[0] * self._shape[1]
        if cells > DENSE_VIEW_CELLS:
            raise InvalidClassError(
                f"{what} of this sparse class would have {self._shape[0]}x{self._shape[1]} cells, over dimcalc's "
                f"limit of {DENSE_VIEW_CELLS} for a dense view; use a solver that reads the sparse storage "
                "(vc_dimension) or a smaller class"
            )

    def _sparse_bits(self, key: str, table: SparseTable) -> BitTable:
        cached = self.__dict__.get(key)
        if cached is None:
            self._refuse_dense("the bit table")
            cached = self.__dict__[key] = table.to_bits()
        return cached

    @property
    def bit_table(self) -> BitTable | None:
        """The one-bit-per-cell table (every row), or ``None`` for dense storage.

        A sparse class builds it on access (kept), up to :data:`DENSE_VIEW_CELLS` cells; beyond, it refuses.
        """
        if self._sparse is not None:
            return self._sparse_bits("_sparse_bits_all", self._sparse)
        return self._bits

    @property
    def distinct_bit_table(self) -> BitTable | None:
        """The one-bit-per-cell table of the distinct rows, or ``None`` for dense storage (sparse: as :attr:`bit_table`)."""
        if self._distinct_sparse is not None:
            return self._sparse_bits("_sparse_bits_distinct", self._distinct_sparse)
        return self._distinct_bits

    @property
    def nbytes(self) -> int:
        """Bytes held by the class's tables (storage, distinct rows, row maps and the dense views kept).

        Examples
        --------
        >>> import numpy as np
        >>> t = np.eye(64, dtype=np.uint8)
        >>> from dimcalc import HypothesisClass
        >>> HypothesisClass(t).nbytes - HypothesisClass(t, storage="bits").nbytes  # 4096 cells: 4096 vs 512 bytes
        3584
        """
        arrays = [self._table, self._distinct, self._distinct_to_row, self._row_to_distinct]
        arrays += [self.__dict__.get("_dense_table"), self.__dict__.get("_dense_distinct")]
        total = sum(a.nbytes for a in {id(a): a for a in arrays if a is not None}.values())
        if self._sparse is not None:
            total += self._sparse.nbytes
            if self._distinct_sparse is not self._sparse:
                total += self._distinct_sparse.nbytes  # type: ignore[union-attr]
        if self._bits is not None:
            total += self._bits.nbytes
            if self._distinct_bits is not self._bits:
                total += self._distinct_bits.nbytes  # type: ignore[union-attr]
        return int(total)

    def _dense(self, key: str, bits: BitTable) -> np.ndarray:
        cached = self.__dict__.get(key)
        if cached is not None:
            return cached
        dense = _read_only(bits.dense())
        if dense.size <= DENSE_CACHE_CELLS:
            self.__dict__[key] = dense
        return dense

    @property
    def table(self) -> np.ndarray:
        """The full table as given (read-only, duplicates kept; ``uint8``, or ``uint16`` beyond 256 labels).

        With bit storage it is built on access (kept when at most
        :data:`DENSE_CACHE_CELLS` cells): prefer :attr:`bit_table` on big classes.
        """
        if self._table is not None:
            return self._table
        if self._sparse is not None:
            return self._sparse_dense("_dense_table", self._sparse, "the dense table")
        assert self._bits is not None
        return self._dense("_dense_table", self._bits)

    def _sparse_dense(self, key: str, table: SparseTable, what: str) -> np.ndarray:
        cached = self.__dict__.get(key)
        if cached is not None:
            return cached
        self._refuse_dense(what)
        dense = _read_only(table.dense())
        if dense.size <= DENSE_CACHE_CELLS:
            self.__dict__[key] = dense
        return dense

    @property
    def distinct_rows(self) -> np.ndarray:
        """The distinct rows in order of first occurrence (read-only; built on access with bit storage)."""
        if self._distinct is not None:
            return self._distinct
        if self._distinct_sparse is not None:
            return self._sparse_dense("_dense_distinct", self._distinct_sparse, "the distinct rows")
        assert self._distinct_bits is not None
        return self._dense("_dense_distinct", self._distinct_bits)

    def columns(self, points: Any) -> np.ndarray:
        """The dense columns ``points`` of the full table, shape ``(n_hypotheses, len(points))``, whatever the storage.

        Reads only those columns: what a witness checker needs of a big class.

        >>> from dimcalc import HypothesisClass
        >>> HypothesisClass([[0, 1, 2], [1, 1, 0]]).columns([2, 0]).tolist()
        [[2, 0], [0, 1]]
        """
        points = np.asarray(points, dtype=np.int64).reshape(-1)
        if self._sparse is not None:
            return self._sparse.columns(points)
        if self._bits is not None:
            return self._bits.columns(points)
        return self.table[:, points]

    def distinct_row(self, j: int) -> np.ndarray:
        """Distinct row ``j`` (a dense 1-D array; reads one row, whatever the storage).

        >>> from dimcalc import HypothesisClass
        >>> HypothesisClass([[0, 1], [0, 1], [1, 1]], storage="bits").distinct_row(1).tolist()
        [1, 1]
        """
        if self._distinct is not None:
            return self._distinct[j]
        if self._distinct_sparse is not None:
            return self._distinct_sparse.rows([j])[0]
        assert self._distinct_bits is not None
        return self._distinct_bits.rows([j])[0]

    def point_label_words(self, points: Any, deadline: Any = None) -> np.ndarray:
        """``out[l, u]``: the distinct rows giving label ``l`` to ``points[u]``, as little-endian ``uint64`` words.

        Shape ``(num_labels, len(points), ceil(n_distinct / 64))``; bit ``j`` of
        the words is distinct row ``j``.  With a ``deadline``
        (:class:`dimcalc.search.budget.Deadline`) it is polled between chunks of
        points (:class:`~dimcalc.search.budget.SearchStopped` once expired).
        """
        if self._distinct_sparse is not None:
            if self._shape[0] * self._shape[1] <= DENSE_VIEW_CELLS:
                return self.distinct_bit_table.label_words(points, deadline)  # type: ignore[union-attr]
            n = len(np.asarray(points).reshape(-1))
            if n * len(self._distinct_to_row) > DENSE_VIEW_CELLS:
                self._refuse_dense(f"the bitsets of {n} points")
            return self._distinct_sparse.label_words(points)
        if self._distinct_bits is not None:  # the storage itself: label 1 = the stored bits, label 0 = the rest
            return self._distinct_bits.label_words(points, deadline)
        return dense_label_words(self.distinct_rows, points, self._num_labels, deadline)

    def point_label_masks(self, points: Any, deadline: Any = None) -> tuple[tuple[int, ...], ...]:
        """``out[u][l]``: bitset (Python int) of distinct rows giving label ``l`` to point ``points[u]``.

        See :meth:`point_label_words` for ``deadline``.
        """
        words = self.point_label_words(points, deadline)
        per_label = [words_to_ints(words[lab]) for lab in range(self._num_labels)]
        return tuple(zip(*per_label)) if per_label and len(per_label[0]) else tuple(() for _ in range(words.shape[1]))
