"""The families ``dimcalc generate`` (and ``dimcalc sweep --generate``) know: names, functions, parameters."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..classes.hypothesis_class import HypothesisClass
from ..errors import parameter_error
from ..io import load
from .bgs import bgs_thm61_class, bgs_thm72_class, gap_amplified_class
from .classic import intervals, k_point_functions, parities, point_functions, thresholds
from .geometric import balls, boxes, halfspaces, lines
from .random_tables import random_class

__all__ = ["Generator", "GeneratorParam", "GENERATORS"]


@dataclass(frozen=True)
class GeneratorParam:
    """One parameter of a generator family.

    Attributes
    ----------
    name : str
        The parameter's name: ``--name`` on the CLI, the key of the class's ``metadata["params"]``,
        and the generator function's keyword unless ``keyword`` says otherwise.
    type : str
        ``"int"`` or ``"path"`` (a class file, loaded with :func:`dimcalc.io.load`).
    help : str
        What it means.
    default : int or None
        Default value; ``None`` means the parameter is required (or, where the
        function has its own ``None`` default, computed by it).
    required : bool
        Whether it must be given.
    keyword : str or None
        The generator function's keyword when it differs from ``name`` (``--seed`` is
        ``random_state=`` of :func:`~dimcalc.generators.random_class`).
    """

    name: str
    type: str
    help: str
    default: int | None = None
    required: bool = False
    keyword: str | None = None


@dataclass(frozen=True)
class Generator:
    """A family of classes: its CLI name, generator function, parameters and source."""

    name: str
    function: Callable[..., HypothesisClass]
    summary: str
    source: str
    params: tuple[GeneratorParam, ...]

    def build(self, **kwargs: Any) -> HypothesisClass:
        """Build the class; missing parameters take their defaults (required ones must be given).

        A ``path`` parameter names a class file, read with :func:`dimcalc.io.load`
        (a :class:`~dimcalc.HypothesisClass` is taken as it is).
        """
        known = {p.name for p in self.params}
        for key in kwargs:
            if key not in known:
                raise parameter_error(key, f"family {self.name!r}", f"one of {sorted(known)}", key)
        args = {}
        for p in self.params:
            if kwargs.get(p.name) is not None:
                args[p.name] = kwargs[p.name]
            elif p.required:
                raise parameter_error(p.name, f"family {self.name!r}", f"given ({p.help})", None)
            elif p.default is not None:
                args[p.name] = p.default
        for p in self.params:
            if p.type == "path" and p.name in args and not isinstance(args[p.name], HypothesisClass):
                args[p.name] = load(args[p.name])
        return self.function(**{(p.keyword or p.name): args[p.name] for p in self.params if p.name in args})


def _p(
    name: str,
    help: str,
    default: int | None = None,
    required: bool = False,
    type: str = "int",
    keyword: str | None = None,
) -> GeneratorParam:
    return GeneratorParam(name=name, type=type, help=help, default=default, required=required, keyword=keyword)


GENERATORS: dict[str, Generator] = {
    g.name: g
    for g in (
        Generator(
            "point-functions",
            point_functions,
            "indicators 1[x = j] of single points",
            "BNS §6",
            (_p("n", "number of points", required=True),),
        ),
        Generator(
            "k-point-functions",
            k_point_functions,
            "indicators of all sets of exactly k points",
            "BGS Thm 7.2",
            (_p("n", "number of points", required=True), _p("k", "points per set", required=True)),
        ),
        Generator(
            "thresholds",
            thresholds,
            "the n+1 thresholds 1[i >= j], j = 0..n, over n points",
            "FX §4.1",
            (_p("n", "number of points", required=True),),
        ),
        Generator(
            "intervals",
            intervals,
            "intervals [a, b] over n points, plus the empty interval",
            "-",
            (_p("n", "number of points", required=True),),
        ),
        Generator(
            "parities",
            parities,
            "the 2^d parities over {0,1}^d",
            "BNS §6",
            (_p("d", "dimension (1..13)", required=True),),
        ),
        Generator(
            "boxes",
            boxes,
            "axis-parallel boxes over the grid [2^b]^d, plus the empty box",
            "FX §4.1 BOX_b^d",
            (_p("b", "bits per coordinate (grid side 2^b)", required=True), _p("d", "dimension", default=2)),
        ),
        Generator(
            "halfspaces",
            halfspaces,
            "halfspaces (linear thresholds) over the grid [2^b]^d, d <= 2",
            "FX §4.1 HS_b^d",
            (
                _p("b", "bits per coordinate (grid side 2^b; b <= 4 when d = 2)", required=True),
                _p("d", "dimension (1 or 2)", default=2),
            ),
        ),
        Generator(
            "balls",
            balls,
            "Euclidean balls over the grid [2^b]^d, d <= 2, plus the empty set",
            "FX §4.1 BALL_b^d",
            (
                _p("b", "bits per coordinate (grid side 2^b; b <= 3 when d = 2)", required=True),
                _p("d", "dimension (1 or 2)", default=2),
            ),
        ),
        Generator(
            "lines",
            lines,
            "non-vertical lines y = ax + b in Z_p^2",
            "FX §5 Line_p",
            (_p("p", "a prime <= 113", required=True),),
        ),
        Generator(
            "bgs-thm61",
            bgs_thm61_class,
            "f_t(x) = (1[t >= x], t), amplified d times: MLD d, LDim(H|1) ~ d log k",
            "BGS Thm 6.1",
            (
                _p("k", "largest label (>= 5); k+1 labels", required=True),
                _p("d", "multiclass Littlestone dimension", default=1),
            ),
        ),
        Generator(
            "bgs-thm72",
            bgs_thm72_class,
            "all binary restrictions are d-point functions: MLD d*bits",
            "BGS Thm 7.2",
            (
                _p("d", "points per set", required=True),
                _p("bits", "bits per label", required=True),
                _p("n", "domain size (default (bits+1)*d)"),
            ),
        ),
        Generator(
            "gap-amplification",
            gap_amplified_class,
            "ell copies of a class on disjoint domains",
            "BGS Claim 6.2",
            (
                _p("input", "class file to amplify", required=True, type="path"),
                _p("ell", "number of copies", required=True),
            ),
        ),
        Generator(
            "random",
            random_class,
            "uniform random labels, seeded",
            "-",
            (
                _p("hypotheses", "number of rows", required=True),
                _p("points", "number of points", required=True),
                _p("labels", "number of labels k+1", default=2),
                _p("seed", "random seed (the function's random_state)", default=0, keyword="random_state"),
            ),
        ),
    )
}
