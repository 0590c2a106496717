"""Shared test setup: hypothesis profiles and small helpers."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

# "ci": reproducible (derandomized), no deadline on a busy machine, and a
# failing example printed as a blob to replay. "dev": hypothesis' defaults
# without the deadline.
settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
