"""Every dimension of a class at once: the library side of ``dimcalc check``.

:func:`check_class` runs the solvers named in :data:`DIMENSION_KEYS` under one
shared time budget and returns a :class:`CheckReport`, whose ``to_json()`` is
the object of interface spec §2.
"""

from __future__ import annotations

import concurrent.futures as cf
import math
import multiprocessing
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import littlestone, vc
from .._budget import Deadline, Progress
from .._json import to_jsonable
from ..errors import InvalidParameterError
from ..hypothesis_class import HypothesisClass
from ..psi import psi_family
from ..results import DimensionResult
from ..validation import check_jobs, check_time_limit
from ..vc import binary_twin
from ..vc.sparse_check import sparse_solvers

__all__ = ["check_class", "CheckReport", "DIMENSION_KEYS", "PSI_FAMILIES"]

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
PSI_FAMILIES = ("N", "bin", "B")
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
        return littlestone.binary_restriction_littlestone(H, time_limit=time_limit)

    return {
        "vc": vc.vc_dimension,
        "natarajan": vc.natarajan_dimension,
        "graph": vc.graph_dimension,
        "littlestone": littlestone.littlestone_dimension,
        "multiclass_littlestone": littlestone.multiclass_littlestone_dimension,
        "psi_littlestone": psi(False),
        "psi_littlestone_uniform": psi(True),
        "binary_restrictions": restrictions,
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


def _run_parallel(
    H: HypothesisClass,
    ordered: list[str],
    family: Any,
    deadline: Deadline,
    jobs: int,
    report: CheckReport,
    log: Progress,
) -> None:
    """The dimensions of ``ordered`` in a pool of ``jobs`` processes, under one deadline."""
    share = deadline.share(math.ceil(len(ordered) / jobs))  # one share per round of `jobs` dimensions
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else None)
    with cf.ProcessPoolExecutor(max_workers=min(jobs, len(ordered)), mp_context=context) as pool:
        futures = [pool.submit(_solve_one, H, key, family, share) for key in ordered]
        for fut in cf.as_completed(futures):
            key, value, seconds = fut.result()
            log.update(f"{key} done", force=True)
            report.dimensions[key] = value
            report.seconds[key] = seconds
    report.dimensions = {k: report.dimensions[k] for k in ordered}


#: Proven inequalities ``small <= big`` between dimensions of one class: a stopped search for ``small``
#: takes ``big``'s proven upper bound.  Natarajan <= graph (Ben-David, Cesa-Bianchi, Haussler, Long 1995,
#: recalled in BGS §1.2: a Natarajan-shattered set with f0, f1 is graph-shattered with f = f1 -- on the
#: rows that agree with f0 or f1 everywhere on S, agreeing with f1 exactly on T is the mix for T).
#: VC <= Littlestone (Littlestone 1987: a shattered set, queried in any order, is a mistake tree) and
#: Natarajan <= multiclass Littlestone (the same tree with edge labels f0(x), f1(x): BGS Defs 2.10-2.13).
RELATIONS = (("natarajan", "graph"), ("vc", "littlestone"), ("natarajan", "multiclass_littlestone"))


def _tighten_by_relations(dimensions: dict[str, Any]) -> None:
    """Lower the upper bounds of stopped results with :data:`RELATIONS` (results are replaced, not mutated)."""
    for small, big in RELATIONS:
        a, b = dimensions.get(small), dimensions.get(big)
        if not isinstance(a, DimensionResult) or not isinstance(b, DimensionResult):
            continue
        if a.exact or a.lower is None or b.upper is None or (a.upper is not None and a.upper <= b.upper):
            continue
        stats = dict(a.stats, upper_from=big)
        dimensions[small] = DimensionResult.bounds(a.kind, a.lower, max(a.lower, b.upper), a.witness, **stats)


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


def _solve_one(H: HypothesisClass, key: str, family: Any, time_limit: float | None) -> tuple[str, Any, float]:
    """Run one dimension of :func:`check_class` (in a worker process when ``jobs > 1``)."""
    start = Deadline(None)
    value = sparse_solvers(H, _solvers(family))[key](H, time_limit=time_limit, progress=False)
    return key, value, start.elapsed()


def check_class(
    H: HypothesisClass,
    dims: Sequence[str] | None = None,
    *,
    time_limit: float | None = None,
    progress: bool = False,
    family: Any = None,
    jobs: int = 1,
) -> CheckReport:
    """Compute the dimensions of ``H`` named in ``dims`` (all of :data:`DIMENSION_KEYS` by default).

    Parameters
    ----------
    H : HypothesisClass
    dims : sequence of str, optional
        Keys of :data:`DIMENSION_KEYS`.
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
        left divided by the number of rounds (``ceil(dimensions / jobs)``).
        Results and witnesses are those of one process.

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
    if dims is None:
        dims = DIMENSION_KEYS
    for d in dims:
        if d not in DIMENSION_KEYS:
            raise InvalidParameterError(
                f"The 'dims' parameter of check_class must name keys among {', '.join(DIMENSION_KEYS)}. Got {d!r} instead."
            )
    if family is not None:
        family = psi_family(family, H.num_labels)
    solvers = sparse_solvers(H, _solvers(family))  # a big sparse class: what it can bound (dimcalc.vc.sparse_check)
    deadline = Deadline(time_limit)
    report = CheckReport(H)
    log = Progress(progress, "check")
    ordered = [d for d in DIMENSION_KEYS if d in dims]
    # On a binary class VC, Natarajan and graph are one search: run the first asked, copy it to the others.
    twins = [d for d in SHATTERING if d in ordered][1:] if H.is_binary else []
    ordered = [d for d in ordered if d not in twins]
    if jobs > 1 and len(ordered) > 1:
        _run_parallel(H, ordered, family, deadline, jobs, report, log)
        _finish(report, twins)
        return report
    for i, key in enumerate(ordered):
        log.update(f"{key} ...", force=True)
        share = deadline.share(len(ordered) - i)
        start = Deadline(None)
        report.dimensions[key] = solvers[key](H, time_limit=share, progress=progress)
        report.seconds[key] = start.elapsed()
    # Second pass: what is left of the budget goes to the dimensions that were stopped.
    unfinished = [k for k in ordered if not all(r.exact for r in _results(report.dimensions[k]))]
    for i, key in enumerate(unfinished):
        share = deadline.share(len(unfinished) - i)
        if share is None or share < 0.05:
            break
        log.update(f"{key}: again with the time left ...", force=True)
        start = Deadline(None)
        again = solvers[key](H, time_limit=share, progress=progress)
        report.dimensions[key] = _tighter(report.dimensions[key], again)
        report.seconds[key] += start.elapsed()
    _finish(report, twins)
    return report


def _finish(report: CheckReport, twins: list[str]) -> None:
    """Fill the twins of a binary class's shattering search, in report order; tighten by :data:`RELATIONS`."""
    if twins:
        first = next(d for d in SHATTERING if d in report.dimensions)
        for key in twins:
            report.dimensions[key] = binary_twin(report.dimensions[first], key)
            report.seconds[key] = 0.0
        report.dimensions = {k: report.dimensions[k] for k in DIMENSION_KEYS if k in report.dimensions}
    _tighten_by_relations(report.dimensions)
