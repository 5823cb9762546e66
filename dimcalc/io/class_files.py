"""Class files of the interface spec §1: JSON and CSV, read strictly and written atomically.

Loading is strict and happens once, at the boundary: a file that breaks the
format raises :class:`~dimcalc.errors.ClassFileError` with a one-line message
naming the file, the place (key, row, column) and what is wrong.  ``.npy`` /
``.npz`` names go to :mod:`dimcalc.io.numpy_files`.
"""

from __future__ import annotations

import csv
import io as _io
import json
import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ..classes.hypothesis_class import MAX_CELLS, HypothesisClass
from ..errors import ClassFileError, InvalidParameterError
from .files import MAX_FILE_BYTES, build_class, parse_json_text, read_text_file
from .numpy_files import load_npy, load_npz, save_npy, save_npz
from .writers import CLASS_FILE, STDOUT, check_output, write_output

__all__ = ["load", "save", "check_text_size", "loads_json", "loads_csv", "dumps_json", "dumps_csv"]

_NUMPY_LOADERS = {".npy": load_npy, ".npz": load_npz}
_NUMPY_SAVERS = {".npy": save_npy, ".npz": save_npz}

_JSON_KEYS = {"name", "domain", "labels", "hypotheses", "hypothesis_names", "metadata"}


def load(path: str | os.PathLike) -> HypothesisClass:
    """Load a class file (``.json``, ``.csv``, ``.npy`` or ``.npz``, chosen by extension).

    Parameters
    ----------
    path : str or path-like
        The file.  A name ending in ``.csv`` is read as CSV, ``.npy`` /
        ``.npz`` as numpy arrays (memory-mapped; :func:`load_npy`,
        :func:`load_npz`); anything else as JSON.

    Returns
    -------
    HypothesisClass

    Raises
    ------
    ClassFileError
        If the file is missing, unreadable, too large, or breaks spec §1.

    Examples
    --------
    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "t.json")
    >>> _ = open(p, "w").write('{"hypotheses": [[0, 0, 1], [0, 1, 1], [1, 1, 1]]}')
    >>> load(p).n_hypotheses
    3
    """
    path = Path(path)
    if path.name.lower().endswith((".sets", ".sets.gz", ".mtx", ".mtx.gz")):  # set systems: stored sparse
        from .graph_files import load_set_system

        return load_set_system(path)
    if path.suffix.lower() in _NUMPY_LOADERS:
        return _NUMPY_LOADERS[path.suffix.lower()](path)
    text = read_text_file(path)
    if path.suffix.lower() == ".csv":
        return loads_csv(text, source=str(path))
    return loads_json(text, source=str(path))


def loads_json(text: str, *, source: str = "<json>") -> HypothesisClass:
    """Parse a spec §1 JSON class from a string (``source`` names it in errors)."""
    obj = parse_json_text(text, source, what="class file")
    if not isinstance(obj, dict):
        raise ClassFileError(
            f"{source}: top level must be a JSON object with a 'hypotheses' key; got {type(obj).__name__}"
        )
    if "hypotheses" not in obj:
        raise ClassFileError(f"{source}: missing required key 'hypotheses'")
    unknown = sorted(set(obj) - _JSON_KEYS)
    if unknown:
        raise ClassFileError(
            f"{source}: unknown key {unknown[0]!r}; allowed keys are {', '.join(sorted(_JSON_KEYS))} "
            "(put anything else under 'metadata')"
        )
    rows = obj["hypotheses"]
    if not isinstance(rows, list):
        raise ClassFileError(f"{source}: key 'hypotheses' must be a list of rows; got {type(rows).__name__}")
    if rows and isinstance(rows[0], list) and len(rows) * len(rows[0]) > MAX_CELLS:
        raise ClassFileError(f"{source}: key 'hypotheses': table too large (over {MAX_CELLS} cells)")
    labels = obj.get("labels")
    if labels is not None and (isinstance(labels, bool) or not isinstance(labels, int) or labels < 1):
        raise ClassFileError(
            f"{source}: key 'labels' must be a positive integer (the number of labels k+1); got {labels!r}"
        )
    name = obj.get("name")
    if name is not None and not isinstance(name, str):
        raise ClassFileError(f"{source}: key 'name' must be a string; got {type(name).__name__}")
    metadata = obj.get("metadata")
    if metadata is not None and not isinstance(metadata, dict):
        raise ClassFileError(f"{source}: key 'metadata' must be an object; got {type(metadata).__name__}")
    for key in ("domain", "hypothesis_names"):
        if key in obj and obj[key] is not None and not isinstance(obj[key], list):
            raise ClassFileError(f"{source}: key {key!r} must be a list of strings; got {type(obj[key]).__name__}")
    table = _fast_table(rows, text)
    return build_class(
        rows if table is None else table,
        "key 'hypotheses', ",
        source,
        num_labels=labels,
        point_names=obj.get("domain"),
        hypothesis_names=obj.get("hypothesis_names"),
        name=name,
        metadata=metadata,
    )


