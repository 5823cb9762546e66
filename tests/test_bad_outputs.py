"""Outputs with the inputs' guarantees, and databases refused or read as they should be (issue 22 items 1, 3).

One writer for every output path (``generate -o``, ``--witness-file``,
``sweep --save-max``/``--save-min``, ``sweep --search -o``, :func:`dimcalc.save`):
devices, FIFOs and directories refused in one line; an output that is an input
refused; an existing file of another kind refused unless ``--force``; JSON over
the read limit refused with the advice to write ``.npz``; a compressed ``.npz``
member refused by its declared size before it is decompressed.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import zipfile
from pathlib import Path

import numpy as np
import pytest

from dimcalc import HypothesisClass
from dimcalc.cli import main
from dimcalc.errors import ClassFileError, InvalidParameterError

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
THRESHOLDS = DATA / "thresholds-15.json"


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def refused(capsys, *argv, needle: str) -> str:
    status, out, err = run(capsys, *argv)
    assert status == 2, (argv, status, out, err)
    assert err.count("\n") == 1 and "Traceback" not in err and needle in err, (argv, err)
    return err


@pytest.fixture
def sweep_db(tmp_path, capsys) -> Path:
    db = tmp_path / "s.db"
    assert run(capsys, "sweep", "--all", "3x2x2", "--db", db, "--quiet", "--dims", "vc")[0] == 0
    return db


@pytest.fixture
def class_file(tmp_path) -> Path:
    p = tmp_path / "t15.json"
    p.write_bytes(THRESHOLDS.read_bytes())
    return p


# ------------------------------------------------------------------ devices, FIFOs, directories
OUTPUT_COMMANDS = {
    "generate -o": lambda out, db: ["generate", "thresholds", "--n", "3", "-o", out],
    "cover --witness-file": lambda out, db: ["cover", THRESHOLDS, "--depth", "2", "--witness-file", out],
    "repdim --witness-file": lambda out, db: ["repdim", DATA / "thresholds-6.csv", "--witness-file", out],
    "sweep --save-max": lambda out, db: ["sweep", "--report", db, "--expr", "vc", "--save-max", out],
    "sweep --search -o": lambda out, db: [
        "sweep",
        "--search",
        "vc",
        "--size",
        "3x2x2",
        "--restarts",
        "1",
        "--steps",
        "2",
        "-o",
        out,
    ],
}


@pytest.fixture
def device(tmp_path) -> Path:
    """A character device of the test's own (a copy of /dev/null made with mknod), so that a writer that
    replaces devices -- as dimcalc's did, run as root -- damages nothing outside the test."""
    p = tmp_path / "null-device"
    try:
        os.mknod(p, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except (PermissionError, AttributeError, OSError):
        pytest.skip("cannot make a device node here (not root)")
    return p


@pytest.mark.parametrize("command", sorted(OUTPUT_COMMANDS))
def test_devices_refused_as_outputs(command, sweep_db, device, capsys):
    before = os.stat(device)
    refused(capsys, *OUTPUT_COMMANDS[command](device, sweep_db), needle="is a device")
    after = os.stat(device)
    assert stat.S_ISCHR(after.st_mode) and after.st_ino == before.st_ino


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
@pytest.mark.parametrize("command", sorted(OUTPUT_COMMANDS))
def test_fifos_refused_as_outputs(command, sweep_db, tmp_path, capsys):
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    refused(capsys, *OUTPUT_COMMANDS[command](fifo, sweep_db), needle="is a FIFO")
    assert fifo.is_fifo()


@pytest.mark.parametrize("command", sorted(OUTPUT_COMMANDS))
def test_directories_refused_as_outputs(command, sweep_db, tmp_path, capsys):
    refused(capsys, *OUTPUT_COMMANDS[command](tmp_path, sweep_db), needle="is a directory")


def test_library_save_refuses_devices_and_directories(tmp_path):
    H = HypothesisClass.from_table([[0, 1], [1, 1]])
    from dimcalc import save

    with pytest.raises(InvalidParameterError, match="is a directory"):
        save(H, tmp_path)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(InvalidParameterError, match="is a FIFO"):
        save(H, fifo)


# ------------------------------------------------------------------ outputs that are inputs, files of another kind
def test_witness_file_that_is_the_class_file_refused_even_with_force(class_file, capsys):
    before = class_file.read_bytes()
    for extra in ([], ["--force"]):
        refused(capsys, "cover", class_file, "--depth", "2", "--witness-file", class_file, *extra, needle="input")
    assert class_file.read_bytes() == before


def test_save_max_over_the_database_it_reports_refused(sweep_db, capsys):
    before = sweep_db.read_bytes()
    refused(capsys, "sweep", "--report", sweep_db, "--expr", "vc", "--save-max", sweep_db, needle="input")
    assert sweep_db.read_bytes() == before


def test_existing_files_of_another_kind_need_force(sweep_db, class_file, tmp_path, capsys):
    # a class file over a sweep database
    out = tmp_path / "copy.db"
    out.write_bytes(sweep_db.read_bytes())
    refused(capsys, "generate", "thresholds", "--n", "3", "-o", out, needle="--force")
    assert out.read_bytes() == sweep_db.read_bytes()
    assert run(capsys, "generate", "thresholds", "--n", "3", "-o", out, "--force")[0] == 0
    assert json.loads(out.read_text())["name"] == "thresholds-3"
    # a witness over a class file
    other = tmp_path / "other.json"
    other.write_bytes(class_file.read_bytes())
    refused(capsys, "cover", THRESHOLDS, "--depth", "2", "--witness-file", other, needle="holds a class file")
    assert other.read_bytes() == class_file.read_bytes()
    # a class over a witness file, and over the report's own database under another name
    witness = tmp_path / "w.json"
    witness.write_text('{"tree": {"point": 0}}')
    refused(capsys, "sweep", "--report", sweep_db, "--expr", "vc", "--save-max", witness, needle="--force")
    # the same kind is replaced (as GNU tools do)
    assert run(capsys, "generate", "thresholds", "--n", "4", "-o", other)[0] == 0
    assert json.loads(other.read_text())["name"] == "thresholds-4"


def test_gap_amplification_output_over_its_input_refused(class_file, capsys):
    before = class_file.read_bytes()
    refused(
        capsys,
        "generate",
        "gap-amplification",
        "--input",
        class_file,
        "--ell",
        "2",
        "-o",
        class_file,
        "--force",
        needle="input",
    )
    assert class_file.read_bytes() == before


def test_stdout_is_dash(capsys):
    status, out, err = run(capsys, "generate", "thresholds", "--n", "2", "-o", "-")
    assert status == 0 and json.loads(out)["name"] == "thresholds-2"


# ------------------------------------------------------------------ formats dimcalc cannot read back
def test_json_over_the_read_limit_refused_with_advice(tmp_path, capsys, monkeypatch):
    import dimcalc.io.class_files as class_files

    monkeypatch.setattr(class_files, "MAX_FILE_BYTES", 1000)
    out = tmp_path / "big.json"
    err = refused(capsys, "generate", "thresholds", "--n", "40", "-o", out, needle=".npz")
    assert "big.npz" in err and not out.exists()
    assert run(capsys, "generate", "thresholds", "--n", "40", "-o", tmp_path / "big.npz")[0] == 0


def test_json_size_checked_before_the_text_is_built(monkeypatch):
    import dimcalc.io.class_files as class_files
    from dimcalc import save

    monkeypatch.setattr(class_files, "MAX_FILE_BYTES", 1000)
    monkeypatch.setattr(class_files, "dumps_json", lambda H: pytest.fail("text built before the size check"))
    H = HypothesisClass.from_table(np.zeros((100, 100), dtype=np.uint8))
    with pytest.raises(InvalidParameterError, match="npz"):
        save(H, "never-written.json")


# ------------------------------------------------------------------ compressed .npz members
def test_compressed_npz_member_refused_by_its_declared_size(tmp_path):
    """A small archive that would inflate to 400 MB (over the 256 MiB limit) is refused before inflating."""
    p = tmp_path / "bomb.npz"
    rows, cols = 20_000, 20_000
    with zipfile.ZipFile(p, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        with zf.open("hypotheses.npy", "w", force_zip64=True) as fh:
            np.lib.format.write_array_header_1_0(fh, {"descr": "|u1", "fortran_order": False, "shape": (rows, cols)})
            zero = bytes(1 << 22)
            left = rows * cols
            while left:
                fh.write(zero[: min(left, len(zero))])
                left -= min(left, len(zero))
    assert p.stat().st_size < 4 << 20
    from dimcalc.io import load_npz

    with pytest.raises(ClassFileError, match="compressed.*memory"):
        load_npz(p)


def test_compressed_npz_header_checked_before_inflating(tmp_path, monkeypatch):
    """The array's own header is checked against the memory budget before its data is read."""
    monkeypatch.setenv("DIMCALC_MEMORY_LIMIT_MB", "1")
    p = tmp_path / "c.npz"
    np.savez_compressed(p, hypotheses=np.zeros((2000, 1000), dtype=np.uint8))
    from dimcalc.io import load_npz

    with pytest.raises(ClassFileError, match="memory"):
        load_npz(p)


# ------------------------------------------------------------------ sweep databases
def test_foreign_sqlite_file_refused_and_left_alone(tmp_path, capsys):
    p = tmp_path / "other.db"
    conn = sqlite3.connect(p)
    conn.execute("CREATE TABLE people (name TEXT)")
    conn.commit()
    conn.close()
    refused(capsys, "sweep", "--all", "3x2x2", "--db", p, "--quiet", needle="another program")
    refused(capsys, "sweep", "--report", p, needle="not a dimcalc sweep database")
    conn = sqlite3.connect(p)
    assert [r[0] for r in conn.execute("SELECT name FROM sqlite_master")] == ["people"]
    conn.close()


def test_class_file_as_database_refused_and_left_alone(class_file, capsys):
    before = class_file.read_bytes()
    refused(capsys, "sweep", "--all", "3x2x2", "--db", class_file, "--quiet", needle="not a dimcalc sweep database")
    assert class_file.read_bytes() == before


def test_report_opens_the_database_read_only(sweep_db, monkeypatch, capsys):
    """``--report`` never writes: every connection it makes is read-only (so a read-only file or folder works)."""
    real = sqlite3.connect
    seen = []

    def spy(database, *args, **kwargs):
        seen.append(str(database))
        return real(database, *args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", spy)
    status, out, err = run(capsys, "sweep", "--report", sweep_db, "--expr", "vc")
    assert status == 0 and "3 classes" in out
    assert seen and all("mode=ro" in s for s in seen), seen


def test_report_of_a_database_in_a_folder_without_room_for_wal_files(sweep_db, tmp_path, monkeypatch, capsys):
    """Where SQLite cannot make the WAL side files (a read-only folder), the report reads the file immutable."""
    real = sqlite3.connect

    def no_side_files(database, *args, **kwargs):
        if "immutable=1" not in str(database):
            raise sqlite3.OperationalError("unable to open database file")
        return real(database, *args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", no_side_files)
    status, out, err = run(capsys, "sweep", "--report", sweep_db)
    assert status == 0 and "3 classes" in out, err


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes read-only files")
def test_read_only_database_file_refused_for_writing_and_reported(sweep_db, capsys):
    os.chmod(sweep_db, 0o444)
    refused(capsys, "sweep", "--all", "3x2x3", "--db", sweep_db, "--quiet", needle="cannot be written")
    assert run(capsys, "sweep", "--report", sweep_db)[0] == 0


# ------------------------------------------------------------------ no forged output
FORGED = "evil\n\x1b[2K\rvc                  99     yes"


@pytest.fixture
def forged_class(tmp_path) -> Path:
    p = tmp_path / "forged.json"
    p.write_text(
        json.dumps(
            {
                "name": FORGED,
                "domain": ["a\x1b[31m", "b\u202e"],
                "hypothesis_names": ["h\n0", "h1", "h2"],
                "hypotheses": [[0, 0], [0, 1], [1, 1]],
            }
        )
    )
    return p


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "--dims", "vc,littlestone"],
        ["growth"],
        ["theorems", "--time-limit", "10"],
        ["cover", "--depth", "1"],
        ["repdim"],
        ["sample-size", "--epsilon", "1", "--alpha", "0.1", "--beta", "0.1"],
    ],
)
def test_names_with_control_characters_are_escaped_in_text_reports(argv, forged_class, capsys):
    status, out, err = run(capsys, argv[0], forged_class, *argv[1:])
    assert status in (0, 3), err
    assert "\x1b" not in out and "\r" not in out and "\u202e" not in out
    assert not any(line.startswith("vc                  99") for line in out.splitlines())
    assert "evil\\n\\x1b[2K\\rvc" in out


def test_sweep_listing_and_report_escape_sources(forged_class, tmp_path, capsys):
    weird = tmp_path / "a\nb\x1b[1m.json"
    weird.write_bytes(forged_class.read_bytes())
    status, out, err = run(capsys, "sweep", weird, "--list")
    assert status == 0 and "\x1b" not in out and "a\\nb\\x1b[1m.json" in out


# ------------------------------------------------------------------ text output under any encoding
# make test-fast runs ascii (the strictest); make test runs all three.
@pytest.mark.parametrize(
    "encoding",
    ["ascii", pytest.param("latin-1", marks=pytest.mark.slow), pytest.param("cp1252", marks=pytest.mark.slow)],
)
@pytest.mark.parametrize(
    "argv",
    [
        ["repdim", DATA / "thresholds-6.csv"],
        ["check", DATA / "random-multiclass.json", "--time-limit", "5"],
        ["sample-size", THRESHOLDS, "--epsilon", "1", "--alpha", "0.1", "--beta", "0.1"],
    ],
)
def test_text_output_survives_any_stdout_encoding(encoding, argv):
    import subprocess
    import sys

    env = {**os.environ, "PYTHONIOENCODING": encoding, "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, "-m", "dimcalc", *map(str, argv)], env=env, capture_output=True, timeout=120)
    assert r.returncode in (0, 3), r.stderr
    assert b"internal error" not in r.stderr and b"Traceback" not in r.stderr
    r.stdout.decode(encoding)  # what was written is text in the requested encoding


# ------------------------------------------------------------------ expressions refused for the right reason
@pytest.mark.parametrize(
    "expr, needle",
    [
        ("max(graph)", "two or more arguments"),
        ("min(vc)", "two or more arguments"),
        ("log2(0)", "log2 of 0 is undefined"),
        ("log2(1 - 2) + vc", "log2 of -1 is undefined"),
        ("graph/0", "division by zero"),
        ("graph / (vc - vc + 0 * 2) + 1/(3-3)", "division by zero"),
        ("1e999 * vc", "not a finite number"),
    ],
)
def test_bad_expressions_refused_with_the_reason(expr, needle, sweep_db, capsys):
    refused(capsys, "sweep", "--report", sweep_db, "--expr", expr, needle=needle)
    refused(capsys, "sweep", "--search", expr, "--size", "3x2x2", "--restarts", "1", "--steps", "1", needle=needle)


def test_expression_undefined_on_the_data_says_so(sweep_db, capsys):
    status, out, err = run(capsys, "sweep", "--report", sweep_db, "--expr", "log2(vc - vc)", "--json")
    assert status == 0
    e = json.loads(out)["extremes"][0]
    assert e["undefined"] == e["skipped"] == 3
    status, out, err = run(capsys, "sweep", "--report", sweep_db, "--expr", "vc / (vc - vc)")
    assert "undefined on every class (a division by zero" in out


# ------------------------------------------------------------------ Dask schedulers
@pytest.mark.parametrize("address", ["dask://", "dask://127.0.0.1", "dask://:8786", "http://127.0.0.1:8786", "dask"])
def test_malformed_scheduler_addresses_refused(address, tmp_path, capsys):
    db = tmp_path / "s.db"
    refused(capsys, "sweep", "--all", "3x2x2", "--db", db, "--scheduler", address, needle="dask://HOST:PORT")
    assert not db.exists()


def test_no_scheduler_listening_refused_fast(tmp_path, capsys):
    import socket
    import time

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    began = time.monotonic()
    refused(
        capsys,
        "sweep",
        "--all",
        "3x2x2",
        "--db",
        tmp_path / "s.db",
        "--scheduler",
        f"dask://127.0.0.1:{port}",
        needle="cannot reach a Dask scheduler",
    )
    # refused by the TCP probe, not after Dask's retries (30 s before): a generous bound on a loaded machine
    assert time.monotonic() - began < 10, time.monotonic() - began
