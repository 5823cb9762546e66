"""An outside checker of ``dimcalc check --json`` output, written from the interface spec alone.

It imports nothing from dimcalc: it reads the class file (JSON or CSV, spec §1)
with the standard library and verifies every witness of a check report against
spec §3, so a bug shared by dimcalc's solvers and its own checkers cannot hide.

Usage: ``python tests/outside_checker.py CLASS_FILE REPORT.json`` (exit 0 when
every witness verifies; prints the failures otherwise).
"""

from __future__ import annotations

import csv
import itertools
import json
import math
import sys


def read_class(path: str) -> tuple[list[list[int]], int]:
    """Rows and the number of labels of a class file."""
    if path.lower().endswith(".csv"):
        with open(path, newline="") as fh:
            lines = [r for r in csv.reader(fh) if any(c.strip() for c in r)]
        rows = [[int(c) for c in r[1:]] for r in lines[1:]]
        labels = max(2, max((max(r) for r in rows if r), default=0) + 1)
        return rows, labels
    with open(path) as fh:
        obj = json.load(fh)
    rows = obj["hypotheses"]
    labels = obj.get("labels") or max(2, max((max(r) for r in rows if r), default=0) + 1)
    return rows, labels


def shattered(rows, points) -> bool:
    patterns = {tuple(r[p] for p in points) for r in rows}
    return all(p in patterns for p in itertools.product((0, 1), repeat=len(points)))


def natarajan_ok(rows, w) -> bool:
    pts, f0, f1 = w["points"], w["f0"], w["f1"]
    if not (len(pts) == len(f0) == len(f1) == len(set(pts))) or any(a == b for a, b in zip(f0, f1)):
        return False
    patterns = {tuple(r[p] for p in pts) for r in rows}
    return all(
        tuple(f1[i] if bit else f0[i] for i, bit in enumerate(bits)) in patterns
        for bits in itertools.product((0, 1), repeat=len(pts))
    )


def graph_ok(rows, w) -> bool:
    pts, f = w["points"], w["f"]
    if len(pts) != len(f) or len(set(pts)) != len(pts):
        return False
    patterns = {tuple(int(r[p] == f[i]) for i, p in enumerate(pts)) for r in rows}
    return len(patterns) == 2 ** len(pts)


def psi_family_has(labels: int, family: str, phi: list) -> bool:
    if len(phi) != labels or any(v not in (0, 1, None) for v in phi):
        return False
    if family == "N":
        return phi.count(0) == 1 and phi.count(1) == 1
    if family == "bin":
        bits = max(1, math.ceil(math.log2(labels)))
        return any(phi == [(lab >> i) & 1 for lab in range(labels)] for i in range(bits))
    return family == "B"


def tree_depth(rows, labels, tree, kind, family=None, level_maps=None, depth=0, path=()) -> int | None:
    """Depth certified by ``tree`` (every root-to-leaf path realised by its leaf), or None."""
    if "hypothesis" in tree:
        j = tree["hypothesis"]
        if not (isinstance(j, int) and 0 <= j < len(rows)):
            return None
        h = rows[j]
        for point, test in path:
            if not test(h[point]):
                return None
        return 0
    point, children = tree.get("point"), tree.get("children")
    if (
        not (isinstance(point, int) and 0 <= point < len(rows[0]))
        or not isinstance(children, list)
        or len(children) != 2
    ):
        return None
    if kind == "binary":
        tests = [lambda v: v == 0, lambda v: v == 1]
    elif kind == "multiclass":
        a, b = tree.get("labels", [None, None])
        if a == b or not all(isinstance(x, int) and 0 <= x < labels for x in (a, b)):
            return None
        tests = [lambda v, a=a: v == a, lambda v, b=b: v == b]
    else:
        phi = tree.get("map")
        if not isinstance(phi, list) or not psi_family_has(labels, family, phi):
            return None
        if level_maps is not None:
            if level_maps.setdefault(depth, tuple(phi)) != tuple(phi):
                return None
        tests = [lambda v, phi=phi: phi[v] == 0, lambda v, phi=phi: phi[v] == 1]
    depths = [
        tree_depth(rows, labels, c, kind, family, level_maps, depth + 1, path + ((point, t),))
        for c, t in zip(children, tests)
    ]
    if None in depths or depths[0] != depths[1]:
        return None
    return depths[0] + 1


def check_result(rows, labels, key, res, family=None) -> str | None:
    """None when ``res`` is consistent and its witness verifies; otherwise the problem."""
    if res.get("value") is None and "reason" in res:
        return None
    claimed = res["value"] if res["exact"] else res["lower"]
    if not res["exact"] and not (res["upper"] is None or res["lower"] <= res["upper"]):
        return f"{key}: lower {res['lower']} > upper {res['upper']}"
    w = res["witness"]
    if key == "vc":
        ok = len(w) == claimed and len(set(w)) == len(w) and shattered(rows, w)
    elif key == "natarajan":
        ok = len(w["points"]) == claimed and natarajan_ok(rows, w)
    elif key == "graph":
        ok = len(w["points"]) == claimed and graph_ok(rows, w)
    elif key in ("littlestone", "multiclass_littlestone", "binary_restriction"):
        kind = "multiclass" if key == "multiclass_littlestone" else "binary"
        ok = tree_depth(rows, labels, w, kind) == claimed
    elif key in ("psi_littlestone", "psi_littlestone_uniform"):
        maps = {} if key == "psi_littlestone_uniform" else None
        ok = tree_depth(rows, labels, w, "psi", family, maps) == claimed
    else:
        return None
    return None if ok else f"{key}{'[' + family + ']' if family else ''}: witness does not certify {claimed}"


def check_report(class_path: str, report: dict) -> list[str]:
    """All problems found in a ``dimcalc check --json`` report (empty when everything verifies)."""
    rows, labels = read_class(class_path)
    problems = []
    for key, res in report["dimensions"].items():
        if key.startswith("psi_littlestone"):
            for fam, r in res.items():
                p = check_result(rows, labels, key, r, fam)
                problems += [p] if p else []
        elif key == "binary_restrictions":
            for i, r in enumerate(res, start=1):
                sub = [[(v >> (i - 1)) & 1 for v in row] for row in rows]
                p = check_result(sub, 2, "binary_restriction", r)
                problems += [f"H|_{i}: {p}"] if p else []
        else:
            p = check_result(rows, labels, key, res)
            problems += [p] if p else []
    return problems


if __name__ == "__main__":  # pragma: no cover
    with open(sys.argv[2]) as fh:
        found = check_report(sys.argv[1], json.load(fh))
    print("\n".join(found) or "all witnesses verify")
    sys.exit(1 if found else 0)
