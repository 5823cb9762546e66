"""``--format table|json|csv|markdown|latex``: the reports of ``check``, ``sample-size``, ``theorems`` and
``sweep --report`` as tables for papers.

``table`` (the default) is each command's readable report and ``json`` is
``--json`` (interface spec §2; the two spellings are one option).  ``csv``,
``markdown`` and ``latex`` print the report's main table: one row per
dimension / bound / statement / stored result, the same numbers as the JSON
(an inexact value as its proven ``[lower, upper]``).  LaTeX is a ``booktabs``
``tabular`` with every special character escaped and the sample-size
expressions as math; Markdown is a GitHub table; CSV is RFC 4180.

Examples
--------
>>> print(render("markdown", ["a", "b"], [[1, "x|y"]]))
| a | b |
| --- | --- |
| 1 | x\\|y |
>>> print(render("latex", ["n", "note"], [[3, "50% & more"]]))
\\begin{tabular}{ll}
\\toprule
n & note \\\\
\\midrule
3 & 50\\% \\& more \\\\
\\bottomrule
\\end{tabular}
"""

from __future__ import annotations

import argparse
import csv
import io
import json
from collections.abc import Sequence
from typing import Any

from ..errors import InvalidParameterError

__all__ = [
    "FORMATS",
    "TABLE_FORMATS",
    "Math",
    "add_format_option",
    "resolve_format",
    "render",
    "check_table",
    "sample_size_table_rows",
    "theorems_table",
    "sweep_report_tables",
    "print_tables",
    "bench_markdown",
]

FORMATS = ("table", "json", "csv", "markdown", "latex")
#: The formats that print the report's main table (the others are the readable report and --json).
TABLE_FORMATS = ("csv", "markdown", "latex")

_LATEX_SPECIAL = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


class Math:
    """A cell holding a formula: its LaTeX (math mode in LaTeX and Markdown) and its plain text (CSV).

    Parameters
    ----------
    text : str
        Plain form, e.g. ``64*(d*log(64/alpha) + log(8/beta))/alpha``.
    latex : str
        LaTeX form (without dollars).

    Examples
    --------
    >>> render("csv", ["f"], [[Math("x**2", "x^{2}")]]).strip()
    'f\\r\\nx**2'
    """

    __slots__ = ("text", "latex")

    def __init__(self, text: str, latex: str) -> None:
        self.text = text
        self.latex = latex

    def __str__(self) -> str:
        return self.text


def add_format_option(p: argparse.ArgumentParser) -> None:
    """``--format {table,json,csv,markdown,latex}`` (default ``table``; ``json`` is ``--json``).

    Parameters
    ----------
    p : argparse.ArgumentParser
        The subcommand's parser.

    Examples
    --------
    >>> p = argparse.ArgumentParser()
    >>> add_format_option(p)
    >>> p.parse_args(["--format", "latex"]).format, p.parse_args([]).format
    ('latex', None)
    """
    p.add_argument(
        "--format",
        choices=FORMATS,
        default=None,
        help="output format: table (the readable report, default), json (as --json), or the report's "
        "main table as csv, markdown or latex (booktabs) for papers",
    )


def resolve_format(args: argparse.Namespace) -> str:
    """The format asked for; sets ``args.json`` for ``--format json``; refuses ``--json`` with another format.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed options with ``json`` and ``format``.

    Returns
    -------
    str
        One of :data:`FORMATS`.

    Raises
    ------
    InvalidParameterError
        ``--json`` together with ``--format`` other than ``json``.

    Examples
    --------
    >>> args = argparse.Namespace(json=False, format="json")
    >>> resolve_format(args), args.json
    ('json', True)
    """
    fmt = getattr(args, "format", None)
    if args.json and fmt not in (None, "json"):
        raise InvalidParameterError(f"--json and --format {fmt} ask for two outputs; give one of them")
    if fmt == "json":
        args.json = True
    return "json" if args.json else (fmt or "table")


def _latex_text(value: Any) -> str:
    if isinstance(value, Math):
        return f"${value.latex}$"
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in str(value))


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    return value


