"""Bounds kept and shared by ``check`` (issue 22 item 5).

* every stopped dimension is tightened by the proven relations between dimensions
  (BGS Lemma 4.5, Claims 4.6-4.7; on binary classes LDim = MLD = Ψ-LD and VC = Natarajan = graph);
  a lower bound carried over comes with a witness its own checker certifies;
* Ctrl-C prints the bounds proven so far (exit 130);
* a memory-budget stop is reported as such.

The soundness test degrades exact reports at random and checks that tightening never leaves a
bound the exact value breaks: a false relation (break one in ``RELATIONS`` on purpose) fails it.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dimcalc import HypothesisClass
from dimcalc.cli import main
from dimcalc.reports import check as check_module
from dimcalc.reports import relations
from dimcalc.reports.check import _results, _tighten_by_relations, check_class
from dimcalc.results import DimensionResult
from profile_examples import examples
from strategies import classes

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"


def _degrade(r: DimensionResult, rng: random.Random) -> DimensionResult:
    """A stopped run of the same search: the exact value's witness or a leaf (lower 0), a loose upper."""
    if r.value is None or not r.exact or r.lower is None or rng.random() < 0.3:
        return r
    keep = rng.random() < 0.5
    lower, witness = (r.lower, r.witness) if keep else (0, _leaf(r))
    if witness is None:
        return r
    upper = r.value + (0 if rng.random() < 0.5 else rng.randint(1, 5))
    return DimensionResult.bounds(r.kind, lower, upper, witness, stopped="time limit")


def _leaf(r: DimensionResult):
    """A witness of lower bound 0 in the result's own format: a leaf tree, or the empty shattered set."""
    if isinstance(r.witness, list):
        return type(r.witness)([])
    if isinstance(r.witness, dict) and "points" in r.witness:
        return type(r.witness)({key: [] for key in r.witness})
    w: Any = r.witness
    if isinstance(w, dict) and ("point" in w or "hypothesis" in w):
        psi: Any = w  # a PsiTree carries its family and uniformity
        extra = {"family": psi.family, "uniform": psi.uniform} if hasattr(w, "family") else {}
        return type(w)({"hypothesis": 0}, **extra)
    return None


def _degraded_report(H: HypothesisClass, seed: int) -> tuple[dict, dict]:
    report = check_class(H)
    assert report.complete
    exact = {k: v for k, v in report.dimensions.items()}
    rng = random.Random(seed)
    dims: dict = {}
    for key, value in exact.items():
        if isinstance(value, DimensionResult):
            dims[key] = _degrade(value, rng)
        elif isinstance(value, dict):
            dims[key] = {f: _degrade(r, rng) for f, r in value.items()}
        else:
            dims[key] = [_degrade(r, rng) for r in value]
    return exact, dims


def _pairs(exact, dims):
    for key in exact:
        a, b = exact[key], dims[key]
        if isinstance(a, DimensionResult):
            yield key, a, b
        elif isinstance(a, dict):
            for f in a:
                yield f"{key}.{f}", a[f], b[f]
        else:
            for i, (x, y) in enumerate(zip(a, b), start=1):
                yield f"{key}.{i}", x, y


def _assert_sound(H: HypothesisClass, seed: int) -> None:
    exact, dims = _degraded_report(H, seed)
    _tighten_by_relations(dims, binary=H.is_binary, H=H)
    for name, truth, got in _pairs(exact, dims):
        if truth.value is None:
            continue
        assert got.lower <= truth.value, (name, got, truth)
        assert got.upper is None or truth.value <= got.upper, (name, got, truth)
        assert got.verify(H, debug=True), name


@settings(max_examples=examples(40), deadline=None)
@given(classes(max_labels=4, max_points=4, max_rows=8, biased=True), st.integers(0, 10**6))
def test_tightening_is_sound_and_every_carried_lower_bound_is_certified(H, seed):
    _assert_sound(H, seed)


def test_tightening_is_sound_on_multiclass_classes_with_gaps():
    """Seeded random classes with 3-4 labels, where Natarajan < graph and MLD < Ψ^B-LD are common."""
    rng = np.random.default_rng(2026)
    for seed in range(60):
        k, n, r = int(rng.integers(2, 5)), int(rng.integers(2, 5)), int(rng.integers(3, 9))
        _assert_sound(HypothesisClass(rng.integers(0, k, (r, n)), num_labels=k), seed)


def _value(dimensions: dict, name: str) -> int | None:
    key, _, sub = name.partition(".")
    v = dimensions.get(key)
    if isinstance(v, list) and sub == "max":
        return max(r.value for r in v)
    if isinstance(v, dict):
        v = v.get(sub)
    return None if v is None else v.value


