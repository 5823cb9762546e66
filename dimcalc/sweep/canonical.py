"""Classes up to isomorphism: a canonical form from nauty, and every class of a small size.

Two classes are *isomorphic* when one becomes the other by renaming its
hypotheses and its points — a permutation of the rows and one of the columns
of the table.  Labels keep their names: Ψ^bin (BGS §4.2) reads the bits of a
label, so relabelling can change it.  Every dimension dimcalc computes is
invariant under these renamings (and under duplicating rows), so a sweep
computes each isomorphism class once.

The canonical form comes from nauty (McKay and Piperno, *Practical graph
isomorphism II*, J. Symbolic Comput. 60, 2014) through :mod:`pynauty`, on a
vertex-coloured graph that encodes the table: one vertex per hypothesis
(colour "row"), one per point (colour "column") and one per pair (point c,
label l used at c) (colour l), joined to c; hypothesis r is joined to the pair
(c, r(c)) of every point c.  A colour-preserving automorphism maps a pair
(c, l) to (c', l) where c' is the image of c (the pair's only neighbour among
the points), so it maps r to a row r' with r'(c') = r(c) for every c: the
colour-preserving automorphisms are exactly the pairs (row permutation, column
permutation) that fix the table, and nauty's canonical labelling orders the
rows and columns the same way for every table of one isomorphism class.
"""

from __future__ import annotations

import hashlib
import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from ..classes.hypothesis_class import HypothesisClass
from ..errors import InvalidParameterError, parameter_error
from ..validation import check_int

__all__ = [
    "CanonicalClass",
    "canonical_form",
    "canonical_table",
    "is_isomorphic",
    "all_classes",
    "parse_size",
    "CANONICAL_MAX_CELLS",
    "MAX_ENUMERATED",
]

#: Tables with more distinct cells than this are not canonicalised by nauty:
#: their key only forgets the order of the rows (``"rows:"`` hashes).
CANONICAL_MAX_CELLS = 100_000

#: :func:`all_classes` refuses sizes whose number of subsets of rows exceeds this.
MAX_ENUMERATED = 50_000_000


@dataclass(frozen=True)
class CanonicalClass:
    """A class in canonical form.

    Attributes
    ----------
    table : numpy.ndarray
        The distinct rows, rows and columns in canonical order (read-only).
    num_labels : int
        Number of labels ``k + 1`` (part of the key: a class over ``{0, 1}``
        declared with 3 labels is a different class).
    canonical_hash : str
        ``"iso:<sha256>"`` when the table is nauty's canonical form (equal
        exactly for isomorphic classes), ``"rows:<sha256>"`` for a table too
        large for it (see :data:`CANONICAL_MAX_CELLS`): equal exactly for the
        same set of rows, in any order.
    """

    table: np.ndarray
    num_labels: int
    canonical_hash: str

    @property
    def up_to_isomorphism(self) -> bool:
        return self.canonical_hash.startswith("iso:")

    def to_class(self, *, name: str | None = None, metadata: dict | None = None) -> HypothesisClass:
        """The canonical table as a :class:`~dimcalc.HypothesisClass`."""
        return HypothesisClass(self.table, num_labels=self.num_labels, name=name, metadata=metadata)


def _digest(prefix: str, table: np.ndarray, num_labels: int) -> str:
    h = hashlib.sha256()
    h.update(f"{table.shape[0]}x{table.shape[1]}x{num_labels}:".encode())
    h.update(np.ascontiguousarray(table, dtype=np.uint16).tobytes())
    return f"{prefix}:{h.hexdigest()}"


