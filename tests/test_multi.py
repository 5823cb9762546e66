"""Accuracy and behaviour of the private k-learners (dimcalc.learners.multi, BNS).

Accuracy tests run seeded repeated trials: each trial draws a fresh sample from a fixed
distribution, labels it with k target concepts, fits, and computes every hypothesis's
*exact* error under the distribution.  A learner claimed (alpha, beta)-accurate must
succeed (error <= alpha on all k concepts) in at least a (1 - beta) fraction of trials;
we assert ``successes >= binom.ppf(1e-6, trials, 1 - beta)`` (failing a correct learner
with probability <= 1e-6).  Sample sizes are the calculator's (``required_sample_size``),
explicit for every learner, GenericLearner included (BNS Lemma 36 with MWEM, constants
worked out).  The learners run with the exact, seeded sampler (``noise="exact"``).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import binom

from dimcalc.classes.hypothesis_class import HypothesisClass
from dimcalc.errors import InvalidParameterError
from dimcalc.learners.mechanisms import (
    ExactNoise,
    NumpyNoise,
    a_dist,
    a_dist_required_gap,
    a_dist_threshold,
    discrete_laplace_tail,
    mwem,
    mwem_error_bound,
    mwem_rounds,
    point_sanitizer,
)
from dimcalc.learners.multi import (
    CompositionLearner,
    GenericLearner,
    ParityLearner,
    PointLearner,
    solve_parities_gf2,
    split_budget,
    xor_queries,
)

MARGIN = 1e-6


def min_successes(trials: int, beta: float) -> int:
    """Fewest successes a (1 - beta)-accurate learner shows with probability >= 1 - 1e-6."""
    return int(binom.ppf(MARGIN, trials, 1 - beta))


def point_functions(n: int) -> HypothesisClass:
    return HypothesisClass.from_table(np.eye(n, dtype=int), name=f"points-{n}")


def thresholds(n: int) -> HypothesisClass:
    return HypothesisClass.from_table(np.tril(np.ones((n + 1, n), dtype=int), -1), name=f"thresholds-{n}")


def exact_errors(predictions: np.ndarray, truth: np.ndarray, mass: np.ndarray) -> np.ndarray:
    """Error of each of the k hypotheses under the distribution ``mass`` over the domain."""
    return mass @ (predictions != truth)


# ---------------------------------------------------------------------------- budget
def test_split_budget_basic_and_advanced():
    assert split_budget(1.0, 0.0, 4).epsilon_each == 0.25
    adv = split_budget(1.0, 1e-6, 100, "advanced")
    a = math.sqrt(2 * 100 * math.log(2 / 1e-6))
    assert abs(a * adv.epsilon_each + 2 * 100 * adv.epsilon_each**2 - 1.0) < 1e-12
    assert adv.delta == 5e-7 and adv.epsilon <= 1.0 + 1e-12
    assert split_budget(1.0, 1e-6, 100).method == "advanced"  # auto prefers the larger per-run epsilon
    assert split_budget(1.0, 1e-6, 2).method == "basic"
    with pytest.raises(InvalidParameterError):
        split_budget(1.0, 0.0, 3, "advanced")


# ---------------------------------------------------------------------------- mechanisms (exact checks)
def test_discrete_laplace_matches_its_law():
    noise = ExactNoise(np.random.default_rng(11))  # the exact sampler (CKS 2020 Alg 2)
    z = noise.discrete_laplace(1.5, size=30_000)
    for a in (-2, 0, 1, 3):
        expected = discrete_laplace_tail(1.5, a)
        assert abs((z >= a).mean() - expected) < 5 * math.sqrt(expected * (1 - expected) / z.size) + 1e-9


def test_a_dist_threshold_is_least_with_tail_below_delta():
    for eps, delta in ((0.5, 1e-6), (1.0, 1e-3), (3.0, 1e-9)):
        T, scale = a_dist_threshold(eps, delta)
        assert discrete_laplace_tail(scale, T - 2) <= delta < discrete_laplace_tail(scale, T - 3) or T - 2 == 1
        g = a_dist_required_gap(eps, delta, 0.05)
        assert discrete_laplace_tail(scale, g - T + 1) <= 0.05


def test_a_dist_returns_maximiser_when_stable_and_bottom_when_tied():
    noise = NumpyNoise(np.random.default_rng(3))
    g = a_dist_required_gap(1.0, 1e-6, 1e-3)
    wins = sum(a_dist({"x": g, "y": 0}, epsilon=1.0, delta=1e-6, noise=noise) == "x" for _ in range(2000))
    assert wins >= 1990
    assert all(a_dist({"x": 7, "y": 7}, epsilon=1.0, delta=1e-6, noise=noise) is None for _ in range(2000))
    assert a_dist({}, epsilon=1.0, delta=1e-6, noise=noise, unlisted_score=0) is None
    assert a_dist({"only": 3}, epsilon=1.0, delta=1e-6, noise=noise) == "only"


def test_point_sanitizer_accuracy_and_cutoff():
    rng = np.random.default_rng(5)
    points = rng.choice(50, size=5000, p=np.r_[[0.3, 0.2], np.full(48, 0.5 / 48)])
    released = point_sanitizer(points, alpha=0.05, epsilon=1.0, delta=1e-6, noise=NumpyNoise(rng))
    counts = np.bincount(points, minlength=50)
    assert set(released) == {0, 1}  # light points (count ~52 < alpha*n/4 = 62) are cut off
    for x, c in released.items():
        assert abs(c - counts[x]) <= 0.05 * 5000


def test_mwem_answers_queries_accurately():
    rng = np.random.default_rng(7)
    H = thresholds(16)
    queries = xor_queries(H)
    points = rng.choice(16, size=3000, p=np.linspace(1, 3, 16) / np.linspace(1, 3, 16).sum())
    result = mwem(points, queries, epsilon=2.0, iterations=10, update_passes=20, noise=NumpyNoise(rng))
    truth = queries @ np.bincount(points, minlength=16) / 3000
    assert np.max(np.abs(queries @ result.distribution - truth)) < 0.1
    assert abs(result.distribution.sum() - 1) < 1e-9 and result.epsilon == 2.0


def test_xor_queries_of_point_functions():
    q = xor_queries(point_functions(5))
    assert q.shape == (1 + 10, 5)  # the zero function and every pair
    assert set(q.sum(axis=1).tolist()) == {0, 2}


def test_solve_parities_gf2_against_brute_force():
    rng = np.random.default_rng(9)
    for _ in range(200):
        d, s, k = int(rng.integers(1, 5)), int(rng.integers(1, 8)), int(rng.integers(1, 3))
        pts = rng.integers(0, 2, size=(s, d))
        labels = rng.integers(0, 2, size=(s, k))
        if rng.random() < 0.5:  # often make it realizable
            labels = pts @ rng.integers(0, 2, size=(d, k)) % 2
        got = solve_parities_gf2(pts, labels)
        consistent = []
        for j in range(k):
            sols = [
                a
                for a in range(2**d)
                if all(
                    bin(a & int("".join(map(str, row[::-1])), 2)).count("1") % 2 == labels[i, j]
                    for i, row in enumerate(pts)
                )
            ]
            consistent.append(sols)
        if all(len(c) == 1 for c in consistent):
            assert got == tuple(c[0] for c in consistent)
        else:
            assert got is None


# ---------------------------------------------------------------------------- learner accuracy
def test_composition_learner_accuracy_at_calculator_size():
    H = point_functions(16)
    mass = np.linspace(1, 4, 16) ** 2
    mass /= mass.sum()
    alpha, beta, k, trials = 0.1, 0.1, 4, 60
    probe = CompositionLearner(H, epsilon=2.0)
    n = probe.required_sample_size(alpha, beta, k=k).samples
    assert probe.required_sample_size(alpha, beta, k=k).constants_explicit
    rng = np.random.default_rng(2024)
    successes = 0
    for _ in range(trials):
        targets = rng.choice(16, size=k)
        X = rng.choice(16, size=n, p=mass)
        learner = CompositionLearner(H, epsilon=2.0, noise="exact", random_state=rng).fit(X, H.table[targets][:, X].T)
        err = exact_errors(learner.predict(np.arange(16)), H.table[targets].T, mass)
        successes += bool(np.all(err <= alpha))
        assert learner.privacy_spent == (2.0, 0.0)
    assert successes >= min_successes(trials, beta), (successes, n)


def test_composition_learner_advanced_composition_accuracy():
    H = point_functions(8)
    mass = np.full(8, 1 / 8)
    alpha, beta, k, trials = 0.1, 0.1, 200, 20
    probe = CompositionLearner(H, epsilon=2.0, delta=1e-6)
    bound = probe.required_sample_size(alpha, beta, k=k)
    assert "advanced" in bound.source
    rng = np.random.default_rng(77)
    successes = 0
    for _ in range(trials):
        targets = rng.choice(8, size=k)
        X = rng.choice(8, size=bound.samples)
        learner = CompositionLearner(H, epsilon=2.0, delta=1e-6, noise="exact", random_state=rng).fit(
            X, H.table[targets][:, X].T
        )
        err = exact_errors(learner.predict(np.arange(8)), H.table[targets].T, mass)
        successes += bool(np.all(err <= alpha))
        eps, delta = learner.privacy_spent
        assert eps <= 2.0 + 1e-12 and delta == 5e-7 and learner.split_.method == "advanced"
    assert successes >= min_successes(trials, beta), (successes, bound.samples)


GL_H = thresholds(16)
GL_MASS = np.linspace(1, 2, 16) / np.linspace(1, 2, 16).sum()
GL_ALPHA, GL_BETA, GL_K, GL_EPS, GL_ETA, GL_TRIALS = 0.25, 0.1, 3, 4.0, 0.1, 20


def generic_learner_trials(n, *, seed, labels_ignored=False, synthetic_size=None):
    """Agnostic trials: k thresholds, every label flipped w.p. ETA; success = every excess error <= alpha."""
    H, mass = GL_H, GL_MASS
    rng = np.random.default_rng(seed)
    successes, worst = 0, []
    for _ in range(GL_TRIALS):
        targets = H.table[rng.choice(H.n_hypotheses, size=GL_K)]  # (k, |X|)
        X = rng.choice(16, size=n, p=mass)
        Y = (targets[:, X].T ^ (rng.random((n, GL_K)) < GL_ETA)).astype(np.int64)
        if labels_ignored:  # the control: labels carry no information about the targets
            Y = rng.integers(0, 2, size=(n, GL_K))
        learner = GenericLearner(
            H,
            epsilon=GL_EPS,
            alpha=GL_ALPHA,
            beta=GL_BETA,
            noise="exact",
            random_state=rng,
            synthetic_size=synthetic_size,
        ).fit(X, Y)
        assert learner.privacy_spent == (GL_EPS, 0.0)
        assert len(learner.representatives_) <= 2 ** len(learner.support_)
        pred = learner.predict(np.arange(16)).T  # (k, |X|)
        # error under P (x ~ mass, y = target flipped w.p. ETA) and the best in the class, exactly
        err = (np.where(pred != targets, 1 - GL_ETA, GL_ETA) * mass).sum(axis=1)
        opt = np.array(
            [min(float(mass @ np.where(row != t, 1 - GL_ETA, GL_ETA)) for row in H.distinct_rows) for t in targets]
        )
        excess = err - opt
        worst.append(float(excess.max()))
        successes += bool(np.all(excess <= GL_ALPHA))
    return successes, worst


@pytest.mark.slow
def test_generic_learner_meets_alpha_beta_at_its_own_required_size():
    """GenericLearner (BNS Alg 3 with MWEM) at the explicit size of *that* algorithm, T and m derived."""
    probe = GenericLearner(GL_H, epsilon=GL_EPS, alpha=GL_ALPHA, beta=GL_BETA)
    bound = probe.required_sample_size(k=GL_K)
    assert bound.constants_explicit and bound.name == "generic_learner_mwem" and bound.in_range
    assert bound.setting["task"] == "agnostic" and bound.setting["proper"]
    n = bound.samples
    successes, worst = generic_learner_trials(n, seed=31)
    assert successes >= min_successes(GL_TRIALS, GL_BETA), (successes, n, worst)
    # what it ran is what the size assumed: T rounds and m synthetic points derived from (alpha, beta, eps, |X|, |C⊕|)
    learner = GenericLearner(GL_H, epsilon=GL_EPS, alpha=GL_ALPHA, beta=GL_BETA, noise="exact", random_state=0)
    X = np.random.default_rng(0).choice(16, size=n, p=GL_MASS)
    learner.fit(X, np.zeros((n, GL_K), dtype=int))
    assert (learner.iterations_, learner.synthetic_size_) == (bound.values["rounds"], bound.values["synthetic_size"])


@pytest.mark.slow
def test_generic_learner_negative_controls():
    n = GenericLearner(GL_H, epsilon=GL_EPS, alpha=GL_ALPHA, beta=GL_BETA).required_sample_size(k=GL_K).samples
    blind, worst = generic_learner_trials(n, seed=32, labels_ignored=True)
    assert blind < min_successes(GL_TRIALS, GL_BETA), (blind, worst)
    few, worst = generic_learner_trials(4, seed=33)  # far too few examples
    assert few < min_successes(GL_TRIALS, GL_BETA), (few, worst)


def test_generic_learner_size_is_its_own_algorithms():
    """The bound is BNS Lemma 36 with MWEM (explicit), not the Cor 34 direct-sum branch of Thm 31."""
    H = thresholds(16)
    bound = GenericLearner(H, epsilon=4.0, alpha=0.1, beta=0.1).required_sample_size(k=3)
    assert bound.constants_explicit and "Lemma 36" in bound.source and "MWEM" in bound.source
    assert bound.values["rounds"] > 10 and bound.values["synthetic_size"] > 200
    # at the bound, MWEM's explicit error at T rounds is its share 6 alpha/10 (HLM Thm 2.2, beta/4)
    err = mwem_error_bound(
        n=bound.samples,
        iterations=bound.values["rounds"],
        n_domain=16,
        n_queries=len(xor_queries(H)),
        epsilon=2.0,
        beta=0.1 / 4,
    )
    assert err <= 0.06 + 1e-12
    # the learner refuses to size itself for an accuracy it is not run at (T, m depend on alpha, beta)
    with pytest.raises(InvalidParameterError, match="'alpha' parameter"):
        GenericLearner(H, epsilon=4.0, alpha=0.1, beta=0.1).required_sample_size(0.2, 0.1, k=3)
    with pytest.raises(InvalidParameterError, match="'update_passes' parameter"):
        GenericLearner(H, epsilon=4.0, update_passes=5).required_sample_size(k=3)


def test_mwem_error_bound_holds_empirically():
    """HLM Thm 2.2 as implemented: MWEM's worst query error stays below mwem_error_bound (beta = 0.1)."""
    H = thresholds(8)
    queries = xor_queries(H)
    rng = np.random.default_rng(12)
    n, eps = 20_000, 2.0
    T, bound = mwem_rounds(n=n, n_domain=8, n_queries=len(queries), epsilon=eps, beta=0.1)
    worst = []
    for _ in range(10):
        points = rng.choice(8, size=n, p=np.linspace(1, 3, 8) / np.linspace(1, 3, 8).sum())
        res = mwem(points, queries, epsilon=eps, iterations=T, noise=ExactNoise(rng))
        truth = queries @ np.bincount(points, minlength=8) / n
        worst.append(float(np.max(np.abs(queries @ res.distribution - truth))))
    assert max(worst) <= bound, (worst, bound)


