"""The finite hypothesis class: an immutable, validated table of labels.

Rows are hypotheses, columns are domain points, entries are labels in
``{0, ..., k}``.  A :class:`HypothesisClass` is validated once, when it is
built, and is immutable afterwards; every solver trusts it.

Dimensions are computed on the *distinct* rows.  Solvers work with version
spaces represented as Python ``int`` bitsets over distinct-row indices:
``H.label_masks[i][l]`` has bit ``j`` set when distinct row ``j`` gives label
``l`` to point ``i``.  Witnesses map back to the file's row indices through
:attr:`HypothesisClass.distinct_to_row`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from functools import cached_property
from typing import Any

import numpy as np

from .errors import InvalidClassError

__all__ = ["HypothesisClass", "MAX_CELLS"]

#: Largest table (rows x columns) dimcalc accepts; larger inputs are refused
#: up front rather than exhausting memory.  Tables are stored one byte per
#: cell (two with more than 256 labels), so the largest accepted table takes
#: about 500 MB, and its bitsets an eighth of that per label.
MAX_CELLS = 500_000_000


def _storage_dtype(num_labels: int) -> type:
    """The dtype tables are stored in: uint8 up to 256 labels, else uint16 (at most ``1 << 16`` labels)."""
    return np.uint8 if num_labels <= 1 << 8 else np.uint16


def _describe(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _table_from_lists(rows: Sequence[Any]) -> np.ndarray:
    """Validate nested Python lists cell by cell and return an int64 array."""
    if isinstance(rows, (str, bytes)) or not isinstance(rows, Sequence):
        raise InvalidClassError(f"hypotheses must be a list of rows (lists of labels); got {type(rows).__name__}")
    if len(rows) == 0:
        raise InvalidClassError("the class is empty: give at least one hypothesis (row)")
    width = None
    for r, row in enumerate(rows):
        if isinstance(row, (str, bytes)) or not isinstance(row, (Sequence, np.ndarray)):
            raise InvalidClassError(f"row {r}: a hypothesis must be a list of labels; got {_describe(row)}")
        if width is None:
            width = len(row)
        elif len(row) != width:
            raise InvalidClassError(
                f"row {r}: has {len(row)} labels but row 0 has {width}; every row needs one label per domain point"
            )
        for c, v in enumerate(row):
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
                raise InvalidClassError(
                    f"row {r}, column {c}: label {_describe(v)} is not an integer; labels are integers 0..k"
                )
            if v < 0:
                raise InvalidClassError(f"row {r}, column {c}: label {v} is negative; labels are integers 0..k")
    if len(rows) * (width or 0) > MAX_CELLS:
        raise InvalidClassError(f"the table has {len(rows)}x{width} cells, more than dimcalc's limit of {MAX_CELLS}")
    try:
        return np.array(rows, dtype=np.int64).reshape(len(rows), width or 0)
    except OverflowError:
        raise InvalidClassError("a label is too large; labels are small integers 0..k") from None


def _table_from_array(arr: np.ndarray) -> np.ndarray:
    """Validate an integer (or boolean) array; returned as is (the class stores a compact copy)."""
    if arr.ndim != 2:
        raise InvalidClassError(f"the table must be 2-dimensional (hypotheses x points); got shape {arr.shape}")
    if arr.shape[0] == 0:
        raise InvalidClassError("the class is empty: give at least one hypothesis (row)")
    if arr.size > MAX_CELLS:
        raise InvalidClassError(
            f"the table has {arr.shape[0]}x{arr.shape[1]} cells, more than dimcalc's limit of {MAX_CELLS}"
        )
    if arr.dtype == np.bool_:
        return arr
    if not np.issubdtype(arr.dtype, np.integer):
        raise InvalidClassError(f"the table has dtype {arr.dtype}; labels must be integers 0..k (use an integer array)")
    if arr.size and arr.min() < 0:
        r, c = (int(v) for v in np.argwhere(arr < 0)[0])
        raise InvalidClassError(f"row {r}, column {c}: label {int(arr[r, c])} is negative; labels are integers 0..k")
    return arr


def _check_names(names: Any, expected: int, what: str, unique: bool) -> tuple[str, ...] | None:
    if names is None:
        return None
    if isinstance(names, (str, bytes)) or not isinstance(names, (Sequence, np.ndarray)):
        raise InvalidClassError(f"{what} must be a list of {expected} strings; got {type(names).__name__}")
    names = list(names)
    if len(names) != expected:
        raise InvalidClassError(f"{what} has {len(names)} names but the table has {expected}; give one name each")
    if all(type(n) is str for n in names) and (not unique or len(set(names)) == len(names)):
        return tuple(names)  # the common case, checked in C; the loops below only find the culprit
    for i, n in enumerate(names):
        if not isinstance(n, str):
            raise InvalidClassError(f"{what}[{i}]: {_describe(n)} is not a string")
    if unique:
        seen: dict[str, int] = {}
        for i, n in enumerate(names):
            if n in seen:
                raise InvalidClassError(f"{what}[{i}]: duplicate name {n!r} (also at {seen[n]}); names must be unique")
            seen[n] = i
    return tuple(names)


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


def _incidence_table(n_sets: int, n_points: int, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """The 0/1 table with a 1 at each ``(rows[t], cols[t])``, built from index arrays (no Python rows)."""
    if n_sets == 0:
        raise InvalidClassError("the class is empty: give at least one set (hypothesis)")
    if n_sets * n_points > MAX_CELLS:
        raise InvalidClassError(f"the table has {n_sets}x{n_points} cells, more than dimcalc's limit of {MAX_CELLS}")
    table = np.zeros((n_sets, n_points), dtype=np.uint8)
    table[rows, cols] = 1
    return table


class HypothesisClass:
    """An immutable finite hypothesis class over a finite domain.

    Parameters
    ----------
    table : array_like of int, shape (n_hypotheses, n_points)
        Row ``j`` is hypothesis ``j``; column ``i`` is domain point ``i``;
        entries are labels ``0..k``.  Nested lists or an integer numpy array.
    num_labels : int, optional
        The number of labels ``k + 1``; must exceed every entry.  Defaults to
        ``max(2, max entry + 1)``, so a 0/1 table is binary.
    point_names, hypothesis_names : sequence of str, optional
        Names of the columns (must be unique) and of the rows.
    name : str, optional
        Name of the class.
    metadata : mapping, optional
        Free-form information kept with the class (e.g. generator parameters).

    Raises
    ------
    InvalidClassError
        If the table is empty, ragged, or has a label that is not an integer
        in ``0..num_labels-1``.

    Examples
    --------
    >>> H = HypothesisClass.from_table([[0, 0, 1], [0, 1, 1], [1, 1, 1], [0, 1, 1]])
    >>> H.n_hypotheses, H.n_distinct, H.n_points, H.num_labels
    (4, 3, 3, 2)
    >>> bin(H.label_masks[1][1])  # distinct rows 1 and 2 label point 1 with 1
    '0b110'
    >>> H.distinct_to_row.tolist(), H.row_to_distinct.tolist()
    ([0, 1, 2], [0, 1, 2, 1])
    """

    __slots__ = (
        "_table",
        "_num_labels",
        "_point_names",
        "_hypothesis_names",
        "_name",
        "_metadata",
        "_distinct",
        "_distinct_to_row",
        "_row_to_distinct",
        "__dict__",
    )

    def __init__(
        self,
        table: Any,
        *,
        num_labels: int | None = None,
        point_names: Sequence[str] | None = None,
        hypothesis_names: Sequence[str] | None = None,
        name: str | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> None:
        arr = _table_from_array(table) if isinstance(table, np.ndarray) else _table_from_lists(table)
        max_entry = int(arr.max()) if arr.size else 0
        if num_labels is None:
            num_labels = max(2, max_entry + 1)
        elif isinstance(num_labels, (bool, np.bool_)) or not isinstance(num_labels, (int, np.integer)):
            raise InvalidClassError(
                f"labels must be a positive integer (the number of labels k+1); got {_describe(num_labels)}"
            )
        elif num_labels < 1:
            raise InvalidClassError(f"labels must be a positive integer (the number of labels k+1); got {num_labels}")
        elif max_entry >= num_labels:
            r, c = (int(v) for v in np.argwhere(arr >= num_labels)[0])
            raise InvalidClassError(
                f"row {r}, column {c}: label {int(arr[r, c])} is not below the declared number of labels "
                f"{num_labels}; raise 'labels' or fix the entry"
            )
        if num_labels > 1 << 16:
            raise InvalidClassError(f"labels is {num_labels}; dimcalc supports at most {1 << 16} labels")
        # A compact private copy (never the caller's array): one byte per cell up to 256 labels.
        arr = arr.astype(_storage_dtype(num_labels), copy=True)
        arr.setflags(write=False)
        self._table = arr
        self._num_labels = int(num_labels)
        self._point_names = _check_names(point_names, arr.shape[1], "domain", unique=True)
        self._hypothesis_names = _check_names(hypothesis_names, arr.shape[0], "hypothesis_names", unique=False)
        if name is not None and not isinstance(name, str):
            raise InvalidClassError(f"name must be a string; got {_describe(name)}")
        self._name = name
        self._metadata = dict(metadata) if metadata else {}
        # Distinct rows, in order of first occurrence.
        if arr.shape[1] == 0:
            first = np.array([0])
            inverse = np.zeros(arr.shape[0], dtype=np.int64)
        else:
            # Each row as one opaque byte string: np.unique sorts these with memcmp,
            # without the per-column copies of np.unique(axis=0).
            rows_as_bytes = np.ascontiguousarray(arr).view(np.dtype((np.void, arr.itemsize * arr.shape[1])))
            _, first, inverse = np.unique(rows_as_bytes.reshape(-1), return_index=True, return_inverse=True)
            del rows_as_bytes
            inverse = inverse.reshape(-1)
            order = np.argsort(first, kind="stable")
            rank = np.empty_like(order)
            rank[order] = np.arange(len(order))
            first = first[order]
            inverse = rank[inverse]
        self._distinct_to_row = first.astype(np.int64)
        self._row_to_distinct = inverse.astype(np.int64)
        # All rows distinct: first occurrences are 0, 1, ... in order, so share the table.
        self._distinct = arr if len(first) == arr.shape[0] else arr[self._distinct_to_row]
        for a in (self._distinct_to_row, self._row_to_distinct, self._distinct):
            a.setflags(write=False)

    @classmethod
    def from_table(cls, table: Any, **kwargs: Any) -> HypothesisClass:
        """Build a class from nested lists or a numpy array (see the class docstring)."""
        return cls(table, **kwargs)

    @classmethod
    def from_sets(
        cls,
        sets: Iterable[Iterable[Any]] | Mapping[Any, Iterable[Any]],
        domain: Iterable[Any] | None = None,
        *,
        name: str | None = None,
    ) -> HypothesisClass:
        """A set system as a binary class: one hypothesis per set, one point per domain element.

        Hypothesis ``j`` labels point ``i`` with 1 exactly when the ``i``-th
        domain element belongs to the ``j``-th set, so the VC dimension of the
        class is the VC dimension of the set system (a set ``S`` is shattered
        when every subset of ``S`` is ``S ∩ R`` for a set ``R`` of the system).
        The table is filled from numpy index arrays, never from Python rows.

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
        >>> H = HypothesisClass.from_sets([{1, 2}, {2, 3}, set()])
        >>> H.point_names, H.table.tolist()
        (('1', '2', '3'), [[1, 1, 0], [0, 1, 1], [0, 0, 0]])
        >>> G = HypothesisClass.from_sets({"a": ["x", "y"], "b": ["y"]}, domain=["x", "y", "z"])
        >>> G.hypothesis_names, G.table.tolist()
        (('a', 'b'), [[1, 1, 0], [0, 1, 0]])
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
        row_index = np.repeat(np.arange(len(sizes), dtype=np.int64), np.array(sizes, dtype=np.int64))
        table = _incidence_table(len(sizes), len(elements), row_index, np.asarray(col_index, dtype=np.int64))
        return cls(
            table,
            num_labels=2,
            point_names=names if names is not None else _element_names(elements),
            hypothesis_names=hypothesis_names,
            name=name,
        )

    @classmethod
    def from_networkx(cls, G: Any, *, closed: bool = True, name: str | None = None) -> HypothesisClass:
        """The closed-neighbourhood set system ``{N[v] : v in V}`` of a networkx graph, as a binary class.

        One hypothesis and one point per node, in ``G``'s node order:
        hypothesis ``j`` labels point ``i`` with 1 when node ``i`` is in
        ``N[v_j]`` (``v_j`` itself and its neighbours).  The VC dimension of
        this class is the *VC dimension of the graph* of Coudert, Csikós,
        Ducoffe and Viennot [CCDV24]_ (§1: the VC dimension of ``(V, N)``, ``N``
        the closed neighbourhoods).  With ``closed=False`` the sets are the open
        neighbourhoods ``N(v)`` (a self-loop puts ``v`` in ``N(v)``).

        The table is built from ``nx.to_scipy_sparse_array`` (edge positions)
        plus the identity; it is dense, so a graph may have at most
        ``sqrt(MAX_CELLS)`` nodes.  networkx is imported on first use.

        Parameters
        ----------
        G : networkx.Graph
            An undirected graph (multigraphs allowed: parallel edges count once).
        closed : bool
            Closed neighbourhoods ``N[v]`` (default) or open ones ``N(v)``.
        name : str, optional
            Name of the class (default: ``G.name`` when set).

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
        >>> from dimcalc import vc_dimension
        >>> star = HypothesisClass.from_networkx(nx.star_graph(3))  # centre 0, leaves 1, 2, 3
        >>> star.table.tolist()
        [[1, 1, 1, 1], [1, 1, 0, 0], [1, 0, 1, 0], [1, 0, 0, 1]]
        >>> vc_dimension(star).value  # any two leaves are shattered, never three, never the centre
        2
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
        if n * n > MAX_CELLS:
            raise InvalidClassError(
                f"the graph has {n} nodes: its {n}x{n} neighbourhood table is over dimcalc's limit of {MAX_CELLS} cells"
            )
        adjacency = nx.to_scipy_sparse_array(G, nodelist=nodes, weight=None, format="coo")
        rows, cols = adjacency.row.astype(np.int64), adjacency.col.astype(np.int64)
        if closed:
            diagonal = np.arange(n, dtype=np.int64)
            rows, cols = np.concatenate([rows, diagonal]), np.concatenate([cols, diagonal])
        table = _incidence_table(n, n, rows, cols)
        names = _element_names(nodes)
        if name is None and G.name:
            name = str(G.name)
        return cls(
            table,
            num_labels=2,
            point_names=names,
            hypothesis_names=names,
            name=name,
            metadata={
                "family": "graph-neighbourhoods",
                "closed": bool(closed),
                "nodes": n,
                "edges": G.number_of_edges(),
            },
        )

    # ------------------------------------------------------------------ basic facts
    @property
    def table(self) -> np.ndarray:
        """The full table as given (read-only, duplicates kept; ``uint8``, or ``uint16`` beyond 256 labels)."""
        return self._table

    @property
    def num_labels(self) -> int:
        """Number of labels ``k + 1``."""
        return self._num_labels

    @property
    def max_label(self) -> int:
        """``k``: labels are ``0..k``."""
        return self._num_labels - 1

    @property
    def is_binary(self) -> bool:
        """True when the class has at most two labels."""
        return self._num_labels <= 2

    @property
    def n_hypotheses(self) -> int:
        """Number of rows, duplicates included."""
        return int(self._table.shape[0])

    @property
    def n_points(self) -> int:
        """Size of the domain."""
        return int(self._table.shape[1])

    @property
    def n_distinct(self) -> int:
        """Number of distinct hypotheses (rows)."""
        return int(self._distinct.shape[0])

    @property
    def distinct_rows(self) -> np.ndarray:
        """The distinct rows in order of first occurrence (read-only)."""
        return self._distinct

    @property
    def distinct_to_row(self) -> np.ndarray:
        """For distinct index ``j``, the file row index of its first occurrence."""
        return self._distinct_to_row

    @property
    def row_to_distinct(self) -> np.ndarray:
        """For file row ``r``, its distinct index."""
        return self._row_to_distinct

    @property
    def point_names(self) -> tuple[str, ...]:
        """Names of the domain points (``x0, x1, ...`` when none were given)."""
        return self._point_names if self._point_names is not None else tuple(f"x{i}" for i in range(self.n_points))

    @property
    def hypothesis_names(self) -> tuple[str, ...]:
        """Names of the rows (``h0, h1, ...`` when none were given)."""
        if self._hypothesis_names is not None:
            return self._hypothesis_names
        return tuple(f"h{j}" for j in range(self.n_hypotheses))

    @property
    def has_point_names(self) -> bool:
        return self._point_names is not None

    @property
    def has_hypothesis_names(self) -> bool:
        return self._hypothesis_names is not None

    @property
    def name(self) -> str:
        """Name of the class (``"unnamed"`` when none was given)."""
        return self._name if self._name is not None else "unnamed"

    @property
    def metadata(self) -> dict:
        """A copy of the free-form metadata."""
        return dict(self._metadata)

    @property
    def labels_used(self) -> int:
        """Number of labels actually appearing in the table."""
        return int(np.unique(self._table).size)

    # ------------------------------------------------------------------ bitsets
    @property
    def full_mask(self) -> int:
        """Bitset of all distinct hypotheses."""
        return (1 << self.n_distinct) - 1

    @cached_property
    def label_masks(self) -> tuple[tuple[int, ...], ...]:
        """``label_masks[i][l]``: bitset of distinct rows giving label ``l`` to point ``i``.

        Built vectorised, one label at a time; prefer :meth:`point_label_masks`
        over the reduced columns of :meth:`column_reduction` on wide classes.
        """
        return self.point_label_masks(np.arange(self.n_points))

    def point_label_words(self, points: Any, deadline: Any = None) -> np.ndarray:
        """``out[l, u]``: the distinct rows giving label ``l`` to ``points[u]``, as little-endian ``uint64`` words.

        Shape ``(num_labels, len(points), ceil(n_distinct / 64))``; bit ``j`` of
        the words is distinct row ``j``.  With a ``deadline``
        (:class:`dimcalc._budget.Deadline`) it is polled between chunks of
        points (:class:`~dimcalc._budget.SearchStopped` once expired).
        """
        points = np.asarray(points, dtype=np.int64)
        m = self.n_distinct
        n_words = max(1, (m + 63) // 64)
        out = np.zeros((self._num_labels, len(points), n_words), dtype=np.uint64)
        step = max(1, (1 << 20) // max(m, 1))
        for start in range(0, len(points), step):
            if deadline is not None:
                deadline.check()
            sub = self._distinct[:, points[start : start + step]]
            for lab in range(self._num_labels):
                eq = sub == lab
                if not eq.any():
                    continue
                packed = np.zeros((sub.shape[1], n_words * 8), dtype=np.uint8)
                bits = np.packbits(eq, axis=0, bitorder="little").T
                packed[:, : bits.shape[1]] = bits
                out[lab, start : start + sub.shape[1]] = packed.view("<u8")
        return out

    def point_label_masks(self, points: Any, deadline: Any = None) -> tuple[tuple[int, ...], ...]:
        """``out[u][l]``: bitset (Python int) of distinct rows giving label ``l`` to point ``points[u]``.

        See :meth:`point_label_words` for ``deadline``.
        """
        words = self.point_label_words(points, deadline)
        per_label = [words_to_ints(words[lab]) for lab in range(self._num_labels)]
        return tuple(zip(*per_label)) if per_label and len(per_label[0]) else tuple(() for _ in range(words.shape[1]))

    def column_reduction(self, *, relabel: bool = True, deadline: Any = None) -> Any:
        """The class's constant columns dropped and duplicate columns merged (cached).

        See :mod:`dimcalc.reduction` for what is merged and why every dimension
        is unchanged; ``relabel=True`` merges columns equal up to renaming labels
        (not sound for Ψ^bin and user families).

        Examples
        --------
        >>> H = HypothesisClass.from_table([[0, 1, 0, 1], [1, 0, 0, 1]])
        >>> H.column_reduction().points.tolist()
        [0]
        """
        cache = self.__dict__.setdefault("_reductions", {})
        if relabel not in cache:
            from .reduction import reduce_columns

            cache[relabel] = reduce_columns(self, relabel=relabel, deadline=deadline)
        return cache[relabel]

    def mask_to_indices(self, mask: int) -> list[int]:
        """Distinct indices whose bit is set in ``mask``, ascending."""
        return mask_bits(mask)

    def row_of(self, distinct_index: int) -> int:
        """File row index for a distinct index (first occurrence)."""
        return int(self._distinct_to_row[distinct_index])

    def label(self, row: int, point: int) -> int:
        """Label that file row ``row`` gives to ``point``."""
        return int(self._table[row, point])

    # ------------------------------------------------------------------ derived views
    def log2_size(self) -> int:
        """``floor(log2 |H|)`` over distinct hypotheses: an upper bound on VC and Littlestone dimensions."""
        return self.n_distinct.bit_length() - 1

    def to_dict(self) -> dict:
        """The spec §1 JSON object for this class."""
        out: dict[str, Any] = {}
        if self._name is not None:
            out["name"] = self._name
        out["domain"] = list(self.point_names)
        out["labels"] = self._num_labels
        out["hypotheses"] = self._table.tolist()
        if self._hypothesis_names is not None:
            out["hypothesis_names"] = list(self._hypothesis_names)
        if self._metadata:
            out["metadata"] = self._metadata
        return out

    def summary(self) -> dict:
        """The ``class`` object of ``dimcalc check --json`` (spec §2)."""
        return {
            "name": self.name,
            "hypotheses": self.n_hypotheses,
            "distinct_hypotheses": self.n_distinct,
            "domain_size": self.n_points,
            "labels": self._num_labels,
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HypothesisClass):
            return NotImplemented
        return (
            self._num_labels == other._num_labels
            and self._table.shape == other._table.shape
            and bool(np.array_equal(self._table, other._table))
        )

    def __hash__(self) -> int:
        return hash((self._num_labels, self._table.shape, self._table.tobytes()))

    def __repr__(self) -> str:
        return (
            f"HypothesisClass(name={self.name!r}, hypotheses={self.n_hypotheses}, "
            f"distinct={self.n_distinct}, points={self.n_points}, labels={self._num_labels})"
        )

    def __len__(self) -> int:
        return self.n_hypotheses


def words_to_ints(words: np.ndarray) -> list[int]:
    """The rows of an ``(n, n_words)`` array of little-endian ``uint64`` words as Python int bitsets.

    >>> words_to_ints(np.array([[5, 0], [0, 1]], dtype=np.uint64))
    [5, 18446744073709551616]
    """
    if words.shape[0] == 0:
        return []
    if words.shape[1] > 4:  # one linear-time conversion per row (shifting in word by word is quadratic)
        data = np.ascontiguousarray(words, dtype="<u8")
        return [int.from_bytes(row.tobytes(), "little") for row in data]
    out = words[:, -1].tolist()
    for j in range(words.shape[1] - 2, -1, -1):
        out = [(hi << 64) | lo for hi, lo in zip(out, words[:, j].tolist())]
    return out


def mask_bits(mask: int) -> list[int]:
    """Positions of the set bits of a non-negative int bitset, ascending.

    >>> mask_bits(0b10110)
    [1, 2, 4]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def label_bits(num_labels: int) -> int:
    """Number of bits of a label's binary expansion: ``ceil(log2(k+1))`` (at least 1)."""
    return max(1, math.ceil(math.log2(num_labels))) if num_labels > 1 else 1
