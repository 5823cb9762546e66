"""VC, Natarajan and graph dimensions, the growth function, and their checkers.

A set of points ``S`` is

* **shattered** (VC) when every labelling ``S -> {0, 1}`` is realised by a
  hypothesis;
* **Natarajan-shattered** by two label vectors ``f0, f1`` that differ at every
  point of ``S`` when every *mix* (``f1`` on ``T``, ``f0`` on ``S \\ T``, for
  each ``T ⊆ S``) is realised;
* **graph-shattered** by a label vector ``f`` when every in/out pattern of
  agreement with ``f`` (``h(x) = f(x)`` exactly for ``x ∈ T``) is realised.

The dimension is the size of a largest such set.  Natarajan and graph
dimensions are the Ψ-dimensions of Ben-David, Cesa-Bianchi, Haussler and Long
[BCHL95] for Ψ^N and Ψ^G, as recalled in BGS §1.2; on binary classes all three
equal the VC dimension.

How the solvers work
--------------------
All three notions are shattering of *virtual columns* of the distinct rows
(for VC the points themselves; for graph the indicator columns
``[h(x) = l]``; for Natarajan the label pairs ``(x, {a, b})``).  The search is
in :mod:`dimcalc.vc.search`: the class is reduced once (constant points
dropped, points with the same partition merged), hypotheses are bits of
``uint64`` words, a greedy pass certifies a lower bound at once, and a
depth-first search with size and downward-closure pruning decides the larger
targets up to ``floor(log2 |H|)`` (compiled with numba when it is not tiny:
:mod:`dimcalc.vc.kernel`).  A ``time_limit`` (or the memory budget)
stops the search with proven bounds; set-up is inside the limit.

The checkers :func:`is_shattered`, :func:`is_natarajan_shattered` and
:func:`is_graph_shattered` (re-exported here) live in
:mod:`dimcalc.witnesses.shattered` with the witness objects the results carry:
they work at the level of the definitions on the full table, with Python sets
of label tuples, and share no code with the solvers.

References
----------
.. [BCHL95] S. Ben-David, N. Cesa-Bianchi, D. Haussler, P. M. Long.
   Characterizations of learnability for classes of {0, ..., n}-valued
   functions. JCSS 50(1), 1995.  (Ψ-dimensions; Ψ^N gives the Natarajan and
   Ψ^G the graph dimension.)
.. [BGS21] M. Bun, M. Gaboardi, S. Sivakumar. Multiclass versus binary
   differentially private PAC learning. NeurIPS 2021, §1.2.
.. [Nat89] B. K. Natarajan. On learning sets and functions. Mach. Learn. 4, 1989.
.. [VC71] V. Vapnik, A. Chervonenkis. On the uniform convergence of relative
   frequencies of events to their probabilities. 1971.
.. [Sau72] N. Sauer. On the density of families of sets. JCTA 13, 1972
   (Sauer–Shelah lemma: ``|H|_S| <= sum_{i<=d} C(|S|, i)`` for VC dimension d).
"""

from __future__ import annotations

from typing import Any

from ..classes.hypothesis_class import HypothesisClass
from ..param_validation import CLASS, JOBS_OR_AUTO, PROGRESS, TIME_LIMIT, validate_params
from ..results import DimensionResult
from ..search import pool
from ..search.budget import Deadline, Progress
from ..validation import check_hypothesis_class, check_jobs_or_auto, check_time_limit
from .search import largest_shattered_set, witness_of

__all__ = ["vc_dimension", "natarajan_dimension", "graph_dimension", "binary_twin"]


# ============================================================================ solver


def _largest_shattered(
    H: HypothesisClass, kind: str, time_limit: float | None, progress: bool, jobs: int | None, scheduler: Any = None
) -> DimensionResult:
    """Run :func:`dimcalc.vc.search.largest_shattered_set` under one deadline, set-up included; ``jobs=None``: one
    process for a dense class, threads on every core for a sparse one (:mod:`dimcalc.vc.sparse_threads`)."""
    if H.storage == "sparse":  # a set system kept by its incidences: the local search of dimcalc.vc.sparse
        from .sparse import sparse_vc_dimension

        result = sparse_vc_dimension(H, time_limit=time_limit, progress=progress, jobs=jobs)
        return result if kind == "vc" else binary_twin(result, kind)
    jobs = 1 if jobs is None else jobs
    deadline = Deadline(time_limit)
    log = Progress(progress, kind)
    stats: dict[str, Any] = {}
    with pool.connected(scheduler, deadline) as client:
        if client is not None:  # the pieces are cut for the cluster's workers
            jobs = max(2, sum(client.nthreads().values()))
        chosen, upper, stopped = largest_shattered_set(H, kind, deadline, log, stats, jobs, client)
    if stopped:
        stats["stopped"] = deadline.stop_label
    stats["seconds"] = deadline.elapsed()
    log.update(f"lower {len(chosen)}, upper {upper}", force=True)
    return DimensionResult.bounds(kind, len(chosen), upper, witness_of(kind, H, chosen), **stats)


