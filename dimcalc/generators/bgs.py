"""The multiclass classes of Bun, Gaboardi and Sivakumar: Theorem 6.1, Theorem 7.2 and Claim 6.2.

* :func:`bgs_thm61_class` ``(k, d)`` -- Theorem 6.1: ``MLD = d`` while the
  first binary restriction has Littlestone dimension about ``d log k``.
* :func:`bgs_thm72_class` ``(d, bits, n)`` -- Theorem 7.2: every binary
  restriction is the class of ``d``-point functions, ``MLD = d · bits``.
* Claim 6.2 is :func:`dimcalc.operations.gap_amplification`; the
  ``gap-amplification`` family of ``dimcalc generate`` applies it to a class
  file and records the generator's metadata.

References
----------
.. [BGS] M. Bun, M. Gaboardi, S. Sivakumar. Multiclass versus Binary
   Differentially Private PAC Learning. NeurIPS 2021, §6 (Theorem 6.1,
   Claim 6.2) and §7 (Theorems 7.1, 7.2).
"""

from __future__ import annotations

import math

import numpy as np

from ..classes.hypothesis_class import MAX_CELLS, HypothesisClass
from ..classes.operations import gap_amplification
from ..errors import parameter_error
from ..validation import check_int
from ._common import check_size, k_subsets, make, numbered, remake, tuples

__all__ = ["bgs_thm61_class", "bgs_thm72_class", "gap_amplified_class"]


def _bgs_thm61_base(k: int) -> HypothesisClass:
    """The class F of the proof of BGS Theorem 6.1 (d = 1), labels 0..k."""
    kp = k if k % 2 == 0 else k + 1  # k' of the proof
    half = kp // 2  # |X| = k'/2, X = [k'/2 - 1]
    t = np.arange(half)[:, None]
    x = np.arange(half)[None, :]
    table = 2 * t + (t >= x)  # f_t(x) = (g_t(x), t), g_t = bit 1
    return HypothesisClass(
        table.astype(np.int64),
        num_labels=k + 1,
        point_names=numbered("x", half),
        hypothesis_names=numbered("f", half),
        name=f"bgs-thm61-F-k{k}",
    )


def bgs_thm61_class(k: int, d: int = 1) -> HypothesisClass:
    """The class of BGS Theorem 6.1: ``MLD = d``, binary restrictions of Littlestone dimension ``Ω(d log k)``.

    Construction from the proof, for ``k >= 5`` and ``d >= 1``: let ``k' = k``
    (``k`` even) or ``k + 1`` (``k`` odd), ``X = [k'/2 - 1] = {0, ..., k'/2 - 1}``
    and ``g_t(x) = 1[t >= x]`` for ``t`` in ``X``.  The class ``F`` has one
    function per ``t``: ``f_t(x) = (g_t(x), t)``, encoded as the label
    ``2t + g_t(x)`` so that the threshold bit ``g_t`` is binary restriction
    ``F|_1`` (bit 1 = least significant, dimcalc's convention).  Labels used
    are ``0..k'-1``; the class declares ``k + 1`` labels, so for even ``k``
    label ``k`` is the extra unused label of the proof.  ``MLD(F) = 1``
    (a label names ``t``) and ``F|_1`` is the class of thresholds over ``X``.
    For ``d > 1`` the result is :func:`~dimcalc.operations.gap_amplification`
    ``(F, d)`` (Claim 6.2): ``MLD = d`` and ``LDim(·|_1) >= d·floor(log2(k'/2))``.

    The cases ``k <= 4`` and ``d = 0`` are trivial in the paper (any class
    works) and are refused.

    Parameters
    ----------
    k : int
        Largest label, ``5 <= k``; the class has ``k + 1`` labels.
    d : int, default 1
        Target multiclass Littlestone dimension, ``d >= 1``.

    Returns
    -------
    HypothesisClass
        ``(k'/2)^d`` hypotheses over ``d·k'/2`` points.

    References
    ----------
    BGS Theorem 6.1 and its proof; Claim 6.2 (gap amplification).

    Examples
    --------
    >>> F = bgs_thm61_class(5)
    >>> F.num_labels, F.table.tolist()
    (6, [[1, 0, 0], [3, 3, 2], [5, 5, 5]])
    >>> bgs_thm61_class(5, d=2).n_hypotheses
    9
    """
    k = check_int(k, "k", "bgs_thm61_class", 5, (1 << 16) - 1)
    d = check_int(d, "d", "bgs_thm61_class", 1)
    half = (k if k % 2 == 0 else k + 1) // 2
    if half**d * d * half > MAX_CELLS:
        raise parameter_error("d", "bgs_thm61_class", f"small enough for (k'/2)^d x d·k'/2 <= {MAX_CELLS} cells", d)
    F = _bgs_thm61_base(k)
    G = F if d == 1 else gap_amplification(F, d)
    return remake(
        G,
        family="bgs-thm61",
        params={"k": k, "d": d},
        source="BGS Theorem 6.1 (proof), amplified by Claim 6.2",
        name=f"bgs-thm61-k{k}-d{d}",
    )


