"""The compiled step of :mod:`dimcalc.vc.sparse`: a resumable search for a shattered ``k``-set inside anchor sets.

The search state lives in arrays the caller owns, so one call does a bounded
amount of work (``budget`` nodes) and the next call resumes exactly where it
stopped; the caller reads its clock between calls.  The function is plain
Python over numpy arrays, compiled with numba when it is installed
(``DIMCALC_JIT=0`` keeps the Python version, for tests).

State (``state``, int64): ``[anchor, depth, m, nodes]`` -- the index of the
anchor set being searched in ``anchors``, the level being chosen (-1: take
the next anchor), the number of candidates in that anchor and the nodes
visited so far.  ``pos[d]`` is the candidate position chosen at level ``d``;
``local[:m]`` the anchor's candidate elements.  ``code[s]`` is the trace of
set ``s`` on the chosen elements (bit ``d`` for level ``d``) and ``cnt[c]``
the number of sets with trace ``c``: applying and undoing an element touches
only the sets containing it (the transpose).
"""

from __future__ import annotations

import os
from typing import Any

__all__ = ["kernels", "available", "warm", "warm_up", "cached", "mark_warm", "compiled"]

FOUND, DONE, PAUSED = 1, 0, 2


def _apply(x: int, bit: int, t_indptr: Any, t_indices: Any, code: Any, cnt: Any) -> None:
    for q in range(t_indptr[x], t_indptr[x + 1]):
        s = t_indices[q]
        c = code[s]
        cnt[c] -= 1
        c |= bit
        cnt[c] += 1
        code[s] = c


def _undo(x: int, bit: int, t_indptr: Any, t_indices: Any, code: Any, cnt: Any) -> None:
    for q in range(t_indptr[x], t_indptr[x + 1]):
        s = t_indices[q]
        c = code[s]
        cnt[c] -= 1
        c ^= bit
        cnt[c] += 1
        code[s] = c


def _search(
    k: int,
    anchors: Any,
    indptr: Any,
    indices: Any,
    t_indptr: Any,
    t_indices: Any,
    cand: Any,
    code: Any,
    cnt: Any,
    state: Any,
    pos: Any,
    local: Any,
    out: Any,
    budget: int,
) -> int:
    """Search anchors ``anchors[state[0]:]`` for a shattered ``k``-set; FOUND (in ``out``), DONE or PAUSED."""
    a_i = state[0]
    d = state[1]
    m = state[2]
    nodes = state[3]
    stop_at = nodes + budget
    n_anchors = len(anchors)
    while True:
        if d < 0:
            if a_i >= n_anchors:
                state[0] = a_i
                state[1] = d
                state[3] = nodes
                return DONE
            r = anchors[a_i]
            m = 0
            for q in range(indptr[r], indptr[r + 1]):
                x = indices[q]
                if cand[x]:
                    local[m] = x
                    m += 1
            d = 0
            pos[0] = -1
            if m < k:
                a_i += 1
                d = -1
                continue
        p = pos[d] + 1
        if p > m - (k - d):  # too few candidates left for the levels still to fill
            if d == 0:
                a_i += 1
                d = -1
                continue
            d -= 1
            _undo(local[pos[d]], 1 << d, t_indptr, t_indices, code, cnt)
            continue
        pos[d] = p
        x = local[p]
        bit = 1 << d
        _apply(x, bit, t_indptr, t_indices, code, cnt)
        nodes += 1
        # Every trace on the d+1 chosen elements must be held by >= 2^(k-d-1) sets (each splits into
        # the 2^(k-d-1) traces on the elements still to choose).
        ok = _ok(d, k, cnt)
        if ok and d + 1 == k:
            for e in range(k):
                out[e] = local[pos[e]]
            for e in range(d, -1, -1):
                _undo(local[pos[e]], 1 << e, t_indptr, t_indices, code, cnt)
            state[0] = a_i + 1
            state[1] = -1
            state[2] = 0
            state[3] = nodes
            return FOUND
        if ok:
            d += 1
            pos[d] = p
        else:
            _undo(x, bit, t_indptr, t_indices, code, cnt)
        if nodes >= stop_at:
            state[0] = a_i
            state[1] = d
            state[2] = m
            state[3] = nodes
            return PAUSED


