"""Witness objects for the Littlestone-type dimensions: shattered trees (interface spec §3).

Each class is the tree's root node (a :class:`dict`) carrying what its check
needs: :class:`MistakeTree` (binary mistake tree, Littlestone 1987; FX §2.5),
:class:`MulticlassTree` (io-labelled tree, BGS Defs 2.10-2.13),
:class:`PsiTree` (Ψ-labelled tree with its family and uniformity, BGS Defs
4.1-4.4) and :class:`RestrictionTree` (a mistake tree of the binary
restriction ``H|_i``, BGS §3).  ``certify(H)`` runs the independent checker
:func:`dimcalc.witnesses.tree_checks.check_tree` and returns the tree's depth.

Examples
--------
>>> from dimcalc import HypothesisClass
>>> H = HypothesisClass.from_table([[0, 3], [1, 2], [2, 1]], num_labels=4)
>>> t = PsiTree({"point": 0, "map": [0, 1, 0, 1], "children": [{"hypothesis": 0}, {"hypothesis": 1}]}, family="bin")
>>> t.certify(H), t.kind, t["map"]
(1, 'psi_littlestone:bin', [0, 1, 0, 1])
"""

from __future__ import annotations

from typing import Any

from ..classes.hypothesis_class import HypothesisClass
from ..classes.operations import binary_restriction
from ..errors import InvalidWitnessError
from ..psi import PsiFamily
from .base import DictWitness
from .tree_checks import check_tree

__all__ = ["MistakeTree", "MulticlassTree", "PsiTree", "RestrictionTree"]


class MistakeTree(DictWitness):
    """A complete binary mistake tree ``{"point": i, "children": [T0, T1]}`` / ``{"hypothesis": j}``.

    ``certify(H)`` returns its depth when ``H`` (binary) shatters it, the
    Littlestone dimension's lower bound (Littlestone 1987; FX §2.5).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> MistakeTree({"point": 1, "children": [{"hypothesis": 0}, {"hypothesis": 2}]}).certify(
    ...     HypothesisClass([[0, 0], [0, 1], [1, 1]]))
    1
    """

    measure = "levels"

    def certify(self, H: HypothesisClass) -> int:
        return check_tree(H, self, "binary")


class MulticlassTree(DictWitness):
    """A complete io-labelled tree ``{"point": i, "labels": [a, b], "children": [Ta, Tb]}`` (BGS Defs 2.10-2.13).

    ``certify(H)`` returns its depth when ``H`` shatters it.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> MulticlassTree({"point": 0, "labels": [2, 0], "children": [{"hypothesis": 2}, {"hypothesis": 0}]}).certify(
    ...     HypothesisClass([[0], [1], [2]]))
    1
    """

    measure = "levels"

    def certify(self, H: HypothesisClass) -> int:
        return check_tree(H, self, "multiclass")


class PsiTree(DictWitness):
    """A complete Ψ-labelled tree with its family Ψ and whether it must be uniform (BGS Defs 4.1-4.4).

    Parameters
    ----------
    tree : dict
        The root node ``{"point": i, "map": [...], "children": [T0, T1]}`` (or a leaf).
    family : {"N", "bin", "B"} or PsiFamily
        A named family (built over the class's labels when certifying) or a
        :class:`~dimcalc.psi.PsiFamily` (a user family; certifies only classes
        with its number of labels).
    uniform : bool
        Require one map per level (Ψ-uniformly shattered, Def 4.4).
    """

    measure = "levels"

    def __init__(self, tree: Any = (), family: str | PsiFamily = "B", uniform: bool = False) -> None:
        super().__init__(tree)
        self.family = family
        self.uniform = bool(uniform)

    @property
    def kind(self) -> str:
        """The result kind this tree certifies, e.g. ``"psi_littlestone_uniform:bin"``."""
        if isinstance(self.family, PsiFamily):
            return self.family.kind(self.uniform)
        return ("psi_littlestone_uniform:" if self.uniform else "psi_littlestone:") + self.family

    def certify(self, H: HypothesisClass) -> int:
        if isinstance(self.family, PsiFamily) and self.family.num_labels != H.num_labels:
            raise InvalidWitnessError(
                f"psi tree: the family is over {self.family.num_labels} labels but the class has {H.num_labels}"
            )
        return check_tree(H, self, "psi", self.family, uniform=self.uniform)


class RestrictionTree(DictWitness):
    """A mistake tree of the binary restriction ``H|_i`` (BGS §3): ``certify(H)`` checks it on ``H|_i``.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 0], [1, 1], [2, 0], [3, 1]])
    >>> RestrictionTree({"point": 0, "children": [{"hypothesis": 0}, {"hypothesis": 1}]}, restriction=1).certify(H)
    1
    """

    measure = "levels"

    def __init__(self, tree: Any = (), restriction: int = 1) -> None:
        super().__init__(tree)
        self.restriction = restriction

    def certify(self, H: HypothesisClass) -> int:
        return check_tree(binary_restriction(H, self.restriction), self, "binary")
