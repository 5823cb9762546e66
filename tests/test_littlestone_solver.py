"""Correctness of the Littlestone-type solvers (dimcalc.littlestone, its SAT encoding dimcalc.littlestone.sat).

The reference here is a definition-level search written independently of the
solver: tables as tuples, version spaces as frozensets of rows, EVERY map of
the family (no reductions, no pruning, no bitsets), and for the uniform
variant every map sequence.  Every witness is checked by walking its paths
(and by the independent checkers of dimcalc.witnesses.tree_checks).
"""

from __future__ import annotations

import functools
import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dimcalc import HypothesisClass, generators
from dimcalc.errors import InvalidParameterError
from dimcalc.littlestone import (
    binary_restriction_littlestone,
    littlestone_dimension,
    littlestone_dimension_of,
    multiclass_littlestone_dimension,
    multiclass_littlestone_dimension_of,
    psi_littlestone_dimension,
)
from dimcalc.results import DimensionResult
from dimcalc.witnesses import tree_checks as trees
from dimcalc.witnesses.tree_checks import tree_depth
from profile_examples import examples
from soundness import assert_sound
from strategies import classes

# ---------------------------------------------------------------------------- reference (definition level)


def all_maps(family: str, L: int) -> list[tuple]:
    if family == "N":
        out = []
        for a, b in itertools.permutations(range(L), 2):
            phi = [None] * L
            phi[a], phi[b] = 0, 1
            out.append(tuple(phi))
        return out
    if family == "bin":
        bits = max(1, math.ceil(math.log2(L))) if L > 1 else 1
        return [tuple((lab >> (i - 1)) & 1 for lab in range(L)) for i in range(1, bits + 1)]
    if family == "B":
        return list(itertools.product((0, 1, None), repeat=L))
    raise ValueError(family)


def ref_dimension(rows: list[tuple], maps: list[tuple]) -> int:
    """max depth of a complete Ψ-labelled tree shattered by the rows (maps given in full)."""
    n_points = len(rows[0])

    @functools.cache
    def dim(V: frozenset) -> int:
        best = 0
        for x in range(n_points):
            for phi in maps:
                V0 = frozenset(h for h in V if phi[h[x]] == 0)
                V1 = frozenset(h for h in V if phi[h[x]] == 1)
                if V0 and V1:
                    best = max(best, 1 + min(dim(V0), dim(V1)))
        return best

    return dim(frozenset(rows))


def ref_uniform(rows: list[tuple], maps: list[tuple]) -> int:
    """max r such that some sequence of r maps admits a shattered tree using map i at every node of level i."""
    n_points = len(rows[0])

    @functools.cache
    def ok(V: frozenset, seq: tuple) -> bool:
        if not seq:
            return bool(V)
        phi = seq[0]
        for x in range(n_points):
            V0 = frozenset(h for h in V if phi[h[x]] == 0)
            V1 = frozenset(h for h in V if phi[h[x]] == 1)
            if ok(V0, seq[1:]) and ok(V1, seq[1:]):
                return True
        return False

    full = frozenset(rows)
    r = 0
    while any(ok(full, seq) for seq in itertools.product(maps, repeat=r + 1)):
        r += 1
    return r


def ref_mistake_tree_exists(rows: list[tuple], depth: int) -> bool:
    """Definition 2.12 literally for binary classes: enumerate every labelling of the nodes of a
    complete tree of the given depth by points and test every root-to-leaf path."""
    n_points = len(rows[0])
    nodes = (1 << depth) - 1
    for labelling in itertools.product(range(n_points), repeat=nodes):
        good = True
        for leaf in range(1 << depth):
            node, path = 0, []
            for level in range(depth):
                bit = (leaf >> (depth - 1 - level)) & 1
                path.append((labelling[node], bit))
                node = 2 * node + 1 + bit
            if not any(all(h[x] == b for x, b in path) for h in rows):
                good = False
                break
        if good:
            return True
    return False


# ---------------------------------------------------------------------------- witness checks


