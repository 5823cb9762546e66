"""One rule per parameter kind, the same answer for the same value at every public boundary (issue 21 item 4)."""

from __future__ import annotations

import inspect
import warnings
from fractions import Fraction

import numpy as np
import pytest

import dimcalc
from dimcalc import HypothesisClass
from dimcalc.errors import InvalidParameterError
from dimcalc.param_validation import (
    JOBS,
    JOBS_OR_AUTO,
    PROGRESS,
    REPRESENTATION_EPSILON,
    Interval,
    StrOptions,
    validate_params,
)
from dimcalc.reports import repdim_report
from dimcalc.reports.check import check_class
from dimcalc.representation import deterministic_representation_dimension, probabilistic_representation_bounds
from dimcalc.representation.communication import deterministic_one_way_complexity, one_way_communication_complexity

H = HypothesisClass.from_table([[0, 0], [0, 1], [1, 1]])

#: Every public solver taking ``jobs`` and ``progress``.
SOLVERS = [
    dimcalc.vc_dimension,
    dimcalc.natarajan_dimension,
    dimcalc.graph_dimension,
    dimcalc.littlestone_dimension,
    dimcalc.multiclass_littlestone_dimension,
    lambda H, **kw: dimcalc.psi_littlestone_dimension(H, "N", **kw),
    lambda H, **kw: check_class(H, ["vc"], **kw),
]

#: Every public function taking a representation error ε.
REPRESENTATION = [deterministic_representation_dimension, repdim_report, one_way_communication_complexity]


@pytest.mark.parametrize("solve", SOLVERS)
def test_numpy_jobs_accepted_by_every_solver(solve) -> None:
    result = solve(H, jobs=np.int64(1))
    assert result is not None


@pytest.mark.parametrize("solve", SOLVERS)
@pytest.mark.parametrize("jobs", [0, True, 1.0, "2"])
def test_bad_jobs_refused_by_every_solver(solve, jobs) -> None:
    with pytest.raises(InvalidParameterError, match=r"The 'jobs' parameter of \w+ must be a positive int\. Got"):
        solve(H, jobs=jobs)


@pytest.mark.parametrize("solve", SOLVERS)
@pytest.mark.parametrize("progress", [1, None, "yes"])
def test_progress_validated_by_every_solver(solve, progress) -> None:
    with pytest.raises(InvalidParameterError, match=r"The 'progress' parameter of \w+ must be True or False\."):
        solve(H, progress=progress)


@pytest.mark.parametrize("represent", REPRESENTATION)
@pytest.mark.parametrize("epsilon", [0.75, -0.1, "3/4", True, float("nan")])
def test_representation_epsilon_refused_alike(represent, epsilon) -> None:
    with pytest.raises(InvalidParameterError, match=r"The 'epsilon' parameter of \w+ must be a number in \[0, 1/2\]"):
        represent(H, epsilon)


@pytest.mark.parametrize("represent", REPRESENTATION)
def test_representation_epsilon_accepted_alike(represent) -> None:
    assert represent(H, "1/2") is not None and represent(H, np.float64(0.25)) is not None


def test_errors_are_value_errors_with_one_shape() -> None:
    with pytest.raises(ValueError, match=r"^The 'epsilon' parameter of repdim_report must be .* Got 0\.75 instead\.$"):
        repdim_report(H, 0.75)


@pytest.mark.parametrize(
    "function",
    [
        deterministic_representation_dimension,
        probabilistic_representation_bounds,
        one_way_communication_complexity,
        deterministic_one_way_complexity,
    ],
)
def test_old_class_name_is_a_deprecated_alias(function) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        old = function(C=H)
    assert any(issubclass(w.category, FutureWarning) and "'H'" in str(w.message) for w in caught)
    new = function(H=H)
    assert type(old) is type(new)
    assert list(inspect.signature(function).parameters)[0] == "H"
    with pytest.raises(TypeError):
        function(H=H, C=H)


def _public_functions():
    for name in dimcalc.__all__:
        obj = getattr(dimcalc, name)
        if inspect.isfunction(obj):
            yield obj


@pytest.mark.parametrize("function", list(_public_functions()), ids=lambda f: f.__name__)
def test_every_public_jobs_or_progress_has_the_shared_rule(function) -> None:
    params = inspect.signature(function).parameters
    rules = getattr(function, "param_rules", {})
    if "jobs" in params:  # None by default: the solver picks its cores (a sparse class's VC search: every core)
        assert rules.get("jobs") is (JOBS_OR_AUTO if params["jobs"].default is None else JOBS)
    if "progress" in params:
        assert rules.get("progress") is PROGRESS
    if "epsilon" in params and function.__module__.startswith(("dimcalc.representation", "dimcalc.reports")):
        assert rules.get("epsilon") is REPRESENTATION_EPSILON
    first = next(iter(params), None)
    assert first != "C" and first != "hypothesis_class"


def test_interval_and_options() -> None:
    @validate_params(n=Interval(int, 0, 4, closed="neither"), how=StrOptions({"a", "b"}))
    def f(n, how="a"):
        return n, how

    assert f(np.int8(3), "b") == (3, "b")
    for bad in (0, 4, 2.0):
        with pytest.raises(InvalidParameterError, match=r"The 'n' parameter of f must be an int in \[1, 3\]"):
            f(bad)
    with pytest.raises(InvalidParameterError, match=r"must be one of 'a', 'b'\. Got 'c' instead\."):
        f(1, "c")
    assert REPRESENTATION_EPSILON.check("1/3", "epsilon", "f") == Fraction(1, 3)
    with pytest.raises(TypeError):
        validate_params(nope=JOBS)(f)
