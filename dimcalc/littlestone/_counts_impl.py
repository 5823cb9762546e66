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


#: The mix of a shape's row (:func:`_row_mix`): its start and multiplier (the fractional digits of pi and of the
#: golden ratio, as 64-bit words), and the shift of its xorshift.
MIX_START = 0x243F6A8885A308D3
MIX_MULTIPLIER = 0x9E3779B97F4A7C15
MIX_SHIFT = 29


@numba.njit(cache=True, boundscheck=False, nogil=True, inline="always")
def _row_mix(mat, i, nw):  # type: ignore[no-untyped-def]
    """A fixed 64-bit mix of row ``i`` of ``mat`` (``nw`` words): from :data:`MIX_START`, for each word in turn
    ``h = (h ^ word) * MIX_MULTIPLIER mod 2^64``, then ``h ^= h >> MIX_SHIFT``."""
    h = np.uint64(MIX_START)
    for w in range(nw):
        h = (h ^ mat[i, w]) * np.uint64(MIX_MULTIPLIER)
        h ^= h >> np.uint64(MIX_SHIFT)
    return h


@numba.njit(cache=True, boundscheck=False, nogil=True)
def _row_order(mat, r, nw):  # type: ignore[no-untyped-def]
    """The order of the ``r`` rows of ``mat`` (``nw`` words each) in a shape: by the top ``b`` bits of their
    :func:`_row_mix`, ties by the words, word 0 most significant (``b = max(8, 32 - i)`` for the ``i`` bits of a
    row index, ``i = max(1, bit_length(r - 1))``: at least 20 bits up to 4 096 rows).  It depends on the rows alone, so a
    shape stands for the multiset of its rows (any order that does would do; this one is cheap).

    Keys ``(top bits << i) | row index`` in an LSD radix sort of 8-bit digits (4 passes up to 4 096 rows); rows
    whose top bits tie (equal rows, or a rare collision: rows are distinct on a shape's columns; 3 000 random
    rows have about 4) are ordered by their words.  It replaced a lexicographic sort (an argsort on word 0, then
    the ties by the other words), which took 120 of the 200 µs of an average shape of intervals over 512: word 0
    tied on half of the rows there.
    """
    ib = 1
    while (1 << ib) < r:
        ib += 1
    hb = max(8, 32 - ib)
    passes = (ib + hb + 7) // 8
    keys = np.empty(r, dtype=np.uint64)
    for i in range(r):
        keys[i] = ((_row_mix(mat, i, nw) >> np.uint64(64 - hb)) << np.uint64(ib)) | np.uint64(i)
    other = np.empty(r, dtype=np.uint64)
    count = np.empty(256, dtype=np.int64)
    for p in range(passes):
        sh = np.uint64(8 * p)
        count[:] = 0
        for i in range(r):
            count[(keys[i] >> sh) & np.uint64(255)] += 1
        at = 0
        for d in range(256):
            n = count[d]
            count[d] = at
            at += n
        for i in range(r):
            d = (keys[i] >> sh) & np.uint64(255)
            other[count[d]] = keys[i]
            count[d] += 1
        keys, other = other, keys
    low = (np.uint64(1) << np.uint64(ib)) - np.uint64(1)
    order = np.empty(r, dtype=np.int64)
    for i in range(r):
        order[i] = np.int64(keys[i] & low)
    a = 0
    while a < r:
        b = a + 1
        top = keys[a] >> np.uint64(ib)
        while b < r and keys[b] >> np.uint64(ib) == top:
            b += 1
        for i in range(a + 1, b):  # an insertion sort: a run of equal rows costs one comparison a row
            x = order[i]
            j = i - 1
            while j >= a and _row_less(mat, x, order[j], nw):
                order[j + 1] = order[j]
                j -= 1
            order[j + 1] = x
        a = b
    return order


@numba.njit(cache=True, boundscheck=False, nogil=True, inline="always")
def _ctz(x):  # type: ignore[no-untyped-def]
    """Trailing zeros of a non-zero word."""
    return _popcount((x & (~x + np.uint64(1))) - np.uint64(1))


_TRANSPOSE_MASKS = np.array(
    [
        0x00000000FFFFFFFF,
        0x0000FFFF0000FFFF,
        0x00FF00FF00FF00FF,
        0x0F0F0F0F0F0F0F0F,
        0x3333333333333333,
        0x5555555555555555,
    ],
    dtype=np.uint64,
)


