"""Class operations: definition-level properties on random small classes (hypothesis)."""

from functools import cache
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dimcalc import HypothesisClass, InvalidParameterError
from dimcalc.classes.hypothesis_class import label_bits
from dimcalc.classes.operations import (
    binary_restriction,
    binary_restrictions,
    complement,
    gap_amplification,
    restrict,
    xor_class,
)
from strategies import classes


# ---------------------------------------------------------------- definition-level helpers
@cache
def _mld(version_space: frozenset) -> int:
    """Multiclass Littlestone dimension by its definition (BGS Def 2.12): depth of the deepest shattered tree.

    A node asks a point x with two different labels a != b; both restricted
    version spaces must be non-empty.  For a binary class this is the
    Littlestone dimension.
    """
    if len(version_space) <= 1:
        return 0
    rows = list(version_space)
    best = 0
    for x in range(len(rows[0])):
        groups: dict[int, list] = {}
        for r in rows:
            groups.setdefault(r[x], []).append(r)
        for a, b in combinations(sorted(groups), 2):
            if best >= min(len(groups[a]), len(groups[b])).bit_length():  # MLD(V) <= log2|V|: cannot beat best
                continue
            best = max(best, 1 + min(_mld(frozenset(groups[a])), _mld(frozenset(groups[b]))))
    return best


def mld(H: HypothesisClass) -> int:
    return _mld(frozenset(map(tuple, H.table.tolist())))


def vc(H: HypothesisClass) -> int:
    rows = {tuple(r) for r in H.table.tolist()}
    best = 0
    for size in range(1, H.n_points + 1):
        if any(len({tuple(r[i] for i in S) for r in rows}) == 2**size for S in combinations(range(H.n_points), size)):
            best = size
        else:
            break
    return best


# Classes with 1 to 9 labels (binary: exactly 2), 0 to 5 points and 1 to 6 rows.
def op_classes(*, max_rows=6, max_points=5, max_labels=9, min_points=0, binary=False):
    labels = dict(min_labels=2, max_labels=2) if binary else dict(min_labels=1, max_labels=max_labels)
    return classes(**labels, min_points=min_points, max_points=max_points, max_rows=max_rows)


def row_set(H: HypothesisClass) -> set:
    return {tuple(r) for r in H.table.tolist()}


# ---------------------------------------------------------------- binary restrictions
@given(op_classes())
def test_binary_restrictions_reassemble_the_labels(H):
    parts = binary_restrictions(H)
    assert len(parts) == label_bits(H.num_labels)
    total = sum((R.table << (i - 1)) for i, R in enumerate(parts, start=1))
    assert np.array_equal(total, H.table)
    for R in parts:
        assert R.is_binary and R.n_hypotheses == H.n_hypotheses and R.point_names == H.point_names


def test_bit_one_is_least_significant():
    H = HypothesisClass([[0, 1, 2, 3, 4, 5]], num_labels=6)
    assert binary_restriction(H, 1).table.tolist() == [[0, 1, 0, 1, 0, 1]]
    assert binary_restriction(H, 3).table.tolist() == [[0, 0, 0, 0, 1, 1]]


@pytest.mark.parametrize("bad", [0, 3, -1, 1.0, True, "1"])
def test_binary_restriction_refuses_bad_bit(bad):
    H = HypothesisClass([[0, 3]], num_labels=4)  # 2 bits
    with pytest.raises(InvalidParameterError, match="'i' parameter of binary_restriction"):
        binary_restriction(H, bad)


# ---------------------------------------------------------------- restrict
@given(op_classes(min_points=1), st.data())
def test_restrict_commutes_with_column_selection(H, data):
    cols = data.draw(st.permutations(range(H.n_points)))
    k = data.draw(st.integers(0, H.n_points))
    A = list(cols[:k])
    R = restrict(H, A)
    assert np.array_equal(R.table, H.table[:, A])
    assert R.point_names == tuple(H.point_names[i] for i in A) and R.num_labels == H.num_labels
    B = data.draw(st.permutations(range(k)))
    assert np.array_equal(restrict(R, B).table, restrict(H, [A[b] for b in B]).table)


@pytest.mark.parametrize("points", [[0, 0], [5], [-1], "01", [0.5]])
def test_restrict_refuses_bad_points(points):
    with pytest.raises(InvalidParameterError, match="'points' parameter of restrict"):
        restrict(HypothesisClass([[0, 1, 1]]), points)


# ---------------------------------------------------------------- complement
@given(op_classes(binary=True))
def test_complement_is_an_involution_and_keeps_vc(H):
    C = complement(H)
    assert np.array_equal(C.table, 1 - H.table)
    assert complement(C) == H
    assert vc(C) == vc(H) and mld(C) == mld(H)


def test_complement_refuses_multiclass():
    with pytest.raises(InvalidParameterError, match="binary class"):
        complement(HypothesisClass([[0, 2]]))


# ---------------------------------------------------------------- xor class
@given(op_classes(binary=True, max_rows=7, max_points=6))
def test_xor_class_is_the_set_of_pairwise_xors(H):
    X = xor_class(H)
    rows = [tuple(r) for r in H.table.tolist()]
    expected = {tuple(a ^ b for a, b in zip(f, g)) for f in rows for g in rows}
    assert row_set(X) == expected and X.n_hypotheses == X.n_distinct == len(expected)
    assert (0,) * H.n_points in row_set(X)


