"""The binary Littlestone engine on words (counts by columns or by rows, compiled or numpy) against the definition.

The reference here, :func:`textbook_dimension`, imports nothing from dimcalc:
it is Littlestone's recursion over explicit sets of label tuples,
``D(S) = max over splits of 1 + min(D(S_0), D(S_1))`` (0 without a split; a
complete tree of depth ``d`` for ``S`` is a root split whose two subtrees are
trees of depth ``d - 1`` for its sides), with the splits of the family: a
point (binary LDim, Littlestone 1987) or a point and a bit of the label
(Ψ^bin, BGS §4.2); and, for the uniform variant (BGS Def 4.1), one bit per level.

Each fast path is forced in turn (``mode``), so that every way the engine
counts -- the Python loop over big integers, numpy words by columns or by
rows, the compiled loops -- is compared with the reference on many random
classes, and every witness tree is checked by dimcalc's independent checker.
Breaking a rule of the word path on purpose (see docs/littlestone.md) makes
:func:`test_ldim_matches_the_textbook_recursion` and
:func:`test_word_candidates_are_the_loop_candidates` fail.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import json

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from profile_examples import examples

MODES = ("loop", "columns-numpy", "columns-compiled", "rows-numpy", "rows-compiled")


# ---------------------------------------------------------------- reference (imports nothing from dimcalc)


def _splits(S: frozenset, family: str, bits: int) -> list[tuple[frozenset, frozenset]]:
    n = len(next(iter(S)))
    out = []
    for x in range(n):
        for bit in range(bits if family == "bin" else 1):
            one = frozenset(h for h in S if (h[x] >> bit) & 1)
            if one and one != S:
                out.append((S - one, one))
    return out


def textbook_dimension(rows: list[tuple[int, ...]], family: str = "LD") -> int:
    """Littlestone's recursion over sets of distinct rows (family "LD" or "bin")."""
    bits = max(1, max(max(r) for r in rows).bit_length())

    @functools.cache
    def D(S: frozenset) -> int:
        return max((1 + min(D(a), D(b)) for a, b in _splits(S, family, bits)), default=0)

    return D(frozenset(rows))


def textbook_uniform_bin(rows: list[tuple[int, ...]]) -> int:
    """The uniform Ψ^bin dimension: the deepest tree whose nodes of one level all split on one bit."""
    S0 = frozenset(rows)
    bits = max(1, max(max(r) for r in rows).bit_length())
    n = len(rows[0])

    @functools.cache
    def ok(S: frozenset, seq: tuple[int, ...]) -> bool:
        if not seq:
            return bool(S)
        for x in range(n):
            one = frozenset(h for h in S if (h[x] >> seq[0]) & 1)
            if one and one != S and ok(S - one, seq[1:]) and ok(one, seq[1:]):
                return True
        return False

    d = 0
    while any(ok(S0, seq) for seq in itertools.product(range(bits), repeat=d + 1)):
        d += 1
    return d


# ---------------------------------------------------------------- forcing a path


@pytest.fixture
def force(monkeypatch):
    """``force(mode)``: make every node of the binary engine count the way ``mode`` says."""
    from dimcalc.littlestone import counts, splits

    def apply(mode: str) -> None:
        if mode == "loop":
            monkeypatch.setattr(splits, "PYTHON_MAX_WORK", 10**12)
            monkeypatch.setattr(counts, "FORCE", False)
            return
        by, how = mode.split("-")
        monkeypatch.setattr(splits, "PYTHON_MAX_WORK", -1)
        monkeypatch.setattr(splits, "COUNT_BY", by)
        monkeypatch.setattr(counts, "FORCE", how == "compiled")

    return apply


def _table(draw, labels: int) -> np.ndarray:
    m = draw(st.integers(1, 24))
    n = draw(st.integers(1, 7))
    cells = draw(st.lists(st.integers(0, labels - 1), min_size=m * n, max_size=m * n))
    return np.array(cells, dtype=np.int64).reshape(m, n)


tables = st.composite(_table)


def _distinct(table: np.ndarray) -> list[tuple[int, ...]]:
    return sorted({tuple(int(v) for v in r) for r in table})


