"""The closure refutation (dimcalc.vc.closure) against the definitions, on random closed and non-closed classes.

The brute force here imports nothing from dimcalc: members are Python int
bitsets over ``n`` points; the closure of ``A`` is the intersection of the
members containing ``A``; ``S`` is independent when a member contains it and
no ``z`` in ``S`` lies in the closure of ``S - {z}``; shattered when all
``2^|S|`` patterns occur.  Checked: the irreducible members give every
closure, the independence number found equals the definition's on every
class, the theorem the refutation stands on (VC <= independence number,
equal on intersection-closed classes -- Helmbold, Sloan, Warmuth 1990), and
``vc_dimension`` with the refutation forced on, on intersection-closed
classes (where it decides) and on others (where it must not decide wrongly).
"""

from __future__ import annotations

import itertools
import time

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dimcalc
from dimcalc import HypothesisClass
from dimcalc import generators as g
from dimcalc.search.budget import Deadline, SearchStopped
from dimcalc.vc import closure, search, vc_dimension
from dimcalc.vc.columns import pack_rows
from profile_examples import examples


def _close(members: list[int], union: bool = False) -> list[int]:
    """The family closed under pairwise intersection (the empty set included when it arises), or union."""
    out = set(members)
    while True:
        more = {(a | b) if union else (a & b) for a in out for b in out} - out
        if not more:
            return sorted(out)
        out |= more


@st.composite
def families(draw, closed: bool | None = None):
    """``(n, members)``: a family of subsets of ``n`` points; closed under intersection (or, a third of the
    time, under union) when ``closed``."""
    n = draw(st.integers(1, 7))
    members = draw(st.lists(st.integers(0, (1 << n) - 1), min_size=1, max_size=24))
    if closed is None:
        closed = draw(st.booleans())
    if closed:
        members = _close(members, union=draw(st.integers(0, 2)) == 0)
    return n, sorted(set(members))


def _cl(members: list[int], a: int) -> int | None:
    """Definition: the intersection of the members containing ``a`` (``None``: no member contains it)."""
    out = None
    for c in members:
        if c & a == a:
            out = c if out is None else out & c
    return out


def _independent(members: list[int], s: tuple[int, ...]) -> bool:
    full = sum(1 << p for p in s)
    if _cl(members, full) is None:
        return False
    for z in s:
        rest = _cl(members, full & ~(1 << z))
        if rest is not None and rest >> z & 1:
            return False
    return True


def _shattered(members: list[int], s: tuple[int, ...]) -> bool:
    return len({tuple(c >> p & 1 for p in s) for c in members}) == 2 ** len(s)


def _largest(members: list[int], n: int, test) -> int:
    return max((k for k in range(n + 1) for s in itertools.combinations(range(n), k) if test(members, s)), default=0)


def _table(n: int, members: list[int]) -> np.ndarray:
    return np.array([[c >> p & 1 for p in range(n)] for c in members], dtype=np.int64).reshape(len(members), n)


def _is_closed(members: list[int]) -> bool:
    return all(a & b in members for a in members for b in members)


@settings(max_examples=examples(200), deadline=None)
@given(families())
def test_irreducible_members_give_every_closure(drawn):
    """Every member is the intersection of the irreducibles containing it, so every closure is theirs."""
    n, members = drawn
    G = closure.irreducible_rows(pack_rows(_table(n, members)), n, jit=False)
    assert G is not None
    irr = [int(r[0]) for r in G]
    assert set(irr) <= set(members)
    for a in range(1 << n):
        assert _cl(irr, a) == _cl(members, a), (members, irr, a)


@settings(max_examples=examples(200), deadline=None)
@given(families())
def test_independence_number_matches_the_definition(drawn):
    """independence_number (irreducibles, clique search with the colouring bound) equals the definition's, and
    the set it returns is independent by the definition."""
    n, members = drawn
    value, points = closure.independence_number(_table(n, members))
    assert value == _largest(members, n, _independent)
    assert len(points) == value and _independent(members, tuple(points))


@settings(max_examples=examples(200), deadline=None)
@given(families())
def test_the_theorem_vc_at_most_independence_equal_when_closed(drawn):
    """The rule's ground, checked by brute force alone: a shattered set is independent (every class); on an
    intersection-closed class an independent set is shattered (Helmbold, Sloan, Warmuth 1990)."""
    n, members = drawn
    for k in range(n + 1):
        for s in itertools.combinations(range(n), k):
            if _shattered(members, s):
                assert _independent(members, s)
            elif _is_closed(members):
                assert not _independent(members, s)


@settings(max_examples=examples(200), deadline=None)
@given(families())
def test_decide_matches_the_definition_at_every_target(drawn):
    """The search's step (column words in, the rows over the points, irreducibles, clique search, shattered
    check) at every target: "refuted" only when no independent target-set exists, a set only when it is
    shattered, and on an intersection-closed class never undecided (of the members or of their complements,
    whichever has fewer irreducibles: union-closed classes are decided by their complements)."""
    n, members = drawn
    table = _table(n, members)
    ones = pack_rows(table.T)  # (points, words over the hypotheses)
    every = np.arange(n)
    saved = closure.FORCE
    closure.FORCE = True
    try:
        for target in range(1, n + 2):
            stats: dict = {}
            got = closure.Attempt().decide(ones, every, every, len(members), target, Deadline(None), stats)
            # Forced, the orientation with fewer irreducibles is used: the members or their complements.
            used = [~c & ((1 << n) - 1) for c in members] if stats.get("closure_complement") else members
            independence = _largest(used, n, _independent)
            if got == "refuted":
                assert independence < target
            elif got is None:
                assert independence >= target and not _is_closed(used)
            else:
                assert isinstance(got, list) and len(got) == target and _shattered(members, tuple(got))
    finally:
        closure.FORCE = saved


def _check_vc(n: int, members: list[int]) -> None:
    H = HypothesisClass(_table(n, members), num_labels=2)
    saved = closure.FORCE, search.TRACES
    closure.FORCE, search.TRACES = True, False
    try:
        r = vc_dimension(H)
    finally:
        closure.FORCE, search.TRACES = saved
    assert r.exact and r.value == _largest(members, n, _shattered)
    assert r.verify(H) and _shattered(members, tuple(r.witness))


@settings(max_examples=examples(150), deadline=None)
@given(families(closed=True))
def test_vc_with_closure_forced_on_closed_classes(drawn):
    """Intersection-closed classes: the closure search decides (refutes, or finds a shattered set): the
    brute-force value and a witness shattered by the definition."""
    _check_vc(*drawn)


@settings(max_examples=examples(150), deadline=None)
@given(families(closed=False))
def test_vc_with_closure_forced_on_other_classes(drawn):
    """Other classes: an independent set need not be shattered; the value is still the brute force's."""
    _check_vc(*drawn)


@settings(max_examples=examples(60), deadline=None)
@given(families(closed=True), st.sampled_from(["natarajan", "graph"]))
def test_binary_natarajan_and_graph_with_closure_forced(drawn, kind):
    """On a binary class the three notions are one: the same value, and a witness the checker accepts."""
    n, members = drawn
    H = HypothesisClass(_table(n, members), num_labels=2)
    saved = closure.FORCE
    closure.FORCE = True
    try:
        r = getattr(dimcalc, f"{kind}_dimension")(H)
    finally:
        closure.FORCE = saved
    assert r.exact and r.value == _largest(members, n, _shattered)
    assert r.verify(H)


@pytest.mark.parametrize(
    ("make", "value", "refuted"),
    [(lambda: g.boxes(3, 2), 4, 5), (lambda: g.intervals(64), 2, 3), (lambda: g.boxes(3, 3), 6, 7)],
    ids=["boxes-8x8", "intervals-64", "boxes-8x8x8"],
)
def test_measured_criterion_decides_boxes_and_intervals(make, value, refuted):
    """Boxes and intervals pass the measured criterion and are refuted by the colouring bound at once."""
    H = make()
    r = vc_dimension(H)
    assert (r.value, r.exact, r.stats.get("closure_refuted")) == (value, True, refuted)
    assert r.stats["closure_nodes"] <= 2
    assert r.verify(H)


def test_measured_criterion_declines_random_classes():
    """A random class: its irreducible members are most of its members, and the closure search declines."""
    rng = np.random.default_rng(0)
    H = HypothesisClass(rng.integers(0, 2, (2048, 14)), num_labels=2)
    r = vc_dimension(H)
    assert "declined" in r.stats.get("closure", "")
    assert "closure_refuted" not in r.stats


def test_closure_search_stops_within_its_time_limit(monkeypatch):
    """With no cap (forced), the irreducible pass over a large random class reads the deadline between steps."""
    monkeypatch.setattr(closure, "FORCE", True)
    monkeypatch.setattr(search, "TRACES", False)
    rng = np.random.default_rng(1)
    H = HypothesisClass(rng.integers(0, 2, (60_000, 40)), num_labels=2)
    start = time.monotonic()
    r = vc_dimension(H, time_limit=1.0)
    assert time.monotonic() - start < 10.0  # a hang guard (unlimited, it runs 14 s); the overrun is for the bench
    assert r.lower <= r.upper and r.verify(H)


def test_a_spent_deadline_stops_both_steps():
    rows = pack_rows(g.boxes(2, 2).distinct_rows)
    G = closure.irreducible_rows(rows, 16)
    assert G is not None
    spent = Deadline(0.0)
    time.sleep(0.01)
    with pytest.raises(SearchStopped):
        closure.irreducible_rows(rows, 16, spent)
    with pytest.raises(SearchStopped):
        closure.independent_set(G, 5, spent)


def test_work_budgets_give_up_without_a_claim():
    """Past its budget the irreducible pass declines (None) and the clique search raises GaveUp: neither proves."""
    rng = np.random.default_rng(2)
    rows = pack_rows(rng.integers(0, 2, (300, 14)))
    assert closure.irreducible_rows(rows, 14, max_words=1) is None
    G = closure.irreducible_rows(rows, 14)
    assert G is not None and len(G) > 150  # a random class: most of its 300 members are irreducible
    with pytest.raises(closure.GaveUp):  # unlimited, this search runs for a minute
        closure.independent_set(G, 7, max_tried=1)
