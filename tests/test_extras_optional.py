"""The README's `pytest` runs with the `[dev]` extra alone: every test module
must be collected there, the tests that need another extra skipping with
its name, none failing to import. Twice a test module imported the learning
environments' package at its top and the newcomer's run failed while a
developer's, with every extra, passed; this test sees the newcomer's view
from any venv by making the other extras' libraries unimportable."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The top-level modules of the extras `[dev]` does not install (pyproject.toml).
NOT_IN_DEV = (
    "pettingzoo",
    "gymnasium",
    "ray",
    "rlcard",
    "pyspiel",
    "playwright",
    "sb3_contrib",
    "stable_baselines3",
    "torch",
    "mkdocs",
    "mkdocstrings",
)


def test_every_test_module_is_collected_without_the_other_extras() -> None:
    code = (
        "import sys\n"
        f"for name in {NOT_IN_DEV!r}:\n"
        "    sys.modules[name] = None  # `import name` now raises ImportError\n"
        "import pytest\n"
        "sys.exit(pytest.main(['-o', 'addopts=', '--collect-only', '-q', '-p', 'no:cacheprovider', 'tests']))\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=600, check=False
    )
    errors = [line for line in run.stdout.splitlines() if line.startswith("ERROR")]
    assert run.returncode == 0, "test modules that fail to import without the extras:\n" + "\n".join(
        errors or run.stdout.splitlines()[-30:]
    )
