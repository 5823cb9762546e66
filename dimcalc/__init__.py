"""dimcalc: exact combinatorial dimensions of finite hypothesis classes, with certificates.

A finite class is a table (rows = hypotheses, columns = domain points, entries =
labels ``0..k``).  dimcalc computes its VC, Natarajan, graph, Littlestone-type
dimensions and more, each with a witness that an independent checker verifies,
and turns them into sample sizes of differentially private learners.

>>> import dimcalc
>>> H = dimcalc.HypothesisClass.from_table([[0, 0, 1], [0, 1, 1], [1, 1, 1]])
>>> H.n_distinct
3
"""

import importlib

from ._startup import cli_interrupt_guard as _cli_interrupt_guard

# Ctrl-C while the `dimcalc` command is still importing: one line and exit 130, as later on
# (in any other program the KeyboardInterrupt is re-raised unchanged).
with _cli_interrupt_guard():
    from . import generators, operations, reports, witnesses
    from .communication import one_way_communication_complexity
    from .covers import zero_cover_function, zero_cover_number
    from .errors import ClassFileError, DimcalcError, InvalidClassError, InvalidParameterError, InvalidWitnessError
    from .hypothesis_class import HypothesisClass
    from .io import load, save
    from .littlestone import (
        binary_restriction_littlestone,
        littlestone_dimension,
        multiclass_littlestone_dimension,
        psi_littlestone_dimension,
    )
    from .littlestone.soa import MulticlassSOA, StandardOptimalAlgorithm
    from .operations import binary_restriction, binary_restrictions, complement, gap_amplification, restrict, xor_class
    from .psi import PsiFamily, psi_family
    from .reports import cover_report, growth_table, repdim_report, theorem_report
    from .representation import deterministic_representation_dimension, probabilistic_representation_bounds
    from .results import DimensionResult
    from .trees import is_mistake_tree, is_multiclass_tree, is_psi_tree
    from .vc import graph_dimension, growth_function, natarajan_dimension, sauer_shelah_bound, vc_dimension
    from .witnesses import (
        is_graph_shattered,
        is_natarajan_shattered,
        is_representation,
        is_shattered,
        is_zero_cover,
        is_zero_cover_fooling_set,
    )

__version__ = "0.1.0"

# Loaded on first use: sympy (sample sizes) and the learners cost ~0.3 s to import,
# which every CLI call would otherwise pay.  Listed by __dir__ and in __all__ like the others.
_LAZY = {
    "SampleSizeBound": ("sample_size.bound", "SampleSizeBound"),
    "sample_size_table": ("sample_size.table", "sample_size_table"),
    "sample_size": ("sample_size", None),
    "audit": ("audit", None),
    "learners": ("learners", None),
    "check": ("reports.check", None),
    "check_class": ("reports.check", "check_class"),
    "display": ("display", None),
    "plot": ("plot", None),
}


def __getattr__(name: str):
    if name in _LAZY:
        module_name, attr = _LAZY[name]
        module = importlib.import_module(f".{module_name}", __name__)
        return module if attr is None else getattr(module, attr)
    raise AttributeError(f"module 'dimcalc' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    # classes, files, results and errors
    "HypothesisClass",
    "load",
    "save",
    "generators",
    "operations",
    "binary_restriction",
    "binary_restrictions",
    "complement",
    "gap_amplification",
    "restrict",
    "xor_class",
    "DimensionResult",
    "DimcalcError",
    "ClassFileError",
    "InvalidClassError",
    "InvalidParameterError",
    "InvalidWitnessError",
    # VC-type dimensions (dimcalc.vc)
    "vc_dimension",
    "natarajan_dimension",
    "graph_dimension",
    "growth_function",
    "sauer_shelah_bound",
    # Littlestone-type dimensions (dimcalc.littlestone, dimcalc.psi)
    "littlestone_dimension",
    "multiclass_littlestone_dimension",
    "psi_littlestone_dimension",
    "binary_restriction_littlestone",
    "PsiFamily",
    "psi_family",
    "StandardOptimalAlgorithm",
    "MulticlassSOA",
    # 0-covers, representations, communication
    "zero_cover_number",
    "zero_cover_function",
    "deterministic_representation_dimension",
    "probabilistic_representation_bounds",
    "one_way_communication_complexity",
    # witnesses and their independent checkers (dimcalc.witnesses, dimcalc.trees)
    "witnesses",
    "is_shattered",
    "is_natarajan_shattered",
    "is_graph_shattered",
    "is_mistake_tree",
    "is_multiclass_tree",
    "is_psi_tree",
    "is_zero_cover",
    "is_zero_cover_fooling_set",
    "is_representation",
    # reports: several solvers under one time limit (dimcalc.reports; what the commands print)
    "reports",
    "check",
    "check_class",
    "theorem_report",
    "growth_table",
    "repdim_report",
    "cover_report",
    # privacy: sample sizes, learners, audits (loaded on first use)
    "sample_size",
    "SampleSizeBound",
    "sample_size_table",
    "learners",
    "audit",
    # notebooks: rich display and plots (matplotlib and pandas are optional extras, imported when used)
    "display",
    "plot",
]
