"""The finite hypothesis class: an immutable, validated table of labels.

Rows are hypotheses, columns are domain points, entries are labels in
``{0, ..., k}``.  A :class:`HypothesisClass` is validated once, when it is
built, and is immutable afterwards; every solver trusts it.

Dimensions are computed on the *distinct* rows.  Solvers work with version
spaces represented as bitsets over distinct-row indices (Python ``int`` or
``uint64`` words): ``H.label_masks[i][l]`` has bit ``j`` set when distinct row
``j`` gives label ``l`` to point ``i``.  Witnesses map back to the file's row
indices through :attr:`HypothesisClass.distinct_to_row`.

Storage.  A table with more than two labels is stored one byte per cell (two
beyond 256 labels).  A binary table of at least :data:`BITS_MIN_CELLS` cells
(or any binary table, with ``storage="bits"``) is stored one bit per cell, as
those very bitsets (:class:`~dimcalc.classes.bit_table.BitTable`: per point, the
hypotheses labelling it 1): the solvers' per-point words are slices of it, the
distinct rows and the column reduction are computed on it
(:mod:`dimcalc.classes.bit_groups`), and the dense :attr:`~HypothesisClass.table` /
:attr:`~HypothesisClass.distinct_rows` are built only when asked for (kept
when small).  Hence binary tables may have up to :data:`MAX_BINARY_CELLS`
cells, others :data:`MAX_CELLS`.

A binary class may also be stored by its 1 cells (``storage="sparse"``:
:class:`~dimcalc.classes.sparse_table.SparseTable`, sets x elements in CSR plus the
transpose), memory proportional to the incidences: the set systems of
:meth:`~HypothesisClass.from_sets`, :meth:`~HypothesisClass.from_networkx`
and :meth:`~HypothesisClass.from_scipy_sparse` are, when a dense table would
be large (``storage="auto"``: at least :data:`BITS_MIN_CELLS` cells, under
one incidence in :data:`SPARSE_MAX_DENSITY` cells, or over
:data:`MAX_BINARY_CELLS` cells).  The VC dimension of a sparse class is
searched on the incidences (:mod:`dimcalc.vc.sparse`); every other solver
reads the dense or bit views, which a sparse class builds only up to
:data:`~dimcalc.classes.sparse_table.DENSE_VIEW_CELLS` cells and refuses, in one line,
beyond.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any

import numpy as np

from ..errors import InvalidClassError
from .bit_groups import distinct_dense_rows, reduce_bit_columns
from .bit_groups import distinct_rows as _distinct_bit_rows
from .bit_table import BitTable, from_bit_columns, from_packed
from .bitsets import mask_bits, words_to_ints
from .reduction import ColumnReduction, reduce_columns
from .set_systems import from_networkx, from_scipy_sparse, from_sets
from .sparse_table import DENSE_VIEW_CELLS, SparseTable
from .storage import BITS_MIN_CELLS, DENSE_CACHE_CELLS, SPARSE_MAX_DENSITY, Storage, label_bits
from .storage import read_only as _read_only
from .storage import storage_dtype as _storage_dtype
from .table_input import (
    MAX_BINARY_CELLS,
    MAX_CELLS,
    cell_limit,
    check_cells,
    check_names,
    check_num_labels,
    describe,
    table_from_array,
    table_from_lists,
)
from .views import StorageViews

__all__ = [
    "HypothesisClass",
    "MAX_CELLS",
    "MAX_BINARY_CELLS",
    "BITS_MIN_CELLS",
    "DENSE_CACHE_CELLS",
    "SPARSE_MAX_DENSITY",
    "label_bits",
    "words_to_ints",
    "mask_bits",
]


class HypothesisClass(StorageViews):
    """An immutable finite hypothesis class over a finite domain.

    Parameters
    ----------
    table : array_like of int, shape (n_hypotheses, n_points), BitTable or SparseTable
        Row ``j`` is hypothesis ``j``; column ``i`` is domain point ``i``;
        entries are labels ``0..k``.  Nested lists, an integer numpy array
        (possibly memory-mapped: it is read chunk by chunk), or a
        :class:`~dimcalc.classes.bit_table.BitTable` (a binary table, one bit per cell), or a
        :class:`~dimcalc.classes.sparse_table.SparseTable` (a binary table by its 1 cells).
    num_labels : int, optional
        The number of labels ``k + 1``; must exceed every entry.  Defaults to
        ``max(2, max entry + 1)``, so a 0/1 table is binary.
    point_names, hypothesis_names : sequence of str, optional
        Names of the columns (must be unique) and of the rows.
    name : str, optional
        Name of the class.
    metadata : mapping, optional
        Free-form information kept with the class (e.g. generator parameters).
    storage : {"auto", "bits", "dense", "sparse"}
        How the table is stored (see the module docstring): ``"bits"``, one bit
        per cell (binary classes only); ``"dense"``, one byte per cell;
        ``"sparse"``, the 1 cells in CSR (binary classes only); ``"auto"``
        (default), sparse for a :class:`~dimcalc.classes.sparse_table.SparseTable` that
        is large and sparse (module docstring), else bits for binary tables of
        at least :data:`BITS_MIN_CELLS` cells.  Every value and witness is the
        same either way.

    Raises
    ------
    InvalidClassError
        If the table is empty, ragged, too large (:data:`MAX_CELLS`,
        :data:`MAX_BINARY_CELLS`), or has a label that is not an integer in
        ``0..num_labels-1``.

    Examples
    --------
    >>> H = HypothesisClass.from_table([[0, 0, 1], [0, 1, 1], [1, 1, 1], [0, 1, 1]])
    >>> H.n_hypotheses, H.n_distinct, H.n_points, H.num_labels
    (4, 3, 3, 2)
    >>> bin(H.label_masks[1][1])  # distinct rows 1 and 2 label point 1 with 1
    '0b110'
    >>> H.distinct_to_row.tolist(), H.row_to_distinct.tolist()
    ([0, 1, 2], [0, 1, 2, 1])
    >>> B = HypothesisClass.from_table([[0, 0, 1], [0, 1, 1], [1, 1, 1], [0, 1, 1]], storage="bits")
    >>> B.storage, B == H, B.bit_table.words.tolist()  # per point, the hypotheses labelling it 1
    ('bits', True, [[4], [14], [15]])
    """

    __slots__ = (
        "_table",
        "_bits",
        "_distinct_bits",
        "_sparse",
        "_distinct_sparse",
        "_shape",
        "_num_labels",
        "_point_names",
        "_hypothesis_names",
        "_name",
        "_metadata",
        "_distinct",
        "_distinct_to_row",
        "_row_to_distinct",
        "__dict__",
    )
    _table: np.ndarray | None
    _bits: BitTable | None
    _distinct_bits: BitTable | None
    _distinct: np.ndarray | None
    _sparse: SparseTable | None
    _distinct_sparse: SparseTable | None
    _num_labels: int
    _shape: tuple[int, int]

    def __init__(
        self,
        table: Any,
        *,
        num_labels: int | None = None,
        point_names: Sequence[str] | None = None,
        hypothesis_names: Sequence[str] | None = None,
        name: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        storage: Storage = "auto",
    ) -> None:
        if storage not in ("auto", "bits", "dense", "sparse"):
            raise InvalidClassError(f"storage must be 'auto', 'bits', 'dense' or 'sparse'; got {describe(storage)}")
        arr: np.ndarray | None = None
        self._sparse = self._distinct_sparse = None
        if isinstance(table, SparseTable):
            if table.n_rows == 0:
                raise InvalidClassError("the class is empty: give at least one hypothesis (row)")
            num_labels = check_num_labels(num_labels, 0, None)
            if num_labels != 2:
                raise InvalidClassError(f"a sparse table is a binary class: labels must be 2; got {num_labels}")
            cells = table.n_rows * table.n_cols
            keep = storage == "sparse" or (
                storage == "auto"
                and (cells > cell_limit(2) or (cells >= BITS_MIN_CELLS and table.nnz * SPARSE_MAX_DENSITY <= cells))
            )
            if keep:
                self._init_sparse(table)
            else:
                check_cells(table.n_rows, table.n_cols, 2)
                table = table.to_bits()
        elif storage == "sparse":
            # A dense or bit table asked to be sparse: read its 1 cells chunk by chunk.
            if isinstance(table, BitTable):
                sparse = SparseTable.from_bits(table)
            else:
                arr = table_from_array(table) if isinstance(table, np.ndarray) else table_from_lists(table)
                if check_num_labels(num_labels, int(arr.max()) if arr.size else 0, arr) != 2:
                    raise InvalidClassError("storage='sparse' needs a binary class (2 labels)")
                sparse = SparseTable.from_dense(arr)
            self._init_sparse(sparse)
            num_labels = 2
        if self._sparse is not None:
            self._num_labels = 2
            self._shape = (self._sparse.n_rows, self._sparse.n_cols)
            self._finish(point_names, hypothesis_names, name, metadata)
            return
        if isinstance(table, BitTable):
            bits: BitTable | None = table
            if table.n_rows == 0:
                raise InvalidClassError("the class is empty: give at least one hypothesis (row)")
            num_labels = check_num_labels(num_labels, 0, None)  # validated as a count; a bit table needs 2
            if num_labels != 2:
                raise InvalidClassError(f"a bit table is a binary class: labels must be 2; got {num_labels}")
            check_cells(table.n_rows, table.n_cols, 2)
        else:
            arr = table_from_array(table) if isinstance(table, np.ndarray) else table_from_lists(table)
            num_labels = check_num_labels(num_labels, int(arr.max()) if arr.size else 0, arr)
            check_cells(arr.shape[0], arr.shape[1], num_labels)
            bits = None
        if storage == "bits" and num_labels != 2:
            raise InvalidClassError(f"storage='bits' needs a binary class (2 labels); this one has {num_labels}")
        self._num_labels = num_labels
        shape = (table.n_rows, table.n_cols) if bits is not None else arr.shape  # type: ignore[union-attr]
        self._shape = (int(shape[0]), int(shape[1]))
        use_bits = num_labels == 2 and (storage == "bits" or (storage == "auto" and math.prod(shape) >= BITS_MIN_CELLS))
        if bits is not None and (storage == "dense" or (storage == "auto" and not use_bits)):
            check_cells(shape[0], shape[1], 3)  # a dense copy takes a byte per cell
            arr, bits = bits.dense(), None
        elif arr is not None and use_bits:
            bits = BitTable.from_dense(arr)
        if bits is not None:
            self._table = None
            self._bits = bits
            first, inverse = _distinct_bit_rows(bits)
            self._distinct_bits = bits if len(first) == bits.n_rows else bits.take_rows(first)
            self._distinct = None
        else:
            assert arr is not None
            # A compact private copy (never the caller's array): one byte per cell up to 256 labels.
            self._table = _read_only(arr.astype(_storage_dtype(num_labels), copy=True))
            self._bits = self._distinct_bits = None
            first, inverse = distinct_dense_rows(self._table)
            # All rows distinct: first occurrences are 0, 1, ... in order, so share the table.
            self._distinct = self._table if len(first) == shape[0] else _read_only(self._table[first])
        self._distinct_to_row = _read_only(first)
        self._row_to_distinct = _read_only(inverse)
        self._finish(point_names, hypothesis_names, name, metadata)

    def _init_sparse(self, table: SparseTable) -> None:
        """Sparse storage: the table, its distinct rows (exact grouping) and the row maps."""
        self._table = self._distinct = None
        self._bits = self._distinct_bits = None
        self._sparse = table
        first, inverse = table.distinct_rows()
        self._distinct_sparse = table if len(first) == table.n_rows else table.take_rows(first)
        self._distinct_sparse.transpose()  # built with the class, so a search's time limit never pays for it
        self._distinct_to_row = _read_only(first)
        self._row_to_distinct = _read_only(inverse)

    def _finish(self, point_names: Any, hypothesis_names: Any, name: Any, metadata: Any) -> None:
        shape = self._shape
        self._point_names = check_names(point_names, shape[1], "domain", unique=True)
        self._hypothesis_names = check_names(hypothesis_names, shape[0], "hypothesis_names", unique=False)
        if name is not None and not isinstance(name, str):
            raise InvalidClassError(f"name must be a string; got {describe(name)}")
        self._name = name
        self._metadata = dict(metadata) if metadata else {}

    @classmethod
    def from_table(cls, table: Any, **kwargs: Any) -> HypothesisClass:
        """Build a class from nested lists or a numpy array (see the class docstring)."""
        return cls(table, **kwargs)

    from_packed: classmethod[HypothesisClass, ..., HypothesisClass] = classmethod(from_packed)
    from_bit_columns: classmethod[HypothesisClass, ..., HypothesisClass] = classmethod(from_bit_columns)
    from_sets: classmethod[HypothesisClass, ..., HypothesisClass] = classmethod(from_sets)
    from_networkx: classmethod[HypothesisClass, ..., HypothesisClass] = classmethod(from_networkx)

    from_scipy_sparse: classmethod[HypothesisClass, ..., HypothesisClass] = classmethod(from_scipy_sparse)

    # ------------------------------------------------------------------ basic facts
    @property
    def num_labels(self) -> int:
        """Number of labels ``k + 1``."""
        return self._num_labels

    @property
    def max_label(self) -> int:
        """``k``: labels are ``0..k``."""
        return self._num_labels - 1

    @property
    def is_binary(self) -> bool:
        """True when the class has at most two labels."""
        return self._num_labels <= 2

    @property
    def n_hypotheses(self) -> int:
        """Number of rows, duplicates included."""
        return self._shape[0]

    @property
    def n_points(self) -> int:
        """Size of the domain."""
        return self._shape[1]

    @property
    def n_distinct(self) -> int:
        """Number of distinct hypotheses (rows)."""
        return int(self._distinct_to_row.shape[0])

    @property
    def distinct_to_row(self) -> np.ndarray:
        """For distinct index ``j``, the file row index of its first occurrence."""
        return self._distinct_to_row

    @property
    def row_to_distinct(self) -> np.ndarray:
        """For file row ``r``, its distinct index."""
        return self._row_to_distinct

    @property
    def point_names(self) -> tuple[str, ...]:
        """Names of the domain points (``x0, x1, ...`` when none were given)."""
        return self._point_names if self._point_names is not None else tuple(f"x{i}" for i in range(self.n_points))

    @property
    def hypothesis_names(self) -> tuple[str, ...]:
        """Names of the rows (``h0, h1, ...`` when none were given)."""
        if self._hypothesis_names is not None:
            return self._hypothesis_names
        return tuple(f"h{j}" for j in range(self.n_hypotheses))

    @property
    def has_point_names(self) -> bool:
        return self._point_names is not None

    @property
    def has_hypothesis_names(self) -> bool:
        return self._hypothesis_names is not None

    @property
    def name(self) -> str:
        """Name of the class (``"unnamed"`` when none was given)."""
        return self._name if self._name is not None else "unnamed"

    @property
    def metadata(self) -> dict:
        """A copy of the free-form metadata."""
        return dict(self._metadata)

    @property
    def labels_used(self) -> int:
        """Number of labels actually appearing in the table."""
        if self._bits is None and self._sparse is None:
            return int(np.unique(self.table).size)
        ones = self._sparse.nnz if self._sparse is not None else int(self._bits.count_ones().sum())  # type: ignore[union-attr]
        cells = self.n_hypotheses * self.n_points
        return 0 if cells == 0 else 1 if ones in (0, cells) else 2

    # ------------------------------------------------------------------ bitsets
    @property
    def full_mask(self) -> int:
        """Bitset of all distinct hypotheses."""
        return (1 << self.n_distinct) - 1

    @cached_property
    def label_masks(self) -> tuple[tuple[int, ...], ...]:
        """``label_masks[i][l]``: bitset of distinct rows giving label ``l`` to point ``i``.

        Built vectorised, one label at a time; prefer :meth:`point_label_masks`
        over the reduced columns of :meth:`column_reduction` on wide classes.
        """
        return self.point_label_masks(np.arange(self.n_points))

    def column_reduction(self, *, relabel: bool = True, deadline: Any = None) -> ColumnReduction:
        """The class's constant columns dropped and duplicate columns merged (cached).

        See :mod:`dimcalc.classes.reduction` for what is merged and why every dimension
        is unchanged; ``relabel=True`` merges columns equal up to renaming labels
        (not sound for Ψ^bin and user families).  With bit storage it is
        computed on the packed columns (:func:`dimcalc.classes.bit_groups.reduce_bit_columns`).

        Examples
        --------
        >>> H = HypothesisClass.from_table([[0, 1, 0, 1], [1, 0, 0, 1]])
        >>> H.column_reduction().points.tolist()
        [0]
        """
        cache = self.__dict__.setdefault("_reductions", {})
        if relabel not in cache:
            if self._distinct_sparse is not None:
                cache[relabel] = reduce_bit_columns(self.distinct_bit_table, relabel=relabel, deadline=deadline)  # type: ignore[arg-type]
            elif self._distinct_bits is not None:
                cache[relabel] = reduce_bit_columns(self._distinct_bits, relabel=relabel, deadline=deadline)
            else:
                cache[relabel] = reduce_columns(self, relabel=relabel, deadline=deadline)
        return cache[relabel]

    def mask_to_indices(self, mask: int) -> list[int]:
        """Distinct indices whose bit is set in ``mask``, ascending."""
        return mask_bits(mask)

    def row_of(self, distinct_index: int) -> int:
        """File row index for a distinct index (first occurrence)."""
        return int(self._distinct_to_row[distinct_index])

    def label(self, row: int, point: int) -> int:
        """Label that file row ``row`` gives to ``point``."""
        if self._sparse is not None:
            cols = self._sparse.row(row)
            k = int(np.searchsorted(cols, point))
            return int(k < len(cols) and int(cols[k]) == point)
        if self._bits is not None:
            return int(self._bits.words[point, row >> 6] >> np.uint64(row & 63)) & 1
        return int(self.table[row, point])

    def labels(self, rows: Any, points: Any) -> np.ndarray:
        """``labels(rows, points)[i] == label(rows[i], points[i])``, in one array call (no dense copy).

        >>> HypothesisClass([[0, 1, 2], [2, 1, 0]]).labels([0, 1, 1], [2, 0, 1]).tolist()
        [2, 2, 1]
        """
        r, c = np.asarray(rows, dtype=np.int64), np.asarray(points, dtype=np.int64)
        if self._sparse is not None:
            return np.array([self.label(int(i), int(x)) for i, x in zip(r, c)], dtype=np.int64)
        if self._bits is not None:
            return ((self._bits.words[c, r >> 6] >> (r & 63).astype(np.uint64)) & np.uint64(1)).astype(np.int64)
        return self.table[r, c].astype(np.int64)

    # ------------------------------------------------------------------ derived views
    def shape_cells(self) -> int:
        """Number of cells ``n_hypotheses * n_points`` (of the table as given, whatever the storage)."""
        return self._shape[0] * self._shape[1]

    def log2_size(self) -> int:
        """``floor(log2 |H|)`` over distinct hypotheses: an upper bound on VC and Littlestone dimensions."""
        return self.n_distinct.bit_length() - 1

    def to_dict(self) -> dict:
        """The spec §1 JSON object for this class."""
        out: dict[str, Any] = {}
        if self._name is not None:
            out["name"] = self._name
        out["domain"] = list(self.point_names)
        out["labels"] = self._num_labels
        out["hypotheses"] = self.table.tolist()
        if self._hypothesis_names is not None:
            out["hypothesis_names"] = list(self._hypothesis_names)
        if self._metadata:
            out["metadata"] = self._metadata
        return out

    def summary(self) -> dict:
        """The ``class`` object of ``dimcalc check --json`` (spec §2)."""
        return {
            "name": self.name,
            "hypotheses": self.n_hypotheses,
            "distinct_hypotheses": self.n_distinct,
            "domain_size": self.n_points,
            "labels": self._num_labels,
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HypothesisClass):
            return NotImplemented
        if self._num_labels != other._num_labels or self._shape != other._shape:
            return False
        if self._sparse is not None or other._sparse is not None:
            mine = self._sparse if self._sparse is not None else SparseTable.from_dense(self.table)
            theirs = other._sparse if other._sparse is not None else SparseTable.from_dense(other.table)
            return mine == theirs
        if self._bits is not None and other._bits is not None:
            return self._bits == other._bits
        return bool(np.array_equal(self.table, other.table))

    def __hash__(self) -> int:
        # The same for both storages of one table: a binary table is hashed through its bit columns.
        if self._sparse is not None and self.shape_cells() > DENSE_VIEW_CELLS:
            # Too big for the bit words: shape and incidences (equal to a bit-stored twin only by the shape).
            return hash((2, self._shape, self._sparse.nnz))
        if self._num_labels == 2:
            bits = self.bit_table if self._sparse is not None else self._bits
            bits = bits if bits is not None else BitTable.from_dense(self.table)
            return hash((self._num_labels, self._shape, bits.words.tobytes()))
        return hash((self._num_labels, self._shape, self.table.tobytes()))

    def __repr__(self) -> str:
        return (
            f"HypothesisClass(name={self.name!r}, hypotheses={self.n_hypotheses}, "
            f"distinct={self.n_distinct}, points={self.n_points}, labels={self._num_labels})"
        )

    def __len__(self) -> int:
        return self.n_hypotheses

    def _repr_html_(self) -> str:  # Jupyter display: dimcalc.display (imported when a notebook asks)
        from ..display import class_html

        return class_html(self)
