"""Splitters: the canonical splits of a version space, one class per Littlestone-type family.

A splitter turns a version space ``V`` (bitset over distinct hypotheses) and
the list of live columns into ``(new_live, splits)`` with ``splits = [(V0, V1,
desc), ...]``, both children non-empty, one entry per unordered child pair
(reductions 1-4 of :mod:`dimcalc.littlestone`, proved at each class), and
builds a tree node from a description and two subtrees (:mod:`.nodes`).
:func:`splitter_for` picks the splitter of a family over the class's reduced columns.

References
----------
Littlestone (1987); BGS Defs 2.10-2.13, 4.1-4.4, §4.2 (Lemma 4.5).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple, Protocol

import numpy as np

from ..classes.hypothesis_class import HypothesisClass, label_bits, words_to_ints
from ..psi import MapSequence
from ..search.budget import Deadline, SearchStopped
from .counts import (
    column_counts,
    compiled_kernels,
    compiled_loaded,
    live_and_chosen,
    load_kernels,
    row_counts,
    rows_of_columns,
    words_of_int,
)
from .nodes import bin_node, binary_node, bipartition_node, multiclass_node, pair_map_node, user_node

__all__ = [
    "Split",
    "Candidate",
    "ColumnCandidates",
    "NodeSplits",
    "balance_bound",
    "candidates_of_splits",
    "Splitter",
    "ColumnSplitter",
    "PairSplitter",
    "BipartitionSplitter",
    "MapSplitter",
    "splitter_for",
    "reduced_points",
    "FAMILY_NAMES",
    "VECTOR_MIN_LIVE",
]


class Split(NamedTuple):
    """A split of a version space ``V``: ``V0``/``V1`` the hypotheses sent to side 0/1 by the node ``desc``.

    ``desc`` is the splitter's description of the node (a column, ``(x, a, b)``, ...), turned into a tree
    node by :attr:`Splitter.node`.
    """

    desc: Any
    V0: int
    V1: int


#: A split as the splitters enumerate it: ``(V0, V1, desc)``.
RawSplit = tuple[int, int, Any]


class Candidate(NamedTuple):
    """A split tried by the search for ``D(V) >= t``: its smaller child (searched first) and bigger child."""

    balance: int  # |small|
    small: int
    big: int
    split: Split


class ColumnCandidates:
    """The candidates of a :class:`ColumnSplitter` node, each built (two big-integer children) when first read.

    A node of a class with many columns has hundreds of candidates, and a
    search that succeeds reads the first one or two; building every child
    pair up front cost most of a node.  Same candidates, same order as
    :func:`candidates_of_splits` over the splits, except that two columns
    giving the same split of ``V`` are both kept (the second is answered by
    the memo: its children are the first one's).
    """

    __slots__ = ("V", "n", "columns", "ones_counts", "balances", "ones", "_built")

    def __init__(
        self, V: int, n: int, columns: list[int], ones_counts: list[int], balances: list[int], ones: list[int]
    ) -> None:
        self.V, self.n, self.columns = V, n, columns
        self.ones_counts, self.balances, self.ones = ones_counts, balances, ones
        self._built: dict[int, Candidate] = {}

    def __len__(self) -> int:
        return len(self.columns)

    def __getitem__(self, i: int) -> Candidate:
        c = self._built.get(i)
        if c is None:
            column, k, one = self.columns[i], self.balances[i], self.ones_counts[i]
            a = self.V & self.ones[column]
            b = self.V ^ a
            split = Split(column, b, a)
            c = self._built[i] = Candidate(k, b, a, split) if self.n - one <= one else Candidate(k, a, b, split)
        return c

    def __iter__(self) -> Iterator[Candidate]:
        return (self[i] for i in range(len(self.columns)))

    def built(self) -> list[Candidate]:
        """The candidates read so far (the quick pass of the engine looks at these only)."""
        return list(self._built.values())

    def move_to_front(self, desc: Any) -> None:
        """Put the candidate of column ``desc`` first (kept order otherwise); nothing if it is not a candidate."""
        if desc in self.columns:
            i = self.columns.index(desc)
            for seq in (self.columns, self.ones_counts, self.balances):
                seq.insert(0, seq.pop(i))
            self._built = {}


class NodeSplits(NamedTuple):
    """What a splitter says about one node ``D(V) >= t?`` of the search.

    ``live``: the columns still live below ``V`` (those constant on ``V`` dropped,
    reduction 3); ``candidates``: the splits whose two children have at least
    ``2^(t-1)`` hypotheses (reduction 5), in search order; ``upper``: the
    *balance bound* ``D(V) <= 1 + floor(log2 max_split min(|V0|, |V1|))``
    (0 when ``V`` has no split), or None when the splitter did not count every split.
    """

    live: Any
    candidates: list[Candidate] | ColumnCandidates
    upper: int | None


def balance_bound(max_balance: int) -> int:
    """``1 + floor(log2 b)`` for the largest smaller side ``b`` of a split of ``V``, 0 when there is none.

    Proof: a tree of depth ``s`` for ``V`` has a root split whose two children
    carry trees of depth ``s - 1``, hence (size bound, reduction 5) at least
    ``2^(s-1)`` hypotheses each, so ``2^(s-1) <= b``.

    Examples
    --------
    >>> balance_bound(0), balance_bound(1), balance_bound(5), balance_bound(8)
    (0, 1, 3, 4)
    """
    return max_balance.bit_length() if max_balance > 0 else 0


class Splitter(Protocol):
    """What the engine needs of a family: its columns, its splits of a version space, its tree nodes.

    ``splits(V, live)`` returns ``(new_live, [(V0, V1, desc), ...])``: every
    canonical split of ``V`` (both children non-empty, one per unordered
    child pair; reductions 1-4 of :mod:`dimcalc.littlestone`) and the columns
    still live below ``V``.  ``candidates(V, t, live)`` returns the same
    ``new_live`` and, as :class:`Candidate`, the splits whose two children
    have at least ``2^(t-1)`` hypotheses (reduction 5), most balanced first,
    with the balance bound of ``V`` (a :class:`NodeSplits`).
    ``node(desc, T0, T1)`` builds a spec §3 tree node.
    """

    columns: list[int]
    node: Callable[[Any, dict, dict], dict]
    #: Read between chunks of long enumerations (the engine sets it when the splitter has none).
    deadline: Deadline | None

    def splits(self, V: int, live: Sequence[int]) -> tuple[list[int], list[RawSplit]]: ...

    def candidates(self, V: int, t: int, live: Sequence[int]) -> NodeSplits: ...


def candidates_of_splits(live: Any, splits: Sequence[RawSplit], t: int, deadline: Deadline | None = None) -> NodeSplits:
    """The splits whose children both have ``2^(t-1)`` hypotheses (reduction 5), most balanced first (stable).

    Examples
    --------
    >>> node = candidates_of_splits([0, 1], [(0b1, 0b1110, "a"), (0b11, 0b1100, "b")], 2)
    >>> [c.split.desc for c in node.candidates], node.upper
    (['b'], 2)
    """
    need = 1 << (t - 1)
    cand = []
    best = 0
    for i, (V0, V1, desc) in enumerate(splits):
        if deadline is not None and not i & 0xFFFF:  # millions of splits at the root of a wide class
            deadline.check()
        n0 = V0.bit_count()
        n1 = V1.bit_count()
        best = max(best, min(n0, n1))
        if n0 < need or n1 < need:
            continue
        split = Split(desc, V0, V1)
        cand.append(Candidate(n0, V0, V1, split) if n0 <= n1 else Candidate(n1, V1, V0, split))
    cand.sort(key=lambda c: -c.balance)
    return NodeSplits(live, cand, balance_bound(best))


class _SplitListCandidates:
    """``candidates`` from the full list of splits (families whose splits are not single columns)."""

    deadline: Deadline | None

    def splits(self, V: int, live: Sequence[int]) -> tuple[list[int], list[RawSplit]]:
        raise NotImplementedError

    def candidates(self, V: int, t: int, live: Sequence[int]) -> NodeSplits:
        new_live, splits = self.splits(V, live)
        return candidates_of_splits(new_live, splits, t, self.deadline)


#: Live columns from which a node's splits are computed with numpy words instead of a Python loop.
VECTOR_MIN_LIVE = 512
#: Largest number of 64-bit words per column (labels x hypotheses / 64) for the numpy path.
_VECTOR_MAX_WORDS = 64
#: Nodes with at most this many ``live columns x words`` get their candidates from the Python loop of ``splits``
#: while the compiled loops are not loaded (Python's big-integer operations beat numpy's per-call overhead on
#: small nodes; once numba is loaded, its loops beat both).
PYTHON_MAX_WORK = 1 << 14
_NO_ROWS = (np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.int32))
#: ``"rows"``/``"columns"`` forces how the word path counts (tests); ``None``: the cheaper one per node.
COUNT_BY: str | None = None
#: Live columns handled per step of a numpy split enumeration (the deadline is read between steps).
_SPLIT_CHUNK = 1 << 16


def _words_of(masks: Sequence[int], n_words: int) -> np.ndarray:
    """Python-int bitsets as an ``(len(masks), n_words)`` array of little-endian ``uint64`` words."""
    buf = b"".join(m.to_bytes(n_words * 8, "little") for m in masks)
    return np.frombuffer(buf, dtype="<u8").reshape(len(masks), n_words).astype(np.uint64)


_ints_of = words_to_ints


def _first_unique_rows(keys: np.ndarray) -> np.ndarray:
    """Indices of the first occurrence of each distinct row of ``keys``, in increasing order."""
    keys = np.ascontiguousarray(keys)
    view = keys.view(np.dtype((np.void, keys.dtype.itemsize * keys.shape[1]))).reshape(-1)
    _, first = np.unique(view, return_index=True)
    first.sort()
    return first


class ColumnSplitter:
    """Splits by 0/1-valued (virtual) columns: ``V1 = V & ones[c]``, ``V0 = V - V1``.

    Used for binary LDim (``ones[x]`` = hypotheses labelling ``x`` with 1) and
    Ψ^bin (one virtual column per point and bit).  Two columns that agree on
    ``V`` up to swapping 0/1 give the same unordered pair of children, hence the
    same value (reduction 2); they also agree on every subset of ``V``, so only
    one of them stays live below ``V`` (reduction 3).
    """

    def __init__(
        self,
        ones: Sequence[int],
        node: Callable[[Any, Any, Any], dict],
        n_rows: int = 0,
        words: np.ndarray | None = None,
    ) -> None:
        self.ones = list(ones)
        self.node = node
        self.columns = list(range(len(self.ones)))
        self.n_words = max(1, (n_rows + 63) // 64)
        self._words: np.ndarray | None = words
        self.n_rows = n_rows
        self._mean_ones: float | None = None
        self._rows: tuple[np.ndarray, np.ndarray] | None = None
        #: Set by the engine: long enumerations (millions of live columns) read it between chunks.
        self.deadline: Deadline | None = None

    def splits(self, V: int, live: Sequence[int]) -> tuple[list[int], list[RawSplit]]:
        if len(live) >= VECTOR_MIN_LIVE and self.n_words <= _VECTOR_MAX_WORDS:
            return self._splits_numpy(V, live)
        ones = self.ones
        seen: set[int] = set()
        new_live: list[int] = []
        out: list[RawSplit] = []
        for c in live:
            a = V & ones[c]
            if not a or a == V:
                continue
            b = V ^ a
            key = a if a < b else b
            if key in seen:
                continue
            seen.add(key)
            new_live.append(c)
            out.append((b, a, c))
        return new_live, out

    @property
    def words(self) -> np.ndarray:
        """``(columns, W)`` ``uint64`` words: column ``c``'s ones as a bitset over the distinct hypotheses."""
        if self._words is None:
            self._words = _words_of(self.ones, self.n_words)
        return self._words

    @property
    def mean_ones(self) -> float:
        """Mean number of 1s in a hypothesis's row (over the splitter's columns)."""
        if self._mean_ones is None:
            total = sum(int(np.bitwise_count(self.words[s : s + 4096]).sum()) for s in range(0, len(self.ones), 4096))
            self._mean_ones = total / max(1, self.n_rows)
        return self._mean_ones

    @property
    def rows(self) -> tuple[np.ndarray, np.ndarray]:
        """Each hypothesis's ones as CSR ``(indptr, indices)`` over the columns (built on first use)."""
        if self._rows is None:
            self._rows = rows_of_columns(self.words, self.n_rows, self.deadline)
        return self._rows

    def candidates(self, V: int, t: int, live: Sequence[int]) -> NodeSplits:
        """The :class:`NodeSplits` of the :class:`Splitter` protocol, counted on ``uint64`` words.

        One pass of :func:`~dimcalc.littlestone.counts.column_counts` gives
        ``|V_1|`` for every live column; columns constant on ``V``
        (``|V_1| ∈ {0, |V|}``) leave the live list (reduction 3), and the
        columns passing the size test ``min(|V_0|, |V_1|) >= 2^(t-1)``
        (reduction 5) become :class:`ColumnCandidates`, whose children are
        built (as Python ints) when the search reads them.
        """
        if len(live) * self.n_words <= PYTHON_MAX_WORK and not compiled_loaded():
            new, splits = self.splits(V, live.tolist() if isinstance(live, np.ndarray) else live)
            return candidates_of_splits(new, splits, t)
        if self.deadline is not None:
            self.deadline.check()
        idx = np.asarray(live, dtype=np.int64)
        v = words_of_int(V, self.n_words)
        n = V.bit_count()
        column_work = len(idx) * int(np.count_nonzero(v))
        load_kernels(column_work, self.deadline.remaining() if self.deadline is not None else None)
        by_rows = (n * self.mean_ones * 2 < column_work) if COUNT_BY is None else COUNT_BY == "rows"
        kernels = compiled_kernels()
        if kernels is not None:  # the whole node in one compiled call (same integers as below)
            indptr, indices = self.rows if by_rows else _NO_ROWS
            new_live, columns, ones_counts, balances, best = kernels.node_candidates(
                self.words, idx, v, n, 1 << (t - 1), indptr, indices, by_rows
            )
            cand = ColumnCandidates(V, n, columns.tolist(), ones_counts.tolist(), balances.tolist(), self.ones)
            return NodeSplits(new_live, cand, balance_bound(int(best)))
        if by_rows:
            indptr, indices = self.rows
            cnt, by_column = row_counts(indptr, indices, v, len(self.ones), column_work), True
        else:
            cnt, by_column = column_counts(self.words, idx, v), False
        idx, chosen, ones_counts, best = live_and_chosen(cnt, by_column, idx, n, 1 << (t - 1))
        balance = np.minimum(ones_counts, n - ones_counts)
        order = np.argsort(-balance, kind="stable")
        cand = ColumnCandidates(
            V, n, idx[chosen[order]].tolist(), ones_counts[order].tolist(), balance[order].tolist(), self.ones
        )
        return NodeSplits(idx, cand, balance_bound(int(best)))  # live columns stay a numpy array down the search

    def _splits_numpy(self, V: int, live: Sequence[int]) -> tuple[list[int], list[RawSplit]]:
        """The same as the loop in :meth:`splits` (same splits, same order), over numpy words.

        Columns are taken in chunks of :data:`_SPLIT_CHUNK` with the deadline
        read between them; a split met in an earlier chunk is not repeated.
        """
        if self._words is None:
            self._words = _words_of(self.ones, self.n_words)
        v = _words_of([V], self.n_words)[0]
        all_idx = np.asarray(live, dtype=np.int64)
        chunked = len(all_idx) > _SPLIT_CHUNK
        seen: set[int] = set()
        cols: list[int] = []
        out: list[RawSplit] = []
        for s in range(0, len(all_idx), _SPLIT_CHUNK):
            if self.deadline is not None:
                self.deadline.check()
            idx = all_idx[s : s + _SPLIT_CHUNK]
            a = self._words[idx] & v
            keep = a.any(axis=1) & ~(a == v).all(axis=1)
            idx, a = idx[keep], a[keep]
            if len(idx) == 0:
                continue
            b = v & ~a
            # The unordered pair {a, b} by its smaller member (as integers: compare the highest differing word).
            diff = a != b
            top = self.n_words - 1 - np.argmax(diff[:, ::-1], axis=1)
            rows = np.arange(len(idx))
            key = np.where((a[rows, top] < b[rows, top])[:, None], a, b)
            first = _first_unique_rows(key)
            firsts = idx[first].tolist()
            if not chunked:
                return firsts, [(V ^ ai, ai, c) for ai, c in zip(_ints_of(a[first]), firsts)]
            for k, ai, c in zip(_ints_of(key[first]), _ints_of(a[first]), firsts):
                if k not in seen:
                    seen.add(k)
                    cols.append(c)
                    out.append((V ^ ai, ai, c))
        return cols, out


class _LabelClassSplitter(_SplitListCandidates):
    """Base for splitters that look at the label classes ``V & M[x][l]`` of each point.

    A point with fewer than two labels present on ``V`` gives no split of ``V``
    or of any subset with both children non-empty (reduction 1); two points with
    the same labelled partition of ``V`` give the same splits on every subset
    (reduction 3).  Subclasses turn the classes of one point into splits.
    """

    def __init__(
        self,
        H: HypothesisClass,
        node: Callable[[Any, Any, Any], dict],
        points: Sequence[int] | None = None,
        deadline: Deadline | None = None,
    ) -> None:
        # ``node`` builds a spec §3 tree node from a split's description and the two subtrees.
        self.node = node
        #: Read between chunks of long enumerations (the engine sets it when given none).
        self.deadline: Deadline | None = deadline
        # Columns are indices into ``points`` (original point indices; default: every point).
        self.points = list(range(H.n_points)) if points is None else np.asarray(points, dtype=np.int64).tolist()
        self.num_labels = H.num_labels
        self.columns = list(range(len(self.points)))
        self.n_words = max(1, (H.n_distinct + 63) // 64)
        # (labels, columns, words); the Python-int masks are derived from them.
        self._words: np.ndarray | None = H.point_label_words(self.points, deadline)
        per_label = [_ints_in_steps(self._words[lab], deadline) for lab in range(self.num_labels)]
        self.masks: list[tuple[int, ...]] = []
        for s in range(0, len(self.points), _SPLIT_CHUNK):
            if deadline is not None:
                deadline.check()
            self.masks.extend(zip(*(masks[s : s + _SPLIT_CHUNK] for masks in per_label)))

    def _classes_numpy(self, V: int, live: Sequence[int]) -> tuple[list[int], list[tuple[int, list[tuple[int, int]]]]]:
        """The same as the loop in :meth:`classes` (same points, same order), over numpy words.

        Points are taken in chunks of :data:`_SPLIT_CHUNK` with the deadline read
        between them; a labelled partition met in an earlier chunk is not repeated.
        """
        assert self._words is not None
        v = _words_of([V], self.n_words)[0]
        all_idx = np.asarray(live, dtype=np.int64)
        chunked = len(all_idx) > _SPLIT_CHUNK
        seen: set[bytes] = set()
        cols: list[int] = []
        out: list[tuple[int, list[tuple[int, int]]]] = []
        for s in range(0, len(all_idx), _SPLIT_CHUNK):
            if self.deadline is not None:
                self.deadline.check()
            idx = all_idx[s : s + _SPLIT_CHUNK]
            cls = self._words[:, idx] & v  # (labels, n, words)
            present = cls.any(axis=2)  # (labels, n)
            keep = present.sum(axis=0) >= 2
            idx, cls, present = idx[keep], cls[:, keep], present[:, keep]
            if len(idx) == 0:
                continue
            rows = np.ascontiguousarray(cls.transpose(1, 0, 2).reshape(len(idx), -1))
            first = _first_unique_rows(rows)
            if chunked:
                fresh = []
                for i in first.tolist():
                    key = rows[i].tobytes()
                    if key not in seen:
                        seen.add(key)
                        fresh.append(i)
                first = np.asarray(fresh, dtype=np.int64)
                if len(first) == 0:
                    continue
            firsts = idx[first].tolist()
            labs = [lab for lab in range(self.num_labels) if present[lab, first].any()]
            ints = {lab: _ints_of(cls[lab, first]) for lab in labs}
            out.extend((c, [(lab, ints[lab][i]) for lab in labs if ints[lab][i]]) for i, c in enumerate(firsts))
            cols.extend(firsts)
        return cols, out

    def classes(self, V: int, live: Sequence[int]) -> tuple[list[int], list[tuple[int, list[tuple[int, int]]]]]:
        """Return (new live points, [(x, [(label, class mask), ...]), ...]) for the useful points."""
        if len(live) >= VECTOR_MIN_LIVE and self.num_labels * self.n_words <= _VECTOR_MAX_WORDS:
            return self._classes_numpy(V, live)
        masks = self.masks
        seen: set[tuple] = set()
        new_live: list[int] = []
        out = []
        for x in live:
            cls = []
            for lab, m in enumerate(masks[x]):
                c = V & m
                if c:
                    cls.append((lab, c))
            if len(cls) < 2:
                continue
            sig = tuple(cls)
            if sig in seen:
                continue
            seen.add(sig)
            new_live.append(x)
            out.append((x, cls))
        return new_live, out


class PairSplitter(_LabelClassSplitter):
    """MLD / Ψ^N splits: a pair of labels ``a != b`` present at ``x``; ``V0 = V_a``, ``V1 = V_b``.

    A pair with a label absent at ``x`` has an empty child (reduction 1), so
    only pairs of present labels are generated, each unordered pair once
    (``φ_{a,b}`` and ``φ_{b,a}`` are mirrors, reduction 2).
    """

    def splits(self, V: int, live: Sequence[int]) -> tuple[list[int], list[RawSplit]]:
        seen: set[tuple[int, int]] = set()
        out: list[RawSplit] = []
        new_live, classes = self.classes(V, live)
        for x, cls in classes:
            for (la, ca), (lb, cb) in itertools.combinations(cls, 2):
                key = (ca, cb) if ca < cb else (cb, ca)
                if key in seen:
                    continue
                seen.add(key)
                out.append((ca, cb, (x, la, lb)))
        return new_live, out


class BipartitionSplitter(_LabelClassSplitter):
    """Ψ^B splits: a bipartition of the labels present at ``x`` into two non-empty sides.

    By monotonicity (reduction 4) a map of Ψ^B can be taken to send every
    label present at ``x`` to 0 or 1: turning a ``*`` on a present label into
    0 enlarges ``V0`` and keeps ``V1``, which cannot lower ``1 + min(D(V0), D(V1))``.
    Mirror bipartitions give the same pair, so the first present label is
    always put on side 0.  With ``m`` labels present there are ``2^(m-1) - 1``
    bipartitions: they are enumerated in Gray-code order (one class moves per
    step, no table of ``2^m`` unions) and the search's deadline is polled while
    they are, so many labels cost time within the limit, never an overflow.
    """

    def __init__(
        self,
        H: HypothesisClass,
        node: Callable[[Any, Any, Any], dict],
        points: Sequence[int] | None = None,
        deadline: Deadline | None = None,
    ) -> None:
        super().__init__(H, node, points, deadline)
        self.deadline = deadline

    def splits(self, V: int, live: Sequence[int]) -> tuple[list[int], list[RawSplit]]:
        seen: set[int] = set()
        out: list[RawSplit] = []
        new_live, classes = self.classes(V, live)
        deadline = self.deadline
        for x, cls in classes:
            rest = [c for _, c in cls[1:]]
            present = tuple(lab for lab, _ in cls)
            a = 0
            for k in range(1, 1 << len(rest)):
                i = (k & -k).bit_length() - 1  # Gray code: subset k ^ (k >> 1) differs from the last in bit i
                a ^= rest[i]
                if deadline is not None and not k & 0xFFF and deadline.expired():
                    raise SearchStopped
                b = V ^ a
                key = a if a < b else b
                if key in seen:
                    continue
                seen.add(key)
                out.append((b, a, (x, k ^ (k >> 1), present)))
        return new_live, out


class MapSplitter(_LabelClassSplitter):
    """User-family splits: every map of the family at every live point, as given.

    ``V0 = V & Z[x][φ]``, ``V1 = V & O[x][φ]`` with ``Z``/``O`` the hypotheses
    whose label at ``x`` maps to 0/1.  Only reductions 1-3 apply.  ``maps`` may
    be a lazy :class:`dimcalc.psi.MapSequence` (the uniform search over Ψ^B has
    ``2^(|P|-1) - 1`` of them): the masks of a map are built when it is first
    used, over the labels present at each point, and only a bounded number are
    kept.
    """

    #: Maps whose masks are kept at once (the cache is emptied when it is full).
    MASK_CACHE = 1 << 16

    def __init__(
        self,
        H: HypothesisClass,
        maps: Sequence[tuple],
        node: Callable[[Any, Any, Any], dict],
        points: Sequence[int] | None = None,
        deadline: Deadline | None = None,
    ) -> None:
        super().__init__(H, node, points, deadline)
        self.maps = maps if isinstance(maps, MapSequence) else list(maps)
        self.n_maps = _map_count(self.maps)
        self._deadline = deadline
        self._present = []
        for x, mx in enumerate(self.masks):
            if deadline is not None and not x % 1024:
                deadline.check()
            self._present.append([lab for lab, m in enumerate(mx) if m])
        self._cache: dict[int, tuple[list[int], list[int]]] = {}

    def _masks(self, j: int) -> tuple[list[int], list[int]]:
        """(Z[x][φ_j] for every point x, O[x][φ_j] for every point x)."""
        got = self._cache.get(j)
        if got is None:
            phi = self.maps[j]
            zero, one = [], []
            deadline = self._deadline
            for x, (mx, present) in enumerate(zip(self.masks, self._present)):
                if deadline is not None and not (x + 1) % 1024:
                    deadline.check()
                z = o = 0
                for lab in present:
                    v = phi[lab]
                    if v == 0:
                        z |= mx[lab]
                    elif v == 1:
                        o |= mx[lab]
                zero.append(z)
                one.append(o)
            if len(self._cache) >= self.MASK_CACHE:
                self._cache.clear()
            got = self._cache[j] = (zero, one)
        return got

    def splits(self, V: int, live: Sequence[int]) -> tuple[list[int], list[RawSplit]]:
        seen: set[tuple[int, int]] = set()
        out: list[RawSplit] = []
        new_live, classes = self.classes(V, live)
        for x, _ in classes:
            for j in range(self.n_maps):
                self._add_split(V, x, j, seen, out)
        return new_live, out

    def map_candidates(self, V: int, t: int, live: Sequence[int], j: int) -> NodeSplits:
        """The :class:`NodeSplits` of ``V`` for ``t`` among the splits by map ``j`` only (the uniform variant).

        The balance bound is that of the splits by map ``j``: it bounds the
        depth of the trees whose root carries map ``j``.
        """
        new_live, classes = self.classes(V, live)
        seen: set[tuple[int, int]] = set()
        out: list[RawSplit] = []
        for x, _ in classes:
            self._add_split(V, x, j, seen, out)
        return candidates_of_splits(new_live, out, t)

    def _add_split(self, V: int, x: int, j: int, seen: set[tuple[int, int]], out: list[RawSplit]) -> None:
        """Append the split of ``V`` by map ``j`` at point ``x`` if both children are non-empty and it is new."""
        zero, one = self._masks(j)
        a = V & zero[x]
        if not a:
            return
        b = V & one[x]
        if not b:
            return
        key = (a, b) if a < b else (b, a)
        if key in seen:
            return
        seen.add(key)
        out.append((a, b, (x, j)))


def _map_count(maps: Any) -> int:
    """Number of maps of a list or of a lazy :class:`dimcalc.psi.MapSequence` (whose ``len`` may overflow)."""
    return maps.size if isinstance(maps, MapSequence) else len(maps)


def _union(masks: Sequence[int], labels: Iterable[int]) -> int:
    out = 0
    for lab in labels:
        if lab < len(masks):
            out |= masks[lab]
    return out


FAMILY_NAMES = ("N", "bin", "B")


def _bin_ones(
    H: HypothesisClass, points: Sequence[int], deadline: Deadline | None = None
) -> tuple[list[int], int, np.ndarray]:
    """Ψ^bin's virtual columns (point, bit): the rows whose label at the point has that bit set.

    Column ``x * bits + bit``; returned as Python ints and as numpy words.
    """
    bits = label_bits(H.num_labels)
    words = H.point_label_words(points, deadline)  # (labels, points, W)
    per_bit = np.zeros((len(points), bits, words.shape[2]), dtype=np.uint64)
    for lab in range(H.num_labels):
        for bit in range(bits):
            if lab >> bit & 1:
                per_bit[:, bit] |= words[lab]
    flat = per_bit.reshape(len(points) * bits, words.shape[2])
    return words_to_ints(flat), bits, flat


#: Families whose value is unchanged when a point's labels are renamed: their splitters may use the
#: columns reduced up to relabelling (dimcalc.classes.reduction); Ψ^bin and user maps read label values.
_RELABEL_INVARIANT = ("LD", "MLD", "N", "B")


def reduced_points(H: HypothesisClass, family: str, deadline: Deadline | None = None) -> list[int]:
    """The representative points of :meth:`HypothesisClass.column_reduction` for ``family``."""
    red = H.column_reduction(relabel=family in _RELABEL_INVARIANT, deadline=deadline)
    if deadline is not None:
        deadline.check()
    return red.points.tolist()


def _ints_in_steps(words: np.ndarray, deadline: Deadline | None) -> list[int]:
    """:func:`words_to_ints` in chunks of :data:`_SPLIT_CHUNK` rows, the deadline read between them."""
    out: list[int] = []
    for s in range(0, len(words), _SPLIT_CHUNK):
        if deadline is not None:
            deadline.check()
        out.extend(words_to_ints(words[s : s + _SPLIT_CHUNK]))
    return out


def splitter_for(
    H: HypothesisClass, family: str, maps: Sequence[tuple] | None = None, deadline: Deadline | None = None
) -> Any:
    """The splitter of a dimension: 'LD', 'MLD', 'N', 'bin', 'B' or 'user' (with maps).

    Splitters work on the class's reduced columns (constant points dropped,
    duplicate points merged: every Littlestone-type dimension is unchanged,
    see :mod:`dimcalc.classes.reduction`); tree nodes name the representatives' original points.
    """
    points = reduced_points(H, family, deadline)
    if family == "LD":
        words = H.point_label_words(points, deadline)[min(1, H.num_labels - 1)]
        return ColumnSplitter(_ints_in_steps(words, deadline), binary_node(points), H.n_distinct, words)
    if family == "MLD":
        return PairSplitter(H, multiclass_node(points), points, deadline)
    if family == "N":
        return PairSplitter(H, pair_map_node(H.num_labels, points), points, deadline)
    if family == "bin":
        ones, bits, words = _bin_ones(H, points, deadline)
        return ColumnSplitter(ones, bin_node(H.num_labels, bits, points), H.n_distinct, words)
    if family == "B":
        return BipartitionSplitter(H, bipartition_node(H.num_labels, points), points, deadline)
    assert maps is not None
    return MapSplitter(H, maps, user_node(maps, points), points, deadline)
