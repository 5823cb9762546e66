"""Rich display (dimcalc.display): the HTML parses, holds the numbers, escapes names; DataFrames of the reports."""

from __future__ import annotations

import os
import sys
from html.parser import HTMLParser

import numpy as np
import pytest

from dimcalc import (
    DimensionResult,
    HypothesisClass,
    check_class,
    growth_table,
    littlestone_dimension,
    multiclass_littlestone_dimension,
    natarajan_dimension,
    psi_littlestone_dimension,
    sample_size_table,
    theorem_report,
    vc_dimension,
)
from dimcalc.display import class_html, result_html, table_corner, tree_svg
from dimcalc.display.frames import MISSING, require_pandas

EVIL = '<script>alert("x")</script>'
VOID = {"br", "hr", "img", "input", "meta", "link", "col", "rect", "line", "path", "circle"}


class _Parsed(HTMLParser):
    """Tags, text and whether every non-void element closes in order."""

    def __init__(self, markup: str) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.stack: list[str] = []
        self.text: list[str] = []
        self.balanced = True
        self.feed(markup)
        self.close()
        self.balanced &= not self.stack

    def handle_starttag(self, tag: str, attrs: list) -> None:
        self.tags.append(tag)
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        self.tags.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if not self.stack or self.stack.pop() != tag:
            self.balanced = False

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    @property
    def all_text(self) -> str:
        return "".join(self.text)


def parse(markup: str) -> _Parsed:
    p = _Parsed(markup)
    assert p.balanced, markup[:500]
    assert "script" not in p.tags
    return p


def evil_class(**kwargs) -> HypothesisClass:
    return HypothesisClass(
        [[0, 0, 1], [0, 1, 1], [1, 0, 1], [1, 1, 0]],
        name=EVIL,
        point_names=["<a>", "b&c", '"q"'],
        hypothesis_names=["<h0>", "h1", "h2", "<img src=x onerror=1>"],
        **kwargs,
    )


@pytest.mark.parametrize("storage", ["dense", "bits"])
def test_class_html_escapes_names_and_shows_the_table(storage) -> None:
    H = evil_class(storage=storage)
    html = H._repr_html_()
    p = parse(html)
    assert EVIL in p.all_text and "<a>" in p.all_text and "<img src=x onerror=1>" in p.all_text
    assert "img" not in p.tags
    assert f"{H.n_hypotheses} hypotheses" in p.all_text and "3 points" in p.all_text and storage in p.all_text
    # The cells carry the labels, row by row.
    assert p.all_text.count("1") >= int(np.asarray(H.table).sum())


def test_class_html_of_a_big_bit_class_reads_a_corner_only() -> None:
    rng = np.random.default_rng(1)
    dense = rng.integers(0, 2, size=(300, 5000), dtype=np.uint8)
    H = HypothesisClass(dense, storage="bits")
    assert np.array_equal(table_corner(H, 70, 33), dense[:70, :33])
    html = class_html(H, max_rows=10, max_cols=20)
    p = parse(html)
    assert "… 290 more hypotheses" in p.all_text and "… 4980 more points" in p.all_text
    assert "_dense_table" not in H.__dict__ and "_dense_distinct" not in H.__dict__  # never densified


def test_result_html_shattered_set_lists_every_pattern_with_its_rows() -> None:
    H = evil_class()
    r = vc_dimension(H)
    assert r.value == 2
    html = result_html(r, H)
    p = parse(html)
    assert "value" in p.all_text and "2" in p.all_text and "shattered set of 2 points" in p.all_text
    # 2^2 patterns, each realised by a named row; names escaped.
    cols = H.columns(list(r.witness)).tolist()
    lines = [_Parsed("<tr>" + chunk.split("</tr>")[0] + "</tr>").text for chunk in html.split("<tr>")[1:]]
    for j, pattern in enumerate(map(tuple, cols)):
        line = next(t for t in lines if t[:2] == [str(v) for v in pattern])
        assert H.hypothesis_names[j] in line[2]
    assert len({tuple(c) for c in cols}) == 4
    assert "img" not in p.tags and "none" not in p.all_text
    # Without the class: the patterns, no rows.
    assert "realised by" in parse(r._repr_html_()).all_text


def test_result_html_bounds_and_undefined() -> None:
    p = parse(DimensionResult.bounds("littlestone", 3, 7, None)._repr_html_())
    assert "[3, 7]" in p.all_text and "no (proven bounds)" in p.all_text
    q = parse(DimensionResult.undefined("vc", "not defined for multiclass classes")._repr_html_())
    assert "undefined" in q.all_text and "multiclass" in q.all_text


def test_tree_svg_draws_every_leaf_with_its_hypothesis() -> None:
    T = HypothesisClass(np.tril(np.ones((8, 7), dtype=int), -1), hypothesis_names=[f"<t{j}>" for j in range(8)])
    r = littlestone_dimension(T)
    assert r.value == 3
    svg = tree_svg(r.witness, T)
    p = parse(svg)
    assert p.tags[0] == "svg" and p.tags.count("line") == 2 * (2**3 - 1)
    leaves = [n for n in p.all_text.split() if n.startswith("<t")]
    assert len(set(leaves)) == 8  # 2^3 distinct realising hypotheses, names as text
    html = result_html(r, T)
    assert "mistake tree of depth 3" in parse(html).all_text