def bgs_thm72_class(d: int, bits: int, n: int | None = None) -> HypothesisClass:
    """A finite version of the class of BGS Theorem 7.2: ``MLD = d·bits``, every ``H|_i`` of LDim ``d``.

    BGS take the class ``H`` over ``N`` whose binary restrictions
    ``H|_1, ..., H|_bits`` are *all* the class of ``d``-point functions: ``H``
    has one function per tuple ``(S_1, ..., S_bits)`` of ``d``-subsets, with
    ``h(x) = sum_i 2^(i-1)·1[x in S_i]`` (bit 1 = least significant).  Here the
    domain is ``{0, ..., n-1}``, giving ``C(n, d)^bits`` hypotheses with
    ``2^bits`` labels (``k = 2^bits - 1``).

    With ``n >= (bits + 1)·d`` (the default) the theorem's conclusion holds for
    the finite class: each ``H|_i`` is the class of ``d``-point functions over
    ``n >= 2d`` points, whose Littlestone dimension is ``d`` (predicting 0
    errs at most ``d`` times; a depth-``d`` tree queries ``d`` fixed points and
    the remaining ones of every ``S`` fit among the other ``n - d >= d``), and
    the proof's tree uses ``bits`` disjoint blocks of ``d`` points plus ``d``
    spare points to complete every ``S_i``, so ``MLD >= d·bits``, while
    ``MLD <= d·bits`` by Theorem 7.1.

    Parameters
    ----------
    d : int
        Points per set, ``d >= 1``.
    bits : int
        Number of bits of a label, ``1 <= bits <= 16``.
    n : int, optional
        Domain size, ``n >= d``; default ``(bits + 1)·d``.

    Returns
    -------
    HypothesisClass
        Rows enumerate ``(S_1, ..., S_bits)`` with ``S_1`` slowest, each
        ``S_i`` in lexicographic order; hypotheses are named
        ``"S_1|S_2|..."``, e.g. ``"{0}|{2}"``.

    References
    ----------
    BGS Theorem 7.2 and its proof; Theorem 7.1.

    Examples
    --------
    >>> H = bgs_thm72_class(1, 2)
    >>> H.n_hypotheses, H.n_points, H.num_labels
    (9, 3, 4)
    >>> H.hypothesis_names[1], H.table[1].tolist()
    ('{0}|{1}', [1, 2, 0])
    """
    d = check_int(d, "d", "bgs_thm72_class", 1)
    bits = check_int(bits, "bits", "bgs_thm72_class", 1, 16)
    n = (bits + 1) * d if n is None else check_int(n, "n", "bgs_thm72_class", d)
    m = math.comb(n, d)
    check_size(m**bits, n, "bgs_thm72_class", "d, bits, n")
    sets, set_names = k_subsets(n, d)
    choice = tuples(m, bits)  # row r: the indices of (S_1, ..., S_bits), S_1 slowest
    table = np.zeros((m**bits, n), dtype=np.int64)
    for i in range(bits):
        table += sets[choice[:, i]] << i  # S_(i+1) is bit i+1
    names = ["|".join(set_names[c] for c in row) for row in choice.tolist()]
    return make(
        table,
        family="bgs-thm72",
        params={"d": d, "bits": bits, "n": n},
        source="BGS Theorem 7.2 (finite domain)",
        num_labels=1 << bits,
        name=f"bgs-thm72-d{d}-bits{bits}-n{n}",
        point_names=numbered("x", n),
        hypothesis_names=names,
    )


def gap_amplified_class(input: HypothesisClass, ell: int) -> HypothesisClass:
    """The ``gap-amplification`` family: ``ell`` copies of ``input`` on disjoint domains (BGS Claim 6.2, eq. 7).

    :func:`dimcalc.operations.gap_amplification` with the generator's metadata
    (``family``, ``params = {"input": <name of input>, "ell": ell}``, ``source``).

    Parameters
    ----------
    input : HypothesisClass
        The class to amplify (``dimcalc generate`` reads it from a class file).
    ell : int
        Number of copies, ``ell >= 1``.

    Returns
    -------
    HypothesisClass

    References
    ----------
    BGS Claim 6.2 and its proof, equation (7).

    Examples
    --------
    >>> G = gap_amplified_class(bgs_thm61_class(5), 2)
    >>> G.name, G.n_hypotheses, G.metadata["params"]
    ('bgs-thm61-k5-d1^2', 9, {'input': 'bgs-thm61-k5-d1', 'ell': 2})
    """
    G = gap_amplification(input, ell)
    return remake(
        G,
        family="gap-amplification",
        params={"input": input.name, "ell": G.metadata["ell"]},
        source="BGS Claim 6.2, equation (7)",
        name=G.name,
    )
