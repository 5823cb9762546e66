"""Reports: the orchestration behind each ``dimcalc`` command, as library functions returning data.

Each report runs several solvers under one time limit and returns an object
(with ``to_json()``) that the CLI only formats:

* :func:`theorem_report` -- every finite-class statement of the seed papers, evaluated
  (``dimcalc theorems``), with :func:`theorem_verdict`;
* :func:`growth_table` -- ``π_H(m)`` beside the Sauer–Shelah bound (``dimcalc growth``);
* :func:`repdim_report` -- DRDim_ε, PRDim bounds, one-way communication (``dimcalc repdim``);
* :func:`cover_report` -- a 0-cover number beside BGS Thm 5.6 (``dimcalc cover``).

The check report (``dimcalc check``) is :func:`dimcalc.reports.check.check_class`; the
sample-size table is :func:`dimcalc.sample_size.sample_size_table`.
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from .covers import CoverReport, cover_report
    from .growth import GrowthRow, GrowthTable, growth_table
    from .repdim import RepdimReport, repdim_report
    from .theorems import Side, TheoremCheck, compare, dimension_relations, theorem_report, theorem_verdict

# Loaded on first use (PEP 562): ``dimcalc check`` imports :mod:`dimcalc.reports.check` without the other reports'
# solvers (representation, covers, theorems).
_LAZY = {
    **dict.fromkeys(("CoverReport", "cover_report"), "covers"),
    **dict.fromkeys(("GrowthRow", "GrowthTable", "growth_table"), "growth"),
    **dict.fromkeys(("RepdimReport", "repdim_report"), "repdim"),
    **dict.fromkeys(("Side", "TheoremCheck", "compare", "dimension_relations"), "theorems"),
    **dict.fromkeys(("theorem_report", "theorem_verdict"), "theorems"),
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "CoverReport",
    "GrowthRow",
    "GrowthTable",
    "RepdimReport",
    "Side",
    "TheoremCheck",
    "compare",
    "cover_report",
    "growth_table",
    "repdim_report",
    "theorem_report",
    "theorem_verdict",
    "dimension_relations",
]
