"""The README's two commands are what .ci/run runs first, as written.

.ci/run reads them from the README's first fenced block (.ci/readme_commands.py)
and runs them in a fresh copy with a fresh venv before it installs anything of
its own; these tests fail if the block, or .ci/run's way of reading it, drifts.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUN = (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def readme_commands() -> list[str]:
    spec = importlib.util.spec_from_file_location("readme_commands", ROOT / ".ci" / "readme_commands.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.readme_commands(ROOT / "README.md")


def test_the_readme_starts_with_two_commands_install_and_play_then_test():
    install, test = readme_commands()
    assert install.startswith("python3 -m venv .venv && . .venv/bin/activate && pip install -e '.[dev]'")
    assert install.endswith("&& rami play")
    assert test == "pytest"


def test_ci_runs_the_readme_block_before_installing_anything_else():
    code = [line for line in RUN.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    reads = next(i for i, line in enumerate(code) if "readme_commands.py" in line and "README.md" in line)
    runs = next(i for i, line in enumerate(code) if re.search(r'eval "\$command"', line))
    installs = [i for i, line in enumerate(code) if re.search(r"\bpip install\b", line)]
    assert installs and reads < runs < min(installs), "the README's commands must run before .ci/run installs"
    # Run as written: each line whole, nothing prepended or appended but the game's answer on stdin.
    assert 'eval "$command" <"$work/answers"' in RUN


def test_ci_requires_every_extra_once_they_are_installed():
    default_runs = [line.strip() for line in RUN.splitlines() if line.strip().endswith("pytest")]
    assert "RAMI_REQUIRE_EXTRAS=1 pytest" in default_runs
