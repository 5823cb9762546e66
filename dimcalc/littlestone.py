"""Littlestone-type dimensions, computed exactly, with shattered trees as witnesses.

Dimensions
----------
* :func:`littlestone_dimension` -- LDim of a binary class: the depth of the
  deepest complete mistake tree every root-to-leaf path of which is realised
  by one hypothesis (Littlestone 1987; FX §2.5).
* :func:`multiclass_littlestone_dimension` -- MLD, the same with io-labelled
  trees whose two edges carry two different labels (BGS Defs 2.10-2.13).
* :func:`psi_littlestone_dimension` -- Ψ-Littlestone dimension for a family of
  collapsing maps ``φ: [k] -> {0, 1, *}`` (BGS Defs 4.1-4.4), and its uniform
  variant (all nodes at one depth carry the same map); families Ψ^N, Ψ^bin,
  Ψ^B of BGS §4.2 or a user family.
* :func:`binary_restriction_littlestone` -- LDim of every binary restriction
  ``H|_i`` (BGS §3, Claim 4.6).
* :func:`littlestone_dimension_of`, :func:`multiclass_littlestone_dimension_of`
  -- the exact value for a version space given as a bitset (used by SOA).

Depth counts internal levels: a single leaf has depth 0.

One engine
----------
Every dimension here is ``D(V) = max over splits (V0, V1) of 1 + min(D(V0), D(V1))``
with ``D(V) = 0`` for a non-empty ``V`` without a useful split, where a *split*
of the version space ``V`` (a bitset over distinct hypotheses) is a point ``x``
and a map ``φ`` with ``Vb = {h in V : φ(h(x)) = b}``.  Binary LDim uses
``φ = identity``, MLD a pair of labels (Ψ^N, BGS Lemma 4.5), Ψ^bin the bits of
the label, Ψ^B all maps.  The recursion is correct because a complete tree of
depth ``d`` for ``V`` is exactly a root split whose two subtrees are trees of
depth ``d - 1`` for ``V0`` and ``V1``; the leaf under a path is any hypothesis
of the path's version space, so every path is realised by ONE hypothesis.

Reductions (each keeps the value; proofs in the comments at the splitters):

1. Only splits with both children non-empty matter (an empty child has no
   hypothesis to realise a path through it, so such a split only gives depth 0).
2. The value of a split depends only on the unordered pair ``{V0, V1}``
   (``1 + min`` is symmetric), so mirror maps and points that induce the same
   split of ``V`` are evaluated once (*canonicalisation* by the child masks).
3. Points constant on ``V`` (one label present) give no split of any subset of
   ``V`` and are dropped for the whole subtree; points whose label classes on
   ``V`` coincide with another point's stay duplicates on every subset and are
   dropped too (the *live* list passed down the recursion).
4. Monotonicity: ``V ⊆ W`` implies ``D(V) <= D(W)`` (a tree shattered by ``V``
   is shattered by ``W``).  Hence for Ψ^B a map may send every label present at
   ``x`` to 0 or 1 (replacing ``*`` by 0 only enlarges ``V0``): the splits are
   the bipartitions of the present labels.  For MLD only pairs of present labels
   give two non-empty children.
5. Size: a tree of depth ``t`` has ``2**t`` leaves realised by pairwise
   different hypotheses (two leaves part at a node where they fall into
   disjoint children), so ``D(V) <= floor(log2 |V|)``, and a split can give
   ``D(V) >= t`` only if both children have at least ``2**(t-1)`` hypotheses.

Search
------
``at_least(V, t)`` decides ``D(V) >= t`` by depth-first search over the
canonical splits that pass the size test, most balanced first, the smaller
child first (it is the likelier to fail, and cheaper).  A memo keyed by the
version-space bitset stores proven ``(lower, upper)`` bounds and the split that
proves ``lower``; it answers repeated sub-questions and makes the witness tree
a walk over the memo.  The value is found by iterative deepening
``t = 1, 2, ...`` until a query fails (or ``t`` reaches the size bound).
Under a ``time_limit`` the search stops and reports ``lower`` (certified by a
tree built from the memo) and ``upper`` (the proven bound of the root).

When the recursion is weak -- a failing query ``D(V) >= t`` that needs many
nodes -- :mod:`dimcalc.sat` is tried on it with a conflict budget, alternating
with the recursion under doubling budgets: UNSAT proves the upper bound, a
model is decoded into a tree (see :mod:`dimcalc.sat` for the encoding).

The uniform variant (one map per level, BGS Def 4.1) is a search over map
sequences: a prefix ``(φ_0, ..., φ_{j-1})`` is kept only if a tree whose first
``j`` levels use these maps and whose remaining levels are free exists (a
relaxation decided with the non-uniform engine), and a full sequence only if
the uniform tree exists.  Mirror maps are merged (swapping the children at
every node of one level keeps a uniform tree uniform), and for Ψ^B only total
maps (no ``*``) are needed, by the monotonicity argument above applied to a
whole level.

References
----------
.. [L87] N. Littlestone. Learning quickly when irrelevant attributes abound.
   Machine Learning 2 (1987).
.. [FX] V. Feldman, D. Xiao. Sample Complexity Bounds on Differentially
   Private Learning via Communication Complexity. COLT 2014, §2.5.
.. [BGS] M. Bun, M. Gaboardi, S. Sivakumar. Multiclass versus Binary
   Differentially Private PAC Learning. NeurIPS 2021, Defs 2.10-2.13,
   Defs 4.1-4.4, §4.2 (Lemma 4.5, Claims 4.6-4.7).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np

from ._budget import Deadline, Progress, SearchStopped, check_time_limit
from .errors import parameter_error
from .hypothesis_class import HypothesisClass, label_bits, words_to_ints
from .psi import psi_family
from .results import DimensionResult
from .witnesses import PsiTree

__all__ = [
    "littlestone_dimension",
    "multiclass_littlestone_dimension",
    "psi_littlestone_dimension",
    "binary_restriction_littlestone",
    "littlestone_dimension_of",
    "multiclass_littlestone_dimension_of",
]

Split = tuple  # (V0, V1, description)


#: Raised inside the search when the time/memory limit (or a node budget) is spent.
_Stop = SearchStopped


# ---------------------------------------------------------------------------- splitters
# A splitter turns a version space V (bitset) and the list of live columns into
# (new_live, splits) with splits = [(V0, V1, desc), ...], both children
# non-empty, one entry per unordered child pair {V0, V1}; and turns a
# description plus the two subtrees into a tree node of spec §3.


#: Live columns from which a node's splits are computed with numpy words instead of a Python loop.
_VECTOR_MIN_LIVE = 512
#: Largest number of 64-bit words per column (labels x hypotheses / 64) for the numpy path.
_VECTOR_MAX_WORDS = 64


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


class _ColumnSplitter:
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

    def splits(self, V: int, live: Sequence[int]) -> tuple[list[int], list[Split]]:
        if len(live) >= _VECTOR_MIN_LIVE and self.n_words <= _VECTOR_MAX_WORDS:
            return self._splits_numpy(V, live)
        ones = self.ones
        seen: set[int] = set()
        new_live: list[int] = []
        out: list[Split] = []
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

    def _splits_numpy(self, V: int, live: Sequence[int]) -> tuple[list[int], list[Split]]:
        """The same as the loop in :meth:`splits` (same splits, same order), over numpy words."""
        if self._words is None:
            self._words = _words_of(self.ones, self.n_words)
        v = _words_of([V], self.n_words)[0]
        idx = np.asarray(live, dtype=np.int64)
        a = self._words[idx] & v
        keep = a.any(axis=1) & ~(a == v).all(axis=1)
        idx, a = idx[keep], a[keep]
        if len(idx) == 0:
            return [], []
        b = v & ~a
        # The unordered pair {a, b} by its smaller member (as integers: compare the highest differing word).
        diff = a != b
        top = self.n_words - 1 - np.argmax(diff[:, ::-1], axis=1)
        rows = np.arange(len(idx))
        key = np.where((a[rows, top] < b[rows, top])[:, None], a, b)
        first = _first_unique_rows(key)
        cols = idx[first].tolist()
        return cols, [(V ^ ai, ai, c) for ai, c in zip(_ints_of(a[first]), cols)]


class _LabelClassSplitter:
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
        # Columns are indices into ``points`` (original point indices; default: every point).
        self.points = list(range(H.n_points)) if points is None else [int(p) for p in points]
        self.num_labels = H.num_labels
        self.columns = list(range(len(self.points)))
        self.n_words = max(1, (H.n_distinct + 63) // 64)
        # (labels, columns, words); the Python-int masks are derived from them.
        self._words: np.ndarray | None = H.point_label_words(self.points, deadline)
        per_label = [words_to_ints(self._words[lab]) for lab in range(self.num_labels)]
        self.masks = list(zip(*per_label)) if self.points else []

    def _classes_numpy(self, V: int, live: Sequence[int]) -> tuple[list[int], list[tuple[int, list[tuple[int, int]]]]]:
        """The same as the loop in :meth:`classes` (same points, same order), over numpy words."""
        assert self._words is not None
        v = _words_of([V], self.n_words)[0]
        idx = np.asarray(live, dtype=np.int64)
        cls = self._words[:, idx] & v  # (labels, n, words)
        present = cls.any(axis=2)  # (labels, n)
        keep = present.sum(axis=0) >= 2
        idx, cls, present = idx[keep], cls[:, keep], present[:, keep]
        if len(idx) == 0:
            return [], []
        first = _first_unique_rows(cls.transpose(1, 0, 2).reshape(len(idx), -1))
        cols = idx[first].tolist()
        labs = [lab for lab in range(self.num_labels) if present[lab, first].any()]
        ints = {lab: _ints_of(cls[lab, first]) for lab in labs}
        out = [(c, [(lab, ints[lab][i]) for lab in labs if ints[lab][i]]) for i, c in enumerate(cols)]
        return cols, out

    def classes(self, V: int, live: Sequence[int]) -> tuple[list[int], list[tuple[int, list[tuple[int, int]]]]]:
        """Return (new live points, [(x, [(label, class mask), ...]), ...]) for the useful points."""
        if len(live) >= _VECTOR_MIN_LIVE and self.num_labels * self.n_words <= _VECTOR_MAX_WORDS:
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


class _PairSplitter(_LabelClassSplitter):
    """MLD / Ψ^N splits: a pair of labels ``a != b`` present at ``x``; ``V0 = V_a``, ``V1 = V_b``.

    A pair with a label absent at ``x`` has an empty child (reduction 1), so
    only pairs of present labels are generated, each unordered pair once
    (``φ_{a,b}`` and ``φ_{b,a}`` are mirrors, reduction 2).
    """

    def splits(self, V: int, live: Sequence[int]) -> tuple[list[int], list[Split]]:
        seen: set[tuple[int, int]] = set()
        out: list[Split] = []
        new_live, classes = self.classes(V, live)
        for x, cls in classes:
            for (la, ca), (lb, cb) in itertools.combinations(cls, 2):
                key = (ca, cb) if ca < cb else (cb, ca)
                if key in seen:
                    continue
                seen.add(key)
                out.append((ca, cb, (x, la, lb)))
        return new_live, out


class _BipartitionSplitter(_LabelClassSplitter):
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

    def splits(self, V: int, live: Sequence[int]) -> tuple[list[int], list[Split]]:
        seen: set[int] = set()
        out: list[Split] = []
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
                    raise _Stop
                b = V ^ a
                key = a if a < b else b
                if key in seen:
                    continue
                seen.add(key)
                out.append((b, a, (x, k ^ (k >> 1), present)))
        return new_live, out


class _MapSplitter(_LabelClassSplitter):
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
        from .psi import MapSequence

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

    def splits(self, V: int, live: Sequence[int]) -> tuple[list[int], list[Split]]:
        seen: set[tuple[int, int]] = set()
        out: list[Split] = []
        new_live, classes = self.classes(V, live)
        for x, _ in classes:
            for j in range(self.n_maps):
                zero, one = self._masks(j)
                a = V & zero[x]
                if not a:
                    continue
                b = V & one[x]
                if not b:
                    continue
                key = (a, b) if a < b else (b, a)
                if key in seen:
                    continue
                seen.add(key)
                out.append((a, b, (x, j)))
        return new_live, out

    def map_splits(self, V: int, live: Sequence[int], j: int) -> list[Split]:
        """Splits by map ``j`` only (for the uniform search); live is already filtered."""
        seen: set[tuple[int, int]] = set()
        out: list[Split] = []
        zero, one = self._masks(j)
        for x in live:
            a = V & zero[x]
            if not a:
                continue
            b = V & one[x]
            if not b:
                continue
            key = (a, b) if a < b else (b, a)
            if key in seen:
                continue
            seen.add(key)
            out.append((a, b, (x, j)))
        return out


def _map_count(maps: Any) -> int:
    """Number of maps of a list or of a lazy :class:`dimcalc.psi.MapSequence` (whose ``len`` may overflow)."""
    from .psi import MapSequence

    return maps.size if isinstance(maps, MapSequence) else len(maps)


def _union(masks: Sequence[int], labels: Iterable[int]) -> int:
    out = 0
    for lab in labels:
        if lab < len(masks):
            out |= masks[lab]
    return out


# ---------------------------------------------------------------------------- the engine


class _Engine:
    """Decision search ``D(V) >= t`` with a memo of proven bounds (see the module docstring)."""

    def __init__(
        self, H: HypothesisClass, splitter: Any, *, deadline: Deadline | None = None, progress: Progress | None = None
    ) -> None:
        self.H = H
        self.splitter = splitter
        self.deadline = deadline or Deadline(None)
        if getattr(splitter, "deadline", False) is None:  # a splitter whose enumeration can be long polls it too
            splitter.deadline = self.deadline
        self.progress = progress or Progress(False)
        # V -> [lower, upper, (desc, V0, V1) proving lower or None]
        self.memo: dict[int, list] = {}
        self.nodes = 0
        self.target = 0
        self.node_budget: int | None = None
        self.use_sat = True
        self.top_down_probes = 2
        self.sat_calls = 0
        self.sat_answers = 0
        # Splits of version spaces with many live columns, kept across the queries of iterative deepening.
        self._split_cache: dict[int, tuple[list[int], list]] = {}
        self._split_cache_size = 0

    #: Bytes of splits kept in the cache (each split holds two bitsets of about |V| / 8 bytes).
    SPLIT_CACHE_BYTES = 128 << 20

    def _splits(self, V: int, live: Sequence[int]) -> tuple[list[int], list]:
        hit = self._split_cache.get(V)
        if hit is not None:
            return hit
        result = self.splitter.splits(V, live)
        cost = len(result[1]) * (V.bit_length() // 4 + 120)
        if len(live) >= _VECTOR_MIN_LIVE and self._split_cache_size + cost <= self.SPLIT_CACHE_BYTES:
            self._split_cache[V] = result
            self._split_cache_size += cost
        return result

    # -- bounds
    def bounds(self, V: int) -> tuple[int, int]:
        e = self.memo.get(V)
        if e is not None:
            return e[0], e[1]
        return 0, V.bit_count().bit_length() - 1

    def _entry(self, V: int) -> list:
        e = self.memo.get(V)
        if e is None:
            e = self.memo[V] = [0, V.bit_count().bit_length() - 1, None]
        return e

    # -- decision
    def at_least(self, V: int, t: int, live: Sequence[int]) -> bool:
        """Decide ``D(V) >= t``; raises _Stop when the deadline or node budget is spent."""
        if t <= 0:
            return True
        e = self.memo.get(V)
        if e is None:
            hi = V.bit_count().bit_length() - 1
            if hi < t:
                return False
            e = self.memo[V] = [0, hi, None]
        else:
            if e[0] >= t:
                return True
            if e[1] < t:
                return False
        self.nodes += 1
        if self.deadline.tick(64):
            raise _Stop
        if self.node_budget is not None and self.nodes > self.node_budget:
            raise _Stop
        if not self.nodes & 0x3FFF:
            self.progress.update(f"t={self.target} nodes={self.nodes} memo={len(self.memo)}")
        new_live, splits = self._splits(V, live)
        need = 1 << (t - 1)
        cand = []
        for V0, V1, desc in splits:
            n0 = V0.bit_count()
            n1 = V1.bit_count()
            if n0 < need or n1 < need:
                continue
            if n0 <= n1:
                cand.append((n0, V0, V1, desc, V0, V1))
            else:
                cand.append((n1, V1, V0, desc, V0, V1))
        cand.sort(key=lambda c: -c[0])
        memo = self.memo
        t1 = t - 1
        # Quick pass: a split both of whose children are already proven deep enough.
        for c in cand:
            s = memo.get(c[1])
            if s is not None and s[0] >= t1:
                g = memo.get(c[2])
                if g is not None and g[0] >= t1:
                    e[0] = t
                    e[2] = (c[3], c[4], c[5])
                    return True
        for _, small, big, desc, V0, V1 in cand:
            if self.at_least(small, t1, new_live) and self.at_least(big, t1, new_live):
                if e[0] < t:
                    e[0] = t
                    e[2] = (desc, V0, V1)
                return True
        if e[1] > t1:
            e[1] = t1
        return False

    # -- witness
    def tree(self, V: int, t: int) -> dict:
        """The tree of depth ``t <= lower(V)`` recorded in the memo (spec §3 format)."""
        if t <= 0:
            low = V & -V
            return {"hypothesis": self.H.row_of(low.bit_length() - 1)}
        desc, V0, V1 = self.memo[V][2]
        return self.splitter.node(desc, self.tree(V0, t - 1), self.tree(V1, t - 1))

    # -- optimisation
    def solve(self, V: int, *, upper: int | None = None) -> tuple[int, int, bool]:
        """Raise the proven bounds of ``D(V)`` until they meet or time runs out.

        Returns ``(lower, upper, stopped)``.
        """
        live = self.splitter.columns
        e = self._entry(V)
        if upper is not None and upper < e[1]:
            e[1] = upper
        stopped = False
        try:
            # Without a time limit, top-down probes first: the size bound is often tight or off
            # by one, and a success at the bound skips the shallower trees of iterative
            # deepening.  Under a time limit, deepening alone gives certified lower bounds early.
            probes = self.top_down_probes if self.deadline.seconds is None else 0
            for _ in range(probes):
                if e[0] >= e[1]:
                    break
                self.target = e[1]
                self.progress.update(f"t={e[1]} nodes={self.nodes} memo={len(self.memo)}", force=True)
                self._decide(V, e[1], live)
            while e[0] < e[1]:
                t = e[0] + 1
                self.target = t
                self.progress.update(f"t={t} nodes={self.nodes} memo={len(self.memo)}", force=True)
                if not self._decide(V, t, live):
                    break
        except _Stop:
            stopped = True
        return e[0], e[1], stopped

    def _decide(self, V: int, t: int, live: Sequence[int]) -> bool:
        """``at_least`` at the root, alternating with SAT when the recursion is slow.

        The recursion runs under a node budget; when the budget is spent
        without an answer and the SAT encoding of the query is small enough,
        :func:`dimcalc.sat.decide_tree_depth` gets a conflict budget; both
        budgets double each round.  The memo survives every interruption, so
        no proven fact is lost.
        """
        sat = _sat_module() if self.use_sat else None
        if sat is None:
            return self.at_least(V, t, live)
        budget = conflicts = _INITIAL_NODE_BUDGET
        while True:
            self.node_budget = self.nodes + budget
            try:
                return self.at_least(V, t, live)
            except _Stop:
                if self.deadline.expired():
                    raise
            finally:
                self.node_budget = None
            _, splits = self.splitter.splits(V, live)
            if sat.estimate_clauses(V.bit_count(), len(splits), t) <= sat.MAX_CLAUSES:
                self.sat_calls += 1
                answer = sat.decide_tree_depth(self, V, t, conflicts)
                if self.deadline.expired():
                    raise _Stop
                if answer is not None:
                    self.sat_answers += 1
                    return answer
            budget *= 2
            conflicts *= 2


#: Nodes the recursion may spend on a root query before SAT is tried (then doubled each round).
_INITIAL_NODE_BUDGET = 20000


def _sat_module() -> Any:
    try:
        from . import sat
    except ImportError:  # pragma: no cover - python-sat missing
        return None
    return sat


# ---------------------------------------------------------------------------- node builders


# Each builder maps a split's column index ``x`` back to its original point ``points[x]``.


def _binary_node(points: Sequence[int]) -> Callable[[int, dict, dict], dict]:
    def node(desc: int, T0: dict, T1: dict) -> dict:
        return {"point": points[desc], "children": [T0, T1]}

    return node


def _multiclass_node(points: Sequence[int]) -> Callable[[tuple, dict, dict], dict]:
    def node(desc: tuple, T0: dict, T1: dict) -> dict:
        x, a, b = desc
        return {"point": points[x], "labels": [a, b], "children": [T0, T1]}

    return node


def _pair_map_node(num_labels: int, points: Sequence[int]) -> Callable[[tuple, dict, dict], dict]:
    def node(desc: tuple, T0: dict, T1: dict) -> dict:
        x, a, b = desc
        phi: list[int | None] = [None] * num_labels
        phi[a], phi[b] = 0, 1
        return {"point": points[x], "map": phi, "children": [T0, T1]}

    return node


def _bin_node(num_labels: int, n_bits: int, points: Sequence[int]) -> Callable[[int, dict, dict], dict]:
    def node(desc: int, T0: dict, T1: dict) -> dict:
        x, bit = divmod(desc, n_bits)
        return {"point": points[x], "map": [(lab >> bit) & 1 for lab in range(num_labels)], "children": [T0, T1]}

    return node


def _bipartition_node(num_labels: int, points: Sequence[int]) -> Callable[[tuple, dict, dict], dict]:
    def node(desc: tuple, T0: dict, T1: dict) -> dict:
        x, subset, present = desc  # bit i of subset: present[i + 1] is on side 1
        phi: list[int | None] = [None] * num_labels
        phi[present[0]] = 0
        for i, lab in enumerate(present[1:]):
            phi[lab] = (subset >> i) & 1
        return {"point": points[x], "map": phi, "children": [T0, T1]}

    return node


def _user_node(maps: Sequence[tuple], points: Sequence[int]) -> Callable[[tuple, dict, dict], dict]:
    def node(desc: tuple, T0: dict, T1: dict) -> dict:
        x, j = desc
        return {"point": points[x], "map": list(maps[j]), "children": [T0, T1]}

    return node


# ---------------------------------------------------------------------------- families

_FAMILY_NAMES = ("N", "bin", "B")


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
#: columns reduced up to relabelling (dimcalc.reduction); Ψ^bin and user maps read label values.
_RELABEL_INVARIANT = ("LD", "MLD", "N", "B")


def _reduced_points(H: HypothesisClass, family: str, deadline: Deadline | None = None) -> list[int]:
    """The representative points of :meth:`HypothesisClass.column_reduction` for ``family``."""
    red = H.column_reduction(relabel=family in _RELABEL_INVARIANT, deadline=deadline)
    return [int(p) for p in red.points]


def _splitter_for(
    H: HypothesisClass, family: str, maps: Sequence[tuple] | None = None, deadline: Deadline | None = None
) -> Any:
    """The splitter of a dimension: 'LD', 'MLD', 'N', 'bin', 'B' or 'user' (with maps).

    Splitters work on the class's reduced columns (constant points dropped,
    duplicate points merged: every Littlestone-type dimension is unchanged,
    see :mod:`dimcalc.reduction`); tree nodes name the representatives' original points.
    """
    points = _reduced_points(H, family, deadline)
    if family == "LD":
        words = H.point_label_words(points, deadline)[min(1, H.num_labels - 1)]
        return _ColumnSplitter(words_to_ints(words), _binary_node(points), H.n_distinct, words)
    if family == "MLD":
        return _PairSplitter(H, _multiclass_node(points), points, deadline)
    if family == "N":
        return _PairSplitter(H, _pair_map_node(H.num_labels, points), points, deadline)
    if family == "bin":
        ones, bits, words = _bin_ones(H, points, deadline)
        return _ColumnSplitter(ones, _bin_node(H.num_labels, bits, points), H.n_distinct, words)
    if family == "B":
        return _BipartitionSplitter(H, _bipartition_node(H.num_labels, points), points, deadline)
    assert maps is not None
    return _MapSplitter(H, maps, _user_node(maps, points), points, deadline)


def _check_class(H: Any, owner: str) -> HypothesisClass:
    if not isinstance(H, HypothesisClass):
        raise parameter_error("H", owner, "a dimcalc.HypothesisClass", type(H).__name__)
    return H


def _depth_one_tree(H: HypothesisClass, family: str, maps: Sequence[tuple] | None) -> dict | None:
    """A shattered tree of depth 1 built from the first two distinct rows, when the family allows one.

    The rows differ at some point ``x`` (labels ``a != b``); a root at ``x`` whose
    split sends ``a`` and ``b`` to different sides, with the two rows as leaves,
    is shattered (each path is realised by its leaf's row) and uniform.  Costs
    one pass over one pair of rows, so a search stopped at once still reports
    the lower bound 1.
    """
    if H.n_distinct < 2:
        return None
    r0, r1 = H.distinct_row(0), H.distinct_row(1)
    x = int(np.flatnonzero(r0 != r1)[0])
    a, b = int(r0[x]), int(r1[x])
    leaves = [{"hypothesis": H.row_of(0)}, {"hypothesis": H.row_of(1)}]
    L = H.num_labels
    if family == "LD":
        return {"point": x, "children": leaves if a == 0 else leaves[::-1]}
    if family == "MLD":
        return {"point": x, "labels": [a, b], "children": leaves}
    phi: list[int | None]
    if family in ("N", "B"):
        phi = [None] * L
        phi[a], phi[b] = 0, 1
    elif family == "bin":
        bit = ((a ^ b) & -(a ^ b)).bit_length() - 1
        phi = [(lab >> bit) & 1 for lab in range(L)]
    else:
        usable = [m for m in (maps or ()) if m[a] is not None and m[b] is not None and m[a] != m[b]]
        if not usable:
            return None
        phi = list(usable[0])
    return {"point": x, "map": phi, "children": leaves if phi[a] == 0 else leaves[::-1]}


def _run(
    H: HypothesisClass,
    kind: str,
    family: str,
    maps: Sequence[tuple] | None,
    time_limit: float | None,
    progress: bool,
    label: str,
) -> DimensionResult:
    """Solve one Littlestone-type dimension under one deadline, set-up (reduction, masks) included."""
    deadline = Deadline(time_limit)
    log = Progress(progress, label)
    upper = H.log2_size()
    leaf = {"hypothesis": H.row_of(0)}
    try:
        splitter = _splitter_for(H, family, maps, deadline)
    except SearchStopped:
        one = _depth_one_tree(H, family, maps)
        lower, witness = (0, leaf) if one is None else (1, one)
        return DimensionResult.bounds(
            kind, lower, upper, witness, nodes=0, seconds=round(deadline.elapsed(), 6), stopped=deadline.stop_label
        )
    engine = _Engine(H, splitter, deadline=deadline, progress=log)
    lower, upper, stopped = engine.solve(H.full_mask)
    witness = engine.tree(H.full_mask, lower)
    if lower == 0 and upper >= 1:
        one = _depth_one_tree(H, family, maps)
        if one is not None:
            lower, witness = 1, one
    log.update(f"done: [{lower}, {upper}] nodes={engine.nodes} memo={len(engine.memo)}", force=True)
    return DimensionResult.bounds(
        kind,
        lower,
        upper,
        witness,
        nodes=engine.nodes,
        memo=len(engine.memo),
        sat_calls=engine.sat_calls,
        sat_answers=engine.sat_answers,
        seconds=round(deadline.elapsed(), 6),
        stopped=deadline.stop_label if stopped else False,
    )


# ---------------------------------------------------------------------------- public API


def littlestone_dimension(
    H: HypothesisClass, *, time_limit: float | None = None, progress: bool = False
) -> DimensionResult:
    """The Littlestone dimension of a binary class, with a shattered mistake tree.

    Parameters
    ----------
    H : HypothesisClass
        A binary class (at most two labels).
    time_limit : float, optional
        Seconds; when the search is stopped the result has ``exact=False``,
        a proven ``lower`` certified by the witness tree and a proven ``upper``.
    progress : bool
        Print progress lines (target depth, nodes, memo size) on stderr.

    Returns
    -------
    DimensionResult
        Kind ``"littlestone"``; the witness is a mistake tree
        ``{"point": i, "children": [T0, T1]}`` with leaves ``{"hypothesis": row}``.
        Undefined (``value=None`` with a reason) for a class with more labels.

    References
    ----------
    Littlestone (1987); Feldman & Xiao (COLT 2014), §2.5 (complete mistake trees).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> thresholds = HypothesisClass.from_table([[1 if x >= t else 0 for x in range(7)] for t in range(8)])
    >>> r = littlestone_dimension(thresholds)
    >>> r.value, r.exact, r.witness["point"]
    (3, True, 3)
    >>> littlestone_dimension(HypothesisClass.from_table([[0], [1]])).value  # {constant 0, constant 1}
    1
    """
    H = _check_class(H, "littlestone_dimension")
    time_limit = check_time_limit(time_limit, "littlestone_dimension")
    if not H.is_binary:
        return DimensionResult.undefined(
            "littlestone",
            f"the Littlestone dimension is defined for binary classes; this class has "
            f"{H.num_labels} labels (use multiclass_littlestone_dimension)",
        )
    return _run(H, "littlestone", "LD", None, time_limit, progress, "littlestone")


def multiclass_littlestone_dimension(
    H: HypothesisClass, *, time_limit: float | None = None, progress: bool = False
) -> DimensionResult:
    """The multiclass Littlestone dimension MLD, with a shattered io-labelled tree.

    Parameters
    ----------
    H : HypothesisClass
    time_limit : float, optional
        Seconds; see :func:`littlestone_dimension`.
    progress : bool
        Progress lines on stderr.

    Returns
    -------
    DimensionResult
        Kind ``"multiclass_littlestone"``; witness nodes
        ``{"point": i, "labels": [a, b], "children": [Ta, Tb]}``.

    References
    ----------
    BGS, Defs 2.10-2.13 (after Daniely et al. 2011).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0], [1], [2]])
    >>> r = multiclass_littlestone_dimension(H)
    >>> r.value, r.witness["labels"]
    (1, [0, 1])
    """
    H = _check_class(H, "multiclass_littlestone_dimension")
    time_limit = check_time_limit(time_limit, "multiclass_littlestone_dimension")
    return _run(H, "multiclass_littlestone", "MLD", None, time_limit, progress, "multiclass_littlestone")


def _resolve_family(H: HypothesisClass, family: Any) -> tuple[str, list[tuple] | None, str]:
    """Return (family name, the maps of a user family or None, kind suffix) via :func:`dimcalc.psi.psi_family`."""
    from .psi import present_labels, psi_family, restricted_maps

    fam = psi_family(family, H.num_labels)
    if fam.name in _FAMILY_NAMES:
        return fam.name, None, fam.kind_suffix
    # one map per distinct restriction to the labels present in H (dimcalc.psi: same trees, same value)
    return "user", restricted_maps(fam, present_labels(H)), fam.kind_suffix


def psi_littlestone_dimension(
    H: HypothesisClass, family: Any, *, uniform: bool = False, time_limit: float | None = None, progress: bool = False
) -> DimensionResult:
    """The Ψ-Littlestone dimension (or its uniform variant) with a Ψ-shattered tree.

    Parameters
    ----------
    H : HypothesisClass
    family : {"N", "bin", "B"} or PsiFamily or iterable of maps
        Ψ^N (pairs of labels), Ψ^bin (the bits of the label, bit 1 least
        significant), Ψ^B (all maps), or a user family: maps are tuples of
        length ``num_labels`` with entries 0, 1 or None (``*``).
    uniform : bool
        The uniform variant: all nodes at one depth carry the same map.
    time_limit : float, optional
        Seconds; see :func:`littlestone_dimension`.
    progress : bool
        Progress lines on stderr.

    Returns
    -------
    DimensionResult
        Kind ``"psi_littlestone:<N|bin|B>"`` or ``"psi_littlestone_uniform:<...>"``
        (user families: ``...:user:<digest>``); witness nodes
        ``{"point": i, "map": [φ(0), ..., φ(k)], "children": [T0, T1]}``.

    References
    ----------
    BGS, Defs 4.1-4.4, §4.2 (Lemma 4.5: Ψ^N = MLD; Claims 4.6-4.7).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0], [1], [2], [3]])
    >>> [psi_littlestone_dimension(H, f).value for f in ("N", "bin", "B")]
    [1, 2, 2]
    >>> r = psi_littlestone_dimension(H, "bin", uniform=True)
    >>> r.kind, r.value, r.witness["map"]
    ('psi_littlestone_uniform:bin', 2, [0, 1, 0, 1])
    """
    owner = "psi_littlestone_dimension"
    H = _check_class(H, owner)
    time_limit = check_time_limit(time_limit, owner)
    if not isinstance(uniform, bool):
        raise parameter_error("uniform", owner, "a bool", uniform)
    name, maps, suffix = _resolve_family(H, family)
    kind = ("psi_littlestone_uniform:" if uniform else "psi_littlestone:") + suffix
    label = kind.split(":", 1)[0] + ":" + name
    if name == "B" and H.num_labels > 2:
        return _seeded_bipartition(H, kind, uniform, time_limit, progress, label)
    if uniform:
        r = _uniform(H, name, maps, kind, time_limit, progress, label)
    else:
        r = _run(H, kind, name, maps, time_limit, progress, label)
    if name == "user" and r.witness is not None:  # the tree checks itself against the user's maps
        r = dataclasses.replace(r, witness=PsiTree(r.witness, family=psi_family(family, H.num_labels), uniform=uniform))
    return r


def _seeded_bipartition(
    H: HypothesisClass, kind: str, uniform: bool, time_limit: float | None, progress: bool, label: str
) -> DimensionResult:
    """Ψ^B (plain or uniform), starting from trees found without the exponential search.

    With ``m`` labels present at a point Ψ^B has ``2^(m-1) - 1`` splits there.
    Before searching them: a one-point or greedy Ψ^B tree
    (:func:`dimcalc.psi.bipartition_seed_tree`), then the Ψ^bin search (same
    uniformity) on a quarter of the budget -- Ψ^bin ⊆ Ψ^B (its maps are total
    maps, BGS §4.2), so its tree is a Ψ^B tree and Ψ^bin-LD <= Ψ^B-LD.  The
    deepest of these is a certified lower bound; when it reaches
    ``floor(log2 |H|)`` the value is exact without searching Ψ^B at all,
    otherwise it stands whenever the Ψ^B search is stopped before getting as deep.
    """
    from .psi import bipartition_seed_tree

    deadline = Deadline(time_limit)
    depth, tree = bipartition_seed_tree(H, uniform=uniform, deadline=deadline)
    how = "direct Ψ^B tree"
    cap = H.log2_size()
    if depth < cap and not deadline.expired():
        remaining = deadline.remaining()
        share = None if remaining is None else max(remaining / 4, 1e-3)
        rb = psi_littlestone_dimension(H, "bin", uniform=uniform, time_limit=share)
        if rb.lower is not None and rb.lower > depth:
            depth, tree, how = rb.lower, rb.witness, "Ψ^bin tree (Ψ^bin ⊆ Ψ^B)"
    if depth >= cap:
        return DimensionResult.exact_value(
            kind,
            depth,
            tree,
            nodes=0,
            memo=0,
            seconds=round(deadline.elapsed(), 6),
            stopped=False,
            method=f"{how} of depth floor(log2 |H|)",
        )
    left = deadline.left()
    if uniform:
        r = _uniform(H, "B", None, kind, left, progress, label)
    else:
        r = _run(H, kind, "B", None, left, progress, label)
    if r.lower is not None and r.lower >= depth:
        return r
    return DimensionResult.bounds(
        kind, depth, r.upper, tree, **{**r.stats, "seconds": round(deadline.elapsed(), 6), "lower_from": how}
    )


def binary_restriction_littlestone(H: HypothesisClass, *, time_limit: float | None = None) -> list[DimensionResult]:
    """The Littlestone dimension of each binary restriction ``H|_i``, ``i = 1..label_bits``.

    ``H|_i(x) = (h(x) >> (i - 1)) & 1`` (bit 1 is the least significant).  The
    witness of entry ``i - 1`` is a mistake tree for ``H|_i``; its leaves are
    row indices of the class file (the rows of ``H|_i`` are those of ``H``).

    Parameters
    ----------
    H : HypothesisClass
    time_limit : float, optional
        Seconds for all restrictions together (unused time flows to later ones).

    Returns
    -------
    list of DimensionResult
        Kind ``"littlestone_restriction:<i>"``; the witness is a
        :class:`~dimcalc.witnesses.RestrictionTree`, which checks the tree
        against ``H|_i`` built from ``H``, so ``result.verify(H)`` works on the
        original class; ``stats["restriction"] = i``.

    References
    ----------
    BGS §3 (binary restrictions), Claim 4.6 (``max_i LDim(H|_i) <= Ψ^bin_LD U(H)``).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 0], [1, 1], [2, 0], [3, 1]])
    >>> [(r.kind, r.value) for r in binary_restriction_littlestone(H)]
    [('littlestone_restriction:1', 1), ('littlestone_restriction:2', 1)]
    """
    owner = "binary_restriction_littlestone"
    H = _check_class(H, owner)
    time_limit = check_time_limit(time_limit, owner)
    deadline = Deadline(time_limit)
    bits = label_bits(H.num_labels)
    out = []
    for i in range(1, bits + 1):
        Hi = HypothesisClass((H.table >> (i - 1)) & 1, num_labels=2)
        remaining = deadline.remaining()
        share = None if remaining is None else max(remaining / (bits - i + 1), 1e-3)
        kind = f"littlestone_restriction:{i}"
        r = _run(Hi, kind, "LD", None, share, False, f"littlestone H|_{i}")
        r.stats["restriction"] = i
        out.append(r)
    return out


_ENGINE_CACHE: dict[tuple[int, str], tuple[HypothesisClass, _Engine]] = {}


def _cached_engine(H: HypothesisClass, family: str) -> _Engine:
    key = (id(H), family)
    hit = _ENGINE_CACHE.get(key)
    if hit is not None and hit[0] is H:
        return hit[1]
    if len(_ENGINE_CACHE) >= 8:
        _ENGINE_CACHE.pop(next(iter(_ENGINE_CACHE)))
    engine = _Engine(H, _splitter_for(H, family))
    _ENGINE_CACHE[key] = (H, engine)
    return engine


def _check_mask(H: HypothesisClass, mask: Any, owner: str) -> int:
    if isinstance(mask, bool) or not isinstance(mask, int) or mask <= 0 or mask >> H.n_distinct:
        raise parameter_error(
            "mask", owner, f"a non-empty bitset (int) over the {H.n_distinct} distinct hypotheses", mask
        )
    return mask


def littlestone_dimension_of(H: HypothesisClass, mask: int) -> int:
    """Exact Littlestone dimension of the version space ``mask`` (bitset over distinct rows) of a binary class.

    The memo is kept between calls on the same class, so repeated queries (as
    the Standard Optimal Algorithm makes) are cheap.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 0], [0, 1], [1, 1]])
    >>> littlestone_dimension_of(H, 0b111), littlestone_dimension_of(H, 0b011), littlestone_dimension_of(H, 0b001)
    (1, 1, 0)
    """
    owner = "littlestone_dimension_of"
    H = _check_class(H, owner)
    if not H.is_binary:
        raise parameter_error("H", owner, "a binary class (at most 2 labels)", f"{H.num_labels} labels")
    lower, _, _ = _cached_engine(H, "LD").solve(_check_mask(H, mask, owner))
    return lower


def multiclass_littlestone_dimension_of(H: HypothesisClass, mask: int) -> int:
    """Exact multiclass Littlestone dimension of the version space ``mask`` (bitset over distinct rows).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0], [1], [2]])
    >>> multiclass_littlestone_dimension_of(H, 0b111), multiclass_littlestone_dimension_of(H, 0b100)
    (1, 0)
    """
    owner = "multiclass_littlestone_dimension_of"
    H = _check_class(H, owner)
    lower, _, _ = _cached_engine(H, "MLD").solve(_check_mask(H, mask, owner))
    return lower


# ---------------------------------------------------------------------------- uniform variant


def _uniform_maps(H: HypothesisClass, name: str, maps: Sequence[tuple] | None) -> Any:
    """Canonical maps for the uniform search (one of each mirror pair), over the labels present in ``H``.

    Swapping 0 and 1 in the map of one level and the two children of every
    node of that level turns a uniform shattered tree into a uniform shattered
    tree, so one map of each mirror pair suffices.  For Ψ^B total maps suffice
    (turning every ``*`` of a level's map into 0 keeps every path realised by
    the same hypothesis); constant maps leave a child empty and are dropped.
    Maps that agree on the present labels give the same trees, so one of each
    restriction is kept; :func:`dimcalc.psi.uniform_maps` builds them (lazily:
    Ψ^B over ``m`` present labels has ``2^(m-1) - 1``).
    """
    from .psi import PsiFamily, present_labels, psi_family, uniform_maps

    if name == "user":
        assert maps is not None
        fam = PsiFamily(name="user", num_labels=H.num_labels, user_maps=tuple(maps))
    else:
        fam = psi_family(name, H.num_labels)
    return uniform_maps(fam, present_labels(H))


class _UniformSearch:
    """Search over per-level map sequences with a relaxation for pruning (module docstring).

    ``feasible(V, prefix, free)`` decides whether a tree for ``V`` exists whose
    first ``len(prefix)`` levels carry the maps of ``prefix`` (one map per level)
    and whose next ``free`` levels are unconstrained (Ψ-labelled).  With
    ``free = 0`` this is uniform Ψ-shattering; with ``prefix = ()`` it is the
    non-uniform question, answered by the non-uniform engine.
    """

    def __init__(
        self, H: HypothesisClass, maps: Sequence[tuple], engine: _Engine, deadline: Deadline, progress: Progress
    ) -> None:
        self.H = H
        self.maps = maps
        self.engine = engine
        self.deadline = deadline
        self.progress = progress
        self.splitter = _MapSplitter(H, maps, _user_node(maps, []), _reduced_points(H, "user", deadline), deadline)
        self.memo: dict[tuple, bool] = {}
        self.choice: dict[tuple, tuple] = {}
        self.nodes = 0

    def feasible(self, V: int, prefix: tuple, free: int, live: Sequence[int]) -> bool:
        depth = len(prefix) + free
        if depth == 0:
            return True
        if V.bit_count() < (1 << depth):
            return False
        if not prefix:
            return self.engine.at_least(V, free, self.engine.splitter.columns)
        key = (V, prefix, free)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        self.nodes += 1
        if self.deadline.tick(64):
            raise _Stop
        new_live, _ = self.splitter.classes(V, live)
        need = 1 << (depth - 1)
        rest = prefix[1:]
        ok = False
        cand = []
        for V0, V1, desc in self.splitter.map_splits(V, new_live, prefix[0]):
            n0, n1 = V0.bit_count(), V1.bit_count()
            if n0 >= need and n1 >= need:
                cand.append((min(n0, n1), V0, V1, desc))
        cand.sort(key=lambda c: -c[0])
        for _, V0, V1, desc in cand:
            a, b = (V0, V1) if V0.bit_count() <= V1.bit_count() else (V1, V0)
            if self.feasible(a, rest, free, new_live) and self.feasible(b, rest, free, new_live):
                ok = True
                if free == 0:
                    self.choice[(V, prefix)] = (desc, V0, V1)
                break
        self.memo[key] = ok
        return ok

    def sequence(self, r: int) -> tuple | None:
        """A map sequence of length ``r`` admitting a uniform shattered tree, or None."""
        live = self.splitter.columns
        full = self.H.full_mask

        def dfs(prefix: tuple) -> tuple | None:
            for j in range(self.splitter.n_maps):
                p = prefix + (j,)
                if self.feasible(full, p, r - len(p), live):
                    if len(p) == r:
                        return p
                    found = dfs(p)
                    if found is not None:
                        return found
            return None

        return dfs(())

    def tree(self, V: int, prefix: tuple) -> dict:
        if not prefix:
            low = V & -V
            return {"hypothesis": self.H.row_of(low.bit_length() - 1)}
        (x, j), V0, V1 = self.choice[(V, prefix)]
        return {
            "point": self.splitter.points[x],
            "map": list(self.maps[j]),
            "children": [self.tree(V0, prefix[1:]), self.tree(V1, prefix[1:])],
        }


def _uniform(
    H: HypothesisClass,
    name: str,
    maps: list[tuple] | None,
    kind: str,
    time_limit: float | None,
    progress: bool,
    label: str,
) -> DimensionResult:
    deadline = Deadline(time_limit)
    log = Progress(progress, label)
    full = H.full_mask
    best: tuple = ()
    upper = H.log2_size()
    stopped = False
    engine: _Engine | None = None
    search: _UniformSearch | None = None
    try:
        engine = _Engine(H, _splitter_for(H, name, maps, deadline), deadline=deadline, progress=log)
        canon = _uniform_maps(H, name, maps)
        search = _UniformSearch(H, canon, engine, deadline, log)
        # Uniform <= non-uniform (BGS Claim 4.6, second inequality): the engine's bound caps the search.
        _, upper, stopped = engine.solve(full)
        if stopped:
            raise _Stop
        while len(best) < upper:
            r = len(best) + 1
            log.update(f"uniform r={r} nodes={search.nodes} memo={len(search.memo)}", force=True)
            seq = search.sequence(r)
            if seq is None:
                upper = r - 1
                break
            best = seq
    except _Stop:
        stopped = True
        if engine is not None:
            upper = min(upper, engine.bounds(full)[1])
    witness = search.tree(full, best) if search is not None else {"hypothesis": H.row_of(0)}
    if not best and upper >= 1:
        one = _depth_one_tree(H, name, maps)
        if one is not None:
            best, witness = (None,), one
    nodes = (engine.nodes if engine else 0) + (search.nodes if search else 0)
    memo = (len(engine.memo) if engine else 0) + (len(search.memo) if search else 0)
    return DimensionResult.bounds(
        kind,
        len(best),
        upper,
        witness,
        nodes=nodes,
        memo=memo,
        seconds=round(deadline.elapsed(), 6),
        stopped=deadline.stop_label if stopped else False,
    )
