"""The compiled loop of :mod:`dimcalc.littlestone.counts` (imported only when a node is big enough: numba loads here)."""

from __future__ import annotations

import numba
import numpy as np

__all__ = ["column_counts", "shape_words", "packed_words", "best_balance"]


@numba.njit(cache=True, boundscheck=False, inline="always")
def _popcount(x):  # type: ignore[no-untyped-def]
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@numba.njit(cache=True, boundscheck=False, nogil=True)
def column_counts(words, live, v, nz):  # type: ignore[no-untyped-def]
    """``out[i] = |V ∩ ones[live[i]]|``: popcounts of ``words[live[i]] & v`` over the non-zero words ``nz`` of ``v``."""
    out = np.empty(len(live), dtype=np.int64)
    vz = v[nz]
    for i in range(len(live)):
        row = words[live[i]]
        n = 0
        for k in range(len(nz)):
            n += _popcount(row[nz[k]] & vz[k])
        out[i] = n
    return out


@numba.njit(cache=True, boundscheck=False, nogil=True)
def row_counts(indptr, indices, v, n_cols):  # type: ignore[no-untyped-def]
    """``out[x] = |V ∩ ones[x]|`` for every column ``x``, summed over the hypotheses of ``v`` (their ones lists)."""
    out = np.zeros(n_cols, dtype=np.int64)
    for w in range(len(v)):
        x = v[w]
        while x:
            low = x & (~x + np.uint64(1))
            h = w * 64 + _popcount(low - np.uint64(1))
            for k in range(indptr[h], indptr[h + 1]):
                out[indices[k]] += 1
            x ^= low
    return out


@numba.njit(cache=True, boundscheck=False, nogil=True)
def live_and_chosen(cnt, by_column, live, n, need):  # type: ignore[no-untyped-def]
    """Columns of ``live`` not constant on ``V`` (``0 < |V_1| < n``), and those of them whose smaller side has ``need``.

    ``cnt[live[i]]`` (``by_column``) or ``cnt[i]`` is ``|V_1|`` of ``live[i]``.  Returns ``(new_live, chosen, ones)``:
    ``chosen`` positions in ``new_live``, ``ones`` their ``|V_1|``, in live order; and the largest
    ``min(|V_1|, n - |V_1|)`` over ``live``.
    """
    new_live = np.empty(len(live), dtype=np.int64)
    chosen = np.empty(len(live), dtype=np.int64)
    ones = np.empty(len(live), dtype=np.int64)
    m = 0
    k = 0
    best = 0
    for i in range(len(live)):
        c = cnt[live[i]] if by_column else cnt[i]
        if 0 < c < n:
            new_live[m] = live[i]
            best = max(best, min(c, n - c))
            if c >= need and n - c >= need:
                chosen[k] = m
                ones[k] = c
                k += 1
            m += 1
    return new_live[:m], chosen[:k], ones[:k], best


@numba.njit(cache=True, boundscheck=False, nogil=True)
def node_candidates(words, live, v, n, need, indptr, indices, by_rows):  # type: ignore[no-untyped-def]
    """One node in one call: counts (by rows or by columns), live columns, candidates most balanced first.

    Returns ``(new_live, columns, ones, balances, best)``: the candidates' columns, their ``|V_1|`` and
    ``min(|V_1|, n - |V_1|)`` sorted by decreasing balance (stable), and the largest balance of any column.
    """
    if by_rows:
        cnt = row_counts(indptr, indices, v, words.shape[0])
    else:
        cnt = column_counts(words, live, v, np.flatnonzero(v))
    new_live, chosen, ones, best = live_and_chosen(cnt, by_rows, live, n, need)
    balances = np.minimum(ones, n - ones)
    order = np.argsort(-balances, kind="mergesort")
    return new_live, new_live[chosen[order]], ones[order], balances[order], best


@numba.njit(cache=True, boundscheck=False, nogil=True)
def best_balance(words, live, v, n, enough):  # type: ignore[no-untyped-def]
    """The largest ``min(|V_1|, n - |V_1|)`` over the columns ``live`` (0 if none splits ``V``), or the first
    such value at least ``enough`` (the caller needs no more): rule 9's look, without a candidate list."""
    nz = np.flatnonzero(v)
    best = 0
    for i in range(len(live)):
        row = words[live[i]]
        c = 0
        for k in range(len(nz)):
            c += _popcount(row[nz[k]] & v[nz[k]])
        b = min(c, n - c)
        if b > best:
            best = b
            if best >= enough:
                return best
    return best


@numba.njit(cache=True, boundscheck=False, nogil=True)
def _row_less(mat, a, b, nw):  # type: ignore[no-untyped-def]
    """Whether row ``a`` of ``mat`` sorts before row ``b`` (word 0 most significant)."""
    for w in range(nw):
        x, y = mat[a, w], mat[b, w]
        if x != y:
            return x < y
    return False