# ---------------------------------------------------------------- tests


@pytest.mark.parametrize("mode", MODES)
@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(table=tables(2))
def test_ldim_matches_the_textbook_recursion(force, mode, table):
    """LDim on every counting path = Littlestone's recursion; the witness tree passes the independent checker."""
    from dimcalc import HypothesisClass
    from dimcalc.littlestone import littlestone_dimension

    force(mode)
    H = HypothesisClass(table)
    r = littlestone_dimension(H)
    assert r.exact and r.value == textbook_dimension(_distinct(table))
    assert r.verify(H)


@pytest.mark.parametrize("mode", ("loop", "columns-compiled", "rows-numpy"))
@settings(max_examples=examples(25), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(table=tables(4))
def test_psi_bin_plain_and_uniform_match_the_textbook(force, mode, table):
    """Ψ^bin (virtual columns point x bit: the same word path) and its uniform variant, plain and forced paths."""
    from dimcalc import HypothesisClass
    from dimcalc.littlestone import psi_littlestone_dimension

    force(mode)
    H = HypothesisClass(table)
    rows = _distinct(table)
    plain = psi_littlestone_dimension(H, "bin")
    assert plain.exact and plain.value == textbook_dimension(rows, "bin")
    assert plain.verify(H)
    uniform = psi_littlestone_dimension(H, "bin", uniform=True)
    assert uniform.exact and uniform.value == textbook_uniform_bin(rows)
    assert uniform.verify(H)


@pytest.mark.parametrize("mode", ("loop", "columns-numpy", "rows-compiled"))
@settings(max_examples=examples(20), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(table=tables(3))
def test_mld_and_binary_restrictions_on_every_path(force, mode, table):
    """MLD of a 3-label class (pair splitter, unchanged) and LDim of its binary restrictions (word path)."""
    from dimcalc import HypothesisClass
    from dimcalc.littlestone import binary_restriction_littlestone, multiclass_littlestone_dimension

    force(mode)
    H = HypothesisClass(table)
    assert multiclass_littlestone_dimension(H).verify(H)
    for i, r in enumerate(binary_restriction_littlestone(H).parts, start=1):
        bit_rows = sorted({tuple((v >> (i - 1)) & 1 for v in row) for row in _distinct(table)})
        assert r.exact and r.value == textbook_dimension(bit_rows)
        assert r.stats["restriction"] == i and r.verify(H)


def test_word_candidates_are_the_loop_candidates(force):
    """Every counting path gives the loop's candidates (same splits, same order, same small/big) and live columns."""
    from dimcalc import HypothesisClass
    from dimcalc.littlestone import splitters

    rng = np.random.default_rng(7)
    for _ in range(30):
        m, n = int(rng.integers(2, 200)), int(rng.integers(1, 90))
        H = HypothesisClass(rng.integers(0, 2, (m, n)) * (rng.random((m, n)) < rng.random()))
        splitter = splitters.splitter_for(H, "LD")
        for _ in range(4):
            V = (int(rng.integers(1, 2**62)) << int(rng.integers(0, max(1, m - 60)))) & H.full_mask or H.full_mask
            t = int(rng.integers(1, 5))
            force("loop")
            live, expected, upper = splitter.candidates(V, t, splitter.columns)
            best = max((min((V & o).bit_count(), (V & ~o).bit_count()) for o in splitter.ones), default=0)
            assert upper == (best.bit_length() if best else 0)  # the balance bound
            for mode in MODES[1:]:
                force(mode)
                got_live, got, got_upper = splitter.candidates(V, t, splitter.columns)
                seen, deduplicated = set(), []
                for c in got:  # the word path keeps two columns with one split; the memo answers the second
                    if min(c.small, c.big) not in seen:
                        seen.add(min(c.small, c.big))
                        deduplicated.append(c)
                assert deduplicated == list(expected) and got_upper == upper, mode
                # live below V: the loop also drops duplicates; both keep exactly the splitting columns' splits
                assert set(np.asarray(live).tolist()) <= set(np.asarray(got_live).tolist()), mode
                ones = splitter.ones
                assert all(0 < (V & ones[c]).bit_count() < V.bit_count() for c in np.asarray(got_live).tolist())


def test_counts_agree_compiled_and_numpy():
    """Column and row counts, compiled and numpy, are the popcounts of ``ones[x] & V``."""
    from dimcalc.littlestone import counts

    rng = np.random.default_rng(3)
    words = rng.integers(0, 2**63, size=(50, 5), dtype=np.uint64)
    indptr, indices = counts.rows_of_columns(words, 5 * 64)
    for _ in range(10):
        v = rng.integers(0, 2**63, size=5, dtype=np.uint64) & rng.integers(0, 2**63, size=5, dtype=np.uint64)
        live = np.arange(50)
        expected = [sum(int(a & b).bit_count() for a, b in zip(words[x], v)) for x in range(50)]
        for force in (False, True):
            counts.FORCE = force
            try:
                assert counts.column_counts(words, live, v).tolist() == expected
                assert counts.row_counts(indptr, indices, v, 50).tolist() == expected
            finally:
                counts.FORCE = None


def test_rows_of_columns_compiled_and_numpy_are_the_ones_of_each_row():
    """The CSR rows (each hypothesis's ones, columns increasing), by the compiled passes and by numpy, read bit by bit;
    rows past ``n_rows`` (padding bits of the last word) are left out."""
    from dimcalc.littlestone import counts

    rng = np.random.default_rng(5)
    for n_cols, n_words, n_rows in ((40, 3, 150), (7, 1, 64), (1, 2, 65), (0, 2, 100)):
        words = rng.integers(0, 2**63, size=(n_cols, n_words), dtype=np.uint64)
        rows = [[c for c in range(n_cols) if int(words[c, h // 64]) >> (h % 64) & 1] for h in range(n_rows)]
        expected = ([0, *itertools.accumulate(len(r) for r in rows)], [c for r in rows for c in r])
        for force in (False, True):
            counts.FORCE = force
            try:
                if force:
                    assert counts._kernels() is not None and counts.compiled_kernels() is not None
                indptr, indices = counts.rows_of_columns(words, n_rows)
                assert (indptr.tolist(), indices.tolist()) == expected, (force, n_cols, n_rows)
            finally:
                counts.FORCE = None


def test_version_space_queries_keep_no_hidden_state():
    """No module cache keyed by id(H): a query builds its engine; an explicit VersionSpaceDimension keeps one."""
    from dimcalc import HypothesisClass
    from dimcalc.errors import InvalidParameterError
    from dimcalc.littlestone import VersionSpaceDimension, littlestone_dimension_of, version_space

    assert not any("CACHE" in name for name in vars(version_space))
    H = HypothesisClass([[int(x >= t) for x in range(7)] for t in range(8)])
    assert [littlestone_dimension_of(H, H.full_mask) for _ in range(2)] == [3, 3]
    oracle = VersionSpaceDimension(H)
    assert oracle(H, H.full_mask) == 3 and oracle(H, 0b11) == 1
    with pytest.raises(InvalidParameterError):
        oracle(HypothesisClass([[0], [1]]), 0b1)


def test_results_are_not_mutated_after_return():
    """binary_restriction_littlestone builds a new result with its stats (the frozen result is not edited)."""
    import dataclasses

    from dimcalc import HypothesisClass
    from dimcalc.littlestone import binary_restriction_littlestone

    H = HypothesisClass([[0, 1], [1, 2], [2, 3], [3, 0]])
    for i, r in enumerate(binary_restriction_littlestone(H).parts, start=1):
        assert dataclasses.is_dataclass(r) and r.stats["restriction"] == i


def test_hard_littlestone_suite_quick_smoke():
    """`dimcalc bench --suite hard-littlestone --quick` answers exactly with verified witnesses and node counts."""
    from dimcalc.bench import BenchOptions, run_suites

    rows = run_suites(["hard-littlestone"], BenchOptions(quick=True, repeat=1, only=("intervals",)))
    assert len(rows) == 1 and rows[0].exact and rows[0].answer == 8
    assert "NOT VERIFIED" not in rows[0].note and rows[0].extra["nodes"] > 0
    assert rows[0].peak_mb > 10  # the case process's peak resident memory (Python and dimcalc alone are more)
    json.dumps([r.to_json() for r in rows], allow_nan=False)  # `dimcalc bench --json` prints it


def test_hard_littlestone_suite_runs_at_every_jobs_value():
    """`dimcalc bench --suite hard-littlestone --jobs 1,2`: both runs, the same exact answer and verified witness,
    the speed-up column, and the jobs value each row ran at; a malformed --jobs value is one line and exit 2."""
    from dimcalc.bench import BenchOptions, run_suites
    from dimcalc.cli import main

    opts = BenchOptions(quick=True, repeat=1, only=("boxes",))
    [row] = run_suites(["hard-littlestone"], opts, jobs=[1, 2])
    assert row.exact and row.answer == 9 and "differ" not in row.note and "NOT VERIFIED" not in row.note
    assert set(row.extra["seconds_by_jobs"]) == {1, 2} and row.speedup is not None and row.speedup > 0
    assert row.extra["jobs"] == 1 and row.extra["cpu_seconds"] >= row.extra["worker_cpu_seconds"] >= 0
    [two] = run_suites(["hard-littlestone"], dataclasses.replace(opts, jobs=2))
    assert (two.answer, two.exact, two.extra["jobs"]) == (9, True, 2) and "NOT VERIFIED" not in two.note
    assert main(["bench", "--suite", "hard-littlestone", "--jobs", "1,0"]) == 2


def test_a_short_time_limit_never_loads_numba():
    """Loading the compiled loops (0.5 s cached, seconds to compile) is skipped when the time left is short."""
    import subprocess
    import sys

    code = (
        "import sys; from dimcalc import generators; from dimcalc.littlestone import littlestone_dimension\n"
        "H = generators.intervals(300)\n"
        "r = littlestone_dimension(H, time_limit=1.5)\n"
        "print('numba' in sys.modules, r.lower >= 1)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.split() == ["False", "True"]


# ---------------------------------------------------------------- depth 1 by size
@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_depth_one_by_size_matches_the_brute_force(data):
    """``D(V) >= 1`` iff ``|V| >= 2`` (the families with ``Splitter.separates``): the engine answers depth-1
    queries by size and builds their node by ``pair_split``.  Every version space of a random class, its value
    against the definition-level brute force, and the witness tree of the whole class through the checker."""
    from brute_littlestone import brute_dimension
    from dimcalc.littlestone import littlestone_dimension
    from dimcalc.littlestone.engine import Engine
    from dimcalc.littlestone.splitters import splitter_for
    from dimcalc.witnesses.tree_checks import is_mistake_tree, is_multiclass_tree, is_psi_tree
    from strategies import classes

    H = data.draw(classes(max_labels=3, max_points=4, max_rows=8))
    families = (["LD"] if H.is_binary else []) + ["MLD", "bin", "B"]
    kinds = {"LD": ("binary", None), "MLD": ("multiclass", None), "bin": ("psi", "bin"), "B": ("psi", "B")}
    checks = {
        "LD": lambda T: is_mistake_tree(H, T),
        "MLD": lambda T: is_multiclass_tree(H, T),
        "bin": lambda T: is_psi_tree(H, T, "bin"),
        "B": lambda T: is_psi_tree(H, T, "B"),
    }
    for family in families:
        engine = Engine(H, splitter_for(H, family))
        assert engine.separates
        for V in range(1, 1 << H.n_distinct):
            kind, fam = kinds[family]
            want = brute_dimension(H, kind, fam, mask=V)
            lower, upper, stopped = engine.solve(V)
            assert (lower, upper, stopped) == (want, want, False), (family, V)
            if want == 1:  # a depth-1 tree by pair_split: shattered, its two leaves hypotheses of V
                tree = engine.tree(V, 1)
                assert checks[family](tree), (family, V, tree)
                distinct = {H.row_of(j): j for j in range(H.n_distinct)}
                assert all(V >> distinct[c["hypothesis"]] & 1 for c in tree["children"])
    if H.is_binary:
        r = littlestone_dimension(H)
        assert r.verify(H, debug=True)
