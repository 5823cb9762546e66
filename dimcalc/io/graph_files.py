"""Graphs and set systems from text files, read straight into sparse storage (no dense intermediate).

* an **edge list** (:func:`read_edge_list`; ``dimcalc check FILE --graph``):
  two vertex ids per line, integers or names, lines starting with ``#`` or
  ``%`` are comments (SNAP and KONECT headers), blank lines are skipped; the
  class is the closed-neighbourhood set system ``{N[v]}`` (SEA 2024,
  [CCDV24]_), or the open one;
* a **set-system file** ``.sets`` (:func:`read_sets_file`): one set per line,
  its element ids separated by blanks (an empty line is the empty set);
* a **Matrix Market** file ``.mtx`` (:func:`read_mtx`, via ``scipy.io``): the
  sets x elements incidence matrix (pattern or 0/1 entries).

Any of them may be gzip-compressed (``.gz``).  Ids are parsed in bulk: the
whole file is tokenised with numpy on its bytes, integer ids with
``np.fromstring`` (C speed: a 10⁷-incidence file in a few seconds), names
with ``bytes.split``; vertices and elements are sorted (numerically for
integers) and named by their ids as written in the file.  The sizes are
checked before the class is built; every refusal is a one-line
:class:`~dimcalc.errors.ClassFileError` naming the file and, where there is
one, the line.

References
----------
.. [CCDV24] D. Coudert, M. Csikós, G. Ducoffe, L. Viennot, *Practical
   Computation of Graph VC-Dimension*, SEA 2024 (arXiv:2405.07588).

Examples
--------
>>> import os, tempfile
>>> p = os.path.join(tempfile.mkdtemp(), "path.txt")
>>> _ = open(p, "w").write("# a path\\n1 2\\n2 3\\n")
>>> H = read_edge_list(p)
>>> H.point_names, H.table.tolist()
(('1', '2', '3'), [[1, 1, 0], [1, 1, 1], [0, 1, 1]])
"""

from __future__ import annotations

import gzip
import os
import re
import stat
import warnings
from pathlib import Path

import numpy as np

from ..classes.hypothesis_class import HypothesisClass
from ..classes.sparse_table import MAX_INCIDENCES, SparseTable
from ..errors import ClassFileError

__all__ = [
    "read_edge_list",
    "read_sets_file",
    "read_mtx",
    "load_set_system",
    "name_witnesses",
    "MAX_GRAPH_FILE_BYTES",
    "SET_SUFFIXES",
]

#: Graph and set-system files larger than this (uncompressed) are refused before they are parsed.
MAX_GRAPH_FILE_BYTES = 4 << 30

#: File name endings :func:`load_set_system` reads (``dimcalc.load`` hands them over).
SET_SUFFIXES = (".sets", ".sets.gz", ".mtx", ".mtx.gz")


def _read_bytes(path: Path) -> bytes:
    """The file's bytes (decompressed when it ends in ``.gz``), refused in one line when unreadable or too big."""
    try:
        st = path.stat()
    except FileNotFoundError:
        raise ClassFileError(f"{path}: no such file") from None
    except OSError as exc:
        raise ClassFileError(f"{path}: cannot read the file ({exc.strerror or exc})") from None
    if not stat.S_ISREG(st.st_mode):
        raise ClassFileError(f"{path}: is not a regular file")
    if st.st_size > MAX_GRAPH_FILE_BYTES:
        raise ClassFileError(
            f"{path}: {st.st_size} bytes, over dimcalc's limit of {MAX_GRAPH_FILE_BYTES} for a graph file"
        )
    try:
        if path.name.lower().endswith(".gz"):
            with gzip.open(path, "rb") as fh:
                data = fh.read(MAX_GRAPH_FILE_BYTES + 1)
            if len(data) > MAX_GRAPH_FILE_BYTES:
                raise ClassFileError(
                    f"{path}: over {MAX_GRAPH_FILE_BYTES} bytes once decompressed, dimcalc's limit for a graph file"
                )
            return data
        return path.read_bytes()
    except (OSError, EOFError, gzip.BadGzipFile) as exc:
        raise ClassFileError(f"{path}: cannot read the file ({exc})") from None


