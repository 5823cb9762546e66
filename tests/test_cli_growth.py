"""``dimcalc growth``: π_H(m) on every shipped class against the definition-level brute force."""

import json
from math import comb
from pathlib import Path

import pytest

from brute_vc import brute_growth, brute_vc
from dimcalc.cli import main
from dimcalc.io import load

DATA = Path(__file__).resolve().parent.parent / "data"
SMALL = sorted(p for p in DATA.glob("*") if p.suffix in (".json", ".csv") and load(p).n_distinct <= 200)


# make test-fast runs the classes of at most 100 distinct hypotheses; make test runs all of SMALL.
@pytest.mark.parametrize(
    "path",
    [p if load(p).n_distinct <= 100 else pytest.param(p, marks=pytest.mark.slow) for p in SMALL],
    ids=[p.name for p in SMALL],
)
def test_growth_json_matches_brute_force(path, capsys):
    status = main(["growth", str(path), "--json", "--max-m", "4"])
    report = json.loads(capsys.readouterr().out)
    assert status == 0
    H = load(path)
    table = H.distinct_rows.tolist()
    # --max-m is capped at the number of points (pi_H(m) counts patterns on m of the n points)
    assert [row["m"] for row in report["growth"]] == list(range(min(4, H.n_points) + 1))
    for row in report["growth"]:
        m = row["m"]
        assert row["exact"] and row["verified"]
        assert row["value"] == brute_growth(table, H.n_points, m)
        assert row["value"] <= row["trivial"] == min(H.n_distinct, H.num_labels**m)
        if H.is_binary:
            d = brute_vc(table, H.n_points)[0]
            assert row["sauer_shelah"] == sum(comb(m, i) for i in range(d + 1))
            assert row["value"] <= row["sauer_shelah"]
        else:
            assert row["sauer_shelah"] is None


def test_growth_readable_table(capsys):
    assert main(["growth", str(DATA / "intervals-10.json")]) == 0
    out = capsys.readouterr().out
    assert "Sauer-Shelah" in out and "VC dimension d = 2" in out
    # m = 3 on intervals: 7 patterns, Sauer-Shelah 1 + 3 + 3 = 7
    assert any(line.split()[:3] == ["3", "7", "7"] for line in out.splitlines())


@pytest.mark.parametrize("argv", [["--max-m", "-1"], ["--max-m", "x"], ["--time-limit", "0"]])
def test_growth_bad_options_exit_2(argv, capsys):
    assert main(["growth", str(DATA / "intervals-10.json"), *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "Traceback" not in err
