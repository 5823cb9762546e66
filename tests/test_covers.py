"""0-cover numbers (dimcalc.covers) against definition-level brute force.

* N(0, H, z): every complete output tree of the right depth is enumerated, the
  (hypothesis, path) pairs each one serves are read off Def 5.4 directly, and a
  minimum set cover is found by an exact 0/1 program (scipy HiGHS) -- no use
  of the recursion in dimcalc.covers.
* fooling sets: checked pairwise against the definition of "one output tree
  serves both".
* N(0, H, n): the maximum over EVERY complete input tree of depth n.
"""

from __future__ import annotations

import itertools
import json
import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.optimize import Bounds, LinearConstraint, milp

from dimcalc import HypothesisClass, generators
from dimcalc.covers import (
    input_tree_depth,
    input_tree_from_witness_tree,
    is_zero_cover,
    is_zero_cover_fooling_set,
    sauer_zero_cover_bound,
    sauer_zero_cover_exponential_bound,
    zero_cover_function,
    zero_cover_number,
)
from dimcalc.errors import InvalidParameterError, InvalidWitnessError
from soundness import assert_sound
from strategies import classes

# ---------------------------------------------------------------------------- helpers (definition level)


def heap_tree(values, key="point", u=0):
    if 2 * u + 1 >= len(values):
        return {key: int(values[u])}
    return {key: int(values[u]), "children": [heap_tree(values, key, 2 * u + 1), heap_tree(values, key, 2 * u + 2)]}


def paths(depth):
    for turns in itertools.product((0, 1), repeat=depth - 1):
        u, nodes = 0, [0]
        for t in turns:
            u = 2 * u + 1 + t
            nodes.append(u)
        yield nodes, turns


def brute_cover_number(rows, points, num_labels):
    """Minimum number of output trees serving every (f, path) pair: exact set cover over all output trees."""
    depth = (len(points) + 1).bit_length() - 1
    pairs = [(tuple(r[points[u]] for u in nodes), nodes) for r in set(map(tuple, rows)) for nodes, _ in paths(depth)]
    pairs = sorted(set((seq, tuple(nodes)) for seq, nodes in pairs))
    trees = list(itertools.product(range(num_labels), repeat=len(points)))
    A = np.zeros((len(pairs), len(trees)))
    for j, v in enumerate(trees):
        for i, (seq, nodes) in enumerate(pairs):
            if tuple(v[u] for u in nodes) == seq:
                A[i, j] = 1
    res = milp(
        np.ones(len(trees)), constraints=LinearConstraint(A, lb=1), integrality=np.ones(len(trees)), bounds=Bounds(0, 1)
    )
    assert res.status == 0
    return round(res.fun)


def compatible(table, points, a, b):
    """One output tree can serve both pairs iff the hypotheses agree on the nodes both paths visit."""
    (ra, pa), (rb, pb) = a, b
    depth = len(pa) + 1
    u = 0
    for level in range(depth):
        if table[ra][points[u]] != table[rb][points[u]]:
            return False
        if level == depth - 1 or pa[level] != pb[level]:
            return True
        u = 2 * u + 1 + pa[level]
    return True


def all_tree_values(H, depth):
    """N(0, H, z) for EVERY input tree z of the given depth, trees enumerated as (x, left, right).

    Uses only Def 5.4's root split (trees with root label i must cover the
    class restricted to f(x) = i on both subtrees), vectorised over trees.
    """
    masks = H.label_masks
    count = [1]
    for _ in range(1, depth + 1):
        count.append(H.n_points * count[-1] ** 2)
    memo = {}

    def vals(cell, m):
        if m == 0:
            return np.ones(1, dtype=np.int64)
        if (cell, m) not in memo:
            out = []
            for x in range(H.n_points):
                acc = np.zeros(count[m - 1] ** 2, dtype=np.int64)
                for lab in range(H.num_labels):
                    sub = cell & masks[x][lab]
                    if sub:
                        v = vals(sub, m - 1)
                        acc += np.maximum.outer(v, v).ravel()
                out.append(acc)
            memo[(cell, m)] = np.concatenate(out)
        return memo[(cell, m)]

    return vals(H.full_mask, depth)


# ---------------------------------------------------------------------------- N(0, H, z)


