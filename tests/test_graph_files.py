"""Edge lists, .sets and .mtx files read into sparse storage; ``dimcalc check --graph``."""

from __future__ import annotations

import gzip
import importlib.util
import json
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp

from brute_sparse import brute_set_vc, closed_neighbourhoods
from dimcalc import HypothesisClass, load, vc_dimension
from dimcalc.cli import main
from dimcalc.errors import ClassFileError
from dimcalc.io.graph_files import read_edge_list

DATA = Path(__file__).resolve().parents[1] / "data"


def test_edge_list_with_names_comments_blank_lines_and_gzip(tmp_path):
    text = "# SNAP header\n% KONECT header\nalice bob\n\nbob carol\n  carol   alice  \ncarol dave\n"
    p = tmp_path / "g.txt"
    p.write_text(text)
    gz = tmp_path / "g.txt.gz"
    gz.write_bytes(gzip.compress(text.encode()))
    for path in (p, gz):
        H = read_edge_list(path)
        assert H.point_names == ("alice", "bob", "carol", "dave")
        G = nx.Graph([("alice", "bob"), ("bob", "carol"), ("carol", "alice"), ("carol", "dave")])
        assert H == HypothesisClass.from_networkx(nx.relabel_nodes(G, {v: v for v in sorted(G)}).subgraph(sorted(G)))
        sets = closed_neighbourhoods({v: set(G[v]) for v in sorted(G)})
        assert vc_dimension(H).value == brute_set_vc(sets)


def test_integer_ids_sort_numerically_and_keep_their_spelling(tmp_path):
    p = tmp_path / "g.txt"
    p.write_text("10 2\n2 -3\n")
    assert read_edge_list(p).point_names == ("-3", "2", "10")
    p.write_text("010 2\n")  # a leading zero: the ids are names, kept as written
    assert read_edge_list(p).point_names == ("010", "2")


def test_open_neighbourhoods_and_self_loops(tmp_path):
    p = tmp_path / "g.txt"
    p.write_text("0 1\n1 2\n2 2\n")
    H = read_edge_list(p, closed=False)
    assert H.table.tolist() == [[0, 1, 0], [1, 0, 1], [0, 1, 1]]


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("0 1\n1 2 3\n", ":2: an edge-list line has two vertex ids; this one has 3"),
        ("# only comments\n", "no edge"),
        ("0\n", ":1: an edge-list line has two vertex ids; this one has 1"),
    ],
)
def test_bad_edge_lists_are_refused_in_one_line_naming_the_line(tmp_path, text, fragment):
    p = tmp_path / "bad.txt"
    p.write_text(text)
    with pytest.raises(ClassFileError, match=fragment) as info:
        read_edge_list(p)
    assert "\n" not in str(info.value) and str(p) in str(info.value)


def test_size_limits_are_checked_before_building(tmp_path, monkeypatch):
    import dimcalc.io.graph_files as gf

    p = tmp_path / "g.txt"
    p.write_text("0 1\n1 2\n")
    monkeypatch.setattr(gf, "MAX_INCIDENCES", 5)
    with pytest.raises(ClassFileError, match="7 incidences, over dimcalc's limit of 5"):
        read_edge_list(p)
    monkeypatch.setattr(gf, "MAX_GRAPH_FILE_BYTES", 3)
    with pytest.raises(ClassFileError, match="over dimcalc's limit of 3"):
        read_edge_list(p)


def test_sets_file(tmp_path):
    p = tmp_path / "s.sets"
    p.write_text("# three sets\n1 2\n\n2 3 3\n")
    H = load(p)
    assert H.point_names == ("1", "2", "3")
    assert H.table.tolist() == [[1, 1, 0], [0, 0, 0], [0, 1, 1]]


def test_mtx_file(tmp_path):
    M = sp.random(30, 12, density=0.2, random_state=1, format="coo")
    M.data[:] = 1
    p = tmp_path / "m.mtx"
    scipy.io.mmwrite(p, M)
    H = load(p)
    assert H.table.tolist() == (M.toarray() != 0).astype(int).tolist()
    M.data[0] = 3
    scipy.io.mmwrite(p, M)
    with pytest.raises(ClassFileError, match="m.mtx: M has the entry"):
        load(p)
    q = tmp_path / "d.mtx"
    scipy.io.mmwrite(q, np.eye(3))
    with pytest.raises(ClassFileError, match="coordinate"):
        load(q)