def canonical_table(table: np.ndarray, num_labels: int) -> np.ndarray:
    """nauty's canonical ordering of the rows and columns of a table of *distinct* rows.

    Parameters
    ----------
    table : numpy.ndarray, shape (rows, points)
        Distinct rows of labels ``0..num_labels-1``.
    num_labels : int

    Returns
    -------
    numpy.ndarray
        The same table with rows and columns permuted; equal for two tables
        exactly when one is a row-and-column permutation of the other.

    Examples
    --------
    >>> t = np.array([[0, 1, 2], [1, 1, 0]])
    >>> u = t[::-1][:, [2, 0, 1]]                      # rows swapped, columns rotated
    >>> np.array_equal(canonical_table(t, 3), canonical_table(u, 3))
    True
    """
    import pynauty

    rows, cols = table.shape
    if cols == 0:
        return np.ascontiguousarray(table)
    # one vertex per (point, label used at that point), joined to its point; row r joined to (c, T[r, c]).
    # Plain Python: the tables are small and numpy's per-call overhead would dominate.
    rows_list = table.tolist()
    pair_vertex: dict[tuple[int, int], int] = {}
    adjacency: dict[int, list[int]] = {}
    next_vertex = rows + cols
    for r, row in enumerate(rows_list):
        neighbours = []
        for c, label in enumerate(row):
            v = pair_vertex.get((c, label))
            if v is None:
                v = pair_vertex[(c, label)] = next_vertex
                next_vertex += 1
            neighbours.append(v)
        adjacency[r] = neighbours
    by_label: dict[int, set[int]] = {}
    for (c, label), v in pair_vertex.items():
        adjacency[v] = [rows + c]
        by_label.setdefault(label, set()).add(v)
    # an absent label has no vertex; isomorphic tables use the same labels, so their partitions match
    colouring = [set(range(rows)), set(range(rows, rows + cols))] + [by_label[k] for k in sorted(by_label)]
    graph = pynauty.Graph(next_vertex, adjacency_dict=adjacency, vertex_coloring=colouring)
    lab = pynauty.canon_label(graph)  # lab[position] = original vertex at that canonical position
    position = [0] * next_vertex
    for i, v in enumerate(lab):
        position[v] = i
    row_order = sorted(range(rows), key=position.__getitem__)
    col_order = sorted(range(cols), key=lambda c: position[rows + c])
    return np.ascontiguousarray(table[row_order][:, col_order])


def canonical_form(H: HypothesisClass | np.ndarray, num_labels: int | None = None) -> CanonicalClass:
    """The canonical form of a class: its distinct rows, canonically ordered, and its key.

    Parameters
    ----------
    H : HypothesisClass or numpy.ndarray
        A class, or a table (then ``num_labels`` is required).  Duplicate rows
        are dropped first.

    Returns
    -------
    CanonicalClass

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> A = HypothesisClass.from_table([[0, 0, 1], [0, 1, 1], [1, 1, 1]])
    >>> B = HypothesisClass.from_table([[1, 1, 1], [1, 0, 0], [1, 1, 0], [1, 1, 0]])  # columns reversed, a duplicate
    >>> canonical_form(A).canonical_hash == canonical_form(B).canonical_hash
    True
    >>> canonical_form(A).table.tolist() == canonical_form(B).table.tolist()
    True
    >>> C = HypothesisClass.from_table([[0, 0, 1], [0, 1, 1], [1, 1, 1]], num_labels=3)
    >>> canonical_form(A).canonical_hash == canonical_form(C).canonical_hash   # another label set
    False
    """
    if isinstance(H, HypothesisClass):
        distinct = np.asarray(H.distinct_rows)
        num_labels = H.num_labels
    else:
        if num_labels is None:
            raise parameter_error("num_labels", "canonical_form", "given with a table", None)
        distinct = np.unique(np.asarray(H), axis=0) if np.asarray(H).shape[1] else np.asarray(H)[:1]
    return _canonical_distinct(distinct, int(num_labels))


def _canonical_distinct(distinct: np.ndarray, num_labels: int) -> CanonicalClass:
    """:func:`canonical_form` of a table whose rows are known to be distinct."""
    if distinct.shape[0] * distinct.shape[1] > CANONICAL_MAX_CELLS:
        rows = distinct[np.lexsort(distinct.T[::-1])] if distinct.shape[1] else distinct
        rows = np.ascontiguousarray(rows)
        rows.setflags(write=False)
        return CanonicalClass(rows, int(num_labels), _digest("rows", rows, int(num_labels)))
    table = canonical_table(distinct, int(num_labels))
    table.setflags(write=False)
    return CanonicalClass(table, int(num_labels), _digest("iso", table, int(num_labels)))


def is_isomorphic(A: HypothesisClass, B: HypothesisClass) -> bool:
    """Whether two classes have the same distinct rows up to renaming hypotheses and points.

    >>> from dimcalc import HypothesisClass
    >>> is_isomorphic(HypothesisClass.from_table([[0, 1], [1, 1]]), HypothesisClass.from_table([[1, 0], [1, 1]]))
    True
    """
    a, b = canonical_form(A), canonical_form(B)
    return a.up_to_isomorphism and a.canonical_hash == b.canonical_hash


def parse_size(text: str, option: str = "--all") -> tuple[int, int, int]:
    """Parse ``ROWSxCOLSxLABELS`` (e.g. ``"4x3x2"``) into three positive integers.

    >>> parse_size("4x3x2")
    (4, 3, 2)
    """
    parts = str(text).lower().split("x")
    try:
        values = tuple(int(p) for p in parts)
    except ValueError:
        values = ()
    if len(values) != 3 or min(values) < 1:
        raise InvalidParameterError(
            f"{option} must be ROWSxCOLSxLABELS with three positive integers, e.g. 4x3x2; got {text!r}"
        )
    return values  # type: ignore[return-value]


