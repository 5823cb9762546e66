"""Side files that go with a class: a Ψ-family of collapsing maps, an input tree of a 0-cover.

Both are JSON read with the class files' guarantees (:func:`dimcalc.io.read_json_file`);
their content is checked against the class they go with, and every refusal is one
line naming the file.  Formats: ``docs/trees.md`` (families, BGS §4.2) and
:mod:`dimcalc.covers` (input trees, BGS §5.1).
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import InvalidParameterError, InvalidWitnessError
from ..psi.families import PsiFamily, _check_num_labels, _map_problem, normalize_map, psi_family
from ..witnesses.cover_trees import tree_points
from .files import read_json_file

__all__ = ["load_psi_family", "load_input_tree"]


def load_psi_family(path: str | os.PathLike, num_labels: int) -> PsiFamily:
    """Read a user family from a JSON file: a list of maps, or ``{"maps": [...]}``.

    Parameters
    ----------
    path : str or path-like
        The JSON file, e.g. ``[[0, 1, null], [null, 0, 1]]``.
    num_labels : int
        Number of labels of the class the family will be used with.

    Returns
    -------
    PsiFamily
        A user family.

    Raises
    ------
    InvalidParameterError
        If the file is missing, not JSON, or does not hold a non-empty list of
        valid maps; the message names the file and the bad map.

    Examples
    --------
    >>> import tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "fam.json")
    >>> _ = open(p, "w").write('[[0, 1, null], [null, 0, 1]]')
    >>> load_psi_family(p, 3).user_maps
    ((0, 1, None), (None, 0, 1))
    """
    p = Path(path)
    num_labels = _check_num_labels(num_labels, "load_psi_family")
    obj = read_json_file(p, what="Ψ-family file", error=InvalidParameterError)
    if isinstance(obj, dict):
        if set(obj) != {"maps"}:
            raise InvalidParameterError(
                f"{p}: a Ψ-family object must have exactly the key 'maps'; got keys {sorted(obj)}"
            )
        obj = obj["maps"]
    if not isinstance(obj, list) or not obj:
        raise InvalidParameterError(
            f"{p}: a Ψ-family file must hold a non-empty list of maps (lists of {num_labels} entries 0, 1 or null)"
        )
    for idx, phi in enumerate(obj):
        if normalize_map(phi, num_labels) is None:
            raise InvalidParameterError(f"{p}: map {idx} {_map_problem(phi, num_labels, json_spelling=True)}")
    return psi_family(obj, num_labels)


def load_input_tree(path: str | os.PathLike, *, n_points: int | None = None) -> dict:
    """Read an input-labelled tree from a JSON file (format: :mod:`dimcalc.covers`, BGS §5.1).

    The file is read with the class files' guarantees (:func:`dimcalc.io.read_text_file`:
    a regular file, size limit, UTF-8 with or without a byte-order mark, nesting
    depth, number size).  With ``n_points`` every point must be a column of
    the class (``0..n_points-1``).

    Parameters
    ----------
    path : str or path-like
        The JSON file, e.g. ``{"point": 0, "children": [{"point": 1}, {"point": 2}]}``.
    n_points : int, optional
        Number of points of the class the tree goes with.

    Returns
    -------
    dict
        The tree as read (nested nodes ``{"point": i, "children": [T0, T1]}``).

    Raises
    ------
    InvalidWitnessError
        With a one-line message naming the file when it is missing, not a
        regular file, not JSON, or not a complete tree over the class's points.

    Examples
    --------
    >>> import tempfile
    >>> p = os.path.join(tempfile.mkdtemp(), "tree.json")
    >>> _ = open(p, "w").write('{"point": 0, "children": [{"point": 1}, {"point": 2}]}')
    >>> load_input_tree(p, n_points=3)["children"][1]
    {'point': 2}
    """
    p = Path(path)
    tree = read_json_file(p, what="tree file", error=InvalidWitnessError)
    try:
        tree_points(tree, n_points)
    except InvalidWitnessError as exc:
        raise InvalidWitnessError(f"{p}: {exc}") from None
    return tree
