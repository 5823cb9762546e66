"""``dimcalc check`` end to end on every shipped class, verified by the outside checker."""

import json
from pathlib import Path

import pytest

from dimcalc.cli import main
from outside_checker import check_report

DATA = Path(__file__).resolve().parent.parent / "data"
CLASS_FILES = sorted(p for p in DATA.glob("*") if p.suffix in (".json", ".csv"))
SPEC_KEYS = {
    "vc",
    "natarajan",
    "graph",
    "littlestone",
    "multiclass_littlestone",
    "psi_littlestone",
    "psi_littlestone_uniform",
}


def test_data_folder_ships_classes():
    assert len(CLASS_FILES) >= 10, "data/ should ship the standard classes"
    assert (DATA / "thresholds-15.json").exists(), "make demo checks data/thresholds-15.json"


@pytest.mark.parametrize("path", CLASS_FILES, ids=[p.name for p in CLASS_FILES])
def test_check_json_on_shipped_class(path, capsys):
    status = main(["check", str(path), "--json", "--time-limit", "60"])
    out = capsys.readouterr().out
    report = json.loads(out)
    assert status == 0, f"{path.name}: every shipped class must check exactly within the limit"
    assert SPEC_KEYS <= set(report["dimensions"])
    for fam in ("N", "bin", "B"):
        assert fam in report["dimensions"]["psi_littlestone"]
    assert set(report["class"]) == {"name", "hypotheses", "distinct_hypotheses", "domain_size", "labels"}
    assert check_report(str(path), report) == []
    for key in ("vc", "littlestone"):
        res = report["dimensions"][key]
        if report["class"]["labels"] > 2:
            assert res["value"] is None and res["reason"]


def test_readable_report(capsys):
    assert main(["check", str(DATA / "thresholds-15.json"), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "littlestone" in out and "witnesses verified by dimcalc's checkers: yes" in out


def test_dims_option_restricts(capsys):
    assert main(["check", str(DATA / "thresholds-15.json"), "--json", "--dims", "vc,littlestone"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report["dimensions"]) == {"vc", "littlestone"}
    assert report["dimensions"]["vc"]["value"] == 1
    assert report["dimensions"]["littlestone"]["value"] == 4  # floor(log2(15 + 1))


def test_time_limit_reports_bounds_and_exit_3(tmp_path, capsys):
    import numpy as np

    rng = np.random.default_rng(7)
    rows = rng.integers(0, 2, size=(3000, 120)).tolist()
    p = tmp_path / "big.json"
    p.write_text(json.dumps({"hypotheses": rows}))
    status = main(["check", str(p), "--json", "--dims", "vc,littlestone", "--time-limit", "0.5"])
    report = json.loads(capsys.readouterr().out)
    assert status == 3
    inexact = [r for r in report["dimensions"].values() if not r["exact"]]
    assert inexact, "a 3000x120 random class cannot be settled in 0.5 s"
    for r in inexact:
        assert r["value"] is None and r["lower"] <= r["upper"]
    assert check_report(str(p), report) == []


def test_user_family_option_matches_brute_force(tmp_path, capsys):
    from brute_littlestone import brute_psi_littlestone
    from dimcalc.io import load

    maps = [[0, 1, None, None], [None, None, 0, 1], [0, 0, 1, 1]]
    fam = tmp_path / "fam.json"
    fam.write_text(json.dumps(maps))
    path = DATA / "random-multiclass.json"
    status = main(
        ["check", str(path), "--json", "--dims", "psi_littlestone,psi_littlestone_uniform", "--family", str(fam)]
    )
    report = json.loads(capsys.readouterr().out)
    assert status == 0
    H = load(path)
    for key, uniform in (("psi_littlestone", False), ("psi_littlestone_uniform", True)):
        res = report["dimensions"][key]["user"]
        assert res["exact"] and res["value"] == brute_psi_littlestone(H, maps, uniform=uniform)
        # every node's map is one of the family's
        stack = [res["witness"]]
        while stack:
            node = stack.pop()
            if "map" in node:
                assert node["map"] in maps
                stack.extend(node["children"])


@pytest.mark.parametrize("content,needle", [("[[0, 1]]", "length 2"), ("{", "not valid JSON"), ("[]", "non-empty")])
def test_bad_family_file_exits_2(tmp_path, capsys, content, needle):
    fam = tmp_path / "fam.json"
    fam.write_text(content)
    assert main(["check", str(DATA / "random-multiclass.json"), "--family", str(fam)]) == 2
    err = capsys.readouterr().err.strip()
    assert needle in err and "\n" not in err


def test_check_jobs_gives_the_same_report_as_one_process():
    from dimcalc.generators import random_class
    from dimcalc.reports.check import check_class

    H = random_class(40, 8, random_state=5)
    one = check_class(H, ["vc", "natarajan", "littlestone", "multiclass_littlestone"])
    two = check_class(H, ["vc", "natarajan", "littlestone", "multiclass_littlestone"], jobs=2)
    assert one.to_json() == two.to_json() and two.verify()
    assert list(two.dimensions) == ["vc", "natarajan", "littlestone", "multiclass_littlestone"]


def test_check_default_time_limit_is_shown_and_none_accepted(tmp_path, capsys):
    import json

    from dimcalc.cli import main

    assert main(["check", "data/thresholds-15.json", "--json", "--dims", "vc"]) == 0
    assert json.loads(capsys.readouterr().out)["time_limit"] == 60.0
    assert main(["check", "data/thresholds-15.json", "--json", "--dims", "vc", "--time-limit", "none"]) == 0
    assert json.loads(capsys.readouterr().out)["time_limit"] is None
