"""Sparse storage and the sparse VC search against a definition-level brute force (tests/brute_sparse.py)."""

from __future__ import annotations

import random

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given
from hypothesis import strategies as st

from brute_sparse import brute_set_vc, closed_neighbourhoods, shattered
from dimcalc import HypothesisClass, vc_dimension
from dimcalc.classes.sparse_table import SparseTable
from dimcalc.errors import InvalidClassError
from dimcalc.vc import sparse as sparse_vc

set_systems = st.lists(st.frozensets(st.integers(0, 7), max_size=8), min_size=1, max_size=14)


@st.composite
def graphs(draw, max_nodes: int = 9) -> nx.Graph:
    n = draw(st.integers(1, max_nodes))
    pairs = [(u, v) for u in range(n) for v in range(u + 1, n)]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True) if pairs else st.just([]))
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from(chosen)
    return G


#: Both searches: the anchor search alone (default trial), and the pair-graph search taking over at once.
TRIALS = pytest.mark.parametrize("trial", [sparse_vc.TRIAL_NODES, 0], ids=["anchors", "pairs"])


def _check(
    H: HypothesisClass,
    expected: int,
    trial: int = sparse_vc.TRIAL_NODES,
    bitset: int = sparse_vc.BITSET_CELLS,
    pool: int = sparse_vc.TRIPLE_POOL,
) -> None:
    saved = sparse_vc.TRIAL_NODES, sparse_vc.BITSET_CELLS, sparse_vc.TRIPLE_POOL
    sparse_vc.TRIAL_NODES, sparse_vc.BITSET_CELLS, sparse_vc.TRIPLE_POOL = trial, bitset, pool
    try:
        r = vc_dimension(H, jobs=1)
        # the pair-graph search (from d = 3 when trial = 0; rarely reached after the anchor trial on these small
        # classes) on three threads: the same value and witness
        threaded = vc_dimension(H, jobs=3) if trial == 0 else r
    finally:
        sparse_vc.TRIAL_NODES, sparse_vc.BITSET_CELLS, sparse_vc.TRIPLE_POOL = saved
    assert r.exact and r.value == expected, (r, expected)
    assert r.verify(H, debug=True)
    assert (threaded.exact, threaded.value, threaded.witness) == (True, r.value, r.witness)


@TRIALS
@given(sets=set_systems)
def test_sparse_vc_of_set_systems_matches_the_brute_force(sets, trial):
    H = HypothesisClass.from_sets(sets, domain=range(8), storage="sparse")
    assert H.storage == "sparse"
    _check(H, brute_set_vc(sets, range(8)), trial)


@TRIALS
@given(G=graphs(), closed=st.booleans())
def test_sparse_vc_of_graphs_matches_the_brute_force(G, closed, trial):
    H = HypothesisClass.from_networkx(G, closed=closed, storage="sparse")
    adjacency = {v: set(G[v]) for v in G}
    _check(H, brute_set_vc(closed_neighbourhoods(adjacency, closed), G.nodes), trial)


@TRIALS
@pytest.mark.parametrize("bitset", [sparse_vc.BITSET_CELLS, 0], ids=["bitsets", "traces"])
@given(sets=st.lists(st.frozensets(st.integers(0, 9), min_size=2, max_size=10), min_size=16, max_size=48))
def test_sparse_vc_of_larger_set_systems_matches_the_brute_force(sets, trial, bitset):
    # 16+ sets: targets 4 and 5 run the pair-graph search with its triple filter (by element bitsets, or by
    # trace counting when bitset = 0)
    H = HypothesisClass.from_sets(sets, domain=range(10), storage="sparse")
    _check(H, brute_set_vc(sets, range(10)), trial, bitset)