def render(fmt: str, header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """One table as ``csv``, ``markdown`` or ``latex`` text.

    Parameters
    ----------
    fmt : {"csv", "markdown", "latex"}
    header : sequence of str
    rows : sequence of sequences
        Cells: numbers, strings, booleans (``yes``/``no``), None (empty) or :class:`Math`.

    Returns
    -------
    str
        The table, without a trailing newline (CSV keeps its ``\\r\\n`` line ends).

    Examples
    --------
    >>> render("csv", ["a", "b"], [[1, None], [True, "x,y"]])
    'a,b\\r\\n1,\\r\\nyes,"x,y"\\r\\n'
    """
    rows = [[_cell(v) for v in row] for row in rows]
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(header)
        writer.writerows([[str(v) for v in row] for row in rows])
        return out.getvalue()
    if fmt == "markdown":

        def line(cells: Sequence[Any]) -> str:
            texts = [f"${v.latex}$" if isinstance(v, Math) else str(v) for v in cells]
            return "| " + " | ".join(t.replace("|", "\\|").replace("\n", " ") for t in texts) + " |"

        return "\n".join([line(header), "| " + " | ".join("---" for _ in header) + " |", *map(line, rows)])
    if fmt == "latex":
        lines = [
            "\\begin{tabular}{" + "l" * len(header) + "}",
            "\\toprule",
            " & ".join(_latex_text(h) for h in header) + " \\\\",
            "\\midrule",
            *(" & ".join(_latex_text(v) for v in row) + " \\\\" for row in rows),
            "\\bottomrule",
            "\\end{tabular}",
        ]
        return "\n".join(lines)
    raise InvalidParameterError(f"--format must be one of {', '.join(TABLE_FORMATS)} here; got {fmt!r}")


Table = tuple[str, list[str], list[list[Any]]]


def check_table(report: Any) -> Table:
    """The table of a :class:`~dimcalc.reports.check.CheckReport`: one row per result.

    Parameters
    ----------
    report : CheckReport

    Returns
    -------
    tuple
        ``(title, header, rows)``.

    Examples
    --------
    >>> from dimcalc import HypothesisClass, check_class
    >>> check_table(check_class(HypothesisClass([[0, 1], [1, 1]]), ["vc"]))[2]
    [['vc', '', 1, True, 1, 1, 'shattered set of 1 point [0]']]
    """
    from ..display import check_rows, witness_summary

    rows = [
        [key, variant or "", r.value, r.exact, r.lower, r.upper, r.reason or witness_summary(r.witness)]
        for key, variant, r in check_rows(report.dimensions)
    ]
    return (
        f"dimensions of {report.hclass.name}",
        ["dimension", "variant", "value", "exact", "lower", "upper", "witness"],
        rows,
    )


def sample_size_table_rows(table: Any) -> Table:
    """The table of a :class:`~dimcalc.sample_size.table.SampleSizeTable`: one row per bound.

    Parameters
    ----------
    table : SampleSizeTable

    Returns
    -------
    tuple
        ``(title, header, rows)``; the expression is a :class:`Math` cell.

    Examples
    --------
    >>> from dimcalc import HypothesisClass, sample_size_table
    >>> t = sample_size_table(HypothesisClass([[0, 0], [0, 1], [1, 1]]), alpha=0.1, beta=0.1, epsilon=1.0)
    >>> title, header, rows = sample_size_table_rows(t)
    >>> len(rows) == len(t), header[:3]
    (True, ['bound', 'kind', 'samples'])
    """
    import sympy as sp

    rows = []
    for b in table.rows:
        j = b.to_json()
        st = b.setting
        rows.append(
            [
                b.name,
                b.kind,
                j["samples"],
                Math(str(b.expression), sp.latex(b.expression)),
                b.source,
                st.get("task"),
                st.get("proper"),
                st.get("privacy"),
                st.get("concepts"),
                st.get("data"),
                "explicit" if b.constants_explicit else f"O(.) c={b.order_constant:g}",
            ]
        )
    header = ["bound", "kind", "samples", "expression", "source", "task", "proper", "privacy", "concepts"]
    return (f"sample sizes of {table.class_summary.get('name')}", [*header, "data", "constants"], rows)


def _side(side: Any) -> str:
    def text(v: Any) -> str:
        return "?" if v is None else (f"{v:.6g}" if isinstance(v, float) else str(v))

    return text(side.lower) if side.exact else f"[{text(side.lower)}, {text(side.upper)}]"


def theorems_table(checks: Sequence[Any]) -> Table:
    """The theorem report's table: one row per statement.

    Parameters
    ----------
    checks : sequence of TheoremCheck

    Returns
    -------
    tuple
        ``(title, header, rows)``; ``holds`` is ``yes``, ``no`` or ``unknown``.

    Examples
    --------
    >>> from dimcalc import HypothesisClass, theorem_report
    >>> theorems_table(theorem_report(HypothesisClass([[0, 1], [1, 1]])))[1]
    ['source', 'statement', 'lhs', 'relation', 'rhs', 'exact', 'holds']
    """
    rows = [
        [
            c.source,
            c.statement,
            _side(c.lhs),
            c.relation,
            _side(c.rhs),
            c.exact,
            c.holds if isinstance(c.holds, bool) else "unknown",
        ]
        for c in checks
    ]
    return "theorem report", ["source", "statement", "lhs", "relation", "rhs", "exact", "holds"], rows


def sweep_report_tables(report: Any) -> list[Table]:
    """The tables of a :class:`~dimcalc.sweep.report.SweepReport`: stored results per dimension, then extremes.

    Parameters
    ----------
    report : SweepReport

    Returns
    -------
    list of tuple
        ``(title, header, rows)`` each; the extremes only when expressions were asked for.

    Examples
    --------
    >>> from dimcalc.sweep.report import SweepReport
    >>> r = SweepReport("s.db", 0, [], 0, {"vc": {"results": 3, "exact": 3, "inexact": 0, "undefined": 0,
    ...                 "unverified": 0, "distribution": {"1": 3}}}, {}, [], [], 0, [])
    >>> sweep_report_tables(r)[0][2]
    [['vc', 3, 3, 0, 0, 0, '{"1": 3}']]
    """
    dims = [
        [
            name,
            d["results"],
            d["exact"],
            d["inexact"],
            d["undefined"],
            d["unverified"],
            json.dumps(d["distribution"]),
        ]
        for name, d in report.dimensions.items()
    ]
    tables: list[Table] = [
        (
            f"results stored in {report.db}",
            ["result", "stored", "exact", "bounds", "undefined", "unverified", "distribution"],
            dims,
        )
    ]
    if report.extremes:
        rows = [
            [e.expression, e.evaluated, e.skipped, e.max_value, len(e.max_classes), e.min_value, len(e.min_classes)]
            for e in report.extremes
        ]
        header = ["expression", "classes", "skipped", "max", "classes at max", "min", "classes at min"]
        tables.append(("extremes", header, rows))
    return tables


def print_tables(fmt: str, tables: Sequence[Table]) -> None:
    """Print tables in ``fmt``, separated by a blank line (each preceded by its title, except in CSV).

    Parameters
    ----------
    fmt : {"csv", "markdown", "latex"}
    tables : sequence of (title, header, rows)

    Examples
    --------
    >>> print_tables("markdown", [("t", ["a"], [[1]])])
    **t**
    <BLANKLINE>
    | a |
    | --- |
    | 1 |
    """
    for i, (title, header, rows) in enumerate(tables):
        if i:
            print()
        if fmt == "markdown":
            print(f"**{title}**\n")
        elif fmt == "latex":
            print(f"% {title}")
        text = render(fmt, header, rows)
        print(text, end="" if fmt == "csv" else "\n")


def bench_markdown(
    header: Sequence[str],
    rows: Sequence[Sequence[Any]],
    suites: dict[str, str],
    options: Any,
    speeds: tuple[dict[int, float], dict[int, float]] | None = None,
) -> str:
    """``dimcalc bench --markdown``: a Markdown page with the machine, its load and one table per suite.

    Parameters
    ----------
    header : sequence of str
        The columns of ``dimcalc bench``'s table; the first is the suite.
    rows : sequence of sequences
        Its rows (cells already formatted).
    suites : dict
        Suite name -> description.
    options : BenchOptions
        ``repeat``, ``quick``, ``baseline_limit``, ``only`` (written in the page).
    speeds : (dict, dict), optional
        :func:`dimcalc.bench.core_speeds` before and after the suites (written in the page).

    Returns
    -------
    str
        The page (what ``docs/benchmarks.md`` holds).

    Examples
    --------
    >>> from dimcalc.bench import BenchOptions
    >>> page = bench_markdown(["suite", "case", "median s"], [["vc", "tiny", "0.01"]], {"vc": "VC"}, BenchOptions())
    >>> "## vc" in page and "| tiny | 0.01 |" in page
    True
    """
    import datetime
    import os
    import platform
    import shlex
    import sys

    load = ", ".join(f"{v:.2f}" for v in os.getloadavg()) if hasattr(os, "getloadavg") else "unknown"
    command = (
        "dimcalc " + " ".join(shlex.quote(a) for a in sys.argv[1:]) if sys.argv[1:] else "dimcalc bench --markdown"
    )
    lines = [
        "# Benchmarks",
        "",
        f"Written by `{command}` on {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC; do not edit by hand:",
        "run the command again to refresh it.",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, {platform.system()}, Python "
        f"{platform.python_version()}; load average (1, 5, 15 min) at the end: {load}. Times are "
        + (f"medians of {options.repeat} runs" if options.repeat > 1 else "single runs")
        + f"{' on the quick (tiny) instances' if options.quick else ''} and grow with the load; "
        f"ratios are measured side by side in one run. Baselines are abandoned after {options.baseline_limit:g} s "
        "(`>` marks a ratio that is then a lower bound).",
        "",
    ]
    if speeds is not None and any(speeds):  # dimcalc.bench.core_speeds before and after the suites
        text = [" / ".join(f"{v:.2f}" for _, v in sorted(s.items())) or "n/a" for s in speeds]
        lines[-1:-1] = [
            "",
            f"Core speed (CPU seconds of one fixed Python loop on each core, `dimcalc.bench.core_speeds`): "
            f"{text[0]} before the suites, {text[1]} after; on a shared host they drift, and the figures with them.",
        ]
    for suite in dict.fromkeys(r[0] for r in rows):
        lines += [f"## {suite}", "", suites.get(suite, ""), ""]
        lines.append(render("markdown", list(header[1:]), [list(r[1:]) for r in rows if r[0] == suite]))
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
