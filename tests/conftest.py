"""Shared test configuration: deterministic hypothesis runs (no flaky CI), safe under pytest-xdist.

``dimcalc`` (the default profile, ``make test``) draws 200 examples per property; ``fast``
(``make test-fast``) draws 50 of the same derandomised examples.  Neither profile uses an example
database, so parallel workers share no files.  Choose one with ``DIMCALC_HYPOTHESIS_PROFILE``.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "dimcalc",
    deadline=None,
    derandomize=True,
    database=None,
    max_examples=200,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.register_profile("fast", parent=settings.get_profile("dimcalc"), max_examples=50)
settings.load_profile(os.environ.get("DIMCALC_HYPOTHESIS_PROFILE", "dimcalc"))
