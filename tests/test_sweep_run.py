"""Sweeps into SQLite: resume after kill -9, concurrent writers, process pool and Dask equal one process,
the theorem report over every class of a small size."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from dimcalc import HypothesisClass
from dimcalc.sweep import SweepDB, all_items, file_items, generator_items, random_items, run_sweep
from dimcalc.sweep.canonical import canonical_form

ROOT = Path(__file__).resolve().parent.parent
DIMS = ["natarajan", "multiclass_littlestone", "psi_littlestone", "binary_restrictions"]


def content(path: Path) -> dict:
    """The database's meaning, independent of ids, timings and which run computed what."""
    c = sqlite3.connect(path)
    classes = {
        cid: (h, n, p, lab, t)
        for cid, h, n, p, lab, t in c.execute(
            'SELECT id, canonical_hash, hypotheses, points, labels, "table" FROM classes'
        )
    }
    results = sorted(
        (classes[row[0]][0], *row[1:])
        for row in c.execute(
            "SELECT class_id, dimension, value, exact, lower, upper, witness, kind, reason, verified FROM results"
        )
    )
    theorems = sorted(
        (classes[row[0]][0], *row[1:])
        for row in c.execute(
            "SELECT class_id, position, source, statement, lhs, relation, rhs, exact, holds FROM theorems"
        )
    )
    completed = sorted((classes[cid][0], item) for cid, item in c.execute("SELECT class_id, item FROM completed"))
    c.close()
    return {"classes": sorted(classes.values()), "results": results, "theorems": theorems, "completed": completed}


def no_duplicates(path: Path) -> None:
    c = sqlite3.connect(path)
    assert (
        c.execute(
            "SELECT COUNT(*) FROM (SELECT class_id, dimension FROM results GROUP BY 1, 2 HAVING COUNT(*) > 1)"
        ).fetchone()[0]
        == 0
    )
    assert (
        c.execute(
            "SELECT COUNT(*) FROM (SELECT canonical_hash FROM classes GROUP BY 1 HAVING COUNT(*) > 1)"
        ).fetchone()[0]
        == 0
    )
    assert c.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    c.close()


