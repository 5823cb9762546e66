"""Collapsing maps and the families Ψ of BGS §4.2: maps, :class:`PsiFamily`, :func:`psi_family`, JSON forms.

See the :mod:`dimcalc.psi` docstring for the definitions and conventions.

Examples
--------
>>> list(psi_family("bin", 4).maps())
[(0, 1, 0, 1), (0, 0, 1, 1)]
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from ..classes.hypothesis_class import label_bits
from ..errors import parameter_error

__all__ = [
    "CollapsingMap",
    "PsiFamily",
    "psi_family",
    "normalize_map",
    "map_to_json",
    "map_from_json",
    "family_to_json",
    "FAMILY_NAMES",
]

#: A collapsing map: entry ``ℓ`` is φ(ℓ) in ``{0, 1, None}`` (None = ``*``).
CollapsingMap = tuple[int | None, ...]

#: Names of the built-in families of BGS §4.2.
FAMILY_NAMES = ("N", "bin", "B")

_MAX_LABELS = 1 << 16


def _short(value: Any) -> Any:
    text = repr(value)
    return value if len(text) <= 60 else text[:57] + "..."


def normalize_map(phi: Any, num_labels: int) -> CollapsingMap | None:
    """Return ``phi`` as a tuple of ``0``/``1``/``None``, or None if it is not a valid map.

    Accepts lists or tuples (or 1-d numpy arrays) of length ``num_labels`` whose
    entries are ``0``, ``1``, ``None`` or the string ``"*"`` (an alias of
    ``None``).  Booleans are refused.

    Examples
    --------
    >>> normalize_map([0, None, "*", 1], 4)
    (0, None, None, 1)
    >>> normalize_map([0, 2], 2) is None
    True
    """
    if isinstance(phi, np.ndarray):
        if phi.ndim != 1:
            return None
        phi = phi.tolist()
    if isinstance(phi, (str, bytes)) or not isinstance(phi, Sequence) or len(phi) != num_labels:
        return None
    out: list[int | None] = []
    for v in phi:
        if v is None or (isinstance(v, str) and v == "*"):
            out.append(None)
        elif isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)) or v not in (0, 1):
            return None
        else:
            out.append(int(v))
    return tuple(out)


def _map_problem(phi: Any, num_labels: int, *, json_spelling: bool = False) -> str:
    """Explain why ``phi`` is not a map over ``num_labels`` labels (for error messages).

    With ``json_spelling`` values are shown as the JSON file spells them
    (``null``, ``true``), for errors about a family file.
    """
    show = _json_text if json_spelling else repr
    star = "null" if json_spelling else "None ('*')"
    if isinstance(phi, (str, bytes)) or not isinstance(phi, (Sequence, np.ndarray)):
        what = _json_type(phi) if json_spelling else type(phi).__name__
        return f"is a {what}, not a list of {num_labels} entries"
    if len(phi) != num_labels:
        return f"has length {len(phi)}, not num_labels = {num_labels}"
    for pos, v in enumerate(phi):
        if normalize_map([v], 1) is None:
            return f"has entry {pos} = {show(v)}; entries must be 0, 1 or {star}"
    return "is not a collapsing map"  # pragma: no cover - normalize_map accepted it


def _json_text(value: Any) -> str:
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _json_type(value: Any) -> str:
    return {
        dict: "JSON object",
        str: "string",
        bool: "boolean",
        type(None): "null",
        int: "number",
        float: "number",
    }.get(type(value), type(value).__name__)


def _check_num_labels(num_labels: Any, owner: str) -> int:
    if (
        isinstance(num_labels, (bool, np.bool_))
        or not isinstance(num_labels, (int, np.integer))
        or not 1 <= num_labels <= _MAX_LABELS
    ):
        raise parameter_error("num_labels", owner, f"an int in [1, {_MAX_LABELS}]", num_labels)
    return int(num_labels)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


@dataclass(frozen=True)
class PsiFamily:
    """A family Ψ of collapsing maps over the labels ``0..num_labels-1``.

    Build one with :func:`psi_family`.  Membership (``phi in family``) is
    structural for the named families, so even Ψ^B over many labels costs
    nothing until :meth:`maps` is iterated.

    Attributes
    ----------
    name : {"N", "bin", "B", "user"}
        Which family.
    num_labels : int
        ``k + 1``; every map has this length.
    user_maps : tuple of maps
        The maps of a user family (distinct, in the order given); empty for the
        named families.

    Examples
    --------
    >>> fam = psi_family([[0, 1, None], [None, 0, 1]], 3)
    >>> fam.name, len(fam), fam.kind_suffix == "user:" + fam.digest
    ('user', 2, True)
    >>> [1, 0, None] in fam
    False
    """

    name: Literal["N", "bin", "B", "user"]
    num_labels: int
    user_maps: tuple[CollapsingMap, ...] = field(default=(), repr=False)

    # ------------------------------------------------------------------ identity
    @property
    def digest(self) -> str:
        """Short stable hash (12 hex digits) identifying the family.

        Named families hash ``"<name>:<num_labels>"``; a user family hashes its
        sorted maps, so the same set of maps always gets the same digest.
        """
        if self.name != "user":
            return _digest(f"{self.name}:{self.num_labels}")
        canon = sorted(json.dumps(map_to_json(m)) for m in self.user_maps)
        return _digest(f"user:{self.num_labels}:" + "|".join(canon))

    @property
    def kind_suffix(self) -> str:
        """``"N"``, ``"bin"``, ``"B"`` or ``"user:<digest>"``: the part of the result kind after ``':'``."""
        return self.name if self.name != "user" else f"user:{self.digest}"

    def kind(self, uniform: bool = False) -> str:
        """Result kind: ``"psi_littlestone:<suffix>"`` or ``"psi_littlestone_uniform:<suffix>"``.

        >>> psi_family("bin", 4).kind(uniform=True)
        'psi_littlestone_uniform:bin'
        """
        return ("psi_littlestone_uniform:" if uniform else "psi_littlestone:") + self.kind_suffix

    # ------------------------------------------------------------------ membership
    def __contains__(self, phi: object) -> bool:
        m = normalize_map(phi, self.num_labels)
        if m is None:
            return False
        if self.name == "B":
            return True
        if self.name == "N":
            return m.count(0) == 1 and m.count(1) == 1
        if self.name == "bin":
            return any(m == _bit_map(i, self.num_labels) for i in range(1, label_bits(self.num_labels) + 1))
        return m in self._user_set

    @property
    def _user_set(self) -> frozenset:
        # frozen dataclass: cache by hand in the instance dict
        cached = self.__dict__.get("_user_set_cache")
        if cached is None:
            cached = frozenset(self.user_maps)
            object.__setattr__(self, "_user_set_cache", cached)
        return cached

    # ------------------------------------------------------------------ enumeration
    def maps(self) -> Iterator[CollapsingMap]:
        """Iterate over all maps of the family (lazily; Ψ^B has 3^num_labels of them).

        Order: Ψ^N by ``(w, w')`` lexicographically; Ψ^bin by ``i = 1, 2, ...``;
        Ψ^B in :func:`itertools.product` order over ``(0, 1, None)``; a user
        family in the order given.
        """
        L = self.num_labels
        if self.name == "N":
            for w, w2 in itertools.permutations(range(L), 2):
                phi: list[int | None] = [None] * L
                phi[w], phi[w2] = 0, 1
                yield tuple(phi)
        elif self.name == "bin":
            for i in range(1, label_bits(L) + 1):
                yield _bit_map(i, L)
        elif self.name == "B":
            yield from itertools.product((0, 1, None), repeat=L)
        else:
            yield from self.user_maps

    def splitting_maps(self) -> Iterator[CollapsingMap]:
        """The maps with at least one 0 and one 1 (only these can label a node of a shattered tree).

        A map without a 0 (or without a 1) leaves one child unrealisable, so it
        never occurs in a Ψ-shattered tree of positive depth.

        >>> sum(1 for _ in psi_family("B", 2).splitting_maps())
        2
        """
        for m in self.maps():
            if 0 in m and 1 in m:
                yield m

    def __iter__(self) -> Iterator[CollapsingMap]:
        return self.maps()

    def __len__(self) -> int:
        L = self.num_labels
        if self.name == "N":
            return L * (L - 1)
        if self.name == "bin":
            return label_bits(L)
        if self.name == "B":
            return 3**L
        return len(self.user_maps)

    def __repr__(self) -> str:
        extra = f", maps={len(self)}, digest={self.digest!r}" if self.name == "user" else ""
        return f"PsiFamily(name={self.name!r}, num_labels={self.num_labels}{extra})"


def _bit_map(i: int, num_labels: int) -> CollapsingMap:
    """φ_i of Ψ^bin: label ℓ -> bit i of ℓ, i = 1 least significant."""
    return tuple((lab >> (i - 1)) & 1 for lab in range(num_labels))


def psi_family(family: str | PsiFamily | Iterable[Any], num_labels: int) -> PsiFamily:
    """Build the family Ψ of collapsing maps over ``num_labels`` labels (BGS §4.2).

    Parameters
    ----------
    family : {"N", "bin", "B"}, PsiFamily or iterable of maps
        A named family of BGS §4.2, an existing :class:`PsiFamily` (returned
        as is when its ``num_labels`` matches), or the maps of a user family:
        sequences of length ``num_labels`` with entries ``0``, ``1`` or ``None``
        (``"*"`` is accepted for ``None``).  Duplicate maps are dropped.
    num_labels : int
        ``k + 1``, the number of labels of the class the family is used with.

    Returns
    -------
    PsiFamily

    Raises
    ------
    InvalidParameterError
        If ``family`` is an unknown name, an empty iterable, or contains a map
        of the wrong length or with an entry outside ``{0, 1, None}``; or if
        ``num_labels`` is not an int in ``[1, 65536]``.

    References
    ----------
    BGS §4.2 (definitions of Ψ^N, Ψ^bin, Ψ^B).  Bit order of Ψ^bin: i = 1 is
    the least significant bit (dimcalc's convention).

    Examples
    --------
    >>> list(psi_family("N", 3).maps())[:2]
    [(0, 1, None), (0, None, 1)]
    >>> len(psi_family("B", 3)), len(psi_family("N", 3)), len(psi_family("bin", 3))
    (27, 6, 2)
    >>> psi_family([[0, 1, 1]], 2)
    Traceback (most recent call last):
    ...
    dimcalc.errors.InvalidParameterError: The 'family' parameter of psi_family must be "N", "bin", "B" or an iterable of maps (map 0 has length 3, not num_labels = 2). Got [[0, 1, 1]] instead.
    """
    owner = "psi_family"
    num_labels = _check_num_labels(num_labels, owner)
    if isinstance(family, PsiFamily):
        if family.num_labels != num_labels:
            raise parameter_error("family", owner, f"a family over num_labels = {num_labels} labels", family)
        return family
    if isinstance(family, str):
        if family not in FAMILY_NAMES:
            raise parameter_error("family", owner, '"N", "bin", "B" or an iterable of maps', family)
        return PsiFamily(name=family, num_labels=num_labels)  # type: ignore[arg-type]
    requirement = '"N", "bin", "B" or an iterable of maps'
    if isinstance(family, (bytes, dict)) or not isinstance(family, Iterable):
        raise parameter_error("family", owner, requirement, _short(family))
    given = list(family)
    seen: dict[CollapsingMap, None] = {}
    for idx, phi in enumerate(given):
        m = normalize_map(phi, num_labels)
        if m is None:
            raise parameter_error(
                "family", owner, f"{requirement} (map {idx} {_map_problem(phi, num_labels)})", _short(given)
            )
        seen.setdefault(m, None)
    if not seen:
        raise parameter_error("family", owner, f"{requirement} with at least one map", given)
    return PsiFamily(name="user", num_labels=num_labels, user_maps=tuple(seen))


# ---------------------------------------------------------------------- JSON helpers
def map_to_json(phi: Sequence[int | None]) -> list:
    """A map as a JSON-ready list (``None`` serialises to ``null`` for ``*``).

    >>> json.dumps(map_to_json((0, None, 1)))
    '[0, null, 1]'
    """
    return [None if v is None else int(v) for v in phi]


def map_from_json(obj: Any, num_labels: int) -> CollapsingMap:
    """Parse a JSON map (list of ``0``, ``1``, ``null`` or ``"*"``) of length ``num_labels``.

    Raises
    ------
    InvalidParameterError
        If ``obj`` is not such a list.

    Examples
    --------
    >>> map_from_json(json.loads('[0, null, 1]'), 3)
    (0, None, 1)
    """
    m = normalize_map(obj, num_labels)
    if m is None:
        raise parameter_error(
            "map",
            "map_from_json",
            f"a list of {num_labels} entries 0, 1 or null ({_map_problem(obj, num_labels)})",
            _short(obj),
        )
    return m


def family_to_json(family: PsiFamily) -> list:
    """All maps of ``family`` as a JSON-ready list of lists (beware: Ψ^B has 3^num_labels maps).

    >>> family_to_json(psi_family("bin", 3))
    [[0, 1, 0], [0, 0, 1]]
    """
    return [map_to_json(m) for m in family.maps()]
