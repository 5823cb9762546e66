"""dimcalc.validation: one argument order, one message shape, bools never numbers."""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np
import pytest

from dimcalc import HypothesisClass
from dimcalc.errors import InvalidParameterError
from dimcalc.validation import (
    check_bool,
    check_hypothesis_class,
    check_int,
    check_jobs,
    check_number,
    check_option,
    check_time_limit,
    is_int,
)


@pytest.mark.parametrize("value", [True, False, np.bool_(True), 1.0, "1", None, Fraction(1), np.float64(1)])
def test_check_int_refuses_what_is_not_an_integer(value) -> None:
    with pytest.raises(InvalidParameterError, match=r"^The 'n' parameter of f must be an int >= 0\. Got .* instead\.$"):
        check_int(value, "n", "f", 0)
    assert not is_int(value)


@pytest.mark.parametrize("value", [0, 7, np.int8(7), np.uint64(7), np.int64(-0)])
def test_check_int_accepts_integers_as_plain_ints(value) -> None:
    out = check_int(value, "n", "f", 0, 7)
    assert type(out) is int and out == int(value) and is_int(value)


@pytest.mark.parametrize(
    "low, high, value, ok, wording",
    [
        (1, None, 0, False, "an int >= 1"),
        (None, 3, 4, False, "an int <= 3"),
        (0, 3, -1, False, "an int in [0, 3]"),
        (0, 3, 3, True, ""),
        (None, None, -(10**30), True, ""),
    ],
)
def test_check_int_bounds_are_inclusive_and_named(low, high, value, ok, wording) -> None:
    if ok:
        assert check_int(value, "n", "f", low, high) == value
    else:
        with pytest.raises(InvalidParameterError, match=re.escape(f"must be {wording}. Got {value} instead")):
            check_int(value, "n", "f", low, high)


@pytest.mark.parametrize(
    "interval, inside, outside",
    [
        ("(0, 1)", [Fraction(1, 10**9), 0.5, "1/2"], [0, 1, -1, 2]),
        ("[0, 1)", [0, 0.999], [1, -0.001]),
        ("(0, 1]", [1, Fraction(1, 3)], [0, Fraction(4, 3)]),
        ("[0, 1/2]", ["1/2", 0, Fraction(1, 2)], ["0.5000001", 1]),
        ("(0, inf)", [10**100, 1e300], [0, -1e-300]),
    ],
)
def test_check_number_reads_the_interval_as_written(interval, inside, outside) -> None:
    for v in inside:
        got = check_number(v, "x", "f", interval, text=True)
        assert got == (Fraction(v) if isinstance(v, str) else v)
    for v in outside:
        with pytest.raises(InvalidParameterError, match=re.escape(f"must be a number in {interval}")):
            check_number(v, "x", "f", interval, text=True)


@pytest.mark.parametrize("value", [True, float("nan"), float("inf"), "1/3", None, [1]])
def test_check_number_refuses_non_numbers_without_text(value) -> None:
    with pytest.raises(InvalidParameterError, match="The 'x' parameter of f"):
        check_number(value, "x", "f")


def test_class_option_bool_jobs_and_time_limit() -> None:
    H = HypothesisClass.from_table([[0, 1], [1, 0]])
    assert check_hypothesis_class(H, "f") is H
    with pytest.raises(InvalidParameterError, match="must be a dimcalc.HypothesisClass. Got 'ndarray' instead"):
        check_hypothesis_class(np.eye(2), "f")
    assert check_option("a", "mode", "f", ("a", "b")) == "a"
    with pytest.raises(InvalidParameterError, match="one of 'a', 'b'"):
        check_option(True, "mode", "f", ("a", "b", 1))
    assert check_bool(np.bool_(False), "flag", "f") is False
    with pytest.raises(InvalidParameterError, match="True or False"):
        check_bool(0, "flag", "f")
    assert check_jobs(np.int32(3), "f") == 3
    with pytest.raises(InvalidParameterError, match="'jobs' parameter of f must be a positive int"):
        check_jobs(True, "f")
    assert check_time_limit(1, "f") == 1.0 and check_time_limit(None, "f") is None
    for bad in (0, -1, float("nan"), float("inf"), True, "1"):
        with pytest.raises(InvalidParameterError, match="'time_limit' parameter of f"):
            check_time_limit(bad, "f")