def binary_twin(result: DimensionResult, kind: str) -> DimensionResult:
    """A VC, Natarajan or graph result of a *binary* class read as another of the three.

    On a class with labels ``{0, 1}`` the three notions coincide: ``S`` is
    shattered iff it is Natarajan-shattered with ``f0 = 0, f1 = 1`` iff it is
    graph-shattered with ``f = 1`` (BCHL95, recalled in BGS §1.2), so the
    bounds carry over and the witness is rewritten in the other format.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 0], [0, 1], [1, 0], [1, 1]])
    >>> r = binary_twin(vc_dimension(H), "natarajan")
    >>> r.value, r.witness, r.verify(H)
    (2, {'points': [0, 1], 'f0': [0, 0], 'f1': [1, 1]}, True)
    """
    w = result.witness
    points = [int(x) for x in (w if isinstance(w, (list, tuple)) else w["points"])]
    if kind == "vc":
        witness: Any = points
    elif kind == "natarajan":
        witness = {"points": points, "f0": [0] * len(points), "f1": [1] * len(points)}
    else:
        witness = {"points": points, "f": [1] * len(points)}
    stats = {"method": f"the {result.kind} search (one search on a binary class)"}
    if "stopped" in result.stats:
        stats["stopped"] = result.stats["stopped"]
    assert result.lower is not None
    return DimensionResult.bounds(kind, result.lower, result.upper, witness, **stats)


@validate_params(H=CLASS, time_limit=TIME_LIMIT, progress=PROGRESS, jobs=JOBS_OR_AUTO)
def vc_dimension(
    H: HypothesisClass,
    *,
    time_limit: float | None = None,
    progress: bool = False,
    jobs: int | None = None,
    scheduler: Any = None,
) -> DimensionResult:
    """The VC dimension of a binary class, with a shattered set as witness.

    Parameters
    ----------
    H : HypothesisClass
        A binary class (at most two labels).
    time_limit : float, optional
        Seconds; when the search is stopped the result has ``exact=False``,
        ``lower`` certified by the witness and a proven ``upper``.
    progress : bool
        Progress lines on stderr.
    jobs : int, optional
        Processes sharing the search of a dense class; threads sharing the
        search of a class stored sparse.  ``None`` (the default): one process
        for a dense class, a thread on every core this process may use for a
        sparse one (:mod:`dimcalc.vc.sparse_threads`); ``1``: this process,
        one core.  The value and the witness are those of one process.
    scheduler : distributed.Client or str, optional
        Run the search's pieces on a Dask cluster (a client, or
        ``"dask://HOST:PORT"``, connected for the call); same value and witness.

    Returns
    -------
    DimensionResult
        Kind ``"vc"``; ``witness`` is the sorted list of the point indices of
        a shattered set of size ``lower``.  For a class with more than two
        labels the result is :meth:`DimensionResult.undefined`.

    References
    ----------
    Vapnik and Chervonenkis [VC71]; BNS (seed 001) Def. 1 and Thms 8-9 use it
    for sample sizes.

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> intervals = HypothesisClass.from_table(
    ...     [[int(a <= x < b) for x in range(5)] for a in range(6) for b in range(a, 6)])
    >>> r = vc_dimension(intervals)
    >>> r.value, r.witness, r.verify(intervals)
    (2, [1, 3], True)
    """
    check_hypothesis_class(H, "vc_dimension")
    time_limit = check_time_limit(time_limit, "vc_dimension")
    jobs = check_jobs_or_auto(jobs, "vc_dimension")
    scheduler = pool.check_scheduler(scheduler, "vc_dimension")
    if not H.is_binary:
        return DimensionResult.undefined(
            "vc",
            f"the VC dimension is defined for binary classes; this class has {H.num_labels} labels "
            "(use natarajan_dimension or graph_dimension)",
        )
    return _largest_shattered(H, "vc", time_limit, progress, jobs, scheduler)


