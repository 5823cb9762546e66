"""Only the labels present in a class matter: one map per distinct restriction (see the :mod:`dimcalc.psi` docstring).

The searches of :mod:`dimcalc.littlestone` enumerate these canonical maps
instead of the whole family: :func:`uniform_maps` (uniform search, lazily for
Ψ^B) and :func:`restricted_maps` (non-uniform search over a user family).

References
----------
BGS Defs 4.1-4.4, §4.2.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from .families import CollapsingMap, PsiFamily

__all__ = ["present_labels", "MapSequence", "uniform_maps", "restricted_maps"]


def present_labels(H: Any) -> tuple[int, ...]:
    """The labels that occur in the table of ``H`` (a :class:`~dimcalc.HypothesisClass`), ascending.

    >>> from dimcalc import HypothesisClass
    >>> present_labels(HypothesisClass.from_table([[0, 3], [3, 0]], num_labels=300))
    (0, 3)
    >>> present_labels(HypothesisClass([[1, 1], [1, 1]], storage="bits")), present_labels(HypothesisClass([[0, 1]]))
    ((1,), (0, 1))
    """
    if not H.n_points:
        return ()
    bits = H.distinct_bit_table if H.num_labels == 2 else None
    if bits is not None:  # one bit per cell: count the ones instead of a dense copy and a sort
        ones = int(np.bitwise_count(bits.words).sum(dtype=np.int64))  # bits past the last row are 0
        return tuple(lab for lab, here in ((0, ones < H.n_distinct * H.n_points), (1, ones > 0)) if here)
    return tuple(int(v) for v in np.unique(H.distinct_rows))


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
    >>> from dimcalc.psi import psi_family
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
    >>> from dimcalc.psi import psi_family
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

    >>> from dimcalc.psi import psi_family
    >>> fam = psi_family([[0, 1, 0], [0, 1, 1], [1, 1, 0], [1, 0, None]], 3)
    >>> restricted_maps(fam, (0, 1))      # labels 0 and 1 present; label 2 is not
    [(0, 1, 0), (1, 0, None)]
    """
    return _distinct_restrictions(family.maps(), present, mirror=False)
