"""Time and memory budgets (dimcalc.search.budget): a search stopped by either reports proven bounds."""

from __future__ import annotations

import numpy as np
import pytest

import dimcalc
from dimcalc.generators import random_class, thresholds
from dimcalc.search import budget as _budget
from dimcalc.search.budget import Deadline, resident_bytes


def test_resident_bytes_is_plausible():
    rss = resident_bytes()
    if rss is None:
        pytest.skip("no /proc on this platform")
    assert 1 << 20 < rss < 1 << 40


def test_unlimited_deadline_never_expires_without_memory_limit(monkeypatch):
    monkeypatch.setattr(_budget, "MEMORY_LIMIT_BYTES", None)
    d = Deadline(None)
    assert not any(d.expired() for _ in range(10_000))
    assert not d.expired() and d.reason is None


def test_time_budget_expires_with_reason_time():
    d = Deadline(1e-9)
    assert d.expired() and d.reason == "time"
    assert d.expired()  # stays expired
    with pytest.raises(_budget.SearchStopped):
        d.check()


def test_memory_budget_expires_with_reason_memory(monkeypatch):
    if resident_bytes() is None:
        pytest.skip("no /proc on this platform")
    monkeypatch.setattr(_budget, "MEMORY_LIMIT_BYTES", 1 << 20)
    d = Deadline(None)
    ballast = np.ones(64 << 20, dtype=np.uint8)  # 64 MiB, touched: resident
    assert ballast.sum() == 64 << 20
    monkeypatch.setattr(Deadline, "MEMORY_POLL_SECONDS", 0.0)
    assert d.expired()
    assert d.reason == "memory"


def test_memory_growth_is_measured_from_the_deadline(monkeypatch):
    """A process that is already large does not stop a new search: only growth counts."""
    if resident_bytes() is None:
        pytest.skip("no /proc on this platform")
    ballast = np.ones(64 << 20, dtype=np.uint8)
    assert ballast.sum() == 64 << 20
    monkeypatch.setattr(_budget, "MEMORY_LIMIT_BYTES", 32 << 20)
    monkeypatch.setattr(Deadline, "MEMORY_POLL_SECONDS", 0.0)
    d = Deadline(None)
    assert not any(d.expired() for _ in range(100))


def test_littlestone_stopped_by_memory_reports_verified_bounds(monkeypatch):
    if resident_bytes() is None:
        pytest.skip("no /proc on this platform")
    H = random_class(400, 24, random_state=3)
    monkeypatch.setattr(_budget, "MEMORY_LIMIT_BYTES", -1)  # a cap below the current size: the first poll stops
    monkeypatch.setattr(Deadline, "MEMORY_POLL_SECONDS", 0.0)  # memory read at every poll
    r = dimcalc.littlestone_dimension(H)
    assert not r.exact and r.value is None
    assert r.stats["stopped"] == "memory limit"
    assert r.lower <= r.upper and r.verify(H)
    monkeypatch.setattr(_budget, "MEMORY_LIMIT_BYTES", None)
    full = dimcalc.littlestone_dimension(H)
    assert full.exact and r.lower <= full.value <= r.upper


def test_vc_stopped_by_memory_reports_verified_bounds(monkeypatch):
    if resident_bytes() is None:
        pytest.skip("no /proc on this platform")
    H = thresholds(200)
    monkeypatch.setattr(_budget, "MEMORY_LIMIT_BYTES", -1)
    monkeypatch.setattr(Deadline, "MEMORY_POLL_SECONDS", 0.0)
    r = dimcalc.vc_dimension(H)
    assert not r.exact and r.stats["stopped"] == "memory limit"
    assert r.lower <= 1 <= r.upper and r.verify(H)


def test_left_never_hands_a_solver_zero():
    d = Deadline(1e-9)
    assert d.expired() and d.left() == 1e-3
    assert Deadline(None).left() is None and Deadline(None).left(default=5.0) == 5.0
