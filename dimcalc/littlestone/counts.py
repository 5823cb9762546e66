"""Per-column counts of a version space on ``uint64`` words: the inner loop of the binary Littlestone engine.

A node of the search for ``LDim(V) >= t`` (Littlestone 1987) needs, for every
live column ``x``, the size of ``V_1 = V ∩ {h : h(x) = 1}``: the split passes
the size test (reduction 5 of :mod:`dimcalc.littlestone`) iff both
``|V_1|`` and ``|V| - |V_1|`` reach ``2^(t-1)``, and a column with
``|V_1| ∈ {0, |V|}`` is constant on ``V`` and on every subset of ``V``
(reduction 3).  Two ways to count, the cheaper one per node (same integers):

* by columns (:func:`column_counts`): popcounts of ``ones[x] & V`` over the
  words where ``V`` has bits -- ``live columns x non-zero words`` word operations;
* by rows (:func:`row_counts`): every hypothesis of ``V`` adds one to each
  column where it has a 1 -- ``sum of the ones of V's rows`` additions; far
  cheaper for a small version space of a class with sparse rows (the lines
  through a point of Z_p^2: 101 lines of 101 points each, against 10 201
  columns of 160 words).

No Python integer is touched per column.  The first big node (at least
:data:`COMPILED_MIN_WORK` operations) loads compiled numba loops
(:mod:`._counts_impl`, cached on disk) if the time left allows
(:func:`load_kernels`), and from then on every node uses them; before
that, or when numba is missing or ``DIMCALC_JIT=0``, numpy (so a small
class never imports numba).
"""

from __future__ import annotations

import importlib.util
import os
from typing import Any

import numpy as np

__all__ = [
    "load_kernels",
    "kernels_for",
    "live_and_chosen",
    "column_counts",
    "row_counts",
    "rows_of_columns",
    "words_of_int",
    "COMPILED_MIN_WORK",
]

#: Nodes with at least this many (column, word) pairs to count use the compiled loop when numba is there.
COMPILED_MIN_WORK = 1 << 15
#: ``True``/``False`` forces the compiled loop on/off (tests); ``None`` lets the size decide.
FORCE: bool | None = None

_compiled: Any = None
_unavailable = False


def _kernels() -> Any:
    """The compiled module :mod:`._counts_impl`, or None when numba is missing (found without importing it) or disabled."""
    global _compiled, _unavailable
    if _compiled is not None or _unavailable:
        return _compiled
    if os.environ.get("DIMCALC_JIT", "1") == "0" or importlib.util.find_spec("numba") is None:
        _unavailable = True
        return None
    from ..vc._kernel_numba import import_numba

    import_numba()  # numba without its BLAS probe (scipy.linalg) and cffi set-up: the loops use neither
    from . import _counts_impl

    _compiled = _counts_impl
    return _compiled


#: With a time limit the loops are loaded from numba's disk cache only when this many seconds are left ...
MIN_SECONDS = 2.0
#: ... and compiled afresh (nothing cached) only when this many are left.
COMPILE_SECONDS = 30.0


def _cached() -> bool:
    """Whether numba's disk cache holds the compiled loops of this source (the index files of the engine's node
    loop and of the greedy tree's, which load first)."""
    folder = os.path.join(os.path.dirname(__file__), "__pycache__")
    try:
        names = os.listdir(folder)
    except OSError:
        return False
    return all(any(name.startswith(f"_counts_impl.{loop}-") for name in names) for loop in _FIRST_LOOPS)


#: Loops whose index files :func:`_cached` looks for.
_FIRST_LOOPS = ("node_candidates", "greedy_balance", "greedy_restrict", "greedy_compact")


