"""`rami diff A B`: what changes between two profiles, as settings and situations."""

from __future__ import annotations

import click

from rami_core.cli.common import check_overrides


def _side_set(flag: str, side: str):
    return click.option(
        flag,
        f"overrides_{side}",
        multiple=True,
        metavar="KEY.PATH=VALUE",
        callback=check_overrides,
        help=f"Override a setting of {side.upper()} (value read as YAML), e.g. {flag} opening.points=30. Repeatable.",
    )


def _label(name: str, overrides: tuple[str, ...]) -> str:
    from rami_core.userfiles import visible

    return visible(name) + "".join(f" --set {visible(o)}" for o in overrides)


@click.command("diff")
@click.argument("a")
@click.argument("b")
@_side_set("--set-a", "a")
@_side_set("--set-b", "b")
@click.option(
    "--lang",
    type=click.Choice(["en", "fr"]),
    default="en",
    show_default=True,
    help="Language of the report (refusals included).",
)
def diff_cmd(a: str, b: str, overrides_a: tuple[str, ...], overrides_b: tuple[str, ...], lang: str) -> None:
    """Compare profile A with profile B (each a preset, a house file by name,
    or a YAML file): the settings that differ, each with its meaning."""
    from rami_core.diff.report import settings_lines
    from rami_core.diff.settings import settings_diff
    from rami_core.diff.words import words
    from rami_core.loader import load_profile

    pa = load_profile(a, overrides_a)
    pb = load_profile(b, overrides_b)
    click.echo(words(lang, "profiles", a=_label(a, overrides_a), b=_label(b, overrides_b)))
    click.echo()
    for line in settings_lines(settings_diff(pa, pb), lang):
        click.echo(line)
