"""A 0/1 table stored one bit per cell, column by column, and the bitset helpers built on it.

A binary class's table (rows = hypotheses, columns = points) is kept as
:class:`BitTable`: for every column ``i`` the bits of its ``m`` cells as
``W = ceil(m / 64)`` little-endian ``uint64`` words, so that bit ``j % 64`` of
``words[i, j // 64]`` is the label hypothesis ``j`` gives point ``i``.  This is
the layout every solver already searches in (a bitset over hypotheses per
point and label: the VC search of :mod:`dimcalc.vc.search`, the Littlestone
splitters), so a solver reads its columns by slicing, without a dense copy.
Padding bits (rows ``m .. 64 W - 1``) are always 0.

A table of ``c`` cells takes ``c / 8`` bytes instead of ``c`` (one byte per
cell), hence :data:`dimcalc.classes.hypothesis_class.MAX_BINARY_CELLS`.  Every
conversion to or from a dense ``uint8`` table works in chunks of at most
:data:`CHUNK_CELLS` cells, so no step holds a dense copy of a big table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal, TypeVar

import numpy as np

from ..errors import InvalidClassError
from .bitsets import (
    CHUNK_CELLS,
    REVERSED_BYTES,
    dense_label_words,
    fill_columns,
    mask_bits,
    n_words,
    pack_columns,
    transpose_bits,
    unpack_columns,
    words_to_ints,
)
from .table_input import check_cells, describe

#: The class a constructor builds (``HypothesisClass``, bound as its classmethod); not imported here,
#: so that the storage never depends on the class that holds it.
C = TypeVar("C")

# The word helpers live in .bitsets; the ones imported from here before the split are re-exported.
__all__ = [
    "BitTable",
    "CHUNK_CELLS",
    "n_words",
    "pack_columns",
    "unpack_columns",
    "words_to_ints",
    "mask_bits",
    "dense_label_words",
    "from_packed",
    "from_bit_columns",
]


class BitTable:
    """A 0/1 table of ``n_rows`` rows, one bit per cell, stored column by column (see the module docstring).

    Parameters
    ----------
    words : numpy.ndarray of uint64, shape (n_cols, ceil(n_rows / 64))
        Column ``i``'s cells as little-endian words; padding bits must be 0.
        Kept as given (read-only), so a memory-mapped array stays on disk.
    n_rows : int
        Number of rows.

    Examples
    --------
    >>> T = BitTable.from_dense(np.array([[0, 1, 1], [1, 1, 0]], dtype=np.uint8))
    >>> T.words.tolist(), T.n_rows, T.n_cols
    ([[2], [3], [1]], 2, 3)
    >>> T.dense().tolist(), T.rows([1]).tolist(), T.columns([2, 0]).tolist()
    ([[0, 1, 1], [1, 1, 0]], [[1, 1, 0]], [[1, 0], [0, 1]])
    """

    __slots__ = ("words", "n_rows")

    def __init__(self, words: np.ndarray, n_rows: int) -> None:
        if words.ndim != 2 or words.dtype != np.uint64 or words.shape[1] != n_words(n_rows):
            raise ValueError(f"bit columns must be uint64 of shape (columns, {n_words(n_rows)}); got {words.shape}")
        if words.flags.writeable:
            words = words.view()
            words.setflags(write=False)
        self.words = words
        self.n_rows = int(n_rows)

    # ------------------------------------------------------------------ building
    @classmethod
    def from_dense(cls, table: Any, deadline: Any = None) -> BitTable:
        """Pack a dense 0/1 table (any integer or boolean array, e.g. memory-mapped), chunk by chunk of columns."""
        m, n = table.shape
        words = np.zeros((n, n_words(m)), dtype=np.uint64)
        step = 64 * max(1, CHUNK_CELLS // (64 * max(m, 1)))
        for start in range(0, n, step):
            if deadline is not None:
                deadline.check()
            chunk = np.packbits(np.asarray(table[:, start : start + step]) != 0, axis=1, bitorder="little")
            fill_columns(words, chunk, start, "little")
        return cls(words, m)

    @classmethod
    def from_cells(cls, n_rows: int, n_cols: int, rows: np.ndarray, cols: np.ndarray) -> BitTable:
        """The table with a 1 at each ``(rows[t], cols[t])`` (repeats allowed) and 0 elsewhere.

        >>> BitTable.from_cells(2, 3, np.array([0, 1, 1]), np.array([2, 0, 2])).dense().tolist()
        [[0, 0, 1], [1, 0, 1]]
        """
        w = n_words(n_rows)
        words = np.zeros((n_cols, w), dtype=np.uint64)
        rows = np.asarray(rows, dtype=np.int64)
        bit = np.left_shift(np.uint64(1), (rows & 63).astype(np.uint64))
        np.bitwise_or.at(words, (np.asarray(cols, dtype=np.int64), rows >> 6), bit)
        return cls(words, n_rows)

    @classmethod
    def from_row_stream(cls, n_rows: int, n_cols: int, draw: Any) -> BitTable:
        """The table whose cells, in row-major order, are the successive values of ``draw(count)``.

        ``draw(count)`` returns the next ``count`` cells (0/1) of the stream; it
        is called for at most :data:`CHUNK_CELLS` cells at a time, in order, so
        a seeded generator drawing row after row (``rng.integers(0, 2, ...)``)
        fills the same table as one call for the whole dense table would,
        without holding it.

        >>> rng = np.random.default_rng(7)
        >>> T = BitTable.from_row_stream(3, 4, lambda k: rng.integers(0, 2, size=k))
        >>> T.dense().tolist() == np.random.default_rng(7).integers(0, 2, size=(3, 4)).tolist()
        True
        """
        w = n_words(n_rows)
        words = np.zeros((n_cols, w), dtype=np.uint64)
        if 64 * n_cols <= CHUNK_CELLS:  # whole words at a time: 64 rows per draw
            for r0 in range(0, n_rows, 64):
                k = min(64, n_rows - r0)
                block = np.asarray(draw(k * n_cols)).reshape(k, n_cols)
                words[:, r0 // 64] = pack_columns(block, 1)[:, 0]
            return cls(words, n_rows)
        for r in range(n_rows):  # wide tables: row after row, in segments
            word, bit = r // 64, np.uint64(r % 64)
            for c0 in range(0, n_cols, CHUNK_CELLS):
                c1 = min(n_cols, c0 + CHUNK_CELLS)
                words[c0:c1, word] |= (np.asarray(draw(c1 - c0)) != 0).astype(np.uint64) << bit
        return cls(words, n_rows)

    @classmethod
    def from_prefixes(cls, n_rows: int, lengths: Any) -> BitTable:
        """The table whose column ``i`` is 1 exactly in rows ``0 .. lengths[i] - 1`` (e.g. thresholds).

        >>> BitTable.from_prefixes(3, [1, 3, 0]).dense().tolist()
        [[1, 1, 0], [0, 1, 0], [0, 1, 0]]
        """
        lengths = np.asarray(lengths, dtype=np.int64)
        w = n_words(n_rows)
        words = np.zeros((len(lengths), w), dtype=np.uint64)
        step = max(1, CHUNK_CELLS // (8 * w))
        starts = 64 * np.arange(w, dtype=np.int64)
        for s in range(0, len(lengths), step):
            count = np.clip(lengths[s : s + step, None] - starts[None, :], 0, 64).astype(np.uint64)
            full = count == 64
            words[s : s + step] = np.where(
                full, np.uint64(0xFFFFFFFFFFFFFFFF), (np.uint64(1) << np.where(full, 0, count)) - np.uint64(1)
            )
        return cls(words, n_rows)

    @classmethod
    def from_packed_rows(
        cls, packed: Any, n_cols: int, bitorder: Literal["big", "little"] = "big", deadline: Any = None
    ) -> BitTable:
        """From ``np.packbits(table, axis=1, bitorder=bitorder)`` (rows packed along the points), chunk by chunk.

        >>> t = np.array([[0, 1, 1], [1, 1, 0]], dtype=np.uint8)
        >>> BitTable.from_packed_rows(np.packbits(t, axis=1), 3).dense().tolist()
        [[0, 1, 1], [1, 1, 0]]
        """
        m = packed.shape[0]
        words = np.zeros((n_cols, n_words(m)), dtype=np.uint64)
        step = 8 * max(1, CHUNK_CELLS // (64 * max(m, 1)))  # bytes per row per chunk, whole words
        for b in range(0, packed.shape[1], step):
            if deadline is not None:
                deadline.check()
            fill_columns(words, np.asarray(packed[:, b : b + step], dtype=np.uint8), 8 * b, bitorder)
        return cls(words, m)

    # ------------------------------------------------------------------ facts
    @property
    def n_cols(self) -> int:
        """Number of columns."""
        return int(self.words.shape[0])

    @property
    def shape(self) -> tuple[int, int]:
        """``(n_rows, n_cols)``, as a dense table's shape."""
        return (self.n_rows, self.n_cols)

    @property
    def nbytes(self) -> int:
        """Bytes of the packed words (an eighth of a byte per cell, plus padding to whole words)."""
        return int(self.words.nbytes)

    def full_word(self) -> np.ndarray:
        """The ``(W,)`` words with every row's bit set (padding bits clear)."""
        w = self.words.shape[1]
        full = np.full(w, np.iinfo(np.uint64).max, dtype=np.uint64)
        if self.n_rows % 64:
            full[-1] = np.uint64((1 << (self.n_rows % 64)) - 1)
        if self.n_rows == 0:
            full[:] = 0
        return full

    def label_words(self, points: Any, deadline: Any = None) -> np.ndarray:
        """``out[l, u]`` for labels ``l = 0, 1``: the rows labelling ``points[u]`` with ``l``, as words.

        Label 1 is the stored column, label 0 its complement; see
        :meth:`dimcalc.HypothesisClass.point_label_words`.

        >>> BitTable.from_dense(np.array([[0, 1], [1, 1]], dtype=np.uint8)).label_words([0, 1]).tolist()
        [[[1], [0]], [[2], [3]]]
        """
        points = np.asarray(points, dtype=np.int64)
        full = self.full_word()
        out = np.empty((2, len(points), self.words.shape[1]), dtype=np.uint64)
        step = max(1, CHUNK_CELLS // (8 * self.words.shape[1]))
        for start in range(0, len(points), step):
            if deadline is not None:
                deadline.check()
            ones = self.words[points[start : start + step]]
            out[1, start : start + len(ones)] = ones
            out[0, start : start + len(ones)] = ones ^ full
        return out

    def count_ones(self) -> np.ndarray:
        """Number of 1 cells in each column (``int64``)."""
        out = np.zeros(self.n_cols, dtype=np.int64)
        step = max(1, CHUNK_CELLS // (8 * self.words.shape[1]))
        for s in range(0, self.n_cols, step):
            out[s : s + step] = np.bitwise_count(self.words[s : s + step]).sum(axis=1, dtype=np.int64)
        return out

    # ------------------------------------------------------------------ dense views
    def columns(self, points: Any) -> np.ndarray:
        """The dense ``uint8`` columns ``points`` of every row, shape ``(n_rows, len(points))``."""
        return unpack_columns(self.words[np.asarray(points, dtype=np.int64)], self.n_rows)

    def rows(self, idx: Any) -> np.ndarray:
        """The dense ``uint8`` rows ``idx``, shape ``(len(idx), n_cols)`` (reads one word per cell)."""
        idx = np.asarray(idx, dtype=np.int64)
        out = np.empty((len(idx), self.n_cols), dtype=np.uint8)
        shift = (idx & 63).astype(np.uint64)
        step = max(1, CHUNK_CELLS // max(len(idx), 1))
        for s in range(0, self.n_cols, step):
            block = self.words[s : s + step][:, idx >> 6]  # (c, k)
            out[:, s : s + step] = ((block >> shift) & np.uint64(1)).T
        return out

    def dense(self, deadline: Any = None) -> np.ndarray:
        """The whole table as a dense ``uint8`` array ``(n_rows, n_cols)``, filled chunk by chunk of columns."""
        out = np.empty((self.n_rows, self.n_cols), dtype=np.uint8)
        step = max(1, CHUNK_CELLS // max(self.n_rows, 1))
        for s in range(0, self.n_cols, step):
            if deadline is not None:
                deadline.check()
            out[:, s : s + step] = unpack_columns(self.words[s : s + step], self.n_rows)
        return out

    def packed_rows(self, bitorder: Literal["big", "little"] = "big") -> np.ndarray:
        """``np.packbits(self.dense(), axis=1, bitorder=bitorder)``, built chunk by chunk of rows.

        >>> BitTable.from_dense(np.array([[0, 1, 1], [1, 1, 0]], dtype=np.uint8)).packed_rows().tolist()
        [[96], [192]]
        """
        m, n = self.shape
        out = np.empty((m, (n + 7) // 8), dtype=np.uint8)
        step = 64 * max(1, CHUNK_CELLS // (64 * max(m, 1)))  # columns per chunk, whole words
        for c0 in range(0, n, step):
            cols = self.words[c0 : c0 + step]
            padded = np.zeros((-(-cols.shape[0] // 64) * 64, cols.shape[1]), dtype=np.uint64)
            padded[: cols.shape[0]] = cols
            data = np.ascontiguousarray(transpose_bits(padded)[:m], dtype="<u8").view(np.uint8)  # (m, bytes)
            if bitorder == "big":
                data = REVERSED_BYTES[data]
            width = min(data.shape[1], out.shape[1] - c0 // 8)
            out[:, c0 // 8 : c0 // 8 + width] = data[:, :width]
        if n % 8:  # bits past the last column are 0, as np.packbits writes them
            out[:, -1] &= np.uint8((0xFF << (8 - n % 8)) & 0xFF) if bitorder == "big" else np.uint8((1 << (n % 8)) - 1)
        return out

    def take_rows(self, idx: Any, deadline: Any = None) -> BitTable:
        """The table of rows ``idx`` (in that order), repacked chunk by chunk of columns."""
        idx = np.asarray(idx, dtype=np.int64)
        w = n_words(len(idx))
        words = np.zeros((self.n_cols, w), dtype=np.uint64)
        step = max(1, CHUNK_CELLS // max(self.n_rows, 1))
        for s in range(0, self.n_cols, step):
            if deadline is not None:
                deadline.check()
            words[s : s + step] = pack_columns(unpack_columns(self.words[s : s + step], self.n_rows)[idx], w)
        return BitTable(words, len(idx))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BitTable):
            return NotImplemented
        return self.n_rows == other.n_rows and bool(np.array_equal(self.words, other.words))

    __hash__ = None  # type: ignore[assignment]


# ---------------------------------------------------------------------- class constructors
# Bound as HypothesisClass.from_packed / from_bit_columns (classmethods).


def from_packed(
    cls: Callable[..., C],
    packed: Any,
    n_points: int,
    *,
    bitorder: Literal["big", "little"] = "big",
    **kwargs: Any,
) -> C:
    """A binary class from its table packed along the points: ``np.packbits(table, axis=1, bitorder=...)``.

    ``packed`` has shape ``(n_hypotheses, ceil(n_points / 8))`` (``uint8``,
    possibly memory-mapped); it is converted chunk by chunk into the
    one-bit-per-cell storage, never into a dense table, so a class of up
    to :data:`MAX_BINARY_CELLS` cells can be built from a file.

    Parameters
    ----------
    packed : numpy.ndarray of uint8, shape (n_hypotheses, ceil(n_points / 8))
    n_points : int
        Number of points (the bits past it in each row are ignored).
    bitorder : {"big", "little"}
        The bit order ``packed`` was made with (numpy's default is ``"big"``).
    **kwargs
        As for the class (``point_names``, ``name``, ...; ``num_labels`` must be 2).

    Examples
    --------
    >>> import numpy as np
    >>> t = np.array([[0, 0, 1], [0, 1, 1], [1, 1, 1]], dtype=np.uint8)
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_packed(np.packbits(t, axis=1), 3)
    >>> H.table.tolist() == t.tolist(), H.storage  # small: stored a byte per cell unless storage="bits"
    (True, 'dense')
    """
    packed = np.asarray(packed) if not isinstance(packed, np.ndarray) else packed
    if packed.ndim != 2 or packed.dtype != np.uint8:
        raise InvalidClassError(
            f"packed bits must be a 2-D uint8 array (np.packbits(table, axis=1)); got {packed.dtype} {packed.shape}"
        )
    if isinstance(n_points, bool) or not isinstance(n_points, (int, np.integer)) or n_points < 0:
        raise InvalidClassError(f"n_points must be a non-negative integer; got {describe(n_points)}")
    if packed.shape[1] != (n_points + 7) // 8:
        raise InvalidClassError(
            f"packed bits have {packed.shape[1]} bytes per row; {n_points} points need {(n_points + 7) // 8}"
        )
    if bitorder not in ("big", "little"):
        raise InvalidClassError(f"bitorder must be 'big' or 'little'; got {describe(bitorder)}")
    check_cells(packed.shape[0], int(n_points), 2)
    return cls(BitTable.from_packed_rows(packed, int(n_points), bitorder), **kwargs)


def from_bit_columns(cls: Callable[..., C], words: Any, n_hypotheses: int, **kwargs: Any) -> C:
    """A binary class from its bit-packed columns, the storage itself (kept as given: no copy).

    ``words[i]`` holds point ``i``'s labels as ``ceil(n_hypotheses / 64)``
    little-endian ``uint64`` words: bit ``j % 64`` of ``words[i, j // 64]``
    is the label of hypothesis ``j`` (padding bits 0).  The cheapest way to
    build a big binary class: generators fill these words directly, and a
    memory-mapped array stays on disk.  The class shares ``words`` (through a
    read-only view): do not modify them afterwards.

    Examples
    --------
    >>> import numpy as np
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_bit_columns(np.array([[0b01], [0b11]], dtype=np.uint64), 2)
    >>> H.table.tolist()
    [[1, 1], [0, 1]]
    """
    words = np.asarray(words) if not isinstance(words, np.ndarray) else words
    if isinstance(n_hypotheses, bool) or not isinstance(n_hypotheses, (int, np.integer)) or n_hypotheses < 1:
        raise InvalidClassError(f"n_hypotheses must be a positive integer; got {describe(n_hypotheses)}")
    if words.ndim != 2 or words.dtype != np.uint64 or words.shape[1] != n_words(int(n_hypotheses)):
        raise InvalidClassError(
            f"bit columns must be uint64 of shape (points, {n_words(int(n_hypotheses))}); "
            f"got {words.dtype} {words.shape}"
        )
    if n_hypotheses % 64 and bool((words[:, -1] >> np.uint64(n_hypotheses % 64)).any()):
        raise InvalidClassError(f"bit columns have bits set past hypothesis {n_hypotheses - 1} (padding must be 0)")
    return cls(BitTable(words, int(n_hypotheses)), **kwargs)
