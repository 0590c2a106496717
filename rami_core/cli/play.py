"""`rami play`: a game in the terminal against bots, or between people at one screen."""

from __future__ import annotations

import contextlib
import os
import sys
from typing import Any

import click
from rich.console import Console

import rami_core.cli.types as types
from rami_core.cli.common import Seconds, lang_option, one_line, profile_options, profile_source
from rami_core.files.userfiles import visible
from rami_core.profile.hooks import PluginError
from rami_core.words.errors import ProfileError
from rami_core.words.problems import words


def _stdout_can_show_symbols() -> bool:
    encoding = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        "♠♥♦♣".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _bot_list(value: str | None) -> list[str]:
    if value is None:
        return []
    return [b.strip() for b in value.split(",") if b.strip()]


@click.command("play")
@profile_options
@click.option(
    "--players",
    "-n",
    type=int,
    default=None,
    help="Number of players (default: 2, or as many bots as listed).",
)
@click.option(
    "--bots",
    default=None,
    metavar="LIST",
    help="Bots, comma-separated (e.g. expert or greedy,random); they take the last seats. Default: expert. As many bots as players: watch a bot game.",
)
@click.option("--seed", type=int, default=None, help="Deal seed (default: random).")
@click.option(
    "--hotseat",
    is_flag=True,
    help="People take turns at one screen: every seat without a bot is a person; each hand stays hidden until its player is ready.",
)
@click.option(
    "--save",
    "save_path",
    default=None,
    metavar="FILE",
    type=types.Path(dir_okay=False),
    help="Save the game to FILE after every move (resume it with --resume).",
)
@click.option(
    "--resume",
    "resume_path",
    default=None,
    metavar="FILE",
    type=types.Path(dir_okay=False),
    help="Continue a saved game.",
)
@lang_option(help="Language of the game (fr writes V/D/R for the court cards) and of its errors.")
@click.option(
    "--ascii",
    "ascii_only",
    is_flag=True,
    help="Letters S H D C instead of the suit symbols (automatic where the terminal cannot show them).",
)
@click.option(
    "--clock",
    type=types.IntRange(0, 3600),  # as a profile's turn.time_limit
    is_flag=False,
    flag_value=0,
    default=None,
    metavar="[SECONDS]",
    help="Play with a turn clock: SECONDS per turn, or the variant's own clock if none is given (60 s if it has none). Off by default.",
)
@click.option(
    "--names",
    default=None,
    metavar="LIST",
    help='Names of the people, comma-separated, in seat order (e.g. --names "Anne,Luc"). In hot seat on a terminal the names are asked.',
)
@click.option(
    "--delay",
    type=Seconds(),
    default=None,
    help="Seconds between a bot's moves on a terminal (default 0.6; 0 when the output is not a terminal).",
)
def play(
    variant,
    rules_file,
    overrides,
    players,
    bots,
    seed,
    hotseat,
    save_path,
    resume_path,
    lang,
    ascii_only,
    clock,
    names,
    delay,
):
    """Play a game in the terminal: against bots, or between people at one screen.

    With no options: Rami 51 against one expert bot, no clock. Type ? during the game for
    the commands. Commands are read line by line when stdin is not a terminal,
    so a game can be scripted."""
    from rami_core.cards.text import CardStyle
    from rami_core.players.bots import BOTS, make_bot
    from rami_core.players.savegame import SaveError
    from rami_core.profile.loader import load_profile
    from rami_core.referee.engine import Game
    from rami_core.terminal import Seat, Session, Terminal, read_save
    from rami_core.words.messages import Messages

    msg = Messages(lang)
    symbols = _stdout_can_show_symbols()
    if not symbols:
        with contextlib.suppress(AttributeError, ValueError):
            sys.stdout.reconfigure(errors="replace")  # type: ignore[union-attr]  # a TextIOWrapper, or suppressed
    style = CardStyle(lang, ascii_only=ascii_only or not symbols, empty_table=msg("table_is_empty"))
    interactive = sys.stdin.isatty()
    out_tty = sys.stdout.isatty()
    console = Console(highlight=False, emoji=False, soft_wrap=not out_tty)
    err = Console(file=sys.stderr, highlight=False, soft_wrap=True)

    source = profile_source(variant, rules_file)
    bot_names = _bot_list(bots)
    # The default opponent: the expert, or the strongest bot installed.
    default_bot = next((b for b in ("expert", "greedy", "random") if b in BOTS), None) or next(
        iter(BOTS), "expert"
    )
    for name in bot_names:
        if name not in BOTS:
            raise click.BadParameter(msg("no_bot", name=name, bots=", ".join(BOTS)), param_hint="--bots")

    play_info: dict = {}
    if resume_path:
        try:
            game, play_info = read_save(resume_path)
        except SaveError as e:
            err.print(visible(f"{msg('cannot_resume')} {e.said.words(lang)}"), style="red", markup=False)
            sys.exit(1)
        n = game.rules.players
        saved = play_info.get("seats")
        if bots is None and isinstance(saved, list) and len(saved) == n:
            if not all(isinstance(x, dict) for x in saved):
                err.print(
                    f"{msg('cannot_resume')} {msg('resume_seats_malformed')}", style="red", markup=False
                )
                sys.exit(1)
            seat_kinds = [None if s.get("human") else str(s.get("bot") or default_bot) for s in saved]
        else:
            seat_kinds = _seating(n, bot_names or [default_bot], hotseat)
    else:
        try:
            profile = load_profile(source, overrides)
        except ProfileError:
            raise
        if not bot_names and bots is None:
            bot_names = [] if hotseat else [default_bot]
        n = players if players is not None else max(2, profile.player_counts()[0], len(bot_names))
        if not profile.allows_players(n):
            counts = profile.player_counts()
            raise click.BadParameter(
                msg("played_by", name=visible(profile.name), counts=", ".join(map(str, counts)), n=n),
                param_hint="--players",
            )
        if len(bot_names) > n:
            raise click.BadParameter(
                msg(
                    "bots_for_players",
                    bots=msg.count("bots", len(bot_names)),
                    players=msg.count("players", n),
                ),
                param_hint="--bots",
            )
        if not hotseat and len(bot_names) < n and not bot_names:
            bot_names = [default_bot]
        seat_kinds = _seating(n, bot_names, hotseat)
        if seed is None:
            seed = int.from_bytes(os.urandom(4), "big")
        game = Game.new(profile, n, seed=seed)

    humans = sum(1 for k in seat_kinds if k is None)
    given = [x.strip() for x in names.split(",")] if names else []
    saved = play_info.get("seats")
    saved_seats: list = saved if isinstance(saved, list) else []
    bot_count: dict[str, int] = {}
    for kind in seat_kinds:
        if kind is not None:
            bot_count[kind] = bot_count.get(kind, 0) + 1
    seats = []
    seat_seed = game.state.seed or 0
    for i, kind in enumerate(seat_kinds):
        saved_name = (
            saved_seats[i].get("name") if i < len(saved_seats) and isinstance(saved_seats[i], dict) else None
        )
        if kind is None:
            name = msg("you") if humans == 1 else msg("player", n=i + 1)
            seats.append(Seat(True, name))
        else:
            if kind not in BOTS:
                raise click.BadParameter(msg("no_bot", name=kind, bots=", ".join(BOTS)), param_hint="--bots")
            name = msg("bot_one", bot=kind) if bot_count[kind] == 1 else msg("bot_name", bot=kind, n=i + 1)
            seats.append(Seat(False, name, kind, make_bot(kind, seat_seed * 16 + i)))
        if i < len(given) and given[i]:
            seats[-1].name = visible(given[i])
        elif isinstance(saved_name, str) and saved_name and not given:
            seats[-1].name = visible(saved_name)
    clock_seconds = None
    if clock is not None:
        clock_seconds = clock or game.rules.turn_time_limit or 60
    if delay is None:
        delay = 0.6 if out_tty else 0.0
    term = Terminal(console, interactive=interactive, delay=delay if out_tty else 0.0)
    if interactive and humans > 1 and not given and not resume_path:
        from rami_core.terminal.prompts import NAME_LIMIT, Questions

        ask = Questions(
            term, msg, lambda key, style="", **kw: console.print(msg(key, **kw), style=style, markup=False)
        )
        for i, seat in enumerate(seats):
            if seat.human:
                seat.name = ask.name(seat.name, NAME_LIMIT, n=i + 1)
    session = Session(
        game,
        seats,
        term,
        msg,
        style,
        save_path=save_path,
        clock=clock_seconds,
        tell_from_start=not resume_path,
        offer_save=interactive,
    )
    if resume_path:
        session.say("resumed", "green", path=resume_path)
    try:
        code = session.run()
    except KeyboardInterrupt:
        code = session.abandon()
    except PluginError as e:
        # The engine commits nothing a failed hook touched: save the game as it stands, then stop.
        _rescue(session, e, save_path, err)
        code = 1
    sys.exit(code)


def _rescue(session: Any, error: Exception, save_path: str | None, err: Console) -> None:
    from rami_core.players.savegame import SaveError
    from rami_core.terminal.saves import write_save

    msg = session.msg
    path = save_path or f"rami-rescued-{session.game.state.seed or 0}.json"
    try:
        write_save(session.game, path, [s.to_dict() for s in session.seats], msg.lang)
        saved = msg("rescued_to", path=visible(path))
    except SaveError as se:
        saved = msg("rescue_failed", error=words(se.reason or se.said, msg.lang))
    err.print(msg("crashed", error=one_line(str(error)), saved=saved), style="red", markup=False)


def _seating(n: int, bot_names: list[str], hotseat: bool) -> list[str | None]:
    """Seat kinds: None for a person, else a bot name. People sit first.
    Without --hotseat one person plays (unless the bots fill every seat) and
    the last bot listed fills the remaining seats."""
    if len(bot_names) >= n:
        return list(bot_names[:n])
    if hotseat:
        return [None] * (n - len(bot_names)) + list(bot_names)
    bots = list(bot_names) + [bot_names[-1]] * (n - 1 - len(bot_names))
    return [None, *bots]
