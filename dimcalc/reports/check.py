"""Every dimension of a class at once: the library side of ``dimcalc check``.

:func:`check_class` runs the solvers named in :data:`DIMENSION_KEYS` under one
shared time budget and returns a :class:`CheckReport`, whose ``to_json()`` is
the object of interface spec §2.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import littlestone, vc
from .._json import to_jsonable
from ..classes.hypothesis_class import HypothesisClass
from ..dims import SOLVERS as MORE_SOLVERS
from ..errors import InvalidParameterError, InvalidWitnessError
from ..param_validation import CLASS, JOBS, PROGRESS, TIME_LIMIT, validate_params
from ..psi import psi_family
from ..results import DimensionResult
from ..search import pool
from ..search.budget import Deadline, Progress
from ..validation import check_jobs, check_time_limit
from ..vc import binary_twin
from ..vc.sparse_check import sparse_solvers

__all__ = ["check_class", "CheckReport", "CheckInterrupted", "DIMENSION_KEYS", "EXTRA_KEYS", "ALL_KEYS", "PSI_FAMILIES"]

#: The keys of spec §2 in report order, then dimcalc's extensions.
DIMENSION_KEYS = (
    "vc",
    "natarajan",
    "graph",
    "littlestone",
    "multiclass_littlestone",
    "psi_littlestone",
    "psi_littlestone_uniform",
    "binary_restrictions",
)
#: The dimensions of :mod:`dimcalc.dims`: asked for by name or with ``--dims all``, not run by default.
EXTRA_KEYS = ("threshold", "ds", "dual_vc", "star", "teaching", "recursive_teaching")
#: Every key ``check_class`` knows, in report order.
ALL_KEYS = DIMENSION_KEYS + EXTRA_KEYS
PSI_FAMILIES = ("N", "bin", "B")
#: The solvers that take ``jobs`` (one search on many cores).
TAKE_JOBS = ("vc", "natarajan", "graph", "littlestone", "multiclass_littlestone")
#: The three notions of shattering: one search on a binary class (:func:`dimcalc.vc.binary_twin`).
SHATTERING = ("vc", "natarajan", "graph")


def _solvers(user_family: Any = None) -> dict[str, Callable[..., Any]]:
    families: list[tuple[str, Any]] = [(f, f) for f in PSI_FAMILIES]
    if user_family is not None:
        families.append(("user", user_family))

    def psi(uniform: bool) -> Callable[..., dict[str, DimensionResult]]:
        def run(H: HypothesisClass, *, time_limit: float | None, progress: bool) -> dict[str, DimensionResult]:
            deadline = Deadline(time_limit)
            out = {}
            for i, (key, fam) in enumerate(families):
                share = deadline.share(len(families) - i)
                out[key] = littlestone.psi_littlestone_dimension(
                    H, fam, uniform=uniform, time_limit=share, progress=progress
                )
            return out

        return run

    def restrictions(H: HypothesisClass, *, time_limit: float | None, progress: bool) -> list[DimensionResult]:
        return list(littlestone.binary_restriction_littlestone(H, time_limit=time_limit).parts)

    return {
        "vc": vc.vc_dimension,
        "natarajan": vc.natarajan_dimension,
        "graph": vc.graph_dimension,
        "littlestone": littlestone.littlestone_dimension,
        "multiclass_littlestone": littlestone.multiclass_littlestone_dimension,
        "psi_littlestone": psi(False),
        "psi_littlestone_uniform": psi(True),
        "binary_restrictions": restrictions,
        **MORE_SOLVERS,
    }


def _tighter(old: Any, new: Any) -> Any:
    """Combine two runs of one dimension: the larger proven lower bound (with its witness), the smaller upper."""
    if isinstance(old, dict):
        return {k: _tighter(old[k], new[k]) for k in old}
    if isinstance(old, list):
        return [_tighter(a, b) for a, b in zip(old, new)]
    if not isinstance(old, DimensionResult) or old.exact or old.lower is None:
        return old
    if new.exact:
        return new
    best = new if (new.lower or 0) > (old.lower or 0) else old
    assert best.lower is not None  # old's is (checked above); new's is when it wins
    uppers = [u for u in (old.upper, new.upper) if u is not None]
    upper = min(uppers) if uppers else None
    stats = dict(best.stats)
    return DimensionResult.bounds(best.kind, best.lower, upper, best.witness, **stats)


def _payloads(keys: Sequence[str], deadline: Deadline, workers: int) -> Iterator[tuple[str, float | None]]:
    """``(key, time limit)`` for each dimension, its share taken when a worker starts it.

    A dimension started with ``left`` dimensions not yet started (itself
    included) gets ``1 / ceil(left / workers)`` of the time left: the workers
    run the rest side by side, and time a dimension does not use flows to the
    later ones -- each gets at least the share one process would give it.
    """
    for i, key in enumerate(keys):
        yield key, deadline.share(math.ceil((len(keys) - i) / workers))


def _run_parallel(
    H: HypothesisClass,
    ordered: list[str],
    family: Any,
    deadline: Deadline,
    jobs: int,
    scheduler: Any,
    report: CheckReport,
    log: Progress,
) -> None:
    """The dimensions of ``ordered`` side by side (:func:`dimcalc.search.pool.run_tasks`), under one deadline.

    Like one process, in two passes: first every dimension, then the time
    still left goes to the dimensions that were stopped, which run again and
    keep the tighter of the two runs' proven bounds.
    """
    run = functools.partial(_solve_task, H, family)
    with pool.connected(scheduler, deadline) as client:
        workers = jobs if client is None else max(1, sum(client.nthreads().values()))
        for again in (False, True):
            keys = [k for k in ordered if not again or not all(r.exact for r in _results(report.dimensions[k]))]
            if again and (not keys or (deadline.share(math.ceil(len(keys) / workers)) or 1.0) < 0.05):
                break
            payloads = _payloads(keys, deadline, workers)
            for _, _, (key, value, seconds) in pool.run_tasks(run, payloads, jobs=jobs, scheduler=client):
                log.update(f"{key} {'again ' if again else ''}done", force=True)
                report.dimensions[key] = _tighter(report.dimensions[key], value) if again else value
                report.seconds[key] = report.seconds.get(key, 0.0) + seconds
    report.dimensions = {k: report.dimensions[k] for k in ordered}


def _solve_task(H: HypothesisClass, family: Any, payload: tuple[str, float | None]) -> tuple[str, Any, float]:
    """One dimension of :func:`check_class` in a worker: ``payload`` is ``(key, time limit)``."""
    key, time_limit = payload
    return _solve_one(H, key, family, time_limit)


#: Proven inequalities ``small <= big`` between dimensions of every class, with their source: a
#: stopped search for ``small`` takes ``big``'s proven upper bound.  Names are report paths
#: (``psi_littlestone.bin``: the ``bin`` entry of ``psi_littlestone``; ``binary_restrictions.max``:
#: every entry of ``binary_restrictions``).
RELATIONS: tuple[tuple[str, str, str], ...] = (
    # Ben-David, Cesa-Bianchi, Haussler, Long 1995, recalled in BGS §1.2: a Natarajan-shattered set with
    # f0, f1 is graph-shattered with f = f1
    ("natarajan", "graph", "BDCHL95 (BGS §1.2)"),
    # Littlestone 1987: a shattered set, queried in any order, is a mistake tree
    ("vc", "littlestone", "Littlestone 1987"),
    # the same tree with edge labels f0(x), f1(x) (BGS Defs 2.10-2.13)
    ("natarajan", "multiclass_littlestone", "BGS Defs 2.10-2.13"),
    # BGS Lemma 4.5: MLD = Ψ^N-LD (both directions)
    ("multiclass_littlestone", "psi_littlestone.N", "BGS Lemma 4.5"),
    ("psi_littlestone.N", "multiclass_littlestone", "BGS Lemma 4.5"),
    # BGS Claim 4.7: Ψ^N-LD <= Ψ^bin-LD <= Ψ^B-LD
    ("psi_littlestone.N", "psi_littlestone.bin", "BGS Claim 4.7"),
    ("psi_littlestone.bin", "psi_littlestone.B", "BGS Claim 4.7"),
    # BGS Claim 4.6: max_j LDim(H|_j) <= Ψ^bin-LD-uniform <= Ψ^bin-LD; its first line (a uniformly
    # labelled shattered tree is a labelled one) holds for every family
    ("binary_restrictions.max", "psi_littlestone_uniform.bin", "BGS Claim 4.6"),
    ("psi_littlestone_uniform.N", "psi_littlestone.N", "BGS Claim 4.6 (proof, any Ψ)"),
    ("psi_littlestone_uniform.bin", "psi_littlestone.bin", "BGS Claim 4.6"),
    ("psi_littlestone_uniform.B", "psi_littlestone.B", "BGS Claim 4.6 (proof, any Ψ)"),
    ("psi_littlestone_uniform.user", "psi_littlestone.user", "BGS Claim 4.6 (proof, any Ψ)"),
    # Natarajan <= DS <= graph and RTD <= TD: docs/dimensions.md (DS14/BCDMY22; ZLHZ11)
    ("natarajan", "ds", "DS14 / BCDMY22"),
    ("ds", "graph", "DS14 / BCDMY22"),
    ("recursive_teaching", "teaching", "ZLHZ11"),
)

#: On a binary class these are equal (each group shares its tightest upper bound).  VC = Natarajan =
#: graph: with two labels f0 and f1 must differ everywhere on S, so f0 = 1 - f1 and every split is a
#: shattering pattern (BGS §1.2).  LDim = MLD = Ψ-LD for Ψ^N, Ψ^bin, Ψ^B, uniform or not, = LDim(H|_1):
#: with k = 1 a collapsing map that separates the two labels is the identity or its flip (BGS Def 4.1),
#: so a Ψ-labelled tree is an io-labelled tree with its children possibly swapped (Defs 2.10, 4.2), and
#: H|_1 = H (Def 3.3).
BINARY_EQUAL: tuple[tuple[str, ...], ...] = (
    ("vc", "natarajan", "graph"),
    (
        "littlestone",
        "multiclass_littlestone",
        "psi_littlestone.N",
        "psi_littlestone.bin",
        "psi_littlestone.B",
        "psi_littlestone_uniform.N",
        "psi_littlestone_uniform.bin",
        "psi_littlestone_uniform.B",
        "binary_restrictions.max",
    ),
)


def _paths(dimensions: dict[str, Any], name: str) -> list[tuple[str, Any]]:
    """``(path, result)`` pairs a relation name stands for (``binary_restrictions.max``: every entry)."""
    key, _, sub = name.partition(".")
    value = dimensions.get(key)
    if isinstance(value, DimensionResult) and not sub:
        return [(name, value)]
    if isinstance(value, dict) and sub in value:
        return [(name, value[sub])]
    if isinstance(value, list) and sub == "max":
        return [(f"{key}.{i}", r) for i, r in enumerate(value, start=1)]
    return []


def _upper_of(dimensions: dict[str, Any], name: str) -> int | None:
    """The proven upper bound of ``name`` (``binary_restrictions.max``: the largest of the entries')."""
    results = [r for _, r in _paths(dimensions, name)]
    if not results or any(r.upper is None or r.lower is None for r in results):
        return None
    return max(r.upper for r in results) if name.endswith(".max") else results[0].upper


def _lower_upper(dimensions: dict[str, Any], name: str, upper: int, big: str, source: str) -> bool:
    """Replace the results behind ``name`` whose upper bound is above ``upper`` (``True`` if any was)."""
    changed = False
    key, _, sub = name.partition(".")
    for path, r in _paths(dimensions, name):
        if r.exact or r.lower is None or (r.upper is not None and r.upper <= upper):
            continue
        stats = dict(r.stats, upper_from=big, upper_relation=source)
        new = DimensionResult.bounds(r.kind, r.lower, max(r.lower, upper), r.witness, **stats)
        if isinstance(dimensions[key], DimensionResult):
            dimensions[key] = new
        elif isinstance(dimensions[key], dict):
            dimensions[key] = {**dimensions[key], sub: new}
        else:
            index = int(path.rsplit(".", 1)[1]) - 1
            dimensions[key] = [new if i == index else x for i, x in enumerate(dimensions[key])]
        changed = True
    return changed


def _node_map(node: dict, num_labels: int) -> list[int | None] | None:
    """A tree node's test as a collapsing map over the labels (``None``: not a tree node dimcalc knows)."""
    if "map" in node:
        return list(node["map"])
    if "labels" in node:
        w0, w1 = node["labels"]
        return [0 if label == w0 else 1 if label == w1 else None for label in range(num_labels)]
    if num_labels == 2:  # a binary mistake tree: the identity map
        return [0, 1]
    return None


def _retag_tree(tree: Any, kind: str, num_labels: int) -> dict | None:
    """The same shattered tree written as a witness of ``kind`` (``None`` when it cannot be).

    Every node keeps its point and children; its test is rewritten: a mistake tree's identity map
    and an io-labelled node's edge labels ``(w, w')`` are the collapsing map ``φ_{w,w'}`` (BGS
    Lemma 4.5), a collapsing map that sends one label to 0, one to 1 and the rest to ``*`` is the
    io-labelled node ``(w, w')``, a map stays a map (BGS Claim 4.7: Ψ^bin ⊆ Ψ^B; Claim 4.6: a
    uniform tree is a tree).  Whether the rewritten tree proves anything is the target checker's
    decision: :func:`_carry_lowers` certifies it before using it.
    """
    if not isinstance(tree, dict):
        return None
    if "hypothesis" in tree:
        return {"hypothesis": tree["hypothesis"]}
    phi = _node_map(tree, num_labels)
    children = tree.get("children")
    if phi is None or not isinstance(children, list) or len(children) != 2:
        return None
    kids = [_retag_tree(c, kind, num_labels) for c in children]
    if kids[0] is None or kids[1] is None:
        return None
    if kind == "littlestone":
        if phi == [1, 0]:
            kids = kids[::-1]
        elif phi != [0, 1]:
            return None
        return {"point": tree["point"], "children": kids}
    if kind == "multiclass_littlestone":
        zeros = [label for label, v in enumerate(phi) if v == 0]
        ones = [label for label, v in enumerate(phi) if v == 1]
        if len(zeros) != 1 or len(ones) != 1:
            return None
        return {"point": tree["point"], "labels": [zeros[0], ones[0]], "children": kids}
    return {"point": tree["point"], "map": phi, "children": kids}


def _witness_as(tree: Any, name: str, num_labels: int) -> Any:
    """``tree`` as the witness object of report path ``name`` (``None`` when it cannot be one)."""
    from ..witnesses.trees import MistakeTree, MulticlassTree, PsiTree

    key, _, family = name.partition(".")
    if key == "littlestone":
        body = _retag_tree(tree, "littlestone", num_labels)
        return None if body is None else MistakeTree(body)
    if key == "multiclass_littlestone":
        body = _retag_tree(tree, "multiclass_littlestone", num_labels)
        return None if body is None else MulticlassTree(body)
    if key in ("psi_littlestone", "psi_littlestone_uniform") and family in PSI_FAMILIES:
        body = _retag_tree(tree, "psi", num_labels)
        return None if body is None else PsiTree(body, family=family, uniform=key == "psi_littlestone_uniform")
    return None


#: Report paths whose witnesses are trees :func:`_retag_tree` can rewrite.
_TREE_PATHS = ("littlestone", "multiclass_littlestone") + tuple(
    f"{key}.{family}" for key in ("psi_littlestone", "psi_littlestone_uniform") for family in PSI_FAMILIES
)


def _carry_lowers(dimensions: dict[str, Any], pairs: list[tuple[str, str, str]], H: HypothesisClass) -> bool:
    """Raise the lower bound of a stopped ``big`` to a ``small``'s, with the ``small``'s tree rewritten as
    ``big``'s witness and certified by ``big``'s own checker first (never an unwitnessed bound)."""
    changed = False
    for small, big, source in pairs:
        if small not in _TREE_PATHS or big not in _TREE_PATHS:
            continue
        a, b = _paths(dimensions, small), _paths(dimensions, big)
        if not a or not b:
            continue
        r, target = a[0][1], b[0][1]
        if r.lower is None or target.lower is None or target.exact or r.lower <= target.lower:
            continue
        witness = _witness_as(r.witness, big, H.num_labels)
        try:
            if witness is None or witness.certify(H) != r.lower:
                continue
        except InvalidWitnessError:
            continue
        upper = target.upper if target.upper is None else max(target.upper, r.lower)
        stats = dict(target.stats, lower_from=small, lower_relation=source)
        new = DimensionResult.bounds(target.kind, r.lower, upper, witness, **stats)
        key, _, sub = big.partition(".")
        dimensions[key] = {**dimensions[key], sub: new} if sub else new
        changed = True
    return changed


def _tighten_by_relations(dimensions: dict[str, Any], binary: bool = False, H: HypothesisClass | None = None) -> None:
    """Share proven bounds along :data:`RELATIONS` (and :data:`BINARY_EQUAL` on a binary class) until
    nothing changes; results are replaced, not mutated.  A stopped ``small`` takes ``big``'s upper
    bound; with ``H``, a stopped ``big`` takes a ``small``'s larger lower bound when the ``small``'s
    tree, rewritten for ``big`` (:func:`_retag_tree`), passes ``big``'s checker (stats ``lower_from``,
    ``lower_relation`` name where it came from)."""
    pairs = [(small, big, source) for small, big, source in RELATIONS]
    if binary:
        for group in BINARY_EQUAL:
            pairs += [(a, b, "equal on binary classes (see BINARY_EQUAL)") for a in group for b in group if a != b]
    for _ in range(len(pairs) + 1):
        changed = H is not None and _carry_lowers(dimensions, pairs, H)
        for small, big, source in pairs:
            upper = _upper_of(dimensions, big)
            if upper is not None and _lower_upper(dimensions, small, upper, big, source):
                changed = True
        if not changed:
            break


def _results(value: Any) -> list[DimensionResult]:
    if isinstance(value, DimensionResult):
        return [value]
    if isinstance(value, dict):
        return [r for v in value.values() for r in _results(v)]
    if isinstance(value, list):
        return [r for v in value for r in _results(v)]
    return []


@dataclass
class CheckReport:
    """The dimensions of one class, as computed by :func:`check_class`.

    ``dimensions`` maps each key of :data:`DIMENSION_KEYS` that was asked for
    to a :class:`DimensionResult`, a dict of them (``psi_*``: family -> result)
    or a list of them (``binary_restrictions``: one per bit, i = 1 first).
    """

    hclass: HypothesisClass
    dimensions: dict[str, Any] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    #: The dimension being computed when the check was interrupted (Ctrl-C), else ``None``.
    interrupted: str | None = None

    @property
    def stopped_by(self) -> list[str]:
        """The limits that stopped searches (``"time limit"``, ``"memory limit"``), as the results record them."""
        seen: list[str] = []
        for r in _results(self.dimensions):
            label = r.stats.get("stopped") if not r.exact else None
            if isinstance(label, str) and label not in seen:
                seen.append(label)
        return seen

    @property
    def complete(self) -> bool:
        """True when every result is exact (or undefined for this class)."""
        return all(r.exact for r in _results(self.dimensions))

    def verify(self) -> bool:
        """Re-check every witness with dimcalc's independent checkers."""
        return all(r.verify(self.hclass) for r in _results(self.dimensions))

    def to_json(self) -> dict:
        """The spec §2 object (``binary_restrictions`` is a dimcalc extension: a list, i = 1 first)."""
        return {"class": self.hclass.summary(), "dimensions": to_jsonable(self.dimensions)}

    def to_pandas(self) -> Any:
        """One row per result (:func:`dimcalc.display.frames.check_frame`; needs the ``pandas`` extra)."""
        from ..display.frames import check_frame

        return check_frame(self)

    def _repr_html_(self) -> str:  # Jupyter display: dimcalc.display (imported when a notebook asks)
        from ..display import check_report_html

        return check_report_html(self)


class CheckInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`check_class`; ``report`` holds the dimensions finished before it (proven results).

    A :class:`KeyboardInterrupt`, so code that does not know it still stops as on any Ctrl-C.
    """

    def __init__(self, report: CheckReport) -> None:
        super().__init__(f"interrupted during {report.interrupted}")
        self.report = report


def _solve_one(H: HypothesisClass, key: str, family: Any, time_limit: float | None) -> tuple[str, Any, float]:
    """Run one dimension of :func:`check_class` (in a worker process when ``jobs > 1``)."""
    start = Deadline(None, memory_limit=None)
    value = sparse_solvers(H, _solvers(family))[key](H, time_limit=time_limit, progress=False)
    return key, value, start.elapsed()


@validate_params(H=CLASS, time_limit=TIME_LIMIT, progress=PROGRESS, jobs=JOBS)
def check_class(
    H: HypothesisClass,
    dims: Sequence[str] | None = None,
    *,
    time_limit: float | None = None,
    progress: bool = False,
    family: Any = None,
    jobs: int = 1,
    scheduler: Any = None,
) -> CheckReport:
    """Compute the dimensions of ``H`` named in ``dims`` (all of :data:`DIMENSION_KEYS` by default; ``"all"``: :data:`ALL_KEYS`).

    Parameters
    ----------
    H : HypothesisClass
    dims : sequence of str or "all", optional
        Keys of :data:`ALL_KEYS` (:data:`DIMENSION_KEYS`, then the
        :data:`EXTRA_KEYS` of :mod:`dimcalc.dims`, which run only when named).
    time_limit : float, optional
        Seconds for the whole check, from the call to the return.  Each solver
        first gets an equal share of what is left (time a solver does not use
        flows to the next); then the time still left goes to the dimensions
        that were stopped, which run again and keep the tighter of the two
        runs' proven bounds.  A solver stopped by its share reports proven
        bounds (``exact=False``).
    progress : bool
        Progress lines on stderr.
    family : PsiFamily or iterable of maps, optional
        A user family of collapsing maps (BGS Def 4.3; see :func:`dimcalc.psi.psi_family`);
        when given, ``psi_littlestone`` and ``psi_littlestone_uniform`` also
        have a ``"user"`` entry for it.
    jobs : int
        Worker processes for the dimensions (independent searches).  ``1``
        (the default) runs everything in this process; with ``jobs > 1`` the
        dimensions run side by side in a process pool, each with the time
        left divided by the rounds still to come (``ceil(dimensions not
        started / jobs)``, taken as each dimension starts), then, like one
        process, the time still left goes to the dimensions that were stopped.
        Every dimension gets at least the time one process gives it, so the
        bounds are never weaker.  Results and witnesses are those of one
        process.  A single dimension gets the ``jobs`` itself (one search on
        many cores) when its solver takes ``jobs``.
    scheduler : distributed.Client or str, optional
        Run the dimensions on a Dask cluster (``"dask://HOST:PORT"`` or a
        client) instead of local processes, the same way; an address where no
        scheduler answers is refused at once
        (:class:`~dimcalc.errors.InvalidParameterError`).

    Returns
    -------
    CheckReport

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 0, 1], [0, 1, 1], [1, 1, 1]])
    >>> report = check_class(H, ["vc", "littlestone"])
    >>> report.dimensions["vc"].value, report.dimensions["littlestone"].value
    (1, 1)
    >>> report.verify()
    True
    """
    time_limit = check_time_limit(time_limit, "check_class")
    jobs = check_jobs(jobs, "check_class")
    scheduler = pool.check_scheduler(scheduler, "check_class")
    if dims is None:
        dims = DIMENSION_KEYS
    elif dims == "all":
        dims = ALL_KEYS
    for d in dims:
        if d not in ALL_KEYS:
            raise InvalidParameterError(
                f"The 'dims' parameter of check_class must name keys among {', '.join(ALL_KEYS)}. Got {d!r} instead."
            )
    if family is not None:
        family = psi_family(family, H.num_labels)
    solvers = sparse_solvers(H, _solvers(family))  # a big sparse class: what it can bound (dimcalc.vc.sparse_check)
    deadline = Deadline(time_limit)
    report = CheckReport(H)
    log = Progress(progress, "check")
    ordered = [d for d in ALL_KEYS if d in dims]
    # On a binary class VC, Natarajan and graph are one search: run the first asked, copy it to the others.
    twins = [d for d in SHATTERING if d in ordered][1:] if H.is_binary else []
    ordered = [d for d in ordered if d not in twins]
    if (jobs > 1 or scheduler is not None) and len(ordered) > 1:
        _run_parallel(H, ordered, family, deadline, jobs, scheduler, report, log)
        _finish(report, twins)
        return report
    # One dimension (or one process): the solvers that take `jobs` get it.
    many = {"jobs": jobs} if jobs > 1 else {}
    key = ordered[0] if ordered else ""
    try:
        for i, key in enumerate(ordered):
            log.update(f"{key} ...", force=True)
            share = deadline.share(len(ordered) - i)
            start = Deadline(None, memory_limit=None)
            report.dimensions[key] = solvers[key](
                H, time_limit=share, progress=progress, **(many if key in TAKE_JOBS else {})
            )
            report.seconds[key] = start.elapsed()
        # Second pass: what is left of the budget goes to the dimensions that were stopped.
        unfinished = [k for k in ordered if not all(r.exact for r in _results(report.dimensions[k]))]
        for i, key in enumerate(unfinished):
            share = deadline.share(len(unfinished) - i)
            if share is None or share < 0.05:
                break
            log.update(f"{key}: again with the time left ...", force=True)
            start = Deadline(None, memory_limit=None)
            again = solvers[key](H, time_limit=share, progress=progress, **(many if key in TAKE_JOBS else {}))
            report.dimensions[key] = _tighter(report.dimensions[key], again)
            report.seconds[key] += start.elapsed()
    except KeyboardInterrupt:
        # Ctrl-C: what was proven so far is kept (a dimension's own run, interrupted, is not)
        report.interrupted = key
        report.dimensions = {k: v for k, v in report.dimensions.items() if k in ordered}
        _finish(report, [t for t in twins if any(d in report.dimensions for d in SHATTERING)])
        raise CheckInterrupted(report) from None
    _finish(report, twins)
    return report


def _finish(report: CheckReport, twins: list[str]) -> None:
    """Fill the twins of a binary class's shattering search, in report order; tighten by :data:`RELATIONS`."""
    if twins:
        first = next(d for d in SHATTERING if d in report.dimensions)
        for key in twins:
            report.dimensions[key] = binary_twin(report.dimensions[first], key)
            report.seconds[key] = 0.0
        report.dimensions = {k: report.dimensions[k] for k in ALL_KEYS if k in report.dimensions}
    _tighten_by_relations(report.dimensions, binary=report.hclass.is_binary, H=report.hclass)