def walk_tree(H: HypothesisClass, tree: dict, style: str, uniform: bool = False) -> int:
    """Check that every root-to-leaf path of ``tree`` is realised by its leaf hypothesis; return the depth."""
    level_maps: dict[int, tuple] = {}
    depths = set()

    def walk(node: dict, path: list[tuple], level: int) -> None:
        if "hypothesis" in node:
            row = node["hypothesis"]
            assert 0 <= row < H.n_hypotheses
            for x, test in path:
                assert test(H.label(row, x)), f"leaf {row} breaks the path at point {x}"
            depths.add(level)
            return
        x = node["point"]
        assert 0 <= x < H.n_points
        T0, T1 = node["children"]
        if style == "binary":
            assert set(node) == {"point", "children"}
            tests = (lambda v: v == 0, lambda v: v == 1)
        elif style == "multiclass":
            a, b = node["labels"]
            assert a != b and 0 <= a < H.num_labels and 0 <= b < H.num_labels
            tests = (lambda v, a=a: v == a, lambda v, b=b: v == b)
        else:
            phi = tuple(node["map"])
            assert len(phi) == H.num_labels and all(v in (0, 1, None) for v in phi)
            style(phi)  # family membership
            if uniform:
                assert level_maps.setdefault(level, phi) == phi, "uniform tree with two maps on one level"
            tests = (lambda v, phi=phi: phi[v] == 0, lambda v, phi=phi: phi[v] == 1)
        walk(T0, path + [(x, tests[0])], level + 1)
        walk(T1, path + [(x, tests[1])], level + 1)

    walk(tree, [], 0)
    assert len(depths) == 1, "tree is not complete"
    return depths.pop()


def family_check(family: str, L: int):
    allowed = set(all_maps(family, L)) if family != "B" else None

    def check(phi: tuple) -> None:
        if allowed is not None:
            assert phi in allowed, f"map {phi} not in Ψ^{family}"

    return check


def check_result(H: HypothesisClass, r, style, *, family: str | None = None, uniform: bool = False) -> None:
    assert r.lower is not None and r.upper is not None and r.lower <= r.upper
    assert r.upper <= H.log2_size()
    st_ = family_check(family, H.num_labels) if family else style
    assert walk_tree(H, r.witness, st_, uniform=uniform) == r.lower
    assert r.verify(H, debug=True)


def rows_of(H: HypothesisClass) -> list[tuple]:
    return [tuple(int(v) for v in row) for row in H.distinct_rows]


# ---------------------------------------------------------------------------- properties


@given(classes(max_labels=2, max_points=5, max_rows=12))
def test_littlestone_matches_definition(H):
    r = littlestone_dimension(H)
    assert r.exact and r.value == ref_dimension(rows_of(H), [(0, 1)])
    check_result(H, r, "binary")


@given(classes(max_labels=2, max_points=3, max_rows=8))
@settings(max_examples=examples(60))
def test_reference_matches_literal_tree_enumeration(H):
    # Cross-check of the reference itself against Definition 2.12 enumerated literally.
    d = ref_dimension(rows_of(H), [(0, 1)])
    assert ref_mistake_tree_exists(rows_of(H), d)
    assert d + 1 > 2 or not ref_mistake_tree_exists(rows_of(H), d + 1)


@given(classes(max_labels=4, max_points=3, max_rows=9))
def test_multiclass_matches_definition(H):
    r = multiclass_littlestone_dimension(H)
    assert r.exact and r.value == ref_dimension(rows_of(H), all_maps("N", H.num_labels))
    check_result(H, r, "multiclass")


@pytest.mark.parametrize("family", ["N", "bin", "B"])
@given(H=classes(max_labels=4, max_points=3, max_rows=9))
def test_psi_matches_definition(family, H):
    r = psi_littlestone_dimension(H, family)
    assert r.kind == f"psi_littlestone:{family}"
    assert r.exact and r.value == ref_dimension(rows_of(H), all_maps(family, H.num_labels))
    check_result(H, r, None, family=family)


@given(classes(max_labels=5, max_points=3, max_rows=10))
def test_uniform_bin_matches_definition(H):
    r = psi_littlestone_dimension(H, "bin", uniform=True)
    assert r.kind == "psi_littlestone_uniform:bin"
    assert r.exact and r.value == ref_uniform(rows_of(H), all_maps("bin", H.num_labels))
    check_result(H, r, None, family="bin", uniform=True)


@pytest.mark.parametrize("family", ["N", "B"])
@given(H=classes(max_labels=3, max_points=3, max_rows=7))
@settings(max_examples=examples(100))
def test_uniform_n_b_match_definition(family, H):
    r = psi_littlestone_dimension(H, family, uniform=True)
    assert r.exact and r.value == ref_uniform(rows_of(H), all_maps(family, H.num_labels))
    check_result(H, r, None, family=family, uniform=True)


