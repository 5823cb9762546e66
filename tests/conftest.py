"""Shared test configuration: deterministic hypothesis runs (no flaky CI)."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "dimcalc",
    deadline=None,
    derandomize=True,
    max_examples=200,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
settings.load_profile(os.environ.get("DIMCALC_HYPOTHESIS_PROFILE", "dimcalc"))
