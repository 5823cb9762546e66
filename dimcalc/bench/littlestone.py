"""Benchmarks of the Littlestone-type solvers (``dimcalc bench --suite littlestone...``).

Suites
------
``littlestone-vs-textbook``
    (a) side by side in one run: :func:`dimcalc.littlestone.littlestone_dimension`
    against :func:`textbook_littlestone`, the plain memoised recursion
    ``LD(H) = max_x 1 + min(LD(H^0_x), LD(H^1_x))`` over frozensets of
    hypotheses, on classes where the textbook recursion needs seconds.
``littlestone``
    (b) exact answers on the issue's named classes (each should take < 10 s).
``littlestone-stretch``
    (c) larger classes, run under ``options.solver_limit``; a stopped run
    reports its proven bounds.

Every answer's witness is checked (path realisation) before it is reported.
Classes come from :mod:`dimcalc.generators` or are built here with numpy (lines
with vertical lines, boxes on grids of any side).
"""

from __future__ import annotations

import functools
import math
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from .. import generators
from ..classes.hypothesis_class import HypothesisClass
from ..errors import InvalidClassError, InvalidParameterError
from ..littlestone import littlestone_dimension, multiclass_littlestone_dimension, psi_littlestone_dimension
from . import BenchOptions, BenchRow, measure, register_suite

__all__ = [
    "textbook_littlestone",
    "lines_class",
    "thresholds_class",
    "parities_class",
    "intervals_class",
    "boxes_class",
    "random_class",
    "check_tree",
]


# ---------------------------------------------------------------------------- classes


def lines_class(p: int) -> HypothesisClass:
    """All lines of the affine plane Z_p^2 as subsets of its p^2 points (FX §5, Line_p); LDim 2 for p >= 2."""
    xs, ys = np.divmod(np.arange(p * p), p)
    rows = [((ys - (m * xs + c)) % p == 0) for m in range(p) for c in range(p)]
    rows += [(xs == c) for c in range(p)]
    return HypothesisClass(np.array(rows), name=f"lines-Z{p}^2")


def thresholds_class(n: int) -> HypothesisClass:
    """Thresholds ``h_t(x) = [x >= t]`` on n points, t = 0..n; LDim floor(log2(n + 1)) (``generators.thresholds``)."""
    return generators.thresholds(n)


def parities_class(d: int) -> HypothesisClass:
    """Parities ``<s, x> mod 2`` over {0,1}^d (2^d hypotheses, 2^d points); LDim d (``generators.parities``)."""
    return generators.parities(d)


def intervals_class(n: int) -> HypothesisClass:
    """Intervals ``[a, b]`` on n points plus the empty set (``generators.intervals``)."""
    return generators.intervals(n)


def boxes_class(side: int) -> HypothesisClass:
    """Axis-parallel boxes on a side x side grid, plus the empty set (FX §4.1, BOX)."""
    a, b = np.triu_indices(side)
    x = np.arange(side)
    one = (x[None, :] >= a[:, None]) & (x[None, :] <= b[:, None])  # (I, side) intervals
    rows = (one[:, None, :, None] & one[None, :, None, :]).reshape(len(a) * len(a), side * side)
    rows = np.vstack([np.zeros((1, side * side), dtype=bool), rows])
    return HypothesisClass(rows, name=f"boxes-{side}x{side}")


def random_class(m: int, n: int, labels: int = 2, seed: int = 0) -> HypothesisClass:
    """m uniformly random hypotheses on n points with the given number of labels."""
    rng = np.random.default_rng(seed)
    return HypothesisClass(
        rng.integers(0, labels, size=(m, n)), num_labels=labels, name=f"random-{m}x{n}-{labels}lab-seed{seed}"
    )


# ---------------------------------------------------------------------------- baseline


def textbook_littlestone(H: HypothesisClass, deadline: float | None = None) -> int:
    """The plain memoised textbook recursion over frozensets of hypotheses (the baseline).

    ``LD(V) = max over points x with both children non-empty of 1 + min(LD(V^0_x), LD(V^1_x))``,
    ``LD(V) = 0`` otherwise; ``functools.lru_cache`` over frozensets of row
    tuples.  No pruning, no bitsets, no ordering.  Raises TimeoutError after
    ``deadline`` (a ``time.perf_counter()`` value).
    """
    rows = [tuple(int(v) for v in r) for r in H.distinct_rows]
    n = H.n_points
    counter = [0]

    @functools.cache
    def ld(V: frozenset) -> int:
        counter[0] += 1
        if deadline is not None and not counter[0] % 1024 and time.perf_counter() > deadline:
            raise TimeoutError
        best = 0
        for x in range(n):
            V0 = frozenset(h for h in V if h[x] == 0)
            if not V0 or len(V0) == len(V):
                continue
            V1 = V - V0
            best = max(best, 1 + min(ld(V0), ld(V1)))
        return best

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10000))
    try:
        return ld(frozenset(rows))
    finally:
        sys.setrecursionlimit(limit)


