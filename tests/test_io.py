"""Class files (spec §1): round trips, strict refusal of malformed files, CLI exit status 2."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import dimcalc
from dimcalc import ClassFileError, HypothesisClass
from dimcalc.cli import main
from dimcalc.io import dumps_csv, dumps_json, loads_csv, loads_json


def tables(max_rows=8, max_cols=5, max_label=3):
    return st.integers(0, max_cols).flatmap(
        lambda n: st.lists(st.lists(st.integers(0, max_label), min_size=n, max_size=n), min_size=1, max_size=max_rows)
    )


@given(tables(), st.integers(0, 2))
def test_json_round_trip(rows, extra_labels):
    labels = max(2, max((max(r) for r in rows if r), default=0) + 1) + extra_labels
    H = HypothesisClass(rows, num_labels=labels, name="c")
    G = loads_json(dumps_json(H))
    assert G == H and G.num_labels == labels and G.point_names == H.point_names and G.name == "c"


@given(tables(max_cols=4))
def test_csv_round_trip(rows):
    H = HypothesisClass(rows, hypothesis_names=[f"r{i}" for i in range(len(rows))])
    G = loads_csv(dumps_csv(H))
    assert np.array_equal(G.table, H.table) and G.hypothesis_names == H.hypothesis_names


def test_save_and_load(tmp_path):
    H = HypothesisClass([[0, 1, 2], [2, 1, 0]], name="x", metadata={"family": "demo"})
    for name in ("c.json", "c.csv"):
        dimcalc.save(H, tmp_path / name)
        G = dimcalc.load(tmp_path / name)
        assert np.array_equal(G.table, H.table)
    assert dimcalc.load(tmp_path / "c.json").metadata == {"family": "demo"}


BAD_JSON = {
    "ragged": ('{"hypotheses": [[0, 1], [1]]}', "row 1"),
    "negative": ('{"hypotheses": [[0, -1]]}', "negative"),
    "float": ('{"hypotheses": [[0, 0.5]]}', "not an integer"),
    "float-integral": ('{"hypotheses": [[0, 1.0]]}', "not an integer"),
    "boolean": ('{"hypotheses": [[0, true]]}', "not an integer"),
    "nan": ('{"hypotheses": [[0, NaN]]}', "NaN"),
    "infinity": ('{"hypotheses": [[0, Infinity]]}', "Infinity"),
    "string": ('{"hypotheses": [[0, "1"]]}', "not an integer"),
    "null-label": ('{"hypotheses": [[0, null]]}', "not an integer"),
    "label-too-big": ('{"labels": 2, "hypotheses": [[0, 2]]}', "not below"),
    "labels-not-int": ('{"labels": "2", "hypotheses": [[0, 1]]}', "labels"),
    "labels-zero": ('{"labels": 0, "hypotheses": [[0, 0]]}', "labels"),
    "empty-class": ('{"hypotheses": []}', "empty"),
    "no-hypotheses": ('{"name": "x"}', "hypotheses"),
    "hypotheses-not-list": ('{"hypotheses": 3}', "hypotheses"),
    "row-not-list": ('{"hypotheses": [3]}', "row 0"),
    "top-level-list": ("[[0, 1]]", "object"),
    "not-json": ("hello", "not valid JSON"),
    "truncated": ('{"hypotheses": [[0, 1]', "not valid JSON"),
    "domain-length": ('{"domain": ["a"], "hypotheses": [[0, 1]]}', "domain"),
    "domain-duplicate": ('{"domain": ["a", "a"], "hypotheses": [[0, 1]]}', "duplicate"),
    "domain-not-strings": ('{"domain": [1, 2], "hypotheses": [[0, 1]]}', "domain"),
    "names-length": ('{"hypothesis_names": ["a", "b"], "hypotheses": [[0, 1]]}', "hypothesis_names"),
    "name-not-string": ('{"name": 3, "hypotheses": [[0, 1]]}', "name"),
    "metadata-not-object": ('{"metadata": [], "hypotheses": [[0, 1]]}', "metadata"),
    "unknown-key": ('{"hypotheses": [[0, 1]], "lables": 3}', "unknown key 'lables'"),
    "misspelt-hypotheses": ('{"hypothesis": [[0, 1]]}', "missing required key 'hypotheses'"),
    "deep-nesting": ("[" * 100000 + "]" * 100000, "nested too deeply"),
    "huge-label": ('{"hypotheses": [[0, 100000000000000000000000]]}', "too large"),
}

BAD_CSV = {
    "no-header": ("h0,0,1\n", "header"),
    "only-header": ("name,a,b\n", "empty"),
    "ragged": ("name,a,b\nh0,0,1\nh1,0\n", "row 1"),
    "negative": ("name,a,b\nh0,0,-1\n", "row 0, column 1"),
    "float": ("name,a,b\nh0,0,1.5\n", "not a non-negative integer"),
    "blank-label": ("name,a,b\nh0,0,\n", "not a non-negative integer"),
    "duplicate-points": ("name,a,a\nh0,0,1\n", "duplicate"),
}


def _write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text)
    return p


@pytest.mark.parametrize("case", sorted(BAD_JSON))
def test_bad_json_refused(tmp_path, case, capsys):
    text, fragment = BAD_JSON[case]
    p = _write(tmp_path, f"{case}.json", text)
    with pytest.raises(ClassFileError, match=fragment) as info:
        dimcalc.load(p)
    assert str(p) in str(info.value) and "\n" not in str(info.value)
    assert main(["check", str(p), "--dims", "vc"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("dimcalc: error: ") and "Traceback" not in err


@pytest.mark.parametrize("case", sorted(BAD_CSV))
def test_bad_csv_refused(tmp_path, case, capsys):
    text, fragment = BAD_CSV[case]
    p = _write(tmp_path, f"{case}.csv", text)
    with pytest.raises(ClassFileError, match=fragment):
        dimcalc.load(p)
    assert main(["check", str(p), "--dims", "vc"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_missing_empty_directory_binary(tmp_path, capsys):
    cases = [
        tmp_path / "missing.json",
        _write(tmp_path, "empty.json", ""),
        _write(tmp_path, "blank.json", "  \n"),
        tmp_path,
    ]
    b = tmp_path / "binary.json"
    b.write_bytes(b"\xff\xfe\x00garbage")
    cases.append(b)
    for p in cases:
        with pytest.raises(ClassFileError):
            dimcalc.load(p)
        assert main(["check", str(p)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err


def test_oversized_file_refused_before_reading(tmp_path, monkeypatch):
    import dimcalc.io.files as dio

    p = _write(tmp_path, "big.json", json.dumps({"hypotheses": [[0, 1]] * 1000}))
    monkeypatch.setattr(dio, "MAX_FILE_BYTES", 100)
    with pytest.raises(ClassFileError, match="limit"):
        dimcalc.load(p)


def test_oversized_table_refused(tmp_path, monkeypatch):
    import dimcalc.classes.hypothesis_class as hc
    import dimcalc.io.class_files as dio

    monkeypatch.setattr(hc, "MAX_CELLS", 10)
    monkeypatch.setattr(dio, "MAX_CELLS", 10)
    p = _write(tmp_path, "wide.json", json.dumps({"hypotheses": [[0] * 6] * 3}))
    with pytest.raises(ClassFileError, match="too large"):
        dimcalc.load(p)


def test_bad_options_exit_2(tmp_path, capsys):
    p = _write(tmp_path, "ok.json", '{"hypotheses": [[0, 1], [1, 0]]}')
    for argv in (
        ["check", str(p), "--dims", "nope"],
        ["check", str(p), "--time-limit", "-1"],
        ["check", str(p), "--time-limit", "abc"],
        ["check"],
        ["nosuchcommand"],
        ["check", str(p), "--bogus"],
    ):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("dimcalc: error:"), (argv, err)


def test_console_script_exit_status(tmp_path):
    """The installed entry point maps a bad file to exit 2 with one line and no traceback."""
    p = _write(tmp_path, "bad.json", '{"hypotheses": [[0, 1], [1]]}')
    proc = subprocess.run(
        [sys.executable, "-m", "dimcalc.cli", "check", str(p)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": os.getcwd()},
    )
    assert proc.returncode == 2 and proc.stdout == "" and proc.stderr.count("\n") == 1
