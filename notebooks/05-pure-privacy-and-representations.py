# %% [markdown]
# # 05 · Pure privacy and representations: DRDim and PRDim against the Littlestone dimension
#
# **Question.** What does *pure* differential privacy cost? Feldman and Xiao (FX, COLT 2014) show
# that the sample complexity of pure-private PAC learning is characterised by the *probabilistic
# representation dimension* PRDim (FX Def 2.4, Thm 2.5, after Beimel–Nissim–Stemmer): the smallest
# `log₂|H|` such that a random class `H` drawn from some distribution contains, with probability
# `1 − δ`, a good approximation of every target under every distribution. Its deterministic
# cousin DRDim (Def 2.3) asks for a single class `H` that ε-represents `C`. FX tie both to
# one-way communication complexity (Thms 3.1–3.2) and prove `PRDim = Ω(LDim)` (Cor 4.3): pure
# privacy costs at least the Littlestone dimension. BGS §8 carry this to multiclass classes
# (Thm 8.8: `RepDim ≥ MLD/32`).
#
# dimcalc computes `DRDim_ε` **exactly** on small domains (a mixed-integer program over all
# functions on the domain, each answer re-checked with exact fractions), the one-way communication
# complexity (deterministic exactly, randomized within proven bounds), and lists the paper bounds
# on PRDim that apply, with their sources — PRDim itself is not computed (its definition quantifies
# over distributions over classes). We compare point functions, whose Littlestone dimension is 1,
# with thresholds, whose Littlestone dimension grows with the domain.

# %%
# %matplotlib inline
import math

import matplotlib.pyplot as plt
from _setup import show_table, use_plot_style  # notebooks/_setup.py

use_plot_style()


# %%
from fractions import Fraction

from dimcalc import generators
from dimcalc.littlestone import littlestone_dimension, multiclass_littlestone_dimension
from dimcalc.representation import (
    binary_entropy,
    deterministic_representation_dimension,
    probabilistic_representation_bounds,
)
from dimcalc.representation.communication import one_way_communication_complexity

# %% [markdown]
# ## 1. DRDim_ε as ε varies, exactly, beside the Littlestone lower bound
#
# For classes on at most 6 points (at most 64 functions on the domain), dimcalc finds the smallest
# class `H` among *all* functions on the domain that ε-represents `C`, so `DRDim_ε(C) = log₂|H|`
# exactly; the witness `H` is re-checked with `is_representation` in exact arithmetic. FX Thm 3.2
# and Cor 4.3 give the explicit lower bound `⌈log₂|H|⌉ ≥ R→_ε(C) ≥ (1 − H(ε))·LDim(C)`, where `H(ε)`
# is the binary entropy.

# %%
EPSILONS = [
    Fraction(0),
    Fraction(1, 12),
    Fraction(1, 8),
    Fraction(1, 6),
    Fraction(1, 5),
    Fraction(1, 4),
    Fraction(1, 3),
    Fraction(3, 8),
    Fraction(2, 5),
    Fraction(5, 12),
    Fraction(1, 2),
]
small = [
    generators.point_functions(6),
    generators.thresholds(6),
    generators.parities(2),
    generators.bgs_thm72_class(1, 2),
]
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
        ax.plot(
            xs,
            [(1 - binary_entropy(x)) * ld.value for x in xs],
            ":",
            color="tab:red",
            label=f"FX Cor 4.3: (1 − H(ε))·LDim, LDim = {ld.value}",
        )
    ax.set_xlabel("accuracy ε")
    ax.set_ylabel("bits")
    ax.set_title(f"{name}: |C|={C.n_distinct}, MLD={mld.value}", fontsize=10)
    ax.legend(fontsize=7, loc="lower left")
fig.tight_layout()
plt.show()
show_table(
    ["class"] + [str(e) for e in EPSILONS],
    [
        [name] + [r.size if r.exact else f"[{r.size_lower}, {r.size_upper}]" for r in results]
        for name, (C, ld, mld, results) in sweep.items()
    ],
)

# %% [markdown]
# **Reading the plot.** Each panel is one class; the staircase is the exact size (in bits) of the
# smallest class of functions that ε-represents it, for ε from 0 to 1/2 (the table gives the sizes
# |H|). At small ε nothing beats the class itself (dashed line): to be ε-close to every target under
# *every* distribution — including one concentrated where two targets differ — `H` must contain the
# targets. As ε grows, functions that sit "between" several targets cover them at once and the
# staircase drops, down to its lowest value at ε = 1/2. The red dotted curve is FX's explicit lower
# bound through the Littlestone dimension; it holds at every ε, meets the staircase only at ε = 0
# for the parities, and fades to 0 at ε = 1/2. On these tiny domains point functions and thresholds
# look alike; FX's separation between them — DRDim of point functions is `Θ(log b)` over `2^b`
# points while their PRDim is `O(1)` — lives on domains far beyond exact computation, which is
# what the bounds of the last section are for.