@given(classes(max_points=3, max_labels=3, max_rows=6), st.data())
def test_zero_cover_number_matches_set_cover_brute_force(H, data):
    depth = data.draw(st.integers(1, 3 if H.num_labels == 2 else 2))
    points = data.draw(st.lists(st.integers(0, H.n_points - 1), min_size=2**depth - 1, max_size=2**depth - 1))
    tree = heap_tree(points)
    r = zero_cover_number(H, tree)
    assert r.exact and r.value == brute_cover_number(H.table.tolist(), points, H.num_labels)
    assert r.verify(H, debug=True)
    w = r.witness
    assert len(w["cover"]) == r.value == len(w["fooling_set"])
    assert is_zero_cover(H, tree, w["cover"])
    # the fooling set, pairwise, at definition level
    pairs = [(p["hypothesis"], tuple(p["path"])) for p in w["fooling_set"]]
    table = H.table.tolist()
    assert not any(compatible(table, points, a, b) for a, b in itertools.combinations(pairs, 2))
    # a cover with one tree fewer is not a cover
    if r.value > 1:
        assert not is_zero_cover(H, tree, w["cover"][1:])


@given(classes(max_points=3, max_labels=3, max_rows=5), st.data())
def test_fooling_set_checker_matches_pairwise_definition(H, data):
    depth = data.draw(st.integers(1, 3))
    points = data.draw(st.lists(st.integers(0, H.n_points - 1), min_size=2**depth - 1, max_size=2**depth - 1))
    pairs = data.draw(
        st.lists(
            st.tuples(st.integers(0, H.n_hypotheses - 1), st.tuples(*[st.integers(0, 1)] * (depth - 1))),
            max_size=6,
            unique=True,
        )
    )
    table = H.table.tolist()
    expected = not any(compatible(table, points, a, b) for a, b in itertools.combinations(pairs, 2))
    got = is_zero_cover_fooling_set(H, heap_tree(points), [{"hypothesis": r, "path": list(p)} for r, p in pairs])
    assert got == expected


@given(classes(max_points=3, max_labels=3, max_rows=5), st.data())
def test_cover_checker_matches_definition(H, data):
    depth = data.draw(st.integers(1, 2))
    size = 2**depth - 1
    points = data.draw(st.lists(st.integers(0, H.n_points - 1), min_size=size, max_size=size))
    cover = data.draw(
        st.lists(st.lists(st.integers(0, H.num_labels - 1), min_size=size, max_size=size), min_size=1, max_size=5)
    )
    expected = all(
        any(tuple(v[u] for u in nodes) == tuple(row[points[u]] for u in nodes) for v in cover)
        for row in H.table.tolist()
        for nodes, _ in paths(depth)
    )
    assert is_zero_cover(H, heap_tree(points), [heap_tree(v, "label") for v in cover]) == expected


def test_zero_cover_known_cases():
    # one hypothesis: one tree (BGS Thm 5.6, base case d = 0)
    H = HypothesisClass.from_table([[2, 0, 1]], num_labels=3)
    z = heap_tree([0, 1, 2, 0, 1, 2, 0])
    assert zero_cover_number(H, z).value == 1
    # all functions on one point with k+1 labels: (k+1) trees at any depth
    H = HypothesisClass.from_table([[0], [1], [2]])
    assert zero_cover_number(H, heap_tree([0] * 7)).value == 3
    # point functions on 3 points, root x0 then x1 / x2 below: 2 + 2 = ... computed by hand
    P = HypothesisClass.from_table([[1, 0, 0], [0, 1, 0], [0, 0, 1]])
    # root x0 separates p0 (label 1) from {p1, p2} (label 0), which x1 then splits: 1 + 2 = 3
    assert zero_cover_number(P, heap_tree([0, 1, 1])).value == 3
    # the same point everywhere: only 2 label sequences per path
    assert zero_cover_number(P, heap_tree([0, 0, 0])).value == 2
    # empty tree: N(0, H, 0) = 1 by convention
    assert zero_cover_number(P, None).value == 1


