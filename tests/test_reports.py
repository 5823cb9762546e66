"""dimcalc.reports: the library reports behind the commands, against definitions and the CLI's JSON."""

from __future__ import annotations

import json
from fractions import Fraction
from math import comb
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings

from brute_vc import brute_growth, brute_vc
from dimcalc import HypothesisClass
from dimcalc.cli import main
from dimcalc.errors import InvalidParameterError
from dimcalc.io import load
from dimcalc.reports import cover_report, growth_table, repdim_report, theorem_report, theorem_verdict
from dimcalc.reports.theorems import Side, TheoremCheck
from profile_examples import examples
from strategies import classes

DATA = Path(__file__).resolve().parent.parent / "data"


@settings(max_examples=examples(40), deadline=None)
@given(classes(max_points=5, max_rows=10, biased=True))
def test_growth_table_matches_the_definition(H) -> None:
    table = growth_table(H, H.n_points)
    rows = H.distinct_rows.tolist()
    assert table.complete and not table.capped and table.max_m == H.n_points
    assert [r.m for r in table.rows] == list(range(H.n_points + 1))
    d = brute_vc(rows, H.n_points)[0] if H.is_binary else None
    for r in table.rows:
        assert r.exact and r.verified and r.value == brute_growth(rows, H.n_points, r.m)
        assert r.trivial == min(H.n_distinct, H.num_labels**r.m)
        assert r.sauer_shelah == (None if d is None else sum(comb(r.m, i) for i in range(d + 1)))


def test_growth_table_caps_max_m_and_refuses_bad_values() -> None:
    H = HypothesisClass.from_table(np.eye(3, dtype=int))
    table = growth_table(H, 10)
    assert table.capped and table.max_m == 3 and table.requested_max_m == 10 and len(table.rows) == 4
    for bad in (-1, 1.5, True):
        with pytest.raises(InvalidParameterError, match="'max_m' parameter of growth_table"):
            growth_table(H, bad)
    with pytest.raises(InvalidParameterError, match="'H' parameter of growth_table must be a dimcalc.HypothesisClass"):
        growth_table([[0, 1]])


@pytest.mark.parametrize(
    "command, report",
    [
        (["growth", "--max-m", "3"], lambda H: growth_table(H, 3).to_json()),
        (["repdim", "--epsilon", "1/3"], lambda H: repdim_report(H, "1/3").to_json()),
        (["cover", "--depth", "3"], lambda H: cover_report(H, depth=3).to_json()),
        (["theorems"], lambda H: [c.to_json() for c in theorem_report(H)]),
    ],
    ids=["growth", "repdim", "cover", "theorems"],
)
def test_the_cli_prints_the_library_report(command, report, capsys) -> None:
    path = DATA / "thresholds-6.csv"
    assert main([command[0], str(path), *command[1:], "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    expected = json.loads(json.dumps(report(load(path)), default=str))

    def strip(obj):  # wall times differ between two runs
        if isinstance(obj, dict):
            return {k: strip(v) for k, v in obj.items() if k not in ("seconds", "stats")}
        if isinstance(obj, list):
            return [strip(v) for v in obj]
        return obj

    assert strip(printed) == strip(expected)


def test_repdim_report_of_point_functions() -> None:
    P = HypothesisClass.from_table(np.eye(4, dtype=int))
    report = repdim_report(P, Fraction(1, 4))
    assert report.verified and report.representation.exact and report.representation.size == 4
    assert report.communication.deterministic == 2 and not report.stopped
    assert report.witness_values == 4 * 4 + 2 * len(report.communication.witness)
    with pytest.raises(InvalidParameterError, match=r"must be a number in \[0, 1/2\]"):
        repdim_report(P, "0.6")


def test_cover_report_needs_one_of_tree_and_depth() -> None:
    H = HypothesisClass.from_table(np.eye(3, dtype=int))
    with pytest.raises(InvalidParameterError, match="exactly one of tree and depth"):
        cover_report(H)
    by_tree = cover_report(H, {"point": 0, "children": [{"point": 1}, {"point": 2}]})
    assert by_tree.depth == 2 and by_tree.verified and by_tree.result.exact
    assert by_tree.result.value <= cover_report(H, depth=2).result.value


def test_theorem_verdict() -> None:
    ok = TheoremCheck("s", "a <= b", Side.point(1, "a"), "<=", Side.point(2, "b"), True)
    unknown = TheoremCheck("s", "a <= b", Side(1, 3, "a"), "<=", Side.point(2, "b"), "unknown")
    bad = TheoremCheck("s", "a <= b", Side.point(3, "a"), "<=", Side.point(2, "b"), False)
    assert theorem_verdict([ok]) == "holds" and theorem_verdict([ok, unknown]) == "unknown"
    assert theorem_verdict([ok, unknown, bad]) == "violated"
    assert theorem_verdict(theorem_report(load(DATA / "thresholds-6.csv"))) == "holds"
