"""Tree checkers (dimcalc.witnesses.tree_checks) and Ψ families (dimcalc.psi).

The checkers must accept valid shattered trees (built by hand, by the brute
force of tests/brute_littlestone.py and by the solvers) and reject every kind of
corruption: wrong leaf hypothesis, wrong edge label, incomplete tree, map not in
the family, non-uniform levels, out-of-range indices, malformed JSON.
"""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from brute_littlestone import shattered_tree
from dimcalc import HypothesisClass
from dimcalc.errors import InvalidParameterError, InvalidWitnessError
from dimcalc.io import load_psi_family
from dimcalc.psi import (
    PsiFamily,
    family_to_json,
    map_from_json,
    map_to_json,
    normalize_map,
    psi_family,
)
from dimcalc.results import DimensionResult
from dimcalc.witnesses import MistakeTree, PsiTree
from dimcalc.witnesses.tree_checks import (
    check_tree,
    explain_tree,
    is_mistake_tree,
    is_multiclass_tree,
    is_psi_tree,
    tree_depth,
)
from dimcalc.witnesses.tree_format import tree_to_networkx, validate_tree_json
from strategies import classes


def leaf(j):
    return {"hypothesis": j}


def bnode(x, t0, t1):
    return {"point": x, "children": [t0, t1]}


# thresholds on 3 points: h_t(x) = 1[x >= t]; LD = 2
THRESH = HypothesisClass([[0, 0, 0], [0, 0, 1], [0, 1, 1], [1, 1, 1]])
THRESH_TREE = bnode(1, bnode(2, leaf(0), leaf(1)), bnode(0, leaf(2), leaf(3)))


def leaves(tree, path=()):
    """(path of child indices, leaf) for every leaf."""
    if "children" not in tree:
        return [(path, tree)]
    return leaves(tree["children"][0], path + (0,)) + leaves(tree["children"][1], path + (1,))


def node_at(tree, path):
    for c in path:
        tree = tree["children"][c]
    return tree


def internal_paths(tree, path=()):
    if "children" not in tree:
        return []
    return [path] + internal_paths(tree["children"][0], path + (0,)) + internal_paths(tree["children"][1], path + (1,))


# ---------------------------------------------------------------------- hand-made trees
def test_mistake_tree_accepts_threshold_tree():
    assert is_mistake_tree(THRESH, THRESH_TREE) and tree_depth(THRESH_TREE) == 2
    assert is_mistake_tree(THRESH, leaf(3)) and tree_depth(leaf(3)) == 0
    assert explain_tree(THRESH, THRESH_TREE, "binary") is None


def test_mistake_tree_rejects_wrong_leaf_hypothesis():
    bad = copy.deepcopy(THRESH_TREE)
    bad["children"][1]["children"][0] = leaf(1)  # h1 gives 0 to x1, but this leaf is under x1 -> 1
    assert is_mistake_tree(THRESH, bad) is False
    assert "hypothesis 1 gives label 0 to point 1" in explain_tree(THRESH, bad, "binary")


def test_mistake_tree_rejects_swapped_edges():
    bad = copy.deepcopy(THRESH_TREE)
    bad["children"].reverse()
    assert is_mistake_tree(THRESH, bad) is False


def test_leaf_must_realise_every_edge_not_only_the_last():
    # Leaf under (x1 -> 0, x2 -> 1) given h3, which realises x2 -> 1 but not x1 -> 0.
    bad = copy.deepcopy(THRESH_TREE)
    bad["children"][0]["children"][1] = leaf(3)
    assert is_mistake_tree(THRESH, bad) is False
    assert "at depth 0" in explain_tree(THRESH, bad, "binary")


def test_mistake_tree_rejects_incomplete_tree():
    bad = copy.deepcopy(THRESH_TREE)
    bad["children"][1] = leaf(3)  # depth 1 on the right, 2 on the left; each path is realised
    assert is_mistake_tree(THRESH, bad) is False
    assert "complete" in explain_tree(THRESH, bad, "binary")
    with pytest.raises(InvalidWitnessError, match="complete"):
        tree_depth(bad)


