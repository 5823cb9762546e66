"""The one writer of every file dimcalc writes: outputs with the inputs' guarantees.

Every output path -- ``generate -o``, ``--witness-file``, ``sweep --save-max``,
``sweep --search -o``, :func:`dimcalc.save` -- goes through :func:`check_output`
and :func:`write_output`:

* a regular file is written through a uniquely named temporary file beside it,
  renamed into place (readers never see half a file, concurrent writers never
  share a temporary file);
* a directory, a device, a FIFO or a socket is refused in one line (standard
  output is ``-``), as inputs refuse them;
* an output that is one of the command's inputs is refused, and so is an
  existing file of another kind (a sweep database, a class file where a witness
  goes, any file dimcalc did not write) unless ``force``;
* a JSON or CSV class file dimcalc could not read back (over
  :data:`~dimcalc.io.files.MAX_FILE_BYTES`) is refused before it is built, with
  the advice to write ``.npz``.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import IO, Any

from ..errors import InvalidParameterError

__all__ = [
    "CLASS_FILE",
    "WITNESS_FILE",
    "SWEEP_DATABASE",
    "STDOUT",
    "file_kind",
    "check_output",
    "write_output",
    "write_text_output",
]

#: The kinds of file dimcalc writes (and recognises when it is asked to replace one).
CLASS_FILE = "class file"
WITNESS_FILE = "witness file"
SWEEP_DATABASE = "sweep database"
#: The output path that means standard output.
STDOUT = "-"

_SNIFF_BYTES = 1 << 16


def _special_kind(mode: int) -> str | None:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def file_kind(path: str | os.PathLike) -> str | None:
    """What an existing regular file holds, judged from its first bytes (``None``: empty or missing).

    Returns one of :data:`CLASS_FILE` (JSON with a ``"hypotheses"`` key, CSV
    named ``*.csv``, a numpy ``.npy``/``.npz``), :data:`SWEEP_DATABASE` (a
    SQLite file holding dimcalc's ``meta`` table), ``"SQLite database"`` (any
    other), :data:`WITNESS_FILE` (other JSON) or ``"file"`` (anything else).

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "c.json")
    >>> _ = open(p, "w").write('{"hypotheses": [[0, 1]]}')
    >>> file_kind(p)
    'class file'
    >>> _ = open(p, "w").write('{"tree": {"point": 0}}')
    >>> file_kind(p)
    'witness file'
    >>> file_kind(p + ".missing") is None
    True
    """
    p = Path(path)
    try:
        with open(p, "rb") as fh:
            head = fh.read(_SNIFF_BYTES)
    except OSError:
        return None
    if not head:
        return None
    if head.startswith(b"SQLite format 3\x00"):
        return SWEEP_DATABASE if _is_sweep_database(p) else "SQLite database"
    if head.startswith((b"\x93NUMPY", b"PK\x03\x04")):
        return CLASS_FILE if p.suffix.lower() in (".npy", ".npz") else "file"
    try:
        text = head.decode("utf-8-sig", errors="strict").lstrip()
    except UnicodeDecodeError:
        # a cut in the middle of a multi-byte character at the end of the sniffed bytes is still text
        try:
            text = head[:-4].decode("utf-8-sig").lstrip()
        except UnicodeDecodeError:
            return "file"
    if text.startswith("{") and '"hypotheses"' in text:
        return CLASS_FILE
    if p.suffix.lower() == ".csv":
        return CLASS_FILE
    if text.startswith(("{", "[")):
        return WITNESS_FILE
    return "file"


def _is_sweep_database(path: Path) -> bool:
    import sqlite3

    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.Error:
        return False
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        return row is not None
    except sqlite3.Error:
        return False
    finally:
        conn.close()


def _same_file(a: str | os.PathLike, b: str | os.PathLike) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


def check_output(
    path: str | os.PathLike,
    *,
    what: str,
    kind: str,
    option: str | None = None,
    inputs: Sequence[str | os.PathLike | None] = (),
    force: bool = False,
) -> Path | None:
    """Check an output path before anything is computed or written; ``None`` means standard output.

    Parameters
    ----------
    path : str or path-like
        Where to write; ``"-"`` is standard output.
    what : str
        What is written, named in messages (e.g. ``"witness file"``).
    kind : str
        The kind of file written (:data:`CLASS_FILE`, :data:`WITNESS_FILE`,
        :data:`SWEEP_DATABASE`): an existing file of the same kind may be
        replaced, any other only with ``force``.
    option : str, optional
        The option that named the path (``"-o"``, ``"--witness-file"``), put before it in messages.
    inputs : sequence of path-like
        The command's input files: none of them may be the output, even with ``force``.
    force : bool, default False
        Replace an existing file of another kind.

    Returns
    -------
    pathlib.Path or None
        The path, or ``None`` for standard output.

    Raises
    ------
    InvalidParameterError
        One line naming the path and the fix.

    Examples
    --------
    >>> check_output("/dev/null", what="witness file", kind=WITNESS_FILE, option="--witness-file")
    Traceback (most recent call last):
    ...
    dimcalc.errors.InvalidParameterError: --witness-file /dev/null: is a device; give a file name (or - for standard output)
    >>> check_output("-", what="class file", kind=CLASS_FILE) is None
    True
    """
    text = os.fspath(path)
    name = f"{option} {text}" if option else text
    if text == STDOUT:
        return None
    if not text:
        raise InvalidParameterError(f"{option or 'output'}: empty file name; give a file name for the {what}")
    p = Path(text)
    try:
        st = p.stat()
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise InvalidParameterError(f"{name}: cannot write the {what} ({exc.strerror or exc})") from None
    if st is not None:
        special = _special_kind(st.st_mode)
        if special is not None:
            raise InvalidParameterError(f"{name}: is {special}; give a file name (or - for standard output)")
    for source in inputs:
        if source is not None and os.fspath(source) != STDOUT and _same_file(p, source):
            raise InvalidParameterError(
                f"{name}: is an input of this command ({os.fspath(source)}); write the {what} to another file"
            )
    if st is not None and st.st_size and not force:
        found = file_kind(p)
        if found is not None and found != kind:
            raise InvalidParameterError(
                f"{name}: exists and holds a {found}, not a {kind}; choose another name, or --force to replace it"
            )
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise InvalidParameterError(f"{name}: cannot write the {what} (folder {parent} does not exist)")
    return p


def write_output(
    path: str | os.PathLike,
    write: Callable[[IO[bytes]], Any],
    *,
    what: str,
    kind: str,
    option: str | None = None,
    inputs: Sequence[str | os.PathLike | None] = (),
    force: bool = False,
) -> None:
    """Write a file with :func:`check_output`'s refusals, atomically: ``write(fh)`` fills a binary file.

    ``"-"`` writes to standard output.  A regular file is written through a
    uniquely named temporary file beside it, renamed into place once complete
    (left untouched when ``write`` raises).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "w.json"
    >>> write_output(target, lambda fh: fh.write(b"[1]"), what="witness file", kind=WITNESS_FILE)
    >>> target.read_text()
    '[1]'
    """
    p = check_output(path, what=what, kind=kind, option=option, inputs=inputs, force=force)
    name = f"{option} {os.fspath(path)}" if option else os.fspath(path)
    if p is None:
        stream = sys.stdout.buffer if hasattr(sys.stdout, "buffer") else None
        if stream is None:  # a text-only stdout (doctest, StringIO)
            import io

            buf = io.BytesIO()
            write(buf)
            sys.stdout.write(buf.getvalue().decode("utf-8"))
            return
        sys.stdout.flush()
        write(stream)
        stream.flush()
        return
    try:
        fd, tmp = tempfile.mkstemp(dir=p.parent if str(p.parent) else ".", prefix=p.name + ".", suffix=".tmp")
    except OSError as exc:
        raise InvalidParameterError(f"{name}: cannot write the {what} ({exc.strerror or exc})") from None
    done = False
    try:
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(tmp, 0o666 & ~mask)  # as open() would create it (mkstemp makes it private)
        with os.fdopen(fd, "wb") as fh:
            write(fh)
        os.replace(tmp, p)
        done = True
    except OSError as exc:
        raise InvalidParameterError(f"{name}: cannot write the {what} ({exc.strerror or exc})") from None
    finally:
        if not done:
            Path(tmp).unlink(missing_ok=True)


class _Stopped(Exception):
    """The deadline expired while a file was written."""


def write_text_output(
    path: str | os.PathLike,
    chunks: Iterable[str],
    *,
    what: str,
    kind: str,
    option: str | None = None,
    inputs: Sequence[str | os.PathLike | None] = (),
    force: bool = False,
    deadline: Any = None,
) -> bool:
    """:func:`write_output` for text given in pieces (UTF-8), stopped (nothing written) once ``deadline`` expires.

    Returns
    -------
    bool
        ``True`` when written, ``False`` when the deadline expired first (the target is left untouched).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "out.json"
    >>> write_text_output(target, ["[1, ", "2]"], what="witness file", kind=WITNESS_FILE), target.read_text()
    (True, '[1, 2]')
    """

    def write(fh: IO[bytes]) -> None:
        for i, chunk in enumerate(chunks):
            fh.write(chunk.encode("utf-8"))
            if deadline is not None and (len(chunk) > 4096 or not i % 1024) and deadline.expired():
                raise _Stopped

    try:
        write_output(path, write, what=what, kind=kind, option=option, inputs=inputs, force=force)
    except _Stopped:
        return False
    return True
