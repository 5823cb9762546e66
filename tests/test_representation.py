"""Representation dimension (dimcalc.representation) and one-way communication (dimcalc.representation.communication).

References are independent of the LP/MILP code: for tiny domains the
definition of ε-representation is checked by enumerating the VERTICES of the
simplex of distributions that matter (a finite candidate set, see
``brute_represents``), and DRDim by exhaustive search over subsets of all
functions.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dimcalc import HypothesisClass
from dimcalc.errors import InvalidParameterError, InvalidWitnessError
from dimcalc.representation import (
    binary_entropy,
    check_representation,
    deterministic_representation_dimension,
    exact_fraction,
    is_representation,
    probabilistic_representation_bounds,
    representation_error,
)
from dimcalc.representation.communication import deterministic_one_way_complexity, one_way_communication_complexity
from profile_examples import examples
from strategies import classes, tables


def brute_represents(H_rows, f, eps):
    """Def 2.3 for one concept: every distribution D has some h with D-error <= eps.

    min_h err_D(h) is a concave piecewise-linear function of D, so its maximum
    over the simplex is attained at a vertex of the arrangement cut out by the
    hyperplanes err_D(h) = err_D(h'); we enumerate candidate D solving
    systems of those equalities over subsets of points (exact fractions).
    """
    n = len(f)
    M = [[int(h[x] != f[x]) for x in range(n)] for h in H_rows]
    best = Fraction(-1)
    # candidate maximisers: for each support S and each choice of |S|-1 pairs (h, h') with equal errors
    for size in range(1, n + 1):
        for S in itertools.combinations(range(n), size):
            for hs in itertools.combinations(range(len(M)), min(size, len(M))):
                # solve sum_{x in S} D_x = 1 and err(h_0) = err(h_i) for the chosen hypotheses
                rows = [[Fraction(1)] * size + [Fraction(1)]]
                for h in hs[1:]:
                    rows.append([Fraction(M[h][x] - M[hs[0]][x]) for x in S] + [Fraction(0)])
                D = _solve(rows, size)
                if D is None or any(d < 0 for d in D):
                    continue
                val = min(sum(D[i] for i, x in enumerate(S) if M[h][x]) for h in range(len(M)))
                best = max(best, val)
    return best <= eps, best


def _solve(rows, size):
    """A solution of an exact linear system (free variables set to 0), or None if inconsistent."""
    A = [r[:] for r in rows]
    piv_cols, r = [], 0
    for c in range(size):
        p = next((i for i in range(r, len(A)) if A[i][c] != 0), None)
        if p is None:
            continue
        A[r], A[p] = A[p], A[r]
        A[r] = [v / A[r][c] for v in A[r]]
        for i in range(len(A)):
            if i != r and A[i][c] != 0:
                A[i] = [a - A[i][c] * b for a, b in zip(A[i], A[r])]
        piv_cols.append(c)
        r += 1
    if any(all(v == 0 for v in row[:-1]) and row[-1] != 0 for row in A):
        return None
    x = [Fraction(0)] * size
    for i, c in enumerate(piv_cols):
        x[c] = A[i][-1]
    return x


@st.composite
def pair_of_classes(draw):
    """A class H (1 to 5 rows), a candidate class C (1 to 3 rows) on the same domain and labels, and ε."""
    H = draw(classes(min_labels=2, max_labels=3, min_points=1, max_points=4, max_rows=5))
    C = draw(tables(H.n_points, H.num_labels, max_rows=3))
    eps = draw(st.sampled_from([Fraction(0), Fraction(1, 4), Fraction(1, 3), Fraction(1, 2), Fraction(2, 5)]))
    return H.table.tolist(), C, eps


@given(pair_of_classes())
def test_is_representation_matches_definition(data):
    H_rows, C_rows, eps = data
    r = check_representation(H_rows, C_rows, eps)
    expected = all(brute_represents(H_rows, f, eps)[0] for f in C_rows)
    assert r.represents is expected
    assert is_representation(H_rows, C_rows, eps) is expected  # a bool, the same answer
    if expected:
        Hd = [list(x) for x in dict.fromkeys(map(tuple, H_rows))]
        Cd = [list(x) for x in dict.fromkeys(map(tuple, C_rows))]
        assert set(r.mixtures) == set(range(len(Cd)))
        for i, q in r.mixtures.items():  # exact certificate: the mixture's worst error is <= eps
            f = Cd[i]
            assert sum(q) == 1 and all(a >= 0 for a in q)
            assert max(sum(q[j] for j, h in enumerate(Hd) if h[x] != f[x]) for x in range(len(f))) <= eps
    else:
        D = r.counter_distribution
        assert sum(D) == 1 and all(d >= 0 for d in D)
        Cd = [list(x) for x in dict.fromkeys(map(tuple, C_rows))]
        f = Cd[r.worst_concept]
        errs = [sum(D[x] for x in range(len(f)) if h[x] != f[x]) for h in H_rows]
        assert min(errs) > eps == r.epsilon


def test_counter_witness_and_tolerance_cases():
    # exact tie: H = {00, 11} represents 01 at eps = 1/2 exactly (mixture 1/2 - 1/2), not at 0.49
    assert is_representation([[0, 0], [1, 1]], [[0, 1]], 0.5) is True
    r = check_representation([[0, 0], [1, 1]], [[0, 1]], 0.49)
    assert r.represents is False and r.counter_distribution == [Fraction(1, 2), Fraction(1, 2)]
    assert representation_error([[0, 0], [1, 1]], [[0, 1]]) == pytest.approx(0.5)
    # text is read exactly; a float is its own (binary) value
    assert exact_fraction("0.1") == Fraction(1, 10) and exact_fraction("1/3") == Fraction(1, 3)
    assert exact_fraction(0.1) == Fraction(0.1) != Fraction(1, 10) and exact_fraction(Fraction(2, 7)) == Fraction(2, 7)
    with pytest.raises(InvalidParameterError, match="^is_representation: H has 1 points"):
        is_representation([[0]], [[0, 1]], 0.25)
    with pytest.raises(InvalidParameterError, match="^check_representation: H has 1 points"):
        check_representation([[0]], [[0, 1]], 0.25)
    with pytest.raises(InvalidParameterError):
        exact_fraction(1.5)


def brute_drdim_size(C_rows, num_labels, eps):
    n = len(C_rows[0])
    pool = list(itertools.product(range(num_labels), repeat=n))
    for size in range(1, len(pool) + 1):
        for H in itertools.combinations(pool, size):
            if all(brute_represents(H, f, eps)[0] for f in C_rows):
                return size
    raise AssertionError


@settings(max_examples=examples(200))
@given(
    st.integers(1, 3).flatmap(
        lambda n: st.lists(st.lists(st.integers(0, 1), min_size=n, max_size=n), min_size=1, max_size=4)
    ),
    st.sampled_from([Fraction(0), Fraction(1, 4), Fraction(1, 3), Fraction(1, 2)]),
)
def test_drdim_matches_exhaustive_subset_search(rows, eps):
    C = HypothesisClass.from_table(rows)
    r = deterministic_representation_dimension(C, eps)
    assert r.exact and r.pool == "all functions"
    assert r.size == brute_drdim_size([list(x) for x in C.distinct_rows], 2, eps)
    assert r.verify(C)
    assert r.value == pytest.approx(math.log2(r.size))


def test_drdim_point_functions_and_multiclass():
    # FX §3.1: at ε = 1/3 DRDim of point functions grows slower than the domain (exact, all-function pool)
    sizes = [
        deterministic_representation_dimension(HypothesisClass.from_table(np.eye(n, dtype=int)), "1/3").size
        for n in (3, 4, 5, 6)
    ]
    assert sizes == [3, 4, 5, 5]
    # multiclass (BGS Def 8.1 with one class): three constant functions need all three at ε < 1/2... check by brute force
    C = HypothesisClass.from_table([[0, 0], [1, 1], [2, 2]], num_labels=3)
    r = deterministic_representation_dimension(C, "1/4")
    assert r.exact and r.size == brute_drdim_size([[0, 0], [1, 1], [2, 2]], 3, Fraction(1, 4)) and r.verify(C)


def test_drdim_bounds_for_larger_classes_cite_fx():
    T = HypothesisClass.from_table(np.tril(np.ones((9, 8), dtype=int), -1))  # 9 thresholds on 8 points
    r = deterministic_representation_dimension(T, 0.25, pool="class")
    assert not r.exact and r.size_upper <= 9 and r.verify(T)
    (b,) = r.bounds
    assert "Cor 4.3" in b.source and b.explicit_constants
    # LDim(thresholds on 8 points) = 3: ceil(log2|H|) >= (1 - H(1/4))*3 = 0.566...  -> |H| >= 2
    assert r.size_lower >= 2
    prd = probabilistic_representation_bounds(T, drdim=r)
    assert any("Thm 8.8" in b.source and b.explicit_constants for b in prd.bounds)
    assert any(not b.explicit_constants for b in prd.bounds)
    # the result: PRDim_{1/4,1/8} in bits, between BGS Thm 8.8 (MLD/32 nats) and DRDim_{1/4} (its witness)
    assert prd.upper == r.upper and prd.witness is r.witness and prd.verify(T)
    assert prd.lower == pytest.approx(3 / (32 * math.log(2))) and not prd.exact


# ---------------------------------------------------------------------------- communication


@given(st.lists(st.lists(st.integers(0, 2), min_size=3, max_size=3), min_size=1, max_size=12))
def test_deterministic_one_way_complexity_is_log_of_distinct_rows(rows):
    C = HypothesisClass.from_table(rows, num_labels=3)
    c = deterministic_one_way_complexity(C)
    r = len({tuple(x) for x in rows})
    assert 2**c >= r and (c == 0 or 2 ** (c - 1) < r)


def test_one_way_bounds_are_consistent():
    P = HypothesisClass.from_table(np.eye(5, dtype=int))
    res = one_way_communication_complexity(P, Fraction(1, 8))
    lo, hi = res.private_coin
    assert res.deterministic == 3 and lo <= hi <= res.deterministic
    # FX Cor 4.3 with LDim(points) = 1: (1 - H(1/8)) > 0 so at least one bit
    assert lo >= 1
    assert sorted(res.witness.values()) == list(range(5))
    assert binary_entropy(0.125) == pytest.approx(0.5435644431995964)
    with pytest.raises(InvalidParameterError):
        one_way_communication_complexity(P, 0.75)


# ----------------------------------------------------------------------------- exact epsilon (a float is its own value)
@settings(max_examples=examples(60))
@given(
    st.integers(1, 3).flatmap(
        lambda n: st.lists(st.lists(st.integers(0, 1), min_size=n, max_size=n), min_size=1, max_size=4)
    ),
    st.sampled_from([1 / 3, 2 / 3 / 2, 0.1, 1 / 6, 0.3]),
)
def test_drdim_at_a_float_is_exact_at_the_floats_own_value(rows, eps):
    """A float ε within 1e-17 of an error a set can have (1/3, 1/6) is answered exactly at its binary value."""
    C = HypothesisClass.from_table(rows)
    r = deterministic_representation_dimension(C, eps)
    assert r.exact and r.epsilon == Fraction(eps) and r.stats["milp_decides_epsilon"]
    assert r.size == brute_drdim_size([list(x) for x in C.distinct_rows], 2, Fraction(eps))
    assert r.verify(C)


@pytest.mark.slow  # two exact searches at one third (the largest of this file): make test runs it
def test_drdim_one_third_as_float_fraction_and_text():
    """The issue's case: thresholds over 6 points.  "1/3" and Fraction(1, 3) are one third; the float 1/3 is a
    hair below it, where the answer differs -- and both are exact (before: bounds [5, 7] for the float)."""
    T = HypothesisClass.from_table(np.tril(np.ones((7, 6), dtype=int), -1))
    third = deterministic_representation_dimension(T, Fraction(1, 3))
    assert deterministic_representation_dimension(T, "1/3").size == third.size == 5 and third.exact
    below = deterministic_representation_dimension(T, 1 / 3)
    assert below.exact and below.epsilon == Fraction(1 / 3) < Fraction(1, 3) and below.size == 7
    # the one-third witness does not represent at the float's value; the float's own witness does
    assert is_representation(third.witness, T, 1 / 3) is False
    assert is_representation(below.witness, T, 1 / 3) is True and below.verify(T)


def test_is_representation_returns_a_bool_and_explains_on_request():
    """Every ``is_*`` checker returns ``bool``; ``explain=True`` raises with the reason (issue 21)."""
    P = np.eye(3, dtype=int)
    assert is_representation(P, P, "1/4") is True
    assert is_representation([[0, 0, 0]], P, "1/4") is False
    assert is_representation(P, P, "1/4", explain=True) is True
    with pytest.raises(InvalidWitnessError, match=r"does not 1/4-represent concept 0 .* probability 1\)$"):
        is_representation([[0, 0, 0]], P, "1/4", explain=True)
