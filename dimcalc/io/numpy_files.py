"""Numpy class files ``.npy`` / ``.npz``: dimcalc's extension of spec §1 (docs/interface.md §6).

Never unpickled: object arrays are refused from their header, before any data is
read; tables are memory-mapped where the file layout allows it.
"""

from __future__ import annotations

import json
import os
import stat
import zipfile
import zlib
from pathlib import Path
from typing import Any, Literal

import numpy as np

from ..classes.bit_table import CHUNK_CELLS, unpack_columns
from ..classes.hypothesis_class import MAX_BINARY_CELLS, MAX_CELLS, HypothesisClass
from ..errors import ClassFileError
from .files import MAX_FILE_BYTES, build_class, one_line, reject_constant
from .writers import CLASS_FILE, write_output

__all__ = ["NPZ_ARRAYS", "load_npy", "load_npz", "save_npy", "save_npz"]

#: Arrays an ``.npz`` class file may hold (``hypotheses``, or ``packed_hypotheses`` with ``domain_size``, is required).
NPZ_ARRAYS = (
    "hypotheses",
    "packed_hypotheses",
    "domain_size",
    "labels",
    "domain",
    "hypothesis_names",
    "name",
    "metadata",
)

#: The members of an ``.npz`` that hold a table (memory-mapped when stored uncompressed).
_NPZ_TABLES = ("hypotheses", "packed_hypotheses")

_NPY_MAGIC = b"\x93NUMPY"


def _binary_file_size(path: Path) -> int:
    """The size of a binary class file, refused (one line) as :func:`read_text_file` refuses text files:
    missing, a directory, not a regular file (a FIFO would block), unreadable."""
    try:
        st = path.stat()
    except FileNotFoundError:
        raise ClassFileError(f"{path}: no such file") from None
    except OSError as exc:
        raise ClassFileError(f"{path}: cannot read ({exc.strerror})") from None
    if stat.S_ISDIR(st.st_mode):
        raise ClassFileError(f"{path}: is a directory, not a class file")
    if not stat.S_ISREG(st.st_mode):
        kind = "a FIFO (named pipe)" if stat.S_ISFIFO(st.st_mode) else "not a regular file"
        raise ClassFileError(f"{path}: is {kind}; give a class file stored on disk (a regular file)")
    return st.st_size


