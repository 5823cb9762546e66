"""Witnesses drawn: a shattered set as its 2^d patterns with the rows realising them, a tree as an SVG picture.

* :func:`patterns_html` -- the label patterns a VC / Natarajan / graph / growth
  witness is about, one per line, with the hypotheses of the class that
  realise each (when the class is given);
* :func:`tree_svg` -- a mistake, io-labelled or Ψ tree (spec §3 format) as an
  SVG picture: points at the nodes, the edge labels (``h(x) = b``, the pair of
  labels, or ``φ(h(x)) = b``) on the edges, the realising hypotheses at the
  leaves; deep trees are cut at ``max_depth`` levels with the depth left shown;
* :func:`witness_summary` -- one line saying what the witness is;
* :func:`witness_html` -- the picture that fits the witness (its JSON text otherwise).

Examples
--------
>>> from dimcalc import HypothesisClass
>>> svg = tree_svg({"point": 0, "children": [{"hypothesis": 0}, {"hypothesis": 1}]})
>>> svg.startswith("<svg") and "h0" in svg
True
"""

from __future__ import annotations

import itertools
import json
from collections import defaultdict
from typing import Any

from ._html import MAX_LIST, esc, table

# The display layer reads the model's objects by duck typing and imports none of it (no import circle:
# the model's _repr_html_ methods import this package lazily).
HypothesisClass = Any

__all__ = ["patterns_html", "tree_svg", "tree_depth", "witness_summary", "witness_html", "MAX_PATTERNS", "MAX_DEPTH"]

#: Patterns listed by :func:`patterns_html` before "… n more".
MAX_PATTERNS = 64
#: Levels of a tree drawn by :func:`tree_svg`; deeper subtrees are shown as "… depth n".
MAX_DEPTH = 5
#: Characters of a name kept in a tree picture.
_NAME_CHARS = 12

_SHATTERED = {"ShatteredSet": "shattered set", "GrowthWitness": "points achieving the growth function"}
_TREES = {
    "MistakeTree": "mistake tree",
    "MulticlassTree": "io-labelled (multiclass) tree",
    "PsiTree": "Ψ-tree",
    "RestrictionTree": "mistake tree of a binary restriction",
}


def _is_tree(w: Any) -> bool:
    return isinstance(w, dict) and ("point" in w or "hypothesis" in w)


def tree_depth(tree: Any) -> int:
    """The depth of a complete tree in spec §3 format (levels of internal nodes along the leftmost path).

    Parameters
    ----------
    tree : dict
        ``{"point": i, "children": [T0, T1], ...}`` or a leaf ``{"hypothesis": j}``.

    Returns
    -------
    int

    Examples
    --------
    >>> tree_depth({"point": 0, "children": [{"hypothesis": 0}, {"hypothesis": 1}]})
    1
    """
    depth = 0
    node = tree
    while isinstance(node, dict) and node.get("children"):
        depth += 1
        node = node["children"][0]
    return depth


def _names(H: HypothesisClass | None, what: str, indices: Any) -> list[str]:
    if what == "point":
        return [H.point_names[i] if H is not None and H.has_point_names else f"x{i}" for i in indices]
    return [H.hypothesis_names[j] if H is not None and H.has_hypothesis_names else f"h{j}" for j in indices]


def _rows_text(H: HypothesisClass | None, rows: list[int]) -> str:
    if not rows:
        return "none"
    shown = ", ".join(_names(H, "hypothesis", rows[:MAX_LIST]))
    return shown + (f", … {len(rows) - MAX_LIST} more" if len(rows) > MAX_LIST else "")


def _points(n: int) -> str:
    return "1 point" if n == 1 else f"{n} points"


def witness_summary(witness: Any) -> str:
    """One line saying what a witness is (no class needed).

    Parameters
    ----------
    witness : object
        A :mod:`dimcalc.witnesses` object or plain spec §3 data.

    Returns
    -------
    str

    Examples
    --------
    >>> from dimcalc.witnesses import ShatteredSet
    >>> witness_summary(ShatteredSet([0, 3]))
    'shattered set of 2 points [0, 3]'
    """
    if witness is None:
        return "none"
    name = type(witness).__name__
    if name in _SHATTERED:
        return f"{_SHATTERED[name]} of {_points(len(witness))} {list(witness)}"
    if name == "NatarajanWitness":
        return f"Natarajan-shattered set of {_points(len(witness['points']))} {list(witness['points'])}"
    if name == "GraphWitness":
        return f"graph-shattered set of {_points(len(witness['points']))} {list(witness['points'])}"
    if _is_tree(witness):
        d = tree_depth(witness)
        return f"{_TREES.get(name, 'tree')} of depth {d} ({2**d} leaves)"
    text = json.dumps(witness.to_json() if hasattr(witness, "to_json") else witness, default=str)
    return f"{name}: {text[:80]}{'…' if len(text) > 80 else ''}"


