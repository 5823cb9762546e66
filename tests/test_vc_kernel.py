"""The compiled shattered-set search (dimcalc.vc.kernel): brute force, the numpy search, limits, modes.

The kernel is forced on (``kernel.FORCE``) and its triple filter lowered to
target 3 (``kernel.TRI_MIN_TARGET``) so that small classes -- whose brute
force is cheap -- go through every branch: plain tests, the triple filter,
the look-ahead on partners and the exact depth-1 step.
"""

from __future__ import annotations

import contextlib
import itertools
import subprocess
import sys
from collections.abc import Iterator

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from brute_vc import brute_graph, brute_natarajan, brute_vc
from dimcalc import HypothesisClass
from dimcalc.search.budget import Deadline, Progress
from dimcalc.vc import (
    columns,
    dfs,
    graph_dimension,
    is_graph_shattered,
    is_natarajan_shattered,
    is_shattered,
    kernel,
    natarajan_dimension,
    search,
    vc_dimension,
)
from soundness import assert_sound
from strategies import classes

pytestmark = pytest.mark.skipif(not kernel.available(), reason="numba is not importable")

# Up to 40 rows over 7 points: targets up to 5, so the triple filter and its look-ahead run.
BINARY = classes(min_labels=2, max_labels=2, min_points=0, max_points=7, max_rows=40, biased=True)
MULTICLASS = classes(min_labels=2, max_labels=4, min_points=0, max_points=6, max_rows=40, biased=True)


#: The kernel's optional rules, each on alone, all on, all off: ``tri_from`` (triple filter from that target),
#: ``pair_from`` (pair filter from that target), ``adjacency`` (two levels at once and the core), ``head_from``
#: (the first column's triples from that target, when the triple filter is off).
RULES = {
    "plain": (99, 99, False, 99),
    "triples": (3, 99, False, 99),
    "pairs": (99, 3, False, 99),
    "adjacency": (99, 99, True, 99),
    "head": (99, 99, False, 3),
    "head+pairs+adjacency": (99, 3, True, 3),
    "triples+pairs": (3, 3, False, 99),
    "all": (3, 3, True, 3),
}


@contextlib.contextmanager
def compiled(on: bool = True, tri_from: int | str = 3) -> Iterator[None]:
    """The kernel forced on (or off), its triple filter from target ``tri_from`` -- or the rules ``RULES[name]``."""
    tri, pair, adjacency, head = RULES[tri_from] if isinstance(tri_from, str) else (tri_from, 3, True, 3)
    saved = kernel.FORCE, kernel.TRI_MIN_TARGET, kernel.PAIR_MIN_TARGET, kernel.ADJACENCY, kernel.HEAD_MIN_TARGET
    saved_with = kernel.ADJ_WITH_TRIPLES
    kernel.FORCE, kernel.TRI_MIN_TARGET, kernel.PAIR_MIN_TARGET, kernel.ADJACENCY = on, tri, pair, adjacency
    kernel.HEAD_MIN_TARGET = head
    kernel.ADJ_WITH_TRIPLES = adjacency  # "all": the triple filter with two levels at once (off by default)
    try:
        yield
    finally:
        kernel.FORCE, kernel.TRI_MIN_TARGET, kernel.PAIR_MIN_TARGET, kernel.ADJACENCY, kernel.HEAD_MIN_TARGET = saved
        kernel.ADJ_WITH_TRIPLES = saved_with


def _decide_every_target(H: HypothesisClass, kind: str, value: int, tri_from: int | str) -> int:
    """Run the compiled search for every target 1 .. log2|H| + 1: found exactly up to ``value``, witnesses check."""
    d = Deadline(None)
    red = H.column_reduction(relabel=True, deadline=d)
    sub = H.distinct_rows[:, red.points]
    counts = columns.label_counts(sub, H.num_labels, d)
    runs = 0
    for target in range(1, H.log2_size() + 2):
        cols = columns.virtual_columns(H, kind, 1 << (target - 1), red.points, sub, counts, d)
        s = dfs.Search(cols, H.n_distinct, d, Progress(False), {"nodes": 0, "tests": 0})
        with compiled(tri_from=tri_from):
            found = s.find(target)
        runs += bool(s.stats.get("compiled"))
        assert (found is not None) == (target <= value), (target, value, found)
        if found is not None:
            chosen = [{"point": int(cols.point[v]), "one": int(cols.one[v]), "zero": int(cols.zero[v])} for v in found]
            witness = search.witness_of(kind, H, chosen)
            checker = {"vc": is_shattered, "natarajan": is_natarajan_shattered, "graph": is_graph_shattered}[kind]
            assert checker(H, witness) if kind == "vc" else checker(H, **witness)
    return runs