@given(
    st.integers(1, 6), st.lists(st.lists(st.integers(0, 1), min_size=6, max_size=6), min_size=1, max_size=3), st.data()
)
def test_xor_class_of_a_group_is_the_group(n, gens, data):
    gens = [g[:n] for g in gens]
    span = {(0,) * n}
    for g in gens:  # the GF(2) span of the generators
        span |= {tuple(a ^ b for a, b in zip(s, g)) for s in span}
    C = HypothesisClass(sorted(span), num_labels=2)
    X = xor_class(C)
    assert row_set(X) == span
    assert all(tuple(a ^ b for a, b in zip(f, g)) in span for f in span for g in span)


@given(op_classes(binary=True, max_rows=4, max_points=4, min_points=2), st.data())
def test_xor_of_two_classes(H, data):
    G = data.draw(op_classes(binary=True, max_rows=4, max_points=H.n_points, min_points=H.n_points))
    rows_h, rows_g = [tuple(r) for r in H.table.tolist()], [tuple(r) for r in G.table.tolist()]
    expected = {tuple(a ^ b for a, b in zip(h, g)) for h in rows_h for g in rows_g}
    assert row_set(xor_class(H, G)) == expected


def test_xor_class_refuses_multiclass_and_mismatched_domains():
    with pytest.raises(InvalidParameterError, match="binary class"):
        xor_class(HypothesisClass([[0, 2]]))
    with pytest.raises(InvalidParameterError, match="'other' parameter"):
        xor_class(HypothesisClass([[0, 1]]), HypothesisClass([[0, 1, 1]]))


# ---------------------------------------------------------------- gap amplification (BGS Claim 6.2)
@given(op_classes(max_rows=4, max_points=3, max_labels=5), st.integers(1, 3))
def test_gap_amplification_sizes_and_definition(H, ell):
    G = gap_amplification(H, ell)
    m, n = H.n_distinct, H.n_points
    assert G.n_hypotheses == G.n_distinct == m**ell
    assert G.n_points == ell * n and G.num_labels == H.num_labels
    base = {tuple(r) for r in H.distinct_rows.tolist()}
    for row in G.table.tolist():  # equation (7): h((j, x)) = f_j(x), f_j in H
        assert all(tuple(row[j * n : (j + 1) * n]) in base for j in range(ell))


@given(op_classes(max_rows=4, max_points=3, max_labels=5))
def test_gap_amplification_commutes_with_binary_restriction(H):
    # BGS equation (9): H'|_i is the ell-fold product of H|_i.
    G = gap_amplification(H, 2)
    for i in range(1, label_bits(H.num_labels) + 1):
        assert row_set(binary_restriction(G, i)) == row_set(gap_amplification(binary_restriction(H, i), 2))


@given(op_classes(max_rows=4, max_points=3, max_labels=4))
def test_gap_amplification_multiplies_the_dimensions(H):
    # BGS Claim 6.2: MLD(H') = ell * MLD(H); the same argument gives LDim(H'|_i) = ell * LDim(H|_i).
    G = gap_amplification(H, 2)
    assert mld(G) == 2 * mld(H)
    for R, RG in zip(binary_restrictions(H), binary_restrictions(G)):
        assert mld(RG) == 2 * mld(R)


def test_gap_amplification_names_and_refusals():
    H = HypothesisClass([[0, 1], [1, 0]], point_names=["a", "b"], hypothesis_names=["f", "g"])
    G = gap_amplification(H, 2)
    assert G.point_names == ("1/a", "1/b", "2/a", "2/b")
    assert G.hypothesis_names == ("(f,f)", "(f,g)", "(g,f)", "(g,g)")
    for bad in (0, -1, 1.5, True):
        with pytest.raises(InvalidParameterError, match="'ell' parameter of gap_amplification"):
            gap_amplification(H, bad)
    with pytest.raises(InvalidParameterError, match="cells"):
        gap_amplification(HypothesisClass(np.eye(50, dtype=np.int64)), 6)


def test_operations_refuse_non_classes():
    for op in (binary_restrictions, complement, xor_class):
        with pytest.raises(InvalidParameterError, match="HypothesisClass"):
            op([[0, 1]])


def test_binary_restriction_of_a_binary_class_shares_its_storage_and_rows():
    """H|_1 = H on a binary class (BGS §3): the same rows, the bit or sparse storage kept (never densified)."""
    import numpy as np

    from dimcalc import HypothesisClass
    from dimcalc.classes.operations import binary_restriction

    rng = np.random.default_rng(3)
    table = rng.integers(0, 2, size=(300, 500), dtype=np.uint8)
    for storage in ("bits", "dense", "sparse"):
        H = HypothesisClass(table, storage=storage)
        R = binary_restriction(H, 1)
        assert R.storage == H.storage and R.num_labels == 2
        assert R.n_distinct == H.n_distinct and R.name == f"{H.name}|1"
        assert np.array_equal(R.table, table)