def _fast_table(rows: list, text: str) -> np.ndarray | None:
    """The rows as one integer array when numpy can take them as they are (the common case): the
    class then validates them vectorised instead of cell by cell.  None sends the rows through the
    cell-by-cell check, which names the first bad cell.  JSON ``true``/``false`` would pass numpy as
    1/0, so a text containing them always takes the slow path."""
    if "true" in text or "false" in text or not rows:
        return None
    try:
        arr = np.array(rows)
    except (ValueError, OverflowError, TypeError):
        return None
    if arr.ndim != 2 or arr.dtype.kind not in "iu" or arr.shape[1] == 0:
        return None
    return arr


def _parse_label(cell: str, source: str, r: int, c: int) -> int:
    s = cell.strip()
    if not s or not (s.isdigit() and s.isascii()):
        raise ClassFileError(
            f"{source}: row {r}, column {c}: label {cell!r} is not a non-negative integer; labels are integers 0..k"
        )
    if len(s) > 6:
        raise ClassFileError(f"{source}: row {r}, column {c}: label {s} is too large")
    return int(s)


def loads_csv(text: str, *, source: str = "<csv>") -> HypothesisClass:
    """Parse a spec §1 CSV class: header ``name,<points...>``, then ``name,labels...`` rows.

    Row and column numbers in errors count hypotheses and points from 0 (the
    header is not a row; the name column is not a point).
    """
    try:
        reader = csv.reader(_io.StringIO(text, newline=""))
        lines = [row for row in reader]
    except csv.Error as exc:
        raise ClassFileError(f"{source}: not valid CSV ({exc})") from None
    # drop trailing blank lines only
    while lines and not any(cell.strip() for cell in lines[-1]):
        lines.pop()
    if not lines:
        raise ClassFileError(f"{source}: file is empty")
    header = [h.strip() for h in lines[0]]
    if not header or header[0] != "name":
        raise ClassFileError(
            f"{source}: header must start with 'name' followed by the point names; got {lines[0][:3]!r}"
        )
    points = header[1:]
    if len(lines) == 1:
        raise ClassFileError(f"{source}: the class is empty: no hypothesis rows after the header")
    width = len(points)
    if (len(lines) - 1) * max(width, 1) > MAX_CELLS:
        raise ClassFileError(f"{source}: table too large (over {MAX_CELLS} cells)")
    names, rows = [], []
    for r, line in enumerate(lines[1:]):
        if not any(cell.strip() for cell in line):
            raise ClassFileError(
                f"{source}: row {r}: the line is blank; every line after the header is a "
                "hypothesis (its name, then its labels)"
            )
        if len(line) != width + 1:
            raise ClassFileError(f"{source}: row {r}: has {len(line) - 1} labels but the header names {width} points")
        names.append(line[0].strip())
        rows.append([_parse_label(cell, source, r, c) for c, cell in enumerate(line[1:])])
    name = Path(source).stem if source and not source.startswith("<") else None
    return build_class(rows, "", source, point_names=points, hypothesis_names=names, name=name)


def dumps_json(H: HypothesisClass, *, indent: int | None = None) -> str:
    """Serialise a class to spec §1 JSON text (one row per line when ``indent`` is None)."""
    d = H.to_dict()
    if indent is not None:
        return json.dumps(d, indent=indent)
    rows = d.pop("hypotheses")
    head = json.dumps(d)[:-1]
    body = ",\n  ".join(json.dumps(row, separators=(",", ":")) for row in rows)
    return f'{head}{", " if d else ""}"hypotheses": [\n  {body}\n]}}\n'


