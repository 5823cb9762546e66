"""The witness tree of a big class is written inside the time limit (the search leaves ``WRITE_RESERVE``
of it); when writing runs out, the greedy tree's bound stands, never an unwitnessed one."""

from __future__ import annotations

import pytest

import dimcalc.littlestone.api as api
from dimcalc import generators, littlestone_dimension
from dimcalc.littlestone.engine import Engine
from dimcalc.littlestone.splitters import splitter_for
from dimcalc.search.budget import Deadline, SearchStopped


def test_the_writer_reads_the_deadline():
    H = generators.thresholds(4095)  # LDim 12: a tree of 8 191 nodes
    engine = Engine(H, splitter_for(H, "LD"))
    lower, upper, _ = engine.solve(H.full_mask)
    assert lower == upper == 12
    expired = Deadline(1e-9)
    expired.expired()
    with pytest.raises(SearchStopped):
        engine.tree(H.full_mask, lower, deadline=expired)
    assert engine.tree(H.full_mask, lower, deadline=Deadline(60)) == engine.tree(H.full_mask, lower)


def test_a_tree_not_written_in_time_leaves_the_greedy_bound(monkeypatch):
    H = generators.boxes(3, 2)  # greedy 8 below LDim 9
    exact = littlestone_dimension(H)
    monkeypatch.setattr(api, "GREEDY_MIN_CELLS", 0)
    reserve = []
    original = Deadline.before_end

    def before_end(self, fraction):
        reserve.append(fraction)
        return original(self, fraction)

    def no_time(self, *args, **kwargs):  # the solver writes its tree under its deadline: none left
        raise SearchStopped("time")

    monkeypatch.setattr(Deadline, "before_end", before_end)
    monkeypatch.setattr(Engine, "tree", no_time)
    r = littlestone_dimension(H, time_limit=60)
    greedy, _ = api.greedy_lower_bound(H, H.log2_size(), Deadline(None))
    assert reserve == [api.WRITE_RESERVE]  # the search was given the limit less the reserve
    assert not r.exact and r.lower == greedy < exact.value and r.upper == exact.value
    assert r.stats["stopped"] == "time limit" and r.verify(H)


def test_a_memory_stop_keeps_the_searched_tree(monkeypatch):
    """Writing reads the clock only: after the memory budget ran out the memo is still there, and the tree the
    search proved is written (it was lost to the greedy tree's bound when the writer read the memory too)."""
    H = generators.boxes(3, 2)
    exact = littlestone_dimension(H)
    monkeypatch.setattr(api, "GREEDY_MIN_CELLS", 0)
    real = api.solve_root

    def solve_then_memory_over(engine, *args, **kwargs):
        out = real(engine, *args, **kwargs)
        monkeypatch.setattr(Deadline, "_memory_exceeded", lambda self, now: self._memory_cap is not None)
        return out

    monkeypatch.setattr(api, "solve_root", solve_then_memory_over)
    r = littlestone_dimension(H, time_limit=60)
    assert r.exact and r.value == exact.value and r.verify(H)
