#!/usr/bin/env python
"""Write dimcalc's notebooks (notebooks/*.ipynb) from the cell lists in this file.

This script is the source of the notebooks: edit the cells here, then run ::

    python scripts/build_notebooks.py            # rewrite every notebook (outputs are dropped)
    python scripts/build_notebooks.py --only 02  # rewrite one notebook
    make notebooks                               # execute them and store the outputs

``tests/test_notebooks.py`` checks that the committed notebooks have the same
cells as this script, so the two cannot drift apart.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import nbformat

__all__ = ["NOTEBOOKS", "NOTEBOOK_DIR", "build", "main"]

NOTEBOOK_DIR = Path(__file__).resolve().parent.parent / "notebooks"


def md(text: str) -> tuple[str, str]:
    return ("markdown", text.strip("\n"))


def code(text: str) -> tuple[str, str]:
    return ("code", text.strip("\n"))


# Shared first code cell: imports, plotting defaults and a Markdown table helper.
SETUP = code('''
%matplotlib inline
import math
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
from IPython.display import Markdown, display

import dimcalc

plt.rcParams.update({"figure.dpi": 90, "axes.grid": True, "grid.alpha": 0.3})
DATA = Path("..") / "data"          # the notebooks run with notebooks/ as working directory


def show_table(header, rows):
    """Display rows as a Markdown table (renders on code hosts too)."""
    def cells(row):
        return "| " + " | ".join(str(cell).replace("|", r"\\|") for cell in row) + " |"
    lines = [cells(header), "|" + "---|" * len(header)] + [cells(row) for row in rows]
    display(Markdown("\\n".join(lines)))


def fmt(result):
    """A DimensionResult as text: the value when exact, else its proven bounds."""
    if result.value is not None:
        return str(result.value)
    if result.lower is None:
        return "undefined"
    return f"[{result.lower}, {result.upper}] (bounds)"
''')


# ---------------------------------------------------------------------------------------------- 01
TOUR = [
    md('''
# 01 · A tour of dimcalc: VC, Littlestone and log₂|H|

**Question.** For a finite class *H*, how far apart are the three classical measures of its
complexity — the VC dimension (what *non-private* PAC learning pays), the Littlestone dimension
(what *online* learning, and hence *private* learning, pays) and log₂|H| (what the generic
learners pay)? Always `VC ≤ LD ≤ log₂|H|`; this notebook shows where each inequality is tight and
where it is loose, with every number computed by dimcalc and certified by a witness.

**Sources.** Littlestone dimension and the Standard Optimal Algorithm (SOA): Littlestone (1987),
as used in Feldman–Xiao (FX, COLT 2014) §4; the named classes `Thr_b`, `BOX_b^d`, `HS_b^d`,
`BALL_b^d` and their dimensions: FX §4.1.
'''),
    SETUP,
    md('''
## 1. Classes: generated or loaded

A class is a table: one row per hypothesis, one column per domain point. `dimcalc.generators`
builds the named families of the papers; `dimcalc.load` reads the class files of the interface
spec (JSON or CSV), such as the ones shipped in `data/`. Here we generate the thresholds on 7
points, check that writing and reading a class file gives the same class back, and load a small
random 4-label class from `data/`.
'''),
    code('''
import tempfile
from dimcalc import generators

H = generators.thresholds(7)
print(H)
print("metadata:", H.metadata)
with tempfile.TemporaryDirectory() as tmp:
    path = Path(tmp) / "thresholds-7.json"
    dimcalc.save(H, path)
    print("save/load round trip identical:", dimcalc.load(path) == H)
show_table(["hypothesis"] + list(H.point_names),
           [[name] + row for name, row in zip(H.hypothesis_names, H.table.tolist())])

M = dimcalc.load(DATA / "random-multiclass.json")
print(M)
'''),
    md('''
## 2. Every dimension, with its witness

`dimcalc.check.check_class` runs every solver under one time budget (the library side of
`dimcalc check`). Each answer is a `DimensionResult`: a value, whether it is exact, and a witness —
a shattered set, a shattered tree — that an *independent* checker re-verifies (`report.verify()`).
We check the thresholds and the random 4-label class (for which VC and Littlestone are
undefined and the multiclass notions take over). The "witness verified" column re-runs the
independent checker of each result (a binary restriction's tree is checked against `H|ᵢ`). `binary_restrictions[bit i]` is the Littlestone
dimension of the binary class *H|ᵢ* that keeps bit *i* of every label (bit 1 = least significant).
'''),
    code('''
from dimcalc.check import check_class
from dimcalc.trees import tree_depth


def flatten(dimensions):
    for key, value in dimensions.items():
        if isinstance(value, dict):
            for fam, r in value.items():
                yield f"{key}[{fam}]", r
        elif isinstance(value, list):
            for i, r in enumerate(value, start=1):
                yield f"{key}[bit {i}]", r
        else:
            yield key, value


for cls in (H, M):
    report = check_class(cls, time_limit=20)
    print(f"{cls.name}: every result exact = {report.complete}; every witness verified = {report.verify()}")
    rows = []
    for key, r in flatten(report.dimensions):
        if isinstance(r.witness, dict) and "point" in r.witness:
            witness = f"shattered tree of depth {tree_depth(r.witness)}"
        elif r.witness is not None:
            witness = f"`{r.witness}`"
        else:
            witness = r.reason or ""
        verified = r.verify(cls) if r.lower is not None else "—"
        rows.append([key, fmt(r), r.exact, verified, witness])
    show_table(["dimension", "value", "exact", "witness verified", "witness"], rows)
'''),
    md('''
## 3. A mistake tree, drawn

The witness of a Littlestone dimension *d* is a complete binary tree of depth *d*: internal nodes
are domain points, the left edge says "label 0", the right edge "label 1", and every root-to-leaf
path is realised by one hypothesis (named at the leaf). `dimcalc.trees.tree_to_networkx` turns
the witness into a `networkx` graph with a layout; `is_mistake_tree` is the independent checker.
'''),
    code('''
import networkx as nx
from dimcalc.littlestone import littlestone_dimension, multiclass_littlestone_dimension
from dimcalc.trees import is_mistake_tree, tree_to_networkx
from dimcalc.vc import vc_dimension

T = generators.thresholds(15)
ld_T = littlestone_dimension(T)
tree = ld_T.witness
print(f"{T.name}: Littlestone dimension {ld_T.value} (exact: {ld_T.exact}); "
      f"checker certifies depth {is_mistake_tree(T, tree)}")


def draw_tree(G, H, ax, path=()):
    """Draw a tree_to_networkx graph with H's point and hypothesis names; highlight one path."""
    pos = nx.get_node_attributes(G, "pos")
    names = {}
    for node, data in G.nodes(data=True):
        names[node] = (H.point_names[data["point"]] if data["kind"] == "internal"
                       else H.hypothesis_names[data["hypothesis"]])
    on_path = {n for n, data in G.nodes(data=True) if tuple(data["path"]) == tuple(path)[:len(data["path"])]}
    colors = ["tab:red" if n in on_path and path else
              ("tab:blue" if G.nodes[n]["kind"] == "internal" else "tab:green") for n in G.nodes]
    nx.draw_networkx_edges(G, pos, ax=ax, arrows=False,
                           edge_color=["tab:red" if u in on_path and v in on_path and path else "0.6"
                                       for u, v in G.edges])
    nx.draw_networkx_nodes(G, pos, ax=ax, node_color=colors, node_size=520, alpha=0.9)
    nx.draw_networkx_labels(G, pos, labels=names, ax=ax, font_size=8, font_color="white")
    nx.draw_networkx_edge_labels(G, pos, edge_labels=nx.get_edge_attributes(G, "label"), ax=ax, font_size=8)
    depth = G.graph["depth"]
    ax.set_yticks(range(0, -depth - 1, -1), [str(k) for k in range(depth + 1)])
    ax.set_xticks([])
    ax.set_ylabel("depth (number of labels revealed)")
    ax.set_xlabel("leaves: one realising hypothesis per root-to-leaf path")
    ax.tick_params(left=True, labelleft=True)


G = tree_to_networkx(tree)
fig, ax = plt.subplots(figsize=(12, 4.5))
draw_tree(G, T, ax)
ax.set_title(f"Mistake tree of depth {G.graph['depth']} shattered by {T.name} (witness of LD = {ld_T.value})")
plt.show()
'''),
    md('''
**Reading the plot.** Each row of nodes is one round of an online game; each internal node is the
point the adversary asks at that stage and the edge labels are the two answers it can give. The
root asks the middle point, the next level the middle of the remaining half: the tree is binary
search, which is exactly why `LD(thresholds on n points) = ⌊log₂(n+1)⌋`. The leaves list, for
each root-to-leaf path, a threshold consistent with all the answers on it — that every path has
one is what "shattered" means, and it is what `is_mistake_tree` checked.
'''),
    md('''
## 4. SOA against the adversary that walks the tree

The mistake tree is also a strategy for an adversary: ask the root's point, wait for the
learner's prediction, answer the *other* label, and descend along that edge. Every path is
realised by a hypothesis, so the answers stay consistent with the class and *every* deterministic
learner errs once per level — `LD(H)` mistakes. Littlestone's Standard Optimal Algorithm
(`dimcalc.soa.StandardOptimalAlgorithm`) predicts the label whose version space has the larger
Littlestone dimension, and so makes at most `LD(H)` mistakes on any sequence the class
realises. `dimcalc.soa.adversary_walk` plays the game; a small wrapper records each round.
'''),
    code('''
from dimcalc.soa import MulticlassSOA, StandardOptimalAlgorithm, adversary_walk


class Recorder:
    """Wrap an online learner and log (point, prediction, answer, mistakes so far, LD of the version space)."""

    def __init__(self, learner):
        self.learner, self.log = learner, []

    def predict(self, x):
        self._prediction = self.learner.predict(x)
        return self._prediction

    def update(self, x, y):
        self.learner.update(x, y)
        self.log.append((x, self._prediction, y, self.learner.mistakes, self.learner.dimension()))


soa = Recorder(StandardOptimalAlgorithm(T))
forced = adversary_walk(soa, tree)
print(f"adversary_walk forced {forced} mistakes on SOA; LD({T.name}) = {ld_T.value}")
show_table(["round", "point asked", "SOA predicts", "adversary answers", "mistakes so far", "LD of version space"],
           [[i + 1, T.point_names[x], p, y, m, d] for i, (x, p, y, m, d) in enumerate(soa.log)])

M_tree = multiclass_littlestone_dimension(M)
print(f"multiclass: adversary_walk forced {adversary_walk(MulticlassSOA(M), M_tree.witness)} mistakes "
      f"on the multiclass SOA; MLD({M.name}) = {M_tree.value}")

# SOA on realisable sequences: a random target and all points in random order
rng = np.random.default_rng(1)
random_mistakes = []
for _ in range(300):
    learner = StandardOptimalAlgorithm(T)
    target = T.table[rng.integers(T.n_hypotheses)]
    for x in rng.permutation(T.n_points):
        learner.predict(int(x))
        learner.update(int(x), int(target[x]))
    random_mistakes.append(learner.mistakes)

