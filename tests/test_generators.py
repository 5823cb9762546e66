"""Generators: sizes by formula, definitions checked directly, known dimensions by brute force, shipped data."""

import importlib.util
import inspect
import json
import math
from itertools import product
from pathlib import Path

import numpy as np
import pytest
from scipy.optimize import linprog

from dimcalc import InvalidParameterError
from dimcalc import generators as gen
from dimcalc.classes.hypothesis_class import MAX_CELLS
from dimcalc.classes.operations import binary_restriction, binary_restrictions, restrict
from dimcalc.cli import main
from dimcalc.io import load, loads_json
from test_operations import mld, row_set, vc

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data"


def _script():
    spec = importlib.util.spec_from_file_location("generate_data", ROOT / "scripts" / "generate_data.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------- sizes and definitions
@pytest.mark.parametrize("n", [1, 2, 5, 9])
def test_one_dimensional_families(n):
    T, I, P = gen.thresholds(n), gen.intervals(n), gen.point_functions(n)
    assert T.n_distinct == T.n_hypotheses == n + 1
    assert I.n_distinct == I.n_hypotheses == n * (n + 1) // 2 + 1
    assert P.n_distinct == n
    assert row_set(T) == {tuple(int(i >= j) for i in range(n)) for j in range(n + 1)}
    assert row_set(I) == {tuple(int(a <= i <= b) for i in range(n)) for a in range(n) for b in range(n)} | {(0,) * n}
    assert vc(T) == 1 and vc(I) == min(2, n) and vc(P) == min(1, n - 1)
    assert mld(T) == math.floor(math.log2(n + 1))  # Littlestone: LDim of n+1 thresholds


@pytest.mark.parametrize("n,k", [(4, 1), (5, 2), (6, 3), (6, 5)])
def test_k_point_functions(n, k):
    H = gen.k_point_functions(n, k)
    assert H.n_distinct == math.comb(n, k)
    assert all(sum(r) == k for r in row_set(H))
    assert vc(H) == min(k, n - k)


@pytest.mark.parametrize("d", [1, 2, 3])
def test_parities(d):
    H = gen.parities(d)
    assert H.n_distinct == H.n_points == 2**d
    xs = list(product((0, 1), repeat=d))
    assert row_set(H) == {tuple(sum(s_i * x_i for s_i, x_i in zip(s, x)) % 2 for x in xs) for s in xs}
    assert vc(H) == d and mld(H) == d


@pytest.mark.parametrize("p", [2, 3, 5, 7])
def test_lines(p):
    H = gen.lines(p)
    assert H.n_distinct == H.n_points == p * p
    pts = [tuple(map(int, name.split(":"))) for name in H.point_names]
    assert row_set(H) == {tuple(int((a * x + b - y) % p == 0) for x, y in pts) for a in range(p) for b in range(p)}
    rows = H.table
    meet = rows @ rows.T
    assert (np.diag(meet) == p).all()  # a line has p points
    assert (meet[~np.eye(p * p, dtype=bool)] <= 1).all()  # two lines meet in at most one point
    if p <= 3:
        assert mld(H) == 2  # FX §5: LDim(Line_p) = 2


@pytest.mark.parametrize("b,d", [(1, 1), (1, 2), (2, 1), (2, 2), (1, 3)])
def test_boxes_match_the_fx_definition(b, d):
    H = gen.boxes(b, d)
    side = 2**b
    grid = list(product(range(side), repeat=d))
    assert H.point_names == tuple(":".join(map(str, x)) for x in grid)
    # FX §4.1: r_{s,t}(x) = 1 iff s_i <= x_i <= t_i for all i, for ALL s, t in the grid
    expected = {tuple(int(all(s[i] <= x[i] <= t[i] for i in range(d))) for x in grid) for s in grid for t in grid}
    assert row_set(H) == expected
    assert H.n_hypotheses == H.n_distinct == (side * (side + 1) // 2) ** d + 1


def test_boxes_vc_is_2d():
    assert vc(gen.boxes(2, 2)) == 4  # 2d, not FX's d + 1


def _separable(points, inside, lifted):
    """LP: is there (w, theta) with w.x >= theta + 1 on `inside` and <= theta - 1 outside?

    With ``lifted``, x is (x, -|x|^2) and the last weight must be >= 0: a ball
    (or, in the limit, a halfspace) of the plane.
    """
    X = np.array(points, dtype=float)
    if lifted:
        X = np.column_stack([X, -(X * X).sum(1)])
    sign = np.where(np.array(inside, dtype=bool), -1.0, 1.0)
    A = np.column_stack([sign[:, None] * X, -sign])  # -(w.x - theta) <= -1 inside, (w.x - theta) <= -1 outside
    bounds = [(None, None)] * X.shape[1] + [(None, None)]
    if lifted:
        bounds[X.shape[1] - 1] = (0, None)
    res = linprog(np.zeros(A.shape[1]), A_ub=A, b_ub=-np.ones(len(X)), bounds=bounds, method="highs")
    return res.status == 0


@pytest.mark.slow  # an exact search per geometric class: make test runs it, make test-fast does not
@pytest.mark.parametrize("family,lifted", [(gen.halfspaces, False), (gen.balls, True)])
def test_geometric_classes_are_exact_on_a_3x3_subgrid(family, lifted):
    # Every set in the class is a halfspace/ball trace (LP), and, restricted to the 3x3 corner, the class
    # is exactly the set of all traces there (each of the 512 subsets decided by LP).
    H = family(2, 2)
    pts = [tuple(map(int, n.split(":"))) for n in H.point_names]
    for row in H.table.tolist():
        assert _separable(pts, row, lifted)
    corner = [i for i, (x, y) in enumerate(pts) if x <= 2 and y <= 2]
    expected = {s for s in product((0, 1), repeat=9) if _separable([pts[i] for i in corner], s, lifted)}
    assert row_set(restrict(H, corner)) == expected


def test_halfspaces_and_balls_against_random_samples():
    rng = np.random.default_rng(0)
    H = gen.halfspaces(2, 2)
    pts = np.array([list(map(int, n.split(":"))) for n in H.point_names], dtype=float)
    angles = rng.uniform(0, 2 * np.pi, 4000)
    sampled = set()
    for w in np.column_stack([np.cos(angles), np.sin(angles)]):
        order = np.argsort(-(pts @ w))
        for j in range(len(pts) + 1):
            row = np.zeros(len(pts), dtype=int)
            row[order[:j]] = 1
            sampled.add(tuple(row))
    assert sampled == row_set(H)  # arcs between critical directions are wide: all hit
    B = gen.balls(2, 2)
    centers = rng.uniform(-3, 6, size=(3000, 2))
    radii = rng.uniform(0, 6, size=3000)
    traces = {tuple((((pts - c) ** 2).sum(1) <= r * r).astype(int)) for c, r in zip(centers, radii)}
    assert traces <= row_set(B)
    assert row_set(H) <= row_set(B)  # halfspace traces are traces of large balls


@pytest.mark.parametrize("family", [gen.halfspaces, gen.balls])
def test_geometric_vc_is_d_plus_1(family):
    assert vc(family(2, 2)) == 3


def test_one_dimensional_geometry():
    assert row_set(gen.balls(3, 1)) == row_set(gen.intervals(8))
    assert row_set(gen.halfspaces(3, 1)) == row_set(gen.thresholds(8)) | {
        tuple(1 - np.array(r)) for r in row_set(gen.thresholds(8))
    }


# ---------------------------------------------------------------- BGS classes
@pytest.mark.parametrize("k", [5, 6, 7, 8, 15])
def test_bgs_thm61_base_class(k):
    F = gen.bgs_thm61_class(k)
    kp = k if k % 2 == 0 else k + 1
    half = kp // 2
    assert F.num_labels == k + 1 and F.n_distinct == F.n_points == half
    assert F.table.max() == kp - 1  # labels 0..k'-1 used; label k unused when k is even
    for t in range(half):
        assert F.table[t].tolist() == [2 * t + int(t >= x) for x in range(half)]
    F1 = binary_restriction(F, 1)
    assert row_set(F1) == {tuple(int(t >= x) for x in range(half)) for t in range(half)}
    assert mld(F) == 1
    assert mld(F1) == math.floor(math.log2(half))


@pytest.mark.parametrize("k,d", [(5, 2), (7, 2), (5, 3)])
def test_bgs_thm61_amplified(k, d):
    H = gen.bgs_thm61_class(k, d)
    half = (k + (k % 2)) // 2
    assert H.n_distinct == half**d and H.n_points == d * half and H.num_labels == k + 1
    assert mld(H) == d
    assert mld(binary_restriction(H, 1)) == d * math.floor(math.log2(half))


@pytest.mark.parametrize("d,bits,n", [(1, 1, None), (1, 2, None), (2, 1, None), (1, 3, None), (1, 2, 5)])
def test_bgs_thm72(d, bits, n):
    H = gen.bgs_thm72_class(d, bits, n)
    n = H.n_points
    assert H.num_labels == 2**bits and H.n_distinct == math.comb(n, d) ** bits
    k_points = row_set(gen.k_point_functions(n, d))
    for R in binary_restrictions(H):  # every binary restriction: all d-point functions
        assert row_set(R) == k_points
        assert mld(R) == d
    if H.n_distinct <= 100:
        assert mld(H) == d * bits  # Theorem 7.2


# ---------------------------------------------------------------- metadata, registry, validation
def test_registry_describes_each_function():
    for name, g in gen.GENERATORS.items():
        assert g.name == name and g.params and g.summary and g.source
        if g.function.__module__.startswith(gen.__name__ + ".") and not g.function.__name__.startswith("_"):
            assert set(inspect.signature(g.function).parameters) == {p.keyword or p.name for p in g.params}


@pytest.mark.parametrize("name", [n for n in gen.GENERATORS if n != "gap-amplification"])
def test_generated_classes_carry_metadata(name):
    small = {"n": 3, "k": 5, "d": 1, "b": 1, "p": 3, "bits": 1, "hypotheses": 3, "points": 2}
    g = gen.GENERATORS[name]
    args = {
        p.name: (1 if name == "k-point-functions" and p.name == "k" else small[p.name]) for p in g.params if p.required
    }
    H = g.build(**args)
    meta = H.metadata
    assert meta["family"] == name and meta["source"]
    assert all(meta["params"][a] == v for a, v in args.items())
    assert H.has_point_names and H.has_hypothesis_names and H.name != "unnamed"


@pytest.mark.parametrize(
    "call,match",
    [
        (lambda: gen.thresholds(0), "'n' parameter of thresholds"),
        (lambda: gen.thresholds(True), "'n' parameter of thresholds"),
        (lambda: gen.thresholds(2.0), "'n' parameter of thresholds"),
        (lambda: gen.lines(9), "prime"),
        (lambda: gen.k_point_functions(3, 4), "'k' parameter"),
        (lambda: gen.halfspaces(2, 3), "'d' parameter of halfspaces"),
        (lambda: gen.balls(4, 2), "'b' parameter of balls"),
        (lambda: gen.boxes(6, 2), f"limit of {MAX_CELLS} cells"),
        (lambda: gen.parities(14), "'d' parameter of parities"),
        (lambda: gen.bgs_thm61_class(4), "'k' parameter of bgs_thm61_class"),
        (lambda: gen.bgs_thm72_class(2, 2, n=1), "'n' parameter"),
        (lambda: gen.random_class(2, 2, labels=1), "'labels' parameter"),
        (lambda: gen.GENERATORS["thresholds"].build(), "'n' parameter of family 'thresholds'"),
        (lambda: gen.GENERATORS["thresholds"].build(n=2, k=3), "'k' parameter of family 'thresholds'"),
    ],
)
def test_bad_parameters_are_refused(call, match):
    with pytest.raises(InvalidParameterError, match=match):
        call()


def test_random_class_is_seeded():
    A, B = gen.random_class(5, 4, labels=3, random_state=9), gen.random_class(5, 4, labels=3, random_state=9)
    assert A == B and A.num_labels == 3 and A != gen.random_class(5, 4, labels=3, random_state=10)


# ---------------------------------------------------------------- shipped data
def test_shipped_data_is_exactly_what_the_script_generates():
    script = _script()
    built = script.build_all()
    shipped = sorted(p.name for p in DATA.iterdir() if p.suffix in (".json", ".csv"))
    assert shipped == sorted(built), "data/ and scripts/generate_data.py list different files"
    assert "thresholds-15.json" in built  # make demo
    for name, H in built.items():
        path = DATA / name
        assert path.read_text() == script.render(name, H), f"{name} is stale: run scripts/generate_data.py"
        L = load(path)
        assert np.array_equal(L.table, H.table) and L.point_names == H.point_names
        assert L.hypothesis_names == H.hypothesis_names
        if name.endswith(".json"):
            assert L.num_labels == H.num_labels and L.metadata == json.loads(json.dumps(H.metadata))
        assert path.stat().st_size < 200_000


# ---------------------------------------------------------------- CLI
@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_cli_generate_round_trips_through_load(tmp_path, capsys, fmt):
    out = tmp_path / f"b.{fmt}"
    assert main(["generate", "boxes", "--b", "1", "--d", "2", "-o", str(out)]) == 0
    assert f"wrote {out}" in capsys.readouterr().err
    L, H = load(out), gen.boxes(1, 2)
    assert np.array_equal(L.table, H.table) and L.point_names == H.point_names
    assert L.hypothesis_names == H.hypothesis_names
    if fmt == "json":
        assert L.metadata["family"] == "boxes" and L.metadata["params"] == {"b": 1, "d": 2}


def test_cli_generate_to_stdout_and_gap_amplification(tmp_path, capsys):
    assert main(["generate", "bgs-thm61", "--k", "5"]) == 0
    F = loads_json(capsys.readouterr().out)
    assert F == gen.bgs_thm61_class(5) and F.num_labels == 6
    src = tmp_path / "F.json"
    assert main(["generate", "bgs-thm61", "--k", "5", "-o", str(src)]) == 0
    assert main(["generate", "gap-amplification", "--input", str(src), "--ell", "2", "--format", "csv"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("name,1/x0,1/x1,1/x2,2/x0") and len(text.strip().splitlines()) == 1 + 9


def test_cli_generate_list_and_errors(capsys):
    assert main(["generate", "--list"]) == 0
    listing = capsys.readouterr().out
    assert all(name in listing for name in gen.GENERATORS) and "--bits" in listing
    for argv, msg in [
        (["generate"], "needs a FAMILY"),
        (["generate", "nope"], "unknown family"),
        (["generate", "lines", "--p", "4"], "prime"),
        (["generate", "thresholds", "--p", "3"], "no parameter --p"),
        (["generate", "thresholds", "--n", "x"], "must be an integer"),
        (["generate", "gap-amplification", "--input", "/nonexistent.json", "--ell", "2"], "no such file"),
    ]:
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert msg in err and err.count("\n") == 1 and "Traceback" not in err


def test_gap_amplification_family_reads_its_input_with_io_load(tmp_path):
    F = gen.bgs_thm61_class(5)
    src = tmp_path / "F.json"
    main_status = main(["generate", "bgs-thm61", "--k", "5", "-o", str(src)])
    assert main_status == 0
    family = gen.GENERATORS["gap-amplification"]
    from_file, from_class = family.build(input=str(src), ell=2), family.build(input=F, ell=2)
    assert from_file == from_class == gen.gap_amplified_class(F, 2)
    assert from_file.hypothesis_names == from_class.hypothesis_names and from_file.name == "bgs-thm61-k5-d1^2"
    assert from_file.metadata == {
        "family": "gap-amplification",
        "params": {"input": "bgs-thm61-k5-d1", "ell": 2},
        "source": "BGS Claim 6.2, equation (7)",
    }
