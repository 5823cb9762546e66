"""The uniform variant (BGS Def 4.1): one map per level, a search over map sequences.

A prefix ``(φ_0, ..., φ_{j-1})`` is kept only if a tree whose first ``j``
levels use these maps and whose remaining levels are free exists (a
relaxation, decided by the one engine with the prefix as its level
constraint: :meth:`.engine.Engine.at_least`), and a full sequence only if
the uniform tree exists; mirror maps are merged and for Ψ^B only total maps
are needed (proofs in :func:`_uniform_maps`).

References
----------
BGS Defs 4.1-4.4, Claim 4.6.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..classes.hypothesis_class import HypothesisClass
from ..psi import PsiFamily, present_labels, psi_family, uniform_maps
from ..results import DimensionResult
from ..search.budget import Deadline, Progress, SearchStopped
from .engine import Engine
from .nodes import depth_one_tree, user_node
from .parallel import solve_root
from .seeds import SeedTree
from .splitters import MapSplitter, reduced_points, splitter_for


def _uniform_maps(H: HypothesisClass, name: str, maps: Sequence[tuple] | None) -> Any:
    """Canonical maps for the uniform search (one of each mirror pair), over the labels present in ``H``.

    Swapping 0 and 1 in the map of one level and the two children of every
    node of that level turns a uniform shattered tree into a uniform shattered
    tree, so one map of each mirror pair suffices.  For Ψ^B total maps suffice
    (turning every ``*`` of a level's map into 0 keeps every path realised by
    the same hypothesis); constant maps leave a child empty and are dropped.
    Maps that agree on the present labels give the same trees, so one of each
    restriction is kept; :func:`dimcalc.psi.uniform_maps` builds them (lazily:
    Ψ^B over ``m`` present labels has ``2^(m-1) - 1``).
    """
    if name == "user":
        assert maps is not None
        fam = PsiFamily(name="user", num_labels=H.num_labels, user_maps=tuple(maps))
    else:
        fam = psi_family(name, H.num_labels)
    return uniform_maps(fam, present_labels(H))


def map_sequence(engine: Engine, r: int) -> tuple[int, ...] | None:
    """A sequence of ``r`` maps of ``engine.levels`` admitting a uniform shattered tree of depth ``r``, or None.

    Depth-first over prefixes: a prefix ``p`` is extended only when the engine
    proves a tree of depth ``r`` whose first ``len(p)`` levels use the maps of
    ``p`` and whose other levels are free (``engine.at_least(V, r, live, p)``:
    a relaxation of the uniform question that every extension of ``p`` must
    pass); a full sequence passes exactly when its uniform tree exists.
    """
    levels = engine.levels
    assert levels is not None
    full = engine.H.full_mask
    n_maps = levels.n_maps

    def dfs(prefix: tuple[int, ...]) -> tuple[int, ...] | None:
        for j in range(n_maps):
            p = prefix + (j,)
            if engine.at_least(full, r, levels.columns, p):
                if len(p) == r:
                    return p
                found = dfs(p)
                if found is not None:
                    return found
        return None

    return dfs(())


def uniform_dimension(
    H: HypothesisClass,
    name: str,
    maps: list[tuple] | None,
    kind: str,
    deadline: Deadline,
    progress: bool,
    label: str,
    jobs: int = 1,
    scheduler: Any = None,
    seed: SeedTree | None = None,
) -> DimensionResult:
    """The uniform variant of a family under ``deadline`` (the caller's, made when its call began).

    ``seed``: a certified uniform tree (:mod:`.seeds`); a uniform tree is a tree, so its depth is a lower
    bound of the non-uniform search too, and the uniform search starts above it.
    """
    log = Progress(progress, label)
    full = H.full_mask
    best: tuple = ()
    lowest = seed.depth if seed is not None else 0  # the seed's depth: proven, its tree the witness there
    upper = H.log2_size()
    stopped = False
    engine: Engine | None = None
    try:
        canon = _uniform_maps(H, name, maps)
        points = reduced_points(H, "user", deadline)
        levels = MapSplitter(H, canon, user_node(canon, points), points, deadline)
        engine = Engine(H, splitter_for(H, name, maps, deadline), deadline=deadline, progress=log, levels=levels)
        if lowest:
            engine.known_lower(full, lowest)
        # Uniform <= non-uniform (BGS Claim 4.6, second inequality): the engine's bound caps the search.
        _, upper, stopped = solve_root(engine, name, maps, jobs, scheduler)
        if stopped:
            raise SearchStopped
        while max(len(best), lowest) < upper:
            r = max(len(best), lowest) + 1
            log.update(f"uniform r={r} nodes={engine.nodes} memo={len(engine.memo)}", force=True)
            seq = map_sequence(engine, r)
            if seq is None:
                upper = r - 1
                break
            best = seq
    except SearchStopped:
        stopped = True
        if engine is not None:
            upper = min(upper, engine.bounds(full)[1])
    witness = engine.tree(full, len(best), best) if engine is not None and best else {"hypothesis": H.row_of(0)}
    if seed is not None and lowest >= len(best):
        best, witness = (None,) * lowest, seed.witness()
    if not best and upper >= 1:
        one = depth_one_tree(H, name, maps)
        if one is not None:
            best, witness = (None,), one
    return DimensionResult.bounds(
        kind,
        len(best),
        upper,
        witness,
        nodes=engine.nodes if engine else 0,
        memo=len(engine.memo) if engine else 0,
        seconds=round(deadline.elapsed(), 6),
        stopped=deadline.stop_label if stopped else False,
    )
