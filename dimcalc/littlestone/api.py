"""The public Littlestone-type solvers: LDim, MLD, Ψ-Littlestone (plain and uniform), binary restrictions.

Each validates its input, builds the family's splitter and engine under one
deadline (set-up included) and returns a :class:`~dimcalc.results.DimensionResult`
with a witness tree.  Definitions and references: :mod:`dimcalc.littlestone`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from ..classes.hypothesis_class import HypothesisClass, label_bits
from ..classes.operations import binary_restriction
from ..errors import parameter_error
from ..param_validation import CLASS, FLAG, JOBS, PROGRESS, TIME_LIMIT, validate_params
from ..psi import bipartition_seed_tree, present_labels, psi_family, restricted_maps
from ..results import DimensionResult, MaximumResult
from ..search import pool
from ..search.budget import Deadline, Progress, SearchStopped
from ..validation import check_time_limit
from ..witnesses import PsiTree
from .engine import Engine
from .greedy import greedy_lower_bound
from .nodes import depth_one_tree
from .parallel import solve_root
from .restriction_seeds import given_tree, restriction_tree
from .seeds import SeedTree, checked_seed
from .splitters import FAMILY_NAMES, splitter_for
from .uniform import uniform_dimension

#: A binary class of at least this many cells (distinct rows x points) gets a greedy mistake tree first.
GREEDY_MIN_CELLS = 1 << 20
#: ... and under a time limit its search stops with this fraction of the time left for writing its tree (boxes
#: 32 x 32, once its memo fits the memory budget (packed keys), searched until 54 s of a 60 s limit and then
#: needed 8.7 s to write its depth-16 tree: [15, 17] from the greedy tree instead of [16, 17]).
WRITE_RESERVE = 0.2


def _io_labelled(tree: dict[str, Any]) -> dict[str, Any]:
    """A binary mistake tree as the io-labelled tree of a binary class (labels ``[0, 1]`` at every node)."""
    if "children" not in tree:
        return tree
    return {"point": tree["point"], "labels": [0, 1], "children": [_io_labelled(c) for c in tree["children"]]}


def check_class(H: Any, owner: str) -> HypothesisClass:
    if not isinstance(H, HypothesisClass):
        raise parameter_error("H", owner, "a dimcalc.HypothesisClass", type(H).__name__)
    return H


def _check_jobs(jobs: Any, owner: str) -> int:
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise parameter_error("jobs", owner, "a positive int", jobs)
    return jobs


def solve_family(
    H: HypothesisClass,
    kind: str,
    family: str,
    maps: Sequence[tuple] | None,
    deadline: Deadline,
    progress: bool,
    label: str,
    jobs: int = 1,
    scheduler: Any = None,
    seed: SeedTree | None = None,
) -> DimensionResult:
    """Solve one Littlestone-type dimension under ``deadline`` (the caller's, made when its call began:
    set-up -- reduction, masks -- included).  ``seed``: a certified tree to start from instead of the
    greedy tree (:mod:`.seeds`)."""
    log = Progress(progress, label)
    upper = H.log2_size()
    leaf = {"hypothesis": H.row_of(0)}
    greedy_depth: int = 0
    greedy_tree: Any = None
    how = "greedy mistake tree"
    if seed is not None:  # the caller's certified tree stands for the greedy one (not built again)
        greedy_depth, greedy_tree, how = seed.depth, seed.witness(), "seed tree"
    elif (
        (family == "LD" or (family == "MLD" and H.is_binary))
        and upper >= 2
        and H.n_distinct * H.n_points >= GREEDY_MIN_CELLS
    ):
        # A big binary class: a most-balanced-split tree first, within a third of the budget (on a binary
        # class MLD = LDim, and a mistake tree is an io-labelled tree with labels [0, 1] at every node).
        log.update("greedy mistake tree", force=True)
        greedy_depth, greedy_tree = greedy_lower_bound(H, upper, deadline.part(3))
        if family == "MLD" and greedy_tree is not None:
            greedy_tree = _io_labelled(greedy_tree)
    if greedy_tree is not None and greedy_depth >= upper:  # it meets floor(log2 |H|): settled without the search
        return DimensionResult.bounds(
            kind,
            upper,
            upper,
            greedy_tree,
            method=f"{how} of depth floor(log2 |H|)",
            nodes=0,
            seconds=round(deadline.elapsed(), 6),
        )
    try:
        splitter = splitter_for(H, family, maps, deadline)
    except SearchStopped:
        one = depth_one_tree(H, family, maps)
        lower, witness = (0, leaf) if one is None else (1, one)
        if greedy_depth > lower:
            lower, witness = greedy_depth, greedy_tree
        return DimensionResult.bounds(
            kind, lower, upper, witness, nodes=0, seconds=round(deadline.elapsed(), 6), stopped=deadline.stop_label
        )
    big = deadline.seconds is not None and H.n_distinct * H.n_points >= GREEDY_MIN_CELLS  # its tree takes seconds
    engine = Engine(H, splitter, deadline=deadline.before_end(WRITE_RESERVE) if big else deadline, progress=log)
    if greedy_tree is not None:  # deepening starts above the greedy tree (kept as the witness at its depth)
        engine.known_lower(H.full_mask, greedy_depth)
    lower, upper, stopped = solve_root(engine, family, maps, jobs, scheduler)
    try:
        own = greedy_tree is None or lower > greedy_depth
        by = Deadline(deadline.remaining(), memory_limit=None)  # time only: a memory stop leaves the memo in place
        # With jobs > 1 (forked processes), a deep tree's pieces may be written by workers (the same tree); a Dask
        # cluster's workers do not hold the memo.
        writers = jobs if scheduler is None else 1
        witness = engine.tree(H.full_mask, lower, deadline=by, jobs=writers) if own else greedy_tree
    except SearchStopped:  # no time left to write the search's tree: the greedy/seed tree's bound stands
        lower, witness, stopped = 0, leaf, True
    if lower == 0 and upper >= 1:
        one = depth_one_tree(H, family, maps)
        if one is not None:
            lower, witness = 1, one
    if greedy_depth > lower:  # the engine stopped below the greedy tree
        lower, witness = greedy_depth, greedy_tree
    log.update(f"done: [{lower}, {upper}] nodes={engine.nodes} memo={len(engine.memo)}", force=True)
    return DimensionResult.bounds(
        kind,
        lower,
        upper,
        witness,
        nodes=engine.nodes,
        memo=len(engine.memo),
        sat_calls=engine.sat_calls,
        sat_answers=engine.sat_answers,
        seconds=round(deadline.elapsed(), 6),
        stopped=engine.deadline.stop_label if stopped else False,
    )


@validate_params(H=CLASS, time_limit=TIME_LIMIT, progress=PROGRESS, jobs=JOBS)
def littlestone_dimension(
    H: HypothesisClass,
    *,
    time_limit: float | None = None,
    progress: bool = False,
    jobs: int = 1,
    scheduler: Any = None,
    seed_tree: Any = None,
) -> DimensionResult:
    """The Littlestone dimension of a binary class, with a shattered mistake tree.

    Parameters
    ----------
    H : HypothesisClass
        A binary class (at most two labels).
    time_limit : float, optional
        Seconds; when the search is stopped the result has ``exact=False``,
        a proven ``lower`` certified by the witness tree and a proven ``upper``.
    progress : bool
        Print progress lines (target depth, nodes, memo size) on stderr.
    jobs : int
        Worker processes for the candidate splits at the root of the search
        (default 1: everything in this process).  Same value, and a witness
        that does not depend on timing, for every ``jobs``; workers stop at
        the same deadline.
    scheduler : distributed.Client or str, optional
        Run the root's candidate splits on the workers of a Dask cluster (a
        client, or ``"dask://HOST:PORT"``, connected for the call) instead of
        local processes; same value, a verified witness, the same time limit.
    seed_tree : dict or SeedTree, optional
        A mistake tree the caller already has (dimcalc extension): checked at
        the call by the independent tree checker (inside the time limit; a
        tree ``H`` does not shatter is refused with
        :class:`~dimcalc.errors.InvalidParameterError`), or a
        :class:`~dimcalc.littlestone.seeds.SeedTree` certified on ``H`` for
        ``"littlestone"`` (trusted: its certificate was checked when it was
        made).  The search starts above its depth ``d`` instead of building a
        greedy tree, and returns it as the witness when the answer (or the
        lower bound of a stopped search) is ``d``.  Same value either way.

    Returns
    -------
    DimensionResult
        Kind ``"littlestone"``; the witness is a mistake tree
        ``{"point": i, "children": [T0, T1]}`` with leaves ``{"hypothesis": row}``.
        Undefined (``value=None`` with a reason) for a class with more labels.

    References
    ----------
    Littlestone (1987); Feldman & Xiao (COLT 2014), §2.5 (complete mistake trees).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> thresholds = HypothesisClass.from_table([[1 if x >= t else 0 for x in range(7)] for t in range(8)])
    >>> r = littlestone_dimension(thresholds)
    >>> r.value, r.exact, r.witness["point"]
    (3, True, 3)
    >>> littlestone_dimension(HypothesisClass.from_table([[0], [1]])).value  # {constant 0, constant 1}
    1
    """
    H = check_class(H, "littlestone_dimension")
    time_limit = check_time_limit(time_limit, "littlestone_dimension")
    jobs = _check_jobs(jobs, "littlestone_dimension")
    scheduler = pool.check_scheduler(scheduler, "littlestone_dimension")
    if not H.is_binary:
        return DimensionResult.undefined(
            "littlestone",
            f"the Littlestone dimension is defined for binary classes; this class has "
            f"{H.num_labels} labels (use multiclass_littlestone_dimension)",
        )
    deadline = Deadline(time_limit)
    seed = checked_seed(H, seed_tree, "littlestone", "littlestone_dimension")
    return solve_family(H, "littlestone", "LD", None, deadline, progress, "littlestone", jobs, scheduler, seed)


@validate_params(H=CLASS, time_limit=TIME_LIMIT, progress=PROGRESS, jobs=JOBS)
def multiclass_littlestone_dimension(
    H: HypothesisClass,
    *,
    time_limit: float | None = None,
    progress: bool = False,
    jobs: int = 1,
    scheduler: Any = None,
    seed_tree: Any = None,
) -> DimensionResult:
    """The multiclass Littlestone dimension MLD, with a shattered io-labelled tree.

    Parameters
    ----------
    H : HypothesisClass
    time_limit : float, optional
        Seconds; see :func:`littlestone_dimension`.
    progress : bool
        Progress lines on stderr.
    jobs : int
        Worker processes for the root's candidate splits; see :func:`littlestone_dimension`.
    scheduler : distributed.Client or str, optional
        The root's candidate splits on a Dask cluster; see :func:`littlestone_dimension`.
    seed_tree : dict or SeedTree, optional
        An io-labelled tree to start from (dimcalc extension), checked or
        certified for ``"multiclass_littlestone"``; see :func:`littlestone_dimension`.

    Returns
    -------
    DimensionResult
        Kind ``"multiclass_littlestone"``; witness nodes
        ``{"point": i, "labels": [a, b], "children": [Ta, Tb]}``.

    References
    ----------
    BGS, Defs 2.10-2.13 (after Daniely et al. 2011).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0], [1], [2]])
    >>> r = multiclass_littlestone_dimension(H)
    >>> r.value, r.witness["labels"]
    (1, [0, 1])
    """
    H = check_class(H, "multiclass_littlestone_dimension")
    time_limit = check_time_limit(time_limit, "multiclass_littlestone_dimension")
    jobs = _check_jobs(jobs, "multiclass_littlestone_dimension")
    scheduler = pool.check_scheduler(scheduler, "multiclass_littlestone_dimension")
    deadline = Deadline(time_limit)
    seed = checked_seed(H, seed_tree, "multiclass_littlestone", "multiclass_littlestone_dimension")
    return solve_family(
        H, "multiclass_littlestone", "MLD", None, deadline, progress, "multiclass_littlestone", jobs, scheduler, seed
    )


def resolve_family(H: HypothesisClass, family: Any) -> tuple[str, list[tuple] | None, str]:
    """Return (family name, the maps of a user family or None, kind suffix) via :func:`dimcalc.psi.psi_family`."""
    fam = psi_family(family, H.num_labels)
    if fam.name in FAMILY_NAMES:
        return fam.name, None, fam.kind_suffix
    # one map per distinct restriction to the labels present in H (dimcalc.psi: same trees, same value)
    return "user", restricted_maps(fam, present_labels(H)), fam.kind_suffix


@validate_params(H=CLASS, uniform=FLAG, time_limit=TIME_LIMIT, progress=PROGRESS, jobs=JOBS)
def psi_littlestone_dimension(
    H: HypothesisClass,
    family: Any,
    *,
    uniform: bool = False,
    time_limit: float | None = None,
    progress: bool = False,
    jobs: int = 1,
    scheduler: Any = None,
    seed_tree: Any = None,
) -> DimensionResult:
    """The Ψ-Littlestone dimension (or its uniform variant) with a Ψ-shattered tree.

    Parameters
    ----------
    H : HypothesisClass
    family : {"N", "bin", "B"} or PsiFamily or iterable of maps
        Ψ^N (pairs of labels), Ψ^bin (the bits of the label, bit 1 least
        significant), Ψ^B (all maps), or a user family: maps are tuples of
        length ``num_labels`` with entries 0, 1 or None (``*``).
    uniform : bool
        The uniform variant: all nodes at one depth carry the same map.
    time_limit : float, optional
        Seconds; see :func:`littlestone_dimension`.
    progress : bool
        Progress lines on stderr.
    jobs : int
        Worker processes for the root's candidate splits; see :func:`littlestone_dimension`.
    scheduler : distributed.Client or str, optional
        The root's candidate splits on a Dask cluster; see :func:`littlestone_dimension`.
    seed_tree : dict or SeedTree, optional
        A Ψ-tree of this family (uniform when ``uniform``) to start from
        (dimcalc extension), checked or certified for the result's kind; see
        :func:`littlestone_dimension`.

    Returns
    -------
    DimensionResult
        Kind ``"psi_littlestone:<N|bin|B>"`` or ``"psi_littlestone_uniform:<...>"``
        (user families: ``...:user:<digest>``); witness nodes
        ``{"point": i, "map": [φ(0), ..., φ(k)], "children": [T0, T1]}``.

    References
    ----------
    BGS, Defs 4.1-4.4, §4.2 (Lemma 4.5: Ψ^N = MLD; Claims 4.6-4.7).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0], [1], [2], [3]])
    >>> [psi_littlestone_dimension(H, f).value for f in ("N", "bin", "B")]
    [1, 2, 2]
    >>> r = psi_littlestone_dimension(H, "bin", uniform=True)
    >>> r.kind, r.value, r.witness["map"]
    ('psi_littlestone_uniform:bin', 2, [0, 1, 0, 1])
    """
    owner = "psi_littlestone_dimension"
    H = check_class(H, owner)
    time_limit = check_time_limit(time_limit, owner)
    if not isinstance(uniform, bool):
        raise parameter_error("uniform", owner, "a bool", uniform)
    jobs = _check_jobs(jobs, owner)
    scheduler = pool.check_scheduler(scheduler, owner)
    deadline = Deadline(time_limit)
    name, maps, suffix = resolve_family(H, family)
    kind = ("psi_littlestone_uniform:" if uniform else "psi_littlestone:") + suffix
    label = kind.split(":", 1)[0] + ":" + name
    user = psi_family(family, H.num_labels) if name == "user" else None
    seed = checked_seed(H, seed_tree, kind, owner, user)
    if name == "B" and H.num_labels > 2:
        return _seeded_bipartition(H, kind, uniform, deadline, progress, label, jobs, scheduler, seed)
    if uniform:
        r = uniform_dimension(H, name, maps, kind, deadline, progress, label, jobs, scheduler, seed)
    else:
        r = solve_family(H, kind, name, maps, deadline, progress, label, jobs, scheduler, seed)
    if user is not None and r.witness is not None:  # the tree checks itself against the user's maps
        r = dataclasses.replace(r, witness=PsiTree(r.witness, family=user, uniform=uniform))
    return r


def _seeded_bipartition(
    H: HypothesisClass,
    kind: str,
    uniform: bool,
    deadline: Deadline,
    progress: bool,
    label: str,
    jobs: int = 1,
    scheduler: Any = None,
    seed: SeedTree | None = None,
) -> DimensionResult:
    """Ψ^B (plain or uniform), starting from trees found without the exponential search.

    With ``m`` labels present at a point Ψ^B has ``2^(m-1) - 1`` splits there.
    Before searching them: a one-point or greedy Ψ^B tree
    (:func:`dimcalc.psi.bipartition_seed_tree`), then the Ψ^bin search (same
    uniformity) on a quarter of the budget -- Ψ^bin ⊆ Ψ^B (its maps are total
    maps, BGS §4.2), so its tree is a Ψ^B tree and Ψ^bin-LD <= Ψ^B-LD.  The
    deepest of these is a certified lower bound; when it reaches
    ``floor(log2 |H|)`` the value is exact without searching Ψ^B at all,
    otherwise it stands whenever the Ψ^B search is stopped before getting as deep.
    """
    depth, tree = bipartition_seed_tree(H, uniform=uniform, deadline=deadline)
    how = "direct Ψ^B tree"
    if seed is not None and seed.depth > depth:  # the caller's certified tree
        depth, tree, how = seed.depth, seed.witness(), "seed tree"
    cap = H.log2_size()
    if depth < cap and not deadline.expired():
        part = deadline.part(4)  # a quarter of what is left for the Ψ^bin tree
        bin_kind = ("psi_littlestone_uniform:" if uniform else "psi_littlestone:") + "bin"
        if uniform:
            rb = uniform_dimension(H, "bin", None, bin_kind, part, False, bin_kind, jobs, scheduler)
        else:
            rb = solve_family(H, bin_kind, "bin", None, part, False, bin_kind, jobs, scheduler)
        if rb.lower is not None and rb.lower > depth:
            depth, tree, how = rb.lower, rb.witness, "Ψ^bin tree (Ψ^bin ⊆ Ψ^B)"
    if depth >= cap:
        return DimensionResult.exact_value(
            kind,
            depth,
            tree,
            nodes=0,
            memo=0,
            seconds=round(deadline.elapsed(), 6),
            stopped=False,
            method=f"{how} of depth floor(log2 |H|)",
        )
    if uniform:
        r = uniform_dimension(H, "B", None, kind, deadline, progress, label, jobs, scheduler, seed)
    else:
        r = solve_family(H, kind, "B", None, deadline, progress, label, jobs, scheduler, seed)
    if r.lower is not None and r.lower >= depth:
        return r
    return DimensionResult.bounds(
        kind, depth, r.upper, tree, **{**r.stats, "seconds": round(deadline.elapsed(), 6), "lower_from": how}
    )


@validate_params(H=CLASS, time_limit=TIME_LIMIT)
def binary_restriction_littlestone(
    H: HypothesisClass, *, time_limit: float | None = None, seed_tree: Any = None
) -> MaximumResult:
    """The Littlestone dimension of each binary restriction ``H|_i``, ``i = 1..label_bits``.

    ``H|_i(x) = (h(x) >> (i - 1)) & 1`` (bit 1 is the least significant).  The
    witness of entry ``i - 1`` is a mistake tree for ``H|_i``; its leaves are
    row indices of the class file (the rows of ``H|_i`` are those of ``H``).

    Parameters
    ----------
    H : HypothesisClass
    time_limit : float, optional
        Seconds for all restrictions together (unused time flows to later ones).
    seed_tree : dict or SeedTree, optional
        A tree ``H`` shatters (dimcalc extension): a :class:`~dimcalc.littlestone.seeds.SeedTree`
        certified on ``H`` for any Littlestone-type kind, or a tree checked at the call (a mistake
        tree for a binary class, an io-labelled tree otherwise; refused with
        :class:`~dimcalc.errors.InvalidParameterError` when ``H`` does not shatter it).  Each
        restriction starts from the mistake tree of ``H|_i`` read off it
        (:func:`~dimcalc.littlestone.restriction_seeds.restriction_tree`: the nodes whose two
        children's labels are separated by bit ``i``; the whole tree for a binary class, whose
        ``H|_1`` is ``H``), certified on ``H|_i`` before it is used.  Same values either way.

    Returns
    -------
    MaximumResult
        ``max_i LDim(H|_i)`` (kind ``"littlestone_restriction:max"``; its witness is the tree of the
        restriction with the largest lower bound) with every restriction's own result in ``parts``:
        kind ``"littlestone_restriction:<i>"``; the witness is a
        :class:`~dimcalc.witnesses.RestrictionTree`, which checks the tree
        against ``H|_i`` built from ``H``, so ``result.verify(H)`` works on the
        original class; ``stats["restriction"] = i``.  (The function returned the list of parts
        before; reading the result as that list still works for one release, with a ``FutureWarning``.)

    References
    ----------
    BGS §3 (binary restrictions), Claim 4.6 (``max_i LDim(H|_i) <= Ψ^bin_LD U(H)``).

    Examples
    --------
    >>> from dimcalc import HypothesisClass
    >>> H = HypothesisClass.from_table([[0, 0], [1, 1], [2, 0], [3, 1]])
    >>> r = binary_restriction_littlestone(H)
    >>> r.value, r.verify(H), [(p.kind, p.value) for p in r.parts]
    (1, True, [('littlestone_restriction:1', 1), ('littlestone_restriction:2', 1)])
    """
    owner = "binary_restriction_littlestone"
    H = check_class(H, owner)
    time_limit = check_time_limit(time_limit, owner)
    deadline = Deadline(time_limit)
    given = given_tree(H, seed_tree, owner)
    labels = present_labels(H) if given is not None else ()
    bits = label_bits(H.num_labels)
    out = []
    for i in range(1, bits + 1):
        Hi = binary_restriction(H, i)
        kind = f"littlestone_restriction:{i}"
        seed = None
        if given is not None and not deadline.expired():
            depth, tree = restriction_tree(given, i, labels)
            seed = SeedTree.certify(H, tree, kind) if depth >= 1 else None  # H shatters it: a proof, checked
        share = deadline.part(bits - i + 1)
        r = solve_family(Hi, kind, "LD", None, share, False, f"littlestone H|_{i}", seed=seed)
        out.append(dataclasses.replace(r, stats={**r.stats, "restriction": i}))  # results are frozen: a new one
    return MaximumResult.of("littlestone_restriction:max", out, seconds=round(deadline.elapsed(), 6))
