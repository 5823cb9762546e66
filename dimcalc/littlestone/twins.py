"""Rule 8: a lower bound proven for one version space holds for every version space of its shape (its *twins*).

Two version spaces ``V``, ``R`` of one shape (:meth:`.column_splitter.ColumnSplitter.shape`, rule 7) are the
same class up to renaming the columns (the ``k``-th column of ``R``'s live list not constant on ``R``
becomes the ``k``-th of ``V``'s) and swapping the two labels of some columns (those complemented in one
and not the other).  That map sends a shattered mistake tree of ``R`` to one of ``V`` of the same depth,
so ``D(V) = D(R)``.  Rule 7 shares only refutations; this module shares successes: a node whose twin
``R`` was proven to reach depth ``d`` is proven to reach ``d`` without expanding it, and its witness
subtree is ``R``'s tree mapped column by column (:func:`twin_tree`), built by splitting ``V`` itself
with the mapped columns (every node of it is checked non-empty while it is built, and the whole tree
is certified by the independent checker as any witness is).

References
----------
Littlestone (1987) (mistake trees); the isomorphism argument is that of rule 7 (docs/littlestone.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .counts import column_counts, words_of_int

__all__ = ["kept_columns", "shape_key", "column_tree", "twin_tree"]


def shape_key(shape: bytes) -> tuple[int, int]:
    """The key of a shape in the twins' memo: its length and Python's hash (already computed by the shape memo of
    rule 7, whose lookup hashes the same bytes), not the bytes, which are up to ``rows x words`` words.

    A collision could only claim a lower bound whose witness then fails to build (:func:`twin_tree` checks
    every node) or to certify; it never changes an upper bound (those come from refutations, rule 7,
    keyed by the whole shape).
    """
    return len(shape), hash(shape)


def kept_columns(words: np.ndarray, V: int, live: Sequence[int], n_words: int) -> list[int]:
    """The columns of ``live`` not constant on ``V``, in ``live``'s order (the shape's columns).

    Examples
    --------
    >>> import numpy as np
    >>> words = np.array([[0b0011], [0b1111], [0b0101]], dtype=np.uint64)
    >>> kept_columns(words, 0b0111, [2, 1, 0], 1)
    [2, 0]
    """
    idx = np.asarray(live, dtype=np.int64)
    ones = column_counts(words, idx, words_of_int(V, n_words))
    n = V.bit_count()
    return idx[(ones > 0) & (ones < n)].tolist()


def column_tree(writer: Any, V: int, t: int) -> tuple | None:
    """The tree of depth ``t`` that ``writer``'s memo records for ``V``, as nested ``(column, T0, T1)``
    (None for a leaf): memo splits, depth-1 nodes by :meth:`pair_split`, twins mapped (:func:`_mapped`)."""
    if t <= 0:
        return None
    cache = writer.twin_cache  # (V, t) -> tree, for the duration of one witness (a rep serves many twins)
    tree = cache.get((V, t))
    if tree is not None:
        return tree
    rep = writer.twins.get(writer.memo.key(V))
    if rep is not None:
        tree = _mapped(writer, V, writer.memo.version_space(rep), t)
    else:
        e = writer.memo.get(V)
        split = e.split if e is not None else None
        if split is None:
            assert t == 1, "a node of depth >= 2 has a split or a twin"
            split = writer.splitter.pair_split(V)
        elif split.V1 < 0:  # kept without its children
            split = writer.children(V, split.desc)
        tree = (split.desc, column_tree(writer, split.V0, t - 1), column_tree(writer, split.V1, t - 1))
    cache[(V, t)] = tree
    return tree


def _mapped(writer: Any, V: int, rep: int, t: int) -> tuple | None:
    """``rep``'s tree of depth ``t`` with each column renamed to ``V``'s and the children swapped where the
    column's two labels are (its side of more than half of the hypotheses is complemented in one and not the
    other, as the shape does).

    The shape's columns of a node are those of its live list not constant on it, in order; the engine's
    live lists (the word path, the only one that computes shapes) hold every column not constant on the
    node, in the splitter's order, so they are recomputed here from all the splitter's columns.
    """
    splitter = writer.splitter
    ones, n = splitter.ones, V.bit_count()
    rep_kept = kept_columns(splitter.words, rep, splitter.columns, splitter.n_words)
    kept = kept_columns(splitter.words, V, splitter.columns, splitter.n_words)
    assert len(kept) == len(rep_kept), "twins have the same number of columns not constant on them"
    position = {c: k for k, c in enumerate(rep_kept)}
    placed: dict[int, tuple[int, bool]] = {}

    def place(c: int) -> tuple[int, bool]:
        """``V``'s column for the rep's column ``c``, and whether the children swap."""
        got = placed.get(c)
        if got is None:
            got = placed[c] = _place(c)
        return got

    def _place(c: int) -> tuple[int, bool]:
        # Every column of the rep's tree splits a non-empty part of the rep into two non-empty parts, so it is
        # not constant on the rep: it is one of ``rep_kept`` (all the splitter's columns not constant on the
        # rep, duplicates on the rep included, as the word path's live lists keep them: rule 4).  There is no
        # other case (tests/test_littlestone_shapes.py::test_every_column_of_a_twins_tree_is_a_column_of_its_shape).
        k = position.get(c)
        assert k is not None, "a column of the rep's tree is not constant on the rep"
        c2 = kept[k]
        flip_rep = 2 * (rep & ones[c]).bit_count() > n
        flip_v = 2 * (V & ones[c2]).bit_count() > n
        return c2, flip_rep != flip_v

    def walk(T: tuple | None) -> tuple | None:
        if T is None:
            return None
        c, T0, T1 = T
        c2, swap = place(c)
        return (c2, walk(T1), walk(T0)) if swap else (c2, walk(T0), walk(T1))

    return walk(column_tree(writer, rep, t))


def twin_tree(writer: Any, V: int, t: int) -> dict:
    """The witness subtree of depth ``t`` of a node proven by its twin: the mapped column tree, its nodes'
    version spaces split on ``V``'s own columns (each checked non-empty), leaves the lowest hypothesis."""
    ones = writer.splitter.ones
    if writer._write_deadline is not None:  # one twin's subtree is at most 2^12 nodes (SHAPE_MAX_ROWS rows)
        writer._write_deadline.check()

    def build(W: int, T: tuple | None) -> dict:
        if T is None:
            return {"hypothesis": writer.H.row_of((W & -W).bit_length() - 1)}
        c, T0, T1 = T
        W1 = W & ones[c]
        W0 = W ^ W1
        assert W0 and W1, "a twin's tree maps to a shattered tree"
        return writer.splitter.node(c, build(W0, T0), build(W1, T1))

    return build(V, column_tree(writer, V, t))