@numba.njit(cache=True, boundscheck=False, nogil=True)
def _sorted_rows(mat, r, nw):  # type: ignore[no-untyped-def]
    """The stable order of the ``r`` rows of ``mat`` (``nw`` words each, word 0 most significant): one argsort for
    one word, else one bottom-up merge sort on whole rows (``nw`` stable argsorts, one per word, cost ``nw`` times
    as much; same order)."""
    if nw == 1:
        return np.argsort(mat[:r, 0], kind="mergesort")
    order = np.arange(r)
    tmp = np.empty(r, dtype=np.int64)
    width = 1
    while width < r:
        for lo in range(0, r, 2 * width):
            mid = min(lo + width, r)
            hi = min(lo + 2 * width, r)
            a, b, o = lo, mid, lo
            while a < mid and b < hi:
                if _row_less(mat, order[b], order[a], nw):
                    tmp[o] = order[b]
                    b += 1
                else:
                    tmp[o] = order[a]
                    a += 1
                o += 1
            while a < mid:
                tmp[o] = order[a]
                a += 1
                o += 1
            while b < hi:
                tmp[o] = order[b]
                b += 1
                o += 1
        order, tmp = tmp, order
        width *= 2
    return order


@numba.njit(cache=True, boundscheck=False, nogil=True)
def shape_words(words, live, v, max_rows):  # type: ignore[no-untyped-def]
    """The shape of the version space ``v`` (``uint64`` words over the distinct hypotheses) on the columns
    ``live`` of ``words`` (``(columns, W)`` bitsets), as ``uint64`` words; empty when ``|V| > max_rows``.

    ``[k, r, row_0 ..., row_{r-1}]``: the ``k`` columns of ``live`` not constant on ``V`` (in ``live``'s
    order), each complemented when more than half of ``V`` has a 1 there; each of the ``r`` hypotheses of
    ``V`` as ``ceil(k / 64)`` words over them; rows sorted (lexicographically, word 0 most significant).
    """
    r = 0
    for w in range(len(v)):
        r += _popcount(v[w])
    if r > max_rows:
        return np.empty(0, dtype=np.uint64)
    hw = np.empty(r, dtype=np.int64)  # each hypothesis's word and bit
    hb = np.empty(r, dtype=np.uint64)
    nz = np.empty(len(v), dtype=np.int64)
    n_nz = 0
    j = 0
    for w in range(len(v)):
        x = v[w]
        if x:
            nz[n_nz] = w
            n_nz += 1
        while x:
            low = x & (~x + np.uint64(1))
            hw[j] = w
            hb[j] = np.uint64(_popcount(low - np.uint64(1)))
            j += 1
            x ^= low
    kept = np.empty(len(live), dtype=np.int64)
    flips = np.empty(len(live), dtype=np.uint64)
    k = 0
    for i in range(len(live)):
        col = words[live[i]]
        n = 0
        for q in range(n_nz):
            n += _popcount(col[nz[q]] & v[nz[q]])
        if 0 < n < r:
            kept[k] = live[i]
            flips[k] = np.uint64(1) if 2 * n > r else np.uint64(0)
            k += 1
    nw = max(1, (k + 63) // 64)
    mat = np.zeros((max(r, 1), nw), dtype=np.uint64)
    for p in range(k):
        col = words[kept[p]]
        flip = flips[p]
        word, bit = p >> 6, np.uint64(p & 63)
        for j in range(r):
            mat[j, word] |= (((col[hw[j]] >> hb[j]) & np.uint64(1)) ^ flip) << bit
    order = _sorted_rows(mat, r, nw)
    out = np.empty(2 + r * nw, dtype=np.uint64)
    out[0], out[1] = k, r
    for j in range(r):
        for w in range(nw):
            out[2 + j * nw + w] = mat[order[j], w]
    return out


@numba.njit(cache=True, boundscheck=False, nogil=True)
def rows_of_columns(words, n_rows):  # type: ignore[no-untyped-def]
    """Each hypothesis's ones as CSR ``(indptr, indices)`` from the columns' bitsets ``words`` (C x W): two passes,
    counts then fill, columns in increasing order within a row (the numpy version's integers)."""
    indptr = np.zeros(n_rows + 1, dtype=np.int64)
    for c in range(words.shape[0]):
        for w in range(words.shape[1]):
            x = words[c, w]
            while x:
                low = x & (~x + np.uint64(1))
                h = w * 64 + _popcount(low - np.uint64(1))
                if h < n_rows:
                    indptr[h + 1] += 1
                x ^= low
    for h in range(n_rows):
        indptr[h + 1] += indptr[h]
    fill = indptr[:-1].copy()
    indices = np.empty(indptr[n_rows], dtype=np.int32)
    for c in range(words.shape[0]):
        for w in range(words.shape[1]):
            x = words[c, w]
            while x:
                low = x & (~x + np.uint64(1))
                h = w * 64 + _popcount(low - np.uint64(1))
                if h < n_rows:
                    indices[fill[h]] = c
                    fill[h] += 1
                x ^= low
    return indptr, indices


@numba.njit(cache=True, boundscheck=False, nogil=True)
def packed_words(v):  # type: ignore[no-untyped-def]
    """The non-zero words of ``v``: their ``k`` indices, then their ``2k`` 32-bit halves (low first), as ``uint32``.

    The same array as :func:`dimcalc.littlestone.memo_table.pack_words` builds with numpy (a memo key).
    """
    k = 0
    for i in range(len(v)):
        if v[i]:
            k += 1
    out = np.empty(3 * k, dtype=np.uint32)
    j = 0
    for i in range(len(v)):
        x = v[i]
        if x:
            out[j] = np.uint32(i)
            out[k + 2 * j] = np.uint32(x & np.uint64(0xFFFFFFFF))
            out[k + 2 * j + 1] = np.uint32(x >> np.uint64(32))
            j += 1
    return out
