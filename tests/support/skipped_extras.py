"""What the README's run leaves to the run with every extra.

.ci/run runs the README's `pytest` (only the dev extra installed) with
RAMI_SKIPPED_EXTRAS naming a file. That run writes there, one node id a line,
everything it skipped (a module or a test that needs an extra it does not
have; any other skip too, since running one again costs little) and every
test marked ``extras``: such a test passes without the optional extras but
checks more where they are installed (tests/test_legal_properties.py checks
the RL mask with the engine where the [rl] extra is). Once every extra is
installed, .ci/run runs exactly these node ids (``pytest @FILE``) with
RAMI_REQUIRE_EXTRAS=1, instead of the whole default suite a second time: the
tests that neither skip nor carry the marker run the same code either way.

A test whose behaviour depends on whether an extra is installed, other than
by skipping, must carry the marker (tests/test_readme_ci.py looks for
``find_spec`` in the tests).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ENV = "RAMI_SKIPPED_EXTRAS"
MARKER = "extras"
MARKER_LINE = (
    f"{MARKER}: passes without the optional extras but checks more where they are installed; "
    "run again by .ci/run once every extra is (tests/support/skipped_extras.py)"
)


class Recorder:
    """Collects the node ids on the controlling process (pytest-xdist hands it every report)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.ids: dict[str, None] = {}

    def pytest_collectreport(self, report: pytest.CollectReport) -> None:
        if report.skipped:
            self.ids[report.nodeid] = None

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.skipped or (report.when == "setup" and MARKER in report.keywords):
            self.ids[report.nodeid] = None

    def pytest_sessionfinish(self) -> None:
        self.path.write_text("".join(f"{nodeid}\n" for nodeid in sorted(self.ids)), encoding="utf-8")


def configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", MARKER_LINE)
    target = os.environ.get(ENV)
    # pytest-xdist's workers report to the controller, which writes the file once.
    if target and not hasattr(config, "workerinput"):
        config.pluginmanager.register(Recorder(Path(target)), "rami-skipped-extras")


def pytest_configure(config: pytest.Config) -> None:
    """As a plugin of its own (``-p tests.support.skipped_extras``), for its tests."""
    configure(config)
