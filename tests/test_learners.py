"""Accuracy and API of the single-concept private learners (dimcalc.learners).

Accuracy tests run seeded repeated trials with the ``"exact"`` back end (reproducible).
Each trial draws a fresh target, a fresh sample of the calculator's size
(``required_sample_size(alpha, beta).samples``) from a fixed distribution over the domain,
fits, and computes the output's *exact* error under that distribution (a dot product with
the point masses).  A learner claimed (alpha, beta)-accurate must succeed (error <= alpha,
or <= OPT + alpha when agnostic) in at least ``binom.ppf(1e-6, trials, 1 - beta)`` trials:
a correct learner fails this with probability at most 1e-6.  Every family has a *negative
control* -- the same learner with far too few examples, labels replaced by noise, no public
data, or a family of classes that does not represent the target -- which must fail the same
criterion, so the criterion can catch a broken learner.  Privacy is audited in test_audit.py.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest
from scipy.stats import binom

from dimcalc import HypothesisClass
from dimcalc.errors import DimcalcError, InvalidParameterError
from dimcalc.generators import bgs_thm61_class, intervals, point_functions, thresholds
from dimcalc.learners import ASSPP, BinaryReductionLearner, GenericPrivateLearner, RepresentationLearner

MARGIN = 1e-6
TRIALS = 60
EPSILON = 1.0


def min_successes(trials: int, beta: float) -> int:
    """Fewest successes a (1 - beta)-accurate learner shows with probability >= 1 - 1e-6."""
    return int(binom.ppf(MARGIN, trials, 1 - beta))


def meets_claim(successes: int, trials: int, beta: float) -> bool:
    return successes >= min_successes(trials, beta)


def skewed(n: int) -> np.ndarray:
    """Point masses growing quadratically from the first point to the last (ratio 36)."""
    mass = np.linspace(1, 6, n) ** 2
    return mass / mass.sum()


def agnostic_error(h: np.ndarray, f: np.ndarray, mass: np.ndarray, eta: float) -> float:
    """Exact error of ``h`` on P: x ~ mass, y = f(x) flipped with probability eta."""
    h, f = np.asarray(h, dtype=np.int64), np.asarray(f, dtype=np.int64)
    return float(mass @ np.where(h != f, 1 - eta, eta))


@dataclass
class Outcome:
    n: int
    successes: int
    trials: int
    mean_excess: float  # mean of error (PAC) or error - OPT (agnostic)
    worst_excess: float


def run_trials(trial: Callable[[np.random.Generator], tuple[bool, float]], trials: int, seed: int, n: int) -> Outcome:
    rng = np.random.default_rng(seed)
    results = [trial(rng) for _ in range(trials)]
    excess = [e for _, e in results]
    return Outcome(n, sum(ok for ok, _ in results), trials, float(np.mean(excess)), float(np.max(excess)))


# =========================================================================== GenericPrivateLearner, PAC
THR = thresholds(20)
THR_MASS = skewed(20)


def generic_pac(n: int, *, seed: int, noise_labels: bool = False, alpha: float = 0.1) -> Outcome:
    def trial(rng):
        target = THR.table[rng.integers(THR.n_hypotheses)]
        X = rng.choice(THR.n_points, size=n, p=THR_MASS)
        y = rng.integers(0, 2, size=n) if noise_labels else target[X]
        learner = GenericPrivateLearner(H=THR, epsilon=EPSILON, random_state=rng, backend="exact").fit(X, y)
        assert learner.privacy_spent == (EPSILON, 0.0)
        err = float(THR_MASS @ (learner.predict(np.arange(THR.n_points)) != target))
        return err <= alpha, err

    return run_trials(trial, TRIALS, seed, n)


def test_generic_learner_pac_accuracy_at_calculator_size():
    alpha, beta = 0.1, 0.1
    bound = GenericPrivateLearner(H=THR, epsilon=EPSILON).required_sample_size(alpha, beta)
    assert bound.constants_explicit and bound.setting["task"] == "PAC" and bound.setting["proper"]
    out = generic_pac(bound.samples, seed=101)
    assert meets_claim(out.successes, out.trials, beta), out


def test_generic_learner_pac_negative_controls():
    beta = 0.1
    n = GenericPrivateLearner(H=THR, epsilon=EPSILON).required_sample_size(0.1, beta).samples
    few = generic_pac(5, seed=102)
    assert not meets_claim(few.successes, few.trials, beta), few
    noise = generic_pac(n, seed=103, noise_labels=True)
    assert not meets_claim(noise.successes, noise.trials, beta), noise


# =========================================================================== GenericPrivateLearner, agnostic
ETA = 0.1  # label noise rate


def generic_agnostic(n: int, *, seed: int, alpha: float = 0.1, labels_ignored: bool = False) -> Outcome:
    mass = np.full(THR.n_points, 1 / THR.n_points)

    def trial(rng):
        # Not realizable: a threshold with two points flipped, then every label flipped w.p. ETA.
        f = THR.table[rng.integers(THR.n_hypotheses)].astype(np.int64)
        f[rng.choice(THR.n_points, size=2, replace=False)] ^= 1
        opt = min(agnostic_error(row, f, mass, ETA) for row in THR.distinct_rows)
        X = rng.choice(THR.n_points, size=n, p=mass)
        y = f[X] ^ (rng.random(n) < ETA)
        if labels_ignored:  # the control: labels carry no information about f
            y = rng.integers(0, 2, size=n)
        learner = GenericPrivateLearner(H=THR, epsilon=EPSILON, agnostic=True, random_state=rng, backend="exact").fit(
            X, y
        )
        excess = agnostic_error(learner.predict(np.arange(THR.n_points)), f, mass, ETA) - opt
        return excess <= alpha, excess

    return run_trials(trial, TRIALS, seed, n)


def test_generic_learner_agnostic_accuracy_at_calculator_size():
    alpha, beta = 0.1, 0.1
    bound = GenericPrivateLearner(H=THR, epsilon=EPSILON, agnostic=True).required_sample_size(alpha, beta)
    assert bound.constants_explicit and bound.setting["task"] == "agnostic"
    out = generic_agnostic(bound.samples, seed=201)
    assert meets_claim(out.successes, out.trials, beta), out


def test_generic_learner_agnostic_negative_controls():
    beta = 0.1
    n = GenericPrivateLearner(H=THR, epsilon=EPSILON, agnostic=True).required_sample_size(0.1, beta).samples
    few = generic_agnostic(5, seed=202)
    assert not meets_claim(few.successes, few.trials, beta), few
    blind = generic_agnostic(n, seed=203, labels_ignored=True)
    assert not meets_claim(blind.successes, blind.trials, beta), blind


# =========================================================================== ASSPP (public unlabelled data)
INT = intervals(12)


def asspp(n: int, n_public: int, *, seed: int, alpha: float = 0.2) -> Outcome:
    mass = np.full(INT.n_points, 1 / INT.n_points)

    def trial(rng):
        f = INT.table[rng.integers(INT.n_hypotheses)].astype(np.int64)
        f[rng.integers(INT.n_points)] ^= 1
        opt = min(agnostic_error(row, f, mass, ETA) for row in INT.distinct_rows)
        X = rng.choice(INT.n_points, size=n, p=mass)
        y = f[X] ^ (rng.random(n) < ETA)
        public = rng.choice(INT.n_points, size=n_public, p=mass)
        learner = ASSPP(H=INT, epsilon=EPSILON, random_state=rng, backend="exact").fit(X, y, public=public)
        assert learner.privacy_spent == (EPSILON, 0.0)
        excess = agnostic_error(learner.predict(np.arange(INT.n_points)), f, mass, ETA) - opt
        return excess <= alpha, excess

    return run_trials(trial, TRIALS, seed, n)


def test_asspp_accuracy_at_calculator_sizes():
    alpha, beta = 0.2, 0.1
    probe = ASSPP(H=INT, epsilon=EPSILON)
    private, public = probe.required_sample_size(alpha, beta), probe.required_public_sample_size(alpha, beta)
    assert private.constants_explicit and public.constants_explicit
    out = asspp(private.samples, public.samples, seed=301)
    assert meets_claim(out.successes, out.trials, beta), out


def test_asspp_negative_controls():
    alpha, beta = 0.2, 0.1
    probe = ASSPP(H=INT, epsilon=EPSILON)
    n, n_public = (
        probe.required_sample_size(alpha, beta).samples,
        probe.required_public_sample_size(alpha, beta).samples,
    )
    no_public = asspp(n, 0, seed=302)  # the cover is a single hypothesis
    assert not meets_claim(no_public.successes, no_public.trials, beta), no_public
    few = asspp(5, n_public, seed=303)
    assert not meets_claim(few.successes, few.trials, beta), few


def test_asspp_cover_is_one_hypothesis_per_public_pattern():
    public = np.array([2, 7, 7, 11])
    learner = ASSPP(H=INT, epsilon=EPSILON, random_state=np.random.default_rng(0), backend="exact")
    learner.fit(np.array([0, 1]), np.array([0, 1]), public=public)
    patterns = {tuple(row[[2, 7, 11]]) for row in INT.distinct_rows}
    covered = [tuple(INT.distinct_rows[j][[2, 7, 11]]) for j in learner.cover_]
    assert len(covered) == len(set(covered)) == len(patterns) and set(covered) == patterns
    assert learner.distinct_index_ in set(learner.cover_.tolist())


# =========================================================================== BinaryReductionLearner
MC = bgs_thm61_class(7, d=2)  # labels 0..7 (3 bits), multiclass Littlestone dimension 2
MC_MASS = skewed(MC.n_points)


def reduction(n: int, *, seed: int, alpha: float = 0.2) -> Outcome:
    def trial(rng):
        target = MC.table[rng.integers(MC.n_hypotheses)]
        X = rng.choice(MC.n_points, size=n, p=MC_MASS)
        learner = BinaryReductionLearner(H=MC, epsilon=EPSILON, random_state=rng, backend="exact").fit(X, target[X])
        assert learner.privacy_spent == (EPSILON, 0.0)
        err = float(MC_MASS @ (learner.predict(np.arange(MC.n_points)) != target))
        return err <= alpha, err

    return run_trials(trial, TRIALS, seed, n)


def test_binary_reduction_accuracy_at_calculator_size():
    alpha, beta = 0.2, 0.1
    bound = BinaryReductionLearner(H=MC, epsilon=EPSILON).required_sample_size(alpha, beta)
    assert bound.constants_explicit and bound.source.startswith("BGS Thm 3.1")
    out = reduction(bound.samples, seed=401)
    assert meets_claim(out.successes, out.trials, beta), out


def test_binary_reduction_negative_control():
    few = reduction(6, seed=402)  # two examples per bit
    assert not meets_claim(few.successes, few.trials, 0.1), few


@pytest.mark.parametrize("alpha", [0.1, 0.15, 0.2, 0.25, 0.3])
def test_binary_reduction_every_part_gets_its_bits_sample_size(alpha):
    """BGS Thm 3.1 runs learner i on SC^i_{alpha/b, beta/b} examples; fit's equal parts must each be that large."""
    beta = 0.1
    learner = BinaryReductionLearner(H=MC, epsilon=EPSILON, random_state=np.random.default_rng(0), backend="exact")
    n = learner.required_sample_size(alpha, beta).samples
    b = learner.n_bits
    per_bit = [
        GenericPrivateLearner(H=G, epsilon=EPSILON).required_sample_size(alpha / b, beta / b).value
        for G in learner.restrictions
    ]
    X = np.zeros(n, dtype=np.int64)
    learner.fit(X, MC.table[0, X])
    assert len(learner.part_sizes_) == b and sum(learner.part_sizes_) == n
    assert min(learner.part_sizes_) >= max(per_bit), (learner.part_sizes_, per_bit)


