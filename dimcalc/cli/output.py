"""What the ``dimcalc`` subcommands write: JSON on stdout, witnesses (summarised when huge), files."""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from typing import Any

from .._json import json_default
from ..classes.hypothesis_class import HypothesisClass
from ..errors import InvalidParameterError

__all__ = ["class_line", "WITNESS_PRINT_LIMIT", "emit_json", "present_witness", "write_file_atomically"]

#: A witness with more JSON values than this is summarised on stdout (``--witness-file PATH`` writes it whole).
WITNESS_PRINT_LIMIT = 500_000


def write_file_atomically(path: str, chunks: Any, *, what: str = "file", deadline: Any = None) -> bool:
    """Write text to ``path`` through a uniquely named temporary file in the same folder, renamed into place.

    Concurrent writers never share a temporary file and readers never see half a file.

    Parameters
    ----------
    path : str
        The file to write.
    chunks : iterable of str
        The text, in pieces.
    what : str, default "file"
        What the file is, named in an error message (e.g. ``"witness file"``).
    deadline : Deadline, optional
        Stop (leaving ``path`` untouched) once it expires.

    Returns
    -------
    bool
        ``True`` when written, ``False`` when ``deadline`` expired first.

    Raises
    ------
    InvalidParameterError
        If ``path`` is a directory or cannot be written (one line naming the file).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "out.json"
    >>> write_file_atomically(str(target), ["[1, ", "2]"]), target.read_text()
    (True, '[1, 2]')
    """
    target = os.path.abspath(path)
    if os.path.isdir(target):
        raise InvalidParameterError(f"{path}: is a directory; give a file name for the {what}")
    try:
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(target), prefix=os.path.basename(target) + ".", suffix=".tmp")
    except OSError as exc:
        raise InvalidParameterError(f"{path}: cannot write the {what} ({exc.strerror or exc})") from None
    ok = False
    try:
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)  # as open() would create it (mkstemp makes it private)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            for i, chunk in enumerate(chunks):
                fh.write(chunk)
                if deadline is not None and (len(chunk) > 4096 or not i % 1024) and deadline.expired():
                    return False
        os.replace(tmp, target)
        ok = True
        return True
    except OSError as exc:
        raise InvalidParameterError(f"{path}: cannot write the {what} ({exc.strerror or exc})") from None
    finally:
        if not ok:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def present_witness(witness: Any, size: int, args: argparse.Namespace, deadline: Any = None) -> tuple[Any, bool]:
    """The witness as ``--json`` shows it, after writing it whole to ``--witness-file`` (if given).

    Parameters
    ----------
    witness : object
        The full witness (JSON-ready).
    size : int
        How many JSON values it holds.
    args : argparse.Namespace
        The parsed command line (its ``witness_file``, if any).
    deadline : Deadline, optional
        Writing the file stops (and leaves no file) once it expires.

    Returns
    -------
    tuple
        ``(shown, written)``: ``shown`` is the witness itself when it has at most
        :data:`WITNESS_PRINT_LIMIT` values, else a summary ``{"omitted": why, "values": size,
        "file": PATH or null}``; ``written`` whether ``--witness-file`` was written.

    Examples
    --------
    >>> import argparse
    >>> present_witness([0, 2], 2, argparse.Namespace(witness_file=None))
    ([0, 2], False)
    """
    path = getattr(args, "witness_file", None)
    written = None
    if path is not None:
        written = write_file_atomically(path, _json_chunks(witness), what="witness file", deadline=deadline)
        if not written:
            print(
                f"dimcalc: note: the time limit was reached while writing {path}; it was not written", file=sys.stderr
            )
    if size <= WITNESS_PRINT_LIMIT:
        return witness, bool(written)
    return (
        {
            "omitted": f"the witness has {size:,} values, over the {WITNESS_PRINT_LIMIT:,} printed inline",
            "values": size,
            "file": path if written else None,
        },
        bool(written),
    )


def _json_chunks(obj: Any, levels: int = 2) -> Any:
    """JSON text of ``obj`` in pieces: the top ``levels`` of containers are split, each element below is
    encoded whole by the C encoder (fast), so a big witness is written piece by piece, the deadline
    polled in between, and never held as one string."""
    if levels and isinstance(obj, dict):
        yield "{"
        for i, (key, value) in enumerate(obj.items()):
            yield ("," if i else "") + json.dumps(str(key)) + ":"
            yield from _json_chunks(value, levels - 1)
        yield "}"
    elif levels and isinstance(obj, (list, tuple)):
        yield "["
        for i, value in enumerate(obj):
            if i:
                yield ","
            yield from _json_chunks(value, levels - 1)
        yield "]"
    else:
        yield json.dumps(obj, default=json_default, allow_nan=False)


def class_line(H: HypothesisClass) -> str:
    """The first line of a readable report: the class's name and size.

    Parameters
    ----------
    H : HypothesisClass
        The class.

    Returns
    -------
    str
        ``"class NAME: N distinct hypotheses, P points, K labels"``.

    Examples
    --------
    >>> class_line(HypothesisClass.from_table([[0, 1], [1, 1]], name="two"))
    'class two: 2 distinct hypotheses, 2 points, 2 labels'
    """
    return f"class {H.name}: {H.n_distinct} distinct hypotheses, {H.n_points} points, {H.num_labels} labels"


def emit_json(obj: Any) -> None:
    """Print ``obj`` as one JSON document on stdout (NumPy values and ``to_json()`` objects included).

    Parameters
    ----------
    obj : object
        The document.

    Examples
    --------
    >>> import numpy as np
    >>> emit_json({"value": np.int64(2), "points": (0, 3)})
    {
      "value": 2,
      "points": [
        0,
        3
      ]
    }
    """
    sys.stdout.write(json.dumps(obj, default=json_default, indent=2, allow_nan=False) + "\n")
