"""Queries on one version space: the exact dimension of a bitset (used by SOA), and SAT alone at one depth.

No state is kept between calls unless the caller asks for it: a
:class:`VersionSpaceDimension` is an explicit cache (one engine, its memo of
proven bounds) owned by whoever makes repeated queries on one class -- the
Standard Optimal Algorithm keeps one per learner.  References:
:mod:`dimcalc.littlestone`.
"""

from __future__ import annotations

from typing import Any

from ..classes.hypothesis_class import HypothesisClass
from ..errors import parameter_error
from .api import check_class, resolve_family
from .engine import Engine, sat_module
from .splitters import splitter_for

__all__ = [
    "VersionSpaceDimension",
    "littlestone_dimension_of",
    "multiclass_littlestone_dimension_of",
    "shattered_tree_exists",
]


class VersionSpaceDimension:
    """The exact dimension of version spaces of ONE class, with the engine's memo kept between queries.

    An explicit cache: the memo holds proven bounds ``lower <= D(V) <= upper``
    of version spaces of ``H`` only (facts about ``H``, true whatever is asked
    later), so a later query's answer never depends on the earlier ones, only
    its cost.  Call it as ``oracle(H, mask)`` (the SOA oracle signature) with
    the same ``H``.

    Parameters
    ----------
    H : HypothesisClass
    family : {"LD", "MLD"}
        Binary Littlestone dimension or multiclass Littlestone dimension.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 0], [0, 1], [1, 1]])
    >>> oracle = VersionSpaceDimension(H)
    >>> oracle(H, 0b111), oracle(H, 0b011), len(oracle.engine.memo) > 0
    (1, 1, True)
    """

    def __init__(self, H: HypothesisClass, family: str = "LD") -> None:
        owner = "VersionSpaceDimension"
        self.H = check_class(H, owner)
        if family not in ("LD", "MLD"):
            raise parameter_error("family", owner, "'LD' or 'MLD'", family)
        if family == "LD" and not H.is_binary:
            raise parameter_error("H", owner, "a binary class (at most 2 labels)", f"{H.num_labels} labels")
        self.family = family
        self.engine = Engine(H, splitter_for(H, family))

    def __call__(self, H: HypothesisClass, mask: int) -> int:
        owner = "VersionSpaceDimension"
        if H is not self.H:
            raise parameter_error("H", owner, "the class this cache was built for", "another class")
        lower, _, _ = self.engine.solve(_check_mask(H, mask, owner))
        return lower


def _check_mask(H: HypothesisClass, mask: Any, owner: str) -> int:
    if isinstance(mask, bool) or not isinstance(mask, int) or mask <= 0 or mask >> H.n_distinct:
        raise parameter_error(
            "mask", owner, f"a non-empty bitset (int) over the {H.n_distinct} distinct hypotheses", mask
        )
    return mask


def littlestone_dimension_of(H: HypothesisClass, mask: int) -> int:
    """Exact Littlestone dimension of the version space ``mask`` (bitset over distinct rows) of a binary class.

    Each call searches afresh; for repeated queries on one class (as the
    Standard Optimal Algorithm makes) keep a :class:`VersionSpaceDimension`.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 0], [0, 1], [1, 1]])
    >>> littlestone_dimension_of(H, 0b111), littlestone_dimension_of(H, 0b011), littlestone_dimension_of(H, 0b001)
    (1, 1, 0)
    """
    owner = "littlestone_dimension_of"
    H = check_class(H, owner)
    if not H.is_binary:
        raise parameter_error("H", owner, "a binary class (at most 2 labels)", f"{H.num_labels} labels")
    lower, _, _ = Engine(H, splitter_for(H, "LD")).solve(_check_mask(H, mask, owner))
    return lower


def multiclass_littlestone_dimension_of(H: HypothesisClass, mask: int) -> int:
    """Exact multiclass Littlestone dimension of the version space ``mask`` (bitset over distinct rows).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0], [1], [2]])
    >>> multiclass_littlestone_dimension_of(H, 0b111), multiclass_littlestone_dimension_of(H, 0b100)
    (1, 0)
    """
    owner = "multiclass_littlestone_dimension_of"
    H = check_class(H, owner)
    lower, _, _ = Engine(H, splitter_for(H, "MLD")).solve(_check_mask(H, mask, owner))
    return lower


def shattered_tree_exists(
    H: HypothesisClass, depth: int, *, family: Any = "LD", mask: int | None = None, conflict_budget: int | None = None
) -> tuple[bool | None, dict | None]:
    """Decide by SAT alone whether ``H`` (or the version space ``mask``) shatters a tree of ``depth``.

    The query ``D(V) >= depth`` goes straight to the SAT encoding of
    :mod:`dimcalc.sat` over the canonical splits of ``V`` (no recursion).

    Parameters
    ----------
    H : HypothesisClass
    depth : int
        Number of internal levels, ``>= 0``.
    family : {"LD", "MLD", "N", "bin", "B"} or iterable of maps
        Which trees: binary mistake trees, io-labelled trees, or Ψ-labelled
        trees of a family (BGS §4.2) or user maps.
    mask : int, optional
        Version space as a bitset over distinct hypotheses (default: all).
    conflict_budget : int, optional
        Give up (answer None) after this many conflicts.

    Returns
    -------
    (answer, tree)
        ``answer`` True/False/None; ``tree`` a witness in spec §3 format when True.

    References
    ----------
    Littlestone (1987); BGS Defs 2.10-2.13 and 4.1-4.4 (the trees decided).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[1 if x >= t else 0 for x in range(3)] for t in range(4)])
    >>> shattered_tree_exists(H, 2)[0], shattered_tree_exists(H, 3)[0]
    (True, False)
    """
    owner = "shattered_tree_exists"
    H = check_class(H, owner)
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise parameter_error("depth", owner, "an int >= 0", depth)
    V = H.full_mask if mask is None else _check_mask(H, mask, owner)
    if isinstance(family, str) and family in ("LD", "MLD", "N", "bin", "B"):
        splitter = splitter_for(H, family)
    else:
        name, maps, _ = resolve_family(H, family)
        splitter = splitter_for(H, name, maps)
    engine = Engine(H, splitter)
    if depth == 0:
        return True, engine.tree(V, 0)
    if sat_module() is None:  # pragma: no cover - python-sat missing
        return None, None
    _, splits = splitter.splits(V, splitter.columns)
    if not splits:
        return False, None
    answer = engine.sat_query(V, depth, splits, conflict_budget)
    if not answer:
        return answer, None
    return True, engine.tree(V, depth)
