"""Where the classes of a sweep come from: files, random tables, generator families, every small class.

Each source yields :class:`SweepItem` objects: a class and a one-line
description of where it came from (stored in the database's
``class_sources`` table).  Sources validate their parameters when they are
built, so a bad option is refused before anything is computed.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..classes.hypothesis_class import HypothesisClass
from ..errors import ClassFileError, InvalidParameterError
from ..generators import GENERATORS, random_class
from ..io import load
from ..validation import is_int
from .canonical import CanonicalClass, all_classes, parse_size

__all__ = [
    "SweepItem",
    "file_items",
    "random_items",
    "generator_items",
    "all_items",
    "chain_items",
    "parse_range",
    "CLASS_FILE_SUFFIXES",
]

#: File name endings read from a directory.
CLASS_FILE_SUFFIXES = (".json", ".csv")


@dataclass(frozen=True)
class SweepItem:
    """One class to sweep and where it came from.

    Attributes
    ----------
    hclass : HypothesisClass
    source : str
        E.g. ``"file data/thresholds-15.json"``, ``"random --hypotheses 5 --points 3 --labels 2 --seed 7"``,
        ``"generate bgs-thm61 --k 7 --d 1"``, ``"all 4x3x2"``.
    canonical : CanonicalClass, optional
        The class's canonical form when the source already has it (saves computing it again).
    """

    hclass: HypothesisClass
    source: str
    canonical: CanonicalClass | None = None


def _expand_paths(paths: Sequence[str | os.PathLike]) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found = sorted(
                q
                for q in path.rglob("*")
                if q.is_file() and q.suffix.lower() in CLASS_FILE_SUFFIXES and not q.name.startswith(".")
            )
            if not found:
                raise ClassFileError(f"{path}: directory holds no class file (*.json, *.csv)")
            out.extend(found)
        elif path.exists():
            out.append(path)
        else:
            raise ClassFileError(f"{path}: no such file or directory")
    return out


def file_items(paths: Sequence[str | os.PathLike]) -> list[SweepItem]:
    """Load class files and every ``*.json`` / ``*.csv`` under the given directories (recursively, sorted).

    Every file is read before anything is computed: one bad file refuses the
    whole sweep with a one-line :class:`~dimcalc.errors.ClassFileError`.

    Examples
    --------
    >>> [item.source for item in file_items(["data/tiny-3.json"])]
    ['file data/tiny-3.json']
    """
    return [SweepItem(load(path), f"file {path}") for path in _expand_paths(paths)]


def random_items(size: str, *, count: int, seed: int = 0) -> Iterator[SweepItem]:
    """``count`` random tables of size ``ROWSxCOLSxLABELS``: :func:`dimcalc.generators.random_class` with seeds
    ``seed, seed + 1, ...`` (``dimcalc generate random`` rebuilds any of them).

    Rows may repeat (the class is then smaller): this is the library's random class, unchanged.

    Examples
    --------
    >>> [item.source for item in random_items("3x2x2", count=2, seed=5)]
    ['random --hypotheses 3 --points 2 --labels 2 --seed 5', 'random --hypotheses 3 --points 2 --labels 2 --seed 6']
    """
    rows, cols, labels = parse_size(size, "--random")
    if labels < 2:
        raise InvalidParameterError(f"--random needs at least 2 labels; got {size!r}")
    if not is_int(count) or count < 1:
        raise InvalidParameterError(f"--count must be a positive integer; got {count!r}")
    if not is_int(seed) or seed < 0:
        raise InvalidParameterError(f"--seed must be a non-negative integer; got {seed!r}")

    def gen() -> Iterator[SweepItem]:
        for s in range(seed, seed + count):
            H = random_class(hypotheses=rows, points=cols, labels=labels, random_state=s)
            yield SweepItem(H, f"random --hypotheses {rows} --points {cols} --labels {labels} --seed {s}")

    return gen()


def parse_range(text: str) -> list[int]:
    """Parse a parameter range: integers and inclusive ranges ``A..B``, comma-separated.

    >>> parse_range("5..7,9")
    [5, 6, 7, 9]
    """
    values: list[int] = []
    for part in str(text).split(","):
        part = part.strip()
        try:
            if ".." in part:
                a, b = (int(x) for x in part.split("..", 1))
                if b < a:
                    raise ValueError
                if b - a > 100_000:
                    raise InvalidParameterError(f"range {part!r} is too long (over 100000 values)")
                values.extend(range(a, b + 1))
            else:
                values.append(int(part))
        except ValueError:
            raise InvalidParameterError(
                f"a parameter range must be integers or A..B ranges separated by commas, e.g. 5..9,12; got {text!r}"
            ) from None
    return values


def generator_items(family: str, params: Sequence[str]) -> Iterator[SweepItem]:
    """The classes of a ``dimcalc generate`` family over a grid of parameters.

    Parameters
    ----------
    family : str
        A name of :data:`dimcalc.generators.GENERATORS`.
    params : sequence of str
        ``NAME=RANGE`` items, e.g. ``["k=5..9", "d=1,2"]`` (every combination
        is built); a ``path`` parameter takes one file name.

    Examples
    --------
    >>> [item.source for item in generator_items("thresholds", ["n=2..3"])]
    ['generate thresholds --n 2', 'generate thresholds --n 3']
    """
    g = GENERATORS.get(family)
    if g is None:
        raise InvalidParameterError(f"unknown family {family!r}; choose from {', '.join(GENERATORS)}")
    own = {p.name: p for p in g.params}
    grid: dict[str, list[Any]] = {}
    for item in params:
        name, sep, spec = str(item).partition("=")
        name = name.strip().lstrip("-")
        if not sep or not name:
            raise InvalidParameterError(f"--param must be NAME=RANGE, e.g. k=5..9; got {item!r}")
        if name not in own:
            raise InvalidParameterError(
                f"family {family!r} has no parameter {name!r}; its parameters are {', '.join(own)}"
            )
        if name in grid:
            raise InvalidParameterError(f"--param {name} given twice")
        grid[name] = [spec] if own[name].type == "path" else parse_range(spec)
    missing = [p.name for p in g.params if p.required and p.name not in grid]
    if missing:
        raise InvalidParameterError(f"family {family!r} needs --param {missing[0]}=...")
    names = list(grid)
    combos = list(itertools.product(*(grid[n] for n in names)))
    # build the first class now: a bad parameter is refused before the sweep starts
    built: list[HypothesisClass] = []
    for combo in combos[:1]:
        built.append(g.build(**dict(zip(names, combo))))

    def gen() -> Iterator[SweepItem]:
        for i, combo in enumerate(combos):
            kwargs = dict(zip(names, combo))
            H = built[0] if i == 0 else g.build(**kwargs)
            yield SweepItem(H, " ".join([f"generate {family}"] + [f"--{n} {v}" for n, v in kwargs.items()]))

    return gen()


def all_items(size: str) -> Iterator[SweepItem]:
    """One representative of every class of a size ``ROWSxCOLSxLABELS`` up to isomorphism
    (see :func:`~dimcalc.sweep.canonical.all_classes`).

    Examples
    --------
    >>> sum(1 for _ in all_items("4x3x2"))
    20
    """
    rows, cols, labels = parse_size(size, "--all")
    classes = all_classes(rows, cols, labels)  # validates now (generator below is lazy)
    first = next(classes)

    def gen() -> Iterator[SweepItem]:
        for c in itertools.chain([first], classes):
            yield SweepItem(c.to_class(name=f"all-{rows}x{cols}x{labels}"), f"all {rows}x{cols}x{labels}", c)

    return gen()


def chain_items(sources: Iterable[Iterable[SweepItem]]) -> Iterator[SweepItem]:
    """Concatenate sources."""
    for s in sources:
        yield from s