def test_point_learner_accuracy_at_calculator_size():
    domain, k, alpha, beta, trials = 1000, 6, 0.3, 0.1, 40
    mass = np.full(domain, 0.4 / (domain - 3))
    mass[:3] = [0.35, 0.15, 0.1]
    mass /= mass.sum()
    probe = PointLearner(domain, alpha=alpha, epsilon=2.0, delta=1e-6)
    bound = probe.required_sample_size(beta=beta)
    assert bound.constants_explicit
    n = bound.samples
    rng = np.random.default_rng(4242)
    successes = 0
    for _ in range(trials):
        targets = np.r_[rng.choice(3, size=3), rng.choice(domain, size=k - 3)]  # heavy and light targets
        X = rng.choice(domain, size=n, p=mass)
        Y = (X[:, None] == targets[None, :]).astype(int)
        learner = PointLearner(domain, alpha=alpha, epsilon=2.0, delta=1e-6, noise="exact", random_state=rng).fit(X, Y)
        truth = (np.arange(domain)[:, None] == targets[None, :]).astype(int)
        err = exact_errors(learner.predict(np.arange(domain)), truth, mass)
        successes += bool(np.all(err <= alpha))
    assert successes >= min_successes(trials, beta), (successes, n)


def test_parity_learner_exact_at_calculator_size():
    d, k, beta, trials = 8, 5, 0.1, 40
    probe = ParityLearner(d, epsilon=1.0, delta=1e-6)
    n = probe.required_sample_size(beta=beta).samples
    rng = np.random.default_rng(99)
    successes = 0
    for _ in range(trials):
        targets = rng.integers(0, 2, size=(k, d))
        X = rng.integers(0, 2, size=(n, d))
        learner = ParityLearner(d, epsilon=1.0, delta=1e-6, noise="exact", random_state=rng).fit(X, X @ targets.T % 2)
        successes += bool(np.array_equal(learner.parities_, targets))  # alpha = 0: exact recovery
    assert successes >= min_successes(trials, beta), (successes, n)


