"""The stored notebook outputs are what a re-run prints (issue 22 item 6: ``make notebooks`` leaves a
clean checkout clean).

Each notebook named here is executed afresh and its text outputs compared with the committed ones,
timings masked (they vary from run to run; the values, witnesses included, must not).  Marked
``notebooks`` (they take a minute each): ``make test`` runs them, ``make test-fast`` does not.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
#: Notebooks whose outputs once went stale (witnesses of an older search order); others may join.
CHECKED = ("01-tour", "06-sweeps")

#: Timings: "10.0 s", "398 classes/s", and a table's last column when its header says "seconds".
_TIMING = re.compile(r"\d+(?:\.\d+)?(?= ?s\b)|\d+(?:\.\d+)?(?= classes/s)")
_SECONDS_COLUMN = re.compile(r"\| \d+(?:\.\d+)? \|$", re.M)
#: Timings inside a result's repr: ``'seconds': 0.0088`` in its stats, a report's ``seconds={...}``.
_STATS_SECONDS = re.compile(r"('seconds': )[0-9.e+-]+")
_SECONDS_DICT = re.compile(r"seconds=\{[^}]*\}")


def _mask(text: str) -> str:
    text = _TIMING.sub("T", text)
    text = _SECONDS_DICT.sub("seconds={T}", _STATS_SECONDS.sub(r"\1T", text))
    if "| seconds |" in text:
        text = _SECONDS_COLUMN.sub("| T |", text)
    return text


def _text_outputs(nb) -> list[str]:
    out = []
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for o in cell.get("outputs", []):
            if o.get("output_type") == "stream":
                text = o.get("text", "")
            else:
                data = o.get("data", {})
                text = data.get("text/markdown") or data.get("text/plain") or ""
            text = "".join(text) if isinstance(text, list) else str(text)
            out.append(_mask(text))
    return out


def test_timings_are_masked_and_values_kept():
    assert _mask("3983 computed in 10.0 s (398 classes/s), dimension 2") == (
        "3983 computed in T s (T classes/s), dimension 2"
    )
    table = "| size | classes | seconds |\n|---|---|---|\n| 4×3×2 | 20 | 0.01 |"
    assert _mask(table) == "| size | classes | seconds |\n|---|---|---|\n| 4×3×2 | 20 | T |"


@pytest.mark.notebooks
@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xdist_group(f"notebook-{n}")) for n in CHECKED])
def test_committed_outputs_match_a_fresh_run(name, executed_notebook):
    nbformat = pytest.importorskip("nbformat")
    path = NOTEBOOKS / f"{name}.ipynb"
    stored = nbformat.read(path, as_version=4)
    # The session's one fresh run (conftest.executed_notebook; test_notebook_runs_clean checks the same run).
    fresh, _seconds = executed_notebook(path)
    assert _text_outputs(fresh) == _text_outputs(stored), f"{path.name}: stored outputs are stale; run `make notebooks`"
