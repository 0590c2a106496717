"""The ``rami`` command line.

``main`` is a click group. Commands defined here: ``variants``, ``show``,
``validate``, ``schema``, ``plugins``. Other modules add theirs in either of two ways:

- directly: ``from rami_core.cli import main`` then ``@main.command()`` or
  ``main.add_command(cmd)`` (the module must be imported before ``main`` runs);
- lazily: an entry ``"name": "module:attribute"`` in :data:`LAZY_COMMANDS`; the
  module is imported only when that command is run or listed in ``--help``.

Exit codes: 0 success, 1 a failure the user can fix (a bad profile, a failing
check), 2 a usage error (click's), 3 an internal error (a bug).
"""

from __future__ import annotations

import importlib
import json
import sys
from typing import Any

import click
import yaml
from rich.console import Console

from rami_core import __version__
from rami_core.errors import InternalError, ProfileError

# name -> "module:attribute" of a click command, imported on first use.
LAZY_COMMANDS: dict[str, str] = {
    "check": "rami_core.cli_check:check",
    "replay": "rami_core.cli_replay:replay",
    "simulate": "rami_core.cli_simulate:simulate",
    "play": "rami_core.cli_play:play",
    "solve": "rami_core.cli_solve:solve_cmd",
}


def _err_console() -> Console:
    # Created per use so that click's test runner (which swaps sys.stderr) sees the output.
    return Console(file=sys.stderr, highlight=False, soft_wrap=True)


def report_problems(error: ProfileError) -> None:
    """Print a profile error on stderr, one located problem per line."""
    console = _err_console()
    for problem in error.problems:
        console.print(problem.format(), style="red", markup=False)


class RamiGroup(click.Group):
    """A click group that can also load commands lazily from :data:`LAZY_COMMANDS`."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(LAZY_COMMANDS))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is not None or cmd_name not in LAZY_COMMANDS:
            return command
        module_name, _, attr = LAZY_COMMANDS[cmd_name].partition(":")
        command = getattr(importlib.import_module(module_name), attr)
        self.add_command(command, cmd_name)
        return command

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ProfileError as exc:
            report_problems(exc)
            ctx.exit(1)
        except InternalError as exc:
            _err_console().print(
                f"internal error (a bug in rami, please report it): {exc}", style="red", markup=False
            )
            ctx.exit(3)


@click.group(cls=RamiGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rami")
def main() -> None:
    """rami: a referee for the French rummy family (rami 51, rami 71, voleur, kaluki...)."""


cli = main  # an alias for modules that prefer `cli.add_command(...)`


def _set_option(func):
    return click.option(
        "--set",
        "overrides",
        multiple=True,
        metavar="KEY.PATH=VALUE",
        help="Override a setting (value read as YAML), e.g. --set opening.points=71. Repeatable.",
        callback=_check_overrides,
    )(func)


def _check_overrides(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> tuple[str, ...]:
    for item in value:
        key, sep, _ = item.partition("=")
        if not sep or not key.strip() or any(not part.strip() for part in key.split(".")):
            raise click.BadParameter(f"{item!r}: expected KEY.PATH=VALUE, e.g. opening.points=71", ctx, param)
    return value


# --------------------------------------------------------------------------- commands


@main.command()
@click.option(
    "--all",
    "show_all",
    is_flag=True,
    help="Also the bundled house-rule files and the profiles installed packages ship.",
)
def variants(show_all: bool) -> None:
    """List the presets, one line each: name and description (--all: every profile rami knows by name)."""
    from rami_core.loader import load_profile
    from rami_core.resources import house_names, installed_profiles, preset_names

    groups = [("", preset_names())]
    if show_all:
        groups += [("house", house_names()), ("installed", sorted(installed_profiles()))]
    names = [n for _, group in groups for n in group]
    width = max((len(n) for n in names), default=0)
    failed = False
    for tag, group in groups:
        for name in group:
            try:
                description = load_profile(name).description
            except ProfileError as exc:
                report_problems(exc)
                failed = True
                continue
            label = f"[{tag}] " if tag else ("[preset] " if show_all else "")
            click.echo(f"{name:<{width}}  {label}{description}".rstrip())
    if failed:
        sys.exit(1)


@main.command()
@click.argument("variant_or_file")
@_set_option
def show(variant_or_file: str, overrides: tuple[str, ...]) -> None:
    """Print the fully resolved profile of a preset or a house-rule file as YAML."""
    from rami_core.loader import load_profile

    profile = load_profile(variant_or_file, overrides)
    click.echo(
        yaml.safe_dump(
            profile.model_dump(mode="json"), sort_keys=False, allow_unicode=True, default_flow_style=False
        ),
        nl=False,
    )


@main.command()
@click.argument("files", nargs=-1, required=True)
def validate(files: tuple[str, ...]) -> None:
    """Check house-rule files (or presets): 'ok FILE', or located errors and exit 1."""
    from rami_core.loader import load_profile

    failed = 0
    for name in files:
        try:
            load_profile(name)
        except ProfileError as exc:
            failed += 1
            report_problems(exc)
        else:
            click.echo(f"ok {name}")
    if failed:
        sys.exit(1)


@main.command()
def schema() -> None:
    """Print the profile JSON Schema (for editor completion of house-rule files),
    each bundled or installed plugin's settings included under `plugins`."""
    from rami_core.profile import Profile

    data = Profile.model_json_schema()
    add_plugin_schemas(data)
    click.echo(json.dumps(data, indent=2, ensure_ascii=False))