def _pattern_rows(
    H: HypothesisClass | None, points: list[int], vectors: dict[tuple, tuple], agree: tuple | None
) -> dict[tuple, list[int]]:
    """For each pattern, the rows of ``H`` realising it (empty without ``H``)."""
    out: dict[tuple, list[int]] = defaultdict(list)
    if H is None:
        return out
    cols = H.columns(points)  # reads only the witness's columns
    lookup = {v: p for p, v in vectors.items()}
    for j, row in enumerate(map(tuple, cols.tolist())):
        if agree is not None:  # graph witness: the pattern is where the row agrees with f
            out[tuple(int(a == b) for a, b in zip(row, agree))].append(j)
        elif row in lookup:
            out[lookup[row]].append(j)
        elif not vectors:  # growth: every row's pattern counts
            out[row].append(j)
    return out


def patterns_html(witness: Any, H: HypothesisClass | None = None, *, max_patterns: int = MAX_PATTERNS) -> str:
    """The patterns of a shattered-set witness, one per line, with the rows of ``H`` that realise each.

    Parameters
    ----------
    witness : ShatteredSet, NatarajanWitness, GraphWitness or GrowthWitness
        (or their spec §3 data: a list of points, or a dict with ``points`` and ``f0, f1`` / ``f``).
    H : HypothesisClass, optional
        The class: adds point names and the realising hypotheses.
    max_patterns : int
        Patterns listed before "… n more".

    Returns
    -------
    str
        An HTML table.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass([[0, 0], [0, 1], [1, 0], [1, 1]])
    >>> html = patterns_html([0, 1], H)
    >>> html.count("<tr>") - 1, "h3" in html   # 4 patterns under the header
    (4, True)
    """
    agree = None
    vectors: dict[tuple, tuple] = {}
    if isinstance(witness, dict):
        points = list(witness["points"])
        d = len(points)
        if "f" in witness:
            agree = tuple(witness["f"])
            patterns = list(itertools.product((0, 1), repeat=d))
        else:
            f0, f1 = witness["f0"], witness["f1"]
            patterns = list(itertools.product((0, 1), repeat=d))
            vectors = {p: tuple(f1[i] if b else f0[i] for i, b in enumerate(p)) for p in patterns}
    else:
        points = list(witness)
        d = len(points)
        if type(witness).__name__ == "GrowthWitness":
            patterns = []
        else:
            patterns = list(itertools.product((0, 1), repeat=d))
            vectors = {p: p for p in patterns}
    realised = _pattern_rows(H, points, vectors, agree)
    if not patterns:  # growth: the patterns the class puts on the points
        patterns = sorted(realised)
    names = _names(H, "point", points)
    header = [*names, "realised by"]
    if vectors and any(vectors[p] != p for p in patterns):
        header = [*names, "labels", "realised by"]
    lines = []
    for p in patterns[:max_patterns]:
        cells: list[Any] = list(p)
        if len(header) == d + 2:
            cells.append(str(list(vectors[p])))
        cells.append(_rows_text(H, realised.get(p, [])) if H is not None else "")
        lines.append(cells)
    if len(patterns) > max_patterns:
        lines.append([f"… {len(patterns) - max_patterns} more patterns", *[""] * (len(header) - 1)])
    caption = "the 2^d patterns" if vectors else "the patterns the class puts on the points"
    if agree is not None:
        caption = f"agreement patterns with f = {list(agree)} (1 = agrees)"
    elif vectors and any(vectors[p] != p for p in patterns):
        caption = "mixes of f0 (0) and f1 (1)"
    return table(header, lines, caption=caption)


def _edge_labels(node: dict) -> tuple[str, str]:
    if "labels" in node:
        a, b = node["labels"]
        return f"= {a}", f"= {b}"
    if "map" in node:
        return "φ = 0", "φ = 1"
    return "= 0", "= 1"


def _short(text: str) -> str:
    return text if len(text) <= _NAME_CHARS else text[: _NAME_CHARS - 1] + "…"


