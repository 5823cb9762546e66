"""The theorem report (dimcalc.theorems): every statement as a property on random small classes."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dimcalc import HypothesisClass
from dimcalc.theorems import Side, compare, theorem_report


@st.composite
def small_classes(draw, max_points=4, max_labels=4, max_rows=6):
    n = draw(st.integers(1, max_points))
    labels = draw(st.integers(2, max_labels))
    rows = draw(st.lists(st.lists(st.integers(0, labels - 1), min_size=n, max_size=n), min_size=1, max_size=max_rows))
    return HypothesisClass.from_table(rows, num_labels=labels)


@settings(max_examples=200)
@given(small_classes())
def test_every_statement_holds_exactly_on_small_classes(H):
    report = theorem_report(H, representation=H.num_labels ** H.n_points <= 16)
    sources = {c.source for c in report}
    assert {"BGS Lemma 4.5", "BGS Claim 4.6", "BGS Claim 4.7", "BGS Thm 3.4", "BGS Thm 7.1",
            "BGS Lemma 5.11"} <= sources
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
    assert lemma.rhs.lower == 8 and lemma.lhs.lower >= 8      # d_B = LDim = 3 for 9 thresholds
    rng = np.random.default_rng(5)
    H = HypothesisClass.from_table(rng.integers(0, 5, size=(60, 12)))
    report = theorem_report(H, time_limit=0.5)
    assert all(c.holds is not False for c in report)          # bounds are used soundly
    assert all(c.holds in (True, "unknown") for c in report)
