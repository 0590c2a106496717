"""`rami ARGS` run in the test's own process by click's CliRunner.

A subprocess pays about half a second of imports before rami reads its first
option; most command-line tests only need what rami prints and its exit code,
which the same `main` gives in-process. A subprocess stays where the process
itself is what is tested: the installed entry point, a hang or a memory cap,
signals, a real terminal, the encoding of a real stdout."""

from __future__ import annotations

import subprocess
from collections.abc import Mapping

from click.testing import CliRunner

from rami_core.cli import main


def run_in_process(
    *args: str, input: str = "", env: Mapping[str, str | None] | None = None
) -> subprocess.CompletedProcess[str]:
    """What `rami ARGS` with `input` on stdin prints and returns, as a finished process.

    An exception that escapes rami's own error handling (which a real process
    would show as a traceback) is raised here, so the test fails on it."""
    result = CliRunner().invoke(main, list(args), input=input, env=dict(env or {}), catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return subprocess.CompletedProcess(list(args), result.exit_code, result.stdout, result.stderr)
