"""The class model: validation, distinct rows, bitsets."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dimcalc import HypothesisClass, InvalidClassError


def tables(max_rows=10, max_cols=6, max_label=3):
    return st.integers(1, max_cols).flatmap(
        lambda n: st.lists(st.lists(st.integers(0, max_label), min_size=n, max_size=n), min_size=1, max_size=max_rows)
    )


@given(tables())
def test_distinct_rows_and_maps_are_consistent(rows):
    H = HypothesisClass.from_table(rows)
    table = np.array(rows)
    # every file row maps to a distinct row equal to it
    assert np.array_equal(H.distinct_rows[H.row_to_distinct], table)
    # distinct rows are pairwise different and each is the first occurrence
    assert len({tuple(r) for r in H.distinct_rows.tolist()}) == H.n_distinct == len({tuple(r) for r in rows})
    for j, r in enumerate(H.distinct_to_row):
        assert rows.index(list(H.distinct_rows[j])) == r


@given(tables())
def test_label_masks_match_table(rows):
    H = HypothesisClass.from_table(rows)
    for i in range(H.n_points):
        union = 0
        for lab in range(H.num_labels):
            mask = H.label_masks[i][lab]
            assert mask & union == 0
            union |= mask
            assert H.mask_to_indices(mask) == [j for j in range(H.n_distinct) if H.distinct_rows[j, i] == lab]
        assert union == H.full_mask


def test_defaults_and_names():
    H = HypothesisClass.from_table([[0, 1], [1, 1]], name="t", point_names=["a", "b"])
    assert H.num_labels == 2 and H.is_binary and H.point_names == ("a", "b")
    assert H.hypothesis_names == ("h0", "h1")
    assert HypothesisClass.from_table([[0, 2]]).num_labels == 3
    assert HypothesisClass.from_table([[0, 0]], num_labels=5).num_labels == 5


def test_numpy_input_and_immutability():
    arr = np.array([[0, 1], [1, 0]], dtype=np.int8)
    H = HypothesisClass(arr)
    arr[0, 0] = 1
    assert H.table[0, 0] == 0
    with pytest.raises(ValueError):
        H.table[0, 0] = 1
    assert HypothesisClass(np.array([[True, False]])).table.tolist() == [[1, 0]]


@pytest.mark.parametrize(
    "rows, fragment",
    [
        ([], "empty"),
        ([[0, 1], [1]], "row 1"),
        ([[0, True]], "not an integer"),
        ([[0, 1.0]], "not an integer"),
        ([[0, "1"]], "not an integer"),
        ([[0, -1]], "negative"),
        ("01", "list of rows"),
        ([5], "row 0"),
    ],
)
def test_bad_tables_are_refused(rows, fragment):
    with pytest.raises(InvalidClassError, match=fragment):
        HypothesisClass.from_table(rows)


def test_bad_numpy_and_names():
    with pytest.raises(InvalidClassError, match="dtype"):
        HypothesisClass(np.array([[0.0, 1.0]]))
    with pytest.raises(InvalidClassError, match="2-dimensional"):
        HypothesisClass(np.array([0, 1]))
    with pytest.raises(InvalidClassError, match="not below"):
        HypothesisClass([[0, 2]], num_labels=2)
    with pytest.raises(InvalidClassError, match="duplicate"):
        HypothesisClass([[0, 1]], point_names=["a", "a"])
    with pytest.raises(InvalidClassError, match="one name each"):
        HypothesisClass([[0, 1]], hypothesis_names=["a", "b"])
    with pytest.raises(InvalidClassError):
        HypothesisClass([[0, 1]], num_labels=True)


def test_empty_domain_has_one_distinct_hypothesis():
    H = HypothesisClass([[], []])
    assert H.n_points == 0 and H.n_distinct == 1 and H.row_to_distinct.tolist() == [0, 0]
