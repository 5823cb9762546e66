"""The one search core: time and memory budgets, the stop exception, progress, and the process pool.

:mod:`dimcalc.search.budget` holds :class:`~dimcalc.search.budget.Deadline`
(time and memory budget, shares), :class:`~dimcalc.search.budget.SearchStopped`
and :class:`~dimcalc.search.budget.Progress`; :mod:`dimcalc.search.pool` runs the
ordered pieces of one search in worker processes with the answer of one process.
"""

from __future__ import annotations

from .budget import Deadline, Progress, SearchStopped
from .pool import can_fork, first_answer

__all__ = ["Deadline", "Progress", "SearchStopped", "can_fork", "first_answer"]
