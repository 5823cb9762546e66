"""Small HTML building blocks shared by the display functions: escaping, tables, label colours.

Every string that may come from a file (class, point and hypothesis names,
sources, notes) goes through :func:`esc`, so a class named ``<script>`` shows
as text.  Styles are inline attributes (no ``<style>`` element), which
notebook viewers that sanitise HTML keep.

Examples
--------
>>> esc("<b>&")
'&lt;b&gt;&amp;'
>>> "&lt;x&gt;" in table(["a", "b"], [[1, "<x>"]])
True
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["esc", "table", "label_colour", "number", "Raw", "block", "MAX_LIST"]

#: How many items of a list (rows realising a pattern, notes, ...) are written before "… n more".
MAX_LIST = 4

_TABLE_STYLE = "border-collapse:collapse;font-size:12px;margin:2px 0"
_CELL_STYLE = "border:1px solid #ccc;padding:1px 6px;text-align:left;vertical-align:top"
_HEAD_STYLE = _CELL_STYLE + ";background:#f0f0f0;font-weight:bold"

#: Label colours of the heat-maps: 0 light, 1 dark blue, then distinct hues.
_PALETTE = (
    "#f7f7f7",
    "#3b6fb6",
    "#e6a23c",
    "#5aa469",
    "#c0504d",
    "#8064a2",
    "#4bacc6",
    "#f79646",
    "#9bbb59",
    "#7f7f7f",
)


class Raw(str):
    """Markup already escaped (or built here): :func:`table` writes it as it is."""

    __slots__ = ()


def esc(value: Any) -> str:
    """``str(value)`` escaped for HTML text and attributes (``<``, ``>``, ``&``, quotes); :class:`Raw` kept as it is.

    Parameters
    ----------
    value : object
        Anything; its ``str()`` is escaped.

    Returns
    -------
    str
        Escaped text.

    Examples
    --------
    >>> esc('<script>alert("x")</script>')
    '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;'
    """
    if isinstance(value, Raw):
        return str(value)
    return html.escape(str(value), quote=True)


def number(value: Any) -> str:
    """A number as short text: floats with 4 significant digits, ``None`` as ``–``.

    Parameters
    ----------
    value : object
        An int, a float, None or anything else (its ``str()``).

    Returns
    -------
    str

    Examples
    --------
    >>> number(0.123456), number(None), number(7)
    ('0.1235', '–', '7')
    """
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def label_colour(label: int) -> str:
    """The heat-map colour of ``label`` (a CSS colour).

    Parameters
    ----------
    label : int

    Returns
    -------
    str

    Examples
    --------
    >>> label_colour(0), label_colour(1)
    ('#f7f7f7', '#3b6fb6')
    """
    if label < len(_PALETTE):
        return _PALETTE[label]
    return f"hsl({(label * 47) % 360},55%,55%)"


def table(
    header: Sequence[Any] | None, rows: Iterable[Sequence[Any]], *, caption: Any = None, row_header: bool = False
) -> str:
    """An HTML table; every cell is escaped unless it is :class:`Raw`.

    Parameters
    ----------
    header : sequence or None
        Column titles.
    rows : iterable of sequences
        The cells.
    caption : object, optional
        A caption (escaped unless :class:`Raw`).
    row_header : bool
        Write each row's first cell as a header cell.

    Returns
    -------
    str
        ``<table>…</table>``.

    Examples
    --------
    >>> table(["n"], [[1]], caption="<c>").count("&lt;c&gt;")
    1
    """
    out = [f'<table style="{_TABLE_STYLE}">']
    if caption is not None:
        out.append(f'<caption style="text-align:left;font-weight:bold">{esc(caption)}</caption>')
    if header is not None:
        out.append(
            "<thead><tr>" + "".join(f'<th style="{_HEAD_STYLE}">{esc(h)}</th>' for h in header) + "</tr></thead>"
        )
    out.append("<tbody>")
    for row in rows:
        cells = []
        for i, cell in enumerate(row):
            tag, style = ("th", _HEAD_STYLE) if row_header and i == 0 else ("td", _CELL_STYLE)
            cells.append(f'<{tag} style="{style}">{esc(cell)}</{tag}>')
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</tbody></table>")
    return "".join(out)


def block(*parts: str) -> str:
    """Parts (already HTML) in one ``<div>``.

    Parameters
    ----------
    *parts : str
        HTML fragments.

    Returns
    -------
    str

    Examples
    --------
    >>> block("<p>a</p>", "<p>b</p>")
    '<div class="dimcalc"><p>a</p><p>b</p></div>'
    """
    return '<div class="dimcalc">' + "".join(parts) + "</div>"
