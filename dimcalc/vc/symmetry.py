"""Symmetry between points: a shattered-set search that visits one orbit representative as the set's first column.

An *automorphism* of a binary class (here: of the columns a search runs on,
the distinct hypotheses as bit positions) is a permutation ``g`` of the
columns that maps the multiset of rows onto itself: ``{h o g} = {h}``.  It
maps shattered sets to shattered sets of the same size, and the orbits of a
group ``G`` of automorphisms partition the columns.  Order the root so that
each orbit's columns are consecutive, and start the set only at each orbit's
first column ``x_i`` (its *representative*): the compiled search
(:mod:`dimcalc.vc.kernel`) draws a set's other columns from positions after
its first, i.e. from ``x_i``'s orbit and the later orbits.

Soundness (the orbit-removal rule).  Let ``S`` be a shattered ``T``-set and
``O_i`` the first orbit (in root order) that meets it, ``y`` in both.  Some
``g`` in ``G`` maps ``y`` to ``x_i``; ``g(S)`` is shattered, contains
``x_i``, and avoids the orbits before ``O_i`` (orbits are ``G``-invariant),
so the search headed by ``x_i`` meets it (or another set).  Hence "no set
headed by a representative" proves "no shattered ``T``-set".  This is the
orbit form of symmetry breaking by lexicographic leaders (Crawford, Ginsberg,
Luks, Roy, *Symmetry-breaking predicates for search problems*, KR 1996): the
search keeps, of each orbit of sets, one whose first orbit is entered at its
representative.  With orbits of size ``k`` the root has about ``1/k`` of its
heads, and the first levels' work drops by about ``k``.

Finding the group.  nauty on the table itself (a bipartite graph of rows and
points) is too slow on classes with tens of thousands of rows (halfspaces
over 16 x 16: not done in 10 minutes).  Candidates are taken instead from
nauty (:mod:`pynauty`; McKay and Piperno 2014) on the *co-occurrence graph*
of the columns: ``C[x, y]`` = hypotheses with ``1`` on both, vertices
coloured by ``C[x, x]`` and the edge colours written in binary on layers of
copies of the vertices (the usual encoding of edge colours, nauty's
User's Guide §14).  Every automorphism of the class preserves ``C``, so its
group is a subgroup of the graph's; each generator nauty returns is then
*checked* on the table (rows permuted, sorted, compared) and only the checked
ones are kept.  The orbits are those of the group they generate (a subgroup
of the class's: sound, if perhaps finer).  Everything is bounded: gated by
the number of columns and words (:data:`MAX_COLUMNS`, :data:`MAX_WORDS`),
with the deadline read between steps, and skipped (the plain search) when no
generator survives.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..search.budget import Deadline
from .columns import STEP_WORDS

__all__ = [
    "MAX_COLUMNS",
    "MAX_EDGES",
    "MAX_WORDS",
    "MIN_WORDS",
    "ENABLED",
    "Orbits",
    "automorphisms",
    "orbits_of",
    "find_orbits",
    "looked_for",
]

#: ``False`` turns the symmetry off (tests, A/B runs); ``True`` lets :func:`find_orbits` run where gated.
ENABLED = True
#: The group is looked for only when the search's first level is at least this many words (``V^2 * W``;
#: a smaller search costs less than looking; tests set 0; the complement split uses the same gate) --
#: halfspaces over 8 x 8 (64 points, 2 566 hypotheses, 1.7e5 words): 0.47 s with the split and the
#: orbits (the kernel loaded included), 2.0 s by the numpy trial below 2^20 ...
MIN_WORDS = 1 << 17
#: ... on at most this many columns (random 16 000 x 512: no symmetry, found in 0.6 s; 4 000 x 1 024: 1.1 s) ...
MAX_COLUMNS = 512
#: ... when the co-occurrence counts (``V^2 * W`` words) and the check of a generator cost at most this ...
MAX_WORDS = 1 << 26
#: ... and when nauty's graph has at most about this many edges (``layers * V^2 / 4``; halfspaces over 16 x 16:
#: 256 columns, 3 629 distinct counts, 12 layers, 0.2 s).
MAX_EDGES = 1 << 21


@dataclass
class Orbits:
    """The orbits of a group of automorphisms of a search's columns, and how they order a root.

    ``label[v]``: the orbit of column ``v`` (indices into the search's
    :class:`~dimcalc.vc.columns.Columns`).  Calling it on a root (column
    indices in exploration order) returns the root with each orbit's columns
    made consecutive (orbits in the order of their first column in the root,
    larger orbits first) and the positions of the orbits' first columns, the
    only columns a set may start with (see the module docstring).

    Examples
    --------
    >>> o = Orbits(np.array([0, 1, 0, 1, 2]))
    >>> root, heads = o(np.array([4, 3, 2, 1, 0]))
    >>> root.tolist(), heads.tolist()
    ([3, 1, 2, 0, 4], [0, 2, 4])
    """

    label: np.ndarray
    stats: dict = field(default_factory=dict)

    def __call__(self, root: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        lab = self.label[root]
        first: dict[int, int] = {}
        for i, o in enumerate(lab.tolist()):
            first.setdefault(o, i)
        size = np.bincount(lab, minlength=int(self.label.max()) + 1)
        # larger orbits first (they leave the later pools soonest), then the order of their first column
        order = sorted(first, key=lambda o: (-int(size[o]), first[o]))
        rank = np.empty(int(self.label.max()) + 1, dtype=np.int64)
        rank[order] = np.arange(len(order))
        perm = np.argsort(rank[lab], kind="stable")
        new = root[perm]
        nl = lab[perm]
        heads = np.flatnonzero(np.concatenate([[True], nl[1:] != nl[:-1]])) if len(new) else np.zeros(0, np.int64)
        return new, heads.astype(np.int64)


def _cooccurrence(ones: np.ndarray, deadline: Deadline) -> np.ndarray:
    """``C[x, y]``: popcount of ``ones[x] & ones[y]`` (a bounded step of rows at a time)."""
    v, w = ones.shape
    c = np.empty((v, v), dtype=np.int64)
    step = max(1, STEP_WORDS // max(v * w, 1))
    for s in range(0, v, step):
        deadline.check()
        c[s : s + step] = np.bitwise_count(ones[s : s + step, None, :] & ones[None, :, :]).sum(axis=2, dtype=np.int64)
    return c


def _candidates(c: np.ndarray) -> tuple[list[np.ndarray], float] | None:
    """Generators of the automorphism group of the edge- and vertex-coloured graph ``c`` and its order (nauty);
    ``None`` when its layered graph would exceed :data:`MAX_EDGES`."""
    import pynauty

    v = c.shape[0]
    off = c.copy()
    np.fill_diagonal(off, -1)
    # An automorphism keeps a vertex's colour and the multiset of its edge colours: when these tell every vertex
    # apart, the group is trivial, and nauty is not called (a random class: 0.3 s of graph and nauty saved).
    key = np.concatenate([np.diag(c)[:, None], np.sort(off, axis=1)], axis=1)
    if len(np.unique(key, axis=0)) == v:
        return [], 1.0
    values, code = np.unique(off, return_inverse=True)
    code = code.reshape(v, v)
    layers = max(1, int(len(values) - 1).bit_length())
    if layers * v * v // 4 > MAX_EDGES:
        return None
    adjacency: dict[int, list[int]] = {}
    iu, ju = np.triu_indices(v, 1)
    cu = code[iu, ju]
    for b in range(layers):
        on = ((cu >> b) & 1).astype(bool)
        base = b * v
        for a, z in zip((iu[on] + base).tolist(), (ju[on] + base).tolist(), strict=True):
            adjacency.setdefault(a, []).append(z)
        if b + 1 < layers:  # the copies of one vertex on consecutive layers
            for x in range(v):
                adjacency.setdefault(base + x, []).append(base + v + x)
    diag = np.diag(c)
    colouring = []
    for b in range(layers):
        for d in np.unique(diag).tolist():
            colouring.append(set((np.flatnonzero(diag == d) + b * v).tolist()))
    graph = pynauty.Graph(layers * v, directed=False, adjacency_dict=adjacency, vertex_coloring=colouring)
    gens, mantissa, exponent, _, _ = pynauty.autgrp(graph)
    return [np.asarray(g[:v], dtype=np.int64) for g in gens], float(mantissa) * 10.0 ** int(exponent)


def _sorted_rows(ones: np.ndarray, m: int) -> np.ndarray:
    """The rows (hypotheses) of the columns ``ones`` as packed bytes, sorted (a multiset)."""
    table = np.unpackbits(ones.view(np.uint8), axis=1, count=m, bitorder="little")  # (V, m)
    packed = np.packbits(table.T, axis=1)  # (m, ceil(V / 8))
    view = np.ascontiguousarray(packed).view(np.dtype((np.void, packed.shape[1])))[:, 0]
    return np.sort(view)


def automorphisms(ones: np.ndarray, m: int, deadline: Deadline, stats: dict | None = None) -> list[np.ndarray]:
    """Checked automorphisms of the columns ``ones`` (``V x W`` words over ``m`` hypotheses), as images.

    Each returned ``g`` (``g[x]`` the image of column ``x``) maps the multiset
    of rows onto itself; together they generate a subgroup of the
    automorphism group (see the module docstring).  When every generator
    nauty gave is checked, that subgroup is the class's whole group and its
    order goes to ``stats["symmetry_group_order"]``.

    Examples
    --------
    >>> from dimcalc.search.budget import Deadline
    >>> # the four rows 00, 01, 10, 11 over two columns: swapping them is an automorphism
    >>> ones = np.array([[0b1100], [0b1010]], dtype=np.uint64)
    >>> [g.tolist() for g in automorphisms(ones, 4, Deadline(None))]
    [[1, 0]]
    """
    v = ones.shape[0]
    c = _cooccurrence(ones, deadline)
    deadline.check()
    found = _candidates(c)
    deadline.check()
    if found is None or not found[0]:  # the graph too large (gated), or no symmetry
        return []
    gens, order = found
    base = _sorted_rows(ones, m)
    kept = []
    for g in gens:
        deadline.check()
        if np.array_equal(g, np.arange(v)):
            continue
        # column g[x] of the image is column x: the rows of the image are the rows with columns permuted
        image = np.empty_like(ones)
        image[g] = ones
        if np.array_equal(_sorted_rows(image, m), base):
            kept.append(g)
    if stats is not None and len(kept) == sum(not np.array_equal(g, np.arange(v)) for g in gens):
        # every automorphism of the class preserves the co-occurrences: all of nauty's group checked is all of it
        stats["symmetry_group_order"] = round(order)
    return kept


def orbits_of(n: int, gens: list[np.ndarray]) -> np.ndarray:
    """Orbit label of each of ``n`` columns under the group generated by ``gens`` (union-find).

    Examples
    --------
    >>> orbits_of(5, [np.array([1, 0, 2, 3, 4]), np.array([0, 1, 3, 2, 4])]).tolist()
    [0, 0, 1, 1, 2]
    """
    parent = np.arange(n)

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = int(parent[x])
        return x

    for g in gens:
        for x, y in enumerate(g.tolist()):
            a, b = root(x), root(y)
            if a != b:
                parent[max(a, b)] = min(a, b)
    roots = np.array([root(x) for x in range(n)])
    return np.unique(roots, return_inverse=True)[1].astype(np.int64)


def looked_for(ones: np.ndarray, m: int) -> bool:
    """Whether :func:`find_orbits` looks for the group of the columns ``ones`` over ``m`` hypotheses (its gates).

    >>> looked_for(np.zeros((3, 1), dtype=np.uint64), 64)
    False
    """
    v, w = ones.shape
    return ENABLED and 2 <= v <= MAX_COLUMNS and MIN_WORDS <= v * v * w <= MAX_WORDS and m * v <= 8 * MAX_WORDS


def find_orbits(ones: np.ndarray, m: int, deadline: Deadline, stats: dict) -> Orbits | None:
    """The :class:`Orbits` of the checked automorphisms of ``ones``, or ``None`` (gated, or no symmetry).

    Records ``symmetry_seconds``, ``symmetry_generators`` (checked),
    ``symmetry_orbits`` and, when known, ``symmetry_group_order`` in ``stats``.
    """
    import time

    if not looked_for(ones, m):
        return None
    v = ones.shape[0]
    t0 = time.perf_counter()
    gens = automorphisms(ones, m, deadline, stats)
    stats["symmetry_seconds"] = round(stats.get("symmetry_seconds", 0.0) + time.perf_counter() - t0, 3)
    stats["symmetry_generators"] = len(gens)
    if not gens:
        return None
    label = orbits_of(v, gens)
    stats["symmetry_orbits"] = int(label.max()) + 1
    return Orbits(label)
