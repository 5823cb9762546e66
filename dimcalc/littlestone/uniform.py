"""The uniform variant (BGS Def 4.1): one map per level, a search over map sequences.

A prefix ``(φ_0, ..., φ_{j-1})`` is kept only if a tree whose first ``j``
levels use these maps and whose remaining levels are free exists (a
relaxation decided with the non-uniform engine), and a full sequence only if
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
from .parallel import _solve_root
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


class _UniformSearch:
    """Search over per-level map sequences with a relaxation for pruning (module docstring).

    ``feasible(V, prefix, free)`` decides whether a tree for ``V`` exists whose
    first ``len(prefix)`` levels carry the maps of ``prefix`` (one map per level)
    and whose next ``free`` levels are unconstrained (Ψ-labelled).  With
    ``free = 0`` this is uniform Ψ-shattering; with ``prefix = ()`` it is the
    non-uniform question, answered by the non-uniform engine.
    """

    def __init__(
        self, H: HypothesisClass, maps: Sequence[tuple], engine: Engine, deadline: Deadline, progress: Progress
    ) -> None:
        self.H = H
        self.maps = maps
        self.engine = engine
        self.deadline = deadline
        self.progress = progress
        self.splitter = MapSplitter(H, maps, user_node(maps, []), reduced_points(H, "user", deadline), deadline)
        self.memo: dict[tuple, bool] = {}
        self.choice: dict[tuple, tuple] = {}
        self.nodes = 0

    def feasible(self, V: int, prefix: tuple, free: int, live: Sequence[int]) -> bool:
        depth = len(prefix) + free
        if depth == 0:
            return True
        if V.bit_count() < (1 << depth):
            return False
        if not prefix:
            return self.engine.at_least(V, free, self.engine.splitter.columns)
        key = (V, prefix, free)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        self.nodes += 1
        if self.deadline.tick(64):
            raise SearchStopped
        new_live, _ = self.splitter.classes(V, live)
        need = 1 << (depth - 1)
        rest = prefix[1:]
        ok = False
        cand = []
        for V0, V1, desc in self.splitter.map_splits(V, new_live, prefix[0]):
            n0, n1 = V0.bit_count(), V1.bit_count()
            if n0 >= need and n1 >= need:
                cand.append((min(n0, n1), V0, V1, desc))
        cand.sort(key=lambda c: -c[0])
        for _, V0, V1, desc in cand:
            a, b = (V0, V1) if V0.bit_count() <= V1.bit_count() else (V1, V0)
            if self.feasible(a, rest, free, new_live) and self.feasible(b, rest, free, new_live):
                ok = True
                if free == 0:
                    self.choice[(V, prefix)] = (desc, V0, V1)
                break
        self.memo[key] = ok
        return ok

    def sequence(self, r: int) -> tuple | None:
        """A map sequence of length ``r`` admitting a uniform shattered tree, or None."""
        live = self.splitter.columns
        full = self.H.full_mask

        def dfs(prefix: tuple) -> tuple | None:
            for j in range(self.splitter.n_maps):
                p = prefix + (j,)
                if self.feasible(full, p, r - len(p), live):
                    if len(p) == r:
                        return p
                    found = dfs(p)
                    if found is not None:
                        return found
            return None

        return dfs(())

    def tree(self, V: int, prefix: tuple) -> dict:
        if not prefix:
            low = V & -V
            return {"hypothesis": self.H.row_of(low.bit_length() - 1)}
        (x, j), V0, V1 = self.choice[(V, prefix)]
        return {
            "point": self.splitter.points[x],
            "map": list(self.maps[j]),
            "children": [self.tree(V0, prefix[1:]), self.tree(V1, prefix[1:])],
        }


def uniform_dimension(
    H: HypothesisClass,
    name: str,
    maps: list[tuple] | None,
    kind: str,
    time_limit: float | None,
    progress: bool,
    label: str,
    jobs: int = 1,
) -> DimensionResult:
    deadline = Deadline(time_limit)
    log = Progress(progress, label)
    full = H.full_mask
    best: tuple = ()
    upper = H.log2_size()
    stopped = False
    engine: Engine | None = None
    search: _UniformSearch | None = None
    try:
        engine = Engine(H, splitter_for(H, name, maps, deadline), deadline=deadline, progress=log)
        canon = _uniform_maps(H, name, maps)
        search = _UniformSearch(H, canon, engine, deadline, log)
        # Uniform <= non-uniform (BGS Claim 4.6, second inequality): the engine's bound caps the search.
        _, upper, stopped = _solve_root(engine, name, maps, jobs)
        if stopped:
            raise SearchStopped
        while len(best) < upper:
            r = len(best) + 1
            log.update(f"uniform r={r} nodes={search.nodes} memo={len(search.memo)}", force=True)
            seq = search.sequence(r)
            if seq is None:
                upper = r - 1
                break
            best = seq
    except SearchStopped:
        stopped = True
        if engine is not None:
            upper = min(upper, engine.bounds(full)[1])
    witness = search.tree(full, best) if search is not None else {"hypothesis": H.row_of(0)}
    if not best and upper >= 1:
        one = depth_one_tree(H, name, maps)
        if one is not None:
            best, witness = (None,), one
    nodes = (engine.nodes if engine else 0) + (search.nodes if search else 0)
    memo = (len(engine.memo) if engine else 0) + (len(search.memo) if search else 0)
    return DimensionResult.bounds(
        kind,
        len(best),
        upper,
        witness,
        nodes=nodes,
        memo=memo,
        seconds=round(deadline.elapsed(), 6),
        stopped=deadline.stop_label if stopped else False,
    )
