"""``seed_tree=``: a Littlestone-type solver starts from a tree the caller has, checked or certified, never trusted blindly."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dimcalc.littlestone.api as api
import dimcalc.reports.check as check_module
from brute_littlestone import brute_littlestone, brute_multiclass_littlestone, brute_psi_littlestone
from dimcalc import (
    HypothesisClass,
    check_class,
    generators,
    littlestone_dimension,
    multiclass_littlestone_dimension,
    psi_littlestone_dimension,
)
from dimcalc.errors import InvalidParameterError
from dimcalc.littlestone.seeds import SeedTree
from strategies import classes

BINARY = classes(min_labels=2, max_labels=2, min_points=1, max_points=5, max_rows=10, biased=True)
MULTI = classes(min_labels=3, max_labels=4, min_points=1, max_points=3, max_rows=7)


def _truncate(tree: dict, k: int) -> dict:
    """``tree`` cut at depth ``k``: a node at depth ``k`` becomes the leaf of its leftmost leaf (which
    realises the whole path to that leaf, so also the path to the node: still shattered)."""
    if "children" not in tree:
        return dict(tree)
    if k == 0:
        node = tree
        while "children" in node:
            node = node["children"][0]
        return dict(node)
    return {
        **{key: v for key, v in tree.items() if key != "children"},
        "children": [_truncate(c, k - 1) for c in tree["children"]],
    }


def _depth(tree: dict) -> int:
    return 0 if "children" not in tree else 1 + _depth(tree["children"][0])


def _wrong(tree: dict) -> dict:
    """The tree with one leaf's hypothesis swapped for its sibling's: that leaf's path is no longer realised."""
    bad = copy.deepcopy(tree)
    node = bad
    while "children" in node["children"][0]:
        node = node["children"][0]
    a, b = node["children"]
    a["hypothesis"], b["hypothesis"] = b["hypothesis"], a["hypothesis"]
    return bad


@settings(max_examples=40, deadline=None)
@given(BINARY, st.integers(0, 4))
def test_ldim_with_a_seed_matches_the_brute_force(H, k):
    """Same value with and without a seed (any depth up to the answer), a verified witness, = brute force."""
    plain = littlestone_dimension(H)
    seed = _truncate(dict(plain.witness), min(k, plain.value))
    seeded = littlestone_dimension(H, seed_tree=seed)
    assert seeded.value == plain.value == brute_littlestone(H)
    assert seeded.verify(H, debug=True)


@settings(max_examples=25, deadline=None)
@given(MULTI, st.integers(0, 3), st.sampled_from(["N", "bin", "B"]), st.booleans())
def test_mld_and_psi_with_a_seed_match_the_brute_force(H, k, family, uniform):
    plain = multiclass_littlestone_dimension(H)
    seeded = multiclass_littlestone_dimension(H, seed_tree=_truncate(dict(plain.witness), min(k, plain.value)))
    assert seeded.value == plain.value == brute_multiclass_littlestone(H) and seeded.verify(H, debug=True)
    plain = psi_littlestone_dimension(H, family, uniform=uniform)
    seed = _truncate(dict(plain.witness), min(k, plain.value))
    seeded = psi_littlestone_dimension(H, family, uniform=uniform, seed_tree=seed)
    assert seeded.value == plain.value == brute_psi_littlestone(H, family, uniform) and seeded.verify(H, debug=True)


def test_the_seed_replaces_the_greedy_tree(monkeypatch):
    """A big class with a seed does not build the greedy tree; the seed is the witness at its depth."""
    H = HypothesisClass(generators.thresholds(511).table, storage="bits")
    monkeypatch.setattr(api, "GREEDY_MIN_CELLS", 0)
    tree = littlestone_dimension(H).witness
    stopped = generators.boxes(3, 2)
    seed = _truncate(dict(littlestone_dimension(stopped).witness), 7)
    monkeypatch.setattr(api, "greedy_lower_bound", lambda *a: pytest.fail("greedy tree built again"))
    r = littlestone_dimension(H, seed_tree=SeedTree.certify(H, tree, "littlestone"))
    assert r.exact and r.value == 9 and r.stats["method"] == "seed tree of depth floor(log2 |H|)"
    assert r.witness == tree and r.verify(H)
    r = littlestone_dimension(stopped, seed_tree=seed, time_limit=1e-9)  # stopped at once: the seed stands
    assert not r.exact and r.lower == 7 and r.witness == seed and r.verify(stopped)


def test_a_wrong_seed_is_refused():
    H = generators.thresholds(7)
    tree = littlestone_dimension(H).witness
    with pytest.raises(InvalidParameterError, match="seed_tree.*does not realise"):
        littlestone_dimension(H, seed_tree=_wrong(dict(tree)))
    with pytest.raises(InvalidParameterError, match="seed_tree"):
        littlestone_dimension(H, seed_tree=[0, 1])
    other = generators.thresholds(6)
    with pytest.raises(InvalidParameterError, match="certified on this class"):
        littlestone_dimension(H, seed_tree=SeedTree.certify(other, littlestone_dimension(other).witness, "littlestone"))
    with pytest.raises(InvalidParameterError, match="certified for 'multiclass_littlestone'"):
        multiclass_littlestone_dimension(H, seed_tree=SeedTree.certify(H, tree, "littlestone"))
    with pytest.raises(InvalidParameterError, match="seed_tree"):  # a mistake tree is not a Ψ-tree
        psi_littlestone_dimension(H, "bin", seed_tree=tree)
    # a SeedTree keeps its own copy: changing the caller's tree afterwards changes nothing
    body = dict(tree)
    seed = SeedTree.certify(H, body, "littlestone")
    body["point"] = 0
    assert littlestone_dimension(H, seed_tree=seed).verify(H)


@pytest.mark.parametrize("jobs", [1, 2])
def test_check_hands_each_solver_its_certified_copy(monkeypatch, jobs):
    """``check_class`` builds the greedy tree once; the Littlestone-type solvers start from its copies."""
    H = generators.boxes(3, 2)  # 1 297 hypotheses: greedy 8 < LDim
    expected = littlestone_dimension(H).value
    monkeypatch.setattr(check_module, "GREEDY_MIN_CELLS", 0)
    monkeypatch.setattr(api, "GREEDY_MIN_CELLS", 0)
    monkeypatch.setattr(api, "greedy_lower_bound", lambda *a: pytest.fail("greedy tree built again"))
    dims = ["littlestone", "multiclass_littlestone", "psi_littlestone", "psi_littlestone_uniform"]
    report = check_class(H, dims, time_limit=60, jobs=jobs)
    assert report.verify()
    ld = report.dimensions["littlestone"]
    assert ld.exact and ld.value == expected
    assert report.dimensions["multiclass_littlestone"].value == ld.value
    for fam in ("N", "bin", "B"):
        assert report.dimensions["psi_littlestone"][fam].value == ld.value


@settings(max_examples=60, deadline=None)
@given(classes(min_labels=2, max_labels=2, min_points=1, max_points=70, max_rows=70, biased=True))
def test_present_labels_of_bit_storage_are_the_table_values(H):
    """The popcount path of ``present_labels`` (bit storage) against the set of values in the table."""
    import numpy as np

    from dimcalc.psi import present_labels

    B = HypothesisClass(H.table, storage="bits")
    assert present_labels(B) == present_labels(H) == tuple(sorted({int(v) for v in np.asarray(H.table).ravel()}))
