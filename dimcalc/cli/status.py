"""Exit statuses of the ``dimcalc`` command (interface spec §4).

* ``0`` done;
* ``1`` an internal error, a witness that failed dimcalc's checker, or output that could not be written;
* ``2`` refused input (bad file, bad option): one line on stderr, no traceback;
* ``3`` a time (or memory) limit stopped a search: the bounds found are reported;
* ``130`` interrupted (Ctrl-C), one line on stderr, at any moment.
"""

from __future__ import annotations

from .._startup import EXIT_INTERRUPTED

__all__ = ["EXIT_OK", "EXIT_FAILURE", "EXIT_INPUT", "EXIT_TIME_LIMIT", "EXIT_INTERRUPTED"]

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_INPUT = 2
EXIT_TIME_LIMIT = 3
