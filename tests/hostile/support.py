"""Running the ``rami`` command as a hostile user would: a real process, a
memory cap and a time limit, so that a hang or an exhaustion fails the test
instead of the machine."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

INPUTS = Path(__file__).parent / "inputs"
MEMORY_CAP = 1 << 30  # 1 GiB of address space: far above what a refusal needs
TIME_LIMIT = 60  # seconds: a refusal takes well under one; the margin is for a loaded machine


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def run_rami(
    *args: str, stdin: str = "", cwd: str | Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``rami ARGS`` in a subprocess under the memory cap and the time limit."""
    environment = dict(os.environ, OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1", PYTHONIOENCODING="utf-8")
    environment.pop("RAMI_DEBUG", None)
    environment.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "rami_core.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=TIME_LIMIT,
        cwd=cwd,
        env=environment,
        preexec_fn=_cap_memory,
    )


def assert_refused(result: subprocess.CompletedProcess[str], code: int = 1) -> str:
    """A clean refusal: the exit code, a message, no traceback. Returns stdout+stderr."""
    out = result.stdout + result.stderr
    assert "Traceback" not in out, out[-3000:]
    assert result.returncode == code, f"exit {result.returncode}, expected {code}:\n{out[-3000:]}"
    assert out.strip(), "a refusal must say why"
    return out


def run_rami_here(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``rami ARGS`` in this process (click's CliRunner), for an input that is
    refused before anything is read or run at length (a usage error, a folder,
    a path too long, a name to show): what it prints and its exit code are the
    same, without the half second of imports of a process."""
    from tests.support.in_process import run_in_process

    return run_in_process(*args, input=stdin, env={"RAMI_DEBUG": None})
