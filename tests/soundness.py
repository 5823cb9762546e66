"""What a budgeted search may answer: exact and right, or stopped with proven, verified bounds.

Tests of time limits use :func:`assert_sound` instead of asserting that a search is too slow to
finish (such a test fails the day the search gets faster).  Imports nothing from dimcalc.
"""

from __future__ import annotations

from typing import Any


def assert_sound(
    r: Any, H: Any, *, true: int | None = None, stopped: str = "time limit", high: int | None = None
) -> None:
    """``r`` is exact (and equal to ``true`` when known) or stopped by ``stopped`` with bounds around ``true``.

    Either way its bounds are ordered, at most ``high`` (e.g. ``log2 |H|``), and its witness verifies.
    """
    assert r.lower is not None and r.upper is not None and 0 <= r.lower <= r.upper
    if high is not None:
        assert r.upper <= high
    if true is not None:
        assert r.lower <= true <= r.upper
    if r.exact:
        assert r.value == r.lower == r.upper
        assert true is None or r.value == true
    else:
        assert r.value is None and r.stats.get("stopped") == stopped
    assert r.verify(H)