# %% [markdown]
# ## 2. One-way communication: the game behind the representations
#
# In FX's game Alice holds a concept, Bob a point, and Alice sends one message from which Bob must
# output the label. The deterministic cost is exactly `⌈log₂(number of distinct concepts)⌉` (dimcalc
# also returns the message table); the randomized private-coin cost at error ε is bounded by
# `DRDim_{2ε} ≤ R→_ε ≤ DRDim_ε` (FX Thm 3.2) and by Cor 4.3's `(1 − H(ε))·LDim`.

# %%
rows = []
for C in small[:3] + [generators.point_functions(5), generators.thresholds(4)]:
    comm = one_way_communication_complexity(C, Fraction(1, 8), time_limit=30)
    ld = littlestone_dimension(C)
    rows.append(
        [
            C.name,
            C.n_distinct,
            ld.value,
            comm.deterministic,
            f"[{comm.private_coin[0]}, {comm.private_coin[1]}]",
            f"[{comm.public_coin[0]}, {comm.public_coin[1]}]",
        ]
    )
show_table(
    [
        "class",
        "|C|",
        "LDim",
        "D→ (exact)",
        "R→_{1/8} private coin [lower, upper]",
        "R→,pub_{1/8} public coin [lower, upper]",
    ],
    rows,
)

# %% [markdown]
# ## 3. Point functions against thresholds on larger domains: bounds where nothing is exact
#
# On `2^b` points dimcalc still computes the Littlestone dimension exactly, but a representation
# search over all `2^(2^b)` functions is out of reach. `probabilistic_representation_bounds` lists
# what the papers give: the explicit upper bound `PRDim ≤ DRDim ≤ log₂|C|`, BGS Thm 8.8's explicit
# lower bound `RepDim ≥ MLD/32` (in nats; converted to bits below), and FX's `Ω(LDim)` and Newman
# bounds, whose constants are not specified.

# %%
BS = list(range(2, 9))
families = {"point functions": generators.point_functions, "thresholds": generators.thresholds}
bounds = {}
for label, make in families.items():
    per_b = []
    for b in BS:
        C = make(2**b)
        ld = littlestone_dimension(C)
        assert ld.exact and ld.verify(C)
        paper = probabilistic_representation_bounds(C, time_limit=30).bounds
        upper = next(p for p in paper if p.relation == "<=" and p.value is not None)
        bgs = next(p for p in paper if p.source.startswith("BGS Thm 8.8"))
        per_b.append(dict(ld=ld.value, upper=upper, bgs=bgs, unspecified=[p for p in paper if p.value is None]))
    bounds[label] = per_b

fig, axes = plt.subplots(1, 2, figsize=(13, 4.8), sharey=True)
for ax, (label, per_b) in zip(axes, bounds.items()):
    upper = [r["upper"].value for r in per_b]
    lower = [r["bgs"].value / math.log(2) for r in per_b]
    ax.fill_between(
        BS, lower, upper, color="tab:gray", alpha=0.2, label="where PRDim_{1/4,1/8} can lie (explicit bounds)"
    )
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

# %% [markdown]
# **Reading the plot.** In both panels the grey band is all that explicit bounds certify about
# PRDim at BGS's parameters `(ε, δ) = (1/4, 1/8)` (their RepDim, here in bits): from the class itself (`log₂|C| ≈ b`, dashed) down to BGS's `MLD/32` (dotted), which is
# tiny because of its constant. The solid line is the Littlestone dimension, computed exactly: 1 for
# point functions at every `b`, `b` for thresholds. The theorems with unspecified constants pin the
# truth down inside the bands, in opposite ways: for thresholds FX Cor 4.3 gives `PRDim = Ω(LDim) =
# Ω(b)`, so PRDim grows linearly like the solid line — pure-private learning of thresholds needs
# `Ω(b)` samples although their VC dimension is 1 — while for point functions FX §3.1 (with BNS)
# gives `PRDim = O(1)`, so PRDim stays flat even though the upper bound one can certify grows with
# `b`. The width of the bands is the honest state of computation: PRDim is settled by theorems with
# unknown constants, not by a number dimcalc can certify.