def test_every_relation_used_holds_on_exact_values():
    """Each relation of ``RELATIONS`` (and ``BINARY_EQUAL`` on binary classes) on exact values of seeded
    random classes; each is seen strict at least once where it can be (so a reversed one fails here)."""
    rng = np.random.default_rng(7)
    strict = set()
    for _ in range(60):
        k, n, r = int(rng.integers(2, 5)), int(rng.integers(2, 5)), int(rng.integers(3, 9))
        H = HypothesisClass(rng.integers(0, k, (r, n)), num_labels=k)
        dims = check_class(H).dimensions
        for small, big, source in relations.RELATIONS:
            a, b = _value(dims, small), _value(dims, big)
            if a is None or b is None:
                continue
            assert a <= b, (small, big, source, a, b, H.table.tolist())
            if a < b:
                strict.add((small, big))
        if H.is_binary:
            for group in relations.BINARY_EQUAL:
                values = {_value(dims, name) for name in group} - {None}
                assert len(values) == 1, (group, values)
    assert ("natarajan", "graph") in strict and ("natarajan", "multiclass_littlestone") in strict


def test_binary_class_shares_one_littlestone_interval_with_witnesses():
    """The issue's case: LDim [4, 17] beside MLD [3, 17] and Ψ^B [2, 17] on a binary class."""
    H = HypothesisClass.from_table([[int(j >= i) for j in range(15)] for i in range(16)])  # thresholds, LDim 4
    report = check_class(H, ["littlestone", "multiclass_littlestone", "psi_littlestone"])
    ld = report.dimensions["littlestone"]
    assert ld.value == 4
    dims = {
        "littlestone": DimensionResult.bounds("littlestone", 4, 17, ld.witness),
        "multiclass_littlestone": DimensionResult.bounds("multiclass_littlestone", 0, 17, {"hypothesis": 0}),
        "psi_littlestone": {
            f: DimensionResult.bounds(r.kind, 0, 17 - i, type(r.witness)({"hypothesis": 0}, family=f))
            for i, (f, r) in enumerate(report.dimensions["psi_littlestone"].items())
        },
    }
    _tighten_by_relations(dims, binary=True, H=H)
    results = _results(dims)
    assert {(r.lower, r.upper) for r in results} == {(4, 15)}
    assert all(r.verify(H, debug=True) for r in results)
    assert dims["multiclass_littlestone"].stats["lower_from"] == "littlestone"


def test_psi_b_takes_psi_bin_lower_bound_bgs_claim_4_7():
    H = HypothesisClass.from_table([[0, 1, 2, 3], [1, 2, 3, 0], [2, 3, 0, 1], [3, 0, 1, 2], [0, 0, 0, 0]])
    psi = check_class(H, ["psi_littlestone"]).dimensions["psi_littlestone"]
    binr = psi["bin"]
    assert binr.exact and binr.value >= 1
    dims = {
        "psi_littlestone": {
            "N": psi["N"],
            "bin": binr,
            "B": DimensionResult.bounds("psi_littlestone:B", 0, 9, type(binr.witness)({"hypothesis": 0}, family="B")),
        }
    }
    _tighten_by_relations(dims, H=H)
    b = dims["psi_littlestone"]["B"]
    assert b.lower == binr.value and b.stats["lower_relation"] == "BGS Claim 4.7" and b.verify(H, debug=True)


def test_relations_cite_their_source():
    for small, big, source in relations.RELATIONS:
        assert source and small != big


# ------------------------------------------------------------------ Ctrl-C and the stop reason
def test_ctrl_c_prints_the_bounds_proven_so_far(monkeypatch, capsys):
    real = check_module._solvers

    def solvers(family=None):
        out = real(family)

        def interrupted(H, **kw):
            raise KeyboardInterrupt

        out["littlestone"] = interrupted
        return out

    monkeypatch.setattr(check_module, "_solvers", solvers)
    status = main(["check", str(DATA / "thresholds-15.json"), "--time-limit", "20"])
    out, err = capsys.readouterr()
    assert status == 130
    assert "vc " in out and "natarajan" in out and "interrupted (Ctrl-C) during littlestone" in out
    assert "interrupted during littlestone" in err and "Traceback" not in err


