"""Witness objects (dimcalc.witnesses): one per result kind, each certifying itself, serialised as the spec data."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import dimcalc
from dimcalc import HypothesisClass, generators
from dimcalc.errors import InvalidWitnessError
from dimcalc.results import DimensionResult
from dimcalc.witnesses import (
    GraphWitness,
    GrowthWitness,
    MistakeTree,
    MulticlassTree,
    NatarajanWitness,
    PsiTree,
    Representation,
    RestrictionTree,
    ShatteredSet,
    Witness,
    ZeroCover,
    as_witness,
)

THRESHOLDS = generators.thresholds(5)
MULTI = HypothesisClass.from_table([[0, 0, 1], [1, 2, 0], [2, 1, 1], [0, 2, 2], [1, 0, 2], [2, 2, 0]])


def _results():
    """(class, result, expected witness class) for every solver that returns a DimensionResult."""
    T, M = THRESHOLDS, MULTI
    yield T, dimcalc.vc_dimension(T), ShatteredSet
    yield M, dimcalc.natarajan_dimension(M), NatarajanWitness
    yield M, dimcalc.graph_dimension(M), GraphWitness
    yield M, dimcalc.growth_function(M, 2), GrowthWitness
    yield T, dimcalc.littlestone_dimension(T), MistakeTree
    yield M, dimcalc.multiclass_littlestone_dimension(M), MulticlassTree
    for family in ("N", "bin", "B", [[0, 1, None], [None, 0, 1]]):
        for uniform in (False, True):
            yield M, dimcalc.psi_littlestone_dimension(M, family, uniform=uniform), PsiTree
    for r in dimcalc.binary_restriction_littlestone(M).parts:
        yield M, r, RestrictionTree
    yield T, dimcalc.zero_cover_number(T, {"point": 2, "children": [{"point": 1}, {"point": 3}]}), ZeroCover
    yield M, dimcalc.zero_cover_function(M, 2), ZeroCover


@pytest.mark.parametrize("H, r, cls", list(_results()), ids=lambda v: getattr(v, "kind", None))
def test_every_solver_returns_a_witness_that_certifies_its_lower_bound(H, r, cls):
    assert isinstance(r.witness, cls) and isinstance(r.witness, Witness)
    assert r.witness.certify(H) == r.lower and r.verify(H, debug=True)
    data = r.witness.to_json()
    assert type(data) in (list, dict) and data == r.witness
    # The JSON text is the plain data's, byte for byte, and the result's spec object holds plain data.
    assert json.dumps(r.witness) == json.dumps(data) == json.dumps(r.to_json()["witness"])
    assert type(r.to_json()["witness"]) is type(data)
    # A stored result (plain JSON data) gets its witness object back from its kind, except a user Ψ family's.
    again = DimensionResult.bounds(r.kind, r.lower, r.upper, json.loads(json.dumps(data)))
    assert again.verify(H) is (":user:" not in r.kind)
    copy = pickle.loads(pickle.dumps(r))
    assert copy == r and type(copy.witness) is cls and copy.verify(H)
    if cls is PsiTree:
        assert (copy.witness.family, copy.witness.uniform, copy.witness.kind) == (
            r.witness.family,
            r.witness.uniform,
            r.kind,
        )


def test_as_witness_is_a_fixed_table():
    assert type(as_witness("littlestone_restriction:2", {"hypothesis": 0})) is RestrictionTree
    assert as_witness("littlestone_restriction:2", {"hypothesis": 0}).restriction == 2
    assert as_witness("unknown", [1]) == [1] and type(as_witness("unknown", [1])) is list
    assert type(as_witness("vc", {"points": [0]})) is dict  # wrong JSON type for the kind: left as data
    assert as_witness("psi_littlestone:user:abc", {"hypothesis": 0}) == {"hypothesis": 0}
    w = ShatteredSet([0])
    assert as_witness("vc", w) is w and as_witness("vc", None) is None


def test_reasons_name_the_defect():
    with pytest.raises(AssertionError, match=r"vc: witness certifies nothing: shattered set: .*x0 -> 1"):
        DimensionResult.exact_value("vc", 2, [0, 1]).verify(THRESHOLDS, debug=True)
    with pytest.raises(AssertionError, match="witness certifies 1, result claims lower bound 2"):
        DimensionResult.exact_value("vc", 2, [2]).verify(THRESHOLDS, debug=True)
    with pytest.raises(InvalidWitnessError, match="missing keys"):
        ZeroCover({"tree": None}).certify(THRESHOLDS)
    P = HypothesisClass.from_table(np.eye(3, dtype=int))
    with pytest.raises(InvalidWitnessError, match="does not 1/4-represent concept 0"):
        Representation([[0, 0, 0]], epsilon=Fraction(1, 4)).certify(P)


def test_representation_result_carries_its_witness_object():
    P = HypothesisClass.from_table(np.eye(4, dtype=int))
    r = dimcalc.deterministic_representation_dimension(P, "1/4")
    assert isinstance(r.witness, Representation) and r.witness.epsilon == Fraction(1, 4)
    assert r.witness.certify(P) == r.size_upper and r.verify(P)
    assert sorted(r.to_json()["witness"]) == sorted(np.eye(4, dtype=int).tolist())
    assert type(r.to_json()["witness"]) is list


def test_verification_needs_no_import_side_effect():
    """Only dimcalc.results imported: every kind's checker is reachable from the witness itself."""
    code = (
        "from dimcalc.results import DimensionResult\n"
        "from dimcalc.classes.hypothesis_class import HypothesisClass\n"
        "H = HypothesisClass([[0, 0], [0, 1], [1, 1]])\n"
        "t = {'point': 1, 'children': [{'hypothesis': 0}, {'hypothesis': 2}]}\n"
        "print(DimensionResult.exact_value('littlestone', 1, t).verify(H),"
        " DimensionResult.exact_value('littlestone_restriction:1', 1, t).verify(H))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "True"]


@given(
    st.integers(1, 40).flatmap(
        lambda n: st.integers(0, 6).flatmap(
            lambda k: st.lists(st.lists(st.integers(0, 300), min_size=k, max_size=k), min_size=n, max_size=n)
        )
    )
)
def test_the_checkers_distinct_patterns_are_the_rows_as_a_set(rows):
    """The pattern set the shattering checkers read (numpy codes) is the set of the rows' tuples."""
    import numpy as np

    from dimcalc.witnesses.shattered import _distinct

    array = np.array(rows, dtype=np.int64).reshape(len(rows), len(rows[0]))
    assert _distinct(array) == {tuple(r) for r in rows}