@pytest.mark.parametrize(
    "mutate, fragment",
    [
        (lambda t: t.update(point=3), "point 3 is not a column"),
        (lambda t: t.update(point=-1), "point -1 is not a column"),
        (lambda t: t.update(point=True), "'point' must be an integer"),
        (lambda t: t.update(point=1.0), "'point' must be an integer"),
        (lambda t: t["children"][0]["children"].__setitem__(0, leaf(4)), "hypothesis 4 is not a row"),
        (lambda t: t["children"][0]["children"].__setitem__(0, {"hypothesis": "0"}), "integer row index"),
        (lambda t: t.update(extra=1), "exactly the keys"),
        (lambda t: t.update(labels=[0, 1]), "exactly the keys"),
        (lambda t: t["children"].append(leaf(0)), "list of two subtrees"),
        (lambda t: t.update(children={"0": leaf(0)}), "list of two subtrees"),
        (lambda t: t["children"].__setitem__(0, [leaf(0)]), "JSON object"),
    ],
)
def test_mistake_tree_rejects_malformed(mutate, fragment):
    bad = copy.deepcopy(THRESH_TREE)
    mutate(bad)
    assert is_mistake_tree(THRESH, bad) is False
    assert fragment in explain_tree(THRESH, bad, "binary")


def test_mistake_tree_needs_binary_class():
    H = HypothesisClass([[0], [1], [2]])
    assert is_mistake_tree(H, bnode(0, leaf(0), leaf(1))) is False
    assert "binary" in explain_tree(H, bnode(0, leaf(0), leaf(1)), "binary")


def test_duplicate_rows_any_file_row_is_accepted():
    H = HypothesisClass([[0, 1], [1, 0], [0, 1]])
    assert is_mistake_tree(H, bnode(0, leaf(2), leaf(1))) and tree_depth(bnode(0, leaf(2), leaf(1))) == 1
    assert is_mistake_tree(H, bnode(0, leaf(0), leaf(1))) and tree_depth(bnode(0, leaf(0), leaf(1))) == 1


def test_tree_deeper_than_log2_size_is_refused_fast():
    H = HypothesisClass([[0, 1], [1, 0]])
    deep = bnode(0, bnode(1, leaf(0), leaf(1)), bnode(1, leaf(0), leaf(1)))
    assert "floor(log2" in explain_tree(H, deep, "binary")
    cyclic = {"point": 0, "children": []}
    cyclic["children"] += [cyclic, cyclic]
    assert is_mistake_tree(H, cyclic) is False
    with pytest.raises(InvalidWitnessError):
        tree_depth(cyclic)


# ---------------------------------------------------------------------- multiclass trees
MC = HypothesisClass([[0, 0], [1, 1], [2, 1], [2, 2]])
MC_TREE = {
    "point": 0,
    "labels": [1, 2],
    "children": [leaf(1), {"point": 1, "labels": [2, 1], "children": [leaf(3), leaf(2)]}],
}


def test_multiclass_tree():
    assert is_multiclass_tree(MC, MC_TREE) is False  # incomplete
    good = {
        "point": 0,
        "labels": [0, 2],
        "children": [{"point": 1, "labels": [0, 1], "children": [leaf(0), leaf(0)]}, MC_TREE["children"][1]],
    }
    assert is_multiclass_tree(MC, good) is False  # leaf 0 under x1 -> 1
    good = {
        "point": 1,
        "labels": [1, 2],
        "children": [
            {"point": 0, "labels": [2, 1], "children": [leaf(2), leaf(1)]},
            {"point": 0, "labels": [0, 2], "children": [leaf(0), leaf(3)]},
        ],
    }
    assert is_multiclass_tree(MC, good) is False  # h0 gives x1 label 0, not 2
    good = {
        "point": 1,
        "labels": [1, 2],
        "children": [{"point": 0, "labels": [2, 1], "children": [leaf(2), leaf(1)]}, leaf(3)],
    }
    assert is_multiclass_tree(MC, good) is False  # incomplete
    one = {"point": 1, "labels": [2, 1], "children": [leaf(3), leaf(2)]}
    assert is_multiclass_tree(MC, one) and tree_depth(one) == 1


@pytest.mark.parametrize(
    "labels, fragment",
    [
        ([1, 1], "must differ"),
        ([1, 3], "not both labels"),
        ([1], "two integer labels"),
        ([1, None], "two integer labels"),
        ("12", "two integer labels"),
    ],
)
def test_multiclass_tree_rejects_bad_labels(labels, fragment):
    bad = {"point": 1, "labels": labels, "children": [leaf(3), leaf(2)]}
    assert is_multiclass_tree(MC, bad) is False
    assert fragment in explain_tree(MC, bad, "multiclass")


