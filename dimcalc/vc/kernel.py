"""Compiled depth-first search for a shattered set of a target size (numba).

The same search as :meth:`dimcalc.vc.search._Search.find` -- shattering of
virtual columns (VC: the points, Vapnik-Chervonenkis 1971; graph and
Natarajan: the indicator and pair columns of the Psi-dimensions of
Ben-David, Cesa-Bianchi, Haussler, Long 1995, recalled in BGS §1.2) as
``uint64`` bitsets over the distinct hypotheses, a set extended by a column
that splits every cell of its partition with at least ``2^(r - 1)``
hypotheses on each side (``r`` columns still to add), candidates inherited
from the parent and restricted to later points -- compiled with numba, so
that a node costs nanoseconds rather than the microseconds of a numpy step:

* a candidate's test stops at the first cell it fails (most fail at once);
* nothing is allocated per node: one explicit stack of cells and candidate
  lists, sized once (``2^(T+1) * W`` words of cells, ``T * R`` candidates);
* the clock is read by work done (every ``2^22`` words of tests), through
  ``numba.objmode``, so a time limit holds inside the compiled loop;
* from target 4 (when ``R^2 * ceil(R/64)`` words fit :data:`TRI_BYTES`) a
  *triple filter*: every 3-subset of a shattered ``T``-set passes the test
  at ``2^(T-3)``, so the bitset ``tri[s, y]`` of the columns ``z`` with
  ``{s, y, z}`` passing (built lazily, per pair) cuts the candidates of
  ``S + {y}`` to ``cand(S) & tri[s, y]`` for every ``s`` in ``S``, and a
  candidate is dropped before its cells are tested unless ``r - 1`` others
  form passing triples with it and every column of the set (the members of
  a completion do).  Boxes over a 16 x 16 grid: no 5 points have all their
  triples shattered, so VC <= 4 is proved in a second and a half.

The module imports numba lazily (:func:`available` finds it without
importing it); the compiled function is cached on disk (``cache=True``), so
only the first run on a machine pays the compilation (a few seconds;
``make install`` warms the cache, :func:`warm`).  The search falls back to
the numpy path when numba is missing, and uses the kernel only when the time
left is enough to load it (:func:`usable`).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import math
import os
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

import numpy as np

from . import rules

__all__ = [
    "available",
    "usable",
    "bytes_needed",
    "find",
    "warm",
    "cached",
    "FORCE",
    "MAX_BYTES",
    "MIN_SECONDS",
    "TRI_BYTES",
    "PAIR_BYTES",
    "ADJACENCY",
    "ADJ_WITH_TRIPLES",
    "HEAD_MIN_TARGET",
    "TRUSS",
    "Filters",
    "filters_for",
    "pair_rows_from_indicators",
    "workspace",
    "WORK_KEEP_BYTES",
]

#: ``True``/``False`` forces the compiled search on/off (tests); ``None`` lets the search choose.
FORCE: bool | None = None
#: With a time limit the kernel is loaded from the disk cache only when this many seconds are left ...
MIN_SECONDS = 2.0
#: ... and compiled afresh (nothing cached) only when this many are left.
COMPILE_SECONDS = 30.0

_compiled: Any = None
_failed = False
_built_marker = ""
_marked = False  # the disk cache is known to hold this process's kernel (checked once: 4 stats a call otherwise)


def available() -> bool:
    """Whether numba is installed (and ``DIMCALC_JIT`` is not ``0``); found without importing it."""
    if _failed or os.environ.get("DIMCALC_JIT", "1") == "0":
        return False
    return importlib.util.find_spec("numba") is not None


def usable(seconds_left: float | None) -> bool:
    """Whether to run the compiled search with ``seconds_left`` of the budget (``None``: no limit).

    Loading a compiled kernel from the disk cache takes about half a second,
    compiling it afresh several seconds: with a time limit the kernel is used
    when what is left covers the one or the other (:func:`cached`).
    """
    if _compiled is not None:
        return True
    if not available():
        return False
    return seconds_left is None or seconds_left >= (MIN_SECONDS if cached() else COMPILE_SECONDS)


def _numba_version() -> str:
    """numba's version, read once per process (reading package metadata takes about a millisecond)."""
    if not _version:
        _version.append(importlib.metadata.version("numba"))
    return _version[0]


