"""`rami replay FILE`: load a saved game, check it, and tell it turn by turn."""

from __future__ import annotations

import sys

import click
from rich.console import Console
from rich.markup import escape

from rami_core.events import Event
from rami_core.savegame import SaveError, load


def describe(e: Event) -> str:
    d = e.data
    who = f"seat {e.seat}" if e.seat is not None else ""
    k = e.kind
    if k == "round_dealt":
        top = f", {d['discard_top']} turned up" if d.get("discard_top") else ""
        return f"round {d['round']} dealt: seat {d['first_player']} plays first, stock {d['stock_size']}{top}"
    if k == "drawn":
        card = d.get("card") or e.private.get("card")
        return f"{who} draws {card} from the {d['source']}" if card else f"{who} draws from the {d['source']}"
    if k == "opened":
        return f"{who} opens"
    if k == "laid":
        return f"{who} lays " + "  ".join("[" + " ".join(m) + "]" for m in d["melds"])
    if k == "laid_off":
        return f"{who} lays off " + ", ".join(f"{x['card']} on meld {x['to']}" for x in d["cards"])
    if k == "swapped":
        return f"{who} gives {' '.join(d['given'])} for the joker of meld {d['meld']}"
    if k == "rearranged":
        return f"{who} rearranges the table: " + "  ".join("[" + " ".join(m) + "]" for m in d["table"])
    if k == "discarded":
        return f"{who} discards {d['card']}"
    if k == "turn_ended":
        return f"{who} ends the turn"
    if k == "timed_out":
        return f"{who} runs out of time" + (" (the turn is undone)" if d.get("undone") else "")
    if k == "stock_rebuilt":
        return f"the stock is rebuilt from the discard pile ({d['stock_size']} cards)"
    if k == "round_over":
        how = {"out": f"seat {d['winner']} goes out" + (" (rami sec)" if d.get("rami_sec") else "")}.get(
            d["how"], f"the stock is empty ({d['how']})"
        )
        return f"round over: {how}; penalties {d['penalties']}, scores {d['scores']}"
    if k == "game_over":
        return f"game over: winner {d['winner']}, scores {d['scores']}"
    return f"{k} {d}"


@click.command("replay")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option(
    "--seat", type=int, default=None, help="Tell the game as this seat saw it (others' stock draws hidden)."
)
def replay(file: str, seat: int | None) -> None:
    """Replay a saved game, check it matches its snapshot, and print it turn by turn."""
    out = Console(highlight=False, soft_wrap=True, emoji=False)
    try:
        game = load(file)
    except SaveError as err:
        Console(file=sys.stderr, highlight=False, soft_wrap=True, emoji=False).print(
            f"[red]cannot replay:[/] {escape(str(err))}"
        )
        sys.exit(1)
    if seat is not None and not 0 <= seat < game.rules.players:
        raise click.BadParameter(f"this game has seats 0 to {game.rules.players - 1}", param_hint="--seat")
    p = game.profile
    out.print(
        f"[bold]{escape(p.name)}[/] - {game.rules.players} players, seed {game.state.seed}, {len(game.log)} log entries"
    )
    for ev in game.events:
        shown = ev if seat is None else ev.for_seat(seat)
        line = describe(shown)
        if ev.kind in ("round_over", "game_over", "round_dealt"):
            out.print(f"[bold]{escape(line)}[/]")
        else:
            out.print(f"  {escape(line)}")
    out.print("[green]replay matches the saved snapshot[/]")