def test_binary_reduction_with_a_custom_binary_learner():
    def representation_bits(G, *, epsilon, delta, random_state):
        # {G} represents G itself: a (0, 0)-representation; rep_alpha = 0.02 is claimed only to test the check.
        return RepresentationLearner(
            [G], [1.0], rep_alpha=0.02, rep_beta=0.0, epsilon=epsilon, random_state=random_state, backend="exact"
        )

    learner = BinaryReductionLearner(
        H=MC, epsilon=EPSILON, binary_learner=representation_bits, random_state=np.random.default_rng(0)
    )
    # BGS Lemma 8.3 needs alpha/6 >= rep_alpha at the accuracy each bit is learned to, alpha/b:
    # 0.3/6 >= 0.02 but 0.1/6 < 0.02, so the reduction's bound must be refused.
    with pytest.raises(InvalidParameterError, match="'rep_alpha' parameter"):
        learner.required_sample_size(0.3, 0.1)
    n = learner.required_sample_size(0.9, 0.3).samples
    X = np.random.default_rng(1).choice(MC.n_points, size=n, p=MC_MASS)
    learner.fit(X, MC.table[3, X])
    assert all(isinstance(b, RepresentationLearner) for b in learner.learners_)
    assert learner.privacy_spent == (EPSILON, 0.0)


