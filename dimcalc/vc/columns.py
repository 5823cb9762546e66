"""Virtual columns of the VC-type searches, as bitsets over the distinct hypotheses.

VC, Natarajan and graph dimension are all shattering of *virtual columns*
(BGS §1.2; Ben-David, Cesa-Bianchi, Haussler, Long 1995; see
:mod:`dimcalc.vc.search`): a column has a side 1 and a side 0, each a set of
hypotheses stored as the bits of ``uint64`` words; hypotheses on neither side
(Natarajan pairs) are *dead* for the column.  This module builds them from a
class's reduced columns (only those both of whose sides are large enough for
the target), and restricts them to the hypotheses alive below a search node.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..classes.bitsets import pack_columns  # written once, with the class storage
from ..classes.hypothesis_class import HypothesisClass
from ..search.budget import Deadline, SearchStopped

__all__ = ["STEP_WORDS", "Columns", "compact", "label_counts", "pack_columns", "pack_rows", "virtual_columns"]

#: uint64 words handled per vectorised step (32 MiB per temporary).
STEP_WORDS = 1 << 22
#: Nodes over fewer words are batched with their siblings rather than compacted (Natarajan).
COMPACT_MIN_WORDS = 8


def pack_rows(bits: np.ndarray) -> np.ndarray:
    """Pack a boolean matrix ``(k, m)`` into ``(k, ceil(m / 64))`` little-endian ``uint64`` words.

    >>> pack_rows(np.array([[True, False, True]])).tolist()
    [[5]]
    """
    k, m = bits.shape
    words = max(1, (m + 63) // 64)
    packed = np.packbits(bits, axis=1, bitorder="little")
    out = np.zeros((k, words * 8), dtype=np.uint8)
    out[:, : packed.shape[1]] = packed
    return out.view("<u8").astype(np.uint64, copy=False)


@dataclass
class Columns:
    """Virtual columns, sorted by the rank of their point (reduced column index)."""

    rank: np.ndarray  # (V,) reduced column index of the point
    point: np.ndarray  # (V,) original point index
    one: np.ndarray  # (V,) label on side 1
    zero: np.ndarray  # (V,) label on side 0, or -1 for "every other label"
    ones: np.ndarray  # (V, W) side-1 bits
    zeros: np.ndarray  # (V, W) side-0 bits
    partial: bool  # some column has dead hypotheses
    ids: np.ndarray  # (V,) index of the column in the search's full column list
    # Natarajan pairs share their sides: side 1 of (x, {a, b}) is the indicator [h(x) = b], also side 1 or 0 of
    # every other pair on x with b.  With dead hypotheses the sides are counted once per indicator.
    ind: np.ndarray | None = None  # (I, W) bits of the distinct indicators [h(x) = l]
    one_ind: np.ndarray | None = None  # (V,) row of `ind` that is side 1
    zero_ind: np.ndarray | None = None  # (V,) row of `ind` that is side 0


def indicators(cols: Columns, num_labels: int) -> Columns:
    """``cols`` with its distinct side indicators (Natarajan pairs only: every side is ``[h(x) = l]``)."""
    keys = np.concatenate([cols.rank * num_labels + cols.one, cols.rank * num_labels + cols.zero])
    uniq, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    v = len(cols.rank)
    sides = np.concatenate([cols.ones, cols.zeros])
    cols.ind = sides[first]
    cols.one_ind, cols.zero_ind = inverse[:v], inverse[v:]
    return cols


def label_counts(sub: np.ndarray, num_labels: int, deadline: Deadline) -> np.ndarray:
    """``counts[c, l]``: hypotheses giving label ``l`` to reduced column ``c`` (chunked over columns)."""
    m, k = sub.shape
    counts = np.zeros((k, num_labels), dtype=np.int64)
    step = max(1, (1 << 22) // max(m, 1))
    for s in range(0, k, step):
        deadline.check()
        part = sub[:, s : s + step]
        if num_labels <= 2:
            ones = np.count_nonzero(part, axis=0)
            counts[s : s + step, 1 if num_labels == 2 else 0] = ones
            counts[s : s + step, 0] += m - ones if num_labels == 2 else 0
        else:
            keys = np.arange(part.shape[1], dtype=np.int64)[None, :] * num_labels + part.astype(np.int64)
            counts[s : s + step] = np.bincount(keys.reshape(-1), minlength=part.shape[1] * num_labels).reshape(
                part.shape[1], num_labels
            )
    return counts


def virtual_columns(
    H: HypothesisClass,
    kind: str,
    need: int,
    points: np.ndarray,
    sub: np.ndarray | None,
    counts: np.ndarray,
    deadline: Deadline,
    top: int | None = None,
) -> Columns:
    """The virtual columns both of whose sides have at least ``need`` hypotheses.

    With ``top``, Natarajan pairs are formed among each column's ``top`` most
    frequent labels only (a subset of the columns: fine for a lower bound).
    ``sub`` is the dense table of the columns ``points``, or ``None`` for a
    class stored one bit per cell (its words are read with
    :meth:`HypothesisClass.point_label_words`).
    """
    m, k = H.n_distinct, len(points)
    present = counts > 0
    n_present = present.sum(axis=1)
    rank: list[np.ndarray] = []
    one: list[np.ndarray] = []
    zero: list[np.ndarray] = []
    if kind == "vc" or kind == "graph":
        big = (counts >= need) & (m - counts >= need) & present
        # Two labels present: both indicators shatter the same sets; keep the larger label's only.
        two = n_present == 2
        if two.any():
            last = H.num_labels - 1 - np.argmax(present[:, ::-1], axis=1)
            keep_only = np.zeros_like(big)
            keep_only[np.arange(k), last] = True
            big = np.where(two[:, None], big & keep_only, big)
        if kind == "vc":
            big[:, 0] = False
        c, lab = np.nonzero(big)
        rank.append(c)
        one.append(lab)
        zero.append(np.full(len(c), -1))
    else:
        frequent = counts >= need
        if top is not None:  # only the `top` most frequent labels of each column (enough for a greedy bound)
            kth = -np.sort(-counts, axis=1)[:, min(top, counts.shape[1]) - 1]
            frequent &= counts >= kth[:, None]
        n_frequent = frequent.sum(axis=1)
        # Columns with exactly two frequent labels (every column of a binary class): one pair each, at once.
        two = np.flatnonzero(n_frequent == 2)
        labs2 = np.nonzero(frequent[two])[1].reshape(-1, 2)  # row-major: each column's two labels, ascending
        rank.append(two)
        zero.append(labs2[:, 0])
        one.append(labs2[:, 1])
        for col in np.flatnonzero(n_frequent >= 3):
            labs = np.flatnonzero(frequent[col])
            a, b = np.triu_indices(len(labs), 1)
            rank.append(np.full(len(a), col))
            zero.append(labs[a])
            one.append(labs[b])
            if len(rank) % 64 == 0:
                deadline.check()
    r = np.concatenate(rank).astype(np.int64) if rank else np.zeros(0, np.int64)
    o = np.concatenate(one).astype(np.int64) if one else np.zeros(0, np.int64)
    z = np.concatenate(zero).astype(np.int64) if zero else np.zeros(0, np.int64)
    order = np.argsort(r, kind="stable")
    r, o, z = r[order], o[order], z[order]
    n_words = max(1, (m + 63) // 64)
    if not deadline.fits(2 * len(r) * n_words * 8):  # both sides of every column: stop with bounds, no MemoryError
        raise SearchStopped("memory")
    ones = np.zeros((len(r), n_words), dtype=np.uint64)
    zeros = np.zeros((len(r), n_words), dtype=np.uint64)
    full = pack_rows(np.ones((1, m), dtype=bool))[0]
    step = max(1, (1 << 22) // max(m, 1))
    partial = False
    for s in range(0, len(r), step):
        deadline.check()
        rr = r[s : s + step]
        zz = z[s : s + step]
        pair = zz >= 0
        if sub is None:  # bit storage: the label words of these points, straight from the storage
            words = H.point_label_words(points[rr], deadline)
            at = np.arange(len(rr))
            ones[s : s + step] = words[o[s : s + step], at]
            zeros[s : s + step] = np.where(
                pair[:, None], words[np.maximum(zz, 0), at], full[None, :] & ~ones[s : s + step]
            )
            partial = partial or bool((n_present[rr][pair] > 2).any())
            continue
        # (m, chunk), packed along the hypotheses axis; a slice (no gather) when the columns are consecutive.
        consecutive = bool(np.all(np.diff(rr) == 1))
        cols = sub[:, rr[0] : rr[-1] + 1] if consecutive else sub[:, rr]
        ones[s : s + step] = pack_columns(cols == o[s : s + step][None, :], n_words)
        zeros[s : s + step] = full[None, :] & ~ones[s : s + step]
        if pair.any():
            partial = partial or bool((n_present[r[s : s + step]][pair] > 2).any())
            zeros[s : s + step][pair] = pack_columns(cols[:, pair] == zz[pair][None, :], n_words)
    found = Columns(r, points[r], o, z, ones, zeros, partial, np.arange(len(r)))
    return indicators(found, H.num_labels) if kind == "natarajan" and partial and len(r) else found


def compact(cols: Columns, cells: np.ndarray, cand: np.ndarray) -> tuple[Columns, np.ndarray, np.ndarray] | None:
    """The columns ``cand`` and the cells restricted to the alive hypotheses, when that saves words."""
    if cells.shape[1] < COMPACT_MIN_WORDS:  # too few words to save: batch the node instead
        return None
    alive = np.bitwise_or.reduce(cells, axis=0)
    n_alive = int(np.bitwise_count(alive).sum())
    if (n_alive + 63) // 64 * 2 > cells.shape[1]:
        return None
    keep = np.flatnonzero(np.unpackbits(alive.view(np.uint8), bitorder="little"))

    def sub(words: np.ndarray) -> np.ndarray:
        return pack_rows(np.unpackbits(words.view(np.uint8), axis=1, bitorder="little")[:, keep].astype(bool))

    new = Columns(
        cols.rank[cand],
        cols.point[cand],
        cols.one[cand],
        cols.zero[cand],
        sub(cols.ones[cand]),
        sub(cols.zeros[cand]),
        True,
        cols.ids[cand],
    )
    if cols.ind is not None and cols.one_ind is not None and cols.zero_ind is not None:
        used, back = np.unique(np.concatenate([cols.one_ind[cand], cols.zero_ind[cand]]), return_inverse=True)
        new.ind, new.one_ind, new.zero_ind = sub(cols.ind[used]), back[: len(cand)], back[len(cand) :]
    return new, sub(cells), np.arange(len(cand))
