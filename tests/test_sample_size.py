"""Sample-size calculators (dimcalc.sample_size), the per-class table, and ``dimcalc sample-size``.

Every calculator is checked against its paper's formula, recomputed here with plain ``math``
from the theorem statement (the theorem is cited beside each formula), on fixed points and on
random points drawn by ``hypothesis``.  For the bounds with explicit constants the tests also
re-run the proof's union bound at the returned number of samples.  Monotonicity, the
explicit / O(.) flags, JSON round trips and refusal of bad parameters are properties over
every calculator.  Papers: BNS = seed 001 (JMLR), ABM = 002, BGS = 003, FX = 004.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

import dimcalc
from dimcalc import HypothesisClass
from dimcalc.cli import main
from dimcalc.errors import DimcalcError, InvalidParameterError
from dimcalc.generators import random_class
from dimcalc.sample_size import (
    SampleSizeBound,
    abm_semi_private_sample_size,
    advanced_composition_epsilon,
    agnostic_k_learner_lower_bound,
    asspp_sample_size,
    bgs_boosted_sample_size,
    composition_sample_size,
    exponential_mechanism_sample_size,
    generic_k_learner_sample_size,
    generic_learner_mwem_sample_size,
    generic_learner_sample_size,
    ggkm_sample_size,
    line_learner_sample_size,
    multiclass_littlestone_sample_size,
    multiclass_reduction_sample_size,
    parity_k_learner_sample_size,
    parity_pure_lower_bound,
    point_k_learner_sample_size,
    prdim_sample_size,
    public_sample_lower_bound,
    pure_k_learner_lower_bound,
    repdim_lower_bound,
    repdim_sample_size,
    representation_learner_sample_size,
    sample_size_table,
    threshold_k_learner_lower_bound,
    vc_lower_bound,
    vc_sample_size,
)
from profile_examples import examples

DATA = Path(__file__).resolve().parent.parent / "data"
CLASS_FILES = sorted(p for p in DATA.glob("*") if p.suffix in (".json", ".csv"))
ln = math.log


def close(a: float, b: float, rel: float = 1e-9) -> bool:
    return math.isclose(a, b, rel_tol=rel, abs_tol=1e-9)


def first(pair):
    return pair[0]


def second(pair):
    return pair[1]


# =========================================================================== paper formulas (plain math)
def bns_thm8(d, a, b):
    # BNS Thm 8 (Blumer et al.): n >= (64/alpha) (VC(C) ln(64/alpha) + ln(8/beta)).
    return 64 / a * (d * ln(64 / a) + ln(8 / b))


def bns_thm9(d, a, b):
    # BNS Thm 9 (Anthony-Bartlett): n >= (64/alpha^2) (VC(H) ln(6/alpha) + ln(8/beta)).
    return 64 / a**2 * (d * ln(6 / a) + ln(8 / b))


def bns_thm27(L, a, b, e, c=1.0):
    # BNS Thm 27: O((log|C| + log(1/beta)) (1/(alpha eps) + 1/alpha^2)).
    return c * (L + ln(1 / b)) * (1 / (a * e) + 1 / a**2)


def em_pac(L, a, b, e):
    # Proof of BNS Thm 27 with Prop 21.2 (t = alpha/2: |C| exp(-eps t n / 2) <= beta/2) and the
    # multiplicative Chernoff bound P[Bin(n, p) <= np/2] <= exp(-np/8) over C (<= beta/2).
    return max(4 / (a * e) * (L + ln(2 / b)), 8 / a * (L + ln(2 / b)))


def em_agnostic(L, a, b, e):
    # Prop 21.2 with t = alpha/2, and Hoeffding 2|C| exp(-2 n (alpha/4)^2) <= beta/2.
    return max(4 / (a * e) * (L + ln(2 / b)), 8 / a**2 * (L + ln(4 / b)))


def adv_eps0(total, k, delta_prime):
    # BNS Thm 17.2: total = sqrt(2k ln(1/delta')) e0 + 2k e0^2, solved for e0 > 0.
    A = math.sqrt(2 * k * ln(1 / delta_prime))
    return (-A + math.sqrt(A * A + 8 * k * total)) / (4 * k)


def generic_k(d, k, a, b, e, delta, X, L, c=1.0):
    # BNS Thm 31 as the minimum of Cor 34 (Obs 32 + Thm 27, k runs at beta/k) and
    # Lemma 36 (Alg 3: sanitizer of Thm 24 -- pure, so under approximate DP too -- or, approximate DP,
    # Thm 25 with eps/2; k exponential mechanisms with eps0): three branches under approximate DP.
    pure = delta == 0

    def per_run(total):  # BNS Thm 17.2 only where its per-run epsilon_0 < 1, else basic composition
        adv = adv_eps0(total, k, delta / 2)
        return adv if adv < 1 else total / k

    e_each = e / k if pure else per_run(e)
    direct = (L + ln(k / b)) * (1 / (a * e_each) + 1 / a**2)
    e0 = e / (2 * k) if pure else per_run(e / 2)
    sanitizers = [d * ln(X) * ln(1 / a) / (a**3 * e / 2) + ln(1 / b) / (a * e / 2)]  # Thm 24
    if not pure:
        sanitizers.append((L + ln(1 / b)) * math.sqrt(ln(X) * ln(2 / delta)) / (a**2 * e / 2))  # Thm 25
    alg3 = [san + d / (a**3 * e0) * ln(1 / a) + ln(k / b) / (a * e0) + d / a**2 * ln(k / (a * b)) for san in sanitizers]
    return c * min(direct, *alg3)


def ggkm(d, a, b, e, delta, c=1.0):
    # BGS Thm 3.6 (GGKM20 Thm 6.4): O(d^6 log^2(d/(alpha beta eps delta)) / (eps alpha^2)).
    return 0.0 if d == 0 else c * d**6 * ln(d / (a * b * e * delta)) ** 2 / (e * a**2)


def ceil_samples(v):
    return math.ceil(v - 1e-9)


# Each case: params -> (bound, number computed from the paper, explicit constants?).
# ``p`` holds alpha a, beta b, eps e, delta, d, k, L (= ln|C|), X (= |X|), labels, c.
def _cases():
    return {
        "vc_thm8": lambda p: (
            vc_sample_size(vc=p["d"], alpha=p["a"], beta=p["b"]),
            bns_thm8(p["d"], p["a"], p["b"]),
            True,
        ),
        "vc_thm9": lambda p: (
            vc_sample_size(vc=p["d"], alpha=p["a"], beta=p["b"], agnostic=True),
            bns_thm9(p["d"], p["a"], p["b"]),
            True,
        ),
        # ERM within alpha of OPT: Thm 9 at (alpha/2, beta/2) (+ Hoeffding for the best hypothesis).
        "vc_thm9_erm": lambda p: (
            vc_sample_size(vc=p["d"], alpha=p["a"], beta=p["b"], agnostic=True, erm=True),
            bns_thm9(p["d"], p["a"] / 2, p["b"] / 2),
            True,
        ),
        "generic_thm27": lambda p: (
            generic_learner_sample_size(
                log_size=p["L"], alpha=p["a"], beta=p["b"], epsilon=p["e"], order_constant=p["c"]
            ),
            bns_thm27(p["L"], p["a"], p["b"], p["e"], p["c"]),
            False,
        ),
        "em_pac": lambda p: (
            exponential_mechanism_sample_size(log_size=p["L"], alpha=p["a"], beta=p["b"], epsilon=p["e"]),
            em_pac(p["L"], p["a"], p["b"], p["e"]),
            True,
        ),
        "em_agnostic": lambda p: (
            exponential_mechanism_sample_size(
                log_size=p["L"], alpha=p["a"], beta=p["b"], epsilon=p["e"], agnostic=True
            ),
            em_agnostic(p["L"], p["a"], p["b"], p["e"]),
            True,
        ),
        # BNS Obs 32 + Thm 17.1: each of k runs at (alpha, beta/k, eps/k).
        "composition_basic": lambda p: (
            composition_sample_size(
                single=exponential_mechanism_sample_size(
                    log_size=p["L"], alpha=p["a"], beta=p["b"], epsilon=p["e"], agnostic=True
                ),
                k=p["k"],
                epsilon=p["e"],
            ),
            em_agnostic(p["L"], p["a"], p["b"] / p["k"], p["e"] / p["k"]),
            True,
        ),
        "generic_k": lambda p: (
            generic_k_learner_sample_size(
                vc=p["d"],
                k=p["k"],
                alpha=p["a"],
                beta=p["b"],
                epsilon=p["e"],
                delta=p["delta"],
                domain_size=p["X"],
                log_size=p["L"],
                order_constant=p["c"],
            ),
            generic_k(p["d"], p["k"], p["a"], p["b"], p["e"], p["delta"], p["X"], p["L"], p["c"]),
            False,
        ),
        "generic_k_pure": lambda p: (
            generic_k_learner_sample_size(
                vc=p["d"], k=p["k"], alpha=p["a"], beta=p["b"], epsilon=p["e"], domain_size=p["X"], log_size=p["L"]
            ),
            generic_k(p["d"], p["k"], p["a"], p["b"], p["e"], 0, p["X"], p["L"]),
            False,
        ),
        # BNS Thm 40: O((1/(alpha eps)) log(1/(alpha beta delta))).
        "point_k": lambda p: (
            point_k_learner_sample_size(
                domain_size=p["X"],
                k=p["k"],
                alpha=p["a"],
                beta=p["b"],
                epsilon=p["e"],
                delta=p["delta"],
                order_constant=p["c"],
            ),
            p["c"] / (p["a"] * p["e"]) * ln(1 / (p["a"] * p["b"] * p["delta"])),
            False,
        ),
        # BNS Thm 39: O(d log(1/beta) + (1/eps) log(1/(beta delta))), alpha = 0.
        "parity_k": lambda p: (
            parity_k_learner_sample_size(
                d=max(1, p["d"]), k=p["k"], beta=p["b"], epsilon=p["e"], delta=p["delta"], order_constant=p["c"]
            ),
            p["c"] * (max(1, p["d"]) * ln(1 / p["b"]) + ln(1 / (p["b"] * p["delta"])) / p["e"]),
            False,
        ),
        # Alg 4 in the proof of BNS Thm 39: O(1/eps log(1/(beta delta))) blocks of O(d) examples.
        "parity_k_alg": lambda p: (
            parity_k_learner_sample_size(
                d=max(1, p["d"]), k=p["k"], beta=p["b"], epsilon=p["e"], delta=p["delta"], variant="algorithm"
            ),
            max(1, p["d"]) / p["e"] * ln(1 / (p["b"] * p["delta"])),
            False,
        ),
        # ABM Thm 3.1: n_priv = O((d log(1/alpha) + log(1/beta)) max(1/alpha^2, 1/(eps alpha))).
        "abm_private": lambda p: (
            first(
                abm_semi_private_sample_size(
                    vc=p["d"], alpha=p["a"], beta=p["b"], epsilon=p["e"], order_constant=p["c"]
                )
            ),
            p["c"] * (p["d"] * ln(1 / p["a"]) + ln(1 / p["b"])) * max(1 / p["a"] ** 2, 1 / (p["e"] * p["a"])),
            False,
        ),
        # ABM Thm 3.1: n_pub = O((d log(1/alpha) + log(1/beta)) / alpha).
        "abm_public": lambda p: (
            second(abm_semi_private_sample_size(vc=p["d"], alpha=p["a"], beta=p["b"], epsilon=p["e"])),
            (p["d"] * ln(1 / p["a"]) + ln(1 / p["b"])) / p["a"],
            False,
        ),
        # ABM Alg 1 / Lemma 3.3 on a finite class: |C|^2 (1 - alpha/4)^n <= beta/2, hence (4/alpha)(2 ln|C| + ln(2/beta)).
        "asspp_public": lambda p: (
            second(asspp_sample_size(log_size=p["L"], alpha=p["a"], beta=p["b"], epsilon=p["e"])),
            4 / p["a"] * (2 * p["L"] + ln(2 / p["b"])),
            True,
        ),
        # ABM Thm 3.1: exponential mechanism over the cover at (3 alpha/4, beta/2).
        "asspp_private": lambda p: (
            first(asspp_sample_size(log_size=p["L"], alpha=p["a"], beta=p["b"], epsilon=p["e"])),
            em_agnostic(p["L"], 3 * p["a"] / 4, p["b"] / 2, p["e"]),
            True,
        ),
        # ABM Thm 4.1 proof (Lemma 4.4, alpha <= 1/100): 100 n_pub alpha > 1/16, i.e. n_pub > 1/(1600 alpha).
        "public_lower": lambda p: (
            public_sample_lower_bound(alpha=min(p["a"], 0.0099)),
            1 / (1600 * min(p["a"], 0.0099)),
            True,
        ),
        "ggkm": lambda p: (
            ggkm_sample_size(
                littlestone=p["d"],
                alpha=p["a"],
                beta=p["b"],
                epsilon=min(1, p["e"]),
                delta=p["delta"],
                order_constant=p["c"],
            ),
            ggkm(p["d"], p["a"], p["b"], min(1, p["e"]), p["delta"], p["c"]),
            False,
        ),
        # BGS Cor 3.3 with Thm 3.6: sum over the b = ceil(log2(k+1)) bits of SC(d_i, alpha/b, beta/b).
        "bgs_cor33": lambda p: (
            multiclass_littlestone_sample_size(
                alpha=p["a"],
                beta=p["b"],
                epsilon=min(1, p["e"]),
                delta=p["delta"],
                num_labels=4,
                restriction_littlestone=[p["d"], p["d"] + 1],
            ),
            sum(ggkm(d, p["a"] / 2, p["b"] / 2, min(1, p["e"]), p["delta"]) for d in (p["d"], p["d"] + 1)),
            False,
        ),
        # BGS Cor 3.5 (Thm 3.4: d_i <= 6 d ln(k+1)): b SC(6 d ln(k+1), alpha/b, beta/b).
        "bgs_cor35": lambda p: (
            multiclass_littlestone_sample_size(
                alpha=p["a"],
                beta=p["b"],
                epsilon=min(1, p["e"]),
                delta=p["delta"],
                num_labels=p["labels"],
                multiclass_littlestone=p["d"],
            ),
            math.ceil(math.log2(p["labels"]))
            * ggkm(
                6 * p["d"] * ln(p["labels"]),
                p["a"] / math.ceil(math.log2(p["labels"])),
                p["b"] / math.ceil(math.log2(p["labels"])),
                min(1, p["e"]),
                p["delta"],
            ),
            False,
        ),
        # BGS Thm 3.7: O(d^6 log^8(k+1) log^4(d log^3(k+1)/(eps delta alpha beta)) / (eps alpha)), eps <= 1/4.
        "bgs_thm37": lambda p: (
            bgs_boosted_sample_size(
                multiclass_littlestone=p["d"],
                num_labels=p["labels"],
                alpha=p["a"],
                beta=p["b"],
                epsilon=min(0.25, p["e"]),
                delta=p["delta"],
            ),
            0.0
            if p["d"] == 0
            else p["d"] ** 6
            * math.log2(p["labels"]) ** 8
            * ln(p["d"] * math.log2(p["labels"]) ** 3 / (min(0.25, p["e"]) * p["delta"] * p["a"] * p["b"])) ** 4
            / (min(0.25, p["e"]) * p["a"]),
            False,
        ),
        # BGS Lemma 8.3: O((RepDim + ln(1/beta)) / (alpha eps)).
        "repdim": lambda p: (
            repdim_sample_size(repdim=p["L"], alpha=p["a"], beta=p["b"], epsilon=p["e"], order_constant=p["c"]),
            p["c"] * (p["L"] + ln(1 / p["b"])) / (p["a"] * p["e"]),
            False,
        ),
        # BGS Lemma 8.3 with constants: t = alpha/6, beta' = (beta - rep_beta)/3.
        "representation": lambda p: (
            representation_learner_sample_size(
                size=p["L"], alpha=p["a"], beta=p["b"], epsilon=p["e"], rep_beta=p["b"] / 4
            ),
            max(
                3 / (p["a"] / 6) * ln(4 / p["b"]),
                2 / (p["a"] / 6 * p["e"]) * (p["L"] + ln(4 / p["b"])),
                4 / (3 * p["a"] / 6) * (p["L"] + ln(4 / p["b"])),
            ),
            True,
        ),
        # FX Thm 2.5 (upper), FX's (alpha, eps, delta) = dimcalc's (epsilon, alpha, beta).
        "prdim": lambda p: (
            prdim_sample_size(prdim=p["L"], alpha=min(p["a"], 0.25), beta=min(p["b"], 0.25), epsilon=p["e"]),
            1
            / (min(p["a"], 0.25) * p["e"])
            * (
                ln(1 / min(p["a"], 0.25)) * (p["L"] + ln(ln(1 / (min(p["a"], 0.25) * min(p["b"], 0.25)))))
                + ln(1 / min(p["b"], 0.25))
            ),
            False,
        ),
        "prdim_agnostic": lambda p: (
            prdim_sample_size(
                prdim=p["L"], alpha=min(p["a"], 0.25), beta=min(p["b"], 0.25), epsilon=p["e"], agnostic=True
            ),
            (1 / (min(p["a"], 0.25) * p["e"]) + 1 / min(p["a"], 0.25) ** 2)
            * (
                ln(1 / min(p["a"], 0.25)) * (p["L"] + ln(ln(1 / (min(p["a"], 0.25) * min(p["b"], 0.25)))))
                + ln(1 / min(p["b"], 0.25))
            ),
            False,
        ),
        # FX Thm 6.1: O(1/(alpha eps) log(1/beta) log(1/delta)) for alpha, beta, eps, delta < 1/2.
        "line": lambda p: (
            line_learner_sample_size(
                alpha=min(p["a"], 0.49), beta=min(p["b"], 0.49), epsilon=min(p["e"], 0.49), delta=min(p["delta"], 0.49)
            ),
            ln(1 / min(p["b"], 0.49)) * ln(1 / min(p["delta"], 0.49)) / (min(p["a"], 0.49) * min(p["e"], 0.49)),
            False,
        ),
        # BNS §2.2 (after Cor 13): Omega(VC/alpha) and Omega(VC/alpha^2).
        "vc_lower": lambda p: (
            vc_lower_bound(vc=p["d"], alpha=p["a"], order_constant=p["c"]),
            p["c"] * p["d"] / p["a"],
            False,
        ),
        "vc_lower_agnostic": lambda p: (
            vc_lower_bound(vc=p["d"], alpha=p["a"], agnostic=True),
            p["d"] / p["a"] ** 2,
            False,
        ),
        # BNS Thm 52: Omega(k/eps).  Thm 55: Omega(k d/eps).
        "pure_k_lower": lambda p: (pure_k_learner_lower_bound(k=p["k"], epsilon=p["e"]), p["k"] / p["e"], False),
        "parity_pure_lower": lambda p: (
            parity_pure_lower_bound(d=max(1, p["d"]), k=p["k"], epsilon=p["e"]),
            p["k"] * max(1, p["d"]) / p["e"],
            False,
        ),
        # BNS Cor 46: min{|X|, Omega~(k^(1/3)/alpha)} (alpha <= 1/3), Cor 50: min{|X|, Omega~(sqrt k)}, for
        # empirical learners; Thm 28 (epsilon <= 1) moves them to PAC learners at 1/9 of the size.
        "threshold_k_lower": lambda p: (
            threshold_k_learner_lower_bound(k=p["k"], alpha=min(p["a"], 1 / 3), domain_size=p["X"]),
            min(p["X"], p["k"] ** (1 / 3) / min(p["a"], 1 / 3)) / 9,
            False,
        ),
        "agnostic_k_lower": lambda p: (
            agnostic_k_learner_lower_bound(k=p["k"], domain_size=p["X"]),
            min(p["X"], math.sqrt(p["k"])) / 9,
            False,
        ),
        # BGS Lemma 8.5 (alpha <= 1/4, beta = 1/2): Omega((RepDim - ln(k+1)) / (alpha eps)).
        "repdim_lower": lambda p: (
            repdim_lower_bound(repdim=p["L"], alpha=min(p["a"], 0.25), epsilon=p["e"], num_labels=p["labels"]),
            max(0.0, p["L"] - ln(p["labels"])) / (min(p["a"], 0.25) * p["e"]),
            False,
        ),
    }


CASES = _cases()
BASE = dict(a=0.1, b=0.05, e=1.0, delta=1e-6, d=3, k=10, L=ln(20), X=64, labels=5, c=1.0)


@pytest.mark.parametrize("name", sorted(CASES))
def test_calculator_matches_paper_formula_at_base_point(name):
    bound, expected, explicit = CASES[name](BASE)
    assert close(bound.value, expected), (name, bound.value, expected)
    assert bound.samples == ceil_samples(expected)
    assert bound.constants_explicit is explicit
    assert bound.order_of_growth_only is (not explicit)
    assert (bound.order_constant is None) is explicit


params = st.fixed_dictionaries(
    {
        "a": st.floats(1e-3, 0.95),
        "b": st.floats(1e-4, 0.95),
        "e": st.floats(0.01, 10.0),
        "delta": st.floats(1e-12, 0.5),
        "d": st.integers(0, 12),
        "k": st.integers(1, 5000),
        "L": st.floats(0.0, 40.0),
        "X": st.integers(2, 10**6),
        "labels": st.integers(2, 300),
        "c": st.floats(0.01, 100.0),
    }
)


@given(name=st.sampled_from(sorted(CASES)), p=params)
def test_calculator_matches_paper_formula_everywhere(name, p):
    bound, expected, explicit = CASES[name](p)
    assert close(bound.value, expected, rel=1e-8), (name, p, bound.value, expected)
    assert bound.constants_explicit is explicit and bound.order_of_growth_only is (not explicit)
    samples = bound.samples
    assert isinstance(samples, int) and samples >= 0
    if expected > 0:
        assert -1e-6 <= samples - bound.value < 1


# =========================================================================== the proofs' union bounds
@given(L=st.floats(0.0, 30.0), a=st.floats(1e-3, 0.9), b=st.floats(1e-4, 0.9), e=st.floats(0.01, 10.0))
def test_exponential_mechanism_size_makes_the_proofs_failure_at_most_beta(L, a, b, e):
    """At ``samples`` the two failure events of the proof of BNS Thm 27 sum to at most beta."""
    C = math.exp(L)
    n = exponential_mechanism_sample_size(log_size=L, alpha=a, beta=b, epsilon=e).samples
    # Prop 21.2 with t = alpha/2, plus Chernoff P[Bin(n,p) <= np/2] <= exp(-np/8) with p > alpha, over C.
    assert C * math.exp(-e * (a / 2) * n / 2) + C * math.exp(-n * a / 8) <= b * (1 + 1e-9)
    n = exponential_mechanism_sample_size(log_size=L, alpha=a, beta=b, epsilon=e, agnostic=True).samples
    # Prop 21.2, plus Hoeffding 2 exp(-2 n (alpha/4)^2) over C.
    assert C * math.exp(-e * (a / 2) * n / 2) + 2 * C * math.exp(-2 * n * (a / 4) ** 2) <= b * (1 + 1e-9)


@given(L=st.floats(0.0, 30.0), a=st.floats(1e-3, 0.9), b=st.floats(1e-4, 0.9), e=st.floats(0.01, 10.0))
def test_asspp_public_size_covers_with_probability_beta_over_2(L, a, b, e):
    """ABM Lemma 3.3 for a finite class: |C|^2 (1 - alpha/4)^n_pub <= beta/2."""
    _, pub = asspp_sample_size(log_size=L, alpha=a, beta=b, epsilon=e)
    assert 2 * L + pub.samples * math.log1p(-a / 4) <= ln(b / 2) + 1e-9


@given(
    S=st.floats(0.0, 20.0),
    a=st.floats(1e-3, 0.9),
    b=st.floats(1e-3, 0.9),
    e=st.floats(0.01, 10.0),
    frac=st.floats(0.0, 0.99),
)
def test_representation_learner_size_union_bound(S, a, b, e, frac):
    """The four failure events of BGS Lemma 8.3's learner (see the calculator) sum to at most beta."""
    rep_beta = frac * b
    n = representation_learner_sample_size(size=S, alpha=a, beta=b, epsilon=e, rep_beta=rep_beta).samples
    t, G = a / 6, math.exp(S)
    fail = rep_beta + math.exp(-t * n / 3) + G * math.exp(-e * t * n / 2) + G * math.exp(-3 * t * n / 4)
    assert fail <= b * (1 + 1e-9)