def test_binary_reduction_reports_what_its_binary_learners_spend():
    def doubled(G, *, epsilon, delta, random_state):  # a binary learner that spends twice what it is given
        return GenericPrivateLearner(H=G, epsilon=2 * epsilon, random_state=random_state, backend="exact")

    learner = BinaryReductionLearner(
        H=MC, epsilon=EPSILON, binary_learner=doubled, random_state=np.random.default_rng(0)
    )
    assert learner.privacy_spent == (2 * EPSILON, 0.0)
    X = np.arange(MC.n_points)
    assert learner.fit(X, MC.table[0, X]).privacy_spent == (2 * EPSILON, 0.0)


def test_binary_reduction_restrictions_are_the_label_bits():
    learner = BinaryReductionLearner(H=MC, epsilon=EPSILON)
    assert learner.n_bits == 3
    recombined = sum(G.table.astype(np.int64) << i for i, G in enumerate(learner.restrictions))
    assert np.array_equal(recombined, MC.table)


# =========================================================================== RepresentationLearner
N_PTS = 40
POINTS = point_functions(N_PTS)
HEAVY = 8
REP_MASS = np.r_[np.full(HEAVY, 0.11), np.full(N_PTS - HEAVY, 0.12 / (N_PTS - HEAVY))]


def drop_one_family(n: int, keep=None) -> list[HypothesisClass]:
    """G_j = {1_x : x != j} + the zero function, for j = 0..n-1 (or the points ``keep[j]``)."""
    eye, zero = np.eye(n, dtype=np.int64), np.zeros((1, n), dtype=np.int64)
    kept = keep if keep is not None else [[x for x in range(n) if x != j] for j in range(n)]
    return [HypothesisClass(np.vstack([eye[k], zero])) for k in kept]


