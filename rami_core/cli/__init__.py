"""The ``rami`` command line.

``main`` is a click group; each command lives in its own module of this package
(``play``, ``simulate``, ``check``, ``replay``, ``solve``, ``profiles`` for
``variants``/``show``/``validate``, ``schema``, ``plugins``) and shares helpers
only through :mod:`rami_core.cli.common`. A command module keeps its heavy
imports inside the command function, so ``rami --help`` stays quick.

Other code may add a command with ``main.add_command(cmd)``.

Exit codes: 0 success, 1 a failure the user can fix (a bad profile, a failing
check), 2 a usage error (click's), 3 an internal error (a bug).
"""

from __future__ import annotations

from typing import Any

import click

from rami_core import __version__
from rami_core.cli import check, play, plugins, profiles, replay, schema, simulate, solve
from rami_core.cli.common import err_console, report_problems, set_option
from rami_core.cli.schema import add_plugin_schemas
from rami_core.errors import InternalError, ProfileError

__all__ = ["add_plugin_schemas", "cli", "main", "report_problems", "set_option"]


class RamiGroup(click.Group):
    """A click group that reports rami's own errors in one line with the right exit code."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ProfileError as exc:
            report_problems(exc)
            ctx.exit(1)
        except InternalError as exc:
            err_console().print(
                f"internal error (a bug in rami, please report it): {exc}", style="red", markup=False
            )
            ctx.exit(3)


@click.group(cls=RamiGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rami")
def main() -> None:
    """rami: a referee for the French rummy family (rami 51, rami 71, voleur, kaluki...)."""


cli = main  # an alias for modules that prefer `cli.add_command(...)`

for _command in (
    profiles.variants,
    profiles.show,
    profiles.validate,
    schema.schema,
    plugins.plugins_command,
    check.check,
    replay.replay,
    simulate.simulate_cmd,
    play.play,
    solve.solve_cmd,
):
    main.add_command(_command)

if __name__ == "__main__":  # pragma: no cover
    main()
