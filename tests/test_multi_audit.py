"""Privacy audits of the k-learners and their mechanisms (dimcalc.audit).

Every audit runs a mechanism on a near-worst-case pair of neighbouring inputs (one row
of a k-labelled sample replaced) and lower-bounds its epsilon with one-sided
Clopper-Pearson bounds at confidence 1 - 1e-6; it fails when the bound exceeds the
claimed epsilon.  Each audit has a negative control: the same mechanism with its noise
halved (epsilon doubled, everything else as claimed), on the pair that is near-worst-case
for *that* mechanism, which must be caught.  The correct mechanism must also show a
lower bound of at least half its claim, so the pair is known to be near worst case.

Neighbour pairs that change only labels leave the sanitizer's input unchanged; on them
GenericLearner and PointLearner are DP with the share of the budget their selection
step gets (``epsilon - epsilon_san``, resp. ``(epsilon/2, delta/2)``), which is the
claim audited there (a stronger claim than the total).

The reduced tests (fewer draws, ``@pytest.mark.slow``) run in ``make test`` but not in
``make test-fast``; the ``@pytest.mark.audit`` ones repeat them with 10x the draws (``make audit``).
Fixed seeds, no retries.
"""

from __future__ import annotations

import numpy as np
import pytest

from dimcalc.audit import audit_epsilon
from dimcalc.hypothesis_class import HypothesisClass
from dimcalc.learners.multi import CompositionLearner, GenericLearner, ParityLearner, PointLearner
from dimcalc.learners.sanitizers import NumpyNoise, a_dist, a_dist_threshold, mwem_step, point_sanitizer

REDUCED = {"n_select": 1_000, "n_test": 10_000}
FULL = {"n_select": 10_000, "n_test": 100_000}
LEARNER_REDUCED = {"n_select": 10, "n_test": 10_000}  # with a fixed event, selection draws are unused


def run_pair(mechanism_for, pair_for, claimed_epsilon, claimed_delta, sizes, seed, event=None):
    """Audit the correct mechanism and its noise-halved control; return both results."""
    results = []
    for factor in (1, 2):  # 2 = noise halved: the mechanism runs with twice the epsilon
        d0, d1 = pair_for(factor)
        results.append(audit_epsilon(mechanism_for(factor), d0, d1, claimed_epsilon=claimed_epsilon,
                                     claimed_delta=claimed_delta, rng=np.random.default_rng(seed + factor),
                                     event=event, **sizes))
    return results


def check(results, claimed_epsilon, near_worst=0.5):
    ok, control = results
    assert ok.passed, ok
    assert ok.epsilon_lower >= near_worst * claimed_epsilon, ok  # the pair is near worst case
    assert not control.passed, control  # the negative control is caught


# ---------------------------------------------------------------------------- A_dist
EPS, DELTA = 1.0, 1e-6


def adist_case(sizes, seed):
    def mechanism_for(factor):
        return lambda scores, rng: a_dist(dict(scores), epsilon=factor * EPS, delta=DELTA, noise=NumpyNoise(rng))

    def pair_for(factor):  # gap T+1 versus T-1: one row moves from the winner to the runner-up
        t, _ = a_dist_threshold(factor * EPS, DELTA)
        return (("a", t + 1), ("b", 0)), (("a", t), ("b", 1))

    return run_pair(mechanism_for, pair_for, EPS, DELTA, sizes, seed)


@pytest.mark.slow
def test_a_dist_audit_reduced():
    check(adist_case(REDUCED, 10), EPS)


@pytest.mark.audit
def test_a_dist_audit_full():
    check(adist_case(FULL, 110), EPS)


# ---------------------------------------------------------------------------- MWEM step
QUERIES = np.array([[1, 0, 0], [0, 1, 0]])
ESTIMATE = np.array([30.0, 27.0, 33.0])  # errors 10 and 13 on D0, 11 and 12 on D1: they move oppositely


def mwem_case(sizes, seed):
    eps_round = 2.0
    reference = np.array([40, 40, 10])

    def mechanism_for(factor):
        def run(hist, rng):
            index, value = mwem_step(np.array(hist), ESTIMATE, QUERIES, epsilon_round=factor * eps_round,
                                     noise=NumpyNoise(rng))
            return index, int(np.clip(value - reference[index], -1, 1))  # bucketing: post-processing
        return run

    def pair_for(factor):  # one row moves from point 1 to point 0
        return (40, 40, 10), (41, 39, 10)

    return run_pair(mechanism_for, pair_for, eps_round, 0.0, sizes, seed)


@pytest.mark.slow
def test_mwem_step_audit_reduced():
    check(mwem_case(REDUCED, 20), 2.0)


@pytest.mark.audit
def test_mwem_step_audit_full():
    check(mwem_case(FULL, 120), 2.0)


# ---------------------------------------------------------------------------- point sanitizer
def sanitizer_case(sizes, seed):
    def mechanism_for(factor):
        def run(points, rng):
            released = point_sanitizer(np.array(points), alpha=0.2, epsilon=factor * EPS, delta=DELTA,
                                       noise=NumpyNoise(rng))
            return tuple(int(np.clip(released.get(x, -100) - 100, -3, 3)) for x in (0, 1))
        return run

    def pair_for(factor):  # one row moves from point 1 to point 0; both far above the cut-off
        return (0,) * 100 + (1,) * 100, (0,) * 101 + (1,) * 99

    return run_pair(mechanism_for, pair_for, EPS, DELTA, sizes, seed)


