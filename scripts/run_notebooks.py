#!/usr/bin/env python
"""Execute dimcalc's notebooks top to bottom in a fresh kernel.

Usage::

    python scripts/run_notebooks.py                # run every notebooks/*.ipynb, fail on any error
    python scripts/run_notebooks.py --write        # ... and save the outputs back into the files
    python scripts/run_notebooks.py --only 01-tour # run one notebook (name, stem or prefix)

Each notebook runs in its own fresh ``python3`` kernel (the kernel spec that
ipykernel installs into the running interpreter's environment, so the kernel
uses the same venv as this script) with the **notebooks' folder as working
directory**, exactly as Jupyter does when you open a notebook there.  The
kernel gets ``MPLBACKEND=Agg`` and ``PYTHONHASHSEED=0`` so that plots render
headless and outputs are reproducible.

A notebook fails when any cell raises or when the whole notebook takes longer
than ``--timeout`` seconds (a wall-clock budget per notebook, not per cell).
Without ``--write`` the files are never modified.  Exit status: 0 when every
notebook ran clean, 1 otherwise.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

__all__ = ["NOTEBOOK_DIR", "DEFAULT_TIMEOUT", "NotebookFailure", "discover", "execute_notebook", "main"]

NOTEBOOK_DIR = Path(__file__).resolve().parent.parent / "notebooks"
#: Wall-clock budget of one notebook, in seconds.
DEFAULT_TIMEOUT = 300.0
KERNEL_NAME = "python3"


class NotebookFailure(RuntimeError):
    """A notebook raised, timed out or lost its kernel."""


def discover(only: list[str] | None = None, directory: Path = NOTEBOOK_DIR) -> list[Path]:
    """The notebooks to run, sorted by name; ``only`` filters by file name, stem or prefix."""
    paths = sorted(p for p in directory.glob("*.ipynb") if not p.name.startswith("."))
    if not only:
        return paths
    chosen = [p for p in paths if any(p.name == o or p.stem == o or p.name.startswith(o) for o in only)]
    if not chosen:
        names = ", ".join(p.stem for p in paths) or "none"
        raise SystemExit(f"run_notebooks: no notebook matches {only}; available: {names}")
    return chosen


def execute_notebook(path: Path, *, timeout: float = DEFAULT_TIMEOUT) -> tuple[nbformat.NotebookNode, float]:
    """Run ``path`` in a fresh kernel and return the executed notebook and its run time.

    Raises :class:`NotebookFailure` naming the notebook and the failing cell.
    The file itself is not modified.
    """
    nb = nbformat.read(path, as_version=4)
    deadline = time.monotonic() + timeout

    def remaining(_cell: object) -> int:
        # nbclient asks before every cell: the budget is for the whole notebook.
        return max(1, int(deadline - time.monotonic()))

    client = NotebookClient(
        nb,
        kernel_name=KERNEL_NAME,
        timeout=int(timeout),
        timeout_func=remaining,
        startup_timeout=120,
        allow_errors=False,
        record_timing=False,
        resources={"metadata": {"path": str(path.parent)}},
    )
    env_before = {k: os.environ.get(k) for k in ("MPLBACKEND", "PYTHONHASHSEED")}
    os.environ["MPLBACKEND"] = "Agg"
    os.environ["PYTHONHASHSEED"] = "0"
    start = time.monotonic()
    try:
        client.execute()
    except CellTimeoutError as exc:
        raise NotebookFailure(f"{path.name}: exceeded its {timeout:.0f} s budget\n{exc}") from None
    except CellExecutionError as exc:
        raise NotebookFailure(f"{path.name}: a cell raised\n{exc}") from None
    except DeadKernelError as exc:
        raise NotebookFailure(f"{path.name}: the kernel died ({exc})") from None
    finally:
        for key, value in env_before.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return nb, time.monotonic() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="save the executed outputs back into the notebooks")
    parser.add_argument(
        "--only", action="append", metavar="NAME", help="run only this notebook (file name, stem or prefix); repeatable"
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        help=f"wall-clock budget per notebook in seconds (default {DEFAULT_TIMEOUT:.0f})",
    )
    args = parser.parse_args(argv)
    paths = discover(args.only)
    if not paths:
        print(f"run_notebooks: no notebooks in {NOTEBOOK_DIR}", file=sys.stderr)
        return 1
    failures = 0
    for path in paths:
        try:
            nb, seconds = execute_notebook(path, timeout=args.timeout)
        except NotebookFailure as exc:
            failures += 1
            print(f"FAIL {exc}", file=sys.stderr)
            continue
        if args.write:
            nbformat.write(nb, path)
        print(f"ok   {path.name} ({seconds:.1f} s){' written' if args.write else ''}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
