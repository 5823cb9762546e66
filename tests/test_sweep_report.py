"""Reports of a sweep database, safe expressions of dimensions, the extremal class file, the dimcalc sweep CLI."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dimcalc.cli import main
from dimcalc.errors import InvalidParameterError
from dimcalc.io import load
from dimcalc.sweep import SweepDB, all_items, parse_expression, run_sweep, sweep_report
from dimcalc.sweep.report import expression_extremes, extremal_class, verify_stored

# ---------------------------------------------------------------------------- expressions


def test_expression_arithmetic() -> None:
    e = parse_expression("2 * (psi_littlestone.bin - multiclass_littlestone) / labels + max(vc, 1e0) - abs(-3)")
    assert e.names == ("psi_littlestone.bin", "multiclass_littlestone", "labels", "vc")
    values = {"psi_littlestone.bin": 4, "multiclass_littlestone": 2, "labels": 8, "vc": 3}
    assert e.evaluate(values) == 2 * 2 / 8 + 3 - 3
    assert parse_expression("binary_restrictions.1 - -1").evaluate({"binary_restrictions.1": 2}) == 3
    assert parse_expression("log2(hypotheses)").evaluate({"hypotheses": 8}) == 3
    assert parse_expression("vc").dimension_keys() == ["vc"]
    assert parse_expression("psi_littlestone_uniform.B - hypotheses").dimension_keys() == ["psi_littlestone_uniform"]


@pytest.mark.parametrize(
    "text",
    [
        "__import__('os').system('true')",
        "vc.__class__",
        "vc ** 2",
        "vc if vc else 1",
        "[vc]",
        "vc[0]",
        "lambda: 1",
        "open('x')",
        "vc; vc",
        "'a'",
        "",
        "vc == 1",
        "max(vc, key=1)",
        "abs(vc, vc)",
        "x" * 1001,
        "(vc",
        "vc.1.__x__()",
    ],
)
def test_expression_refuses_anything_else(text: str) -> None:
    with pytest.raises(InvalidParameterError):
        parse_expression(text)


@given(st.text(alphabet="abcv_.()+-*/ 0123456789eo'[]:,=<>!~^%&|@", max_size=40))
def test_expression_parser_never_runs_code(text: str) -> None:
    # anything it accepts evaluates with only arithmetic over the names it reports
    try:
        e = parse_expression(text)
    except InvalidParameterError:
        return
    values = {n: 2 for n in e.names}
    try:
        v = e.evaluate(values)
    except (ZeroDivisionError, ValueError, OverflowError):
        return
    assert isinstance(v, (int, float))


# ---------------------------------------------------------------------------- report
@pytest.fixture(scope="module")
def small_db(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("sweep") / "s.db"
    run_sweep(all_items("4x3x2"), db=path, theorems=True)
    run_sweep(all_items("3x2x3"), db=path, dims=["multiclass_littlestone", "psi_littlestone", "binary_restrictions"])
    return path


def test_report_counts_and_distributions(small_db: Path) -> None:
    r = sweep_report(small_db, expressions=["psi_littlestone.bin - multiclass_littlestone"], verify=True)
    assert r.classes == 20 + 47
    assert {(s["hypotheses"], s["points"], s["labels"]): s["classes"] for s in r.sizes} == {
        (4, 3, 2): 20,
        (3, 2, 3): 47,
    }
    assert r.dimensions["vc"]["results"] == 20 and r.dimensions["vc"]["exact"] == 20
    assert sum(r.dimensions["multiclass_littlestone"]["distribution"].values()) == 67
    assert r.theorems["violated"] == 0 and r.theorems["classes"] == 20
    assert r.theorems["holds"] == r.theorems["statements"]
    assert r.verification == {"checked": r.verification["checked"], "failed": []}
    assert r.verification["checked"] == sum(d["results"] for d in r.dimensions.values())
    e = r.extremes[0]
    assert e.evaluated == 67 and e.skipped == 0
    assert e.min_value == 0 and e.max_value >= e.min_value
    assert sum(e.distribution.values()) == 67
    assert r.exit_status == 0
    json.dumps(r.to_json())


def test_extremes_are_the_true_extremes(small_db: Path) -> None:
    db = SweepDB(small_db)
    e = expression_extremes(db, "binary_restrictions.max - multiclass_littlestone")
    rows = db.conn.execute("SELECT class_id, dimension, value FROM results").fetchall()
    per: dict = {}
    for cid, dim, v in rows:
        per.setdefault(cid, {})[dim] = v
    gaps = {
        cid: max(v for k, v in d.items() if k.startswith("binary_restrictions.")) - d["multiclass_littlestone"]
        for cid, d in per.items()
    }
    assert e.max_value == max(gaps.values()) and sorted(e.max_classes) == sorted(
        c for c, g in gaps.items() if g == e.max_value
    )
    assert e.min_value == min(gaps.values())
    # 'vc' is undefined for multiclass classes: those are skipped, not counted as 0
    v = expression_extremes(db, "littlestone - vc")
    assert (v.evaluated, v.skipped) == (20, 47)
    with pytest.raises(InvalidParameterError, match="unknown name 'nope'"):
        expression_extremes(db, "nope + 1")
    db.close()


def test_extremal_class_file_carries_verifiable_witnesses(small_db: Path, tmp_path: Path) -> None:
    from dimcalc.reports.check import check_class

    db = SweepDB(small_db)
    e = expression_extremes(db, "psi_littlestone.B - natarajan")
    H = extremal_class(db, e.max_classes[0], expression=e.expression, value=e.max_value)
    path = tmp_path / "max.json"
    from dimcalc.io import save

    save(H, path)
    G = load(path)
    meta = G.metadata["sweep"]
    assert meta["expression"] == e.expression and meta["value"] == e.max_value
    fresh = check_class(G, dims=["natarajan", "psi_littlestone"])
    assert fresh.dimensions["psi_littlestone"]["B"].value - fresh.dimensions["natarajan"].value == e.max_value
    # the stored witnesses index the saved table: dimcalc's checkers accept them on the loaded class
    from dimcalc.results import DimensionResult
    from dimcalc.sweep.report import verify_result

    for name, d in meta["dimensions"].items():
        r = DimensionResult(
            kind=name.replace(".", ":").replace("binary_restrictions:", "littlestone_restriction:"),
            value=d["value"],
            exact=d["exact"],
            lower=d.get("value", d.get("lower")),
            upper=d.get("value", d.get("upper")),
            witness=d.get("witness"),
            reason=d.get("reason"),
        )
        assert verify_result(G, name, r), name
    db.close()


def test_verify_stored_catches_a_tampered_witness(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    run_sweep(all_items("3x2x2"), db=path, dims=["vc", "littlestone", "binary_restrictions"])
    with sqlite3.connect(path) as c:
        c.execute(
            "UPDATE results SET witness = '[0, 1]', value = 2, lower = 2, upper = 2 "
            "WHERE dimension = 'vc' AND value = 1"
        )
        c.execute(
            "UPDATE results SET witness = '{\"hypothesis\": 0}' WHERE dimension = 'binary_restrictions.1' AND value = 1"
        )
        c.commit()
    db = SweepDB(path)
    out = verify_stored(db)
    assert out["failed"] and {d for _, d in out["failed"]} == {"vc", "binary_restrictions.1"}
    db.close()


# ---------------------------------------------------------------------------- CLI
def test_cli_all_4x3x2_lists_20_classes(capsys) -> None:
    assert main(["sweep", "--all", "4x3x2", "--list"]) == 0
    out = capsys.readouterr().out
    assert out.strip().splitlines()[-1] == "20 classes up to isomorphism (every 4x3x2)"
    assert len(out.strip().splitlines()) == 21


def test_cli_multiclass_count_json(capsys) -> None:
    assert main(["sweep", "--all", "3x3x3", "--list", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["classes"] == 573 == len(data["tables"])


def test_cli_sweep_report_and_save(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "c.db")
    assert main(["sweep", "--all", "4x3x2", "--db", db, "--theorems", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "20 classes (20 new to the database); 20 computed now" in out
    assert main(["sweep", "--all", "4x3x2", "--db", db, "--theorems", "--json"]) == 0
    s = json.loads(capsys.readouterr().out)
    assert (s["classes"], s["computed"], s["already_done"], s["violated"]) == (20, 0, 20, 0)
    best = tmp_path / "best.json"
    assert main(["sweep", "--report", db, "--expr", "littlestone - vc", "--save-max", str(best), "--verify"]) == 0
    out = capsys.readouterr().out
    assert "violated statements: none" in out and "littlestone - vc: over 20 classes (0 skipped): max 1" in out
    assert "failing: 0" in out
    H = load(best)
    assert H.metadata["sweep"]["value"] == 1
    assert main(["check", str(best), "--dims", "vc,littlestone", "--json"]) == 0
    dims = json.loads(capsys.readouterr().out)["dimensions"]
    assert dims["littlestone"]["value"] - dims["vc"]["value"] == 1
    assert main(["sweep", "--report", db, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["classes"] == 20


def test_cli_sweep_files_and_generators(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "f.db")
    assert (
        main(["sweep", "data/thresholds-6.csv", "data/tiny-3.json", "--dims", "vc,littlestone", "--db", db, "--quiet"])
        == 0
    )
    assert (
        main(["sweep", "--generate", "thresholds", "--param", "n=2..6", "--dims", "littlestone", "--db", db, "--json"])
        == 0
    )
    out = capsys.readouterr().out
    s = json.loads(out[out.index("{", out.index("summary")) :])
    assert s["classes"] == 5
    with sqlite3.connect(db) as c:
        values = dict(
            c.execute(
                "SELECT s.source, r.value FROM results r "
                "JOIN class_sources s ON s.class_id = r.class_id "
                "WHERE r.dimension = 'littlestone' AND s.source LIKE 'generate%'"
            ).fetchall()
        )
    # thresholds over n points: LDim = floor(log2(n + 1))
    assert values == {f"generate thresholds --n {n}": (n + 1).bit_length() - 1 for n in range(2, 7)}


@pytest.mark.parametrize(
    "argv, message",
    [
        (["sweep", "--all", "4x3"], "ROWSxCOLSxLABELS"),
        (["sweep", "--all", "9x3x2"], "only 8 distinct"),
        (["sweep", "--random", "4x3x2"], "--random needs --count"),
        (["sweep"], "nothing to sweep"),
        (["sweep", "--report", "/nonexistent.db"], "no such file"),
        (["sweep", "--all", "2x2x2", "--dims", "nope"], "unknown name 'nope'"),
        (["sweep", "--generate", "thresholds", "--param", "q=1"], "has no parameter 'q'"),
        (["sweep", "--generate", "thresholds", "--param", "n=a..b"], "parameter range"),
        (["sweep", "/nonexistent/dir"], "no such file or directory"),
        (["sweep", "--search", "vc + ", "--size", "3x2x2"], "not valid arithmetic"),
        (["sweep", "--search", "foo", "--size", "3x2x2"], "not a dimension"),
        (["sweep", "--search", "vc"], "--search needs --size"),
        (["sweep", "--all", "2x2x2", "--expr", "vc"], "go with --report"),
        (["sweep", "--all", "2x2x2", "--jobs", "0"], "--jobs"),
    ],
)
def test_cli_refuses_bad_input_with_one_line(argv, message, capsys, tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    if "--all" in argv and "--list" not in argv:
        argv = argv + ["--db", str(tmp_path / "x.db")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_cli_report_of_a_violation_exits_1(tmp_path: Path, capsys) -> None:
    db = tmp_path / "v.db"
    run_sweep(all_items("2x2x2"), db=db, dims=[], theorems=True, representation=False)
    with sqlite3.connect(db) as c:
        c.execute("UPDATE theorems SET holds = 'false' WHERE position = 0 AND class_id = 1")
        c.commit()
    assert main(["sweep", "--report", str(db)]) == 1
    out = capsys.readouterr().out
    assert "VIOLATED statements" in out and "class 1: BGS Lemma 4.5" in out


def test_cli_search_writes_the_best_class(tmp_path: Path, capsys) -> None:
    out_file = tmp_path / "best.json"
    assert (
        main(
            [
                "sweep",
                "--search",
                "binary_restrictions.max - multiclass_littlestone",
                "--size",
                "4x4x8",
                "--seed",
                "3",
                "--target",
                "1",
                "-o",
                str(out_file),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "best 1" in out and "witnesses verified by dimcalc's checkers: yes" in out
    H = load(out_file)
    assert (H.n_distinct, H.n_points, H.num_labels) == (4, 4, 8)
    assert H.metadata["search"]["value"] == 1


def test_user_family_sweep(tmp_path: Path) -> None:
    db = tmp_path / "u.db"
    fam = [[0, 1, None], [None, 0, 1]]
    s = run_sweep(all_items("3x2x3"), db=db, dims=["psi_littlestone"], family=fam)
    assert s.exit_status == 0
    with sqlite3.connect(db) as c:
        assert c.execute("SELECT COUNT(*) FROM results WHERE dimension = 'psi_littlestone.user'").fetchone()[0] == 47
    assert verify_stored(SweepDB(db))["failed"] == []
    with pytest.raises(InvalidParameterError, match="another user"):
        run_sweep(all_items("3x2x3"), db=db, dims=["psi_littlestone"], family=[[0, 1, 1]])
    with pytest.raises(InvalidParameterError, match="does not fit"):
        run_sweep(all_items("2x2x2"), db=db, dims=["psi_littlestone"], family=fam)


def test_cli_time_limit_stores_bounds_and_retry_completes_them(tmp_path: Path, capsys) -> None:
    db = str(tmp_path / "tl.db")
    assert main(["sweep", "--random", "80x12x4", "--count", "1", "--time-limit", "0.002", "--db", db, "--json"]) == 3
    first = json.loads(capsys.readouterr().out)
    assert first["inexact"] > 0
    with sqlite3.connect(db) as c:
        exact_before = dict(c.execute("SELECT dimension, witness FROM results WHERE exact = 1").fetchall())
        bounds = c.execute("SELECT COUNT(*) FROM results WHERE exact = 0 AND lower <= upper").fetchone()[0]
    assert bounds == first["inexact"]
    assert main(["sweep", "--random", "80x12x4", "--count", "1", "--db", db, "--json"]) == 3  # resumed: kept
    assert json.loads(capsys.readouterr().out)["computed"] == 0
    assert main(["sweep", "--random", "80x12x4", "--count", "1", "--retry-inexact", "--db", db, "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["computed"] == 1 and again["inexact"] == 0
    with sqlite3.connect(db) as c:
        after = dict(c.execute("SELECT dimension, witness FROM results").fetchall())
        assert (
            c.execute("SELECT COUNT(*) FROM results GROUP BY class_id, dimension HAVING COUNT(*) > 1").fetchall() == []
        )
    assert all(after[k] == w for k, w in exact_before.items())  # exact results were never replaced
    assert verify_stored(SweepDB(db))["failed"] == []
