"""The compiled step of :mod:`dimcalc.vc.sparse`: a resumable search for a shattered ``k``-set inside anchor sets.

The search state lives in arrays the caller owns, so one call does a bounded
amount of work (``budget`` nodes) and the next call resumes exactly where it
stopped; the caller reads its clock between calls.  The function is plain
Python over numpy arrays, compiled with numba when it is installed
(:mod:`dimcalc.vc.sparse_jit` loads them; ``DIMCALC_JIT=0`` keeps the Python
version, for tests).  The clique search of the pair graph is in
:mod:`dimcalc.vc.sparse_clique`.

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

from typing import Any

__all__ = ["FOUND", "DONE", "PAUSED"]

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


def _test(x: int, d: int, k: int, t_indptr: Any, t_indices: Any, code: Any, cnt: Any, hist: Any) -> bool:
    """Whether adding ``x`` at level ``d`` leaves each trace held by ``>= 2^(k-d-1)`` sets (as :func:`_apply` then
    :func:`_ok`), read without writing: ``hist[c]`` counts the sets of ``x`` with trace ``c`` on the ``d`` chosen
    elements; they hold trace ``c | 1 << d`` after adding ``x``, the other ``cnt[c] - hist[c]`` keep ``c``."""
    top = 1 << d
    for c in range(top):
        hist[c] = 0
    for q in range(t_indptr[x], t_indptr[x + 1]):
        hist[code[t_indices[q]]] += 1
    need = 1 << (k - d - 1)
    for c in range(top):
        if hist[c] < need or cnt[c] - hist[c] < need:
            return False
    return True


def _popcount(word: Any) -> int:
    """The number of 1 bits of a word (compiled: one ``ctpop`` instruction, :mod:`dimcalc.vc.sparse_jit`).

    >>> _popcount(0b1011)
    3
    """
    return int(word).bit_count()


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
