"""The ``rami`` command line.

``main`` is a click group; each command lives in its own module of this package
(``play``, ``simulate``, ``check``, ``replay``, ``solve``, ``profiles`` for
``variants``/``show``/``validate``, ``schema``, ``diff``, ``plugins``, ``puzzle``) and shares helpers
only through :mod:`rami_core.cli.common`. A command module keeps its heavy
imports inside the command function, so ``rami --help`` stays quick.

Other code may add a command with ``main.add_command(cmd)``.

Exit codes: 0 success, 1 refused input or a failed check (a bad profile, scenario
or save, a failing scenario, a plugin that failed), 2 a usage error (click's), 3
an internal error (a bug in rami): one line asking for a report, the traceback
with ``--debug`` or ``RAMI_DEBUG=1``.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import click

from rami_core import __version__
from rami_core.cli import check, diff, play, plugins, profiles, puzzle, replay, schema, simulate, solve
from rami_core.cli.common import LANG_KEY, err_console, one_line, report_problems, set_option
from rami_core.cli.schema import add_plugin_schemas
from rami_core.errors import InternalError, ProfileError, RamiError
from rami_core.server import command as server_command

__all__ = ["add_plugin_schemas", "cli", "main", "report_problems", "set_option"]


EXIT_CODES_HELP = """Exit codes: 0 success; 1 refused input or a failed check; 2 usage error;
3 internal error (a bug: please report it; --debug or RAMI_DEBUG=1 shows the traceback)."""

PLEASE_REPORT = "please report it with the command that caused it"


def debugging(ctx: click.Context | None = None) -> bool:
    """Whether to show tracebacks: ``--debug`` or ``RAMI_DEBUG`` set to anything but 0."""
    if os.environ.get("RAMI_DEBUG", "") not in ("", "0"):
        return True
    root = ctx.find_root() if ctx is not None else None
    return bool(root is not None and root.params.get("debug"))


class RamiGroup(click.Group):
    """A click group that reports every error in one line with the documented exit code."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except BrokenPipeError:
            # The reader of the output went away (`rami solve --batch F | head`):
            # nothing is wrong with rami or the input. Point stdout at /dev/null so
            # the flush at exit does not fail again.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            ctx.exit(0)
        except ProfileError as exc:
            report_problems(exc, str(ctx.meta.get(LANG_KEY, "en")))
            ctx.exit(1)
        except InternalError as exc:
            if debugging(ctx):
                raise
            err_console().print(
                f"internal error (a bug in rami, {PLEASE_REPORT}): {one_line(str(exc))}",
                style="red",
                markup=False,
            )
            ctx.exit(3)
        except RamiError as exc:  # a refused save, a failed plugin...: input to fix, in one line
            if debugging(ctx):
                raise
            err_console().print(f"error: {one_line(str(exc))}", style="red", markup=False)
            ctx.exit(1)
        except Exception as exc:  # anything else is a bug in rami
            if debugging(ctx):
                raise
            err_console().print(
                f"internal error (a bug in rami, {PLEASE_REPORT}; run with --debug or RAMI_DEBUG=1 for the "
                f"traceback): {type(exc).__name__}: {one_line(str(exc), 200)}",
                style="red",
                markup=False,
            )
            ctx.exit(3)


@click.group(cls=RamiGroup, context_settings={"help_option_names": ["-h", "--help"]}, epilog=EXIT_CODES_HELP)
@click.version_option(__version__, prog_name="rami")
@click.option(
    "--debug", is_flag=True, help="Show the full traceback of an internal error (or set RAMI_DEBUG=1)."
)
def main(debug: bool) -> None:
    """rami: a referee for the French rummy family (rami 51, rami 71, voleur, kaluki...)."""


cli = main  # an alias for modules that prefer `cli.add_command(...)`

for _command in (
    profiles.variants,
    profiles.show,
    profiles.validate,
    schema.schema,
    plugins.plugins_command,
    check.check,
    diff.diff_cmd,
    replay.replay,
    simulate.simulate_cmd,
    play.play,
    solve.solve_cmd,
    puzzle.puzzle_group,
    server_command.serve,
):
    main.add_command(_command)

if __name__ == "__main__":  # pragma: no cover
    main()