def _read_npy_header(fh: Any, where: str) -> tuple[tuple[int, ...], bool, Any]:
    """Shape, Fortran order and dtype from an ``.npy`` header (``fh`` at its start; left at the data)."""
    magic = fh.read(8)
    if len(magic) < 8 or magic[:6] != _NPY_MAGIC:
        raise ClassFileError(f"{where}not a numpy .npy array (no .npy magic string at its start)")
    version = (magic[6], magic[7])
    try:
        if version == (1, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_1_0(fh)
        elif version == (2, 0):
            shape, fortran, dtype = np.lib.format.read_array_header_2_0(fh)
        else:
            raise ValueError(f"unsupported .npy format version {version[0]}.{version[1]} (1.0 and 2.0 are read)")
    except Exception as exc:  # numpy raises ValueError / EOFError / SyntaxError on a malformed header
        raise ClassFileError(f"{where}malformed .npy header ({one_line(exc)})") from None
    if dtype.hasobject:
        raise ClassFileError(
            f"{where}holds Python objects (dtype {dtype}); dimcalc never unpickles: "
            "save an integer, boolean or string array"
        )
    return tuple(int(d) for d in shape), bool(fortran), dtype


def _check_table_header(shape: tuple[int, ...], dtype: Any, where: str, packed: bool = False) -> int:
    """Refuse a table by its header (dtype, rank, size) before reading it; returns its byte count.

    A dense table may have up to ``MAX_BINARY_CELLS`` cells here (its labels are
    not known yet; the class refuses more than ``MAX_CELLS`` with more than two
    labels); a packed one (``packed=True``: ``uint8`` bytes of 8 cells) up to
    ``MAX_BINARY_CELLS / 8`` bytes.
    """
    if packed and dtype != np.uint8:
        raise ClassFileError(f"{where}has dtype {dtype}; packed bits must be uint8 (np.packbits(table, axis=1))")
    if dtype.kind not in "biu":
        raise ClassFileError(
            f"{where}has dtype {dtype}; labels must be integers 0..k (save an integer or boolean array)"
        )
    if len(shape) != 2:
        raise ClassFileError(f"{where}must be 2-dimensional (hypotheses x points); got shape {shape}")
    cells = shape[0] * shape[1] * (8 if packed else 1)
    if cells > max(MAX_CELLS, MAX_BINARY_CELLS):
        raise ClassFileError(
            f"{where}table too large ({shape[0]}x{shape[1]}{' bytes of' if packed else ''} cells, "
            f"over {max(MAX_CELLS, MAX_BINARY_CELLS)})"
        )
    return shape[0] * shape[1] * dtype.itemsize


def load_npy(path: str | os.PathLike) -> HypothesisClass:
    """Load a class stored as one 2-D integer or boolean ``.npy`` array (rows = hypotheses), memory-mapped.

    The class is named after the file (like CSV); point and hypothesis names
    take their defaults.  See docs/interface.md §6.

    Raises
    ------
    ClassFileError
        If the file is missing, not an ``.npy`` array, holds objects (never
        unpickled), is not 2-D, has a non-integer dtype, a negative label, or is
        truncated.

    Examples
    --------
    >>> import numpy as np, tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "thresholds.npy")
    >>> np.save(p, np.array([[0, 0, 1], [0, 1, 1], [1, 1, 1]], dtype=np.uint8))
    >>> H = load_npy(p)
    >>> H.name, H.n_hypotheses, H.n_points
    ('thresholds', 3, 3)
    """
    path = Path(path)
    size = _binary_file_size(path)
    source = str(path)
    try:
        with open(path, "rb") as fh:
            shape, _, dtype = _read_npy_header(fh, f"{source}: ")
            offset = fh.tell()
    except OSError as exc:
        raise ClassFileError(f"{source}: cannot read ({exc.strerror})") from None
    nbytes = _check_table_header(shape, dtype, f"{source}: ")
    if offset + nbytes > size:
        raise ClassFileError(
            f"{source}: truncated: the header promises {nbytes} bytes of data, the file has {max(0, size - offset)}"
        )
    try:
        table = np.load(path, mmap_mode="r", allow_pickle=False)
    except (ValueError, OSError) as exc:
        raise ClassFileError(f"{source}: cannot map the array ({one_line(exc)})") from None
    return build_class(table, "", source, name=path.stem)


def _stored_member_offset(path: Path, info: Any) -> int:
    """File offset of an uncompressed zip member's data (past its local header)."""
    with open(path, "rb") as fh:
        fh.seek(info.header_offset)
        local = fh.read(30)
    if len(local) < 30 or local[:4] != b"PK\x03\x04":
        raise ValueError("bad local zip header")
    return info.header_offset + 30 + int.from_bytes(local[26:28], "little") + int.from_bytes(local[28:30], "little")


def _read_npz_member(path: Path, zf: Any, info: Any, key: str, source: str) -> Any:
    """One member of an ``.npz`` as an array: the table memory-mapped when stored uncompressed."""
    where = f"{source}: array {key!r} "
    compressed = info.compress_type != zipfile.ZIP_STORED
    limit = _inflate_limit()
    if compressed and info.file_size > limit:  # declared size, checked before anything is decompressed
        raise ClassFileError(_inflate_message(where, info.file_size, limit))
    try:
        with zf.open(info) as fh:
            shape, fortran, dtype = _read_npy_header(fh, where)
            if key in _NPZ_TABLES:
                nbytes = _check_table_header(shape, dtype, where, packed=key == "packed_hypotheses")
            else:
                nbytes = int(np.prod(shape, dtype=object)) * dtype.itemsize
                if nbytes > MAX_FILE_BYTES:
                    raise ClassFileError(f"{where}is {nbytes} bytes, over dimcalc's limit of {MAX_FILE_BYTES}")
            header_end = fh.tell()
            if compressed and nbytes > limit:  # the array's own header, checked before its data is decompressed
                raise ClassFileError(_inflate_message(where, nbytes, limit))
            if header_end + nbytes > info.file_size:
                raise ClassFileError(
                    f"{where}truncated: the header promises {nbytes} bytes of data, "
                    f"the member has {max(0, info.file_size - header_end)}"
                )
            order: Literal["C", "F"] = "F" if fortran else "C"
            if nbytes == 0:
                return np.empty(shape, dtype=dtype, order=order)
            if key in _NPZ_TABLES and not compressed:
                offset = _stored_member_offset(path, info) + header_end
                return np.memmap(path, dtype=dtype, mode="r", offset=offset, shape=shape, order=order)
            data = fh.read(nbytes)
            if len(data) < nbytes:
                raise ClassFileError(
                    f"{where}truncated: the header promises {nbytes} bytes of data, the member has {len(data)}"
                )
            return np.frombuffer(data, dtype=dtype).reshape(shape, order=order)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, NotImplementedError) as exc:
        if isinstance(exc, ClassFileError):
            raise
        raise ClassFileError(f"{where}cannot be read ({one_line(exc)})") from None


