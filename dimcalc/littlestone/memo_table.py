"""The memo's table: proven bounds by version space, the keys of a big class stored packed (lossless).

A version space is a Python integer of ``|H|`` bits: 16 KB for the 131 329 intervals over 512 points,
35 KB for the 278 785 boxes over 32 x 32.  The memo of intervals over 512 held 392 678 such keys (2.24 GB
of the run's 2.5 GB peak: the memory budget stopped the search at 53 s), almost all of them refutations of
small version spaces whose bits sit in a few hundred of the 2 052 words.  A class of at least
:data:`PACK_MIN_ROWS` distinct hypotheses keys its memo by :func:`pack_words` instead: the indices of the
non-zero words and the words themselves (768 B on average there, 478 B on boxes 32 x 32).  The packing is
one-to-one -- ``V`` is read back from it (:func:`unpack_words`) -- so two version spaces share an entry only
when they are equal: never a hash standing for a key, which could make a proven bound wrong.

Packing costs the conversion of ``V`` to words, which the node's counts need anyway: the last
:attr:`Recent.SIZE` version spaces asked for keep their words and key (by identity), and the column
splitter reads its words there (:meth:`Recent.words`).  A packed key is a ``bytes`` object, whose hash
Python computes once; an integer's hash is recomputed on every lookup.

References
----------
Littlestone (1987) (the recursion whose proven bounds the memo keeps).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

import numpy as np

from .counts import compiled_kernels, words_of_int

__all__ = ["MemoTable", "Recent", "pack_words", "unpack_words", "PACK_MIN_ROWS"]

#: Classes with at least this many distinct hypotheses (2 KB a key) keep their memo keys packed.
PACK_MIN_ROWS = 1 << 14


def pack_words(v: np.ndarray) -> bytes:
    """``v``'s non-zero words as a key: their ``k`` indices, then their ``2k`` 32-bit halves (low half first),
    all as ``uint32`` (``12 k`` bytes; one-to-one: :func:`unpack_words` reads the words back).

    Compiled once the node counts' loops are loaded (:func:`._counts_impl.packed_words`), numpy before; the
    same bytes either way (a memo holds keys of both).

    Examples
    --------
    >>> import numpy as np
    >>> key = pack_words(np.array([0, 5, 0, 1 << 40], dtype=np.uint64))
    >>> len(key), unpack_words(key, 4).tolist()
    (24, [0, 5, 0, 1099511627776])
    """
    kernels = compiled_kernels()
    if kernels is not None:
        return bytes(kernels.packed_words(v).tobytes())
    nz = np.flatnonzero(v)
    w = v[nz]
    halves = np.empty(2 * len(nz), dtype=np.uint32)
    halves[0::2] = (w & np.uint64(0xFFFFFFFF)).astype(np.uint32)
    halves[1::2] = (w >> np.uint64(32)).astype(np.uint32)
    return np.concatenate([nz.astype(np.uint32), halves]).tobytes()


def unpack_words(key: bytes, n_words: int) -> np.ndarray:
    """The ``n_words`` words that :func:`pack_words` packed into ``key`` (its inverse)."""
    a = np.frombuffer(key, dtype=np.uint32)
    k = len(a) // 3
    out = np.zeros(n_words, dtype=np.uint64)
    out[a[:k]] = a[k::2].astype(np.uint64) | (a[k + 1 :: 2].astype(np.uint64) << np.uint64(32))
    return out


class Recent:
    """The words (and packed key) of the version spaces asked for lately, by identity.

    A node's version space is looked up in the memo, then counted; a candidate's child is looked up in the
    quick pass, looked at (rule 9), then searched: the same object each time.  Entries hold their
    version space, so an identity is not reused while it is kept.
    """

    __slots__ = ("n_words", "_items")

    #: Version spaces kept (each with its words: up to ``SIZE x |H| / 8`` bytes).
    SIZE = 64

    def __init__(self, n_words: int) -> None:
        self.n_words = n_words
        self._items: dict[int, list[Any]] = {}

    def __reduce__(self) -> Any:  # shipped with a splitter (Dask): empty
        return (Recent, (self.n_words,))

    def _item(self, V: int) -> list[Any]:
        item = self._items.get(id(V))
        if item is None or item[0] is not V:
            if len(self._items) >= self.SIZE:
                self._items.clear()
            item = self._items[id(V)] = [V, None, None, -1]
        return item

    def words(self, V: int) -> np.ndarray:
        """``V`` as ``n_words`` ``uint64`` words (:func:`.counts.words_of_int`); read only."""
        item = self._item(V)
        if item[1] is None:
            item[1] = words_of_int(V, self.n_words)
        return item[1]  # type: ignore[no-any-return]

    def put(self, V: int, words: np.ndarray, size: int = -1) -> None:
        """Keep ``words`` as ``V``'s (``words_of_int(V, n_words)``, computed otherwise), and ``size`` as ``|V|`` when
        the caller knows it (a candidate's child: from its parent's column counts)."""
        item = self._item(V)
        if item[1] is None:
            item[1] = words
        if size >= 0:
            item[3] = size

    def size(self, V: int) -> int:
        """``|V|`` (``V.bit_count()``, a popcount over ``|H| / 64`` words, counted once per version space kept)."""
        item = self._item(V)
        if item[3] < 0:
            item[3] = V.bit_count()
        return item[3]  # type: ignore[no-any-return]

    def key(self, V: int) -> bytes:
        """:func:`pack_words` of ``V``'s words."""
        item = self._item(V)
        if item[2] is None:
            item[2] = pack_words(self.words(V))
        return item[2]  # type: ignore[no-any-return]