@pytest.mark.parametrize("pool", [0, 3], ids=["no-pool", "pool-3"])
@given(sets=st.lists(st.frozensets(st.integers(0, 9), min_size=2, max_size=10), min_size=16, max_size=48))
def test_sparse_vc_with_a_full_triple_pool_matches_the_brute_force(sets, pool):
    # The pool of passing third elements full at once (0) or soon (3): pairs go unfiltered, and the level-2
    # test of the clique search, implied only where the triple filter cut the list, must run.
    H = HypothesisClass.from_sets(sets, domain=range(10), storage="sparse")
    _check(H, brute_set_vc(sets, range(10)), 0, sparse_vc.BITSET_CELLS, pool)


@given(copies=st.lists(st.integers(0, 5), min_size=8, max_size=8), need=st.integers(1, 4))
def test_the_triple_test_by_inclusion_and_exclusion_counts_the_eight_traces(copies, need):
    from dimcalc.vc.sparse_clique import _triple_ok

    sets = [set(T) for T, c in zip(_subsets((0, 1, 2)), copies) for _ in range(c)]  # c copies of trace T
    traces = [sum(1 for r in sets if r & {0, 1, 2} == set(T)) for T in _subsets((0, 1, 2))]
    size = [sum(1 for r in sets if x in r) for x in range(3)]
    pair = [sum(1 for r in sets if {x, y} <= r) for x, y in ((0, 1), (0, 2), (1, 2))]
    t = sum(1 for r in sets if {0, 1, 2} <= r)
    assert _triple_ok(t, *size, *pair, len(sets), need) == (min(traces) >= need)


def _subsets(items: tuple[int, ...]) -> list[tuple[int, ...]]:
    return [tuple(x for i, x in enumerate(items) if mask >> i & 1) for mask in range(1 << len(items))]


@given(sets=set_systems, seed=st.integers(0, 2**32 - 1))
def test_sparse_vc_is_invariant_under_relabelling(sets, seed):
    rng = random.Random(seed)
    perm = list(range(8))
    rng.shuffle(perm)
    renamed = [frozenset(perm[x] for x in r) for r in sets]
    rng.shuffle(renamed)
    a = vc_dimension(HypothesisClass.from_sets(sets, domain=range(8), storage="sparse"))
    b = vc_dimension(HypothesisClass.from_sets(renamed, domain=range(8), storage="sparse"))
    assert a.value == b.value


@given(sets=set_systems)
def test_sparse_storage_reads_like_the_dense_table(sets):
    S = HypothesisClass.from_sets(sets, domain=range(8), storage="sparse")
    D = HypothesisClass.from_sets(sets, domain=range(8), storage="dense")
    assert S == D and hash(S) == hash(D)
    assert S.table.tolist() == D.table.tolist()
    assert S.n_distinct == D.n_distinct
    assert S.distinct_to_row.tolist() == D.distinct_to_row.tolist()
    assert S.row_to_distinct.tolist() == D.row_to_distinct.tolist()
    assert S.distinct_rows.tolist() == D.distinct_rows.tolist()
    assert S.columns([3, 0]).tolist() == D.columns([3, 0]).tolist()
    assert S.point_label_words(range(8)).tolist() == D.point_label_words(range(8)).tolist()
    assert S.labels_used == D.labels_used
    assert all(S.label(r, p) == D.label(r, p) for r in range(S.n_hypotheses) for p in range(8))


@TRIALS
@pytest.mark.parametrize("seed", range(3))
def test_dense_and_sparse_agree_on_random_graphs(seed, trial, monkeypatch):
    monkeypatch.setattr(sparse_vc, "TRIAL_NODES", trial)
    rng = np.random.default_rng(seed)
    graphs_ = [
        nx.random_geometric_graph(600, 0.07, seed=seed),
        nx.barabasi_albert_graph(800, 3, seed=seed),
        nx.gnp_random_graph(300, float(rng.uniform(0.02, 0.08)), seed=seed),
        nx.powerlaw_cluster_graph(500, 4, 0.3, seed=seed),
    ]
    for G in graphs_:
        S = HypothesisClass.from_networkx(G, storage="sparse")
        B = HypothesisClass.from_networkx(G, storage="bits")
        rs, rb = vc_dimension(S), vc_dimension(B)
        assert rs.exact and rs.value == rb.value
        assert rs.verify(S, debug=True) and rs.verify(B, debug=True)
        assert shattered(closed_neighbourhoods({v: set(G[v]) for v in G}), rs.witness)


