"""One contract for every learner (in the spirit of scikit-learn's ``check_estimator``).

Every class in ``dimcalc.learners.LEARNERS`` goes through the same checks: the
constructor stores its parameters and nothing else; ``get_params`` / ``set_params`` /
clone; validation happens in ``fit`` with one-line dimcalc errors; ``random_state``
(int seed or Generator) makes fits reproducible with the exact sampler; OpenDP is the
default noise source; ``predict`` before ``fit`` raises ``NotFittedError``; fitted
attributes end with ``_``; ``fit`` leaves the parameters untouched; privacy is accounted
once (``privacy_``) and never above the budget; an exact epsilon (Fraction or text) is
accepted; ``required_sample_size`` is an explicit ``SampleSizeBound``.
"""

from __future__ import annotations

import inspect
from fractions import Fraction

import numpy as np
import pytest

from dimcalc import HypothesisClass
from dimcalc.errors import InvalidParameterError
from dimcalc.learners import (
    ASSPP,
    LEARNERS,
    BinaryReductionLearner,
    CompositionLearner,
    GenericLearner,
    GenericPrivateLearner,
    NotFittedError,
    ParityLearner,
    PointLearner,
    Privacy,
    PrivateLearner,
    RepresentationLearner,
)
from dimcalc.sample_size import SampleSizeBound

THR8 = HypothesisClass.from_table(np.tril(np.ones((9, 8), dtype=int), -1))
POINTS8 = HypothesisClass.from_table(np.eye(8, dtype=int))
MC = HypothesisClass([[0, 1, 2, 3], [3, 2, 1, 0], [1, 1, 2, 2]], num_labels=4)
ZERO8 = HypothesisClass([[0] * 8])
DATA = np.random.default_rng(2024)


def _single(H, target=1, n=60, noisy=True):
    X = DATA.integers(0, H.n_points, size=n)
    y = H.table[target, X].astype(np.int64)
    if noisy:  # noisy labels give the mechanism real choices (so the seed matters)
        flip = DATA.random(n) < 0.3
        y = np.where(flip, DATA.integers(0, H.num_labels, size=n), y)
    return X, y


def _multi(H, k=2, n=80):
    X = DATA.integers(0, H.n_points, size=n)
    Y = H.table[DATA.integers(0, H.n_hypotheses, size=k)][:, X].T.astype(np.int64)
    return X, Y ^ (DATA.random(Y.shape) < 0.2)


def _parity(n=120, d=3):
    X = DATA.integers(0, 2, size=(n, d))
    return X, X @ np.array([[1, 1, 0], [0, 0, 1]]).T % 2


# name -> (factory(**overrides), data, fit kwargs, budget (epsilon, delta))
CASES = {
    "GenericPrivateLearner": (
        lambda **kw: GenericPrivateLearner(H=THR8, **({"epsilon": 1.0} | kw)),
        _single(THR8),
        {},
        (1.0, 0.0),
    ),
    "ASSPP": (
        lambda **kw: ASSPP(H=THR8, **({"epsilon": 1.0} | kw)),
        _single(THR8),
        {"public": np.arange(8)},
        (1.0, 0.0),
    ),
    "BinaryReductionLearner": (
        lambda **kw: BinaryReductionLearner(H=MC, **({"epsilon": 1.0} | kw)),
        _single(MC),
        {},
        (1.0, 0.0),
    ),
    "RepresentationLearner": (
        lambda **kw: RepresentationLearner(
            [POINTS8, ZERO8], [0.9, 0.1], rep_alpha=0.0, rep_beta=0.1, **({"epsilon": 1.0} | kw)
        ),
        _single(POINTS8),
        {},
        (1.0, 0.0),
    ),
    "CompositionLearner": (
        lambda **kw: CompositionLearner(POINTS8, **({"epsilon": 2.0} | kw)),
        _multi(POINTS8),
        {},
        (2.0, 0.0),
    ),
    "GenericLearner": (
        lambda **kw: GenericLearner(THR8, alpha=0.5, beta=0.2, **({"epsilon": 2.0} | kw)),
        _multi(THR8),
        {},
        (2.0, 0.0),
    ),
    "PointLearner": (
        lambda **kw: PointLearner(8, alpha=0.5, **({"epsilon": 2.0, "delta": 1e-6} | kw)),
        _multi(POINTS8),
        {},
        (2.0, 1e-6),
    ),
    "ParityLearner": (
        lambda **kw: ParityLearner(3, **({"epsilon": 2.0, "delta": 1e-3} | kw)),
        _parity(),
        {},
        (2.0, 1e-3),
    ),
}
NAMES = sorted(CASES)


def _fit(learner, name):
    _, (X, y), fit_kwargs, _ = CASES[name]
    return learner.fit(X, y, **fit_kwargs)


def _output(learner, name):
    X = CASES[name][1][0]
    return learner.predict(X[:20]).tolist()


def test_every_learner_is_checked():
    assert {cls.__name__ for cls in LEARNERS} == set(CASES)
    assert all(issubclass(cls, PrivateLearner) for cls in LEARNERS)


@pytest.mark.parametrize("name", NAMES)
def test_constructor_stores_parameters_and_nothing_else(name):
    make = CASES[name][0]
    gen = np.random.default_rng(0)
    learner = make(epsilon=-5, noise="exact", random_state=gen)  # a bad epsilon is stored, not checked
    params = learner.get_params()
    assert params["epsilon"] == -5 and params["random_state"] is gen and params["noise"] == "exact"
    sig = inspect.signature(type(learner).__init__)
    # every named parameter; ``*args`` is the deprecated positional class (issue 21: one keyword, H)
    assert set(params) == {p.name for p in sig.parameters.values() if p.name != "self" and p.kind != p.VAR_POSITIONAL}
    options = [p for p in sig.parameters.values() if p.default is not p.empty]
    assert options and all(p.kind == p.KEYWORD_ONLY for p in options)  # every option is keyword-only
    assert not [k for k in vars(learner) if k.endswith("_") and not k.startswith("_")]  # nothing fitted yet
    assert sig.parameters["noise"].default == "opendp"  # OpenDP's samplers by default, for every learner
    assert repr(learner).startswith(name + "(")