class MemoTable:
    """The memo: a version space ``V`` (or ``(V, prefix)``, the uniform variant's node) -> its :class:`~.memo.MemoEntry`.

    The dictionary operations the engine uses (``get``, ``[]``, ``in``, ``len``), with the keys of a class of
    at least :data:`PACK_MIN_ROWS` hypotheses packed (:func:`pack_words`) and the others kept as they are.
    :meth:`key` gives the stored key, for a caller that reads and writes one entry in turn (:attr:`table`).

    Examples
    --------
    >>> memo = MemoTable(200_000)
    >>> memo[0b1011 << 70_000] = "entry"
    >>> memo.get(0b1011 << 70_000), memo.get(0b11 << 70_000), len(memo), type(memo.key(5)).__name__
    ('entry', None, 1, 'bytes')
    >>> memo.version_space(memo.key(0b1011 << 70_000)) == 0b1011 << 70_000
    True
    >>> MemoTable(100).key(5)
    5
    """

    __slots__ = ("table", "recent", "packed")

    def __init__(self, n_rows: int, packed: bool | None = None) -> None:
        #: The stored keys and their entries.
        self.table: dict[Hashable, Any] = {}
        self.recent = Recent(max(1, (n_rows + 63) // 64))
        #: Whether keys are packed (by default: at least :data:`PACK_MIN_ROWS` hypotheses).
        self.packed = n_rows >= PACK_MIN_ROWS if packed is None else packed

    def key(self, V: Any) -> Hashable:
        """The stored key of ``V`` (an int, or ``(V, prefix)``)."""
        if not self.packed:
            return V  # type: ignore[no-any-return]
        if isinstance(V, tuple):
            return (self.recent.key(V[0]), V[1])
        return self.recent.key(V)

    def size(self, V: int) -> int:
        """``|V|``: kept with ``V``'s words on a packed table (:meth:`Recent.size`: counted once), a popcount
        otherwise."""
        return self.recent.size(V) if self.packed else V.bit_count()

    def size_bound(self, V: int) -> int:
        """``floor(log2 |V|)``: a tree of depth ``t`` has ``2^t`` leaves realised by distinct hypotheses (reduction
        5), from :meth:`size`."""
        return self.size(V).bit_length() - 1

    def version_space(self, key: Any) -> int:
        """The version space whose :meth:`key` is ``key`` (an int key; its inverse)."""
        if not self.packed:
            return key  # type: ignore[no-any-return]
        words = unpack_words(key, self.recent.n_words)
        return int.from_bytes(words.astype("<u8").tobytes(), "little")

    def get(self, V: Any, default: Any = None) -> Any:
        return self.table.get(self.key(V), default)

    def __getitem__(self, V: Any) -> Any:
        return self.table[self.key(V)]

    def __setitem__(self, V: Any, entry: Any) -> None:
        self.table[self.key(V)] = entry

    def __contains__(self, V: Any) -> bool:
        return self.key(V) in self.table

    def __len__(self) -> int:
        return len(self.table)
