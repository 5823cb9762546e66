"""Summaries of a sweep database: counts, distributions, violated statements, extremes of an expression.

:func:`sweep_report` reads a database written by :func:`~dimcalc.sweep.run.run_sweep`
and returns a :class:`SweepReport` (``to_json()`` for tools; ``dimcalc sweep
--report`` prints it).  :func:`expression_extremes` finds the classes where an
expression of dimensions (:mod:`dimcalc.sweep.expr`) is largest and smallest,
and :func:`extremal_class` returns such a class with its stored results and
witnesses in its metadata, ready to be saved as a class file.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ..classes.hypothesis_class import HypothesisClass
from ..classes.operations import binary_restriction
from ..errors import InvalidParameterError
from ..psi import psi_family
from ..results import DimensionResult
from ..witnesses import PsiTree
from ..witnesses.tree_checks import is_mistake_tree, tree_depth
from .db import SweepDB
from .expr import SIZE_NAMES, Expression, parse_expression

__all__ = [
    "SweepReport",
    "Extremes",
    "sweep_report",
    "class_values",
    "expression_extremes",
    "extremal_class",
    "verify_stored",
    "verify_result",
    "VIRTUAL_NAMES",
]

#: Names computed from stored results: ``binary_restrictions.max`` = max_i LDim(H|_i).
VIRTUAL_NAMES = ("binary_restrictions.max",)

#: At most this many violated statements / errors are listed one by one.
LIST_LIMIT = 50


@dataclass
class Extremes:
    """The largest and smallest value of an expression over the classes where it is defined.

    ``evaluated`` classes have an exact value for every name; ``skipped`` miss
    one (not computed, undefined for the class, e.g. ``vc`` of a multiclass
    class, or only bounded) or divide by zero.  ``max_classes`` /
    ``min_classes`` list the ids attaining the extreme (smallest first).
    """

    expression: str
    evaluated: int = 0
    skipped: int = 0
    #: classes (among ``skipped``) where every name has an exact value but the expression is undefined
    #: (a division by zero, log2 of a number <= 0)
    undefined: int = 0
    max_value: float | None = None
    max_classes: list[int] = field(default_factory=list)
    min_value: float | None = None
    min_classes: list[int] = field(default_factory=list)
    distribution: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict:
        return asdict(self)


@dataclass
class SweepReport:
    """Everything :func:`sweep_report` found (see :meth:`to_json` for the keys)."""

    db: str
    classes: int
    sizes: list[dict]
    runs: int
    dimensions: dict[str, dict]
    theorems: dict[str, Any]
    violations: list[dict]
    errors: list[dict]
    error_count: int
    extremes: list[Extremes]
    verification: dict[str, Any] | None = None

    @property
    def exit_status(self) -> int:
        """``1`` when a statement is violated, a stored witness failed its checker or a class failed; else ``0``."""
        bad = sum(d["unverified"] for d in self.dimensions.values())
        if self.verification:
            bad += len(self.verification["failed"])
        return 1 if (self.theorems["violated"] or bad or self.error_count) else 0

    def to_json(self) -> dict:
        d = asdict(self)
        d["extremes"] = [e.to_json() for e in self.extremes]
        return d

    def _repr_html_(self) -> str:  # Jupyter display: dimcalc.display (imported when a notebook asks)
        from ..display import sweep_report_html

        return sweep_report_html(self)


def _number(v: Any) -> Any:
    return int(v) if isinstance(v, float) and v.is_integer() else v


def class_values(db: SweepDB) -> dict[int, dict[str, float]]:
    """For each class id: its exact results by name, ``binary_restrictions.max`` and its sizes."""
    values: dict[int, dict[str, float]] = defaultdict(dict)
    for cid, h, p, lab in db.conn.execute("SELECT id, hypotheses, points, labels FROM classes"):
        values[cid].update(hypotheses=h, points=p, labels=lab)
    restr: dict[int, list[Any]] = defaultdict(list)
    for cid, dim, value, exact in db.conn.execute("SELECT class_id, dimension, value, exact FROM results"):
        if dim.startswith("binary_restrictions."):
            restr[cid].append(value if exact else None)
        if exact and value is not None:
            values[cid][dim] = value
    for cid, vals in restr.items():
        if vals and None not in vals:
            values[cid]["binary_restrictions.max"] = max(vals)
    return dict(values)


def _known_names(db: SweepDB) -> set[str]:
    names = {d for (d,) in db.conn.execute("SELECT DISTINCT dimension FROM results")}
    return names | set(VIRTUAL_NAMES) | set(SIZE_NAMES)


def expression_extremes(
    db: SweepDB, expression: str | Expression, values: dict[int, dict[str, float]] | None = None
) -> Extremes:
    """Largest and smallest value of ``expression`` over the database's classes.

    Examples
    --------
    >>> import os, tempfile
    >>> from dimcalc.sweep import run_sweep, all_items
    >>> path = os.path.join(tempfile.mkdtemp(), "s.db")
    >>> _ = run_sweep(all_items("3x2x2"), db=path, dims=["vc", "littlestone"])
    >>> e = expression_extremes(SweepDB(path), "littlestone - vc")
    >>> e.evaluated, e.max_value, e.min_value
    (3, 0, 0)
    """
    expr = expression if isinstance(expression, Expression) else parse_expression(expression)
    expr.check_names(_known_names(db), f"--expr (database {db.path})")
    if values is None:
        values = class_values(db)
    out = Extremes(expr.text)
    dist: Counter = Counter()
    for cid in sorted(values):
        try:
            v = _number(expr.evaluate(values[cid]))
        except KeyError:
            out.skipped += 1
            continue
        except (ZeroDivisionError, ValueError, OverflowError):
            out.skipped += 1
            out.undefined += 1
            continue
        out.evaluated += 1
        dist[v] += 1
        if out.max_value is None or v > out.max_value:
            out.max_value, out.max_classes = v, [cid]
        elif v == out.max_value:
            out.max_classes.append(cid)
        if out.min_value is None or v < out.min_value:
            out.min_value, out.min_classes = v, [cid]
        elif v == out.min_value:
            out.min_classes.append(cid)
    out.distribution = {str(k): dist[k] for k in sorted(dist)}
    return out


def _stored_result(kind: str | None, dimension: str, row: Sequence[Any]) -> DimensionResult:
    value, exact, lower, upper, witness, reason = row
    return DimensionResult(
        kind=kind or dimension,
        value=value,
        exact=bool(exact),
        lower=lower,
        upper=upper,
        witness=None if witness is None else json.loads(witness),
        reason=reason,
    )


def verify_stored(db: SweepDB, class_ids: Sequence[int] | None = None) -> dict[str, Any]:
    """Re-check stored witnesses against the stored tables with dimcalc's checkers (independently of the workers).

    Returns ``{"checked": n, "failed": [[class_id, dimension], ...]}``.
    """
    wanted = None if class_ids is None else set(class_ids)
    raw = db.get_meta("psi_user_family")
    user_maps = None if raw is None else json.loads(raw)
    classes: dict[int, HypothesisClass] = {}
    checked, failed = 0, []
    for cid, dim, kind, *row in db.conn.execute(
        "SELECT class_id, dimension, kind, value, exact, lower, upper, witness, reason FROM results "
        "ORDER BY class_id, dimension"
    ):
        if wanted is not None and cid not in wanted:
            continue
        if cid not in classes:
            classes.clear()  # rows come ordered by class: keep one class at a time
            classes[cid] = db.load_class(cid)
        checked += 1
        if not verify_result(classes[cid], dim, _stored_result(kind, dim, row), user_family=user_maps):
            failed.append([cid, dim])
    return {"checked": checked, "failed": failed}


def verify_result(
    H: HypothesisClass, dimension: str, result: DimensionResult, *, user_family: Sequence[Sequence[Any]] | None = None
) -> bool:
    """Whether a stored result's witness certifies its lower bound on ``H``, by the public checkers.

    ``binary_restrictions.i`` trees are checked by :func:`dimcalc.witnesses.tree_checks.is_mistake_tree` on
    :func:`dimcalc.operations.binary_restriction` ``(H, i)``; everything else by
    :meth:`DimensionResult.verify` (a ``user`` Ψ tree is checked against the family rebuilt from the database's maps).
    """
    if result.reason is not None and result.value is None and result.lower is None:
        return True
    if dimension.startswith("binary_restrictions."):
        i = int(dimension.split(".", 1)[1])
        return is_mistake_tree(binary_restriction(H, i), result.witness) and tree_depth(result.witness) == result.lower
    if dimension.endswith(".user"):
        if user_family is None or not isinstance(result.witness, dict):
            return False
        uniform = result.kind.startswith("psi_littlestone_uniform")
        tree = PsiTree(result.witness, family=psi_family(user_family, H.num_labels), uniform=uniform)
        result = dataclasses.replace(result, witness=tree)
    return result.verify(H)


def extremal_class(
    db: SweepDB, class_id: int, *, expression: str | None = None, value: float | None = None
) -> HypothesisClass:
    """The stored class ``class_id`` with its results (values and witnesses) in ``metadata["sweep"]``.

    Row and column indices in the witnesses refer to this class's table, so
    ``dimcalc check`` on the saved file, or an outside checker, can re-verify them.
    """
    H = db.load_class(class_id)
    dims = {}
    for dim, kind, *row in db.conn.execute(
        "SELECT dimension, kind, value, exact, lower, upper, witness, reason FROM results WHERE class_id = ? "
        "ORDER BY dimension",
        (class_id,),
    ):
        r = _stored_result(kind, dim, row)
        dims[dim] = r.to_json()
    sources = [
        s for (s,) in db.conn.execute("SELECT source FROM class_sources WHERE class_id = ? ORDER BY rowid", (class_id,))
    ]
    meta = H.metadata
    meta["sweep"].update(db=str(db.path), sources=sources, dimensions=dims)
    if expression is not None:
        meta["sweep"].update(expression=expression, value=value)
    name = f"sweep-class-{class_id}" if H.name == "unnamed" else H.name
    return HypothesisClass(H.table, num_labels=H.num_labels, name=name, metadata=meta)


def sweep_report(
    db: str | os.PathLike | SweepDB, *, expressions: Sequence[str] = (), verify: bool = False
) -> SweepReport:
    """Summarise a sweep database.

    Parameters
    ----------
    db : path or SweepDB
    expressions : sequence of str
        Expressions of dimensions (:func:`~dimcalc.sweep.expr.parse_expression`) whose extremes to find.
    verify : bool
        Re-check every stored witness against its stored table.

    Returns
    -------
    SweepReport
        ``classes``, ``sizes`` (classes per hypotheses x points x labels),
        ``dimensions`` (per result name: results, exact, inexact, undefined,
        unverified, and the distribution of exact values), ``theorems``
        (statements checked / holding / violated / unknown), ``violations``
        (every violated statement with its class), ``errors``, ``extremes``.

    Examples
    --------
    >>> import os, tempfile
    >>> from dimcalc.sweep import run_sweep, all_items
    >>> path = os.path.join(tempfile.mkdtemp(), "s.db")
    >>> _ = run_sweep(all_items("4x3x2"), db=path, dims=["vc", "littlestone"])
    >>> r = sweep_report(path, expressions=["littlestone - vc"])
    >>> r.classes, r.dimensions["littlestone"]["distribution"], r.extremes[0].max_value
    (20, {'1': 4, '2': 16}, 1)
    """
    if not isinstance(db, SweepDB):
        if not os.path.exists(db):
            raise InvalidParameterError(f"--report {db}: no such file")
        with SweepDB(db, read_only=True) as database:
            return sweep_report(database, expressions=expressions, verify=verify)
    exprs = [parse_expression(e) for e in expressions]
    for e in exprs:
        e.check_names(_known_names(db), f"--expr (database {db.path})")
    c = db.conn
    sizes = [
        {"hypotheses": h, "points": p, "labels": lab, "classes": n}
        for h, p, lab, n in c.execute(
            "SELECT hypotheses, points, labels, COUNT(*) FROM classes GROUP BY hypotheses, points, labels "
            "ORDER BY labels, points, hypotheses"
        )
    ]
    dims: dict[str, dict] = {}
    for dim, n, exact, undefined, unverified in c.execute(
        "SELECT dimension, COUNT(*), SUM(exact AND value IS NOT NULL), SUM(value IS NULL AND lower IS NULL), "
        "SUM(verified = 0) FROM results GROUP BY dimension ORDER BY dimension"
    ):
        dims[dim] = {
            "results": n,
            "exact": exact,
            "inexact": n - exact - undefined,
            "undefined": undefined,
            "unverified": unverified,
            "distribution": {},
        }
    for dim, value, n in c.execute(
        "SELECT dimension, value, COUNT(*) FROM results WHERE exact AND value IS NOT NULL "
        "GROUP BY dimension, value ORDER BY dimension, value"
    ):
        dims[dim]["distribution"][str(value)] = n
    th = dict(
        zip(
            ("classes", "statements", "holds", "violated", "unknown"),
            c.execute(
                "SELECT COUNT(DISTINCT class_id), COUNT(*), COALESCE(SUM(holds = 'true'), 0), "
                "COALESCE(SUM(holds = 'false'), 0), COALESCE(SUM(holds = 'unknown'), 0) FROM theorems"
            ).fetchone(),
        )
    )
    violations = [
        {
            "class_id": cid,
            "name": name,
            "source": src,
            "statement": st,
            "lhs": json.loads(lhs),
            "relation": rel,
            "rhs": json.loads(rhs),
            "exact": bool(ex),
            "note": note,
        }
        for cid, name, src, st, lhs, rel, rhs, ex, note in c.execute(
            "SELECT t.class_id, k.name, t.source, t.statement, t.lhs, t.relation, t.rhs, t.exact, t.note "
            "FROM theorems t JOIN classes k ON k.id = t.class_id WHERE t.holds = 'false' "
            "ORDER BY t.class_id, t.position LIMIT ?",
            (LIST_LIMIT,),
        )
    ]
    by_statement = {
        src + ": " + st: n
        for src, st, n in c.execute(
            "SELECT source, statement, COUNT(*) FROM theorems WHERE holds = 'false' GROUP BY source, statement"
        )
    }
    th["violated_by_statement"] = by_statement
    error_count = c.execute("SELECT COUNT(*) FROM errors").fetchone()[0]
    errors = [
        {"class_id": cid, "item": item, "message": msg}
        for cid, item, msg in c.execute(
            "SELECT class_id, item, message FROM errors ORDER BY rowid LIMIT ?", (LIST_LIMIT,)
        )
    ]
    values = class_values(db) if exprs else None
    extremes = [expression_extremes(db, e, values) for e in exprs]
    return SweepReport(
        db=str(db.path),
        classes=db.count("classes"),
        sizes=sizes,
        runs=db.count("runs"),
        dimensions=dims,
        theorems=th,
        violations=violations,
        errors=errors,
        error_count=error_count,
        extremes=extremes,
        verification=verify_stored(db) if verify else None,
    )