def test_cli_check_graph_on_a_social_like_network(tmp_path, capsys):
    """An edge list written from a powerlaw-cluster graph (social-network-like): the CLI's sparse answer equals the
    dense search on the same graph, and the witness is named by the vertex ids as written."""
    import gzip

    import networkx as nx

    from dimcalc import HypothesisClass, vc_dimension

    G = nx.relabel_nodes(nx.powerlaw_cluster_graph(300, 6, 0.4, seed=3), lambda v: f"u{v:03d}")
    p = tmp_path / "social.txt.gz"
    with gzip.open(p, "wt") as f:
        f.write("# a social-like network\n" + "".join(f"{u} {v}\n" for u, v in G.edges()))
    status = main(["check", str(p), "--graph", "--dims", "vc", "--json"])
    out = json.loads(capsys.readouterr().out)
    dense = vc_dimension(HypothesisClass.from_networkx(G, storage="dense"))
    vc = out["dimensions"]["vc"]
    assert status == 0 and vc["exact"] and vc["value"] == dense.value >= 3
    assert all(name.startswith("u") for name in vc["witness_names"]) and len(vc["witness_names"]) == vc["value"]


def test_cli_check_graph_refuses_a_bad_line_with_exit_2(tmp_path, capsys):
    p = tmp_path / "bad.txt"
    p.write_text("0 1\nx\n")
    assert main(["check", str(p), "--graph"]) == 2
    err = capsys.readouterr().err
    assert "bad.txt:2:" in err and err.count("\n") == 1


def test_check_graph_imports_only_what_it_runs(tmp_path):
    """``dimcalc check EDGES --graph --dims vc`` (plain-Python kernels) imports neither scipy, networkx, sympy,
    pandas, dask nor numba, nor the other commands and reports: the package and the CLI load on first use."""
    import subprocess
    import sys

    edges = tmp_path / "g.txt"
    edges.write_text("".join(f"{i} {i + 1}\n" for i in range(50)))
    script = (
        "import sys\nfrom dimcalc.cli import main\n"
        f"status = main(['check', {str(edges)!r}, '--graph', '--dims', 'vc', '--json'])\n"
        "heavy = ('scipy', 'networkx', 'sympy', 'pandas', 'dask', 'numba', 'dimcalc.cli.sweep', 'dimcalc.reports.theorems')\n"
        "print(status, sorted(m for m in heavy if m in sys.modules), file=sys.stderr)\n"
    )
    env = {"DIMCALC_JIT": "0", "PATH": "/usr/bin:/bin"}
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
    assert proc.stderr.strip().splitlines()[-1] == "0 []", proc.stderr
    assert json.loads(proc.stdout)["dimensions"]["vc"]["value"] == 2


def test_loading_the_sparse_kernels_skips_numbas_blas_probe_and_keeps_scipy_linalg_usable():
    """numba's start-up without ``scipy.linalg`` (``_kernel_numba.import_numba``); ``np.dot`` in a jitted function and
    ``scipy.linalg`` itself still work afterwards."""
    import subprocess
    import sys

    pytest.importorskip("numba")
    has_cffi = importlib.util.find_spec("cffi") is not None  # optional: numba does not require it
    script = (
        "import sys\nimport numpy as np\nfrom dimcalc.vc import sparse_jit\n"
        "sparse_jit.warm_up(('levels',))\nprint('scipy.linalg' in sys.modules)\n"
        "import numba\nprint(numba.njit(lambda a: np.dot(a, a))(np.ones(3)))\n"
        "import scipy.linalg\nprint(scipy.linalg.norm(np.ones(4)))\n"
        "print('cffi' in sys.modules)\n"
    )
    if has_cffi:  # hidden only while numba's typing registry loads: it still imports afterwards
        script += "import cffi\nprint(cffi.FFI().sizeof('int'))\n"
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert proc.stdout.split() == ["False", "3.0", "2.0", "False"] + (["4"] if has_cffi else []), proc.stderr


def test_the_sparse_kernels_leave_numbas_blas_and_cffi_alone_when_loaded_first():
    """With ``scipy.linalg`` and ``cffi`` imported before the kernels load, nothing is hidden: numba sees both."""
    import subprocess
    import sys

    pytest.importorskip("numba")
    pytest.importorskip("cffi")
    script = (
        "import scipy.linalg, cffi\nfrom dimcalc.vc import sparse_jit\nsparse_jit.warm_up(('levels',))\n"
        "from numba.core.typing import cffi_utils\nfrom numba.np import arraymath\n"
        "print(cffi_utils.SUPPORTED)\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert proc.stdout.split() == ["True"], proc.stderr
