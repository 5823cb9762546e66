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

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from .errors import parameter_error
from .hypothesis_class import label_bits

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
    fam = PsiFamily(name="user", num_labels=num_labels, user_maps=tuple(seen))
    from .trees import register_family_verifiers  # lazy: dimcalc.trees imports this module

    register_family_verifiers(fam)
    return fam


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


# ---------------------------------------------------------------------- restriction to present labels
def present_labels(H: Any) -> tuple[int, ...]:
    """The labels that occur in the table of ``H`` (a :class:`~dimcalc.HypothesisClass`), ascending.

    >>> from dimcalc import HypothesisClass
    >>> present_labels(HypothesisClass.from_table([[0, 3], [3, 0]], num_labels=300))
    (0, 3)
    """
    return tuple(int(v) for v in np.unique(H.distinct_rows)) if H.n_points else ()


def _restriction(phi: CollapsingMap, present: Sequence[int]) -> CollapsingMap:
    return tuple(phi[lab] for lab in present)


def _splits_on(restriction: CollapsingMap) -> bool:
    return 0 in restriction and 1 in restriction


class MapSequence(Sequence):
    """A lazily built, indexable sequence of collapsing maps (the canonical maps of a search).

    ``size`` is the number of maps as a Python ``int`` -- possibly far beyond
    ``sys.maxsize`` for Ψ^B over many present labels, where ``len()`` would
    overflow; searches iterate ``range(seq.size)`` and stop when their budget
    is spent.  ``seq[j]`` builds map ``j`` on demand (a tuple of
    ``num_labels`` entries ``0``, ``1``, ``None``).

    Examples
    --------
    >>> seq = uniform_maps(psi_family("B", 300), (0, 1, 2))
    >>> seq.size, seq[0][:4], seq[2][:4]
    (3, (0, 1, 0, None), (0, 1, 1, None))
    >>> uniform_maps(psi_family("B", 300), tuple(range(300))).size == 2 ** 299 - 1
    True
    """

    def __init__(self, count: int, build: Any, num_labels: int, description: str = "") -> None:
        self.size = int(count)
        self._build = build
        self.num_labels = num_labels
        self.description = description

    def __getitem__(self, j: Any) -> Any:
        if isinstance(j, slice):
            return [self[i] for i in range(*j.indices(min(self.size, 1 << 62)))]
        if j < 0:
            j += self.size
        if not 0 <= j < self.size:
            raise IndexError(j)
        return self._build(j)

    def __len__(self) -> int:
        return self.size  # OverflowError from len() beyond sys.maxsize: use .size

    def __iter__(self) -> Iterator[CollapsingMap]:
        j = 0
        while j < self.size:
            yield self._build(j)
            j += 1

    def __repr__(self) -> str:
        return f"MapSequence(size={self.size}{', ' + self.description if self.description else ''})"


