"""Privacy audits of the k-learners and their mechanisms (dimcalc.learners.audit).

Every audit runs a mechanism on a near-worst-case pair of neighbouring inputs (one row
of a k-labelled sample replaced) and lower-bounds its epsilon with one-sided
Clopper-Pearson bounds; it fails when the bound exceeds the claimed epsilon.  Each audit
has a negative control: the same mechanism with its noise halved (epsilon doubled,
everything else as claimed), on the pair that is near-worst-case for *that* mechanism,
which must be caught.  The correct mechanism must also show a lower bound of a given
share of its claim, so the pair is known to be near worst case.  The learners run with
the exact, seeded sampler (``noise="exact"``).

**Whole learners, neighbours that move the sanitizer's input.**  GenericLearner and
PointLearner are audited end to end for their *full* claimed ``(epsilon, delta)`` on pairs
whose changed row moves to another point, so that the sanitizer (MWEM, resp. the point
sanitizer) sees the change, and the output audited is everything the learner releases
(the sanitizer's transcript, bucketed, and the chosen hypotheses).  The label-only pairs
(selection share only) are kept in the full audits.

The reduced tests (marked ``slow``: in ``make test``, not in ``make test-fast``) are reduced (fewer draws; the whole-learner ones at confidence
1 - 1e-3 per bound, the rest at 1 - 1e-6) and run in ``make test``; the
``@pytest.mark.audit`` ones run with many more draws at confidence 1 - 1e-6
(``make audit``).  Fixed seeds, no retries.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

from dimcalc.classes.hypothesis_class import HypothesisClass
from dimcalc.learners.audit import audit_epsilon
from dimcalc.learners.mechanisms import ExactNoise, a_dist, a_dist_threshold, mwem_step, point_sanitizer
from dimcalc.learners.multi import CompositionLearner, GenericLearner, ParityLearner, PointLearner, xor_queries

REDUCED = {"n_select": 1_000, "n_test": 10_000}
FULL = {"n_select": 10_000, "n_test": 100_000}
LEARNER_REDUCED = {"n_select": 10, "n_test": 5_000}  # with a fixed event, selection draws are unused
WHOLE_REDUCED = {"n_select": 10, "n_test": 2_000, "confidence": 1 - 1e-3}
WHOLE_FULL = {"n_select": 10, "n_test": 40_000}


def run_pair(mechanism_for, pair_for, claimed_epsilon, claimed_delta, sizes, seed, event=None):
    """Audit the correct mechanism and its noise-halved control; return both results."""
    results = []
    for factor in (1, 2):  # 2 = noise halved: the mechanism runs with twice the epsilon
        d0, d1 = pair_for(factor)
        results.append(
            audit_epsilon(
                mechanism_for(factor),
                d0,
                d1,
                claimed_epsilon=claimed_epsilon,
                claimed_delta=claimed_delta,
                random_state=np.random.default_rng(seed + factor),
                event=event,
                **sizes,
            )
        )
    return results


def learner_mech(make, output):
    """One fit of a freshly configured learner per run, driven by the audit's generator."""
    learner = make()

    def run(data, rng):
        learner.set_params(random_state=rng)
        return output(learner.fit(*data))

    return run


def check(results, claimed_epsilon, near_worst=0.5):
    ok, control = results
    assert ok.passed, ok
    assert ok.epsilon_lower >= near_worst * claimed_epsilon, ok  # the pair is near worst case
    assert not control.passed, control  # the negative control is caught


# ---------------------------------------------------------------------------- A_dist
EPS, DELTA = 1.0, 1e-6


def adist_case(sizes, seed):
    def mechanism_for(factor):
        return lambda scores, rng: a_dist(dict(scores), epsilon=factor * EPS, delta=DELTA, noise=ExactNoise(rng))

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
            index, value = mwem_step(
                np.array(hist), ESTIMATE, QUERIES, epsilon_round=factor * eps_round, noise=ExactNoise(rng)
            )
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
            released = point_sanitizer(
                np.array(points), alpha=0.2, epsilon=factor * EPS, delta=DELTA, noise=ExactNoise(rng)
            )
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
    def mechanism_for(factor):  # noise_multiplier 1/2: the noise halved
        return learner_mech(
            lambda: CompositionLearner(
                POINTS8, epsilon=LEARNER_EPS, noise="exact", noise_multiplier=Fraction(1, factor)
            ),
            lambda learner: tuple(learner.hypotheses_.tolist()),
        )

    return run_pair(mechanism_for, lambda factor: label_pair(2), LEARNER_EPS, 0.0, sizes, seed, event=all_point_zero)


@pytest.mark.slow
def test_composition_learner_audit_reduced():
    check(composition_case(LEARNER_REDUCED, 40), LEARNER_EPS, near_worst=0.4)


@pytest.mark.audit
def test_composition_learner_audit_full():
    check(composition_case(FULL, 140), LEARNER_EPS)


