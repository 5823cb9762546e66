"""The compiled part of :mod:`dimcalc.vc.kernel` (imported only when the kernel is used: numba loads here).

Columns are *root positions* ``0 .. R-1``: the columns both of whose sides
hold ``2^(T-1)`` hypotheses, in exploration order (most balanced first), with
their sides ``ones``/``zeros`` as ``uint64`` words over the hypotheses and
``rank`` the reduced point they lie on.  See :mod:`dimcalc.vc.kernel` for
the search; the functions here are its loops.
"""

from __future__ import annotations

import time
from typing import Any

import numba
import numpy as np

from . import rules

__all__ = ["COMPILED", "fill_pairs", "search"]

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
def _test(cells, sizes, first, n_cells, n_words, ones, zeros, z, partial, need):  # type: ignore[no-untyped-def]
    """min over the cells ``first .. first + n_cells - 1`` of both side sizes of column ``z``; stops below ``need``."""
    best = np.int64(1) << 62
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
def _triples(tri, tri_done, ones, zeros, rank, everyone, s, y, partial, need, n_root):  # type: ignore[no-untyped-def]
    """Fill ``tri[s, y] = tri[y, s]``: the bitset of the columns ``z`` with ``{s, y, z}`` passing at ``need``."""
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
    for z in range(n_root):
        if rank[z] == rank[s] or rank[z] == rank[y]:
            continue
        if _test(cells, sizes, 0, 4, n_words, ones, zeros, z, partial, need) >= need:
            tri[sy, z >> 6] |= np.uint64(1) << np.uint64(z & 63)
    for w in range(tri.shape[1]):
        tri[ys, w] = tri[sy, w]
    tri_done[sy] = 1
    tri_done[ys] = 1
    return 4 * n_root * n_words


