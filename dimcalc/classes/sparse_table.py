"""A 0/1 table stored by its 1 cells: sets x elements in CSR, with the element -> sets transpose.

A set system ``(X, R)`` with ``|R|`` sets and ``sum |r|`` incidences is a
binary hypothesis class (one row per set, one column per element) whose table
is mostly 0: a graph's closed neighbourhoods, a hypergraph, a class read on a
big sample.  :class:`SparseTable` keeps only the incidences, as compressed
sparse rows (``indptr``, ``indices``: the elements of row ``r`` are
``indices[indptr[r]:indptr[r + 1]]``, sorted, without repeats) and, built on
first use, the transpose (the rows containing each element).  Memory is
proportional to the incidences (4 bytes each way per incidence), against one
bit per cell for :class:`~dimcalc.classes.bit_table.BitTable`: a 10⁶-vertex graph of
average degree 8 takes about 70 MB instead of 125 GB.

The distinct rows are found by hashing each row's elements with two
independent random 64-bit keys and then comparing the rows of every group of
equal hashes element by element, so the grouping is exact, whatever the hash.

Examples
--------
>>> T = SparseTable.from_cells(3, 4, np.array([0, 0, 1, 2, 2]), np.array([1, 3, 0, 1, 3]))
>>> T.indptr.tolist(), T.indices.tolist(), T.dense().tolist()
([0, 2, 3, 5], [1, 3, 0, 1, 3], [[0, 1, 0, 1], [1, 0, 0, 0], [0, 1, 0, 1]])
>>> first, inverse = T.distinct_rows()
>>> first.tolist(), inverse.tolist()
([0, 1], [0, 1, 0])
>>> T.columns([3, 0]).tolist(), T.degrees().tolist()
([[1, 0], [0, 1], [1, 0]], [1, 2, 0, 2])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import InvalidClassError

__all__ = ["SparseTable", "MAX_INCIDENCES", "DENSE_VIEW_CELLS"]

#: Largest number of incidences (1 cells) a sparse table accepts: about 4 GB of index arrays with the transpose.
MAX_INCIDENCES = 500_000_000

#: Dense views (``HypothesisClass.table``, a bit table for the dense solvers) of a sparse class are built only
#: up to this many cells; larger ones are refused with a one-line reason instead of being allocated.
DENSE_VIEW_CELLS = 100_000_000

#: Tables with at most this many incidences are transposed by numpy (a stable sort), larger ones by scipy.
NUMPY_TRANSPOSE_MAX = 1 << 20


def _index_dtype(n: int) -> type:
    return np.int32 if n < 2**31 else np.int64


class SparseTable:
    """A 0/1 table of ``n_rows x n_cols`` cells kept as its 1 cells in CSR (see the module docstring).

    Parameters
    ----------
    indptr : numpy.ndarray of int64, shape (n_rows + 1,)
    indices : numpy.ndarray of int, shape (indptr[-1],)
        Row ``r``'s columns are ``indices[indptr[r]:indptr[r + 1]]``, strictly
        increasing within the row (callers build it with :meth:`from_cells`,
        which sorts and drops repeats).
    n_cols : int
        Number of columns.
    """

    __slots__ = ("indptr", "indices", "n_rows", "n_cols", "_transpose", "_distinct")

    def __init__(self, indptr: np.ndarray, indices: np.ndarray, n_cols: int) -> None:
        self.indptr = np.asarray(indptr, dtype=np.int64)
        self.indices = np.asarray(indices)
        self.n_rows = len(self.indptr) - 1
        self.n_cols = int(n_cols)
        for arr in (self.indptr, self.indices):
            arr.setflags(write=False)
        self._transpose: tuple[np.ndarray, np.ndarray] | None = None
        self._distinct: tuple[np.ndarray, np.ndarray] | None = None

    # ------------------------------------------------------------------ building
    @classmethod
    def from_cells(cls, n_rows: int, n_cols: int, rows: Any, cols: Any) -> SparseTable:
        """The table with a 1 at each ``(rows[t], cols[t])`` (repeats allowed) and 0 elsewhere.

        >>> SparseTable.from_cells(2, 3, [1, 0, 1, 1], [2, 1, 0, 2]).dense().tolist()
        [[0, 1, 0], [1, 0, 1]]
        """
        rows = np.asarray(rows, dtype=np.int64)
        cols = np.asarray(cols, dtype=np.int64)
        if len(rows) > MAX_INCIDENCES:
            raise InvalidClassError(
                f"the set system has {len(rows)} incidences, more than dimcalc's limit of {MAX_INCIDENCES}"
            )
        key = rows * np.int64(max(n_cols, 1)) + cols
        key.sort(kind="stable")
        if len(key) > 1:
            keep = np.empty(len(key), dtype=bool)
            keep[0] = True
            np.not_equal(key[1:], key[:-1], out=keep[1:])
            if not keep.all():
                key = key[keep]
        r, c = np.divmod(key, np.int64(max(n_cols, 1)))
        indptr = np.zeros(n_rows + 1, dtype=np.int64)
        np.cumsum(np.bincount(r, minlength=n_rows), out=indptr[1:])
        return cls(indptr, c.astype(_index_dtype(n_cols)), n_cols)

    @classmethod
    def from_csr(cls, indptr: Any, indices: Any, n_cols: int) -> SparseTable:
        """From CSR arrays whose rows may be unsorted or repeat a column (sorted and deduplicated here)."""
        indptr = np.asarray(indptr, dtype=np.int64)
        indices = np.asarray(indices, dtype=np.int64)
        rows = np.repeat(np.arange(len(indptr) - 1, dtype=np.int64), np.diff(indptr))
        return cls.from_cells(len(indptr) - 1, n_cols, rows, indices)

    @classmethod
    def from_dense(cls, table: Any) -> SparseTable:
        """The 1 cells of a dense 0/1 table (nonzero cells are 1), read in chunks of rows."""
        m, n = table.shape
        step = max(1, (1 << 24) // max(n, 1))
        rows, cols = [], []
        for s in range(0, m, step):
            r, c = np.nonzero(np.asarray(table[s : s + step]))
            rows.append(r.astype(np.int64) + s)
            cols.append(c.astype(np.int64))
        cat = lambda xs: np.concatenate(xs) if xs else np.zeros(0, dtype=np.int64)  # noqa: E731
        return cls.from_cells(m, n, cat(rows), cat(cols))

    @classmethod
    def from_bits(cls, bits: Any) -> SparseTable:
        """The 1 cells of a :class:`~dimcalc.classes.bit_table.BitTable`, column by column."""
        rows, cols = [], []
        step = max(1, (1 << 22) // max(bits.words.shape[1], 1))
        for s in range(0, bits.n_cols, step):
            r, c = np.nonzero(bits.columns(np.arange(s, min(s + step, bits.n_cols))))
            rows.append(r.astype(np.int64))
            cols.append(c.astype(np.int64) + s)
        cat = lambda xs: np.concatenate(xs) if xs else np.zeros(0, dtype=np.int64)  # noqa: E731
        return cls.from_cells(bits.n_rows, bits.n_cols, cat(rows), cat(cols))

    # ------------------------------------------------------------------ facts
    @property
    def shape(self) -> tuple[int, int]:
        return (self.n_rows, self.n_cols)

    @property
    def nnz(self) -> int:
        """Number of 1 cells (incidences)."""
        return int(self.indptr[-1])

    @property
    def nbytes(self) -> int:
        """Bytes of the CSR arrays and, once built, of the transpose."""
        total = self.indptr.nbytes + self.indices.nbytes
        if self._transpose is not None:
            total += self._transpose[0].nbytes + self._transpose[1].nbytes
        return int(total)

    def row_sizes(self) -> np.ndarray:
        """Number of 1 cells in each row (``int64``)."""
        return np.diff(self.indptr)

    def degrees(self) -> np.ndarray:
        """Number of 1 cells in each column (``int64``): the rows containing each element."""
        return np.diff(self.transpose()[0])

    def row_index(self) -> np.ndarray:
        """The row of every incidence, aligned with :attr:`indices` (``int64``)."""
        return np.repeat(np.arange(self.n_rows, dtype=np.int64), self.row_sizes())

    def transpose(self) -> tuple[np.ndarray, np.ndarray]:
        """``(t_indptr, t_indices)``: the rows containing column ``i`` are ``t_indices[t_indptr[i]:t_indptr[i+1]]``,
        ascending (built once: up to :data:`NUMPY_TRANSPOSE_MAX` incidences by a stable numpy sort, beyond by
        scipy's linear-time CSR -> CSC conversion -- importing scipy costs more than sorting a small table)."""
        if self._transpose is None:
            t_index_dtype = _index_dtype(self.n_rows)
            if self.nnz <= NUMPY_TRANSPOSE_MAX:
                order = np.argsort(self.indices, kind="stable")  # by column; rows stay ascending within one
                t_indices: np.ndarray = self.row_index()[order].astype(t_index_dtype)
                t_indptr = np.zeros(self.n_cols + 1, dtype=np.int64)
                np.cumsum(np.bincount(self.indices, minlength=self.n_cols), out=t_indptr[1:])
            else:
                import scipy.sparse as sp

                ones = np.ones(self.nnz, dtype=np.bool_)
                csc = sp.csr_matrix((ones, self.indices, self.indptr), shape=self.shape).tocsc()  # O(nnz)
                t_indices = np.asarray(csc.indices, dtype=t_index_dtype)
                t_indptr = np.asarray(csc.indptr, dtype=np.int64)
            t_indptr.setflags(write=False)
            t_indices.setflags(write=False)
            self._transpose = (t_indptr, t_indices)
        return self._transpose

    def row(self, r: int) -> np.ndarray:
        """The columns of row ``r`` (ascending)."""
        return self.indices[self.indptr[r] : self.indptr[r + 1]]

    # ------------------------------------------------------------------ distinct rows
    def distinct_rows(self) -> tuple[np.ndarray, np.ndarray]:
        """``(first, inverse)``: the first occurrence of each distinct row, in order, and each row's distinct index.

        Rows are grouped by size and two random 64-bit hashes of their columns,
        then every row is compared with its group's first row cell by cell:
        a row that differs (a hash collision) gets a group of its own, so the
        result is exact.
        """
        if self._distinct is not None:
            return self._distinct
        m = self.n_rows
        sizes = self.row_sizes()
        h = np.zeros((2, m), dtype=np.uint64)
        for k, keys in enumerate(self._hash_keys(self.n_cols)):
            vals = keys[self.indices]
            # Sum per row (wrapping uint64): reduceat on the nonempty rows.
            nonempty = np.flatnonzero(sizes)
            if len(nonempty):
                h[k, nonempty] = np.add.reduceat(vals, self.indptr[nonempty])
        # One stable sort on the first hash (rows of one group stay in file order); rows sharing it but not the
        # size or second hash (a collision) send the whole grouping to exact keys.
        order = np.argsort(h[0], kind="stable")
        s_sizes, s_h0, s_h1 = sizes[order], h[0][order], h[1][order]
        new = np.ones(m, dtype=bool)
        new[1:] = s_h0[1:] != s_h0[:-1]
        if bool(((s_sizes[1:] != s_sizes[:-1]) | (s_h1[1:] != s_h1[:-1]))[~new[1:]].any()):
            return self._distinct_exact()  # two different rows share the first hash: exact keys
        group = np.cumsum(new) - 1
        leader = order[np.flatnonzero(new)][group]  # per sorted position: its group's first (smallest) row
        # Exact check: every row against its group's leader.
        same = order != leader
        if same.any():
            a, b = order[same], leader[same]
            length = sizes[a]
            tot = int(length.sum())
            starts_a = np.repeat(self.indptr[a], length)
            starts_b = np.repeat(self.indptr[b], length)
            offs = np.arange(tot, dtype=np.int64) - np.repeat(np.cumsum(length) - length, length)
            diff = self.indices[starts_a + offs] != self.indices[starts_b + offs]
            bad_entries = np.zeros(len(a), dtype=bool)
            if tot:
                owner = np.repeat(np.arange(len(a)), length)
                bad_entries[owner[diff]] = True
            if bad_entries.any():  # a hash collision: fall back to exact keys for those rows
                return self._distinct_exact()
        label = np.empty(m, dtype=np.int64)
        label[order] = leader  # each row's group leader (its first occurrence)
        first = np.flatnonzero(label == np.arange(m))
        rank = np.full(m, -1, dtype=np.int64)
        rank[first] = np.arange(len(first))
        inverse = rank[label]
        self._distinct = (first, inverse)
        return self._distinct

    @staticmethod
    def _hash_keys(n_cols: int) -> list[np.ndarray]:
        """Two random odd 64-bit keys per column (fixed seed): a row's hashes are the sums of its keys."""
        rng = np.random.default_rng(0x5EED)
        return [rng.integers(0, 2**63, size=n_cols, dtype=np.int64).astype(np.uint64) * np.uint64(2) + 1 for _ in "ab"]

    def _distinct_exact(self) -> tuple[np.ndarray, np.ndarray]:
        seen: dict[bytes, int] = {}
        first: list[int] = []
        inverse = np.empty(self.n_rows, dtype=np.int64)
        for r in range(self.n_rows):
            key = self.row(r).tobytes()
            j = seen.setdefault(key, len(seen))
            if j == len(first):
                first.append(r)
            inverse[r] = j
        self._distinct = (np.array(first, dtype=np.int64), inverse)
        return self._distinct

    def take_rows(self, idx: Any) -> SparseTable:
        """The table of rows ``idx``, in that order."""
        idx = np.asarray(idx, dtype=np.int64)
        sizes = self.row_sizes()[idx]
        indptr = np.zeros(len(idx) + 1, dtype=np.int64)
        np.cumsum(sizes, out=indptr[1:])
        starts = np.repeat(self.indptr[idx], sizes)
        offs = np.arange(int(indptr[-1]), dtype=np.int64) - np.repeat(indptr[:-1], sizes)
        return SparseTable(indptr, self.indices[starts + offs], self.n_cols)

    # ------------------------------------------------------------------ dense views (small reads)
    def columns(self, points: Any) -> np.ndarray:
        """The dense ``uint8`` columns ``points`` of every row, shape ``(n_rows, len(points))``."""
        points = np.asarray(points, dtype=np.int64).reshape(-1)
        t_indptr, t_indices = self.transpose()
        out = np.zeros((self.n_rows, len(points)), dtype=np.uint8)
        for u, p in enumerate(points.tolist()):
            out[t_indices[t_indptr[p] : t_indptr[p + 1]], u] = 1
        return out

    def rows(self, idx: Any) -> np.ndarray:
        """The dense ``uint8`` rows ``idx``, shape ``(len(idx), n_cols)``."""
        idx = np.asarray(idx, dtype=np.int64).reshape(-1)
        out = np.zeros((len(idx), self.n_cols), dtype=np.uint8)
        for u, r in enumerate(idx.tolist()):
            out[u, self.row(r)] = 1
        return out

    def dense(self) -> np.ndarray:
        """The whole table as a dense ``uint8`` array (callers bound its size)."""
        out = np.zeros((self.n_rows, self.n_cols), dtype=np.uint8)
        out[self.row_index(), self.indices] = 1
        return out

    def to_bits(self) -> Any:
        """The same table one bit per cell (:class:`~dimcalc.classes.bit_table.BitTable`; callers bound its size)."""
        from .bit_table import BitTable

        return BitTable.from_cells(self.n_rows, self.n_cols, self.row_index(), self.indices)

    def label_words(self, points: Any) -> np.ndarray:
        """``out[l, u]``: the rows giving label ``l`` to ``points[u]`` as little-endian ``uint64`` words."""
        from .bit_table import n_words

        points = np.asarray(points, dtype=np.int64).reshape(-1)
        w = n_words(self.n_rows)
        t_indptr, t_indices = self.transpose()
        out = np.zeros((2, len(points), w), dtype=np.uint64)
        full = np.full(w, np.iinfo(np.uint64).max, dtype=np.uint64)
        if self.n_rows % 64:
            full[-1] = np.uint64((1 << (self.n_rows % 64)) - 1)
        for u, p in enumerate(points.tolist()):
            r = t_indices[t_indptr[p] : t_indptr[p + 1]].astype(np.int64)
            np.bitwise_or.at(out[1, u], r >> 6, np.left_shift(np.uint64(1), (r & 63).astype(np.uint64)))
            out[0, u] = out[1, u] ^ full
        return out

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SparseTable):
            return NotImplemented
        return (
            self.shape == other.shape
            and bool(np.array_equal(self.indptr, other.indptr))
            and bool(np.array_equal(self.indices, other.indices))
        )

    __hash__ = None  # type: ignore[assignment]
