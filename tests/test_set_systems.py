"""Set systems and graph neighbourhoods as classes: HypothesisClass.from_sets / from_networkx.

Checked against hand-built tables, against the definition (the VC dimension of a set system computed by a brute
force written here, on the sets themselves, never on dimcalc's table) and against closed forms for named graphs.
"""

import itertools

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dimcalc import HypothesisClass, InvalidClassError, vc_dimension
from profile_examples import examples


def set_system_vc(sets, elements):
    """VC dimension of a set system by the definition: the largest S with every subset of S an intersection S ∩ R.

    Shattered sets are closed under subsets, so the search stops at the first size with none.
    """
    sets = [frozenset(s) for s in sets]
    best = 0
    for k in range(1, len(elements) + 1):
        if not any(len({frozenset(S) & R for R in sets}) == 2**k for S in itertools.combinations(elements, k)):
            break
        best = k
    return best


def closed_neighbourhoods(G):
    return [set(G[v]) | {v} for v in G]


def assert_shattered_by_sets(witness_nodes, sets):
    traces = {frozenset(witness_nodes) & frozenset(R) for R in sets}
    assert len(traces) == 2 ** len(witness_nodes)


# ---------------------------------------------------------------- from_sets: tables
def test_from_sets_hand_built_table():
    H = HypothesisClass.from_sets([{1, 2}, [2, 3, 3], ()], name="s")
    assert H.point_names == ("1", "2", "3") and H.name == "s" and H.num_labels == 2
    assert H.table.tolist() == [[1, 1, 0], [0, 1, 1], [0, 0, 0]]
    assert H.n_distinct == 3


def test_from_sets_given_domain_orders_columns_and_keeps_unused_points():
    H = HypothesisClass.from_sets([["b"], ["a", "b"]], domain=["c", "b", "a"])
    assert H.point_names == ("c", "b", "a")
    assert H.table.tolist() == [[0, 1, 0], [0, 1, 1]]


def test_from_sets_default_domain_sorted_else_first_appearance():
    assert HypothesisClass.from_sets([[3, 1], [2]]).point_names == ("1", "2", "3")
    assert HypothesisClass.from_sets([[(1, "b"), (0, "z")]]).point_names == ("(0, 'z')", "(1, 'b')")
    # ints and strings do not sort together: order of first appearance, within a set in its own order
    H = HypothesisClass.from_sets([["z", 2], [1, "z"]])
    assert H.point_names == ("z", "2", "1")
    assert H.table.tolist() == [[1, 1, 0], [1, 0, 1]]


def test_from_sets_names_from_a_mapping_and_iterators_accepted():
    H = HypothesisClass.from_sets({"even": (x for x in (0, 2)), 7: iter([1])})
    assert H.hypothesis_names == ("even", "7")
    assert H.table.tolist() == [[1, 0, 1], [0, 1, 0]]
    G = HypothesisClass.from_sets(iter([frozenset({0}), frozenset()]), domain=range(2))
    assert G.table.tolist() == [[1, 0], [0, 0]]


def test_from_sets_mixed_ints_and_strings_are_not_merged():
    H = HypothesisClass.from_sets([[1, "1", 2], ["2"]], domain=[2, "2", 1, "1"])
    assert H.point_names == ("2", "'2'", "1", "'1'") and H.table.tolist() == [[1, 0, 1, 1], [0, 1, 0, 0]]
    with pytest.raises(InvalidClassError, match="set 1: element '1' is not in the domain"):
        HypothesisClass.from_sets([[1], ["1"]], domain=[1, 2])
    with pytest.raises(InvalidClassError, match="set 2: element 9 is not in the domain"):
        HypothesisClass.from_sets([[1], [], [2, 9]], domain=[1, 2])
    with pytest.raises(InvalidClassError, match="set 0: element 'c' is not in the domain"):
        HypothesisClass.from_sets([["c"]], domain=["a", "b"])
    with pytest.raises(InvalidClassError, match="set 0: element 1 is not in the domain"):
        HypothesisClass.from_sets([[1]], domain=[])


def test_from_sets_colliding_str_names_fall_back_to_repr():
    H = HypothesisClass.from_sets([[1], ["1"]])
    assert H.point_names == ("1", "'1'")
    assert H.table.tolist() == [[1, 0], [0, 1]]