@given(BINARY, st.sampled_from(sorted(RULES)))
def test_vc_every_target_compiled(H, tri_from):
    _decide_every_target(H, "vc", brute_vc(H.table.tolist(), H.n_points)[0], tri_from)


@given(MULTICLASS, st.sampled_from(sorted(RULES)))
def test_natarajan_every_target_compiled(H, tri_from):
    _decide_every_target(H, "natarajan", brute_natarajan(H.table.tolist(), H.n_points)[0], tri_from)


@given(MULTICLASS, st.sampled_from(sorted(RULES)))
def test_graph_every_target_compiled(H, tri_from):
    _decide_every_target(H, "graph", brute_graph(H.table.tolist(), H.n_points)[0], tri_from)


def _exact(r, H, value):
    assert r.exact and r.value == value, (r, value)
    assert r.verify(H, debug=True)


@given(BINARY, st.sampled_from(sorted(RULES)))
def test_vc_compiled_matches_brute_force(H, tri_from):
    with compiled(tri_from=tri_from):
        r = vc_dimension(H)
    _exact(r, H, brute_vc(H.table.tolist(), H.n_points)[0])


@given(MULTICLASS, st.sampled_from(sorted(RULES)))
def test_natarajan_compiled_matches_brute_force(H, tri_from):
    with compiled(tri_from=tri_from):
        r = natarajan_dimension(H)
    _exact(r, H, brute_natarajan(H.table.tolist(), H.n_points)[0])


@given(MULTICLASS, st.sampled_from(sorted(RULES)))
def test_graph_compiled_matches_brute_force(H, tri_from):
    with compiled(tri_from=tri_from):
        r = graph_dimension(H)
    _exact(r, H, brute_graph(H.table.tolist(), H.n_points)[0])


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("kind", ["vc", "natarajan", "graph"])
def test_compiled_agrees_with_numpy_on_larger_classes(seed, kind):
    """Bigger than the brute force reaches: the two searches give the same value, each witness checks."""
    rng = np.random.default_rng(seed)
    labels = 2 if kind == "vc" else 3
    H = HypothesisClass(rng.integers(0, labels, (int(rng.integers(40, 160)), int(rng.integers(8, 16)))))
    solver = {"vc": vc_dimension, "natarajan": natarajan_dimension, "graph": graph_dimension}[kind]
    with compiled(False):
        plain = solver(H)
    with compiled(True):
        fast = solver(HypothesisClass(H.table))
    assert plain.exact and fast.exact and plain.value == fast.value
    assert fast.verify(H) and fast.stats.get("compiled")


#: (triples, pairs, adjacency, head triples[, head truss]) for kernel.find: plain, each rule alone, head triples with
#: pairs and adjacency, triples with pairs (the default where the triple filter fits), and with adjacency too; the
#: head triples run with their truss (kernel.TRUSS, on by default) unless a fifth entry turns it off.
RULE_SETS: tuple[tuple[bool, ...], ...] = (
    (False, False, False, False),
    (True, False, False, False),
    (False, True, False, False),
    (False, False, True, False),
    (False, False, False, True),
    (False, True, True, True),
    (True, True, False, False),
    (True, True, True, False),
    (False, False, False, True, False),
    (False, True, True, True, False),
)


def _same_first_set(ones, zeros, rank, target, partial, cut: list[int] | None = None):
    """kernel.find under every rule set of :data:`RULE_SETS`; the status, after checking that each finds the plain
    kernel's first set (the rules prune only sets that cannot be completed, in the same search order).  ``cut``
    (when given) gets the edges the head truss cut."""
    found = [
        kernel.find(
            ones,
            zeros,
            rank,
            np.arange(len(rank)),
            target,
            partial,
            None,
            rules[0],
            rules[1],
            rules[2],
            head=rules[3],
            truss=rules[4] if len(rules) > 4 else None,
        )
        for rules in RULE_SETS
    ]
    if cut is not None:
        cut.append(sum(f[2]["truss_cut"] for f in found))
    assert len({(f[0], tuple(f[1])) for f in found}) == 1, (target, partial, found)
    return found[0][0]


