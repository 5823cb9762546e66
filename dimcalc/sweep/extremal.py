"""Extremal classes beyond exhaustive sizes: local search maximising an expression of dimensions.

:func:`local_search` hill-climbs over tables of a fixed size (``hypotheses``
distinct rows, ``points`` columns, labels ``0..labels-1``) with random
restarts.  A move changes one cell or replaces one row; each step looks at a
few random moves and takes the best one if it does not lower the objective
(sideways moves let the walk cross plateaus, which integer-valued dimensions
are full of).  Every class is evaluated exactly once: evaluations are cached
by the class's canonical form (nauty), so isomorphic tables cost nothing.

The objective only counts exact values: a class whose search a time limit
stopped is never accepted.  The best class is re-checked at the end with
:func:`dimcalc.reports.check.check_class`, and its witnesses are verified.

This is a heuristic: the value found is a proven *lower bound* on the maximum
over the size (the class and its witnesses prove it), not the maximum.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np

from ..classes.hypothesis_class import HypothesisClass
from ..errors import InvalidParameterError
from ..param_validation import RANDOM_STATE, renamed_parameters
from ..reports.check import DIMENSION_KEYS, check_class
from ..validation import check_int
from .canonical import canonical_form
from .compute import flatten_dimensions
from .expr import SIZE_NAMES, Expression, parse_expression

__all__ = ["ExtremalResult", "local_search", "objective_values"]


@dataclass
class ExtremalResult:
    """The best class a :func:`local_search` found.

    Attributes
    ----------
    expression : str
    value : float or None
        The expression's value on ``hclass`` (None if no class had exact values).
    hclass : HypothesisClass
        The best class (canonical form); ``metadata["search"]`` records the search.
    report : CheckReport
        Its dimensions, recomputed at the end; ``verified`` says its witnesses passed dimcalc's checkers.
    verified : bool
    evaluations : int
        Distinct classes (up to isomorphism) evaluated.
    inexact : int
        Evaluations a time limit stopped (never accepted).
    restart_values : list
        Best value reached in each restart.
    seconds : float
    """

    expression: str
    value: float | None
    hclass: HypothesisClass
    report: Any
    verified: bool
    evaluations: int = 0
    inexact: int = 0
    restart_values: list = field(default_factory=list)
    seconds: float = 0.0

    def to_json(self) -> dict:
        return {
            "expression": self.expression,
            "value": self.value,
            "verified": self.verified,
            "evaluations": self.evaluations,
            "inexact": self.inexact,
            "restart_values": self.restart_values,
            "seconds": round(self.seconds, 3),
            "class": self.hclass.to_dict(),
            "check": self.report.to_json(),
        }


def objective_values(report: Any, H: HypothesisClass) -> tuple[dict[str, float], bool]:
    """Exact values by name (with ``binary_restrictions.max`` and the sizes) and whether every result was exact."""
    flat = flatten_dimensions(report.dimensions)
    values: dict[str, float] = {"hypotheses": H.n_distinct, "points": H.n_points, "labels": H.num_labels}
    complete = True
    restr = []
    for name, r in flat.items():
        if r.exact and r.value is not None:
            values[name] = r.value
        elif not r.exact:
            complete = False
        if name.startswith("binary_restrictions."):
            restr.append(r.value if r.exact else None)
    if restr and None not in restr:
        values["binary_restrictions.max"] = max(cast(list[int], restr))  # no None: checked
    return values, complete


def _random_table(rng: np.random.Generator, rows: int, cols: int, labels: int) -> np.ndarray:
    seen: set[bytes] = set()
    out: list[np.ndarray] = []
    while len(out) < rows:
        row = rng.integers(0, labels, size=cols, dtype=np.int64)
        if row.tobytes() not in seen:
            seen.add(row.tobytes())
            out.append(row)
    return np.array(out)


def _neighbour(rng: np.random.Generator, table: np.ndarray, labels: int, row_move: float) -> np.ndarray | None:
    rows, cols = table.shape
    new = table.copy()
    r = int(rng.integers(rows))
    if rng.random() < row_move:
        new[r] = rng.integers(0, labels, size=cols)
    else:
        c = int(rng.integers(cols))
        new[r, c] = (new[r, c] + 1 + int(rng.integers(labels - 1))) % labels
    if len({row.tobytes() for row in new}) < rows:
        return None  # two rows coincide: the class would shrink
    return new


@renamed_parameters(seed="random_state")
def local_search(
    expression: str | Expression,
    *,
    hypotheses: int,
    points: int,
    labels: int,
    restarts: int = 8,
    steps: int = 200,
    neighbours: int = 4,
    random_state: Any = 0,
    time_limit: float | None = None,
    target: float | None = None,
    total_time: float | None = None,
    start: HypothesisClass | None = None,
) -> ExtremalResult:
    """Search tables of one size for a class maximising ``expression`` (hill-climbing with random restarts).

    Parameters
    ----------
    expression : str or Expression
        What to maximise, e.g. ``"binary_restrictions.max - multiclass_littlestone"``
        (see :mod:`dimcalc.sweep.expr`).
    hypotheses, points, labels : int
        The size: distinct rows, columns, number of labels ``k + 1``.
    restarts : int
        Random starting tables (the first is ``start`` when given).
    steps : int
        Moves tried per restart; each looks at ``neighbours`` random moves.
    random_state : None, int or numpy.random.Generator, default 0
        The random source (:data:`dimcalc.param_validation.RANDOM_STATE`): the same int seed gives
        the same search (``dimcalc sweep --search --seed S`` passes ``S``).  ``seed=`` is its former
        name, accepted for one release with a ``FutureWarning``.
    time_limit : float, optional
        Seconds per evaluation (a stopped evaluation is not accepted).
    target : float, optional
        Stop as soon as the objective reaches this value.
    total_time : float, optional
        Stop after this many seconds in all (the best class so far is returned, with its
        dimensions computed in what is left: bounds when nothing is).  ``dimcalc sweep --search
        --time-limit S`` sets both this and ``time_limit``.
    start : HypothesisClass, optional
        First starting table (must have the size).

    Returns
    -------
    ExtremalResult

    References
    ----------
    BGS Thm 6.1 (a class with MLD 1 whose binary restriction ``H|_1`` has
    Littlestone dimension ``floor(log2(k'/2))``) and Claim 6.2 (gap
    amplification) are the known gaps the tests have the search rediscover.

    Examples
    --------
    >>> r = local_search("littlestone - vc", hypotheses=4, points=3, labels=2, restarts=2, steps=20, random_state=1)
    >>> r.value, r.verified
    (1, True)
    """
    expr = expression if isinstance(expression, Expression) else parse_expression(expression)
    keys = expr.dimension_keys()
    for k in keys:
        if k not in DIMENSION_KEYS:
            raise InvalidParameterError(
                f"--search: {k!r} in {expr.text!r} is not a dimension; "
                f"names start with one of {', '.join(DIMENSION_KEYS + SIZE_NAMES)}"
            )
    for name, given, low in (
        ("hypotheses", hypotheses, 1),
        ("points", points, 1),
        ("labels", labels, 2),
        ("restarts", restarts, 1),
        ("steps", steps, 0),
        ("neighbours", neighbours, 1),
    ):
        check_int(given, name, "local_search", low)
    if hypotheses > labels**points:
        raise InvalidParameterError(
            f"no class of size {hypotheses}x{points}x{labels}: only {labels**points} distinct hypotheses exist"
        )
    if start is not None and (start.n_distinct, start.n_points, start.num_labels) != (hypotheses, points, labels):
        raise InvalidParameterError("start must have the searched size (distinct hypotheses, points, labels)")
    rng = RANDOM_STATE.check(random_state, "random_state", "local_search")
    began = time.monotonic()
    cache: dict[str, float | None] = {}
    inexact = 0

    def evaluate(table: np.ndarray) -> float | None:
        nonlocal inexact
        key = canonical_form(table, labels).canonical_hash
        if key in cache:
            return cache[key]
        H = HypothesisClass(table, num_labels=labels)
        report = check_class(H, dims=keys, time_limit=evaluation_limit())
        values, complete = objective_values(report, H)
        inexact += not complete
        try:
            v = expr.evaluate(values)
        except (KeyError, ZeroDivisionError, ValueError):
            v = None
        cache[key] = v
        return v

    def out_of_time() -> bool:
        return total_time is not None and time.monotonic() - began >= total_time

    def evaluation_limit() -> float | None:
        """Seconds for one evaluation: ``time_limit``, and never past ``total_time``."""
        if total_time is None:
            return time_limit
        left = max(1e-3, total_time - (time.monotonic() - began))  # check_class takes a positive limit
        return left if time_limit is None else min(time_limit, left)

    best_value: float | None = None
    best_table: np.ndarray | None = None
    restart_values: list = []
    stop = False
    for restart in range(restarts):
        if start is not None and restart == 0:
            current = np.asarray(start.distinct_rows, dtype=np.int64)
        else:
            current = _random_table(rng, hypotheses, points, labels)
        if restart and out_of_time():
            break
        value = evaluate(current)
        run_best = value
        if value is not None and (best_value is None or value > best_value):
            best_value, best_table = value, current
        for _ in range(steps):
            if stop or (target is not None and best_value is not None and best_value >= target) or out_of_time():
                stop = True
                break
            candidates = []
            for _ in range(neighbours):
                if out_of_time():
                    break
                nxt = _neighbour(rng, current, labels, row_move=0.25)
                if nxt is not None:
                    candidates.append((evaluate(nxt), nxt))
            scored = [(v, t) for v, t in candidates if v is not None]
            if not scored:
                continue
            v, t = max(scored, key=lambda vt: vt[0])
            if value is None or v >= value:
                current, value = t, v
                if run_best is None or v > run_best:
                    run_best = v
                if best_value is None or v > best_value:
                    best_value, best_table = v, t
        restart_values.append(run_best)
        if stop:
            break
    if best_table is None:
        best_table = current
    canon = canonical_form(best_table, labels)
    H = canon.to_class()
    report = check_class(H, dims=keys, time_limit=evaluation_limit())
    values, _ = objective_values(report, H)
    try:
        final = expr.evaluate(values)
    except (KeyError, ZeroDivisionError, ValueError):
        final = None
    # the class file carries the search and the witnesses (they index this very table)
    dims = {name: r.to_json() for name, r in flatten_dimensions(report.dimensions).items()}
    H = canon.to_class(
        name=f"search-{hypotheses}x{points}x{labels}",
        metadata={
            "search": {
                "expression": expr.text,
                "value": final,
                "seed": int(random_state) if isinstance(random_state, (int, np.integer)) else None,
                "restarts": len(restart_values),
                "steps": steps,
                "neighbours": neighbours,
                "dimensions": dims,
            }
        },
    )
    report.hclass = H
    return ExtremalResult(
        expression=expr.text,
        value=final,
        hclass=H,
        report=report,
        verified=report.verify(),
        evaluations=len(cache),
        inexact=inexact,
        restart_values=restart_values,
        seconds=time.monotonic() - began,
    )
