"""The compiled part of :mod:`dimcalc.vc.kernel` (imported only when the kernel is used: numba loads here).

Columns are *root positions* ``0 .. R-1``: the columns both of whose sides
hold ``2^(T-1)`` hypotheses, in exploration order (most balanced first), with
their sides ``ones``/``zeros`` as ``uint64`` words over the hypotheses and
``rank`` the reduced point they lie on.  See :mod:`dimcalc.vc.kernel` for
the search; the functions here are its loops.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np

from ._kernel_heads import TRUSS_MAX_POOL, head_graph, truss
from ._kernel_steps import (
    ADJ_MAX,
    ADJ_WORDS,
    _enough,
    _from,
    _head_row,
    _need,
    _now,
    _pairs,
    _peel,
    _popcount,
    _test,
    _test4,
    _triples,
    adjacency,
)

__all__ = ["ADJ_MAX", "COMPILED", "fill_pairs", "search"]


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
    use_head,
    use_truss,
    ind,
    one_ind,
    zero_ind,
    unique_ranks,
    stats,
    chosen,
    tri,
    tri_done,
    pair,
    pair_done,
    head_rows,
    head_sym,
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
    only, so rows built earlier never change an answer.  ``head_rows`` and ``head_sym`` (``R x ceil(R / 64)``
    words each, any contents: every row is written before it is read) are the head rows and the head graph
    when the caller keeps them from one call to the next (:func:`dimcalc.vc.kernel.workspace`); other shapes
    are ignored and the arrays allocated here.
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
    seen = np.zeros(n_ranks + 1, dtype=np.int64)
    pre = np.empty(rw, dtype=np.uint64)
    look = np.empty(rw, dtype=np.uint64)
    need3 = np.int64(_need(target, 3)) if target >= 3 else np.int64(1)  # rules.triple_need
    need2 = np.int64(_need(target, 2)) if target >= 2 else np.int64(1)  # rules.pair_need
    loc = np.zeros((ADJ_MAX, ADJ_WORDS), dtype=np.uint64)
    where = np.zeros(ADJ_MAX, dtype=np.int64)
    mask = np.zeros(ADJ_WORDS, dtype=np.uint64)
    up = np.zeros((ADJ_MAX, ADJ_WORDS), dtype=np.uint64)
    flt = np.zeros((ADJ_MAX, ADJ_WORDS), dtype=np.uint64)
    alive = np.zeros(ADJ_WORDS, dtype=np.uint64)
    adj = np.zeros((target + 1, ADJ_MAX, ADJ_WORDS), dtype=np.uint64)
    has_adj = np.zeros(target + 2, dtype=np.uint8)
    scratch = np.zeros((1 << (target + 1)) * n_words, dtype=np.uint64)
    # head triples: with the triple filter off, tri0[z] = the columns w after z with {y0, z, w} passing at
    # 2^(target - 3), y0 the set's first column (rows built lazily, kept while y0 heads the set)
    use_tri0 = use_head and not use_tri and target >= 3
    # (rows and columns are indices in the pool: the candidates of {y0}, `pool_pos` their root positions)
    if use_tri0 and head_rows.shape[0] == n_root and head_rows.shape[1] == rw:
        tri0 = head_rows
    else:
        tri0 = np.zeros((n_root if use_tri0 else 0, rw), dtype=np.uint64)
    tri0_of = np.full(n_root if use_tri0 else 0, -1, dtype=np.int64)
    pmap = np.zeros(n_root if use_tri0 else 0, dtype=np.int64)
    pool_pos = np.zeros(n_root if use_tri0 else 0, dtype=np.int64)
    # the head graph (the head rows made symmetric) and its truss flags, with use_truss (_kernel_heads)
    use_truss = use_truss and use_tri0 and target >= 4
    if use_truss and head_sym.shape[0] == n_root and head_sym.shape[1] == rw:
        sym = head_sym
    else:
        sym = np.zeros((n_root if use_truss else 0, rw), dtype=np.uint64)
    t_dirty = np.zeros(rw if use_truss else 0, dtype=np.uint64)
    t_next = np.zeros(rw if use_truss else 0, dtype=np.uint64)
    pw = 0
    cpool = np.zeros(rw, dtype=np.uint64)
    prefix = np.zeros(rw + 1, dtype=np.int64)
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
    if True:
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
            row = adj[depth, start - 1]
            count = np.int64(0)
            for v in range((n_cand[depth] + 63) >> 6):
                count += _popcount(_from(row[v], v, start))
            if not _enough(count, r):
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
        # P (`pre`, a bitset over root positions): the candidates of S after y that pass with y alone (pair rows)
        # and, with the triple filter, form passing triples with y and every column of S; the cells of S + {y}
        # are then tested on the members of P only (no scan of the candidate list).
        # with the head triples (and no triple filter), the candidates of {y0, y1} are the head row of y1
        head1 = use_tri0 and not tri_mode and depth == 1 and not from_adj
        bit_mode = depth >= 1 and not from_adj and not head1 and (use_pairs or tri_mode)
        py = 0
        if head1:
            py = pmap[y]
            if tri0_of[py] != chosen[0]:
                got = _head_row(
                    tri0[py],
                    ones,
                    zeros,
                    rank,
                    everyone,
                    chosen[0],
                    y,
                    bits[1],
                    pmap,
                    pw,
                    pair,
                    use_pairs,
                    partial,
                    need3,
                )
                stats[1] += got
                work += 4 * n_words * got + rw
                tri0_of[py] = chosen[0]
            count = np.int64(0)
            for v in range(pw):
                count += _popcount(tri0[py, v])
            if not _enough(count, r):
                continue
        if bit_mode:
            for w in range(rw):
                pre[w] = bits[depth, w]
            if use_pairs:
                for w in range(rw):
                    pre[w] &= pair[y, w]
            lo = (y + 1) >> 6
            for w in range(lo):
                pre[w] = 0
            if lo < rw and (y + 1) & 63:
                pre[lo] &= ~((np.uint64(1) << np.uint64((y + 1) & 63)) - np.uint64(1))
            if tri_mode:
                for i in range(depth):
                    s = chosen[i]
                    if tri_done[s * n_root + y] == 0:
                        work += _triples(
                            tri, tri_done, ones, zeros, rank, everyone, s, y, partial, need3, n_root, pair, pair_done
                        )
                        stats[2] += 1
                    for w in range(rw):
                        pre[w] &= tri[s * n_root + y, w]
            count = np.int64(0)
            for w in range(rw):
                count += _popcount(pre[w])
            work += (depth + 2) * rw
            if not _enough(count, r):
                continue
        if tri_mode and r >= 2:
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
                                tri,
                                tri_done,
                                ones,
                                zeros,
                                rank,
                                everyone,
                                s,
                                z,
                                partial,
                                need3,
                                n_root,
                                pair,
                                pair_done,
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
            row = adj[depth, start - 1]
            for v in range((n_cand[depth] + 63) >> 6):
                word = _from(row[v], v, start)
                while word:
                    low = word & (~word + np.uint64(1))
                    cand[nb + k] = cand[depth * n_root + v * 64 + _popcount(low - np.uint64(1))]
                    k += 1
                    word ^= low
        elif use_pairs and depth == 0:
            # the test of {y} + z is the pair test: its row is the answer
            for j in range(start, n_cand[depth]):
                z = cand[j]
                if (pair[y, z >> 6] >> np.uint64(z & 63)) & np.uint64(1):
                    cand[nb + k] = z
                    k += 1
        elif head1:
            # {y0, y1, z} passing at 2^(target - 3) is exactly the test of S + {y} = {y0, y1}: the row is the answer
            for v in range(pw):
                word = tri0[py, v]
                while word:
                    low = word & (~word + np.uint64(1))
                    cand[nb + k] = pool_pos[v * 64 + _popcount(low - np.uint64(1))]
                    k += 1
                    word ^= low
        elif tri_mode and depth == 1:
            # {s, y, z} passing at 2^(target - 3) is exactly the test of S + {y} = {s, y}: P is the answer
            for w in range(rw):
                word = pre[w]
                while word:
                    low = word & (~word + np.uint64(1))
                    cand[nb + k] = w * 64 + _popcount(low - np.uint64(1))
                    k += 1
                    word ^= low
        elif bit_mode:
            for w in range(rw):
                word = pre[w]
                while word:
                    low = word & (~word + np.uint64(1))
                    z = w * 64 + _popcount(low - np.uint64(1))
                    word ^= low
                    stats[1] += 1
                    work += 2 * n_par * n_words
                    if _test(cells, sizes, chl, 2 * n_par, n_words, ones, zeros, z, partial, need) >= need:
                        cand[nb + k] = z
                        k += 1
        else:
            for j in range(start, n_cand[depth]):
                z = cand[depth * n_root + j]
                if rank[z] == ry:
                    continue
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
        if use_adj and r >= 2 and k <= ADJ_MAX:
            kept, spent = adjacency(
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
                bits[1],
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
            )
            work += spent
            stats[4] += k - kept
            k = kept
            has_adj[depth + 1] = 1
            if not _enough(k, r):
                continue
        if depth == 0 or has_adj[depth + 1] == 0:  # read by the children unless they read adjacency rows
            for w in range(rw):
                bits[depth + 1, w] = 0
            for j in range(k):
                z = cand[nb + j]
                bits[depth + 1, z >> 6] |= np.uint64(1) << np.uint64(z & 63)
        if depth == 0 and use_tri0:
            # the pool of this head: the candidates of {y0}; head rows are bitsets over their indices
            for j in range(k):
                pool_pos[j] = cand[nb + j]
                pmap[cand[nb + j]] = j
            pw = (k + 63) >> 6
            if use_truss and k <= TRUSS_MAX_POOL:
                # every head row of y0 at once, cut to the truss: members left without an edge end the node here
                got, cut, spent, left, built = head_graph(
                    tri0,
                    tri0_of,
                    sym,
                    t_dirty,
                    t_next,
                    ones,
                    zeros,
                    rank,
                    everyone,
                    y,
                    bits[1],
                    pmap,
                    pool_pos,
                    k,
                    pw,
                    pair,
                    pair_done,
                    use_pairs,
                    partial,
                    need2,
                    need3,
                    target,
                    ind,
                    one_ind,
                    zero_ind,
                )
                stats[3] += built
                stats[1] += got
                stats[5] += cut
                work += 4 * n_words * got + spent
                if not _enough(left, r):
                    continue
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
COMPILED: tuple[Any, ...] = (
    _need,
    _enough,
    _now,
    _popcount,
    _from,
    _test,
    _test4,
    _pairs,
    _triples,
    _head_row,
    _peel,
    adjacency,
    truss,
    head_graph,
    search,
    fill_pairs,
)