def test_advanced_composition_epsilon_solves_thm_17_2():
    for total, k, dp in ((1.0, 4, 1e-6), (0.5, 1000, 1e-9), (3.0, 2, 0.1)):
        e0 = float(advanced_composition_epsilon(total, k, dp))
        assert close(math.sqrt(2 * k * ln(1 / dp)) * e0 + 2 * k * e0**2, total)
        assert close(e0, adv_eps0(total, k, dp))


def test_composition_advanced_matches_thm_17_2():
    one = exponential_mechanism_sample_size(log_size=ln(16), alpha=0.1, beta=0.1, epsilon=1.0)
    b = composition_sample_size(single=one, k=100, epsilon=1.0, delta=1e-6, advanced=True)
    # Obs 32 + Thm 17.2 with delta' = delta/2: each run at (alpha, beta/k, e0), e0 from the quadratic.
    e0 = adv_eps0(1.0, 100, 0.5e-6)
    assert close(b.value, em_pac(ln(16), 0.1, 0.001, e0))
    assert b.setting["concepts"] == "k" and b.setting["privacy"] == "approximate" and b.constants_explicit


def test_multiclass_reduction_is_bgs_thm_3_1_sum_over_bits():
    bits = [exponential_mechanism_sample_size(log_size=ln(n), alpha=0.1, beta=0.1, epsilon=1.0) for n in (3, 5, 9)]
    r = multiclass_reduction_sample_size(binary_bounds=bits, alpha=0.2, beta=0.1)
    # BGS Thm 3.1: sum_i SC^i_{alpha/b, beta/b}; each part is a whole number of examples.
    parts = [math.ceil(em_pac(ln(n), 0.2 / 3, 0.1 / 3, 1.0)) for n in (3, 5, 9)]
    assert r.samples == sum(parts)
    eq = multiclass_reduction_sample_size(binary_bounds=bits, alpha=0.2, beta=0.1, equal_split=True)
    assert eq.samples == 3 * max(parts)
    assert r.constants_explicit and eq.constants_explicit and r.kind == "upper"


