"""DataFrames of dimcalc's reports (pandas, an optional extra: ``pip install 'dimcalc[pandas]'``).

pandas is imported only here, when a ``to_pandas()`` is called; without it the
call raises one line naming the extra.  One row per result / bound /
statement / ``m`` / class; missing numbers are ``<NA>`` (nullable integer
columns), never a guess.

Examples
--------
>>> from dimcalc import HypothesisClass, check_class
>>> df = check_frame(check_class(HypothesisClass([[0, 0], [0, 1], [1, 1]]), ["vc", "littlestone"]))
>>> df[["dimension", "value", "exact"]].values.tolist()
[['vc', 1, True], ['littlestone', 1, True]]
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .reports import check_rows
from .results import seconds_of

__all__ = ["require_pandas", "check_frame", "sample_size_frame", "theorems_frame", "growth_frame", "sweep_frame"]

#: The message when pandas is missing (one line, naming the extra).
MISSING = "to_pandas() needs pandas, an optional extra of dimcalc: pip install 'dimcalc[pandas]'"


def require_pandas() -> Any:
    """The pandas module, or ImportError naming the extra that installs it.

    Returns
    -------
    module
        ``pandas``.

    Raises
    ------
    ImportError
        When pandas is not installed: ``pip install 'dimcalc[pandas]'``.

    Examples
    --------
    >>> require_pandas().__name__
    'pandas'
    """
    try:
        import pandas
    except ImportError:
        raise ImportError(MISSING) from None
    return pandas


def _frame(rows: list[dict], columns: Sequence[str], integers: Sequence[str] = ()) -> Any:
    pd = require_pandas()
    df = pd.DataFrame(rows, columns=list(columns))
    for c in integers:
        df[c] = df[c].astype("Int64")
    return df


def check_frame(report: Any) -> Any:
    """A :class:`~dimcalc.reports.check.CheckReport` as a DataFrame, one row per result.

    Parameters
    ----------
    report : CheckReport

    Returns
    -------
    pandas.DataFrame
        Columns ``dimension, variant, kind, value, exact, lower, upper, seconds, reason, witness``
        (``variant``: the Ψ family or ``i=…`` of a binary restriction; ``witness``: its JSON text).

    Examples
    --------
    >>> from dimcalc import HypothesisClass, check_class
    >>> check_frame(check_class(HypothesisClass([[0, 1], [1, 1]]), ["vc"])).shape
    (1, 10)
    """
    rows = []
    for key, variant, r in check_rows(report.dimensions):
        witness = None if r.witness is None else json.dumps(r.to_json().get("witness"), default=str)
        rows.append(
            {
                "dimension": key,
                "variant": variant,
                "kind": r.kind,
                "value": r.value,
                "exact": bool(r.exact),
                "lower": r.lower,
                "upper": r.upper,
                "seconds": seconds_of(r),
                "reason": r.reason,
                "witness": witness,
            }
        )
    columns = ("dimension", "variant", "kind", "value", "exact", "lower", "upper", "seconds", "reason", "witness")
    return _frame(rows, columns, ("value", "lower", "upper"))


def sample_size_frame(ss_table: Any) -> Any:
    """A sample-size table as a DataFrame, one row per bound.

    Parameters
    ----------
    ss_table : SampleSizeTable

    Returns
    -------
    pandas.DataFrame
        Columns ``name, kind, samples, value, expression, latex, source, task, proper, privacy,
        concepts, data, constants_explicit, notes``.

    Examples
    --------
    >>> from dimcalc import HypothesisClass, sample_size_table
    >>> t = sample_size_table(HypothesisClass([[0, 0], [0, 1], [1, 1]]), alpha=0.1, beta=0.1, epsilon=1.0)
    >>> df = sample_size_frame(t)
    >>> len(df) == len(t), int(df["samples"].iloc[0]) == t.rows[0].samples
    (True, True)
    """
    rows = []
    for b in ss_table.rows:
        j = b.to_json()
        rows.append(
            {
                "name": b.name,
                "kind": b.kind,
                "samples": j["samples"],
                "value": j["value"],
                "expression": j["expression"],
                "latex": j["latex"],
                "source": b.source,
                **{k: b.setting.get(k) for k in ("task", "proper", "privacy", "concepts", "data")},
                "constants_explicit": b.constants_explicit,
                "notes": "; ".join(b.notes),
            }
        )
    columns = (
        "name",
        "kind",
        "samples",
        "value",
        "expression",
        "latex",
        "source",
        "task",
        "proper",
        "privacy",
        "concepts",
        "data",
        "constants_explicit",
        "notes",
    )
    return _frame(rows, columns, ("samples",))


def _side(side: Any) -> tuple[Any, Any]:
    return side.lower, side.upper


def theorems_frame(checks: Sequence[Any]) -> Any:
    """The theorem report as a DataFrame, one row per statement.

    Parameters
    ----------
    checks : sequence of TheoremCheck

    Returns
    -------
    pandas.DataFrame
        Columns ``source, statement, lhs_lower, lhs_upper, relation, rhs_lower, rhs_upper, exact,
        holds, lhs_is, rhs_is, note`` (``holds``: ``True``, ``False`` or ``"unknown"``).

    Examples
    --------
    >>> from dimcalc import HypothesisClass, theorem_report
    >>> df = theorems_frame(theorem_report(HypothesisClass([[0, 1], [1, 1]])))
    >>> bool(df["holds"].eq(True).all())
    True
    """
    rows = []
    for c in checks:
        (ll, lu), (rl, ru) = _side(c.lhs), _side(c.rhs)
        rows.append(
            {
                "source": c.source,
                "statement": c.statement,
                "lhs_lower": ll,
                "lhs_upper": lu,
                "relation": c.relation,
                "rhs_lower": rl,
                "rhs_upper": ru,
                "exact": c.exact,
                "holds": c.holds,
                "lhs_is": c.lhs.description,
                "rhs_is": c.rhs.description,
                "note": c.note,
            }
        )
    columns = (
        "source",
        "statement",
        "lhs_lower",
        "lhs_upper",
        "relation",
        "rhs_lower",
        "rhs_upper",
        "exact",
        "holds",
        "lhs_is",
        "rhs_is",
        "note",
    )
    df = _frame(rows, columns)
    df["holds"] = df["holds"].astype(object)
    return df


def growth_frame(growth: Any) -> Any:
    """A growth table as a DataFrame, one row per ``m``.

    Parameters
    ----------
    growth : GrowthTable

    Returns
    -------
    pandas.DataFrame
        Columns ``m, value, exact, lower, upper, sauer_shelah, trivial, verified, points``.

    Examples
    --------
    >>> from dimcalc import HypothesisClass, growth_table
    >>> growth_frame(growth_table(HypothesisClass([[0, 0], [0, 1], [1, 1]])))["value"].tolist()
    [1, 2, 3]
    """
    rows = [
        {
            "m": r.m,
            "value": r.value,
            "exact": r.exact,
            "lower": r.lower,
            "upper": r.upper,
            "sauer_shelah": r.sauer_shelah,
            "trivial": r.trivial,
            "verified": r.verified,
            "points": None if r.witness is None else list(r.witness),
        }
        for r in growth.rows
    ]
    columns = ("m", "value", "exact", "lower", "upper", "sauer_shelah", "trivial", "verified", "points")
    return _frame(rows, columns, ("value", "lower", "upper", "sauer_shelah"))


def sweep_frame(db: Any, *, bounds: bool = False) -> Any:
    """A sweep database as a DataFrame: one row per class, one column per dimension (classes × dimensions).

    Parameters
    ----------
    db : SweepDB
    bounds : bool
        Also a ``<dimension>.lower`` and ``<dimension>.upper`` column per dimension.

    Returns
    -------
    pandas.DataFrame
        Indexed by class id; columns ``name, hypotheses, points, labels``, then each stored
        dimension's exact value (``<NA>`` when it is only bounded, undefined or not computed), and
        ``binary_restrictions.max`` when the binary restrictions were computed.

    Examples
    --------
    >>> import os, tempfile
    >>> from dimcalc.sweep import SweepDB, run_sweep, all_items
    >>> path = os.path.join(tempfile.mkdtemp(), "s.db")
    >>> _ = run_sweep(all_items("3x2x2"), db=path, dims=["vc", "littlestone"])
    >>> with SweepDB(path) as db:
    ...     df, n = sweep_frame(db), db.count("classes")
    >>> list(df.columns), len(df) == n
    (['name', 'hypotheses', 'points', 'labels', 'littlestone', 'vc'], True)
    """
    pd = require_pandas()
    classes = db.conn.execute("SELECT id, name, hypotheses, points, labels FROM classes ORDER BY id").fetchall()
    base = pd.DataFrame(classes, columns=["class_id", "name", "hypotheses", "points", "labels"]).set_index("class_id")
    results = db.conn.execute(
        "SELECT class_id, dimension, CASE WHEN exact THEN value END, lower, upper FROM results"
    ).fetchall()
    res = pd.DataFrame(results, columns=["class_id", "dimension", "value", "lower", "upper"])
    wide = res.pivot(index="class_id", columns="dimension", values="value")
    wide = wide.reindex(columns=sorted(wide.columns)).astype("Int64")
    restrictions = [c for c in wide.columns if c.startswith("binary_restrictions.")]
    if restrictions:  # max_i LD(H|_i), defined when every bit's value is exact (as sweep reports have it)
        wide["binary_restrictions.max"] = wide[restrictions].max(axis=1, skipna=False)
    parts = [base, wide]
    if bounds:
        for what in ("lower", "upper"):
            w = res.pivot(index="class_id", columns="dimension", values=what).astype("Int64")
            parts.append(w.rename(columns=lambda c, what=what: f"{c}.{what}"))
    out = pd.concat(parts, axis=1)
    out.columns.name = None
    return out
