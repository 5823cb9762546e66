"""Numpy class files (.npy / .npz, docs/interface.md §6): round trips, memory mapping, strict refusal, exit 2."""

import json
import pickle
import zipfile

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import dimcalc
from dimcalc import ClassFileError, HypothesisClass
from dimcalc.cli import main
from dimcalc.io import load_npz, save_npy, save_npz


def tables(max_rows=8, max_cols=5, max_label=3):
    return st.integers(0, max_cols).flatmap(
        lambda n: st.lists(st.lists(st.integers(0, max_label), min_size=n, max_size=n), min_size=1, max_size=max_rows)
    )


# ---------------------------------------------------------------- round trips
@given(tables(), st.integers(0, 2), st.booleans())
def test_npz_round_trip_is_lossless(tmp_path_factory, rows, extra_labels, named):
    labels = max(2, max((max(r) for r in rows if r), default=0) + 1) + extra_labels
    kwargs = {}
    if named:
        kwargs = dict(
            point_names=[f"p{i}" for i in range(len(rows[0]))],
            hypothesis_names=[f"h{j % 3}" for j in range(len(rows))],
            name="c",
            metadata={"family": "demo", "params": {"n": [1, 2]}},
        )
    H = HypothesisClass(rows, num_labels=labels, **kwargs)
    p = tmp_path_factory.mktemp("npz") / "c.npz"
    dimcalc.save(H, p)
    G = dimcalc.load(p)
    assert G == H and G.num_labels == labels and G.point_names == H.point_names
    assert G.hypothesis_names == H.hypothesis_names and G.name == H.name and G.metadata == H.metadata


@given(tables())
def test_npy_round_trip_keeps_the_table(tmp_path_factory, rows):
    H = HypothesisClass(rows)
    p = tmp_path_factory.mktemp("npy") / "t.npy"
    dimcalc.save(H, p)
    G = dimcalc.load(p)
    assert np.array_equal(G.table, H.table) and G.num_labels == H.num_labels and G.name == "t"


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8, ">i4", "<u2", np.int64])
@pytest.mark.parametrize("order", ["C", "F"])
def test_every_integer_dtype_and_order_is_read(tmp_path, dtype, order):
    table = np.array([[0, 1, 1], [1, 0, 1]], dtype=dtype, order=order)
    np.save(tmp_path / "a.npy", table)
    np.savez(tmp_path / "b.npz", hypotheses=table)
    np.savez_compressed(tmp_path / "c.npz", hypotheses=table)
    for name in ("a.npy", "b.npz", "c.npz"):
        H = dimcalc.load(tmp_path / name)
        assert H.table.tolist() == [[0, 1, 1], [1, 0, 1]], name


def test_uncompressed_npz_table_is_memory_mapped(tmp_path):
    from dimcalc.io.numpy_files import _read_npz_member

    table = np.arange(12, dtype=np.uint8).reshape(3, 4) % 3
    for save, mapped in ((np.savez, True), (np.savez_compressed, False)):
        p = tmp_path / "m.npz"
        save(p, hypotheses=table)
        with zipfile.ZipFile(p) as zf:
            arr = _read_npz_member(p, zf, zf.getinfo("hypotheses.npy"), "hypotheses", str(p))
        assert isinstance(arr, np.memmap) == mapped and np.array_equal(arr, table)


