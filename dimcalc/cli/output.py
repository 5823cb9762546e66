"""What the ``dimcalc`` subcommands write: JSON on stdout, witnesses (summarised when huge), files."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .._json import json_default
from ..classes.hypothesis_class import HypothesisClass
from ..io.writers import WITNESS_FILE, write_text_output

__all__ = [
    "printable",
    "class_line",
    "WITNESS_PRINT_LIMIT",
    "PRETTY_JSON_LIMIT",
    "emit_json",
    "present_witness",
    "check_outputs",
]

#: A witness with more JSON values than this is summarised on stdout (``--witness-file PATH`` writes it whole).
WITNESS_PRINT_LIMIT = 500_000


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
        written = write_text_output(
            path,
            _json_chunks(witness),
            what="witness file",
            kind=WITNESS_FILE,
            option="--witness-file",
            inputs=_inputs(args),
            force=getattr(args, "force", False),
            deadline=deadline,
        )
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


def _inputs(args: argparse.Namespace) -> list[str]:
    """The input files named on a command line (the class file, a tree or family file): no output may be one."""
    return [v for v in (getattr(args, key, None) for key in ("file", "tree", "family", "input", "report")) if v]


def check_outputs(args: argparse.Namespace, *options: str) -> None:
    """Refuse, before anything is computed, the output paths of ``args`` that :func:`dimcalc.io.writers.check_output`
    refuses.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line (its inputs and ``--force``).
    *options : str
        Attribute names of output paths, such as ``"witness_file"``.

    Raises
    ------
    InvalidParameterError
        The first refused path (one line).

    Examples
    --------
    >>> check_outputs(argparse.Namespace(witness_file=None, file="c.json"), "witness_file")
    """
    from ..io.writers import CLASS_FILE, check_output

    for key in options:
        path = getattr(args, key, None)
        if path is None:
            continue
        kind = WITNESS_FILE if key == "witness_file" else CLASS_FILE
        flag = "-o" if key == "output" else "--" + key.replace("_", "-")
        check_output(path, what=kind, kind=kind, option=flag, inputs=_inputs(args), force=getattr(args, "force", False))


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


def printable(text: object) -> str:
    """``text`` with every control or format character escaped, for a readable report.

    Names come from files: a name holding a newline or a terminal escape code
    could otherwise paint a forged row (``vc 99 yes``) into the report.  Control
    characters (C0, C1, DEL), format characters (bidirectional overrides, ...)
    and line or paragraph separators are written as ``\\n``, ``\\x1b``,
    ``\\u202e``; a backslash itself stays as it is.  JSON output escapes them already.

    Parameters
    ----------
    text : object
        A name, a file name or a message (``str()`` of it is escaped).

    Returns
    -------
    str
        The text, safe to print.

    Examples
    --------
    >>> print(printable("vc\\n\\x1b[2Kvc 99 yes"))
    vc\\n\\x1b[2Kvc 99 yes
    >>> printable("Ψ-family x1")
    'Ψ-family x1'
    """
    return "".join(_escape(c) for c in str(text))


def _escape(c: str) -> str:
    if c.isprintable() or c == " ":
        return c
    code = ord(c)
    if c == "\n":
        return "\\n"
    if c == "\t":
        return "\\t"
    if c == "\r":
        return "\\r"
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


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
    return f"class {printable(H.name)}: {H.n_distinct} distinct hypotheses, {H.n_points} points, {H.num_labels} labels"


#: Longest JSON document (characters, compact) that :func:`emit_json` indents; longer ones are compact.
PRETTY_JSON_LIMIT = 1 << 20


def emit_json(obj: Any) -> None:
    """Print ``obj`` as one JSON document on stdout (NumPy values and ``to_json()`` objects included).

    Indented by two spaces, unless its compact form is longer than
    :data:`PRETTY_JSON_LIMIT` characters: then it is printed compact (one line,
    the same document), which Python's C encoder writes ~20× faster.

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
    # Python's C encoder writes compact JSON only; indented output goes through its pure-Python encoder
    # (~20x slower: 40 s for the eight depth-13 mistake trees of a check on boxes over 16 x 16). So a
    # document longer than PRETTY_JSON_LIMIT characters is printed compact, on one line (same content).
    text = json.dumps(obj, default=json_default, allow_nan=False, separators=(",", ":"))
    if len(text) <= PRETTY_JSON_LIMIT:
        text = json.dumps(obj, default=json_default, indent=2, allow_nan=False)
    sys.stdout.write(text + "\n")
