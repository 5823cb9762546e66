"""Example counts that follow the hypothesis profile chosen in ``conftest.py``.

A property that asks for ``examples(n)`` draws ``n`` examples under the full profile (``dimcalc``,
``make test``) and the same fraction of them as the profile's own default under a smaller one
(``fast``, ``make test-fast``: 15 of 100), never fewer than five.  Both profiles are
derandomised: each run of a property draws the same examples.
"""

from __future__ import annotations

from hypothesis import settings

#: ``max_examples`` of the full profile (conftest.py).
FULL = 100


def examples(n: int) -> int:
    """``n`` under the full profile, scaled like the loaded profile's ``max_examples`` otherwise (at least 5)."""
    return max(min(n, 5), n * settings.default.max_examples // FULL)
