"""Online learners: SOA meets its mistake bound; the tree adversary forces it.

Littlestone (1987) for binary classes, Daniely et al. (2011) for the multiclass
SOA as used in BGS §6–7.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from brute_littlestone import brute_littlestone, brute_multiclass_littlestone
from dimcalc import HypothesisClass
from dimcalc.classes.hypothesis_class import label_bits
from dimcalc.classes.operations import binary_restriction
from dimcalc.errors import InvalidParameterError, InvalidWitnessError
from dimcalc.littlestone import littlestone_dimension, multiclass_littlestone_dimension
from dimcalc.littlestone.soa import MulticlassSOA, StandardOptimalAlgorithm, UnrealisableSequenceError, adversary_walk
from strategies import classes


class ConstantLearner:
    """Always predicts the same label (a deterministic, non-optimal learner)."""

    def __init__(self, label=0):
        self.label = label
        self.mistakes = 0

    def predict(self, x):
        return self.label

    def update(self, x, y):
        self.mistakes += y != self.label


class RestrictionsLearner:
    """BGS Theorem 7.1's learner: one SOA per binary restriction, labels assembled from bits (bit 1 = LSB)."""

    def __init__(self, H):
        self.learners = [
            StandardOptimalAlgorithm(binary_restriction(H, i)) for i in range(1, label_bits(H.num_labels) + 1)
        ]
        self.mistakes = 0

    def predict(self, x):
        return sum(learner.predict(x) << i for i, learner in enumerate(self.learners))

    def update(self, x, y):
        self.mistakes += self.predict(x) != y
        for i, learner in enumerate(self.learners):
            learner.update(x, (y >> i) & 1)


def sequence_data(binary):
    drawn = classes(max_labels=2 if binary else 5, max_points=5, max_rows=10)
    return st.tuples(drawn, st.integers(0, 10**6), st.lists(st.integers(0, 10**6), max_size=15))


# ---------------------------------------------------------------------- adversary on witness trees
@given(classes(max_labels=2, max_points=5, max_rows=10))
def test_adversary_forces_exactly_ld_mistakes(H):
    r = littlestone_dimension(H)
    assert adversary_walk(StandardOptimalAlgorithm(H), r.witness) == r.value
    assert adversary_walk(ConstantLearner(0), r.witness) == r.value
    assert adversary_walk(ConstantLearner(1), r.witness) == r.value
    assert adversary_walk(MulticlassSOA(H), r.witness) == r.value


@given(classes(max_labels=5, max_points=4, max_rows=10))
def test_adversary_forces_exactly_mld_mistakes(H):
    r = multiclass_littlestone_dimension(H)
    soa = MulticlassSOA(H)
    assert adversary_walk(soa, r.witness) == r.value == soa.mistakes
    assert adversary_walk(ConstantLearner(0), r.witness) == r.value
    restr = RestrictionsLearner(H)
    assert adversary_walk(restr, r.witness) == r.value == restr.mistakes


def test_adversary_walk_refuses_psi_trees_and_unshattered_trees():
    H = HypothesisClass([[0, 0], [0, 1], [1, 1]])
    with pytest.raises(InvalidWitnessError, match="Ψ-trees"):
        adversary_walk(
            StandardOptimalAlgorithm(H), {"point": 0, "map": [0, 1], "children": [{"hypothesis": 0}, {"hypothesis": 2}]}
        )
    with pytest.raises(InvalidWitnessError):
        adversary_walk(StandardOptimalAlgorithm(H), {"point": 0, "children": [{"hypothesis": 0}]})
    # Not shattered: SOA predicts 1 at x1 (LD{h1, h2} = 1 > LD{h0} = 0), the adversary answers 0, leaving
    # {h0}; at x0 SOA predicts 0 and the answer 1 is realised by no hypothesis.
    bad = {
        "point": 1,
        "children": [
            {"point": 0, "children": [{"hypothesis": 0}, {"hypothesis": 0}]},
            {"point": 0, "children": [{"hypothesis": 1}, {"hypothesis": 2}]},
        ],
    }
    with pytest.raises(UnrealisableSequenceError):
        adversary_walk(StandardOptimalAlgorithm(H), bad)


# ---------------------------------------------------------------------- mistake bounds on realisable sequences
def run(learner, H, target_seed, point_seeds):
    target = target_seed % H.n_hypotheses
    for s in point_seeds:
        x = s % H.n_points
        learner.predict(x)
        learner.update(x, H.label(target, x))
    return target


@given(sequence_data(binary=True))
def test_soa_mistakes_at_most_ld(data):
    H, target_seed, points = data
    soa = StandardOptimalAlgorithm(H)
    target = run(soa, H, target_seed, points)
    assert soa.mistakes <= littlestone_dimension(H).value
    assert (soa.version_space >> int(H.row_to_distinct[target])) & 1  # the target survives


