"""Every dimension of a class at once: the library side of ``dimcalc check``.

:func:`check_class` runs the solvers named in :data:`DIMENSION_KEYS` under one
shared time budget and returns a :class:`CheckReport`, whose ``to_json()`` is
the object of interface spec §2.
"""

from __future__ import annotations

import functools
import inspect
import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

from .. import littlestone, vc
from .._json import to_jsonable
from ..classes.hypothesis_class import HypothesisClass
from ..dims import SOLVERS as MORE_SOLVERS
from ..errors import InvalidParameterError, InvalidWitnessError
from ..littlestone.api import GREEDY_MIN_CELLS
from ..littlestone.greedy import greedy_lower_bound
from ..littlestone.seeds import SeedTree
from ..param_validation import CLASS, JOBS_OR_AUTO, PROGRESS, TIME_LIMIT, validate_params
from ..psi import psi_family
from ..results import DimensionResult
from ..search import pool
from ..search.budget import Deadline, Progress
from ..validation import check_jobs_or_auto, check_time_limit
from ..vc import binary_twin
from ..vc.sparse_check import needs_sparse_reports, sparse_solvers
from .relations import PSI_FAMILIES, TREE_PATHS, raise_lower, witness_as
from .relations import results_of as _results
from .relations import tighten_by_relations as _tighten_by_relations

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


def _spread(solver: Callable[..., Any], jobs: int | None, scheduler: Any) -> dict[str, Any]:
    """The keywords of one search on many cores that ``solver`` takes: ``jobs`` (when given: ``None`` leaves the
    solver its own default) and ``scheduler`` (when given), each passed only when the solver's signature names it
    (the VC-type solvers take both; the others as they gain them)."""
    try:
        names = inspect.signature(solver).parameters
    except (TypeError, ValueError):  # a callable without a signature: nothing extra
        return {}
    wanted = {"jobs": jobs, "scheduler": scheduler}
    return {k: v for k, v in wanted.items() if v is not None and k in names}


#: The three notions of shattering: one search on a binary class (:func:`dimcalc.vc.binary_twin`).
SHATTERING = ("vc", "natarajan", "graph")


def _solvers(user_family: Any = None) -> dict[str, Callable[..., Any]]:
    families: list[tuple[str, Any]] = [(f, f) for f in PSI_FAMILIES]
    if user_family is not None:
        families.append(("user", user_family))

    def psi(uniform: bool) -> Callable[..., dict[str, DimensionResult]]:
        def run(
            H: HypothesisClass, *, time_limit: float | None, progress: bool, seed_tree: dict[str, Any] | None = None
        ) -> dict[str, DimensionResult]:
            deadline = Deadline(time_limit)
            out = {}
            for i, (key, fam) in enumerate(families):
                share = deadline.share(len(families) - i)
                seed = (seed_tree or {}).get(key)
                out[key] = littlestone.psi_littlestone_dimension(
                    H, fam, uniform=uniform, time_limit=share, progress=progress, seed_tree=seed
                )
            return out

        return run

    def restrictions(H: HypothesisClass, *, time_limit: float | None, progress: bool, seed_tree: Any = None) -> list:
        return list(littlestone.binary_restriction_littlestone(H, time_limit=time_limit, seed_tree=seed_tree).parts)

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


def _seeded(solvers: dict[str, Callable[..., Any]], seeds: dict[str, SeedTree]) -> dict[str, Callable[..., Any]]:
    """``solvers`` with the greedy tree's certified copies (:func:`_greedy_first`) bound as ``seed_tree``: each
    Littlestone-type solver starts from its copy instead of building the greedy tree again (``psi_*``: a dict
    family -> copy; ``binary_restrictions``: the LDim copy).  Passed only to a solver that names ``seed_tree``."""
    out = dict(solvers)
    for key, solver in solvers.items():
        mine = {p.partition(".")[2]: s for p, s in seeds.items() if p.partition(".")[0] == key}
        seed: Any = mine if key.startswith("psi_") else seeds.get(key)
        seed = seeds.get("littlestone") if key == "binary_restrictions" else seed
        if not seed:
            continue
        try:
            names = inspect.signature(solver).parameters
        except (TypeError, ValueError):
            continue
        if "seed_tree" in names:
            out[key] = functools.partial(solver, seed_tree=seed)
    return out