@pytest.mark.parametrize("seed", range(8))
def test_each_rule_decides_like_the_plain_kernel(seed):
    """kernel.find plain and with each rule alone (triples, pairs, adjacency, head triples) and the head triples with
    pairs and adjacency: same decision, every target, both modes."""
    rng = np.random.default_rng(100 + seed)
    m, n = int(rng.integers(16, 80)), int(rng.integers(6, 14))
    H = HypothesisClass(rng.integers(0, 2, (m, n)))
    for target in range(3, 7):
        sides = []
        for partial in (False, True):
            table = H.distinct_rows
            ones = columns.pack_rows(table.T == 1)
            zeros = columns.pack_rows(table.T == 0)
            need = 1 << (target - 1)
            size = np.minimum(np.bitwise_count(ones).sum(1), np.bitwise_count(zeros).sum(1))
            root = np.flatnonzero(size >= need)
            sides.append(_same_first_set(ones[root], zeros[root], np.arange(len(root)), target, partial))
        assert sides[0] == sides[1]
        expected = "found" if brute_vc(H.table.tolist(), H.n_points)[0] >= target else "none"
        assert sides[0] == expected


#: The edges the head truss cut in test_tight_searches_decide_like_the_plain_kernel (read by the test after it).
TRUSS_CUTS: list[int] = []


