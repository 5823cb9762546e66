"""The compiled clique search of :mod:`dimcalc.vc.sparse` (fact 4): shattered ``k``-sets as ``k``-cliques of the pair graph.

Resumable as the anchor search of :mod:`dimcalc.vc.sparse_kernel` (state in
caller-owned arrays, ``budget`` nodes a call), with the same trace counting
(``sparse_kernel._apply``, ``_undo``, ``_ok``) and, from ``k = 4``, a lazy
triple filter (:func:`_tri`).  Compiled by :mod:`dimcalc.vc.sparse_jit`.
"""

from __future__ import annotations

from typing import Any

from . import sparse_kernel as sk
from .sparse_kernel import DONE, FOUND, PAUSED

__all__: list[str] = []


def _clique(
    k: int,
    roots: Any,
    p_indptr: Any,
    p_indices: Any,
    elem: Any,
    t_indptr: Any,
    t_indices: Any,
    code: Any,
    cnt: Any,
    state: Any,
    pos: Any,
    lists: Any,
    lens: Any,
    chosen: Any,
    out: Any,
    tri_ptr: Any,
    tri_len: Any,
    pool: Any,
    pool_used: Any,
    code2: Any,
    cnt2: Any,
    hist: Any,
    p_shared: Any,
    bits: Any,
    ab: Any,
    budget: int,
) -> int:
    """Search the ``k``-cliques of the pair graph (upper neighbours ``p_*``) for a shattered set, roots first.

    The pair graph is given on *ranks* (``elem[rank]`` is the element):
    ``p_indices[p_indptr[r]:p_indptr[r + 1]]`` are the higher ranks joined
    to rank ``r``, ascending, so each clique is enumerated once, from its
    lowest rank.  State ``[root, depth, nodes]``; ``lists[d, :lens[d]]`` are the common
    upper neighbours of the elements chosen below level ``d``.  FOUND (in
    ``out``), DONE or PAUSED, as :func:`_search`.

    A child is tested (:func:`dimcalc.vc.sparse_kernel._test`) only where
    the test is not implied: at level 1 every child is a pair-graph neighbour
    of the root, so its four traces hold ``>= 2^(k-2)`` sets, which is the
    test; at level 2, when the triple filter of the first two elements cut
    the list (``state[3] = 1``), every child passed the level-2 test already
    (the same eight counts, :func:`_tri`).  A skipped test still counts as a
    node.

    From ``k = 4`` a *triple filter* cuts the lists: a candidate ``z`` after
    ``a < b`` must make a triple ``{a, b, z}`` whose eight traces each hold
    ``>= 2^(k-3)`` sets (fact 3 for three elements); the passing ``z`` of a
    pair are computed once, on first use, in scratch arrays ``code2, cnt2``,
    and kept in ``pool`` (``tri_ptr[e], tri_len[e]`` for pair-graph edge
    ``e``; ``tri_ptr[e] = -2``: not kept, the pool being full).  ``pool_used``
    is ``[pool entries used, triples tested by the last _tri call]``; the
    triples tested count as nodes, so a step's work stays within its budget.
    """
    r_i = state[0]
    d = state[1]
    nodes = state[2]
    tri2 = state[3]  # 1: lists[2] was cut by the triple filter of chosen[0], chosen[1]
    stop_at = nodes + budget
    while True:
        if nodes >= stop_at:
            state[0] = r_i
            state[1] = d
            state[2] = nodes
            state[3] = tri2
            return PAUSED
        if d < 0:
            if r_i >= len(roots):
                state[0] = r_i
                state[1] = d
                state[2] = nodes
                return DONE
            x = roots[r_i]
            r_i += 1
            nodes += 1
            if not sk._test(elem[x], 0, k, t_indptr, t_indices, code, cnt, hist):
                continue
            sk._apply(elem[x], 1, t_indptr, t_indices, code, cnt)
            chosen[0] = x
            if k == 1:
                out[0] = elem[x]
                sk._undo(elem[x], 1, t_indptr, t_indices, code, cnt)
                state[0] = r_i
                state[1] = -1
                state[2] = nodes
                return FOUND
            m = 0
            for q in range(p_indptr[x], p_indptr[x + 1]):
                lists[1, m] = p_indices[q]
                m += 1
            lens[1] = m
            pos[1] = -1
            d = 1
            continue
        p = pos[d] + 1
        if lens[d] - p < k - d:
            d -= 1
            sk._undo(elem[chosen[d]], 1 << d, t_indptr, t_indices, code, cnt)
            if d == 0:
                d = -1
            continue
        pos[d] = p
        y = lists[d, p]
        nodes += 1
        implied = d == 1 or (d == 2 and tri2 == 1)  # by the pair graph, by the triple filter
        if not implied and not sk._test(elem[y], d, k, t_indptr, t_indices, code, cnt, hist):
            continue
        sk._apply(elem[y], 1 << d, t_indptr, t_indices, code, cnt)
        chosen[d] = y
        if d + 1 == k:
            for e in range(k):
                out[e] = elem[chosen[e]]
            for e in range(d, -1, -1):
                sk._undo(elem[chosen[e]], 1 << e, t_indptr, t_indices, code, cnt)
            state[0] = r_i
            state[1] = -1
            state[2] = nodes
            return FOUND
        # Common upper neighbours: lists[d] after p, intersected with y's (both ascending).
        m = 0
        a = p + 1
        b = p_indptr[y]
        end_b = p_indptr[y + 1]
        while a < lens[d] and b < end_b:
            u = lists[d, a]
            v = p_indices[b]
            if u == v:
                lists[d + 1, m] = u
                m += 1
                a += 1
                b += 1
            elif u < v:
                a += 1
            else:
                b += 1
        if k >= 4:
            for i in range(d):
                e = _tri(chosen[i], y, k, p_indptr, p_indices, elem, t_indptr, t_indices, tri_ptr, tri_len, pool,
                         pool_used, code2, cnt2, p_shared, bits, ab)  # fmt: skip
                nodes += pool_used[1]  # the triples _tri tested count as nodes: the step stays bounded
                pool_used[1] = 0
                if d == 1:
                    tri2 = 1 if e >= 0 else 0
                if e < 0 or m < k - d - 1:
                    continue
                start = tri_ptr[e]
                end = start + tri_len[e]
                w = 0
                a = 0
                while a < m and start < end:
                    u = lists[d + 1, a]
                    v = pool[start]
                    if u == v:
                        lists[d + 1, w] = u
                        w += 1
                        a += 1
                        start += 1
                    elif u < v:
                        a += 1
                    else:
                        start += 1
                m = w
        if m < k - d - 1:
            sk._undo(elem[y], 1 << d, t_indptr, t_indices, code, cnt)
            continue
        lens[d + 1] = m
        pos[d + 1] = -1
        d += 1


