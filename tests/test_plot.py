"""dimcalc.plot: every function returns a matplotlib Figure (Agg backend) holding what it was asked to draw."""

from __future__ import annotations

import sys

import matplotlib
import numpy as np
import pytest

from dimcalc import HypothesisClass, growth_table, littlestone_dimension, multiclass_littlestone_dimension, plot
from dimcalc.errors import InvalidParameterError
from dimcalc.sample_size import vc_sample_size

matplotlib.use("Agg")


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


def test_mistake_tree_draws_every_node_leaf_and_the_path() -> None:
    T = HypothesisClass(np.tril(np.ones((8, 7), dtype=int), -1))
    r = littlestone_dimension(T)
    fig = plot.mistake_tree(r.witness, T, path=[1, 0, 1])
    ax = fig.axes[0]
    assert isinstance(fig, matplotlib.figure.Figure)
    texts = [t.get_text() for t in ax.texts]
    assert sum(t.startswith("h") for t in texts) == 8 and sum(t.startswith("x") for t in texts) == 7
    assert len(ax.lines) == 14 and sum(line.get_color() == "tab:red" for line in ax.lines) == 3
    # io-labelled edges carry the pair of labels
    M = HypothesisClass([[0, 1], [1, 2], [2, 0], [2, 2]], num_labels=3)
    m = multiclass_littlestone_dimension(M)
    labels = {t.get_text() for t in plot.mistake_tree(m.witness, M).axes[0].texts}
    assert {str(v) for v in m.witness["labels"]} <= labels


def test_mistake_tree_cuts_deep_trees() -> None:
    T = HypothesisClass(np.tril(np.ones((64, 63), dtype=int), -1))
    fig = plot.mistake_tree(littlestone_dimension(T).witness, T, max_depth=2)
    assert [t.get_text() for t in fig.axes[0].texts].count("… depth 4") == 4


def test_growth_plots_the_table_and_sauer_shelah() -> None:
    T = HypothesisClass(np.tril(np.ones((6, 5), dtype=int), -1))
    table = growth_table(T)
    fig = plot.growth(table)
    lines = {line.get_label(): list(line.get_ydata()) for line in fig.axes[0].lines}
    assert lines["π_H(m)"] == [r.value for r in table.rows]
    assert lines["Sauer–Shelah"] == [r.sauer_shelah for r in table.rows]


def test_sweep_joint_counts_pairs_and_draws_the_bounds(tmp_path) -> None:
    from dimcalc.sweep import SweepDB, all_items, run_sweep

    path = tmp_path / "s.db"
    run_sweep(all_items("4x3x2"), db=str(path), dims=["vc", "littlestone"])
    fig = plot.sweep_joint(str(path), "vc", "littlestone")
    ax = fig.axes[0]
    with SweepDB(str(path)) as db:
        df = db.to_pandas()
    expected = df.groupby(["vc", "littlestone"]).size().to_dict()
    assert sorted(int(t.get_text()) for t in ax.texts) == sorted(expected.values())
    assert [line.get_label() for line in ax.lines] == [plot.RELATIONS[("vc", "littlestone")][0][0]]
    assert ax.get_title() == f"{len(df)} classes"
    with pytest.raises(InvalidParameterError, match="no column 'nope'"):
        plot.sweep_joint(df, "vc", "nope")


def test_sample_size_curves_follow_the_bound_and_skip_out_of_range() -> None:
    alphas = [0.02, 0.05, 0.1]
    fig = plot.sample_size(vc_sample_size(vc=2, alpha=0.1, beta=0.05), "alpha", alphas)
    ys = list(fig.axes[0].lines[0].get_ydata())
    assert ys == [vc_sample_size(vc=2, alpha=a, beta=0.05).samples for a in alphas]
    from dimcalc.sample_size import public_sample_lower_bound

    fig = plot.sample_size(lambda a: public_sample_lower_bound(alpha=a), "alpha", [0.001, 0.5])
    y = fig.axes[0].lines[0].get_ydata()
    assert y[0] > 0 and np.isnan(y[1])  # stated for alpha <= 1/100 only


def test_missing_matplotlib_names_the_extra(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match=r"dimcalc\[plot\]"):
        plot.growth(growth_table(HypothesisClass([[0, 1], [1, 1]])))