def test_multiclass_tree_wrong_edge_label():
    bad = {"point": 1, "labels": [2, 0], "children": [leaf(3), leaf(2)]}  # h2 gives x1 label 1, edge says 0
    assert is_multiclass_tree(MC, bad) is False


# ---------------------------------------------------------------------- Ψ-trees
PSI_H = HypothesisClass([[0, 3], [1, 2], [2, 1], [3, 0]], num_labels=4)


def test_psi_tree_family_membership():
    t_bin = {"point": 0, "map": [0, 1, 0, 1], "children": [leaf(0), leaf(1)]}  # φ_1 (least significant bit)
    t_n = {"point": 0, "map": [0, 1, None, None], "children": [leaf(0), leaf(1)]}
    t_b = {"point": 0, "map": [0, 1, 1, None], "children": [leaf(0), leaf(2)]}
    assert [is_psi_tree(PSI_H, t_bin, f) for f in ("N", "bin", "B")] == [False, True, True]
    assert [is_psi_tree(PSI_H, t_n, f) for f in ("N", "bin", "B")] == [True, False, True]
    assert [is_psi_tree(PSI_H, t_b, f) for f in ("N", "bin", "B")] == [False, False, True]
    assert is_psi_tree(PSI_H, t_b, [(0, 1, 1, None)]) and tree_depth(t_b) == 1
    assert "not in the family" in explain_tree(PSI_H, t_b, "psi", "bin")


def test_psi_tree_star_realises_no_edge():
    t = {"point": 0, "map": [0, 1, None, None], "children": [leaf(0), leaf(2)]}  # h2(x0) = 2 -> *
    assert is_psi_tree(PSI_H, t, "N") is False
    assert "does not realise" in explain_tree(PSI_H, t, "psi", "N")


def test_psi_tree_bit_convention():
    # φ_2 = second bit = [0, 0, 1, 1]; at x0 it separates {h0, h1} from {h2, h3}.
    t = {
        "point": 0,
        "map": [0, 0, 1, 1],
        "children": [
            {"point": 1, "map": [0, 1, 0, 1], "children": [leaf(1), leaf(0)]},
            {"point": 1, "map": [0, 1, 0, 1], "children": [leaf(3), leaf(2)]},
        ],
    }
    assert is_psi_tree(PSI_H, t, "bin") and tree_depth(t) == 2
    assert is_psi_tree(PSI_H, t, "bin", uniform=True) and tree_depth(t) == 2
    swapped = copy.deepcopy(t)
    swapped["map"] = [1, 1, 0, 0]  # complement of φ_2: not in Ψ^bin, and edges now wrong
    assert is_psi_tree(PSI_H, swapped, "bin") is False


def test_psi_tree_uniform_levels():
    t = {
        "point": 0,
        "map": [0, 0, 1, 1],
        "children": [
            {"point": 1, "map": [0, 1, 0, 1], "children": [leaf(1), leaf(0)]},
            {"point": 1, "map": [0, 1, None, None], "children": [leaf(3), leaf(2)]},
        ],
    }
    assert is_psi_tree(PSI_H, t, "B") and tree_depth(t) == 2
    assert is_psi_tree(PSI_H, t, "B", uniform=True) is False
    assert "uniform" in explain_tree(PSI_H, t, "psi", "B", uniform=True)


@pytest.mark.parametrize(
    "phi, fragment",
    [
        ([0, 1, 0], "has 3 entries"),
        ([0, 1, 0, 2], "entries 0, 1 or null"),
        ([0, 1, 0, "*"], "entries 0, 1 or null"),
        ([0, 1, 0, True], "entries 0, 1 or null"),
        ("0101", "entries 0, 1 or null"),
    ],
)
def test_psi_tree_rejects_bad_maps(phi, fragment):
    t = {"point": 0, "map": phi, "children": [leaf(0), leaf(1)]}
    assert is_psi_tree(PSI_H, t, "B") is False
    assert fragment in explain_tree(PSI_H, t, "psi", "B")