@pytest.mark.parametrize("seed", range(24))
def test_tight_searches_decide_like_the_plain_kernel(seed):
    """Exactly 2^T hypotheses at target T (as random 64 x m at target 6: every cell of a set that can grow holds
    exactly 2^(T - k)), balanced columns, half the time T of them a planted cube, some copied or complemented on
    other points: every rule set finds the plain kernel's first set, and the decision is the brute force's."""
    rng = np.random.default_rng(900 + seed)
    target = 3 + seed % 4
    m, n = 1 << target, int(rng.integers(target + 2, 13))
    table = np.array([rng.permutation(np.arange(m) % 2) for _ in range(n)]).T  # balanced columns
    if seed % 2:
        cube = (np.arange(m)[:, None] >> np.arange(target)) & 1
        table[:, rng.choice(n, target, replace=False)] = cube[rng.permutation(m)]
    if seed % 3 != 2:  # a copy and a complement of other columns (on other points): never shattered with them
        table[:, -1], table[:, -2] = table[:, 0], 1 - table[:, 1]
    ones, zeros = columns.pack_rows(table.T == 1), columns.pack_rows(table.T == 0)
    rows = table.tolist()
    for rank in (np.arange(n), np.arange(n) // 2):  # one column per point, or two
        status = _same_first_set(ones, zeros, rank, target, False, TRUSS_CUTS)
        shattered = any(  # definition: T columns on distinct points realising all 2^T patterns
            len({int(rank[c]) for c in cols}) == target and len({tuple(r[c] for c in cols) for r in rows}) == m
            for cols in itertools.combinations(range(n), target)
        )
        assert status == ("found" if shattered else "none"), (target, rank.tolist(), status)


@pytest.mark.parametrize("target", [4, 5, 6])
def test_a_cube_survives_its_head_truss(target):
    """T columns realising all 2^T patterns, alone: the head graph of the first column is the clique of the others,
    each of its edges with exactly T - 3 common neighbours (rules.truss_need) -- a truss asking one more cuts the
    only completion.  Then random columns after it, some joined with it: the same first set."""
    m = 1 << target
    cube = (np.arange(m)[:, None] >> np.arange(target)) & 1
    rng = np.random.default_rng(target)
    extra = np.array([rng.permutation(np.arange(m) % 2) for _ in range(6)]).T
    for table in (cube, np.hstack([cube, extra])):
        ones, zeros = columns.pack_rows(table.T == 1), columns.pack_rows(table.T == 0)
        n = table.shape[1]
        status, found, _ = kernel.find(
            ones, zeros, np.arange(n), np.arange(n), target, False, None, False, True, True, head=True, truss=True
        )
        assert (status, found) == ("found", list(range(target))), (status, found)


def test_the_head_truss_cuts_in_the_tight_searches():
    """The tight searches above ran the head truss where it cuts (else their agreement would prove nothing of it)."""
    if not TRUSS_CUTS:  # run alone: the tight searches of a few seeds first
        for seed in (2, 3, 6, 7):
            test_tight_searches_decide_like_the_plain_kernel(seed)
    assert sum(TRUSS_CUTS) > 0


@pytest.mark.parametrize("seed", range(12))
def test_a_kept_workspace_full_of_old_rows_decides_like_fresh_arrays(seed, monkeypatch):
    """The head rows and head graph kept from one kernel call to the next (kernel.workspace) are written before
    they are read: filled with ones before each call, the same status, first set and counts as the kernel's own
    zeroed arrays, on the tight searches (head triples and truss on, several heads, many calls)."""
    rng = np.random.default_rng(1300 + seed)
    target = 4 + seed % 3
    m, n = 1 << target, int(rng.integers(target + 4, 16))
    table = np.array([rng.permutation(np.arange(m) % 2) for _ in range(n)]).T
    if seed % 2:
        cube = (np.arange(m)[:, None] >> np.arange(target)) & 1
        table[:, rng.choice(n, target, replace=False)] = cube[rng.permutation(m)]
    ones, zeros = columns.pack_rows(table.T == 1), columns.pack_rows(table.T == 0)
    rank = np.arange(n)

    def run(heads: np.ndarray) -> list[tuple]:
        out = []
        for pairs in (False, True):  # the head rows alone, and with the pair filter and adjacency
            status, found, stats = kernel.find(
                ones, zeros, rank, heads, target, False, None, False, pairs, pairs, head=True, truss=True
            )
            out.append((status, found, stats["nodes"], stats["tests"], stats["truss_cut"]))
        return out

    used = []

    def stale(n_root: int) -> tuple[np.ndarray, np.ndarray]:
        rows, sym = kept(n_root)
        if used:
            used[-1] |= bool((rows != ~np.uint64(0)).any()) and bool((sym != ~np.uint64(0)).any())
        rows.fill(~np.uint64(0))  # as if a call before had left every row and edge set
        sym.fill(~np.uint64(0))
        used.append(False)
        return rows, sym

    kept = kernel.workspace
    pieces = [np.arange(n)] + [np.array([h]) for h in range(n)]  # one call, then one call per head
    with monkeypatch.context() as mp:
        mp.setattr(kernel, "workspace", lambda n_root: (np.zeros((0, 1), np.uint64),) * 2)
        fresh = [run(heads) for heads in pieces]
    monkeypatch.setattr(kernel, "workspace", stale)
    assert [run(heads) for heads in pieces] == fresh
    # the kernel wrote head rows and a head graph into the kept arrays (it used them) -- at least where a planted
    # cube is found, which builds the head rows of its first column (unplanted, the pool may end every head first)
    assert any(used) or seed % 2 == 0


@pytest.mark.parametrize("seed", range(6))
def test_each_rule_decides_natarajan_like_the_plain_kernel(seed):
    """The same on Natarajan pair columns ``(x, {a, b})`` (side 1: ``h(x) = b``, side 0: ``h(x) = a``), several
    columns per point: each rule alone and the head triples with pairs and adjacency find the plain kernel's first
    set, and the decision is the brute force's (value comparisons alone missed a rule that read side 0 wrongly)."""
    rng = np.random.default_rng(300 + seed)
    labels = int(rng.integers(3, 5))
    m, n = int(rng.integers(30, 90)), int(rng.integers(5, 9))
    H = HypothesisClass(rng.integers(0, labels, (m, n)), num_labels=labels)
    table = H.distinct_rows
    point, one_bits, zero_bits = [], [], []
    for x in range(n):
        for a in range(labels):
            for b in range(a + 1, labels):
                point.append(x)
                one_bits.append(table[:, x] == b)
                zero_bits.append(table[:, x] == a)
    ones_all, zeros_all = columns.pack_rows(np.array(one_bits)), columns.pack_rows(np.array(zero_bits))
    best = brute_natarajan(H.table.tolist(), H.n_points)[0]
    for target in range(2, 6):
        need = 1 << (target - 1)
        size = np.minimum(np.bitwise_count(ones_all).sum(1), np.bitwise_count(zeros_all).sum(1))
        root = np.flatnonzero(size >= need)
        rank = np.array(point)[root]
        status = _same_first_set(ones_all[root], zeros_all[root], rank, target, True)
        assert status == ("found" if best >= target else "none"), (target, best, status)


def test_jobs_give_the_same_answer_compiled():
    H = HypothesisClass(np.random.default_rng(5).integers(0, 2, (300, 24)))
    with compiled():
        one = vc_dimension(H)
        two = vc_dimension(HypothesisClass(H.table), jobs=2)
    assert one.exact and two.exact
    assert (one.value, list(one.witness)) == (two.value, list(two.witness))


def test_time_limit_inside_the_compiled_search():
    """A search the kernel cannot finish quickly stops with proven, verified bounds."""
    H = HypothesisClass(np.random.default_rng(1).integers(0, 2, (1000, 40)))
    kernel.warm()  # loading the kernel is not what is tested here
    with compiled():
        r = vc_dimension(H, time_limit=0.3)
    assert_sound(r, H)
    assert 1 <= r.lower
    assert r.stats.get("compiled")


def _search_for(H: HypothesisClass, seconds: float | None) -> dfs.Search:
    d = Deadline(seconds)
    red = H.column_reduction(relabel=True, deadline=d)
    sub = H.distinct_rows[:, red.points]
    counts = columns.label_counts(sub, H.num_labels, d)
    cols = columns.virtual_columns(H, "vc", 1, red.points, sub, counts, d)
    return dfs.Search(cols, H.n_distinct, d, Progress(False), {"nodes": 0, "tests": 0})


def test_mode_follows_size_time_and_memory(monkeypatch):
    H = HypothesisClass(np.random.default_rng(2).integers(0, 2, (64, 30)))
    root = np.arange(30)
    s = _search_for(H, None)
    assert s._mode(root, 4, 1) == "trial"  # a small first level: numpy first, numba not consulted
    monkeypatch.setattr(dfs, "KERNEL_MIN_WORDS", 1)
    assert s._mode(root, 4, 1) == "compiled"
    monkeypatch.setattr(kernel, "MAX_BYTES", 10)
    assert s._mode(root, 4, 1) == "numpy"  # over the kernel's own cap, with or without a memory budget
    monkeypatch.setattr(kernel, "MAX_BYTES", 1 << 30)
    monkeypatch.setattr(Deadline, "memory_left", lambda self: 10)
    assert s._mode(root, 4, 1) == "numpy"  # the kernel's arrays would not fit: no stop, numpy instead
    assert s.deadline.reason is None
    monkeypatch.undo()
    monkeypatch.setattr(kernel, "_compiled", None)
    monkeypatch.setattr(kernel, "cached", lambda: False)
    assert not kernel.usable(5.0) and kernel.usable(None)  # compiling afresh needs COMPILE_SECONDS
    monkeypatch.setattr(kernel, "cached", lambda: True)
    assert kernel.usable(5.0) and not kernel.usable(0.5)
    monkeypatch.setenv("DIMCALC_JIT", "0")
    monkeypatch.setattr(dfs, "KERNEL_MIN_WORDS", 1)
    assert not kernel.available() and _search_for(H, None)._mode(root, 4, 1) == "numpy"


def _printed_by(code: str) -> list[str]:
    """The words ``code`` prints, run in a fresh Python process (what it imports and loads is its own)."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()


def test_tiny_searches_do_not_import_numba():
    """A small class is decided in numpy before numba would be loaded (start-up time, tiny time limits)."""
    code = (
        "import sys, numpy as np; from dimcalc import HypothesisClass, vc_dimension; "
        "r = vc_dimension(HypothesisClass(np.random.default_rng(0).integers(0, 2, (100, 20)))); "
        "print(r.value, 'numba' in sys.modules)"
    )
    assert _printed_by(code) == ["5", "False"]


def test_loading_the_kernel_skips_numbas_blas_probe():
    """The kernel loads numba without its BLAS probe (``scipy.linalg``: ~0.4 s of a ~1.2 s load, in series before the
    pieces of ``jobs``); what it compiles does not need BLAS, and the search still answers."""
    code = (
        "import sys, numpy as np; from dimcalc.vc import kernel; kernel.warm(); "
        "print('scipy.linalg' in sys.modules, kernel.find(np.array([[1], [2]], dtype=np.uint64), "
        "np.array([[2], [1]], dtype=np.uint64), np.arange(2), np.arange(2), 1, False, None)[0])"
    )
    assert _printed_by(code) == ["False", "found"]


def test_trial_hands_over_to_the_compiled_search(monkeypatch):
    """A search numpy does not finish in its trial goes on compiled, with the same answer."""
    H = HypothesisClass(np.random.default_rng(3).integers(0, 2, (200, 20)))
    with compiled(False):
        plain = vc_dimension(H)
    monkeypatch.setattr(dfs, "TRIAL_TESTS", 0)
    monkeypatch.setattr(dfs, "KERNEL_MIN_WORDS", 1 << 62)
    kernel.warm()
    r = vc_dimension(HypothesisClass(H.table))
    assert r.exact and r.value == plain.value and r.verify(H)
    assert r.stats.get("compiled")


@pytest.mark.parametrize("seed", range(6))
def test_filters_kept_across_pieces_decide_like_brute_force(seed):
    """Pair and triple rows built by earlier pieces (and every pair row built before the pieces, as before a
    fork) serve the later pieces: the first piece in order with a set decides as the brute force does."""
    rng = np.random.default_rng(300 + seed)
    m, n = int(rng.integers(16, 80)), int(rng.integers(6, 14))
    H = HypothesisClass(rng.integers(0, 2, (m, n)))
    best = brute_vc(H.table.tolist(), H.n_points)[0]
    table = H.distinct_rows
    ones, zeros = columns.pack_rows(table.T == 1), columns.pack_rows(table.T == 0)
    for target in range(3, 7):
        size = np.minimum(np.bitwise_count(ones).sum(1), np.bitwise_count(zeros).sum(1))
        root = np.flatnonzero(size >= 1 << (target - 1))
        rank = np.arange(len(root))
        for prefill in (False, True):
            filters = kernel.filters_for(len(root), target, triples=True, pairs=True)
            if prefill:
                filters.fill_pairs(ones[root], zeros[root], rank, target, False)
            status = "none"
            for heads in np.array_split(np.arange(len(root)), 3):
                status, found, _ = kernel.find(
                    ones[root], zeros[root], rank, heads, target, False, None, filters=filters
                )
                if status == "found":
                    assert is_shattered(H, [int(root[p]) for p in found])
                    break
            assert status == ("found" if best >= target else "none"), (target, prefill)


@pytest.mark.parametrize("seed", range(6))
def test_many_candidates_decide_like_brute_force(seed):
    """Each column copied 10-40 times (each copy its own point, or all on one point): nodes with more than 64 and
    more than 256 candidates (adjacency rows of several words; children tested on bitsets), every rule set --
    copies of a column are never shattered together, so the copied class decides as the brute force does."""
    rng = np.random.default_rng(700 + seed)
    m, n = int(rng.integers(40, 64)), int(rng.integers(8, 11))  # VC 4 or 5: targets 3-5 run their adjacency
    H = HypothesisClass(rng.integers(0, 2, (m, n)))
    best = brute_vc(H.table.tolist(), H.n_points)[0]
    table = H.distinct_rows
    copies = (10, 20, 40)[seed % 3]
    # in blocks (the copies of a point side by side: a completion lies far down a candidate list), or shuffled
    point = np.repeat(np.arange(n), copies) if seed < 3 else rng.permutation(np.repeat(np.arange(n), copies))
    ones, zeros = columns.pack_rows(table.T[point] == 1), columns.pack_rows(table.T[point] == 0)
    for target in range(3, 7):
        size = np.minimum(np.bitwise_count(ones).sum(1), np.bitwise_count(zeros).sum(1))
        root = np.flatnonzero(size >= 1 << (target - 1))
        # each copy its own point (one column per point), or the copies on one point (several columns per point)
        for rank in (np.arange(len(root)), point[root]):
            first = None
            for rules in ((False, False, False, False), (False, True, True, True), (False, False, True, True)):
                status, found, _ = kernel.find(
                    ones[root],
                    zeros[root],
                    rank,
                    np.arange(len(root)),
                    target,
                    False,
                    None,
                    rules[0],
                    rules[1],
                    rules[2],
                    head=rules[3],
                )
                assert status == ("found" if best >= target else "none"), (target, rules)
                # the rules prune only sets that cannot be completed: the first set in search order is the same
                first = found if first is None else first
                assert found == first, (target, rules)
                if status == "found":
                    chosen = [int(point[root[p]]) for p in found]
                    assert len(set(chosen)) == target and is_shattered(H, chosen)


@contextlib.contextmanager
def narrowed(fraction: float = 1.0) -> Iterator[None]:
    """Natarajan searches narrowed to the first column's alive hypotheses whenever allowed (dfs.NARROW_ALIVE),
    with the pair filter (which narrowing needs) from target 2, so that targets with an answer are narrowed too."""
    saved = dfs.NARROW_ALIVE, kernel.PAIR_MIN_TARGET
    dfs.NARROW_ALIVE, kernel.PAIR_MIN_TARGET = fraction, 2
    try:
        yield
    finally:
        dfs.NARROW_ALIVE, kernel.PAIR_MIN_TARGET = saved


@given(MULTICLASS, st.sampled_from([99, "pairs"]))
def test_natarajan_narrowed_matches_brute_force(H, rules):
    """Narrowed (one first column at a time, on its alive hypotheses): the brute force's value, a checked witness."""
    with compiled(tri_from=rules), narrowed():
        r = natarajan_dimension(H)
    _exact(r, H, brute_natarajan(H.table.tolist(), H.n_points)[0])


@pytest.mark.parametrize("seed", range(6))
def test_narrowed_natarajan_is_the_plain_answer(seed, monkeypatch):
    """Narrowed and not: the same value and witness (the same sets in the same order), and the brute force's value.
    Without the greedy set every target from 1 on is searched, so targets with a shattered set run narrowed too
    (with it, only the refuted target did: a narrowing that dropped alive hypotheses went unseen)."""
    rng = np.random.default_rng(500 + seed)
    H = HypothesisClass(rng.integers(0, 3, (int(rng.integers(150, 300)), 6)))  # Natarajan 3 or so: targets 2-4
    if seed % 3 == 0:
        monkeypatch.setattr(dfs.Search, "greedy", lambda self: [])
    runs = []
    for fraction in (0.0, 1.0):
        with compiled(tri_from=99 if seed % 2 else "pairs"), narrowed(fraction):
            runs.append(natarajan_dimension(HypothesisClass(H.table)))
    plain, narrow = runs
    assert narrow.stats.get("narrowed") and not plain.stats.get("narrowed")
    assert (plain.value, plain.witness) == (narrow.value, narrow.witness)
    assert narrow.exact and narrow.value == brute_natarajan(H.table.tolist(), H.n_points)[0]
    assert narrow.verify(H)


def test_narrowed_natarajan_with_two_jobs_is_the_one_process_answer():
    """Narrowed pieces in two forked workers (pair rows built before the fork): value and witness of one process."""
    H = HypothesisClass(np.random.default_rng(7).integers(0, 3, (600, 24)))  # 72 pair columns: 3 pieces
    with compiled(tri_from=99), narrowed():
        one = natarajan_dimension(H)
        two = natarajan_dimension(HypothesisClass(H.table), jobs=2)
    assert one.stats.get("narrowed") and two.stats.get("narrowed")
    assert one.exact and two.exact and (one.value, one.witness) == (two.value, two.witness)


@pytest.mark.slow  # starts a Dask LocalCluster
def test_narrowed_natarajan_on_a_dask_cluster_is_the_one_process_answer():
    """Narrowed pieces sent to two Dask workers (the pair rows built there, once per worker; head rows from the
    indicators): value and witness of one process, and the answer verifies."""
    distributed = pytest.importorskip("distributed")
    H = HypothesisClass(np.random.default_rng(11).integers(0, 4, (900, 10)), num_labels=4)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=50
        ) as cluster,
        distributed.Client(cluster) as client,
        compiled(tri_from=99),
        narrowed(),
        pytest.MonkeyPatch.context() as mp,
    ):
        mp.setattr(dfs, "MIN_PIECE", 4)
        one = natarajan_dimension(H)
        two = natarajan_dimension(HypothesisClass(H.table), scheduler=client)
    assert one.stats.get("narrowed") and two.stats.get("narrowed")
    assert one.exact and two.exact and (one.value, one.witness) == (two.value, two.witness) and two.verify(H)