@numba.njit(cache=True, boundscheck=False, nogil=True)
def _transpose64(a, masks):  # type: ignore[no-untyped-def]
    """Transpose the 64 x 64 bit matrix ``a`` in place (bit ``j`` of ``a[i]`` becomes bit ``i`` of ``a[j]``): six
    rounds of swapping blocks of ``32, 16, ..., 1`` bits (Warren, *Hacker's Delight*, 2nd ed., §7-3)."""
    j = 32
    for s in range(6):
        m = masks[s]
        sh = np.uint64(j)
        for k in range(64):
            if k & j == 0:
                t = ((a[k] >> sh) ^ a[k + j]) & m
                a[k + j] ^= t
                a[k] ^= t << sh
        j >>= 1


@numba.njit(cache=True, boundscheck=False, nogil=True)
def shape_words(words, live, v, max_rows):  # type: ignore[no-untyped-def]
    """The shape of the version space ``v`` (``uint64`` words over the distinct hypotheses) on the columns
    ``live`` of ``words`` (``(columns, W)`` bitsets), as ``uint64`` words; empty when ``|V| > max_rows``.

    ``[k, r, row_0 ..., row_{r-1}]``: the ``k`` columns of ``live`` not constant on ``V`` (in ``live``'s
    order), each complemented when more than half of ``V`` has a 1 there; each of the ``r`` hypotheses of
    ``V`` as ``ceil(k / 64)`` words over them; rows in the order of :func:`_row_order` (a function of the rows
    alone: version spaces with the same multiset of rows have the same shape).

    Built by columns, then transposed: ``V``'s hypotheses come in runs of consecutive indices (intervals over
    512: about 5 runs for 300 hypotheses), so each column's bits on ``V`` are copied a run at a time (up to 64
    bits a step, the steps planned once for all columns), and 64 x 64 blocks are transposed into rows
    (:func:`_transpose64`).  Intervals over 512 (2 402 of the 48 056 shapes of an LDim call, replayed): 200 µs a
    shape with the lexicographic sort and a column's steps worked out per column, 113 µs now (medians of 10).
    """
    r = 0
    for w in range(len(v)):
        r += _popcount(v[w])
    if r > max_rows:
        return np.empty(0, dtype=np.uint64)
    starts = np.empty(r + 1, dtype=np.int64)  # runs of consecutive hypotheses of V
    lengths = np.empty(r + 1, dtype=np.int64)
    n_runs = 0
    nz = np.empty(len(v), dtype=np.int64)
    n_nz = 0
    for w in range(len(v)):
        x = v[w]
        if x:
            nz[n_nz] = w
            n_nz += 1
        while x:
            b = _ctz(x)
            y = x >> np.uint64(b)
            ln = 64 if y == np.uint64(0xFFFFFFFFFFFFFFFF) else _ctz(~y)
            start = w * 64 + b
            if n_runs and starts[n_runs - 1] + lengths[n_runs - 1] == start:
                lengths[n_runs - 1] += ln
            else:
                starts[n_runs] = start
                lengths[n_runs] = ln
                n_runs += 1
            if b + ln >= 64:
                x = np.uint64(0)
            else:
                x &= ~((np.uint64(1) << np.uint64(b + ln)) - np.uint64(1))
    kept = np.empty(len(live), dtype=np.int64)
    flips = np.empty(len(live), dtype=np.bool_)
    k = 0
    for i in range(len(live)):
        col = words[live[i]]
        n = 0
        for q in range(n_nz):
            n += _popcount(col[nz[q]] & v[nz[q]])
        if 0 < n < r:
            kept[k] = live[i]
            flips[k] = 2 * n > r
            k += 1
    nw = max(1, (k + 63) // 64)
    rw = (r + 63) // 64
    # The pieces of the runs, the same for every column: up to 64 bits from one word of a column to one of by_col
    # (a run is cut where a word of either ends: at most 2 (runs + rw) pieces).
    src = np.empty(2 * (n_runs + rw), dtype=np.int64)
    src_shift = np.empty(2 * (n_runs + rw), dtype=np.uint64)
    mask = np.empty(2 * (n_runs + rw), dtype=np.uint64)
    dst = np.empty(2 * (n_runs + rw), dtype=np.int64)
    dst_shift = np.empty(2 * (n_runs + rw), dtype=np.uint64)
    n_pieces = 0
    at = 0
    for q in range(n_runs):
        pos = starts[q]
        rem = lengths[q]
        while rem > 0:
            take = min(64 - (pos & 63), 64 - (at & 63), rem)
            src[n_pieces], src_shift[n_pieces] = pos >> 6, np.uint64(pos & 63)
            mask[n_pieces] = (
                np.uint64(0xFFFFFFFFFFFFFFFF) if take == 64 else (np.uint64(1) << np.uint64(take)) - np.uint64(1)
            )
            dst[n_pieces], dst_shift[n_pieces] = at >> 6, np.uint64(at & 63)
            n_pieces += 1
            pos += take
            at += take
            rem -= take
    # By columns: bit j of by_col[p] is column kept[p] at V's j-th hypothesis (in index order), complemented if flipped.
    by_col = np.zeros((nw * 64, max(rw, 1)), dtype=np.uint64)
    for p in range(k):
        col = words[kept[p]]
        for e in range(n_pieces):
            by_col[p, dst[e]] |= ((col[src[e]] >> src_shift[e]) & mask[e]) << dst_shift[e]
        if flips[p]:
            for q in range(rw):
                by_col[p, q] = ~by_col[p, q]
            if r & 63:
                by_col[p, rw - 1] &= (np.uint64(1) << np.uint64(r & 63)) - np.uint64(1)
    mat = np.zeros((max(r, 1), nw), dtype=np.uint64)
    block = np.empty(64, dtype=np.uint64)
    for c in range(nw):
        for q in range(rw):
            for i in range(64):
                block[i] = by_col[c * 64 + i, q]
            _transpose64(block, _TRANSPOSE_MASKS)
            for j in range(min(64, r - q * 64)):
                mat[q * 64 + j, c] = block[j]
    order = _row_order(mat, r, nw)
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


@numba.njit(cache=True, boundscheck=False, nogil=True)
def greedy_balance(cols, idx, mask, v):  # type: ignore[no-untyped-def]
    """The greedy tree's most balanced column (:func:`dimcalc.littlestone.greedy._most_balanced`): ``|V ∩ ones[c]|``
    for the columns ``c`` of ``idx`` in order, on the version space ``mask`` (``v`` hypotheses), up to the first
    perfect split (``v // 2``: none is better).

    Returns ``(best, balance, scanned, live, k)``: the first column of the largest ``min(|V_1|, v - |V_1|)``
    (``-1`` when ``idx`` is empty), that balance, the number of columns scanned, and those of them that split
    ``V`` (``live[:k]``, in order).
    """
    nz = np.flatnonzero(mask)
    mz = mask[nz]
    half = v // 2
    live = np.empty(len(idx), dtype=np.int64)
    k = 0
    best = -1
    best_balance = -1
    i = 0
    while i < len(idx):
        c = idx[i]
        n = 0
        for w in range(len(nz)):
            n += _popcount(cols[c, nz[w]] & mz[w])
        b = min(n, v - n)
        if b > best_balance:
            best = c
            best_balance = b
        if b > 0:
            live[k] = c
            k += 1
        i += 1
        if best_balance == half:
            break
    return best, best_balance, i, live, k


@numba.njit(cache=True, boundscheck=False, nogil=True)
def greedy_restrict(cols, idx, nz, mz, v):  # type: ignore[no-untyped-def]
    """The columns of ``idx`` that split the version space ``mz`` (its non-zero words ``nz``, ``v`` hypotheses),
    on those words only (:func:`dimcalc.littlestone.greedy._restrict`): ``(sub, where)``, the columns' words at
    ``nz`` and their positions in ``idx``, in order."""
    sub = np.empty((len(idx), len(nz)), dtype=np.uint64)
    where = np.empty(len(idx), dtype=np.int64)
    k = 0
    for i in range(len(idx)):
        c = idx[i]
        n = 0
        for w in range(len(nz)):
            x = cols[c, nz[w]]
            sub[k, w] = x
            n += _popcount(x & mz[w])
        if 0 < n < v:
            where[k] = i
            k += 1
    return sub[:k].copy(), where[:k].copy()


@numba.njit(cache=True, boundscheck=False, nogil=True)
def greedy_compact(sub, mz, ids, v):  # type: ignore[no-untyped-def]
    """``sub``'s rows on the ``v`` hypotheses of ``mz`` alone (bit ``j`` of a new row: the ``j``-th set bit of
    ``mz``), with their ids (``-1`` past ``v``) and the new version space (its first ``v`` bits):
    :func:`dimcalc.littlestone.greedy._restrict`'s compaction."""
    n_words = max(1, (v + 63) // 64)
    keep = np.empty(v, dtype=np.int64)
    j = 0
    for w in range(len(mz)):
        x = mz[w]
        while x:
            low = x & (~x + np.uint64(1))
            keep[j] = w * 64 + _popcount(low - np.uint64(1))
            j += 1
            x ^= low
    packed = np.zeros((sub.shape[0], n_words), dtype=np.uint64)
    for r in range(sub.shape[0]):
        for j in range(v):
            p = keep[j]
            if (sub[r, p >> 6] >> np.uint64(p & 63)) & np.uint64(1):
                packed[r, j >> 6] |= np.uint64(1) << np.uint64(j & 63)
    new_ids = np.full(n_words * 64, -1, dtype=np.int64)
    mask = np.zeros(n_words, dtype=np.uint64)
    for j in range(v):
        new_ids[j] = ids[keep[j]]
        mask[j >> 6] |= np.uint64(1) << np.uint64(j & 63)
    return packed, new_ids, mask