# ---------------------------------------------------------------------- corruption, property-based
def _corruptions(H, tree, kind):
    """Yield (name, corrupted tree) pairs that must all be rejected."""
    n_rows = H.n_hypotheses
    for path, _lf in leaves(tree):
        # a leaf hypothesis that fails some edge of its path
        for r in range(n_rows):
            t = copy.deepcopy(tree)
            node_at(t, path)["hypothesis"] = r
            if explain_tree(H, t, kind, "B" if kind == "psi" else None) is not None:
                yield "wrong leaf", t
                break
    for p in internal_paths(tree):
        t = copy.deepcopy(tree)
        node_at(t, p)["children"].reverse()
        yield "swapped children", t
        t = copy.deepcopy(tree)
        node_at(t, p)["point"] = H.n_points
        yield "point out of range", t
        if p:  # replacing the root by a leaf gives a valid tree of depth 0
            t = copy.deepcopy(tree)
            sub = node_at(t, p)
            first = leaves(sub)[0][1]
            sub.clear()
            sub.update(first)
            yield "incomplete", t
    yield "bad row", _replace_first_leaf(tree, n_rows)


def _replace_first_leaf(tree, row):
    t = copy.deepcopy(tree)
    node = t
    while "children" in node:
        node = node["children"][0]
    node["hypothesis"] = row
    return t


@given(classes(max_labels=2, max_rows=8))
def test_brute_binary_trees_accepted_and_corruptions_rejected(H):
    for t in range(0, 4):
        tree = shattered_tree(H, t, "binary")
        if tree is None:
            break
        assert is_mistake_tree(H, tree) and tree_depth(tree) == t
        assert validate_tree_json(json.loads(json.dumps(tree)), "littlestone", H=H) == t
        for name, bad in _corruptions(H, tree, "binary"):
            if t == 0 and name != "bad row":
                continue
            assert is_mistake_tree(H, bad) is False, name


@given(classes(max_labels=4, max_rows=8))
def test_brute_multiclass_trees_accepted_and_corruptions_rejected(H):
    for t in range(0, 4):
        tree = shattered_tree(H, t, "multiclass")
        if tree is None:
            break
        event(f"depth {t}")
        assert is_multiclass_tree(H, tree) and tree_depth(tree) == t
        for name, bad in _corruptions(H, tree, "multiclass"):
            assert is_multiclass_tree(H, bad) is False, name
        for p in internal_paths(tree):
            bad = copy.deepcopy(tree)
            a, b = node_at(bad, p)["labels"]
            c = next(lab for lab in range(H.num_labels) if lab not in (a, b)) if H.num_labels > 2 else a
            node_at(bad, p)["labels"] = [a, c]  # wrong label on edge 1 (or equal labels)
            assert is_multiclass_tree(H, bad) is False


@given(classes(max_labels=4, max_rows=7), st.sampled_from(["N", "bin", "B"]))
def test_brute_psi_trees_accepted_and_corruptions_rejected(H, family):
    for t in range(0, 3):
        tree = shattered_tree(H, t, "psi", family)
        if tree is None:
            break
        assert is_psi_tree(H, tree, family) and tree_depth(tree) == t
        assert is_psi_tree(H, tree, "B") and tree_depth(tree) == t  # every family is a subfamily of Ψ^B
        for name, bad in _corruptions(H, tree, "psi"):
            assert is_psi_tree(H, bad, "B") is False, name
        fam = psi_family(family, H.num_labels)
        for p in internal_paths(tree):
            bad = copy.deepcopy(tree)
            phi = node_at(bad, p)["map"]
            flipped = [None if v is None else 1 - v for v in phi]
            node_at(bad, p)["map"] = flipped  # edges now lead the wrong way
            assert is_psi_tree(H, bad, "B") is False
            if tuple(flipped) not in fam:
                assert is_psi_tree(H, bad, family) is False


@given(classes(max_labels=3, max_rows=8), st.sampled_from(["N", "bin", "B"]))
def test_brute_uniform_psi_trees(H, family):
    for t in range(0, 3):
        tree = shattered_tree(H, t, "psi", family, uniform=True)
        if tree is None:
            break
        assert is_psi_tree(H, tree, family, uniform=True) and tree_depth(tree) == t
        assert is_psi_tree(H, tree, family) and tree_depth(tree) == t