#: The share of a check's budget the greedy mistake tree may take before the searches (it returns as
#: soon as it completes one tree, from ``floor(log2 |H|)`` down).
GREEDY_SHARE = 3


def _greedy_first(H: HypothesisClass, ordered: Sequence[str], deadline: Deadline, log: Progress) -> Any:
    """Cheap witnesses before the expensive searches: on a big binary class with a Littlestone-type
    dimension asked, the greedy mistake tree (:func:`dimcalc.littlestone.greedy.greedy_lower_bound`)
    under ``1 / GREEDY_SHARE`` of the time left.

    Returns ``(depth, seeds)`` (``(0, {})`` when not run or no tree was completed): a complete
    shattered mistake tree certifies ``LDim >= depth``, and on a binary class the same tree, re-tagged,
    certifies it for MLD and every Ψ-Littlestone dimension (:data:`~dimcalc.reports.relations.BINARY_EQUAL`);
    ``seeds`` maps each asked report path of :data:`~dimcalc.reports.relations.TREE_PATHS` to its
    copy of the tree, certified at ``depth`` by that path's own checker
    (:class:`~dimcalc.littlestone.seeds.SeedTree`): the solvers start from it (``seed_tree=``).
    """
    wanted = {*ordered, *(("littlestone",) if "binary_restrictions" in ordered else ())}  # H|_1 = H: its seed
    asked = any(path.partition(".")[0] in wanted for path in TREE_PATHS)
    if not asked or not H.is_binary or needs_sparse_reports(H) or H.log2_size() < 2:
        return 0, {}
    if H.n_distinct * H.n_points < GREEDY_MIN_CELLS:  # small: the exact search settles it sooner
        return 0, {}
    log.update("greedy mistake tree ...", force=True)
    depth, tree = greedy_lower_bound(H, H.log2_size(), Deadline(deadline.share(GREEDY_SHARE)))
    log.update(f"greedy mistake tree: depth {depth}", force=True)
    witnesses: dict[str, SeedTree] = {}
    if tree is None:
        return depth, witnesses
    # Each asked path's copy of the tree, certified now by its own checker (inside the check's budget).
    for path in TREE_PATHS:
        if path.partition(".")[0] not in wanted or deadline.expired():
            continue
        witness = witness_as(tree, path, H.num_labels)
        if witness is None:
            continue
        try:
            seed = SeedTree.certify(H, witness, path.replace(".", ":"))
        except InvalidWitnessError:
            continue
        if seed.depth == depth:
            witnesses[path] = seed
    return depth, witnesses


def _seed_greedy(report: CheckReport, greedy: Any) -> None:
    """Raise every stopped Littlestone-type result below the greedy tree to its depth, each with its copy
    of the tree certified by its own checker (:func:`_greedy_first`); those results are not re-checked by
    :meth:`CheckReport.verify`."""
    depth, seeds = greedy
    for path, seed in seeds.items():
        witness = seed.witness()
        h = report.hclass
        raised = raise_lower(
            report.dimensions, path, depth, None, h, "greedy mistake tree", "Littlestone 1987", witness
        )
        key, _, sub = path.partition(".")
        result = report.dimensions.get(key)
        result = result.get(sub) if sub and isinstance(result, dict) else result
        if not isinstance(result, DimensionResult):
            continue
        same = (  # the solver's own tree is this certified one (same checker, same tree, same bound)
            type(result.witness) is type(witness)
            and getattr(result.witness, "kind", None) == getattr(witness, "kind", None)
            and result.lower == depth
            and result.witness == witness
        )
        if raised or same:
            report.certified.append(result)


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
    greedy_seeds: dict[str, SeedTree] | None = None,
) -> None:
    """The dimensions of ``ordered`` side by side (:func:`dimcalc.search.pool.run_tasks`), under one deadline.

    Like one process, in two passes: first every dimension, then the time
    still left goes to the dimensions that were stopped, which run again and
    keep the tighter of the two runs' proven bounds.
    """
    run = functools.partial(_solve_task, H, family, greedy_seeds or {})
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


