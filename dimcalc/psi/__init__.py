"""Families of collapsing maps for the Ψ-Littlestone dimension (BGS §4).

A *collapsing map* ``φ : [k] -> {0, 1, *}`` sends each label ``0..k`` to a bit
or to ``*``; a *family* Ψ is a set of collapsing maps.  A Ψ-labelled tree puts a
point and a map of Ψ on every internal node; a hypothesis ``h`` follows the edge
``φ(h(x))`` and realises no edge when ``φ(h(x)) = *`` (BGS Defs 4.1–4.4).

dimcalc represents a map as a tuple of length ``num_labels = k + 1`` whose
entry ``ℓ`` is ``φ(ℓ)``: ``0``, ``1`` or ``None`` (for ``*``; ``null`` in JSON).

The three families of BGS §4.2:

* ``"N"`` -- Ψ^N = {φ_{w,w'} : w ≠ w'} with φ_{w,w'}(w) = 0, φ_{w,w'}(w') = 1
  and ``*`` elsewhere (ordered pairs, so both φ_{w,w'} and φ_{w',w} belong);
  Ψ^N-LD equals the multiclass Littlestone dimension (BGS Lemma 4.5).
* ``"bin"`` -- Ψ^bin = {φ_i : i = 1..label_bits(k + 1)} with
  φ_i(ℓ) = (ℓ >> (i - 1)) & 1.  **i = 1 is the least significant bit**, the
  same convention as :func:`dimcalc.operations.binary_restriction`.
* ``"B"`` -- Ψ^B = all 3^(k+1) maps ``[k] -> {0, 1, *}``, generated lazily.

Any other family is given as an iterable of maps (a *user* family).

Only the labels present in the class matter
------------------------------------------
A class may declare more labels than its table uses (``"labels": 300`` over a
0/1 table).  Every search here works over the set ``P`` of labels **present**
in the table, never over the declared ``0..k``:

* A hypothesis ``h`` takes values in ``P`` only, so the edge ``h`` follows at a
  node ``(x, φ)`` is ``φ(h(x))`` with ``h(x) ∈ P`` (BGS Def 4.2).  Two maps with
  the same restriction ``φ|_P`` send every hypothesis of the class the same way
  at every point, so a tree labelled with one is Ψ-shattered (BGS Def 4.3),
  resp. uniformly Ψ-shattered (Def 4.4: one map per level), exactly when the
  tree with the other is.  Hence the Ψ-Littlestone dimension (Def 4.4, plain
  and uniform) depends only on the set ``{φ|_P : φ ∈ Ψ}`` of **distinct
  restrictions**, and a search may enumerate one representative map of Ψ per
  restriction (the witness then carries that representative, a member of Ψ).
* A map whose restriction to ``P`` lacks a 0 (or a 1) leaves one child of every
  node empty, so it labels no node of a shattered tree of positive depth.
* Mirror maps (0 and 1 swapped) give the same unordered pair of children; in a
  uniform tree, mirroring the map of one level and swapping the children of
  every node of that level keeps the tree uniform and shattered.
* For Ψ^B (all maps, BGS §4.2) the restrictions are all maps ``P -> {0, 1, *}``;
  by monotonicity (a subclass shatters no deeper tree than the class) a ``*`` on a
  present label can be replaced by 0, so the total maps ``P -> {0, 1}`` with the
  smallest present label on side 0 suffice: ``2^(|P|-1) - 1`` canonical maps
  (:func:`uniform_maps`), enumerated lazily and only as far as the search's time
  and memory budget lets it go.  The declared but absent labels get ``*``.

With every declared label present, ``P = {0..k}`` and these are exactly the
canonical maps the search used before restrictions were introduced, in the same
order, so values (and witnesses) are unchanged.

Layout: :mod:`~dimcalc.psi.families` (maps, families, JSON forms),
:mod:`~dimcalc.psi.restrictions` (canonical maps over the present labels) and
:mod:`~dimcalc.psi.seed_trees` (Ψ^B trees built without search).

References
----------
.. [BGS] M. Bun, M. Gaboardi, S. Sivakumar. Multiclass versus Binary
   Differentially Private PAC Learning. NeurIPS 2021, §4 (Defs 4.1–4.4,
   §4.2 families Ψ^N, Ψ^bin, Ψ^B, Lemma 4.5, Claims 4.6–4.7).

Examples
--------
>>> psi = psi_family("bin", 4)
>>> list(psi.maps())
[(0, 1, 0, 1), (0, 0, 1, 1)]
>>> (0, 1, None, None) in psi_family("N", 4), (0, 1, None, None) in psi
(True, False)
"""

from .families import (
    FAMILY_NAMES,
    CollapsingMap,
    PsiFamily,
    family_to_json,
    map_from_json,
    map_to_json,
    normalize_map,
    psi_family,
)
from .restrictions import MapSequence, present_labels, restricted_maps, uniform_maps
from .seed_trees import bipartition_seed_tree

__all__ = [
    "CollapsingMap",
    "MapSequence",
    "present_labels",
    "uniform_maps",
    "restricted_maps",
    "bipartition_seed_tree",
    "PsiFamily",
    "psi_family",
    "normalize_map",
    "map_to_json",
    "map_from_json",
    "family_to_json",
    "FAMILY_NAMES",
]
