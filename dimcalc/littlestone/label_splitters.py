"""Splits by the label classes of a point: MLD / Ψ^N pairs, Ψ^B bipartitions, user maps.

The general split loop of the non-binary families, over Python-int masks
(numpy words when many points are live, :data:`.splits.VECTOR_MIN_LIVE`):
each splitter turns the label classes ``V & M[x][l]`` of a point into splits
(reductions 1-4 of :mod:`dimcalc.littlestone`, proved at each class).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..classes.hypothesis_class import HypothesisClass
from ..psi import MapSequence
from ..search.budget import Deadline, SearchStopped
from . import splits as tunables  # read at call time: tests and benchmarks set them
from .splits import (
    NodeSplits,
    RawSplit,
    Split,
    SplitListCandidates,
    candidates_of_splits,
    first_unique_rows,
    ints_in_steps,
    words_of_ints,
    words_to_ints,
)

__all__ = ["PairSplitter", "BipartitionSplitter", "MapSplitter"]


class _LabelClassSplitter(SplitListCandidates):
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
        per_label = [ints_in_steps(self._words[lab], deadline) for lab in range(self.num_labels)]
        self.masks: list[tuple[int, ...]] = []
        for s in range(0, len(self.points), tunables.SPLIT_CHUNK):
            if deadline is not None:
                deadline.check()
            self.masks.extend(zip(*(masks[s : s + tunables.SPLIT_CHUNK] for masks in per_label)))

    def _classes_numpy(self, V: int, live: Sequence[int]) -> tuple[list[int], list[tuple[int, list[tuple[int, int]]]]]:
        """The same as the loop in :meth:`classes` (same points, same order), over numpy words.

        Points are taken in chunks of :data:`tunables.SPLIT_CHUNK` with the deadline read
        between them; a labelled partition met in an earlier chunk is not repeated.
        """
        assert self._words is not None
        v = words_of_ints([V], self.n_words)[0]
        all_idx = np.asarray(live, dtype=np.int64)
        chunked = len(all_idx) > tunables.SPLIT_CHUNK
        seen: set[bytes] = set()
        cols: list[int] = []
        out: list[tuple[int, list[tuple[int, int]]]] = []
        for s in range(0, len(all_idx), tunables.SPLIT_CHUNK):
            if self.deadline is not None:
                self.deadline.check()
            idx = all_idx[s : s + tunables.SPLIT_CHUNK]
            cls = self._words[:, idx] & v  # (labels, n, words)
            present = cls.any(axis=2)  # (labels, n)
            keep = present.sum(axis=0) >= 2
            idx, cls, present = idx[keep], cls[:, keep], present[:, keep]
            if len(idx) == 0:
                continue
            rows = np.ascontiguousarray(cls.transpose(1, 0, 2).reshape(len(idx), -1))
            first = first_unique_rows(rows)
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
            ints = {lab: words_to_ints(cls[lab, first]) for lab in labs}
            out.extend((c, [(lab, ints[lab][i]) for lab in labs if ints[lab][i]]) for i, c in enumerate(firsts))
            cols.extend(firsts)
        return cols, out

    def classes(self, V: int, live: Sequence[int]) -> tuple[list[int], list[tuple[int, list[tuple[int, int]]]]]:
        """Return (new live points, [(x, [(label, class mask), ...]), ...]) for the useful points."""
        if len(live) >= tunables.VECTOR_MIN_LIVE and self.num_labels * self.n_words <= tunables.VECTOR_MAX_WORDS:
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

    def pair_split(self, V: int) -> Split:
        """A split of ``V`` (``|V| >= 2``) apart its two lowest hypotheses, at the first point where their labels
        differ (no enumeration and no deadline: it builds witness nodes, also after a stop)."""
        h1 = (V & -V).bit_length() - 1
        rest = V & (V - 1)
        b1, b2 = 1 << h1, rest & -rest
        for x in self.columns:
            mx = self.masks[x]
            l1 = next(lab for lab, m in enumerate(mx) if m & b1)
            l2 = next(lab for lab, m in enumerate(mx) if m & b2)
            if l1 != l2:
                return self.split_apart(V, x, l1, l2)
        raise ValueError("pair_split: the two hypotheses agree on every point")  # pragma: no cover - distinct rows

    def split_apart(self, V: int, x: int, l1: int, l2: int) -> Split:
        """A split of ``V`` at point ``x`` sending labels ``l1`` and ``l2`` to different sides."""
        raise NotImplementedError


class PairSplitter(_LabelClassSplitter):
    """MLD / Ψ^N splits: a pair of labels ``a != b`` present at ``x``; ``V0 = V_a``, ``V1 = V_b``.

    A pair with a label absent at ``x`` has an empty child (reduction 1), so
    only pairs of present labels are generated, each unordered pair once
    (``φ_{a,b}`` and ``φ_{b,a}`` are mirrors, reduction 2).
    """

    def split_apart(self, V: int, x: int, l1: int, l2: int) -> Split:
        a, b = min(l1, l2), max(l1, l2)
        return Split((x, a, b), V & self.masks[x][a], V & self.masks[x][b])

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

    def split_apart(self, V: int, x: int, l1: int, l2: int) -> Split:
        present = tuple(lab for lab, m in enumerate(self.masks[x]) if V & m)
        one = l2 if l2 != present[0] else l1  # alone on side 1; every other present label on side 0
        subset = 1 << (present.index(one) - 1)
        V1 = V & self.masks[x][one]
        return Split((x, subset, present), V ^ V1, V1)

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

    #: A user family's maps may send two labels to the same side (or to ``*``): no depth-1 rule by size.
    separates = False

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
