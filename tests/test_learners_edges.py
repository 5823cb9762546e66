"""Learners at the edges (issue 22 item 6, issue 21 "Learners").

Empty samples refused; ``alpha="1/10"`` read exactly like ``epsilon="1/3"``; boolean labels
and whole-number float points accepted (a message about values otherwise); one keyword
``H`` for the class (the old positional / ``hypothesis_class=`` forms deprecated aliases);
scikit-learn's ``clone``, ``check_is_fitted`` and ``cross_val_score`` work when it is installed.
"""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pytest

from dimcalc import HypothesisClass
from dimcalc.errors import InvalidParameterError
from dimcalc.learners import ASSPP, BinaryReductionLearner, GenericPrivateLearner, NotFittedError

H2 = HypothesisClass([[0, 0, 1, 1], [0, 1, 1, 1], [1, 1, 1, 1], [0, 0, 0, 1]])
H3 = HypothesisClass([[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 0, 0]], num_labels=3)


def single_concept_learners():
    return [
        GenericPrivateLearner(H=H2, epsilon=2, noise="exact", random_state=0),
        ASSPP(H=H2, epsilon=2, noise="exact", random_state=0),
        BinaryReductionLearner(H=H3, epsilon=2, noise="exact", random_state=0),
    ]


@pytest.mark.parametrize("learner", single_concept_learners(), ids=lambda x: type(x).__name__)
def test_fit_on_no_examples_refused(learner):
    kwargs = {"public": [0, 1]} if isinstance(learner, ASSPP) else {}
    with pytest.raises(InvalidParameterError, match="empty"):
        learner.fit([], [], **kwargs)


def test_alpha_and_beta_as_text_are_exact_like_epsilon():
    learner = GenericPrivateLearner(H=H2, epsilon="1/3")
    bound = learner.required_sample_size(alpha="1/10", beta="1/10")
    assert bound.values["alpha"] == Fraction(1, 10) and bound.values["epsilon"] == Fraction(1, 3)
    assert bound == learner.required_sample_size(alpha=Fraction(1, 10), beta=Fraction(1, 10))


def test_boolean_labels_and_whole_float_points_accepted():
    X = np.array([0, 1, 2, 3] * 3)
    y = H2.table[1][X]
    a = GenericPrivateLearner(H=H2, epsilon=2, noise="exact", random_state=0).fit(X, y)
    b = GenericPrivateLearner(H=H2, epsilon=2, noise="exact", random_state=0).fit(X.astype(float), y.astype(bool))
    assert a.hypothesis_ == b.hypothesis_
    assert b.predict(np.array([0.0, 3.0])).tolist() == a.predict([0, 3]).tolist()
    with pytest.raises(InvalidParameterError, match=r"whole-number point indices\. Got 0\.5"):
        b.predict(np.array([0.5]))


def test_one_keyword_for_the_class_with_deprecated_aliases():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        GenericPrivateLearner(H=H2, epsilon=1)  # the one name: no warning
    with pytest.warns(DeprecationWarning, match="H="):
        old = GenericPrivateLearner(hypothesis_class=H2, epsilon=1)
    with pytest.warns(PendingDeprecationWarning, match="H="):
        positional = GenericPrivateLearner(H2, epsilon=1)
    X, y = np.array([0, 1, 2]), H2.table[0][[0, 1, 2]]
    for learner in (old, positional):
        learner.set_params(noise="exact", random_state=0).fit(X, y)
    assert "H" in GenericPrivateLearner(H=H2, epsilon=1).get_params()
    with pytest.raises(InvalidParameterError, match="give the class once"):
        GenericPrivateLearner(H=H2, hypothesis_class=H3, epsilon=1).fit(X, y)


def test_not_fitted_error_is_scikit_learns_when_installed():
    sklearn_exceptions = pytest.importorskip("sklearn.exceptions")
    learner = GenericPrivateLearner(H=H2, epsilon=1)
    with pytest.raises(sklearn_exceptions.NotFittedError):
        learner.predict([0])
    assert issubclass(NotFittedError, sklearn_exceptions.NotFittedError)
    assert issubclass(NotFittedError, InvalidParameterError) and issubclass(NotFittedError, AttributeError)


@pytest.mark.parametrize("make", [lambda: single_concept_learners()[0], lambda: single_concept_learners()[2]])
def test_scikit_learn_clone_check_is_fitted_and_cross_val_score(make):
    pytest.importorskip("sklearn")
    from sklearn.base import clone, is_classifier
    from sklearn.model_selection import cross_val_score
    from sklearn.utils.validation import check_is_fitted

    learner = make()
    H = learner.H
    with pytest.raises(Exception) as info:
        check_is_fitted(learner)
    assert type(info.value).__name__ == "NotFittedError"
    X = np.array(list(range(H.n_points)) * 6)
    y = H.table[1][X]
    learner.fit(X, y)
    check_is_fitted(learner)
    twin = clone(learner)
    assert twin.get_params()["H"] == H and not twin.__sklearn_is_fitted__()
    assert is_classifier(learner)
    scores = cross_val_score(learner, X, y, cv=3)
    assert scores.shape == (3,) and np.all((0 <= scores) & (scores <= 1))
    scores = cross_val_score(learner, X.reshape(-1, 1).astype(float), y, cv=3)  # as scikit-learn's tools pass X
    assert scores.shape == (3,)
