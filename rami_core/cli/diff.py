"""`rami diff A B`: what changes between two profiles, as settings and situations."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

import rami_core.cli.types as types
from rami_core.cli.common import check_overrides, lang_option


def _side_set(flag: str, side: str) -> Any:
    return click.option(
        flag,
        f"overrides_{side}",
        multiple=True,
        metavar="KEY.PATH=VALUE",
        callback=check_overrides,
        help=f"Override a setting of {side.upper()} (value read as YAML), e.g. {flag} opening.points=30. Repeatable.",
    )


def _label(name: str, overrides: tuple[str, ...]) -> str:
    from rami_core.files.userfiles import visible

    return visible(name) + "".join(f" --set {visible(o)}" for o in overrides)


@click.command("diff")
@click.argument("a")
@click.argument("b")
@_side_set("--set-a", "a")
@_side_set("--set-b", "b")
@click.option("--seed", default=0, show_default=True, type=int, help="Seed of the search (and of the games).")
@click.option(
    "--budget",
    default=None,
    type=types.IntRange(0),
    help="States tried by the search (default 300: seconds for any pair of presets; 0: settings only).",
)
@click.option(
    "--scenarios",
    "scenarios_file",
    default=None,
    type=types.Path(dir_okay=False, path_type=Path),
    help="Write each situation as a conformance scenario whose expect holds under B (run it with rami check).",
)
@click.option(
    "--games",
    default=0,
    show_default=True,
    type=types.IntRange(0),
    help="Also play this many bot games on the same deals under each and compare (rami simulate --compare).",
)
@lang_option(help="Language of the report (refusals and errors included).")
def diff_cmd(
    a: str,
    b: str,
    overrides_a: tuple[str, ...],
    overrides_b: tuple[str, ...],
    seed: int,
    budget: int | None,
    scenarios_file: Path | None,
    games: int,
    lang: str,
) -> None:
    """Compare profile A with profile B (each a preset, a house file by name,
    or a YAML file): the settings that differ, each with its meaning, then
    the situations where the referee rules differently, each shrunk to the
    fewest cards and moves, then the deal where it differs."""
    from rami_core.diff.deal import deal_difference, shown_by_deal
    from rami_core.diff.reasons import reason_for
    from rami_core.diff.report import (
        deal_lines,
        settings_lines,
        situation_lines,
        untouched_lines,
        verdict_line,
    )
    from rami_core.diff.report_words import words
    from rami_core.diff.scenarios import scenario_text
    from rami_core.diff.search import DEFAULT_BUDGET, Search
    from rami_core.diff.settings import settings_diff
    from rami_core.diff.situation import Referee
    from rami_core.profile.loader import load_profile

    pa = load_profile(a, overrides_a)
    pb = load_profile(b, overrides_b)
    echo = click.echo
    echo(words(lang, "profiles", a=_label(a, overrides_a), b=_label(b, overrides_b)))
    echo()
    changes = settings_diff(pa, pb)
    for line in settings_lines(changes, lang):
        echo(line)
    if not changes:
        if scenarios_file is not None:
            _write(scenarios_file, "")
        return
    ra, rb = Referee(pa), Referee(pb)
    result = Search(ra, rb, changes, seed, DEFAULT_BUDGET if budget is None else budget).run()
    echo()
    if result.found:
        echo(words(lang, "situations_title", n=len(result.found), seed=seed, tried=result.tried))
        for n, found in enumerate(result.found, start=1):
            for line in situation_lines(n, found, ra, rb, lang):
                echo(line)
    else:
        echo(words(lang, "no_situation", tried=result.tried, seed=seed))
    explained = {p for f in result.found for p in f.causes}
    deal = deal_difference(pa, pb, seed)
    untouched = [c.path for c in changes if c.path not in explained and not shown_by_deal(c.path, deal)]
    if deal is not None:
        echo()
        for line in deal_lines(deal, seed, lang):
            echo(line)
    if untouched:
        echo()
        by_path = {c.path: c for c in changes}
        why = [(path, reason_for(by_path[path], changes, ra, rb, result)) for path in untouched]
        for line in untouched_lines(why, lang):
            echo(line)
    if scenarios_file is not None:
        text = scenario_text(
            result.found,
            ra,
            rb,
            (a, b),
            (overrides_a, overrides_b),
            scenarios_file,
            lambda found, ref: verdict_line(found, ref, "en"),
        )
        _write(scenarios_file, text)
    if games:
        _games(pa, pb, games, seed, lang, (_label(a, overrides_a), _label(b, overrides_b)))


def _games(pa: Any, pb: Any, games: int, seed: int, lang: str, names: tuple[str, str]) -> None:
    """rami simulate --compare's statistics, on the first seat count both play."""
    from rami_core.diff.report import games_lines
    from rami_core.players.bot_games import SimConfig, compare, simulate

    counts = [n for n in pa.player_counts() if pb.allows_players(n)]
    if not counts:
        return
    players = counts[0]
    ra = simulate(SimConfig(pa, players, ("greedy",), games, seed), 1, "local")
    rb = simulate(SimConfig(pb, players, ("greedy",), games, seed), 1, "local")
    click.echo()
    for line in games_lines(compare(ra, rb), games, players, seed, lang):
        click.echo(line)


def _write(path: Path, text: str) -> None:
    """The scenarios file written safely (a unique temporary file, then a
    rename: never through a link, never into a FIFO or a device); a refusal
    is one line, exit 1."""
    from rami_core.cli.common import current_lang
    from rami_core.files.userfiles import FileRefused, write_text_safely
    from rami_core.words.printable import visible
    from rami_core.words.problems import words

    try:
        write_text_safely(path, text)
    except FileRefused as e:
        click.echo(f"rami diff: {visible(str(path))}: {words(e.reason, current_lang())}", err=True)
        sys.exit(1)
    except OSError as e:
        click.echo(f"rami diff: {visible(str(path))}: {(e.strerror or type(e).__name__).lower()}", err=True)
        sys.exit(1)
