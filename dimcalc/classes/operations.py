"""Operations that build new hypothesis classes from old ones.

* :func:`restrict` -- the class restricted to a subset of the domain;
* :func:`binary_restriction`, :func:`binary_restrictions` -- the binary
  restrictions ``H|_i`` of a multiclass class (BGS §3);
* :func:`gap_amplification` -- the ``ell``-fold product class of BGS Claim 6.2;
* :func:`xor_class` -- ``C⊕ = {f ⊕ g : f, g ∈ C}`` (BNS §5, GenericLearner);
* :func:`complement` -- ``{1 - h : h ∈ H}`` for a binary class.

Bit convention
--------------
Labels are ``0..k``; a label's binary expansion has
``label_bits(k + 1) = ceil(log2(k + 1))`` bits.  **Bit i = 1 is the least
significant bit**: ``h_i(x) = (h(x) >> (i - 1)) & 1``, so that
``h(x) = sum_i 2**(i - 1) * h_i(x)``.  The same convention is used by the
``Ψ^bin`` family (:mod:`dimcalc.psi`) and everywhere else in dimcalc.

Every operation returns a new :class:`~dimcalc.HypothesisClass`; the input is
never modified.  Bad arguments raise
:class:`~dimcalc.errors.InvalidParameterError`.

References
----------
.. [BGS] M. Bun, M. Gaboardi, S. Sivakumar. Multiclass versus Binary
   Differentially Private PAC Learning. NeurIPS 2021.
.. [BNS] M. Bun, K. Nissim, U. Stemmer. Simultaneous Private Learning of
   Multiple Concepts. JMLR 20 (2019).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import parameter_error
from ..validation import check_hypothesis_class, check_int
from .hypothesis_class import MAX_CELLS, HypothesisClass, label_bits

__all__ = [
    "restrict",
    "binary_restriction",
    "binary_restrictions",
    "gap_amplification",
    "xor_class",
    "complement",
]


def _check_cells(rows: int, cols: int, owner: str) -> None:
    if rows * cols > MAX_CELLS:
        raise parameter_error(
            "size",
            owner,
            f"a table of at most {MAX_CELLS} cells (rows x points)",
            f"{rows} x {cols} = {rows * cols} cells",
        )


def _hypothesis_names(H: HypothesisClass) -> list[str] | None:
    return list(H.hypothesis_names) if H.has_hypothesis_names else None


def restrict(H: HypothesisClass, points: Sequence[int]) -> HypothesisClass:
    """Restrict a class to a subset of its domain.

    Row ``r`` of the result is row ``r`` of ``H`` read on ``points`` only, so
    file row indices are preserved (rows that become equal are kept as
    duplicates).  Point and hypothesis names are kept.

    Parameters
    ----------
    H : HypothesisClass
        The class.
    points : sequence of int
        Distinct point indices of ``H``, in the order the columns of the result
        should have.  May be empty (the result then has one column-less
        function).

    Returns
    -------
    HypothesisClass
        ``H|_points``, with ``num_labels`` unchanged and metadata
        ``{"operation": "restrict", "points": [...], "source": H.name}``.

    Raises
    ------
    InvalidParameterError
        If a point index is out of range, repeated or not an int.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass([[0, 1, 1], [1, 0, 1]], point_names=["a", "b", "c"])
    >>> R = restrict(H, [2, 0])
    >>> R.table.tolist(), R.point_names
    ([[1, 0], [1, 1]], ('c', 'a'))
    """
    H = check_hypothesis_class(H, "restrict")
    if isinstance(points, (str, bytes)) or not isinstance(points, (Sequence, np.ndarray)):
        raise parameter_error("points", "restrict", "a sequence of point indices", points)
    cols = [check_int(p, "points", "restrict", 0, H.n_points - 1) for p in points]
    if len(set(cols)) != len(cols):
        raise parameter_error("points", "restrict", "a sequence of distinct point indices", list(points))
    table = H.table[:, cols]
    return HypothesisClass(
        table,
        num_labels=H.num_labels,
        point_names=[H.point_names[c] for c in cols],
        hypothesis_names=_hypothesis_names(H),
        name=f"{H.name}|restricted",
        metadata={"operation": "restrict", "points": cols, "source": H.name},
    )


def binary_restriction(H: HypothesisClass, i: int) -> HypothesisClass:
    """The i-th binary restriction ``H|_i = {h_i : h ∈ H}`` (BGS §3).

    ``h_i(x)`` is bit ``i`` of the binary expansion of ``h(x)``, where
    **i = 1 is the least significant bit**: ``h_i(x) = (h(x) >> (i - 1)) & 1``.
    So ``h = sum_i 2**(i - 1) * h_i`` over ``i = 1..label_bits(H.num_labels)``.

    File rows are preserved: row ``r`` of the result is ``h_i`` for row ``r``
    of ``H`` (distinct hypotheses of ``H`` may coincide in ``H|_i``).

    Parameters
    ----------
    H : HypothesisClass
        A class with labels ``0..k``.
    i : int
        The bit, ``1 <= i <= label_bits(H.num_labels) = ceil(log2(k + 1))``.

    Returns
    -------
    HypothesisClass
        A binary class (``num_labels = 2``) on the same domain, named
        ``"<H.name>|<i>"``.

    Raises
    ------
    InvalidParameterError
        If ``i`` is not an int in ``1..label_bits(H.num_labels)``.

    References
    ----------
    BGS §3 (binary restrictions, before Theorem 3.1); bit order fixed by dimcalc
    as least significant first.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass([[0, 1, 2, 3]], num_labels=4)
    >>> binary_restriction(H, 1).table.tolist()   # least significant bit
    [[0, 1, 0, 1]]
    >>> binary_restriction(H, 2).table.tolist()
    [[0, 0, 1, 1]]
    """
    H = check_hypothesis_class(H, "binary_restriction")
    bits = label_bits(H.num_labels)
    i = check_int(i, "i", "binary_restriction", 1, bits)
    table: Any
    if H.num_labels == 2:  # h_1 = h on a binary class: H|_1 is H's table, its bit or sparse storage shared
        table = H.sparse_table if H.sparse_table is not None else H.bit_table if H.storage == "bits" else H.table
    else:
        table = (H.table >> (i - 1)) & 1
    return HypothesisClass(
        table,
        num_labels=2,
        point_names=list(H.point_names),
        hypothesis_names=_hypothesis_names(H),
        name=f"{H.name}|{i}",
        metadata={"operation": "binary_restriction", "bit": i, "source": H.name},
        storage=H.storage if H.num_labels == 2 else "auto",  # type: ignore[arg-type]
    )


def binary_restrictions(H: HypothesisClass) -> list[HypothesisClass]:
    """All binary restrictions ``[H|_1, ..., H|_b]``, ``b = label_bits(H.num_labels)``.

    Element ``i - 1`` of the list is :func:`binary_restriction` ``(H, i)``;
    ``H|_1`` holds the least significant bit.

    Parameters
    ----------
    H : HypothesisClass
        The class (any number of labels).

    Returns
    -------
    list of HypothesisClass
        ``[H|_1, ..., H|_b]``, binary classes with the rows and names of ``H``.

    References
    ----------
    BGS §3.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass([[0, 5], [7, 2]], num_labels=8)
    >>> [R.table.tolist() for R in binary_restrictions(H)]
    [[[0, 1], [1, 0]], [[0, 0], [1, 1]], [[0, 1], [1, 0]]]
    """
    H = check_hypothesis_class(H, "binary_restrictions")
    return [binary_restriction(H, i) for i in range(1, label_bits(H.num_labels) + 1)]


def gap_amplification(H: HypothesisClass, ell: int) -> HypothesisClass:
    """The ``ell``-fold product class ``H'`` of BGS Claim 6.2 (gap amplification).

    ``H'`` has input space ``{1, ..., ell} × X`` and the same labels ``[k]``::

        H' = { h : ∃ f_1, ..., f_ell ∈ H  ∀x ∈ X ∀j: h((j, x)) = f_j(x) }   (BGS eq. 7)

    i.e. one independent copy of ``H`` on each of ``ell`` disjoint copies of the
    domain.  BGS prove ``MLD(H') = ell · MLD(H)`` and that the maximum
    Littlestone dimension over the binary restrictions of ``H'`` is at least
    ``ell`` times that of ``H``.

    Layout: column ``(j - 1) * |X| + x`` is the point ``(j, x)``, named
    ``"<j>/<name of x>"``; rows enumerate the tuples ``(f_1, ..., f_ell)`` of
    *distinct* hypotheses of ``H`` in lexicographic order (``f_1`` slowest), so
    ``H'`` has exactly ``n_distinct(H) ** ell`` rows, all distinct.

    Parameters
    ----------
    H : HypothesisClass
        The base class (duplicates are ignored).
    ell : int
        Number of copies, ``ell >= 1``.

    Returns
    -------
    HypothesisClass

    Raises
    ------
    InvalidParameterError
        If ``ell`` is not a positive int, or ``H'`` would exceed
        ``MAX_CELLS`` cells.

    References
    ----------
    BGS Claim 6.2 and its proof, equation (7) (the construction is from Ghazi
    et al. 2021).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass([[0, 1], [2, 2]], num_labels=3)
    >>> G = gap_amplification(H, 2)
    >>> G.point_names
    ('1/x0', '1/x1', '2/x0', '2/x1')
    >>> G.table.tolist()
    [[0, 1, 0, 1], [0, 1, 2, 2], [2, 2, 0, 1], [2, 2, 2, 2]]
    """
    H = check_hypothesis_class(H, "gap_amplification")
    ell = check_int(ell, "ell", "gap_amplification", 1)
    m, n = H.n_distinct, H.n_points
    if m**ell * max(n, 1) * ell > MAX_CELLS:
        raise parameter_error(
            "ell",
            "gap_amplification",
            f"small enough that |H|^ell x ell|X| stays within {MAX_CELLS} cells (here |H| = {m}, |X| = {n})",
            ell,
        )
    # choice[r, j] = index of the distinct hypothesis used on copy j+1 by row r.
    rows = np.arange(m**ell, dtype=np.int64)
    choice = np.stack([(rows // m ** (ell - 1 - j)) % m for j in range(ell)], axis=1)
    distinct = H.distinct_rows
    table = (
        np.concatenate([distinct[choice[:, j]] for j in range(ell)], axis=1)
        if n
        else np.zeros((choice.shape[0], 0), dtype=np.int64)
    )
    base_names = [H.hypothesis_names[H.row_of(j)] for j in range(m)]
    names = ["(" + ",".join(base_names[c] for c in row) + ")" for row in choice.tolist()]
    points = [f"{j}/{p}" for j in range(1, ell + 1) for p in H.point_names]
    return HypothesisClass(
        table,
        num_labels=H.num_labels,
        point_names=points,
        hypothesis_names=names,
        name=f"{H.name}^{ell}",
        metadata={"operation": "gap_amplification", "ell": ell, "source": H.name},
    )


def xor_class(H: HypothesisClass, other: HypothesisClass | None = None) -> HypothesisClass:
    """The class ``C⊕ = {f ⊕ g : f, g ∈ C}`` of a binary class (BNS §5).

    With ``other = G`` it is ``H ⊕ G = {h ⊕ g : h ∈ H, g ∈ G}`` (BNS Theorem 12
    uses ``VC(H ⊕ C)``).  ``C⊕`` always contains the zero function
    ``f ⊕ f``; when ``C`` is closed under ``⊕`` (e.g. parities) ``C⊕ = C``.

    The result lists each function once, in order of first appearance when the
    pairs ``(f, g)`` of distinct hypotheses are enumerated lexicographically
    (for ``C⊕``, only pairs with ``f <= g``, since ``⊕`` is symmetric).  A
    hypothesis is named ``"<name of f>^<name of g>"`` after its first pair.

    Parameters
    ----------
    H : HypothesisClass
        A binary class.
    other : HypothesisClass, optional
        A binary class on the same number of points.

    Returns
    -------
    HypothesisClass
        A binary class over the domain of ``H`` (point names of ``H``).

    Raises
    ------
    InvalidParameterError
        If a class is not binary, the domains differ in size, or the pair table
        would exceed ``MAX_CELLS``.

    References
    ----------
    BNS §5, Lemma 36 and Algorithm 3 (GenericLearner): a sanitizer for
    ``C⊕ = {f ⊕ g : f, g ∈ C}`` gives an agnostic k-learner for ``C``.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> C = HypothesisClass([[1, 0, 0], [0, 1, 0]])
    >>> xor_class(C).table.tolist()
    [[0, 0, 0], [1, 1, 0]]
    """
    H = check_hypothesis_class(H, "xor_class")
    if not H.is_binary:
        raise parameter_error("H", "xor_class", "a binary class (labels <= 2)", f"a class with {H.num_labels} labels")
    if other is None:
        G = H
    else:
        G = check_hypothesis_class(other, "xor_class", "other")
        if not G.is_binary:
            raise parameter_error(
                "other", "xor_class", "a binary class (labels <= 2)", f"a class with {G.num_labels} labels"
            )
        if G.n_points != H.n_points:
            raise parameter_error(
                "other", "xor_class", f"a class on {H.n_points} points like H", f"a class on {G.n_points} points"
            )
    a, b = H.n_distinct, G.n_distinct
    if other is None:
        left, right = np.triu_indices(a)
    else:
        left, right = (x.reshape(-1) for x in np.indices((a, b)))
    _check_cells(len(left), H.n_points, "xor_class")
    pairs = H.distinct_rows[left] ^ G.distinct_rows[right]
    if H.n_points:
        _, first = np.unique(pairs, axis=0, return_index=True)
        first = np.sort(first)
    else:
        first = np.array([0])
    hn = [H.hypothesis_names[H.row_of(j)] for j in range(a)]
    gn = [G.hypothesis_names[G.row_of(j)] for j in range(b)]
    names = [f"{hn[left[r]]}^{gn[right[r]]}" for r in first.tolist()]
    source = H.name if other is None else f"{H.name} xor {G.name}"
    return HypothesisClass(
        pairs[first],
        num_labels=2,
        point_names=list(H.point_names),
        hypothesis_names=names,
        name=f"{H.name}-xor" if other is None else f"{H.name}-xor-{G.name}",
        metadata={"operation": "xor_class", "source": source},
    )


def complement(H: HypothesisClass) -> HypothesisClass:
    """The complement class ``{1 - h : h ∈ H}`` of a binary class.

    Row ``r`` of the result is ``1 - `` row ``r`` of ``H``; names are kept.
    Complementing preserves VC and Littlestone dimensions (relabel every
    witness), and ``complement(complement(H)) == H``.

    Parameters
    ----------
    H : HypothesisClass
        A binary class.

    Returns
    -------
    HypothesisClass
        A binary class (``num_labels = 2``).

    Raises
    ------
    InvalidParameterError
        If ``H`` has more than two labels.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> complement(HypothesisClass([[0, 1, 1], [1, 1, 0]])).table.tolist()
    [[1, 0, 0], [0, 0, 1]]
    """
    H = check_hypothesis_class(H, "complement")
    if not H.is_binary:
        raise parameter_error("H", "complement", "a binary class (labels <= 2)", f"a class with {H.num_labels} labels")
    return HypothesisClass(
        1 - H.table,
        num_labels=2,
        point_names=list(H.point_names),
        hypothesis_names=_hypothesis_names(H),
        name=f"{H.name}-complement",
        metadata={"operation": "complement", "source": H.name},
    )
