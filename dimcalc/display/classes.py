"""A hypothesis class in a notebook: its name, shape, labels, storage and a corner of its table as a heat-map.

Only the corner that is shown is read: a bit-stored class gives the words of
its first rows and columns, a dense one a slice of its table; nothing is
densified, so a class of millions of cells displays at once.

Examples
--------
>>> from dimcalc import HypothesisClass
>>> H = HypothesisClass([[0, 1], [1, 1]], name="<two>")
>>> html = class_html(H)
>>> "&lt;two&gt;" in html and "<two>" not in html
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._html import block, esc, label_colour

# The display layer reads the model's objects by duck typing and imports none of it (no import circle:
# the model's _repr_html_ methods import this package lazily).
HypothesisClass = Any

__all__ = ["class_html", "table_corner", "MAX_ROWS", "MAX_COLS"]

#: Rows and columns of a class shown by default; the rest is counted ("… n more").
MAX_ROWS = 24
MAX_COLS = 40


def table_corner(H: HypothesisClass, rows: int, cols: int) -> np.ndarray:
    """The first ``rows`` hypotheses on the first ``cols`` points, read without densifying the class.

    Parameters
    ----------
    H : HypothesisClass
    rows, cols : int
        How many (at most ``H.n_hypotheses`` / ``H.n_points``).

    Returns
    -------
    numpy.ndarray
        Shape ``(min(rows, n_hypotheses), min(cols, n_points))``.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> table_corner(HypothesisClass([[0, 1, 1], [1, 0, 1]], storage="bits"), 1, 2).tolist()
    [[0, 1]]
    """
    r, c = min(rows, H.n_hypotheses), min(cols, H.n_points)
    bits = H.bit_table
    if bits is not None:
        words = bits.words[:c, : (r + 63) // 64]  # (points, row words): only the corner's words
        j = np.arange(r)
        return ((words[:, j >> 6] >> (j & 63).astype(np.uint64)) & np.uint64(1)).T.astype(np.uint8)
    if H.storage == "dense":
        return np.asarray(H.table[:r, :c])
    # Another storage (sparse, ...): the corner's cells one by one, through the class's own reader.
    return np.array([[H.label(j, i) for i in range(c)] for j in range(r)], dtype=np.int64).reshape(r, c)


def _cell(label: int, show: bool) -> str:
    colour = label_colour(label)
    text_colour = "#fff" if label else "#555"
    text = str(label) if show else ""
    return (
        f'<td title="{label}" style="background:{colour};color:{text_colour};width:14px;height:14px;'
        f'padding:0;text-align:center;font-size:10px;border:1px solid #fff">{text}</td>'
    )


def class_html(H: HypothesisClass, *, max_rows: int = MAX_ROWS, max_cols: int = MAX_COLS) -> str:
    """HTML for ``H``: name, shape, labels, storage, and the table (its first rows/columns) as a heat-map.

    Parameters
    ----------
    H : HypothesisClass
    max_rows, max_cols : int
        The corner shown; the rows and columns left out are counted ("… n more").

    Returns
    -------
    str
        An HTML fragment; names are escaped.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> html = class_html(HypothesisClass([[0, 1]] * 30), max_rows=5)
    >>> "… 25 more hypotheses" in html
    True
    """
    r, c = min(max_rows, H.n_hypotheses), min(max_cols, H.n_points)
    corner = table_corner(H, r, c)
    named_rows = H.has_hypothesis_names
    head = (
        f"<b>{esc(H.name)}</b>: {H.n_hypotheses} hypotheses ({H.n_distinct} distinct) × {H.n_points} points, "
        f"{H.num_labels} labels, storage {esc(H.storage)}"
    )
    # Column titles written vertically when they are names; small tables show the labels in the cells.
    show = c <= 24 and r <= 32
    point_names = H.point_names[:c] if H.has_point_names else [str(i) for i in range(c)]
    th = "padding:0 2px;font-size:10px;font-weight:normal;color:#555"
    titles = "".join(
        f'<th title="{esc(p)}" style="{th};writing-mode:vertical-rl;max-height:6em;overflow:hidden">{esc(p)}</th>'
        for p in point_names
    )
    more_cols = H.n_points - c
    if more_cols:
        titles += f'<th style="{th}">… {more_cols} more points</th>'
    lines = [f'<tr><th style="{th}"></th>{titles}</tr>']
    row_names = H.hypothesis_names[:r] if named_rows else [str(j) for j in range(r)]
    for j in range(r):
        cells = "".join(_cell(int(v), show) for v in corner[j])
        lines.append(
            f'<tr><th title="{esc(row_names[j])}" style="{th};text-align:right">{esc(row_names[j])}</th>{cells}</tr>'
        )
    if H.n_hypotheses > r:
        lines.append(f'<tr><td colspan="{c + 2}" style="{th}">… {H.n_hypotheses - r} more hypotheses</td></tr>')
    grid = '<table style="border-collapse:collapse;margin:4px 0">' + "".join(lines) + "</table>"
    return block(f"<div>{head}</div>", grid)