@pytest.mark.parametrize("seed", range(8))
def test_indicator_head_rows_decide_like_the_column_tests(seed):
    """Natarajan pair columns given with their label indicators (kernel.find ``indicators``): the pair rows and the
    head rows read off the indicators' counts are the column-by-column tests' (the same rows, the same first set),
    every target, and the decision is the definition's (T columns on distinct points, each side of each realised by a hypothesis of every pattern)."""
    rng = np.random.default_rng(700 + seed)
    labels = int(rng.integers(3, 6))
    m, n = int(rng.integers(40, 160)), int(rng.integers(5, 8))
    table = rng.integers(0, labels, (m, n))
    if seed % 2:  # a planted Natarajan-shattered 4-set: labels 0 / 1 of a cube on the first 4 points
        cube = (np.arange(16)[:, None] >> np.arange(4)) & 1
        table[:16, :4] = cube
    table = np.unique(table, axis=0)
    ind_bits, ind_of = [], {}
    for x in range(n):
        for lab in range(labels):
            ind_of[x, lab] = len(ind_bits)
            ind_bits.append(table[:, x] == lab)
    ind = columns.pack_rows(np.array(ind_bits))
    point, one, zero = [], [], []
    for x in range(n):
        for a in range(labels):
            for b in range(a + 1, labels):
                point.append(x)
                one.append(ind_of[x, b])
                zero.append(ind_of[x, a])
    point_a, one_a, zero_a = np.array(point), np.array(one), np.array(zero)
    lab_one, lab_zero = [o % labels for o in one], [z % labels for z in zero]  # ind_of[x, lab] = x * labels + lab
    rows = table.tolist()
    statuses = {}
    for target in range(3, 6):
        need = 1 << (target - 1)
        size = np.minimum(np.bitwise_count(ind[one_a]).sum(1), np.bitwise_count(ind[zero_a]).sum(1))
        root = np.flatnonzero(size >= need)
        if len(root) < target:
            continue
        args = (ind[one_a[root]], ind[zero_a[root]], point_a[root], np.arange(len(root)), target, True, None)
        built, read = (
            kernel.Filters(len(root), pairs=True, triples=False),
            kernel.Filters(len(root), pairs=True, triples=False),
        )
        built.fill_pairs(*args[:3], target, True)
        read.fill_pairs(*args[:3], target, True, indicators=(ind, one_a[root], zero_a[root]))
        assert (built.arrays()[2] == read.arrays()[2]).all() and read.arrays()[3].all()  # pair rows: the same bits
        plain = kernel.find(*args, False, True, True, head=True)
        fast = kernel.find(*args, False, True, True, head=True, indicators=(ind, one_a[root], zero_a[root]))
        assert (fast[0], fast[1]) == (plain[0], plain[1]), (target, plain, fast)
        shattered = any(  # definition: distinct points, all 2^T patterns of (side 1 or side 0) among the rows
            len({point[c] for c in cols}) == target
            and len(
                {
                    tuple(int(r[point[c]] == lab_one[c]) for c in cols)
                    for r in rows
                    if all(r[point[c]] in (lab_one[c], lab_zero[c]) for c in cols)
                }
            )
            == 1 << target
            for cols in itertools.combinations(root.tolist(), target)
        )
        assert fast[0] == ("found" if shattered else "none"), (target, fast)
        statuses[target] = fast[0]
    if seed % 2:
        assert statuses.get(4) == "found", statuses


