"""The theorem report (dimcalc.theorems): every statement as a property on random small classes."""

from __future__ import annotations

import json

import numpy as np
from hypothesis import given, settings

from dimcalc import HypothesisClass, generators
from dimcalc.reports.theorems import Side, compare, theorem_report
from profile_examples import examples
from strategies import classes


@settings(max_examples=examples(200))
@given(classes(max_points=4, max_labels=4, max_rows=6))
def test_every_statement_holds_exactly_on_small_classes(H):
    report = theorem_report(H, representation=H.num_labels**H.n_points <= 16)
    sources = {c.source for c in report}
    assert {
        "BGS Lemma 4.5",
        "BGS Claim 4.6",
        "BGS Claim 4.7",
        "BGS Thm 3.4",
        "BGS Thm 7.1",
        "BGS Lemma 5.11",
    } <= sources
    if H.is_binary:
        assert {"Littlestone 1987", "FX Cor 4.3"} <= sources
    for c in report:
        assert c.exact, c.to_json()
        assert c.holds is True, c.to_json()
    json.dumps([c.to_json() for c in report])


def test_compare_logic_is_sound():
    assert compare(Side(1, 1, "a"), "<=", Side(1, 1, "b")) is True
    assert compare(Side(2, 2, "a"), "<=", Side(1, 1, "b")) is False
    assert compare(Side(0, 3, "a"), "<=", Side(1, 2, "b")) == "unknown"
    assert compare(Side(0, None, "a"), "<=", Side(1, 2, "b")) == "unknown"
    assert compare(Side(5, None, "a"), "<=", Side(1, 2, "b")) is False
    assert compare(Side(1, 1, "a"), "=", Side(1, 2, "b")) == "unknown"
    assert compare(Side(3, 3, "a"), "=", Side(1, 2, "b")) is False
    assert compare(Side(3, 3, "a"), ">=", Side(1, 2, "b")) is True


def test_report_on_named_classes_and_time_limit():
    T = HypothesisClass.from_table(np.tril(np.ones((9, 8), dtype=int), -1), name="thresholds")
    report = theorem_report(T)
    assert all(c.holds is True for c in report)
    lemma = next(c for c in report if c.source == "BGS Lemma 5.11")
    assert lemma.rhs.lower == 8 and lemma.lhs.lower >= 8  # d_B = LDim = 3 for 9 thresholds
    # MLD of a random 2000 x 60 class with 4 labels is not settled in 60 s: 0.5 s certainly stops the searches.
    H = generators.random_class(2000, 60, labels=4, random_state=2)
    report = theorem_report(H, time_limit=0.5)
    assert any(c.holds == "unknown" for c in report)  # some search stopped with bounds ...
    assert all(c.holds in (True, "unknown") for c in report)  # ... and the bounds are used soundly