@given(sequence_data(binary=False))
def test_multiclass_soa_mistakes_at_most_mld(data):
    H, target_seed, points = data
    soa = MulticlassSOA(H)
    target = run(soa, H, target_seed, points)
    assert soa.mistakes <= multiclass_littlestone_dimension(H).value
    assert (soa.version_space >> int(H.row_to_distinct[target])) & 1
    # BGS Thm 7.1's learner errs at most sum_i LD(H|_i) times
    restr = RestrictionsLearner(H)
    run(restr, H, target_seed, points)
    bound = sum(littlestone_dimension(binary_restriction(H, i)).value for i in range(1, label_bits(H.num_labels) + 1))
    assert restr.mistakes <= bound


@given(sequence_data(binary=False))
def test_soa_with_brute_force_oracle_predicts_the_same(data):
    H, target_seed, points = data
    if H.n_distinct > 8:
        return  # keep the brute force small
    fast, slow = MulticlassSOA(H), MulticlassSOA(H, dimension_oracle=brute_multiclass_littlestone)
    target = target_seed % H.n_hypotheses
    for s in points:
        x = s % H.n_points
        assert fast.predict(x) == slow.predict(x)
        fast.update(x, H.label(target, x))
        slow.update(x, H.label(target, x))
    assert fast.mistakes == slow.mistakes and fast.version_space == slow.version_space
    if H.is_binary:
        a, b = StandardOptimalAlgorithm(H), StandardOptimalAlgorithm(H, dimension_oracle=brute_littlestone)
        assert [a.predict(s % H.n_points) for s in points] == [b.predict(s % H.n_points) for s in points]


# ---------------------------------------------------------------------- behaviour and errors
def test_tie_breaking_to_smallest_label():
    H = HypothesisClass([[0, 0], [1, 1]])  # at x0 both sides have LD 0
    assert StandardOptimalAlgorithm(H).predict(0) == 0
    H3 = HypothesisClass([[2, 0], [1, 1], [0, 2]])
    assert MulticlassSOA(H3).predict(0) == 0
    H3 = HypothesisClass([[2, 0], [2, 1], [0, 2]])  # label 2 keeps a version space of MLD 1
    assert MulticlassSOA(H3).predict(0) == 2


def test_single_label_class():
    H = HypothesisClass([[0, 0]], num_labels=1)
    for soa in (StandardOptimalAlgorithm(H), MulticlassSOA(H)):
        assert soa.predict(1) == 0
        soa.update(1, 0)
        assert soa.mistakes == 0


def test_update_refuses_unrealisable_label_and_keeps_state():
    H = HypothesisClass([[0, 0], [0, 1], [1, 1]])
    soa = StandardOptimalAlgorithm(H)
    soa.update(1, 0)  # only h0 left
    space, mistakes = soa.version_space, soa.mistakes
    with pytest.raises(UnrealisableSequenceError, match="not realisable"):
        soa.update(0, 1)
    assert (soa.version_space, soa.mistakes) == (space, mistakes)
    soa.reset()
    assert soa.version_space == H.full_mask and soa.mistakes == 0


@pytest.mark.parametrize(
    "call, fragment",
    [
        (lambda s: s.predict(2), "'x' parameter"),
        (lambda s: s.predict(-1), "'x' parameter"),
        (lambda s: s.predict("0"), "'x' parameter"),
        (lambda s: s.update(0, 2), "'y' parameter"),
        (lambda s: s.update(0, True), "'y' parameter"),
    ],
)
def test_bad_arguments(call, fragment):
    soa = StandardOptimalAlgorithm(HypothesisClass([[0, 0], [0, 1], [1, 1]]))
    with pytest.raises(InvalidParameterError, match=fragment):
        call(soa)


def test_soa_needs_binary_class_and_callable_oracle():
    with pytest.raises(InvalidParameterError, match="binary class"):
        StandardOptimalAlgorithm(HypothesisClass([[0], [2]]))
    with pytest.raises(InvalidParameterError, match="dimension_oracle"):
        MulticlassSOA(HypothesisClass([[0], [2]]), dimension_oracle=3)
    with pytest.raises(InvalidParameterError, match="'H'"):
        MulticlassSOA([[0], [1]])


def test_thresholds_soa_is_binary_search():
    # 8 thresholds on 7 points: LD = 3, and SOA never errs more than 3 times on any target/order.
    rows = [[int(x >= t) for x in range(7)] for t in range(8)]
    H = HypothesisClass(rows)
    worst = 0
    for target in range(8):
        for order in (range(7), reversed(range(7)), [3, 1, 5, 0, 2, 4, 6]):
            soa = StandardOptimalAlgorithm(H)
            for x in order:
                soa.update(x, rows[target][x])
            worst = max(worst, soa.mistakes)
    assert worst == 3