@validate_params(H=CLASS, time_limit=TIME_LIMIT, progress=PROGRESS, jobs=JOBS_OR_AUTO)
def natarajan_dimension(
    H: HypothesisClass,
    *,
    time_limit: float | None = None,
    progress: bool = False,
    jobs: int | None = None,
    scheduler: Any = None,
) -> DimensionResult:
    """The Natarajan dimension, with a Natarajan-shattered set and its two label vectors.

    ``S`` is Natarajan-shattered when there are ``f0, f1 : S -> [k]`` with
    ``f0(x) != f1(x)`` for every ``x`` in ``S`` such that for every ``T ⊆ S``
    some hypothesis equals ``f1`` on ``T`` and ``f0`` on ``S \\ T``.

    Parameters
    ----------
    H : HypothesisClass
        Any class (k + 1 >= 2 labels); on binary classes this is the VC dimension.
    time_limit : float, optional
        Seconds; when stopped, ``exact=False`` with proven bounds.
    progress : bool
        Progress lines on stderr.
    jobs : int, optional
        Processes sharing the search of a dense class; threads sharing the
        search of a class stored sparse.  ``None`` (the default): one process
        for a dense class, a thread on every core this process may use for a
        sparse one (:mod:`dimcalc.vc.sparse_threads`); ``1``: this process,
        one core.  The value and the witness are those of one process.
    scheduler : distributed.Client or str, optional
        Run the search's pieces on a Dask cluster (a client, or
        ``"dask://HOST:PORT"``, connected for the call); same value and witness.

    Returns
    -------
    DimensionResult
        Kind ``"natarajan"``; ``witness = {"points": [...], "f0": [...],
        "f1": [...]}`` (label vectors aligned with ``points``).

    References
    ----------
    Natarajan [Nat89]; the Ψ^N-dimension of [BCHL95] (recalled in BGS, seed
    003, §1.2).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> all_functions = HypothesisClass.from_table(
    ...     [[a, b] for a in range(3) for b in range(3)])  # all maps [2] -> {0, 1, 2}
    >>> r = natarajan_dimension(all_functions)
    >>> r.value, r.witness
    (2, {'points': [0, 1], 'f0': [0, 0], 'f1': [1, 1]})
    >>> r.verify(all_functions)
    True
    """
    check_hypothesis_class(H, "natarajan_dimension")
    time_limit = check_time_limit(time_limit, "natarajan_dimension")
    jobs = check_jobs_or_auto(jobs, "natarajan_dimension")
    scheduler = pool.check_scheduler(scheduler, "natarajan_dimension")
    return _largest_shattered(H, "natarajan", time_limit, progress, jobs, scheduler)


@validate_params(H=CLASS, time_limit=TIME_LIMIT, progress=PROGRESS, jobs=JOBS_OR_AUTO)
def graph_dimension(
    H: HypothesisClass,
    *,
    time_limit: float | None = None,
    progress: bool = False,
    jobs: int | None = None,
    scheduler: Any = None,
) -> DimensionResult:
    """The graph dimension, with a graph-shattered set and its label vector.

    ``S`` is graph-shattered when there is ``f : S -> [k]`` such that for
    every ``T ⊆ S`` some hypothesis agrees with ``f`` exactly on ``T`` (within
    ``S``).  Always at least the Natarajan dimension.

    Parameters
    ----------
    H : HypothesisClass
        Any class; on binary classes this is the VC dimension.
    time_limit : float, optional
        Seconds; when stopped, ``exact=False`` with proven bounds.
    progress : bool
        Progress lines on stderr.
    jobs : int, optional
        Processes sharing the search of a dense class; threads sharing the
        search of a class stored sparse.  ``None`` (the default): one process
        for a dense class, a thread on every core this process may use for a
        sparse one (:mod:`dimcalc.vc.sparse_threads`); ``1``: this process,
        one core.  The value and the witness are those of one process.
    scheduler : distributed.Client or str, optional
        Run the search's pieces on a Dask cluster (a client, or
        ``"dask://HOST:PORT"``, connected for the call); same value and witness.

    Returns
    -------
    DimensionResult
        Kind ``"graph"``; ``witness = {"points": [...], "f": [...]}``.

    References
    ----------
    Natarajan [Nat89]; the Ψ^G-dimension of [BCHL95] (recalled in BGS, seed
    003, §1.2).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 0], [1, 0], [2, 1], [0, 2]])
    >>> r = graph_dimension(H)
    >>> r.value, r.witness, r.verify(H)
    (2, {'points': [0, 1], 'f': [0, 0]}, True)
    >>> natarajan_dimension(H).value
    1
    """
    check_hypothesis_class(H, "graph_dimension")
    time_limit = check_time_limit(time_limit, "graph_dimension")
    jobs = check_jobs_or_auto(jobs, "graph_dimension")
    scheduler = pool.check_scheduler(scheduler, "graph_dimension")
    return _largest_shattered(H, "graph", time_limit, progress, jobs, scheduler)
