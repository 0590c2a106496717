"""`rami replay FILE`: load a saved game, check it, and tell it turn by turn."""

from __future__ import annotations

import sys

import click
from rich.console import Console
from rich.text import Text

import rami_core.cli.types as types
from rami_core.cli.common import lang_option
from rami_core.files.userfiles import visible
from rami_core.game.events import EventKind
from rami_core.players.narration import Teller, tell
from rami_core.players.savegame import SaveError, load
from rami_core.words.messages import Messages


@click.command("replay")
@click.argument("file", type=types.Path(dir_okay=False))
@click.option(
    "--seat",
    type=types.IntRange(0, 7),
    default=None,
    help="Tell the game as this seat saw it (others' stock draws hidden).",
)
@lang_option(help="Language of the telling (and of the errors).")
def replay(file: str, seat: int | None, lang: str) -> None:
    """Replay a saved game, check it matches its snapshot, and print it turn by turn."""
    msg = Messages(lang)
    out = Console(highlight=False, soft_wrap=True, emoji=False)
    try:
        game = load(file)
    except SaveError as err:
        Console(file=sys.stderr, highlight=False, soft_wrap=True, emoji=False).print(
            visible(f"{msg('cannot_replay')} {err.said.words(lang)}"), style="red", markup=False
        )
        sys.exit(1)
    if seat is not None and not 0 <= seat < game.rules.players:
        raise click.BadParameter(msg("replay_seats", last=game.rules.players - 1), param_hint="--seat")
    title = msg(
        "replay_title",
        variant=visible(game.profile.name),  # a profile's name is anyone's typing
        players=msg.count("players", game.rules.players),
        seed=game.state.seed,
        entries=msg.count("entries", len(game.log)),
    )
    out.print(Text(title, style="bold"))
    teller = Teller(
        msg,
        name=lambda s: msg("seat", n=s),
        discard_enabled=False,  # a log tells every event, the end of each turn too
        ends=True,
    )
    for ev in game.events:
        line = tell(teller, ev if seat is None else ev.for_seat(seat))
        if line is None:
            continue
        if ev.kind in (EventKind.ROUND_OVER, EventKind.GAME_OVER, EventKind.ROUND_DEALT):
            line.stylize("bold")
            out.print(line)
        else:
            out.print(Text("  ") + line)
    out.print(Text(msg("replay_ok"), style="green"))