fig, axes = plt.subplots(1, 3, figsize=(16, 4.2), gridspec_kw={"width_ratios": [1.1, 1, 2]})
rounds = np.arange(len(soa.log) + 1)
axes[0].step(rounds, [0] + [m for *_, m, _ in soa.log], where="post", lw=2, label="SOA's mistakes")
axes[0].step(rounds, [ld_T.value] + [d for *_, d in soa.log], where="post", lw=2,
             label="Littlestone dim. of the version space")
axes[0].axhline(ld_T.value, color="k", ls="--", label=f"LD(H) = {ld_T.value}")
axes[0].set_xlabel("round of the adversary's walk")
axes[0].set_ylabel("count")
axes[0].set_title("Each forced mistake costs one level")
axes[0].legend(fontsize=8)
counts = np.bincount(random_mistakes, minlength=ld_T.value + 2)
axes[1].bar(range(len(counts)), counts, color="tab:gray")
axes[1].axvline(ld_T.value, color="k", ls="--", label=f"LD(H) = {ld_T.value}")
axes[1].set_xlabel("mistakes of SOA on one sequence")
axes[1].set_ylabel("number of sequences (of 300)")
axes[1].set_title("Random targets and orders: never above LD")
axes[1].legend(fontsize=8)
draw_tree(G, T, axes[2], path=[y for _, _, y, _, _ in soa.log])
axes[2].set_title("The adversary's path through the tree (red)")
fig.tight_layout()
plt.show()
'''),
    md('''
**Reading the plot.** Left: against the tree-walking adversary SOA errs in every round (the blue
staircase climbs to `LD(H)`), and each mistake lowers the Littlestone dimension of its version
space by exactly one (orange) — the potential argument behind SOA's mistake bound, run. Middle:
on 300 random targets presented in random order SOA never exceeds `LD(H)` mistakes and usually
makes fewer, because a random sequence is rarely as hostile as the tree. Right: the path the
adversary took, ending at a hypothesis consistent with all its answers — which is why its
answers were legal. Together these are the two halves of Littlestone's theorem: the dimension is
both a lower bound for every learner (the tree) and achieved by one (SOA). The same holds for
multiclass classes with the multiclass SOA and MLD, as the printed line shows.
'''),
    md('''
## 5. VC vs Littlestone vs log₂|H| over the standard families

For each family we grow the domain and compute the VC dimension and the Littlestone dimension
(both exact, each witness re-verified by its checker) beside log₂ of the number of distinct
hypotheses.
'''),
    code('''
families = {
    "point functions": (generators.point_functions, range(2, 33, 2)),
    "thresholds": (generators.thresholds, range(2, 33, 2)),
    "intervals": (generators.intervals, range(2, 25, 2)),
    "parities over {0,1}^d (n = 2^d)": (generators.parities, range(1, 7)),
}
curves = {}
for label, (make, sizes) in families.items():
    xs, vcs, lds, logs = [], [], [], []
    for size in sizes:
        cls = make(size)
        v, l = vc_dimension(cls), littlestone_dimension(cls)
        assert v.exact and l.exact and v.verify(cls) and l.verify(cls)
        xs.append(cls.n_points)
        vcs.append(v.value)
        lds.append(l.value)
        logs.append(math.log2(cls.n_distinct))
    curves[label] = (xs, vcs, lds, logs)

fig, axes = plt.subplots(2, 2, figsize=(11, 8))
for ax, (label, (xs, vcs, lds, logs)) in zip(axes.flat, curves.items()):
    ax.plot(xs, logs, "k--", label="log₂|H|")
    ax.plot(xs, lds, "o-", label="Littlestone dimension")
    ax.plot(xs, vcs, "s-", label="VC dimension")
    ax.set_title(label)
    ax.set_xlabel("domain size n")
    ax.set_ylabel("dimension")
    ax.legend()
fig.suptitle("VC ≤ Littlestone ≤ log₂|H| on four families (every value computed and verified)")
fig.tight_layout()
plt.show()
'''),
    md('''
**Reading the plot.** The three measures can sit anywhere in the chain `VC ≤ LD ≤ log₂|H|`.
*Point functions* have VC = LD = 1 however large the domain: online learning (and, by FX, pure
private learning) stays cheap while log₂|H| grows. *Thresholds* are the textbook separation of
VC from Littlestone: VC stays 1 while LD grows like log₂ n and equals ⌊log₂|H|⌋ — binary search
is all an adversary allows. *Intervals* behave like thresholds with VC = 2. *Parities* are the
other extreme: VC = LD = log₂|H| = d, so no dimension offers a saving over counting hypotheses.
'''),
    md('''
## 6. FX §4.1's named classes on small grids: computed values beside the paper's formulas

FX §4.1 lists classes over the grid `[2^b]^d` whose Littlestone dimension exceeds their VC
dimension, citing `LDim(Thr_b) = b`, `VC(Thr_b) = 1`; `LDim(BOX_b^d) ≥ b·d`, `VC(BOX_b^d) = d+1`;
`LDim(HS_b^d) = b·d(d−1)/2`, `VC(HS_b^d) = d+1`; `LDim(BALL_b^d) = Ω(b·d²)` (constant not given),
`VC(BALL_b^d) = d+1`. dimcalc builds these classes exactly (`generators.thresholds(2**b)` adds
the all-zero threshold, which leaves both dimensions unchanged) and computes both dimensions
exactly. The "FX" columns evaluate the paper's expressions at the same *b* and *d*; they describe
growth in *b* and *d*, so on small grids they need not match.
'''),
    code('''
def fx_formulas(family, b, d):
    # FX §4.1: (VC expression, Littlestone relation as text, Littlestone expression)
    if family == "thresholds":
        return 1, "= b", b
    if family == "boxes":
        return d + 1, "≥ b·d", b * d
    if family == "halfspaces":
        return d + 1, "= b·d(d−1)/2", b * d * (d - 1) // 2
    return d + 1, "= Ω(b·d²)", b * d * d


grids = [("thresholds", b, 1) for b in (1, 2, 3, 4, 5)]
grids += [(fam, b, d) for fam in ("boxes", "halfspaces") for d in (1, 2) for b in (1, 2, 3)]
grids += [("balls", b, d) for d in (1, 2) for b in (1, 2)]
makers = {"thresholds": lambda b, d: generators.thresholds(2 ** b), "boxes": generators.boxes,
          "halfspaces": generators.halfspaces, "balls": generators.balls}
fx_rows = []
for family, b, d in grids:
    cls = makers[family](b, d)
    v, l = vc_dimension(cls, time_limit=20), littlestone_dimension(cls, time_limit=20)
    assert v.verify(cls) and l.verify(cls)
    vc_formula, ld_text, ld_formula = fx_formulas(family, b, d)
    fx_rows.append(dict(family=family, b=b, d=d, size=cls.n_distinct, vc=v, vc_formula=vc_formula,
                        ld=l, ld_text=ld_text, ld_formula=ld_formula))
show_table(["class", "b", "d", "distinct hypotheses", "VC (dimcalc)", "VC (FX)", "LD (dimcalc)",
            "LD (FX)", "FX expression at b, d", "log₂|H|"],
           [[r["family"], r["b"], r["d"], r["size"], fmt(r["vc"]), r["vc_formula"], fmt(r["ld"]),
             f'LD {r["ld_text"]}', r["ld_formula"], f'{math.log2(r["size"]):.2f}'] for r in fx_rows])
'''),
    code('''
fig, axes = plt.subplots(2, 2, figsize=(11, 8))
for ax, family in zip(axes.flat, ("thresholds", "boxes", "halfspaces", "balls")):
    for d, color in ((1, "tab:blue"), (2, "tab:orange")):
        pts = [r for r in fx_rows if r["family"] == family and r["d"] == d]
        if not pts:
            continue
        bs = [r["b"] for r in pts]
        ax.plot(bs, [r["ld"].value for r in pts], "o-", color=color, label=f"d={d}: LD (dimcalc)")
        ax.plot(bs, [r["ld_formula"] for r in pts], "o:", color=color, mfc="none",
                label=f"d={d}: FX: LD {pts[0]['ld_text']}")
        ax.plot(bs, [r["vc"].value for r in pts], "s--", color=color, alpha=0.6, label=f"d={d}: VC (dimcalc)")
    ax.set_xticks(sorted({r["b"] for r in fx_rows if r["family"] == family}))
    ax.set_xlabel("bits per coordinate b (grid side 2^b)")
    ax.set_ylabel("dimension")
    ax.set_title(f"{family} over [2^b]^d")
    ax.legend(fontsize=8)
fig.suptitle("FX §4.1: exact Littlestone and VC dimensions (solid, dashed) beside the paper's expressions (dotted)")
fig.tight_layout()
plt.show()
'''),
    md('''
**Reading the plot.** One panel per family, one colour per dimension *d*. Solid lines are
dimcalc's exact Littlestone dimensions, dotted lines the paper's expressions evaluated at the
same *b* and *d*, dashed lines the exact VC dimensions. In every panel the Littlestone dimension
grows linearly in *b* while the VC dimension stays flat — FX's point: for these classes
pure-private learning, whose sample complexity is at least of order LDim (FX §4), is much harder
than non-private learning. The exact values also say what the formulas do not. For thresholds
the dotted line lies exactly under the solid one (`LDim(Thr_b) = b`). Boxes sit above the lower
bound `b·d`. Halfspaces on small grids are far above `b·d(d−1)/2`, an asymptotic statement that
even evaluates to 0 at `d = 1`, where the class contains the thresholds. For balls the expression
`b·d²` stands for an order of growth with an unspecified constant, and the two exact values
straddle it. The table shows one more discrepancy: the exact VC dimension of boxes is `2d` (the
classical value; FX write `d + 1`) once the grid side is at least 3.
'''),
]

# ---------------------------------------------------------------------------------------------- 02
MULTICLASS = [
    md('''
# 02 · Multiclass versus binary: is a k-label class as hard as its bits?

**Question.** A class *H* with labels `[k] = {0, …, k}` can be learned by learning each of its
`⌈log₂(k+1)⌉` *binary restrictions* `H|ᵢ` (bit *i* of the label, bit 1 least significant).
Bun, Gaboardi and Sivakumar (BGS, NeurIPS 2021) compare the multiclass Littlestone dimension
`MLD(H)` with the Littlestone dimensions of the restrictions:

* **Thm 3.4:** `maxᵢ LD(H|ᵢ) ≤ 6 · MLD(H) · ln(k+1)`;
* **Thm 7.1:** `MLD(H) ≤ maxᵢ LD(H|ᵢ) · log₂(k+1)` (the number of bits);
* **Thm 6.1** and **Thm 7.2**: classes showing both are tight up to constants;
  **Claim 6.2** amplifies a gap by taking products.

The proof of Thm 3.4 goes through Ψ-Littlestone dimensions (Lemma 4.5, Claims 4.6–4.7) and
0-covers (Thm 5.6, Lemma 5.11). This notebook computes every quantity exactly on small classes
and sets it beside the theorems.
'''),
    SETUP,
    code('''
