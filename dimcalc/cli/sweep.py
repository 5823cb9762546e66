"""``dimcalc sweep``: dimensions and the theorem report over many classes, their summary, and extremal search.

Three modes, one command:

* ``dimcalc sweep SOURCES --db FILE``: compute and store (resumable; ``--jobs N``, ``--scheduler dask://...``);
* ``dimcalc sweep --report FILE``: summarise a database (``--expr`` for extremes, ``--save-max`` for the class);
* ``dimcalc sweep --search EXPR --size RxCxL``: local search for a class maximising an expression.

The library does the work (:mod:`dimcalc.sweep`); this module parses, and
:mod:`dimcalc.cli.sweep_modes` calls the library and prints.
"""

from __future__ import annotations

import argparse
from typing import Any

from ..reports.check import ALL_KEYS, DIMENSION_KEYS
from .formats import add_format_option
from .options import add_force_option, add_json_option, add_quiet_option, positive_seconds

__all__ = ["register", "run"]

EXAMPLES = """examples:
  dimcalc sweep --all 4x3x2 --list                        # the 20 classes up to isomorphism
  dimcalc sweep --all 4x3x2 --theorems --db small.db      # every dimension + theorem report of each
  dimcalc sweep --all 4x3x3 --jobs 2 --db s.db            # on two cores; rerun the same line to resume
  dimcalc sweep data/ --dims vc,littlestone --db data.db  # every class file under data/
  dimcalc sweep --random 6x4x3 --count 500 --seed 0 --time-limit 5 --db r.db
  dimcalc sweep --generate bgs-thm61 --param k=5..9 --param d=1,2 --db bgs.db
  dimcalc sweep --all 4x3x3 --scheduler dask://127.0.0.1:8786 --db s.db
  dimcalc sweep --report s.db --expr 'psi_littlestone.bin - multiclass_littlestone' --save-max gap.json
  dimcalc sweep --search 'binary_restrictions.max - multiclass_littlestone' --size 8x8x16 --seed 0 -o best.json

result names in --expr / --search: vc, natarajan, graph, littlestone, multiclass_littlestone,
  psi_littlestone.{N,bin,B}, psi_littlestone_uniform.{N,bin,B}, binary_restrictions.{1,2,...},
  binary_restrictions.max, hypotheses, points, labels; operators + - * / ( ) max min abs log2.
exit status: 0 done; 1 a statement violated, a witness failed its checker or a class failed;
             2 refused input; 3 a time limit left some result as bounds"""


def register(sub: Any) -> None:
    p = sub.add_parser(
        "sweep",
        help="dimensions and theorem report over many classes (resumable, parallel, Dask)",
        description="Compute dimensions (and the theorem report) for many classes — class files, "
        "random tables, generator families, or every class of a small size up to "
        "isomorphism — into an SQLite database that a rerun resumes; summarise it "
        "(--report); search for extremal classes (--search).  Schema: docs/sweep.md.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    src = p.add_argument_group("classes to sweep")
    src.add_argument("paths", nargs="*", metavar="PATH", help="class files, or directories (every *.json, *.csv)")
    src.add_argument(
        "--all",
        action="append",
        default=None,
        metavar="RxCxL",
        help="every class of exactly R distinct hypotheses over C points with labels 0..L-1, "
        "up to permuting hypotheses and points (repeatable)",
    )
    src.add_argument("--random", metavar="RxCxL", default=None, help="random tables (dimcalc generate random)")
    src.add_argument("--count", type=int, default=None, metavar="N", help="how many random tables (with --random)")
    src.add_argument(
        "--seed",
        type=int,
        default=0,
        metavar="S",
        help="first seed of --random (seeds S, S+1, ...), or of --search (default 0)",
    )
    src.add_argument("--generate", metavar="FAMILY", default=None, help="a 'dimcalc generate' family ...")
    src.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="NAME=RANGE",
        help="... over a parameter range, e.g. k=5..9 or d=1,2 (repeatable; every combination)",
    )
    src.add_argument(
        "--list",
        action="store_true",
        help="list the classes (canonical tables) and their number; compute and store nothing",
    )

    comp = p.add_argument_group("what to compute, where")
    comp.add_argument("--db", metavar="FILE", default="sweep.db", help="SQLite database (default sweep.db)")
    comp.add_argument(
        "--dims",
        metavar="A,B,...",
        default=None,
        help=f"only these dimensions (default: {', '.join(DIMENSION_KEYS)}); keys: {', '.join(ALL_KEYS)}, or 'all'",
    )
    comp.add_argument("--no-dims", action="store_true", help="no dimensions (with --theorems: only the report)")
    comp.add_argument("--theorems", action="store_true", help="also the theorem report of each class")
    comp.add_argument(
        "--no-representation",
        action="store_true",
        help="theorem report without the representation-dimension statements (a MILP each)",
    )
    comp.add_argument(
        "--family",
        metavar="FAMILY.json",
        default=None,
        help="also Ψ-Littlestone for this user family (key 'user'; every class needs its label count)",
    )
    comp.add_argument(
        "--time-limit",
        type=positive_seconds,
        default=None,
        metavar="S",
        help="seconds per class for its dimensions (and as much for its theorem report); a stopped "
        "search stores proven bounds (exit status 3)",
    )
    comp.add_argument("--jobs", type=int, default=1, metavar="N", help="worker processes on this machine (default 1)")
    comp.add_argument("--scheduler", metavar="dask://HOST:PORT", default=None, help="compute on this Dask cluster")
    comp.add_argument("--chunk-size", type=int, default=None, metavar="N", help="classes per task (default auto)")
    comp.add_argument(
        "--retry-inexact",
        action="store_true",
        help="compute again the results a time limit left as bounds (exact results are kept)",
    )

    rep = p.add_argument_group("report")
    rep.add_argument("--report", metavar="DB", default=None, help="summarise this sweep database")
    rep.add_argument(
        "--expr",
        action="append",
        default=[],
        metavar="EXPR",
        help="extremes of this expression of dimensions (repeatable)",
    )
    rep.add_argument(
        "--save-max",
        metavar="FILE",
        default=None,
        help="write the class maximising --expr as a class file (results and witnesses in metadata)",
    )
    rep.add_argument("--save-min", metavar="FILE", default=None, help="same for the minimum")
    rep.add_argument("--verify", action="store_true", help="re-check every stored witness against its class")

    sea = p.add_argument_group("extremal search")
    sea.add_argument("--search", metavar="EXPR", default=None, help="maximise this expression by local search")
    sea.add_argument("--size", metavar="RxCxL", default=None, help="size of the searched classes")
    sea.add_argument("--restarts", type=int, default=8, metavar="N", help="random restarts (default 8)")
    sea.add_argument("--steps", type=int, default=200, metavar="N", help="moves per restart (default 200)")
    sea.add_argument("--target", type=float, default=None, metavar="V", help="stop once the value reaches V")
    sea.add_argument("-o", "--output", metavar="FILE", default=None, help="write the best class found here")

    add_force_option(p)
    add_json_option(p)
    add_format_option(p)  # csv / markdown / latex: with --report
    add_quiet_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Handler of ``dimcalc sweep``: :func:`dimcalc.cli.sweep_modes.run_mode`.

    The sweep machinery (SQLite, process pools, Dask on demand) is imported here, when
    ``dimcalc sweep`` runs, rather than on every command's start-up (about 0.1 s).
    """
    from .sweep_modes import run_mode

    return run_mode(args)