def _inflate_limit() -> int:
    """Most bytes one compressed ``.npz`` member may decompress to: the file limit, or the memory budget if lower."""
    from ..search.budget import memory_limit_from_env

    budget = memory_limit_from_env()
    return MAX_FILE_BYTES if budget is None else min(MAX_FILE_BYTES, budget)


def _inflate_message(where: str, nbytes: int, limit: int) -> str:
    return (
        f"{where}is compressed and would decompress to {nbytes:,} bytes in memory, over dimcalc's limit of "
        f"{limit:,} (memory); store it uncompressed (numpy.savez, read memory-mapped) or make it smaller"
    )


def _npz_scalar(arr: Any, key: str, kinds: str, what: str, source: str) -> Any:
    if arr.dtype.kind not in kinds or arr.size != 1 or arr.ndim > 1:
        raise ClassFileError(f"{source}: array {key!r} must be {what}; got dtype {arr.dtype}, shape {arr.shape}")
    return arr.reshape(-1)[0].item()


def _npz_strings(arr: Any, key: str, source: str) -> list[str]:
    if arr.dtype.kind != "U" or arr.ndim != 1:
        raise ClassFileError(
            f"{source}: array {key!r} must be a 1-D array of strings (dtype str); "
            f"got dtype {arr.dtype}, shape {arr.shape}"
        )
    return [str(s) for s in arr.tolist()]