def tree_svg(tree: Any, H: HypothesisClass | None = None, *, max_depth: int = MAX_DEPTH) -> str:
    """A spec §3 tree (mistake, io-labelled or Ψ) as an SVG picture.

    Internal nodes show their point (and a Ψ node its map), edges their label
    (the value ``h(x)`` of the child's side, the io-label, or ``φ(h(x))``),
    leaves the hypothesis realising the path.  Levels below ``max_depth`` are
    drawn as one box saying the depth left.

    Parameters
    ----------
    tree : dict
        The root node (a :mod:`dimcalc.witnesses` tree or its plain data).
    H : HypothesisClass, optional
        The class: point and hypothesis names instead of indices.
    max_depth : int
        Levels drawn.

    Returns
    -------
    str
        ``<svg …>…</svg>``; names are escaped.

    Examples
    --------
    >>> svg = tree_svg({"point": 2, "labels": [1, 0], "children": [{"hypothesis": 5}, {"hypothesis": 4}]})
    >>> "x2" in svg and "= 1" in svg and "h5" in svg
    True
    """
    shown = min(tree_depth(tree), max_depth)
    slot, level_h, top = 64, 64, 20
    width = slot * 2**shown
    height = top + level_h * shown + 44
    parts: list[str] = []
    font = 'font-family="sans-serif" font-size="11" text-anchor="middle"'

    def text(x: float, y: float, content: str, extra: str = "") -> None:
        parts.append(f'<text x="{x:.1f}" y="{y:.1f}" {font} {extra}>{esc(content)}</text>')

    def box(x: float, y: float, label: str, fill: str, title: str) -> None:
        w = max(28, 7 * len(label) + 8)
        parts.append(
            f'<g><title>{esc(title)}</title><rect x="{x - w / 2:.1f}" y="{y - 10:.1f}" width="{w}" height="20" rx="6" '
            f'fill="{fill}" stroke="#555"/></g>'
        )
        text(x, y + 4, label)

    def walk(node: Any, level: int, left: float, right: float) -> None:
        x, y = (left + right) / 2, top + level * level_h
        if "hypothesis" in node or not node.get("children"):
            j = node.get("hypothesis")
            name = _names(H, "hypothesis", [j])[0] if isinstance(j, int) else str(j)
            box(x, y, _short(name), "#e8f0e0", f"hypothesis {j}: {name}")
            return
        if level == max_depth:
            box(x, y, f"… depth {tree_depth(node)}", "#f4f4f4", "subtree not drawn")
            return
        i = node.get("point")
        name = _names(H, "point", [i])[0] if isinstance(i, int) else str(i)
        mid = (left + right) / 2
        for c, (child, lab) in enumerate(zip(node["children"], _edge_labels(node))):
            cl, cr = (left, mid) if c == 0 else (mid, right)
            cx, cy = (cl + cr) / 2, y + level_h
            parts.append(f'<line x1="{x:.1f}" y1="{y + 10:.1f}" x2="{cx:.1f}" y2="{cy - 10:.1f}" stroke="#888"/>')
            text((x + cx) / 2 + (-8 if c == 0 else 8), (y + cy) / 2, lab, 'fill="#a33"')
            walk(child, level + 1, cl, cr)
        box(x, y, _short(name), "#dde8f6", f"point {i}: {name}")
        if "map" in node:
            text(x, y + 22, _short("φ " + str(list(node["map"]))), 'fill="#555" font-size="9"')

    walk(tree, 0, 0, width)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">' + "".join(parts) + "</svg>"
    )


def witness_html(witness: Any, H: HypothesisClass | None = None) -> str:
    """The picture of a witness: patterns of a shattered set, a tree, or its JSON text.

    Parameters
    ----------
    witness : object
        A :mod:`dimcalc.witnesses` object or its spec §3 data.
    H : HypothesisClass, optional
        The class it certifies: names and realising hypotheses.

    Returns
    -------
    str
        An HTML fragment.

    Examples
    --------
    >>> from dimcalc.witnesses import MistakeTree
    >>> "<svg" in witness_html(MistakeTree({"point": 0, "children": [{"hypothesis": 0}, {"hypothesis": 1}]}))
    True
    """
    if witness is None:
        return ""
    name = type(witness).__name__
    if name in _SHATTERED or name in ("NatarajanWitness", "GraphWitness"):
        return patterns_html(witness, H)
    if _is_tree(witness):
        return tree_svg(witness, H)
    data = witness.to_json() if hasattr(witness, "to_json") else witness
    text = json.dumps(data, default=str)
    if len(text) > 2000:
        text = text[:2000] + f" … ({len(text) - 2000} more characters)"
    return f"<pre style='white-space:pre-wrap;font-size:11px'>{esc(text)}</pre>"