def test_filters_sent_to_a_worker_are_built_once_there():
    """Filters pickled to a worker (a Dask piece) share their rows with the later pieces of the same search sent to
    that process (kernel._SENT, by key), not with another search's; rows built where they were made stay there."""
    import pickle

    f, other = kernel.Filters(5, pairs=True, triples=False), kernel.Filters(5, pairs=True, triples=False)
    first = pickle.loads(pickle.dumps(f))
    first.arrays()[2][1, 0] = 9
    again = pickle.loads(pickle.dumps(f))
    assert again.arrays()[2][1, 0] == 9
    assert pickle.loads(pickle.dumps(other)).arrays()[2][1, 0] == 0
    assert f.arrays()[2][1, 0] == 0


def test_complete_pair_rows_travel_with_the_filters():
    """Every pair row built and no triple rows (kernel.Filters.complete: the narrowed Natarajan search, its rows
    read off the indicators in the client): pickled along to a Dask worker, which then builds none; otherwise not."""
    import pickle

    for triples, done in ((False, 1), (False, 0), (True, 1)):
        f = kernel.Filters(3, pairs=True, triples=triples)
        tri, tri_done, pair, pair_done = f.arrays()
        pair[:] = 5
        pair_done[:] = done
        pair_done[0] = 1
        sent = pickle.loads(pickle.dumps(f))
        assert f.complete() == (done == 1 and not triples)
        if f.complete():
            assert sent.arrays()[2].tolist() == [[5], [5], [5]] and sent.arrays()[3].all()
        else:
            assert not sent.arrays()[3].any() and not sent.arrays()[2].any()
