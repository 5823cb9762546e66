"""Every valid input answered, every bad one refused in one line (issue 13).

Side files (``cover --tree``, ``check --family``) get the class files' guarantees;
the environment, FIFOs, output errors and Ctrl-C end with one stderr line and a
documented status; zero-point classes are answered by every command; witnesses
too big to print are summarised and ``--witness-file`` writes them in full.
Most cases run ``dimcalc.cli.main`` in-process; the ones about processes
(signals, closed descriptors, FIFOs, concurrent writers) run the console command.
"""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import dimcalc
from dimcalc import HypothesisClass
from dimcalc.cli import main

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"
THRESHOLDS = DATA / "thresholds-15.json"
MULTICLASS = DATA / "random-multiclass.json"  # 4 labels
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
CLI = [sys.executable, "-m", "dimcalc"]


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def refused(capsys, *argv, needle: str | None = None, name: str | None = None) -> str:
    """Assert exit 2, nothing on stdout, one stderr line without a traceback; return that line."""
    status, out, err = run(capsys, *argv)
    assert status == 2, (argv, status, out, err)
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err, (argv, out, err)
    if needle is not None:
        assert needle in err, (needle, err)
    if name is not None:
        assert name in err, (name, err)
    return err


# ------------------------------------------------------------------------------------------------ environment
BAD_ENV = ["nan", "inf", "1e400", "abc", "", "-1", "-0.5", " "]
COMMANDS = [
    ["--version"],
    ["--help"],
    ["check", THRESHOLDS, "--dims", "vc"],
    ["growth", THRESHOLDS],
    ["cover", THRESHOLDS, "--depth", "1"],
    ["theorems", DATA / "tiny-3.json"],
    ["repdim", DATA / "tiny-3.json"],
    ["sample-size", THRESHOLDS, "--alpha", ".1", "--beta", ".1", "--epsilon", "1"],
    ["generate", "--list"],
    ["bench", "--help"],
]


@pytest.mark.parametrize("value", BAD_ENV)
def test_bad_memory_limit_refused_by_every_command(value, capsys, monkeypatch):
    monkeypatch.setenv("DIMCALC_MEMORY_LIMIT_MB", value)
    for argv in COMMANDS:
        refused(capsys, *argv, needle="DIMCALC_MEMORY_LIMIT_MB")


@pytest.mark.parametrize("value", ["0", "4000", "512.5", "1e3"])
def test_good_memory_limits_accepted(value, capsys, monkeypatch):
    monkeypatch.setenv("DIMCALC_MEMORY_LIMIT_MB", value)
    status, out, _ = run(capsys, "check", THRESHOLDS, "--dims", "vc")
    assert status == 0 and "vc" in out


def test_bad_memory_limit_does_not_break_import():
    proc = subprocess.run(
        [sys.executable, "-c", "import dimcalc, dimcalc.search.budget as b; print(b.memory_limit() == 1280 << 20)"],
        capture_output=True,
        text=True,
        env={**ENV, "DIMCALC_MEMORY_LIMIT_MB": "nan"},
    )
    assert proc.returncode == 0 and proc.stdout.strip() == "True" and proc.stderr == ""
    proc = subprocess.run(
        CLI + ["--version"], capture_output=True, text=True, env={**ENV, "DIMCALC_MEMORY_LIMIT_MB": "nan"}
    )
    assert proc.returncode == 2 and proc.stdout == "" and proc.stderr.count("\n") == 1
    assert "Traceback" not in proc.stderr


# ------------------------------------------------------------------------------------------------ side files
def _fam(tmp_path, content: bytes | str, name: str = "fam.json") -> Path:
    p = tmp_path / name
    p.write_bytes(content.encode() if isinstance(content, str) else content)
    return p


def _family(capsys, path, **kw):
    return refused(capsys, "check", MULTICLASS, "--dims", "psi_littlestone", "--family", path, **kw)


def _tree(capsys, path, **kw):
    return refused(capsys, "cover", THRESHOLDS, "--tree", path, **kw)


