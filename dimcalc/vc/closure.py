"""Refutation by closures: the independence number of a binary class, over its meet-irreducible members.

For a binary class ``C`` (its members are sets of points) the *closure* of a
set ``A`` of points is the intersection of the members containing ``A``.  A
set ``S`` is *independent* when it lies in a member and no ``z`` in ``S``
lies in the closure of ``S - {z}``.  For an *intersection-closed* class
these are exactly its shattered sets: ``S`` is then a minimal spanning set
of its closure, and every ``T`` in ``S`` is cut out by the closure of ``T``
-- the characterisation of the VC dimension of such a class by its largest
minimal spanning set (Helmbold, Sloan and Warmuth 1990, "Learning nested
differences of intersection-closed concept classes", Machine Learning 5).
The proof is two lines: the closure of ``T`` is a member containing ``T``,
inside the closure of ``S - {z}`` for every ``z`` of ``S`` not in ``T``,
which misses ``z``.  Two facts used here hold for **every** class, closed or
not:

* a shattered set is independent (the pattern ``S - {z}`` is realised by a
  member containing ``S - {z}`` and missing ``z``), so the largest
  independent set bounds the VC dimension from above; and independence is
  closed under subsets (the closure is monotone);
* the closure is computed by the *meet-irreducible* members alone: a member
  that is the intersection of the members strictly containing it is not
  needed, and every member is an intersection of irreducible ones
  (:func:`irreducible_rows`, by induction from the largest member down).

So ``S`` is independent iff some irreducible ``g_0`` contains ``S`` and for
each ``z_i`` in ``S`` some irreducible ``g_i`` contains ``S - {z_i}`` and
misses ``z_i``.  Read the other way (:func:`independent_set`): ``T``
irreducibles ``g_1 .. g_T`` carry an independent ``T``-set iff each
``Z_i = (g_1 & .. & g_T without g_i) - g_i`` is non-empty and one
irreducible meets every ``Z_i`` (then ``z_i`` is taken in ``Z_i & g_0``).
Any two ``g_i, g_j`` are incomparable (``z_i`` is in ``g_j - g_i``), so the
``g_i`` are a clique of the incomparability graph of the irreducibles, and
a greedy colouring of that graph bounds the clique (Tomita and Seki 2003,
the colouring bound of a maximum-clique search).  Boxes over a grid have
``4 (side - 1) + 1`` irreducibles (the half-planes bounded on one side, and
the grid): four chains, so four colours, and no 5-set is independent -- the
VC dimension 4 is proved without enumerating a single 4-set.  Intervals: two
chains (prefixes, suffixes).  A class whose irreducibles are most of its
members (random classes, halfspaces) is declined by a measured cap
(:func:`try_closure`).

A set found independent is checked for shattering on the class (2^T patterns)
before it is used as a witness: on a class that is not intersection-closed an
independent set need not be shattered, and then the target goes to the
compiled search with the bound proved here.  ``docs/vc.md`` ("Refutation by
closures") has the figures.

Examples
--------
>>> from dimcalc import generators as g
>>> independence_number(g.boxes(2, 2).distinct_rows)[0], independence_number(g.intervals(9).distinct_rows)[0]
(4, 2)
"""

from __future__ import annotations

import numpy as np

from ..classes.bitsets import transpose_bits, words_to_ints
from ..search.budget import Deadline
from .columns import pack_rows

__all__ = [
    "CAP_FRACTION",
    "GaveUp",
    "MAX_TRIED",
    "MAX_WORDS",
    "warm",
    "MAX_IRREDUCIBLE",
    "MIN_HYPOTHESES",
    "independence_number",
    "independent_set",
    "irreducible_rows",
    "point_rows",
    "shattered",
]

#: The closure refutation is tried on classes with at least this many distinct hypotheses ...
MIN_HYPOTHESES = 1024
#: ... and given up once the irreducible members exceed this many ...
MAX_IRREDUCIBLE = 4096
#: ... or this fraction of the members (boxes over 32 x 32: 125 of 278 785; a random class: most of them).
CAP_FRACTION = 1 / 16
#: The irreducible pass is given up when it may compare more words than this (boxes over 32 x 32: at most 5.6e8) ...
MAX_WORDS = 4e9
#: ... and the clique search after this many candidates (boxes and intervals: one node).
MAX_TRIED = 1 << 16
#: Words compared per call of the irreducible kernel (rows x irreducibles so far x words; the deadline read between).
CHUNK_WORDS = 1 << 24
#: Candidates tried by the clique search between two reads of the deadline (each up to ``k`` irreducibles read).
CHECK_NODES = 1 << 6