def _solve_task(
    H: HypothesisClass, family: Any, seeds: dict[str, SeedTree], payload: tuple[str, float | None]
) -> tuple[str, Any, float]:
    """One dimension of :func:`check_class` in a worker: ``payload`` is ``(key, time limit)``."""
    key, time_limit = payload
    return _solve_one(H, key, family, time_limit, seeds)


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
    #: Results whose witness the check itself certified with their own checker while building the report
    #: (the greedy tree's copies, :func:`_seed_greedy`; trees carried along the relations,
    #: :func:`~dimcalc.reports.relations.raise_lower`): :meth:`verify` does not check them twice.
    certified: list[DimensionResult] = field(default_factory=list, repr=False, compare=False)

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
        """Re-check every witness with dimcalc's independent checkers (once: a result in :attr:`certified`
        passed its checker when the check built it)."""
        done = {id(r) for r in self.certified}
        return all(id(r) in done or r.verify(self.hclass) for r in _results(self.dimensions))

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


def _solve_one(
    H: HypothesisClass, key: str, family: Any, time_limit: float | None, seeds: dict[str, SeedTree] | None = None
) -> tuple[str, Any, float]:
    """Run one dimension of :func:`check_class` (in a worker process when ``jobs > 1``: on one core)."""
    start, solver = Deadline(None, memory_limit=None), _seeded(sparse_solvers(H, _solvers(family)), seeds or {})[key]
    value = solver(H, time_limit=time_limit, progress=False, **_spread(solver, 1, None))
    return key, value, start.elapsed()