class _Tokens:
    """The tokens of a text file: their line numbers (1-based), and their values as integer ids or names."""

    def __init__(self, path: Path, data: bytes) -> None:
        self.path = path
        buf = np.frombuffer(data + b"\n" if not data.endswith(b"\n") else data, dtype=np.uint8)
        blank = buf <= 32
        newlines = np.flatnonzero(buf == 10)
        starts = np.flatnonzero(~blank & np.concatenate(([True], blank[:-1])))
        ends = np.flatnonzero(~blank & np.concatenate((blank[1:], [True]))) + 1
        line = np.searchsorted(newlines, starts)  # 0-based line of each token
        # Comment lines: their first token starts with '#' or '%'.
        first = np.ones(len(starts), dtype=bool)
        first[1:] = line[1:] != line[:-1]
        comment_lines = line[first & ((buf[starts] == ord("#")) | (buf[starts] == ord("%")))]
        self.n_lines = len(newlines) if len(data) else 0  # a final newline was added when missing
        self.comment = np.zeros(self.n_lines + 1, dtype=bool)
        self.comment[comment_lines] = True
        if len(comment_lines):
            keep = ~self.comment[line]
            text = bytearray(data)
            for ln in comment_lines.tolist():  # blank the comment lines (few: headers)
                lo = 0 if ln == 0 else int(newlines[ln - 1]) + 1
                hi = int(newlines[ln]) if ln < len(newlines) else len(data)
                text[lo:hi] = b" " * (hi - lo)
            data = bytes(text)
            starts, ends, line = starts[keep], ends[keep], line[keep]
        self.line = line
        self.data = data
        self.starts, self.ends = starts, ends

    def __len__(self) -> int:
        return len(self.starts)

    def ids(self) -> tuple[np.ndarray, list[str]]:
        """``(index, names)``: each token's position in the sorted distinct ids, and the ids as written."""
        ints = self._integers()
        if ints is not None:
            if len(ints) and int(ints.max()) - int(ints.min()) <= 8 * len(ints) + (1 << 20):
                # compact ids (the usual 0..n-1): ranks by a presence table, linear time
                low = int(ints.min())
                present = np.zeros(int(ints.max()) - low + 1, dtype=bool)
                present[ints - low] = True
                rank = np.cumsum(present) - 1
                unique = np.flatnonzero(present) + low
                return rank[ints - low].astype(np.int64), [str(v) for v in unique.tolist()]
            unique, index = np.unique(ints, return_inverse=True)
            return index.astype(np.int64), [str(v) for v in unique.tolist()]
        tokens = np.array(self.data.split())
        uniq, index = np.unique(tokens, return_inverse=True)
        raw: list[bytes] = uniq.tolist()
        try:
            names = [t.decode("utf-8") for t in raw]
        except UnicodeDecodeError:
            raise ClassFileError(f"{self.path}: the ids are not UTF-8 text") from None
        return index.astype(np.int64), names

    def _integers(self) -> np.ndarray | None:
        """The tokens as int64 when every one is a plain decimal integer written canonically (else None)."""
        if not len(self):
            return np.zeros(0, dtype=np.int64)
        buf = np.frombuffer(self.data, dtype=np.uint8)
        head = buf[self.starts]
        lengths = self.ends - self.starts
        # canonical: no '+', no leading zero ("007" keeps its name as written)
        second = buf[np.minimum(self.starts + 1, len(buf) - 1)]
        minus = head == ord("-")
        lead = np.where(minus, second, head)
        if bool(((lead == ord("0")) & (lengths > 1 + minus)).any()) or b"+" in self.data:
            return None
        if bool((lengths > 18).any()):
            return None
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            try:
                values = np.fromstring(self.data, dtype=np.int64, sep=" ")  # type: ignore[call-overload]
            except (ValueError, DeprecationWarning):
                return None
        return values if len(values) == len(self) else None

    def counts_per_line(self) -> np.ndarray:
        return np.bincount(self.line, minlength=self.n_lines + 1)


def _check_incidences(path: Path, incidences: int) -> None:
    if incidences > MAX_INCIDENCES:
        raise ClassFileError(
            f"{path}: {incidences} incidences, over dimcalc's limit of {MAX_INCIDENCES} for a set system"
        )


def read_edge_list(path: str | os.PathLike, *, closed: bool = True, name: str | None = None) -> HypothesisClass:
    """The (closed) neighbourhood set system of the graph in an edge-list file, stored sparse when large.

    Parameters
    ----------
    path : str or path-like
        Two vertex ids per line (integers or names, separated by blanks),
        ``#`` / ``%`` comment lines, blank lines skipped; ``.gz`` read
        compressed.  A vertex is every id that occurs; a self-loop ``v v``
        puts ``v`` in its open neighbourhood.
    closed : bool
        ``N[v]`` (default, SEA 2024's graph VC dimension) or ``N(v)``.
    name : str, optional
        Name of the class (default: the file's name).

    Returns
    -------
    HypothesisClass
        One hypothesis and one point per vertex, in increasing id order
        (numerical for integer ids), named by the ids as written.

    Raises
    ------
    ClassFileError
        A missing, unreadable or too large file, a line without exactly two
        ids (named by its number), no edge, too many incidences.
    """
    path = Path(path)
    tokens = _Tokens(path, _read_bytes(path))
    per_line = tokens.counts_per_line()
    bad = np.flatnonzero((per_line != 0) & (per_line != 2))
    if len(bad):
        ln = int(bad[0])
        raise ClassFileError(f"{path}:{ln + 1}: an edge-list line has two vertex ids; this one has {int(per_line[ln])}")
    if not len(tokens):
        raise ClassFileError(f"{path}: no edge; an edge list has two vertex ids per line")
    index, names = tokens.ids()
    n = len(names)
    u, v = index[0::2], index[1::2]
    _check_incidences(path, 2 * len(u) + (n if closed else 0))
    diagonal = np.arange(n, dtype=np.int64) if closed else np.zeros(0, dtype=np.int64)
    rows = np.concatenate([u, v, diagonal])
    cols = np.concatenate([v, u, diagonal])
    del u, v, index
    table = SparseTable.from_cells(n, n, rows, cols)
    metadata = {"family": "graph-neighbourhoods", "closed": bool(closed), "nodes": n, "source": str(path)}
    return HypothesisClass(
        table,
        num_labels=2,
        point_names=names,  # hypothesis j is N[vertex j]: rows are not named again (a second million names)
        name=name if name is not None else path.name,
        metadata=metadata,
    )


