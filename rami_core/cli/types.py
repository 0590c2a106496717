"""The parameter types of rami's commands: click's, refusing as data.

click words a value its types refuse in English, and the command line
speaks the language of ``--lang``. So each type keeps what was refused
and why (a catalogue key and its parameters) on the error, and the usage
frame (:func:`rami_core.cli.show_usage_error`) words it in the language
asked, never by reading click's sentence back.
"""

from __future__ import annotations

import os
from typing import Any

import click


class Refused(click.BadParameter):
    """click's refusal with its reason as data: ``key`` in the command
    line's catalogue and its ``params``."""

    def __init__(self, exc: click.BadParameter, key: str, **params: Any):
        super().__init__(exc.message, ctx=exc.ctx, param=exc.param, param_hint=exc.param_hint)
        self.key = key
        self.params = params


def _shown(value: Any) -> str:
    return repr(os.fspath(value)) if isinstance(value, os.PathLike) else repr(value)


class IntRange(click.IntRange):
    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter as exc:
            key, params = self._why(value)
            raise Refused(exc, key, **params) from None

    def _why(self, value: Any) -> tuple[str, dict[str, Any]]:
        try:
            int(value)
        except (TypeError, ValueError):
            return "cli_not_an_integer", {"value": _shown(value)}
        low = None if self.min is None else self.min + (1 if self.min_open else 0)
        high = None if self.max is None else self.max - (1 if self.max_open else 0)
        if low is not None and high is not None:
            return "cli_int_between", {"value": _shown(value), "low": low, "high": high}
        if low is not None:
            return "cli_int_at_least", {"value": _shown(value), "low": low}
        return "cli_int_at_most", {"value": _shown(value), "high": high}


class Choice(click.Choice):
    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter as exc:
            choices = ", ".join(str(c) for c in self.choices)
            raise Refused(exc, "cli_not_a_choice", value=_shown(value), choices=choices) from None


class Path(click.Path):
    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter as exc:
            raise Refused(exc, self._why(value), path=_shown(value)) from None

    def _why(self, value: Any) -> str:
        path = os.fspath(value)
        if not os.path.exists(path):
            return "cli_path_missing"
        if os.path.isdir(path) and not self.dir_okay:
            return "cli_path_is_folder"
        if not os.path.isdir(path) and not self.file_okay:
            return "cli_path_is_file"
        if self.readable and not os.access(path, os.R_OK):
            return "cli_path_unreadable"
        if self.writable and not os.access(path, os.W_OK):
            return "cli_path_unwritable"
        return "cli_path_refused"