@numba.njit(cache=True, boundscheck=False)
def search(
    ones,
    zeros,
    rank,
    heads,
    target,
    partial,
    stop_at,
    use_tri,
    use_pairs,
    use_adj,
    unique_ranks,
    stats,
    chosen,
    tri,
    tri_done,
    pair,
    pair_done,
):  # type: ignore[no-untyped-def]
    """Depth-first search for ``target`` columns shattered together; 1 found (``chosen``), 0 none, 2 stopped.

    A set is visited once, its columns in increasing root position (and on
    distinct points: ``rank``), so the candidates of ``S + {y}`` are those of
    ``S`` *after* ``y`` in its candidate list -- a suffix: nothing is sorted or
    allocated per node, and a node whose suffix is shorter than the columns
    it still needs is dropped before its cells are built (when that happens
    every later sibling has a shorter suffix too: the level is done).
    ``unique_ranks``: one column per point (VC, graph), so the points of a
    candidate list are counted by its length.  ``stats``: nodes, candidate
    tests, triple rows built, pair rows built, candidates peeled by the core.
    With ``use_adj`` a node with at most 64 candidates tests them against
    each other one level down (two levels at once), peels those with fewer
    compatible partners than a completion needs, and hands its children their
    candidate lists ready-made.  With ``use_pairs`` a candidate
    ``z`` of ``S + {y}`` must pass with ``y`` alone (``{y, z}`` at
    ``2^(target - 2)``: the pair rows, built lazily, one bit per pair), read
    before its cells are tested.  With ``use_tri`` candidates are first filtered
    by the triples they form with the set (every triple of a shattered set
    passes at ``2^(target - 3)``), and a candidate without enough partners
    among the others is dropped before its cells are tested.  The pair and
    triple rows (``pair``/``pair_done``, ``tri``/``tri_done``) are given by the
    caller, so that the rows built for one piece serve the next ones
    (:class:`dimcalc.vc.kernel.Filters`); a row is a function of its columns
    only, so rows built earlier never change an answer.
    """
    n_root, n_words = ones.shape
    rw = (n_root + 63) >> 6
    n_ranks = 0
    for i in range(n_root):
        if rank[i] + 1 > n_ranks:
            n_ranks = rank[i] + 1
    # cells of level d (a set of d columns) start at cell (1 << d) - 1; cell c's words at c * n_words
    cells = np.zeros(((1 << (target + 1)) - 1) * n_words, dtype=np.uint64)
    sizes = np.zeros((1 << (target + 1)) - 1, dtype=np.int64)
    cand = np.empty((target + 1) * max(n_root, 1), dtype=np.int64)
    bits = np.zeros((target + 1 if use_tri else 1, rw), dtype=np.uint64)
    n_cand = np.zeros(target + 1, dtype=np.int64)
    pos = np.zeros(target + 1, dtype=np.int64)
    seen = np.zeros(n_ranks + 1, dtype=np.int64)
    pre = np.empty(rw, dtype=np.uint64)
    look = np.empty(rw, dtype=np.uint64)
    need3 = np.int64(_need(target, 3)) if target >= 3 else np.int64(1)  # rules.triple_need
    need2 = np.int64(_need(target, 2)) if target >= 2 else np.int64(1)  # rules.pair_need
    loc = np.zeros(64, dtype=np.uint64)
    where = np.zeros(64, dtype=np.int64)
    adj = np.zeros((target + 1, 64), dtype=np.uint64)
    has_adj = np.zeros(target + 2, dtype=np.uint8)
    scratch = np.zeros((1 << (target + 1)) * n_words, dtype=np.uint64)
    scratch_sizes = np.zeros(1 << (target + 1), dtype=np.int64)
    stamp = 0
    work = 0
    # level 0: one cell, the hypotheses alive on some column
    for j in range(n_root):
        for w in range(n_words):
            cells[w] |= ones[j, w] | zeros[j, w]
    everyone = cells[:n_words].copy()
    t0 = np.int64(0)
    for w in range(n_words):
        t0 += _popcount(cells[w])
    sizes[0] = t0
    for j in range(n_root):
        cand[j] = j  # the pool of the empty set: every column; the set starts with one of `heads`
    n_cand[0] = n_root
    if use_tri:
        for j in range(n_root):
            bits[0, j >> 6] |= np.uint64(1) << np.uint64(j & 63)
    depth = 0
    while depth >= 0:
        if work >= 4194304:
            work = 0
            if _now() >= stop_at:
                return 2
        if depth == 0:
            if pos[0] >= len(heads):
                depth -= 1
                continue
            y = heads[pos[0]]
            start = y + 1  # the pool of the empty set is every column, in order
        else:
            if pos[depth] >= n_cand[depth]:
                depth -= 1
                continue
            y = cand[depth * n_root + pos[depth]]
            start = pos[depth] + 1
        pos[depth] += 1
        chosen[depth] = y
        stats[0] += 1
        remaining = target - depth
        if remaining == 1:
            return 1
        r = remaining - 1  # columns still to add after S + {y}
        from_adj = depth > 0 and has_adj[depth] == 1
        if from_adj:
            # candidates read off the parent's rows (already tested): those after y compatible with it
            after = adj[depth, start - 1] >> np.uint64(start) if start < 64 else np.uint64(0)
            if not _enough(_popcount(after), r):
                continue
        elif not _enough(n_cand[depth] - start, r):
            if depth > 0:
                pos[depth] = n_cand[depth]  # later siblings have shorter suffixes
            continue
        ry = rank[y]
        if use_pairs and pair_done[y] == 0:
            work += _pairs(pair, pair_done, ones, zeros, rank, everyone, y, partial, need2)
            stats[3] += 1
        tri_mode = use_tri and depth >= 1 and not from_adj
        if tri_mode:
            # P: candidates of S after y forming passing triples with y and every column of S
            for w in range(rw):
                pre[w] = bits[depth, w]
            lo = (y + 1) >> 6
            for w in range(lo):
                pre[w] = 0
            if lo < rw and (y + 1) & 63:
                pre[lo] &= ~((np.uint64(1) << np.uint64((y + 1) & 63)) - np.uint64(1))
            for i in range(depth):
                s = chosen[i]
                if tri_done[s * n_root + y] == 0:
                    work += _triples(tri, tri_done, ones, zeros, rank, everyone, s, y, partial, need3, n_root)
                    stats[2] += 1
                for w in range(rw):
                    pre[w] &= tri[s * n_root + y, w]
            count = np.int64(0)
            for w in range(rw):
                count += _popcount(pre[w])
            work += (depth + 1) * rw
            if not _enough(count, r):
                continue
            if r >= 2:
                # a member of the completion has r - 1 partners in P, each forming passing triples with it
                for w in range(rw):
                    look[w] = pre[w]
                for w in range(rw):
                    word = look[w]
                    while word:
                        low = word & (~word + np.uint64(1))
                        z = w * 64 + _popcount(low - np.uint64(1))
                        word ^= low
                        partners = np.int64(0)
                        for i in range(depth + 1):
                            s = chosen[i]
                            if tri_done[s * n_root + z] == 0:
                                work += _triples(
                                    tri, tri_done, ones, zeros, rank, everyone, s, z, partial, need3, n_root
                                )
                                stats[2] += 1
                        for v in range(rw):
                            q = look[v]
                            for i in range(depth + 1):
                                q &= tri[chosen[i] * n_root + z, v]
                            partners += _popcount(q)
                        work += (depth + 1) * rw
                        if not _enough(partners, r - 1):
                            pre[w] &= ~low
                count = np.int64(0)
                for w in range(rw):
                    count += _popcount(pre[w])
                if not _enough(count, r):
                    continue
        # cells of S + {y}: side 0 then side 1 of each cell of S
        n_par = 1 << depth
        par = n_par - 1
        chl = 2 * n_par - 1
        for c in range(n_par):
            s_zero = np.int64(0)
            s_one = np.int64(0)
            for w in range(n_words):
                a = cells[(par + c) * n_words + w]
                z0 = a & zeros[y, w]
                z1 = a & ones[y, w]
                cells[(chl + c) * n_words + w] = z0
                cells[(chl + n_par + c) * n_words + w] = z1
                s_zero += _popcount(z0)
                s_one += _popcount(z1)
            sizes[chl + c] = s_zero
            sizes[chl + n_par + c] = s_one
        work += 2 * n_par * n_words
        # candidates of S + {y} (written in place, in order): split every cell with `need` on both sides
        need = np.int64(_need(target, depth + 2))
        nb = (depth + 1) * n_root
        k = 0
        if from_adj:
            for j in range(start, n_cand[depth]):
                if (adj[depth, start - 1] >> np.uint64(j)) & np.uint64(1):
                    cand[nb + k] = cand[depth * n_root + j]
                    k += 1
        elif use_pairs and depth == 0:
            # the test of {y} + z is the pair test: its row is the answer
            for j in range(start, n_cand[depth]):
                z = cand[j]
                if (pair[y, z >> 6] >> np.uint64(z & 63)) & np.uint64(1):
                    cand[nb + k] = z
                    k += 1
        elif tri_mode and depth == 1:
            # {s, y, z} passing at 2^(target - 3) is exactly the test of S + {y} = {s, y}: P is the answer
            for j in range(start, n_cand[depth]):
                z = cand[depth * n_root + j]
                if (pre[z >> 6] >> np.uint64(z & 63)) & np.uint64(1):
                    cand[nb + k] = z
                    k += 1
        else:
            for j in range(start, n_cand[depth]):
                z = cand[depth * n_root + j]
                if rank[z] == ry:
                    continue
                if tri_mode and not ((pre[z >> 6] >> np.uint64(z & 63)) & np.uint64(1)):
                    continue
                if use_pairs and not ((pair[y, z >> 6] >> np.uint64(z & 63)) & np.uint64(1)):
                    continue  # {y, z} fails alone: z fails every cell split of S + {y} (rules.pair_need)
                stats[1] += 1
                work += 2 * n_par * n_words
                if _test(cells, sizes, chl, 2 * n_par, n_words, ones, zeros, z, partial, need) >= need:
                    cand[nb + k] = z
                    k += 1
        # enough distinct points left?
        if unique_ranks:
            distinct = k
        else:
            stamp += 1
            distinct = 0
            for j in range(k):
                rr = rank[cand[nb + j]]
                if seen[rr] != stamp:
                    seen[rr] = stamp
                    distinct += 1
        if not _enough(distinct, r):
            continue
        has_adj[depth + 1] = 0
        if use_adj and r >= 2 and k <= 64:
            # Two levels at once: the compatibility of the candidates among themselves, by the real test one
            # level down (z_j passes at S + {y, z_i}: symmetric, and true of every two members of a completion),
            # so the r columns of a completion each have r - 1 partners: peel those with fewer (rules.enough).
            # The children then read their candidates off these rows: they test nothing.
            need_next = np.int64(_need(target, depth + 3))
            for i in range(k):
                loc[i] = 0
            for i in range(k):
                zi = cand[nb + i]
                if use_pairs and pair_done[zi] == 0:
                    work += _pairs(pair, pair_done, ones, zeros, rank, everyone, zi, partial, need2)
                    stats[3] += 1
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
                for j in range(i + 1, k):
                    zj = cand[nb + j]
                    if rank[zj] == rank[zi]:
                        continue
                    if use_pairs and not ((pair[zi, zj >> 6] >> np.uint64(zj & 63)) & np.uint64(1)):
                        continue
                    stats[1] += 1
                    work += 4 * n_par * n_words
                    if _test(scratch, scratch_sizes, 0, 4 * n_par, n_words, ones, zeros, zj, partial, need_next) >= (
                        need_next
                    ):
                        loc[i] |= np.uint64(1) << np.uint64(j)
                        loc[j] |= np.uint64(1) << np.uint64(i)
            alive = ~np.uint64(0) if k == 64 else (np.uint64(1) << np.uint64(k)) - np.uint64(1)
            changed = True
            while changed:
                changed = False
                for i in range(k):
                    bit = np.uint64(1) << np.uint64(i)
                    if alive & bit and not _enough(_popcount(loc[i] & alive), r - 1):
                        alive &= ~bit
                        changed = True
            # keep the survivors, in order, with their rows re-indexed
            kept = 0
            for i in range(k):
                if alive & (np.uint64(1) << np.uint64(i)):
                    where[i] = kept
                    kept += 1
            for i in range(k):
                if alive & (np.uint64(1) << np.uint64(i)):
                    row = np.uint64(0)
                    word = loc[i] & alive
                    while word:
                        low = word & (~word + np.uint64(1))
                        row |= np.uint64(1) << np.uint64(where[_popcount(low - np.uint64(1))])
                        word ^= low
                    cand[nb + where[i]] = cand[nb + i]
                    adj[depth + 1, where[i]] = row
            stats[4] += k - kept
            k = kept
            has_adj[depth + 1] = 1
            if not _enough(k, r):
                continue
        if use_tri:
            for w in range(rw):
                bits[depth + 1, w] = 0
            for j in range(k):
                z = cand[nb + j]
                bits[depth + 1, z >> 6] |= np.uint64(1) << np.uint64(z & 63)
        n_cand[depth + 1] = k
        pos[depth + 1] = 0
        depth += 1
    return 0


@numba.njit(cache=True, boundscheck=False)
def fill_pairs(pair, pair_done, ones, zeros, rank, partial, need, lo, hi):  # type: ignore[no-untyped-def]
    """Build the pair rows ``lo .. hi - 1`` not yet built (:func:`_pairs`); the words of tests done."""
    n_root, n_words = ones.shape
    everyone = np.zeros(n_words, dtype=np.uint64)
    for j in range(n_root):
        for w in range(n_words):
            everyone[w] |= ones[j, w] | zeros[j, w]
    work = 0
    for y in range(lo, hi):
        if pair_done[y] == 0:
            work += _pairs(pair, pair_done, ones, zeros, rank, everyone, y, partial, need)
    return work


#: Every compiled function of this module (their disk cache is flushed when the rules change: kernel._build).
COMPILED: tuple[Any, ...] = (_need, _enough, _now, _popcount, _test, _pairs, _triples, search, fill_pairs)
