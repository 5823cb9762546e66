"""Relations between Littlestone-type dimensions, as properties of the solvers.

Every solver answer is also re-checked by the independent tree checkers
(``result.verify``), and compared with the definition-level brute force of
tests/brute_littlestone.py on classes small enough for it.

Sources: BGS = Bun, Gaboardi, Sivakumar (NeurIPS 2021): Lemma 4.5, Claims
4.6–4.7, Theorem 3.4, Theorem 6.1 (+ Claim 6.2), Theorem 7.1.
"""

from __future__ import annotations

import contextlib
import math

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

import dimcalc.littlestone.engine as ls
from brute_littlestone import brute_dimension
from dimcalc import HypothesisClass
from dimcalc.classes.hypothesis_class import label_bits
from dimcalc.classes.operations import binary_restriction, gap_amplification
from dimcalc.generators import bgs_thm61_class, bgs_thm72_class
from dimcalc.littlestone import littlestone_dimension, multiclass_littlestone_dimension, psi_littlestone_dimension
from dimcalc.vc import vc_dimension
from profile_examples import examples
from strategies import classes


def exact(result, H):
    """The value of an exact, verified result."""
    assert result.exact and result.value is not None, result
    assert result.verify(H, debug=True)
    return result.value


def mld(H):
    return exact(multiclass_littlestone_dimension(H), H)


def ld(H):
    return exact(littlestone_dimension(H), H)


def psi(H, family, uniform=False):
    return exact(psi_littlestone_dimension(H, family, uniform=uniform), H)


def max_restriction_ld(H):
    """max_i LD(H|_i) over the binary restrictions i = 1..label_bits (i = 1 least significant)."""
    return max(ld(binary_restriction(H, i)) for i in range(1, label_bits(H.num_labels) + 1))


multiclass = classes(max_labels=5, max_points=4, max_rows=8)


# ---------------------------------------------------------------------- BGS §4.2
@given(multiclass)
def test_lemma_4_5_psi_N_equals_mld(H):
    assert psi(H, "N") == mld(H)


@given(multiclass)
def test_claim_4_7_mld_le_psi_bin_le_psi_B(H):
    m, b, B = mld(H), psi(H, "bin"), psi(H, "B")
    assert m <= b <= B
    assert B <= H.log2_size()


@given(multiclass)
def test_claim_4_6_restrictions_le_uniform_bin_le_bin(H):
    assert max_restriction_ld(H) <= psi(H, "bin", uniform=True) <= psi(H, "bin")


@given(multiclass, st.sampled_from(["N", "B"]))
def test_uniform_le_nonuniform(H, family):
    assert psi(H, family, uniform=True) <= psi(H, family)


# ---------------------------------------------------------------------- BGS Thm 3.4 and Thm 7.1
@given(multiclass)
def test_theorem_3_4_restrictions_le_6_mld_ln_labels(H):
    # labels [k] = {0..k}: ln(k + 1) = ln(num_labels)
    assert max_restriction_ld(H) <= 6 * mld(H) * math.log(H.num_labels)


@given(multiclass)
def test_theorem_7_1_mld_le_bits_times_max_restriction(H):
    assert mld(H) <= label_bits(H.num_labels) * max_restriction_ld(H)


# ---------------------------------------------------------------------- binary classes
@given(classes(max_labels=2, max_points=5, max_rows=12))
def test_binary_vc_le_ld_le_log2_and_all_trees_agree(H):
    vc = vc_dimension(H)
    assert vc.exact and vc.verify(H)
    value = ld(H)
    assert vc.value <= value <= H.log2_size()
    # With two labels every splitting map is φ = id or 1 - id, and io-labels are {0, 1}.
    assert mld(H) == psi(H, "N") == psi(H, "bin") == psi(H, "B") == psi(H, "bin", uniform=True) == value
    assert max_restriction_ld(H) == value


# ---------------------------------------------------------------------- solvers vs brute force
@given(classes(max_labels=4, max_points=4, max_rows=8))
def test_solvers_match_brute_force(H):
    m = mld(H)
    event(f"MLD = {m}")
    assert m == brute_dimension(H, "multiclass")
    assert psi(H, "N") == brute_dimension(H, "psi", "N")
    assert psi(H, "bin") == brute_dimension(H, "psi", "bin")
    assert psi(H, "bin", uniform=True) == brute_dimension(H, "psi", "bin", uniform=True)
    assert psi(H, "N", uniform=True) == brute_dimension(H, "psi", "N", uniform=True)
    if H.is_binary:
        assert ld(H) == brute_dimension(H, "binary")