def test_tree_validation_and_conversion(tmp_path):
    H = HypothesisClass.from_table([[0, 1], [1, 0]])
    with pytest.raises(InvalidWitnessError, match="not complete"):
        zero_cover_number(
            H, {"point": 0, "children": [{"point": 1}, {"point": 0, "children": [{"point": 0}, {"point": 1}]}]}
        )
    with pytest.raises(InvalidWitnessError, match="point 5"):
        zero_cover_number(H, {"point": 5})
    with pytest.raises(InvalidWitnessError, match="two nodes"):
        zero_cover_number(H, {"point": 0, "children": [{"point": 1}]})
    mistake_tree = {"point": 0, "children": [{"hypothesis": 0}, {"hypothesis": 1}]}
    assert input_tree_from_witness_tree(mistake_tree) == {"point": 0}
    assert zero_cover_number(H, mistake_tree).value == 2
    assert input_tree_depth({"point": 0, "children": [{"point": 1}, {"point": 0}]}) == 2
    assert not is_zero_cover(H, {"point": 0}, [{"label": 7}])
    assert not is_zero_cover(H, {"point": 0}, [{"label": 0, "children": [{"label": 0}, {"label": 1}]}])


# ---------------------------------------------------------------------------- N(0, H, n)


@given(classes(max_points=3, max_labels=4, max_rows=10), st.integers(1, 3))
def test_zero_cover_function_matches_exhaustive_search(H, n):
    r = zero_cover_function(H, n)
    assert r.exact
    assert r.value == int(all_tree_values(H, n).max())
    assert r.verify(H, debug=True)
    assert input_tree_depth(r.witness["tree"]) == n


def test_zero_cover_function_exhaustive_on_denser_multiclass_classes():
    # denser classes than hypothesis draws: here the split of cells between the two children matters
    H = HypothesisClass.from_table(
        [[1, 2, 1], [2, 0, 1], [0, 0, 2], [2, 0, 2], [2, 0, 1], [1, 1, 1], [0, 2, 2], [0, 2, 2], [0, 1, 1]]
    )
    assert zero_cover_function(H, 2).value == int(all_tree_values(H, 2).max()) == 7
    rng = np.random.default_rng(2024)
    for _ in range(150):
        k, n, rows, depth = (
            int(rng.integers(3, 5)),
            int(rng.integers(2, 4)),
            int(rng.integers(5, 12)),
            int(rng.integers(2, 4)),
        )
        H = HypothesisClass.from_table(rng.integers(0, k, size=(rows, n)), num_labels=k)
        r = zero_cover_function(H, depth)
        assert r.exact and r.value == int(all_tree_values(H, depth).max()) and r.verify(H)


@given(classes(max_points=4, max_labels=4, max_rows=8), st.integers(1, 4))
def test_zero_cover_function_within_proven_bounds(H, n):
    r = zero_cover_function(H, n)
    assert r.exact and r.verify(H)
    assert r.value <= min(H.n_distinct, H.num_labels**n)
    # monotone in the depth: a deeper tree can repeat the last level's points
    assert zero_cover_function(H, n - 1).value <= r.value


def test_zero_cover_function_closed_forms():
    # thresholds over m points: N(0, H, n) = sum_{i<=n} C(n, i) while the class is large enough (LD = log)
    T = HypothesisClass.from_table([[1 if i >= t else 0 for i in range(7)] for t in range(8)])
    for n in range(4):
        assert zero_cover_function(T, n).value == min(2**n, 8)
    # point functions (MLD = 1): Sauer bound n + 1 is attained
    P = HypothesisClass.from_table(np.eye(6, dtype=int))
    for n in range(1, 5):
        r = zero_cover_function(P, n)
        assert r.value == n + 1 == sauer_zero_cover_bound(n, 1, 1)
    assert sauer_zero_cover_exponential_bound(4, 1, 1) >= sauer_zero_cover_bound(4, 1, 1)


def test_zero_cover_function_time_limit_gives_proven_bounds():
    # N(0, H, 8) of the thresholds on 255 points: exact and right if settled in 0.05 s, else proven bounds.
    H = generators.thresholds(255)
    r = zero_cover_function(H, 8, time_limit=0.05)
    assert_sound(r, H)
    json.dumps(r.to_json())


def test_bad_parameters():
    H = HypothesisClass.from_table([[0, 1]])
    with pytest.raises(InvalidParameterError):
        zero_cover_function(H, -1)
    with pytest.raises(InvalidParameterError):
        zero_cover_number([[0]], {"point": 0})
    with pytest.raises(InvalidParameterError):
        sauer_zero_cover_bound(2, -1, 1)
    assert math.isclose(sauer_zero_cover_exponential_bound(2, 2, 2), (math.e * 2) ** 2)
