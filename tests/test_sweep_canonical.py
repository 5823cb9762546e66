"""Classes up to isomorphism: nauty's canonical form and the enumeration of every class of a size.

The counts are checked against Burnside's lemma, computed here from scratch
(no dimcalc code): the number of orbits of the symmetric group on the points
acting on the sets of R distinct rows of [L]^C.  Permuting hypotheses needs no
group action of its own: a class is a *set* of rows.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dimcalc import HypothesisClass
from dimcalc.errors import InvalidParameterError
from dimcalc.sweep.canonical import all_classes, canonical_form, canonical_table, is_isomorphic, parse_size
from profile_examples import examples


# ---------------------------------------------------------------------------- independent counts
def burnside_count(rows: int, cols: int, labels: int) -> int:
    """Orbits of S_cols on the rows-element subsets of [labels]^cols (Burnside's lemma).

    A subset is fixed by a point permutation sigma exactly when it is a union
    of cycles of sigma acting on the vectors; so the number of fixed subsets of
    size ``rows`` is the coefficient of x^rows in prod over cycles (1 + x^len).
    """
    vectors = list(itertools.product(range(labels), repeat=cols))
    total = 0
    for sigma in itertools.permutations(range(cols)):
        seen: set = set()
        poly = [1] + [0] * rows  # coefficients of x^0..x^rows
        for v in vectors:
            if v in seen:
                continue
            length, w = 0, v
            while w not in seen:
                seen.add(w)
                length += 1
                w = tuple(w[sigma[i]] for i in range(cols))
            new = poly[:]
            for d in range(length, rows + 1):
                new[d] += poly[d - length]
            poly = new
        total += poly[rows]
    assert total % math.factorial(cols) == 0
    return total // math.factorial(cols)


def brute_orbit_count(rows: int, cols: int, labels: int) -> int:
    """Orbits by brute force: the lexicographically least image of each subset under all point permutations."""
    vectors = list(itertools.product(range(labels), repeat=cols))
    reps = set()
    for subset in itertools.combinations(vectors, rows):
        reps.add(
            min(
                tuple(sorted(tuple(v[p] for p in perm) for v in subset)) for perm in itertools.permutations(range(cols))
            )
        )
    return len(reps)


def brute_isomorphic(a: np.ndarray, b: np.ndarray) -> bool:
    if a.shape != b.shape:
        return False
    rows_b = sorted(map(tuple, b.tolist()))
    return any(sorted(map(tuple, a[:, list(p)].tolist())) == rows_b for p in itertools.permutations(range(a.shape[1])))


def test_burnside_agrees_with_brute_force() -> None:
    # the two independent counts check each other before they check dimcalc
    for size in [(2, 2, 2), (3, 3, 2), (2, 2, 3), (3, 2, 3)]:
        assert burnside_count(*size) == brute_orbit_count(*size)


@pytest.mark.parametrize(
    "size",
    [
        (1, 1, 1),
        (1, 1, 2),
        (2, 1, 2),
        (1, 2, 2),
        (2, 2, 2),
        (4, 3, 2),
        (3, 3, 2),
        (5, 3, 2),
        (8, 3, 2),
        (6, 4, 2),
        (2, 2, 3),
        (3, 2, 3),
        (2, 3, 3),
        (3, 3, 3),
        (4, 2, 4),
        (2, 2, 5),
    ],
)
def test_all_classes_count_matches_burnside(size: tuple[int, int, int]) -> None:
    classes = list(all_classes(*size))
    assert len(classes) == burnside_count(*size)
    assert len({c.canonical_hash for c in classes}) == len(classes)
    rows, cols, labels = size
    for c in classes:
        assert c.table.shape == (rows, cols) and c.num_labels == labels
        assert len({tuple(r) for r in c.table.tolist()}) == rows  # distinct hypotheses
        assert c.table.max() < labels


def test_4x3x2_has_20_classes() -> None:
    # the example, by hand: (70 + 3*14 + 2*4) / 6 = 20 (identity, transpositions, 3-cycles)
    assert sum(1 for _ in all_classes(4, 3, 2)) == 20 == burnside_count(4, 3, 2)


def test_representatives_pairwise_non_isomorphic() -> None:
    classes = [c.table for c in all_classes(3, 3, 2)]
    for a, b in itertools.combinations(classes, 2):
        assert not brute_isomorphic(a, b)


def test_enumeration_is_deterministic_and_sorted() -> None:
    a = [c.table.tolist() for c in all_classes(3, 2, 3)]
    assert a == [c.table.tolist() for c in all_classes(3, 2, 3)]
    assert a == sorted(a)


# ---------------------------------------------------------------------------- canonical form
tables = st.integers(1, 5).flatmap(
    lambda cols: st.integers(2, 4).flatmap(
        lambda labels: st.lists(
            st.lists(st.integers(0, labels - 1), min_size=cols, max_size=cols), min_size=1, max_size=7
        ).map(lambda rows: (np.array(rows), labels))
    )
)


@settings(max_examples=examples(150))
@given(tables, st.randoms(use_true_random=False))
def test_canonical_form_invariant_under_renaming(data, rnd) -> None:
    table, labels = data
    rows = list(range(table.shape[0]))
    cols = list(range(table.shape[1]))
    rnd.shuffle(rows)
    rnd.shuffle(cols)
    other = table[rows][:, cols]
    extra = np.vstack([other, other[:1]])  # a duplicate row changes nothing
    a = canonical_form(HypothesisClass(table, num_labels=labels))
    b = canonical_form(HypothesisClass(extra, num_labels=labels))
    assert a.canonical_hash == b.canonical_hash
    assert np.array_equal(a.table, b.table)
    distinct = {tuple(r) for r in table.tolist()}
    assert a.table.shape == (len(distinct), table.shape[1])
    assert brute_isomorphic(np.unique(table, axis=0), a.table)


@settings(max_examples=examples(150))
@given(tables, tables)
def test_canonical_form_separates_non_isomorphic(d1, d2) -> None:
    (t1, l1), (t2, l2) = d1, d2
    a = canonical_form(HypothesisClass(t1, num_labels=l1))
    b = canonical_form(HypothesisClass(t2, num_labels=l2))
    same = l1 == l2 and brute_isomorphic(np.unique(t1, axis=0), np.unique(t2, axis=0))
    assert (a.canonical_hash == b.canonical_hash) == same


def test_labels_keep_their_names() -> None:
    # swapping labels 1 and 2 is not an isomorphism: Psi^bin reads label bits
    A = HypothesisClass.from_table([[0, 1], [1, 2]], num_labels=3)
    B = HypothesisClass.from_table([[0, 2], [2, 1]], num_labels=3)
    assert brute_isomorphic(np.array([[0, 1], [1, 2]]), np.array([[0, 1], [1, 2]]))
    assert not is_isomorphic(A, B)


def test_canonical_table_of_a_single_row_sorts_it() -> None:
    t = canonical_table(np.array([[2, 0, 1]]), 3)
    assert sorted(t[0].tolist()) == [0, 1, 2]
    assert np.array_equal(t, canonical_table(np.array([[1, 2, 0]]), 3))


def test_large_tables_fall_back_to_row_sets(monkeypatch) -> None:
    import dimcalc.sweep.canonical as canon

    monkeypatch.setattr(canon, "CANONICAL_MAX_CELLS", 4)
    a = canonical_form(HypothesisClass.from_table([[0, 1, 1], [1, 0, 0]]))
    b = canonical_form(HypothesisClass.from_table([[1, 0, 0], [0, 1, 1]]))
    c = canonical_form(HypothesisClass.from_table([[1, 0, 1], [0, 1, 0]]))  # isomorphic, other row set
    assert a.canonical_hash.startswith("rows:") and not a.up_to_isomorphism
    assert a.canonical_hash == b.canonical_hash != c.canonical_hash


@pytest.mark.parametrize("text", ["4x3", "0x3x2", "axbxc", "4x3x2x1", ""])
def test_parse_size_refuses(text: str) -> None:
    with pytest.raises(InvalidParameterError, match="ROWSxCOLSxLABELS"):
        parse_size(text)


def test_all_classes_refuses_impossible_and_huge_sizes() -> None:
    with pytest.raises(InvalidParameterError, match="only 8 distinct"):
        next(all_classes(9, 3, 2))
    with pytest.raises(InvalidParameterError, match="too large"):
        next(all_classes(10, 5, 4))