def _digits(code, base, width):
    return [(code // base**p) % base for p in range(width)]


@given(st.sets(st.integers(0, 2**4 - 1), min_size=7, max_size=8))
def test_deep_binary_classes_match_brute_force(codes):
    # Dense classes reach depth 3, which random small classes rarely do.
    H = HypothesisClass([_digits(c, 2, 4) for c in sorted(codes)])
    value = ld(H)
    event(f"LD = {value}")
    assert value == brute_dimension(H, "binary") == mld(H)


@given(st.sets(st.integers(0, 3**3 - 1), min_size=7, max_size=8))
def test_deep_multiclass_classes_match_brute_force(codes):
    H = HypothesisClass([_digits(c, 3, 3) for c in sorted(codes)], num_labels=3)
    value = mld(H)
    event(f"MLD = {value}")
    assert value == brute_dimension(H, "multiclass") == psi(H, "N")
    assert psi(H, "bin") == brute_dimension(H, "psi", "bin")


@given(classes(max_labels=3, max_points=4, max_rows=8), st.booleans())
def test_psi_B_solver_matches_brute_force(H, uniform):
    assert psi(H, "B", uniform=uniform) == brute_dimension(H, "psi", "B", uniform=uniform)


@given(classes(min_labels=4, max_labels=4, max_points=3, max_rows=6))
def test_psi_B_solver_matches_brute_force_four_labels(H):
    assert psi(H, "B") == brute_dimension(H, "psi", "B")


@given(
    classes(max_labels=4, max_points=3, max_rows=7),
    st.lists(st.lists(st.sampled_from([0, 1, None]), min_size=4, max_size=4), min_size=1, max_size=4),
)
def test_user_family_matches_brute_force(H, maps):
    maps = [m[: H.num_labels] for m in maps]
    assert psi(H, maps) == brute_dimension(H, "psi", maps)
    assert psi(H, maps, uniform=True) == brute_dimension(H, "psi", maps, uniform=True)


# ---------------------------------------------------------------------- closed forms
@pytest.mark.parametrize("k", [5, 6, 7, 8, 11, 12, 15])
def test_theorem_6_1_class_has_mld_1_and_deep_restriction(k):
    F = bgs_thm61_class(k)
    assert F.num_labels == k + 1
    assert mld(F) == 1
    k_even = k if k % 2 == 0 else k + 1
    thresholds_ld = math.floor(math.log2(k_even // 2))  # F|_1 = thresholds with k'/2 functions
    assert ld(binary_restriction(F, 1)) == thresholds_ld
    assert max_restriction_ld(F) >= math.log2(k + 1) / 10  # the theorem's guarantee (d = 1)


@pytest.mark.parametrize("k, d", [(5, 2), (7, 2), (5, 3)])
def test_theorem_6_1_amplified_class(k, d):
    F = bgs_thm61_class(k, d)
    assert mld(F) == d
    k_even = k if k % 2 == 0 else k + 1
    assert max_restriction_ld(F) >= d * math.floor(math.log2(k_even // 2))


@settings(max_examples=examples(200))
@given(classes(max_labels=4, max_points=3, max_rows=4), st.integers(2, 3))
def test_claim_6_2_gap_amplification_multiplies_mld(H, ell):
    if ell == 3 and H.n_distinct > 3:
        ell = 2  # keep the product class small (n_distinct ** ell rows)
    G = gap_amplification(H, ell)
    assert mld(G) == ell * mld(H)
    assert max_restriction_ld(G) >= ell * max_restriction_ld(H)


@pytest.mark.parametrize("d, bits", [(1, 1), (1, 2), (1, 3), (2, 2)])
def test_theorem_7_2_class_meets_theorem_7_1(d, bits):
    H = bgs_thm72_class(d, bits)
    assert max_restriction_ld(H) == d
    assert mld(H) == d * bits == label_bits(H.num_labels) * max_restriction_ld(H)


@pytest.mark.parametrize("pairs", [[(0, 1), (0, 2), (1, 2)], [(2, 0), (1, 0), (2, 1)], [(0, 2), (0, 2), (0, 2)]])
def test_depth_three_multiclass_cube(pairs):
    # h(x) ranges over {a_x, b_x} independently on 3 points: a cube, MLD = 3 (= log2 |H|).
    rows = [[pairs[x][(c >> x) & 1] for x in range(3)] for c in range(8)]
    H = HypothesisClass(rows, num_labels=3)
    assert mld(H) == brute_dimension(H, "multiclass") == 3
    assert psi(H, "bin") == psi(H, "B") == 3
    assert psi(H, "B", uniform=True) == brute_dimension(H, "psi", "B", uniform=True)


# ---------------------------------------------------------------------- SAT forced on inside the search
@contextlib.contextmanager
def sat_forced():
    """SAT on every query ``D(V) >= t`` (t >= 2) of the search, with no cost model (dimcalc.littlestone)."""
    saved = ls.SAT_INSIDE, ls._SAT_MIN_NODES
    ls.SAT_INSIDE, ls._SAT_MIN_NODES = True, 0
    try:
        yield
    finally:
        ls.SAT_INSIDE, ls._SAT_MIN_NODES = saved


@pytest.mark.slow  # a SAT solver per query on every example: make test runs it
@given(classes(max_labels=4, max_points=4, max_rows=8))
def test_sat_forced_inside_the_search_matches_brute_force(H):
    with sat_forced():
        r = multiclass_littlestone_dimension(H)
        event(f"SAT answers {r.stats['sat_answers'] > 0}")
        assert exact(r, H) == brute_dimension(H, "multiclass")
        assert psi(H, "bin") == brute_dimension(H, "psi", "bin")
        assert psi(H, "B", uniform=True) == brute_dimension(H, "psi", "B", uniform=True)
        if H.is_binary:
            assert ld(H) == brute_dimension(H, "binary")


@given(st.sets(st.integers(0, 2**4 - 1), min_size=7, max_size=8))
def test_sat_forced_on_deep_binary_classes_matches_brute_force(codes):
    H = HypothesisClass([_digits(c, 2, 4) for c in sorted(codes)])
    with sat_forced():
        r = littlestone_dimension(H)
    assert r.stats["sat_answers"] >= 1  # the root query t = 2 at least went to SAT
    assert exact(r, H) == brute_dimension(H, "binary")