def load_kernels(work: int, seconds_left: float | None) -> None:
    """Load the compiled loops for a node of ``work`` operations, when worth it and when the time left allows.

    A time limit holds from call to return: loading takes about half a second
    from the disk cache and several seconds to compile, so with
    ``seconds_left`` below :data:`MIN_SECONDS` (cached) or
    :data:`COMPILE_SECONDS` (not cached) the search goes on in numpy.
    """
    if _compiled is not None or _unavailable or FORCE is False or work < COMPILED_MIN_WORK:
        return
    if seconds_left is not None and seconds_left < (MIN_SECONDS if _cached() else COMPILE_SECONDS):
        return
    _kernels()


def kernels_for(work: int, seconds_left: float | None) -> Any:
    """The compiled loops for a step of ``work`` operations, loaded first when worth it and the time left allows
    (:func:`load_kernels`), or None (numpy): what a caller outside this module asks for its own compiled step."""
    load_kernels(work, seconds_left)
    return _use_compiled(work)


def _use_compiled(work: int) -> Any:
    """The compiled loops when forced or already loaded (:func:`load_kernels` loads them), else None."""
    if FORCE is None:
        return _compiled
    return _kernels() if FORCE else None


def compiled_kernels() -> Any:
    """The compiled module when its loops are loaded and not switched off (:data:`FORCE` False), else None."""
    return _compiled if compiled_loaded() else None


def compiled_loaded() -> bool:
    """Whether the compiled loops are loaded in this process (then even small nodes use them)."""
    return _compiled is not None and FORCE is not False


def words_of_int(V: int, n_words: int) -> np.ndarray:
    """The bitset ``V`` as ``n_words`` little-endian ``uint64`` words (bit ``j`` of ``V`` is bit ``j % 64`` of word ``j // 64``).

    Examples
    --------
    >>> words_of_int((1 << 64) | 5, 2).tolist()
    [5, 1]
    """
    return np.frombuffer(V.to_bytes(n_words * 8, "little"), dtype="<u8").astype(np.uint64)


