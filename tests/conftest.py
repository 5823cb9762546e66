"""Shared test configuration: deterministic hypothesis runs (no flaky CI), safe under pytest-xdist.

``dimcalc`` (the default profile, ``make test``) draws 100 examples per property; ``fast``
(``make test-fast``) draws 15 of the same derandomised examples.  A property that asks for its own
count (``examples(n)`` from ``profile_examples.py``) draws ``n`` in the full run and 15 % of it in the
fast one.  Neither profile uses an example database, so parallel workers share no files.  Choose
one with ``DIMCALC_HYPOTHESIS_PROFILE``.

Executing a notebook takes seconds to a minute: :func:`executed_notebook` runs each one once per
session and hands the same fresh run to every test that reads it (the tests of one notebook carry
the same ``xdist_group``, and ``make test`` distributes with ``--dist loadgroup``, so they share a
worker).

The longest tests start first (:func:`pytest_collection_modifyitems`): the notebooks, then the tests marked
``slow``, then the rest in their usual order.  With two workers, a minute-long test that happened to start
last would run alone at the end while the other worker idles.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent

settings.register_profile(
    "dimcalc",
    deadline=None,
    derandomize=True,
    database=None,
    max_examples=100,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.register_profile("fast", parent=settings.get_profile("dimcalc"), max_examples=15)
settings.load_profile(os.environ.get("DIMCALC_HYPOTHESIS_PROFILE", "dimcalc"))


#: Where a test starts: notebooks (a minute each), then ``slow`` tests, then the rest (seconds or less).
_START_ORDER = ("notebooks", "slow")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Start the longest tests first (see the module docstring); the order within each kind is kept.

    pytest-xdist hands out tests in collection order (``--dist loadgroup`` first gives out the groups with
    more than one test, the notebooks'), so the short tests fill the workers' tails.
    """

    def rank(item: pytest.Item) -> int:
        return next((i for i, m in enumerate(_START_ORDER) if item.get_closest_marker(m)), len(_START_ORDER))

    items.sort(key=rank)


def notebook_runner() -> ModuleType:
    """``scripts/run_notebooks.py`` (the runner ``make notebooks`` uses), imported once."""
    module = sys.modules.get("run_notebooks")
    if module is None:
        spec = importlib.util.spec_from_file_location("run_notebooks", ROOT / "scripts" / "run_notebooks.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["run_notebooks"] = module
        spec.loader.exec_module(module)
    return module


_NOTEBOOK_RUNS: dict[Path, tuple[Any, float] | BaseException] = {}


@pytest.fixture(scope="session")
def executed_notebook() -> Callable[[Path], tuple[Any, float]]:
    """``executed_notebook(path)``: ``path`` executed in a fresh kernel, once per session (a failure is re-raised)."""

    def run(path: Path) -> tuple[Any, float]:
        key = Path(path).resolve()
        if key not in _NOTEBOOK_RUNS:
            try:
                _NOTEBOOK_RUNS[key] = notebook_runner().execute_notebook(key)
            except Exception as exc:  # every test of this notebook fails with the same error
                _NOTEBOOK_RUNS[key] = exc
        done = _NOTEBOOK_RUNS[key]
        if isinstance(done, BaseException):
            raise done
        nb, seconds = done
        return nb, seconds

    return run


@pytest.fixture(scope="module")
def local_cluster() -> Any:
    """``(cluster, client)``: a Dask ``LocalCluster`` of 2 one-thread worker processes and its client, one per
    test module (the tests of ``scheduler=``); skipped where ``distributed`` is not installed."""
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=50
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        yield cluster, client