# (P uniform, G_j) is a (0, 1/N)-probabilistic representation of POINT_X (BGS Def 8.1): for every
# target 1_x and every distribution, G_j contains 1_x itself (error 0) unless j = x, which has P-mass 1/N.
REP_FAMILY = drop_one_family(N_PTS)
REP_BETA = 1 / N_PTS


def representation(n: int, *, seed: int, classes=None, alpha: float = 0.1) -> Outcome:
    classes = classes if classes is not None else REP_FAMILY

    def trial(rng):
        # Heavy targets (mass 0.11 > alpha): only 1_x itself is alpha-accurate, the zero function is not.
        target = POINTS.table[rng.integers(HEAVY)]
        X = rng.choice(N_PTS, size=n, p=REP_MASS)
        learner = RepresentationLearner(
            classes,
            [1 / len(classes)] * len(classes),
            rep_alpha=0.0,
            rep_beta=REP_BETA,
            epsilon=EPSILON,
            random_state=rng,
            backend="exact",
        ).fit(X, target[X])
        assert learner.privacy_spent == (EPSILON, 0.0)
        err = float(REP_MASS @ (learner.predict(np.arange(N_PTS)) != target))
        return err <= alpha, err

    return run_trials(trial, TRIALS, seed, n)


def test_drop_one_family_is_a_probabilistic_representation_of_points():
    for x in range(N_PTS):
        good = sum(any(np.array_equal(row, POINTS.table[x]) for row in G.distinct_rows) for G in REP_FAMILY)
        assert good / N_PTS >= 1 - REP_BETA
    assert max(G.n_distinct for G in REP_FAMILY) == N_PTS  # 39 point functions and the zero function