def column_counts(words: np.ndarray, live: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``out[i] = popcount(words[live[i]] & v)``: how many hypotheses of the version space ``v`` have a 1 at column ``live[i]``.

    Parameters
    ----------
    words : ndarray of uint64, shape (columns, W)
        Column ``x``'s ones as a bitset over the distinct hypotheses.
    live : ndarray of int64
        The columns to count.
    v : ndarray of uint64, shape (W,)
        The version space.

    Examples
    --------
    >>> import numpy as np
    >>> words = np.array([[0b1011], [0b0100], [0b1111]], dtype=np.uint64)
    >>> column_counts(words, np.array([0, 1, 2]), np.array([0b0110], dtype=np.uint64)).tolist()
    [1, 1, 2]
    """
    nz = np.flatnonzero(v)
    kernels = _use_compiled(len(live) * len(nz))
    if kernels is not None:
        return kernels.column_counts(words, live, v, nz)
    sub: Any = words[live][:, nz] if len(nz) < words.shape[1] else words[live]
    return np.bitwise_count(sub & v[nz]).sum(axis=1, dtype=np.int64)


def rows_of_columns(words: np.ndarray, n_rows: int, deadline: Any = None) -> tuple[np.ndarray, np.ndarray]:
    """The ones of each hypothesis (CSR ``indptr, indices``) from the columns' bitsets ``words`` (C x W).

    Built in steps of about 16 MB, ``deadline`` (a :class:`dimcalc.search.budget.Deadline`) read between them.

    Examples
    --------
    >>> import numpy as np
    >>> indptr, indices = rows_of_columns(np.array([[0b011], [0b110]], dtype=np.uint64), 3)
    >>> indptr.tolist(), indices.tolist()
    ([0, 1, 3, 4], [0, 0, 1, 1])
    """
    kernels = compiled_kernels()
    if kernels is not None and words.size:  # loaded: two compiled passes (lines over Z_101^2: 2 s -> ~0.05 s)
        if deadline is not None:
            deadline.check()
        indptr, indices = kernels.rows_of_columns(np.ascontiguousarray(words), n_rows)
        return indptr, indices
    n_cols = words.shape[0]
    counts = np.zeros(n_rows, dtype=np.int64)
    parts: list[np.ndarray] = []
    step = max(1, (1 << 24) // max(n_cols * 64, 1))  # words of hypotheses unpacked at once (~16 MB of bytes)
    for s in range(0, words.shape[1], step):
        if deadline is not None:
            deadline.check()
        bits = np.unpackbits(np.ascontiguousarray(words[:, s : s + step]).view(np.uint8), axis=1, bitorder="little")
        rows, cols = np.nonzero(bits.T)  # row-major: by hypothesis, then column
        rows = rows + s * 64
        inside = rows < n_rows
        rows, cols = rows[inside], cols[inside]
        counts += np.bincount(rows, minlength=n_rows)[:n_rows]
        parts.append(cols.astype(np.int32))
    indptr = np.zeros(n_rows + 1, dtype=np.int64)
    np.cumsum(counts, out=indptr[1:])
    indices = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int32)
    return indptr, indices


def row_counts(
    indptr: np.ndarray, indices: np.ndarray, v: np.ndarray, n_cols: int, size: int | None = None
) -> np.ndarray:
    """``out[x] = |V ∩ ones[x]|`` for every column ``x``, summed over the rows of the hypotheses in ``v``.

    ``size``: the work of the node the caller is deciding on (e.g. the column
    count it avoids); when it is big, the compiled loop is used at once.

    Examples
    --------
    >>> import numpy as np
    >>> indptr, indices = np.array([0, 1, 3, 4]), np.array([0, 0, 1, 1], dtype=np.int32)
    >>> row_counts(indptr, indices, np.array([0b110], dtype=np.uint64), 2).tolist()
    [1, 2]
    """
    if size is not None:
        kernels = _use_compiled(size)
        if kernels is not None:
            return kernels.row_counts(indptr, indices, v, n_cols)
    ids = np.flatnonzero(np.unpackbits(v.view(np.uint8), bitorder="little"))
    work = int((indptr[ids + 1] - indptr[ids]).sum()) if len(ids) else 0
    kernels = _use_compiled(work)
    if kernels is not None:
        return kernels.row_counts(indptr, indices, v, n_cols)
    if work == 0:
        return np.zeros(n_cols, dtype=np.int64)
    ones = np.concatenate([indices[indptr[h] : indptr[h + 1]] for h in ids.tolist()])
    return np.bincount(ones, minlength=n_cols).astype(np.int64)


def live_and_chosen(
    cnt: np.ndarray, by_column: bool, live: np.ndarray, n: int, need: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """``(new_live, chosen, ones, best)``: the columns of ``live`` not constant on a version space of ``n``
    hypotheses, the positions in ``new_live`` of those whose two sides have at least ``need`` hypotheses, their
    ``|V_1|``, and the largest smaller side ``min(|V_1|, n - |V_1|)`` of any column (0 if none splits).

    ``cnt`` holds ``|V_1|`` per column (``by_column``: indexed by column, else aligned with ``live``).

    Examples
    --------
    >>> import numpy as np
    >>> new, chosen, ones, best = live_and_chosen(np.array([0, 2, 1, 4]), True, np.array([0, 1, 2, 3]), 4, 2)
    >>> new.tolist(), chosen.tolist(), ones.tolist(), best
    ([1, 2], [0], [2], 2)
    """
    kernels = _use_compiled(len(live) * 64)
    if kernels is not None:
        new_live, chosen, ones, best = kernels.live_and_chosen(cnt, by_column, live, n, need)
        return new_live, chosen, ones, int(best)
    c = cnt[live] if by_column else cnt
    keep = (c > 0) & (c < n)
    new_live, c = live[keep], c[keep]
    chosen = np.flatnonzero((c >= need) & (n - c >= need))
    best = int(np.minimum(c, n - c).max()) if len(c) else 0
    return new_live, chosen, c[chosen], best
