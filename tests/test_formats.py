"""--format table|json|csv|markdown|latex on check, sample-size, theorems and sweep --report (dimcalc.cli.formats)."""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path

import pytest

from dimcalc.cli import main
from dimcalc.cli.formats import Math, render

DATA = Path(__file__).resolve().parent.parent / "data"
THRESHOLDS = str(DATA / "thresholds-8.json")
MULTI = str(DATA / "random-multiclass.json")


def _run(capsys, *argv: str) -> tuple[int, str]:
    status = main(list(argv))
    return status, capsys.readouterr().out


def test_render_escapes_each_format() -> None:
    rows = [["a|b", '"q", r', "50% & $x_1$ {#} ~^\\", None, True, Math("x**2", "x^{2}")]]
    header = ["h1", "h2", "h3", "h4", "h5", "h6"]
    parsed = list(csv.reader(io.StringIO(render("csv", header, rows))))
    assert parsed == [header, ["a|b", '"q", r', "50% & $x_1$ {#} ~^\\", "", "yes", "x**2"]]
    md = render("markdown", header, rows).splitlines()
    assert len(md) == 3 and md[2].count(" | ") == 5 and "a\\|b" in md[2] and "$x^{2}$" in md[2]
    tex = render("latex", header, rows)
    body = tex.splitlines()[4]
    assert body.count(" & ") == 5 and body.endswith(" \\\\")
    assert r"50\% \& \$x\_1\$ \{\#\} \textasciitilde{}\textasciicircum{}\textbackslash{}" in body
    assert "$x^{2}$" in body and tex.startswith("\\begin{tabular}{llllll}") and "\\bottomrule" in tex


@pytest.mark.parametrize("path", [THRESHOLDS, MULTI])
def test_check_csv_has_the_numbers_of_the_json(capsys, path) -> None:
    status, out = _run(capsys, "check", path, "--format", "csv", "--time-limit", "60")
    assert status == 0
    rows = list(csv.DictReader(io.StringIO(out)))
    _, js = _run(capsys, "check", path, "--format", "json", "--time-limit", "60")
    dims = json.loads(js)["dimensions"]
    expected = []
    for key, value in dims.items():
        if isinstance(value, dict) and "exact" not in value:
            expected += [(key, fam, r) for fam, r in value.items()]
        elif isinstance(value, list):
            expected += [(key, f"i={i}", r) for i, r in enumerate(value, start=1)]
        else:
            expected.append((key, "", value))
    assert [(r["dimension"], r["variant"]) for r in rows] == [(k, v) for k, v, _ in expected]
    for row, (_, _, r) in zip(rows, expected):
        assert row["value"] == ("" if r["value"] is None else str(r["value"]))
        assert row["exact"] == ("yes" if r["exact"] else "no")


def test_check_markdown_and_latex(capsys) -> None:
    status, md = _run(capsys, "check", THRESHOLDS, "--format", "markdown", "--dims", "vc,littlestone")
    assert status == 0
    assert "| vc |  | 1 | yes | 1 | 1 |" in md and "| littlestone |  | 3 | yes |" in md
    status, tex = _run(capsys, "check", THRESHOLDS, "--format", "latex", "--dims", "vc,littlestone")
    assert status == 0 and "\\toprule" in tex and "littlestone &  & 3 & yes & 3 & 3" in tex


def test_json_and_format_json_are_one_output(capsys) -> None:
    _, a = _run(capsys, "theorems", THRESHOLDS, "--json")
    _, b = _run(capsys, "theorems", THRESHOLDS, "--format", "json")
    assert json.loads(a) == json.loads(b)


def test_json_with_another_format_is_refused(capsys) -> None:
    assert main(["check", THRESHOLDS, "--json", "--format", "csv"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--json and --format csv" in err


def test_theorems_csv_matches_the_json(capsys) -> None:
    status, out = _run(capsys, "theorems", THRESHOLDS, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    _, js = _run(capsys, "theorems", THRESHOLDS, "--json")
    checks = json.loads(js)
    assert status == 0 and len(rows) == len(checks)
    for row, c in zip(rows, checks):
        assert (row["source"], row["statement"], row["relation"]) == (c["source"], c["statement"], c["relation"])
        assert row["holds"] == {True: "yes", False: "no"}.get(c["holds"], "unknown")
        if c["exact"]:
            assert row["lhs"] == (f"{c['lhs']:.6g}" if isinstance(c["lhs"], float) else str(c["lhs"]))


def test_sample_size_formats(capsys) -> None:
    args = ["sample-size", THRESHOLDS, "--alpha", "0.1", "--beta", "0.1", "--epsilon", "1"]
    status, out = _run(capsys, *args, "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    _, js = _run(capsys, *args, "--json")
    table = json.loads(js)["rows"]
    assert status == 0 and [r["bound"] for r in rows] == [r["name"] for r in table]
    assert [r["samples"] for r in rows] == [str(r["samples"]) for r in table]
    assert [r["expression"] for r in rows] == [r["expression"] for r in table]
    _, tex = _run(capsys, *args, "--format", "latex")
    assert all(f"${r['latex']}$" in tex for r in table)


def test_sweep_report_formats_and_refusal(capsys, tmp_path) -> None:
    db = str(tmp_path / "s.db")
    assert main(["sweep", "--all", "3x2x2", "--dims", "vc,littlestone", "--db", db, "--quiet"]) == 0
    capsys.readouterr()
    status, out = _run(capsys, "sweep", "--report", db, "--format", "markdown", "--expr", "littlestone - vc")
    _, js = _run(capsys, "sweep", "--report", db, "--json", "--expr", "littlestone - vc")
    report = json.loads(js)
    assert status == 0
    for name, d in report["dimensions"].items():
        assert f"| {name} | {d['results']} | {d['exact']} |" in out
    assert "**extremes**" in out and "| littlestone - vc |" in out
    assert main(["sweep", "--all", "3x2x2", "--list", "--format", "csv"]) == 2
    assert "goes with --report" in capsys.readouterr().err


@pytest.mark.slow  # runs bench suites: make test runs it, make test-fast does not
def test_bench_markdown_is_a_page_with_one_table_per_suite(capsys) -> None:
    status, page = _run(capsys, "bench", "--quick", "--suite", "vc", "--repeat", "1", "--markdown")
    _, js = _run(capsys, "bench", "--quick", "--suite", "vc", "--repeat", "1", "--json")
    rows = json.loads(js)
    assert status == 0 and page.startswith("# Benchmarks\n") and "load average" in page and "\n## vc\n" in page
    table = [line for line in page.splitlines() if line.startswith("| ") and not line.startswith("| ---")]
    assert len(table) == 1 + len(rows)  # the header and one line per case
    for r in rows:
        assert any(line.startswith(f"| {r['case']} | {r['answer']} |") for line in table)


def test_bench_markdown_writes_the_core_speeds_before_and_after() -> None:
    """The yardstick beside the figures (dimcalc.bench.core_speeds): each core's seconds, before and after."""
    from dimcalc.bench import BenchOptions, core_speeds
    from dimcalc.cli.formats import bench_markdown

    page = bench_markdown(
        ["suite", "case"], [["vc", "tiny"]], {"vc": "VC"}, BenchOptions(), ({0: 0.1, 1: 0.25}, {0: 0.3})
    )
    assert "0.10 / 0.25 before the suites, 0.30 after" in page
    assert "Core speed" not in bench_markdown(["suite", "case"], [["vc", "tiny"]], {"vc": "VC"}, BenchOptions())
    allowed = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else set()
    assert set(core_speeds(1000)) <= set(allowed) | {-1}
