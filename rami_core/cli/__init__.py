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
from rami_core.cli import check, diff, play, plugins, profiles, puzzle, replay, schema, serve, simulate, solve
from rami_core.cli.common import (
    LANG_KEY,
    cli_words,
    current_lang,
    err_console,
    one_line,
    report_problems,
    said_words,
    set_option,
)
from rami_core.cli.schema import add_plugin_schemas
from rami_core.cli.types import Refused
from rami_core.files.userfiles import visible
from rami_core.words.errors import InternalError, ProfileError, RamiError

__all__ = ["add_plugin_schemas", "cli", "main", "report_problems", "set_option"]


EXIT_CODES_HELP = """Exit codes: 0 success; 1 refused input or a failed check; 2 usage error;
3 internal error (a bug: please report it; --debug or RAMI_DEBUG=1 shows the traceback)."""


def debugging(ctx: click.Context | None = None) -> bool:
    """Whether to show tracebacks: ``--debug`` or ``RAMI_DEBUG`` set to anything but 0."""
    if os.environ.get("RAMI_DEBUG", "") not in ("", "0"):
        return True
    root = ctx.find_root() if ctx is not None else None
    return bool(root is not None and root.params.get("debug"))


class RamiGroup(click.Group):
    """A click group that reports every error in one line with the documented
    exit code, in the running command's ``--lang``."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta[ARGS_KEY] = list(args)
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except click.exceptions.UsageError as exc:
            # click refuses a misspelt option before any option is read: the
            # language is then the one the command line asks for.
            lang = current_lang(ctx) if LANG_KEY in ctx.meta else lang_asked(ctx.meta.get(ARGS_KEY, []))
            if lang == "en":
                raise
            show_usage_error(exc, lang)
            ctx.exit(exc.exit_code)
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
            report_problems(exc, current_lang(ctx))
            ctx.exit(1)
        except InternalError as exc:
            if debugging(ctx):
                raise
            _say(cli_words("cli_internal", ctx, message=one_line(str(exc))))
            ctx.exit(3)
        except RamiError as exc:  # a refused save, a failed plugin...: input to fix, in one line
            if debugging(ctx):
                raise
            _say(cli_words("cli_error", ctx, message=one_line(said_words(exc.said, ctx))))
            ctx.exit(1)
        except Exception as exc:  # anything else is a bug in rami
            if debugging(ctx):
                raise
            what = f"{type(exc).__name__}: {one_line(str(exc), 200)}"
            _say(cli_words("cli_internal_traceback", ctx, message=what))
            ctx.exit(3)


ARGS_KEY = "rami.args"  # the command line as given, for the language of an error click finds first


def lang_asked(args: list[str]) -> str:
    """The ``--lang`` a command line asks for (English if none)."""
    for i, arg in enumerate(args):
        value = arg.partition("=")[2] if arg.startswith("--lang=") else None
        if arg == "--lang" and i + 1 < len(args):
            value = args[i + 1]
        if value in ("en", "fr"):
            return value
    return "en"


def _say(line: str) -> None:
    err_console().print(visible(line), style="red", markup=False, emoji=False)


def show_usage_error(exc: click.exceptions.UsageError, lang: str) -> None:
    """Click's usage error in `lang`: the frame (usage line, the hint, the
    words around the option) from the catalogue, from the error's own
    fields (the parameter, the option, its close matches); the message
    rami gave is already in `lang`, one click's types gave is click's."""
    from rami_core.words.messages import Messages

    msg = Messages(lang)
    ctx = exc.ctx
    lines: list[str] = []
    if ctx is not None:
        pieces = " ".join(ctx.command.collect_usage_pieces(ctx))
        lines.append(msg("cli_usage", usage=f"{ctx.command_path} {pieces}".rstrip()))
        if ctx.command.get_help_option(ctx) is not None:
            names = ctx.command.get_help_option_names(ctx)
            lines.append(msg("cli_try_help", command=ctx.command_path, option=max(names, key=len)))
        lines.append("")
    lines.append(msg("cli_usage_error", message=_usage_message(exc, msg)))
    click.echo("\n".join(lines), err=True)


def _param_hint(exc: click.exceptions.BadParameter) -> str | None:
    hint = exc.param_hint
    if hint is None and exc.param is not None:
        hint = exc.param.get_error_hint(exc.ctx) if exc.ctx is not None else None
    if hint is None:
        return None
    if isinstance(hint, str):
        return hint
    return " / ".join(repr(h) for h in hint)


def _usage_message(exc: click.exceptions.UsageError, msg: Any) -> str:
    if isinstance(exc, click.exceptions.MissingParameter):
        kind = exc.param_type or (exc.param.param_type_name if exc.param is not None else "parameter")
        key = {"argument": "cli_missing_argument", "option": "cli_missing_option"}.get(
            kind, "cli_missing_parameter"
        )
        text = str(msg(key, param=_param_hint(exc) or ""))
        return f"{text} {exc.message}".rstrip() if exc.message else text
    if isinstance(exc, click.exceptions.BadParameter):
        hint = _param_hint(exc)
        message = msg(exc.key, **exc.params) if isinstance(exc, Refused) else exc.message
        if hint is None:
            return str(msg("cli_bad_value_plain", message=message))
        return str(msg("cli_bad_value", param=hint, message=message))
    if isinstance(exc, click.exceptions.NoSuchOption):
        if exc.possibilities:
            return str(
                msg(
                    "cli_no_such_option_similar",
                    option=exc.option_name,
                    possible=", ".join(exc.possibilities),
                )
            )
        return str(msg("cli_no_such_option", option=exc.option_name))
    no_such_command = getattr(click.exceptions, "NoSuchCommand", None)  # click 8.4 and later
    if no_such_command is not None and isinstance(exc, no_such_command):
        possible = ", ".join(exc.possibilities or ())
        if possible:
            return str(msg("cli_no_such_command_similar", command=repr(exc.command_name), possible=possible))
        return str(msg("cli_no_such_command", command=repr(exc.command_name)))
    return exc.format_message()


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
    serve.serve,
):
    main.add_command(_command)

if __name__ == "__main__":  # pragma: no cover
    main()
