"""The steps of the compiled search :func:`dimcalc.vc._kernel_impl.search` (numba; imported with it).

Cell tests, the pair / triple / head-triple rows, the core peeling and the
two-levels-at-once step; each is a necessary condition for a set to grow
into a shattered set of the target size (:mod:`dimcalc.vc.rules`,
``docs/vc.md``: the rules table).
"""

from __future__ import annotations

import time

import numba
import numpy as np

from . import rules

__all__ = ["ADJ_MAX", "ADJ_WORDS", "adjacency"]  # and the underscored steps, for _kernel_impl

#: A node with at most this many candidates tests them against each other one level down (two levels at once).
ADJ_MAX = 256
ADJ_WORDS = ADJ_MAX // 64

# The pruning rules, compiled from their one definition in dimcalc.vc.rules (the numpy search calls them as Python).
_need = numba.njit(cache=True, inline="always")(rules.need)
_enough = numba.njit(cache=True, inline="always")(rules.enough)


@numba.njit(cache=True, boundscheck=False)
def _now():  # type: ignore[no-untyped-def]
    with numba.objmode(t="float64"):
        t = time.monotonic()
    return t


@numba.njit(cache=True, boundscheck=False, inline="always")
def _popcount(x):  # type: ignore[no-untyped-def]
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@numba.njit(cache=True, boundscheck=False, inline="always")
def _from(word, v, start):  # type: ignore[no-untyped-def]
    """Word ``v`` of a bitset with the bits below position ``start`` cleared."""
    lo = v * 64
    if start <= lo:
        return word
    if start >= lo + 64:
        return np.uint64(0)
    return word & ~((np.uint64(1) << np.uint64(start - lo)) - np.uint64(1))


@numba.njit(cache=True, boundscheck=False)
def _peel(rows, alive, k, least):  # type: ignore[no-untyped-def]
    """Clear from ``alive`` (a bitset over ``0 .. k-1``) every member with fewer than ``least`` partners among the
    members in ``rows`` (symmetric), repeatedly (rules.enough): what is left is the ``least``-core."""
    kw = (k + 63) >> 6
    changed = True
    while changed:
        changed = False
        for i in range(k):
            bit = np.uint64(1) << np.uint64(i & 63)
            if alive[i >> 6] & bit:
                partners = np.int64(0)
                for v in range(kw):
                    partners += _popcount(rows[i, v] & alive[v])
                if not _enough(partners, least):
                    alive[i >> 6] &= ~bit
                    changed = True


@numba.njit(cache=True, boundscheck=False, inline="always")
def _test(cells, sizes, first, n_cells, n_words, ones, zeros, z, partial, need):  # type: ignore[no-untyped-def]
    """min over the cells ``first .. first + n_cells - 1`` of both side sizes of column ``z``; stops below ``need``."""
    best = np.int64(1) << 62
    if n_words == 1 and not partial:
        # one word per cell (at most 64 hypotheses): no inner loop (its set-up costs more than the word)
        side = ones[z, 0]
        for c in range(n_cells):
            a = _popcount(cells[first + c] & side)
            b = sizes[first + c] - a
            m = a if a < b else b
            if m < best:
                best = m
                if best < need:
                    return best
        return best
    for c in range(n_cells):
        off = (first + c) * n_words
        a = np.int64(0)
        for w in range(n_words):
            a += _popcount(cells[off + w] & ones[z, w])
        if partial:
            b = np.int64(0)
            for w in range(n_words):
                b += _popcount(cells[off + w] & zeros[z, w])
        else:
            b = sizes[first + c] - a
        m = a if a < b else b
        if m < best:
            best = m
            if best < need:
                return best
    return best


@numba.njit(cache=True, boundscheck=False, inline="always")
def _test4(cells, sizes, n_words, ones, zeros, z, partial, need):  # type: ignore[no-untyped-def]
    """Whether column ``z`` splits each of the 4 cells ``0 .. 3`` with ``need`` on both sides (:func:`_test`).

    With one word per cell (at most 64 hypotheses) all four cells are read,
    without a branch: a test that stops at the first failing cell mispredicts
    where it stops, which costs more than the three popcounts it saves.
    """
    if n_words == 1 and not partial:
        side = ones[z, 0]
        a0 = _popcount(cells[0] & side)
        a1 = _popcount(cells[1] & side)
        a2 = _popcount(cells[2] & side)
        a3 = _popcount(cells[3] & side)
        low = min(min(a0, sizes[0] - a0), min(a1, sizes[1] - a1))
        low = min(low, min(min(a2, sizes[2] - a2), min(a3, sizes[3] - a3)))
        return low >= need
    return _test(cells, sizes, 0, 4, n_words, ones, zeros, z, partial, need) >= need