@validate_params(H=CLASS, time_limit=TIME_LIMIT, progress=PROGRESS, jobs=JOBS_OR_AUTO)
def check_class(
    H: HypothesisClass,
    dims: Sequence[str] | None = None,
    *,
    time_limit: float | None = None,
    progress: bool = False,
    family: Any = None,
    jobs: int | None = None,
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
    jobs : int, optional
        Worker processes for the dimensions (independent searches).  ``None``
        (the default; each solver's own default: a sparse class's VC search
        on a thread a core) or ``1`` (one core) runs everything in this
        process; with ``jobs > 1`` the dimensions run side by side in a
        process pool, each with the time left divided by the rounds still to
        come (``ceil(dimensions not started / jobs)``, taken as each
        dimension starts), then, like one process, the time still left goes
        to the dimensions that were stopped.  Every dimension gets at least
        the time one process gives it, so the bounds are never weaker.
        Results and witnesses are those of one process.  A single dimension
        gets the ``jobs`` itself (one search on many cores) when its solver
        takes ``jobs``.
    scheduler : distributed.Client or str, optional
        Run the dimensions on a Dask cluster (``"dask://HOST:PORT"`` or a
        client) instead of local processes, the same way; an address where no
        scheduler answers is refused at once
        (:class:`~dimcalc.errors.InvalidParameterError`).  A single
        dimension (or the one search of VC, Natarajan and graph on a binary
        class) is sent to the cluster as the pieces of its search when its
        solver takes ``scheduler`` (the VC-type solvers do); one that does
        not runs here.

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
    jobs = check_jobs_or_auto(jobs, "check_class")
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
    deadline = Deadline(time_limit)
    report = CheckReport(H)
    log = Progress(progress, "check")
    ordered = [d for d in ALL_KEYS if d in dims]
    # On a binary class VC, Natarajan and graph are one search: run the first asked, copy it to the others.
    twins = [d for d in SHATTERING if d in ordered][1:] if H.is_binary else []
    ordered = [d for d in ordered if d not in twins]
    greedy: Any = (0, {})
    try:
        greedy = _greedy_first(H, ordered, deadline, log)
    except KeyboardInterrupt:
        report.interrupted = "greedy mistake tree"
        raise CheckInterrupted(report) from None
    # a big sparse class: what it can bound (dimcalc.vc.sparse_check); the Littlestone-type solvers start
    # from the greedy tree's certified copies instead of building it again
    solvers = _seeded(sparse_solvers(H, _solvers(family)), greedy[1])
    if ((jobs or 1) > 1 or scheduler is not None) and len(ordered) > 1:
        try:
            _run_parallel(H, ordered, family, deadline, jobs or 1, scheduler, report, log, greedy[1])
        except KeyboardInterrupt:
            # Ctrl-C: the dimensions the workers finished are kept (first-pass results until replaced), the rest named
            report.interrupted = ", ".join(k for k in ordered if k not in report.dimensions) or "the second pass"
            _interrupted(report, ordered, twins, greedy)
        _finish(report, twins, greedy)
        return report
    # One dimension (or one process): the solvers that take `jobs` or `scheduler` get them.
    key = ordered[0] if ordered else ""
    try:
        for i, key in enumerate(ordered):
            log.update(f"{key} ...", force=True)
            share = deadline.share(len(ordered) - i)
            start = Deadline(None, memory_limit=None)
            spread = _spread(solvers[key], jobs, scheduler)
            report.dimensions[key] = solvers[key](H, time_limit=share, progress=progress, **spread)
            report.seconds[key] = start.elapsed()
        # Second pass: what is left of the budget goes to the dimensions that were stopped.
        unfinished = [k for k in ordered if not all(r.exact for r in _results(report.dimensions[k]))]
        for i, key in enumerate(unfinished):
            share = deadline.share(len(unfinished) - i)
            if share is None or share < 0.05:
                break
            log.update(f"{key}: again with the time left ...", force=True)
            start = Deadline(None, memory_limit=None)
            again = solvers[key](H, time_limit=share, progress=progress, **_spread(solvers[key], jobs, scheduler))
            report.dimensions[key] = _tighter(report.dimensions[key], again)
            report.seconds[key] += start.elapsed()
    except KeyboardInterrupt:
        # Ctrl-C: what was proven so far is kept (a dimension's own run, interrupted, is not)
        report.interrupted = key
        _interrupted(report, ordered, twins, greedy)
    _finish(report, twins, greedy)
    return report


def _interrupted(report: CheckReport, ordered: list[str], twins: list[str], greedy: Any) -> NoReturn:
    """Ctrl-C: keep what was proven (in report order, shared along the relations), raise :class:`CheckInterrupted`."""
    report.dimensions = {k: report.dimensions[k] for k in ordered if k in report.dimensions}
    _finish(report, [t for t in twins if any(d in report.dimensions for d in SHATTERING)], greedy)
    raise CheckInterrupted(report) from None


def _finish(report: CheckReport, twins: list[str], greedy: Any = (0, {})) -> None:
    """Fill the twins of a binary class's shattering search, in report order; raise the Littlestone-type
    results to the ``greedy`` tree (:func:`_greedy_first`); tighten by :data:`RELATIONS`."""
    if twins:
        first = next(d for d in SHATTERING if d in report.dimensions)
        for key in twins:
            report.dimensions[key] = binary_twin(report.dimensions[first], key)
            report.seconds[key] = 0.0
        report.dimensions = {k: report.dimensions[k] for k in ALL_KEYS if k in report.dimensions}
    _seed_greedy(report, greedy)
    _tighten_by_relations(report.dimensions, binary=report.hclass.is_binary, H=report.hclass, record=report.certified)