_version: list[str] = []


def _marker() -> str:
    """Path of the file that says the kernel of this source and numba version is in the disk cache."""
    here = os.path.dirname(__file__)
    stamp = "-".join(
        f"{int(st.st_mtime_ns)}-{st.st_size}"
        for st in (
            os.stat(os.path.join(here, name))
            for name in ("_kernel_impl.py", "_kernel_steps.py", "_kernel_heads.py", "rules.py")
        )
    )
    stamp += f"-{_numba_version()}"
    return os.path.join(os.path.dirname(__file__), "__pycache__", f"dimcalc-kernel-{stamp}.ok")


def cached() -> bool:
    """Whether the compiled kernel of this source is in the disk cache (written by :func:`warm` or a first use)."""
    try:
        return os.path.exists(_marker())
    except (OSError, importlib.metadata.PackageNotFoundError):
        return False


def _build() -> Any:
    """Compile (or load from the disk cache) the kernel; one per process."""
    global _compiled, _failed, _built_marker
    if _compiled is not None:
        return _compiled
    try:
        from ._kernel_numba import import_numba

        import_numba()  # numba without its BLAS probe (scipy.linalg, ~0.4 s of the load) and cffi set-up: unused here
        from . import _kernel_impl
    except ImportError:  # pragma: no cover - numba is a dependency; kept for a broken install
        _failed = True
        raise
    # the marker of the source this process compiles (or loads): a source edited while it runs is not marked
    _built_marker = _marker()
    if not cached():
        # numba's disk cache knows the file of each function, not of the rules it inlines (dimcalc.vc.rules):
        # a kernel compiled before the rules last changed is dropped and compiled afresh.
        for fn in _kernel_impl.COMPILED:
            fn._cache.flush()
    _compiled = _kernel_impl.search
    return _compiled


def touch_marker(path: str) -> None:
    """Create the empty marker file ``path`` that says a compiled kernel is in numba's disk cache (best
    effort: a read-only install just compiles again); :mod:`dimcalc.vc.sparse_jit` uses it too."""
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w"):
            pass
    except OSError:
        pass


def _mark_cached() -> None:
    """Record that the kernel of the source this process built (:func:`_build`) is in the disk cache."""
    if _built_marker and _built_marker == _marker():
        touch_marker(_built_marker)


#: The kernel is not used when its arrays would take more than this (the numpy search works in bounded steps).
MAX_BYTES = 1 << 30
#: The triple filter is used from this target on ...
TRI_MIN_TARGET = 4
#: ... when its bitsets (``R^2 * ceil(R / 64)`` words for ``R`` root columns) fit in this many bytes.
TRI_BYTES = 64 << 20
#: Nodes with at most ``ADJ_MAX`` (256) candidates test them against each other one level down and peel them
#: (default on) ...
ADJACENCY = True
#: ... also with the triple filter on (default off: there the step's tests replace the children's triple filter,
#: which is cheaper and prunes more -- boxes over 20 x 20, target 5: 23 CPU s without it, not done in 128 with it;
#: but halfspaces over 16 x 16, target 4, its first 8 first columns: 35 CPU s without it, 12 with it).
ADJ_WITH_TRIPLES = False
#: With the triple filter off (its bitsets too large), the triples of the set's first column are kept instead
#: (``R * ceil(R / 64)`` words, rebuilt for each first column), from this target on.
HEAD_MIN_TARGET = 4
#: With the head triples on, every head row of the set's first column is built at once and cut to its truss
#: (:mod:`dimcalc.vc._kernel_heads`, :func:`dimcalc.vc.rules.truss_need`), from target 4 (default on).
TRUSS = True
#: The pair filter is used from this target on ...
PAIR_MIN_TARGET = 3
#: ... when its bitsets (``R * ceil(R / 64)`` words) fit in this many bytes.
PAIR_BYTES = 64 << 20


