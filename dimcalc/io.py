"""Reading and writing class files (interface spec §1): JSON and CSV.

Loading is strict and happens once, at the boundary: a file that breaks the
format raises :class:`~dimcalc.errors.ClassFileError` with a one-line message
naming the file, the place (key, row, column) and what is wrong.
"""

from __future__ import annotations

import csv
import io as _io
import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

import numpy as np

from .errors import ClassFileError, InvalidClassError
from .hypothesis_class import MAX_CELLS, HypothesisClass

__all__ = ["load", "save", "loads_json", "loads_csv", "dumps_json", "dumps_csv", "read_text_file", "read_json_file",
           "parse_json_text", "MAX_FILE_BYTES"]

#: Class files larger than this are refused before they are read.
MAX_FILE_BYTES = 256 * 1024 * 1024

_JSON_KEYS = {"name", "domain", "labels", "hypotheses", "hypothesis_names", "metadata"}


def read_text_file(path: str | os.PathLike, *, what: str = "class file", error: type = ClassFileError,
                   max_bytes: int | None = None) -> str:
    """Read a UTF-8 text file for dimcalc: a class file or a side file (tree, Ψ-family), with one set of rules.

    Refused with ``error`` (a one-line message naming the file): a missing
    file, a directory, anything that is not a regular file (a FIFO, a device or
    a socket could block forever or never end), a file over ``max_bytes``
    (default :data:`MAX_FILE_BYTES`, checked before reading), text that is not
    UTF-8, an empty file.  A UTF-8 byte-order mark is accepted (and dropped)
    in every kind of file.

    Examples
    --------
    >>> import tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "t.json")
    >>> _ = open(p, "wb").write("\\ufeff[1]".encode())
    >>> read_text_file(p, what="tree file")
    '[1]'
    """
    path = Path(path)
    limit = MAX_FILE_BYTES if max_bytes is None else max_bytes
    try:
        st = path.stat()
    except FileNotFoundError:
        raise error(f"{path}: no such file") from None
    except OSError as exc:
        raise error(f"{path}: cannot read the {what} ({exc.strerror or exc})") from None
    if stat.S_ISDIR(st.st_mode):
        raise error(f"{path}: is a directory, not a {what}")
    if not stat.S_ISREG(st.st_mode):
        kind = ("a FIFO (named pipe)" if stat.S_ISFIFO(st.st_mode) else "a device" if stat.S_ISCHR(st.st_mode)
                or stat.S_ISBLK(st.st_mode) else "a socket" if stat.S_ISSOCK(st.st_mode) else "not a regular file")
        raise error(f"{path}: is {kind}; give a {what} stored on disk (a regular file)")
    if st.st_size > limit:
        raise error(f"{path}: {what} is {st.st_size} bytes, over dimcalc's limit of {limit} bytes")
    try:
        with open(path, "rb") as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        raise error(f"{path}: cannot read the {what} ({exc.strerror or exc})") from None
    if len(data) > limit:  # the file grew while being read
        raise error(f"{path}: {what} is over dimcalc's limit of {limit} bytes")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(f"{path}: not UTF-8 text (byte {exc.start})") from None
    if not text.strip():
        raise error(f"{path}: {what} is empty")
    return text


def _read_text(path: Path) -> str:
    return read_text_file(path)


