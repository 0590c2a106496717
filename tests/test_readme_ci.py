"""The README's two commands are what .ci/run runs first, as written.

.ci/run reads them from the README's first fenced block (.ci/readme_commands.py)
and runs them in a fresh copy with a fresh venv before it installs anything of
its own; these tests fail if the block, or .ci/run's way of reading it, drifts.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
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
    """The README's run writes what it skipped; that runs again, with every extra, whole."""
    code = [line.strip() for line in RUN.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    exported = code.index('export RAMI_SKIPPED_EXTRAS="$work/skipped-for-extras"')
    runs = next(i for i, line in enumerate(code) if re.search(r'eval "\$command"', line))
    unset = code.index("unset RAMI_SKIPPED_EXTRAS")
    assert exported < runs < unset, "the README's commands run with RAMI_SKIPPED_EXTRAS set, and only they"
    extras = next(i for i, line in enumerate(code) if line.startswith("pip install -q -e '.[dev,"))
    again = code.index('RAMI_REQUIRE_EXTRAS=1 pytest "@$work/skipped-for-extras"')
    assert unset < extras < again, "what the README's run skipped runs again once every extra is installed"
    # The whole default suite is not run a second time, nor anything else by its side.
    default_runs = [line for line in code if re.search(r"(^|\s)pytest(\s|$)", line) and "-m slow" not in line]
    assert [line for line in default_runs if "RAMI_REQUIRE_EXTRAS" in line] == [code[again]]


def test_a_test_that_checks_more_with_an_extra_is_marked():
    """A test module that looks whether an extra is installed (rather than skip
    without it) changes what it checks: its tests carry the `extras` marker,
    so that CI runs them again once every extra is installed."""
    unmarked = [
        path.relative_to(ROOT).as_posix()
        for path in sorted((ROOT / "tests").rglob("test_*.py"))
        if "find_spec(" in (text := path.read_text(encoding="utf-8")) and "pytest.mark.extras" not in text
    ]
    assert unmarked == []


def test_the_readme_run_records_its_skips_and_the_marked_tests(tmp_path: Path):
    """tests/support/skipped_extras.py, as .ci/run uses it, on a suite of its own."""
    (tmp_path / "test_rl_like.py").write_text(
        "import pytest\n"
        "pytest.importorskip('no_such_module_rami', reason='the [rl] extra is not installed')\n"
        "def test_unreached():\n    pass\n",
        encoding="utf-8",
    )
    (tmp_path / "test_mixed.py").write_text(
        "import pytest\n"
        "def test_plain():\n    pass\n"
        "@pytest.mark.parametrize('n', [1, 2])\n"
        "def test_skips_one(n):\n    if n == 2:\n        pytest.skip('the [browser] extra is not installed')\n"
        "@pytest.mark.extras\n"
        "@pytest.mark.parametrize('n', [1, 2])\n"
        "def test_checks_more(n):\n    pass\n",
        encoding="utf-8",
    )
    record = tmp_path / "skipped"
    env = {**os.environ, "RAMI_SKIPPED_EXTRAS": str(record), "PYTHONPATH": str(ROOT)}
    env.pop("RAMI_REQUIRE_EXTRAS", None)
    plugin = ["-p", "no:cacheprovider", "-p", "tests.support.skipped_extras"]
    pytest = [sys.executable, "-m", "pytest", "-q", *plugin]
    for workers in ("0", "2"):
        record.unlink(missing_ok=True)
        done = subprocess.run(
            [*pytest, "-n", workers, "-c", os.devnull, "--rootdir", str(tmp_path), str(tmp_path)],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert record.read_text(encoding="utf-8").splitlines() == [
            "test_mixed.py::test_checks_more[1]",
            "test_mixed.py::test_checks_more[2]",
            "test_mixed.py::test_skips_one[2]",
            "test_rl_like.py",
        ], workers