@given(
    classes(max_labels=3, max_points=3, max_rows=8),
    st.lists(st.tuples(*[st.sampled_from((0, 1, None))] * 3), min_size=1, max_size=4),
)
@settings(max_examples=examples(100))
def test_user_family_matches_definition(H, maps):
    maps = [m[: H.num_labels] for m in maps]
    r = psi_littlestone_dimension(H, maps)
    assert r.kind.startswith("psi_littlestone:user:")
    assert r.exact and r.value == ref_dimension(rows_of(H), maps)
    assert walk_tree(H, r.witness, lambda phi: None) == r.value
    u = psi_littlestone_dimension(H, maps, uniform=True)
    assert u.exact and u.value == ref_uniform(rows_of(H), maps)
    assert walk_tree(H, u.witness, lambda phi: None, uniform=True) == u.value
    assert trees.is_psi_tree(H, r.witness, maps) and tree_depth(r.witness) == r.value
    assert trees.is_psi_tree(H, u.witness, maps, uniform=True) and tree_depth(u.witness) == u.value


@given(classes(max_labels=4, max_points=3, max_rows=9))
@settings(max_examples=examples(100))
def test_binary_restrictions_and_version_spaces(H):
    bits = max(1, math.ceil(math.log2(H.num_labels)))
    result = binary_restriction_littlestone(H)
    results = result.parts
    assert isinstance(result, DimensionResult) and len(results) == bits
    # the result is max_i LDim(H|_i), certified by the tree of the largest part
    assert result.exact and result.value == max(r.value for r in results) and result.verify(H, debug=True)
    for i, r in enumerate(results, start=1):
        Hi = HypothesisClass.from_table([[(v >> (i - 1)) & 1 for v in row] for row in H.table.tolist()])
        assert r.value == ref_dimension(rows_of(Hi), [(0, 1)])
        assert walk_tree(Hi, r.witness, "binary") == r.value
        assert r.kind == f"littlestone_restriction:{i}"
        assert r.verify(H, debug=True)
    mask = H.full_mask & 0b1011011
    if mask:
        sub = [rows_of(H)[j] for j in H.mask_to_indices(mask)]
        assert multiclass_littlestone_dimension_of(H, mask) == ref_dimension(sub, all_maps("N", H.num_labels))


# ---------------------------------------------------------------------------- closed forms


def thresholds(n: int) -> HypothesisClass:
    return HypothesisClass.from_table([[1 if x >= t else 0 for x in range(n)] for t in range(n + 1)])


@pytest.mark.parametrize("n", [1, 2, 3, 6, 7, 8, 30, 63, 100])
def test_thresholds_closed_form(n):
    r = littlestone_dimension(thresholds(n))
    assert r.value == int(math.floor(math.log2(n + 1)))
    check_result(thresholds(n), r, "binary")


@pytest.mark.parametrize("d", [1, 2, 3, 5, 7])
def test_parities_closed_form(d):
    points = list(itertools.product((0, 1), repeat=d))
    H = HypothesisClass.from_table([[sum(a * b for a, b in zip(s, x)) % 2 for x in points] for s in points])
    r = littlestone_dimension(H)
    assert r.value == d
    check_result(H, r, "binary")


def lines(p: int) -> HypothesisClass:
    points = [(a, b) for a in range(p) for b in range(p)]
    rows = [[1 if (y - (m * x + c)) % p == 0 else 0 for x, y in points] for m in range(p) for c in range(p)]
    rows += [[1 if x == c else 0 for x, y in points] for c in range(p)]
    return HypothesisClass.from_table(rows)


@pytest.mark.parametrize("p", [2, 3, 5, 7])
def test_lines_closed_form(p):
    H = lines(p)
    r = littlestone_dimension(H)
    assert r.value == 2
    check_result(H, r, "binary")


@pytest.mark.parametrize("n", [1, 2, 5, 20])
def test_point_functions(n):
    H = HypothesisClass.from_table([[1 if x == j else 0 for x in range(n)] for j in range(n)])
    assert littlestone_dimension(H).value == (1 if n >= 2 else 0)
    H0 = HypothesisClass.from_table([[1 if x == j else 0 for x in range(n)] for j in range(n)] + [[0] * n])
    assert littlestone_dimension(H0).value == 1


def test_two_constants_trap_and_single_hypothesis():
    two = HypothesisClass.from_table([[0, 0, 0], [1, 1, 1]])
    r = littlestone_dimension(two)
    assert r.value == 1 and r.witness["children"][0] != r.witness["children"][1]
    check_result(two, r, "binary")
    one = HypothesisClass.from_table([[0, 1, 0], [0, 1, 0]])
    for res in (
        littlestone_dimension(one),
        multiclass_littlestone_dimension(one),
        psi_littlestone_dimension(one, "B"),
        psi_littlestone_dimension(one, "bin", uniform=True),
    ):
        assert res.value == 0 and res.witness == {"hypothesis": 0}


