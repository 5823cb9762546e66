# %% [markdown]
# # 07 · More dimensions: threshold, DS, dual VC, star number, teaching
#
# **Question.** The seed papers use VC, Natarajan, graph and Littlestone-type dimensions. The
# literature around them uses six more: the **threshold dimension** (how ALMM19 prove that private
# learning needs `Ω(log* LDim)` examples), the **DS dimension** (which characterises multiclass
# learnability where the Natarajan dimension does not), the **dual VC dimension**, the **star
# number**, the **teaching** and **recursive teaching** dimensions. What are they on the standard
# classes, where do DS and Natarajan part, and how does the threshold dimension track LDim?
#
# **Tools.** `dimcalc.dims` (CLI: `dimcalc check FILE --dims all`): exact solvers, each answer with
# a witness that an independent checker verifies; `dimcalc.reports.theorems.dimension_relations`
# evaluates the relations between them; `dimcalc.sweep.canonical.all_classes` enumerates every
# small class up to renaming rows and points.
#
# **Sources.** Threshold dimension: Alon, Livni, Malliaris, Moran (ALMM19, STOC 2019) §2 and Thm 3
# (after Shelah 1978, Hodges 1997). DS dimension: Daniely, Shalev-Shwartz (COLT 2014); Brukhim,
# Carmon, Dinur, Moran, Yehudayoff (FOCS 2022). Dual VC: Assouad (1983). Star number: Hanneke,
# Yang (JMLR 2015). Teaching: Goldman, Kearns (1995). Recursive teaching: Zilles, Lange, Holte,
# Zinkevich (2011); Doliwa, Fan, Simon, Zilles (2014); Chen, Cheng, Tang (NeurIPS 2016).
# Definitions and proofs: `docs/dimensions.md`.

# %%
# %matplotlib inline
from collections import Counter

import matplotlib.pyplot as plt
import numpy as np
from _setup import show_table, use_plot_style  # notebooks/_setup.py

from dimcalc import HypothesisClass, generators, littlestone_dimension, natarajan_dimension, vc_dimension
from dimcalc.dims import (
    ds_dimension,
    dual_vc_dimension,
    recursive_teaching_dimension,
    star_number,
    teaching_dimension,
    threshold_dimension,
)
from dimcalc.reports.theorems import dimension_relations, theorem_verdict
from dimcalc.sweep.canonical import all_classes

use_plot_style()


def certified(solver, H):
    """``solver(H)``'s exact value, its witness verified; '-' for a dimension not defined on ``H``."""
    result = solver(H)
    assert result.exact and result.verify(H), result
    return "-" if result.value is None else result.value


# %% [markdown]
# ## 1. The standard classes
#
# Every value below is exact and its witness verified (`certified` asserts both). Thresholds contain
# `n` thresholds but have Littlestone dimension only `⌊log₂(n+1)⌋`; parities reach `d` in every
# column; the empty interval needs every point to be taught, while the recursive teaching plan
# teaches it last, with no point at all.

# %%
standard = {
    "thresholds(16)": generators.thresholds(16),
    "point functions(8)": generators.point_functions(8),
    "intervals(8)": generators.intervals(8),
    "parities(3)": generators.parities(3),
    "3-point functions(6)": generators.k_point_functions(6, 3),
    "random 12×8": generators.random_class(12, 8, random_state=7),
    "all maps [3] → {0,1,2}": HypothesisClass.from_table(
        [[a, b, c] for a in range(3) for b in range(3) for c in range(3)]
    ),
    "hexagon (3 labels)": HypothesisClass.from_table([[0, 0], [1, 0], [1, 1], [2, 1], [2, 2], [0, 2]]),
}
columns = [
    ("Natarajan", natarajan_dimension),
    ("DS", ds_dimension),
    ("LDim", littlestone_dimension),
    ("threshold", threshold_dimension),
    ("dual VC", dual_vc_dimension),
    ("star", star_number),
    ("TD", teaching_dimension),
    ("RTD", recursive_teaching_dimension),
]
rows = []
for name, H_current in standard.items():
    rows.append([name, H_current.n_distinct] + [certified(f, H_current) for _, f in columns])
show_table(["class", "|H|"] + [c for c, _ in columns], rows)

# %% [markdown]
# (Natarajan is the VC dimension on binary classes; LDim, threshold and dual VC are the binary
# ones, `-` on the multiclass classes.) The witnesses are plain data; for thresholds(16) the
# threshold witness is the sixteen points with the sixteen non-empty thresholds, and
# `dimension_relations` checks ALMM19 Thm 3 both ways with them:

# %%
H_current = standard["thresholds(16)"]
print(threshold_dimension(H_current).witness)
for check in dimension_relations(H_current):
    print(f"{check.source:32} {check.statement:45} {check.lhs.to_json()!s:>3} {check.relation} {check.rhs.to_json()}")