def test_representation_learner_accuracy_at_calculator_size():
    alpha, beta = 0.1, 0.1
    probe = RepresentationLearner(REP_FAMILY, [1 / N_PTS] * N_PTS, rep_alpha=0.0, rep_beta=REP_BETA, epsilon=EPSILON)
    bound = probe.required_sample_size(alpha, beta)
    assert bound.constants_explicit and math.isclose(probe.size, math.log(N_PTS))
    assert bound.values["rep_beta"] == REP_BETA
    out = representation(bound.samples, seed=501)
    assert meets_claim(out.successes, out.trials, beta), out


def test_representation_learner_negative_controls():
    alpha, beta = 0.1, 0.1
    n = (
        RepresentationLearner(REP_FAMILY, [1 / N_PTS] * N_PTS, rep_alpha=0.0, rep_beta=REP_BETA, epsilon=EPSILON)
        .required_sample_size(alpha, beta)
        .samples
    )
    few = representation(5, seed=502)
    assert not meets_claim(few.successes, few.trials, beta), few
    # A family that does not represent POINT_X: each G_j holds only a quarter of the point functions.
    rng = np.random.default_rng(0)
    bogus = drop_one_family(
        N_PTS, keep=[sorted(rng.choice(N_PTS, size=N_PTS // 4, replace=False)) for _ in range(N_PTS)]
    )
    wrong = representation(n, seed=503, classes=bogus)
    assert not meets_claim(wrong.successes, wrong.trials, beta), wrong


# =========================================================================== API
def _generic(rng=None):
    return GenericPrivateLearner(H=THR, epsilon=EPSILON, random_state=rng, backend="exact")


def _asspp(rng=None):
    return ASSPP(H=INT, epsilon=EPSILON, random_state=rng, backend="exact")


def _reduction(rng=None):
    return BinaryReductionLearner(H=MC, epsilon=EPSILON, random_state=rng, backend="exact")


def _representation(rng=None):
    return RepresentationLearner(
        REP_FAMILY,
        [1 / N_PTS] * N_PTS,
        rep_alpha=0.0,
        rep_beta=REP_BETA,
        epsilon=EPSILON,
        random_state=rng,
        backend="exact",
    )


MAKERS = {
    "generic": (_generic, THR),
    "asspp": (_asspp, INT),
    "reduction": (_reduction, MC),
    "representation": (_representation, POINTS),
}


def _fit(learner, X, y):
    if isinstance(learner, ASSPP):
        return learner.fit(X, y, public=np.arange(INT.n_points))
    return learner.fit(X, y)


@pytest.mark.parametrize("name", sorted(MAKERS))
def test_unfitted_predict_raises(name):
    make, _ = MAKERS[name]
    with pytest.raises(InvalidParameterError, match="call fit"):
        make().predict([0, 1])


@pytest.mark.parametrize("name", sorted(MAKERS))
@pytest.mark.parametrize(
    "case", ["X out of range", "X negative", "X float", "X 2-D", "y too short", "y float", "y out of range", "y 2-D"]
)
def test_bad_samples_raise_dimcalc_errors(name, case):
    make, H = MAKERS[name]
    n = H.n_points
    X, y = np.arange(4) % n, np.zeros(4, dtype=np.int64)
    bad = {
        "X out of range": (np.array([0, 1, n, 2]), y, "'X'", f"point indices in [0, {n})"),
        "X negative": (np.array([0, -1, 2, 3]), y, "'X'", f"point indices in [0, {n})"),
        "X float": (X.astype(float) + 0.5, y, "'X'", "whole-number point indices"),  # integral floats are taken
        "X 2-D": (X.reshape(2, 2), y, "'X'", "1-D"),
        "y too short": (X, y[:3], "'y'", "one label per example"),
        "y float": (X, y.astype(float) + 0.25, "'y'", "whole-number labels"),
        "y out of range": (X, np.array([0, 0, H.num_labels, 0]), "'y'", f"labels in [0, {H.num_labels})"),
        "y 2-D": (X, y.reshape(2, 2), "'y'", "1-D"),
    }[case]
    learner = make(np.random.default_rng(0))
    with pytest.raises(InvalidParameterError) as info:
        _fit(learner, bad[0], bad[1])
    message = str(info.value)
    assert isinstance(info.value, DimcalcError) and isinstance(info.value, ValueError)
    assert bad[2] in message and bad[3] in message and "\n" not in message
    assert not learner.fitted_


@pytest.mark.parametrize("name", sorted(MAKERS))
def test_predict_checks_points_and_privacy_spent_is_what_was_asked(name):
    make, H = MAKERS[name]
    learner = make(np.random.default_rng(1))
    assert learner.privacy_spent == (EPSILON, 0.0)
    X = np.arange(H.n_points)
    _fit(learner, X, H.table[0, X])
    assert learner.privacy_spent == (EPSILON, 0.0)
    out = learner.predict(X)
    assert out.shape == (H.n_points,) and out.min() >= 0 and out.max() < H.num_labels
    with pytest.raises(InvalidParameterError, match="'X' parameter"):
        learner.predict([H.n_points])
    assert learner.predict(np.array([], dtype=np.int64)).shape == (0,)


@pytest.mark.parametrize("name", sorted(MAKERS))
def test_same_seed_same_output_under_the_exact_backend(name):
    make, H = MAKERS[name]
    data = np.random.default_rng(7)
    X = data.integers(0, H.n_points, size=30)
    y = data.integers(0, H.num_labels, size=30)  # noisy labels: the mechanism has real choices to make

    def outputs(seed):
        rng = np.random.default_rng(seed)
        return [tuple(_fit(make(rng), X, y).predict(np.arange(H.n_points)).tolist()) for _ in range(25)]

    first, again, other = outputs(11), outputs(11), outputs(12)
    assert first == again
    assert first != other  # the seed is really used


def test_privacy_parameters_and_backends_are_checked_at_fit():
    """scikit-learn's convention: the constructor stores, fit validates (with dimcalc's one-line message)."""
    X, y = np.arange(4), np.zeros(4, dtype=np.int64)
    for make, param in (
        (lambda: GenericPrivateLearner(H=THR, epsilon=0.0), "epsilon"),
        (lambda: GenericPrivateLearner(H=THR, epsilon=float("nan")), "epsilon"),
        (lambda: GenericPrivateLearner(H=THR, epsilon=True), "epsilon"),
        (lambda: GenericPrivateLearner(H=THR, epsilon="a lot"), "epsilon"),
        (lambda: GenericPrivateLearner(H=THR, epsilon=1.0, backend="numpy"), "backend"),
        (lambda: GenericPrivateLearner(H=THR, epsilon=1.0, noise="gumbel"), "noise"),
        (lambda: GenericPrivateLearner(H=THR, epsilon=1.0, random_state=3.5), "random_state"),
        (lambda: GenericPrivateLearner(H=THR, epsilon=1.0, random_state="seed"), "random_state"),
        (lambda: GenericPrivateLearner(H=THR.table, epsilon=1.0), "hypothesis_class"),
        (lambda: GenericPrivateLearner(H=THR, epsilon=1.0, noise_multiplier=0), "noise_multiplier"),
        (lambda: ASSPP(H=INT, epsilon=-1.0), "epsilon"),
        (lambda: BinaryReductionLearner(H=MC, epsilon=1.0, delta=1.0), "delta"),
        (
            lambda: RepresentationLearner(REP_FAMILY, [1 / N_PTS] * N_PTS, rep_alpha=0.0, rep_beta=1.5, epsilon=1.0),
            "rep_beta",
        ),
    ):
        learner = make()  # storing parameters never fails
        with pytest.raises(InvalidParameterError, match=f"'{param}' parameter"):
            _fit(learner, X, y)
        assert not learner.fitted_


@pytest.mark.parametrize(
    "probabilities",
    [[0.5, 0.6], [1.5, -0.5], [1.0], [float("nan"), 1.0], ["0.5", "0.5"], [None, 1.0], 3, [True, False]],
)
def test_representation_learner_refuses_bad_probabilities(probabilities):
    classes = REP_FAMILY[:2]
    learner = RepresentationLearner(classes, probabilities, rep_alpha=0.0, rep_beta=0.5, epsilon=1.0)
    with pytest.raises(InvalidParameterError, match="'probabilities' parameter of RepresentationLearner"):
        learner.fit(np.arange(3), np.zeros(3, dtype=np.int64))


def test_representation_learner_refuses_mismatched_classes():
    with pytest.raises(InvalidParameterError, match="'classes' parameter"):
        RepresentationLearner([POINTS, point_functions(5)], [0.5, 0.5], rep_alpha=0.0, rep_beta=0.5, epsilon=1.0).fit(
            [0], [0]
        )
    with pytest.raises(InvalidParameterError, match="'classes' parameter"):
        RepresentationLearner([], [], rep_alpha=0.0, rep_beta=0.5, epsilon=1.0).fit([0], [0])


def test_required_sample_size_checks_alpha_beta():
    with pytest.raises(InvalidParameterError, match="'alpha' parameter"):
        _generic().required_sample_size(0.0, 0.1)
    with pytest.raises(InvalidParameterError, match="'beta' parameter"):
        _asspp().required_public_sample_size(0.1, 1.0)
    # BGS Lemma 8.3 needs alpha >= 6 rep_alpha and beta > rep_beta.
    with pytest.raises(InvalidParameterError, match="'rep_beta' parameter"):
        _representation().required_sample_size(0.1, REP_BETA / 2)


def test_asspp_refuses_bad_public_points():
    learner = _asspp(np.random.default_rng(0))
    with pytest.raises(InvalidParameterError, match="'public' parameter of ASSPP.fit"):
        learner.fit([0, 1], [0, 1], public=[0, INT.n_points])
    with pytest.raises(InvalidParameterError, match="'public' parameter of ASSPP.fit"):
        learner.fit([0, 1], [0, 1], public=[0.5])


def test_opendp_backend_learns_with_a_wide_margin():
    """OpenDP's noisy max cannot be seeded; at 20x the calculator's size a failure has probability < 1e-30."""
    n = 20 * GenericPrivateLearner(H=THR, epsilon=EPSILON).required_sample_size(0.2, 0.1).samples
    data = np.random.default_rng(5)
    X = data.choice(THR.n_points, size=n, p=THR_MASS)
    learner = GenericPrivateLearner(H=THR, epsilon=EPSILON).fit(X, THR.table[6, X])
    assert learner.noise == "opendp" and learner.privacy_spent == (EPSILON, 0.0)
    assert float(THR_MASS @ (learner.predict(np.arange(THR.n_points)) != THR.table[6])) <= 0.2