# ---------------------------------------------------------------------------- GenericLearner
def generic_case(sizes, seed):
    """Label-only neighbours: the sanitizer's input is unchanged; the claim is the selection's share."""

    def mechanism_for(factor):  # total 2 * LEARNER_EPS, half to MWEM: the label step gets LEARNER_EPS
        return learner_mech(
            lambda: GenericLearner(
                POINTS8,
                epsilon=2 * LEARNER_EPS,
                iterations=1,
                synthetic_size=64,
                noise="exact",
                noise_multiplier=Fraction(1, factor),
            ),
            lambda learner: tuple(learner.hypotheses_.tolist()),
        )

    return run_pair(mechanism_for, lambda factor: label_pair(2), LEARNER_EPS, 0.0, sizes, seed, event=all_point_zero)


@pytest.mark.audit
def test_generic_learner_label_only_audit_full():
    check(generic_case(FULL, 150), LEARNER_EPS)


# The whole GenericLearner (MWEM + selection) for its full claimed epsilon, on neighbours that move a row
# from point a to point b.  Points: a, b, c_1..c_N, z.  Hypotheses: h* = 1 on {a, b}; h_j = 1 on c_j; g = 1 on
# {a, c_1..c_N} (never competitive: it errs on every c_j row, but C⊕ then tells a from b).  Rows: every c_j once
# and M rows at z, all labelled 0, plus the changed row (a, 0) versus (b, 1).
#  * Selection: on the first h* errs once and every h_j once; on the second h* never, every h_j twice -- one
#    candidate gains, all others lose (near worst case for the exponential mechanism, BNS Prop 21).
#  * Sanitizer (one MWEM round): the z rows make the query q_b = g xor h* = {b, c_1..c_N} by far the worst
#    answered, so it is selected on both; its count moves from N to N + 1, which its noisy measurement reveals
#    (a tail event realises epsilon_san / 2).
# The event: q_b selected, its measurement at least N + 1, and h* chosen.
WHOLE_N, WHOLE_M, WHOLE_EPS = 20, 1850, 2.0
WHOLE_FRACTION = Fraction(1, 4)  # epsilon_san = 1/2, the selection (k = 1) gets 3/2


def _whole_generic_setup():
    n_points = WHOLE_N + 3
    rows = [[1, 1] + [0] * WHOLE_N + [0]]
    for j in range(WHOLE_N):
        row = [0] * n_points
        row[2 + j] = 1
        rows.append(row)
    rows.append([1, 0] + [1] * WHOLE_N + [0])
    H = HypothesisClass.from_table(rows)
    background = np.array(list(range(2, WHOLE_N + 2)) + [WHOLE_N + 2] * WHOLE_M)
    d0 = (np.r_[background, 0], np.zeros((len(background) + 1, 1), dtype=int))
    y1 = np.zeros((len(background) + 1, 1), dtype=int)
    y1[-1] = 1
    d1 = (np.r_[background, 1], y1)
    queries = xor_queries(H)
    q_b = next(i for i, q in enumerate(queries) if q[1] == 1 and q[0] == 0 and q[2 : WHOLE_N + 2].all())
    return H, d0, d1, q_b


WHOLE_H, WHOLE_D0, WHOLE_D1, WHOLE_QB = _whole_generic_setup()


def whole_generic_case(sizes, seed):
    def mechanism_for(factor):
        def output(learner):
            s = learner.sanitized_
            return s.selected[0], int(np.clip(s.measurements[0] - WHOLE_N, -1, 1)), tuple(learner.hypotheses_.tolist())

        return learner_mech(
            lambda: GenericLearner(
                WHOLE_H,
                epsilon=WHOLE_EPS,
                sanitizer_fraction=WHOLE_FRACTION,
                iterations=1,
                synthetic_size=200,
                noise="exact",
                noise_multiplier=Fraction(1, factor),
            ),
            output,
        )

    def event(output):
        return output[0] == WHOLE_QB and output[1] == 1 and output[2] == (0,)

    return run_pair(mechanism_for, lambda factor: (WHOLE_D0, WHOLE_D1), WHOLE_EPS, 0.0, sizes, seed, event=event)


@pytest.mark.slow
def test_generic_learner_whole_audit_reduced():
    learner = GenericLearner(
        WHOLE_H,
        epsilon=WHOLE_EPS,
        sanitizer_fraction=WHOLE_FRACTION,
        iterations=1,
        synthetic_size=200,
        noise="exact",
        random_state=0,
    ).fit(*WHOLE_D0)
    assert learner.privacy_spent == (WHOLE_EPS, 0.0)  # the claim audited is the learner's full epsilon
    check(whole_generic_case(WHOLE_REDUCED, 50), WHOLE_EPS, near_worst=0.4)


@pytest.mark.audit
def test_generic_learner_whole_audit_full():
    check(whole_generic_case(WHOLE_FULL, 150), WHOLE_EPS, near_worst=0.6)