def _ok(d: int, k: int, cnt: Any) -> bool:
    """Whether each trace on the ``d + 1`` chosen elements is held by ``>= 2^(k-d-1)`` sets."""
    need = 1 << (k - d - 1)
    for c in range(2 << d):
        if cnt[c] < need:
            return False
    return True


def _pairs(
    xs: Any,
    indptr: Any,
    indices: Any,
    t_indptr: Any,
    t_indices: Any,
    degrees: Any,
    n: int,
    need: int,
    counter: Any,
    touched: Any,
    out_x: Any,
    out_y: Any,
) -> int:
    """The candidate pairs ``x < y`` (``x`` in ``xs``) whose four traces each hold ``>= need`` sets.

    ``indptr, indices``: each set's candidate elements (ascending); ``t_*``:
    the sets holding each element.
    Writes them to ``out_x, out_y`` (``y | shared << 32``: the number of sets holding both) and returns how many; ``-1`` when they do
    not fit (the caller grows the arrays and calls again).  ``counter`` (one
    slot per element, all 0) counts the sets holding both ``x`` and ``y``.
    """
    total = 0
    cap = len(out_x)
    for i in range(len(xs)):
        x = xs[i]
        nt = 0
        for q in range(t_indptr[x], t_indptr[x + 1]):
            s = t_indices[q]
            # indices: the candidates of each set, ascending; start after x (binary search)
            lo = indptr[s]
            hi = indptr[s + 1]
            while lo < hi:
                mid = (lo + hi) >> 1
                if indices[mid] <= x:
                    lo = mid + 1
                else:
                    hi = mid
            for e in range(lo, indptr[s + 1]):
                y = indices[e]
                if True:
                    if counter[y] == 0:
                        touched[nt] = y
                        nt += 1
                    counter[y] += 1
        dx = degrees[x]
        for t in range(nt):
            y = touched[t]
            both = counter[y]
            counter[y] = 0
            dy = degrees[y]
            if both >= need and dx - both >= need and dy - both >= need and n - dx - dy + both >= need:
                if total < cap:
                    out_x[total] = x
                    out_y[total] = y | (both << 32)  # the shared sets ride in the high half
                total += 1
    return total if total <= cap else -1


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
    budget: int,
) -> int:
    """Search the ``k``-cliques of the pair graph (upper neighbours ``p_*``) for a shattered set, roots first.

    The pair graph is given on *ranks* (``elem[rank]`` is the element):
    ``p_indices[p_indptr[r]:p_indptr[r + 1]]`` are the higher ranks joined
    to rank ``r``, ascending, so each clique is enumerated once, from its
    lowest rank.  State ``[root, depth, nodes]``; ``lists[d, :lens[d]]`` are the common
    upper neighbours of the elements chosen below level ``d``.  FOUND (in
    ``out``), DONE or PAUSED, as :func:`_search`.

    From ``k = 4`` a *triple filter* cuts the lists: a candidate ``z`` after
    ``a < b`` must make a triple ``{a, b, z}`` whose eight traces each hold
    ``>= 2^(k-3)`` sets (fact 3 for three elements); the passing ``z`` of a
    pair are computed once, on first use, in scratch arrays ``code2, cnt2``,
    and kept in ``pool`` (``tri_ptr[e], tri_len[e]`` for pair-graph edge
    ``e``; ``tri_ptr[e] = -2``: not kept, the pool being full).
    """
    r_i = state[0]
    d = state[1]
    nodes = state[2]
    stop_at = nodes + budget
    while True:
        if nodes >= stop_at:
            state[0] = r_i
            state[1] = d
            state[2] = nodes
            return PAUSED
        if d < 0:
            if r_i >= len(roots):
                state[0] = r_i
                state[1] = d
                state[2] = nodes
                return DONE
            x = roots[r_i]
            r_i += 1
            _apply(elem[x], 1, t_indptr, t_indices, code, cnt)
            nodes += 1
            if not _ok(0, k, cnt):
                _undo(elem[x], 1, t_indptr, t_indices, code, cnt)
                continue
            chosen[0] = x
            if k == 1:
                out[0] = elem[x]
                _undo(elem[x], 1, t_indptr, t_indices, code, cnt)
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
            _undo(elem[chosen[d]], 1 << d, t_indptr, t_indices, code, cnt)
            if d == 0:
                d = -1
            continue
        pos[d] = p
        y = lists[d, p]
        _apply(elem[y], 1 << d, t_indptr, t_indices, code, cnt)
        nodes += 1
        if not _ok(d, k, cnt):
            _undo(elem[y], 1 << d, t_indptr, t_indices, code, cnt)
            continue
        chosen[d] = y
        if d + 1 == k:
            for e in range(k):
                out[e] = elem[chosen[e]]
            for e in range(d, -1, -1):
                _undo(elem[chosen[e]], 1 << e, t_indptr, t_indices, code, cnt)
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
                         pool_used, code2, cnt2)  # fmt: skip
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
            _undo(elem[y], 1 << d, t_indptr, t_indices, code, cnt)
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
) -> int:
    """The pair-graph edge ``e`` of ranks ``a < b`` with its passing third elements in ``pool`` (see
    :func:`_clique`), computed on first use; ``-1`` when not kept (pool full)."""
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
    need = 1 << (k - 3)
    _apply(elem[a], 1, t_indptr, t_indices, code2, cnt2)
    _apply(elem[b], 2, t_indptr, t_indices, code2, cnt2)
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
            i += 1
            j += 1
            _apply(elem[u], 4, t_indptr, t_indices, code2, cnt2)
            ok = True
            for c in range(8):
                if cnt2[c] < need:
                    ok = False
                    break
            _undo(elem[u], 4, t_indptr, t_indices, code2, cnt2)
            if ok:
                if m >= len(pool):
                    full = True
                    break
                pool[m] = u
                m += 1
    _undo(elem[b], 2, t_indptr, t_indices, code2, cnt2)
    _undo(elem[a], 1, t_indptr, t_indices, code2, cnt2)
    if full:
        tri_ptr[e] = -2
        return -1
    tri_ptr[e] = start
    tri_len[e] = m - start
    pool_used[0] = m
    return e