def test_dense_and_sparse_agree_on_a_random_set_system_of_a_few_thousand_elements():
    rng = np.random.default_rng(7)
    sets = [set(rng.choice(3000, size=int(rng.integers(1, 40)), replace=False).tolist()) for _ in range(2500)]
    S = HypothesisClass.from_sets(sets, domain=range(3000), storage="sparse")
    B = HypothesisClass.from_sets(sets, domain=range(3000), storage="bits")
    rs, rb = vc_dimension(S), vc_dimension(B)
    assert rs.exact and rs.value == rb.value and rs.verify(B, debug=True)


def test_duplicate_and_empty_sets_count_once():
    H = HypothesisClass.from_sets([{0}, {0}, set(), set(), {1}, {0, 1}], storage="sparse")
    assert H.n_distinct == 4 and H.distinct_to_row.tolist() == [0, 2, 4, 5]
    assert vc_dimension(H).value == 2
    assert vc_dimension(HypothesisClass.from_sets([{0}, {0}, {0}], storage="sparse")).value == 0


def test_a_stopped_search_returns_proven_bounds():
    G = nx.barabasi_albert_graph(3000, 5, seed=1)
    H = HypothesisClass.from_networkx(G, storage="sparse")
    exact = vc_dimension(H)
    stopped = vc_dimension(H, time_limit=1e-6)
    assert not stopped.exact and stopped.stats["stopped"] == "time limit"
    assert stopped.lower <= exact.value <= stopped.upper
    assert stopped.verify(H)


def test_static_upper_bound_holds_and_is_tight_on_the_cube():
    sets = [set(c) for k in range(4) for c in __import__("itertools").combinations(range(3), k)]
    H = HypothesisClass.from_sets(sets, storage="sparse")
    T = H.distinct_sparse_table
    assert sparse_vc.static_upper_bound(T, T.degrees()) == 3 == vc_dimension(H).value


def test_from_scipy_sparse_and_refusals():
    M = sp.random(50, 30, density=0.1, random_state=0, format="csr")
    M.data[:] = 1
    H = HypothesisClass.from_scipy_sparse(M, storage="sparse")
    assert H.table.tolist() == (M.toarray() != 0).astype(int).tolist()
    M.data[0] = 2
    with pytest.raises(InvalidClassError, match="entry"):
        HypothesisClass.from_scipy_sparse(M)
    with pytest.raises(InvalidClassError, match="scipy sparse"):
        HypothesisClass.from_scipy_sparse([[1, 0]])


def test_a_big_sparse_class_refuses_dense_views_in_one_line():
    n = 20_000
    T = SparseTable.from_cells(n, n, np.arange(n), np.arange(n))  # the identity: 4e8 cells
    H = HypothesisClass(T, num_labels=2)
    assert H.storage == "sparse"
    for view in ("table", "distinct_rows", "bit_table"):
        with pytest.raises(InvalidClassError, match="sparse class would have 20000x20000 cells") as info:
            getattr(H, view)
        assert "\n" not in str(info.value)
    with pytest.raises(InvalidClassError, match="dense view"):
        H.column_reduction()
    assert vc_dimension(H).value == 1  # the search reads the incidences


def test_auto_storage_picks_sparse_for_large_sparse_graphs_only():
    assert HypothesisClass.from_networkx(nx.path_graph(10)).storage == "dense"
    assert HypothesisClass.from_networkx(nx.path_graph(2000)).storage == "sparse"
    assert HypothesisClass.from_networkx(nx.complete_graph(1100)).storage == "bits"