@pytest.mark.parametrize("name", NAMES)
def test_validation_happens_in_fit_with_one_line_errors(name):
    make = CASES[name][0]
    for bad, param in (
        ({"epsilon": -1.0}, "epsilon"),
        ({"epsilon": "a lot"}, "epsilon"),
        ({"noise": "gumbel"}, "noise"),
        ({"random_state": "seed"}, "random_state"),
        ({"noise_multiplier": 0}, "noise_multiplier"),
    ):
        learner = make(**bad)
        with pytest.raises(InvalidParameterError) as info:
            _fit(learner, name)
        assert f"'{param}' parameter of {name}" in str(info.value) and "\n" not in str(info.value)
        assert not learner.fitted_


@pytest.mark.parametrize("name", NAMES)
def test_get_params_set_params_and_clone(name):
    make = CASES[name][0]
    learner = make(noise="exact", random_state=3)
    assert learner.set_params(random_state=4) is learner and learner.get_params()["random_state"] == 4
    with pytest.raises(InvalidParameterError, match="set_params"):
        learner.set_params(not_a_parameter=1)
    clone = type(learner)(**learner.get_params())
    assert _output(_fit(clone, name), name) == _output(_fit(learner, name), name)


@pytest.mark.parametrize("name", NAMES)
def test_random_state_makes_fits_reproducible(name):
    make = CASES[name][0]
    first = _output(_fit(make(noise="exact", random_state=11), name), name)
    again = make(noise="exact", random_state=11)
    assert _output(_fit(again, name), name) == first
    assert _output(_fit(again, name), name) == first  # an int seed restarts at every fit
    gen = np.random.default_rng(11)  # a Generator is used as is (its state moves on)
    outputs = [_output(_fit(make(noise="exact", random_state=gen), name), name) for _ in range(2)]
    assert all(isinstance(o, list) for o in outputs)
    legacy = make(noise="exact", rng=np.random.default_rng(5))  # the former name still works, with a FutureWarning
    with pytest.warns(FutureWarning, match="rng= is deprecated; pass random_state="):
        assert isinstance(_output(_fit(legacy, name), name), list)
    with pytest.raises(InvalidParameterError, match="give the random source once"):
        _fit(make(noise="exact", rng=1, random_state=1), name)


@pytest.mark.parametrize("name", NAMES)
def test_predict_before_fit_raises_not_fitted(name):
    learner = CASES[name][0]()
    X = CASES[name][1][0]
    with pytest.raises(NotFittedError) as info:
        learner.predict(X[:3])
    assert isinstance(info.value, InvalidParameterError) and isinstance(info.value, AttributeError)
    assert "call fit" in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize("name", NAMES)
def test_fit_returns_self_sets_only_underscore_attributes_and_keeps_parameters(name):
    learner = CASES[name][0](noise="exact", random_state=0)
    before = dict(vars(learner))
    params = learner.get_params()
    assert _fit(learner, name) is learner
    added = set(vars(learner)) - set(before)
    assert added and all(a.endswith("_") or a.startswith("_") for a in added), added
    assert all(learner.get_params()[k] is v for k, v in params.items())
    assert isinstance(learner.privacy_, Privacy)
    out = np.asarray(learner.predict(CASES[name][1][0][:7]))
    assert out.dtype.kind == "i" and out.shape[0] == 7


@pytest.mark.parametrize("name", NAMES)
def test_privacy_is_accounted_once_and_within_the_budget(name):
    make, _, _, (eps, delta) = CASES[name]
    learner = make(noise="exact", random_state=0)
    assert learner.privacy_spent == (eps, delta)  # before fit: what every fit satisfies
    _fit(learner, name)
    spent_eps, spent_delta = learner.privacy_spent
    assert spent_eps <= eps and spent_delta <= delta
    assert (spent_eps, spent_delta) == learner.privacy_.pair
    doubled = _fit(make(noise="exact", random_state=0, noise_multiplier=2), name)
    assert doubled.privacy_spent[0] == pytest.approx(spent_eps / 2)


@pytest.mark.parametrize("name", NAMES)
def test_exact_epsilon_as_fraction_or_text(name):
    make = CASES[name][0]
    eps = CASES[name][3][0]
    for given in (Fraction(eps).limit_denominator(), f"{Fraction(eps).limit_denominator()}"):
        learner = _fit(make(epsilon=given, noise="exact", random_state=0), name)
        assert Fraction(learner.privacy_spent[0]) <= Fraction(eps)


@pytest.mark.parametrize("name", NAMES)
def test_opendp_default_fits(name):
    learner = _fit(CASES[name][0](), name)
    assert learner.noise == "opendp" and learner.fitted_


@pytest.mark.parametrize("name", NAMES)
def test_required_sample_size_is_an_explicit_bound(name):
    learner = CASES[name][0]()
    if name in ("CompositionLearner", "GenericLearner"):
        bound = learner.required_sample_size(0.5, 0.2, k=2)
    elif name == "ParityLearner":
        bound = learner.required_sample_size(0.0, 0.2)
    elif name == "PointLearner":
        bound = learner.required_sample_size(beta=0.2)
    else:
        bound = learner.required_sample_size(0.5, 0.2)
    assert isinstance(bound, SampleSizeBound) and bound.kind == "upper"
    assert bound.constants_explicit and bound.in_range and bound.samples > 0