def test_parity_learner_fails_safely_without_enough_blocks():
    rng = np.random.default_rng(1)
    X = rng.integers(0, 2, size=(40, 6))
    learner = ParityLearner(6, epsilon=1.0, delta=1e-6, noise="exact", random_state=rng).fit(X, X[:, :2])
    assert learner.selection_failed_ and not learner.parities_.any()  # 4 blocks are too few for A_dist


# ---------------------------------------------------------------------------- API and bad input
def test_predict_shapes_and_opendp_backend():
    H = point_functions(6)
    X = np.repeat(np.arange(6), 60)
    Y = np.stack([X == 1, X == 4], axis=1).astype(int)
    learner = CompositionLearner(H, epsilon=4.0, noise="opendp").fit(X, Y)
    assert learner.predict(np.arange(6)).shape == (6, 2)
    assert learner.hypotheses_.tolist() == [1, 4]
    point = PointLearner(6, alpha=0.5, epsilon=4.0, delta=1e-6, noise="opendp").fit(X, Y)
    assert point.predict(np.array([1, 4, 0])).tolist() == [[1, 0], [0, 1], [0, 0]]


@pytest.mark.parametrize(
    "make, message",
    [
        (
            lambda: CompositionLearner(point_functions(4), epsilon=-1).fit([0], [[0]]),
            "'epsilon' parameter of CompositionLearner",
        ),
        (
            lambda: PointLearner(10, alpha=0.1, epsilon=1.0, delta=0.0).fit([0], [[0]]),
            "'delta' parameter of PointLearner",
        ),
        (
            lambda: ParityLearner(4, epsilon=1.0, delta=1e-6, block_size=3).fit([[0, 0, 0, 0]], [[0]]),
            "'block_size' parameter",
        ),
        (lambda: CompositionLearner(HypothesisClass.from_table([[0, 2]]), epsilon=1.0).fit([0], [[0]]), "binary class"),
        (
            lambda: GenericLearner(point_functions(4), epsilon=1.0, random_state=3.5).fit([0], [[0]]),
            "'random_state' parameter",
        ),
        (
            lambda: GenericLearner(point_functions(4), epsilon=1.0, iterations=0).fit([0], [[0]]),
            "'iterations' parameter",
        ),
        (lambda: CompositionLearner(point_functions(4), epsilon=1.0).fit([0, 9], [[0], [1]]), "point indices"),
        (lambda: CompositionLearner(point_functions(4), epsilon=1.0).fit([0, 1], [[0], [2]]), "binary labels"),
        (lambda: CompositionLearner(point_functions(4), epsilon=1.0).fit([0, 1], [[0]]), "(m, k)"),
        (lambda: CompositionLearner(point_functions(4), epsilon=1.0).predict([0]), "call fit"),
    ],
)
def test_bad_input_is_refused_with_one_line(make, message):
    with pytest.raises(InvalidParameterError) as info:
        make()
    assert message in str(info.value) and "\n" not in str(info.value)


