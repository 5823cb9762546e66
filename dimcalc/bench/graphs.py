"""Benchmark suite ``graphs``: graph VC dimension of large sparse graphs, read from edge-list files.

Each case writes (once, cached) an edge list and times what a user runs,
``dimcalc check EDGES --graph --dims vc --json`` in a child process: wall
seconds from the command's start to its end (interpreter start-up, reading
and parsing the file, building the sparse class, the search and the JSON
included), CPU seconds and peak resident memory of that process (its CPU from
``RUSAGE_CHILDREN``, its peak from its own ``VmHWM``).  The load time alone (:func:`dimcalc.io.graph_files.read_edge_list`)
is measured in this process.  Load average is recorded beside each row:
on a shared machine wall times grow with it, CPU times much less.

Cases: random geometric graphs in the unit square (road-like: average
degree 8), Barabási–Albert (m = 5), powerlaw cluster (Holme–Kim),
Watts–Strogatz, square grids, a random set system of 10⁶ sets and 10⁷
incidences (a ``.sets`` file), the real network SNAP facebook-combined
(when a user has put it in the data folder), a dense G(5000, 0.06) whose
refutation runs for minutes, and time-limit rows (1, 5 and 30 s: the call
must return within the limit + max(0.5 s, 10 %)).  SEA 2024 (Coudert, Csikós, Ducoffe,
Viennot, arXiv:2405.07588, Table 2) reports for reference: com-dblp 5 in
2.3 s, roadNet-CA 3 in 4.6 s, facebook-combined 6 in 8.2 s, ca-HepPh 5 in
46.5 s, as-skitter 8 in 2 117 s.  Generated files go to
``$DIMCALC_BENCH_DATA`` (default ``~/.cache/dimcalc/graphs``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from . import BenchOptions, BenchRow, register_suite

__all__ = ["graphs_suite", "random_geometric_edges", "write_edges", "data_dir"]

#: SNAP's facebook-combined edge list (McAuley and Leskovec, NIPS 2012), not shipped with dimcalc: the suite
#: runs it when a user has put it in :func:`data_dir` (from https://snap.stanford.edu/data/ego-Facebook.html).
FACEBOOK_NAME = "facebook_combined.txt.gz"

#: Cases with time-limit rows, and the limits (seconds; each call must return within limit + max(0.5 s, 10 %)).
LIMIT_CASES = ("facebook-combined", "rgg-1e6-deg8", "sets-1e6x1e7", "gnp-5000-p0.06", "ba-1e4-m5")
LIMITS = (1.0, 5.0, 30.0)


def data_dir() -> Path:
    """Where generated edge lists are cached (``$DIMCALC_BENCH_DATA`` or ``~/.cache/dimcalc/graphs``)."""
    return Path(os.environ.get("DIMCALC_BENCH_DATA", Path.home() / ".cache" / "dimcalc" / "graphs"))


def random_geometric_edges(n: int, degree: float, seed: int) -> np.ndarray:
    """Edges of a random geometric graph: ``n`` uniform points in the unit square, joined within radius
    ``sqrt(degree / (pi n))`` (average degree about ``degree``; scipy's k-d tree).

    >>> random_geometric_edges(200, 8.0, 0).shape[1]
    2
    """
    from scipy.spatial import cKDTree

    pts = np.random.default_rng(seed).random((n, 2))
    return np.asarray(cKDTree(pts).query_pairs(float(np.sqrt(degree / (np.pi * n))), output_type="ndarray"))


def grid_edges(side: int) -> np.ndarray:
    """Edges of the ``side x side`` grid graph, vertices numbered row by row."""
    ids = np.arange(side * side).reshape(side, side)
    right = np.stack([ids[:, :-1].ravel(), ids[:, 1:].ravel()], axis=1)
    down = np.stack([ids[:-1, :].ravel(), ids[1:, :].ravel()], axis=1)
    return np.concatenate([right, down])


def _networkx_edges(make: Callable[[], object]) -> np.ndarray:
    G = make()
    return np.array(list(G.edges()), dtype=np.int64)  # type: ignore[attr-defined]


def write_edges(path: Path, edges: np.ndarray) -> None:
    """Write an edge list, one ``u v`` per line, with a comment header."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w") as fh:
        fh.write(f"# {len(edges)} edges (dimcalc bench graphs)\n")
        np.savetxt(fh, edges, fmt="%d")
    tmp.replace(path)