def test_tree_svg_cuts_deep_trees_and_labels_multiclass_and_psi_edges() -> None:
    T = HypothesisClass(np.tril(np.ones((64, 63), dtype=int), -1))
    svg = tree_svg(littlestone_dimension(T).witness, T, max_depth=2)
    assert svg.count("… depth 4") == 4
    M = HypothesisClass([[0, 1], [1, 2], [2, 0], [2, 2]], num_labels=3)
    r = multiclass_littlestone_dimension(M)
    text = parse(result_html(r, M)).all_text
    a, b = r.witness["labels"]
    assert f"= {a}" in text and f"= {b}" in text
    psi = psi_littlestone_dimension(M, "bin")
    assert "φ" in parse(result_html(psi, M)).all_text


def test_natarajan_patterns_show_the_mixes() -> None:
    M = HypothesisClass([[0, 1], [1, 2], [2, 0], [2, 2], [0, 2], [1, 1]], num_labels=3)
    r = natarajan_dimension(M)
    p = parse(result_html(r, M))
    assert "mixes of f0" in p.all_text and "none" not in p.all_text


def test_check_report_html_and_frame() -> None:
    H = evil_class()
    report = check_class(H)
    p = parse(report._repr_html_())
    assert EVIL in p.all_text and "script" not in p.tags
    df = report.to_pandas()
    rows = [r for _, _, r in __import__("dimcalc.display", fromlist=["check_rows"]).check_rows(report.dimensions)]
    assert len(df) == len(rows) and list(df.columns)[:4] == ["dimension", "variant", "kind", "value"]
    vc_row = df[df["dimension"] == "vc"].iloc[0]
    assert vc_row["value"] == report.dimensions["vc"].value and bool(vc_row["exact"])
    psi = df[df["dimension"] == "psi_littlestone"]
    assert sorted(psi["variant"]) == sorted(report.dimensions["psi_littlestone"])
    for _, row in df.iterrows():
        assert f"{row['dimension']}" in p.all_text


def test_sample_size_table_html_latex_and_frame() -> None:
    H = HypothesisClass([[0, 0], [0, 1], [1, 1]], name="<ss>")
    t = sample_size_table(H, alpha=0.1, beta=0.1, epsilon=1.0)
    p = parse(t._repr_html_())
    assert "<ss>" in p.all_text and "\\(" in p.all_text
    for b in t.rows:
        assert str(b.samples) in p.all_text and b.source in p.all_text
    assert t.rows[0]._repr_latex_().startswith("$n = ") and str(t.rows[0].samples) in t.rows[0]._repr_latex_()
    df = t.to_pandas()
    assert df.shape == (len(t), 14)
    assert df["samples"].tolist() == [b.samples for b in t.rows]
    assert df["source"].tolist() == [b.source for b in t.rows]


def test_theorem_report_html_and_frame() -> None:
    H = HypothesisClass([[0, 0, 0], [0, 0, 1], [0, 1, 1], [1, 1, 1]])
    report = theorem_report(H)
    p = parse(report._repr_html_())
    assert p.all_text.count("yes") >= len(report)
    df = report.to_pandas()
    assert len(df) == len(report) and df["holds"].tolist() == [c.holds for c in report]
    lemma = df[df["source"] == "BGS Lemma 5.11"].iloc[0]
    assert (lemma["lhs_lower"], lemma["rhs_lower"]) == (4, 4)


def test_growth_table_html_and_frame() -> None:
    T = HypothesisClass(np.tril(np.ones((5, 4), dtype=int), -1))
    g = growth_table(T)
    p = parse(g._repr_html_())
    assert "Sauer–Shelah" in p.all_text
    df = g.to_pandas()
    assert df["m"].tolist() == [0, 1, 2, 3] and df["value"].tolist() == [1, 2, 3, 4]
    assert df["sauer_shelah"].tolist() == [r.sauer_shelah for r in g.rows]


def test_sweep_report_html_and_database_frame(tmp_path) -> None:
    from dimcalc.sweep import SweepDB, all_items, run_sweep, sweep_report

    path = tmp_path / "s.db"
    run_sweep(all_items("4x3x2"), db=str(path), dims=["vc", "littlestone"])
    report = sweep_report(str(path), expressions=["littlestone - vc"])
    p = parse(report._repr_html_())
    assert f"{report.classes} classes" in p.all_text and "littlestone - vc" in p.all_text
    with SweepDB(str(path)) as db:
        df = db.to_pandas()
        wide = db.to_pandas(bounds=True)
        n = db.count("classes")
        stored = dict(
            db.conn.execute("SELECT class_id, value FROM results WHERE dimension = 'vc' AND exact").fetchall()
        )
    assert len(df) == n == report.classes and {"vc", "littlestone"} <= set(df.columns)
    assert {int(k): int(v) for k, v in df["vc"].items()} == stored
    assert "vc.lower" in wide.columns and "littlestone.upper" in wide.columns
    dist = df["littlestone"].value_counts().to_dict()
    assert {str(k): v for k, v in dist.items()} == report.dimensions["littlestone"]["distribution"]


def test_to_pandas_without_pandas_names_the_extra(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)  # import pandas now raises ImportError
    with pytest.raises(ImportError) as info:
        require_pandas()
    assert str(info.value) == MISSING and "dimcalc[pandas]" in MISSING and "\n" not in MISSING
    with pytest.raises(ImportError, match=r"dimcalc\[pandas\]"):
        check_class(HypothesisClass([[0, 1], [1, 1]]), ["vc"]).to_pandas()


def test_display_is_not_imported_by_dimcalc() -> None:
    import subprocess

    code = "import sys, dimcalc; print('dimcalc.display' in sys.modules, 'pandas' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=dict(os.environ), check=True)
    assert out.stdout.split() == ["False", "False"]