def test_from_sets_no_elements_at_all():
    H = HypothesisClass.from_sets([[], []])
    assert H.n_points == 0 and H.n_hypotheses == 2 and H.n_distinct == 1


@pytest.mark.parametrize(
    "sets, domain, fragment",
    [
        ([], None, "the class is empty"),
        (3, None, "iterable of sets"),
        ("ab", None, "iterable of sets"),
        (["ab"], None, "set 0: 'ab' is not a set"),
        ([[1], 5], None, "set 1: 5 is not a set"),
        ([[1, [2]]], None, "set 0: element [2] is not hashable"),
        ([[(1, [2])]], None, "not hashable"),
        ([[1], [2]], [1], "set 1: element 2 is not in the domain"),
        ([[1]], [1, 1], "domain[1]: element 1 is repeated"),
        ([[1]], [[1]], "domain[0]: element [1] is not hashable"),
        ([[1]], "ab", "domain must be an iterable"),
        ([[1]], 5, "domain must be an iterable"),
    ],
)
def test_from_sets_refuses_bad_input_with_one_line(sets, domain, fragment):
    with pytest.raises(InvalidClassError) as info:
        HypothesisClass.from_sets(sets, domain)
    assert fragment in str(info.value) and "\n" not in str(info.value)


def test_from_sets_over_the_cell_limit_is_stored_sparse(monkeypatch):
    import dimcalc.classes.table_input as limits

    monkeypatch.setattr(limits, "MAX_BINARY_CELLS", 5)  # over the dense limit: kept by its incidences
    H = HypothesisClass.from_sets([[0, 1, 2], [3]])
    assert H.storage == "sparse" and H.table.tolist() == [[1, 1, 1, 0], [0, 0, 0, 1]]
    with pytest.raises(InvalidClassError, match="more than dimcalc's limit"):
        HypothesisClass.from_sets([[0, 1, 2], [3]], storage="bits")


set_systems = st.lists(st.frozensets(st.integers(0, 6), max_size=7), min_size=1, max_size=9)


# Same order as the ints they code: ints and strings take the numpy path, tuples and mixed types the dict path.
ELEMENT_CODES = {
    "int": lambda i: i,
    "str": lambda i: f"e{i:02d}",
    "tuple": lambda i: (i, "x"),
    "nul-str": lambda i: "a" + "\0" * i,
}


@given(set_systems, st.booleans(), st.sampled_from(sorted(ELEMENT_CODES)))
def test_from_sets_matches_the_definition(int_sets, give_domain, code_name):
    code = ELEMENT_CODES[code_name]
    sets = [frozenset(map(code, s)) for s in int_sets]
    domain = [code(i) for i in (range(8) if give_domain else sorted(set().union(*int_sets)))]
    H = HypothesisClass.from_sets(sets, domain if give_domain else None)
    assert H.point_names == tuple(str(e) for e in domain)
    expected = [[int(e in s) for e in domain] for s in sets]
    assert H.table.tolist() == expected
    result = vc_dimension(H)
    assert result.exact and result.value == set_system_vc(sets, domain)
    assert_shattered_by_sets([domain[i] for i in result.witness], sets)


# ---------------------------------------------------------------- from_networkx: tables
def test_from_networkx_path_closed_and_open():
    G = nx.path_graph(4)
    assert HypothesisClass.from_networkx(G).table.tolist() == [[1, 1, 0, 0], [1, 1, 1, 0], [0, 1, 1, 1], [0, 0, 1, 1]]
    assert HypothesisClass.from_networkx(G, closed=False).table.tolist() == [
        [0, 1, 0, 0],
        [1, 0, 1, 0],
        [0, 1, 0, 1],
        [0, 0, 1, 0],
    ]


def test_from_networkx_names_order_loops_and_multigraphs():
    G = nx.Graph([("b", "a"), ("a", "c")], name="tiny")
    G.add_node("d")
    H = HypothesisClass.from_networkx(G)
    assert H.point_names == H.hypothesis_names == ("b", "a", "c", "d") and H.name == "tiny"
    assert H.table.tolist() == [[1, 1, 0, 0], [1, 1, 1, 0], [0, 1, 1, 0], [0, 0, 0, 1]]
    assert H.metadata == {"family": "graph-neighbourhoods", "closed": True, "nodes": 4, "edges": 2}
    assert HypothesisClass.from_networkx(G, name="other").name == "other"
    M = nx.MultiGraph([(0, 1), (0, 1), (1, 1)])
    assert HypothesisClass.from_networkx(M).table.tolist() == [[1, 1], [1, 1]]
    assert HypothesisClass.from_networkx(M, closed=False).table.tolist() == [[0, 1], [1, 1]]  # the loop: 1 ∈ N(1)
    grid = HypothesisClass.from_networkx(nx.grid_2d_graph(2, 2))
    assert grid.point_names == ("(0, 0)", "(0, 1)", "(1, 0)", "(1, 1)")


@pytest.mark.parametrize(
    "G, fragment",
    [
        (nx.DiGraph([(0, 1)]), "directed"),
        (nx.Graph(), "no node"),
        ([[0, 1]], "networkx graph"),
    ],
)
def test_from_networkx_refuses_bad_input(G, fragment):
    with pytest.raises(InvalidClassError, match=fragment):
        HypothesisClass.from_networkx(G)


def test_from_networkx_over_the_cell_limit_is_stored_sparse(monkeypatch):
    import dimcalc.classes.table_input as limits

    monkeypatch.setattr(limits, "MAX_BINARY_CELLS", 8)  # over the dense limit: kept by its incidences
    H = HypothesisClass.from_networkx(nx.path_graph(3))
    assert H.storage == "sparse" and H.table.tolist() == [[1, 1, 0], [1, 1, 1], [0, 1, 1]]


# ---------------------------------------------------------------- graph VC dimension: definition and closed forms
def _check_graph(G):
    H = HypothesisClass.from_networkx(G)
    nodes = list(G)
    sets = closed_neighbourhoods(G)
    assert H == HypothesisClass.from_sets(sets, nodes)  # two builders, one table
    result = vc_dimension(H)
    assert result.exact
    assert_shattered_by_sets([nodes[i] for i in result.witness], sets)
    return result.value


def test_graph_vc_of_every_graph_up_to_six_nodes_matches_brute_force():
    for G in nx.graph_atlas_g()[1:209]:  # the 208 graphs on 1..6 nodes
        assert _check_graph(G) == set_system_vc(closed_neighbourhoods(G), list(G)), G.edges


@settings(max_examples=examples(40))
@given(st.integers(7, 10), st.floats(0.1, 0.9), st.integers(0, 2**16))
def test_graph_vc_of_random_graphs_matches_brute_force(n, p, seed):
    G = nx.gnp_random_graph(n, p, seed=seed)
    assert _check_graph(G) == set_system_vc(closed_neighbourhoods(G), list(G))


@pytest.mark.parametrize("n", range(1, 9))
def test_graph_vc_closed_forms(n):
    # K_n: every N[v] is V, one set, nothing shattered.
    assert _check_graph(nx.complete_graph(n)) == 0
    # Edgeless: N[v] = {v}; {v} is shattered by {v} and {u} once there are two nodes; no pair ({u, v} never inside).
    assert _check_graph(nx.empty_graph(n)) == (1 if n >= 2 else 0)
    # Star K_{1,m} (m = n leaves): every N[v] holds the centre; N[leaf] = {leaf, centre}, so two leaves are
    # shattered once a third leaf gives the empty trace, never three leaves (no N holds exactly two).
    assert _check_graph(nx.star_graph(n)) == (2 if n >= 3 else 1 if n == 2 else 0)
    # Path P_n: N[v] is an interval of <= 3 nodes, so no 3 nodes (the middle one cannot be left out); 2 adjacent
    # inner nodes are shattered from n = 5 on; P_3, P_4 shatter a single node only.
    assert _check_graph(nx.path_graph(n)) == (2 if n >= 5 else 1 if n >= 3 else 0)
    # Cycle C_n (n >= 3): N[v] is an arc of 3; C_3 = K_3, C_4's sets are V minus a node, from C_5 on two adjacent
    # nodes are shattered and three never are (an arc holding all three is consecutive and cannot skip the middle).
    if n >= 3:
        assert _check_graph(nx.cycle_graph(n)) == (2 if n >= 5 else 1 if n == 4 else 0)


def test_graph_vc_of_named_graphs():
    # Petersen: 10 closed neighbourhoods of size 4; brute force gives its value.
    for G in (nx.petersen_graph(), nx.hypercube_graph(3), nx.complete_bipartite_graph(3, 4)):
        assert _check_graph(G) == set_system_vc(closed_neighbourhoods(G), list(G))