def point_rows(ones: np.ndarray, m: int, deadline: Deadline | None = None) -> np.ndarray:
    """The rows, as bitsets over the points, of the class whose columns are ``ones``.

    ``ones`` is ``(n, W)`` words: bit ``h`` of column ``p`` says that
    hypothesis ``h`` (of ``m``) contains point ``p``.  Returns ``(m, w)``
    words (``w = ceil(n / 64)``), the traces of the hypotheses on the ``n``
    points (repeated when two hypotheses differ only off these points:
    :func:`irreducible_rows` keeps one of equal rows).

    >>> point_rows(np.array([[0b011], [0b110]], dtype=np.uint64), 3).tolist()
    [[1], [3], [2]]
    """
    n = ones.shape[0]
    x = max(1, (n + 63) // 64)
    padded = np.zeros((64 * x, ones.shape[1]), dtype=np.uint64)
    padded[:n] = ones
    if deadline is not None:
        deadline.check()
    return transpose_bits(padded)[:m]


def _irreducible(
    rows: np.ndarray, order: np.ndarray, full: np.ndarray, out: np.ndarray, k: int, start: int, stop: int
) -> int:
    """Append the irreducible rows among ``order[start:stop]`` to ``out[:k]``; the new count, or ``-1`` once full.

    ``order`` lists the rows by decreasing size, so the rows already in
    ``out`` are all that may strictly contain the next (rows of equal size
    contain each other only when equal, and then the later one is reducible:
    its copy in ``out`` is the intersection).  A row is reducible when the
    intersection of the irreducibles containing it is the row itself (the
    intersection of every member strictly containing it is the same set:
    each of those is an intersection of irreducibles containing it).  Plain
    Python over numpy arrays, compiled by numba when available.
    """
    w = rows.shape[1]
    acc = np.empty(w, dtype=np.uint64)
    for t in range(start, stop):
        c = order[t]
        for i in range(w):
            acc[i] = full[i]
        reducible = False
        for j in range(k):
            g = out[j]
            inside = True
            for i in range(w):
                if rows[c, i] & ~rows[g, i]:
                    inside = False
                    break
            if inside:
                same = True
                for i in range(w):
                    acc[i] &= rows[g, i]
                    if acc[i] != rows[c, i]:
                        same = False
                if same:
                    reducible = True
                    break
        if not reducible:  # no irreducible above it (a maximal member), or their intersection is larger
            if k == out.shape[0]:
                return -1
            out[k] = c
            k += 1
    return k


_compiled: list = []


def _kernel(jit: bool):  # noqa: ANN202 - a numba dispatcher or the plain function
    """:func:`_irreducible`, compiled by numba (disk cache) when ``jit`` and numba may be used."""
    from . import kernel

    if not (jit and kernel.available()):
        return _irreducible
    if not _compiled:
        from ._kernel_numba import import_numba

        import_numba()
        import numba

        _compiled.append(numba.njit(cache=True, nogil=True)(_irreducible))
    return _compiled[0]


def irreducible_rows(
    rows: np.ndarray,
    n: int,
    deadline: Deadline | None = None,
    cap: int | None = None,
    jit: bool = True,
    max_words: float | None = None,
) -> np.ndarray | None:
    """The meet-irreducible rows of ``rows`` (point bitsets over ``n`` points), largest first.

    Of equal rows one is kept (a copy lies in the kept one).  A member is irreducible when it is not the intersection of the members
    strictly containing it (a maximal member always is).  Every member is
    the intersection of the irreducibles containing it, so the closure of
    any set of points is the intersection of the irreducibles containing
    it.  ``None`` when more than ``cap`` are found, or when the words
    compared may exceed ``max_words`` (counted as rows x irreducibles so
    far x words per row, an upper bound): the search declines.

    >>> from dimcalc import generators as g
    >>> H = g.intervals(4)
    >>> G = irreducible_rows(np.unique(pack_rows(H.distinct_rows), axis=0), 4)
    >>> sorted(bin(int(r[0]))[2:].zfill(4) for r in G)  # prefixes, suffixes and the whole line
    ['0001', '0011', '0111', '1000', '1100', '1110', '1111']
    """
    sizes = np.bitwise_count(rows).sum(axis=1, dtype=np.int64)
    order = np.argsort(-sizes, kind="stable").astype(np.int64)
    full = _full(rows.shape[1], n)
    out = np.empty(len(rows) if cap is None else min(cap, len(rows)), dtype=np.int64)
    run = _kernel(jit)
    step_words = CHUNK_WORDS if run is not _irreducible else CHUNK_WORDS >> 8  # plain Python: ~10^7 words a second
    k = start = 0
    while start < len(order):
        if deadline is not None:
            deadline.check()
        stop = min(len(order), start + max(16, step_words // max(1, k * rows.shape[1])))
        if max_words is not None:
            max_words -= (stop - start) * max(k, 1) * rows.shape[1]
            if max_words < 0:
                return None
        k = run(rows, order, full, out, k, start, stop)
        if k < 0:
            return None
        start = stop
    return rows[out[:k]]


def _full(w: int, n: int) -> np.ndarray:
    """The set of all ``n`` points as ``w`` words."""
    bits = np.zeros(64 * w, dtype=bool)
    bits[:n] = True
    return np.packbits(bits, bitorder="little").view("<u8").astype(np.uint64)


def _incomparable(G: np.ndarray, deadline: Deadline | None) -> list[int]:
    """For each irreducible, the irreducibles incomparable with it (neither contains the other), as int bitsets."""
    k = len(G)
    outside = np.zeros((k, k), dtype=bool)  # outside[i, j]: row i has a point outside row j
    step = max(1, (1 << 22) // max(k * G.shape[1], 1))
    for s in range(0, k, step):
        if deadline is not None:
            deadline.check()
        outside[s : s + step] = ((G[s : s + step, None, :] & ~G[None, :, :]) != 0).any(axis=2)
    both = outside & outside.T
    return words_to_ints(pack_rows(both))


def _colour(cand: int, adj: list[int]) -> list[tuple[int, int]]:
    """A greedy colouring of ``cand`` in the graph ``adj``: ``(vertex, colour)``, colours ascending (from 1)."""
    out = []
    colour = 0
    left = cand
    while left:
        colour += 1
        q = left
        while q:
            low = q & -q
            v = low.bit_length() - 1
            q &= ~adj[v] & ~low
            left &= ~low
            out.append((v, colour))
    return out


class GaveUp(Exception):
    """The clique search tried its budget of candidates (:func:`independent_set` with ``max_tried``)."""


def independent_set(
    G: np.ndarray,
    target: int,
    deadline: Deadline | None = None,
    stats: dict | None = None,
    max_tried: int | None = None,
) -> list[int] | None:
    """An independent ``target``-set of the class whose irreducible members are ``G``, or ``None`` (none exists).

    ``G`` is ``(k, w)`` point bitsets (:func:`irreducible_rows`).  A search
    for ``target`` irreducibles whose sets ``Z_i`` are non-empty and met by
    one irreducible (module docstring), over the cliques of their
    incomparability graph, pruned by a greedy colouring of the candidates
    (fewer colours than members still needed: no clique).  ``None`` is a
    proof: no independent -- hence no shattered -- ``target``-set.  Returns
    the points (sorted) otherwise; raises :class:`GaveUp` after
    ``max_tried`` candidates (proves nothing).

    >>> from dimcalc import generators as g
    >>> G = irreducible_rows(np.unique(pack_rows(g.boxes(2, 2).distinct_rows), axis=0), 16)
    >>> len(G), independent_set(G, 5), len(independent_set(G, 4))
    (13, None, 4)
    """
    pts = words_to_ints(G)
    if target <= 0:
        return []
    if not pts:
        return None
    adj = _incomparable(G, deadline)
    k = len(pts)
    nodes, tried = [0], [0]  # clique nodes; candidates tried (the deadline read every CHECK_NODES of them)

    def meets_all(zs: list[int]) -> int | None:
        for g0 in pts:  # largest first: the whole domain, when it is a member, at once
            if all(g0 & z for z in zs):
                return g0
        return None

    def grow(chosen: int, cand: int, zs: list[int], inter: int) -> list[int] | None:
        nodes[0] += 1
        for v, colour in reversed(_colour(cand, adj)):
            tried[0] += 1
            if tried[0] % CHECK_NODES == 0:
                if deadline is not None:
                    deadline.check()
                if max_tried is not None and tried[0] > max_tried:
                    raise GaveUp
            if chosen + colour < target:
                return None  # colouring bound: no clique of the size still needed among the rest
            cand &= ~(1 << v)
            new = [z & pts[v] for z in zs]
            new.append(inter & ~pts[v])
            if not all(new):
                continue
            g0 = meets_all(new)
            if g0 is None:
                continue
            if chosen + 1 == target:
                return sorted((z & g0 & -(z & g0)).bit_length() - 1 for z in new)
            found = grow(chosen + 1, cand & adj[v], new, inter & pts[v])
            if found is not None:
                return found
        return None

    everything = 0
    for g0 in pts:
        everything |= g0
    try:
        return grow(0, (1 << k) - 1, [], everything)
    finally:
        if stats is not None:
            stats["closure_nodes"] = stats.get("closure_nodes", 0) + nodes[0]


def shattered(table: np.ndarray, points: list[int]) -> bool:
    """Whether the rows of the 0/1 matrix ``table`` realise all ``2^|points|`` patterns on ``points``.

    >>> shattered(np.array([[0, 0], [0, 1], [1, 0], [1, 1]]), [0, 1]), shattered(np.eye(3), [0, 1])
    (True, False)
    """
    if not points:
        return len(table) > 0
    codes = np.zeros(len(table), dtype=np.int64)
    for bit, p in enumerate(points):
        codes |= (np.asarray(table[:, p]) != 0).astype(np.int64) << bit
    return len(np.unique(codes)) == 1 << len(points)


def independence_number(table: np.ndarray) -> tuple[int, list[int]]:
    """The largest independent set of the binary class whose rows are ``table`` (``(m, n)``, 0/1), and one.

    An upper bound on the VC dimension of every class, equal to it on an
    intersection-closed class (Helmbold, Sloan, Warmuth 1990).  No limit;
    for small classes and tests.

    >>> import numpy as np
    >>> independence_number(np.array([[1, 1, 0], [0, 1, 1], [0, 1, 0]]))  # {0, 1}, {1, 2}, {1}: no member has 0 and 2
    (1, [0])
    """
    table = np.asarray(table)
    n = table.shape[1]
    rows = np.unique(pack_rows(table), axis=0)
    G = irreducible_rows(rows, n)
    assert G is not None
    best: list[int] = []
    target = 1
    while target <= n:
        found = independent_set(G, target)
        if found is None:
            break
        best, target = found, target + 1
    return len(best), best


#: ``None``: tried by measure (:func:`try_closure`); ``True``: forced on every target of every binary class (tests,
#: no size gate or cap); ``False``: off.
FORCE: bool | None = None


class Attempt:
    """The closure refutation of one search (:func:`dimcalc.vc.search.largest_shattered_set`): the irreducible
    members of the class restricted to the root of the first target tried, kept for the later targets (their
    roots are subsets: the closure restricted to a subset of the points is the closure intersected with it)."""

    def __init__(self) -> None:
        self.G: np.ndarray | None = None
        self.ranks: np.ndarray | None = None  # the point (reduced column) of each bit of G's rows
        self.declined = False

    def decide(
        self,
        ones: np.ndarray,
        ranks: np.ndarray,
        keep: np.ndarray,
        m: int,
        target: int,
        deadline: Deadline,
        stats: dict,
    ) -> str | list[int] | None:
        """``"refuted"`` (no ``target``-set is shattered: proved), a shattered ``target``-set (indices into
        ``ones``), or ``None`` (declined, or the independent set found is not shattered: the compiled search
        decides).  ``ones`` are the side-1 words of the search's columns over ``m`` hypotheses, one column per
        point (``ranks``), ``keep`` the columns of the root (both sides large enough for ``target``)."""
        if self.declined or FORCE is False:
            return None
        if self.G is None:
            if FORCE is None and (m < MIN_HYPOTHESES or not _compiled_usable(deadline)):
                self.declined = True
                return None
            if not deadline.fits(3 * 8 * 64 * ((len(keep) + 63) // 64) * ones.shape[1]):
                stats["closure"] = "declined: the rows over the points exceed the memory budget"
                self.declined = True
                return None
            rows = point_rows(ones[keep], m, deadline)
            cap = None if FORCE else min(MAX_IRREDUCIBLE, max(64, int(len(rows) * CAP_FRACTION)))
            work = None if FORCE else MAX_WORDS
            self.G = irreducible_rows(rows, len(keep), deadline, cap, max_words=work)
            if self.G is None or FORCE:
                # The complements: shattering is the same, and a union-closed class has intersection-closed
                # complements (forced, both are built and the one with fewer irreducibles kept: tests see both).
                fewer = cap if self.G is None else len(self.G) - 1
                flipped = rows ^ _full(rows.shape[1], len(keep))
                other = irreducible_rows(flipped, len(keep), deadline, fewer, max_words=work)
                if other is not None:
                    self.G = other
                    stats["closure_complement"] = True
            if self.G is None:
                stats["closure"] = (
                    f"declined: more than {cap} irreducible members or {MAX_WORDS:.0e} words (and complements)"
                )
                self.declined = True
                return None
            self.ranks = ranks[keep]
            stats["closure_irreducible"] = len(self.G)
        assert self.ranks is not None
        try:
            found = independent_set(self.G, target, deadline, stats, None if FORCE else MAX_TRIED)
        except GaveUp:
            stats["closure"] = f"gave up: {MAX_TRIED} candidates of the clique search tried at target {target}"
            self.declined = True
            return None
        if found is None:
            stats["closure_refuted"] = target
            return "refuted"
        where = {int(r): i for i, r in enumerate(ranks.tolist())}
        chosen = [where.get(int(self.ranks[p]), -1) for p in found]
        if min(chosen) < 0 or not shattered_words(ones[chosen], m):
            stats["closure_not_shattered"] = target  # the class (or its complements) not intersection-closed
            return None
        return chosen


#: Seconds that must be left to compile the irreducible kernel when numba's disk cache has none (1.6 CPU s idle).
COMPILE_SECONDS = 10.0


def warm() -> None:
    """Compile (or load from numba's disk cache) the irreducible kernel on a tiny class (``make install``)."""
    from . import kernel

    if kernel.available():
        irreducible_rows(np.array([[1], [2], [3]], dtype=np.uint64), 2)


def _compiled_usable(deadline: Deadline) -> bool:
    """Whether the irreducible kernel may be compiled or loaded now: numba available and, under a time limit,
    :data:`dimcalc.vc.kernel.MIN_SECONDS` left when numba's disk cache holds it (loading numba and the kernel:
    0.8 CPU s), :data:`COMPILE_SECONDS` when not.  The plain kernel reads ~10^7 words a second, too slow for
    the classes this pays on."""
    import glob
    import os

    from . import kernel

    if _compiled:
        return True
    left = deadline.remaining()
    if not kernel.available():
        return False
    here = os.path.join(os.path.dirname(__file__), "__pycache__", "closure._irreducible-*.nbi")
    return left is None or left >= (kernel.MIN_SECONDS if glob.glob(here) else COMPILE_SECONDS)


def shattered_words(sides: np.ndarray, m: int) -> bool:
    """Whether columns whose side-1 words over ``m`` hypotheses are ``sides`` (``(T, W)``) are shattered.

    >>> shattered_words(np.array([[0b0101], [0b0011]], dtype=np.uint64), 4), shattered_words(np.eye(2, dtype=np.uint64), 2)
    (True, False)
    """
    bits = np.unpackbits(np.ascontiguousarray(sides, dtype="<u8").view(np.uint8), axis=1, count=m, bitorder="little")
    return shattered(bits.T, list(range(len(sides))))