# ---------------------------------------------------------------------- witness objects of every tree kind
def test_results_verify_with_the_witness_of_their_kind():
    r = DimensionResult.exact_value("littlestone", 2, THRESH_TREE)
    assert r.verify(THRESH)
    assert not DimensionResult.exact_value("littlestone", 3, THRESH_TREE).verify(THRESH)
    assert not DimensionResult.exact_value("littlestone", 2, _replace_first_leaf(THRESH_TREE, 3)).verify(THRESH)
    one = {"point": 1, "labels": [2, 1], "children": [leaf(3), leaf(2)]}
    assert DimensionResult.exact_value("multiclass_littlestone", 1, one).verify(MC)
    t = {"point": 0, "map": [0, 1, 0, 1], "children": [leaf(0), leaf(1)]}
    for kind, ok in [
        ("psi_littlestone:bin", True),
        ("psi_littlestone_uniform:bin", True),
        ("psi_littlestone:B", True),
        ("psi_littlestone_uniform:B", True),
        ("psi_littlestone:N", False),
        ("psi_littlestone_uniform:N", False),
    ]:
        assert DimensionResult.exact_value(kind, 1, t).verify(PSI_H) is ok, kind
    with pytest.raises(AssertionError, match="certifies nothing: psi tree: at root: map .* is not in the family"):
        DimensionResult.exact_value("psi_littlestone:N", 1, t).verify(PSI_H, debug=True)
    assert isinstance(DimensionResult.exact_value("littlestone", 2, THRESH_TREE).witness, MistakeTree)


def test_user_family_tree_carries_its_family():
    fam = psi_family([[0, 1, 0, 1], [None, None, 0, 1]], 4)
    t = {"point": 0, "map": [0, 1, 0, 1], "children": [leaf(0), leaf(1)]}
    for uniform in (False, True):
        w = PsiTree(t, family=fam, uniform=uniform)
        assert w.kind == fam.kind(uniform) and w == t and w.to_json() == t
        assert DimensionResult.exact_value(fam.kind(uniform), 1, w).verify(PSI_H)
    # Building the family registers nothing: the plain tree of a user kind has no checker.
    assert not DimensionResult.exact_value(fam.kind(), 1, t).verify(PSI_H)
    with pytest.raises(AssertionError, match="no witness object"):
        DimensionResult.exact_value(fam.kind(), 1, t).verify(PSI_H, debug=True)
    t["map"] = [0, 1, None, None]
    assert not DimensionResult.exact_value(fam.kind(), 1, PsiTree(t, family=fam)).verify(PSI_H)
    with pytest.raises(InvalidWitnessError, match="family is over 4 labels but the class has 2"):
        PsiTree(t, family=fam).certify(THRESH)
    with pytest.raises(InvalidWitnessError, match="binary tree: at root/1"):
        check_tree(THRESH, bnode(0, leaf(0), leaf(1)), "littlestone")


# ---------------------------------------------------------------------- validate_tree_json, depth, networkx
@pytest.mark.parametrize(
    "obj, kind, fragment",
    [
        ([], "binary", "at root: a node must be a JSON object"),
        ({"point": 0}, "binary", "exactly the keys"),
        ({"point": 0, "children": [leaf(0), {"hypothesis": 1, "x": 2}]}, "binary", "at root/1"),
        ({"point": 0, "children": [leaf(0), bnode(1, leaf(0), leaf(1))]}, "binary", "complete"),
        ({"point": 0, "labels": [1, 1], "children": [leaf(0), leaf(1)]}, "multiclass", "must differ"),
        ({"point": 0, "map": [0, 3], "children": [leaf(0), leaf(1)]}, "psi", "0, 1 or null"),
        ({"point": 0, "children": [leaf(0), leaf(1)]}, "psi_littlestone:bin", "exactly the keys"),
    ],
)
def test_validate_tree_json_messages(obj, kind, fragment):
    with pytest.raises(InvalidWitnessError, match=fragment) as info:
        validate_tree_json(obj, kind)
    assert "\n" not in str(info.value)


def test_validate_tree_json_ranges_and_kinds():
    assert validate_tree_json(THRESH_TREE, "littlestone", H=THRESH) == 2
    with pytest.raises(InvalidWitnessError, match="point 7"):
        validate_tree_json(bnode(7, leaf(0), leaf(1)), "binary", H=THRESH)
    with pytest.raises(InvalidParameterError, match="'kind'"):
        validate_tree_json(THRESH_TREE, "vc")
    # format only: an unshattered but well-formed tree passes
    assert validate_tree_json(bnode(0, leaf(3), leaf(0)), "binary", H=THRESH) == 1


