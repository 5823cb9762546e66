"""Ψ-Littlestone dimensions over many labels, and over labels declared but absent (issue 13).

The searches work over the labels present in the class (dimcalc.psi, "Only the
labels present in the class matter"); these tests check that this changes no
value (against the definition-level brute force of ``brute_littlestone``, which
enumerates every map over the *declared* labels), that the canonical maps are
the old ones when every label is present, and that many labels cost time
within the limit instead of an overflow or a hang.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from brute_littlestone import brute_dimension
from dimcalc import HypothesisClass
from dimcalc.classes.hypothesis_class import label_bits
from dimcalc.littlestone import psi_littlestone_dimension
from dimcalc.littlestone.api import solve_family
from dimcalc.littlestone.uniform import uniform_dimension
from dimcalc.psi import MapSequence, bipartition_seed_tree, present_labels, psi_family, restricted_maps, uniform_maps
from dimcalc.search.budget import Deadline
from dimcalc.witnesses.tree_checks import is_psi_tree, tree_depth
from profile_examples import examples
from soundness import assert_sound


@st.composite
def sparse_label_classes(draw, max_points: int = 3, max_hyps: int = 7, max_declared: int = 5):
    """Tables whose entries use a few of the declared labels (the others absent)."""
    declared = draw(st.integers(2, max_declared))
    used = draw(st.lists(st.integers(0, declared - 1), min_size=1, max_size=3, unique=True))
    n_points = draw(st.integers(1, max_points))
    row = st.lists(st.sampled_from(used), min_size=n_points, max_size=n_points)
    rows = draw(st.lists(row, min_size=1, max_size=max_hyps))
    return HypothesisClass(rows, num_labels=declared)


@settings(max_examples=examples(60), deadline=None)
@given(sparse_label_classes(), st.sampled_from(["N", "bin", "B"]), st.booleans())
def test_absent_labels_change_no_value(H, family, uniform):
    """Values over the present labels equal the brute force over every declared label."""
    r = psi_littlestone_dimension(H, family, uniform=uniform)
    assert r.exact and r.verify(H)
    assert r.value == brute_dimension(H, "psi", family, uniform=uniform)


@settings(max_examples=examples(40), deadline=None)
@given(
    sparse_label_classes(max_declared=4),
    st.lists(st.lists(st.sampled_from([0, 1, None]), min_size=4, max_size=4), min_size=1, max_size=5),
    st.booleans(),
)
def test_user_family_over_present_labels_matches_brute_force(H, maps, uniform):
    maps = [m[: H.num_labels] for m in maps]
    r = psi_littlestone_dimension(H, maps, uniform=uniform)
    assert r.exact and r.verify(H)
    assert r.value == brute_dimension(H, "psi", maps, uniform=uniform)
    fam = psi_family(maps, H.num_labels)

    def walk(t):  # every map in the witness is a map of the family (a representative, never a restriction)
        if "map" in t:
            assert tuple(t["map"]) in set(fam.user_maps)
            for c in t["children"]:
                walk(c)

    walk(r.witness)


def _old_uniform_maps(name: str, L: int, maps=None) -> list[tuple]:
    """The canonical maps of the uniform search before restriction to present labels (all labels present)."""
    if name == "N":
        out = []
        for a, b in itertools.combinations(range(L), 2):
            phi = [None] * L
            phi[a], phi[b] = 0, 1
            out.append(tuple(phi))
        return out
    if name == "bin":
        return [tuple((lab >> bit) & 1 for lab in range(L)) for bit in range(label_bits(L))]
    if name == "B":
        return [tuple(0 if lab == 0 else (s >> (lab - 1)) & 1 for lab in range(L)) for s in range(1, 1 << (L - 1))]
    out, seen = [], set()
    for phi in maps:
        mirror = tuple(None if v is None else 1 - v for v in phi)
        if phi in seen or mirror in seen or 0 not in phi or 1 not in phi:
            continue
        seen.add(phi)
        out.append(phi)
    return out


@pytest.mark.parametrize("L", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("name", ["N", "bin", "B"])
def test_canonical_maps_unchanged_when_every_label_is_present(name, L):
    assert list(uniform_maps(psi_family(name, L), range(L))) == _old_uniform_maps(name, L)


@given(st.lists(st.lists(st.sampled_from([0, 1, None]), min_size=4, max_size=4), min_size=1, max_size=8))
def test_user_canonical_maps_unchanged_when_every_label_is_present(maps):
    fam = psi_family(maps, 4)
    assert list(uniform_maps(fam, range(4))) == _old_uniform_maps("user", 4, list(fam.user_maps))
    assert restricted_maps(fam, range(4)) == [m for m in fam.user_maps if 0 in m and 1 in m]


def test_map_sequence_over_many_labels_is_lazy():
    seq = uniform_maps(psi_family("B", 300), range(300))
    assert isinstance(seq, MapSequence) and seq.size == 2**299 - 1
    last = seq[seq.size - 1]
    assert last[0] == 0 and all(v == 1 for v in last[1:])
    pairs = uniform_maps(psi_family("N", 300), (3, 7, 250))
    assert list(pairs) == [
        tuple(0 if i == a else 1 if i == b else None for i in range(300)) for a, b in [(3, 7), (3, 250), (7, 250)]
    ]


def _labels300() -> HypothesisClass:
    """300 hypotheses over 6 points, entry (7i + 13j) mod 300: every label present at every point."""
    return HypothesisClass([[(7 * i + 13 * j) % 300 for j in range(6)] for i in range(300)], num_labels=300)


@pytest.mark.parametrize("uniform", [False, True])
def test_three_hundred_labels_psi_B_exact_at_once(uniform):
    H = _labels300()
    r = psi_littlestone_dimension(H, "B", uniform=uniform, time_limit=10)
    assert r.exact and r.value == 8 == H.log2_size() and r.verify(H)


def test_declared_but_unused_labels_cost_nothing():
    H = HypothesisClass([[0, 1, 1], [1, 0, 1], [0, 0, 0], [1, 1, 0]], num_labels=300)
    assert present_labels(H) == (0, 1)
    for family in ("N", "bin", "B"):
        for uniform in (False, True):
            r = psi_littlestone_dimension(H, family, uniform=uniform, time_limit=10)
            assert r.exact and r.value == 2 and r.verify(H), (family, uniform)


def _random_many_labels(seed: int = 0) -> HypothesisClass:
    rng = np.random.default_rng(seed)
    return HypothesisClass(rng.integers(0, 20, size=(60, 6)), num_labels=20)


@pytest.mark.parametrize("uniform", [False, True])
def test_psi_B_search_over_twenty_labels_stops_with_bounds(uniform):
    """The exponential Ψ^B search itself (no seed tree) polls its deadline while it enumerates splits."""
    H = _random_many_labels()
    if uniform:
        r = uniform_dimension(H, "B", None, "psi_littlestone_uniform:B", Deadline(0.2), False, "test")
    else:
        r = solve_family(H, "psi_littlestone:B", "B", None, Deadline(0.2), False, "test")
    assert_sound(r, H, high=H.log2_size())


def test_psi_B_over_twenty_labels_answers():
    H = _random_many_labels()
    for uniform in (False, True):
        r = psi_littlestone_dimension(H, "B", uniform=uniform, time_limit=5)
        assert r.verify(H) and r.lower <= (r.upper if r.upper is not None else r.lower)
        assert r.lower >= psi_littlestone_dimension(H, "bin", uniform=uniform, time_limit=5).lower


@settings(max_examples=examples(60), deadline=None)
@given(st.integers(2, 12), st.integers(1, 4), st.integers(2, 40), st.integers(0, 10**6), st.booleans())
def test_seed_trees_are_shattered(labels, points, hyps, seed, uniform):
    rng = np.random.default_rng(seed)
    H = HypothesisClass(rng.integers(0, labels, size=(hyps, points)), num_labels=labels)
    depth, tree = bipartition_seed_tree(H, uniform=uniform)
    assert is_psi_tree(H, tree, "B", uniform=uniform) and tree_depth(tree) == depth
    assert depth <= psi_littlestone_dimension(H, "B", uniform=uniform).value
