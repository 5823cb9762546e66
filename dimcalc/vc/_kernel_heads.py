"""The head graph of the compiled search (numba; imported with :mod:`dimcalc.vc._kernel_impl`).

For a head ``y0`` (the first column of the set) and its pool (the candidates
of ``{y0}``), the *head graph* joins two pool members ``a < b`` when
``{y0, a, b}`` passes at ``2^(T-3)`` (:func:`dimcalc.vc.rules.triple_need`;
the rows are the head triples of :func:`dimcalc.vc._kernel_steps._head_row`).
The ``T - 1`` columns a completion of ``{y0}`` adds are pairwise joined (every
triple of a shattered set passes): a clique, each of whose edges lies in
``T - 3`` triangles of it (:func:`dimcalc.vc.rules.truss_need`).  So an edge
with fewer common neighbours is in no completion and is cut, repeatedly (the
edges left form a *truss*, Cohen 2008), before any node below ``y0`` is
visited: a pool member left without ``T - 2`` later partners has no
completion below it and costs a count, not its cells.
"""

from __future__ import annotations

import numba
import numpy as np

from . import rules
from ._kernel_steps import _from, _head_row, _pairs, _popcount

__all__ = ["TRUSS_MAX_POOL", "head_graph", "truss"]

#: The head graph is built (every head row at once) and cut for pools of at most this many candidates.
TRUSS_MAX_POOL = 8192
#: The cutting stops after a pass that cut fewer than 1 / TRUSS_STOP of the edges left (a slow cascade costs more
#: passes than the nodes it saves; measured on random 64 x 50 000, seed 0, target 6).
TRUSS_STOP = 16

_truss_need = numba.njit(cache=True, inline="always")(rules.truss_need)
_truss_clique = numba.njit(cache=True, inline="always")(rules.truss_clique)


@numba.njit(cache=True, boundscheck=False, inline="always")
def _has_clique(sym, common, nzw, nn, size):  # type: ignore[no-untyped-def]
    """Whether the vertices of the bitset ``common`` (non-zero in its words ``nzw[:nn]`` only) hold a clique of
    ``size`` (1, 2 or 3) in the rows ``sym``."""
    if size <= 0:
        return True
    if nn == 0:
        return False
    if size == 1:
        return True
    for i in range(nn):
        v = nzw[i]
        word = common[v]
        while word:
            low = word & (~word + np.uint64(1))
            c = v * 64 + _popcount(low - np.uint64(1))
            word ^= low
            for k in range(nn):
                u = nzw[k]
                d_word = sym[c, u] & common[u]
                if size == 2 and d_word:
                    return True
                while d_word:
                    d_low = d_word & (~d_word + np.uint64(1))
                    d = u * 64 + _popcount(d_low - np.uint64(1))
                    d_word ^= d_low
                    for q in range(nn):  # a third vertex joined to c and d, among the common ones
                        t = nzw[q]
                        if sym[c, t] & sym[d, t] & common[t]:
                            return True
    return False


@numba.njit(cache=True, boundscheck=False)
def truss(sym, p, pw, least, clique, dirty, nxt):  # type: ignore[no-untyped-def]
    """Cut from the symmetric bitset rows ``sym[0 .. p-1]`` (``pw`` words) every edge with fewer than ``least``
    common neighbours, or without a ``clique`` (1 to 3 vertices) among them, pass after pass, until a
    pass cuts fewer than ``1 / TRUSS_STOP`` of the edges left; ``(edges cut, words read)``.

    An edge is read again only when one of its ends lost an edge in the last
    pass (``dirty``/``nxt``: bitsets over the vertices), so a pass after the
    first costs what changed.
    """
    cut = 0
    work = 0
    common_bits = np.zeros(pw, dtype=np.uint64)
    nzw = np.zeros(pw, dtype=np.int64)
    for v in range(pw):
        dirty[v] = ~np.uint64(0)
    edges = np.int64(0)
    for a in range(p):
        for v in range(pw):
            edges += _popcount(sym[a, v])
    edges //= 2
    changed = True
    while changed:
        changed = False
        before = cut
        for v in range(pw):
            nxt[v] = 0
        for a in range(p):
            abit = np.uint64(1) << np.uint64(a & 63)
            a_dirty = dirty[a >> 6] & abit
            for v in range((a + 1) >> 6, pw):
                word = _from(sym[a, v], v, a + 1)
                if not a_dirty:
                    word &= dirty[v]  # a clean edge between clean ends keeps its common neighbours
                while word:
                    low = word & (~word + np.uint64(1))
                    b = v * 64 + _popcount(low - np.uint64(1))
                    word ^= low
                    common = np.int64(0)
                    for u in range(pw):
                        common += _popcount(sym[a, u] & sym[b, u])
                        if common >= least:
                            break
                    work += pw
                    if common >= least and clique >= 2:
                        nn = 0
                        for u in range(pw):
                            common_bits[u] = sym[a, u] & sym[b, u]
                            if common_bits[u]:
                                nzw[nn] = u
                                nn += 1
                        work += pw + nn * nn * 4
                        if not _has_clique(sym, common_bits, nzw, nn, clique):
                            common = np.int64(-1)
                    if common < least:
                        sym[a, v] &= ~low
                        sym[b, a >> 6] &= ~abit
                        nxt[a >> 6] |= abit
                        nxt[v] |= low
                        changed = True
                        cut += 1
        for v in range(pw):
            dirty[v] = nxt[v]
        edges -= cut - before
        if (cut - before) * TRUSS_STOP < edges:
            break  # a pass that cut little: what it leaves is kept (a truss need not be complete to be sound)
    return cut, work


