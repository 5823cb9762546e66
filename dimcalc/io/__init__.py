"""Reading and writing dimcalc's files: every file dimcalc reads is read here.

* :mod:`~dimcalc.io.class_files` -- class files of the interface spec §1, JSON
  and CSV (:func:`load`, :func:`save`, :func:`loads_json`, :func:`loads_csv`,
  :func:`dumps_json`, :func:`dumps_csv`);
* :mod:`~dimcalc.io.numpy_files` -- numpy ``.npy`` / ``.npz`` class files (§6);
* :mod:`~dimcalc.io.side_files` -- Ψ-family files and input trees
  (:func:`load_psi_family`, :func:`load_input_tree`);
* :mod:`~dimcalc.io.files` -- the rules every file is read by
  (:func:`read_text_file`, :func:`read_json_file`, :func:`parse_json_text`,
  :data:`MAX_FILE_BYTES`).

Loading is strict and happens once, at the boundary: a file that breaks the
format raises :class:`~dimcalc.errors.ClassFileError` (a side file:
:class:`~dimcalc.errors.InvalidParameterError` or
:class:`~dimcalc.errors.InvalidWitnessError`) with a one-line message naming the
file, the place (key, row, column) and what is wrong.
"""

from .class_files import dumps_csv, dumps_json, load, loads_csv, loads_json, save
from .files import MAX_FILE_BYTES, parse_json_text, read_json_file, read_text_file
from .numpy_files import NPZ_ARRAYS, load_npy, load_npz, save_npy, save_npz
from .side_files import load_input_tree, load_psi_family

__all__ = [
    "load",
    "save",
    "loads_json",
    "loads_csv",
    "dumps_json",
    "dumps_csv",
    "MAX_FILE_BYTES",
    "load_npy",
    "load_npz",
    "save_npy",
    "save_npz",
    "NPZ_ARRAYS",
    "read_text_file",
    "read_json_file",
    "parse_json_text",
    "load_psi_family",
    "load_input_tree",
]
