"""What every notebook sets up: the plot style, the data folder, and two ways to show results.

Each notebook imports it from its own folder (Jupyter runs a notebook with the
notebook's folder as working directory, as ``scripts/run_notebooks.py`` does)::

    from _setup import DATA, fmt, show_table, use_plot_style

    use_plot_style()
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import matplotlib.pyplot as plt
from IPython.display import Markdown, display

__all__ = ["DATA", "fmt", "show_table", "use_plot_style"]

#: The shipped class files (``data/`` of the repository), seen from ``notebooks/``.
DATA = Path("..") / "data"


def use_plot_style() -> None:
    """The notebooks' figure style: small inline figures with a light grid."""
    plt.rcParams.update({"figure.dpi": 90, "axes.grid": True, "grid.alpha": 0.3})


def show_table(header: Sequence[Any], rows: Iterable[Sequence[Any]]) -> None:
    """Display rows as a Markdown table (renders on code hosts too)."""

    def cells(row: Sequence[Any]) -> str:
        return "| " + " | ".join(str(cell).replace("|", r"\|") for cell in row) + " |"

    lines = [cells(header), "|" + "---|" * len(header)] + [cells(row) for row in rows]
    display(Markdown("\n".join(lines)))


def fmt(result: Any) -> str:
    """A DimensionResult as text: the value when exact, else its proven bounds."""
    if result.value is not None:
        return str(result.value)
    if result.lower is None:
        return "undefined"
    return f"[{result.lower}, {result.upper}] (bounds)"
