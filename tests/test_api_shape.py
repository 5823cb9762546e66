"""One API shape (issue 21): every dimension function returns a ``DimensionResult``, every ``is_*`` a ``bool``."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest

from dimcalc import HypothesisClass
from dimcalc.littlestone import binary_restriction_littlestone, littlestone_dimension
from dimcalc.reports import repdim_report
from dimcalc.representation import (
    PaperBound,
    deterministic_representation_dimension,
    is_representation,
    probabilistic_representation_bounds,
)
from dimcalc.representation.communication import one_way_communication_complexity
from dimcalc.results import DimensionResult
from dimcalc.witnesses import MessageTable, Representation

POINTS = HypothesisClass.from_table(np.eye(4, dtype=int))  # 4 point functions on 4 points
MULTI = HypothesisClass.from_table([[0, 0], [1, 1], [2, 0], [3, 1], [2, 3]])


def _shape(r: object) -> DimensionResult:
    assert isinstance(r, DimensionResult)
    for name in ("kind", "value", "exact", "lower", "upper", "witness", "stats"):
        assert hasattr(r, name)
    return r


def test_the_four_functions_return_dimension_results_that_verify():
    rs = [
        binary_restriction_littlestone(MULTI),
        deterministic_representation_dimension(POINTS, "1/4"),
        probabilistic_representation_bounds(POINTS),
        one_way_communication_complexity(POINTS, "1/8"),
    ]
    H_of = [MULTI, POINTS, POINTS, POINTS]
    for r, H in zip(rs, H_of):
        r = _shape(r)
        assert r.verify(H, debug=True)
        if r.exact:
            assert r.value == r.lower == r.upper
        else:
            assert r.value is None and r.lower <= r.upper
    restr, drdim, prdim, comm = rs
    assert (restr.kind, drdim.kind, prdim.kind, comm.kind) == (
        "littlestone_restriction:max",
        "drdim",
        "prdim",
        "one_way_communication",
    )
    assert (drdim.value, drdim.size) == (2.0, 4)
    assert comm.value == comm.deterministic == 2 and isinstance(comm.witness, MessageTable)
    assert prdim.upper == drdim.value and prdim.lower == pytest.approx(1 / (32 * math.log(2)))


def test_the_maximum_of_the_restrictions_is_certified_by_its_largest_part():
    r = binary_restriction_littlestone(MULTI)
    parts = r.parts
    assert [p.kind for p in parts] == ["littlestone_restriction:1", "littlestone_restriction:2"]
    assert r.exact and r.value == max(p.value for p in parts)
    best = max(parts, key=lambda p: p.lower)
    assert r.witness == best.witness and r.verify(MULTI)
    assert r.to_json()["parts"] == [p.to_json() for p in parts]


def test_a_wrong_witness_does_not_verify():
    comm = one_way_communication_complexity(POINTS, "1/8")
    clash = MessageTable({**comm.witness, next(iter(comm.witness)): 1 if comm.witness[0] != 1 else 0})
    assert not _replace_witness(comm, clash).verify(POINTS)
    drdim = deterministic_representation_dimension(POINTS, "1/4")
    too_few = Representation(drdim.witness[:3], epsilon=Fraction(1, 4))
    assert not _replace_witness(drdim, too_few).verify(POINTS)
    with pytest.raises(AssertionError, match="does not 1/4-represent"):
        _replace_witness(drdim, too_few).verify(POINTS, debug=True)
    # a larger representation is a valid one, but not of the size the result claims
    bigger = Representation(drdim.witness + [[0, 0, 0, 0]], epsilon=Fraction(1, 4))
    with pytest.raises(AssertionError, match="certifies 5 functions, the result claims 4"):
        _replace_witness(drdim, bigger).verify(POINTS, debug=True)


def _replace_witness(r: DimensionResult, witness: object) -> DimensionResult:
    import dataclasses

    return dataclasses.replace(r, witness=witness)


def test_reading_the_former_lists_warns_and_still_works():
    r = binary_restriction_littlestone(MULTI)
    with pytest.warns(FutureWarning, match=r"read its \.parts instead"):
        listed = list(r)
    assert listed == list(r.parts)
    with pytest.warns(FutureWarning):
        assert len(r) == 2 and r[0] == r.parts[0]
    prdim = probabilistic_representation_bounds(POINTS)
    with pytest.warns(FutureWarning, match=r"read its \.bounds instead"):
        assert [b for b in prdim] == prdim.bounds and all(isinstance(b, PaperBound) for b in prdim.bounds)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert bool(r) and bool(prdim)  # truth is not a list reading


def test_json_keeps_the_documented_shapes():
    drdim = deterministic_representation_dimension(POINTS, "1/4")
    assert set(drdim.to_json()) == {"epsilon", "exact", "pool", "value", "size", "witness", "bounds"}
    comm = one_way_communication_complexity(POINTS, "1/8")
    out = comm.to_json()
    assert set(out) == {"epsilon", "deterministic", "private_coin", "public_coin", "bounds"}
    assert out["deterministic"] == {"value": 2, "exact": True, "witness": {0: 0, 1: 1, 2: 2, 3: 3}}
    report = repdim_report(POINTS, "1/4").to_json()
    assert set(report) == {"drdim", "communication", "prdim_bounds"} and isinstance(report["prdim_bounds"], list)
    assert report["drdim"]["size"] == 4 and report["drdim"]["verified"] is True


def test_is_checkers_return_bool():
    assert is_representation(POINTS, POINTS, "1/4") is True
    assert is_representation([[0, 0, 0, 0]], POINTS, "1/4") is False
    ld = littlestone_dimension(POINTS)
    from dimcalc.witnesses.tree_checks import is_mistake_tree

    assert is_mistake_tree(POINTS, ld.witness) is True


# ------------------------------------------------------------------ random_state everywhere (rng= a deprecated alias)
def _random_state_callers():
    """Each public callable taking ``random_state``, as ``f(**{name: value})`` running one draw."""
    from dimcalc.learners import GenericPrivateLearner
    from dimcalc.learners.audit import audit_epsilon
    from dimcalc.learners.mechanisms import exponential_mechanism

    H = HypothesisClass.from_table(np.eye(4, dtype=int))
    X = np.arange(4)

    def learner(**kw):
        return GenericPrivateLearner(H=H, epsilon=1.0, noise="exact", **kw).fit(X, H.table[0, X]).hypothesis_

    def mechanism(**kw):
        return exponential_mechanism([0, -1, -1, -2], epsilon=1.0, backend="exact", **kw)

    def audit(**kw):
        flip = lambda bit, rng: int(rng.integers(2))  # noqa: E731
        return audit_epsilon(flip, 0, 1, claimed_epsilon=1.0, n_select=20, n_test=50, **kw).epsilon_lower

    return {"GenericPrivateLearner": learner, "exponential_mechanism": mechanism, "audit_epsilon": audit}


@pytest.mark.parametrize("name", ["GenericPrivateLearner", "exponential_mechanism", "audit_epsilon"])
def test_random_state_same_answer_for_the_same_value_everywhere(name):
    call = _random_state_callers()[name]
    assert call(random_state=7) == call(random_state=np.int64(7)) == call(random_state=np.random.default_rng(7))
    call(random_state=None)  # fresh entropy: any answer
    for bad in (-1, 3.5, True, "seed"):
        with pytest.raises(ValueError, match="'random_state' parameter .* must be None, a non-negative int seed"):
            call(random_state=bad)


@pytest.mark.parametrize("name", ["GenericPrivateLearner", "exponential_mechanism", "audit_epsilon"])
def test_rng_is_a_deprecated_alias_of_random_state(name):
    call = _random_state_callers()[name]
    with pytest.warns(FutureWarning, match="rng"):
        old = call(rng=np.random.default_rng(7))
    assert old == call(random_state=np.random.default_rng(7))
    with pytest.raises((TypeError, ValueError), match="rng"):  # both given: one line naming the old name
        call(rng=1, random_state=1)


def test_a_custom_binary_learner_taking_rng_still_gets_it_with_a_warning():
    from dimcalc.learners import BinaryReductionLearner, GenericPrivateLearner

    def old_style(G, *, epsilon, delta, rng):
        return GenericPrivateLearner(H=G, epsilon=epsilon, random_state=rng, noise="exact")

    MC = HypothesisClass.from_table([[0, 1], [2, 3], [1, 1]])
    learner = BinaryReductionLearner(H=MC, epsilon=1.0, binary_learner=old_style, random_state=0)
    with pytest.warns(FutureWarning, match="binary_learner taking rng= is deprecated"):
        learner.fit(np.array([0, 1]), np.array([0, 1]))


def test_random_class_and_local_search_take_random_state_with_seed_a_deprecated_alias():
    from dimcalc.generators import GENERATORS, random_class
    from dimcalc.sweep.extremal import local_search

    a = random_class(6, 5, labels=3, random_state=4)
    assert a.name.endswith("-seed4") and a.metadata["params"]["seed"] == 4
    b = random_class(6, 5, labels=3, random_state=np.random.default_rng(4))  # same stream, nothing to record
    assert np.array_equal(a.table, b.table) and b.metadata["params"]["seed"] is None
    assert np.array_equal(GENERATORS["random"].build(hypotheses=6, points=5, labels=3, seed=4).table, a.table)
    with pytest.warns(FutureWarning, match="'seed' is now called 'random_state'"):
        assert random_class(6, 5, labels=3, seed=4) == a
    with pytest.raises(TypeError, match="got both 'seed'"):
        random_class(6, 5, seed=1, random_state=1)
    with pytest.raises(ValueError, match="'random_state' parameter of random_class"):
        random_class(6, 5, random_state=-1)
    kwargs = dict(hypotheses=3, points=2, labels=2, restarts=1, steps=3)
    with pytest.warns(FutureWarning, match="'seed' is now called 'random_state'"):
        old = local_search("littlestone - vc", seed=2, **kwargs)
    assert old.hclass == local_search("littlestone - vc", random_state=2, **kwargs).hclass