@settings(max_examples=examples(50))  # each example builds up to 6 sympy bounds and their maximum (~40 ms)
@given(values=st.lists(st.floats(1.0, 1e6), min_size=1, max_size=6))
def test_equal_split_gives_every_part_its_bits_sample_size(values):
    """b * SC split into b nearly equal parts (as BinaryReductionLearner.fit does) leaves no part short."""
    import numpy as np

    bounds = [
        SampleSizeBound(
            name=f"s{i}",
            expression=sp.Float(v) / sp.Symbol("alpha", positive=True) * 0.1,
            values={"alpha": 0.1},
            source="test",
            setting={"privacy": "pure"},
            constants_explicit=True,
            kind="upper",
            order_constant=None,
        )
        for i, v in enumerate(values)
    ]
    b = len(values)
    n = multiclass_reduction_sample_size(binary_bounds=bounds, alpha=0.1, beta=0.1, equal_split=True).samples
    need = [v * b for v in values]  # alpha -> alpha/b multiplies each bound by b
    sizes = [len(part) for part in np.array_split(np.arange(n), b)]
    assert all(size >= max(need) - 1e-6 for size in sizes), (n, sizes, need)


# =========================================================================== monotonicity
def _value(name, p):
    return CASES[name](p)[0].value


HARDER = {  # parameter -> how to make the problem harder (every bound must not decrease)
    "a": lambda v, u: v * u,
    "b": lambda v, u: v * u,
    "e": lambda v, u: v * u,
    "delta": lambda v, u: v * u,
    "d": lambda v, u: v + 1 + int(5 * u),
    "k": lambda v, u: v + 1 + int(100 * u),
    "L": lambda v, u: v + 10 * u,
    "X": lambda v, u: v + 1 + int(1000 * u),
    "labels": lambda v, u: v + 1 + int(50 * u),
}
NOT_MONOTONE = {
    # BGS Lemma 8.5 loses ln(k+1): the lower bound (RepDim - ln(k+1))/(alpha eps) weakens with more labels.
    ("repdim_lower", "labels"),
}
UNUSED = {  # parameters a case's formula does not depend on (checked to leave the value unchanged)
    "public_lower": {"b", "e", "delta", "d", "k", "L", "X", "labels"},
}