# ---------------------------------------------------------------------------- witness check


def check_tree(H: HypothesisClass, tree: dict, edge: Callable[[dict, int], Callable[[int], bool]]) -> int | None:
    """Depth certified by a complete tree whose every path is realised by its leaf (None if invalid)."""
    depths: set[int] = set()
    table = H.table

    def walk(node: dict, path: list, level: int) -> bool:
        if "hypothesis" in node:
            row = table[node["hypothesis"]]
            depths.add(level)
            return all(test(int(row[x])) for x, test in path)
        x = node["point"]
        return all(walk(child, path + [(x, edge(node, b))], level + 1) for b, child in enumerate(node["children"]))

    if not walk(tree, [], 0) or len(depths) != 1:
        return None
    return depths.pop()


def _binary_edge(node: dict, b: int) -> Callable[[int], bool]:
    return lambda v: v == b


def _labels_edge(node: dict, b: int) -> Callable[[int], bool]:
    lab = node["labels"][b]
    return lambda v: v == lab


def _map_edge(node: dict, b: int) -> Callable[[int], bool]:
    phi = node["map"]
    return lambda v: phi[v] == b


def _edge_for(kind: str) -> Callable[[dict, int], Callable[[int], bool]]:
    if kind == "littlestone":
        return _binary_edge
    if kind == "multiclass_littlestone":
        return _labels_edge
    return _map_edge


# ---------------------------------------------------------------------------- cases


def _row(
    suite: str,
    case: str,
    H: HypothesisClass,
    solve: Callable[[], Any],
    options: BenchOptions,
    repeat: int | None = None,
    **extra: Any,
) -> BenchRow:
    options.say(f"  {case} ({H.n_distinct} hypotheses x {H.n_points} points)")
    seconds, peak, r = measure(solve, repeat or options.repeat)
    certified = check_tree(H, r.witness, _edge_for(r.kind.split(":")[0]))
    if certified != r.lower:
        raise AssertionError(f"{case}: witness certifies {certified}, solver claims {r.lower}")
    answer = r.value if r.exact else [r.lower, r.upper]
    return BenchRow(
        suite=suite,
        case=case,
        answer=answer,
        exact=r.exact,
        seconds=seconds,
        peak_mb=peak,
        note=f"{H.n_distinct}x{H.n_points}, nodes={r.stats.get('nodes')}",
        extra={"kind": r.kind, **r.stats, **extra},
    )


SIDE_BY_SIDE = {
    # case -> (builder, quick builder)
    "lines-Z5^2": (lambda: lines_class(5), lambda: lines_class(3)),
    "intervals-16": (lambda: intervals_class(16), lambda: intervals_class(6)),
    "random-100x20": (lambda: random_class(100, 20, seed=7), lambda: random_class(12, 5, seed=7)),
}


@register_suite("littlestone-vs-textbook", "(a) LDim solver vs the plain memoised textbook recursion, side by side")
def side_by_side(options: BenchOptions) -> list[BenchRow]:
    rows = []
    for case, (build, quick) in SIDE_BY_SIDE.items():
        if not options.wants(case):
            continue
        H = quick() if options.quick else build()
        if options.quick:
            case = f"{case} [quick: {H.name}]"
        row = _row("littlestone-vs-textbook", case, H, lambda: littlestone_dimension(H), options)
        options.say(f"  {case}: textbook baseline (limit {options.baseline_limit:g} s)")
        t0 = time.perf_counter()
        try:
            base = textbook_littlestone(H, deadline=t0 + options.baseline_limit)
            row.baseline_seconds = time.perf_counter() - t0
            row.baseline_answer = base
            if base != row.answer:
                raise AssertionError(f"{case}: textbook {base} != solver {row.answer}")
        except TimeoutError:
            row.baseline_seconds = math.inf
        row.ratio = row.baseline_seconds / max(row.seconds, 1e-9)
        rows.append(row)
    return rows


