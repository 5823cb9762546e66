"""Safe file access for every dimcalc file: the refusals of bad files, strict JSON, atomic writes.

A class file or a side file (tree, Ψ-family) is read once, at the boundary, with
one set of rules (:func:`read_text_file`); every refusal is a one-line error
naming the file.
"""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path
from typing import Any

from ..classes.hypothesis_class import HypothesisClass
from ..errors import ClassFileError, InvalidClassError

__all__ = ["MAX_FILE_BYTES", "read_text_file", "parse_json_text", "read_json_file"]

#: Class files larger than this are refused before they are read.
MAX_FILE_BYTES = 256 * 1024 * 1024


def read_text_file(
    path: str | os.PathLike, *, what: str = "class file", error: type = ClassFileError, max_bytes: int | None = None
) -> str:
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
        kind = (
            "a FIFO (named pipe)"
            if stat.S_ISFIFO(st.st_mode)
            else "a device"
            if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode)
            else "a socket"
            if stat.S_ISSOCK(st.st_mode)
            else "not a regular file"
        )
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
        return json.loads(text, parse_constant=reject_constant)
    except RecursionError:
        raise error(f"{source}: JSON is nested too deeply") from None
    except json.JSONDecodeError as exc:
        raise error(f"{source}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
    except ValueError as exc:
        if "digits" in str(exc):
            raise error(
                f"{source}: a number in the {what} has too many digits (over {sys.get_int_max_str_digits()})"
            ) from None
        raise error(f"{source}: not valid JSON ({exc})") from None


def read_json_file(path: str | os.PathLike, *, what: str, error: type) -> Any:
    """A side file (tree, Ψ-family) read with the class files' guarantees: :func:`read_text_file`, then
    :func:`parse_json_text`; every refusal is one line naming the file."""
    return parse_json_text(read_text_file(path, what=what, error=error), str(Path(path)), error=error, what=what)


def reject_constant(token: str) -> Any:
    """``parse_constant`` of :func:`json.loads`: NaN and the infinities are not JSON numbers dimcalc takes."""
    raise ValueError(f"{token} is not allowed")


def one_line(exc: BaseException) -> str:
    """An exception's message on one line of at most 160 characters."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 160 else text[:157] + "..."


def build_class(table: Any, where: str, source: str, n_points: int | None = None, **kwargs: Any) -> HypothesisClass:
    """The class read from file ``source``; its refusal as a :class:`ClassFileError` naming the file.

    ``where`` (e.g. ``"key 'hypotheses', "``) is put before messages about the
    table's rows and labels.  With ``n_points`` the table is packed bits
    (:meth:`HypothesisClass.from_packed`).
    """
    try:
        if n_points is not None:
            return HypothesisClass.from_packed(table, n_points, **kwargs)
        return HypothesisClass(table, **kwargs)
    except InvalidClassError as exc:
        msg = str(exc)
        prefix = where if msg.startswith(("row", "the class", "the table", "a label")) else ""
        raise ClassFileError(f"{source}: {prefix}{msg}") from None
