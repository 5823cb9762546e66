"""The pictures the notebooks need, on matplotlib (an optional extra: ``pip install 'dimcalc[plot]'``).

* :func:`mistake_tree` -- a mistake / io-labelled / Ψ tree witness, points at
  the nodes, edge labels, the realising hypotheses at the leaves, a path
  highlighted;
* :func:`growth` -- the growth function ``π_H(m)`` beside the Sauer–Shelah
  bound and the trivial bound ``min(|H|, (k+1)^m)``;
* :func:`sweep_joint` -- the joint distribution of two dimensions over a sweep
  database (one bubble per pair of values, with its count) and the papers'
  bounds between them as lines;
* :func:`sample_size` -- sample-size bounds as functions of one parameter
  (``alpha``, ``k``, ``epsilon``, …), each only where its theorem's range holds.

Every function draws on ``ax`` when given (else on a new figure) and returns the
:class:`matplotlib.figure.Figure`.  matplotlib is imported on the first call;
without it the call raises one line naming the extra.

Examples
--------
>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from dimcalc import HypothesisClass, littlestone_dimension
>>> T = HypothesisClass([[0, 0, 0], [0, 0, 1], [0, 1, 1], [1, 1, 1]])
>>> fig = mistake_tree(littlestone_dimension(T).witness, T)
>>> type(fig).__name__
'Figure'
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

__all__ = ["mistake_tree", "growth", "sweep_joint", "sample_size", "RELATIONS"]

#: The message when matplotlib is missing (one line, naming the extra).
MISSING = "dimcalc.plot needs matplotlib, an optional extra of dimcalc: pip install 'dimcalc[plot]'"


def _pyplot() -> Any:
    try:
        import matplotlib.pyplot as plt
    except ImportError:
        raise ImportError(MISSING) from None
    return plt


def _axes(ax: Any, figsize: tuple[float, float]) -> Any:
    if ax is not None:
        return ax
    _, ax = _pyplot().subplots(figsize=figsize)
    return ax


def _name(H: Any, what: str, index: Any) -> str:
    if H is not None and isinstance(index, int):
        if what == "point" and H.has_point_names:
            return str(H.point_names[index])
        if what == "hypothesis" and H.has_hypothesis_names:
            return str(H.hypothesis_names[index])
    return ("x" if what == "point" else "h") + str(index)


def mistake_tree(
    tree: Any,
    H: Any = None,
    *,
    ax: Any = None,
    path: Sequence[int] = (),
    max_depth: int = 6,
) -> Any:
    """Draw a tree witness (spec §3: mistake, io-labelled or Ψ tree).

    Parameters
    ----------
    tree : dict
        The root node, e.g. ``littlestone_dimension(H).witness``.
    H : HypothesisClass, optional
        Point and hypothesis names instead of indices.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when omitted.
    path : sequence of {0, 1}
        Children taken from the root (0 = first child): that path is drawn in red.
    max_depth : int
        Levels drawn; deeper subtrees are one node saying their depth.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> fig = mistake_tree({"point": 0, "children": [{"hypothesis": 0}, {"hypothesis": 1}]}, path=[1])
    >>> len(fig.axes[0].texts)   # the root, two leaves, two edge labels
    5
    """
    from .display.witnesses import tree_depth

    depth = min(tree_depth(tree), max_depth)
    ax = _axes(ax, (max(4.0, 0.9 * 2**depth), 1.2 + 0.9 * depth))
    on_path = tuple(path)

    def walk(node: Any, level: int, left: float, right: float, route: tuple[int, ...]) -> None:
        x, y = (left + right) / 2, -level
        highlighted = bool(on_path) and route == on_path[: len(route)]
        colour = "tab:red" if highlighted else None
        if "hypothesis" in node or not node.get("children"):
            text, face = _name(H, "hypothesis", node.get("hypothesis")), "#e8f0e0"
        elif level == max_depth:
            text, face = f"… depth {tree_depth(node)}", "#f4f4f4"
        else:
            text, face = _name(H, "point", node.get("point")), "#dde8f6"
            mid = (left + right) / 2
            if "labels" in node:
                edge_labels = [str(v) for v in node["labels"]]
            elif "map" in node:
                edge_labels = ["φ=0", "φ=1"]
            else:
                edge_labels = ["0", "1"]
            for c, child in enumerate(node["children"]):
                cl, cr = (left, mid) if c == 0 else (mid, right)
                cx, cy = (cl + cr) / 2, y - 1
                on = bool(on_path) and route + (c,) == on_path[: len(route) + 1]
                ax.plot([x, cx], [y, cy], color="tab:red" if on else "0.6", lw=2 if on else 1, zorder=1)
                ax.text((x + cx) / 2, (y + cy) / 2, edge_labels[c], fontsize=8, color="#a33", ha="center")
                walk(child, level + 1, cl, cr, route + (c,))
        ax.text(
            x,
            y,
            text,
            ha="center",
            va="center",
            fontsize=8,
            zorder=2,
            bbox={"boxstyle": "round", "facecolor": face, "edgecolor": colour or "0.4"},
        )

    walk(tree, 0, 0.0, float(2**depth), ())
    ax.set_xlim(-0.2, 2**depth + 0.2)
    ax.set_ylim(-depth - 0.5, 0.5)
    ax.set_yticks(range(0, -depth - 1, -1), [str(k) for k in range(depth + 1)])
    ax.set_xticks([])
    ax.set_ylabel("depth")
    ax.grid(False)
    return ax.figure


def growth(table: Any, *, ax: Any = None) -> Any:
    """The growth function of a :class:`~dimcalc.reports.growth.GrowthTable` beside Sauer–Shelah and the trivial bound.

    Parameters
    ----------
    table : GrowthTable
        :func:`dimcalc.growth_table`'s answer (a stopped row is drawn as its bounds).
    ax : matplotlib Axes, optional

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from dimcalc import HypothesisClass, growth_table
    >>> fig = growth(growth_table(HypothesisClass([[0, 0], [0, 1], [1, 1]])))
    >>> [line.get_label() for line in fig.axes[0].lines][:2]
    ['π_H(m)', 'Sauer–Shelah']
    """
    ax = _axes(ax, (6, 4))
    ms = [r.m for r in table.rows]
    values = [r.value if r.exact else r.lower for r in table.rows]
    ax.plot(ms, values, "o-", label="π_H(m)")
    if any(r.sauer_shelah is not None for r in table.rows):
        ax.plot(ms, [r.sauer_shelah for r in table.rows], "k--", label="Sauer–Shelah")
    ax.plot(ms, [r.trivial for r in table.rows], ":", color="0.5", label="min(|H|, (k+1)^m)")
    stopped = [r for r in table.rows if not r.exact]
    if stopped:
        ax.vlines([r.m for r in stopped], [r.lower for r in stopped], [r.upper for r in stopped], color="tab:orange")
    ax.set_yscale("log", base=2)
    ax.set_xlabel("m (points)")
    ax.set_ylabel("patterns")
    ax.set_title(f"growth function of {table.hclass.name}")
    ax.legend(fontsize=8)
    return ax.figure


def _k_plus_1(labels: Iterable[Any]) -> int | None:
    values = {int(v) for v in labels}
    return values.pop() if len(values) == 1 else None


#: Bounds between two dimensions (x, y): ``(label, y as a function of x and the number of labels)``.
#: Littlestone (1987): VC <= LDim; BCHL95: Natarajan <= graph; BGS Defs 2.10-2.13: Natarajan <= MLD;
#: BGS Lemma 4.5 + Claim 4.7: MLD <= Ψ^bin-LDim; BGS Thm 3.4: max_i LD(H|_i) <= 6 ln(k+1) MLD;
#: BGS Thm 7.1: MLD / ceil(log2(k+1)) <= max_i LD(H|_i).
RELATIONS: dict[tuple[str, str], list[tuple[str, Callable[[float, int | None], float | None]]]] = {
    ("vc", "littlestone"): [("LDim = VC (LDim ≥ VC, Littlestone 1987)", lambda x, k: x)],
    ("natarajan", "graph"): [("graph = Natarajan (graph ≥ Natarajan, BCHL95)", lambda x, k: x)],
    ("natarajan", "multiclass_littlestone"): [("MLD = Natarajan (MLD ≥ Natarajan, BGS §2)", lambda x, k: x)],
    ("multiclass_littlestone", "psi_littlestone.bin"): [
        ("Ψ^bin = MLD (Ψ^bin ≥ MLD, BGS Lemma 4.5 + Claim 4.7)", lambda x, k: x)
    ],
    ("multiclass_littlestone", "binary_restrictions.max"): [
        ("6·ln(k+1)·MLD (BGS Thm 3.4, upper)", lambda x, k: None if k is None else 6 * math.log(k) * x),
        ("MLD / ⌈log₂(k+1)⌉ (BGS Thm 7.1, lower)", lambda x, k: None if k is None else x / math.ceil(math.log2(k))),
    ],
}


def sweep_joint(
    data: Any, x: str, y: str, *, ax: Any = None, lines: Sequence[tuple[str, Callable]] | None = None
) -> Any:
    """The joint distribution of two dimensions over the classes of a sweep, with the papers' bounds as lines.

    Parameters
    ----------
    data : SweepDB, str or pandas.DataFrame
        A sweep database (or its path), or its :meth:`~dimcalc.sweep.SweepDB.to_pandas` frame.
    x, y : str
        Column names (``"vc"``, ``"littlestone"``, ``"psi_littlestone.bin"``,
        ``"binary_restrictions.max"``, ``"hypotheses"``, …).  Classes where
        either is not an exact number are left out (their count is in the title).
    ax : matplotlib Axes, optional
    lines : sequence of (label, function), optional
        Lines ``y = f(x, k+1)`` to draw (``k+1`` the classes' number of labels when
        they all have the same, else None), from one below the smallest ``x`` to one above
        the largest, where ``f`` is defined; default: :data:`RELATIONS` for ``(x, y)``.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> import matplotlib, os, tempfile
    >>> matplotlib.use("Agg")
    >>> from dimcalc.sweep import all_items, run_sweep
    >>> path = os.path.join(tempfile.mkdtemp(), "s.db")
    >>> _ = run_sweep(all_items("4x3x2"), db=path, dims=["vc", "littlestone"])
    >>> fig = sweep_joint(path, "vc", "littlestone")
    >>> fig.axes[0].get_xlabel(), len(fig.axes[0].lines)
    ('vc', 1)
    """
    df = _sweep_frame(data)
    for name in (x, y):
        if name not in df.columns:
            from .errors import InvalidParameterError

            raise InvalidParameterError(
                f"sweep_joint: no column {name!r} in the sweep; choose among {', '.join(map(str, df.columns))}"
            )
    both = df[[x, y]].dropna()
    counts = Counter(zip(both[x].astype(float), both[y].astype(float)))
    ax = _axes(ax, (6, 4.5))
    for (a, b), n in sorted(counts.items()):
        ax.scatter(a, b, s=20 + 3 * n**0.8, color="C0", alpha=0.6)
        ax.annotate(str(n), (a, b), textcoords="offset points", xytext=(9, -3), fontsize=8)
    k = _k_plus_1(df["labels"]) if "labels" in df.columns else None
    chosen = RELATIONS.get((x, y), []) if lines is None else lines
    if counts and chosen:
        # The lines span the values one step beyond the data on each side (where they are defined).
        lo, hi = min(a for a, _ in counts) - 1, max(a for a, _ in counts) + 1
        xs = [lo + (hi - lo) * i / 127 for i in range(128)]
        for i, (label, f) in enumerate(chosen):
            ys = [_at(f, v, k) for v in xs]
            if any(not math.isnan(v) for v in ys):
                ax.plot(xs, ys, ls="--", lw=1, color=f"C{i + 1}", label=label)
        if ax.lines:
            ax.legend(fontsize=8, loc="upper left")
    left_out = len(df) - len(both)
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    ax.set_title(f"{len(both)} classes" + (f" ({left_out} without both values)" if left_out else ""))
    return ax.figure


def _at(f: Callable, x: float, k: int | None) -> float:
    """``f(x, k)``, NaN where it is undefined (None, a math domain error, a division by zero)."""
    try:
        y = f(x, k)
    except (ValueError, ZeroDivisionError, OverflowError):
        return math.nan
    return math.nan if y is None else float(y)


def _sweep_frame(data: Any) -> Any:
    if hasattr(data, "columns"):
        return data
    from .sweep import SweepDB

    if isinstance(data, SweepDB):
        return data.to_pandas()
    with SweepDB(data) as db:
        return db.to_pandas()


def _sample_value(bound: Any, over: str, v: float) -> float:
    b = bound.with_values(**{over: v})
    if not b.in_range:
        return math.nan
    try:
        return float(b.samples)
    except (OverflowError, ValueError):
        return math.nan


def _build(make: Callable[[float], Any], v: float) -> Any:
    from .sample_size import OutOfRangeError

    try:
        return make(v)
    except OutOfRangeError:
        return None


def sample_size(
    bounds: Any,
    over: str = "alpha",
    values: Sequence[float] | None = None,
    *,
    ax: Any = None,
    labels: Sequence[str] | None = None,
) -> Any:
    """Sample-size bounds as functions of one parameter, on log–log axes.

    Parameters
    ----------
    bounds : SampleSizeTable, SampleSizeBound or sequence of them, or callables
        A bound is re-evaluated with ``over`` set to each value
        (:meth:`~dimcalc.sample_size.SampleSizeBound.with_values`); points outside its
        theorem's range are left out.  A callable ``f(v) -> SampleSizeBound`` builds the
        bound at each value instead (for parameters that change more than one symbol; a value
        where it raises :class:`~dimcalc.sample_size.OutOfRangeError` is left out).
    over : str
        The symbol varied: ``"alpha"``, ``"beta"``, ``"epsilon"``, ``"k"``, ``"d"``, …
    values : sequence of float, optional
        Default: 12 values from 0.01 to 0.5 for ``alpha``/``beta``/``epsilon``, else 1 … 1000.
    ax : matplotlib Axes, optional
    labels : sequence of str, optional
        One legend entry per bound (default: ``name (source)``).  Lines are solid for upper
        bounds with explicit constants, dashed for O(·) ones (constant ``c``), dotted for lower bounds.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from dimcalc.sample_size import vc_sample_size
    >>> fig = sample_size(vc_sample_size(vc=3, alpha=0.1, beta=0.05), "alpha", [0.05, 0.1, 0.2])
    >>> list(fig.axes[0].lines[0].get_ydata()) == [vc_sample_size(vc=3, alpha=a, beta=0.05).samples
    ...                                            for a in (0.05, 0.1, 0.2)]
    True
    """
    import numpy as np

    if values is None:
        small = over in ("alpha", "beta", "epsilon", "delta")
        values = list(np.geomspace(0.01, 0.5, 12) if small else np.unique(np.geomspace(1, 1000, 12).round()))
    if hasattr(bounds, "rows"):
        items: list[Any] = list(bounds.rows)
    elif isinstance(bounds, (list, tuple)):
        items = list(bounds)
    else:
        items = [bounds]
    ax = _axes(ax, (7, 4.5))
    for i, b in enumerate(items):
        if callable(b) and not hasattr(b, "with_values"):
            built = [_build(b, v) for v in values]
            ys = [math.nan if x is None else _sample_value(x, over, v) for x, v in zip(built, values)]
            first = next((x for x in built if x is not None), None)
            if first is None:
                continue  # out of its theorem's range at every value
        else:
            ys = [_sample_value(b, over, v) for v in values]
            first = b
        label = labels[i] if labels is not None else f"{first.name} ({first.source})"
        style = ":" if first.kind == "lower" else ("-" if first.constants_explicit else "--")
        ax.plot(list(values), ys, style, marker="o", ms=3, label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(over)
    ax.set_ylabel("samples")
    ax.legend(fontsize=7)
    return ax.figure