def load_npz(path: str | os.PathLike) -> HypothesisClass:
    """Load a class from an ``.npz`` archive of named arrays (see docs/interface.md §6).

    ``hypotheses`` (required) is the 2-D integer or boolean table, memory-mapped
    when the archive stores it uncompressed (``np.savez``; ``np.savez_compressed``
    archives are decompressed into memory).  A binary table may instead be
    given packed, as ``packed_hypotheses`` (``np.packbits(table, axis=1)``,
    ``uint8``, memory-mapped likewise) with ``domain_size`` (the number of
    points): it is converted chunk by chunk to one bit per cell, never to a
    dense table (:meth:`HypothesisClass.from_packed`).  Optional: ``labels`` (an integer,
    the number of labels k+1), ``domain`` and ``hypothesis_names`` (1-D string
    arrays), ``name`` (a string) and ``metadata`` (a string holding a JSON
    object).  Any other array is refused, and nothing is unpickled.

    Raises
    ------
    ClassFileError
        If the archive is missing or malformed, lacks ``hypotheses``, has an
        unknown array, an object array, or an array of the wrong dtype or shape,
        or the class breaks spec §1 (negative label, label not below ``labels``,
        names of the wrong length, ...).

    Examples
    --------
    >>> import numpy as np, tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "t.npz")
    >>> np.savez(p, hypotheses=np.array([[0, 1], [1, 1]]), labels=3, domain=np.array(["a", "b"]), name="demo")
    >>> H = load_npz(p)
    >>> H.name, H.num_labels, H.point_names
    ('demo', 3, ('a', 'b'))
    >>> table = np.array([[0, 1, 1], [1, 1, 0]], dtype=np.uint8)
    >>> np.savez(p, packed_hypotheses=np.packbits(table, axis=1), domain_size=3)
    >>> load_npz(p).table.tolist()
    [[0, 1, 1], [1, 1, 0]]
    """
    path = Path(path)
    _binary_file_size(path)
    source = str(path)
    try:
        zf = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, ValueError) as exc:
        raise ClassFileError(f"{source}: not a numpy .npz archive ({one_line(exc)})") from None
    except OSError as exc:
        raise ClassFileError(f"{source}: cannot read ({exc.strerror or one_line(exc)})") from None
    with zf:
        members: dict[str, Any] = {}
        for info in zf.infolist():
            key = info.filename[:-4] if info.filename.endswith(".npy") else info.filename
            if key not in NPZ_ARRAYS:
                raise ClassFileError(f"{source}: unknown array {key!r}; allowed arrays are {', '.join(NPZ_ARRAYS)}")
            if key in members:
                raise ClassFileError(f"{source}: array {key!r} appears twice")
            if info.flag_bits & 0x1:
                raise ClassFileError(f"{source}: array {key!r} is encrypted")
            members[key] = info
        tables = [key for key in _NPZ_TABLES if key in members]
        if not tables:
            raise ClassFileError(f"{source}: missing required array 'hypotheses' (the 2-D table of labels)")
        if len(tables) == 2:
            raise ClassFileError(f"{source}: has both 'hypotheses' and 'packed_hypotheses'; keep one table")
        if ("domain_size" in members) != (tables[0] == "packed_hypotheses"):
            raise ClassFileError(
                f"{source}: array 'domain_size' (the number of points) goes with 'packed_hypotheses', and only with it"
            )
        arrays = {key: _read_npz_member(path, zf, info, key, source) for key, info in members.items()}
    labels = name = metadata = None
    if "labels" in arrays:
        labels = _npz_scalar(arrays["labels"], "labels", "iu", "one integer (the number of labels k+1)", source)
        if labels < 1:
            raise ClassFileError(
                f"{source}: array 'labels' must be a positive integer (the number of labels k+1); got {labels}"
            )
    if "name" in arrays:
        name = _npz_scalar(arrays["name"], "name", "U", "one string", source)
    if "metadata" in arrays:
        text = _npz_scalar(arrays["metadata"], "metadata", "U", "one string holding a JSON object", source)
        try:
            metadata = json.loads(text, parse_constant=reject_constant)
        except (ValueError, RecursionError) as exc:
            raise ClassFileError(f"{source}: array 'metadata' is not valid JSON ({one_line(exc)})") from None
        if not isinstance(metadata, dict):
            raise ClassFileError(f"{source}: array 'metadata' must hold a JSON object; got {type(metadata).__name__}")
    domain = _npz_strings(arrays["domain"], "domain", source) if "domain" in arrays else None
    names = (
        _npz_strings(arrays["hypothesis_names"], "hypothesis_names", source) if "hypothesis_names" in arrays else None
    )
    n_points = None
    if "domain_size" in arrays:
        n_points = _npz_scalar(arrays["domain_size"], "domain_size", "iu", "one integer (the number of points)", source)
    key = "hypotheses" if "hypotheses" in arrays else "packed_hypotheses"
    return build_class(
        arrays[key],
        f"array {key!r}, ",
        source,
        n_points,
        num_labels=labels,
        point_names=domain,
        hypothesis_names=names,
        name=name,
        metadata=metadata,
    )