def dumps_csv(H: HypothesisClass) -> str:
    """Serialise a class to spec §1 CSV text (the label count is implied by the entries)."""
    out = _io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["name", *H.point_names])
    for name, row in zip(H.hypothesis_names, H.table.tolist()):
        w.writerow([name, *row])
    return out.getvalue()


def check_text_size(H: HypothesisClass, fmt: str, source: str) -> None:
    """Refuse to write a JSON or CSV class file dimcalc could not read back (over :data:`MAX_FILE_BYTES`).

    Checked from a lower bound on the text's size before the text is built
    (each row takes at least two characters a point), so a class of hundreds
    of megabytes is refused at once; :func:`save` checks the built text again.

    Examples
    --------
    >>> check_text_size(HypothesisClass.from_table([[0, 1]]), "json", "c.json")
    """
    least = H.n_hypotheses * (2 * max(H.n_points, 1) + 2)
    if least > MAX_FILE_BYTES:
        _too_big(fmt, source, f"at least {least:,}")


def _too_big(fmt: str, source: str, size: str) -> None:
    stem = source[: -len(Path(source).suffix)] if Path(source).suffix else source
    raise InvalidParameterError(
        f"{source}: the {fmt.upper()} class file would be {size} bytes, over the {MAX_FILE_BYTES:,} bytes "
        f"dimcalc reads back; write it as .npz instead (e.g. {stem or 'class'}.npz)"
    )


def save(
    H: HypothesisClass,
    path: str | os.PathLike,
    *,
    fmt: str | None = None,
    inputs: Sequence[str | os.PathLike | None] = (),
    force: bool = False,
    option: str | None = None,
) -> None:
    """Write a class file; the format follows ``fmt``, else the extension (``.csv``, ``.npy``, ``.npz`` or JSON).

    Writing CSV drops ``labels`` (an unused top label is lost) and ``metadata``;
    ``.npy`` keeps only the table; ``.npz`` and JSON keep everything.  The file
    is written by dimcalc's one writer (:func:`dimcalc.io.writers.write_output`):
    through a temporary file of its own, renamed into place; a directory, a
    device or a FIFO is refused, and so is an existing file that is not a class
    file (unless ``force``) or one of ``inputs``.  JSON or CSV over the size
    dimcalc reads back (:data:`MAX_FILE_BYTES`) is refused with the advice to
    write ``.npz``.

    Parameters
    ----------
    H : HypothesisClass
        The class.
    path : str or path-like
        Where to write; the extension picks the format.  ``"-"`` is standard output (JSON or CSV).
    fmt : {"json", "csv", "npy", "npz"}, optional
        The format, overriding the extension.
    inputs : sequence of path-like, optional
        Files the caller read: the output may not be one of them.
    force : bool, default False
        Replace an existing file that is not a class file.
    option : str, optional
        The command-line option that named ``path`` (for messages).

    Raises
    ------
    InvalidParameterError
        If the path or the size is refused, or the file cannot be written (one line).

    Examples
    --------
    >>> import os, tempfile
    >>> from dimcalc import HypothesisClass, load
    >>> p = os.path.join(tempfile.mkdtemp(), "c.json")
    >>> save(HypothesisClass.from_table([[0, 1], [1, 1]]), p)
    >>> load(p).n_hypotheses
    2
    """
    source = os.fspath(path)
    if fmt is None:
        suffix = Path(source).suffix.lower().lstrip(".")
        fmt = suffix if suffix in ("csv", "npy", "npz") else "json"
    name = f"{option} {source}" if option else source
    check_output(path, what="class file", kind=CLASS_FILE, option=option, inputs=inputs, force=force)
    if fmt in ("npy", "npz"):
        if source == STDOUT:
            raise InvalidParameterError(f"{name}: a .{fmt} file is binary; give a file name ending in .{fmt}")
        saver = _NUMPY_SAVERS["." + fmt]
        saver(H, path, inputs=inputs, force=force, option=option)
        return
    check_text_size(H, fmt, name)
    data = (dumps_csv(H) if fmt == "csv" else dumps_json(H)).encode("utf-8")
    if len(data) > MAX_FILE_BYTES:
        _too_big(fmt, name, f"{len(data):,}")
    write_output(
        path, lambda fh: fh.write(data), what="class file", kind=CLASS_FILE, option=option, inputs=inputs, force=force
    )
