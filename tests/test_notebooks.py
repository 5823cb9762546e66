"""Every notebook in notebooks/ runs top to bottom in a fresh kernel without an error.

The runner is ``scripts/run_notebooks.py`` (the same code ``make notebooks``
uses to refresh the stored outputs); here the notebooks are executed in memory
and the files are left untouched.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("run_notebooks", ROOT / "scripts" / "run_notebooks.py")
run_notebooks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(run_notebooks)

NOTEBOOKS = run_notebooks.discover()


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs_clean(path: Path) -> None:
    nb, _seconds = run_notebooks.execute_notebook(path)
    code_cells = [c for c in nb.cells if c.cell_type == "code"]
    assert code_cells, f"{path.name} has no code cells"
    assert all(c.get("execution_count") for c in code_cells), f"{path.name}: a code cell did not run"
    errors = [o for c in code_cells for o in c.get("outputs", []) if o.get("output_type") == "error"]
    assert not errors, f"{path.name}: error outputs {errors}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_is_committed_with_outputs(path: Path) -> None:
    # Notebooks are stored executed so they read well on a code host; `make notebooks` refreshes them.
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    code_cells = [c for c in nb.cells if c.cell_type == "code"]
    assert all(c.get("execution_count") for c in code_cells), \
        f"{path.name} is stored without outputs; run `make notebooks`"
    assert not any(o.get("output_type") == "error" for c in code_cells for o in c.get("outputs", [])), \
        f"{path.name} is stored with an error output; fix it and run `make notebooks`"


def test_notebooks_match_their_builder() -> None:
    # scripts/build_notebooks.py is the source of the notebooks; a hand edit of a .ipynb would be lost.
    spec = importlib.util.spec_from_file_location("build_notebooks", ROOT / "scripts" / "build_notebooks.py")
    builder = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(builder)
    built_here = [p for p in NOTEBOOKS if not p.with_suffix(".py").exists()]  # .py pairs: jupytext sources
    assert sorted(p.stem for p in built_here) == sorted(builder.NOTEBOOKS), \
        "notebooks/ and scripts/build_notebooks.py list different notebooks"
    for path in built_here:
        stored = nbformat.read(path, as_version=4)
        built = builder.build(path.stem)
        assert [(c.cell_type, c.source) for c in stored.cells] == [(c.cell_type, c.source) for c in built.cells], \
            f"{path.name} differs from scripts/build_notebooks.py; run it and `make notebooks`"


@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if p.with_suffix(".py").exists()],
                         ids=[p.stem for p in NOTEBOOKS if p.with_suffix(".py").exists()])
def test_jupytext_notebook_matches_its_script(path: Path) -> None:
    # notebooks/NN-name.py (jupytext percent format) is the source of its .ipynb
    import jupytext
    from jupytext.config import JupytextConfiguration

    config = JupytextConfiguration(formats="ipynb,py:percent", notebook_metadata_filter="-all",
                                   cell_metadata_filter="-all")
    assert jupytext.writes(jupytext.read(path), fmt="py:percent", config=config) == \
        path.with_suffix(".py").read_text(encoding="utf-8"), \
        f"{path.name} differs from {path.with_suffix('.py').name}; run jupytext --to ipynb and re-execute it"
