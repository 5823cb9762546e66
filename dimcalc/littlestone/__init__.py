"""Littlestone-type dimensions, computed exactly, with shattered trees as witnesses.

Dimensions
----------
* :func:`littlestone_dimension` -- LDim of a binary class: the depth of the
  deepest complete mistake tree every root-to-leaf path of which is realised
  by one hypothesis (Littlestone 1987; FX §2.5).
* :func:`multiclass_littlestone_dimension` -- MLD, the same with io-labelled
  trees whose two edges carry two different labels (BGS Defs 2.10-2.13).
* :func:`psi_littlestone_dimension` -- Ψ-Littlestone dimension for a family of
  collapsing maps ``φ: [k] -> {0, 1, *}`` (BGS Defs 4.1-4.4), and its uniform
  variant (all nodes at one depth carry the same map); families Ψ^N, Ψ^bin,
  Ψ^B of BGS §4.2 or a user family.
* :func:`binary_restriction_littlestone` -- LDim of every binary restriction
  ``H|_i`` (BGS §3, Claim 4.6).
* :func:`littlestone_dimension_of`, :func:`multiclass_littlestone_dimension_of`
  -- the exact value for a version space given as a bitset (used by SOA).

Depth counts internal levels: a single leaf has depth 0.

One engine
----------
Every dimension here is ``D(V) = max over splits (V0, V1) of 1 + min(D(V0), D(V1))``
with ``D(V) = 0`` for a non-empty ``V`` without a useful split, where a *split*
of the version space ``V`` (a bitset over distinct hypotheses) is a point ``x``
and a map ``φ`` with ``Vb = {h in V : φ(h(x)) = b}``.  Binary LDim uses
``φ = identity``, MLD a pair of labels (Ψ^N, BGS Lemma 4.5), Ψ^bin the bits of
the label, Ψ^B all maps.  The recursion is correct because a complete tree of
depth ``d`` for ``V`` is exactly a root split whose two subtrees are trees of
depth ``d - 1`` for ``V0`` and ``V1``; the leaf under a path is any hypothesis
of the path's version space, so every path is realised by ONE hypothesis.

Reductions (each keeps the value; proofs in the comments at the splitters):

1. Only splits with both children non-empty matter (an empty child has no
   hypothesis to realise a path through it, so such a split only gives depth 0).
2. The value of a split depends only on the unordered pair ``{V0, V1}``
   (``1 + min`` is symmetric), so mirror maps and points that induce the same
   split of ``V`` are evaluated once (*canonicalisation* by the child masks).
3. Points constant on ``V`` (one label present) give no split of any subset of
   ``V`` and are dropped for the whole subtree; points whose label classes on
   ``V`` coincide with another point's stay duplicates on every subset and are
   dropped too (the *live* list passed down the recursion).
4. Monotonicity: ``V ⊆ W`` implies ``D(V) <= D(W)`` (a tree shattered by ``V``
   is shattered by ``W``).  Hence for Ψ^B a map may send every label present at
   ``x`` to 0 or 1 (replacing ``*`` by 0 only enlarges ``V0``): the splits are
   the bipartitions of the present labels.  For MLD only pairs of present labels
   give two non-empty children.
5. Size: a tree of depth ``t`` has ``2**t`` leaves realised by pairwise
   different hypotheses (two leaves part at a node where they fall into
   disjoint children), so ``D(V) <= floor(log2 |V|)``, and a split can give
   ``D(V) >= t`` only if both children have at least ``2**(t-1)`` hypotheses.

Search
------
``at_least(V, t)`` decides ``D(V) >= t`` by depth-first search over the
canonical splits that pass the size test, most balanced first, the smaller
child first (it is the likelier to fail, and cheaper).  A memo keyed by the
version-space bitset stores proven ``(lower, upper)`` bounds and the split that
proves ``lower``; it answers repeated sub-questions and makes the witness tree
a walk over the memo (typed entries, :class:`~dimcalc.littlestone.engine.MemoEntry`).
A binary node (LDim, Ψ^bin) is counted on ``uint64`` words, compiled with
numba once a node is big (:mod:`dimcalc.littlestone.counts`), and also
yields the *balance bound* ``D(V) <= 1 + floor(log2 max min(|V0|, |V1|))``,
kept in the memo.  The value is found by iterative deepening
``t = 1, 2, ...`` until a query fails (or ``t`` reaches the size bound).
Under a ``time_limit`` the search stops and reports ``lower`` (certified by a
tree built from the memo) and ``upper`` (the proven bound of the root).

When the recursion is weak -- a failing query ``D(V) >= t`` that needs many
nodes -- :mod:`dimcalc.littlestone.sat` is tried on it with a conflict budget, alternating
with the recursion under doubling budgets: UNSAT proves the upper bound, a
model is decoded into a tree (see :mod:`dimcalc.littlestone.sat` for the encoding).

The uniform variant (one map per level, BGS Def 4.1) is a search over map
sequences: a prefix ``(φ_0, ..., φ_{j-1})`` is kept only if a tree whose first
``j`` levels use these maps and whose remaining levels are free exists (a
relaxation decided by the same engine, given the prefix as a constraint on
its first levels), and a full sequence only if
the uniform tree exists.  Mirror maps are merged (swapping the children at
every node of one level keeps a uniform tree uniform), and for Ψ^B only total
maps (no ``*``) are needed, by the monotonicity argument above applied to a
whole level.

References
----------
.. [L87] N. Littlestone. Learning quickly when irrelevant attributes abound.
   Machine Learning 2 (1987).
.. [FX] V. Feldman, D. Xiao. Sample Complexity Bounds on Differentially
   Private Learning via Communication Complexity. COLT 2014, §2.5.
.. [BGS] M. Bun, M. Gaboardi, S. Sivakumar. Multiclass versus Binary
   Differentially Private PAC Learning. NeurIPS 2021, Defs 2.10-2.13,
   Defs 4.1-4.4, §4.2 (Lemma 4.5, Claims 4.6-4.7).
"""

from __future__ import annotations

from .api import (
    binary_restriction_littlestone,
    littlestone_dimension,
    multiclass_littlestone_dimension,
    psi_littlestone_dimension,
)
from .version_space import (
    VersionSpaceDimension,
    littlestone_dimension_of,
    multiclass_littlestone_dimension_of,
    shattered_tree_exists,
)

__all__ = [
    "littlestone_dimension",
    "multiclass_littlestone_dimension",
    "psi_littlestone_dimension",
    "binary_restriction_littlestone",
    "littlestone_dimension_of",
    "multiclass_littlestone_dimension_of",
    "shattered_tree_exists",
    "VersionSpaceDimension",
]
