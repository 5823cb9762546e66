"""Set systems and graph neighbourhoods as the cells of a binary table (index arrays, never Python rows).

A set system ``(X, R)`` is the binary class with one hypothesis per set and
one point per element of ``X``: hypothesis ``j`` labels point ``i`` with 1
exactly when the ``i``-th element lies in the ``j``-th set, so the VC
dimension of the class is the VC dimension of the set system.  The functions
here validate the sets (one-line :class:`~dimcalc.errors.InvalidClassError`)
and return the positions of the 1 cells as numpy index arrays, from which
:meth:`dimcalc.HypothesisClass.from_sets` and
:meth:`~dimcalc.HypothesisClass.from_networkx` build a bit-packed table
(:class:`~dimcalc.classes.bit_table.BitTable`) without a dense intermediate.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from ..errors import InvalidClassError
from .sparse_table import SparseTable
from .table_input import describe as _describe

#: The class a constructor builds (``HypothesisClass``, bound as its classmethod; not imported here).
C = TypeVar("C")

__all__ = [
    "Incidence",
    "set_system_incidence",
    "neighbourhood_incidence",
    "from_sets",
    "from_networkx",
    "from_scipy_sparse",
]


@dataclass(frozen=True)
class Incidence:
    """The 1 cells ``(rows[t], cols[t])`` of an ``n_sets x len(point_names)`` binary table, with its names."""

    n_sets: int
    rows: np.ndarray
    cols: np.ndarray
    point_names: list[str]
    hypothesis_names: list[str] | None


def _element_names(elements: Sequence[Any]) -> list[str]:
    """Point names for set-system elements: ``str(e)``, else ``repr(e)`` when ``str`` collides (``1`` and ``'1'``)."""
    for show in (str, repr):
        names = [show(e) for e in elements]
        if len(set(names)) == len(names):
            return names
    seen: dict[str, Any] = {}
    for e, n in zip(elements, names):
        if n in seen:
            raise InvalidClassError(
                f"domain elements {seen[n]!r} and {e!r} have the same name {n!r}; give elements with distinct reprs"
            )
        seen[n] = e
    raise AssertionError("unreachable")  # pragma: no cover


def _is_hashable(item: Any) -> bool:
    try:
        hash(item)
    except TypeError:
        return False
    return True


def _key_array(items: list[Any]) -> np.ndarray | None:
    """``items`` as an int64 or str numpy array when they are all ``int`` or all ``str`` (exactly), else None.

    Only then do numpy's order and equality agree with Python's, so set-system
    columns can be found with ``np.unique`` / ``np.searchsorted`` instead of a dict.
    """
    types = set(map(type, items))
    if types == {int}:
        try:
            return np.array(items, dtype=np.int64)
        except OverflowError:
            return None
    if types == {str}:
        keys = np.array(items, dtype=str)
        # numpy drops trailing NULs from strings: keep such elements on the dict path
        if int(np.char.str_len(keys).sum()) == sum(map(len, items)):
            return keys
    return None


def set_system_incidence(sets: Any, domain: Any = None) -> Incidence:
    """Validate a set system (see :meth:`dimcalc.HypothesisClass.from_sets`) and return its 1 cells.

    >>> inc = set_system_incidence([{1, 2}, {2, 3}, set()])
    >>> inc.n_sets, inc.rows.tolist(), inc.cols.tolist(), inc.point_names
    (3, [0, 0, 1, 1], [0, 1, 1, 2], ['1', '2', '3'])
    """
    if isinstance(sets, (str, bytes)) or not isinstance(sets, Iterable):
        raise InvalidClassError(f"sets must be an iterable of sets of hashable elements; got {_describe(sets)}")
    hypothesis_names = None
    if isinstance(sets, Mapping):
        hypothesis_names = [str(key) for key in sets]
        sets = list(sets.values())
    # All elements in one flat list, set after set; a repeated element sets the same cell twice.
    flat: list[Any] = []
    sizes: list[int] = []
    for r, s in enumerate(sets):
        if isinstance(s, (str, bytes)) or not isinstance(s, Iterable):
            raise InvalidClassError(
                f"set {r}: {_describe(s)} is not a set of elements; give an iterable such as a set or a list"
            )
        before = len(flat)
        flat.extend(s)
        sizes.append(len(flat) - before)
    ends = np.cumsum(np.array(sizes, dtype=np.int64))

    def set_of(t: int) -> int:
        return int(np.searchsorted(ends, t, side="right"))

    keys = _key_array(flat)
    names: list[str] | None = None
    if domain is None:
        if keys is not None:  # all ints or all strings: sorted union and column indices from np.unique
            unique, col_index = np.unique(keys, return_inverse=True)
            elements = unique.tolist()
            names = unique.astype(str).tolist()  # distinct ints / strings have distinct str
        else:
            index: dict[Any, int] = {}
            try:
                cols = [index.setdefault(e, len(index)) for e in flat]
            except TypeError:
                t = next(t for t, e in enumerate(flat) if not _is_hashable(e))
                raise InvalidClassError(f"set {set_of(t)}: element {_describe(flat[t])} is not hashable") from None
            elements = list(index)
            try:
                order = sorted(range(len(elements)), key=elements.__getitem__)
            except TypeError:  # elements of mixed, unordered types: keep first appearance
                order = list(range(len(elements)))
            rank = np.empty(len(order), dtype=np.int64)
            rank[np.array(order, dtype=np.int64)] = np.arange(len(order))
            col_index = rank[np.array(cols, dtype=np.int64)]
            elements = [elements[i] for i in order]
    else:
        if isinstance(domain, (str, bytes)) or not isinstance(domain, Iterable):
            raise InvalidClassError(f"domain must be an iterable of hashable elements; got {_describe(domain)}")
        elements = list(domain)
        domain_keys = _key_array(elements)
        if domain_keys is not None:
            domain_order = np.argsort(domain_keys, kind="stable")
            domain_sorted = domain_keys[domain_order]
        if domain_keys is None or bool((domain_sorted[1:] == domain_sorted[:-1]).any()):
            position: dict[Any, int] = {}
            for i, element in enumerate(elements):
                if not _is_hashable(element):
                    raise InvalidClassError(f"domain[{i}]: element {_describe(element)} is not hashable")
                if element in position:
                    raise InvalidClassError(
                        f"domain[{i}]: element {_describe(element)} is repeated "
                        f"(also at {position[element]}); domain elements must be distinct"
                    )
                position[element] = i
        missing = None
        if keys is not None and domain_keys is not None and keys.dtype.kind == domain_keys.dtype.kind:
            found = np.searchsorted(domain_sorted, keys).clip(0, max(len(elements) - 1, 0))
            hit = domain_sorted[found] == keys if len(elements) else np.zeros(len(keys), dtype=bool)
            col_index = domain_order[found] if len(elements) else np.zeros(0, dtype=np.int64)
            if not hit.all():
                missing = int(np.argmin(hit))
        else:
            position = {e: i for i, e in enumerate(elements)}  # hashable and distinct, checked above
            try:
                col_index = np.array([position[e] for e in flat], dtype=np.int64)
            except (KeyError, TypeError):
                missing = next(t for t, e in enumerate(flat) if not _is_hashable(e) or e not in position)
        if missing is not None:
            bad = flat[missing]
            if not _is_hashable(bad):
                raise InvalidClassError(f"set {set_of(missing)}: element {_describe(bad)} is not hashable")
            raise InvalidClassError(
                f"set {set_of(missing)}: element {_describe(bad)} is not in the domain; "
                "add it to 'domain' or leave 'domain' out (default: the union of the sets)"
            )
        if domain_keys is not None and domain_keys.dtype.kind in "iU":
            names = domain_keys.astype(str).tolist()
    if not sizes:
        raise InvalidClassError("the class is empty: give at least one set (hypothesis)")
    row_index = np.repeat(np.arange(len(sizes), dtype=np.int64), np.array(sizes, dtype=np.int64))
    return Incidence(
        len(sizes),
        row_index,
        np.asarray(col_index, dtype=np.int64),
        names if names is not None else _element_names(elements),
        hypothesis_names,
    )


def _adjacency_cells(G: Any, nodes: list[Any]) -> tuple[np.ndarray, np.ndarray]:
    """``(rows, cols)``: node ``rows[t]`` is adjacent to node ``cols[t]`` (both directions; positions in ``nodes``).

    Read from ``G``'s adjacency with iterators that run in C (a node-index
    map only when the nodes are not ``0..n-1`` in order): several times
    faster than ``nx.to_scipy_sparse_array`` on a million edges.
    """
    from itertools import chain

    n = len(nodes)
    adj = G.adj
    sizes = np.fromiter(map(len, map(adj.__getitem__, nodes)), dtype=np.int64, count=n)
    total = int(sizes.sum())
    flat = chain.from_iterable(map(adj.__getitem__, nodes))
    if all(type(v) is int for v in nodes[:1]) and nodes == list(range(n)):
        cols = np.fromiter(flat, dtype=np.int64, count=total)
    else:
        index = dict(zip(nodes, range(n)))
        cols = np.fromiter(map(index.__getitem__, flat), dtype=np.int64, count=total)
    rows = np.repeat(np.arange(n, dtype=np.int64), sizes)
    return rows, cols


def neighbourhood_incidence(G: Any, closed: bool) -> Incidence:
    """Validate a networkx graph (see :meth:`dimcalc.HypothesisClass.from_networkx`) and return the 1 cells
    of its (closed) neighbourhood system, one row and one column per node in ``G``'s order.

    >>> import networkx as nx
    >>> inc = neighbourhood_incidence(nx.path_graph(3), closed=False)
    >>> sorted(zip(inc.rows.tolist(), inc.cols.tolist()))
    [(0, 1), (1, 0), (1, 2), (2, 1)]
    """
    import networkx as nx

    if not isinstance(G, nx.Graph):
        raise InvalidClassError(f"G must be a networkx graph; got {type(G).__name__}")
    if G.is_directed():
        raise InvalidClassError(
            f"G is a directed graph ({type(G).__name__}); neighbourhood set systems need an undirected graph "
            "(use G.to_undirected())"
        )
    if not isinstance(closed, (bool, np.bool_)):
        raise InvalidClassError(f"closed must be True or False; got {_describe(closed)}")
    nodes = list(G)
    n = len(nodes)
    if n == 0:
        raise InvalidClassError("the graph has no node: its neighbourhood class is empty")
    rows, cols = _adjacency_cells(G, nodes)
    if closed:
        diagonal = np.arange(n, dtype=np.int64)
        rows, cols = np.concatenate([rows, diagonal]), np.concatenate([cols, diagonal])
    names = _element_names(nodes)
    return Incidence(n, rows, cols, names, names)


# ---------------------------------------------------------------------- class constructors
# Bound as HypothesisClass.from_sets / from_networkx (classmethods).


def _from_incidence(cls: Callable[..., C], inc: Incidence, **kwargs: Any) -> C:
    table = SparseTable.from_cells(inc.n_sets, len(inc.point_names), inc.rows, inc.cols)
    return cls(table, num_labels=2, point_names=inc.point_names, **kwargs)


def from_sets(
    cls: Callable[..., C],
    sets: Iterable[Iterable[Any]] | Mapping[Any, Iterable[Any]],
    domain: Iterable[Any] | None = None,
    *,
    name: str | None = None,
    storage: str = "auto",
) -> C:
    """A set system as a binary class: one hypothesis per set, one point per domain element.

    Hypothesis ``j`` labels point ``i`` with 1 exactly when the ``i``-th
    domain element belongs to the ``j``-th set, so the VC dimension of the
    class is the VC dimension of the set system (a set ``S`` is shattered
    when every subset of ``S`` is ``S ∩ R`` for a set ``R`` of the system).
    The table is filled from numpy index arrays, never from Python rows, and
    stored one bit per cell (:mod:`dimcalc.classes.bit_table`) or, when a dense table
    would be large, by its incidences (:mod:`dimcalc.classes.sparse_table`): no dense
    intermediate.

    Parameters
    ----------
    sets : iterable of iterables of hashable, or mapping
        The sets, in hypothesis order; repeated elements within a set count
        once.  A mapping ``{name: set}`` also names the hypotheses
        (``str(name)``).
    domain : iterable of hashable, optional
        The points, in column order; must contain every element of every
        set (elements in no set give all-0 columns).  Defaults to the union
        of the sets, sorted when its elements sort (numbers, strings,
        tuples), else in order of first appearance.
    name : str, optional
        Name of the class.
    storage : {"auto", "sparse", "bits", "dense"}
        As for :class:`~dimcalc.HypothesisClass` (``"auto"``: sparse when large and sparse).

    Returns
    -------
    HypothesisClass
        A binary class; its point names are ``str(element)`` (``repr`` when
        two elements share a ``str``).

    Raises
    ------
    InvalidClassError
        If there is no set, a set (or ``domain``) is not an iterable or is
        a string (ambiguous: ``"ab"`` would be two elements), an element is
        unhashable or missing from ``domain``, or ``domain`` repeats an
        element.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_sets([{1, 2}, {2, 3}, set()])
    >>> H.point_names, H.table.tolist()
    (('1', '2', '3'), [[1, 1, 0], [0, 1, 1], [0, 0, 0]])
    >>> G = HypothesisClass.from_sets({"a": ["x", "y"], "b": ["y"]}, domain=["x", "y", "z"])
    >>> G.hypothesis_names, G.table.tolist()
    (('a', 'b'), [[1, 1, 0], [0, 1, 0]])
    """
    inc = set_system_incidence(sets, domain)
    return _from_incidence(cls, inc, hypothesis_names=inc.hypothesis_names, name=name, storage=storage)


def from_networkx(
    cls: Callable[..., C], G: Any, *, closed: bool = True, name: str | None = None, storage: str = "auto"
) -> C:
    """The closed-neighbourhood set system ``{N[v] : v in V}`` of a networkx graph, as a binary class.

    One hypothesis and one point per node, in ``G``'s node order:
    hypothesis ``j`` labels point ``i`` with 1 when node ``i`` is in
    ``N[v_j]`` (``v_j`` itself and its neighbours).  The VC dimension of
    this class is the *VC dimension of the graph* of Coudert, Csikós,
    Ducoffe and Viennot [CCDV24]_ (§1: the VC dimension of ``(V, N)``, ``N``
    the closed neighbourhoods).  With ``closed=False`` the sets are the open
    neighbourhoods ``N(v)`` (a self-loop puts ``v`` in ``N(v)``).

    The table is built from ``nx.to_scipy_sparse_array`` (edge positions)
    plus the identity, by its incidences (no dense intermediate): stored
    sparse (:mod:`dimcalc.classes.sparse_table`) when a dense table would be large,
    so a graph of millions of nodes fits.  networkx is imported on first use.

    Parameters
    ----------
    G : networkx.Graph
        An undirected graph (multigraphs allowed: parallel edges count once).
    closed : bool
        Closed neighbourhoods ``N[v]`` (default) or open ones ``N(v)``.
    name : str, optional
        Name of the class (default: ``G.name`` when set).
    storage : {"auto", "sparse", "bits", "dense"}
        As for :class:`~dimcalc.HypothesisClass` (``"auto"``: sparse when large and sparse).

    Returns
    -------
    HypothesisClass
        Point and hypothesis names are ``str(node)``.

    Raises
    ------
    InvalidClassError
        If ``G`` is not an undirected networkx graph, has no node, or has
        too many nodes for a dense table.

    References
    ----------
    .. [CCDV24] D. Coudert, M. Csikós, G. Ducoffe, L. Viennot, *Practical
       Computation of Graph VC-Dimension*, SEA 2024, LIPIcs 301, 8:1-8:20,
       doi:10.4230/LIPIcs.SEA.2024.8 (arXiv:2405.07588).

    Examples
    --------
    >>> import networkx as nx
    >>> from dimcalc import HypothesisClass, vc_dimension
    >>> star = HypothesisClass.from_networkx(nx.star_graph(3))  # centre 0, leaves 1, 2, 3
    >>> star.table.tolist()
    [[1, 1, 1, 1], [1, 1, 0, 0], [1, 0, 1, 0], [1, 0, 0, 1]]
    >>> vc_dimension(star).value  # any two leaves are shattered, never three, never the centre
    2
    """
    inc = neighbourhood_incidence(G, closed)
    if name is None and G.name:
        name = str(G.name)
    metadata = {"family": "graph-neighbourhoods", "closed": bool(closed), "nodes": inc.n_sets}
    metadata["edges"] = G.number_of_edges()
    return _from_incidence(
        cls, inc, hypothesis_names=inc.hypothesis_names, name=name, metadata=metadata, storage=storage
    )


def from_scipy_sparse(
    cls: Callable[..., C], M: Any, *, point_names: Sequence[str] | None = None, storage: str = "auto", **kwargs: Any
) -> C:
    """A binary class from a scipy sparse 0/1 matrix (rows = sets / hypotheses, columns = elements / points).

    The matrix is read as CSR without a dense intermediate; its nonzero
    entries must be 1 (``True``).  ``storage`` and the other keywords are as
    for the class.

    Raises
    ------
    InvalidClassError
        If ``M`` is not a 2-D scipy sparse matrix or has an entry other than 0 or 1.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_scipy_sparse(sp.csr_array([[1, 0, 1], [0, 1, 0]]), storage="sparse")
    >>> H.storage, H.table.tolist()
    ('sparse', [[1, 0, 1], [0, 1, 0]])
    """
    import scipy.sparse as sp

    if not sp.issparse(M) or len(M.shape) != 2:
        raise InvalidClassError(f"M must be a 2-D scipy sparse matrix; got {type(M).__name__}")
    csr = sp.csr_array(M)
    csr.eliminate_zeros()
    data = csr.data
    if data.size and not bool(np.all(data == 1)):
        bad = data[np.flatnonzero(data != 1)[0]]
        raise InvalidClassError(f"M has the entry {bad!r}; a set system's incidence matrix has entries 0 and 1")
    table = SparseTable.from_csr(csr.indptr, csr.indices, int(csr.shape[1]))
    return cls(table, num_labels=2, point_names=point_names, storage=storage, **kwargs)
