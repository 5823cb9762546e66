"""0-cover numbers of a finite class on input-labelled trees (BGS §5, after RST15).

Trees here follow BGS Definition 5.1: a *complete input-labelled tree* of depth
``b`` has ``2^b - 1`` nodes, each labelled by a domain point, **with the root at
depth 1** (unlike Littlestone trees, whose root is at depth 0).  A complete
*output-labelled* tree has the same shape with labels in ``[k] = {0..k}``.

A root-to-leaf path ``A`` of ``z`` is named by its ``b - 1`` turns (0 = left,
1 = right); the path ``B`` of an output tree ``v`` *corresponding* to ``A`` takes
the same turns (Def 5.2).  ``V`` is a **0-cover** of ``H`` on ``z`` (Def 5.4) when
for every ``f in H`` and every path ``A`` some ``v in V`` carries the label
sequence ``f(A)`` on its corresponding path.  ``N(0, H, z)`` is the size of a
smallest 0-cover and ``N(0, H, n) = sup_z N(0, H, z)`` over trees of depth ``n``
(Def 5.5, with ``N(0, H, 0) = 1``).

Layout
------
* :mod:`dimcalc.covers.number` -- ``N(0, H, z)`` on a given tree (:func:`zero_cover_number`);
* :mod:`dimcalc.covers.function` -- ``N(0, H, n)``, the sup over trees (:func:`zero_cover_function`);
* :mod:`dimcalc.covers.bounds` -- the upper bounds of BGS Thm 5.6;
* the tree formats (:mod:`dimcalc.witnesses.cover_trees`) and the checkers
  :func:`is_zero_cover`, :func:`is_zero_cover_fooling_set` with the witness
  object :class:`~dimcalc.witnesses.ZeroCover` (:mod:`dimcalc.witnesses.zero_cover`)
  are written apart from the solvers.

The witness of both solvers (kinds ``"zero_cover"`` and ``"zero_cover_function"``)
is ``{"tree": INPUT_TREE, "cover": [OUTPUT_TREE, ...], "fooling_set": [PAIR, ...]}``
(formats in ``docs/covers.md``): the cover proves ``<=``, the fooling set ``>=``.

The exact formula (proof)
-------------------------
For a class ``G`` and a tree ``z`` with root point ``x`` and subtrees
``zL, zR`` write ``G^i = {f in G : f(x) = i}``.  Then

    N(0, G, z) = sum over labels i with G^i non-empty of max(N(0, G^i, zL), N(0, G^i, zR)),

with ``N(0, G, empty tree) = 1`` for non-empty ``G`` (so a bottom node counts
the labels ``G`` puts on its point).  *Lower bound:* in any cover the trees
whose root carries ``i`` must, cut below the root, cover ``G^i`` on ``zL`` (every
path through ``zL`` and every ``f in G^i`` needs a tree whose root label is
``f(x) = i``) and likewise on ``zR``; trees with different root labels are
different trees.  *Upper bound:* pad the smaller of two minimum covers of ``G^i``
on ``zL`` and ``zR`` by repetition, pair them up and put root label ``i`` above
each pair (the stitching of the proof of BGS Thm 5.6).  The same induction
gives a fooling set of the same size (take, for each ``i``, the fooling set of
the larger side), so the value is certified from both sides.

For the function ``N(0, H, n)`` the sup over trees is taken by a search over
*families of cells*: the cells reaching a node are the subclasses of ``H``
sharing a label sequence on the path so far; a node's point ``x`` splits every
cell by label and the resulting cells are sent to the two children in any of
the ways that put each cell on one side.  ``W(F, m) = max_z sum_{G in F} N(0, G, z)``
over trees of depth ``m`` obeys ``W(F, m) = max_x max_{(P, Q)} W(P, m-1) + W(Q, m-1)``
(the two subtrees are chosen independently), ``W(F, 0) = |F|``.  Branches are
pruned with the proven bound ``W(F, m) <= sum_G R(G, m)`` where
``R(G, m) = max_x sum_i R(G^i, m-1)`` lets every cell choose its own subtree;
for binary classes ``R`` is exact (a node never receives two cells).

References
----------
BGS: Bun, Gaboardi, Sivakumar, *Multiclass versus Binary Differentially Private
PAC Learning*, NeurIPS 2021, §5.1 (Defs 5.1-5.5, Thm 5.6), §5.2 (Lemma 5.11).
RST15: Rakhlin, Sridharan, Tewari, *Sequential complexities and uniform
martingale laws of large numbers*, PTRF 2015.
"""

from ..witnesses.cover_trees import MAX_DEPTH, input_tree_depth, input_tree_from_witness_tree
from ..witnesses.zero_cover import is_zero_cover, is_zero_cover_fooling_set
from .bounds import sauer_zero_cover_bound, sauer_zero_cover_exponential_bound, trivial_zero_cover_bound
from .function import zero_cover_function
from .number import DEFAULT_MAX_WITNESS_NODES, zero_cover_number

__all__ = [
    "zero_cover_number",
    "zero_cover_function",
    "is_zero_cover",
    "is_zero_cover_fooling_set",
    "input_tree_from_witness_tree",
    "input_tree_depth",
    "sauer_zero_cover_bound",
    "sauer_zero_cover_exponential_bound",
    "trivial_zero_cover_bound",
    "MAX_DEPTH",
    "DEFAULT_MAX_WITNESS_NODES",
]