def test_tree_depth_and_networkx():
    assert tree_depth(THRESH_TREE) == 2
    G = tree_to_networkx(THRESH_TREE)
    assert G.number_of_nodes() == 7 and G.number_of_edges() == 6
    assert G.graph["depth"] == 2
    assert [G.nodes[n]["hypothesis"] for n in G if G.nodes[n]["kind"] == "leaf"] == [0, 1, 2, 3]
    assert G.nodes[0]["point"] == 1 and G.nodes[0]["pos"] == (1.5, 0)
    assert sorted(G.edges[0, c]["label"] for c in G.successors(0)) == [0, 1]
    Gm = tree_to_networkx({"point": 1, "labels": [2, 1], "children": [leaf(3), leaf(2)]})
    assert [Gm.edges[0, c]["label"] for c in (1, 2)] == [2, 1]
    Gp = tree_to_networkx({"point": 0, "map": [0, 1, None, None], "children": [leaf(0), leaf(1)]})
    assert Gp.nodes[0]["label"] == "x0 φ=01**" and Gp.nodes[0]["map"] == [0, 1, None, None]


# ---------------------------------------------------------------------- Ψ families
def test_named_families_sizes_and_members():
    for L in range(1, 7):
        N, b, B = (psi_family(f, L) for f in ("N", "bin", "B"))
        assert len(list(N.maps())) == len(N) == L * (L - 1)
        assert len(set(b.maps())) == len(b) == max(1, (L - 1).bit_length())
        assert len(set(B.maps())) == len(B) == 3**L
        assert all(m in B for m in N.maps()) and all(m in B for m in b.maps())
        assert all(m in N for m in N.maps()) and all(m in b for m in b.maps())
        assert sum(m in N for m in B.maps()) == len(N)
        assert sum(m in b for m in B.maps()) == len(b)
        for i, phi in enumerate(b.maps(), start=1):
            assert phi == tuple((lab >> (i - 1)) & 1 for lab in range(L))


def test_bin_family_least_significant_bit_first():
    assert list(psi_family("bin", 5).maps()) == [(0, 1, 0, 1, 0), (0, 0, 1, 1, 0), (0, 0, 0, 0, 1)]
    assert list(psi_family("bin", 2).maps()) == [(0, 1)]


def test_family_membership_refuses_malformed_maps():
    N = psi_family("N", 3)
    assert (0, 1, None) in N and [None, 1, 0] in N
    assert (0, 1) not in N and (0, 1, 2) not in N and (0, 0, 1) not in N and "01*" not in N
    assert (True, False, None) not in psi_family("B", 3)


@pytest.mark.parametrize(
    "family, num_labels, fragment",
    [
        ("X", 3, "Got 'X'"),
        ([[0, 1]], 3, "map 0 has length 2"),
        ([[0, 1, 2]], 3, "has entry 2 = 2"),
        ([[0, 1, None], 5], 3, "map 1 is a int"),
        ([], 3, "at least one map"),
        (5, 3, "Got 5"),
        ("N", 0, "'num_labels'"),
        ("N", True, "'num_labels'"),
        ({"maps": []}, 3, "Got"),
    ],
)
def test_psi_family_validation(family, num_labels, fragment):
    with pytest.raises(InvalidParameterError, match="parameter of psi_family must be") as info:
        psi_family(family, num_labels)
    assert fragment in str(info.value)


def test_user_family_dedup_digest_and_kind():
    a = psi_family([[0, 1, None], (None, 0, 1), [0, 1, "*"]], 3)
    b = psi_family([(None, 0, 1), (0, 1, None)], 3)
    assert a.user_maps == ((0, 1, None), (None, 0, 1)) and len(a) == 2
    assert a.digest == b.digest and len(a.digest) == 12
    assert a.digest != psi_family([(0, 1, None)], 3).digest
    assert a.kind() == f"psi_littlestone:user:{a.digest}"
    assert psi_family("B", 3).kind(True) == "psi_littlestone_uniform:B"
    assert psi_family(a, 3) is a
    with pytest.raises(InvalidParameterError):
        psi_family(a, 4)
    assert isinstance(a, PsiFamily) and a.name == "user"