def read_sets_file(path: str | os.PathLike, *, name: str | None = None) -> HypothesisClass:
    """A set system from a ``.sets`` file: one set per line, element ids separated by blanks.

    Lines starting with ``#`` or ``%`` are comments; any other line is a set
    (an empty line, the empty set; a final newline ends the last set).
    Elements are sorted (numerically for integer ids) and named as written.

    Examples
    --------
    >>> import os, tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "s.sets")
    >>> _ = open(p, "w").write("a b\\n\\nb c\\n")
    >>> H = read_sets_file(p)
    >>> H.point_names, H.table.tolist()
    (('a', 'b', 'c'), [[1, 1, 0], [0, 0, 0], [0, 1, 1]])
    """
    path = Path(path)
    tokens = _Tokens(path, _read_bytes(path))
    set_lines = np.flatnonzero(~tokens.comment[: tokens.n_lines])
    if not len(set_lines):
        raise ClassFileError(f"{path}: no set; a .sets file has one set per line")
    _check_incidences(path, len(tokens))
    index, names = tokens.ids()
    row_of_line = np.full(tokens.n_lines + 1, -1, dtype=np.int64)
    row_of_line[set_lines] = np.arange(len(set_lines))
    table = SparseTable.from_cells(len(set_lines), len(names), row_of_line[tokens.line], index)
    return HypothesisClass(
        table,
        num_labels=2,
        point_names=names,
        name=name if name is not None else path.name,
        metadata={"source": str(path)},
    )


_MTX_SIZE = re.compile(rb"^\s*(\d+)\s+(\d+)\s+(\d+)\s*$", re.MULTILINE)


def read_mtx(path: str | os.PathLike, *, name: str | None = None) -> HypothesisClass:
    """A set system from a Matrix Market file: the sets x elements incidence matrix (``scipy.io.mmread``).

    The size line is checked before the matrix is read; entries must be 0 or 1
    (or the file a ``pattern`` matrix).
    """
    import scipy.io

    path = Path(path)
    data = _read_bytes(path)
    if not data.startswith(b"%%MatrixMarket"):
        raise ClassFileError(f"{path}:1: not a Matrix Market file (it starts with %%MatrixMarket)")
    header = data.split(b"\n", 1)[0].lower()
    if b"coordinate" not in header:
        raise ClassFileError(f"{path}:1: a set system is a sparse ('coordinate') Matrix Market matrix")
    size = _MTX_SIZE.search(data)
    if size is None:
        raise ClassFileError(f"{path}: no size line 'rows columns entries'")
    rows, cols, entries = (int(x) for x in size.groups())
    symmetric = b"symmetric" in header
    _check_incidences(path, entries * (2 if symmetric else 1))
    import io

    try:
        M = scipy.io.mmread(io.BytesIO(data))
    except (ValueError, IndexError, OSError) as exc:
        raise ClassFileError(f"{path}: cannot read the Matrix Market data ({str(exc).splitlines()[0]})") from None
    try:
        return HypothesisClass.from_scipy_sparse(
            M, name=name if name is not None else path.name, metadata={"source": str(path)}
        )
    except Exception as exc:  # an InvalidClassError: name the file
        raise ClassFileError(f"{path}: {exc}") from None


def load_set_system(path: str | os.PathLike) -> HypothesisClass:
    """Read a ``.sets`` or ``.mtx`` file (optionally ``.gz``), by its name's ending (``dimcalc.load`` calls this)."""
    lower = Path(path).name.lower()
    if lower.endswith((".mtx", ".mtx.gz")):
        return read_mtx(path)
    return read_sets_file(path)


def name_witnesses(report_json: dict, H: HypothesisClass) -> dict:
    """Add ``witness_names`` (the points' names: vertex ids as written) beside each point-list witness of a
    ``dimcalc check --json`` object (in place; returned).

    >>> H = HypothesisClass.from_sets([{"a"}, {"b"}, {"a", "b"}, set()])
    >>> name_witnesses({"dimensions": {"vc": {"witness": [0, 1]}}}, H)["dimensions"]["vc"]["witness_names"]
    ['a', 'b']
    """
    names = H.point_names
    for entry in report_json.get("dimensions", {}).values():
        if not isinstance(entry, dict):
            continue
        w = entry.get("witness")
        points = w if isinstance(w, list) else w.get("points") if isinstance(w, dict) else None
        if isinstance(points, list) and all(isinstance(p, int) for p in points):
            entry["witness_names"] = [names[p] for p in points]
    return report_json
