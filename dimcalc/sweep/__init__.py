"""Sweeps: dimensions and the theorem report over thousands of classes, and a search for extremal classes.

* :mod:`~dimcalc.sweep.canonical` — classes up to isomorphism (nauty), every class of a small size;
* :mod:`~dimcalc.sweep.sources` — class files and directories, random tables, generator families, every class;
* :mod:`~dimcalc.sweep.db` — the SQLite database (schema in ``docs/sweep.md``);
* :mod:`~dimcalc.sweep.run` — :func:`run_sweep`: in this process, on a process pool or on a Dask cluster;
* :mod:`~dimcalc.sweep.report` — :func:`sweep_report`: counts, distributions, violations, extremes;
* :mod:`~dimcalc.sweep.expr` — safe expressions of dimensions;
* :mod:`~dimcalc.sweep.extremal` — :func:`local_search` for classes maximising an expression.

Dask is imported only when a sweep is sent to a Dask cluster.
"""

from .canonical import CanonicalClass, all_classes, canonical_form, is_isomorphic, parse_size
from .db import SweepDB
from .expr import Expression, parse_expression
from .extremal import ExtremalResult, local_search
from .report import SweepReport, expression_extremes, extremal_class, sweep_report
from .run import SweepSummary, run_sweep
from .sources import SweepItem, all_items, chain_items, file_items, generator_items, random_items

__all__ = [
    "CanonicalClass",
    "all_classes",
    "canonical_form",
    "is_isomorphic",
    "parse_size",
    "SweepDB",
    "Expression",
    "parse_expression",
    "ExtremalResult",
    "local_search",
    "SweepReport",
    "expression_extremes",
    "extremal_class",
    "sweep_report",
    "SweepSummary",
    "run_sweep",
    "SweepItem",
    "all_items",
    "chain_items",
    "file_items",
    "generator_items",
    "random_items",
]