def _named_cases(quick: bool) -> list[tuple[str, Callable[[], HypothesisClass], str, Any]]:
    """(case, builder, solver kind, family) for suite (b)."""
    if quick:
        return [
            ("lines-Z5^2", lambda: lines_class(5), "LD", None),
            ("thresholds-31", lambda: thresholds_class(31), "LD", None),
            ("parities-4", lambda: parities_class(4), "LD", None),
            ("intervals-16", lambda: intervals_class(16), "LD", None),
            ("boxes-4x4", lambda: boxes_class(4), "LD", None),
            ("random-60x12", lambda: random_class(60, 12, seed=1), "LD", None),
            ("mc-random-30x6-4lab MLD", lambda: random_class(30, 6, 4, seed=2), "MLD", None),
            ("mc-random-30x6-4lab Psi^B", lambda: random_class(30, 6, 4, seed=2), "psi", "B"),
            ("mc-random-30x6-8lab Psi^N", lambda: random_class(30, 6, 8, seed=3), "psi", "N"),
            ("mc-random-30x6-8lab Psi^bin", lambda: random_class(30, 6, 8, seed=3), "psi", "bin"),
            ("mc-random-20x6-8lab uniform Psi^bin", lambda: random_class(20, 6, 8, seed=4), "uniform", "bin"),
        ]
    return [
        ("lines-Z31^2", lambda: lines_class(31), "LD", None),
        ("thresholds-4095", lambda: thresholds_class(4095), "LD", None),
        ("parities-10", lambda: parities_class(10), "LD", None),
        ("intervals-128", lambda: intervals_class(128), "LD", None),
        ("boxes-12x12", lambda: boxes_class(12), "LD", None),
        ("random-2000x100", lambda: random_class(2000, 100, seed=1), "LD", None),
        ("mc-random-300x20-4lab MLD", lambda: random_class(300, 20, 4, seed=2), "MLD", None),
        ("mc-random-300x20-4lab Psi^B", lambda: random_class(300, 20, 4, seed=2), "psi", "B"),
        ("mc-random-300x20-8lab Psi^N", lambda: random_class(300, 20, 8, seed=3), "psi", "N"),
        ("mc-random-300x20-8lab Psi^bin", lambda: random_class(300, 20, 8, seed=3), "psi", "bin"),
        ("mc-random-100x12-8lab uniform Psi^bin", lambda: random_class(100, 12, 8, seed=4), "uniform", "bin"),
    ]


def _solver(kind: str, family: Any, H: HypothesisClass, time_limit: float | None) -> Callable[[], Any]:
    if kind == "LD":
        return lambda: littlestone_dimension(H, time_limit=time_limit)
    if kind == "MLD":
        return lambda: multiclass_littlestone_dimension(H, time_limit=time_limit)
    return lambda: psi_littlestone_dimension(H, family, uniform=kind == "uniform", time_limit=time_limit)


@register_suite("littlestone", "(b) exact Littlestone-type dimensions of the named classes (target < 10 s each)")
def named(options: BenchOptions) -> list[BenchRow]:
    rows = []
    for case, build, kind, family in _named_cases(options.quick):
        if not options.wants(case):
            continue
        H = build()
        rows.append(_row("littlestone", case, H, _solver(kind, family, H, options.solver_limit), options))
    return rows


STRETCH = [
    ("lines-Z61^2", lambda: lines_class(61)),
    ("parities-12", lambda: parities_class(12)),
    ("intervals-256", lambda: intervals_class(256)),
    ("boxes-20x20", lambda: boxes_class(20)),
    ("boxes-32x32", lambda: boxes_class(32)),
    ("thresholds-8191", lambda: thresholds_class(8191)),
    # 65 536 x 65 535 = 4.3e9 cells: over MAX_CELLS (a dense table would take 4.3 GB); refused before building.
    ("thresholds-65535", lambda: thresholds_class(65535)),
    ("random-10000x64", lambda: random_class(10000, 64, seed=1)),
]


@register_suite("littlestone-stretch", "(c) stretch: large classes under options.solver_limit (bounds if stopped)")
def stretch(options: BenchOptions) -> list[BenchRow]:
    rows = []
    cases = [("thresholds-1023", lambda: thresholds_class(1023))] if options.quick else STRETCH
    for case, build in cases:
        if not options.wants(case):
            continue
        t0 = time.perf_counter()
        try:
            H = build()
        except (InvalidClassError, InvalidParameterError, MemoryError) as exc:
            rows.append(
                BenchRow(
                    suite="littlestone-stretch",
                    case=case,
                    answer=None,
                    exact=False,
                    seconds=math.nan,
                    peak_mb=math.nan,
                    note=f"class not built: {exc}",
                )
            )
            continue
        built = time.perf_counter() - t0
        rows.append(
            _row(
                "littlestone-stretch",
                case,
                H,
                lambda: littlestone_dimension(H, time_limit=options.solver_limit),
                options,
                repeat=1,
                build_seconds=round(built, 3),
            )
        )
    return rows