def write_sets(path: Path, n_sets: int, size: int, n_elements: int, seed: int) -> None:
    """A ``.sets`` file of ``n_sets`` random sets of ``size`` elements among ``n_elements``."""
    rng = np.random.default_rng(seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w") as fh:
        for start in range(0, n_sets, 100_000):
            block = rng.integers(0, n_elements, size=(min(100_000, n_sets - start), size))
            np.savetxt(fh, block, fmt="%d")
    tmp.replace(path)


def _cases(quick: bool) -> list[tuple[str, str, Callable[[Path], None]]]:
    """``(case, file name, writer)``."""
    import networkx as nx

    def edges(fn: Callable[[], np.ndarray]) -> Callable[[Path], None]:
        return lambda p: write_edges(p, fn())

    if quick:
        return [
            ("rgg-1e4-deg8", "rgg-1e4.txt", edges(lambda: random_geometric_edges(10_000, 8.0, 0))),
            ("ba-1e4-m5", "ba-1e4.txt", edges(lambda: _networkx_edges(lambda: nx.barabasi_albert_graph(10_000, 5, 0)))),
            ("grid-100x100", "grid-100.txt", edges(lambda: grid_edges(100))),
        ]
    return [
        ("rgg-1e6-deg8", "rgg-1e6.txt", edges(lambda: random_geometric_edges(1_000_000, 8.0, 0))),
        ("ba-2e5-m5", "ba-2e5.txt", edges(lambda: _networkx_edges(lambda: nx.barabasi_albert_graph(200_000, 5, 0)))),
        (
            "powerlaw-cluster-1e5-m5",
            "plc-1e5.txt",
            edges(lambda: _networkx_edges(lambda: nx.powerlaw_cluster_graph(100_000, 5, 0.3, 0))),
        ),
        (
            "watts-strogatz-1e5-k8",
            "ws-1e5.txt",
            edges(lambda: _networkx_edges(lambda: nx.watts_strogatz_graph(100_000, 8, 0.1, 0))),
        ),
        ("grid-1000x1000", "grid-1000.txt", edges(lambda: grid_edges(1000))),
        ("rgg-1e4-deg8", "rgg-1e4.txt", edges(lambda: random_geometric_edges(10_000, 8.0, 0))),
        ("sets-1e6x1e7", "sets-1e6.sets", lambda p: write_sets(p, 1_000_000, 10, 100_000, 0)),
        # dense and random: its refutation runs for minutes, so its limit rows show a search stopped in time
        (
            "gnp-5000-p0.06",
            "gnp-5000.txt",
            edges(lambda: _networkx_edges(lambda: nx.fast_gnp_random_graph(5000, 0.06, seed=0))),
        ),
    ]


def _load_average() -> float:
    try:
        return os.getloadavg()[0]
    except OSError:  # pragma: no cover
        return float("nan")


#: Run in the child: dimcalc's CLI, then the child's own peak resident memory (VmHWM: per process image,
#: unlike ``ru_maxrss``, which a forked child inherits from the parent) on stderr.
_CHILD = (
    "import atexit, runpy, sys\n"
    "def hwm():\n"
    "    for line in open('/proc/self/status'):\n"
    "        if line.startswith('VmHWM:'):\n"
    "            print('VMHWM', int(line.split()[1]), file=sys.stderr)\n"
    "atexit.register(hwm)\n"
    "sys.argv = ['dimcalc'] + sys.argv[1:]\n"
    "runpy.run_module('dimcalc', run_name='__main__')\n"
)


def _child(args: list[str]) -> tuple[bytes, float, float, float]:
    """Run ``dimcalc ARGS`` in a child; (stdout, wall s, CPU s, peak RSS MB) of that child alone."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", _CHILD, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = proc.communicate()
    wall = time.perf_counter() - t0
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = usage.ru_utime + usage.ru_stime - _child.cpu_before  # type: ignore[attr-defined]
    _child.cpu_before = usage.ru_utime + usage.ru_stime  # type: ignore[attr-defined]
    rss = 0.0
    for line in err.decode(errors="replace").splitlines():
        if line.startswith("VMHWM "):
            rss = int(line.split()[1]) / 1024
    return out, wall, cpu, rss


_child.cpu_before = 0.0  # type: ignore[attr-defined]


@register_suite("graphs", "graph VC dimension of 1e4-1e6-vertex graphs and a 1e7-incidence set system, from files")
def graphs_suite(options: BenchOptions) -> list[BenchRow]:
    """Run the cases; see the module docstring."""
    from ..io.graph_files import load_set_system, read_edge_list
    from ..vc import vc_dimension

    rows: list[BenchRow] = []
    files: list[tuple[str, Path, bool]] = []
    for case, name, write in _cases(options.quick):
        if not options.wants(case):
            continue
        path = data_dir() / name
        if not path.exists():
            options.say(f"graphs: writing {path}")
            write(path)
        files.append((case, path, not name.endswith(".sets")))
    facebook = data_dir() / FACEBOOK_NAME
    if not options.quick and options.wants("facebook-combined") and facebook.exists():
        files.append(("facebook-combined", facebook, True))
    for case, path, graph in files:
        options.say(f"graphs: {case}")
        t0 = time.perf_counter()
        H = read_edge_list(path) if graph else load_set_system(path)
        load_seconds = time.perf_counter() - t0
        cmd = ["check", str(path), "--dims", "vc", "--json"]
        cmd += ["--time-limit", str(options.solver_limit)] + (["--graph"] if graph else [])
        load_avg = _load_average()
        import resource

        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        _child.cpu_before = usage.ru_utime + usage.ru_stime  # type: ignore[attr-defined]
        out, wall, cpu, rss = _child(cmd)
        try:
            vc = json.loads(out)["dimensions"]["vc"]
        except (json.JSONDecodeError, KeyError):
            vc = {"value": None, "exact": False}
        answer = vc.get("value") if vc.get("exact") else [vc.get("lower"), vc.get("upper")]
        rows.append(
            BenchRow(
                "graphs",
                case,
                answer,
                bool(vc.get("exact")),
                wall,
                rss,
                note=f"check: wall {wall:.1f} s, cpu {cpu:.1f} s, peak RSS {rss:.0f} MB; load {load_seconds:.1f} s; "
                f"load avg {load_avg:.1f}",
                extra={
                    "vertices_or_sets": H.n_hypotheses,
                    "incidences": H.sparse_table.nnz if H.sparse_table is not None else None,
                    "load_seconds": load_seconds,
                    "cpu_seconds": cpu,
                    "peak_rss_mb": rss,
                    "load_average": load_avg,
                },
            )
        )
        # Time limits: the call returns within the limit + max(0.5 s, 10 %), set-up included.
        if case in LIMIT_CASES:
            for limit in LIMITS if not options.quick else LIMITS[:1]:
                t0 = time.perf_counter()
                r = vc_dimension(H, time_limit=limit)
                took = time.perf_counter() - t0
                ok = took <= limit + max(0.5, 0.1 * limit)
                rows.append(
                    BenchRow(
                        "graphs",
                        f"{case}-limit-{limit:g}s",
                        r.value if r.exact else [r.lower, r.upper],
                        r.exact,
                        took,
                        0.0,
                        note=f"returned in {took:.2f} s at limit {limit:g} s: {'kept' if ok else 'OVER'}; "
                        f"load avg {_load_average():.1f}",
                    )
                )
        del H
    return rows
