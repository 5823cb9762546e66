"""Reading the class file named on the command line."""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

from ..classes.hypothesis_class import HypothesisClass
from ..io import load
from ..search.budget import Progress
from .options import wants_progress

__all__ = ["load_class_arg", "PROGRESS_BYTES"]


#: Class files at least this large get progress lines while they load.
PROGRESS_BYTES = 4 << 20


def load_class_arg(
    path: str, args: argparse.Namespace | None = None, deadline: Any = None, *, graph: bool = False
) -> HypothesisClass:
    """Load the class file named on the command line (errors become exit 2).

    Commands create their :class:`~dimcalc.search.budget.Deadline` before calling
    this, so reading and parsing the file count against ``--time-limit``.
    With ``args``, a large file gets progress lines on stderr when progress is
    on; with ``deadline``, a load that used up the whole limit says so.

    Parameters
    ----------
    path : str
        The class file (``.json``, ``.csv``, ``.npy`` or ``.npz``).
    args : argparse.Namespace, optional
        The parsed command line, for its progress options.
    deadline : Deadline, optional
        The command's deadline, already running.
    graph : bool
        Read ``path`` as an edge list (``dimcalc check --graph``; see
        :func:`dimcalc.io.graph_files.read_edge_list`).

    Returns
    -------
    HypothesisClass
        The class, as :func:`dimcalc.load` reads it.

    Raises
    ------
    ClassFileError
        If the file cannot be read or breaks the format (the CLI exits 2).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from dimcalc import save
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "two.json"
    >>> save(HypothesisClass.from_table([[0, 1], [1, 1]]), path)
    >>> load_class_arg(str(path)).n_distinct
    2
    """
    start = time.monotonic()
    try:
        size = os.stat(path).st_size
    except OSError:
        size = 0
    log = Progress(args is not None and size >= PROGRESS_BYTES and wants_progress(args), "load")
    log.update(f"reading {path} ({size / (1 << 20):.1f} MB) ...", force=True)
    if graph:  # an edge list: its closed-neighbourhood set system (dimcalc.io.graph_files)
        from ..io.graph_files import read_edge_list

        H = read_edge_list(path)
    else:
        H = load(path)
    log.update(
        f"loaded {H.n_hypotheses} hypotheses x {H.n_points} points in {time.monotonic() - start:.1f} s", force=True
    )
    if deadline is not None and deadline.seconds is not None and deadline.expired():
        print(
            f"dimcalc: note: reading {path} took the whole time limit ({deadline.seconds:g} s); "
            "only bounds can be reported",
            file=sys.stderr,
        )
    return H
