"""Reports as HTML tables: :class:`CheckReport`, the sample-size table, the theorem report, growth tables, sweep reports.

Every function takes the report object and returns an HTML fragment; the
report classes' ``_repr_html_`` call them.  Sample-size expressions are
written in LaTeX between ``\\(…\\)``, which the notebook's MathJax typesets.

Examples
--------
>>> from dimcalc import HypothesisClass, check_class
>>> H = HypothesisClass([[0, 0], [0, 1], [1, 1]], name="<t>")
>>> html = check_report_html(check_class(H, ["vc", "littlestone"]))
>>> "&lt;t&gt;" in html and "littlestone" in html
True
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ._html import Raw, block, esc, number, table
from .results import seconds_of, value_text
from .witnesses import witness_html, witness_summary

__all__ = [
    "check_rows",
    "check_report_html",
    "sample_size_html",
    "bound_latex",
    "theorems_html",
    "growth_html",
    "sweep_report_html",
    "class_line",
]


def class_line(summary: dict) -> str:
    """One line (HTML, escaped) from ``H.summary()``: name, hypotheses, points, labels.

    Parameters
    ----------
    summary : dict
        ``{"name", "hypotheses", "distinct_hypotheses", "domain_size", "labels"}``.

    Returns
    -------
    str

    Examples
    --------
    >>> class_line({"name": "<a>", "hypotheses": 3, "distinct_hypotheses": 3, "domain_size": 2, "labels": 2})
    '<div><b>&lt;a&gt;</b>: 3 hypotheses (3 distinct) × 2 points, 2 labels</div>'
    """
    return (
        f"<div><b>{esc(summary.get('name'))}</b>: {summary.get('hypotheses')} hypotheses "
        f"({summary.get('distinct_hypotheses')} distinct) × {summary.get('domain_size')} points, "
        f"{summary.get('labels')} labels</div>"
    )


def check_rows(dimensions: dict[str, Any]) -> Iterator[tuple[str, str | None, Any]]:
    """The results of a :class:`~dimcalc.reports.check.CheckReport` flattened: ``(dimension, variant, result)``.

    ``variant`` is the Ψ family of a ``psi_*`` entry, ``"i=1"``… for the binary
    restrictions, None otherwise.

    Parameters
    ----------
    dimensions : dict
        ``report.dimensions``.

    Yields
    ------
    tuple

    Examples
    --------
    >>> from dimcalc import DimensionResult
    >>> r = DimensionResult.exact_value("vc", 1, [0])
    >>> [(k, v) for k, v, _ in check_rows({"vc": r, "psi_littlestone": {"N": r}, "binary_restrictions": [r]})]
    [('vc', None), ('psi_littlestone', 'N'), ('binary_restrictions', 'i=1')]
    """
    for key, value in dimensions.items():
        if isinstance(value, dict):
            for family, r in value.items():
                yield key, str(family), r
        elif isinstance(value, list):
            for i, r in enumerate(value, start=1):
                yield key, f"i={i}", r
        else:
            yield key, None, value


def check_report_html(report: Any) -> str:
    """A check report: the class, one line per dimension (value or bounds, exact, seconds, witness), witnesses drawn.

    Parameters
    ----------
    report : CheckReport

    Returns
    -------
    str
        An HTML fragment; each witness picture sits in a ``<details>`` element.

    Examples
    --------
    >>> from dimcalc import HypothesisClass, check_class
    >>> "<details>" in check_report_html(check_class(HypothesisClass([[0, 1], [1, 1]]), ["vc"]))
    True
    """
    H = report.hclass
    lines, pictures = [], []
    for key, variant, r in check_rows(report.dimensions):
        label = key if variant is None else f"{key} ({variant})"
        seconds = seconds_of(r)
        lines.append(
            [
                label,
                value_text(r),
                "yes" if r.exact else "no",
                "" if seconds is None else f"{seconds:.3g}",
                r.reason or witness_summary(r.witness),
            ]
        )
        picture = witness_html(r.witness, H)
        if picture:
            pictures.append(
                f"<details><summary>{esc(label)}: {esc(witness_summary(r.witness))}</summary>{picture}</details>"
            )
    status = "every result exact" if report.complete else "some results are proven bounds only (time limit)"
    return block(
        class_line(H.summary()),
        table(["dimension", "value", "exact", "seconds", "witness"], lines),
        f"<div>{esc(status)}</div>",
        *pictures,
    )


def bound_latex(bound: Any) -> str:
    """A sample-size bound as LaTeX: ``n \\ge``/``n \\le`` the expression, with its number.

    Parameters
    ----------
    bound : SampleSizeBound

    Returns
    -------
    str
        ``$…$`` (what ``_repr_latex_`` returns).

    Examples
    --------
    >>> from dimcalc.sample_size import vc_sample_size
    >>> bound_latex(vc_sample_size(vc=1, alpha=0.1, beta=0.05))
    '$n = \\\\frac{64 \\\\left(d \\\\log{\\\\left(\\\\frac{64}{\\\\alpha} \\\\right)} + \\\\log{\\\\left(\\\\frac{8}{\\\\beta} \\\\right)}\\\\right)}{\\\\alpha} = 7384$'
    """
    import sympy as sp

    try:
        samples: Any = bound.samples
    except (OverflowError, ValueError):
        samples = r"\infty"
    return f"$n = {sp.latex(bound.expression)} = {samples}$"


def _samples(bound: Any) -> str:
    try:
        return str(bound.samples)
    except (OverflowError, ValueError):
        return "∞"


def sample_size_html(ss_table: Any) -> str:
    """A sample-size table: parameters, the dimensions used, one line per bound with its expression in LaTeX.

    Parameters
    ----------
    ss_table : SampleSizeTable

    Returns
    -------
    str
        An HTML fragment; expressions are ``\\(…\\)`` for MathJax.

    Examples
    --------
    >>> from dimcalc import HypothesisClass, sample_size_table
    >>> t = sample_size_table(HypothesisClass([[0, 0], [0, 1], [1, 1]]), alpha=0.1, beta=0.1, epsilon=1.0)
    >>> "\\\\(" in sample_size_html(t)
    True
    """
    import sympy as sp

    params = ", ".join(f"{k} = {v}" for k, v in ss_table.parameters.items())
    dims = ", ".join(
        f"{k} = {v['value'] if v.get('exact') else [v.get('lower'), v.get('upper')]}"
        for k, v in ss_table.dimensions.items()
        if isinstance(v, dict)
    )
    lines = []
    for b in ss_table.rows:
        setting = ", ".join(f"{k}: {v}" for k, v in b.setting.items())
        latex = Raw(f"\\({esc(sp.latex(b.expression))}\\)")
        notes = "; ".join((*b.notes, *(() if b.constants_explicit else ("order of growth only",))))
        lines.append([b.name, b.kind, _samples(b), latex, b.source, setting, notes])
    parts = [
        class_line(ss_table.class_summary),
        f"<div>{esc(params)}</div>",
        f"<div>dimensions: {esc(dims)}{'' if ss_table.exact else ' (some only bounded: time limit)'}</div>",
        table(["bound", "kind", "samples", "expression", "source", "setting", "notes"], lines),
    ]
    if ss_table.omitted:
        omitted = [[o.get("name"), o.get("source"), "; ".join(o.get("failed", []))] for o in ss_table.omitted]
        parts.append(
            f"<details><summary>{len(omitted)} bounds omitted (parameters outside their theorem's range)</summary>"
            + table(["bound", "source", "failed conditions"], omitted)
            + "</details>"
        )
    return block(*parts)


def _side(side: Any) -> str:
    if side.exact:
        return number(side.lower)
    return f"[{number(side.lower)}, {'∞' if side.upper is None else number(side.upper)}]"


_HOLDS = {True: "yes", False: "NO"}


def theorems_html(checks: Sequence[Any]) -> str:
    """The theorem report: one line per statement, both sides, whether it holds.

    Parameters
    ----------
    checks : sequence of TheoremCheck
        :func:`dimcalc.theorem_report`'s answer.

    Returns
    -------
    str

    Examples
    --------
    >>> from dimcalc import HypothesisClass, theorem_report
    >>> "Sauer" in theorems_html(theorem_report(HypothesisClass([[0, 1], [1, 1]])))
    True
    """
    lines = []
    for c in checks:
        holds = _HOLDS.get(c.holds, "?") if isinstance(c.holds, bool) else "?"
        colour = {"yes": "#2e7d32", "NO": "#c62828"}.get(holds, "#b26a00")
        lines.append(
            [
                c.source,
                c.statement,
                _side(c.lhs),
                c.relation,
                _side(c.rhs),
                "yes" if c.exact else "bounds",
                Raw(f'<b style="color:{colour}">{esc(holds)}</b>'),
                c.note,
            ]
        )
    return block(table(["source", "statement", "lhs", "rel", "rhs", "exact", "holds", "note"], lines))


def growth_html(growth: Any) -> str:
    """A growth table: ``m``, ``π_H(m)`` (or bounds), Sauer–Shelah, the trivial bound, the witness points.

    Parameters
    ----------
    growth : GrowthTable

    Returns
    -------
    str

    Examples
    --------
    >>> from dimcalc import HypothesisClass, growth_table
    >>> "Sauer" in growth_html(growth_table(HypothesisClass([[0, 0], [0, 1], [1, 1]])))
    True
    """
    lines = []
    for r in growth.rows:
        value = str(r.value) if r.exact else f"[{number(r.lower)}, {number(r.upper)}]"
        lines.append([r.m, value, "yes" if r.exact else "no", number(r.sauer_shelah), r.trivial, str(r.witness)])
    vc = "" if growth.vc is None else f"VC dimension {value_text(growth.vc)}"
    return block(
        class_line(growth.hclass.summary()),
        f"<div>{esc(vc)}</div>" if vc else "",
        table(["m", "π_H(m)", "exact", "Sauer–Shelah", "min(|H|, k^m)", "points"], lines),
    )


def sweep_report_html(report: Any) -> str:
    """A sweep report: classes, per-dimension counts and distributions, theorem statements, violations, extremes.

    Parameters
    ----------
    report : SweepReport

    Returns
    -------
    str

    Examples
    --------
    >>> from dimcalc.sweep.report import SweepReport
    >>> r = SweepReport("<db>", 0, [], 0, {}, {"classes": 0, "statements": 0, "holds": 0, "violated": 0,
    ...                 "unknown": 0}, [], [], 0, [])
    >>> "&lt;db&gt;" in sweep_report_html(r)
    True
    """
    dims = [
        [
            name,
            d["results"],
            d["exact"],
            d["inexact"],
            d["undefined"],
            d["unverified"],
            ", ".join(f"{v}: {n}" for v, n in d["distribution"].items()),
        ]
        for name, d in report.dimensions.items()
    ]
    th = report.theorems
    parts = [
        f"<div><b>{esc(report.db)}</b>: {report.classes} classes, {report.runs} runs, "
        f"{report.error_count} errors</div>",
        table(["dimension", "results", "exact", "inexact", "undefined", "unverified", "distribution"], dims),
        table(
            ["classes", "statements", "holds", "violated", "unknown"],
            [[th.get(k, 0) for k in ("classes", "statements", "holds", "violated", "unknown")]],
            caption="theorem statements",
        ),
    ]
    if report.sizes:
        parts.append(
            table(
                ["hypotheses", "points", "labels", "classes"],
                [[s["hypotheses"], s["points"], s["labels"], s["classes"]] for s in report.sizes],
                caption="classes by size",
            )
        )
    if report.violations:
        parts.append(
            table(
                ["class", "name", "source", "statement", "lhs", "rel", "rhs"],
                [
                    [v["class_id"], v["name"], v["source"], v["statement"], v["lhs"], v["relation"], v["rhs"]]
                    for v in report.violations
                ],
                caption="violated statements",
            )
        )
    if report.extremes:
        parts.append(
            table(
                ["expression", "evaluated", "skipped", "max", "max classes", "min", "min classes"],
                [
                    [
                        e.expression,
                        e.evaluated,
                        e.skipped,
                        number(e.max_value),
                        str(e.max_classes[:8]),
                        number(e.min_value),
                        str(e.min_classes[:8]),
                    ]
                    for e in report.extremes
                ],
                caption="extremes",
            )
        )
    if report.errors:
        parts.append(
            table(
                ["class", "item", "message"],
                [[e["class_id"], e["item"], e["message"]] for e in report.errors],
                caption="errors",
            )
        )
    return block(*parts)