# ---------------------------------------------------------------------------- PointLearner
def selection_failed(output):
    """A_dist answered ⊥: its probability moves by e^epsilon when the gap moves by 2 around T."""
    return output[1]


def point_learner_case(sizes, seed):
    """Label-only neighbours: the claim is A_dist's share (epsilon/2, delta/2)."""
    eps, delta = 2.0, 1e-6  # A_dist gets (1, 5e-7): the claim on label-only neighbours

    def mechanism_for(factor):
        return learner_mech(
            lambda: PointLearner(
                4, alpha=0.5, epsilon=eps, delta=delta, noise="exact", noise_multiplier=Fraction(1, factor)
            ),
            lambda learner: (tuple(learner.points_.tolist()), learner.selection_failed_),
        )

    def pair_for(factor):  # counts of the two label vectors of point 0: gap T+1 versus T-1
        t, _ = a_dist_threshold(factor * eps / 2, delta / 2)
        X = np.zeros(t + 1 + 20, dtype=int)
        Y0 = np.array([[1, 0]] * (t + 11) + [[0, 1]] * 10)
        Y1 = Y0.copy()
        Y1[0] = [0, 1]
        return (X, Y0), (X, Y1)

    return run_pair(mechanism_for, pair_for, eps / 2, delta / 2, sizes, seed, event=selection_failed)


@pytest.mark.audit
def test_point_learner_label_only_audit_full():
    check(point_learner_case(FULL, 160), 1.0)


# The whole PointLearner for its full (epsilon, delta), on neighbours that move a row from point 0 to point 1:
# the point sanitizer's two counts move by one each (each released with DLap(4/epsilon): epsilon/4 apiece) and
# A_dist's gap (point 0's top label vector against its runner-up) moves from T + 1 to T (epsilon/4 of its
# epsilon/2).  The output is the sanitizer's released counts (bucketed around the first dataset's) and the
# learner's answer; the event: count 0 below, count 1 above, A_dist answered ⊥.
WHOLE_POINT_EPS, WHOLE_POINT_DELTA = 2.0, 1e-6


def whole_point_case(sizes, seed):
    eps, delta = WHOLE_POINT_EPS, WHOLE_POINT_DELTA

    def pair_for(factor):
        t, _ = a_dist_threshold(factor * eps / 2, delta / 2)
        X0 = np.array([0] * (t + 11) + [0] * 10 + [1] * 300)
        Y0 = np.array([[1, 0]] * (t + 11) + [[0, 1]] * 10 + [[0, 0]] * 300)
        X1 = X0.copy()
        X1[0] = 1  # the row (0, [1, 0]) becomes (1, [0, 0])
        Y1 = Y0.copy()
        Y1[0] = [0, 0]
        return (X0, Y0), (X1, Y1)

    def mechanism_for(factor):
        (X0, _), _ = pair_for(factor)
        ref = np.bincount(X0, minlength=2)

        def output(learner):
            counts = tuple(int(np.clip(learner.released_.get(x, -(10**9)) - ref[x], -1, 1)) for x in (0, 1))
            return counts + (learner.selection_failed_,)

        return learner_mech(
            lambda: PointLearner(
                2, alpha=0.5, epsilon=eps, delta=delta, noise="exact", noise_multiplier=Fraction(1, factor)
            ),
            output,
        )

    def event(output):
        return output == (-1, 1, True)

    results = []
    for factor in (1, 2):
        d0, d1 = pair_for(factor)
        results.append(
            audit_epsilon(
                mechanism_for(factor),
                d0,
                d1,
                claimed_epsilon=eps,
                claimed_delta=delta,
                random_state=np.random.default_rng(seed + factor),
                event=event,
                **sizes,
            )
        )
    return results


@pytest.mark.slow
def test_point_learner_whole_audit_reduced():
    assert PointLearner(2, alpha=0.5, epsilon=WHOLE_POINT_EPS, delta=WHOLE_POINT_DELTA).privacy_spent == (
        WHOLE_POINT_EPS,
        WHOLE_POINT_DELTA,
    )  # the claim audited is the learner's full (epsilon, delta)
    check(
        whole_point_case({"n_select": 10, "n_test": 3_000, "confidence": 1 - 1e-3}, 60), WHOLE_POINT_EPS, near_worst=0.4
    )


@pytest.mark.audit
def test_point_learner_whole_audit_full():
    check(whole_point_case(WHOLE_FULL, 160), WHOLE_POINT_EPS, near_worst=0.6)


# ---------------------------------------------------------------------------- ParityLearner
def parity_case(sizes, seed):
    eps, delta, d = 2.0, 1e-3, 3
    block = np.eye(d, dtype=int)  # full rank: any labels give a unique parity

    def mechanism_for(factor):
        return learner_mech(
            lambda: ParityLearner(
                d, epsilon=eps, delta=delta, block_size=d, noise="exact", noise_multiplier=Fraction(1, factor)
            ),
            lambda learner: (tuple(learner.parities_.ravel().tolist()), learner.selection_failed_),
        )

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