@numba.njit(cache=True, boundscheck=False)
def _dense_rows(tri0, tri0_of, ones, zeros, rank, everyone, y0, pool_pos, p, pw, need3):  # type: ignore[no-untyped-def]
    """The head rows of ``y0`` when a cell is one word and no hypothesis is dead (:func:`head_graph`); the tests.

    Every later pool member is tested (no pair row read: a triple passing at
    ``need3`` has its pairs passing at ``2 * need3``, rules.pair_need), all
    four cells without a branch, on the members' words gathered in pool
    order: a few nanoseconds a test, against tens for a sparse walk over the
    root positions that mispredicts.
    """
    side = np.empty(p, dtype=np.uint64)
    where = np.empty(p, dtype=np.int64)
    for j in range(p):
        side[j] = ones[pool_pos[j], 0]
        where[j] = rank[pool_pos[j]]
    e = everyone[0]
    a0 = e & zeros[y0, 0]
    a1 = e & ones[y0, 0]
    tests = 0
    for j in range(p):
        y = pool_pos[j]
        c0 = a0 & zeros[y, 0]
        c1 = a1 & zeros[y, 0]
        c2 = a0 & ones[y, 0]
        c3 = a1 & ones[y, 0]
        n0, n1, n2, n3 = _popcount(c0), _popcount(c1), _popcount(c2), _popcount(c3)
        ry = where[j]
        for v in range(j >> 6):
            tri0[j, v] = 0
        for v in range(j >> 6, pw):
            acc = np.uint64(0)
            for i in range(max(j + 1, v * 64), min(p, v * 64 + 64)):
                z = side[i]
                b0 = _popcount(c0 & z)
                b1 = _popcount(c1 & z)
                b2 = _popcount(c2 & z)
                b3 = _popcount(c3 & z)
                low = min(min(min(b0, n0 - b0), min(b1, n1 - b1)), min(min(b2, n2 - b2), min(b3, n3 - b3)))
                ok = (low >= need3) & (where[i] != ry)
                acc |= np.uint64(ok) << np.uint64(i & 63)
            tri0[j, v] = acc
        tests += p - j - 1
        tri0_of[j] = y0
    return tests