from dimcalc import generators, operations
from dimcalc.hypothesis_class import label_bits
from dimcalc.littlestone import (binary_restriction_littlestone, multiclass_littlestone_dimension,
                                 psi_littlestone_dimension)


def bits_and_mld(H, time_limit=20):
    """(MLD(H), [LD(H|_i)]) exactly, every witness re-verified by its independent checker."""
    mld = multiclass_littlestone_dimension(H, time_limit=time_limit)
    restricted = binary_restriction_littlestone(H, time_limit=time_limit)
    assert mld.exact and mld.verify(H)
    for r in restricted:
        assert r.exact and r.verify(H)     # kind littlestone_restriction:i checks the tree on H|_i
    return mld.value, [r.value for r in restricted]
'''),
    md('''
## 1. Theorems 3.4 and 7.1 on random and structured classes

We draw random classes (7 points; 12 to 48 hypotheses; 3 to 16 labels) and add the structured
classes of BGS §6–7 (built by `dimcalc.generators`), then compute for each

* `ratio_3.4 = maxᵢ LD(H|ᵢ) / (MLD · ln(k+1))`, which Thm 3.4 bounds by 6, and
* `ratio_7.1 = MLD / (maxᵢ LD(H|ᵢ) · ⌈log₂(k+1)⌉)`, which Thm 7.1 bounds by 1.
'''),
    code('''
records = []
for labels in (3, 4, 5, 6, 8, 12, 16):
    for size in (12, 24, 48):
        for seed in (0, 1):
            H = generators.random_class(size, 7, labels=labels, seed=1000 * labels + 10 * size + seed)
            records.append(("random", H, *bits_and_mld(H)))
structured = [generators.bgs_thm61_class(k, d) for k in (5, 7, 15, 31, 63) for d in (1, 2) if not (k > 15 and d == 2)]
structured += [generators.bgs_thm72_class(1, bits) for bits in (1, 2, 3, 4)] + [generators.bgs_thm72_class(2, 2)]
for H in structured:
    records.append((H.metadata["family"], H, *bits_and_mld(H)))
for name in ("random-multiclass", "bgs-claim62", "bgs-thm61-k7-d1"):
    H = dimcalc.load(DATA / f"{name}.json")
    records.append(("data/", H, *bits_and_mld(H)))


def ratios(H, mld, lds):
    k = H.max_label
    return max(lds) / (mld * math.log(k + 1)), mld / (max(lds) * label_bits(H.num_labels))


fig, axes = plt.subplots(1, 2, figsize=(12, 4.8))
styles = {"random": ("o", "0.55"), "bgs-thm61": ("^", "tab:red"), "bgs-thm72": ("s", "tab:blue"),
          "data/": ("D", "tab:green")}
for source, (marker, color) in styles.items():
    pts = [(H.max_label, *ratios(H, mld, lds)) for s, H, mld, lds in records if s == source]
    ks = [p[0] for p in pts]
    axes[0].scatter(ks, [p[1] for p in pts], marker=marker, color=color, alpha=0.7, label=source)
    axes[1].scatter(ks, [p[2] for p in pts], marker=marker, color=color, alpha=0.7, label=source)
axes[0].axhline(6, color="k", ls="--", label="Thm 3.4 bound: 6")
axes[0].set_yscale("log")
axes[1].axhline(1, color="k", ls="--", label="Thm 7.1 bound: 1")
for ax, title, ylabel in ((axes[0], "Thm 3.4: max_i LD(H|_i) / (MLD·ln(k+1)) ≤ 6", "ratio (log scale)"),
                          (axes[1], "Thm 7.1: MLD / (max_i LD(H|_i)·⌈log₂(k+1)⌉) ≤ 1", "ratio")):
    ax.set_xscale("log", base=2)
    ax.set_xlabel("largest label k (log scale)")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=8)
fig.tight_layout()
plt.show()
worst34 = max(ratios(H, mld, lds)[0] for _, H, mld, lds in records)
worst71 = max(ratios(H, mld, lds)[1] for _, H, mld, lds in records)
print(f"{len(records)} classes; largest ratio_3.4 = {worst34:.3f} (bound 6); largest ratio_7.1 = {worst71:.3f} (bound 1)")
'''),
    md('''
**Reading the plot.** Every point is one class, every coordinate an exact dimension computed by
dimcalc; the printed line gives the extremes. On the left no class comes near Thm 3.4's constant
6. Random classes sit around or below 1: their restrictions are about as hard as the multiclass
class, and `ln(k+1)` keeps growing. For a binary class (`k = 1`, where `H|₁ = H`) the ratio is
`1/ln 2 ≈ 1.44`, and the Thm 6.1 classes (red triangles) climb back towards that value as `k`
grows: one bit carries a threshold class whose Littlestone dimension grows like `log₂ k` while
`MLD` stays at `d`, so the `ln(k+1)` factor of Thm 3.4 cannot be dropped. On the right every
point is at most 1, as Thm 7.1 says; the Thm 7.2 classes (blue squares) sit exactly on the
bound — their restrictions all have Littlestone dimension `d` while `MLD = d · bits`.
'''),
    md('''
## 2. The tightness classes of Theorems 6.1 and 7.2

**Thm 6.1** (BGS): for every `k, d` there is a class with `MLD = d` whose restrictions reach
`maxᵢ LD(H|ᵢ) ≥ (d/10) · log₂(k+1)`. `generators.bgs_thm61_class(k, d)` builds the class of the
proof (for `d > 1`, amplified by Claim 6.2). **Thm 7.2**: a class with `maxᵢ LD(H|ᵢ) = d` and
`MLD = d · log₂(k+1)`; `generators.bgs_thm72_class(d, bits)` builds a finite version.
'''),
    code('''
thm61 = {}
for d, ks in ((1, (5, 7, 11, 15, 23, 31, 47, 63, 95, 127)), (2, (5, 7, 11, 15, 23, 31))):
    rows = []
    for k in ks:
        H = generators.bgs_thm61_class(k, d)
        mld, lds = bits_and_mld(H)
        rows.append((k, mld, max(lds)))
    thm61[d] = rows
thm72 = {}
for d, bit_range in ((1, (1, 2, 3, 4)), (2, (1, 2))):
    rows = []
    for bits in bit_range:
        H = generators.bgs_thm72_class(d, bits)
        mld, lds = bits_and_mld(H)
        rows.append((bits, mld, max(lds), H.n_distinct))
    thm72[d] = rows

fig, axes = plt.subplots(1, 2, figsize=(12, 6.2))
ax = axes[0]
for d, color in ((1, "tab:red"), (2, "tab:purple")):
    ks = [r[0] for r in thm61[d]]
    ax.plot(ks, [r[2] for r in thm61[d]], "o-", color=color, label=f"d={d}: max_i LD(H|_i) (dimcalc)")
    ax.plot(ks, [r[1] for r in thm61[d]], "s--", color=color, alpha=0.6, label=f"d={d}: MLD (dimcalc)")
    ax.plot(ks, [d / 10 * math.log2(k + 1) for k in ks], ":", color=color,
            label=f"d={d}: Thm 6.1 guarantee (d/10)·log₂(k+1)")
    ax.plot(ks, [6 * d * math.log(k + 1) for k in ks], "-.", color=color, alpha=0.4,
            label=f"d={d}: Thm 3.4 ceiling 6·d·ln(k+1)")
ax.set_xscale("log", base=2)
ax.set_yscale("log", base=2)
ax.set_xlabel("largest label k (log scale)")
ax.set_ylabel("dimension (log scale)")
ax.set_title("Thm 6.1 classes: MLD = d, one bit grows like log₂ k")
ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.15), ncol=2)
ax = axes[1]
for d, color in ((1, "tab:blue"), (2, "tab:cyan")):
    bits = [r[0] for r in thm72[d]]
    ax.plot(bits, [r[1] for r in thm72[d]], "o-", color=color, label=f"d={d}: MLD (dimcalc)")
    ax.plot(bits, [r[2] * b for r, b in zip(thm72[d], bits)], "x:", color=color, ms=10,
            label=f"d={d}: Thm 7.1 bound max_i LD(H|_i)·bits")
    ax.plot(bits, [r[2] for r in thm72[d]], "s--", color=color, alpha=0.6, label=f"d={d}: max_i LD(H|_i) (dimcalc)")
ax.set_xticks(range(1, 5))
ax.set_xlabel("bits = log₂(k+1)")
ax.set_ylabel("dimension")
ax.set_title("Thm 7.2 classes: every bit has LD = d, MLD = d·bits")
ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.15), ncol=2)
fig.tight_layout()
plt.show()
show_table(["d", "bits", "distinct hypotheses", "MLD", "max_i LD(H|_i)", "Thm 7.1 bound"],
           [[d, b, n, mld, mx, mx * b] for d, rows in thm72.items() for b, mld, mx, n in rows])
'''),
    md('''
**Reading the plot.** Left: for the Thm 6.1 classes the multiclass Littlestone dimension stays at
`d` (dashed, flat) while the hardest binary restriction grows by one each time `k` doubles
(solid) — a gap of order `log k` between multiclass and binary, squeezed between the theorem's
guarantee `(d/10)·log₂(k+1)` (dotted; the proof's constant 1/10 is far from the truth on these
classes) and Thm 3.4's ceiling `6·d·ln(k+1)` (dash-dotted). Doubling `d` doubles everything, as
Claim 6.2 promises. Right: the Thm 7.2 classes go the other way — every bit is a `d`-point-function
class of Littlestone dimension `d`, yet the multiclass class needs `d·bits`: the solid line lies
on Thm 7.1's bound, so Thm 7.1 cannot be improved.
'''),
    md('''
## 3. Claim 6.2: gap amplification

Claim 6.2 takes ℓ independent copies of a class on disjoint copies of the domain
(`operations.gap_amplification(H, ℓ)`): `MLD` multiplies by ℓ exactly, and the hardest binary
restriction by at least ℓ. We amplify the Thm 6.1 class for `k = 7` and a random 4-label class.
'''),
    code('''
bases = {"Thm 6.1 class, k=7": generators.bgs_thm61_class(7),
         "random 4-label class": generators.random_class(4, 3, labels=4, seed=11)}
amplified = {}
for label, F in bases.items():
    rows = []
    for ell in (1, 2, 3):
        G = F if ell == 1 else operations.gap_amplification(F, ell)
        mld, lds = bits_and_mld(G)
        rows.append((ell, G.n_distinct, G.n_points, mld, max(lds)))
    amplified[label] = rows

fig, ax = plt.subplots(figsize=(7, 4.5))
for (label, rows), color in zip(amplified.items(), ("tab:red", "tab:gray")):
    ells = [r[0] for r in rows]
    d0, D0 = rows[0][3], rows[0][4]
    ax.plot(ells, [r[3] for r in rows], "o-", color=color, label=f"{label}: MLD (dimcalc)")
    ax.plot(ells, [r[4] for r in rows], "s-", color=color, alpha=0.6, label=f"{label}: max_i LD(H|_i) (dimcalc)")
    ax.plot(ells, [ell * d0 for ell in ells], "o:", color=color, mfc="none", ms=12, label=f"{label}: ℓ·MLD(H)")
    ax.plot(ells, [ell * D0 for ell in ells], "s:", color=color, mfc="none", ms=12, label=f"{label}: ℓ·max_i LD(H|_i)")
