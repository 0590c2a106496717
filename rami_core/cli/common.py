"""What several ``rami`` commands share: the error console, located profile
problems, the ``--set`` option and the plugin listing.

Command modules import from here, never from one another, so that each command
can change without reaching into another's private helpers.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import click
from rich.console import Console

import rami_core.cli.types as types
from rami_core.files.userfiles import visible
from rami_core.words.errors import Problem, ProfileError

F = TypeVar("F", bound=Callable[..., Any])


class Seconds(click.ParamType):
    """A number of seconds: finite and not negative (NaN, inf and -1 made every
    bot move a timeout, or no bot move at all); `positive` refuses 0 too."""

    name = "seconds"

    def __init__(self, positive: bool = False):
        self.positive = positive

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        if isinstance(value, float | int) and not isinstance(value, bool):
            number = float(value)
        else:
            try:
                number = float(str(value).strip())
            except ValueError:
                self.fail(cli_words("seconds_not_number", ctx, value=repr(value)), param, ctx)
        if not math.isfinite(number):
            self.fail(cli_words("seconds_not_finite", ctx, value=repr(value)), param, ctx)
        if number < 0 or (self.positive and number == 0):
            key = "seconds_above_zero" if self.positive else "seconds_at_least_zero"
            self.fail(cli_words(key, ctx, value=repr(value)), param, ctx)
        return number


def err_console() -> Console:
    """A console on stderr. Created per use so that click's test runner (which
    swaps sys.stderr) sees the output."""
    return Console(file=sys.stderr, highlight=False, soft_wrap=True)


def one_line(text: str, limit: int = 300) -> str:
    """A message on one line (a plugin's or a file's text may hold newlines), cut to ``limit``."""
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 3] + "..."


LANG_KEY = "rami.lang"  # where a command's --lang is kept for the errors reported after it ends


def remember_lang(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """Keep a command's ``--lang`` where the error report finds it: a profile
    refused while the command runs is then reported in that language."""
    ctx.meta[LANG_KEY] = value
    return value


def current_lang(ctx: click.Context | None = None) -> str:
    """The running command's ``--lang`` (English before it is read, or for a
    command without one): what every error of the command line is said in."""
    ctx = ctx if ctx is not None else click.get_current_context(silent=True)
    return str(ctx.meta.get(LANG_KEY, "en")) if ctx is not None else "en"


def cli_words(key: str, ctx: click.Context | None = None, **params: Any) -> str:
    """A message of the command line (rami_core.words.messages) in the running command's language."""
    from rami_core.words.messages import Messages

    return Messages(current_lang(ctx))(key, **params)


def said_words(message: Any, ctx: click.Context | None = None) -> str:
    """A problem of the catalogue (a Said, rami_core.words.problems) in the running
    command's language; other text as written."""
    from rami_core.words.problems import words

    return words(message, current_lang(ctx))


def lang_option(func: F | None = None, *, help: str | None = None) -> Any:
    """The ``--lang`` option: the language of every message of the command,
    its errors included (a profile, a file or an argument refused).
    English by default, as ``rami play``."""

    def add(f: F) -> F:
        return click.option(
            "--lang",
            type=types.Choice(["en", "fr"]),
            default="en",
            show_default=True,
            is_eager=True,  # read first, so that an argument refused while parsing is told in it
            help=help or "Language of the messages (the problems found, located by file and line).",
            callback=remember_lang,
        )(f)

    return add(func) if func is not None else add


def report_problems(error: ProfileError, lang: str | None = None) -> None:
    """Print a profile error on stderr, one located problem per line, in
    `lang` (default: the running command's ``--lang``, else English)."""
    if lang is None:
        lang = current_lang()
    console = err_console()
    for problem in error.problems:
        console.print(visible(problem.format(lang)), style="red", markup=False, emoji=False)


def report_warnings(warnings: list[Problem], lang: str = "en", *, strict: bool = False) -> None:
    """Print a profile's warnings on stderr, one located problem per line,
    each after the word "warning" in `lang` (red where --strict makes them errors)."""
    from rami_core.words.problems import FRAME

    console = err_console()
    prefix = FRAME.get(lang, FRAME["en"])["warning"]
    for problem in warnings:
        console.print(
            visible(prefix + problem.format(lang)),
            style="red" if strict else "yellow",
            markup=False,
            emoji=False,
        )


def set_option(func: F) -> F:
    """The repeatable ``--set KEY.PATH=VALUE`` option, shared by the commands that load a profile."""
    return click.option(
        "--set",
        "overrides",
        multiple=True,
        metavar="KEY.PATH=VALUE",
        help="Override a setting (value read as YAML), e.g. --set opening.points=71. Repeatable.",
        callback=check_overrides,
    )(func)


def profile_options(func: F) -> F:
    """``--variant``, ``--rules`` and ``--set``: how a command that plays a
    profile is told which, the same options with the same help in each
    (``rami play``, ``simulate``, ``solve``); :func:`profile_source` reads the
    first two."""
    func = set_option(func)
    func = click.option(
        "--rules",
        "rules_file",
        default=None,
        metavar="FILE",
        type=types.Path(dir_okay=False),
        help="A house-rule file (instead of --variant).",
    )(func)
    return click.option(
        "--variant",
        "-v",
        "variant",
        default=None,
        metavar="NAME",
        help="A preset or bundled house file by name (rami variants --all lists them), or a house-rule file. Default: rami51.",
    )(func)


def profile_source(variant: str | None, rules_file: str | None) -> str:
    """What :func:`profile_options` chose, for ``load_profile``: a usage error
    (exit 2) for both ``--variant`` and ``--rules``, rami51 for neither."""
    from rami_core.files.resources import DEFAULT_VARIANT

    if variant and rules_file:
        raise click.UsageError(cli_words("give_one"))
    return rules_file or variant or DEFAULT_VARIANT


def check_overrides(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> tuple[str, ...]:
    """A usage error (exit 2) for a ``--set`` that is not ``KEY.PATH=VALUE``."""
    for item in value:
        key, sep, _ = item.partition("=")
        if not sep or not key.strip() or any(not part.strip() for part in key.split(".")):
            raise click.BadParameter(cli_words("set_syntax", ctx, item=repr(item)), ctx, param)
    return value


def plugin_classes() -> list[tuple[str, str, Any]]:
    """(name, where it comes from, class or the error that kept it from loading), sorted by name."""
    from rami_core.profile.hooks import bundled_plugins, installed_plugins

    bundled = bundled_plugins()
    out: list[tuple[str, str, Any]] = [(name, "bundled", cls) for name, cls in bundled.items()]
    for name, ep in installed_plugins().items():
        if name in bundled:
            continue
        dist = getattr(getattr(ep, "dist", None), "name", None)
        where = f"installed ({dist or ep.value})"
        try:
            out.append((name, where, ep.load()))
        except Exception as exc:  # a broken package is listed, not fatal
            out.append((name, where, exc))
    return sorted(out, key=lambda item: item[0])


def plugin_doc(cls: Any) -> list[str]:
    """The plugin's docstring, else its module's, as lines."""
    doc = cls.__doc__ or getattr(sys.modules.get(getattr(cls, "__module__", "")), "__doc__", None) or ""
    return doc.strip().splitlines()