@numba.njit(cache=True, boundscheck=False)
def _pairs(pair, pair_done, ones, zeros, rank, everyone, y, partial, need):  # type: ignore[no-untyped-def]
    """Fill ``pair[y]``: the bitset of the columns ``z`` with ``{y, z}`` passing at ``need`` (rules.pair_need)."""
    n_root, n_words = ones.shape
    cells = np.empty(2 * n_words, dtype=np.uint64)
    sizes = np.zeros(2, dtype=np.int64)
    for w in range(n_words):
        cells[w] = everyone[w] & zeros[y, w]
        cells[n_words + w] = everyone[w] & ones[y, w]
        sizes[0] += _popcount(cells[w])
        sizes[1] += _popcount(cells[n_words + w])
    for z in range(n_root):
        if rank[z] == rank[y]:
            continue
        if _test(cells, sizes, 0, 2, n_words, ones, zeros, z, partial, need) >= need:
            pair[y, z >> 6] |= np.uint64(1) << np.uint64(z & 63)
    pair_done[y] = 1
    return 2 * n_root * n_words


@numba.njit(cache=True, boundscheck=False)
def _triples(tri, tri_done, ones, zeros, rank, everyone, s, y, partial, need, n_root, pair, pair_done):  # type: ignore[no-untyped-def]
    """Fill ``tri[s, y] = tri[y, s]``: the bitset of the columns ``z`` with ``{s, y, z}`` passing at ``need``; the words
    of tests done.

    The test of ``{s, y, z}`` is that each of its 8 cells holds ``need``
    hypotheses: symmetric in the three columns, so a ``z`` whose row with ``s``
    or ``y`` is built already is read from there (each triple tested once, not
    three times).  A triple passing at ``need`` has its pairs passing at
    ``2 * need`` (a cell of ``{y}`` is the union of two cells of ``{s, y}``):
    a ``z`` outside a built pair row of ``s`` or ``y`` fails untested (rules.pair_need).
    """
    n_words = ones.shape[1]
    cells = np.empty(4 * n_words, dtype=np.uint64)
    sizes = np.zeros(4, dtype=np.int64)
    for w in range(n_words):
        a0 = everyone[w] & zeros[s, w]
        a1 = everyone[w] & ones[s, w]
        cells[w] = a0 & zeros[y, w]
        cells[n_words + w] = a1 & zeros[y, w]
        cells[2 * n_words + w] = a0 & ones[y, w]
        cells[3 * n_words + w] = a1 & ones[y, w]
    for c in range(4):
        t = np.int64(0)
        for w in range(n_words):
            t += _popcount(cells[c * n_words + w])
        sizes[c] = t
    sy = s * n_root + y
    ys = y * n_root + s
    pair_s = pair_done.shape[0] > 0 and pair_done[s] == 1
    pair_y = pair_done.shape[0] > 0 and pair_done[y] == 1
    s_bit = np.uint64(1) << np.uint64(s & 63)
    y_bit = np.uint64(1) << np.uint64(y & 63)
    tests = 0
    for v in range(tri.shape[1]):
        word = ~np.uint64(0)
        if pair_s:
            word &= pair[s, v]
        if pair_y:
            word &= pair[y, v]
        if v * 64 + 64 > n_root:
            word &= (np.uint64(1) << np.uint64(n_root - v * 64)) - np.uint64(1)
        while word:
            low = word & (~word + np.uint64(1))
            z = v * 64 + _popcount(low - np.uint64(1))
            word ^= low
            if rank[z] == rank[s] or rank[z] == rank[y]:
                continue
            if tri_done[s * n_root + z] == 1:
                passed = tri[s * n_root + z, y >> 6] & y_bit != 0
            elif tri_done[y * n_root + z] == 1:
                passed = tri[y * n_root + z, s >> 6] & s_bit != 0
            else:
                tests += 1
                passed = _test4(cells, sizes, n_words, ones, zeros, z, partial, need)
            if passed:
                tri[sy, v] |= low
    for w in range(tri.shape[1]):
        tri[ys, w] = tri[sy, w]
    tri_done[sy] = 1
    tri_done[ys] = 1
    return 4 * tests * n_words + 8 * n_root