ax.set_xticks([1, 2, 3])
ax.set_xlabel("number of copies ℓ")
ax.set_ylabel("dimension")
ax.set_title("Claim 6.2: MLD and the binary gap both scale with ℓ")
ax.legend(fontsize=7)
plt.show()
show_table(["base class", "ℓ", "distinct hypotheses", "points", "MLD", "max_i LD(H|_i)"],
           [[label, *row] for label, rows in amplified.items() for row in rows])
'''),
    md('''
**Reading the plot.** Filled markers are exact dimensions of the amplified classes, hollow
markers the values Claim 6.2 predicts from the base class (ℓ times the base value). They coincide
for both bases: MLD is exactly additive over independent copies, and so — on these classes — is
the hardest restriction's Littlestone dimension (the claim only promises "at least"). Because both
sides scale by the same ℓ, the *ratio* between binary and multiclass difficulty found at `d = 1`
survives at every `d`, which is how Thm 6.1 extends from `d = 1` to all `d`.
'''),
    md('''
## 4. The Ψ-Littlestone chain (Lemma 4.5, Claims 4.6–4.7)

The proof of Thm 3.4 interpolates between `maxⱼ LD(H|ⱼ)` and `MLD` with Ψ-Littlestone dimensions
for families of collapsing maps `[k] → {0, 1, *}` (BGS §4): `Ψ^N` (pairs of labels),
`Ψ^bin` (bits), `Ψ^B` (all maps), and the *uniform* variant where a whole level of the tree uses
one map. BGS prove
`maxⱼ LD(H|ⱼ) ≤ Ψ^bin_U ≤ Ψ^bin` (Claim 4.6), `Ψ^N ≤ Ψ^bin ≤ Ψ^B` (Claim 4.7) and
`Ψ^N = MLD` (Lemma 4.5).
'''),
    code('''
chain_names = ["max_j LD(H|_j)", "Ψ^bin uniform", "Ψ^bin", "Ψ^N", "MLD", "Ψ^B"]
chain = []
for labels in (3, 4, 5, 6, 8):
    for size in (8, 16, 32):
        H = generators.random_class(size, 6, labels=labels, seed=7 * labels + size)
        mld, lds = bits_and_mld(H)
        values = [max(lds)]
        for family, uniform in (("bin", True), ("bin", False), ("N", False)):
            r = psi_littlestone_dimension(H, family, uniform=uniform, time_limit=20)
            assert r.exact and r.verify(H)
            values.append(r.value)
        rB = psi_littlestone_dimension(H, "B", time_limit=20)
        assert rB.exact and rB.verify(H)
        values += [mld, rB.value]
        chain.append((H, values))

holds = {
    "Claim 4.6: max_j LD(H|_j) ≤ Ψ^bin_U ≤ Ψ^bin": all(v[0] <= v[1] <= v[2] for _, v in chain),
    "Claim 4.7: Ψ^N ≤ Ψ^bin ≤ Ψ^B": all(v[3] <= v[2] <= v[5] for _, v in chain),
    "Lemma 4.5: Ψ^N = MLD": all(v[3] == v[4] for _, v in chain),
}
show_table(["statement", f"holds on all {len(chain)} classes"], list(holds.items()))

fig, ax = plt.subplots(figsize=(11, 4.5))
order = sorted(range(len(chain)), key=lambda i: (chain[i][1][5], chain[i][1][4], chain[i][1][0]))
xs = np.arange(len(chain))
offsets = np.linspace(-0.25, 0.25, len(chain_names))
for j, (name, off) in enumerate(zip(chain_names, offsets)):
    ax.scatter(xs + off, [chain[i][1][j] for i in order], label=name, s=30)
ax.set_xticks(xs, [f"k={chain[i][0].max_label}\\n|H|={chain[i][0].n_distinct}" for i in order], fontsize=7)
ax.set_xlabel("random class (sorted by Ψ^B, then MLD)")
ax.set_ylabel("dimension")
ax.set_title("The Ψ-Littlestone chain on random classes (every value exact)")
ax.legend(fontsize=8, ncol=3)
plt.show()
'''),
    md('''
**Reading the plot.** Each column is one random class; the six markers are its six dimensions,
left to right in the order of the chain. The table confirms the three statements on every class.
The plot shows where the slack is: `Ψ^N` always equals `MLD` (Lemma 4.5 — the two markers sit
at the same height), the binary quantities `maxⱼ LD(H|ⱼ)`, `Ψ^bin_U`, `Ψ^bin` typically sit at or
above MLD on random classes, and `Ψ^B`, the largest family, is the top of the chain. Thm 3.4 is
proved by bounding `Ψ^B` by `O(MLD · ln(k+1))` through 0-covers, which is the next section.
'''),
    md('''
## 5. 0-covers against Thm 5.6 and Lemma 5.11

`N(0, H, n)` is the size of a smallest 0-cover of *H* on the worst input tree of depth *n*
(BGS Defs 5.1–5.5, root at depth 1). `covers.zero_cover_function` computes it exactly (branch and
bound, with a cover and a fooling set of the same size as the witness) or, when the time limit
stops it, proven bounds. BGS bound it from both sides:

* **Thm 5.6** (Sauer-type, explicit constants): `N(0, H, n) ≤ Σ_{i≤d} C(n, i) kⁱ` with `d = MLD(H)`;
* **Lemma 5.11**: `N(0, H, d_B) ≥ 2^{d_B}` with `d_B = Ψ^B-LD(H)`.

Together they give `2^{d_B} ≤ (e k d_B / MLD)^{MLD}`, from which Thm 3.4 follows.
'''),
    code('''
from dimcalc import covers

cover_classes = [generators.thresholds(63), generators.bgs_thm72_class(1, 3),
                 generators.random_class(40, 8, labels=3, seed=2)]
fig, axes = plt.subplots(1, 3, figsize=(14, 4.5))
cover_rows = []
for ax, H in zip(axes, cover_classes):
    mld = multiclass_littlestone_dimension(H).value
    dB = psi_littlestone_dimension(H, "B", time_limit=20)
    assert dB.exact and dB.verify(H)
    ns = list(range(1, 8))
    results = [covers.zero_cover_function(H, n, time_limit=5) for n in ns]
    assert all(r.verify(H) for r in results)
    lows = [r.lower for r in results]
    ups = [r.upper for r in results]
    sauer = [covers.sauer_zero_cover_bound(n, mld, H.max_label) for n in ns]
    trivial = [covers.trivial_zero_cover_bound(H, n) for n in ns]
    ax.fill_between(ns, lows, ups, color="tab:blue", alpha=0.2)
    ax.plot(ns, lows, "o-", color="tab:blue", label="N(0,H,n) (dimcalc; band = bounds if not exact)")
    ax.plot(ns, sauer, "--", color="tab:red", label=f"Thm 5.6: Σ C(n,i)kⁱ, d = MLD = {mld}")
    ax.plot(ns, trivial, ":", color="k", label="min(|H|, (k+1)ⁿ)")
    ax.plot([dB.value], [2 ** dB.value], "*", color="tab:green", ms=14,
            label=f"Lemma 5.11: N(0,H,{dB.value}) ≥ 2^{dB.value}")
    ax.set_yscale("log", base=2)
    ax.set_xlabel("tree depth n")
    ax.set_ylabel("number of output trees (log scale)")
    ax.set_title(f"{H.name} (k={H.max_label})", fontsize=10)
    ax.legend(fontsize=7)
    for n, r, s in zip(ns, results, sauer):
        cover_rows.append([H.name, n, fmt(r), s, r.lower <= s])
    cover_rows.append([H.name, f"d_B = {dB.value}", fmt(results[dB.value - 1]) if dB.value <= len(ns) else "—",
                       f"Lemma 5.11: ≥ {2 ** dB.value}", results[dB.value - 1].upper >= 2 ** dB.value
                       if dB.value <= len(ns) else "—"])
fig.tight_layout()
plt.show()
show_table(["class", "n", "N(0,H,n)", "Thm 5.6 bound", "consistent"], cover_rows)
'''),
    md('''
**Reading the plot.** Blue is the exact 0-cover function (a shaded band where the time limit left
only bounds), red dashed Thm 5.6's upper bound, black dotted the trivial bound (one tree per
hypothesis, or one per label sequence), and the green star Lemma 5.11's lower bound at depth
`d_B = Ψ^B-LD`. For the thresholds (binary, `k = 1`) the cover doubles with every level until it
runs out of hypotheses, and Thm 5.6 is *exactly* tight up to depth `MLD` — it is Sauer's lemma
for trees. For the multiclass classes the bound `Σ C(n,i) kⁱ` is tight only for the first
levels, while every label sequence is still realised; then the finite class saturates at `|H|`
and the polynomial bound runs away. The green star always sits on or below the blue curve: a
Ψ^B-tree of depth `d_B` forces `2^{d_B}` different output trees. Since Thm 5.6 caps the cover
by a polynomial of degree MLD in `n` and `k`, `d_B` — and with it every binary restriction — is
`O(MLD · log k)`, which is Thm 3.4.
'''),
    md('''
## 6. Every statement at once: `dimcalc.theorems.theorem_report`

`theorem_report` evaluates every statement of the papers that makes sense on a finite class —
both sides computed by dimcalc's solvers, each side an interval of proven bounds — and says whether
it holds, is violated, or is unknown (only possible when a time limit left a side inexact). We run
it on the classes shipped in `data/` and on the random classes of §1 and §4.
'''),
    code('''
from dimcalc.theorems import theorem_report

report_classes = [dimcalc.load(DATA / f"{name}.json")
                  for name in ("random-multiclass", "bgs-thm61-k7-d1", "bgs-thm72-d1-bits2", "bgs-claim62")]
report_classes += [H for _, H, _, _ in records if H.metadata.get("family") == "random"]
report_classes += [H for H, _ in chain]
verdicts = {}
for H in report_classes:
    for check in theorem_report(H, time_limit=20):
        statement = check.statement.split(" at ")[0].split(" with ")[0]     # drop the class-specific parameters
        entry = verdicts.setdefault((check.source, statement), [0, 0, 0, 0])
        entry[0] += 1
        entry[1] += check.holds is True
        entry[2] += check.holds is False
        entry[3] += check.exact
show_table(["source", "statement", "classes evaluated", "holds", "violated", "both sides exact"],
           [[src, stmt, *counts] for (src, stmt), counts in verdicts.items()])
example = theorem_report(dimcalc.load(DATA / "bgs-claim62.json"), time_limit=20)
show_table(["source", "statement (bgs-claim62)", "left side", "relation", "right side", "holds"],
           [[c.source, c.statement, c.lhs.to_json(), c.relation,
             round(c.rhs.to_json(), 2) if isinstance(c.rhs.to_json(), float) else c.rhs.to_json(), c.holds]
            for c in example])