def test_distinct_rows_are_exact_under_hash_collisions(monkeypatch):
    def colliding(n_cols: int) -> list[np.ndarray]:  # every row of one size hashes alike
        return [np.ones(n_cols, dtype=np.uint64), np.ones(n_cols, dtype=np.uint64)]

    monkeypatch.setattr(SparseTable, "_hash_keys", staticmethod(colliding))
    T = SparseTable.from_cells(5, 3, [0, 1, 2, 3, 3, 4, 4], [0, 1, 0, 0, 2, 0, 2])
    first, inverse = T.distinct_rows()
    assert first.tolist() == [0, 1, 3] and inverse.tolist() == [0, 1, 0, 2, 2]


def test_check_on_a_big_sparse_class_bounds_what_it_cannot_search():
    from dimcalc.reports.check import check_class

    n = 12_000
    rows = np.concatenate([np.arange(n), np.arange(n - 1)])
    cols = np.concatenate([np.arange(n), np.arange(1, n)])
    H = HypothesisClass(SparseTable.from_cells(n, n, rows, cols), num_labels=2)  # intervals {i, i+1}: VC 2
    report = check_class(H, ["vc", "graph", "littlestone", "multiclass_littlestone", "psi_littlestone"])
    d = report.dimensions
    assert d["vc"].value == 2 and d["graph"].value == 2
    assert (d["littlestone"].lower, d["littlestone"].upper) == (2, H.log2_size())
    assert (d["multiclass_littlestone"].lower, d["multiclass_littlestone"].upper) == (2, H.log2_size())
    assert d["psi_littlestone"].reason.startswith("not computed")
    assert report.verify()


@given(sets=set_systems)
def test_the_numpy_and_scipy_transposes_agree(sets):
    import dimcalc.classes.sparse_table as st_mod

    H = HypothesisClass.from_sets(sets, domain=range(8), storage="sparse")
    T = H.sparse_table
    a = SparseTable(T.indptr, T.indices, T.n_cols).transpose()  # numpy (small)
    saved, st_mod.NUMPY_TRANSPOSE_MAX = st_mod.NUMPY_TRANSPOSE_MAX, -1
    try:
        b = SparseTable(T.indptr, T.indices, T.n_cols).transpose()  # scipy
    finally:
        st_mod.NUMPY_TRANSPOSE_MAX = saved
    assert a[0].tolist() == b[0].tolist() and a[1].tolist() == b[1].tolist()
    dense = T.dense()
    for x in range(T.n_cols):
        assert a[1][a[0][x] : a[0][x + 1]].tolist() == np.flatnonzero(dense[:, x]).tolist()


@given(sets=set_systems)
def test_the_greedy_mistake_tree_is_a_mistake_tree_within_the_littlestone_dimension(sets):
    from brute_sparse import brute_set_ldim, is_set_mistake_tree
    from dimcalc.vc.sparse_trees import greedy_mistake_tree
    from dimcalc.witnesses.tree_checks import is_mistake_tree

    H = HypothesisClass.from_sets(sets, domain=range(8), storage="sparse")
    tree, depth = greedy_mistake_tree(H)
    family = [frozenset(r) for r in sets]
    assert is_set_mistake_tree(family, list(range(8)), tree) == depth  # definition-level, on the sets
    assert is_mistake_tree(H, tree)  # dimcalc's checker, on the sparse storage
    assert (len(set(family)) >= 2) <= (depth >= 1) and depth <= brute_set_ldim(family)


@pytest.mark.parametrize("k", [0, 1, 3, 6])
def test_the_greedy_mistake_tree_of_thresholds_is_a_binary_search(k):
    from dimcalc.vc.sparse_trees import greedy_mistake_tree

    n = 2**k
    H = HypothesisClass.from_sets([range(i) for i in range(n)], domain=range(n), storage="sparse")
    assert greedy_mistake_tree(H)[1] == k  # LDim of 2^k thresholds


@given(sets=set_systems, mask=st.lists(st.booleans(), min_size=8, max_size=8))
def test_anchor_counts_count_each_sets_candidates(sets, mask):
    T = HypothesisClass.from_sets(sets, domain=range(8), storage="sparse").sparse_table
    got = sparse_vc.anchor_counts(T, np.array(mask)).tolist()
    assert got == [sum(mask[x] for x in T.row(r).tolist()) for r in range(T.n_rows)]