def _count_subsets(rows: int, cols: int, labels: int) -> float:
    """C(labels^cols, rows), exactly when small; from ``lgamma`` (never slow) when it is surely huge."""
    universe = labels**cols
    small = min(rows, universe - rows)
    if small > 64:  # C(U, k) >= 2^k: far over any enumeration limit, and math.comb would be slow
        return math.inf
    return math.comb(universe, rows)


def all_classes(rows: int, cols: int, labels: int) -> Iterator[CanonicalClass]:
    """Every class of exactly ``rows`` distinct hypotheses over ``cols`` points with labels ``0..labels-1``,
    one representative per isomorphism class (rows and columns permuted; labels kept).

    Built level by level: the classes with ``r + 1`` rows are the classes with
    ``r`` rows plus one new row, reduced to canonical form and deduplicated.
    Every ``(r + 1)``-class is reached this way (drop any row, move the rest to
    its canonical representative, carry the dropped row along), so nothing is
    missed, and the canonical key removes the repeats.

    Parameters
    ----------
    rows, cols, labels : int
        ``rows <= labels ** cols``.

    Yields
    ------
    CanonicalClass
        In lexicographic order of the canonical tables (deterministic).

    Raises
    ------
    InvalidParameterError
        If there is no such class, or more than :data:`MAX_ENUMERATED` subsets of rows to consider.

    Examples
    --------
    >>> sum(1 for _ in all_classes(4, 3, 2))
    20
    >>> [c.table.tolist() for c in all_classes(1, 2, 2)]
    [[[0, 0]], [[0, 1]], [[1, 1]]]
    """
    rows, cols, labels = (
        check_int(v, name, "all_classes", 1) for name, v in (("rows", rows), ("cols", cols), ("labels", labels))
    )
    log_universe = cols * math.log2(labels)
    if log_universe > 64 and math.log2(rows) < log_universe - 1:
        # checked from logarithms, before labels ** cols or a binomial of it is computed (a size like
        # 1000000x1000000x2 would take hours): C(U, R) >= U > 2^64 sets of rows
        raise InvalidParameterError(
            f"size {rows}x{cols}x{labels} is too large to enumerate (about 2^{log_universe:.0f} hypotheses on "
            f"{cols} points, over {MAX_ENUMERATED} sets of rows); use --random or the extremal search instead"
        )
    universe = labels**cols
    if rows > universe:
        raise InvalidParameterError(
            f"no class of size {rows}x{cols}x{labels}: only {universe} distinct hypotheses exist on {cols} points "
            f"with {labels} labels"
        )
    if _count_subsets(rows, cols, labels) > MAX_ENUMERATED:
        raise InvalidParameterError(
            f"size {rows}x{cols}x{labels} is too large to enumerate (C({universe}, {rows}) sets of rows, "
            f"over {MAX_ENUMERATED}); use --random or the extremal search instead"
        )
    all_rows = np.array(list(itertools.product(range(labels), repeat=cols)), dtype=np.int64).reshape(universe, cols)
    if rows > universe - rows:
        # complements: a point permutation maps a set of rows onto another exactly when it maps their
        # complements onto each other, so the classes of R rows are the complements of those of U - R
        if rows == universe:
            c = _canonical_distinct(all_rows, labels)
            yield CanonicalClass(c.table, labels, c.canonical_hash)
            return
        out = []
        for small in all_classes(universe - rows, cols, labels):
            taken = {t.tobytes() for t in small.table.astype(np.int64)}
            rest = np.array([v for v in all_rows if v.tobytes() not in taken])
            out.append(_canonical_distinct(rest, labels))
        yield from sorted(out, key=lambda c: c.table.tolist())
        return
    level: dict[str, np.ndarray] = {}
    for v in all_rows:
        c = canonical_form(v[None, :], labels)
        level.setdefault(c.canonical_hash, c.table)
    for _ in range(rows - 1):
        nxt: dict[str, np.ndarray] = {}
        for key in sorted(level):
            table = level[key]
            present = {t.tobytes() for t in table.astype(np.int64)}
            for v in all_rows:
                if v.tobytes() in present:
                    continue
                c = _canonical_distinct(np.vstack([table.astype(np.int64), v[None, :]]), labels)
                nxt.setdefault(c.canonical_hash, c.table)
        level = nxt
    ordered = sorted(level.items(), key=lambda kv: kv[1].tolist())
    for key, table in ordered:
        yield CanonicalClass(table, labels, key)
