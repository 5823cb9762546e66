"""Seed trees: a shattered tree the caller already has, as the start of a Littlestone-type search.

A solver given ``seed_tree=`` (:func:`~dimcalc.littlestone.littlestone_dimension`,
:func:`~dimcalc.littlestone.multiclass_littlestone_dimension`,
:func:`~dimcalc.littlestone.psi_littlestone_dimension`) starts from it instead of
building its own greedy tree: a tree of depth ``d`` that ``H`` shatters proves
``D(H) >= d`` (the definition of each dimension), so the search starts
deepening at ``d + 1`` and returns the seed as its witness when it ends at ``d``.

A seed is never trusted on faith.  It is either

* a tree (a dict in the solver's witness format, or its witness object),
  checked at the call by the solver's own independent checker
  (:mod:`dimcalc.witnesses.tree_checks`, inside the time limit), or
* a :class:`SeedTree`, which can only be made by running that checker
  (:meth:`SeedTree.certify`) and is accepted for the very class it was
  certified on and the kind it was certified for -- ``dimcalc check``
  certifies its one greedy tree once per report path and hands each solver
  its copy this way.

A tree that the checker rejects, a :class:`SeedTree` of another class or of
another kind is refused with :class:`~dimcalc.errors.InvalidParameterError`.

Examples
--------
>>> from dimcalc import HypothesisClass
>>> H = HypothesisClass.from_table([[1 if x >= t else 0 for x in range(3)] for t in range(4)])
>>> tree = {"point": 1, "children": [{"point": 2, "children": [{"hypothesis": 3}, {"hypothesis": 2}]},
...                                  {"point": 0, "children": [{"hypothesis": 1}, {"hypothesis": 0}]}]}
>>> seed = SeedTree.certify(H, tree, "littlestone")
>>> seed.depth, seed.kind
(2, 'littlestone')
"""

from __future__ import annotations

from typing import Any

from ..classes.hypothesis_class import HypothesisClass
from ..errors import InvalidWitnessError, parameter_error
from ..psi import PsiFamily
from ..witnesses.trees import MistakeTree, MulticlassTree, PsiTree, RestrictionTree

__all__ = ["SeedTree", "checked_seed"]


def _copy(tree: Any) -> Any:
    """A plain copy of a tree (nested dicts and lists), so that no later change of the caller's reaches it."""
    if isinstance(tree, dict):
        return {k: _copy(v) for k, v in tree.items()}
    if isinstance(tree, list):
        return [_copy(v) for v in tree]
    return tree


def _witness(kind: str, body: Any, family: Any = None) -> Any:
    """``body`` as the witness object whose checker certifies a result of ``kind`` (``family``: a user Ψ family)."""
    base, _, suffix = kind.partition(":")
    if base == "littlestone":
        return MistakeTree(body)
    if base == "multiclass_littlestone":
        return MulticlassTree(body)
    if base == "littlestone_restriction":  # a mistake tree of H|_i, checked on H|_i built from H
        return RestrictionTree(body, restriction=int(suffix))
    if base in ("psi_littlestone", "psi_littlestone_uniform"):
        fam = family if isinstance(family, PsiFamily) else suffix
        return PsiTree(body, family=fam, uniform=base == "psi_littlestone_uniform")
    raise ValueError(f"no seed trees for kind {kind!r}")  # pragma: no cover - callers pass their own kinds


class SeedTree:
    """A tree certified for one class by the checker of one result kind (see the module docstring).

    Made only by :meth:`certify`; it keeps a private copy of the tree, the
    class it was certified on and the depth the checker returned.
    """

    __slots__ = ("kind", "depth", "hclass", "_body", "_family", "_witness")

    def __init__(self, kind: str, depth: int, hclass: HypothesisClass, body: Any, family: Any) -> None:
        self.kind, self.depth, self.hclass, self._body, self._family = kind, depth, hclass, body, family
        self._witness: Any = None

    @classmethod
    def certify(cls, H: HypothesisClass, tree: Any, kind: str, family: Any = None) -> SeedTree:
        """Check ``tree`` for ``H`` with the checker of result ``kind`` (e.g. ``"littlestone"``,
        ``"psi_littlestone_uniform:bin"``; ``family`` the :class:`~dimcalc.psi.PsiFamily` of a user kind).

        Raises :class:`~dimcalc.errors.InvalidWitnessError` (with the reason) when ``H`` does not shatter it.
        """
        body = _copy(tree)
        depth = _witness(kind, body, family).certify(H)
        return cls(kind, depth, H, body, family)

    def witness(self) -> Any:
        """The tree as the witness object of :attr:`kind` (made once from the private copy; witness
        objects are read, never changed, so every result seeded by this tree shares it)."""
        if self._witness is None:
            self._witness = _witness(self.kind, self._body, self._family)
        return self._witness

    def __repr__(self) -> str:
        return f"SeedTree(kind={self.kind!r}, depth={self.depth})"


def checked_seed(H: HypothesisClass, seed_tree: Any, kind: str, owner: str, family: Any = None) -> SeedTree | None:
    """``seed_tree`` (``None``, a tree, or a :class:`SeedTree`) as a :class:`SeedTree` of ``H`` for ``kind``.

    A tree is certified here by the checker of ``kind``; a :class:`SeedTree` is
    accepted when it was certified on ``H`` itself for ``kind``.  Anything else
    raises :class:`~dimcalc.errors.InvalidParameterError` naming ``seed_tree``.
    """
    if seed_tree is None:
        return None
    if isinstance(seed_tree, SeedTree):
        if seed_tree.hclass is not H and seed_tree.hclass != H:  # equal tables: the same rows and points
            raise parameter_error("seed_tree", owner, "a SeedTree certified on this class", seed_tree)
        if seed_tree.kind != kind:
            raise parameter_error("seed_tree", owner, f"a SeedTree certified for {kind!r}", seed_tree)
        return seed_tree
    if not isinstance(seed_tree, dict):
        raise parameter_error("seed_tree", owner, f"a tree (dict) in the witness format of {kind!r}", seed_tree)
    try:
        return SeedTree.certify(H, seed_tree, kind, family)
    except InvalidWitnessError as e:
        raise parameter_error(
            "seed_tree", owner, f"a tree this class shatters ({e})", type(seed_tree).__name__
        ) from None