# ---------------------------------------------------------------------------- basics
def test_sweep_stores_every_class_once_and_resumes_with_nothing_to_do(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    s = run_sweep(all_items("4x3x2"), db=db, dims=["vc", "littlestone", "binary_restrictions"])
    assert (s.classes, s.new_classes, s.computed, s.already_done, s.exit_status) == (20, 20, 20, 0, 0)
    again = run_sweep(all_items("4x3x2"), db=db, dims=["vc", "littlestone", "binary_restrictions"])
    assert (again.classes, again.new_classes, again.computed, again.already_done) == (20, 0, 0, 20)
    more = run_sweep(all_items("4x3x2"), db=db, dims=["vc", "natarajan"])  # only the new key is computed
    assert more.computed == 20
    c = sqlite3.connect(db)
    assert c.execute("SELECT COUNT(*) FROM results WHERE dimension = 'vc'").fetchone()[0] == 20
    assert c.execute("SELECT COUNT(*) FROM results").fetchone()[0] == 20 * 4
    assert c.execute("SELECT COUNT(*) FROM results WHERE verified = 1").fetchone()[0] == 80
    # every stored value agrees with a fresh computation on the stored table
    for cid, table, labels in c.execute('SELECT id, "table", labels FROM classes'):
        H = HypothesisClass(json.loads(table), num_labels=labels)
        from dimcalc import littlestone_dimension, vc_dimension

        stored = dict(c.execute("SELECT dimension, value FROM results WHERE class_id = ?", (cid,)).fetchall())
        assert stored["vc"] == vc_dimension(H).value
        assert stored["littlestone"] == littlestone_dimension(H).value == stored["binary_restrictions.1"]
    no_duplicates(db)


def test_isomorphic_inputs_are_one_class(tmp_path: Path) -> None:
    from dimcalc.io import save

    A = HypothesisClass.from_table([[0, 0, 1], [0, 1, 1], [1, 1, 1]], name="a")
    B = HypothesisClass.from_table([[1, 1, 1], [1, 0, 0], [1, 1, 0]], name="b")  # A with columns reversed
    save(A, tmp_path / "a.json")
    save(B, tmp_path / "b.csv")
    s = run_sweep(file_items([tmp_path]), db=tmp_path / "s.db", dims=["vc"])
    assert (s.classes, s.computed) == (1, 1)
    c = sqlite3.connect(tmp_path / "s.db")
    assert sorted(x for (x,) in c.execute("SELECT source FROM class_sources")) == [
        f"file {tmp_path / 'a.json'}",
        f"file {tmp_path / 'b.csv'}",
    ]
    assert c.execute('SELECT "table" FROM classes').fetchone()[0] == json.dumps(
        canonical_form(A).table.tolist(), separators=(",", ":")
    )


def test_sources_random_and_generator(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    s = run_sweep(random_items("5x3x3", count=6, seed=2), db=db, dims=["natarajan"])
    assert s.classes <= 6 and s.computed == s.classes
    g = run_sweep(generator_items("bgs-thm61", ["k=5..7", "d=1"]), db=db, dims=["multiclass_littlestone"])
    assert g.classes == 3
    c = sqlite3.connect(db)
    srcs = {x for (x,) in c.execute("SELECT source FROM class_sources")}
    assert "generate bgs-thm61 --k 7 --d 1" in srcs
    assert "random --hypotheses 5 --points 3 --labels 3 --seed 7" in srcs
    assert {v for (v,) in c.execute("SELECT value FROM results WHERE dimension = 'multiclass_littlestone'")} == {1}


def test_time_limited_results_are_bounds_and_retry_replaces_only_them(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    d = SweepDB(db)
    ids = d.add_classes([(canonical_form(HypothesisClass.from_table([[0, 1], [1, 0]])), None, "test")])
    run_id = d.start_run("test", "serial")
    # an inexact row (as a time limit leaves it) and an exact one
    d.store_outcome(
        ids[0],
        run_id,
        results=[
            ("vc", None, 0, 0, 2, 0.1, None, "vc", None, 1),
            ("littlestone", 1, 1, 1, 1, 0.1, '{"point": 0}', "littlestone", None, 0),
        ],
        theorems=[],
        completed=[("vc", 0.1), ("littlestone", 0.1)],
        errors=[],
    )
    d.store_outcome(
        ids[0],
        run_id,
        results=[
            ("vc", 1, 1, 1, 1, 0.1, "[0]", "vc", None, 1),
            ("littlestone", 5, 1, 5, 5, 0.1, "null", "littlestone", None, 1),
        ],
        theorems=[],
        completed=[("vc", 0.1), ("littlestone", 0.1)],
        errors=[],
    )
    rows = dict(d.conn.execute("SELECT dimension, value FROM results").fetchall())
    assert rows == {"vc": 1, "littlestone": 1}  # the exact row was kept, the inexact one replaced
    assert d.completed_items(ids, ["vc"], retry_inexact=True) == {ids[0]: {"vc"}}
    d.close()


def test_bad_database_files_are_refused(tmp_path: Path) -> None:
    from dimcalc.errors import InvalidParameterError

    junk = tmp_path / "junk.db"
    junk.write_text("not sqlite " * 100)
    with pytest.raises(InvalidParameterError, match="not a dimcalc sweep database"):
        SweepDB(junk)
    with pytest.raises(InvalidParameterError, match="is a directory"):
        SweepDB(tmp_path)


# ---------------------------------------------------------------------------- kill -9 and resume
def _sweep_cmd(db: Path, size: str, *extra: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "dimcalc",
        "sweep",
        "--all",
        size,
        "--dims",
        ",".join(DIMS),
        "--db",
        str(db),
        "--quiet",
        *extra,
    ]


@pytest.mark.slow  # kills and resumes a sweep process: make test runs it, make test-fast does not
def test_resume_after_kill_recomputes_nothing_and_loses_nothing(tmp_path: Path) -> None:
    size = "3x2x3"  # 47 classes; with the theorem report about a second in one process
    db = tmp_path / "killed.db"
    proc = subprocess.Popen(
        _sweep_cmd(db, size, "--theorems"), cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    done = 0
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if db.exists():
            try:
                with sqlite3.connect(db, timeout=5) as c:
                    done = c.execute("SELECT COUNT(DISTINCT class_id) FROM completed").fetchone()[0]
            except sqlite3.OperationalError:
                done = 0  # schema not created yet
            if done >= 8:
                break
        time.sleep(0.01)
    assert proc.poll() is None, f"the sweep ended before it could be killed: {proc.stderr.read()!r}"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    with sqlite3.connect(db) as c:
        committed = c.execute("SELECT class_id, dimension FROM results").fetchall()
        committed_classes = {cid for (cid,) in c.execute("SELECT DISTINCT class_id FROM completed")}
        assert c.execute("SELECT COUNT(*) FROM classes").fetchone()[0] == 47
    assert 8 <= len(committed_classes) < 47
    # every committed class has all its results (one transaction per class)
    assert {cid for cid, _ in committed} == committed_classes

    out = subprocess.run(
        _sweep_cmd(db, size, "--theorems", "--json"), cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert summary["already_done"] == len(committed_classes)
    assert summary["computed"] == 47 - len(committed_classes)
    no_duplicates(db)
    with sqlite3.connect(db) as c:
        first_run = {(cid, dim) for cid, dim in c.execute("SELECT class_id, dimension FROM results WHERE run_id = 1")}
        runs = c.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
    assert first_run == set(committed), "a result committed before the kill was recomputed"
    assert runs == 2

    clean = tmp_path / "clean.db"
    run_sweep(all_items(size), db=clean, dims=DIMS, theorems=True)
    assert content(db) == content(clean)


def test_two_sweeps_writing_one_file(tmp_path: Path) -> None:
    db = tmp_path / "shared.db"
    procs = [
        subprocess.Popen(
            _sweep_cmd(db, "3x2x3") + ["--theorems", "--no-representation"],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        for _ in range(2)
    ]
    for p in procs:
        assert p.wait(timeout=300) == 0, p.stderr.read()
    no_duplicates(db)
    clean = tmp_path / "clean.db"
    run_sweep(all_items("3x2x3"), db=clean, dims=DIMS, theorems=True, representation=False)
    assert content(db) == content(clean)


# ---------------------------------------------------------------------------- executors
def test_process_pool_equals_one_process(tmp_path: Path) -> None:
    run_sweep(all_items("4x3x2"), db=tmp_path / "one.db", dims=DIMS, theorems=True)
    s = run_sweep(all_items("4x3x2"), db=tmp_path / "pool.db", dims=DIMS, theorems=True, jobs=2)
    assert s.executor == "processes:2" and s.computed == 20
    assert content(tmp_path / "one.db") == content(tmp_path / "pool.db")


@pytest.mark.slow  # starts a Dask LocalCluster: make test runs it, make test-fast does not
def test_dask_local_cluster_equals_one_process(tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    run_sweep(all_items("3x2x3"), db=tmp_path / "one.db", dims=DIMS, theorems=True)
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, protocol="tcp", dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        s = run_sweep(
            all_items("3x2x3"), db=tmp_path / "dask.db", dims=DIMS, theorems=True, client=client, chunk_size=4
        )
        assert s.executor.startswith("dask:") and s.computed == 47
        # the CLI path: --scheduler dask://HOST:PORT
        from dimcalc.cli import main

        address = cluster.scheduler_address.replace("tcp://", "dask://")
        assert (
            main(
                [
                    "sweep",
                    "--all",
                    "4x3x2",
                    "--dims",
                    "vc,littlestone",
                    "--db",
                    str(tmp_path / "cli.db"),
                    "--scheduler",
                    address,
                    "--quiet",
                ]
            )
            == 0
        )
    assert content(tmp_path / "one.db") == content(tmp_path / "dask.db")
    assert len(content(tmp_path / "cli.db")["classes"]) == 20


# ---------------------------------------------------------------------------- theorem report
@pytest.mark.parametrize("size", ["4x3x2", "3x2x3"])
def test_theorem_report_over_every_class_of_a_small_size_has_no_violation(tmp_path: Path, size: str) -> None:
    s = run_sweep(all_items(size), db=tmp_path / "t.db", dims=[], theorems=True)
    assert s.theorems_checked > 10 * s.classes
    assert (s.violated, s.unknown, s.errors) == (0, 0, 0)
    with sqlite3.connect(tmp_path / "t.db") as c:
        sources = {x for (x,) in c.execute("SELECT DISTINCT source FROM theorems")}
        assert c.execute("SELECT COUNT(*) FROM theorems WHERE holds != 'true' OR exact = 0").fetchone()[0] == 0
    assert {"BGS Lemma 4.5", "BGS Claim 4.7", "BGS Thm 3.4", "BGS Thm 7.1", "BGS Thm 8.8"} <= sources


def test_a_violation_is_reported(tmp_path: Path, monkeypatch) -> None:
    # a deliberately broken theorem report must surface as a violation with exit status 1
    import dimcalc.reports.theorems as th
    import dimcalc.sweep.compute as compute

    real = th.theorem_report

    def broken(H, **kwargs):
        checks = real(H, **kwargs)
        c = checks[0]
        return [th.TheoremCheck(c.source, c.statement, th.Side.point(5, "x"), "<=", th.Side.point(1, "y"), False)]

    monkeypatch.setattr(compute, "theorem_report", broken)
    s = run_sweep(all_items("2x2x2"), db=tmp_path / "v.db", dims=[], theorems=True)
    assert s.violated == s.classes == 4 and s.exit_status == 1


def test_worker_failure_is_recorded_not_raised(tmp_path: Path, monkeypatch) -> None:
    import dimcalc.sweep.compute as compute

    def boom(*args, **kwargs):
        raise RuntimeError("solver bug")

    monkeypatch.setattr(compute, "check_class", boom)
    s = run_sweep(all_items("2x2x2"), db=tmp_path / "e.db", dims=["vc"])
    assert s.errors == 4 and s.exit_status == 1
    monkeypatch.undo()
    again = run_sweep(all_items("2x2x2"), db=tmp_path / "e.db", dims=["vc"])  # failed classes are retried
    assert again.computed == 4 and again.errors == 0


def test_progress_bar_line(capsys) -> None:
    import io

    from dimcalc.sweep.progress import ProgressBar

    stream = io.StringIO()
    bar = ProgressBar(4, stream=stream, interval=0.0)
    bar.update(1)
    bar.update(4)
    bar.close()
    lines = stream.getvalue().splitlines()
    assert lines[0].startswith("sweep [") and " 1/4 " in lines[0] and "classes/s" in lines[0] and "ETA" in lines[0]
    assert " 4/4 100%" in lines[-1] and len(lines) == 2


def test_keyboard_interrupt_keeps_committed_work(tmp_path: Path, monkeypatch) -> None:
    import dimcalc.sweep.run as run_mod

    real = run_mod.compute_chunk
    calls = {"n": 0}

    def interrupted(chunk, options):
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        return real(chunk, options)

    monkeypatch.setattr(run_mod, "compute_chunk", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run_sweep(all_items("4x3x2"), db=tmp_path / "i.db", dims=["vc"])
    monkeypatch.undo()
    s = run_sweep(all_items("4x3x2"), db=tmp_path / "i.db", dims=["vc"])
    assert (s.already_done, s.computed) == (3, 17)


def test_concurrent_threads_share_a_database(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    errors: list[BaseException] = []

    def work() -> None:
        try:
            run_sweep(all_items("4x3x2"), db=db, dims=["vc", "littlestone"])
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    no_duplicates(db)
    assert len(content(db)["results"]) == 40


# ---------------------------------------------------------------------------- stored values vs definitions
@pytest.mark.parametrize("size", ["4x3x2", "3x2x3"])
def test_stored_values_match_brute_force(tmp_path: Path, size: str) -> None:
    # every name of the results table holds the dimension it names (brute force at definition level)
    from brute_littlestone import brute_littlestone, brute_multiclass_littlestone, brute_psi_littlestone
    from brute_vc import brute_graph, brute_natarajan, brute_vc

    run_sweep(all_items(size), db=tmp_path / "b.db")
    c = sqlite3.connect(tmp_path / "b.db")
    for cid, table, labels in c.execute('SELECT id, "table", labels FROM classes').fetchall():
        rows = json.loads(table)
        H = HypothesisClass(rows, num_labels=labels)
        got = dict(c.execute("SELECT dimension, value FROM results WHERE class_id = ?", (cid,)).fetchall())
        n = len(rows[0])
        assert got["natarajan"] == brute_natarajan(rows, n)[0]
        assert got["graph"] == brute_graph(rows, n)[0]
        assert got["multiclass_littlestone"] == brute_multiclass_littlestone(H)
        for fam in ("N", "bin", "B"):
            assert got[f"psi_littlestone.{fam}"] == brute_psi_littlestone(H, fam)
            assert got[f"psi_littlestone_uniform.{fam}"] == brute_psi_littlestone(H, fam, True)
        bits = max(1, (labels - 1).bit_length())
        for i in range(1, bits + 1):
            Hi = HypothesisClass([[(v >> (i - 1)) & 1 for v in r] for r in rows], num_labels=2)
            assert got[f"binary_restrictions.{i}"] == brute_littlestone(Hi)
        if labels == 2:
            assert got["vc"] == brute_vc(rows, n)[0]
            assert got["littlestone"] == brute_littlestone(H)
        else:
            assert got["vc"] is None and got["littlestone"] is None


@pytest.mark.slow
def test_dask_worker_lost_mid_sweep_is_rerun(tmp_path: Path) -> None:
    # two worker processes; one is killed with SIGKILL while tasks run: Dask re-runs its tasks elsewhere
    distributed = pytest.importorskip("distributed")
    run_sweep(all_items("3x2x3"), db=tmp_path / "one.db", dims=DIMS, theorems=True)
    db = tmp_path / "lost.db"
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=50
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        pids = list(client.run(os.getpid).values())
        result: dict = {}

        def sweep() -> None:
            result["summary"] = run_sweep(
                all_items("3x2x3"), db=db, dims=DIMS, theorems=True, client=client, chunk_size=1
            )

        worker = threading.Thread(target=sweep)
        worker.start()
        deadline = time.monotonic() + 120
        killed = False
        while time.monotonic() < deadline and worker.is_alive():
            try:
                with sqlite3.connect(db, timeout=5) as c:
                    done = c.execute("SELECT COUNT(DISTINCT class_id) FROM completed").fetchone()[0]
            except sqlite3.OperationalError:
                done = 0
            if done >= 5:
                os.kill(pids[0], signal.SIGKILL)
                killed = True
                break
            time.sleep(0.01)
        worker.join(timeout=300)
    assert killed, "the sweep ended before a worker could be killed"
    assert result["summary"].computed == 47 and result["summary"].exit_status == 0
    no_duplicates(db)
    assert content(db) == content(tmp_path / "one.db")
