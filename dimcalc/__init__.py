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
import importlib.abc
import importlib.util
import sys
import warnings
from typing import TYPE_CHECKING, Any

from ._startup import cli_interrupt_guard as _cli_interrupt_guard
from .errors import ClassFileError, DimcalcError, InvalidClassError, InvalidParameterError, InvalidWitnessError

# Every other public name is loaded on first use (PEP 562): `import dimcalc` costs milliseconds, and the
# `dimcalc` command imports only what its subcommand runs (`check --graph --dims vc` needs neither the
# Littlestone engine nor sympy).  Type checkers read the imports below.
if TYPE_CHECKING:  # pragma: no cover
    from . import generators, reports, witnesses
    from .classes import operations
    from .classes.hypothesis_class import HypothesisClass
    from .classes.operations import (
        binary_restriction,
        binary_restrictions,
        complement,
        gap_amplification,
        restrict,
        xor_class,
    )
    from .covers import zero_cover_function, zero_cover_number
    from .dims import (
        ds_dimension,
        dual_vc_dimension,
        recursive_teaching_dimension,
        star_number,
        teaching_dimension,
        threshold_dimension,
    )
    from .errors import ClassFileError, DimcalcError, InvalidClassError, InvalidParameterError, InvalidWitnessError
    from .io import load, save
    from .littlestone import (
        binary_restriction_littlestone,
        littlestone_dimension,
        multiclass_littlestone_dimension,
        psi_littlestone_dimension,
    )
    from .littlestone.soa import MulticlassSOA, StandardOptimalAlgorithm
    from .psi import PsiFamily, psi_family
    from .reports import cover_report, growth_table, repdim_report, theorem_report
    from .representation import deterministic_representation_dimension, probabilistic_representation_bounds
    from .representation.communication import one_way_communication_complexity
    from .results import DimensionResult
    from .vc import graph_dimension, growth_function, natarajan_dimension, sauer_shelah_bound, vc_dimension
    from .witnesses import (
        is_graph_shattered,
        is_natarajan_shattered,
        is_representation,
        is_shattered,
        is_zero_cover,
        is_zero_cover_fooling_set,
    )
    from .witnesses.tree_checks import is_mistake_tree, is_multiclass_tree, is_psi_tree


__version__ = "0.1.0"


def _each(module: str, *names: str) -> dict[str, tuple[str, str | None]]:
    return {name: (module, name) for name in names}


#: Public names loaded on first use: name -> (module relative to ``dimcalc``, attribute; None: the module).
_LAZY: dict[str, tuple[str, str | None]] = {
    "generators": ("generators", None),
    "reports": ("reports", None),
    "witnesses": ("witnesses", None),
    "operations": ("classes.operations", None),
    "HypothesisClass": ("classes.hypothesis_class", "HypothesisClass"),
    **_each("classes.operations", "binary_restriction", "binary_restrictions", "complement"),
    **_each("classes.operations", "gap_amplification", "restrict", "xor_class"),
    **_each("covers", "zero_cover_function", "zero_cover_number"),
    **_each("dims", "ds_dimension", "dual_vc_dimension", "recursive_teaching_dimension"),
    **_each("dims", "star_number", "teaching_dimension", "threshold_dimension"),
    **_each("io", "load", "save"),
    **_each("littlestone", "binary_restriction_littlestone", "littlestone_dimension"),
    **_each("littlestone", "multiclass_littlestone_dimension", "psi_littlestone_dimension"),
    **_each("littlestone.soa", "MulticlassSOA", "StandardOptimalAlgorithm"),
    **_each("psi", "PsiFamily", "psi_family"),
    **_each("reports", "cover_report", "growth_table", "repdim_report", "theorem_report"),
    **_each("representation", "deterministic_representation_dimension", "probabilistic_representation_bounds"),
    **_each("representation.communication", "one_way_communication_complexity"),
    **_each("results", "DimensionResult"),
    **_each("vc", "graph_dimension", "growth_function", "natarajan_dimension", "sauer_shelah_bound"),
    **_each("vc", "vc_dimension"),
    **_each("witnesses", "is_graph_shattered", "is_natarajan_shattered", "is_representation", "is_shattered"),
    **_each("witnesses", "is_zero_cover", "is_zero_cover_fooling_set"),
    **_each("witnesses.tree_checks", "is_mistake_tree", "is_multiclass_tree", "is_psi_tree"),
    # sympy (sample sizes) and the learners alone cost ~0.3 s to import
    "SampleSizeBound": ("sample_size.bound", "SampleSizeBound"),
    "sample_size_table": ("sample_size.table", "sample_size_table"),
    "sample_size": ("sample_size", None),
    "audit": ("learners.audit", None),
    "learners": ("learners", None),
    "check": ("reports.check", None),
    "check_class": ("reports.check", "check_class"),
    "display": ("display", None),
    "plot": ("plot", None),
}


#: Modules that moved, old name -> new name (relative to ``dimcalc``).  ``dimcalc.operations`` is
#: public (docs/classes.md) and keeps its name for good; the others still import, with a
#: FutureWarning, for one release.
MOVED_MODULES = {
    "operations": "classes.operations",
    "hypothesis_class": "classes.hypothesis_class",
    "bit_table": "classes.bit_table",
    "bit_groups": "classes.bit_groups",
    "reduction": "classes.reduction",
    "set_systems": "classes.set_systems",
    "table_input": "classes.table_input",
    "trees": "witnesses.tree_checks",
    "tree_format": "witnesses.tree_format",
    "communication": "representation.communication",
    "audit": "learners.audit",
}
_PERMANENT_ALIASES = frozenset({"operations"})


class _MovedModuleFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """``import dimcalc.OLD`` gives the module under its new name (the same module object)."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        prefix, _, old = fullname.rpartition(".")
        if prefix != __name__ or old not in MOVED_MODULES:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: Any) -> Any:
        old = spec.name.rpartition(".")[2]
        new = f"{__name__}.{MOVED_MODULES[old]}"
        if old not in _PERMANENT_ALIASES:
            warnings.warn(
                f"{spec.name} moved to {new}; the old name goes in the next release.", FutureWarning, stacklevel=2
            )
        return importlib.import_module(new)

    def exec_module(self, module: Any) -> None:
        """Nothing to run: the module is the one already imported under its new name."""


if not any(isinstance(finder, _MovedModuleFinder) for finder in sys.meta_path):
    sys.meta_path.append(_MovedModuleFinder())


def __getattr__(name: str):
    if name in _LAZY:
        module_name, attr = _LAZY[name]
        with _cli_interrupt_guard():  # Ctrl-C in the `dimcalc` command while importing: one line, exit 130
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
    # threshold, DS, dual VC, star number, teaching dimensions (dimcalc.dims)
    "threshold_dimension",
    "ds_dimension",
    "dual_vc_dimension",
    "star_number",
    "teaching_dimension",
    "recursive_teaching_dimension",
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
    # witnesses and their independent checkers (dimcalc.witnesses)
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