def _pair_unrank(j: int, m: int) -> tuple[int, int]:
    """The ``j``-th pair ``(a, b)``, ``a < b < m``, in lexicographic order (as itertools.combinations)."""
    lo, hi = 0, m - 1
    while lo < hi:  # largest a with before(a) <= j, before(a) = a*m - a*(a+1)/2
        mid = (lo + hi + 1) // 2
        if mid * m - mid * (mid + 1) // 2 <= j:
            lo = mid
        else:
            hi = mid - 1
    a = lo
    return a, a + 1 + j - (a * m - a * (a + 1) // 2)


def uniform_maps(family: PsiFamily, present: Sequence[int]) -> MapSequence:
    """The canonical maps of the uniform search (BGS Def 4.4) over the present labels ``present``.

    One representative per restriction to ``present`` (module docstring:
    *Only the labels present in the class matter*), non-splitting restrictions
    dropped, one map of each mirror pair kept:

    * Ψ^N: ``φ_{a,b}`` for present ``a < b`` (``C(|P|, 2)`` maps);
    * Ψ^bin: the bit maps whose restrictions are non-constant and pairwise
      different up to mirroring;
    * Ψ^B: the total maps on ``P`` with the smallest present label on side 0,
      ``*`` on absent labels (``2^(|P|-1) - 1`` maps, built on demand);
    * a user family: the first map (in the family's order) of each class of
      maps with the same restriction up to mirroring.

    With all labels present this is the list the uniform search always used,
    in the same order.

    Examples
    --------
    >>> [m for m in uniform_maps(psi_family("N", 4), (0, 2, 3))]
    [(0, None, 1, None), (0, None, None, 1), (None, None, 0, 1)]
    >>> list(uniform_maps(psi_family("bin", 4), (0, 1)))
    [(0, 1, 0, 1)]
    """
    L = family.num_labels
    P = tuple(sorted(int(lab) for lab in present))
    m = len(P)
    if family.name == "N":

        def pair(j: int) -> CollapsingMap:
            a, b = _pair_unrank(j, m)
            phi: list[int | None] = [None] * L
            phi[P[a]], phi[P[b]] = 0, 1
            return tuple(phi)

        return MapSequence(m * (m - 1) // 2, pair, L, "Ψ^N pairs of present labels")
    if family.name == "B":
        rest = P[1:]

        def total(j: int) -> CollapsingMap:
            s = j + 1
            phi: list[int | None] = [None] * L
            if P:
                phi[P[0]] = 0
            for i, lab in enumerate(rest):
                phi[lab] = (s >> i) & 1
            return tuple(phi)

        return MapSequence(max(0, (1 << max(m - 1, 0)) - 1), total, L, "Ψ^B bipartitions of present labels")
    candidates = family.maps() if family.name == "bin" else iter(family.user_maps)
    kept = _distinct_restrictions(candidates, P, mirror=True)
    return MapSequence(len(kept), kept.__getitem__, L, f"{family.name} maps, distinct on present labels")


def _distinct_restrictions(maps: Iterable[CollapsingMap], present: Sequence[int], *, mirror: bool) -> list:
    seen: set[CollapsingMap] = set()
    out = []
    for phi in maps:
        r = _restriction(phi, present)
        if not _splits_on(r) or r in seen:
            continue
        seen.add(r)
        if mirror:
            seen.add(tuple(None if v is None else 1 - v for v in r))
        out.append(tuple(phi))
    return out


def restricted_maps(family: PsiFamily, present: Sequence[int]) -> list[CollapsingMap]:
    """One map of a user family per distinct restriction to the present labels (non-uniform search).

    Maps with the same restriction give the same splits at every point
    (module docstring), and a restriction without both a 0 and a 1 gives none,
    so the search needs only these representatives (the first of each, in the
    family's order; mirrors are kept, the splitter merges their splits).

    >>> fam = psi_family([[0, 1, 0], [0, 1, 1], [1, 1, 0], [1, 0, None]], 3)
    >>> restricted_maps(fam, (0, 1))      # labels 0 and 1 present; label 2 is not
    [(0, 1, 0), (1, 0, None)]
    """
    return _distinct_restrictions(family.maps(), present, mirror=False)


# ---------------------------------------------------------------------- Ψ^B trees built directly
def bipartition_seed_tree(H: Any, *, uniform: bool = False, deadline: Any = None) -> tuple[int, dict]:
    """A Ψ^B-shattered tree found without search: a certified lower bound for Ψ^B (plain or uniform).

    Two constructions, the deeper one is returned (as ``(depth, tree)`` in the
    spec §3 Ψ-tree format, leaves are file rows):

    * **one point** -- a point ``x`` at which ``m`` labels are present: put
      ``x`` at every node and split the set of labels of each node into two
      halves.  The label sets of the nodes of one level are disjoint, so one
      map per level serves them all: a *uniform* Ψ^B tree of depth
      ``floor(log2 m)`` (BGS Defs 4.1-4.4; maps of Ψ^B are arbitrary, §4.2).
    * **greedy** (plain Ψ^B only) -- at each version space the point whose
      label classes split it most evenly (largest class first onto the
      lighter side), recursing on both sides; depth ``1 + min`` of the two.

    Both trees are checked by dimcalc's independent checker wherever they are
    returned as witnesses.  When they reach ``floor(log2 |H|)`` (the size
    bound: a tree of depth ``d`` has ``2^d`` leaves realised by different
    hypotheses) the dimension is settled without any search -- e.g. 300
    hypotheses over 300 labels.  ``deadline`` (a :class:`dimcalc._budget.Deadline`)
    is polled; when it expires the deepest tree finished so far is returned.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[i, (3 * i) % 8] for i in range(8)])
    >>> bipartition_seed_tree(H)[0], bipartition_seed_tree(H, uniform=True)[0]
    (3, 3)
    """
    L = H.num_labels
    if H.n_points == 0 or H.n_distinct < 2:
        return 0, {"hypothesis": H.row_of(0)}
    classes = [[(lab, m) for lab, m in enumerate(H.label_masks[x]) if m] for x in range(H.n_points)]
    best_x = max(range(H.n_points), key=lambda x: len(classes[x]))
    depth = len(classes[best_x]).bit_length() - 1
    tree = _one_point_tree(H, best_x, classes[best_x], depth, L)
    if uniform or depth >= H.log2_size():
        return depth, tree
    found = _GreedyBipartition(H, classes, deadline).run()
    if found is not None and found[0] > depth:
        return found
    return depth, tree


def _one_point_tree(H: Any, x: int, cls: list, depth: int, L: int) -> dict:
    """The uniform single-point tree of :func:`bipartition_seed_tree` over the first ``2^depth`` classes at ``x``."""
    used = cls[: 1 << depth]
    maps: list[list[int | None]] = []
    for level in range(depth):
        phi: list[int | None] = [None] * L
        block = 1 << (depth - level)
        for start in range(0, len(used), block):
            for i in range(start, start + block):
                phi[used[i][0]] = 0 if i - start < block // 2 else 1
        maps.append(phi)

    def build(level: int, start: int) -> dict:
        if level == depth:
            m = used[start][1]
            return {"hypothesis": H.row_of((m & -m).bit_length() - 1)}
        half = 1 << (depth - level - 1)
        return {
            "point": x,
            "map": list(maps[level]),
            "children": [build(level + 1, start), build(level + 1, start + half)],
        }

    return build(0, 0)


class _GreedyBipartition:
    """The greedy plain Ψ^B tree of :func:`bipartition_seed_tree`."""

    def __init__(self, H: Any, classes: list, deadline: Any) -> None:
        self.H = H
        self.classes = classes
        self.deadline = deadline
        self.L = H.num_labels

    def run(self) -> tuple[int, dict] | None:
        try:
            depth, node = self.grow(self.H.full_mask, self.H.log2_size())
        except _Expired:
            return None
        return depth, self.emit(node, depth)

    def grow(self, V: int, cap: int) -> tuple[int, Any]:
        """(depth, node) of the greedy tree for ``V``, at most ``cap`` deep; node = (x, ones, zeros, V, kids)."""
        if cap <= 0:
            return 0, V
        if self.deadline is not None and self.deadline.expired():
            raise _Expired
        best: tuple[int, int, list[int], list[int], list[list[int]]] | None = None
        for x, cls in enumerate(self.classes):
            parts = [(c.bit_count(), lab, c) for lab, m in cls if (c := V & m)]
            if len(parts) < 2:
                continue
            parts.sort(key=lambda t: -t[0])
            sizes, masks = [0, 0], [0, 0]  # per side: hypotheses, their bitset, and their labels
            labels: list[list[int]] = [[], []]
            for n, lab, c in parts:  # largest class first, onto the lighter side
                side = 0 if sizes[0] <= sizes[1] else 1
                sizes[side] += n
                masks[side] |= c
                labels[side].append(lab)
            score = min(sizes)
            if best is None or score > best[0]:
                best = (score, x, sizes, masks, labels)
        if best is None:
            return 0, V
        _, x, sizes, masks, labels = best
        d0, n0 = self.grow(masks[0], min(cap - 1, sizes[0].bit_length() - 1))
        d1, n1 = self.grow(masks[1], min(cap - 1, sizes[1].bit_length() - 1))
        return 1 + min(d0, d1), (x, labels[0], labels[1], V, n0, n1)

    def emit(self, node: Any, depth: int) -> dict:
        """The tree of exactly ``depth`` levels below ``node`` (deeper subtrees cut; leaves any hypothesis left)."""
        if depth == 0 or isinstance(node, int):
            V = node if isinstance(node, int) else node[3]
            return {"hypothesis": self.H.row_of((V & -V).bit_length() - 1)}
        x, zeros, ones, _, n0, n1 = node
        phi: list[int | None] = [None] * self.L
        for lab in zeros:
            phi[lab] = 0
        for lab in ones:
            phi[lab] = 1
        return {"point": x, "map": phi, "children": [self.emit(n0, depth - 1), self.emit(n1, depth - 1)]}


class _Expired(Exception):
    """The deadline of a greedy construction expired."""
