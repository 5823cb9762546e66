"""The package layout: moved modules still import under their old names, for one release."""

from __future__ import annotations

import ast
import importlib
import sys
import warnings
from pathlib import Path

import networkx as nx
import pytest

import dimcalc


@pytest.mark.parametrize("old", sorted(dimcalc.MOVED_MODULES))
def test_moved_module_imports_under_its_old_name(old: str) -> None:
    new = importlib.import_module(f"dimcalc.{dimcalc.MOVED_MODULES[old]}")
    sys.modules.pop(f"dimcalc.{old}", None)  # imported by an earlier test: import it afresh
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = importlib.import_module(f"dimcalc.{old}")
    assert module is new
    moved = [w for w in caught if issubclass(w.category, FutureWarning)]
    if old == "operations":  # public (docs/classes.md): kept for good, no warning
        assert moved == []
    else:
        assert moved and dimcalc.MOVED_MODULES[old] in str(moved[0].message)


def test_unknown_module_still_fails() -> None:
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("dimcalc.no_such_module")


def _import_graph() -> dict[str, set[str]]:
    """Module -> the dimcalc modules it imports, every import statement counted (``TYPE_CHECKING`` ones too)."""
    root = Path(dimcalc.__file__).parent
    modules: dict[str, tuple[Path, list[str]]] = {}
    for path in root.rglob("*.py"):
        parts = ["dimcalc", *path.relative_to(root).with_suffix("").parts]
        package = parts[:-1] if parts[-1] != "__init__" else parts[:-1]
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = (path, package)
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, (path, package) in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package[: len(package) - node.level + 1]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                subs = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in modules]
                # `from . import sub` imports the submodule; anything else also runs the package itself.
                targets = subs if len(subs) == len(node.names) else [target, *subs]
            elif isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            else:
                continue
            graph[name] |= {t for t in targets if t in modules and t != name}
    return graph


def test_no_import_circle_even_through_typing() -> None:
    graph = _import_graph()
    assert "dimcalc.classes.bit_table" in graph and graph["dimcalc.classes.hypothesis_class"]
    cycles = list(nx.simple_cycles(nx.DiGraph([(a, b) for a, bs in graph.items() for b in bs])))
    assert cycles == []


def test_the_class_model_modules_are_short() -> None:
    root = Path(dimcalc.__file__).parent
    long = {p.name: n for p in (root / "classes").glob("*.py") if (n := len(p.read_text().splitlines())) > 500}
    assert long == {}


@pytest.mark.parametrize("package", ["reports", "cli", "covers", "littlestone"])
def test_the_report_and_cli_modules_are_short(package: str) -> None:
    """Issue 21: no module over ~500 lines (``reports/check.py`` and ``reports/theorems.py`` were 576 and 570)."""
    root = Path(dimcalc.__file__).parent / package
    long = {p.name: n for p in root.glob("*.py") if (n := len(p.read_text().splitlines())) > 500}
    assert long == {}


@pytest.mark.parametrize("path", sorted((Path(__file__).parent).glob("brute_*.py")), ids=lambda p: p.name)
def test_brute_force_references_import_nothing_from_dimcalc(path: Path) -> None:
    """The definition-level references must stay independent of what they check (house rule 1)."""
    imported = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            imported.add((node.module or "").split(".")[0])
        elif isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
    assert "dimcalc" not in imported
