"""The unit of work of a sweep: the dimensions (and theorem report) of a few classes, in a worker.

:func:`compute_chunk` is what a process pool or a Dask worker runs.  It takes
plain data (tables as lists, options as a dict) and returns plain data (rows
ready for the database), so it pickles cheaply and keeps no state between
calls.  Every witness is re-checked with dimcalc's independent checkers
(:meth:`~dimcalc.results.DimensionResult.verify`) before it leaves the worker;
the result rows say whether it verified.
"""

from __future__ import annotations

import json
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .._json import json_default
from ..classes.hypothesis_class import HypothesisClass, label_bits
from ..reports.check import PSI_FAMILIES, check_class
from ..reports.theorems import theorem_report
from ..results import DimensionResult

__all__ = ["Task", "Outcome", "compute_chunk", "compute_task", "flatten_dimensions", "dimension_names", "THEOREMS_ITEM"]

#: The ``completed.item`` that marks a class's theorem report as stored.
THEOREMS_ITEM = "theorems"


@dataclass(frozen=True)
class Task:
    """One class to compute: its database id, its table, and which items (``check`` keys, ``"theorems"``)."""

    class_id: int
    table: list
    num_labels: int
    items: tuple[str, ...]


@dataclass
class Outcome:
    """What a worker computed for one class, as database rows (see :meth:`SweepDB.store_outcome`)."""

    class_id: int
    results: list[tuple] = field(default_factory=list)
    theorems: list[tuple] = field(default_factory=list)
    completed: list[tuple[str, float]] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)
    seconds: float = 0.0


def flatten_dimensions(dimensions: dict[str, Any]) -> dict[str, DimensionResult]:
    """``CheckReport.dimensions`` as flat names: ``vc``, ``psi_littlestone.bin``, ``binary_restrictions.1``, ...

    >>> from dimcalc import HypothesisClass
    >>> from dimcalc.reports.check import check_class
    >>> H = HypothesisClass.from_table([[0, 1], [2, 0]])
    >>> report = check_class(H, dims=["psi_littlestone", "binary_restrictions"])
    >>> sorted(flatten_dimensions(report.dimensions))
    ['binary_restrictions.1', 'binary_restrictions.2', 'psi_littlestone.B', 'psi_littlestone.N', 'psi_littlestone.bin']
    """
    out: dict[str, DimensionResult] = {}
    for key, val in dimensions.items():
        if isinstance(val, DimensionResult):
            out[key] = val
        elif isinstance(val, dict):
            for fam, r in val.items():
                out[f"{key}.{fam}"] = r
        elif isinstance(val, list):
            for i, r in enumerate(val, start=1):
                out[f"{key}.{i}"] = r
    return out


def dimension_names(keys: Sequence[str], num_labels: int, *, user_family: bool = False) -> list[str]:
    """The flat result names that ``check`` keys produce for a class with ``num_labels`` labels.

    >>> dimension_names(["vc", "psi_littlestone", "binary_restrictions"], 4)  # doctest: +NORMALIZE_WHITESPACE
    ['vc', 'psi_littlestone.N', 'psi_littlestone.bin', 'psi_littlestone.B',
     'binary_restrictions.1', 'binary_restrictions.2']
    """
    out: list[str] = []
    for key in keys:
        if key.startswith("psi_littlestone"):
            out.extend(f"{key}.{f}" for f in (*PSI_FAMILIES, *(("user",) if user_family else ())))
        elif key == "binary_restrictions":
            out.extend(f"{key}.{i}" for i in range(1, label_bits(num_labels) + 1))
        else:
            out.append(key)
    return out


def _dumps(obj: Any) -> str:
    return json.dumps(obj, default=json_default, separators=(",", ":"), allow_nan=False)


def _int_or_none(v: Any) -> int | None:
    return None if v is None else int(v)


def compute_task(task: Task, options: dict[str, Any]) -> Outcome:
    """Compute one class: :func:`dimcalc.reports.check.check_class` and, if asked, :func:`dimcalc.theorems.theorem_report`.

    ``options``: ``time_limit`` (seconds per class for the dimensions, and as
    much again for the theorem report), ``family`` (maps of a user Ψ family or
    None), ``representation`` (theorem report's switch, None = its default).
    A failure of one class is recorded as an error row, never raised.
    """
    start = time.monotonic()
    out = Outcome(task.class_id)
    H = HypothesisClass(task.table, num_labels=task.num_labels)
    keys = [k for k in task.items if k != THEOREMS_ITEM]
    time_limit = options.get("time_limit")
    if keys:
        try:
            report = check_class(H, dims=keys, time_limit=time_limit, family=options.get("family"))
            flat = flatten_dimensions(report.dimensions)
            for name, r in flat.items():
                group = name.split(".", 1)[0]
                seconds = r.stats.get("seconds", report.seconds.get(group)) if r.stats else report.seconds.get(group)
                data = r.to_json()
                out.results.append(
                    (
                        name,
                        _int_or_none(r.value),
                        int(bool(r.exact)),
                        _int_or_none(r.lower),
                        _int_or_none(r.upper),
                        None if seconds is None else float(seconds),
                        None if data.get("witness") is None else _dumps(data["witness"]),
                        r.kind,
                        r.reason,
                        int(bool(r.verify(H))),
                    )
                )
            out.completed.extend((k, float(report.seconds.get(k, 0.0))) for k in keys)
        except Exception as exc:  # one bad class must not stop a sweep of thousands
            out.results.clear()
            out.errors.append(("dimensions", f"{type(exc).__name__}: {exc} | {_last_frame(exc)}"))
    if THEOREMS_ITEM in task.items:
        t0 = time.monotonic()
        try:
            checks = theorem_report(H, time_limit=time_limit, representation=options.get("representation"))
            for position, c in enumerate(checks):
                holds = c.holds if isinstance(c.holds, str) else ("true" if c.holds else "false")
                out.theorems.append(
                    (
                        position,
                        c.source,
                        c.statement,
                        _dumps(c.lhs.to_json()),
                        c.relation,
                        _dumps(c.rhs.to_json()),
                        int(c.exact),
                        holds,
                        c.note,
                    )
                )
            out.completed.append((THEOREMS_ITEM, time.monotonic() - t0))
        except Exception as exc:
            out.theorems.clear()
            out.errors.append((THEOREMS_ITEM, f"{type(exc).__name__}: {exc} | {_last_frame(exc)}"))
    out.seconds = time.monotonic() - start
    return out


def _last_frame(exc: BaseException) -> str:
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return ""
    f = frames[-1]
    return f"{f.filename.rsplit('/', 1)[-1]}:{f.lineno}"


def compute_chunk(tasks: Sequence[Task], options: dict[str, Any]) -> list[Outcome]:
    """Compute a few classes in a row (the task a pool or Dask worker runs)."""
    return [compute_task(t, options) for t in tasks]