'''),
    md('''
The first table counts, per statement, on how many classes it was evaluated and whether it held;
a violation would be either a bug in dimcalc or a counterexample to a paper, and there is none.
The second shows one report in full: the data-file class of Claim 6.2 (two copies of a Thm 7.2
class), where Thm 7.1 and Lemma 4.5 hold with equality, Claim 4.7's `Ψ^bin ≤ Ψ^B` has slack, and
Thm 3.4's bound `6·MLD·ln(k+1)` is an order of magnitude above the truth.
'''),
]


# ---------------------------------------------------------------------------------------------- 03
MULTI_LEARNING = [
    md('''
# 03 · Learning many concepts privately: BNS §1.3's tables as curves

**Question.** A *k-learner* (Bun, Nissim, Stemmer, JMLR 2019 — BNS, Defs 4–5) receives one
database whose rows carry a point and *k* labels, one per target concept, and must learn all *k*
concepts under one privacy budget. Learning them one by one and composing the privacy loss
(BNS Obs 32 + Thm 17) costs a factor `k` (pure DP) or `√k` (approximate DP) in samples. BNS §1.3
tabulates when one can do better: the GenericLearner (Alg 3, Thm 31) pays `k` only in a lower-order
term; PointLearner (Alg 5, Thm 40) learns k point functions from a number of samples that does
not grow with *k*; ParityLearner (Alg 4, Thm 39) does the same for parities under the uniform
distribution. Lower bounds (Thms 52, 55; Cors 46, 50) show where composition is optimal.

The notebook turns the tables into curves of **sample size against k** — every number from
`dimcalc.sample_size` or a learner's `required_sample_size` — and then **runs the learners** of
`dimcalc.learners.multi` at those sizes to see whether they reach the promised accuracy.

**Constants.** BNS state most bounds with `O(·)`; dimcalc then evaluates them with the unknown
constant set to 1 and marks them `order of growth only` (dashed lines below). The explicit
bounds (solid lines) are dimcalc's worked-out constants for the exponential mechanism with
composition and for its own GenericLearner (MWEM sanitizer, BNS Lemma 36 with Hardt–Ligett–McSherry
Thm 2.2), PointLearner and ParityLearner implementations.
'''),
    SETUP,
    code('''
from dimcalc import generators, sample_size as ss
from dimcalc.learners.multi import CompositionLearner, GenericLearner, ParityLearner, PointLearner
from dimcalc.vc import vc_dimension

ALPHA, BETA, EPSILON, DELTA = 0.1, 0.1, 1.0, 1e-6
POINT = generators.point_functions(64)      # POINT_X, |X| = 64
THRESH = generators.thresholds(64)          # THRESH_X, |X| = 64
D_PAR = 6
PARITY = generators.parities(D_PAR)         # PAR_6 over {0,1}^6, |X| = 64
VC = {H.name: vc_dimension(H).value for H in (POINT, THRESH, PARITY)}
show_table(["class", "|X|", "|C|", "VC (dimcalc)"],
           [[H.name, H.n_points, H.n_distinct, VC[H.name]] for H in (POINT, THRESH, PARITY)])
print(f"alpha={ALPHA}, beta={BETA}, epsilon={EPSILON}, delta={DELTA}")
'''),
    md('''
## 1. Sample size against the number of concepts k
'''),
    code('''
KS = np.unique(np.logspace(0, 4, 9).round().astype(int))


def curve(make):
    """The bound for every k of KS, as floats (make: k -> SampleSizeBound)."""
    bounds = [make(int(k)) for k in KS]
    return np.array([b.value for b in bounds]), bounds[-1]


panels = {}
for H in (POINT, THRESH, PARITY):
    vc = VC[H.name]
    composition_pure = CompositionLearner(H, epsilon=EPSILON)
    composition_approx = CompositionLearner(H, epsilon=EPSILON, delta=DELTA)
    generic_pure = GenericLearner(H, epsilon=EPSILON, alpha=ALPHA, beta=BETA)
    rows = {
        "composition, pure DP (Obs 32 + Thm 17.1)":
            curve(lambda k: composition_pure.required_sample_size(ALPHA, BETA, k=k)),
        "composition, approx. DP (Obs 32 + Thm 17.2)":
            curve(lambda k: composition_approx.required_sample_size(ALPHA, BETA, k=k)),
        "GenericLearner, pure DP (Alg 3 + MWEM), dimcalc's constants":
            curve(lambda k: generic_pure.required_sample_size(k=k)),
        "BNS Thm 31, pure DP, O(·) with c=1":
            curve(lambda k: ss.generic_k_learner_sample_size(vc=vc, k=k, alpha=ALPHA, beta=BETA, epsilon=EPSILON,
                                                             domain_size=H.n_points, log_size=np.log(H.n_distinct))),
        "BNS Thm 31, approx. DP, O(·) with c=1":
            curve(lambda k: ss.generic_k_learner_sample_size(vc=vc, k=k, alpha=ALPHA, beta=BETA, epsilon=EPSILON,
                                                             delta=DELTA, domain_size=H.n_points,
                                                             log_size=np.log(H.n_distinct))),
        "lower bound, pure DP: Ω(k/ε) (Thm 52)": curve(lambda k: ss.pure_k_learner_lower_bound(k=k, epsilon=EPSILON)),
    }
    if H is POINT:
        explicit = PointLearner(H.n_points, alpha=ALPHA, epsilon=EPSILON, delta=DELTA).required_sample_size(ALPHA, BETA)
        rows["PointLearner, approx. DP (Thm 40), dimcalc's constants"] = curve(lambda k: explicit)
        rows["PointLearner, approx. DP (Thm 40), O(·) with c=1"] = curve(lambda k: ss.point_k_learner_sample_size(
            domain_size=H.n_points, k=k, alpha=ALPHA, beta=BETA, epsilon=EPSILON, delta=DELTA))
        rows["lower bound, approx. agnostic: Ω̃(√k) (Cor 50 via Thm 28)"] = curve(
            lambda k: ss.agnostic_k_learner_lower_bound(k=k, domain_size=H.n_points, alpha=ALPHA, epsilon=EPSILON,
                                                        delta=DELTA, beta=BETA))
    if H is THRESH:
        rows["lower bound, approx. DP: min(|X|, Ω̃(k^(1/3)/α))/9 (Cor 46 via Thm 28)"] = curve(
            lambda k: ss.threshold_k_learner_lower_bound(k=k, alpha=ALPHA, domain_size=H.n_points, epsilon=EPSILON,
                                                         delta=DELTA, beta=BETA))
    if H is PARITY:
        explicit = ParityLearner(D_PAR, epsilon=EPSILON, delta=DELTA).required_sample_size(0.0, BETA)
        rows["ParityLearner, approx. DP (Thm 39), dimcalc's constants"] = curve(lambda k: explicit)
        rows["ParityLearner, approx. DP (Thm 39), O(·) with c=1"] = curve(lambda k: ss.parity_k_learner_sample_size(
            d=D_PAR, k=k, beta=BETA, epsilon=EPSILON, delta=DELTA))
        rows["lower bound, pure DP: Ω(kd/ε) (Thm 55)"] = curve(
            lambda k: ss.parity_pure_lower_bound(d=D_PAR, k=k, epsilon=EPSILON, alpha=ALPHA, beta=BETA))
    panels[H.name] = rows

fig, axes = plt.subplots(1, 3, figsize=(16, 6), sharey=True)
for ax, (name, rows) in zip(axes, panels.items()):
    for label, (values, last) in rows.items():
        style = "-" if last.constants_explicit else "--"
        if last.kind == "lower":
            style = ":"
        ax.plot(KS, values, style, lw=2 if "Learner" in label else 1.3, label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("number of concepts k")
    ax.set_ylabel("samples")
    ax.set_title(name)
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.13), ncol=1)
fig.suptitle(f"BNS §1.3 as curves (α={ALPHA}, β={BETA}, ε={EPSILON}, δ={DELTA}); "
             "solid: explicit constants, dashed: O(·) with c=1, dotted: lower bounds (c=1)")
fig.tight_layout()
plt.show()


def crossover(flat, growing, low=1, high=10_000):
    """Smallest k in [low, high] with growing(k) > flat (bisection; growing is non-decreasing in k)."""
    if growing(high).value <= flat.value:
        return None
    while low < high:
        mid = (low + high) // 2
        low, high = (mid + 1, high) if growing(mid).value <= flat.value else (low, mid)
    return low


point_explicit = PointLearner(POINT.n_points, alpha=ALPHA, epsilon=EPSILON, delta=DELTA).required_sample_size(ALPHA, BETA)
parity_explicit = ParityLearner(D_PAR, epsilon=EPSILON, delta=DELTA).required_sample_size(0.0, BETA)
for name, flat, H in (("PointLearner", point_explicit, POINT), ("ParityLearner", parity_explicit, PARITY)):
    composed = CompositionLearner(H, epsilon=EPSILON, delta=DELTA)
    k_star = crossover(flat, lambda k: composed.required_sample_size(ALPHA, BETA, k=k))
    print(f"{name} ({flat.samples} samples, explicit) beats composition with approximate DP "
          f"(explicit) from k = {k_star} on")
'''),
    md('''
**Reading the plot.** Each panel is one class of BNS §1.3 over a 64-point domain, with the
sample size needed (upper bounds) or proven necessary (dotted lower bounds) as `k` grows, on
log–log axes: a slope of 1 means "linear in k". Composition with pure DP (basic composition)
grows linearly, and with approximate DP (advanced composition) like `√k` once `k` is large
enough for advanced composition to win. BNS Thm 31's curves (orders of growth, constant
set to 1) follow composition for small `k`, where the sanitizer's fixed cost dominates, and fall
below the pure composition curve for large `k`.  The GenericLearner's own size, with every
constant of its MWEM sanitizer worked out, is a different story: MWEM's explicit accuracy
bound costs about `1/α³` samples with large constants, so at `α = 0.1` the learner that
runs (and is guaranteed) needs far more samples than composition for every `k` shown — the
`O(·)` curve's advantage is a slope, not a sample size. PointLearner and ParityLearner are flat: for
point functions and parities the number of samples does not depend on `k` at all — BNS's
separation from the pure-DP lower bound `Ω(k/ε)` (Thm 52) that every pure learner, composition
included, must pay. With explicit constants, dimcalc's PointLearner starts far *above*
composition and wins only from the printed crossover `k` on — constant factors matter at small
`k` — while the ParityLearner is below composition from the start. For
thresholds no flat learner exists: the `k^{1/3}/α` lower bound of Cor 46 rises until `|X|`
caps it. Dashed curves are orders of growth with an unspecified constant set to 1, so they show
slopes, not guaranteed numbers.
'''),
    md('''
## 2. Running the learners at those sizes

Now the learners run. For each we draw `k = 10` random target concepts, a sample of size `n` from
a distribution `D`, fit, and measure the true error of each learned hypothesis **exactly** (the
domain is finite, so `err_D(h) = Σ_x D(x)·1[h(x) ≠ c(x)]`). We vary `n` from the learner's bound
down by factors of 2 and record the worst of the `k` errors over 6 independent runs.

