"""Seed trees carried to the binary restrictions ``H|_i`` (``dimcalc.littlestone.restriction_seeds``).

The reference here imports nothing from dimcalc: a mistake tree of ``H|_i`` is checked by the path
definition (every leaf's hypothesis has bit ``i`` of its label equal to the edge taken, at every node
of its path; complete), and the values against ``brute_littlestone`` of ``H|_i`` built from the table.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dimcalc.littlestone.api as api
import dimcalc.reports.check as check_module
from brute_littlestone import brute_littlestone, shattered_tree
from dimcalc import HypothesisClass, binary_restriction_littlestone, check_class, generators, littlestone_dimension
from dimcalc.errors import InvalidParameterError
from dimcalc.littlestone.restriction_seeds import restriction_tree
from dimcalc.littlestone.seeds import SeedTree
from strategies import classes

MULTI = classes(min_labels=3, max_labels=6, min_points=1, max_points=3, max_rows=7)
BINARY = classes(min_labels=2, max_labels=2, min_points=1, max_points=5, max_rows=10, biased=True)


def _bits_table(H: HypothesisClass, i: int) -> list[list[int]]:
    return [[(int(v) >> (i - 1)) & 1 for v in row] for row in H.table.tolist()]


def _shattered_depth(table: list[list[int]], tree: dict) -> int | None:
    """The depth of ``tree`` if it is a complete mistake tree of the class ``table`` shatters, else None."""
    depths: set[int] = set()

    def walk(node: dict, path: list[tuple[int, int]]) -> bool:
        if "children" not in node:
            row = table[node["hypothesis"]]
            depths.add(len(path))
            return all(row[x] == b for x, b in path)
        return all(walk(c, [*path, (node["point"], b)]) for b, c in enumerate(node["children"]))

    return depths.pop() if walk(tree, []) and len(depths) == 1 else None


def _labels(H: HypothesisClass) -> set[int]:
    return {int(v) for row in H.table.tolist() for v in row}


@settings(max_examples=80, deadline=None)
@given(MULTI, st.sampled_from(["multiclass", "psi"]), st.integers(1, 3))
def test_a_tree_of_H_gives_a_shattered_tree_of_each_restriction(H, kind, t):
    """Any shattered io-labelled or Ψ^bin tree of ``H`` (the brute force's) yields a complete mistake tree of
    ``H|_i`` that ``H|_i`` shatters (path definition), of a depth at most ``LDim(H|_i)``."""
    tree = shattered_tree(H, t, kind, "bin" if kind == "psi" else None)
    if tree is None:
        return
    bits = (H.num_labels - 1).bit_length()
    for i in range(1, bits + 1):
        depth, lifted = restriction_tree(tree, i, _labels(H))
        assert _shattered_depth(_bits_table(H, i), lifted) == depth
        assert depth <= brute_littlestone(HypothesisClass.from_table(_bits_table(H, i)))


@settings(max_examples=60, deadline=None)
@given(BINARY)
def test_a_binary_class_carries_its_mistake_tree_whole(H):
    """``H|_1 = H`` for a binary class: the restriction tree is the tree itself."""
    tree = littlestone_dimension(H).witness
    depth, lifted = restriction_tree(dict(tree), 1)
    assert depth == littlestone_dimension(H).value and lifted == tree


@settings(max_examples=60, deadline=None)
@given(MULTI, st.booleans())
def test_seeded_restrictions_match_the_brute_force(H, as_seed_tree):
    """With the MLD tree of ``H`` as ``seed_tree`` (a dict, or a :class:`SeedTree`) every ``H|_i`` gets the
    brute-force LDim and a witness that verifies on ``H``."""
    mld = dict(api.multiclass_littlestone_dimension(H).witness)
    seed = SeedTree.certify(H, mld, "multiclass_littlestone") if as_seed_tree else mld
    r = binary_restriction_littlestone(H, seed_tree=seed)
    expected = [brute_littlestone(HypothesisClass.from_table(_bits_table(H, p.stats["restriction"]))) for p in r.parts]
    assert [p.value for p in r.parts] == expected and r.verify(H)


def test_a_seed_that_fits_a_restriction_is_its_witness():
    """A tree whose nodes all split bit 2 carries whole to ``H|_2`` and stands as its witness (depth 2 of 4
    hypotheses: the size bound, no search)."""
    H = HypothesisClass.from_table([[0, 0], [0, 2], [2, 0], [2, 2]], num_labels=3)
    tree = {
        "point": 0,
        "labels": [0, 2],
        "children": [
            {"point": 1, "labels": [0, 2], "children": [{"hypothesis": 0}, {"hypothesis": 1}]},
            {"point": 1, "labels": [0, 2], "children": [{"hypothesis": 2}, {"hypothesis": 3}]},
        ],
    }
    r = binary_restriction_littlestone(H, seed_tree=tree)
    one, two = r.parts
    assert (one.value, two.value) == (0, 2) and two.stats["method"] == "seed tree of depth floor(log2 |H|)"
    assert r.verify(H)


def test_a_wrong_seed_is_refused():
    H = generators.thresholds(7)
    tree = dict(littlestone_dimension(H).witness)
    tree["children"] = tree["children"][::-1]
    with pytest.raises(InvalidParameterError, match="seed_tree"):
        binary_restriction_littlestone(H, seed_tree=tree)
    other = generators.thresholds(6)
    with pytest.raises(InvalidParameterError, match="certified on this class"):
        binary_restriction_littlestone(
            H, seed_tree=SeedTree.certify(other, littlestone_dimension(other).witness, "littlestone")
        )


def test_check_hands_the_restrictions_the_greedy_tree(monkeypatch):
    """``check_class`` asked for the binary restrictions alone builds the greedy tree once and hands it over."""
    H = generators.boxes(3, 2)
    expected = littlestone_dimension(H).value
    monkeypatch.setattr(check_module, "GREEDY_MIN_CELLS", 0)
    monkeypatch.setattr(api, "GREEDY_MIN_CELLS", 0)
    monkeypatch.setattr(api, "greedy_lower_bound", lambda *a: pytest.fail("greedy tree built again"))
    report = check_class(H, ["binary_restrictions"], time_limit=60)
    (part,) = report.dimensions["binary_restrictions"]
    assert part.exact and part.value == expected and report.verify()


@settings(max_examples=40, deadline=None)
@given(BINARY)
def test_check_carries_a_binary_class_ldim_tree_to_its_restriction(H):
    """After the searches, ``check`` raises a stopped ``H|_1`` of a binary class to LDim's lower bound with LDim's
    tree as a restriction tree (``H|_1 = H``), certified on ``H|_1``; never above the brute force."""
    from dimcalc.reports.check import _tighten_by_relations
    from dimcalc.results import DimensionResult
    from dimcalc.witnesses import RestrictionTree

    ld = littlestone_dimension(H)
    if ld.value < 1:
        return
    stopped = DimensionResult.bounds("littlestone_restriction:1", 0, 17, RestrictionTree({"hypothesis": 0}, 1))
    dims = {"littlestone": ld, "binary_restrictions": [stopped]}
    _tighten_by_relations(dims, binary=True, H=H)
    (part,) = dims["binary_restrictions"]
    assert part.lower == ld.value == brute_littlestone(HypothesisClass.from_table(_bits_table(H, 1)))
    assert part.stats["lower_from"] == "littlestone" and part.verify(H, debug=True)
