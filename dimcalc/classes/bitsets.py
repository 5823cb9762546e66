"""Bitsets over hypotheses as little-endian ``uint64`` words: packing, unpacking, transposing.

The word layout of :class:`~dimcalc.classes.bit_table.BitTable` (bit ``j % 64`` of
``words[i, j // 64]`` is row ``j``'s bit in column ``i``), written once and shared by the
storage, the VC search (:mod:`dimcalc.vc.columns`) and the Littlestone splitters.
Every conversion works in chunks of at most :data:`CHUNK_CELLS` cells.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = [
    "CHUNK_CELLS",
    "n_words",
    "pack_columns",
    "unpack_columns",
    "words_to_ints",
    "mask_bits",
    "transpose_blocks",
    "transpose_bits",
    "row_bytes_to_words",
    "dense_label_words",
    "fill_columns",
    "REVERSED_BYTES",
]

#: Cells converted per vectorised step (16 MiB of dense ``uint8`` per temporary).
CHUNK_CELLS = 1 << 24


def n_words(n_rows: int) -> int:
    """``uint64`` words per column for ``n_rows`` rows (at least one).

    >>> n_words(64), n_words(65), n_words(0)
    (1, 2, 1)
    """
    return max(1, (n_rows + 63) // 64)


def pack_columns(bits: np.ndarray, words: int) -> np.ndarray:
    """Pack a 0/1 matrix ``(m, c)`` column-wise into ``(c, words)`` little-endian ``uint64`` words.

    >>> pack_columns(np.array([[1, 0], [0, 0], [1, 1]], dtype=np.uint8), 1).tolist()
    [[5], [4]]
    """
    packed = np.packbits(bits, axis=0, bitorder="little")  # (ceil(m / 8), c)
    out = np.zeros((bits.shape[1], words * 8), dtype=np.uint8)
    out[:, : packed.shape[0]] = packed.T
    return out.view("<u8").astype(np.uint64, copy=False)


def unpack_columns(words: np.ndarray, n_rows: int) -> np.ndarray:
    """The dense ``(n_rows, c)`` ``uint8`` matrix of ``c`` packed columns (inverse of :func:`pack_columns`).

    >>> unpack_columns(np.array([[5], [4]], dtype=np.uint64), 3).tolist()
    [[1, 0], [0, 0], [1, 1]]
    """
    data = np.ascontiguousarray(words, dtype="<u8").view(np.uint8)
    return np.ascontiguousarray(np.unpackbits(data, axis=1, count=n_rows, bitorder="little").T)


def words_to_ints(words: np.ndarray) -> list[int]:
    """The rows of an ``(n, n_words)`` array of little-endian ``uint64`` words as Python int bitsets.

    >>> words_to_ints(np.array([[5, 0], [0, 1]], dtype=np.uint64))
    [5, 18446744073709551616]
    """
    if words.shape[0] == 0:
        return []
    if words.shape[1] > 4:  # one linear-time conversion per row (shifting in word by word is quadratic)
        data = np.ascontiguousarray(words, dtype="<u8")
        return [int.from_bytes(row.tobytes(), "little") for row in data]
    out = words[:, -1].tolist()
    for j in range(words.shape[1] - 2, -1, -1):
        out = [(hi << 64) | lo for hi, lo in zip(out, words[:, j].tolist())]
    return out


def mask_bits(mask: int) -> list[int]:
    """Positions of the set bits of a non-negative int bitset, ascending.

    >>> mask_bits(0b10110)
    [1, 2, 4]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def transpose_blocks(a: np.ndarray) -> np.ndarray:
    """Transpose 64 x 64 bit blocks in place: ``a`` is ``(B, 64, k)`` words, block ``(b, :, kk)``.

    Word ``r`` of a block becomes the bits ``63 - r`` of its 64 words, in
    reverse order (the recursive swap of Warren, *Hacker's Delight*, 2nd ed.,
    §7-3, vectorised over every block): six rounds of shifts and masks over
    the words, against unpacking every cell to a byte.
    """
    blocks, _, k = a.shape
    j = 32
    mask = np.uint64(0x00000000FFFFFFFF)
    while j:
        v = a.reshape(blocks, 64 // (2 * j), 2, j, k)
        lo = v[:, :, 0]
        hi = v[:, :, 1]
        t = (lo ^ (hi >> np.uint64(j))) & mask
        lo ^= t
        hi ^= t << np.uint64(j)
        j //= 2
        mask ^= mask << np.uint64(j)
    return a


#: Each byte with its bits in reverse order (numpy's "big" bit order <-> "little").
REVERSED_BYTES = np.array([int(f"{i:08b}"[::-1], 2) for i in range(256)], dtype=np.uint8)


def transpose_bits(a: np.ndarray) -> np.ndarray:
    """Transpose a bit matrix held as words: bit ``p`` of ``a[i, y]`` is cell ``(i, 64 y + p)``.

    ``a`` has ``64 X`` rows and ``Y`` words per row; the result has ``64 Y``
    rows and ``X`` words, bit ``q`` of ``out[j, x]`` being cell ``(64 x + q, j)``.
    Turns rows packed along the points into the column words of a
    :class:`BitTable` and back (:func:`transpose_blocks`, block by block).

    >>> a = np.zeros((64, 1), dtype=np.uint64); a[3, 0] = 1 << 5   # cell (3, 5)
    >>> out = transpose_bits(a); int(out[5, 0]) == 1 << 3          # cell (3, 5) seen from column 5
    True
    """
    x, y = a.shape[0] // 64, a.shape[1]
    blocks = np.ascontiguousarray(a.reshape(x, 64, y)[:, ::-1, :])
    transpose_blocks(blocks)  # word r: bits 63 - r of the reversed rows -> column 63 - r, bit i = row i
    return np.ascontiguousarray(blocks[:, ::-1, :].transpose(2, 1, 0)).reshape(64 * y, x)


def row_bytes_to_words(data: np.ndarray, bitorder: str) -> np.ndarray:
    """Rows packed along the columns (``uint8``, a multiple of 8 bytes per row) as little-endian words."""
    if bitorder == "big":
        data = REVERSED_BYTES[data]
    return np.ascontiguousarray(data).view("<u8").astype(np.uint64, copy=False)


def dense_label_words(rows: np.ndarray, points: Any, num_labels: int, deadline: Any = None) -> np.ndarray:
    """``out[l, u]``: the rows of a dense table giving label ``l`` to ``points[u]``, packed as ``uint64`` words.

    Shape ``(num_labels, len(points), ceil(len(rows) / 64))``; see
    :meth:`dimcalc.HypothesisClass.point_label_words`.

    >>> dense_label_words(np.array([[0, 2], [1, 2], [2, 0]]), [1], 3).tolist()
    [[[4]], [[0]], [[3]]]
    """
    points = np.asarray(points, dtype=np.int64)
    m = rows.shape[0]
    words = n_words(m)
    out = np.zeros((num_labels, len(points), words), dtype=np.uint64)
    step = max(1, (1 << 20) // max(m, 1))
    for start in range(0, len(points), step):
        if deadline is not None:
            deadline.check()
        sub = rows[:, points[start : start + step]]
        for lab in range(num_labels):
            eq = sub == lab
            if eq.any():
                out[lab, start : start + sub.shape[1]] = pack_columns(eq, words)
    return out


def fill_columns(words: np.ndarray, data: np.ndarray, col0: int, bitorder: str) -> None:
    """Write rows packed along the columns (``data``: ``uint8``, column ``col0`` first) into column words."""
    m = data.shape[0]
    rows = -(-m // 64) * 64
    width = -(-data.shape[1] // 8) * 8
    padded = np.zeros((rows, width), dtype=np.uint8)
    padded[:m, : data.shape[1]] = data
    cols = transpose_bits(row_bytes_to_words(padded, bitorder))  # (64 * width / 8, rows / 64)
    hi = min(words.shape[0], col0 + cols.shape[0])
    words[col0:hi] = cols[: hi - col0]
