"""`rami variants`, `rami show` and `rami validate`: the presets and house-rule files."""

from __future__ import annotations

import sys

import click
import yaml

from rami_core.cli.common import lang_option, report_problems, report_warnings, set_option
from rami_core.files.userfiles import visible
from rami_core.words.errors import ProfileError


@click.command()
@click.option(
    "--all",
    "show_all",
    is_flag=True,
    help="Also the bundled house-rule files and the profiles installed packages ship.",
)
@lang_option
def variants(show_all: bool, lang: str) -> None:
    """List the presets, one line each: name and description (--all: every profile rami knows by name)."""
    from rami_core.files.resources import house_names, installed_profiles, preset_names
    from rami_core.profile.loader import load_profile

    groups = [("", preset_names())]
    if show_all:
        groups += [("house", house_names()), ("installed", sorted(installed_profiles()))]
    names = [n for _, group in groups for n in group]
    width = max((len(n) for n in names), default=0)
    failed = False
    for tag, group in groups:
        for name in group:
            try:
                description = load_profile(name).description_in(lang)
            except ProfileError as exc:
                report_problems(exc)
                failed = True
                continue
            label = f"[{tag}] " if tag else ("[preset] " if show_all else "")
            click.echo(f"{visible(name):<{width}}  {label}{visible(description)}".rstrip())
    if failed:
        sys.exit(1)


@click.command()
@click.argument("variant_or_file")
@set_option
@lang_option
def show(variant_or_file: str, overrides: tuple[str, ...], lang: str) -> None:
    """Print the fully resolved profile of a preset or a house-rule file as YAML."""
    from rami_core.profile.loader import load_profile

    profile = load_profile(variant_or_file, overrides)
    data = profile.model_dump(mode="json")
    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, default_flow_style=False)
    if visible(text.replace("\n", " ")) != text.replace("\n", " "):
        # a character the terminal would obey (a bidi override yaml leaves raw): every non-ASCII one escaped
        text = yaml.safe_dump(data, sort_keys=False, allow_unicode=False, default_flow_style=False)
    click.echo(text, nl=False)


@click.command()
@click.argument("files", nargs=-1, required=True)
@click.option(
    "--strict",
    is_flag=True,
    help="Warnings are errors: a profile in which hands hardly ever go out is refused (exit 1).",
)
@lang_option
def validate(files: tuple[str, ...], strict: bool, lang: str) -> None:
    """Check house-rule files (or presets): 'ok FILE', or located errors (in --lang) and exit 1.

    A profile in which no hand could ever go out is an error; one in which
    hands hardly ever go out is a warning, printed on stderr (exit 0; with
    --strict, exit 1)."""
    from rami_core.profile.loader import check_profile

    failed = 0
    for name in files:
        try:
            _, warnings = check_profile(name)
        except ProfileError as exc:
            failed += 1
            report_problems(exc, lang)
            continue
        report_warnings(warnings, lang, strict=strict)
        if warnings and strict:
            failed += 1
        else:
            click.echo(
                f"ok {name}"
                + (f" ({len(warnings)} warning{'s' if len(warnings) > 1 else ''})" if warnings else "")
            )
    if failed:
        sys.exit(1)