def test_point_learner_documented_threshold_matches_the_code():
    """E3 of the docstring: A_dist at (eps/2, delta/2) needs a gap g <= 3 + (4/eps) ln(4/(beta delta))."""
    eps, delta, beta = 2.0, 1e-6, 0.1
    g = a_dist_required_gap(eps / 2, delta / 2, beta / 2)
    assert g <= 3 + (4 / eps) * math.log(4 / (beta * delta))
    assert "ln(4/(βδ))" in PointLearner.required_sample_size.__doc__


# ---------------------------------------------------------------------------- the exact sampler's laws
def test_exact_exponential_mechanism_has_the_mechanisms_law():
    """ExactNoise samples P[i] ∝ exp(eps * score_i / 2) exactly (here eps = 2: weights 1, e^-1, e^-3, e^-3)."""
    noise = ExactNoise(np.random.default_rng(21))
    draws = np.array([noise.exponential_mechanism([0, -1, -3, -3], 2, 1) for _ in range(30_000)])
    weights = np.exp([0, -1, -3, -3])
    for i, p in enumerate(weights / weights.sum()):
        freq = float(np.mean(draws == i))
        assert abs(freq - p) < 5 * math.sqrt(p * (1 - p) / draws.size), (i, freq, p)
    # rational (non-integer) scores take the exact Fraction path
    frac = [noise.exponential_mechanism([0.5, 0.25], 4, 1) for _ in range(4000)]
    p0 = 1 / (1 + math.exp(-0.5))
    assert abs(frac.count(0) / 4000 - p0) < 5 * math.sqrt(p0 * (1 - p0) / 4000)


def test_exact_band_comparison_decides_near_the_boundary():
    """The exact fallback compares U = 0.u... with exp(-gamma) by refining both (decimal exp, more words)."""
    from dimcalc.learners.mechanisms.sampling import _RandomInts, exp_band_compare

    ints = _RandomInts(np.random.default_rng(0))
    from decimal import Decimal, localcontext

    with localcontext() as ctx:
        ctx.prec = 60
        u = int(Decimal(-0.5).exp() * Decimal(2) ** 62)  # floor(e^{-1/2} 2^62), exactly
    assert exp_band_compare(1, 2, ints, u - 5) is True
    assert exp_band_compare(1, 2, ints, u + 5) is False
    # inside the word's interval the answer depends on further random words; both occur
    outcomes = {exp_band_compare(1, 2, ints, u) for _ in range(40)}
    assert outcomes <= {True, False} and outcomes
