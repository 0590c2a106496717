"""Shared test setup: hypothesis profiles and small helpers."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

from tests.support import skipped_extras
from tests.support.example_package import register_example_package

# "ci": reproducible (derandomized), no deadline on a busy machine, and a
# failing example printed as a blob to replay; the default everywhere, so the
# README's `pytest` runs the same examples on every machine as CI does.
# "dev" (HYPOTHESIS_PROFILE=dev): hypothesis' random search without the
# deadline, to hunt for new counter-examples by hand.
settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture
def example_package(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """The example plugin package's plugin and profile, found by entry point as if installed."""
    register_example_package(tmp_path_factory.mktemp("site"), monkeypatch)


def pytest_configure(config: pytest.Config) -> None:
    # The README's run in .ci/run writes what it skipped, and the tests marked
    # `extras`, for the run with every extra (tests/support/skipped_extras.py).
    skipped_extras.configure(config)


# Tests that need an optional extra (rl, ray, browser, docs) skip without it,
# with a reason that names the extra, so the README's `pytest` passes after
# the README's `pip install -e '.[dev]'`. Once .ci/run has installed every
# extra it runs again, with RAMI_REQUIRE_EXTRAS=1, what the README's run skipped
# and the tests marked `extras`: such a skip is then a failure, so no test that
# needs an extra goes unrun in CI.
EXTRA_MISSING = "extra is not installed"


def _required(report: pytest.CollectReport | pytest.TestReport) -> None:
    if report.skipped and os.environ.get("RAMI_REQUIRE_EXTRAS") and EXTRA_MISSING in str(report.longrepr):
        report.outcome = "failed"
        report.longrepr = f"RAMI_REQUIRE_EXTRAS is set, yet this skips: {report.longrepr}"


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector):
    outcome = yield
    _required(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    outcome = yield
    _required(outcome.get_result())