def parse_json_text(text: str, source: str, *, error: type = ClassFileError, what: str = "file") -> Any:
    """``json.loads`` with dimcalc's refusals as one-line ``error`` messages naming ``source``.

    NaN/Infinity, nesting too deep for the parser, and integers over Python's
    digit limit are refused with a message saying so, never a traceback.

    >>> parse_json_text("[1, [2]]", "x.json")
    [1, [2]]
    >>> parse_json_text("[" * 100000, "x.json")
    Traceback (most recent call last):
    ...
    dimcalc.errors.ClassFileError: x.json: JSON is nested too deeply
    """
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise error(f"{source}: JSON is nested too deeply") from None
    except json.JSONDecodeError as exc:
        raise error(f"{source}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    except ValueError as exc:
        if "digits" in str(exc):
            raise error(f"{source}: a number in the {what} has too many digits (over "
                        f"{sys.get_int_max_str_digits()})") from None
        raise error(f"{source}: not valid JSON ({exc})") from None


def read_json_file(path: str | os.PathLike, *, what: str, error: type) -> Any:
    """A side file (tree, Ψ-family) read with the class files' guarantees: :func:`read_text_file`, then
    :func:`parse_json_text`; every refusal is one line naming the file."""
    return parse_json_text(read_text_file(path, what=what, error=error), str(Path(path)), error=error, what=what)


def load(path: str | os.PathLike) -> HypothesisClass:
    """Load a class file (``.json`` or ``.csv``, chosen by extension).

    Parameters
    ----------
    path : str or path-like
        The file.  A name ending in ``.csv`` is read as CSV; anything else as JSON.

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
    text = _read_text(path)
    if path.suffix.lower() == ".csv":
        return loads_csv(text, source=str(path))
    return loads_json(text, source=str(path))


def _reject_constant(token: str) -> Any:
    raise ValueError(f"{token} is not allowed")


def loads_json(text: str, *, source: str = "<json>") -> HypothesisClass:
    """Parse a spec §1 JSON class from a string (``source`` names it in errors)."""
    obj = parse_json_text(text, source, what="class file")
    if not isinstance(obj, dict):
        raise ClassFileError(f"{source}: top level must be a JSON object with a 'hypotheses' key; got {type(obj).__name__}")
    if "hypotheses" not in obj:
        raise ClassFileError(f"{source}: missing required key 'hypotheses'")
    unknown = sorted(set(obj) - _JSON_KEYS)
    if unknown:
        raise ClassFileError(f"{source}: unknown key {unknown[0]!r}; allowed keys are {', '.join(sorted(_JSON_KEYS))} "
                             "(put anything else under 'metadata')")
    rows = obj["hypotheses"]
    if not isinstance(rows, list):
        raise ClassFileError(f"{source}: key 'hypotheses' must be a list of rows; got {type(rows).__name__}")
    if rows and isinstance(rows[0], list) and len(rows) * len(rows[0]) > MAX_CELLS:
        raise ClassFileError(f"{source}: key 'hypotheses': table too large (over {MAX_CELLS} cells)")
    labels = obj.get("labels")
    if labels is not None and (isinstance(labels, bool) or not isinstance(labels, int) or labels < 1):
        raise ClassFileError(f"{source}: key 'labels' must be a positive integer (the number of labels k+1); got {labels!r}")
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
    try:
        return HypothesisClass(rows if table is None else table, num_labels=labels, point_names=obj.get("domain"),
                               hypothesis_names=obj.get("hypothesis_names"), name=name, metadata=metadata)
    except InvalidClassError as exc:
        msg = str(exc)
        where = "key 'hypotheses', " if msg.startswith(("row", "the class", "the table", "a label")) else ""
        raise ClassFileError(f"{source}: {where}{msg}") from None


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
            f"{source}: row {r}, column {c}: label {cell!r} is not a non-negative integer; labels are integers 0..k")
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
        raise ClassFileError(f"{source}: header must start with 'name' followed by the point names; got {lines[0][:3]!r}")
    points = header[1:]
    if len(lines) == 1:
        raise ClassFileError(f"{source}: the class is empty: no hypothesis rows after the header")
    width = len(points)
    if (len(lines) - 1) * max(width, 1) > MAX_CELLS:
        raise ClassFileError(f"{source}: table too large (over {MAX_CELLS} cells)")
    names, rows = [], []
    for r, line in enumerate(lines[1:]):
        if not any(cell.strip() for cell in line):
            raise ClassFileError(f"{source}: row {r}: the line is blank; every line after the header is a "
                                 "hypothesis (its name, then its labels)")
        if len(line) != width + 1:
            raise ClassFileError(
                f"{source}: row {r}: has {len(line) - 1} labels but the header names {width} points")
        names.append(line[0].strip())
        rows.append([_parse_label(cell, source, r, c) for c, cell in enumerate(line[1:])])
    name = Path(source).stem if source and not source.startswith("<") else None
    try:
        return HypothesisClass(rows, point_names=points, hypothesis_names=names, name=name)
    except InvalidClassError as exc:
        raise ClassFileError(f"{source}: {exc}") from None


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


def save(H: HypothesisClass, path: str | os.PathLike) -> None:
    """Write a class file; the format follows the extension (``.csv`` or JSON).

    Writing CSV drops ``labels`` (an unused top label is lost) and ``metadata``.
    """
    import tempfile

    path = Path(path)
    text = dumps_csv(H) if path.suffix.lower() == ".csv" else dumps_json(H)
    # a temporary file of its own (concurrent saves to one path never share it), renamed into place
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    try:
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise

