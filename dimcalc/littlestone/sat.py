"""SAT encodings for dimcalc (python-sat): "a shattered tree of depth t exists".

A leaf module: it knows CNF and python-sat, nothing of the search.  The
Littlestone-type engine (:mod:`dimcalc.littlestone`) decides ``D(V) >= t`` by
a memoised recursion, which is strong when a deep tree exists (it finds one
greedily, most balanced split first) and when the size bound ``|V| < 2**t``
cuts it off, and weak on *failing* queries just below that bound, where it
must refute every split of every sub-version space.  The engine hands such a
query -- the version space ``V``, its canonical splits and ``t`` -- to
:func:`solve_tree_depth`: UNSAT proves the upper bound ``D(V) < t``; a model
is a choice of split per tree node, which the engine checks (every leaf's
version space non-empty) and writes into its memo, so the witness comes out
of the same walk.  Every call is budgeted (``solve_limited`` with a conflict
budget and an interrupt at the deadline), so SAT never runs past the time
limit; an unknown answer just returns control to the recursion.

Encoding (for a version space ``V`` with hypotheses ``h`` and candidate splits
``c = (Z_c, O_c)``: the hypotheses sent to child 0 / child 1 by ``c``)
---------------------------------------------------------------------------
* ``node[n, c]`` -- internal node ``n`` (heap order, ``2**t - 1`` nodes) uses
  split ``c``: at least one per node.  (At most one is not needed: if a model
  picks several, every picked split is consistent with every path through
  ``n``, so any one of them gives a valid tree.)
* ``side[n, b, h]`` -- hypothesis ``h`` goes to child ``b`` at node ``n``:
  ``node[n, c] -> not side[n, b, h]`` for every ``h`` outside the ``b`` side of ``c``.
* ``leaf[l, h]`` -- leaf ``l`` is realised by ``h``: at least one per leaf, and
  ``leaf[l, h] -> side[n, b, h]`` for every ancestor ``n`` of ``l`` where the
  path to ``l`` takes edge ``b``.

A model is exactly a complete tree of depth ``t`` every root-to-leaf path of
which is realised by one hypothesis of ``V``; the candidate splits are the
canonical splits of ``V`` (those of every sub-version space are their
restrictions).  Symmetry breaking for mirror images is built in: a tree and
the tree with the two subtrees of a node swapped (and that node's split
mirrored) are the same model only once, because each unordered split appears
in ``splits`` with one orientation (the engine's canonicalisation), so the
mirrored node has no variable.  Variables come from
``pysat.formula.IDPool`` keyed by meaningful tuples.

References
----------
Littlestone (1987); BGS Defs 2.10-2.13 and 4.1-4.4 (the trees encoded here).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from pysat.formula import IDPool
from pysat.solvers import Solver

from ..classes.hypothesis_class import mask_bits

__all__ = [
    "tree_depth_clauses",
    "solve_tree_depth",
    "estimate_clauses",
    "MAX_CLAUSES",
]

#: Encodings estimated larger than this are not built (the recursion keeps the query).
MAX_CLAUSES = 3_000_000


def estimate_clauses(n_hypotheses: int, n_splits: int, depth: int) -> int:
    """Rough clause count of :func:`tree_depth_clauses` (used to skip hopeless encodings)."""
    nodes = (1 << depth) - 1
    return nodes * n_splits * n_hypotheses + (1 << depth) * depth * n_hypotheses


def tree_depth_clauses(V: int, splits: Sequence[tuple], depth: int) -> tuple[list[list[int]], IDPool]:
    """CNF of "a complete tree of ``depth`` over ``splits`` is shattered by ``V``".

    Parameters
    ----------
    V : int
        Version space (bitset over distinct hypotheses).
    splits : sequence of (V0, V1, desc)
        Candidate splits of ``V``: ``V0``/``V1`` are the hypotheses of ``V``
        sent to child 0 / 1.
    depth : int
        ``t >= 1``.

    Returns
    -------
    (clauses, pool)
        ``pool.id(("node", n, c))``, ``pool.id(("side", n, b, h))``,
        ``pool.id(("leaf", l, h))`` name the variables.
    """
    pool = IDPool()
    hyps = mask_bits(V)
    nodes = (1 << depth) - 1
    clauses: list[list[int]] = []
    side_sets = [(set(mask_bits(V0)), set(mask_bits(V1))) for V0, V1, _ in splits]
    for n in range(nodes):
        clauses.append([pool.id(("node", n, c)) for c in range(len(splits))])
        for c, (s0, s1) in enumerate(side_sets):
            p = pool.id(("node", n, c))
            for h in hyps:
                if h not in s0:
                    clauses.append([-p, -pool.id(("side", n, 0, h))])
                if h not in s1:
                    clauses.append([-p, -pool.id(("side", n, 1, h))])
    for leaf in range(1 << depth):
        clauses.append([pool.id(("leaf", leaf, h)) for h in hyps])
        node = 0
        for level in range(depth):
            b = (leaf >> (depth - 1 - level)) & 1
            for h in hyps:
                clauses.append([-pool.id(("leaf", leaf, h)), pool.id(("side", node, b, h))])
            node = 2 * node + 1 + b
    return clauses, pool


def solve_tree_depth(
    V: int, splits: Sequence[tuple], depth: int, *, conflict_budget: int | None = None, seconds: float | None = None
) -> tuple[bool | None, list | None]:
    """Decide the encoding; return ``(answer, choice)``.

    ``answer`` is True (a tree exists), False (none: UNSAT) or None (budget
    spent).  ``choice`` (when True) lists, in heap order, the index into
    ``splits`` used by each internal node.
    """
    if depth <= 0:
        return (V != 0), []
    if not splits:
        return False, None
    clauses, pool = tree_depth_clauses(V, splits, depth)
    with Solver(name="glucose4", bootstrap_with=clauses) as solver:
        timer = None
        if seconds is not None:
            timer = threading.Timer(max(seconds, 0.0), solver.interrupt)
            timer.start()
        try:
            if conflict_budget is not None:
                solver.conf_budget(conflict_budget)
            if conflict_budget is None and seconds is None:
                answer = solver.solve()
            else:
                answer = solver.solve_limited(expect_interrupt=seconds is not None)
        finally:
            if timer is not None:
                timer.cancel()
        if not answer:
            return answer, None
        model = set(v for v in solver.get_model() if v > 0)
    choice = []
    for n in range((1 << depth) - 1):
        choice.append(next(c for c in range(len(splits)) if pool.id(("node", n, c)) in model))
    return True, choice