def test_memory_stop_reported_as_such(monkeypatch, capsys):
    real = check_module._solvers

    def solvers(family=None):
        out = real(family)

        def stopped(H, **kw):
            return DimensionResult.bounds("littlestone", 0, 4, {"hypothesis": 0}, stopped="memory limit")

        out["littlestone"] = stopped
        return out

    monkeypatch.setattr(check_module, "_solvers", solvers)
    status = main(["check", str(DATA / "thresholds-15.json"), "--dims", "littlestone", "--time-limit", "5"])
    out, err = capsys.readouterr()
    assert status == 3
    assert "stopped by the memory limit" in out and "time" not in out.splitlines()[-1]


@pytest.mark.parametrize("dims", ["littlestone,multiclass_littlestone"])
def test_json_interrupted_key(dims, monkeypatch, capsys):
    real = check_module._solvers

    def solvers(family=None):
        out = real(family)

        def interrupted(H, **kw):
            raise KeyboardInterrupt

        out["multiclass_littlestone"] = interrupted
        return out

    monkeypatch.setattr(check_module, "_solvers", solvers)
    import json

    status = main(["check", str(DATA / "thresholds-15.json"), "--dims", dims, "--json"])
    out = json.loads(capsys.readouterr().out)
    assert status == 130 and out["interrupted"] == "multiclass_littlestone"
    assert out["dimensions"]["littlestone"]["value"] == 4


# ------------------------------------------------------------------ cheap witnesses first (issue 22 item 5)
def _hurried(real):
    """The real solver with almost no time: a stopped search, as a big class gets under the default limit."""

    def run(H, **kw):
        return real(H, **{**kw, "time_limit": 1e-3})

    return run


@pytest.mark.parametrize("dims", [["littlestone", "multiclass_littlestone", "psi_littlestone"], ["psi_littlestone"]])
def test_greedy_tree_runs_before_the_searches_spend_the_budget(dims, monkeypatch):
    """On a big binary class the greedy mistake tree (depth 12 on boxes over 16 x 16, under a second) runs
    first: the stopped Littlestone-type searches report it as their lower bound, certified by the tree
    checker of each dimension (re-tagged for MLD and Ψ), instead of the few levels their own share reached."""
    from dimcalc import generators

    real = check_module._solvers

    def solvers(family=None):
        out = real(family)
        return {**out, **{k: _hurried(out[k]) for k in dims}}

    monkeypatch.setattr(check_module, "_solvers", solvers)
    H = generators.boxes(4, 2)  # 18 497 hypotheses x 256 points: over GREEDY_MIN_CELLS
    report = check_class(H, dims, time_limit=60)
    results = _results(report.dimensions)
    assert len(results) >= 3
    for r in results:
        assert r.lower == 12 and not r.exact and r.verify(H, debug=True)
    first = report.dimensions[dims[0]]
    first = first if isinstance(first, DimensionResult) else first["N"]
    assert first.stats["lower_from"] == "greedy mistake tree"
    assert report.verify()


def test_greedy_tree_not_run_on_small_or_multiclass_classes(monkeypatch):
    calls = []
    monkeypatch.setattr(check_module, "greedy_lower_bound", lambda *a: calls.append(a) or (0, None))
    check_class(HypothesisClass.from_table([[0, 1], [1, 0], [1, 1]]), ["littlestone"])
    check_class(HypothesisClass.from_table([[0, 2], [1, 0]]), ["multiclass_littlestone"])
    assert calls == []


# ------------------------------------------------------------------ Ctrl-C with jobs > 1 (issue 22 item 5)
def test_ctrl_c_with_jobs_prints_the_bounds_proven_so_far(monkeypatch, capsys):
    """As with one process: Ctrl-C while the workers run keeps what they finished (exit 130)."""
    from dimcalc.search import pool

    real = pool.run_tasks
    finished: list[str] = []

    def interrupted_after_two(run, payloads, **kw):
        for i, item in enumerate(real(run, payloads, **kw)):
            finished.append(item[2][0])
            yield item
            if i == 1:
                raise KeyboardInterrupt

    monkeypatch.setattr(pool, "run_tasks", interrupted_after_two)
    status = main(["check", str(DATA / "thresholds-15.json"), "--time-limit", "20", "--jobs", "2", "--json"])
    captured = capsys.readouterr()
    import json

    out = json.loads(captured.out)
    assert status == 130 and "Traceback" not in captured.err and "interrupted during" in captured.err
    exact = {"vc": 1, "natarajan": 1, "graph": 1, "littlestone": 4, "multiclass_littlestone": 4}
    assert len(finished) == 2
    for key in finished:  # what the workers finished is printed, exact
        assert key in out["dimensions"] and key not in out["interrupted"].split(", ")
        if key in exact:
            assert out["dimensions"][key]["value"] == exact[key]
    assert "psi_littlestone_uniform" in out["interrupted"]