def test_json_helpers_and_family_file(tmp_path):
    assert json.dumps(map_to_json((0, None, 1))) == "[0, null, 1]"
    assert map_from_json([0, None, 1], 3) == (0, None, 1)
    assert normalize_map([0, "*"], 2) == (0, None)
    with pytest.raises(InvalidParameterError, match="map_from_json"):
        map_from_json([0, 1], 3)
    assert family_to_json(psi_family("N", 2)) == [[0, 1], [1, 0]]
    good = tmp_path / "fam.json"
    good.write_text(json.dumps({"maps": [[0, 1, None], [None, 1, 0]]}))
    assert load_psi_family(good, 3).user_maps == ((0, 1, None), (None, 1, 0))
    good.write_text("[[0, 1, null]]")
    assert load_psi_family(good, 3).user_maps == ((0, 1, None),)
    for text, fragment in [
        ("[[0, 1]]", "map 0 has length 2"),
        ("[", "not valid JSON"),
        ("[]", "non-empty list"),
        ('{"m": []}', "key 'maps'"),
        ("[[0, 1, 7]]", "has entry 2 = 7"),
    ]:
        good.write_text(text)
        with pytest.raises(InvalidParameterError, match=fragment):
            load_psi_family(good, 3)
    with pytest.raises(InvalidParameterError, match="no such"):
        load_psi_family(tmp_path / "missing.json", 3)


def test_checkers_return_bool_and_explain_on_request():
    """Every is_* tree checker answers True / False; ``explain=True`` raises with the reason instead of False."""
    bad = bnode(0, leaf(3), leaf(0))
    assert is_mistake_tree(THRESH, THRESH_TREE) is True and is_mistake_tree(THRESH, bad) is False
    assert is_mistake_tree(THRESH, leaf(3)) is True  # depth 0 is a valid tree, not a falsy answer
    with pytest.raises(InvalidWitnessError, match="binary tree: at root"):
        is_mistake_tree(THRESH, bad, explain=True)
    assert is_mistake_tree(THRESH, THRESH_TREE, explain=True) is True
    with pytest.raises(InvalidWitnessError, match="multiclass tree"):
        is_multiclass_tree(MC, MC_TREE, explain=True)
    with pytest.raises(InvalidWitnessError, match="psi tree"):
        is_psi_tree(THRESH, bad, "N", explain=True)


def test_the_first_defect_in_walking_order_is_reported_across_batches(monkeypatch):
    """Leaves' paths are read in batches: an earlier leaf's wrong label still comes before a later defect."""
    from dimcalc.witnesses import tree_walk

    bad = copy.deepcopy(THRESH_TREE)
    bad["children"][0]["children"][0] = leaf(3)  # first leaf in walking order: h3 gives 1 to x1
    bad["children"][1]["children"][1] = {"point": 0}  # a structural defect, later in walking order
    for batch in (1, 2, 1 << 16):
        monkeypatch.setattr(tree_walk, "_LEAF_BATCH", batch)
        assert "hypothesis 3 gives label 1 to point 1" in explain_tree(THRESH, bad, "binary")
        assert is_mistake_tree(THRESH, THRESH_TREE) is True
    good_then_bad = copy.deepcopy(THRESH_TREE)
    good_then_bad["children"][1]["children"][1] = leaf(0)  # last leaf wrong
    for batch in (1, 3, 1 << 16):
        monkeypatch.setattr(tree_walk, "_LEAF_BATCH", batch)
        assert "hypothesis 0 gives label 0" in explain_tree(THRESH, good_then_bad, "binary")


@pytest.mark.parametrize("storage", ["dense", "bits", "sparse"])
@given(st.data())
def test_labels_equal_label_cell_by_cell(storage, data):
    """HypothesisClass.labels (one array call, used by the tree checkers) reads what label reads."""
    n = data.draw(st.integers(1, 70), label="rows")
    m = data.draw(st.integers(1, 9), label="points")
    k = 2 if storage != "dense" else data.draw(st.integers(2, 4), label="labels")
    table = data.draw(st.lists(st.lists(st.integers(0, k - 1), min_size=m, max_size=m), min_size=n, max_size=n))
    H = HypothesisClass.from_table(table, storage=storage)
    rows = data.draw(st.lists(st.integers(0, n - 1), max_size=30))
    points = data.draw(st.lists(st.integers(0, m - 1), min_size=len(rows), max_size=len(rows)))
    assert H.labels(rows, points).tolist() == [table[r][x] for r, x in zip(rows, points)]