@numba.njit(cache=True, boundscheck=False)
def _indicator_rows(tri0, tri0_of, ones, zeros, rank, everyone, y0, pool_pos, p, pw, need3, ind, one_ind, zero_ind):  # type: ignore[no-untyped-def]
    """The head rows of ``y0`` when the columns are pairs of label indicators (:func:`head_graph`); the tests.

    The test of ``{y0, y, z}`` reads, in each of the 4 cells of ``{y0, y}``,
    the hypotheses of the two indicators that are ``z``'s sides: so an
    indicator is *good* for ``(y0, y)`` when each cell holds ``need3`` of its
    hypotheses (counted once, stopping at the first cell short), and ``z``
    passes exactly when both its sides are good (and it lies on another point
    than ``y``) -- no pair row read: a passing triple has its pairs passing
    (rules.pair_need).  The pool members are listed by the indicator on their
    side 1, so a row visits the members of the few good indicators only.
    """
    n_ind, n_words = ind.shape
    good = np.zeros(n_ind, dtype=np.uint8)
    # the pool members by the indicator on their side 1 (in pool order)
    start = np.zeros(n_ind + 1, dtype=np.int64)
    for i in range(p):
        start[one_ind[pool_pos[i]] + 1] += 1
    for t in range(n_ind):
        start[t + 1] += start[t]
    fill = start[:n_ind].copy()
    members = np.empty(max(p, 1), dtype=np.int64)
    for i in range(p):
        t = one_ind[pool_pos[i]]
        members[fill[t]] = i
        fill[t] += 1
    cells = np.empty((4, n_words), dtype=np.uint64)
    tests = 0
    for j in range(p):
        y = pool_pos[j]
        for w in range(n_words):
            a0 = everyone[w] & zeros[y0, w]
            a1 = everyone[w] & ones[y0, w]
            cells[0, w] = a0 & zeros[y, w]
            cells[1, w] = a1 & zeros[y, w]
            cells[2, w] = a0 & ones[y, w]
            cells[3, w] = a1 & ones[y, w]
        for t in range(n_ind):
            ok = 1
            for c in range(4):
                count = np.int64(0)
                for w in range(n_words):
                    count += _popcount(cells[c, w] & ind[t, w])
                if count < need3:
                    ok = 0
                    break
            good[t] = ok
        tests += n_ind
        for v in range(pw):
            tri0[j, v] = 0
        ry = rank[y]
        for t in range(n_ind):
            if good[t] == 0:
                continue
            for q in range(start[t], start[t + 1]):
                i = members[q]
                if i <= j:
                    continue
                z = pool_pos[i]
                if good[zero_ind[z]] == 1 and rank[z] != ry:
                    tri0[j, i >> 6] |= np.uint64(1) << np.uint64(i & 63)
        tri0_of[j] = y0
    return tests


@numba.njit(cache=True, boundscheck=False)
def head_graph(  # type: ignore[no-untyped-def]
    tri0,
    tri0_of,
    sym,
    dirty,
    nxt,
    ones,
    zeros,
    rank,
    everyone,
    y0,
    pool,
    pmap,
    pool_pos,
    p,
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
):
    """Build every head row of ``y0`` over its pool (``p`` members at root positions ``pool_pos``,
    bitset ``pool``, pool index of a root position ``pmap``)
    and cut them to their truss (:func:`truss`, ``rules.truss_need(target)`` common neighbours); ``(tests, edges cut,
    words, members left with an edge, pair rows built)``; the pair rows of the pool (``need2``) are built first.

    With dead hypotheses and ``ind`` given (the label indicators, whose rows
    ``one_ind[z]`` / ``zero_ind[z]`` are the sides of column ``z``: Natarajan
    pairs) the rows are read off the indicators' counts (:func:`_indicator_rows`).
    The rows ``tri0[j]`` keep the later members only (as :func:`_head_row`
    builds them) and are marked built for ``y0`` (``tri0_of``), so the search
    below ``y0`` reads them and never rebuilds them.
    """
    tests = 0
    pair_rows = 0
    work0 = 0
    if ones.shape[1] == 1 and not partial:
        tests = _dense_rows(tri0, tri0_of, ones, zeros, rank, everyone, y0, pool_pos, p, pw, need3)
        p = -p  # the rows are built: skip the loop below
    elif partial and ind.shape[0] > 0:
        tests = _indicator_rows(
            tri0, tri0_of, ones, zeros, rank, everyone, y0, pool_pos, p, pw, need3, ind, one_ind, zero_ind
        )
        p = -p
    for j in range(max(p, 0)):
        z = pool_pos[j]
        if use_pairs and pair_done[z] == 0:  # the head row of z reads its pair row
            work0 += _pairs(pair, pair_done, ones, zeros, rank, everyone, z, partial, need2)
            pair_rows += 1
        tests += _head_row(tri0[j], ones, zeros, rank, everyone, y0, z, pool, pmap, pw, pair, use_pairs, partial, need3)
        tri0_of[j] = y0
    p = abs(p)
    for j in range(p):
        for v in range(pw):
            sym[j, v] = 0
    for j in range(p):
        jbit = np.uint64(1) << np.uint64(j & 63)
        for v in range(pw):
            word = tri0[j, v]
            sym[j, v] |= word
            while word:
                low = word & (~word + np.uint64(1))
                b = v * 64 + _popcount(low - np.uint64(1))
                word ^= low
                sym[b, j >> 6] |= jbit
    cut, work = truss(sym, p, pw, _truss_need(target), _truss_clique(target), dirty, nxt)
    left = 0
    for j in range(p):
        edge = np.uint64(0)
        for v in range(pw):
            edge |= sym[j, v]
            tri0[j, v] = _from(sym[j, v], v, j + 1)
        if edge:
            left += 1
    return tests, cut, work0 + work + 2 * p * pw, left, pair_rows