* CompositionLearner (pure DP) and GenericLearner (pure DP) learn thresholds under the uniform
  distribution (the GenericLearner at `α = 0.5`, where its explicit size is about a million samples);
* PointLearner learns point functions under a distribution that puts half its mass on the target
  points (so that a wrong point function is wrong on a heavy point);
* ParityLearner learns parities under the uniform distribution (BNS Thm 39 promises exact
  recovery, `α = 0`).
'''),
    code('''
K_RUN, TRIALS = 10, 6
ALPHA_GENERIC = 0.5   # the GenericLearner's explicit size at α = 0.1 is ~10^8 samples; at 0.5 it is ~10^6
rng = np.random.default_rng(2026)


def point_distribution(targets):
    """Half the mass spread over the target points, half uniform over the domain."""
    D = np.full(POINT.n_points, 0.5 / POINT.n_points)
    D[np.unique(targets)] += 0.5 / len(np.unique(targets))
    return D


def run_finite(make_learner, H, n, distribution):
    """Fit on n examples from D with K_RUN random targets of H; worst true error over the K_RUN concepts."""
    targets = rng.integers(0, H.n_distinct, size=K_RUN)
    truth = H.distinct_rows[targets]                          # (k, |X|)
    D = distribution(targets)
    X = rng.choice(H.n_points, size=n, p=D)
    learner = make_learner().fit(X, truth[:, X].T)
    predictions = learner.predict(np.arange(H.n_points)).T     # (k, |X|)
    return float(((predictions != truth) * D).sum(axis=1).max())


def run_parity(n):
    targets = rng.integers(0, 2, size=(K_RUN, D_PAR))
    X = rng.integers(0, 2, size=(n, D_PAR))
    learner = ParityLearner(D_PAR, epsilon=EPSILON, delta=DELTA, noise="exact", random_state=rng).fit(
        X, X @ targets.T % 2)
    # a wrong parity disagrees with the target on exactly half of {0,1}^d: its uniform error is 1/2
    return 0.5 * float(np.any(learner.parities_ != targets, axis=1).max())