def bytes_needed(n_root: int, n_words: int, target: int) -> int:
    """Bytes the compiled search allocates for ``n_root`` columns of ``n_words`` words (at most)."""
    rw = max(1, (n_root + 63) // 64)
    tri = n_root * n_root * rw * 8 if n_root * n_root * rw * 8 <= TRI_BYTES else 0
    pair = n_root * rw * 8 if n_root * rw * 8 <= PAIR_BYTES else 0
    return (
        (1 << (target + 1)) * n_words * 8
        + 2 * n_root * n_words * 8
        + (target + 4) * n_root * 8
        + tri
        + pair
        + n_root * rw * 8
    )


class Filters:
    """The pair and triple rows of one target's root columns, kept for every piece run in one process.

    A row (``pair[y]``: the columns ``z`` with ``{y, z}`` passing at
    ``2^(T-2)``; ``tri[s, y]``: with ``{s, y, z}`` passing at ``2^(T-3)``) is a
    function of the root columns and the target only, so the rows one piece
    builds serve the pieces after it, and a row built earlier never changes an
    answer.  The arrays are allocated on first use (zeroed pages cost nothing
    until written); forked workers inherit them and keep their own rows
    (copy-on-write); pickled (a Dask worker), they are dropped and rebuilt
    there.  :meth:`fill_pairs` builds every pair row at once, before the
    workers fork, so that they share them instead of each building them.

    Examples
    --------
    >>> f = Filters(3, pairs=True, triples=False)
    >>> [a.shape for a in f.arrays()]
    [(0, 1), (0,), (3, 1), (3,)]
    """

    def __init__(self, n_root: int, *, pairs: bool, triples: bool) -> None:
        self.n_root = n_root
        self.pairs = pairs
        self.triples = triples
        self._arrays: tuple[np.ndarray, ...] | None = None
        self.key = uuid.uuid4().hex  # the rows' identity where they are sent (a Dask worker keeps them: _SENT)
        self._sent = False

    def arrays(self) -> tuple[np.ndarray, ...]:
        """``(tri, tri_done, pair, pair_done)``, allocated (zero) on first use; empty when a filter is off."""
        if self._arrays is None:
            n, rw = self.n_root, max(1, (self.n_root + 63) // 64)
            t = n * n if self.triples else 0
            p = n if self.pairs else 0
            self._arrays = (
                np.zeros((t, rw), dtype=np.uint64),
                np.zeros(t, dtype=np.uint8),
                np.zeros((p, rw), dtype=np.uint64),
                np.zeros(p, dtype=np.uint8),
            )
            if self._sent:  # the pieces after this one in this worker process read the same rows
                _SENT[self.key] = self._arrays
                while len(_SENT) > SENT_KEEP:
                    _SENT.pop(next(iter(_SENT)))
        return self._arrays

    def complete(self) -> bool:
        """Whether the rows are all built: the pair filter alone (no triple rows, built lazily), every pair row."""
        return self.pairs and not self.triples and self._arrays is not None and bool(self._arrays[3].all())

    def __getstate__(self) -> dict:
        # Sent to a Dask worker: complete pair rows go along (R * ceil(R / 64) words, e.g. 0.5 MB for Natarajan
        # 5000 x 16, built here in 0.06 s); other rows are built there, once per worker (_SENT).
        return {**self.__dict__, "_arrays": self._arrays if self.complete() else None}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state, _sent=True)
        if self._arrays is None:
            self._arrays = _SENT.get(self.key)

    def fill_pairs(
        self,
        ones: np.ndarray,
        zeros: np.ndarray,
        rank: np.ndarray,
        target: int,
        partial: bool,
        check: Callable[[], None] | None = None,
        indicators: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
    ) -> int:
        """Build every pair row not built yet (``R * 2R * W`` words of tests at most); the words tested.

        ``check`` (e.g. a deadline's) is called between steps of rows, each of about 2^24 words.
        ``indicators`` ``(ind, one, zero)`` (dead hypotheses, Natarajan pairs: ``ones[z] == ind[one[z]]``,
        ``zeros[z] == ind[zero[z]]``): the rows are read off the ``I x I`` counts of the indicators' common
        hypotheses (:func:`pair_rows_from_indicators`), ``I^2 * W`` words instead of ``2 R^2 * W``.
        """
        if not self.pairs:
            return 0
        if indicators is not None and partial:
            _, _, pair, pair_done = self.arrays()
            if not pair_done.all():
                ind, one, zero = indicators
                if check is not None:
                    check()
                pair[:] = pair_rows_from_indicators(ind, one, zero, rank, rules.pair_need(target) if target >= 2 else 1)
                pair_done[:] = 1
                return len(ind) * len(ind) * ind.shape[1]
            return 0
        _build()
        from . import _kernel_impl

        _, _, pair, pair_done = self.arrays()
        need = rules.pair_need(target) if target >= 2 else 1
        ones, zeros = np.ascontiguousarray(ones), np.ascontiguousarray(zeros)
        rank = np.ascontiguousarray(rank, dtype=np.int64)
        n = len(rank)
        step = max(1, (1 << 24) // max(1, 2 * n * ones.shape[1]))
        work = 0
        for lo in range(0, n, step):
            if check is not None:
                check()
            work += int(
                _kernel_impl.fill_pairs(pair, pair_done, ones, zeros, rank, bool(partial), need, lo, min(n, lo + step))
            )
        return work


#: The filters' rows a worker process keeps for the pieces it is sent (by :attr:`Filters.key`), the latest
#: :data:`SENT_KEEP` searches' -- rows depend on their root columns and target only, so reusing them never changes
#: an answer; without this, each piece sent to a Dask worker rebuilt every pair row.
_SENT: dict[str, tuple[np.ndarray, ...]] = {}
SENT_KEEP = 2

#: The head rows and head graph of a call (:func:`workspace`) are kept for the next call up to this size each.
WORK_KEEP_BYTES = 16 << 20
_WORK = threading.local()
_EMPTY_ROWS = np.zeros((0, 1), dtype=np.uint64)


def workspace(n_root: int) -> tuple[np.ndarray, np.ndarray]:
    """The two ``R x ceil(R / 64)`` arrays of head rows and head graph a compiled search fills (any contents).

    Kept by this thread from one call to the next when they take at most :data:`WORK_KEEP_BYTES` each: a
    search cut into many calls (the narrowed Natarajan search calls the kernel once per first column: 1 920
    calls on random 5 000 x 16 with 16 labels) would otherwise allocate them afresh each time, and with
    large allocations served by ``mmap`` -- glibc does so from 128 kB once ``MALLOC_TRIM_THRESHOLD_`` is set,
    as a Dask nanny sets it for its workers -- each call's first writes fault in fresh zeroed pages: there,
    30 % more CPU than in one process (715 000 page faults against 33 000).

    >>> a, b = workspace(100)
    >>> a.shape, b.shape, workspace(100)[0] is a
    ((100, 2), (100, 2), True)
    """
    shape = (n_root, max(1, (n_root + 63) // 64))
    kept = getattr(_WORK, "arrays", None)
    if kept is not None and kept[0].shape == shape:
        return kept
    arrays = (np.empty(shape, dtype=np.uint64), np.empty(shape, dtype=np.uint64))
    _WORK.arrays = arrays if shape[0] * shape[1] * 8 <= WORK_KEEP_BYTES else None
    return arrays


def pair_rows_from_indicators(
    ind: np.ndarray, one: np.ndarray, zero: np.ndarray, rank: np.ndarray, need: int
) -> np.ndarray:
    """The pair rows (``R x ceil(R / 64)`` words) of columns whose sides are label indicators.

    Column ``y`` has side 1 ``ind[one[y]]`` and side 0 ``ind[zero[y]]``; the
    cells of ``{y}`` are its two sides, so ``{y, z}`` passes at ``need`` when
    each of the 4 intersections of a side of ``y`` with a side of ``z`` holds
    ``need`` hypotheses, on another point (:func:`dimcalc.vc._kernel_steps._pairs`).

    >>> ind = np.array([[0b0011], [0b1100], [0b0101], [0b1010]], dtype=np.uint64)
    >>> pair_rows_from_indicators(ind, np.array([1, 3]), np.array([0, 2]), np.array([0, 1]), 1).tolist()
    [[2], [1]]
    """
    n_ind = len(ind)
    common = np.empty((n_ind, n_ind), dtype=np.int64)
    for i in range(n_ind):
        common[i] = np.bitwise_count(ind[i] & ind).sum(axis=1, dtype=np.int64)
    enough = common >= need  # I x I booleans, gathered per side (not four R x R count arrays: 0.29 -> 0.03 s)
    side1, side0 = enough[one], enough[zero]
    passed = side1[:, one] & side1[:, zero] & side0[:, one] & side0[:, zero] & (rank[:, None] != rank[None, :])
    n = len(rank)
    words = max(1, (n + 63) // 64)
    packed = np.zeros((n, words * 8), dtype=np.uint8)
    bits = np.packbits(passed, axis=1, bitorder="little")
    packed[:, : bits.shape[1]] = bits
    return packed.view("<u8").astype(np.uint64, copy=False)


def filters_for(n_root: int, target: int, triples: bool | None = None, pairs: bool | None = None) -> Filters:
    """The :class:`Filters` :func:`find` uses for ``n_root`` columns at ``target`` (same defaults as :func:`find`)."""
    rw = max(1, (n_root + 63) // 64)
    if triples is None:
        triples = target >= max(TRI_MIN_TARGET, 3) and n_root * n_root * rw * 8 <= TRI_BYTES
    if pairs is None:
        pairs = target >= PAIR_MIN_TARGET and n_root * rw * 8 <= PAIR_BYTES
    return Filters(n_root, pairs=bool(pairs), triples=bool(triples))


def find(
    ones: np.ndarray,
    zeros: np.ndarray,
    rank: np.ndarray,
    heads: np.ndarray,
    target: int,
    partial: bool,
    seconds_left: float | None,
    triples: bool | None = None,
    pairs: bool | None = None,
    adjacency: bool | None = None,
    filters: Filters | None = None,
    head: bool | None = None,
    truss: bool | None = None,
    indicators: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
    distinct: bool | None = None,
) -> tuple[str, list[int], dict[str, int]]:
    """Run the compiled search over root columns ``0 .. R-1``; ``(status, chosen, stats)``.

    ``ones``/``zeros`` (``R x W`` words) and ``rank`` hold the columns both
    of whose sides have ``2^(target - 1)`` hypotheses, in exploration order;
    ``heads`` (root positions) the columns the set may start with.  Status is
    ``"found"`` (``chosen`` lists root positions), ``"none"`` or ``"stopped"``.
    ``triples`` forces the triple filter on or off (default: on when
    ``target >= TRI_MIN_TARGET`` and its bitsets fit :data:`TRI_BYTES`).
    ``filters``: the rows of earlier pieces of the same target and root
    (:class:`Filters`, which then decides ``triples`` and ``pairs``); default fresh.
    ``head`` forces the head triples (the triple rows of the set's first
    column, over its pool) on or off; default: from :data:`HEAD_MIN_TARGET`
    when the triple filter is off and their ``R * ceil(R/64)`` words fit
    :data:`TRI_BYTES`.  ``truss`` forces the head truss (with the head triples) on or off; default
    :data:`TRUSS`.  ``indicators`` ``(ind, one, zero)``: with dead hypotheses, the label indicators
    (``I x W`` words) with ``ones[z] == ind[one[z]]`` and ``zeros[z] == ind[zero[z]]`` (Natarajan pairs):
    the head rows are then read off the indicators' counts.  ``distinct``: whether every column is on its own
    point (default: counted from ``rank``; a caller running many searches on one ``rank`` counts it once).
    """
    fn = _build()
    n_root = len(rank)
    if filters is None:
        filters = filters_for(n_root, target, triples, pairs)
    triples, pairs = filters.triples, filters.pairs
    tri, tri_done, pair, pair_done = filters.arrays()
    if adjacency is None:
        adjacency = ADJACENCY and (ADJ_WITH_TRIPLES or not triples)
    if head is None:
        head = target >= HEAD_MIN_TARGET
    head = bool(head) and not triples and n_root * max(1, (n_root + 63) // 64) * 8 <= TRI_BYTES
    head_rows, head_sym = workspace(n_root) if head and target >= 3 else (_EMPTY_ROWS, _EMPTY_ROWS)
    rank = np.ascontiguousarray(rank, dtype=np.int64)
    stop_at = math.inf if seconds_left is None else time.monotonic() + seconds_left
    stats = np.zeros(6, dtype=np.int64)
    chosen = np.zeros(max(target, 1), dtype=np.int64)
    try:
        status = fn(
            np.ascontiguousarray(ones),
            np.ascontiguousarray(zeros),
            rank,
            np.ascontiguousarray(heads, dtype=np.int64),
            int(target),
            bool(partial),
            float(stop_at),
            bool(triples),
            bool(pairs),
            bool(adjacency),
            head,
            bool(TRUSS if truss is None else truss),
            *_indicator_args(indicators, bool(partial)),
            bool(len(np.unique(rank)) == n_root) if distinct is None else bool(distinct),
            stats,
            chosen,
            tri,
            tri_done,
            pair,
            pair_done,
            head_rows,
            head_sym,
        )
    except SystemError as error:
        # An interrupt (Ctrl-C) raised while the compiled loop reads the clock reaches here wrapped.
        if isinstance(error.__cause__, KeyboardInterrupt):
            raise KeyboardInterrupt from None
        raise
    global _marked
    if not _marked:
        if not cached():
            _mark_cached()
        _marked = True
    label = {0: "none", 1: "found", 2: "stopped"}[int(status)]
    found = [int(v) for v in chosen[:target]] if status == 1 else []
    return (
        label,
        found,
        {
            "nodes": int(stats[0]),
            "tests": int(stats[1]),
            "triple_rows": int(stats[2]),
            "pair_rows": int(stats[3]),
            "core_peeled": int(stats[4]),
            "truss_cut": int(stats[5]),
        },
    )


def _indicator_args(
    indicators: tuple[np.ndarray, np.ndarray, np.ndarray] | None, partial: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The kernel's ``ind, one_ind, zero_ind`` (empty when not given, or without dead hypotheses)."""
    if indicators is None or not partial:
        return np.zeros((0, 1), dtype=np.uint64), np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    ind, one, zero = indicators
    return (
        np.ascontiguousarray(ind, dtype=np.uint64),
        np.ascontiguousarray(one, dtype=np.int64),
        np.ascontiguousarray(zero, dtype=np.int64),
    )


def warm() -> None:
    """Compile the kernel (or load it from the disk cache) on tiny classes, both modes: ``make install`` calls it."""
    ones = np.array([[0b0101], [0b0011], [0b1111]], dtype=np.uint64)
    zeros = np.array([[0b1010], [0b1100], [0b0000]], dtype=np.uint64)
    for partial in (False, True):
        for triples in (False, True):
            find(ones, zeros, np.arange(3), np.arange(3), 3, partial, None, triples, triples, triples)
