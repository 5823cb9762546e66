"""Binary splits on ``uint64`` words: the :class:`ColumnSplitter` of LDim and Ψ^bin.

A node's candidates are counted on words (by columns or by rows, compiled
with numba once a node is big: :mod:`.counts`); the full list of splits
(for SAT) is a Python loop on small nodes and a numpy pass on wide ones.
The tunables (:data:`.splits.VECTOR_MIN_LIVE`, :data:`.splits.PYTHON_MAX_WORK`,
:data:`.splits.COUNT_BY`, :data:`.splits.SPLIT_CHUNK`) are read from
:mod:`.splits` at call time.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..search.budget import Deadline
from . import splits as tunables  # read at call time: tests and benchmarks set them
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
from .memo_table import Recent
from .splits import (
    ColumnCandidates,
    NodeSplits,
    RawSplit,
    Split,
    balance_bound,
    candidates_of_splits,
    first_unique_rows,
    words_of_ints,
    words_to_ints,
)

__all__ = ["ColumnSplitter"]

_NO_ROWS = (np.zeros(1, dtype=np.int64), np.zeros(0, dtype=np.int32))


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
        #: Set by the engine: the words of the version spaces its memo looked up last (:class:`.memo_table.Recent`).
        self.recent: Recent | None = None

    #: Two distinct hypotheses differ on some (reduced) column: ``D(V) >= 1`` iff ``|V| >= 2``.
    separates = True

    def pair_split(self, V: int) -> Split:
        """The split by the first column on which the two lowest hypotheses of ``V`` (``|V| >= 2``) differ."""
        h1 = (V & -V).bit_length() - 1
        rest = V & (V - 1)
        h2 = (rest & -rest).bit_length() - 1
        words = self.words
        differ = ((words[:, h1 >> 6] >> np.uint64(h1 & 63)) ^ (words[:, h2 >> 6] >> np.uint64(h2 & 63))) & np.uint64(1)
        column = int(np.argmax(differ))
        a = V & self.ones[column]
        return Split(column, V ^ a, a)

    def pair_splits(self, Vs: Sequence[int]) -> list[Split]:
        """:meth:`pair_split` of many version spaces in one numpy pass (the depth-1 nodes of a witness tree)."""
        out: list[Split] = []
        words = self.words
        for s in range(0, len(Vs), 4096):
            chunk = Vs[s : s + 4096]
            low = [(V & -V).bit_length() - 1 for V in chunk]
            rest = [V & (V - 1) for V in chunk]
            second = [(R & -R).bit_length() - 1 for R in rest]
            h1, h2 = np.asarray(low, dtype=np.int64), np.asarray(second, dtype=np.int64)
            b1 = (words[:, h1 >> 6] >> (h1 & 63).astype(np.uint64)) & np.uint64(1)  # (columns, chunk)
            b2 = (words[:, h2 >> 6] >> (h2 & 63).astype(np.uint64)) & np.uint64(1)
            columns = np.argmax(b1 != b2, axis=0).tolist()
            for V, column in zip(chunk, columns):
                a = V & self.ones[column]
                out.append(Split(column, V ^ a, a))
        return out

    def _words_of(self, V: int) -> np.ndarray:
        """``V`` as words: the memo's (:class:`.memo_table.Recent`, converted once per node) when the engine shares them."""
        return self.recent.words(V) if self.recent is not None else words_of_int(V, self.n_words)

    def shape(self, V: int, live: Sequence[int]) -> bytes | None:
        """The *shape* of ``V`` (at most :data:`.splits.SHAPE_MAX_ROWS` hypotheses), or None.

        Its rows on the columns of ``live`` not constant on ``V``, each column
        complemented when more than half of ``V`` has a 1 there, rows in an
        order that depends on the rows alone (:func:`._counts_impl.shape_words`).  Two version spaces of one shape
        are the same class up to renaming columns and swapping the labels of
        some columns, which maps shattered trees to shattered trees: their
        dimensions are equal.  ``live`` must hold every column not constant
        on ``V`` up to duplicates (the engine's live lists do).  None when the
        compiled loops are not loaded or ``V`` is bigger.
        """
        kernels = compiled_kernels()
        if kernels is None:
            return None
        v = self._words_of(V)
        out = kernels.shape_words(self.words, np.asarray(live, dtype=np.int64), v, tunables.SHAPE_MAX_ROWS)
        return out.tobytes() if len(out) else None

    def balance_upper(self, V: int, live: Sequence[int], n: int | None = None) -> int | None:
        """``min(size bound, balance bound)`` of ``V`` (:func:`.splits.balance_bound` of the largest smaller side
        of a split by a column of ``live``), counted in one compiled pass without building candidates; None when
        the compiled loops are not loaded.  The count stops once the balance bound reaches the size bound
        ``floor(log2 |V|)`` (the minimum is then the size bound).  ``n``: ``|V|`` when the caller knows it.  Rule 9's look (:meth:`.turns.Turns._refuted_at_a_look`)."""
        kernels = compiled_kernels()
        if kernels is None or isinstance(live, list):
            return None
        if n is None:
            n = V.bit_count()
        size = n.bit_length() - 1
        enough = 1 << (size - 1) if size >= 1 else 1
        best = int(kernels.best_balance(self.words, live, self._words_of(V), n, enough))
        return min(size, balance_bound(best))

    def splits(self, V: int, live: Sequence[int]) -> tuple[list[int], list[RawSplit]]:
        if len(live) >= tunables.VECTOR_MIN_LIVE and self.n_words <= tunables.VECTOR_MAX_WORDS:
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
            self._words = words_of_ints(self.ones, self.n_words)
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
        if len(live) * self.n_words <= tunables.PYTHON_MAX_WORK and not compiled_loaded():
            new, splits = self.splits(V, live.tolist() if isinstance(live, np.ndarray) else live)
            return candidates_of_splits(new, splits, t)
        if self.deadline is not None:
            self.deadline.check()
        idx = np.asarray(live, dtype=np.int64)
        v = self._words_of(V)
        n = self.recent.size(V) if self.recent is not None else V.bit_count()
        column_work = len(idx) * int(np.count_nonzero(v))
        load_kernels(column_work, self.deadline.remaining() if self.deadline is not None else None)
        by_rows = (n * self.mean_ones * 2 < column_work) if tunables.COUNT_BY is None else tunables.COUNT_BY == "rows"
        kernels = compiled_kernels()
        if kernels is not None:  # the whole node in one compiled call (same integers as below)
            indptr, indices = self.rows if by_rows else _NO_ROWS
            new_live, columns, ones_counts, balances, best = kernels.node_candidates(
                self.words, idx, v, n, 1 << (t - 1), indptr, indices, by_rows
            )
            cand = ColumnCandidates(V, n, columns.tolist(), ones_counts.tolist(), balances.tolist(), self.ones)
            if self.recent is not None:
                cand.words, cand.recent = (v, self.words), self.recent
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

        Columns are taken in chunks of :data:`tunables.SPLIT_CHUNK` with the deadline
        read between them; a split met in an earlier chunk is not repeated.
        """
        if self._words is None:
            self._words = words_of_ints(self.ones, self.n_words)
        v = words_of_ints([V], self.n_words)[0]
        all_idx = np.asarray(live, dtype=np.int64)
        chunked = len(all_idx) > tunables.SPLIT_CHUNK
        seen: set[int] = set()
        cols: list[int] = []
        out: list[RawSplit] = []
        for s in range(0, len(all_idx), tunables.SPLIT_CHUNK):
            if self.deadline is not None:
                self.deadline.check()
            idx = all_idx[s : s + tunables.SPLIT_CHUNK]
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
            first = first_unique_rows(key)
            firsts = idx[first].tolist()
            if not chunked:
                return firsts, [(V ^ ai, ai, c) for ai, c in zip(words_to_ints(a[first]), firsts)]
            for k, ai, c in zip(words_to_ints(key[first]), words_to_ints(a[first]), firsts):
                if k not in seen:
                    seen.add(k)
                    cols.append(c)
                    out.append((V ^ ai, ai, c))
        return cols, out
