"""Witness objects: the certificates every exact answer carries, each with its independent checker.

A witness is the interface spec §3 JSON data (a :class:`list` or :class:`dict`
subclass: it compares, indexes and serialises like the plain data) with
``certify(H)`` -- the definition-level check, written apart from the solvers,
returning what the witness certifies or raising
:class:`~dimcalc.errors.InvalidWitnessError` with the reason -- and
``to_json()``, the plain data.

=========================  ===================================  ============================
witness                    result kinds                         certifies
=========================  ===================================  ============================
:class:`ShatteredSet`      ``vc``                               number of points
:class:`NatarajanWitness`  ``natarajan``                        number of points
:class:`GraphWitness`      ``graph``                            number of points
:class:`GrowthWitness`     ``growth``                           number of label patterns
:class:`MistakeTree`       ``littlestone``                      depth
:class:`MulticlassTree`    ``multiclass_littlestone``           depth
:class:`PsiTree`           ``psi_littlestone[_uniform]:<Ψ>``    depth
:class:`RestrictionTree`   ``littlestone_restriction:<i>``      depth (on ``H|_i``)
:class:`ZeroCover`         ``zero_cover[_function]``            cover size
:class:`Representation`    ``drdim``, ``prdim``                 number of functions (upper bound)
:class:`MessageTable`      ``one_way_communication``            bits of the protocol
=========================  ===================================  ============================

The dimensions of :mod:`dimcalc.dims` carry :class:`ThresholdWitness` (``threshold``),
:class:`PseudoCube` (``ds``), :class:`DualShatteredSet` (``dual_vc``), :class:`StarWitness`
(``star``), :class:`TeachingWitness` (``teaching``) and :class:`RecursiveTeachingWitness`
(``recursive_teaching``); each certifies the size of its set.

:func:`as_witness` turns plain spec data of a result kind into its witness
object (a fixed table: nothing is registered at import time).

Examples
--------
>>> from dimcalc import HypothesisClass
>>> H = HypothesisClass.from_table([[0, 0], [0, 1], [1, 1]])
>>> w = as_witness("littlestone", {"point": 1, "children": [{"hypothesis": 0}, {"hypothesis": 2}]})
>>> type(w).__name__, w.certify(H)
('MistakeTree', 1)
"""

from __future__ import annotations

from typing import Any

from ..psi import FAMILY_NAMES
from .base import DictWitness, ListWitness, Witness
from .combinatorial import (
    DualShatteredSet,
    PseudoCube,
    StarWitness,
    ThresholdWitness,
    is_dual_shattered,
    is_pseudo_cube,
    is_star,
    is_threshold_sequence,
)
from .representation import MessageTable, Representation, check_representation, is_representation
from .shattered import (
    GraphWitness,
    GrowthWitness,
    NatarajanWitness,
    ShatteredSet,
    is_graph_shattered,
    is_natarajan_shattered,
    is_shattered,
)
from .teaching import RecursiveTeachingWitness, TeachingWitness, is_teaching_set
from .trees import MistakeTree, MulticlassTree, PsiTree, RestrictionTree
from .zero_cover import ZeroCover, is_zero_cover, is_zero_cover_fooling_set

__all__ = [
    "is_shattered",
    "is_natarajan_shattered",
    "is_graph_shattered",
    "is_zero_cover",
    "is_zero_cover_fooling_set",
    "is_representation",
    "check_representation",
    "Witness",
    "ListWitness",
    "DictWitness",
    "ShatteredSet",
    "NatarajanWitness",
    "GraphWitness",
    "GrowthWitness",
    "MistakeTree",
    "MulticlassTree",
    "PsiTree",
    "RestrictionTree",
    "ZeroCover",
    "Representation",
    "MessageTable",
    "as_witness",
    "is_threshold_sequence",
    "is_pseudo_cube",
    "is_dual_shattered",
    "is_star",
    "is_teaching_set",
    "ThresholdWitness",
    "PseudoCube",
    "DualShatteredSet",
    "StarWitness",
    "TeachingWitness",
    "RecursiveTeachingWitness",
]

#: Result kind (the part before any ':') -> witness class, for kinds whose data says everything the check needs.
_CLASS_OF_KIND: dict[str, type[ListWitness] | type[DictWitness]] = {
    "vc": ShatteredSet,
    "growth": GrowthWitness,
    "natarajan": NatarajanWitness,
    "graph": GraphWitness,
    "littlestone": MistakeTree,
    "multiclass_littlestone": MulticlassTree,
    "zero_cover": ZeroCover,
    "zero_cover_function": ZeroCover,
    "threshold": ThresholdWitness,
    "ds": PseudoCube,
    "dual_vc": DualShatteredSet,
    "star": StarWitness,
    "teaching": TeachingWitness,
    "recursive_teaching": RecursiveTeachingWitness,
}


def as_witness(kind: str, data: Any) -> Any:
    """The witness object for ``data`` (spec §3 JSON) of a result of ``kind``; ``data`` itself when there is none.

    Witness objects are returned unchanged, except a Ψ-tree of another
    family, which is re-read as a tree of the kind's named family (a Ψ^bin
    tree answering for Ψ^B is checked as a Ψ^B tree).  Data of the wrong JSON type for
    its kind (e.g. a string for a shattered set) and kinds whose check needs
    more than the data -- a user Ψ family (``psi_littlestone:user:<digest>``),
    whose maps are not in the kind -- stay plain data: wrap those in their
    class yourself (``PsiTree(tree, family=psi_family(maps, k))``), or
    ``DimensionResult.verify`` reports that it has nothing to check with.

    Examples
    --------
    >>> type(as_witness("vc", [0, 2])).__name__, as_witness("vc", "01")
    ('ShatteredSet', '01')
    >>> t = as_witness("psi_littlestone_uniform:bin", {"hypothesis": 0})
    >>> type(t).__name__, t.family, t.uniform
    ('PsiTree', 'bin', True)
    """
    if data is None:
        return data
    base, _, suffix = str(kind).partition(":")
    if base in ("psi_littlestone", "psi_littlestone_uniform"):
        # A Ψ-tree of another family (a Ψ^bin tree answering for Ψ^B) is checked against the kind's family.
        if suffix in FAMILY_NAMES and isinstance(data, dict) and getattr(data, "kind", None) != kind:
            return PsiTree(data, family=suffix, uniform=base == "psi_littlestone_uniform")
        return data
    if isinstance(data, Witness):
        return data
    if base == "littlestone_restriction":
        if suffix.isdigit() and int(suffix) >= 1 and isinstance(data, dict):
            return RestrictionTree(data, restriction=int(suffix))
        return data
    cls = _CLASS_OF_KIND.get(base)
    if cls is None or not isinstance(data, list if issubclass(cls, list) else dict):
        return data
    return cls(data)
