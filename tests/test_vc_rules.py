"""The VC search's pruning rules (dimcalc.vc.rules) are necessary conditions: checked on every shattered set.

Every shattered set of random small classes is enumerated at the level of the
definition (itertools and Python sets, nothing from dimcalc), and each rule
the search prunes with must hold on it -- the size rule for every subset and
added column, the pair and triple thresholds on every pair and triple, the
downward closure on the candidates; then the search forced through each rule
(numpy, compiled with each optional rule alone) gives the brute-force value.
The ``hard`` bench suite runs in its quick form.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings

from brute_vc import brute_graph, brute_natarajan, brute_vc
from dimcalc.vc import kernel, rules, vc_dimension
from profile_examples import examples
from strategies import classes

BINARY = classes(min_labels=2, max_labels=2, min_points=1, max_points=6, max_rows=40, biased=True)


def _shattered_sets(rows: list[tuple[int, ...]], n: int) -> list[tuple[int, ...]]:
    """Every shattered set (definition: all 2^|S| patterns realised by the distinct rows)."""
    out = []
    for size in range(1, n + 1):
        for s in itertools.combinations(range(n), size):
            if len({tuple(r[p] for p in s) for r in rows}) == 2**size:
                out.append(s)
    return out


def _cell_sides(rows, a: tuple[int, ...], z: int) -> list[tuple[int, int]]:
    """For every pattern of ``a`` realised by a row: (rows with z = 0, rows with z = 1) in that cell."""
    cells: dict[tuple[int, ...], list[int]] = {}
    for r in rows:
        cells.setdefault(tuple(r[p] for p in a), [0, 0])[r[z]] += 1
    return [(c[0], c[1]) for c in cells.values()]


@settings(max_examples=examples(60), deadline=None)
@given(BINARY)
def test_every_rule_holds_on_every_shattered_set(H):
    rows = sorted({tuple(int(v) for v in r) for r in H.table.tolist()})
    n = H.n_points
    for s in _shattered_sets(rows, n):
        t = len(s)
        for k in range(t):
            for a in itertools.combinations(s, k):
                for z in set(s) - set(a):
                    # size rule: every cell of A (2^k of them) splits with need(T, k + 1) on each side of z
                    sides = _cell_sides(rows, a, z)
                    assert len(sides) == 2**k
                    assert all(min(c) >= rules.need(t, k + 1) for c in sides), (s, a, z)
        for pair in itertools.combinations(s, 2):
            assert min(min(c) for c in _cell_sides(rows, pair[:1], pair[1])) >= rules.pair_need(t)
        for tri in itertools.combinations(s, 3):
            assert min(min(c) for c in _cell_sides(rows, tri[:2], tri[2])) >= rules.triple_need(t)
        # head truss: in the head graph of any first column y0 (a ~ b when {y0, a, b} passes at triple_need), every
        # edge between two other members has truss_need common neighbours among them
        for y0 in s:
            rest = [p for p in s if p != y0]
            joined = {
                (a, b): min(min(c) for c in _cell_sides(rows, (y0, a), b)) >= rules.triple_need(t)
                for a in rest
                for b in rest
                if a != b
            }
            for a, b in itertools.combinations(rest, 2):
                common = [c for c in rest if c not in (a, b) and joined[a, c] and joined[b, c]]
                assert joined[a, b], (s, y0, a, b)
                assert len(common) >= rules.truss_need(t), (s, y0, a, b, common)
                k = rules.truss_clique(t)  # a clique of k among the common neighbours
                assert any(
                    all(joined[c, d] for c, d in itertools.combinations(q, 2))
                    for q in itertools.combinations(common, k)
                )
        # downward closure: the columns still to add are candidates of every prefix, on distinct points
        for k in range(t):
            assert rules.enough(len(s) - k, t - k)


MULTICLASS = classes(min_labels=2, max_labels=4, min_points=1, max_points=6, max_rows=40, biased=True)


@settings(max_examples=examples(80), deadline=None)
@given(MULTICLASS)
def test_count_bound_is_an_upper_bound_for_each_kind(H):
    """Points rule: the bound counted from label counts is at least the brute-force dimension, every kind."""
    rows = np.array(sorted({tuple(int(v) for v in r) for r in H.table.tolist()}))
    counts = np.stack([(rows == lab).sum(axis=0) for lab in range(H.num_labels)], axis=1)
    table = H.table.tolist()
    brutes = {"natarajan": brute_natarajan, "graph": brute_graph}
    if H.num_labels == 2:
        brutes["vc"] = brute_vc
    for kind, brute in brutes.items():
        assert rules.count_bound(rules.side_sizes(counts, kind)) >= brute(table, H.n_points)[0], kind


@pytest.mark.skipif(not kernel.available(), reason="numba is not importable")
@pytest.mark.parametrize("rule", ["numpy", "plain", "pairs", "adjacency", "triples", "triples+pairs", "all"])
@settings(max_examples=examples(25), deadline=None)
@given(H=BINARY)
def test_vc_with_each_rule_alone_matches_brute_force(rule, H):
    flags = {
        "numpy": (False, 99, 99, False, False),
        "plain": (True, 99, 99, False, False),
        "pairs": (True, 99, 3, False, False),
        "adjacency": (True, 99, 99, True, False),
        "triples": (True, 3, 99, False, False),
        "triples+pairs": (True, 3, 3, True, False),  # the default: no two levels at once with the triple filter
        "all": (True, 3, 3, True, True),
    }[rule]
    names = ("FORCE", "TRI_MIN_TARGET", "PAIR_MIN_TARGET", "ADJACENCY", "ADJ_WITH_TRIPLES")
    saved = [getattr(kernel, name) for name in names]
    for name, value in zip(names, flags, strict=True):
        setattr(kernel, name, value)
    try:
        r = vc_dimension(H)
    finally:
        for name, value in zip(names, saved, strict=True):
            setattr(kernel, name, value)
    assert r.exact and r.value == brute_vc(H.table.tolist(), H.n_points)[0]
    assert r.verify(H)


def test_hard_bench_suite_quick():
    """`dimcalc bench --suite hard --quick --repeat 2`: exact, verified rows that say whether they needed
    refutation, each the median of its two runs (``--repeat`` is honoured: one run varies by up to 20 %)."""
    from dimcalc.bench import BenchOptions, run_suites

    rows = run_suites(["hard"], BenchOptions(quick=True, repeat=2, only=("intervals",)))
    assert rows and all(r.exact for r in rows), rows
    assert all("NOT VERIFIED" not in r.note for r in rows)
    assert all("refutation" in r.note and r.extra["cpu"] >= 0 for r in rows)
    assert all(len(r.extra["walls"]) == 2 and r.seconds in r.extra["walls"] for r in rows)
    assert all(r.note.startswith("median of 2 runs") for r in rows)


def _triple_passes(sides: list[tuple[set[int], set[int]]], alive: set[int], s: int, y: int, z: int, need: int) -> bool:
    """Definition: each of the 8 cells of the columns ``s, y, z`` (alive hypotheses on given sides) holds ``need``."""
    return all(
        len(alive & sides[s][a] & sides[y][b] & sides[z][c]) >= need for a, b, c in itertools.product((0, 1), repeat=3)
    )


@pytest.mark.skipif(not kernel.available(), reason="numba is not importable")
@pytest.mark.parametrize("seed", range(24))
def test_triple_rows_are_the_triple_test_in_any_build_order(seed):
    """The kernel's triple rows (``tri[s, y]``: columns ``z`` with ``{s, y, z}`` passing) built in a random order --
    a triple read from a row built earlier, a column outside a built pair row skipped untested -- are the brute
    force's, with or without dead hypotheses (Natarajan pair columns) and columns sharing a point."""
    from dimcalc.vc import _kernel_steps

    rng = np.random.default_rng(seed)
    n, m = int(rng.integers(3, 14)), int(rng.integers(8, 90))
    need = int(rng.choice([1, 2, 4]))
    partial = bool(seed % 2)
    label = rng.integers(0, 3 if partial else 2, (n, m))
    one_sets = [set(np.flatnonzero(label[j] == 1).tolist()) for j in range(n)]
    zero_sets = [set(np.flatnonzero(label[j] == 0).tolist()) for j in range(n)]
    sides = [(zero_sets[j], one_sets[j]) for j in range(n)]
    alive = set().union(*one_sets, *zero_sets)
    rank = rng.integers(0, n, n) if seed % 3 == 0 else np.arange(n)
    words = (m + 63) // 64
    ones, zeros = np.zeros((n, words), np.uint64), np.zeros((n, words), np.uint64)
    for j in range(n):
        for h in one_sets[j]:
            ones[j, h >> 6] |= np.uint64(1) << np.uint64(h & 63)
        for h in zero_sets[j]:
            zeros[j, h >> 6] |= np.uint64(1) << np.uint64(h & 63)
    everyone = np.bitwise_or.reduce(ones | zeros, axis=0)
    rw = (n + 63) // 64
    tri, tri_done = np.zeros((n * n, rw), np.uint64), np.zeros(n * n, np.uint8)
    pair, pair_done = np.zeros((n, rw), np.uint64), np.zeros(n, np.uint8)
    for y in rng.permutation(n)[: int(rng.integers(0, n + 1))]:  # some pair rows built (at 2 * need)
        _kernel_steps._pairs(pair, pair_done, ones, zeros, rank, everyone, int(y), partial, 2 * need)
    pairs = [(s, y) for s in range(n) for y in range(n) if rank[s] != rank[y]]  # the search's sets: distinct points
    for i in rng.permutation(len(pairs)):
        s, y = pairs[i]
        if not tri_done[s * n + y]:
            _kernel_steps._triples(tri, tri_done, ones, zeros, rank, everyone, s, y, partial, need, n, pair, pair_done)
    for s, y in pairs:
        row = {z for z in range(n) if int(tri[s * n + y, z >> 6]) >> (z & 63) & 1}
        expected = {
            z for z in range(n) if len({rank[s], rank[y], rank[z]}) == 3 and _triple_passes(sides, alive, s, y, z, need)
        }
        assert row == expected, (s, y, row, expected)