def _row_levels(indptr: Any, indices: Any, level: Any, hist: Any, out: Any) -> None:
    """``out[r]``: the largest ``d`` such that set ``r`` holds ``d`` elements of level ``>= d`` (0 if none)."""
    top = len(hist)
    for r in range(len(indptr) - 1):
        for c in range(top):
            hist[c] = 0
        for q in range(indptr[r], indptr[r + 1]):
            hist[level[indices[q]]] += 1
        above = 0
        best = 0
        for d in range(top - 1, 0, -1):
            above += hist[d]
            if above >= d:
                best = d
                break
        out[r] = best


_compiled: Any = None
_compiled_levels: Any = None
_compiled_pairs: Any = None
_compiled_clique: Any = None


def compiled() -> Any:
    """The search, compiled with numba (cached on disk) when available and ``DIMCALC_JIT`` is not ``0``."""
    global _compiled, _compiled_pairs, _compiled_clique, _compiled_levels, _apply, _undo, _ok
    if _compiled is not None:
        return _compiled
    if os.environ.get("DIMCALC_JIT", "1") == "0":
        return _search
    try:
        import numba
    except ImportError:  # pragma: no cover - numba is a dependency
        return _search
    _apply = numba.njit(cache=True, nogil=True)(_apply)
    _undo = numba.njit(cache=True, nogil=True)(_undo)
    _ok = numba.njit(cache=True, nogil=True)(_ok)
    global _tri
    _tri = numba.njit(cache=True, nogil=True)(_tri)
    _compiled_pairs = numba.njit(cache=True, nogil=True)(_pairs)
    _compiled_levels = numba.njit(cache=True, nogil=True)(_row_levels)
    _compiled_clique = numba.njit(cache=True, nogil=True)(_clique)
    _compiled = numba.njit(cache=True, nogil=True)(_search)
    return _compiled