def test_multiclass_class_has_no_binary_littlestone():
    r = littlestone_dimension(HypothesisClass.from_table([[0, 2]]))
    assert r.value is None and r.reason


# ---------------------------------------------------------------------------- time limits and errors


# Classes on which a short budget certainly stops the search (measured on two shared cores): intervals
# over 256 points (32 897 rows) have LDim 14 < log2|H| = 15; proving the upper bound takes 30-40 s
# (docs/littlestone.md, stretch suite) and uniform Ψ^bin is not settled in 120 s; a random 2000 x 60 class
# with 4 labels is not settled in 60 s (MLD in [7, 10]).  The budgets below are 600x shorter.
@pytest.mark.parametrize(
    "solver",
    [
        lambda H, tl: littlestone_dimension(H, time_limit=tl),
        lambda H, tl: psi_littlestone_dimension(H, "bin", uniform=True, time_limit=tl),
    ],
    ids=["littlestone", "uniform-psi-bin"],
)
def test_time_limit_stops_with_certified_bounds(solver):
    H = generators.intervals(256)
    r = solver(H, 0.05)
    assert_sound(r, H, high=H.log2_size())
    assert r.lower <= 14 <= r.upper
    check_result(
        H,
        r,
        "binary" if r.kind == "littlestone" else None,
        family=None if r.kind == "littlestone" else "bin",
        uniform=r.kind != "littlestone",
    )


def test_time_limit_stops_multiclass_with_certified_bounds():
    H = generators.random_class(2000, 60, labels=4, random_state=2)
    r = multiclass_littlestone_dimension(H, time_limit=0.1)
    assert_sound(r, H, high=H.log2_size())
    check_result(H, r, "multiclass")


def test_bad_parameters():
    H = thresholds(3)
    with pytest.raises(InvalidParameterError, match="time_limit"):
        littlestone_dimension(H, time_limit=-1)
    with pytest.raises(InvalidParameterError, match="family"):
        psi_littlestone_dimension(H, "X")
    with pytest.raises(InvalidParameterError, match="'H'"):
        littlestone_dimension([[0, 1]])
    with pytest.raises(InvalidParameterError, match="mask"):
        littlestone_dimension_of(H, 0)
    assert littlestone_dimension_of(H, H.full_mask) == 2


# ---------------------------------------------------------------------------- SAT encoding

from dimcalc.littlestone import shattered_tree_exists  # noqa: E402


@given(classes(max_labels=2, max_points=4, max_rows=10), st.integers(1, 3))
@settings(max_examples=examples(200))
def test_sat_agrees_with_recursion_binary(H, depth):
    d = littlestone_dimension(H).value
    answer, tree = shattered_tree_exists(H, depth)
    assert answer == (d >= depth)
    if answer:
        assert walk_tree(H, tree, "binary") == depth
        assert trees.is_mistake_tree(H, tree) and tree_depth(tree) == depth


@pytest.mark.parametrize("family", ["MLD", "bin", "B"])
@given(H=classes(max_labels=4, max_points=3, max_rows=8), depth=st.integers(1, 3))
@settings(max_examples=examples(100))
def test_sat_agrees_with_recursion_multiclass(family, H, depth):
    if family == "MLD":
        d = multiclass_littlestone_dimension(H).value
    else:
        d = psi_littlestone_dimension(H, family).value
    answer, tree = shattered_tree_exists(H, depth, family=family)
    assert answer == (d >= depth)
    if answer:
        style = "multiclass" if family == "MLD" else family_check(family, H.num_labels)
        assert walk_tree(H, tree, style) == depth


def test_sat_is_used_when_the_recursion_is_slow(monkeypatch):
    import dimcalc.littlestone.engine as ls

    monkeypatch.setattr(ls, "_INITIAL_NODE_BUDGET", 1)
    H = lines(3)
    r = littlestone_dimension(H)
    assert r.value == 2 and r.stats["sat_calls"] >= 1
    check_result(H, r, "binary")


@pytest.mark.slow
def test_benchmark_suites_quick_smoke():
    from dimcalc.bench import BenchOptions, run_suites

    rows = run_suites(
        ["littlestone", "littlestone-vs-textbook", "littlestone-stretch"],
        BenchOptions(quick=True, repeat=1, baseline_limit=30),
    )
    assert len(rows) == 15 and all(r.exact for r in rows)
    for r in rows:
        if r.baseline_answer is not None:
            assert r.baseline_answer == r.answer
