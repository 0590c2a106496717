"""Real-browser tests: Debian's chromium driven by Playwright (never `playwright
install`: no browser is downloaded). They need /usr/bin/chromium; `.ci/run`
installs it."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("RAMI_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="the [browser] extra is not installed (pip install -e '.[browser]')"
    )
    if not Path(CHROMIUM).exists() and shutil.which("chromium") is None:
        pytest.skip(
            f"no chromium at {CHROMIUM}: the [browser] extra is not installed whole (apt-get install chromium)"
        )
    with sync_api.sync_playwright() as p:
        # launch() gives every run a fresh temporary profile (user data dir).
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def server(tmp_path: Path):
    from tests.server_support import ThreadServer

    with ThreadServer(tmp_path / "browser.sqlite", bot_delay=0.05, round_pause=1000) as srv:
        yield srv