def _write_bits_npy(fh: Any, H: HypothesisClass) -> None:
    """A bit-stored class's table as a Fortran-order ``uint8`` ``.npy``, written column chunk by chunk
    (no dense copy of the table in memory)."""
    bits = H.bit_table
    assert bits is not None
    header = {"descr": np.lib.format.dtype_to_descr(np.dtype(np.uint8)), "fortran_order": True, "shape": bits.shape}
    np.lib.format.write_array_header_2_0(fh, header)
    step = max(1, CHUNK_CELLS // max(bits.n_rows, 1))
    for s in range(0, bits.n_cols, step):  # Fortran order: column after column
        fh.write(unpack_columns(bits.words[s : s + step], bits.n_rows).T.tobytes())


def save_npy(H: HypothesisClass, path: str | os.PathLike, **output: Any) -> None:
    """Write the class's table as one ``.npy`` array (``uint8``, or ``uint16`` beyond 256 labels).

    Like CSV, the file keeps only the table: names, the declared label count
    and metadata are dropped (use ``.npz`` to keep them).  A class stored one
    bit per cell is written column by column (a Fortran-order array), without
    a dense copy in memory.
    """
    if H.bit_table is not None:
        _write(path, lambda fh: _write_bits_npy(fh, H), output)
        return
    _write(path, lambda fh: np.save(fh, H.table, allow_pickle=False), output)


def save_npz(H: HypothesisClass, path: str | os.PathLike, **output: Any) -> None:
    """Write the class as an uncompressed ``.npz`` archive (so :func:`load_npz` memory-maps the table).

    Holds ``hypotheses`` and ``labels``, plus ``domain``, ``hypothesis_names``,
    ``name`` and ``metadata`` (JSON text) when the class has them: a lossless
    round trip.  A class stored one bit per cell (big binary classes) is
    written as ``packed_hypotheses`` (``np.packbits(table, axis=1)``) and
    ``domain_size`` instead of ``hypotheses``: an eighth of the size.

    Examples
    --------
    >>> import tempfile, os
    >>> p = os.path.join(tempfile.mkdtemp(), "c.npz")
    >>> H = HypothesisClass([[0, 2], [1, 0]], num_labels=4, name="c", metadata={"seed": 1})
    >>> save_npz(H, p)
    >>> G = load_npz(p)
    >>> G == H, G.num_labels, G.name, G.metadata
    (True, 4, 'c', {'seed': 1})
    """
    arrays: dict[str, Any] = {"labels": np.array(H.num_labels, dtype=np.int64)}
    if H.bit_table is not None:
        arrays["packed_hypotheses"] = H.bit_table.packed_rows()
        arrays["domain_size"] = np.array(H.n_points, dtype=np.int64)
    else:
        arrays["hypotheses"] = H.table
    if H.has_point_names:
        arrays["domain"] = np.array(H.point_names, dtype=str)
    if H.has_hypothesis_names:
        arrays["hypothesis_names"] = np.array(H.hypothesis_names, dtype=str)
    if H.name != "unnamed":  # an unnamed class reads back as "unnamed" either way
        arrays["name"] = np.array(H.name, dtype=str)
    if H.metadata:
        arrays["metadata"] = np.array(json.dumps(H.metadata), dtype=str)
    _write(path, lambda fh: np.savez(fh, **arrays), output)


def _write(path: str | os.PathLike, write: Any, output: dict[str, Any]) -> None:
    """The class file through dimcalc's one writer (``output``: its ``inputs``, ``force``, ``option``)."""
    write_output(path, write, what="class file", kind=CLASS_FILE, **output)
