"""``dimcalc cover``, ``theorems`` and ``repdim`` on every class shipped in data/ (issue: they must all work)."""

import json
from pathlib import Path

import pytest

from dimcalc.cli import main
from dimcalc.covers import is_zero_cover, is_zero_cover_fooling_set
from dimcalc.io import load

DATA = Path(__file__).resolve().parent.parent / "data"
CLASS_FILES = sorted(p for p in DATA.glob("*") if p.suffix in (".json", ".csv"))
IDS = [p.name for p in CLASS_FILES]


def _run(capsys, *argv):
    status = main([str(a) for a in argv])
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    return status, out.out


@pytest.mark.slow
@pytest.mark.parametrize("path", CLASS_FILES, ids=IDS)
def test_theorems_hold_on_shipped_class(path, capsys):
    status, out = _run(capsys, "theorems", path, "--json", "--time-limit", 60)
    report = json.loads(out)
    violated = [c["source"] for c in report if c["holds"] is False]
    assert not violated, f"{path.name}: violated {violated}"
    assert status == 0, f"{path.name}: every statement should be decided within the limit"
    assert len(report) >= 8


@pytest.mark.parametrize("path", CLASS_FILES, ids=IDS)
def test_cover_depth_2_on_shipped_class(path, capsys):
    status, out = _run(capsys, "cover", path, "--depth", 2, "--json", "--time-limit", 60)
    obj = json.loads(out)
    assert status == 0 and obj["exact"] and obj["verified"]
    H = load(path)
    w = obj["witness"]
    assert len(w["cover"]) == obj["value"] == len(w["fooling_set"])
    assert is_zero_cover(H, w["tree"], w["cover"]) and is_zero_cover_fooling_set(H, w["tree"], w["fooling_set"])
    assert obj["value"] <= min(H.n_distinct, H.num_labels**2)


@pytest.mark.slow
@pytest.mark.parametrize("path", CLASS_FILES, ids=IDS)
def test_repdim_on_shipped_class(path, capsys):
    status, out = _run(capsys, "repdim", path, "--json", "--time-limit", 10)
    obj = json.loads(out)
    assert status in (0, 3)
    d = obj["drdim"]
    assert d["verified"] is True
    if d["exact"]:
        assert status == 0
    else:
        assert d["lower"] <= d["upper"]
    comm = obj["communication"]
    H = load(path)
    assert comm["deterministic"]["value"] == (H.n_distinct - 1).bit_length()  # ceil(log2 #distinct rows)
