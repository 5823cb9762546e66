"""Binary classes stored one bit per cell give the same answers and witnesses as the dense storage.

The packed storage (dimcalc.classes.bit_table) and its groupings (dimcalc.classes.bit_groups) are checked against
the dense code path cell by cell, on random small classes (tests/strategies.py) and on classes of
more than 64 hypotheses (several words per column); the hash-collision fallbacks are forced.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dimcalc.classes.bit_groups as bit_groups
from dimcalc import (
    HypothesisClass,
    InvalidClassError,
    graph_dimension,
    growth_function,
    is_shattered,
    littlestone_dimension,
    multiclass_littlestone_dimension,
    natarajan_dimension,
    vc_dimension,
)
from dimcalc.classes.bit_table import BitTable
from dimcalc.classes.hypothesis_class import BITS_MIN_CELLS, MAX_BINARY_CELLS, MAX_CELLS
from profile_examples import examples
from strategies import classes

binary_classes = classes(min_labels=2, max_labels=2, max_points=6, max_rows=12, biased=True)


def both(H: HypothesisClass) -> tuple[HypothesisClass, HypothesisClass]:
    return HypothesisClass(H.table, storage="dense"), HypothesisClass(H.table, storage="bits")


def assert_same_structure(D: HypothesisClass, B: HypothesisClass) -> None:
    assert (D.storage, B.storage) == ("dense", "bits")
    assert D == B and B == D and hash(D) == hash(B)
    assert B.table.tolist() == D.table.tolist()
    assert B.distinct_rows.tolist() == D.distinct_rows.tolist()
    assert B.distinct_to_row.tolist() == D.distinct_to_row.tolist()
    assert B.row_to_distinct.tolist() == D.row_to_distinct.tolist()
    assert B.labels_used == D.labels_used
    assert B.label_masks == D.label_masks
    points = np.arange(D.n_points)
    assert np.array_equal(B.point_label_words(points), D.point_label_words(points))
    for relabel in (True, False):
        rb, rd = B.column_reduction(relabel=relabel), D.column_reduction(relabel=relabel)
        for field in ("points", "multiplicity", "group"):
            assert getattr(rb, field).tolist() == getattr(rd, field).tolist(), (relabel, field)
    for j in range(D.n_distinct):
        assert B.distinct_row(j).tolist() == D.distinct_row(j).tolist()
    assert all(B.label(r, p) == D.label(r, p) for r in range(D.n_hypotheses) for p in range(D.n_points))


def result_tuple(r) -> tuple:
    return (r.value, r.exact, r.lower, r.upper, r.witness)


@settings(max_examples=examples(60), deadline=None)
@given(binary_classes)
def test_bit_and_dense_storage_agree_on_every_dimension_and_witness(H):
    D, B = both(H)
    assert_same_structure(D, B)
    for solver in (vc_dimension, natarajan_dimension, graph_dimension, littlestone_dimension):
        rd, rb = solver(D), solver(B)
        assert result_tuple(rb) == result_tuple(rd), solver.__name__
        assert rb.verify(B) and rb.verify(D)
    assert result_tuple(multiclass_littlestone_dimension(B)) == result_tuple(multiclass_littlestone_dimension(D))
    m = min(2, H.n_points)
    assert result_tuple(growth_function(B, m)) == result_tuple(growth_function(D, m))


@st.composite
def wide_tables(draw) -> np.ndarray:
    """0/1 tables of up to 200 rows (several words per column), with repeated rows and repeated,
    complementary and constant columns drawn from small pools."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    m = draw(st.integers(1, 200))
    n = draw(st.integers(0, 150))  # past 64: several 64-column blocks in the row hash
    pool_rows = rng.integers(0, 2, size=(draw(st.integers(1, 8)), n))
    table = pool_rows[rng.integers(0, len(pool_rows), size=m)] if draw(st.booleans()) else rng.integers(0, 2, (m, n))
    if n and draw(st.booleans()):  # repeated / complementary / constant columns
        src = rng.integers(0, n, size=n)
        flip = rng.integers(0, 2, size=n)
        table = table[:, src] ^ flip[None, :]
        table[:, rng.integers(0, n, size=n // 4)] = rng.integers(0, 2)
    return table.astype(np.uint8)


@settings(max_examples=examples(60), deadline=None)
@given(wide_tables())
def test_bit_storage_groups_rows_and_columns_as_the_dense_code_does(table):
    assert_same_structure(*both(HypothesisClass(table)))


@settings(max_examples=examples(20), deadline=None)
@given(wide_tables())
def test_hash_collisions_are_split_exactly(table):
    D = HypothesisClass(table, storage="dense")
    with pytest.MonkeyPatch.context() as mp:
        # Every row and every multi-word column hashes alike: only the exact comparison can group them.
        mp.setattr(bit_groups, "_row_hashes", lambda T, deadline=None: np.zeros(T.n_rows, dtype=np.uint64))
        mp.setattr(bit_groups, "_mix", lambda v, mult: np.zeros_like(v))
        B = HypothesisClass(table, storage="bits")
        assert_same_structure(D, B)


def test_row_hash_is_a_function_of_the_row_and_sees_every_bit():
    rng = np.random.default_rng(3)
    table = rng.integers(0, 2, size=(130, 200), dtype=np.uint8)
    table[129] = table[3]
    h = bit_groups._row_hashes(BitTable.from_dense(table))
    assert h[129] == h[3]
    for r, c in [(0, 0), (64, 63), (127, 64), (129, 199)]:  # one flipped cell changes the hash
        other = table.copy()
        other[r, c] ^= 1
        assert bit_groups._row_hashes(BitTable.from_dense(other))[r] != h[r]


def test_auto_storage_packs_big_binary_tables_only():
    small = np.eye(8, dtype=np.uint8)
    big = np.zeros((16, BITS_MIN_CELLS // 16), dtype=np.uint8)
    assert HypothesisClass(small).storage == "dense"
    assert HypothesisClass(big).storage == "bits"
    assert HypothesisClass(big, num_labels=3).storage == "dense"  # three labels: a byte per cell
    assert HypothesisClass(small, storage="bits").storage == "bits"
    with pytest.raises(InvalidClassError, match="storage='bits' needs a binary class"):
        HypothesisClass([[0, 2]], storage="bits")
    with pytest.raises(InvalidClassError, match="storage must be"):
        HypothesisClass([[0, 1]], storage="packed")


def test_memory_accounting_counts_the_packed_storage():
    rng = np.random.default_rng(1)
    table = rng.integers(0, 2, size=(256, 4096), dtype=np.uint8)
    B = HypothesisClass(table, storage="bits")
    D = HypothesisClass(table, storage="dense")
    maps = 2 * 256 * 8  # distinct_to_row and row_to_distinct, int64
    assert B.nbytes == table.size // 8 + maps  # every row distinct: the distinct rows share the storage
    assert D.nbytes == table.size + maps
    assert B.table.shape == table.shape  # a dense view kept (small class) counts too
    assert B.nbytes == table.size // 8 + table.size + maps


def test_packed_constructors_match_the_dense_table():
    rng = np.random.default_rng(2)
    table = rng.integers(0, 2, size=(70, 13), dtype=np.uint8)
    H = HypothesisClass(table, name="t")
    for order in ("big", "little"):
        packed = np.packbits(table, axis=1, bitorder=order)
        P = HypothesisClass.from_packed(packed, 13, bitorder=order, name="t", storage="bits")
        assert P == H and P.storage == "bits" and P.name == "t"
        assert HypothesisClass.from_packed(packed, 13, bitorder=order).storage == "dense"  # auto: small, a byte a cell
    W = HypothesisClass.from_bit_columns(BitTable.from_dense(table).words, 70)
    assert W == H and W.table.tolist() == table.tolist()


@pytest.mark.parametrize(
    "call, fragment",
    [
        (lambda: HypothesisClass.from_packed(np.zeros((2, 1), dtype=np.uint8), 9), "9 points need 2"),
        (lambda: HypothesisClass.from_packed(np.zeros((2, 1), dtype=np.int64), 8), "2-D uint8 array"),
        (lambda: HypothesisClass.from_packed(np.zeros((2, 1), dtype=np.uint8), 8, bitorder="middle"), "bitorder"),
        (lambda: HypothesisClass.from_bit_columns(np.zeros((3, 2), dtype=np.uint64), 64), "shape (points, 1)"),
        (lambda: HypothesisClass.from_bit_columns(np.array([[4]], dtype=np.uint64), 2), "padding must be 0"),
        (lambda: HypothesisClass.from_bit_columns(np.zeros((3, 1), dtype=np.uint64), 0), "positive integer"),
        (lambda: HypothesisClass.from_bit_columns(np.zeros((3, 1), dtype=np.uint64), 2, num_labels=3), "must be 2"),
        (lambda: HypothesisClass.from_bit_columns(np.zeros((3, 1), dtype=np.uint64), 2, num_labels=1), "must be 2"),
        (lambda: HypothesisClass.from_bit_columns(np.zeros((3, 1), dtype=np.uint64), 2, num_labels=0), "positive"),
    ],
)
def test_packed_constructors_refuse_bad_input_in_one_line(call, fragment):
    with pytest.raises(InvalidClassError) as info:
        call()
    assert fragment in str(info.value) and "\n" not in str(info.value)


def test_cell_limits_depend_on_the_bits_per_cell(monkeypatch):
    assert MAX_BINARY_CELLS >= 65_536 * 65_535 > MAX_CELLS
    import dimcalc.classes.table_input as limits

    monkeypatch.setattr(limits, "MAX_CELLS", 10)
    HypothesisClass(np.zeros((4, 4), dtype=np.uint8))  # binary: 16 cells, under the binary limit
    with pytest.raises(InvalidClassError, match="more than dimcalc's limit of 10 for a table with 3 labels"):
        HypothesisClass(np.zeros((4, 4), dtype=np.uint8), num_labels=3)


def test_numpy_files_of_bit_stored_classes_round_trip_without_a_dense_table(tmp_path):
    from dimcalc.io import load, load_npy, load_npz, save

    rng = np.random.default_rng(4)
    table = rng.integers(0, 2, size=(70, 21), dtype=np.uint8)
    B = HypothesisClass(table, storage="bits", name="b", point_names=[f"p{i}" for i in range(21)])
    assert HypothesisClass.from_packed(np.packbits(table, axis=1), 21, storage="bits") == B
    save(B, tmp_path / "b.npz")
    save(B, tmp_path / "b.npy")
    with np.load(tmp_path / "b.npz") as z:  # the packed form: an eighth of the table
        assert sorted(z.files) == ["domain", "domain_size", "labels", "name", "packed_hypotheses"]
        assert z["packed_hypotheses"].tolist() == np.packbits(table, axis=1).tolist()
    G = load_npz(tmp_path / "b.npz")
    assert G == B and G.name == "b" and G.point_names == B.point_names
    assert np.load(tmp_path / "b.npy").tolist() == table.tolist()  # written column by column (Fortran order)
    assert load_npy(tmp_path / "b.npy") == B
    assert load(tmp_path / "b.npz") == HypothesisClass(table)


@pytest.mark.parametrize(
    "arrays, fragment",
    [
        ({"packed_hypotheses": np.zeros((2, 1), np.uint8)}, "'domain_size' (the number of points) goes with"),
        ({"hypotheses": np.zeros((2, 1), np.uint8), "domain_size": 1}, "goes with 'packed_hypotheses'"),
        (
            {"hypotheses": np.zeros((2, 1), np.uint8), "packed_hypotheses": np.zeros((2, 1), np.uint8)},
            "has both",
        ),
        ({"packed_hypotheses": np.zeros((2, 1), np.int16), "domain_size": 8}, "packed bits must be uint8"),
        ({"packed_hypotheses": np.zeros((2, 1), np.uint8), "domain_size": 9}, "9 points need 2"),
        ({"packed_hypotheses": np.zeros((2, 1), np.uint8), "domain_size": 8, "labels": 3}, "must be 2"),
    ],
)
def test_packed_npz_refused_in_one_line(tmp_path, arrays, fragment):
    from dimcalc.errors import ClassFileError
    from dimcalc.io import load_npz

    np.savez(tmp_path / "bad.npz", **arrays)
    with pytest.raises(ClassFileError) as info:
        load_npz(tmp_path / "bad.npz")
    assert fragment in str(info.value) and "\n" not in str(info.value)


@pytest.mark.slow  # ~4-8 s on two shared cores
def test_a_two_billion_cell_binary_class_is_built_reduced_and_solved_from_packed_bits():
    """2048 hypotheses x 976 563 points (2·10^9 cells, four times dense MAX_CELLS): 250 MB of bit columns,
    never a dense table (tracemalloc sees numpy's allocations); VC = log2(2048) = 11, certified on the witness."""
    import tracemalloc

    m, n = 2048, 976_563
    j = np.arange(m)
    bit_columns = [(j >> b) & 1 for b in range(11)]  # hypothesis j labels point b with bit b of j: all patterns
    pool = [*bit_columns, *(1 - c for c in bit_columns), np.zeros(m, np.int64), np.ones(m, np.int64)]
    pool_words = BitTable.from_dense(np.stack(pool, axis=1).astype(np.uint8)).words
    choice = np.random.default_rng(5).integers(0, len(pool), size=n)
    choice[:11] = np.arange(11)
    tracemalloc.start()
    try:
        words = pool_words[choice]  # the storage itself, 250 MB
        H = HypothesisClass.from_bit_columns(words, m)
        assert H.n_hypotheses * H.n_points > 4 * MAX_CELLS and H.storage == "bits"
        assert np.shares_memory(H.bit_table.words, words)  # kept as given: no copy
        red = H.column_reduction()
        assert red.points.tolist() == list(range(11))  # complements and constants merged or dropped
        r = vc_dimension(H, time_limit=60)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert (r.value, r.exact, sorted(r.witness)) == (11, True, list(range(11)))
    assert peak < words.nbytes + (600 << 20), peak  # a dense copy alone would take 2 GB
    assert is_shattered(HypothesisClass(H.bit_table.columns(r.witness)), list(range(11)))


@pytest.mark.parametrize("m, n, seed", [(3, 5, 0), (70, 33, 1), (130, 1, 2), (1, (1 << 18) + 3, 3), (65, 1 << 18, 4)])
def test_random_binary_classes_are_drawn_one_bit_per_cell_from_the_same_stream(m, n, seed):
    from dimcalc import generators

    H = generators.random_class(m, n, random_state=seed)
    dense = np.random.default_rng(seed).integers(0, 2, size=(m, n), dtype=np.int64)  # the table before bit storage
    assert np.array_equal(H.table, dense)
    assert H.storage == ("bits" if m * n >= BITS_MIN_CELLS else "dense")


@pytest.mark.parametrize("n", [1, 2, 63, 64, 65, 200])
def test_thresholds_are_built_one_bit_per_cell(n):
    from dimcalc import generators

    assert np.array_equal(generators.thresholds(n).table, np.arange(n)[None, :] >= np.arange(n + 1)[:, None])


@settings(max_examples=examples(40), deadline=None)
@given(wide_tables(), st.sampled_from(["big", "little"]))
def test_bit_transposition_round_trips(table, order):
    T = BitTable.from_dense(table)
    assert T.dense().tolist() == table.tolist()
    packed = np.packbits(table, axis=1, bitorder=order)
    assert T.packed_rows(order).tolist() == packed.tolist()
    noisy = packed.copy()
    if table.shape[1] % 8:  # bits past the last point are ignored
        pad = 8 - table.shape[1] % 8
        noisy[:, -1] |= np.uint8((1 << pad) - 1 if order == "big" else (0xFF << (8 - pad)) & 0xFF)
    assert BitTable.from_packed_rows(noisy, table.shape[1], order) == T