def _tri(
    a: int,
    b: int,
    k: int,
    p_indptr: Any,
    p_indices: Any,
    elem: Any,
    t_indptr: Any,
    t_indices: Any,
    tri_ptr: Any,
    tri_len: Any,
    pool: Any,
    pool_used: Any,
    code2: Any,
    cnt2: Any,
    p_shared: Any,
    bits: Any,
    ab: Any,
) -> int:
    """The pair-graph edge ``e`` of ranks ``a < b`` with its passing third elements in ``pool`` (see
    :func:`_clique`), computed on first use; ``-1`` when not kept (pool full).

    With element bitsets (``bits[rank]``: the sets holding ``elem[rank]``, one
    bit per set; ``bits`` of width 0: none) a triple's eight trace counts are
    read off one number, ``t = |A ∩ B ∩ U|`` (a popcount of ``ab & bits[u]``,
    ``ab = A ∩ B``), and the pairs' shared counts ``p_shared`` (inclusion and
    exclusion, :func:`_triple_ok`); without, by trace counting in ``code2``
    (:func:`dimcalc.vc.sparse_kernel._test`).  Both count the same sets.
    """
    lo = p_indptr[a]
    hi = p_indptr[a + 1]
    while lo < hi:
        mid = (lo + hi) >> 1
        if p_indices[mid] < b:
            lo = mid + 1
        else:
            hi = mid
    e = lo
    if tri_ptr[e] >= 0:
        return e
    if tri_ptr[e] == -2:
        return -1
    n_words = bits.shape[1]
    n = len(code2)
    need = 1 << (k - 3)
    xa = elem[a]
    xb = elem[b]
    size_a = t_indptr[xa + 1] - t_indptr[xa]
    size_b = t_indptr[xb + 1] - t_indptr[xb]
    s_ab = p_shared[e]
    if n_words > 0:
        for w in range(n_words):
            ab[w] = bits[a, w] & bits[b, w]
    else:
        sk._apply(xa, 1, t_indptr, t_indices, code2, cnt2)
        sk._apply(xb, 2, t_indptr, t_indices, code2, cnt2)
    start = pool_used[0]
    m = start
    full = False
    i = e + 1  # a's higher neighbours after b
    j = p_indptr[b]
    while i < p_indptr[a + 1] and j < p_indptr[b + 1]:
        u = p_indices[i]
        v = p_indices[j]
        if u < v:
            i += 1
        elif v < u:
            j += 1
        else:
            pool_used[1] += 1
            if n_words > 0:
                t = 0
                for w in range(n_words):
                    t += sk._popcount(ab[w] & bits[u, w])
                xu = elem[u]
                size_u = t_indptr[xu + 1] - t_indptr[xu]
                ok = _triple_ok(t, size_a, size_b, size_u, s_ab, p_shared[i], p_shared[j], n, need)
            else:  # cnt2[4:]: scratch (only traces 0-3 on the pair are held)
                ok = sk._test(elem[u], 2, k, t_indptr, t_indices, code2, cnt2, cnt2[4:])
            i += 1
            j += 1
            if ok:
                if m >= len(pool):
                    full = True
                    break
                pool[m] = u
                m += 1
    if n_words == 0:
        sk._undo(xb, 2, t_indptr, t_indices, code2, cnt2)
        sk._undo(xa, 1, t_indptr, t_indices, code2, cnt2)
    if full:
        tri_ptr[e] = -2
        return -1
    tri_ptr[e] = start
    tri_len[e] = m - start
    pool_used[0] = m
    return e


def _triple_ok(t: int, a: int, b: int, u: int, ab: int, au: int, bu: int, n: int, need: int) -> bool:
    """Whether the eight traces on three elements each hold ``>= need`` of the ``n`` sets, from the sets holding
    each (``a, b, u``), each pair (``ab, au, bu``) and all three (``t``), by inclusion and exclusion.

    >>> _triple_ok(1, 4, 4, 4, 2, 2, 2, 8, 1)  # the 8 subsets of {0, 1, 2}
    True
    >>> _triple_ok(2, 4, 4, 4, 2, 2, 2, 8, 1)  # then {0, 1} alone is missing
    False
    """
    if t < need or ab - t < need or au - t < need or bu - t < need:
        return False
    if a - ab - au + t < need or b - ab - bu + t < need or u - au - bu + t < need:
        return False
    return n - a - b - u + ab + au + bu - t >= need
