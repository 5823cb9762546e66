"""CLI: dimcalc cover / theorems / repdim (JSON shape, exit statuses, refused input)."""

from __future__ import annotations

import json

import pytest

from dimcalc import HypothesisClass, save
from dimcalc.cli import main
from dimcalc.covers import is_zero_cover, is_zero_cover_fooling_set


@pytest.fixture
def class_file(tmp_path):
    path = tmp_path / "thr.json"
    save(HypothesisClass.from_table([[0, 0, 0], [0, 0, 1], [0, 1, 1], [1, 1, 1]], name="thr"), path)
    return path


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_cover_tree_json(capsys, class_file, tmp_path):
    tree = {"point": 1, "children": [{"point": 2}, {"point": 0}]}
    tree_file = tmp_path / "tree.json"
    tree_file.write_text(json.dumps(tree))
    status, out, _ = run(capsys, "cover", class_file, "--tree", tree_file, "--json")
    assert status == 0
    obj = json.loads(out)
    assert obj["value"] == 4 and obj["exact"] is True and obj["verified"] is True
    H = HypothesisClass.from_table([[0, 0, 0], [0, 0, 1], [0, 1, 1], [1, 1, 1]])
    assert is_zero_cover(H, tree, obj["witness"]["cover"])
    assert is_zero_cover_fooling_set(H, tree, obj["witness"]["fooling_set"])
    status, out, _ = run(capsys, "cover", class_file, "--tree", tree_file)
    assert status == 0 and "N(0, H, z)" in out and "verified: yes" in out


def test_cover_depth_and_errors(capsys, class_file, tmp_path):
    status, out, _ = run(capsys, "cover", class_file, "--depth", 2, "--json")
    obj = json.loads(out)
    assert status == 0 and obj["value"] == 4 and obj["bounds"]["thm_5_6_sum"] == 4
    bad = tmp_path / "bad.json"
    bad.write_text('{"point": 0, "children": [{"point": 1}]}')
    status, _, err = run(capsys, "cover", class_file, "--tree", bad)
    assert status == 2 and err.count("\n") == 1 and "two nodes" in err
    status, _, err = run(capsys, "cover", class_file, "--tree", tmp_path / "missing.json")
    assert status == 2 and "no such file" in err and "missing.json" in err
    status, _, err = run(capsys, "cover", class_file, "--depth", -1)
    assert status == 2
    status, _, err = run(capsys, "cover", class_file)
    assert status == 2


def test_theorems_json(capsys, class_file):
    status, out, _ = run(capsys, "theorems", class_file, "--json")
    report = json.loads(out)
    assert status == 0 and isinstance(report, list) and report
    for c in report:
        assert {"source", "statement", "lhs", "rhs", "exact", "holds"} <= set(c)
        assert c["holds"] is True
    status, out, _ = run(capsys, "theorems", class_file)
    assert status == 0 and "BGS Lemma 5.11" in out


def test_repdim(capsys, class_file):
    status, out, _ = run(capsys, "repdim", class_file, "--epsilon", "1/4", "--json")
    obj = json.loads(out)
    assert status == 0 and obj["drdim"]["exact"] and obj["drdim"]["verified"]
    assert obj["communication"]["deterministic"]["value"] == 2
    status, _, err = run(capsys, "repdim", class_file, "--epsilon", "2")
    assert status == 2 and "epsilon" in err