def test_npy_is_loaded_with_mmap(tmp_path, monkeypatch):
    seen = []
    real = np.load

    def spy(*args, **kwargs):
        seen.append(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(np, "load", spy)
    np.save(tmp_path / "t.npy", np.eye(3, dtype=np.uint8))
    assert dimcalc.load(tmp_path / "t.npy").n_distinct == 3
    assert seen == [{"mmap_mode": "r", "allow_pickle": False}]


def test_npz_extras_in_every_accepted_shape(tmp_path):
    p = tmp_path / "x.npz"
    np.savez(
        p,
        hypotheses=np.array([[0, 1]]),
        labels=np.array([4], dtype=np.uint8),
        name=np.array(["n"]),
        domain=np.array(["a", "b"]),
        hypothesis_names=np.array(["only"]),
        metadata=json.dumps({"k": 1}),
    )
    H = load_npz(p)
    assert (H.num_labels, H.name, H.point_names, H.hypothesis_names, H.metadata) == (
        4,
        "n",
        ("a", "b"),
        ("only",),
        {"k": 1},
    )


# ---------------------------------------------------------------- CLI
@pytest.mark.parametrize("fmt", ["npy", "npz"])
def test_cli_generate_writes_numpy_files_and_check_reads_them(tmp_path, capsys, fmt):
    out, ref = tmp_path / f"b.{fmt}", tmp_path / "b.json"
    assert main(["generate", "boxes", "--b", "1", "--d", "2", "-o", str(out)]) == 0
    assert main(["generate", "boxes", "--b", "1", "--d", "2", "-o", str(ref)]) == 0
    assert f"wrote {out}" in capsys.readouterr().err
    L, H = dimcalc.load(out), dimcalc.load(ref)
    assert np.array_equal(L.table, H.table)
    if fmt == "npz":
        assert (L.point_names, L.hypothesis_names, L.metadata, L.name) == (
            H.point_names,
            H.hypothesis_names,
            H.metadata,
            H.name,
        )
    reports = []
    for path in (out, ref):
        assert main(["check", str(path), "--json", "--dims", "vc,littlestone"]) == 0
        reports.append(json.loads(capsys.readouterr().out)["dimensions"])
    assert reports[0] == reports[1]


def test_cli_generate_format_option_and_errors(tmp_path, capsys):
    out = tmp_path / "x.bin"
    assert main(["generate", "thresholds", "--n", "3", "--format", "npz", "-o", str(out)]) == 0
    capsys.readouterr()
    with zipfile.ZipFile(out) as zf:
        assert "hypotheses.npy" in zf.namelist()
    for argv, msg in [
        (["generate", "thresholds", "--n", "3", "--format", "npy"], "give it with -o"),
        (["generate", "thresholds", "--n", "3", "-o", str(tmp_path)], "is a directory"),
        (["generate", "thresholds", "--n", "3", "-o", str(tmp_path / "no" / "t.npz")], "cannot write"),
    ]:
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert msg in err and err.count("\n") == 1 and "Traceback" not in err
    assert not list((tmp_path).glob("*.tmp"))


# ---------------------------------------------------------------- malformed files
def _npy(arr):
    def write(p):
        np.save(p, arr, allow_pickle=True)

    return write


def _npz(compressed=False, **arrays):
    def write(p):
        (np.savez_compressed if compressed else np.savez)(p, **arrays)

    return write


def _raw(data):
    def write(p):
        p.write_bytes(data)

    return write


def _npy_bytes(arr):
    import io

    buf = io.BytesIO()
    np.save(buf, arr)
    return buf.getvalue()


def _zip(members):
    def write(p):
        with zipfile.ZipFile(p, "w") as zf:
            for name, data in members.items():
                zf.writestr(name, data)

    return write


OK = np.array([[0, 1], [1, 1]], dtype=np.uint8)
GOOD_NPY = _npy_bytes(OK)

BAD_NPY = {
    "float": (_npy(np.array([[0.0, 1.0]])), "dtype float64"),
    "complex": (_npy(np.array([[0j, 1j]])), "dtype complex128"),
    "strings": (_npy(np.array([["0", "1"]])), "dtype <U1"),
    "structured": (_npy(np.zeros((2, 2), dtype=[("a", "i4"), ("b", "i4")])), "labels must be integers"),
    "object": (_npy(np.array([[0, 1], [1, None]], dtype=object)), "Python objects"),
    "one-dimensional": (_npy(np.array([0, 1, 1])), "2-dimensional"),
    "three-dimensional": (_npy(np.zeros((2, 2, 2), dtype=np.uint8)), "2-dimensional"),
    "scalar": (_npy(np.array(3)), "2-dimensional"),
    "negative": (_npy(np.array([[0, 1], [1, -1]], dtype=np.int8)), "row 1, column 1: label -1 is negative"),
    "no-rows": (_npy(np.zeros((0, 3), dtype=np.uint8)), "empty"),
    "too-many-labels": (_npy(np.array([[0, 70000]], dtype=np.int32)), "at most 65536 labels"),
    "not-numpy": (_raw(b'{"hypotheses": [[0, 1]]}'), "no .npy magic"),
    "empty-file": (_raw(b""), "no .npy magic"),
    "pickle": (_raw(pickle.dumps([[0, 1]])), "no .npy magic"),
    "bad-version": (_raw(GOOD_NPY[:6] + b"\x09\x00" + GOOD_NPY[8:]), "unsupported .npy format version 9.0"),
    "bad-header": (_raw(GOOD_NPY[:10] + b"{'descr': 'x'" + b" " * 50), "malformed .npy header"),
    "truncated": (_raw(GOOD_NPY[:-1]), "truncated"),
}

BAD_NPZ = {
    "not-a-zip": (_raw(b"PK\x03\x04 not really"), "not a numpy .npz archive"),
    "npy-named-npz": (_raw(GOOD_NPY), "not a numpy .npz archive"),
    "empty-archive": (_zip({}), "missing required array 'hypotheses'"),
    "no-hypotheses": (_npz(labels=2), "missing required array 'hypotheses'"),
    "unknown-array": (_npz(hypotheses=OK, lables=3), "unknown array 'lables'"),
    "foreign-member": (_zip({"hypotheses.npy": GOOD_NPY, "README.txt": b"hi"}), "unknown array 'README.txt'"),
    "member-not-npy": (_zip({"hypotheses.npy": b"garbage"}), "array 'hypotheses' not a numpy .npy array"),
    "member-truncated": (_zip({"hypotheses.npy": GOOD_NPY[:-2]}), "array 'hypotheses' truncated"),
    "compressed-truncated": (_zip({}), None),  # filled in below
    "float": (_npz(hypotheses=OK.astype(float)), "array 'hypotheses' has dtype float64"),
    "object-table": (_npz(hypotheses=np.array([[0, None]], dtype=object)), "Python objects"),
    "object-extra": (_npz(hypotheses=OK, name=np.array([None], dtype=object)), "array 'name' holds Python objects"),
    "one-dimensional": (_npz(hypotheses=np.array([0, 1])), "2-dimensional"),
    "negative": (_npz(hypotheses=np.array([[0, -1]])), "array 'hypotheses', row 0, column 1: label -1 is negative"),
    "negative-compressed": (_npz(True, hypotheses=np.array([[0, -1]])), "row 0, column 1: label -1 is negative"),
    "no-rows": (_npz(hypotheses=np.zeros((0, 2), dtype=np.uint8)), "empty"),
    "labels-float": (_npz(hypotheses=OK, labels=2.0), "array 'labels' must be one integer"),
    "labels-bool": (_npz(hypotheses=OK, labels=True), "array 'labels' must be one integer"),
    "labels-two": (_npz(hypotheses=OK, labels=[2, 3]), "array 'labels' must be one integer"),
    "labels-zero": (_npz(hypotheses=OK, labels=0), "array 'labels' must be a positive integer"),
    "label-too-big": (_npz(hypotheses=OK, labels=1), "not below the declared number of labels 1"),
    "name-not-string": (_npz(hypotheses=OK, name=3), "array 'name' must be one string"),
    "name-bytes": (_npz(hypotheses=OK, name=np.array(b"x")), "array 'name' must be one string"),
    "domain-length": (_npz(hypotheses=OK, domain=np.array(["a"])), "domain has 1 names but the table has 2"),
    "domain-not-strings": (_npz(hypotheses=OK, domain=np.array([1, 2])), "array 'domain' must be a 1-D array"),
    "domain-2d": (_npz(hypotheses=OK, domain=np.array([["a", "b"]])), "array 'domain' must be a 1-D array"),
    "domain-duplicate": (_npz(hypotheses=OK, domain=np.array(["a", "a"])), "duplicate name 'a'"),
    "names-length": (_npz(hypotheses=OK, hypothesis_names=np.array(["a"])), "hypothesis_names has 1 names"),
    "metadata-not-json": (_npz(hypotheses=OK, metadata="{oops"), "array 'metadata' is not valid JSON"),
    "metadata-nan": (_npz(hypotheses=OK, metadata='{"a": NaN}'), "array 'metadata' is not valid JSON"),
    "metadata-list": (_npz(hypotheses=OK, metadata="[1]"), "must hold a JSON object"),
}


def _compressed_truncated(p):
    _npz(True, hypotheses=np.ones((50, 50), dtype=np.uint8))(p)
    data = p.read_bytes()
    p.write_bytes(data[: len(data) // 2])


def _compressed_corrupt(p):
    """A deflated member whose data is damaged after its .npy header (zlib or CRC error while reading)."""
    table = np.random.default_rng(0).integers(0, 2, size=(64, 64), dtype=np.uint8)
    _npz(True, hypotheses=table)(p)
    data = bytearray(p.read_bytes())
    with zipfile.ZipFile(p) as zf:
        info = zf.getinfo("hypotheses.npy")
    start = info.header_offset + 30 + len(info.filename) + len(info.extra)
    middle = start + info.compress_size // 2
    data[middle : middle + 16] = bytes(16)
    p.write_bytes(bytes(data))


BAD_NPZ["compressed-truncated"] = (_compressed_truncated, "not a numpy .npz archive")
BAD_NPZ["compressed-corrupt"] = (_compressed_corrupt, "array 'hypotheses' cannot be read")


def _assert_refused(tmp_path, name, write, fragment, capsys):
    p = tmp_path / name
    write(p)
    with pytest.raises(ClassFileError) as info:
        dimcalc.load(p)
    msg = str(info.value)
    assert msg.startswith(f"{p}: ") and fragment in msg and "\n" not in msg, msg
    assert main(["check", str(p), "--dims", "vc"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("dimcalc: error: ") and str(p) in err and "Traceback" not in err


@pytest.mark.parametrize("case", sorted(BAD_NPY))
def test_bad_npy_refused(tmp_path, case, capsys):
    write, fragment = BAD_NPY[case]
    _assert_refused(tmp_path, f"{case}.npy", write, fragment, capsys)


@pytest.mark.parametrize("case", sorted(BAD_NPZ))
def test_bad_npz_refused(tmp_path, case, capsys):
    write, fragment = BAD_NPZ[case]
    _assert_refused(tmp_path, f"{case}.npz", write, fragment, capsys)


def test_missing_and_directory_refused(tmp_path, capsys):
    (tmp_path / "d.npz").mkdir()
    for p, fragment in (
        (tmp_path / "missing.npy", "no such file"),
        (tmp_path / "missing.npz", "no such file"),
        (tmp_path / "d.npz", "is a directory"),
    ):
        _assert_refused(tmp_path, p.name, lambda _: None, fragment, capsys)


def test_oversized_table_refused_from_the_header(tmp_path, monkeypatch, capsys):
    import dimcalc.classes.hypothesis_class as hc
    import dimcalc.io.numpy_files as dio

    monkeypatch.setattr(hc, "MAX_CELLS", 10)
    monkeypatch.setattr(dio, "MAX_CELLS", 10)
    monkeypatch.setattr(dio, "MAX_BINARY_CELLS", 10)  # the header limit: labels are not known before reading
    big = np.zeros((3, 6), dtype=np.uint8)
    _assert_refused(tmp_path, "big.npy", _npy(big), "table too large", capsys)
    _assert_refused(tmp_path, "big.npz", _npz(True, hypotheses=big), "table too large", capsys)


def test_all_cli_commands_read_numpy_files(tmp_path, capsys):
    p = tmp_path / "t.npz"
    save_npz(HypothesisClass([[0, 0, 1], [0, 1, 1], [1, 1, 1]]), p)
    save_npy(HypothesisClass([[0, 0, 1], [0, 1, 1], [1, 1, 1]]), tmp_path / "t.npy")
    for argv in (
        ["check", str(p)],
        ["growth", str(p)],
        ["theorems", str(tmp_path / "t.npy")],
        ["cover", str(p), "--depth", "2"],
    ):
        assert main(argv) in (0, 3), argv
        assert "error" not in capsys.readouterr().err