@pytest.mark.slow
def test_point_sanitizer_audit_reduced():
    check(sanitizer_case(REDUCED, 30), EPS)


@pytest.mark.audit
def test_point_sanitizer_audit_full():
    check(sanitizer_case(FULL, 130), EPS)


# ---------------------------------------------------------------------------- CompositionLearner
POINTS8 = HypothesisClass.from_table(np.eye(8, dtype=int))
LEARNER_EPS = 2.0  # k = 2 concepts, 1.0 each: large enough for the audit to see the exponential mechanism


def label_pair(k):
    """Every point once, all labels 0; the neighbour labels point 0 with 1 in every column.

    Every hypothesis of POINTS8 has one error on the first; on the second, h_0 has none and
    every other hypothesis two, so h_0's probability moves by the most the exponential
    mechanism allows: the event "h_0 for every concept" is near worst case.
    """
    X = np.arange(8)
    Y0 = np.zeros((8, k), dtype=int)
    Y1 = Y0.copy()
    Y1[0] = 1
    return (X, Y0), (X, Y1)


def all_point_zero(output):
    return output == (0, 0)


def composition_case(sizes, seed):
    def mechanism_for(factor):
        learner = CompositionLearner(POINTS8, epsilon=factor * LEARNER_EPS)

        def run(data, rng):
            learner.rng = rng
            return tuple(learner.fit(*data).hypotheses_.tolist())
        return run

    return run_pair(mechanism_for, lambda factor: label_pair(2), LEARNER_EPS, 0.0, sizes, seed,
                    event=all_point_zero)


@pytest.mark.slow
def test_composition_learner_audit_reduced():
    check(composition_case(LEARNER_REDUCED, 40), LEARNER_EPS, near_worst=0.4)


@pytest.mark.audit
def test_composition_learner_audit_full():
    check(composition_case(FULL, 140), LEARNER_EPS)


# ---------------------------------------------------------------------------- GenericLearner
def generic_case(sizes, seed):
    def mechanism_for(factor):  # total 2 * LEARNER_EPS, half to MWEM: the label step gets LEARNER_EPS
        learner = GenericLearner(POINTS8, epsilon=2 * factor * LEARNER_EPS, iterations=1, update_passes=1,
                                 synthetic_size=64)

        def run(data, rng):
            learner.rng = rng
            return tuple(learner.fit(*data).hypotheses_.tolist())
        return run

    return run_pair(mechanism_for, lambda factor: label_pair(2), LEARNER_EPS, 0.0, sizes, seed,
                    event=all_point_zero)


@pytest.mark.slow
def test_generic_learner_audit_reduced():
    check(generic_case(LEARNER_REDUCED, 50), LEARNER_EPS, near_worst=0.4)


@pytest.mark.audit
def test_generic_learner_audit_full():
    check(generic_case(FULL, 150), LEARNER_EPS)


# ---------------------------------------------------------------------------- PointLearner
def selection_failed(output):
    """A_dist answered ⊥: its probability moves by e^epsilon when the gap moves by 2 around T."""
    return output[1]


def point_learner_case(sizes, seed):
    eps, delta = 2.0, 1e-6  # A_dist gets (1, 5e-7): the claim on label-only neighbours

    def mechanism_for(factor):
        def run(data, rng):
            learner = PointLearner(4, alpha=0.5, epsilon=factor * eps, delta=delta, rng=rng).fit(*data)
            return tuple(learner.points_.tolist()), learner.selection_failed_
        return run

    def pair_for(factor):  # counts of the two label vectors of point 0: gap T+1 versus T-1
        t, _ = a_dist_threshold(factor * eps / 2, delta / 2)
        X = np.zeros(t + 1 + 20, dtype=int)
        Y0 = np.array([[1, 0]] * (t + 11) + [[0, 1]] * 10)
        Y1 = Y0.copy()
        Y1[0] = [0, 1]
        return (X, Y0), (X, Y1)

    return run_pair(mechanism_for, pair_for, eps / 2, delta / 2, sizes, seed, event=selection_failed)


@pytest.mark.slow
def test_point_learner_audit_reduced():
    check(point_learner_case(LEARNER_REDUCED, 60), 1.0)


@pytest.mark.audit
def test_point_learner_audit_full():
    check(point_learner_case(FULL, 160), 1.0)


# ---------------------------------------------------------------------------- ParityLearner
def parity_case(sizes, seed):
    eps, delta, d = 2.0, 1e-3, 3
    block = np.eye(d, dtype=int)  # full rank: any labels give a unique parity

    def mechanism_for(factor):
        def run(data, rng):
            learner = ParityLearner(d, epsilon=factor * eps, delta=delta, block_size=d, rng=rng).fit(*data)
            return tuple(learner.parities_.ravel().tolist()), learner.selection_failed_
        return run

    def pair_for(factor):  # T+1 blocks say parity 0b011; the neighbour turns one into 0b111
        t, _ = a_dist_threshold(factor * eps, delta)
        X = np.tile(block, (t + 1, 1))
        Y0 = X @ np.array([[1], [1], [0]]) % 2
        Y1 = Y0.copy()
        Y1[2, 0] ^= 1  # row 2 of block 0 is e_2: flips coefficient 2
        return (X, Y0), (X, Y1)

    return run_pair(mechanism_for, pair_for, eps, delta, sizes, seed, event=selection_failed)


@pytest.mark.slow
def test_parity_learner_audit_reduced():
    check(parity_case(LEARNER_REDUCED, 70), 2.0)


@pytest.mark.audit
def test_parity_learner_audit_full():
    check(parity_case(FULL, 170), 2.0)