@given(name=st.sampled_from(sorted(CASES)), p=params, u=st.floats(0.05, 0.95), which=st.sampled_from(sorted(HARDER)))
def test_bounds_grow_as_the_problem_gets_harder(name, p, u, which):
    """More samples as alpha, beta, epsilon, delta decrease and as d, k, ln|C|, |X|, labels grow."""
    q = dict(p)
    q[which] = HARDER[which](p[which], u)
    if (name, which) in NOT_MONOTONE:
        return
    base, harder = _value(name, p), _value(name, q)
    assert harder >= base * (1 - 1e-12) - 1e-9, (name, which, p[which], q[which], base, harder)
    if which in UNUSED.get(name, ()):
        assert harder == base


# =========================================================================== flags, JSON, bad input
EXPLICIT = {
    "vc_generalization",
    "vc_generalization_agnostic",
    "vc_erm_agnostic",
    "exponential_mechanism",
    "exponential_mechanism_agnostic",
    "asspp_private_explicit",
    "asspp_public_explicit",
    "public_sample_lower_bound",
    "representation_learner",
    "composition[exponential_mechanism_agnostic]",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_explicit_exactly_for_bns_thms_8_9_and_the_worked_out_proofs(name):
    bound = CASES[name](BASE)[0]
    assert bound.constants_explicit is (bound.name in EXPLICIT), bound.name
    assert bound.order_of_growth_only is (bound.name not in EXPLICIT)
    if bound.order_of_growth_only:
        assert "c" in {s.name for s in bound.expression.free_symbols} or bound.value == 0
        # The number moves with the O(.) constant c: it is an order of growth, not a guarantee.
        if bound.expression.has(sp.Min):  # min{|X|, c f}: c scales the second term only
            assert bound.with_values(c=3.0).value >= bound.value
        else:
            assert close(bound.with_values(c=3.0).value, 3 * bound.value)
        assert bound.with_values(c=3.0).order_constant == 3.0
    else:
        assert "c" not in {s.name for s in bound.expression.free_symbols}


JSON_KEYS = {
    "name",
    "kind",
    "expression",
    "latex",
    "values",
    "value",
    "samples",
    "source",
    "setting",
    "constants_explicit",
    "order_of_growth_only",
    "order_constant",
    "notes",
    "conditions",
}


@given(name=st.sampled_from(sorted(CASES)), p=params)
def test_to_json_round_trips(name, p):
    bound = CASES[name](p)[0]
    data = bound.to_json()
    assert set(data) == JSON_KEYS
    text = json.dumps(data, allow_nan=False)
    assert json.loads(text) == data
    assert data["samples"] == bound.samples and data["order_of_growth_only"] == bound.order_of_growth_only
    assert set(data["setting"]) == {"task", "proper", "privacy", "concepts", "data"}
    # The expression string parses back and, with the recorded values, gives the recorded value.
    expr = sp.sympify(data["expression"], locals={name: sp.Symbol(name) for name in data["values"]})
    subs = {s: data["values"][s.name] for s in expr.free_symbols}
    assert close(float(sp.N(expr.xreplace({s: sp.Float(v, 30) for s, v in subs.items()}), 30)), data["value"], rel=1e-8)


def test_samples_never_below_the_bound_for_large_values():
    # 1e10 + 0.5 examples are needed: the number asked for must be at least that.
    b = pure_k_learner_lower_bound(k=10**10, epsilon=1.0, order_constant=1.00000000005)
    assert b.value > 1e10 + 0.4
    assert b.samples >= b.value and b.samples == 10**10 + 1
    # Float noise just above an integer does not add an example.
    assert vc_lower_bound(vc=3, alpha=0.3).samples == 10


BAD = [  # (calculator, keyword arguments, the parameter the message must name)
    (vc_sample_size, dict(vc=-1, alpha=0.1, beta=0.1), "vc"),
    (vc_sample_size, dict(vc=1.5, alpha=0.1, beta=0.1), "vc"),
    (vc_sample_size, dict(vc=1, alpha=0.0, beta=0.1), "alpha"),
    (vc_sample_size, dict(vc=1, alpha=1.0, beta=0.1), "alpha"),
    (vc_sample_size, dict(vc=1, alpha=float("nan"), beta=0.1), "alpha"),
    (vc_sample_size, dict(vc=1, alpha="a tenth", beta=0.1), "alpha"),  # text that is a number is read exactly
    (vc_sample_size, dict(vc=1, alpha=0.1, beta=1.5), "beta"),
    (generic_learner_sample_size, dict(log_size=-1.0, alpha=0.1, beta=0.1, epsilon=1.0), "log_size"),
    (generic_learner_sample_size, dict(log_size=1.0, alpha=0.1, beta=0.1, epsilon=0.0), "epsilon"),
    (generic_learner_sample_size, dict(log_size=1.0, alpha=0.1, beta=0.1, epsilon=float("inf")), "epsilon"),
    (
        generic_learner_sample_size,
        dict(log_size=1.0, alpha=0.1, beta=0.1, epsilon=1.0, order_constant=0),
        "order_constant",
    ),
    (exponential_mechanism_sample_size, dict(log_size=1.0, alpha=0.1, beta=0.1, epsilon=-1.0), "epsilon"),
    (exponential_mechanism_sample_size, dict(log_size=float("nan"), alpha=0.1, beta=0.1, epsilon=1.0), "log_size"),
    (composition_sample_size, dict(single="x", k=2, epsilon=1.0), "single"),
    (composition_sample_size, dict(single=vc_sample_size(vc=1, alpha=0.1, beta=0.1), k=2, epsilon=1.0), "single"),
    (
        composition_sample_size,
        dict(
            single=exponential_mechanism_sample_size(log_size=1.0, alpha=0.1, beta=0.1, epsilon=1.0), k=0, epsilon=1.0
        ),
        "k",
    ),
    (
        composition_sample_size,
        dict(
            single=exponential_mechanism_sample_size(log_size=1.0, alpha=0.1, beta=0.1, epsilon=1.0),
            k=2,
            epsilon=1.0,
            advanced=True,
        ),
        "delta",
    ),
    (
        composition_sample_size,
        dict(
            single=exponential_mechanism_sample_size(log_size=1.0, alpha=0.1, beta=0.1, epsilon=1.0),
            k=2,
            epsilon=1.0,
            delta=1.0,
        ),
        "delta",
    ),
    (generic_k_learner_sample_size, dict(vc=1, k=2, alpha=0.1, beta=0.1, epsilon=1.0), "domain_size"),
    (generic_k_learner_sample_size, dict(vc=1, k=2, alpha=0.1, beta=0.1, epsilon=1.0, domain_size=0), "domain_size"),
    (
        generic_k_learner_sample_size,
        dict(vc=1, k=2, alpha=0.1, beta=0.1, epsilon=1.0, delta=-0.1, domain_size=4),
        "delta",
    ),
    (point_k_learner_sample_size, dict(k=2, alpha=0.1, beta=0.1, epsilon=1.0, delta=0.0), "delta"),
    (parity_k_learner_sample_size, dict(d=0, k=2, beta=0.1, epsilon=1.0, delta=1e-6), "d"),
    (parity_k_learner_sample_size, dict(d=2, k=2, beta=0.1, epsilon=1.0, delta=1e-6, variant="x"), "variant"),
    (abm_semi_private_sample_size, dict(vc=-2, alpha=0.1, beta=0.1, epsilon=1.0), "vc"),
    (asspp_sample_size, dict(log_size=1.0, alpha=0.1, beta=0.0, epsilon=1.0), "beta"),
    (public_sample_lower_bound, dict(alpha=2.0), "alpha"),
    (multiclass_reduction_sample_size, dict(binary_bounds=[], alpha=0.1, beta=0.1), "binary_bounds"),
    (ggkm_sample_size, dict(littlestone=-1, alpha=0.1, beta=0.1, epsilon=1.0, delta=1e-6), "littlestone"),
    (ggkm_sample_size, dict(littlestone=1, alpha=0.1, beta=0.1, epsilon=1.0, delta=0.0), "delta"),
    (
        multiclass_littlestone_sample_size,
        dict(alpha=0.1, beta=0.1, epsilon=1.0, delta=1e-6, num_labels=4),
        "restriction_littlestone",
    ),
    (
        multiclass_littlestone_sample_size,
        dict(alpha=0.1, beta=0.1, epsilon=1.0, delta=1e-6, num_labels=4, restriction_littlestone=[1]),
        "restriction_littlestone",
    ),
    (
        multiclass_littlestone_sample_size,
        dict(alpha=0.1, beta=0.1, epsilon=1.0, delta=1e-6, num_labels=1, multiclass_littlestone=1),
        "num_labels",
    ),
    (
        bgs_boosted_sample_size,
        dict(multiclass_littlestone=1, num_labels=4, alpha=0.1, beta=0.1, epsilon=0.5, delta=1e-6),
        "epsilon",
    ),
    (repdim_sample_size, dict(repdim=-1.0, alpha=0.1, beta=0.1, epsilon=1.0), "repdim"),
    (representation_learner_sample_size, dict(size=1.0, alpha=0.3, beta=0.2, epsilon=1.0, rep_alpha=0.1), "rep_alpha"),
    (representation_learner_sample_size, dict(size=1.0, alpha=0.3, beta=0.2, epsilon=1.0, rep_beta=0.2), "rep_beta"),
    (prdim_sample_size, dict(prdim=1.0, alpha=0.1, beta=0.1, epsilon=0.0), "epsilon"),
    (vc_lower_bound, dict(vc=-1, alpha=0.1), "vc"),
    (pure_k_learner_lower_bound, dict(k=0, epsilon=1.0), "k"),
    (parity_pure_lower_bound, dict(d=0, k=1, epsilon=1.0), "d"),
    (threshold_k_learner_lower_bound, dict(k=1, alpha=0.1, domain_size=0), "domain_size"),
    (agnostic_k_learner_lower_bound, dict(k=True, domain_size=4), "k"),
    (repdim_lower_bound, dict(repdim=1.0, alpha=0.1, epsilon=1.0, num_labels=1), "num_labels"),
]


@pytest.mark.parametrize("func, kwargs, param", BAD, ids=[f"{f.__name__}-{p}-{i}" for i, (f, _, p) in enumerate(BAD)])
def test_bad_parameters_raise_dimcalc_errors_naming_the_parameter(func, kwargs, param):
    with pytest.raises(InvalidParameterError) as info:
        func(**kwargs)
    assert isinstance(info.value, ValueError) and isinstance(info.value, DimcalcError)
    message = str(info.value)
    assert f"'{param}' parameter of {func.__name__}" in message and "\n" not in message


# =========================================================================== theorems' parameter ranges
def test_ggkm_holds_for_epsilon_at_most_one():
    # BGS Thm 3.6 is stated for eps, delta, alpha, beta in [0, 1].
    with pytest.raises(InvalidParameterError, match="'epsilon' parameter of ggkm_sample_size"):
        ggkm_sample_size(littlestone=2, alpha=0.1, beta=0.1, epsilon=2.0, delta=1e-6)
    with pytest.raises(InvalidParameterError, match="'epsilon' parameter of multiclass_littlestone_sample_size"):
        multiclass_littlestone_sample_size(
            alpha=0.1, beta=0.1, epsilon=2.0, delta=1e-6, num_labels=4, multiclass_littlestone=1
        )


@pytest.mark.parametrize("name", ["alpha", "beta", "epsilon", "delta"])
def test_line_learner_needs_parameters_below_one_half(name):
    # FX Thm 6.1: "for any eps, delta, alpha, beta in (0, 1/2)".
    kwargs = dict(alpha=0.1, beta=0.1, epsilon=0.4, delta=1e-6)
    kwargs[name] = 0.5
    with pytest.raises(InvalidParameterError, match=f"'{name}' parameter of line_learner_sample_size"):
        line_learner_sample_size(**kwargs)


def test_advanced_composition_needs_per_run_epsilon_below_one():
    # BNS Thm 17.2 is stated for per-run 0 < eps < 1 (the 2 k eps^2 term bounds k eps (e^eps - 1)).
    one = exponential_mechanism_sample_size(log_size=ln(16), alpha=0.1, beta=0.1, epsilon=1.0)
    assert adv_eps0(40.0, 2, 0.5e-6) > 1
    with pytest.raises(InvalidParameterError, match="'epsilon' parameter of composition_sample_size"):
        composition_sample_size(single=one, k=2, epsilon=40.0, delta=1e-6, advanced=True)
    assert composition_sample_size(single=one, k=2, epsilon=40.0, delta=1e-6).samples > 0  # basic still applies


# =========================================================================== sample_size_table
def thresholds(n):
    return HypothesisClass(
        [[int(x >= t) for x in range(n)] for t in range(n + 1)],
        name=f"thresholds-{n}",
        metadata={"family": "thresholds", "params": {"n": n}},
    )


def names(table):
    return [r.name for r in table.rows]


def test_table_rows_for_single_k_and_public_settings():
    H = dimcalc.load(DATA / "thresholds-15.json")
    single = sample_size_table(H, alpha=0.1, beta=0.05, epsilon=1.0)
    assert single.exact and len(single) == len(single.rows)
    assert {
        "exponential_mechanism",
        "exponential_mechanism_agnostic",
        "generic_learner",
        "repdim_learner",
        "vc_generalization",
        "vc_generalization_agnostic",
        "vc_erm_agnostic",
        "vc_lower",
        "vc_lower_agnostic",
    } == set(names(single))
    assert all(r.setting["concepts"] == "single" and r.setting["data"] == "private" for r in single)
    assert single.dimensions["vc"]["value"] == 1 and single.dimensions["littlestone"]["value"] == 4
    # The rows use the class's numbers: ln|H| and VC.
    em = single.rows[0]
    assert close(em.value, em_pac(ln(16), 0.1, 0.05, 1.0))
    vc_row = next(r for r in single if r.name == "vc_generalization")
    assert close(vc_row.value, bns_thm8(1, 0.1, 0.05))

    approx = sample_size_table(H, alpha=0.1, beta=0.05, epsilon=1.0, delta=1e-6)
    ggkm_row = next(r for r in approx if r.name == "ggkm_littlestone")
    assert ggkm_row.values["d"] == 4 and close(ggkm_row.value, ggkm(4, 0.1, 0.05, 1.0, 1e-6))

    many = sample_size_table(H, alpha=0.1, beta=0.05, epsilon=1.0, delta=1e-6, concepts=5)
    k_rows = [r for r in many if r.setting["concepts"] == "k"]
    assert {
        "composition[exponential_mechanism_agnostic]",
        "generic_k_learner",
        "agnostic_k_lower",
        "threshold_k_lower",
    } <= {r.name for r in k_rows}
    assert sum(r.name.startswith("composition[") for r in k_rows) == 2  # basic and advanced composition
    assert all(r.values["k"] == 5 for r in k_rows)

    public = sample_size_table(H, alpha=0.1, beta=0.05, epsilon=1.0, public=True)
    pub_rows = [r for r in public if r.setting["data"] == "public+private"]
    assert {"asspp_private_explicit", "asspp_public_explicit", "asspp_private", "asspp_public"} == {
        r.name for r in pub_rows
    }
    # ABM Thms 4.1-4.2 (public examples needed) concern classes of unbounded Littlestone dimension; a finite
    # class needs no public data (BNS Thm 27): never a row, always listed as omitted with that reason,
    # even inside the theorem's parameter range.
    for table in (public, sample_size_table(H, alpha=0.005, beta=0.05, epsilon="1/10", public=True)):
        assert "public_sample_lower_bound" not in names(table)
        assert [o["name"] for o in table.omitted] == ["public_sample_lower_bound"]
        assert "BNS Thm 27" in table.omitted[0]["failed"][0]
    assert public.parameters == {
        "alpha": 0.1,
        "beta": 0.05,
        "epsilon": 1.0,
        "delta": 0.0,
        "concepts": 1,
        "public": True,
    }


def test_table_family_rows_points_parities_and_multiclass():
    points = sample_size_table(
        dimcalc.load(DATA / "point-functions-8.json"), alpha=0.1, beta=0.1, epsilon=1.0, delta=1e-6, concepts=10
    )
    assert "point_k_learner" in names(points)
    parities = dimcalc.load(DATA / "parities-3.json")
    assert "parity_k_learner" in names(
        sample_size_table(parities, alpha=0.1, beta=0.1, epsilon=1.0, delta=1e-6, concepts=4)
    )
    pure = sample_size_table(parities, alpha=0.1, beta=0.1, epsilon=1.0, concepts=4)
    assert {"parity_pure_lower", "pure_k_lower"} <= set(names(pure))
    multi = sample_size_table(dimcalc.load(DATA / "bgs-thm61-k7-d1.json"), alpha=0.1, beta=0.1, epsilon=0.2, delta=1e-6)
    assert {
        "multiclass_reduction",
        "multiclass_littlestone_cor33",
        "multiclass_littlestone_cor35",
        "bgs_boosted",
    } <= set(names(multi))
    assert "vc_generalization" not in names(multi)  # BNS Thms 8-9 are for binary classes
    assert {"graph", "natarajan", "multiclass_littlestone", "littlestone|1", "littlestone|2", "littlestone|3"} == set(
        multi.dimensions
    )


def test_table_binary_lower_bounds_not_printed_for_multiclass_classes():
    """BNS's Omega(d/alpha) (§2.2), Thm 52, Thm 47 / Cor 50 are stated for binary classes: no row for a multiclass one.

    h_A(x) = label(A) on A, 0 elsewhere, for A subset of 3 points: graph dimension 3 (f = 0), Natarajan 1.
    """
    rows = [
        [lab if x in A else 0 for x in range(3)]
        for lab, A in enumerate(itertools.chain.from_iterable(itertools.combinations(range(3), r) for r in range(4)))
    ]
    H = HypothesisClass(rows, num_labels=8)
    table = sample_size_table(H, alpha=0.1, beta=0.1, epsilon=1.0)
    assert table.dimensions["graph"]["value"] == 3 and table.dimensions["natarajan"]["value"] == 1
    assert not [r for r in table if r.name.startswith("vc_lower")]
    for delta in (0, 1e-6):
        many = sample_size_table(H, alpha=0.1, beta=0.1, epsilon=1.0, delta=delta, concepts=3)
        assert not {"pure_k_lower", "agnostic_k_lower", "threshold_k_lower", "vc_lower"} & set(names(many))
    binary = sample_size_table(dimcalc.load(DATA / "thresholds-15.json"), alpha=0.1, beta=0.1, epsilon=1.0, concepts=3)
    assert {"pure_k_lower", "vc_lower"} <= set(names(binary))


def test_thm31_approximate_is_the_minimum_of_three_branches():
    """BNS Thm 31 (approximate DP): min{Cor 34, Lemma 36 with Thm 24's sanitizer, Lemma 36 with Thm 25's}."""
    args = dict(vc=2, k=4, alpha=0.1, beta=0.1, epsilon=1.0, domain_size=10**6, log_size=40.0)
    pure = generic_k_learner_sample_size(**args)
    approx = generic_k_learner_sample_size(**args, delta=1e-9)
    (pure_min,) = pure.expression.atoms(sp.Min)
    (approx_min,) = approx.expression.atoms(sp.Min)
    assert len(pure_min.args) == 2 and len(approx_min.args) == 3
    values = [float(b.subs({x: approx.values[x.name] for x in b.free_symbols})) for b in approx_min.args]
    assert approx.value == pytest.approx(min(values))


def test_generic_learner_with_basic_composition_is_pure():
    """GenericLearner = MWEM (pure) + k exponential mechanisms: with basic composition it is (epsilon, 0)-DP."""
    common = dict(log_size=math.log(17), n_queries=137, domain_size=16, k=3, alpha=0.25, beta=0.1, epsilon=4)
    basic = generic_learner_mwem_sample_size(**common, delta=1e-6, composition="basic")
    assert basic.setting["privacy"] == "pure" and "delta" not in basic.values
    advanced = generic_learner_mwem_sample_size(**common, delta=1e-6, composition="advanced")
    assert "advanced" in advanced.notes[0] and advanced.setting["privacy"] == "approximate"


def test_multi_doc_quotes_the_numbers_the_code_gives():
    """docs/multi.md's GenericLearner paragraph: Thm 31's O(.) with c = 1 and the composition row, at alpha = 0.25."""
    H = dimcalc.generators.thresholds(16)
    table = {r.name: r for r in sample_size_table(H, alpha=0.25, beta=0.1, epsilon=4, concepts=3)}
    thm31 = table["generic_k_learner"].samples
    composition = table["composition[exponential_mechanism_agnostic]"].samples
    mwem = table["generic_learner_mwem"].samples
    assert (thm31, composition, mwem) == (119, 976, 990348)
    text = " ".join((Path(__file__).parents[1] / "docs" / "multi.md").read_text(encoding="utf-8").split())
    assert f"reads {thm31} and" in text and f"{composition:,}".replace(",", " ") in text


def test_table_theorem_ranges_of_epsilon():
    H = dimcalc.load(DATA / "bgs-thm61-k7-d1.json")
    table = sample_size_table(H, alpha=0.1, beta=0.1, epsilon=40.0, delta=1e-6, concepts=2)
    by_name = {r.name: r for r in table}
    # BGS Thms 3.6 / 3.7 hold for eps <= 1 / eps <= 1/4; a (1, delta)-DP learner is (40, delta)-DP.
    for name, cap in (
        ("multiclass_littlestone_cor33", 1.0),
        ("multiclass_littlestone_cor35", 1.0),
        ("bgs_boosted", 0.25),
    ):
        assert by_name[name].values["epsilon"] == cap and any("epsilon" in n for n in by_name[name].notes)
    # Advanced composition at eps = 40, k = 2 would need a per-run epsilon > 1: only basic composition.
    assert sum(r.name.startswith("composition[") for r in table) == 1
    binary = sample_size_table(thresholds(6), alpha=0.1, beta=0.1, epsilon=3.0, delta=1e-6)
    assert next(r for r in binary if r.name == "ggkm_littlestone").values["epsilon"] == 1.0


def _applies(lower, upper) -> bool:
    """A lower bound constrains an upper bound's learner when the learner solves the lower bound's problem."""
    ls, us = lower.setting, upper.setting
    if ls["data"] != us["data"] or ("public" in lower.name) != ("public" in upper.name):
        return False  # ABM's public-sample lower bound is about n_pub only
    if ls["task"] == "agnostic" and us["task"] != "agnostic":  # an agnostic learner is also a PAC learner
        return False
    if ls["concepts"] == "k" and us["concepts"] != "k":
        return False
    if ls["concepts"] == "k" and lower.values.get("k") != upper.values.get("k"):
        return False
    privacy_order = {"none": 0, "approximate": 1, "pure": 2}  # a pure learner is approximate, ...
    return privacy_order[us["privacy"]] >= privacy_order[ls["privacy"]]


@pytest.mark.parametrize(
    "path",
    [
        "thresholds-15.json",
        "point-functions-8.json",
        "parities-3.json",
        "intervals-10.json",
        "random-multiclass.json",
        "bgs-thm61-k5-d2.json",
    ],
)
@pytest.mark.parametrize("delta, concepts, public", [(0.0, 1, False), (1e-6, 8, True), (0.0, 64, True)])
def test_table_upper_bounds_at_least_matching_lower_bounds(path, delta, concepts, public):
    table = sample_size_table(
        dimcalc.load(DATA / path), alpha=0.05, beta=0.1, epsilon=0.5, delta=delta, concepts=concepts, public=public
    )
    uppers = [r for r in table if r.kind == "upper" and r.constants_explicit]
    lowers = [r for r in table if r.kind == "lower"]
    binary = table.class_summary["labels"] == 2
    assert uppers and (lowers or not binary)  # the BNS lower bounds are stated for binary classes
    pairs = [(lo, up) for lo in lowers for up in uppers if _applies(lo, up)]
    assert pairs or not binary
    for lo, up in pairs:
        assert up.value >= lo.value, (lo.name, lo.value, up.name, up.value)


def test_table_with_a_tiny_time_limit_is_inexact_and_sound():
    H = random_class(3000, 120, random_state=7)
    table = sample_size_table(H, alpha=0.1, beta=0.1, epsilon=1.0, delta=1e-6, concepts=3, public=True, time_limit=0.2)
    assert table.exact is False and table.to_json()["exact"] is False
    vc, ld = table.dimensions["vc"], table.dimensions["littlestone"]
    assert not vc["exact"] and vc["value"] is None and vc["lower"] <= vc["upper"]
    # Every true VC dimension in [lower, upper] gives at most the upper-bound rows' numbers ...
    for r in table:
        if "d" not in r.values:
            continue
        dim = ld if r.name == "ggkm_littlestone" else vc
        assert r.values["d"] == (dim["upper"] if r.kind == "upper" else dim["lower"]), r.name
        assert any("not exact (time limit)" in n for n in r.notes), r.name
    # ... and at least the lower-bound rows' (monotone in d).
    vc_rows = {r.name: r for r in table if r.name.startswith("vc_")}
    for true_d in range(vc["lower"], vc["upper"] + 1):
        assert vc_sample_size(vc=true_d, alpha=0.1, beta=0.1).value <= vc_rows["vc_generalization"].value
        assert vc_lower_bound(vc=true_d, alpha=0.1).value >= vc_rows["vc_lower"].value
    json.dumps(table.to_json(), allow_nan=False)


def test_table_refuses_bad_input():
    H = thresholds(4)
    for kwargs, param in (
        (dict(alpha=0.0), "alpha"),
        (dict(beta=1.0), "beta"),
        (dict(epsilon=-1.0), "epsilon"),
        (dict(delta=1.0), "delta"),
        (dict(concepts=0), "concepts"),
        (dict(time_limit=-1.0), "time_limit"),
    ):
        args = dict(alpha=0.1, beta=0.1, epsilon=1.0) | kwargs
        with pytest.raises(InvalidParameterError, match=f"'{param}' parameter"):
            sample_size_table(H, **args)
    with pytest.raises(InvalidParameterError, match="'H' parameter"):
        sample_size_table([[0, 1]], alpha=0.1, beta=0.1, epsilon=1.0)


# =========================================================================== CLI
TABLE_KEYS = {"class", "parameters", "dimensions", "exact", "rows", "omitted"}


#: Shipped classes whose JSON report make test-fast checks too (binary, a CSV file, multiclass, a BGS class);
#: the other fifteen are marked slow (seconds each: the sample-size calculators are sympy), make test runs them.
FAST_CLASS_FILES = {"thresholds-8.json", "thresholds-6.csv", "random-multiclass.json", "bgs-thm61-k7-d1.json"}


@pytest.mark.parametrize(
    "path",
    [pytest.param(p, marks=() if p.name in FAST_CLASS_FILES else pytest.mark.slow) for p in CLASS_FILES],
    ids=[p.name for p in CLASS_FILES],
)
def test_cli_json_on_every_shipped_class(path, capsys):
    status = main(
        [
            "sample-size",
            str(path),
            "--alpha",
            "0.1",
            "--beta",
            "0.05",
            "--epsilon",
            "1",
            "--delta",
            "1e-6",
            "--concepts",
            "4",
            "--public",
            "--json",
            "--time-limit",
            "60",
        ]
    )
    report = json.loads(capsys.readouterr().out)
    assert status == 0
    assert set(report) == TABLE_KEYS and report["exact"] is True
    assert set(report["class"]) == {"name", "hypotheses", "distinct_hypotheses", "domain_size", "labels"}
    assert report["parameters"] == {
        "alpha": 0.1,
        "beta": 0.05,
        "epsilon": 1.0,
        "delta": 1e-6,
        "concepts": 4,
        "public": True,
    }
    assert report["rows"]
    for row in report["rows"]:
        assert set(row) == JSON_KEYS
        assert row["kind"] in ("upper", "lower") and row["source"]
        assert row["order_of_growth_only"] is (not row["constants_explicit"])
        assert isinstance(row["samples"], int) and row["samples"] >= 0
    settings = {(r["setting"]["concepts"], r["setting"]["data"]) for r in report["rows"]}
    assert {("single", "private"), ("k", "private"), ("single", "public+private")} <= settings


def test_cli_readable_table_mentions_sources_and_order_of_growth(capsys):
    assert (
        main(["sample-size", str(DATA / "thresholds-15.json"), "--alpha", "0.1", "--beta", "0.05", "--epsilon", "1"])
        == 0
    )
    out = capsys.readouterr().out
    assert "BNS Thm 8 (Blumer et al. 1989)" in out and "BNS Thm 27" in out
    assert "O(.)" in out and "explicit" in out
    assert "vc=1" in out and "littlestone=4" in out
    assert "7,384" in out  # BNS Thm 8 at d = 1, alpha = 0.1, beta = 0.05 (see the formula above)
    assert ceil_samples(bns_thm8(1, 0.1, 0.05)) == 7384


def test_cli_time_limit_reports_bounds_and_exit_3(tmp_path, capsys):
    p = tmp_path / "big.json"
    p.write_text(json.dumps({"hypotheses": random_class(3000, 120, random_state=7).table.tolist()}))
    status = main(
        ["sample-size", str(p), "--alpha", "0.1", "--beta", "0.1", "--epsilon", "1", "--json", "--time-limit", "0.2"]
    )
    report = json.loads(capsys.readouterr().out)
    assert status == 3 and report["exact"] is False


BAD_CLI = [
    ["--alpha", "0"],
    ["--alpha", "2"],
    ["--epsilon", "-1"],
    ["--alpha", "nan"],
    ["--concepts", "0"],
    ["--beta", "1"],
    ["--delta", "-0.5"],
    ["--epsilon", "inf"],
    ["--alpha", "abc"],
    ["--concepts", "2.5"],
    ["--time-limit", "0"],
]


def _argv(extra, path=DATA / "tiny-3.json"):
    base = {"--alpha": "0.1", "--beta": "0.1", "--epsilon": "1"}
    for i in range(0, len(extra), 2):
        base[extra[i]] = extra[i + 1]
    return ["sample-size", str(path)] + [x for kv in base.items() for x in kv]


@pytest.mark.parametrize("extra", BAD_CLI, ids=[" ".join(e) for e in BAD_CLI])
def test_cli_bad_values_exit_2_with_one_line(extra, capsys):
    assert main(_argv(extra)) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith("dimcalc: error:")
    assert "Traceback" not in captured.err
    assert extra[0] in captured.err  # the message names the option


def test_cli_missing_file_exit_2(tmp_path, capsys):
    assert main(_argv([], path=tmp_path / "missing.json")) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "missing.json" in err and "Traceback" not in err


def _console_command() -> list[str]:
    """How the installed CLI is run: ``python -m dimcalc`` if the package has a __main__, else the script."""
    if (Path(dimcalc.__file__).parent / "__main__.py").exists():
        return [sys.executable, "-m", "dimcalc"]
    script = Path(sys.executable).parent / "dimcalc"
    if not script.exists():
        found = shutil.which("dimcalc")
        if found is None:
            pytest.skip("the dimcalc console script is not installed")
        script = Path(found)
    return [str(script)]


@pytest.mark.slow  # three console-script processes: make test runs it, make test-fast does not
def test_console_script_end_to_end(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    ok = subprocess.run(_console_command() + _argv([]) + ["--json"], capture_output=True, text=True, env=env)
    assert ok.returncode == 0, ok.stderr
    assert set(json.loads(ok.stdout)) == TABLE_KEYS
    for extra, path in ((["--alpha", "nan"], DATA / "tiny-3.json"), ([], tmp_path / "missing.json")):
        bad = subprocess.run(_console_command() + _argv(extra, path), capture_output=True, text=True, env=env)
        assert bad.returncode == 2 and bad.stdout == ""
        assert bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr


@pytest.mark.parametrize("agnostic", [False, True])
@pytest.mark.parametrize("alpha,beta", [(0.5, 0.5), (0.9, 0.9), (0.99, 0.99), (0.999, 0.5)])
def test_prdim_bound_positive_near_one(alpha, beta, agnostic):
    """FX Thm 2.5's iterated log is read as log max(e, log 1/(alpha beta)): never a negative sample size."""
    b = prdim_sample_size(prdim=0.0, alpha=alpha, beta=beta, epsilon=1.0, agnostic=agnostic)
    assert b.value > 0 and b.samples >= 1


# =========================================================================== theorem ranges, as data, on a grid
from fractions import Fraction  # noqa: E402

from dimcalc.sample_size import OutOfRangeError  # noqa: E402

# (alpha, beta, epsilon, delta, k): values inside and outside every range the papers state.
# alpha: inside ABM's 1/100, BNS Thm 55's 1/4 and Cor 46's 1/3, or outside; beta: inside ABM's 1/18 or above
# Thm 52's 1/2; epsilon: inside ABM's 1/10, BGS Thm 3.7's 1/4, Thm 28's 1, or above; delta: pure, tiny, large.
GRID_ALPHA = [Fraction(1, 200), 0.3, 0.4]
GRID_BETA = [Fraction(1, 18), 0.6]
GRID_EPSILON = [Fraction(1, 20), Fraction(1, 4), 40]
GRID_DELTA = [0, 1e-9, 0.3]
GRID_K = [1, 10]
GRID = list(itertools.product(GRID_ALPHA, GRID_BETA, GRID_EPSILON, GRID_DELTA, GRID_K))


def _grid_calculators(a, b, e, delta, k):
    """Every calculator called at one grid point (approximate-DP ones only with delta > 0)."""
    L, d, X = ln(16), 2, 16
    calls = {
        "vc": lambda: vc_sample_size(vc=d, alpha=a, beta=b),
        "vc_agnostic": lambda: vc_sample_size(vc=d, alpha=a, beta=b, agnostic=True),
        "vc_erm": lambda: vc_sample_size(vc=d, alpha=a, beta=b, agnostic=True, erm=True),
        "thm27": lambda: generic_learner_sample_size(log_size=L, alpha=a, beta=b, epsilon=e),
        "em": lambda: exponential_mechanism_sample_size(log_size=L, alpha=a, beta=b, epsilon=e, agnostic=True),
        "generic_k": lambda: generic_k_learner_sample_size(
            vc=d, k=k, alpha=a, beta=b, epsilon=e, delta=delta, domain_size=X, log_size=L
        ),
        "abm": lambda: abm_semi_private_sample_size(vc=d, alpha=a, beta=b, epsilon=e)[0],
        "asspp": lambda: asspp_sample_size(log_size=L, alpha=a, beta=b, epsilon=e)[0],
        "public_lower": lambda: public_sample_lower_bound(alpha=a, epsilon=e, beta=b, delta=delta),
        "public_lower_multiclass": lambda: public_sample_lower_bound(alpha=a, epsilon=e, beta=b, num_labels=3),
        "repdim": lambda: repdim_sample_size(repdim=L, alpha=a, beta=b, epsilon=e),
        "prdim": lambda: prdim_sample_size(prdim=L, alpha=a, beta=b, epsilon=e),
        "vc_lower": lambda: vc_lower_bound(vc=d, alpha=a),
        "pure_k_lower": lambda: pure_k_learner_lower_bound(k=k, epsilon=e, beta=b),
        "parity_pure_lower": lambda: parity_pure_lower_bound(d=d, k=k, epsilon=e, alpha=a, beta=b),
        "repdim_lower": lambda: repdim_lower_bound(repdim=L, alpha=a, epsilon=e, beta=b),
    }
    if a != 0.3 or b != GRID_BETA[0]:  # composition's ranges (Thm 17.2) depend on epsilon, delta, k only (and
        del calls["generic_k"]  # building its sympy expression is slow): one (alpha, beta) suffices
    else:
        single = exponential_mechanism_sample_size(log_size=L, alpha=a, beta=b, epsilon=e)
        calls["composition"] = lambda: composition_sample_size(single=single, k=k, epsilon=e, delta=delta)
        if delta > 0:
            calls["composition_advanced"] = lambda: composition_sample_size(
                single=single, k=k, epsilon=e, delta=delta, advanced=True
            )
    if delta > 0:
        calls.update(
            {
                "point_k": lambda: point_k_learner_sample_size(k=k, alpha=a, beta=b, epsilon=e, delta=delta),
                "parity_k": lambda: parity_k_learner_sample_size(d=d, k=k, beta=b, epsilon=e, delta=delta),
                "ggkm": lambda: ggkm_sample_size(littlestone=d, alpha=a, beta=b, epsilon=e, delta=delta),
                "bgs_cor35": lambda: multiclass_littlestone_sample_size(
                    alpha=a, beta=b, epsilon=e, delta=delta, num_labels=4, multiclass_littlestone=d
                ),
                "bgs_thm37": lambda: bgs_boosted_sample_size(
                    multiclass_littlestone=d, num_labels=4, alpha=a, beta=b, epsilon=e, delta=delta
                ),
                "line": lambda: line_learner_sample_size(alpha=a, beta=b, epsilon=e, delta=delta),
                "threshold_k_lower": lambda: threshold_k_learner_lower_bound(
                    k=k, alpha=a, domain_size=X, epsilon=e, delta=delta, beta=b
                ),
                "agnostic_k_lower": lambda: agnostic_k_learner_lower_bound(
                    k=k, domain_size=X, alpha=a, epsilon=e, delta=delta, beta=b
                ),
            }
        )
    return calls


@pytest.mark.slow  # every calculator at every grid point (sympy): make test runs it
def test_every_calculator_on_the_grid_returns_only_in_range_bounds():
    """Over the (alpha, beta, epsilon, delta, k) grid, a calculator returns a bound whose declared
    conditions all hold, or refuses with OutOfRangeError naming the conditions that fail."""
    refused, returned = Counter(), Counter()
    for a, b, e, delta, k in GRID[1::2]:  # every other point: k = 10 (the k = 1 points change no range)
        for name, call in _grid_calculators(a, b, e, delta, k).items():
            try:
                bound = call()
            except OutOfRangeError as err:
                refused[name] += 1
                assert err.failed and all(c.holds(err.bound.values, None) is not True for c in err.failed), name
                assert err.failed == err.bound.violations()
                assert "\n" not in str(err) and f"'{err.failed[0].parameter}' parameter" in str(err)
                continue
            returned[name] += 1
            assert bound.in_range and not bound.violations(), (name, a, b, e, delta, k)
            for c in bound.conditions:
                assert c.holds(bound.values, bound.value) is True, (name, str(c))
    # The grid reaches both sides of every declared range.
    ranged = {
        "public_lower",
        "public_lower_multiclass",
        "parity_pure_lower",
        "repdim_lower",
        "ggkm",
        "bgs_cor35",
        "bgs_thm37",
        "line",
        "threshold_k_lower",
        "agnostic_k_lower",
        "composition_advanced",
        "pure_k_lower",
    }
    assert ranged - {"public_lower_multiclass"} <= set(returned), ranged - set(returned)
    assert ranged <= set(refused), ranged - set(refused)
    assert "public_lower_multiclass" not in returned  # ABM's classes are binary


def test_the_papers_ranges_are_declared_on_the_bounds():
    """Each bound carries the range its theorem is stated for (seeds 001-004)."""

    def texts(bound):
        return {c.text for c in bound.conditions}

    pub = public_sample_lower_bound(alpha=Fraction(1, 200))
    assert texts(pub) == {"alpha <= 1/100", "epsilon <= 1/10", "beta <= 1/18", "Eq(num_labels, 2)"}  # ABM L 4.4
    assert pub.values["epsilon"] == Fraction(1, 10) and pub.values["beta"] == Fraction(1, 18)  # the theorem's
    assert texts(parity_pure_lower_bound(d=2, k=2, epsilon=1)) == {"alpha < 1/4", "beta <= 1/2"}  # BNS Thm 55
    assert texts(pure_k_learner_lower_bound(k=2, epsilon=1)) == {"beta <= 1/2"}  # BNS Thm 52
    for lower in (
        threshold_k_learner_lower_bound(k=8, alpha=0.1, domain_size=64),
        agnostic_k_learner_lower_bound(k=8, domain_size=64),
    ):  # BNS Cor 46 / 50 via Thm 28
        assert texts(lower) == {"alpha <= 1/3", "epsilon <= 1", "delta < (1 - beta)/(9*n)"}
        assert "empirical" in lower.source and "Thm 28" in lower.source and lower.setting["task"] in ("PAC", "agnostic")
    assert texts(ggkm_sample_size(littlestone=1, alpha=0.1, beta=0.1, epsilon=1, delta=1e-6)) == {"epsilon <= 1"}
    assert texts(
        bgs_boosted_sample_size(multiclass_littlestone=1, num_labels=4, alpha=0.1, beta=0.1, epsilon=0.25, delta=1e-6)
    ) == {"epsilon <= 1/4"}
    assert len(line_learner_sample_size(alpha=0.1, beta=0.1, epsilon=0.4, delta=1e-6).conditions) == 4
    assert texts(repdim_lower_bound(repdim=2.0, alpha=0.1, epsilon=1)) == {"alpha <= 1/4", "beta <= 1/2"}
    # BNS Thm 31's approximate branches: advanced composition (Thm 17.2) only with a per-run epsilon_0 < 1.
    gk = generic_k_learner_sample_size(
        vc=1, k=100, alpha=0.1, beta=0.1, epsilon=1, delta=1e-6, domain_size=16, log_size=ln(16)
    )
    assert sum("Thm 17.2" in c.source for c in gk.conditions) == 2 and gk.in_range
    big = generic_k_learner_sample_size(
        vc=1, k=2, alpha=0.1, beta=0.1, epsilon=40, delta=1e-6, domain_size=16, log_size=ln(16)
    )
    assert not big.conditions and sum("basic composition" in n for n in big.notes) == 2
    assert close(big.value, generic_k(1, 2, 0.1, 0.1, 40, 1e-6, 16, ln(16)))


# Grid points for the tables (each table computes dimensions and ~20 rows): every range inside and outside.
TABLE_GRID = [
    (Fraction(1, 200), Fraction(1, 18), Fraction(1, 20), 0, 10),  # inside every range (pure)
    (Fraction(1, 200), Fraction(1, 18), Fraction(1, 20), 1e-9, 10),  # inside every range (approximate)
    (0.4, 0.6, 40, 0.3, 10),  # outside every range
    (0.3, Fraction(1, 18), Fraction(1, 4), 1e-9, 10),  # Thm 55 / ABM out, Cor 46 / 50 in
    (0.3, 0.6, 40, 0, 10),  # Thm 52's beta out
    (0.4, Fraction(1, 18), 1, 1e-9, 1),  # BGS Thm 3.7 capped
    (0.3, Fraction(1, 18), 40, 1e-9, 10),  # BGS capped, advanced composition out
    (Fraction(1, 200), Fraction(1, 18), Fraction(1, 4), 0.3, 10),  # Cor 46 / 50's delta out
]


@pytest.mark.parametrize(
    "path, public",
    [
        # eight tables each (seconds: the calculators are sympy), marked slow: make test runs all four
        pytest.param("thresholds-15.json", True, marks=pytest.mark.slow),
        pytest.param("point-functions-8.json", False, marks=pytest.mark.slow),
        pytest.param("parities-3.json", False, marks=pytest.mark.slow),
        pytest.param("bgs-thm61-k7-d1.json", True, marks=pytest.mark.slow),
    ],
)
def test_table_on_the_grid_has_no_row_outside_its_range(path, public):
    H = dimcalc.load(DATA / path)
    seen_omitted, seen_capped = set(), 0
    for a, b, e, delta, k in TABLE_GRID:
        table = sample_size_table(H, alpha=a, beta=b, epsilon=e, delta=delta, concepts=k, public=public)
        for row in table:
            assert row.in_range, (row.name, [str(c) for c in row.violations()], (a, b, e, delta, k))
            capped = [n for n in row.notes if "is stated for epsilon" in n]
            if capped:
                seen_capped += 1
                assert row.values["epsilon"] < e and row.kind == "upper"
        for omitted in table.omitted:
            assert omitted["failed"] and all(" (" in f for f in omitted["failed"])  # condition (source)
            seen_omitted.add(omitted["name"])
        json.dumps(table.to_json(), allow_nan=False)
    assert seen_omitted, path  # the grid does leave some rows out
    if "bgs" in path:
        assert seen_capped


def test_table_issue_example_rows_outside_their_ranges_are_omitted(capsys):
    """`dimcalc sample-size data/thresholds-15.json --alpha 0.4 --beta 0.05 --epsilon 5 --delta 0.3
    --concepts 10 --public`: ABM's public lower bound (alpha <= 1/100, epsilon <= 1/10) and BNS Cor 46 / 50
    (epsilon <= 1, alpha <= 1/3) are outside their ranges and must not be printed as rows."""
    argv = [
        "sample-size",
        str(DATA / "thresholds-15.json"),
        "--alpha",
        "0.4",
        "--beta",
        "0.05",
        "--epsilon",
        "5",
        "--delta",
        "0.3",
        "--concepts",
        "10",
        "--public",
    ]
    assert main(argv + ["--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    rows = {r["name"] for r in report["rows"]}
    assert not rows & {"public_sample_lower_bound", "threshold_k_lower", "agnostic_k_lower"}
    omitted = {o["name"]: o["failed"] for o in report["omitted"]}
    assert "BNS Thm 27" in omitted["public_sample_lower_bound"][0]  # a finite class needs no public data
    for name in ("threshold_k_lower", "agnostic_k_lower"):
        assert any(f.startswith("epsilon <= 1") for f in omitted[name])
        assert any(f.startswith("alpha <= 1/3") for f in omitted[name])
    assert all(c["holds"] for r in report["rows"] for c in r["conditions"])
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "omitted: outside the range their theorem is stated for" in out and "BNS Thm 27" in out


def test_exact_epsilon_as_fraction_or_text():
    """epsilon = 1/3 given as a Fraction, as text and on the command line is one third exactly."""
    b_frac = exponential_mechanism_sample_size(log_size=ln(16), alpha=0.1, beta=0.1, epsilon=Fraction(1, 3))
    b_text = exponential_mechanism_sample_size(log_size=ln(16), alpha=0.1, beta=0.1, epsilon="1/3")
    assert b_frac.values["epsilon"] == b_text.values["epsilon"] == Fraction(1, 3)
    assert b_frac.value == b_text.value == em_pac(ln(16), 0.1, 0.1, 1 / 3) or close(
        b_frac.value, em_pac(ln(16), 0.1, 0.1, 1 / 3)
    )
    with pytest.raises(InvalidParameterError, match="'epsilon' parameter"):
        exponential_mechanism_sample_size(log_size=1.0, alpha=0.1, beta=0.1, epsilon="a third")
    # exact at the boundary of a range: epsilon = 1/4 exactly is inside BGS Thm 3.7's [0, 1/4] ...
    assert bgs_boosted_sample_size(
        multiclass_littlestone=1, num_labels=4, alpha=0.1, beta=0.1, epsilon="1/4", delta=1e-6
    ).in_range
    # ... and a float is its own value: 0.01 is a hair above 1/100, outside ABM Lemma 4.4's alpha <= 1/100.
    assert public_sample_lower_bound(alpha=Fraction(1, 100)).in_range
    with pytest.raises(OutOfRangeError, match="binary value"):
        public_sample_lower_bound(alpha=0.01)


def test_cli_reads_epsilon_exactly(capsys):
    assert (
        main(
            [
                "sample-size",
                str(DATA / "thresholds-15.json"),
                "--alpha",
                "0.1",
                "--beta",
                "0.05",
                "--epsilon",
                "1/3",
                "--json",
            ]
        )
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    em = next(r for r in report["rows"] if r["name"] == "exponential_mechanism")
    assert (
        em["samples"]
        == exponential_mechanism_sample_size(
            log_size=ln(16), alpha=Fraction(1, 10), beta=Fraction(1, 20), epsilon=Fraction(1, 3)
        ).samples
    )
    assert (
        main(["sample-size", str(DATA / "thresholds-15.json"), "--alpha", "0.1", "--beta", "0.05", "--epsilon", "1/3"])
        == 0
    )
    assert "epsilon=1/3" in capsys.readouterr().out


def test_accuracy_parameters_as_text_are_read_exactly_like_epsilon():
    """Issue 22: ``alpha="1/10"`` is accepted as ``epsilon="1/3"`` is (the CLI reads ``--alpha 1/10`` exactly)."""
    from fractions import Fraction

    text = vc_sample_size(vc=2, alpha="1/10", beta="1/10")
    assert text.values["alpha"] == Fraction(1, 10) and text == vc_sample_size(
        vc=2, alpha=Fraction(1, 10), beta=Fraction(1, 10)
    )