SIDE_CASES = {
    # case: (bytes, needle)
    "non-utf8": (b"[[0, 1, null, \xff]]", "not UTF-8"),
    "empty": (b"", "empty"),
    "blank": (b"  \n", "empty"),
    "deep-lists": (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    "huge-integer": (b"[[" + b"9" * 5000 + b"]]", "too many digits"),
    "nan": (b"[[NaN, 0, 1, 0]]", "not valid JSON"),
    "not-json": (b"{", "not valid JSON"),
}


@pytest.mark.parametrize("case", sorted(SIDE_CASES))
def test_bad_family_files(case, tmp_path, capsys):
    content, needle = SIDE_CASES[case]
    p = _fam(tmp_path, content)
    _family(capsys, p, needle=needle, name=str(p))


@pytest.mark.parametrize("case", sorted(SIDE_CASES))
def test_bad_tree_files(case, tmp_path, capsys):
    content, needle = SIDE_CASES[case]
    p = _fam(tmp_path, content, "tree.json")
    _tree(capsys, p, needle=needle, name=str(p))


def test_deep_tree_objects_refused(tmp_path, capsys):
    deep = '{"point": 0, "children": [' * 5000 + '{"point": 0}' + ', {"point": 0}]}' * 5000
    p = _fam(tmp_path, deep, "deep.json")
    err = _tree(capsys, p, name=str(p))
    assert "nested too deeply" in err or "deeper than" in err


@pytest.mark.parametrize(
    "content,needle",
    [
        ('{"point": 99}', "point 99 must be an integer in 0..14"),
        ('{"point": -1}', "point -1 must be an integer in 0..14"),
        ('{"point": 1.5}', "point 1.5 must be an integer"),
        ('{"point": true}', "point true must be an integer"),
        ('{"point": null}', "point null must be an integer"),
        ('{"point": 0, "children": [{"point": 1}, {"point": 2, "colour": "red"}]}', "unknown key 'colour'"),
        ('{"point": 0, "chidren": [{"point": 1}, {"point": 2}]}', "unknown key 'chidren'"),
        ('{"point": 0, "children": [{"point": 1}]}', "two nodes"),
        ('{"heap": [0, 1]}', "2^d - 1"),
        ('{"heap": [0, 1, 77]}', "point 77"),
        ("[1, 2]", "a node must be an object"),
    ],
)
def test_bad_tree_contents_name_the_file(content, needle, tmp_path, capsys):
    p = _fam(tmp_path, content, "tree.json")
    _tree(capsys, p, needle=needle, name=str(p))


@pytest.mark.parametrize(
    "content,needle",
    [
        ("[[0, 1, 2, 0]]", "entry 2 = 2; entries must be 0, 1 or null"),
        ("[[0, true, null, 1]]", "entry 1 = true"),
        ('[[0, "x", null, 1]]', 'entry 1 = "x"'),
        ("[[0, 1]]", "length 2"),
        ("[]", "non-empty"),
        ('{"maps": [[0, 1, null, null]], "extra": 1}', "exactly the key 'maps'"),
        ("[7]", "is a number, not a list"),
        ("[null]", "is a null, not a list"),
    ],
)
def test_bad_family_contents_name_the_file_in_json_terms(content, needle, tmp_path, capsys):
    p = _fam(tmp_path, content)
    err = _family(capsys, p, needle=needle, name=str(p))
    assert "None" not in err and "True" not in err


def test_byte_order_mark_accepted_in_every_kind_of_file(tmp_path, capsys):
    bom = b"\xef\xbb\xbf"
    cls = _fam(tmp_path, bom + THRESHOLDS.read_bytes(), "class.json")
    tree = _fam(tmp_path, bom + b'{"point": 7, "children": [{"point": 3}, {"point": 11}]}', "tree.json")
    fam = _fam(tmp_path, bom + b"[[0, 1, null, null], [null, 0, 1, 1]]")
    status, out, _ = run(capsys, "cover", cls, "--tree", tree)
    assert status == 0 and "= 4" in out
    status, out, _ = run(capsys, "check", MULTICLASS, "--dims", "psi_littlestone", "--family", fam)
    assert status == 0 and "[user]" in out


def test_side_files_over_the_size_limit_refused_before_reading(tmp_path, capsys, monkeypatch):
    import dimcalc.io.files as dio

    cls = _fam(tmp_path, '{"hypotheses": [[0], [1], [2], [3]]}', "c.json")  # under the limit below
    fam = _fam(tmp_path, "[" + ", ".join(["[0, 1, null, null]"] * 10) + "]")
    tree = _fam(tmp_path, '{"point": 0}' + " " * 100, "tree.json")
    monkeypatch.setattr(dio, "MAX_FILE_BYTES", 64)
    refused(capsys, "check", cls, "--family", fam, needle="over dimcalc's limit", name=str(fam))
    refused(capsys, "cover", cls, "--tree", tree, needle="over dimcalc's limit", name=str(tree))


def test_missing_and_directory_side_files(tmp_path, capsys):
    _family(capsys, tmp_path / "none.json", needle="no such file", name="none.json")
    _tree(capsys, tmp_path / "none.json", needle="no such file", name="none.json")
    _family(capsys, tmp_path, needle="is a directory")
    _tree(capsys, tmp_path, needle="is a directory")


# ------------------------------------------------------------------------------------------------ FIFOs, devices
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
@pytest.mark.parametrize("role", ["class", "tree", "family"])
def test_fifos_refused_without_blocking(role, tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    argv = {
        "class": ["check", str(fifo)],
        "tree": ["cover", str(THRESHOLDS), "--tree", str(fifo)],
        "family": ["check", str(MULTICLASS), "--family", str(fifo)],
    }[role]
    proc = subprocess.run(CLI + argv, capture_output=True, text=True, env=ENV, timeout=60)
    assert proc.returncode == 2 and proc.stdout == "" and proc.stderr.count("\n") == 1
    assert "FIFO" in proc.stderr and str(fifo) in proc.stderr


def test_devices_refused(capsys):
    if not os.path.exists("/dev/null"):
        pytest.skip("no /dev/null")
    refused(capsys, "check", "/dev/null", needle="device")
    refused(capsys, "cover", THRESHOLDS, "--tree", "/dev/null", needle="device")


# ------------------------------------------------------------------------------------------------ output errors
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_full_disk_reported_as_a_write_failure():
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            CLI + ["check", str(THRESHOLDS), "--json"], stdout=full, stderr=subprocess.PIPE, text=True, env=ENV
        )
    assert proc.returncode == 1
    assert proc.stderr.count("\n") == 1 and "cannot write the output" in proc.stderr and "Traceback" not in proc.stderr


def test_closed_stdout_reported_not_lost():
    proc = subprocess.run(
        CLI + ["check", str(THRESHOLDS)], stderr=subprocess.PIPE, text=True, env=ENV, preexec_fn=lambda: os.close(1)
    )
    assert proc.returncode == 1 and "standard output is closed" in proc.stderr and proc.stderr.count("\n") == 1


def test_closed_pipe_is_quiet():
    proc = subprocess.Popen(
        CLI + ["check", str(THRESHOLDS), "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV
    )
    proc.stdout.read(10)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert proc.returncode == 0 and err == ""


# ------------------------------------------------------------------------------------------------ Ctrl-C
def test_interrupt_while_the_package_imports_is_one_line():
    """A KeyboardInterrupt raised inside ``import dimcalc`` (deterministically, by an import hook on numpy)
    in the dimcalc command: one line and exit 130; in any other program the interrupt goes through."""
    hook = (
        "import sys\n"
        "class Hook:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'numpy':\n"
        "            raise KeyboardInterrupt\n"
        "sys.meta_path.insert(0, Hook())\n"
    )
    as_cli = hook + "sys.argv = ['/usr/bin/dimcalc', 'check', 'x.json']\nfrom dimcalc.cli import main\n"
    proc = subprocess.run([sys.executable, "-c", as_cli], capture_output=True, text=True, env=ENV)
    assert proc.returncode == 130 and proc.stderr == "dimcalc: interrupted\n" and proc.stdout == ""
    as_library = hook + "import dimcalc\ndimcalc.HypothesisClass\n"  # the package loads its names on first use
    proc = subprocess.run([sys.executable, "-c", as_library], capture_output=True, text=True, env=ENV)
    assert proc.returncode != 0 and "KeyboardInterrupt" in proc.stderr


def test_interrupt_in_a_handler_or_the_parser(capsys, monkeypatch):
    import dimcalc.cli.check as cc

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(cc, "check_class", interrupted)
    status, out, err = run(capsys, "check", THRESHOLDS)
    assert status == 130 and err == "dimcalc: interrupted\n"
    monkeypatch.setattr("dimcalc.cli.build_parser", interrupted)
    status, out, err = run(capsys, "check", THRESHOLDS)
    assert status == 130 and err == "dimcalc: interrupted\n"


#: ``dimcalc check FILE`` whose search never ends: the real ``check_class`` run again and again, after one
#: "searching" line on stderr, so the interrupt lands inside a real search however fast the engine gets.
ENDLESS_CHECK = """
import sys

import dimcalc.cli.check as command
from dimcalc.cli import main

real = command.check_class

def endless(*args, **kwargs):
    sys.stderr.write("searching\\n")
    sys.stderr.flush()
    while True:
        real(*args, **kwargs)

command.check_class = endless
sys.exit(main(["check", sys.argv[1], "--jobs", sys.argv[2]]))
"""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_sigint_during_a_search_is_one_line(tmp_path, jobs):
    """Ctrl-C in a real search, one process or a pool of two: the bounds proven so far (the dimensions the
    interrupted round finished) are printed, one line on stderr, exit 130 (issue 22: ``--jobs 2`` printed
    only the interruption)."""
    rng = __import__("numpy").random.default_rng(0)
    big = tmp_path / "big.json"
    big.write_text(json.dumps({"hypotheses": rng.integers(0, 2, size=(200, 30)).tolist()}))
    proc = subprocess.Popen(
        [sys.executable, "-c", ENDLESS_CHECK, str(big), jobs],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert proc.stderr is not None
    assert proc.stderr.readline() == "searching\n"  # the search has started: no race with its end
    time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and err.strip().splitlines()[-1].startswith("dimcalc: interrupted during")
    assert "Traceback" not in err
    assert "interrupted (Ctrl-C) during" in out  # the report of what was finished, printed


# ------------------------------------------------------------------------------------------------ zero points
@pytest.fixture(params=["json", "csv", "json-two-rows"])
def zero_point_file(request, tmp_path):
    if request.param == "csv":
        p = tmp_path / "zero.csv"
        p.write_text("name\nh0\n")
    else:
        p = tmp_path / "zero.json"
        rows = [[]] if request.param == "json" else [[], []]
        p.write_text(json.dumps({"hypotheses": rows}))
    return p


def test_zero_point_classes_answered_by_every_command(zero_point_file, capsys):
    """One behaviour: every dimension is 0 (witnesses verified); only what cannot exist is refused."""
    status, out, _ = run(capsys, "check", zero_point_file, "--json")
    dims = json.loads(out)["dimensions"]
    assert status == 0
    for key in ("vc", "natarajan", "graph", "littlestone", "multiclass_littlestone"):
        assert dims[key]["value"] == 0 and dims[key]["exact"]
    assert all(r["value"] == 0 for fam in ("psi_littlestone", "psi_littlestone_uniform") for r in dims[fam].values())
    status, out, _ = run(capsys, "growth", zero_point_file, "--json", "--max-m", "3")
    assert status == 0 and [row["m"] for row in json.loads(out)["growth"]] == [0]
    status, out, _ = run(capsys, "cover", zero_point_file, "--depth", "0", "--json")
    assert status == 0 and json.loads(out)["value"] == 1 and json.loads(out)["verified"]
    refused(capsys, "cover", zero_point_file, "--depth", "2", needle="has no points")
    status, out, _ = run(capsys, "theorems", zero_point_file, "--json")
    assert status == 0 and all(c["holds"] is True for c in json.loads(out))
    status, out, _ = run(capsys, "repdim", zero_point_file, "--json")
    obj = json.loads(out)
    assert status == 0 and obj["drdim"]["value"] == 0 and obj["drdim"]["verified"]
    assert obj["communication"]["deterministic"]["value"] == 0
    status, out, _ = run(
        capsys, "sample-size", zero_point_file, "--alpha", "0.1", "--beta", "0.1", "--epsilon", "1", "--json"
    )
    assert status == 0 and json.loads(out)["rows"]


# ------------------------------------------------------------------------------------------------ many labels
def test_many_labels_check_answers_within_its_limit(tmp_path, capsys):
    p = tmp_path / "labels300.json"
    p.write_text(
        json.dumps({"labels": 300, "hypotheses": [[(7 * i + 13 * j) % 300 for j in range(6)] for i in range(300)]})
    )
    status, out, _ = run(
        capsys, "check", p, "--json", "--time-limit", "20", "--dims", "psi_littlestone,psi_littlestone_uniform"
    )
    dims = json.loads(out)["dimensions"]
    assert status in (0, 3)
    assert dims["psi_littlestone"]["B"]["value"] == 8 and dims["psi_littlestone_uniform"]["B"]["value"] == 8
    unused = tmp_path / "unused.json"
    unused.write_text(json.dumps({"labels": 300, "hypotheses": [[0, 1, 1], [1, 0, 1], [0, 0, 0], [1, 1, 0]]}))
    status, out, _ = run(capsys, "check", unused, "--json")
    assert status == 0 and "witnesses verified" not in out
    assert json.loads(out)["dimensions"]["psi_littlestone_uniform"]["B"]["value"] == 2


# ------------------------------------------------------------------------------------------------ witnesses
def test_big_cover_witness_summarised_and_written_in_full(tmp_path, capsys, monkeypatch):
    import dimcalc.cli.output as cli_output

    monkeypatch.setattr(cli_output, "WITNESS_PRINT_LIMIT", 100)
    boxes = DATA / "boxes-b2-d2.json"
    wfile = tmp_path / "w.json"
    status, out, _ = run(capsys, "cover", boxes, "--depth", "4", "--json", "--witness-file", wfile)
    obj = json.loads(out)
    assert status == 0 and obj["verified"] and set(obj["witness"]) == {"omitted", "values", "file"}
    assert obj["witness"]["file"] == str(wfile)
    full = json.loads(wfile.read_text())
    H = dimcalc.load(boxes)
    from dimcalc.covers import is_zero_cover, is_zero_cover_fooling_set

    assert len(full["cover"]) == len(full["fooling_set"]) == obj["value"]
    assert is_zero_cover(H, full["tree"], full["cover"]) and is_zero_cover_fooling_set(
        H, full["tree"], full["fooling_set"]
    )


def test_deep_cover_answers_with_bounds_and_a_checked_fooling_set(capsys):
    status, out, _ = run(capsys, "cover", DATA / "boxes-b2-d2.json", "--depth", "20", "--json", "--time-limit", "3")
    obj = json.loads(out)
    assert status in (0, 3) and obj["verified"]
    assert obj["witness"]["omitted"].startswith("the witness has")  # 2^20 - 1 tree nodes: summarised
    refused(capsys, "cover", DATA / "boxes-b2-d2.json", "--depth", "23", needle="at most 22")


def test_cover_witness_without_its_cover_is_certified_by_the_fooling_set():
    from dimcalc.covers import zero_cover_function

    H = dimcalc.load(DATA / "boxes-b2-d2.json")
    full = zero_cover_function(H, 5)
    small = zero_cover_function(H, 5, max_witness_nodes=10)
    assert small.value == full.value and small.witness["cover"] is None and "cover_omitted" in small.witness
    assert small.verify(H) and full.verify(H)
    forged = dict(small.witness, fooling_set=small.witness["fooling_set"] + small.witness["fooling_set"][:1])
    from dimcalc.witnesses import ZeroCover

    assert not dataclasses.replace(small, witness=ZeroCover(forged)).verify(H)
    with pytest.raises(dimcalc.InvalidWitnessError, match="not a fooling set"):
        ZeroCover(forged).certify(H)


def test_big_representation_witness_summarised(tmp_path, capsys, monkeypatch):
    import dimcalc.cli.output as cli_output

    monkeypatch.setattr(cli_output, "WITNESS_PRINT_LIMIT", 10)
    wfile = tmp_path / "rep.json"
    status, out, _ = run(capsys, "repdim", DATA / "thresholds-6.csv", "--json", "--witness-file", wfile)
    obj = json.loads(out)
    assert status == 0 and obj["drdim"]["verified"] and "omitted" in obj["drdim"]["witness"]
    full = json.loads(wfile.read_text())
    from dimcalc.representation import is_representation

    assert len(full["representation"]) == obj["drdim"]["size"]
    assert is_representation(full["representation"], dimcalc.load(DATA / "thresholds-6.csv"), "1/4") is True


def test_representation_check_is_linear_when_the_witness_is_the_class():
    from dimcalc.representation import check_representation

    rows = [[(i >> b) & 1 for b in range(12)] for i in range(4096)]
    r = check_representation(rows, rows, 0)
    assert r.represents and len(r.mixtures) == 4096 and sum(r.mixtures[5]) == 1 and r.mixtures[5][5] == 1


# ------------------------------------------------------------------------------------------------ load time
def test_load_time_is_taken_off_the_time_limit(capsys, monkeypatch):
    import dimcalc.cli.check as cc
    import dimcalc.cli.inputs as cli_inputs

    real_load = cli_inputs.load
    seen = {}

    def slow_load(path):
        time.sleep(0.3)
        return real_load(path)

    def spy(H, dims, *, time_limit, **kwargs):
        seen["time_limit"] = time_limit
        return real_check(H, dims, time_limit=time_limit, **kwargs)

    real_check = cc.check_class
    monkeypatch.setattr(cli_inputs, "load", slow_load)
    monkeypatch.setattr(cc, "check_class", spy)
    status, out, err = run(capsys, "check", THRESHOLDS, "--dims", "vc", "--time-limit", "0.2")
    assert seen["time_limit"] == pytest.approx(1e-3) and "took" in err and "time limit" in err
    status, out, err = run(capsys, "check", THRESHOLDS, "--dims", "vc", "--time-limit", "100")
    assert 99 < seen["time_limit"] <= 99.7


def test_big_json_tables_checked_vectorised_with_the_same_refusals(tmp_path):
    from dimcalc import ClassFileError

    good = tmp_path / "g.json"
    good.write_text(json.dumps({"hypotheses": [[0, 1, 2], [2, 1, 0]], "hypothesis_names": ["a", "b"]}))
    assert dimcalc.load(good).num_labels == 3
    for rows, needle in (
        ([[0, True], [1, 0]], "not an integer"),
        ([[0, -1], [1, 0]], "negative"),
        ([[0, 1.0], [1, 0]], "not an integer"),
        ([[0, 1], [1]], "row 1"),
    ):
        bad = tmp_path / "b.json"
        bad.write_text(json.dumps({"hypotheses": rows}))
        with pytest.raises(ClassFileError, match=needle):
            dimcalc.load(bad)


# ------------------------------------------------------------------------------------------------ small things
def test_empty_dims_refused_like_a_lone_comma(capsys):
    refused(capsys, "check", THRESHOLDS, "--dims", "", needle="--dims needs at least one name")
    refused(capsys, "check", THRESHOLDS, "--dims", ",", needle="--dims needs at least one name")


def test_blank_csv_line_named(tmp_path, capsys):
    p = tmp_path / "b.csv"
    p.write_text("name,a,b\nh0,0,1\n\nh1,1,0\n")
    refused(capsys, "check", p, needle="row 1: the line is blank")


def test_growth_max_m_capped_at_the_number_of_points(capsys):
    status, out, err = run(capsys, "growth", THRESHOLDS, "--max-m", "100000", "--json")
    assert status == 0 and [r["m"] for r in json.loads(out)["growth"]] == list(range(16))
    assert "capped at 15" in err


def test_error_prefix_not_doubled(capsys):
    err = refused(capsys, "check", THRESHOLDS, "--time-limit", "abc")
    assert err.startswith("dimcalc: error: argument --time-limit") and "dimcalc check:" not in err


def test_repdim_epsilon_range_is_the_documented_one(capsys):
    refused(capsys, "repdim", DATA / "thresholds-6.csv", "--epsilon", "0.6", needle="[0, 1/2]")
    status, out, _ = run(capsys, "repdim", DATA / "thresholds-6.csv", "--epsilon", "1/2")
    assert status == 0


def test_tiny_alpha_prints_sane_sample_sizes(capsys):
    status, out, _ = run(capsys, "sample-size", THRESHOLDS, "--alpha", "1e-300", "--beta", "0.05", "--epsilon", "1")
    assert status == 0
    samples = [
        line.split()[0]
        for line in out.splitlines()[6:]
        if line.strip() and not line.strip().startswith(("note", "O(.)"))
    ]
    assert samples and all(len(s) <= 20 for s in samples)


def test_concurrent_generate_to_one_file(tmp_path):
    target = tmp_path / "same.json"
    procs = [
        subprocess.Popen(
            CLI
            + [
                "generate",
                "random",
                "--hypotheses",
                "300",
                "--points",
                "40",
                "--labels",
                "3",
                "--seed",
                str(i),
                "-o",
                str(target),
            ],
            stderr=subprocess.PIPE,
            env=ENV,
        )
        for i in range(8)
    ]
    codes = [p.wait(timeout=120) for p in procs]
    assert codes == [0] * 8
    H = dimcalc.load(target)
    assert H.n_hypotheses == 300 and H.n_points == 40
    assert sorted(os.listdir(tmp_path)) == ["same.json"]  # no temporary file left behind


def test_readme_library_entry_points():
    H = dimcalc.load(THRESHOLDS)
    report = dimcalc.check.check_class(H)
    assert report.complete and report.verify()
    assert HypothesisClass is dimcalc.HypothesisClass