def _plugin_classes() -> list[tuple[str, str, Any]]:
    """(name, where it comes from, class or the error that kept it from loading), sorted by name."""
    from rami_core.hooks import bundled_plugins, installed_plugins

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


def _plugin_doc(cls: Any) -> list[str]:
    """The plugin's docstring, else its module's, as lines."""
    doc = cls.__doc__ or getattr(sys.modules.get(getattr(cls, "__module__", "")), "__doc__", None) or ""
    return doc.strip().splitlines()


def add_plugin_schemas(data: dict[str, Any]) -> None:
    """Put each plugin's settings schema under `$defs` (as `plugin_<name>`) and
    name the plugins under the profile's `plugins` property."""
    from rami_core.hooks import settings_model

    defs = data.setdefault("$defs", {})
    props: dict[str, Any] = {}
    for name, _, cls in _plugin_classes():
        if isinstance(cls, Exception):
            continue
        key = f"plugin_{name}"
        sub = settings_model(cls).model_json_schema(ref_template=f"#/$defs/{key}_{{model}}")
        for inner, schema_ in sub.pop("$defs", {}).items():
            defs[f"{key}_{inner}"] = schema_
        doc = _plugin_doc(cls)
        sub["title"] = name
        if doc:
            sub.setdefault("description", doc[0])
        defs[key] = sub
        props[name] = {
            "anyOf": [{"$ref": f"#/$defs/{key}"}, {"type": "boolean"}, {"type": "null"}],
            "description": sub.get("description", ""),
        }
    plugins = data.setdefault("properties", {}).setdefault("plugins", {"type": "object"})
    plugins["properties"] = props
    plugins["additionalProperties"] = False


@main.command("plugins")
def plugins_command() -> None:
    """List the bundled and installed house-rule plugins with their settings."""
    from rami_core.hooks import settings_model

    failed = False
    for name, where, cls in _plugin_classes():
        if isinstance(cls, Exception):
            click.echo(f"{name}  [{where}]  failed to load: {type(cls).__name__}: {cls}")
            failed = True
            continue
        doc = _plugin_doc(cls)
        click.echo(f"{name}  [{where}]  {doc[0] if doc else ''}".rstrip())
        fields = settings_model(cls).model_fields
        if not fields:
            click.echo("    (no settings)")
        for field_name, field in fields.items():
            default = json.dumps(field.default if not field.is_required() else None, default=str)
            required = " (required)" if field.is_required() else f" = {default}"
            click.echo(f"    {field_name}{required}  {field.description or ''}".rstrip())
    if failed:
        sys.exit(1)


if __name__ == "__main__":  # pragma: no cover
    main()
