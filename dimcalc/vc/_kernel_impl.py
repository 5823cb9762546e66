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

__all__ = ["COMPILED", "search"]

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
def search(ones, zeros, rank, heads, target, partial, stop_at, use_tri, later, stats, chosen):  # type: ignore[no-untyped-def]
    """Depth-first search for ``target`` columns shattered together; 1 found (``chosen``), 0 none, 2 stopped.

    ``stats``: nodes, candidate tests, triple rows built.  With ``use_tri``
    (``target >= 4``, ``later[y]`` = the bitset of the columns on later points
    than ``y``) candidates are first filtered by the triples they form with
    the set (every triple of a shattered set passes at ``2^(target - 3)``),
    and a candidate without enough partners among the others is dropped
    before its cells are tested.
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
    bits = np.zeros((target + 1, rw), dtype=np.uint64)
    n_cand = np.zeros(target + 1, dtype=np.int64)
    pos = np.zeros(target + 1, dtype=np.int64)
    score = np.empty(max(n_root, 1), dtype=np.int64)
    tmp = np.empty(max(n_root, 1), dtype=np.int64)
    seen = np.zeros(n_ranks + 1, dtype=np.int64)
    pre = np.empty(rw, dtype=np.uint64)
    look = np.empty(rw, dtype=np.uint64)
    tri = np.zeros((n_root * n_root if use_tri else 0, rw), dtype=np.uint64)
    tri_done = np.zeros(n_root * n_root if use_tri else 0, dtype=np.uint8)
    need3 = np.int64(_need(target, 3)) if target >= 3 else np.int64(1)  # rules.triple_need
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
    for j in range(n_root):
        bits[0, j >> 6] |= np.uint64(1) << np.uint64(j & 63)
    depth = 0
    while depth >= 0:
        if work >= 4194304:
            work = 0
            if _now() >= stop_at:
                return 2
        if pos[depth] >= (len(heads) if depth == 0 else n_cand[depth]):
            depth -= 1
            continue
        y = heads[pos[0]] if depth == 0 else cand[depth * n_root + pos[depth]]
        pos[depth] += 1
        chosen[depth] = y
        stats[0] += 1
        remaining = target - depth
        if remaining == 1:
            return 1
        r = remaining - 1  # columns still to add after S + {y}
        ry = rank[y]
        tri_mode = use_tri and depth >= 1
        if tri_mode:
            # P: candidates of S on later points forming passing triples with y and every column of S
            for w in range(rw):
                pre[w] = bits[depth, w] & later[y, w]
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
        # candidates of S + {y}: split every cell with `need` on both sides
        need = np.int64(_need(target, depth + 2))
        k = 0
        if tri_mode and depth == 1:
            # {s, y, z} passing at 2^(target - 3) is exactly the test of S + {y} = {s, y}: P is the answer
            for j in range(n_cand[depth]):
                z = cand[depth * n_root + j]
                if (pre[z >> 6] >> np.uint64(z & 63)) & np.uint64(1):
                    tmp[k] = z
                    score[k] = 0
                    k += 1
        else:
            for j in range(n_cand[depth]):
                z = cand[depth * n_root + j]
                if rank[z] <= ry:
                    continue
                if tri_mode and not ((pre[z >> 6] >> np.uint64(z & 63)) & np.uint64(1)):
                    continue
                stats[1] += 1
                b = _test(cells, sizes, chl, 2 * n_par, n_words, ones, zeros, z, partial, need)
                work += 2 * n_par * n_words
                if b >= need:
                    tmp[k] = z
                    score[k] = b
                    k += 1
        # enough distinct points left?
        stamp += 1
        distinct = 0
        for j in range(k):
            rr = rank[tmp[j]]
            if seen[rr] != stamp:
                seen[rr] = stamp
                distinct += 1
        if not _enough(distinct, r):
            continue
        order = np.argsort(-score[:k], kind="mergesort")  # most balanced first (stable)
        nb = (depth + 1) * n_root
        for w in range(rw):
            bits[depth + 1, w] = 0
        for j in range(k):
            z = tmp[order[j]]
            cand[nb + j] = z
            bits[depth + 1, z >> 6] |= np.uint64(1) << np.uint64(z & 63)
        n_cand[depth + 1] = k
        pos[depth + 1] = 0
        depth += 1
    return 0


#: Every compiled function of this module (their disk cache is flushed when the rules change: kernel._build).
COMPILED: tuple[Any, ...] = (_need, _enough, _now, _popcount, _test, _triples, search)