@numba.njit(cache=True, boundscheck=False)
def _head_row(row, ones, zeros, rank, everyone, s, y, pool, pmap, pw, pair, use_pairs, partial, need):  # type: ignore[no-untyped-def]
    """Fill ``row`` (a bitset over the pool indices ``pmap``): the columns ``z`` of ``pool`` (root positions) after
    ``y`` -- and passing with ``y`` alone, with the pair rows -- with ``{s, y, z}`` passing at ``need``
    (rules.triple_need); the number of tests."""
    n_words = ones.shape[1]
    cells = np.empty(4 * n_words, dtype=np.uint64)
    sizes = np.zeros(4, dtype=np.int64)
    for w in range(n_words):
        a0 = everyone[w] & zeros[s, w]
        a1 = everyone[w] & ones[s, w]
        cells[w] = a0 & zeros[y, w]
        cells[n_words + w] = a1 & zeros[y, w]
        cells[2 * n_words + w] = a0 & ones[y, w]
        cells[3 * n_words + w] = a1 & ones[y, w]
    for c in range(4):
        t = np.int64(0)
        for w in range(n_words):
            t += _popcount(cells[c * n_words + w])
        sizes[c] = t
    for v in range(pw):
        row[v] = 0
    tests = 0
    for v in range((y + 1) >> 6, pool.shape[0]):
        word = _from(pool[v], v, y + 1)
        if use_pairs:
            word &= pair[y, v]
        while word:
            low = word & (~word + np.uint64(1))
            z = v * 64 + _popcount(low - np.uint64(1))
            word ^= low
            if rank[z] == rank[s] or rank[z] == rank[y]:
                continue
            tests += 1
            if _test4(cells, sizes, n_words, ones, zeros, z, partial, need):
                p = pmap[z]
                row[p >> 6] |= np.uint64(1) << np.uint64(p & 63)
    return tests