def available() -> bool:
    """Whether the compiled kernels may be used (numba installed, ``DIMCALC_JIT`` not ``0``)."""
    if os.environ.get("DIMCALC_JIT", "1") == "0":
        return False
    import importlib.util

    return importlib.util.find_spec("numba") is not None


_warm = False


def warm() -> bool:
    """Whether the compiled kernels have run in this process (loading them again costs nothing)."""
    return _warm


def mark_warm() -> None:
    global _warm
    _warm = True


def _marker() -> str:
    """The file saying that the kernels of this source and numba version are in numba's disk cache."""
    import importlib.metadata

    st = os.stat(__file__)
    stamp = f"{int(st.st_mtime_ns)}-{st.st_size}-{importlib.metadata.version('numba')}"
    return os.path.join(os.path.dirname(__file__), "__pycache__", f"dimcalc-sparse-kernel-{stamp}.ok")


def cached() -> bool:
    """Whether the compiled kernels of this source are in the disk cache (loading them takes about a second)."""
    try:
        return os.path.exists(_marker())
    except Exception:  # noqa: BLE001 - a missing numba or odd install: not cached
        return False


def warm_up() -> None:
    """Compile (or load from the disk cache) every kernel by running it once on a tiny set system."""
    import numpy as np

    K = kernels(True)
    if K["search"] is _search:
        return
    i64 = np.int64
    indptr = np.array([0, 1, 2], dtype=i64)
    indices = np.array([0, 0], dtype=np.int32)
    t_indptr = np.array([0, 2], dtype=i64)
    t_indices = np.array([0, 1], dtype=np.int32)
    for arr in (indptr, indices, t_indptr, t_indices):  # read-only, as the class's arrays: the same signatures
        arr.setflags(write=False)
    code = np.zeros(2, dtype=np.int32)
    cnt = np.array([2, 0], dtype=i64)
    z = np.zeros(4, dtype=i64)
    K["levels"](indptr, indices, np.ones(1, dtype=i64), np.zeros(3, dtype=i64), np.zeros(2, dtype=i64))
    state = np.array([0, -1, 0, 0], dtype=i64)
    K["search"](1, np.zeros(1, dtype=i64), indptr, indices, t_indptr, t_indices, np.ones(1, dtype=np.bool_), code, cnt,
                state, z, z.copy(), z.copy(), 8)  # fmt: skip
    K["pairs"](np.zeros(1, dtype=i64), indptr.copy(), indices.copy(), t_indptr, t_indices, np.ones(1, dtype=i64), 2, 1,
               np.zeros(1, dtype=i64), np.zeros(1, dtype=i64), np.zeros(4, dtype=i64), np.zeros(4, dtype=i64))  # fmt: skip
    lists = np.zeros((2, 2), dtype=i64)
    K["clique"](1, np.zeros(1, dtype=i64), np.array([0, 0], dtype=i64), np.zeros(0, dtype=i64), np.zeros(1, dtype=i64),
                t_indptr, t_indices, code, cnt, np.array([0, -1, 0], dtype=i64), z, lists, z.copy(), z.copy(),
                z.copy(), np.zeros(0, dtype=i64), np.zeros(0, dtype=i64), np.zeros(0, dtype=np.int32),
                np.zeros(1, dtype=i64), code.copy(), np.zeros(8, dtype=i64), 8)  # fmt: skip
    mark_warm()
    try:
        path = _marker()
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w"):
            pass
    except OSError:
        pass


def kernels(jit: bool) -> dict[str, Any]:
    """The four kernels, compiled (``jit``; loaded from numba's disk cache on first call) or plain Python."""
    if jit and compiled() is not _search:
        return {"search": _compiled, "pairs": _compiled_pairs, "clique": _compiled_clique, "levels": _compiled_levels}
    return {"search": _search, "pairs": _pairs, "clique": _clique, "levels": _row_levels}
