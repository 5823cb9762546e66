"""The splits of a version space, as the search reads them: types, the :class:`Splitter` protocol, shared tunables.

A splitter (:mod:`.splitters`, one class per Littlestone-type family) turns a
version space ``V`` (bitset over distinct hypotheses) and the list of live
columns into ``(new_live, splits)`` with ``splits = [(V0, V1, desc), ...]``,
both children non-empty, one entry per unordered child pair (reductions 1-4
of :mod:`dimcalc.littlestone`), and into the candidates of one decision
``D(V) >= t`` (:class:`NodeSplits`).  The word-based binary splits are in
:mod:`.column_splitter`, the label-class splits of the other families in
:mod:`.label_splitters`.

References
----------
Littlestone (1987); BGS Defs 2.10-2.13, 4.1-4.4, §4.2 (Lemma 4.5).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, NamedTuple, Protocol

import numpy as np

from ..classes.hypothesis_class import words_to_ints
from ..search.budget import Deadline

__all__ = [
    "Split",
    "RawSplit",
    "Candidate",
    "ColumnCandidates",
    "NodeSplits",
    "balance_bound",
    "candidates_of_splits",
    "Splitter",
    "SplitListCandidates",
    "VECTOR_MIN_LIVE",
    "VECTOR_MAX_WORDS",
    "PYTHON_MAX_WORK",
    "COUNT_BY",
    "SPLIT_CHUNK",
    "SHAPE_MAX_ROWS",
    "words_of_ints",
    "first_unique_rows",
    "ints_in_steps",
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

    __slots__ = ("V", "n", "columns", "ones_counts", "balances", "ones", "_built", "words", "recent")

    def __init__(
        self, V: int, n: int, columns: list[int], ones_counts: list[int], balances: list[int], ones: list[int]
    ) -> None:
        self.V, self.n, self.columns = V, n, columns
        self.ones_counts, self.balances, self.ones = ones_counts, balances, ones
        self._built: dict[int, Candidate] = {}
        #: ``(v, columns' words)`` and a :class:`.memo_table.Recent`: the children's words, from ``V``'s
        #: (``v & words[column]``), go there as the children are built (None: not kept).
        self.words: tuple[np.ndarray, np.ndarray] | None = None
        self.recent: Any = None

    def __len__(self) -> int:
        return len(self.columns)

    def __getitem__(self, i: int) -> Candidate:
        c = self._built.get(i)
        if c is None:
            column, k, one = self.columns[i], self.balances[i], self.ones_counts[i]
            a = self.V & self.ones[column]
            b = self.V ^ a
            if self.words is not None:  # the memo keys of the children: from V's words, not from the integers
                v, words = self.words
                va = v & words[column]
                self.recent.put(a, va, one)
                self.recent.put(b, v ^ va, self.n - one)
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
    #: Whether any two distinct hypotheses are split apart by some split of the family (then
    #: ``D(V) >= 1`` iff ``|V| >= 2``: the engine answers depth-1 queries by size, :meth:`pair_split` gives the node).
    separates: bool

    def splits(self, V: int, live: Sequence[int]) -> tuple[list[int], list[RawSplit]]: ...

    def candidates(self, V: int, t: int, live: Sequence[int]) -> NodeSplits: ...

    def pair_split(self, V: int) -> Split:
        """A split of ``V`` (``|V| >= 2``) with both children non-empty, for a family that :attr:`separates`."""
        ...

    def pair_splits(self, Vs: Sequence[int]) -> list[Split]:
        """:meth:`pair_split` of each version space (one pass when the splitter can batch them)."""
        ...


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


class SplitListCandidates:
    """``candidates`` from the full list of splits (families whose splits are not single columns)."""

    deadline: Deadline | None
    columns: list[int]
    #: Pairs of labels (MLD, Ψ^N), their bits (Ψ^bin) and bipartitions (Ψ^B) separate any two labels; user maps may not.
    separates = True

    def splits(self, V: int, live: Sequence[int]) -> tuple[list[int], list[RawSplit]]:
        raise NotImplementedError

    def candidates(self, V: int, t: int, live: Sequence[int]) -> NodeSplits:
        new_live, splits = self.splits(V, live)
        return candidates_of_splits(new_live, splits, t, self.deadline)

    def pair_split(self, V: int) -> Split:
        raise NotImplementedError

    def pair_splits(self, Vs: Sequence[int]) -> list[Split]:
        return [self.pair_split(V) for V in Vs]


#: Live columns from which a node's splits are computed with numpy words instead of a Python loop.
VECTOR_MIN_LIVE = 512
#: Largest number of 64-bit words per column (labels x hypotheses / 64) for the numpy path.
VECTOR_MAX_WORDS = 64
#: Nodes with at most this many ``live columns x words`` get their candidates from the Python loop of ``splits``
#: while the compiled loops are not loaded (Python's big-integer operations beat numpy's per-call overhead on
#: small nodes; once numba is loaded, its loops beat both).
PYTHON_MAX_WORK = 1 << 14
#: ``"rows"``/``"columns"`` forces how the word path counts (tests); ``None``: the cheaper one per node.
COUNT_BY: str | None = None
#: Live columns handled per step of a numpy split enumeration (the deadline is read between steps).
SPLIT_CHUNK = 1 << 16
#: Refutations are shared between version spaces of one *shape* (``ColumnSplitter.shape``) of at most this
#: many hypotheses (0: no shape memo).  2 048 until the fifth session of issue 20: with 4 096 rows (and
#: ``memo.SHAPE_MAX_WORK`` 2^20) intervals over 512 took 49 279 nodes, 34.8 CPU s, against 125 500, 66.8 s.
SHAPE_MAX_ROWS = 4096


def words_of_ints(masks: Sequence[int], n_words: int) -> np.ndarray:
    """Python-int bitsets as an ``(len(masks), n_words)`` array of little-endian ``uint64`` words."""
    buf = b"".join(m.to_bytes(n_words * 8, "little") for m in masks)
    return np.frombuffer(buf, dtype="<u8").reshape(len(masks), n_words).astype(np.uint64)


def first_unique_rows(keys: np.ndarray) -> np.ndarray:
    """Indices of the first occurrence of each distinct row of ``keys``, in increasing order."""
    keys = np.ascontiguousarray(keys)
    view = keys.view(np.dtype((np.void, keys.dtype.itemsize * keys.shape[1]))).reshape(-1)
    _, first = np.unique(view, return_index=True)
    first.sort()
    return first


def ints_in_steps(words: np.ndarray, deadline: Deadline | None) -> list[int]:
    """:func:`words_to_ints` in chunks of :data:`SPLIT_CHUNK` rows, the deadline read between them."""
    out: list[int] = []
    for s in range(0, len(words), SPLIT_CHUNK):
        if deadline is not None:
            deadline.check()
        out.extend(words_to_ints(words[s : s + SPLIT_CHUNK]))
    return out
