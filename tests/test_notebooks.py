"""The notebooks: each ``notebooks/NN-name.py`` (jupytext percent format, the source) is paired with
``notebooks/NN-name.ipynb`` (its executed twin, committed with outputs), the two are in sync, and every
notebook runs top to bottom in a fresh kernel without an error.

The runner is ``scripts/run_notebooks.py`` (the same code ``make notebooks`` uses to refresh the stored
outputs); here the notebooks are executed in memory and the files are left untouched.  Execution is
marked ``notebooks`` (``make test`` runs it, ``make test-fast`` does not).
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import jupytext
import nbformat
import pytest
from jupytext.compare import compare_cells
from jupytext.config import load_jupytext_config

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK_DIR = ROOT / "notebooks"
_spec = importlib.util.spec_from_file_location("run_notebooks", ROOT / "scripts" / "run_notebooks.py")
run_notebooks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(run_notebooks)

NOTEBOOKS = run_notebooks.discover()
SOURCES = sorted(NOTEBOOK_DIR.glob("[0-9]*.py"))
FORMAT = "py:percent"
FIX = "edit the .py, then run `make notebooks` (jupytext --sync, then execute)"


def test_notebooks_exist_in_pairs() -> None:
    assert NOTEBOOKS, "no notebooks found"
    assert [p.stem for p in NOTEBOOKS] == [p.stem for p in SOURCES], (
        f"every notebooks/*.ipynb needs its percent-format .py and vice versa; {FIX}"
    )


def test_jupytext_configuration_pairs_ipynb_with_percent_scripts() -> None:
    config = load_jupytext_config(str(NOTEBOOK_DIR))
    assert config is not None, "no jupytext configuration ([tool.jupytext] in pyproject.toml)"
    formats = {f.strip() for group in config.formats for f in group.split(",")}
    assert {FORMAT, "ipynb"} <= formats, config.formats


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_script_and_ipynb_are_in_sync(path: Path) -> None:
    source = path.with_suffix(".py")
    config = load_jupytext_config(str(NOTEBOOK_DIR))
    stored = jupytext.read(path)
    from_script = jupytext.read(source, fmt=FORMAT, config=config)
    # Same cells (type and source), with a readable diff when they are not ...
    compare_cells(
        from_script.cells,
        stored.cells,
        compare_outputs=False,
        compare_ids=False,
        cell_metadata_filter="-all",
        allow_removed_final_blank_line=False,
    )
    # ... and the .py is exactly what `jupytext --sync` writes from the .ipynb (nothing left to sync).
    assert jupytext.writes(stored, fmt=FORMAT, config=config) == source.read_text(encoding="utf-8"), (
        f"{source.name} and {path.name} are out of sync; {FIX}"
    )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_is_committed_with_outputs(path: Path) -> None:
    # Notebooks are stored executed so they read well on a code host; `make notebooks` refreshes them.
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    code_cells = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.get("execution_count") for c in code_cells), (
        f"{path.name} is stored without outputs; run `make notebooks`"
    )
    assert not any(o.get("output_type") == "error" for c in code_cells for o in c.get("outputs", [])), (
        f"{path.name} is stored with an error output; fix it and run `make notebooks`"
    )


@pytest.mark.notebooks
@pytest.mark.parametrize(
    "path", [pytest.param(p, marks=pytest.mark.xdist_group(f"notebook-{p.stem}")) for p in NOTEBOOKS],
    ids=[p.stem for p in NOTEBOOKS],
)  # fmt: skip
def test_notebook_runs_clean(path: Path, executed_notebook) -> None:
    # The session's one fresh run of this notebook (tests/test_notebook_outputs.py compares its outputs).
    nb, _seconds = executed_notebook(path)
    code_cells = [c for c in nb.cells if c.cell_type == "code"]
    assert code_cells, f"{path.name} has no code cells"
    assert all(c.get("execution_count") for c in code_cells), f"{path.name}: a code cell did not run"
    errors = [o for c in code_cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors, f"{path.name}: error outputs {errors}"


@pytest.mark.xdist_group("loadgroup-check")
def test_xdist_groups_are_honoured(request) -> None:
    """Under ``make test`` (``--dist loadgroup``) the tests of one notebook share one worker and one execution
    (``conftest.executed_notebook``); pytest-xdist marks a grouped test by an ``@group`` suffix on its id.  pytest
    9.2 with pytest-xdist 3.8 loses it without a word (pytest-xdist issue #1386) and each notebook runs twice:
    this fails then (pyproject pins ``pytest < 9.2``)."""
    if not hasattr(request.config, "workerinput") or not request.config.getvalue("loadgroup"):
        pytest.skip("not on a pytest-xdist worker with --dist loadgroup")
    assert request.node.nodeid.endswith("@loadgroup-check"), request.node.nodeid
