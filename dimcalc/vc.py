"""VC, Natarajan and graph dimensions, the growth function, and their checkers.

A set of points ``S`` is

* **shattered** (VC) when every labelling ``S -> {0, 1}`` is realised by a
  hypothesis;
* **Natarajan-shattered** by two label vectors ``f0, f1`` that differ at every
  point of ``S`` when every *mix* (``f1`` on ``T``, ``f0`` on ``S \\ T``, for
  each ``T ⊆ S``) is realised;
* **graph-shattered** by a label vector ``f`` when every in/out pattern of
  agreement with ``f`` (``h(x) = f(x)`` exactly for ``x ∈ T``) is realised.

The dimension is the size of a largest such set.  Natarajan and graph
dimensions are the Ψ-dimensions of Ben-David, Cesa-Bianchi, Haussler and Long
[BCHL95] for Ψ^N and Ψ^G, as recalled in BGS §1.2; on binary classes all three
equal the VC dimension.

How the solvers work
--------------------
All three notions are shattering of *virtual columns* of the distinct rows:
for VC the points themselves; for graph the indicator columns ``[h(x) = l]``;
for Natarajan the columns ``(x, {a, b})`` with value 0 on rows labelling ``x``
with ``a``, 1 on rows labelling it ``b`` and *dead* otherwise.  A set of virtual
columns with distinct points is shattered when the live rows split into all
``2^t`` cells.  For a target size ``T`` a depth-first search over sets of
columns (in increasing point order, numpy batches of nodes) keeps a node
``S`` (``|S| = j``, ``r = T - j`` points still to add) only while

* every one of its ``2^j`` cells splits, for the candidate column added last,
  into two halves of at least ``2^(r-1)`` rows each: a cell must shatter the
  ``r - 1`` points still to come after that (the log2 bound, applied per cell;
  in particular only shattered sets are extended: downward closure);
* a child ``S + {y}`` only considers the columns that passed this test at
  ``S`` (the Apriori join: ``S + {y, z}`` is tried only if both ``S + {y}`` and
  ``S + {z}`` are promising), and at least ``r - 1`` distinct points remain.

Targets ``T = 1, 2, ...`` are tried up to ``floor(log2 |H|)`` (a shattered set
of size ``d`` needs ``2^d`` distinct hypotheses, for all three notions); the
first target with no shattered set proves the upper bound, because shattered
sets are closed under taking subsets.  A ``time_limit`` stops the search with
proven bounds.

The checkers :func:`is_shattered`, :func:`is_natarajan_shattered` and
:func:`is_graph_shattered` work at the level of the definitions on the full
table, with Python sets of label tuples, and share no code with the solvers.

References
----------
.. [BCHL95] S. Ben-David, N. Cesa-Bianchi, D. Haussler, P. M. Long.
   Characterizations of learnability for classes of {0, ..., n}-valued
   functions. JCSS 50(1), 1995.  (Ψ-dimensions; Ψ^N gives the Natarajan and
   Ψ^G the graph dimension.)
.. [BGS21] M. Bun, M. Gaboardi, S. Sivakumar. Multiclass versus binary
   differentially private PAC learning. NeurIPS 2021, §1.2.
.. [Nat89] B. K. Natarajan. On learning sets and functions. Mach. Learn. 4, 1989.
.. [VC71] V. Vapnik, A. Chervonenkis. On the uniform convergence of relative
   frequencies of events to their probabilities. 1971.
.. [Sau72] N. Sauer. On the density of families of sets. JCTA 13, 1972
   (Sauer–Shelah lemma: ``|H|_S| <= sum_{i<=d} C(|S|, i)`` for VC dimension d).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from ._budget import Deadline, Progress, check_time_limit
from .errors import InvalidWitnessError, parameter_error
from .hypothesis_class import HypothesisClass
from .results import DimensionResult, register_verifier

__all__ = [
    "vc_dimension",
    "natarajan_dimension",
    "graph_dimension",
    "growth_function",
    "sauer_shelah_bound",
    "is_shattered",
    "is_natarajan_shattered",
    "is_graph_shattered",
]

#: Elements (rows x pairs) processed per numpy step; bounds the memory of a step.
_CHUNK_ELEMENTS = 1 << 21
_NODE_BATCH_MAX = 32


# ============================================================================ solver

@dataclass(frozen=True)
class _Columns:
    """Virtual columns over the distinct rows, grouped by domain point.

    Column ``v`` lives on point ``point[v]`` (non-decreasing in ``v``).  A row
    with label ``one[v]`` at that point is on side 1; for an *indicator*
    column (``zero[v] == -1``: VC and graph) every other row is on side 0; for
    a *pair* column (Natarajan) only rows with label ``zero[v]`` are on side 0
    and the other rows drop out.  ``first[u]``, ``count[u]``: the columns of
    the ``u``-th point of ``points``.
    """

    point: np.ndarray
    one: np.ndarray
    zero: np.ndarray
    points: np.ndarray
    first: np.ndarray
    count: np.ndarray
    labels_by_point: np.ndarray  # (len(points), n_rows) int32: the labels of the distinct rows
    num_labels: int
    n_rows: int

    @property
    def partial(self) -> bool:
        return bool((self.zero >= 0).any())


def _columns(H: HypothesisClass, kind: str) -> _Columns:
    rows = H.distinct_rows
    point: list[int] = []
    one: list[int] = []
    zero: list[int] = []
    for x in range(H.n_points):
        present = np.unique(rows[:, x]).tolist()
        if len(present) < 2:
            continue  # a constant column cannot be shattered under any notion
        if kind == "vc" or len(present) == 2:
            # One label against the rest; with two labels present, the
            # indicator columns of both labels and the pair column shatter the
            # same sets, so one column is enough for every notion.
            pairs = [(present[0] if kind == "natarajan" else -1, present[1])]
        elif kind == "graph":
            pairs = [(-1, lab) for lab in present]
        else:
            pairs = list(itertools.combinations(present, 2))
        for a, b in pairs:
            point.append(x)
            zero.append(a)
            one.append(b)
    pts, first, count = np.unique(np.array(point, dtype=np.int64), return_index=True, return_counts=True)
    return _Columns(np.array(point, dtype=np.int64), np.array(one, dtype=np.int64), np.array(zero, dtype=np.int64),
                    pts, first, count, np.ascontiguousarray(rows.T[pts]).astype(np.int32), H.num_labels,
                    rows.shape[0])


class _Stopped(Exception):
    """The deadline expired inside a search."""


def _distinct_points(mask: np.ndarray, group_starts: np.ndarray, one_per_point: bool) -> np.ndarray:
    """Per row of the boolean (nodes x columns) ``mask``: number of distinct points with a True column."""
    if mask.shape[1] == 0:
        return np.zeros(mask.shape[0], dtype=np.int64)
    if one_per_point:
        return mask.sum(axis=1)
    return np.logical_or.reduceat(mask, group_starts, axis=1).sum(axis=1)


def _find_shattered_set(cols: _Columns, target: int, deadline: Deadline, log: Progress,
                        stats: dict) -> list[int] | None:
    """A set of ``target`` columns on distinct points that is shattered, or None if there is none."""
    n_cols = len(cols.point)
    m, n_labels = cols.n_rows, cols.num_labels
    one_per_point = len(cols.points) == n_cols
    partial = cols.partial
    node_batch = max(1, min(_NODE_BATCH_MAX, _CHUNK_ELEMENTS // max(m * n_cols, 1)))
    rank = np.repeat(np.arange(len(cols.points)), cols.count)  # column -> index of its point
    later = rank[None, :] > rank[:, None]  # later[v, w]: column w is on a later point than column v
    # A batch: (sets, codes, allowed, rows).  ``codes[i, t]`` is the cell of row ``rows[t]`` in node ``i``
    # (-1: dropped out); ``rows`` is None for all rows, else the rows alive in some node of the batch.
    stack = [(np.zeros((1, 0), np.int64), np.zeros((1, m), np.int32), np.ones((1, n_cols), bool), None)]
    while stack:
        if deadline.expired():
            raise _Stopped
        sets, codes, allowed, rows = stack.pop()
        labels_of = cols.labels_by_point if rows is None else cols.labels_by_point[:, rows]
        depth = sets.shape[1]
        remaining = target - depth
        need = 1 << (remaining - 1)       # rows each half of a cell needs: 2^(remaining-1)
        width = 1 << depth                # cells of a node
        bins = width * n_labels           # histogram bins per (node, point): label x cell
        stats["nodes"] += sets.shape[0]
        allowed_points = allowed if one_per_point else np.logical_or.reduceat(allowed, cols.first, axis=1)
        node_of, point_of = np.nonzero(allowed_points)
        stats["tests"] += len(node_of)
        chunk = max(1, _CHUNK_ELEMENTS // max(codes.shape[1], bins))
        passed_node: list[np.ndarray] = []
        passed_col: list[np.ndarray] = []
        for start in range(0, len(node_of), chunk):
            ni = node_of[start:start + chunk]
            ui = point_of[start:start + chunk]
            n_pairs = len(ni)
            parent = codes[ni]
            # Bin of a row: (pair, label, cell), so that per-label minima run over contiguous memory.
            key = parent + labels_of[ui] * width + (np.arange(n_pairs, dtype=np.int32) * bins)[:, None]
            if partial:
                key[parent < 0] = n_pairs * bins  # dead rows go to a bin past the end, dropped below
            hist = np.bincount(key.ravel(), minlength=n_pairs * bins + 1)[:n_pairs * bins]
            hist = hist.reshape(n_pairs, n_labels, width)
            fewest = hist.min(axis=2)  # (pair, label): fewest rows with this label in any cell
            # Expand (node, point) pairs to the columns of the point.
            per = cols.count[ui]
            q = np.repeat(np.arange(n_pairs), per)
            v = cols.first[ui][q] + np.arange(len(q)) - np.repeat(np.cumsum(per) - per, per)
            ok = fewest[q, cols.one[v]] >= need
            if partial:
                ok &= fewest[q, np.maximum(cols.zero[v], 0)] >= need
            elif n_labels == 2:
                ok &= fewest[q, 1 - cols.one[v]] >= need
            else:
                fewest_other = (hist.sum(axis=1, keepdims=True) - hist).min(axis=2)
                ok &= fewest_other[q, cols.one[v]] >= need
            ok &= allowed[ni[q], v]
            passed_node.append(ni[q[ok]])
            passed_col.append(v[ok])
        ni = np.concatenate(passed_node) if passed_node else np.zeros(0, np.int64)
        ci = np.concatenate(passed_col) if passed_col else np.zeros(0, np.int64)
        if len(ni) == 0:
            continue
        if remaining == 1:
            return sets[ni[0]].tolist() + [int(ci[0])]
        candidates = np.zeros_like(allowed)
        candidates[ni, ci] = True
        # A node needs `remaining` more points among its candidates; a child one fewer among later ones.
        alive = _distinct_points(candidates, cols.first, one_per_point) >= remaining
        ni, ci = ni[alive[ni]], ci[alive[ni]]
        child_allowed = candidates[ni] & later[ci]
        sel = _distinct_points(child_allowed, cols.first, one_per_point) >= remaining - 1
        if not sel.any():
            continue
        ni, ci, child_allowed = ni[sel], ci[sel], child_allowed[sel]
        labels = labels_of[rank[ci]]
        child_codes = codes[ni] * 2 + (labels == cols.one[ci][:, None])
        if partial:
            child_codes[(codes[ni] < 0) | ((labels != cols.one[ci][:, None]) & (labels != cols.zero[ci][:, None]))] = -1
        child_sets = np.concatenate([sets[ni], ci[:, None]], axis=1)
        # Push the batches so that the children with the most room are explored first.
        for start in reversed(range(0, len(ni), node_batch)):
            stop = start + node_batch
            batch_codes, batch_rows = child_codes[start:stop], rows
            if partial:  # keep only the rows some node of the batch still uses
                live = (batch_codes >= 0).any(axis=0)
                if not live.all():
                    batch_codes = batch_codes[:, live]
                    batch_rows = np.flatnonzero(live) if rows is None else rows[live]
            stack.append((child_sets[start:stop], batch_codes, child_allowed[start:stop], batch_rows))
        log.update(f"target {target}: {stats['nodes']} nodes, depth {depth + 1}, {len(stack)} batches queued")
    return None


def _largest_shattered(H: HypothesisClass, kind: str, time_limit: float | None,
                       progress: bool) -> DimensionResult:
    deadline = Deadline(time_limit)
    log = Progress(progress, kind)
    cols = _columns(H, kind)
    upper = min(H.log2_size(), len(cols.points))
    stats: dict[str, Any] = {"method": "levelwise-dfs", "nodes": 0, "tests": 0, "log2_bound": H.log2_size()}
    best: list[int] = []
    target = 1
    try:
        while target <= upper:
            log.update(f"searching for a shattered set of size {target} (upper bound {upper})", force=True)
            found = _find_shattered_set(cols, target, deadline, log, stats)
            if found is None:
                upper = target - 1
                break
            best = found
            target += 1
    except _Stopped:
        stats["stopped"] = deadline.stop_label
    stats["seconds"] = deadline.elapsed()
    witness = _witness(kind, cols, best)
    log.update(f"lower {len(best)}, upper {upper}", force=True)
    return DimensionResult.bounds(kind, len(best), upper, witness, **stats)


def _witness(kind: str, cols: _Columns, chosen: Sequence[int]) -> Any:
    points = [int(cols.point[v]) for v in chosen]
    if kind == "vc":
        return points
    if kind == "graph":
        return {"points": points, "f": [int(cols.one[v]) for v in chosen]}
    return {"points": points, "f0": [int(cols.zero[v]) for v in chosen], "f1": [int(cols.one[v]) for v in chosen]}


def _check_class(H: Any, owner: str) -> None:
    if not isinstance(H, HypothesisClass):
        raise parameter_error("H", owner, "a HypothesisClass (see dimcalc.load)", type(H).__name__)


def vc_dimension(H: HypothesisClass, *, time_limit: float | None = None,
                 progress: bool = False) -> DimensionResult:
    """The VC dimension of a binary class, with a shattered set as witness.

    Parameters
    ----------
    H : HypothesisClass
        A binary class (at most two labels).
    time_limit : float, optional
        Seconds; when the search is stopped the result has ``exact=False``,
        ``lower`` certified by the witness and a proven ``upper``.
    progress : bool
        Progress lines on stderr.

    Returns
    -------
    DimensionResult
        Kind ``"vc"``; ``witness`` is the sorted list of the point indices of
        a shattered set of size ``lower``.  For a class with more than two
        labels the result is :meth:`DimensionResult.undefined`.

    References
    ----------
    Vapnik and Chervonenkis [VC71]; BNS (seed 001) Def. 1 and Thms 8-9 use it
    for sample sizes.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> intervals = HypothesisClass.from_table(
    ...     [[int(a <= x < b) for x in range(5)] for a in range(6) for b in range(a, 6)])
    >>> r = vc_dimension(intervals)
    >>> r.value, r.witness, r.verify(intervals)
    (2, [0, 1], True)
    """
    _check_class(H, "vc_dimension")
    time_limit = check_time_limit(time_limit, "vc_dimension")
    if not H.is_binary:
        return DimensionResult.undefined(
            "vc", f"the VC dimension is defined for binary classes; this class has {H.num_labels} labels "
                  "(use natarajan_dimension or graph_dimension)")
    return _largest_shattered(H, "vc", time_limit, progress)


def natarajan_dimension(H: HypothesisClass, *, time_limit: float | None = None,
                        progress: bool = False) -> DimensionResult:
    """The Natarajan dimension, with a Natarajan-shattered set and its two label vectors.

    ``S`` is Natarajan-shattered when there are ``f0, f1 : S -> [k]`` with
    ``f0(x) != f1(x)`` for every ``x`` in ``S`` such that for every ``T ⊆ S``
    some hypothesis equals ``f1`` on ``T`` and ``f0`` on ``S \\ T``.

    Parameters
    ----------
    H : HypothesisClass
        Any class (k + 1 >= 2 labels); on binary classes this is the VC dimension.
    time_limit : float, optional
        Seconds; when stopped, ``exact=False`` with proven bounds.
    progress : bool
        Progress lines on stderr.

    Returns
    -------
    DimensionResult
        Kind ``"natarajan"``; ``witness = {"points": [...], "f0": [...],
        "f1": [...]}`` (label vectors aligned with ``points``).

    References
    ----------
    Natarajan [Nat89]; the Ψ^N-dimension of [BCHL95] (recalled in BGS, seed
    003, §1.2).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> all_functions = HypothesisClass.from_table(
    ...     [[a, b] for a in range(3) for b in range(3)])  # all maps [2] -> {0, 1, 2}
    >>> r = natarajan_dimension(all_functions)
    >>> r.value, r.witness
    (2, {'points': [0, 1], 'f0': [0, 0], 'f1': [1, 1]})
    >>> r.verify(all_functions)
    True
    """
    _check_class(H, "natarajan_dimension")
    time_limit = check_time_limit(time_limit, "natarajan_dimension")
    return _largest_shattered(H, "natarajan", time_limit, progress)


def graph_dimension(H: HypothesisClass, *, time_limit: float | None = None,
                    progress: bool = False) -> DimensionResult:
    """The graph dimension, with a graph-shattered set and its label vector.

    ``S`` is graph-shattered when there is ``f : S -> [k]`` such that for
    every ``T ⊆ S`` some hypothesis agrees with ``f`` exactly on ``T`` (within
    ``S``).  Always at least the Natarajan dimension.

    Parameters
    ----------
    H : HypothesisClass
        Any class; on binary classes this is the VC dimension.
    time_limit : float, optional
        Seconds; when stopped, ``exact=False`` with proven bounds.
    progress : bool
        Progress lines on stderr.

    Returns
    -------
    DimensionResult
        Kind ``"graph"``; ``witness = {"points": [...], "f": [...]}``.

    References
    ----------
    Natarajan [Nat89]; the Ψ^G-dimension of [BCHL95] (recalled in BGS, seed
    003, §1.2).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 0], [1, 0], [2, 1], [0, 2]])
    >>> r = graph_dimension(H)
    >>> r.value, r.witness, r.verify(H)
    (2, {'points': [0, 1], 'f': [0, 0]}, True)
    >>> natarajan_dimension(H).value
    1
    """
    _check_class(H, "graph_dimension")
    time_limit = check_time_limit(time_limit, "graph_dimension")
    return _largest_shattered(H, "graph", time_limit, progress)


# ============================================================================ growth function

def sauer_shelah_bound(m: int, d: int) -> int:
    """``sum_{i=0}^{d} C(m, i)``: the Sauer–Shelah bound on ``pi_H(m)`` for VC dimension ``d``.

    Parameters
    ----------
    m : int
        Number of points, ``m >= 0``.
    d : int
        VC dimension (or an upper bound on it), ``d >= 0``.

    Returns
    -------
    int
        ``2^m`` when ``d >= m``.

    References
    ----------
    Sauer [Sau72], Shelah (1972), Vapnik–Chervonenkis [VC71]: a binary class of
    VC dimension ``d`` has at most this many patterns on any ``m`` points.

    Examples
    --------
    >>> sauer_shelah_bound(10, 2), sauer_shelah_bound(3, 5)
    (56, 8)
    """
    for name, value in (("m", m), ("d", d)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
            raise parameter_error(name, "sauer_shelah_bound", "a non-negative integer", value)
    return sum(math.comb(int(m), i) for i in range(min(int(d), int(m)) + 1))


def _dense_ranks(codes: np.ndarray) -> np.ndarray:
    """Replace each column of ``codes`` by the ranks of its values (0, 1, ... per distinct value)."""
    order = np.argsort(codes, axis=0, kind="stable")
    sorted_codes = np.take_along_axis(codes, order, axis=0)
    new = np.zeros(codes.shape, dtype=np.int64)
    new[1:] = np.cumsum(sorted_codes[1:] != sorted_codes[:-1], axis=0)
    out = np.empty_like(new)
    np.put_along_axis(out, order, new, axis=0)
    return out


def _count_patterns(rows: np.ndarray, subsets: np.ndarray, base: int) -> np.ndarray:
    """Number of distinct label patterns of ``rows`` on each subset (a row of ``subsets``)."""
    codes = np.zeros((rows.shape[0], subsets.shape[0]), dtype=np.int64)
    limit = (1 << 62) // base
    bound = 1  # codes < bound
    for j in range(subsets.shape[1]):
        if bound > limit:
            codes = _dense_ranks(codes)
            bound = rows.shape[0]
        codes = codes * base + rows[:, subsets[:, j]]
        bound *= base
    ordered = np.sort(codes, axis=0)
    return 1 + (ordered[1:] != ordered[:-1]).sum(axis=0)


def growth_function(H: HypothesisClass, m: int, *, time_limit: float | None = None) -> DimensionResult:
    """The growth function ``pi_H(m)``: the most label patterns ``H`` realises on ``m`` points.

    Exact by enumerating the ``m``-subsets of the domain (numpy batches),
    stopping early when a subset reaches the proven upper bound
    ``min(|H|, (k+1)^m, sum_{i<=d} C(m, i))`` (the last term for binary
    classes, with ``d`` the VC dimension or a proven upper bound on it).
    For ``m`` larger than the domain the value is ``pi_H(n)`` on all ``n``
    points (points may repeat in the usual definition over sequences).

    Parameters
    ----------
    H : HypothesisClass
    m : int
        Number of points, ``m >= 0``.
    time_limit : float, optional
        Seconds; when stopped, ``exact=False`` with ``lower`` = the best subset
        found (the witness) and ``upper`` = the bound above.

    Returns
    -------
    DimensionResult
        Kind ``"growth"``: ``value`` = ``pi_H(m)``, ``witness`` = the sorted
        list of points of a subset achieving ``lower``; ``stats["m"]`` = m.

    References
    ----------
    Vapnik and Chervonenkis [VC71]; Sauer–Shelah lemma [Sau72].

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> thresholds = HypothesisClass.from_table([[int(x >= t) for x in range(6)] for t in range(7)])
    >>> r = growth_function(thresholds, 3)
    >>> r.value, r.exact, r.verify(thresholds)
    (4, True, True)
    """
    _check_class(H, "growth_function")
    if isinstance(m, bool) or not isinstance(m, (int, np.integer)) or m < 0:
        raise parameter_error("m", "growth_function", "a non-negative integer", m)
    time_limit = check_time_limit(time_limit, "growth_function")
    deadline = Deadline(time_limit)
    size = min(int(m), H.n_points)
    upper = min(H.n_distinct, H.num_labels ** size)
    stats: dict[str, Any] = {"m": int(m), "subsets": 0}
    if H.is_binary and upper > size + 1:
        share = None if time_limit is None else max(time_limit / 4, 1e-3)
        vc = vc_dimension(H, time_limit=share)
        stats["vc_upper"] = vc.upper
        upper = min(upper, sauer_shelah_bound(size, vc.upper))
    rows = H.distinct_rows
    best, best_points = -1, list(range(size))
    batch = max(1, _CHUNK_ELEMENTS // max(rows.shape[0] * max(size, 1), 1))
    combos = itertools.combinations(range(H.n_points), size)
    while best < upper:
        chunk = list(itertools.islice(combos, batch))
        if not chunk:
            break
        if best >= 0 and deadline.expired():
            stats["stopped"] = deadline.stop_label
            break
        subsets = np.array(chunk, dtype=np.int64).reshape(len(chunk), size)
        counts = _count_patterns(rows, subsets, H.num_labels)
        stats["subsets"] += len(chunk)
        i = int(np.argmax(counts))
        if counts[i] > best:
            best, best_points = int(counts[i]), [int(p) for p in subsets[i]]
    else:
        stats["reached_upper_bound"] = True
    if "stopped" not in stats and best < upper:
        upper = best  # every subset was counted
    stats["seconds"] = deadline.elapsed()
    return DimensionResult.bounds("growth", best, upper, best_points, **stats)


# ============================================================================ checkers
# Definition-level and independent of the solver above: they read the full
# table (duplicates included) and compare Python sets of label tuples.

def _witness_points(H: HypothesisClass, points: Any, what: str = "points") -> list[int]:
    if isinstance(points, (str, bytes, dict)) or not isinstance(points, (Sequence, np.ndarray)):
        raise InvalidWitnessError(f"{what} must be a list of point indices; got {type(points).__name__}")
    out = []
    for p in points:
        if isinstance(p, (bool, np.bool_)) or not isinstance(p, (int, np.integer)):
            raise InvalidWitnessError(f"{what}: {p!r} is not a point index (an integer)")
        if not 0 <= p < H.n_points:
            raise InvalidWitnessError(f"{what}: point {p} is outside the domain 0..{H.n_points - 1}")
        out.append(int(p))
    if len(set(out)) != len(out):
        raise InvalidWitnessError(f"{what}: a point occurs twice in {out}; give distinct points")
    return out


def _witness_labels(values: Any, length: int, what: str) -> list[int]:
    if isinstance(values, (str, bytes, dict)) or not isinstance(values, (Sequence, np.ndarray)):
        raise InvalidWitnessError(f"{what} must be a list of labels; got {type(values).__name__}")
    if len(values) != length:
        raise InvalidWitnessError(f"{what} has {len(values)} labels for {length} points; give one label per point")
    out = []
    for v in values:
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise InvalidWitnessError(f"{what}: {v!r} is not a label (an integer)")
        out.append(int(v))
    return out


def _all_patterns_seen(seen: set, size: int) -> bool:
    return all(pattern in seen for pattern in itertools.product((0, 1), repeat=size))


def is_shattered(H: HypothesisClass, points: Sequence[int]) -> bool:
    """True when every labelling of ``points`` with 0/1 is realised by a hypothesis of ``H``.

    Parameters
    ----------
    H : HypothesisClass
    points : sequence of int
        Distinct point indices.

    Returns
    -------
    bool

    Raises
    ------
    InvalidWitnessError
        If ``points`` is not a list of distinct point indices of ``H``.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 0], [0, 1], [1, 0], [1, 1], [1, 1]])
    >>> is_shattered(H, [0, 1]), is_shattered(HypothesisClass.from_table([[0, 0], [1, 1]]), [0, 1])
    (True, False)
    """
    pts = _witness_points(H, points)
    seen = {tuple(row[p] for p in pts) for row in H.table.tolist()}
    if len(seen) < 2 ** len(pts):
        return False
    return _all_patterns_seen(seen, len(pts))


def is_natarajan_shattered(H: HypothesisClass, points: Sequence[int], f0: Sequence[int],
                           f1: Sequence[int]) -> bool:
    """True when ``f0, f1`` differ at every point and every mix of them on ``points`` is realised.

    A mix takes ``f1`` on a subset ``T`` of ``points`` and ``f0`` on the rest.

    Parameters
    ----------
    H : HypothesisClass
    points : sequence of int
        Distinct point indices.
    f0, f1 : sequence of int
        Labels, aligned with ``points``.

    Returns
    -------
    bool

    Raises
    ------
    InvalidWitnessError
        If the points or label vectors are malformed.

    References
    ----------
    Natarajan [Nat89]; Ψ^N-shattering in [BCHL95].

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 2], [1, 2], [0, 0], [1, 0]])
    >>> is_natarajan_shattered(H, [0, 1], [0, 0], [1, 2])
    True
    >>> is_natarajan_shattered(H, [0, 1], [0, 0], [1, 1])
    False
    """
    pts = _witness_points(H, points)
    f0 = _witness_labels(f0, len(pts), "f0")
    f1 = _witness_labels(f1, len(pts), "f1")
    if any(a == b for a, b in zip(f0, f1)):
        return False
    seen = set()
    for row in H.table.tolist():
        mix = []
        for p, a, b in zip(pts, f0, f1):
            if row[p] == a:
                mix.append(0)
            elif row[p] == b:
                mix.append(1)
            else:
                break
        else:
            seen.add(tuple(mix))
    return _all_patterns_seen(seen, len(pts))


def is_graph_shattered(H: HypothesisClass, points: Sequence[int], f: Sequence[int]) -> bool:
    """True when every pattern of agreement with ``f`` on ``points`` is realised.

    For every subset ``T`` of ``points`` some hypothesis ``h`` has
    ``h(x) = f(x)`` exactly for the ``x`` in ``T``.

    Parameters
    ----------
    H : HypothesisClass
    points : sequence of int
        Distinct point indices.
    f : sequence of int
        Labels, aligned with ``points``.

    Returns
    -------
    bool

    Raises
    ------
    InvalidWitnessError
        If the points or the label vector are malformed.

    References
    ----------
    Natarajan [Nat89]; Ψ^G-shattering in [BCHL95].

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 0], [1, 0], [2, 1], [0, 2]])
    >>> is_graph_shattered(H, [0, 1], [0, 0]), is_graph_shattered(H, [0, 1], [1, 1])
    (True, False)
    """
    pts = _witness_points(H, points)
    f = _witness_labels(f, len(pts), "f")
    seen = {tuple(int(row[p] == lab) for p, lab in zip(pts, f)) for row in H.table.tolist()}
    return _all_patterns_seen(seen, len(pts))


def _verify_vc(H: HypothesisClass, witness: Any) -> int | None:
    try:
        return len(witness) if is_shattered(H, witness) else None
    except (InvalidWitnessError, TypeError):
        return None


def _verify_natarajan(H: HypothesisClass, witness: Any) -> int | None:
    try:
        ok = is_natarajan_shattered(H, witness["points"], witness["f0"], witness["f1"])
        return len(witness["points"]) if ok else None
    except (InvalidWitnessError, TypeError, KeyError, IndexError):
        return None


def _verify_graph(H: HypothesisClass, witness: Any) -> int | None:
    try:
        ok = is_graph_shattered(H, witness["points"], witness["f"])
        return len(witness["points"]) if ok else None
    except (InvalidWitnessError, TypeError, KeyError, IndexError):
        return None


def _verify_growth(H: HypothesisClass, witness: Any) -> int | None:
    """Number of distinct label patterns on the witness points (what a growth result's lower bound claims)."""
    try:
        pts = _witness_points(H, witness)
    except (InvalidWitnessError, TypeError):
        return None
    return len({tuple(row[p] for p in pts) for row in H.table.tolist()})


register_verifier("vc", _verify_vc)
register_verifier("natarajan", _verify_natarajan)
register_verifier("graph", _verify_graph)
register_verifier("growth", _verify_growth)
