#!/usr/bin/env python3
"""Regenerate every class file shipped in ``data/`` (deterministically).

Usage::

    python scripts/generate_data.py            # rewrite data/
    python scripts/generate_data.py --check    # exit 1 if data/ differs from what this script makes

Each file is small (well under 200 KB) and every dimension of it checks in a
few seconds.  ``tests/test_generators.py`` loads every file in ``data/`` and
compares it with :func:`build_all`, so the shipped data cannot drift from
this script.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from dimcalc import HypothesisClass  # noqa: E402
from dimcalc import generators as gen  # noqa: E402
from dimcalc.classes.operations import gap_amplification  # noqa: E402
from dimcalc.io import dumps_csv, dumps_json  # noqa: E402

DATA = ROOT / "data"


def _tiny() -> HypothesisClass:
    # The example of the interface spec §1: three thresholds on three points.
    return HypothesisClass(
        [[0, 0, 1], [0, 1, 1], [1, 1, 1]],
        point_names=["x0", "x1", "x2"],
        hypothesis_names=["t2", "t1", "t0"],
        name="tiny-3",
        metadata={"family": "example", "params": {}, "source": "interface spec §1"},
    )


def _claim62() -> HypothesisClass:
    base = gen.bgs_thm72_class(1, 2)  # 9 functions on 3 points, 4 labels, MLD 2
    G = gap_amplification(base, 2)  # 81 functions on 6 points, MLD 4
    return HypothesisClass(
        G.table,
        num_labels=G.num_labels,
        point_names=list(G.point_names),
        hypothesis_names=list(G.hypothesis_names),
        name="bgs-claim62-thm72-d1-bits2-ell2",
        metadata={
            "family": "gap-amplification",
            "params": {"input": base.name, "ell": 2},
            "source": "BGS Claim 6.2 applied to the Theorem 7.2 class (d=1, bits=2)",
        },
    )


#: file name -> builder.  Sizes are kept small so every dimension checks quickly.
DATASETS: dict[str, Callable[[], HypothesisClass]] = {
    "tiny-3.json": _tiny,
    "thresholds-15.json": lambda: gen.thresholds(15),
    "thresholds-6.csv": lambda: gen.thresholds(6),
    "thresholds-8.json": lambda: gen.thresholds(8),  # the file docs/interface.md §5 loads
    "point-functions-8.json": lambda: gen.point_functions(8),
    "k-point-functions-6-2.json": lambda: gen.k_point_functions(6, 2),
    "intervals-10.json": lambda: gen.intervals(10),
    "parities-3.json": lambda: gen.parities(3),
    "lines-5.json": lambda: gen.lines(5),
    "boxes-b2-d2.json": lambda: gen.boxes(2, 2),
    "halfspaces-b2-d2.json": lambda: gen.halfspaces(2, 2),
    "balls-b2-d1.json": lambda: gen.balls(2, 1),
    "balls-b2-d2.json": lambda: gen.balls(2, 2),
    "bgs-thm61-k5-d2.json": lambda: gen.bgs_thm61_class(5, 2),
    "bgs-thm61-k7-d1.json": lambda: gen.bgs_thm61_class(7, 1),
    "bgs-claim62.json": _claim62,
    "bgs-thm72-d1-bits2.json": lambda: gen.bgs_thm72_class(1, 2),
    "random-binary.json": lambda: gen.random_class(12, 7, labels=2, random_state=1),
    "random-multiclass.json": lambda: gen.random_class(10, 5, labels=4, random_state=2),
}


def build_all() -> dict[str, HypothesisClass]:
    """Every shipped class, by file name."""
    return {name: build() for name, build in DATASETS.items()}


def render(name: str, H: HypothesisClass) -> str:
    """The exact file text for a class (CSV by extension, else JSON)."""
    return dumps_csv(H) if name.endswith(".csv") else dumps_json(H)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="only compare data/ with what would be written")
    parser.add_argument("--out", type=Path, default=DATA, help="output folder (default: data/)")
    args = parser.parse_args(argv)
    stale = []
    args.out.mkdir(parents=True, exist_ok=True)
    for name, H in build_all().items():
        path = args.out / name
        text = render(name, H)
        if args.check:
            if not path.exists() or path.read_text() != text:
                stale.append(name)
            continue
        path.write_text(text)
        print(
            f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {H.n_hypotheses} hypotheses, "
            f"{H.n_points} points, {H.num_labels} labels, {len(text.encode()) // 1024} KB"
        )
    if stale:
        print("stale or missing in data/: " + ", ".join(stale) + " (run scripts/generate_data.py)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