@numba.njit(cache=True, boundscheck=False)
def adjacency(  # type: ignore[no-untyped-def]
    k,
    nb,
    depth,
    r,
    target,
    n_par,
    chl,
    cand,
    cells,
    ones,
    zeros,
    rank,
    everyone,
    partial,
    need2,
    need3,
    use_pairs,
    pair,
    pair_done,
    use_tri0,
    tri0,
    tri0_of,
    chosen,
    pool,
    pmap,
    pw,
    cpool,
    prefix,
    up,
    flt,
    loc,
    mask,
    alive,
    scratch,
    scratch_sizes,
    where,
    adj,
    stats,
):
    """Two levels at once at a node ``S + {y}`` (depth ``depth``) with ``k <= ADJ_MAX`` candidates ``cand[nb:nb+k]``;
    ``(kept, work)``: the candidates kept (in place, in order) and the words of tests done.

    1. The filter relation (no cell read): ``z_j`` after ``z_i`` on another
       point passing with ``z_i`` alone (pair rows), or forming a passing
       triple with ``z_i`` and the set's first column (head triples, from
       depth 1; implies the pair test) -- true of every two members of a
       completion, so a candidate with fewer than ``r - 1`` such partners is
       peeled (:func:`peel`) before any of its cells is built.
    2. The real test one level down (``z_j`` passes at ``S + {y, z_i}``:
       symmetric, true of every two members of a completion) on the
       survivors' related pairs only; peeled again at ``r - 1``.  The rows
       (``adj[depth + 1]``, re-indexed to the kept candidates) hand the
       children their candidates ready-made.
    """
    n_words = ones.shape[1]
    rw = pool.shape[0]
    work = 0
    # Two levels at once: the compatibility of the candidates among themselves, by the real test one
    # level down (z_j passes at S + {y, z_i}: symmetric, and true of every two members of a completion),
    # so the r columns of a completion each have r - 1 partners: peel those with fewer (rules.enough).
    # The children then read their candidates off these rows: they test nothing.
    need_next = np.int64(_need(target, depth + 3))
    kw = (k + 63) >> 6
    for i in range(k):
        for v in range(kw):
            loc[i, v] = 0
            flt[i, v] = 0
    # 1. the filter relation (no cell read): z_j after z_i on another point passing with z_i alone (pair
    # rows), or forming a passing triple with z_i and the set's first column (head triples, from depth 1;
    # implies the pair test) -- true of every two members of a completion, so a candidate with fewer than
    # r - 1 such partners is peeled before any of its cells is built
    head_rows = use_tri0 and depth >= 1
    if head_rows:
        # the candidates as a bitset over the pool, with counts before each word (pool index -> position)
        for v in range(pw):
            cpool[v] = 0
        for i in range(k):
            p = pmap[cand[nb + i]]
            cpool[p >> 6] |= np.uint64(1) << np.uint64(p & 63)
        for v in range(pw):
            prefix[v + 1] = prefix[v] + _popcount(cpool[v])
    for i in range(k):
        zi = cand[nb + i]
        if use_pairs and pair_done[zi] == 0:
            work += _pairs(pair, pair_done, ones, zeros, rank, everyone, zi, partial, need2)
            stats[3] += 1
        if head_rows:
            pi = pmap[zi]
            if tri0_of[pi] != chosen[0]:
                got = _head_row(
                    tri0[pi],
                    ones,
                    zeros,
                    rank,
                    everyone,
                    chosen[0],
                    zi,
                    pool,
                    pmap,
                    pw,
                    pair,
                    use_pairs,
                    partial,
                    need3,
                )
                stats[1] += got
                work += 4 * n_words * got + rw
                tri0_of[pi] = chosen[0]
            # the row holds later pool members only: word-wise AND with the candidates, then positions
            for v in range(kw):
                up[i, v] = 0
            for v in range(pi >> 6, pw):
                word = tri0[pi, v] & cpool[v]
                while word:
                    low = word & (~word + np.uint64(1))
                    word ^= low
                    j = prefix[v] + _popcount(cpool[v] & (low - np.uint64(1)))
                    up[i, j >> 6] |= np.uint64(1) << np.uint64(j & 63)
                    flt[j, i >> 6] |= np.uint64(1) << np.uint64(i & 63)
            for v in range(kw):
                flt[i, v] |= up[i, v]
            continue
        for v in range((i + 1) >> 6, kw):
            acc = np.uint64(0)
            for j in range(max(i + 1, v * 64), min(k, v * 64 + 64)):
                zj = cand[nb + j]
                if head_rows:
                    bit = (tri0[zi, zj >> 6] >> np.uint64(zj & 63)) & np.uint64(1)
                elif use_pairs:  # a pair row has no column on z_i's point
                    bit = (pair[zi, zj >> 6] >> np.uint64(zj & 63)) & np.uint64(1)
                else:
                    bit = np.uint64(rank[zj] != rank[zi])
                acc |= bit << np.uint64(j & 63)
            up[i, v] = acc
            word = acc
            while word:
                low = word & (~word + np.uint64(1))
                j = v * 64 + _popcount(low - np.uint64(1))
                word ^= low
                flt[j, i >> 6] |= np.uint64(1) << np.uint64(i & 63)
            flt[i, v] |= acc
    for v in range(kw):
        alive[v] = ~np.uint64(0)
    if k & 63:
        alive[kw - 1] = (np.uint64(1) << np.uint64(k & 63)) - np.uint64(1)
    _peel(flt, alive, k, r - 1)
    # 2. the real test one level down, on the survivors' filtered pairs only
    for i in range(k):
        if not alive[i >> 6] & (np.uint64(1) << np.uint64(i & 63)):
            continue
        zi = cand[nb + i]
        any_bit = np.uint64(0)
        for v in range(kw):
            mask[v] = up[i, v] & alive[v] if v >= ((i + 1) >> 6) else np.uint64(0)
            any_bit |= mask[v]
        if any_bit == 0:
            continue
        # cells of S + {y, z_i} from those of S + {y} (level depth + 1, at `chl`)
        for c in range(2 * n_par):
            s_zero = np.int64(0)
            s_one = np.int64(0)
            for w in range(n_words):
                a = cells[(chl + c) * n_words + w]
                z0 = a & zeros[zi, w]
                z1 = a & ones[zi, w]
                scratch[c * n_words + w] = z0
                scratch[(2 * n_par + c) * n_words + w] = z1
                s_zero += _popcount(z0)
                s_one += _popcount(z1)
            scratch_sizes[c] = s_zero
            scratch_sizes[2 * n_par + c] = s_one
        work += 4 * n_par * n_words
        for v in range(kw):
            word = mask[v]
            while word:
                low = word & (~word + np.uint64(1))
                j = v * 64 + _popcount(low - np.uint64(1))
                word ^= low
                zj = cand[nb + j]
                stats[1] += 1
                work += 4 * n_par * n_words
                if _test(scratch, scratch_sizes, 0, 4 * n_par, n_words, ones, zeros, zj, partial, need_next) >= (
                    need_next
                ):
                    loc[i, v] |= low
                    loc[j, i >> 6] |= np.uint64(1) << np.uint64(i & 63)
    _peel(loc, alive, k, r - 1)
    # keep the survivors, in order, with their rows re-indexed
    kept = 0
    for i in range(k):
        if alive[i >> 6] & (np.uint64(1) << np.uint64(i & 63)):
            where[i] = kept
            kept += 1
    kept_w = (kept + 63) >> 6
    for i in range(k):
        if alive[i >> 6] & (np.uint64(1) << np.uint64(i & 63)):
            wi = where[i]
            for v in range(kept_w):
                adj[depth + 1, wi, v] = 0
            for v in range(kw):
                word = loc[i, v] & alive[v]
                while word:
                    low = word & (~word + np.uint64(1))
                    t = where[v * 64 + _popcount(low - np.uint64(1))]
                    adj[depth + 1, wi, t >> 6] |= np.uint64(1) << np.uint64(t & 63)
                    word ^= low
            cand[nb + wi] = cand[nb + i]
    return kept, work