uniform = lambda targets: np.full(64, 1 / 64)
experiments = {
    "CompositionLearner (pure), thresholds": (
        CompositionLearner(THRESH, epsilon=EPSILON).required_sample_size(ALPHA, BETA, k=K_RUN),
        lambda n: run_finite(lambda: CompositionLearner(THRESH, epsilon=EPSILON, noise="exact", random_state=rng),
                             THRESH, n, uniform)),
    "GenericLearner (pure), thresholds, α = 0.5": (
        GenericLearner(THRESH, epsilon=EPSILON, alpha=ALPHA_GENERIC, beta=BETA).required_sample_size(k=K_RUN),
        lambda n: run_finite(lambda: GenericLearner(THRESH, epsilon=EPSILON, alpha=ALPHA_GENERIC, beta=BETA,
                                                    noise="exact", random_state=rng), THRESH, n, uniform)),
    "PointLearner (approx.), point functions": (
        PointLearner(POINT.n_points, alpha=ALPHA, epsilon=EPSILON, delta=DELTA).required_sample_size(ALPHA, BETA),
        lambda n: run_finite(lambda: PointLearner(POINT.n_points, alpha=ALPHA, epsilon=EPSILON, delta=DELTA,
                                                  noise="exact", random_state=rng),
                             POINT, n, point_distribution)),
    "ParityLearner (approx.), parities": (
        ParityLearner(D_PAR, epsilon=EPSILON, delta=DELTA).required_sample_size(0.0, BETA), run_parity),
}
results = {}
for name, (bound, run) in experiments.items():
    halvings = 10 if "Point" in name else 7
    sizes = sorted({max(bound.samples // 2 ** j, 2 * (D_PAR + 4)) for j in range(halvings)})
    results[name] = (bound, sizes, [[run(n) for _ in range(TRIALS)] for n in sizes])

summary = []
for name, (bound, sizes, errors) in results.items():
    at_bound = errors[-1]
    target = 0.0 if "Parity" in name else ALPHA_GENERIC if "Generic" in name else ALPHA
    summary.append([name, bound.samples, "explicit" if bound.constants_explicit else "O(·), c=1",
                    f"{max(at_bound):.3f}", f"{np.mean([e <= target for e in at_bound]):.2f}",
                    f"≥ {1 - BETA:.2f}" if bound.constants_explicit else "nothing (order of growth only)"])
show_table(["learner", "bound n (k=10)", "constants", f"worst error at n ({TRIALS} runs)",
            "share of runs with every error ≤ α", "promised by the bound"], summary)
'''),
    code('''
fig, axes = plt.subplots(1, 4, figsize=(17, 4.3), sharey=True)
for ax, (name, (bound, sizes, errors)) in zip(axes, results.items()):
    errors = np.array(errors)
    ax.plot(sizes, np.median(errors, axis=1), "o-", label="median over runs")
    ax.fill_between(sizes, errors.min(axis=1), errors.max(axis=1), alpha=0.25, label="min–max over runs")
    target = 0.0 if "Parity" in name else ALPHA_GENERIC if "Generic" in name else ALPHA
    ax.axhline(target, color="k", ls="--", label=f"accuracy target α = {target}")
    ax.axvline(bound.samples, color="tab:red", ls=":",
               label=f"bound n = {bound.samples}" + ("" if bound.constants_explicit else " (O(·), c=1)"))
    ax.set_xscale("log", base=2)
    ax.set_xlabel("sample size n")
    ax.set_ylabel("worst true error over k = 10 concepts")
    ax.set_title(name, fontsize=9)
    ax.legend(fontsize=7)
fig.tight_layout()
plt.show()
'''),
    md('''
**Reading the plot.** Each panel is one learner, with the sample size on a log scale (the red
dotted line is the size its bound asks for, at `k = 10`) and the worst of the ten true errors
(dashed line: the accuracy target). All four learners have explicit bounds and meet their target in
every run at the bound (see the table). CompositionLearner and PointLearner keep doing so far
below it — their bounds are union bounds over worst cases and are conservative by several factors
of 2 on these small classes — whereas the ParityLearner needs about its bound: with half as many
samples most runs fail, because too few blocks of the sample determine the parities and its
stability-based selection (`A_dist`) answers ⊥, making every concept wrong at once (a wrong parity
has error exactly 1/2).
The GenericLearner runs what its size assumes: MWEM's rounds and synthetic sample are derived from
`(α, β, ε, |X|, |C⊕|)` and the sample size, and its bound is explicit (BNS Lemma 36 with the
sanitizer's accuracy theorem, every constant worked out), so it meets `α = 0.5` in every run at the
bound — and, as for the other explicit bounds, far below it: the worst case the constants pay for
is not this easy distribution. The exponential-mechanism learners degrade gradually as data shrinks
(they pick a slightly wrong threshold), the stability-based ones abruptly.
'''),
]


# ---------------------------------------------------------------------------------------------- 04
PUBLIC_DATA = [
    md('''
# 04 · How much public data does private learning need?

**Question.** Alon, Bassily and Moran (ABM, NeurIPS 2019) study *semi-private* learning: the
learner gets a private labelled sample, on which it must be differentially private, and a
*public* sample, possibly unlabelled, on which it need not be. Their learner ASSPP (Alg 1) uses
the public points to build an α-cover of the class — one hypothesis per pattern the class shows
on them — and then runs the exponential mechanism on the private sample over that cover.

* **Upper bound (Thm 3.1):** `n_pub = O((d log(1/α) + log(1/β))/α)` unlabelled public and
  `n_priv = O((d log(1/α) + log(1/β))·max(1/α², 1/(εα)))` private examples suffice for agnostic
  learning of a class of VC dimension *d* — the private sample does not depend on the size of
  the domain.
* **Lower bound (Thms 4.1–4.2, Lemma 4.4):** for classes that cannot be learned privately
  (infinite Littlestone dimension, e.g. thresholds over ℝ), every semi-private learner needs
  `n_pub > 1/(1600 α)` public examples.

We run ASSPP (`dimcalc.learners.semi_private.ASSPP`) on thresholds with label noise, map the
trade-off between public and private samples, and set the public sample it needs beside the
`Ω(1/α)` lower bound. Sample sizes come from `dimcalc.sample_size`; dimensions from dimcalc's
solvers.
'''),
    SETUP,
    code('''
from dimcalc import generators, sample_size as ss
from dimcalc.learners.semi_private import ASSPP
from dimcalc.littlestone import littlestone_dimension
from dimcalc.vc import vc_dimension

BETA, EPSILON, NOISE = 0.1, 1.0, 0.1
N = 256
H = generators.thresholds(N)
vc, ld = vc_dimension(H), littlestone_dimension(H)
assert vc.exact and ld.exact and vc.verify(H) and ld.verify(H)
print(f"{H.name}: {H.n_distinct} hypotheses, VC = {vc.value}, Littlestone = {ld.value}; "
      f"labels flipped with probability {NOISE} (agnostic setting), uniform distribution over the {N} points")
rng = np.random.default_rng(404)


def excess_error(n_pub, n_priv, learner):
    """One run: random target threshold, noisy private sample, unlabelled public sample; exact excess error."""
    target = H.distinct_rows[rng.integers(0, H.n_distinct)]
    X = rng.integers(0, N, size=n_priv)
    y = target[X] ^ (rng.random(n_priv) < NOISE)
    learner.fit(X, y.astype(np.int64), public=rng.integers(0, N, size=n_pub))
    chosen = H.table[learner.hypothesis_]
    # err(h) - err(target) = (1 - 2·noise)·Pr_x[h(x) != target(x)] under label noise
    return (1 - 2 * NOISE) * float(np.mean(chosen != target))
'''),
    md('''
## 1. The trade-off between public and private samples, run

We run ASSPP (ε = 1) on a grid of public sample sizes (0 to 512 unlabelled points) and private
sample sizes (8 to 8192 labelled points), 20 runs per cell, and record the mean excess error
`err(h) − min_{h'∈H} err(h')`, computed exactly.
'''),
    code('''
learner = ASSPP(H, epsilon=EPSILON, rng=rng, backend="exact")
PUBLIC = [0] + [2 ** j for j in range(10)]
PRIVATE = [2 ** j for j in range(3, 14)]
RUNS = 20
grid = np.array([[np.mean([excess_error(n_pub, n_priv, learner) for _ in range(RUNS)]) for n_priv in PRIVATE]
                 for n_pub in PUBLIC])

fig, ax = plt.subplots(figsize=(9, 5.5))
image = ax.imshow(grid, origin="lower", aspect="auto", cmap="viridis_r",
                  norm=plt.matplotlib.colors.LogNorm(vmin=max(grid.min(), 1e-3), vmax=grid.max()))
ax.set_xticks(range(len(PRIVATE)), PRIVATE, rotation=45)
ax.set_yticks(range(len(PUBLIC)), PUBLIC)
ax.set_xlabel("private labelled examples n_priv")
ax.set_ylabel("public unlabelled examples n_pub")
contours = ax.contour(grid, levels=[0.05, 0.1, 0.2], colors="white", linewidths=1)
ax.clabel(contours, fmt=lambda v: f"α = {v}")
fig.colorbar(image, ax=ax, label=f"mean excess error over {RUNS} runs (log scale)")
ax.set_title(f"ASSPP on {H.name} (ε = {EPSILON}, label noise {NOISE}): public vs private data")
plt.show()
'''),
    md('''
**Reading the plot.** Each cell is a (public, private) budget; lighter is more accurate, and the
white curves are the level sets "mean excess error = α". Without public data (bottom row) the
cover is a single hypothesis and no amount of private data helps. A handful of public points
already brings the error down: the cover then holds one threshold per gap between consecutive
public points, and its coarseness — about `1/n_pub` of the domain — is an error floor that only
more public data lowers (moving up a column). Private data pays for choosing among the cover
elements, of which there are at most `n_pub + 1`: with very few private examples, *more* public
data does not help and can even hurt (the level curves bend right at the top of the picture),
because the exponential mechanism must then pick the best of many close candidates. The
trade-off is the shape of the level curves: a given accuracy can be bought with a few public
points and many private ones, or more public points and fewer private ones, down to a minimum
of each.
'''),
    md('''
## 2. The public sample against the Ω(1/α) lower bound

For a range of target accuracies α we find, with a generous private sample, the smallest public
sample (on a grid of ratio 1.5) at which ASSPP reaches excess error ≤ α in at least 90% of 50
runs, and
plot it beside ASSPP's explicit public-sample bound (`asspp_sample_size`, ABM Lemma 3.3 with a
union bound over the finite class), ABM Thm 3.1's order of growth (constant set to 1, with the
VC dimension computed above) and the lower bound `1/(1600 α)` of ABM Thms 4.1–4.2. That lower
bound is stated (through Lemma 4.4) for `α ≤ 1/100` and for semi-private learners that are
`(0.1, δ)`-private and `(α, 1/18)`-accurate, so it is drawn only over `α ≤ 1/100`, where it holds
(`dimcalc` refuses it elsewhere), and it speaks about the *family* of thresholds over ever larger
domains (infinite Littlestone dimension in the limit); a single finite class can always be learned
privately without public data.
'''),
    code('''
from fractions import Fraction

ALPHAS = [0.4, 0.2, 0.1, 0.05, 0.025]
N_PRIV, RUNS_PER_SIZE = 8192, 50
CANDIDATES = sorted({int(round(1.5 ** j)) for j in range(18)})      # 1, 2, 3, 5, 8, 11, ... 985
needed = []
for alpha in ALPHAS:
    found = None
    for n_pub in CANDIDATES:
        runs = [excess_error(n_pub, N_PRIV, learner) for _ in range(RUNS_PER_SIZE)]
        if np.quantile(runs, 0.9) <= alpha:
            found = n_pub
            break
    needed.append(found)
explicit_pub = [ASSPP(H, epsilon=EPSILON).required_public_sample_size(a, BETA) for a in ALPHAS]
explicit_priv = [ASSPP(H, epsilon=EPSILON).required_sample_size(a, BETA) for a in ALPHAS]
thm31 = [ss.abm_semi_private_sample_size(vc=vc.value, alpha=a, beta=BETA, epsilon=EPSILON) for a in ALPHAS]
LOWER_ALPHAS = [Fraction(1, 100), Fraction(1, 200), Fraction(1, 400)]   # ABM Lemma 4.4: alpha <= 1/100
lower = [ss.public_sample_lower_bound(alpha=a) for a in LOWER_ALPHAS]    # for learners at eps = 0.1, beta = 1/18

fig, ax = plt.subplots(figsize=(8, 5))
ax.plot(ALPHAS, needed, "o-", lw=2, label="ASSPP, smallest public sample that worked (runs)")
ax.plot(ALPHAS, [b.value for b in explicit_pub], "s-", label="ASSPP explicit public bound (ABM Lemma 3.3, finite class)")
ax.plot(ALPHAS, [pub.value for _, pub in thm31], "--", label="ABM Thm 3.1 public, O(·) with c=1")
ax.plot([float(a) for a in LOWER_ALPHAS], [b.value for b in lower], ":", color="k",
        label="ABM Thms 4.1–4.2: n_pub > 1/(1600 α) (stated for α ≤ 1/100)")
ax.set_xscale("log")
ax.set_yscale("log")
ax.set_xticks(ALPHAS + [float(a) for a in LOWER_ALPHAS], [str(a) for a in ALPHAS] + [str(a) for a in LOWER_ALPHAS])
ax.minorticks_off()
ax.invert_xaxis()
ax.set_xlabel("target excess error α (log scale, decreasing →)")
ax.set_ylabel("public examples (log scale)")
ax.set_title(f"Public sample size against α on {H.name}")
ax.legend(fontsize=8)
plt.show()
show_table(["α", "public: worked in runs", "public: explicit bound", "public: Thm 3.1 (c=1)",
            "private: explicit bound"],
           [[a, n, p.samples, t[1].samples, q.samples]
            for a, n, p, t, q in zip(ALPHAS, needed, explicit_pub, thm31, explicit_priv)])
show_table(["α (ABM Lemma 4.4: ≤ 1/100)", "public lower bound 1/(1600α)"],
           [[str(a), f"{l.value:.4f}"] for a, l in zip(LOWER_ALPHAS, lower)])
'''),
    md('''
**Reading the plot.** With α decreasing to the right on log–log axes, every curve rises with
slope about 1: the public data needed grows like `1/α`, as the upper bound of Thm 3.1 says and as
the lower bound of Thms 4.1–4.2 says cannot be avoided. The runs need far fewer public points
than the explicit bound, which pays for a union bound over all pairs of hypotheses (`2 ln|H|`) and
for the worst case over distributions and targets; that bound sits above Thm 3.1's order of growth
by its constants. The lower bound, drawn only where ABM state it (`α ≤ 1/100`), lies orders of
magnitude below everything — below one example even there: its constant `1/1600` comes from a
chain of reductions (Lemma 4.4), and only its slope is informative. The picture ABM draw — `Θ̃(1/α)` public examples are necessary and sufficient —
holds, with the `d log(1/α)` factor and the constants deciding where in that band a learner sits.
'''),
    md('''
## 3. What public data buys as the domain grows

Without public data a pure private learner for thresholds must pay for the size of the domain:
the exponential mechanism over the whole class needs `O(log|H|/(αε))` examples, and FX §4 show
that any pure private learner needs `Ω(LDim)`, which grows like `log₂ N` for thresholds over `N`
points. With public data, ABM Thm 3.1's private sample depends on the VC dimension only. We compute
the dimensions of thresholds over `N = 2^b` points with dimcalc and evaluate the bounds.
'''),
    code('''
ALPHA = 0.1
sizes, rows = [], []
for b in range(3, 11):
    T = generators.thresholds(2 ** b)
    v, l = vc_dimension(T), littlestone_dimension(T)
    assert v.exact and l.exact
    log_size = math.log(T.n_distinct)
    priv, pub = ss.asspp_sample_size(log_size=log_size, alpha=ALPHA, beta=BETA, epsilon=EPSILON)
    thm_priv, thm_pub = ss.abm_semi_private_sample_size(vc=v.value, alpha=ALPHA, beta=BETA, epsilon=EPSILON)
    alone = ss.exponential_mechanism_sample_size(log_size=log_size, alpha=ALPHA, beta=BETA, epsilon=EPSILON,
                                                 agnostic=True)
    sizes.append(T.n_points)
    rows.append(dict(vc=v.value, ld=l.value, alone=alone.value, priv=priv.value, pub=pub.value,
                     thm_priv=thm_priv.value, thm_pub=thm_pub.value))

fig, (ax0, ax1) = plt.subplots(1, 2, figsize=(14, 5), gridspec_kw={"width_ratios": [1, 2]})
ax0.plot(sizes, [r["ld"] for r in rows], "o-", label="Littlestone dimension")
ax0.plot(sizes, [r["vc"] for r in rows], "s-", label="VC dimension")
ax0.set_xscale("log", base=2)
ax0.set_xlabel("domain size N")
ax0.set_ylabel("dimension (dimcalc, exact)")
ax0.set_title("Thresholds over N points")
ax0.legend()
ax1.plot(sizes, [r["alone"] for r in rows], "o-", label="no public data: exponential mechanism over H, explicit")
ax1.plot(sizes, [r["priv"] for r in rows], "s-", label="ASSPP private, explicit (finite-class analysis)")
ax1.plot(sizes, [r["thm_priv"] for r in rows], "s--", label="ABM Thm 3.1 private, O(·) with c=1")
ax1.plot(sizes, [r["pub"] for r in rows], "^-", label="ASSPP public, explicit")
ax1.plot(sizes, [r["thm_pub"] for r in rows], "^--", label="ABM Thm 3.1 public, O(·) with c=1")
ax1.set_xscale("log", base=2)
ax1.set_yscale("log")
ax1.set_xlabel("domain size N")
ax1.set_ylabel(f"examples for α = {ALPHA}, β = {BETA}, ε = {EPSILON} (log scale)")
ax1.set_title("Sample sizes with and without public data")
ax1.legend(fontsize=8)
fig.tight_layout()
plt.show()
'''),
    md('''
**Reading the plot.** Left: the Littlestone dimension grows by one each time the domain doubles
while the VC dimension stays 1. Right: a learner without public data pays for that growth — the
exponential mechanism's sample grows with `log|H| ≈ log N`, and FX's `Ω(LDim)` lower bound says a
pure private learner cannot avoid it. ABM Thm 3.1's private and public samples (dashed) are flat:
they depend on the VC dimension only, because the public points reduce the class to a cover whose
size is set by the accuracy, not by the domain. dimcalc's *explicit* ASSPP bounds (solid squares
and triangles) are proven with a union bound over the finite class (`ln|H|`) instead of ABM's
VC-dimension argument, which has no explicit constants; they grow with `N` like the private-only
bound and, having to split α and β between cover and selection, even sit above it. On paper, with
explicit constants, public data buys nothing for a finite class of this size; the benefit shows in
the order of growth and in the runs of §1–2, where a few dozen public points suffice.
'''),
]


# ---------------------------------------------------------------------------------------------- 05
REPRESENTATIONS = [
    md('''
# 05 · Pure privacy and representations: DRDim and PRDim against the Littlestone dimension

**Question.** What does *pure* differential privacy cost? Feldman and Xiao (FX, COLT 2014) show
that the sample complexity of pure-private PAC learning is characterised by the *probabilistic
representation dimension* PRDim (FX Def 2.4, Thm 2.5, after Beimel–Nissim–Stemmer): the smallest
`log₂|H|` such that a random class `H` drawn from some distribution contains, with probability
`1 − δ`, a good approximation of every target under every distribution. Its deterministic
cousin DRDim (Def 2.3) asks for a single class `H` that ε-represents `C`. FX tie both to
one-way communication complexity (Thms 3.1–3.2) and prove `PRDim = Ω(LDim)` (Cor 4.3): pure
privacy costs at least the Littlestone dimension. BGS §8 carry this to multiclass classes
(Thm 8.8: `RepDim ≥ MLD/32`).

dimcalc computes `DRDim_ε` **exactly** on small domains (a mixed-integer program over all
functions on the domain, each answer re-checked with exact fractions), the one-way communication
complexity (deterministic exactly, randomized within proven bounds), and lists the paper bounds
on PRDim that apply, with their sources — PRDim itself is not computed (its definition quantifies
over distributions over classes). We compare point functions, whose Littlestone dimension is 1,
with thresholds, whose Littlestone dimension grows with the domain.
'''),
    SETUP,
    code('''
from fractions import Fraction

from dimcalc import generators
from dimcalc.communication import one_way_communication_complexity
from dimcalc.littlestone import littlestone_dimension, multiclass_littlestone_dimension
from dimcalc.representation import (binary_entropy, deterministic_representation_dimension,
                                    probabilistic_representation_bounds)
'''),
    md('''
## 1. DRDim_ε as ε varies, exactly, beside the Littlestone lower bound

For classes on at most 6 points (at most 64 functions on the domain), dimcalc finds the smallest
class `H` among *all* functions on the domain that ε-represents `C`, so `DRDim_ε(C) = log₂|H|`
exactly; the witness `H` is re-checked with `is_representation` in exact arithmetic. FX Thm 3.2
and Cor 4.3 give the explicit lower bound `⌈log₂|H|⌉ ≥ R→_ε(C) ≥ (1 − H(ε))·LDim(C)`, where `H(ε)`
is the binary entropy.
'''),
    code('''
EPSILONS = [Fraction(0), Fraction(1, 12), Fraction(1, 8), Fraction(1, 6), Fraction(1, 5), Fraction(1, 4),
            Fraction(1, 3), Fraction(3, 8), Fraction(2, 5), Fraction(5, 12), Fraction(1, 2)]
small = [generators.point_functions(6), generators.thresholds(6), generators.parities(2),
         generators.bgs_thm72_class(1, 2)]
sweep = {}
for C in small:
    mld = multiclass_littlestone_dimension(C)
    ld = littlestone_dimension(C) if C.is_binary else None
    results = [deterministic_representation_dimension(C, eps, time_limit=30) for eps in EPSILONS]
    assert all(r.verify(C) for r in results)
    sweep[C.name] = (C, ld, mld, results)

fig, axes = plt.subplots(1, len(small), figsize=(16, 4.3), sharey=True)
xs = [float(e) for e in EPSILONS]
for ax, (name, (C, ld, mld, results)) in zip(axes, sweep.items()):
    ax.step(xs, [r.upper for r in results], where="post", lw=2, label="DRDim_ε = log₂|H| (dimcalc, exact)")
    lows = [r.lower for r in results]
    if any(not r.exact for r in results):
        ax.fill_between(xs, lows, [r.upper for r in results], step="post", alpha=0.3, label="bounds (not exact)")
    ax.axhline(math.log2(C.n_distinct), color="k", ls="--", label="log₂|C| (C represents itself)")
    if ld is not None:
        ax.plot(xs, [(1 - binary_entropy(x)) * ld.value for x in xs], ":", color="tab:red",
                label=f"FX Cor 4.3: (1 − H(ε))·LDim, LDim = {ld.value}")
    ax.set_xlabel("accuracy ε")
    ax.set_ylabel("bits")
    ax.set_title(f"{name}: |C|={C.n_distinct}, MLD={mld.value}", fontsize=10)
    ax.legend(fontsize=7, loc="lower left")
fig.tight_layout()
plt.show()
show_table(["class"] + [str(e) for e in EPSILONS],
           [[name] + [r.size if r.exact else f"[{r.size_lower}, {r.size_upper}]" for r in results]
            for name, (C, ld, mld, results) in sweep.items()])
'''),
    md('''
**Reading the plot.** Each panel is one class; the staircase is the exact size (in bits) of the
smallest class of functions that ε-represents it, for ε from 0 to 1/2 (the table gives the sizes
|H|). At small ε nothing beats the class itself (dashed line): to be ε-close to every target under
*every* distribution — including one concentrated where two targets differ — `H` must contain the
targets. As ε grows, functions that sit "between" several targets cover them at once and the
staircase drops, down to its lowest value at ε = 1/2. The red dotted curve is FX's explicit lower
bound through the Littlestone dimension; it holds at every ε, meets the staircase only at ε = 0
for the parities, and fades to 0 at ε = 1/2. On these tiny domains point functions and thresholds
look alike; FX's separation between them — DRDim of point functions is `Θ(log b)` over `2^b`
points while their PRDim is `O(1)` — lives on domains far beyond exact computation, which is
what the bounds of the last section are for.
'''),
    md('''
## 2. One-way communication: the game behind the representations

In FX's game Alice holds a concept, Bob a point, and Alice sends one message from which Bob must
output the label. The deterministic cost is exactly `⌈log₂(number of distinct concepts)⌉` (dimcalc
also returns the message table); the randomized private-coin cost at error ε is bounded by
`DRDim_{2ε} ≤ R→_ε ≤ DRDim_ε` (FX Thm 3.2) and by Cor 4.3's `(1 − H(ε))·LDim`.
'''),
    code('''
rows = []
for C in small[:3] + [generators.point_functions(5), generators.thresholds(4)]:
    comm = one_way_communication_complexity(C, Fraction(1, 8), time_limit=30)
    ld = littlestone_dimension(C)
    rows.append([C.name, C.n_distinct, ld.value, comm.deterministic,
                 f"[{comm.private_coin[0]}, {comm.private_coin[1]}]",
                 f"[{comm.public_coin[0]}, {comm.public_coin[1]}]"])
show_table(["class", "|C|", "LDim", "D→ (exact)", "R→_{1/8} private coin [lower, upper]",
            "R→,pub_{1/8} public coin [lower, upper]"], rows)
'''),
    md('''
## 3. Point functions against thresholds on larger domains: bounds where nothing is exact

On `2^b` points dimcalc still computes the Littlestone dimension exactly, but a representation
search over all `2^(2^b)` functions is out of reach. `probabilistic_representation_bounds` lists
what the papers give: the explicit upper bound `PRDim ≤ DRDim ≤ log₂|C|`, BGS Thm 8.8's explicit
lower bound `RepDim ≥ MLD/32` (in nats; converted to bits below), and FX's `Ω(LDim)` and Newman
bounds, whose constants are not specified.
'''),
    code('''
BS = list(range(2, 9))
families = {"point functions": generators.point_functions, "thresholds": generators.thresholds}
bounds = {}
for label, make in families.items():
    per_b = []
    for b in BS:
        C = make(2 ** b)
        ld = littlestone_dimension(C)
        assert ld.exact and ld.verify(C)
        paper = probabilistic_representation_bounds(C, time_limit=30)
        upper = next(p for p in paper if p.relation == "<=" and p.value is not None)
        bgs = next(p for p in paper if p.source.startswith("BGS Thm 8.8"))
        per_b.append(dict(ld=ld.value, upper=upper, bgs=bgs, unspecified=[p for p in paper if p.value is None]))
    bounds[label] = per_b

fig, axes = plt.subplots(1, 2, figsize=(13, 4.8), sharey=True)
for ax, (label, per_b) in zip(axes, bounds.items()):
    upper = [r["upper"].value for r in per_b]
    lower = [r["bgs"].value / math.log(2) for r in per_b]
    ax.fill_between(BS, lower, upper, color="tab:gray", alpha=0.2, label="where PRDim_{1/4,1/8} can lie (explicit bounds)")
    ax.plot(BS, upper, "v--", label="PRDim ≤ DRDim ≤ log₂|C| (explicit)")
    ax.plot(BS, lower, "^:", label="RepDim ≥ MLD/32 (BGS Thm 8.8, explicit; in bits)")
    ax.plot(BS, [r["ld"] for r in per_b], "o-", lw=2, label="Littlestone dimension (dimcalc, exact)")
    ax.set_xlabel("b (domain of 2^b points)")
    ax.set_ylabel("bits")
    ax.set_title(f"{label} over 2^b points")
    ax.legend(fontsize=8, loc="upper left")
fig.suptitle("What can be certified about PRDim: point functions vs thresholds")
fig.tight_layout()
plt.show()
print("Bounds without explicit constants (listed, not plotted):")
for p in bounds["thresholds"][-1]["unspecified"]:
    print(f"  {p.quantity} {p.relation} ... — {p.source}; {p.note}")
'''),
    md('''
**Reading the plot.** In both panels the grey band is all that explicit bounds certify about
PRDim at BGS's parameters `(ε, δ) = (1/4, 1/8)` (their RepDim, here in bits): from the class itself (`log₂|C| ≈ b`, dashed) down to BGS's `MLD/32` (dotted), which is
tiny because of its constant. The solid line is the Littlestone dimension, computed exactly: 1 for
point functions at every `b`, `b` for thresholds. The theorems with unspecified constants pin the
truth down inside the bands, in opposite ways: for thresholds FX Cor 4.3 gives `PRDim = Ω(LDim) =
Ω(b)`, so PRDim grows linearly like the solid line — pure-private learning of thresholds needs
`Ω(b)` samples although their VC dimension is 1 — while for point functions FX §3.1 (with BNS)
gives `PRDim = O(1)`, so PRDim stays flat even though the upper bound one can certify grows with
`b`. The width of the bands is the honest state of computation: PRDim is settled by theorems with
unknown constants, not by a number dimcalc can certify.
'''),
]


NOTEBOOKS: dict[str, list[tuple[str, str]]] = {
    "01-tour": TOUR,
    "02-multiclass-vs-binary": MULTICLASS,
    "03-private-multi-learning": MULTI_LEARNING,
    "04-public-data": PUBLIC_DATA,
    "05-pure-privacy-and-representations": REPRESENTATIONS,
}


def build(name: str) -> nbformat.NotebookNode:
    """The notebook ``name`` (without outputs)."""
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    for i, (kind, text) in enumerate(NOTEBOOKS[name]):
        cell = nbformat.v4.new_markdown_cell(text) if kind == "markdown" else nbformat.v4.new_code_cell(text)
        cell["id"] = f"{name[:2]}-{i:02d}"
        nb.cells.append(cell)
    return nb


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", metavar="NAME", help="name or prefix of a notebook; repeatable")
    args = parser.parse_args(argv)
    names = [n for n in NOTEBOOKS if not args.only or any(n.startswith(o) for o in args.only)]
    if not names:
        print(f"build_notebooks: nothing matches {args.only}; known: {', '.join(NOTEBOOKS)}", file=sys.stderr)
        return 1
    NOTEBOOK_DIR.mkdir(exist_ok=True)
    for name in names:
        nb = build(name)
        nbformat.validate(nb)
        nbformat.write(nb, NOTEBOOK_DIR / f"{name}.ipynb")
        print(f"wrote notebooks/{name}.ipynb ({len(nb.cells)} cells)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