# %% [markdown]
# ## 2. Where DS and Natarajan part
#
# `Natarajan ≤ DS ≤ graph` always. A Natarajan-shattered pair of points needs a 2×2 product
# `{a, b} × {c, d}` inside `H|_S`; a pseudo-cube only needs every pattern to have a neighbour along
# each axis. Read as a bipartite graph between the labels at the two points, a pseudo-cube on two
# points has every vertex of degree ≥ 2 (so it has a cycle) and a product is a 4-cycle: the smallest
# pseudo-cube without one is a 6-cycle, the *hexagon* above. Over every class of 6 to 9 hypotheses on
# two points with three labels (up to renaming rows and points):

# %%
rows = []
examples: list[list[list[int]]] = []
for R in (6, 7, 8, 9):
    counts: Counter[tuple[int, int]] = Counter()
    for c in all_classes(R, 2, 3):
        H_current = HypothesisClass(c.table, num_labels=3)
        n, ds = certified(natarajan_dimension, H_current), certified(ds_dimension, H_current)
        counts[(n, ds)] += 1
        if ds > n and len(examples) < 3:
            examples.append(c.table.tolist())
    rows.append([f"{R}×2×3", sum(counts.values())] + [counts[p] for p in ((1, 1), (1, 2), (2, 2))])
show_table(["size", "classes", "N = DS = 1", "N = 1 < DS = 2", "N = DS = 2"], rows)
print("first classes with DS > Natarajan:", *examples, sep="\n  ")

# %% [markdown]
# On three points the gap appears with more hypotheses; a random search over 3-point classes with
# four labels finds classes whose DS dimension exceeds the Natarajan dimension (every answer certified):

# %%
rng = np.random.default_rng(0)
found: Counter[tuple[int, int]] = Counter()
for _ in range(300):
    table = np.unique(rng.integers(0, 4, size=(rng.integers(8, 28), 3)), axis=0)
    H_current = HypothesisClass(table, num_labels=4)
    found[(certified(natarajan_dimension, H_current), certified(ds_dimension, H_current))] += 1
show_table(["(Natarajan, DS)", "random classes"], sorted(found.items()))

# %% [markdown]
# ## 3. How the threshold dimension tracks LDim
#
# ALMM19 Thm 3 (Shelah; Hodges): LDim `d` gives at least `⌊log₂ d⌋` thresholds, and `t` thresholds
# give LDim at least `⌊log₂ t⌋`. On thresholds over `n` points the second bound is tight
# (`T = n`, `LDim = ⌊log₂(n+1)⌋`), and on every small class the two stay within it:

# %%
rows = []
for n in (1, 2, 3, 7, 8, 15, 16, 31, 32):
    H_current = generators.thresholds(n)
    rows.append([n, certified(threshold_dimension, H_current), certified(littlestone_dimension, H_current)])
show_table(["n", "threshold dim", "LDim"], rows)

records = []  # (rows, VC, LDim, threshold, RTD, TD) of every class of 4, 6 or 8 hypotheses on 4 points
for R in (4, 6, 8):
    for c in all_classes(R, 4, 2):
        H_current = HypothesisClass(c.table, num_labels=2)
        assert theorem_verdict(dimension_relations(H_current)) == "holds"
        records.append(
            (R,)
            + tuple(
                certified(f, H_current)
                for f in (
                    vc_dimension,
                    littlestone_dimension,
                    threshold_dimension,
                    recursive_teaching_dimension,
                    teaching_dimension,
                )
            )
        )
pairs = Counter((ld, thr) for _, _, ld, thr, _, _ in records)

fig, ax = plt.subplots(figsize=(5, 3.6))
ld, thr = zip(*pairs)
ax.scatter(ld, thr, s=[6 * pairs[p] ** 0.7 for p in pairs], alpha=0.6)
for (a, b), count in pairs.items():
    ax.annotate(str(count), (a, b), textcoords="offset points", xytext=(6, 4), fontsize=8)
ax.set_xlabel("Littlestone dimension")
ax.set_ylabel("threshold dimension")
ax.set_title("every class of 4, 6 or 8 hypotheses on 4 points (labels kept)")
ax.set_xticks(range(0, 4))
ax.set_yticks(range(0, 5))
plt.show()

# %% [markdown]
# ## 4. Teaching on every small class
#
# `RTD ≤ TD` always, and `RTD ≤ VC·2^(VC+1)` (Chen, Cheng, Tang 2016). On the same classes (every
# class of 4, 6 or 8 hypotheses on 4 points) RTD never exceeds VC, while TD reaches three times VC.
# (Larger classes can have RTD > VC: Chen, Cheng and Tang build classes with RTD = 5k, VC = 3k.)

# %%
show_table(
    ["hypotheses", "VC", "RTD", "TD", "classes"],
    [[*key, count] for key, count in sorted(Counter((r[0], r[1], r[4], r[5]) for r in records).items())],
)
