"""`rami simulate`: many bot games, with a progress bar and statistics."""

from __future__ import annotations

import json
import os
import sys

import click
from rich.console import Console
from rich.table import Table

import rami_core.cli.types as types
from rami_core.cli.common import cli_words, lang_option, profile_options, profile_source, said_words
from rami_core.files.userfiles import visible
from rami_core.players.bot_games import ROUND_CAP, TURN_CAP, SimConfig, compare
from rami_core.players.bot_games import simulate as run_simulation
from rami_core.words.messages import MESSAGES, Messages


def _load(variant: str | None, rules_file: str | None, overrides: tuple[str, ...]):
    from rami_core.profile.loader import load_profile

    return shown(load_profile(profile_source(variant, rules_file), overrides))


def shown(profile):
    """The profile with its name made safe for a terminal (an escape sequence
    in a house file's `name:` is shown escaped, never run)."""
    return profile.model_copy(update={"name": visible(profile.name)})


def _run(config: SimConfig, workers: int, backend: str, label: str = "") -> dict:
    if backend == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            raise click.UsageError(cli_words("cli_ray_missing")) from None
    if sys.stderr.isatty() and config.games > 1:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        with Progress(
            TextColumn(label or config.profile.name, markup=False),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            console=Console(file=sys.stderr),
            transient=True,
        ) as bar:
            task = bar.add_task("games", total=config.games)
            return run_simulation(config, workers, backend, progress=lambda k: bar.advance(task, k))
    return run_simulation(config, workers, backend)


def _fmt(x) -> str:
    if x is None:
        return "-"
    return f"{x:.3f}" if isinstance(x, float) else str(x)


def _console() -> Console:
    # Names come from profiles: shown as written, never read as rich markup or emoji codes.
    return Console(markup=False, emoji=False)


def _print_summary(res: dict, msg: Messages) -> None:
    console = _console()
    t = Table(
        title=msg(
            "sim_title",
            variant=res["variant"],
            games=res["games"],
            players=res["players"],
            bots=",".join(res["bots"]),
            seed=res["seed"],
        )
    )
    if len(set(res["bots"])) == 1:
        # One bot type in every seat: a row per seat (or side) says what the
        # seat order is worth; a row per bot would only say the bot wins.
        from rami_core.players.bot_games import wilson

        side = len(res["wins_per_seat"]) != res["players"]
        t.add_column(msg("sim_side" if side else "sim_seat"))
        for col in ("sim_games", "sim_wins", "sim_win_rate", "sim_ci"):
            t.add_column(msg(col), justify="right")
        n = res["games"]
        for i, w in enumerate(res["wins_per_seat"]):
            lo, hi = wilson(w, n) if n else (None, None)
            t.add_row(
                f"{res['bots'][0]} {i}",
                str(n),
                str(int(w)) if float(w).is_integer() else _fmt(w),
                _fmt(w / n if n else None),
                f"[{_fmt(lo)}, {_fmt(hi)}]",
            )
        console.print(t)
    else:
        t.add_column(msg("sim_bot"))
        for col in ("sim_games", "sim_wins", "sim_win_rate", "sim_ci"):
            t.add_column(msg(col), justify="right")
        for bot, st in res["bots_stats"].items():
            t.add_row(
                bot,
                str(st["games"]),
                str(st["wins"]),
                _fmt(st["win_rate"]),
                f"[{_fmt(st['ci95'][0])}, {_fmt(st['ci95'][1])}]",
            )
        console.print(t)
    s = Table(show_header=True)
    s.add_column(msg("sim_statistic"))
    s.add_column(msg("sim_value"), justify="right")
    rows = [
        (
            msg("sim_wins_per_seat")
            + (msg("sim_side_suffix") if len(res["wins_per_seat"]) != res["players"] else ""),
            " ".join(str(int(w)) for w in res["wins_per_seat"]),
        ),
        (msg("sim_ties"), f"{res['ties']} / {res['unfinished_games']}"),
        (msg("sim_plugin_stopped_games"), str(res.get("failed_games", 0))),
        (msg("sim_rounds_per_game"), _fmt(res["rounds_per_game"])),
        (msg("sim_turns_per_round"), _fmt(res["turns_per_round"])),
        (msg("sim_empty_stock"), _fmt(res["empty_stock_share"])),
        (msg("sim_turn_capped"), str(res["turn_capped_rounds"])),
        (msg("sim_first_opening_turn"), _fmt(res["first_opening_turn"])),
        (msg("sim_average_penalty"), _fmt(res["average_penalty"])),
        (msg("sim_refused"), f"{res['refused']} / {res['timeouts']} / {res['bot_errors']}"),
        (msg("sim_speed"), _fmt(res["timing"]["games_per_second"])),
    ]
    for k, v in rows:
        s.add_row(k, v)
    console.print(s)


def _print_compare(a: dict, b: dict, cmp: dict, names: tuple[str, str], msg: Messages) -> None:
    console = _console()
    t = Table(title=msg("sim_compare_title", a=names[0], b=names[1], games=cmp["games"]))
    t.add_column(msg("sim_statistic"), justify="left")
    for col in ("A", "B", "B - A", msg("sim_ci")):
        t.add_column(col, justify="right")
    for key, m in cmp["metrics"].items():
        label = f"sim_metric_{key}"
        t.add_row(
            msg(label) if label in MESSAGES["en"] else key.replace("_", " "),
            _fmt(m["a"]),
            _fmt(m["b"]),
            _fmt(m["diff"]),
            f"[{_fmt(m['ci95'][0])}, {_fmt(m['ci95'][1])}]",
        )
    for bot, w in cmp["win_rates"].items():
        wa, wb = w["a"] or {}, w["b"] or {}
        t.add_row(
            msg("sim_bot_win_rate", bot=bot),
            f"{_fmt(wa.get('rate'))} [{_fmt((wa.get('ci95') or [None])[0])}, {_fmt((wa.get('ci95') or [None, None])[1])}]",
            f"{_fmt(wb.get('rate'))} [{_fmt((wb.get('ci95') or [None])[0])}, {_fmt((wb.get('ci95') or [None, None])[1])}]",
            "",
            "",
        )
    console.print(t)


def statistics_help() -> str:
    """How each statistic is computed (the same in a run and in --compare)."""
    from rami_core.players.bot_games import STATISTICS

    lines = ["\b", "Statistics (the same definitions in a run and in --compare):"]
    for name, stat in STATISTICS.items():
        doc = " ".join((stat.__doc__ or "").split())
        lines.append(f"  {name}: {doc}")
    lines.append(
        "  --compare: A and B as above over each profile's games; B - A with a 95% interval"
        " from the per-game paired differences of the same statistic."
    )
    return "\n".join(lines)


@click.command("simulate", epilog=statistics_help())
@profile_options
@click.option("--games", default=100, show_default=True, type=types.IntRange(1))
@click.option("--players", default=2, show_default=True, type=types.IntRange(1, 8))
@click.option(
    "--bots",
    "bots",
    default="greedy",
    show_default=True,
    help="Comma-separated bots, one per seat or one for all: random, greedy, expert.",
)
@click.option("--seed", default=0, show_default=True, type=int, help="Game i is dealt from seed + i.")
@click.option(
    "--workers", default=1, show_default=True, type=types.IntRange(1), help="Processes (or Ray CPUs)."
)
@click.option(
    "--backend",
    type=types.Choice(["local", "ray"]),
    default="local",
    show_default=True,
    help="ray: Ray tasks on a local Ray instance (pip install 'rami[ray]').",
)
@click.option(
    "--turn-cap",
    default=TURN_CAP,
    show_default=True,
    type=types.IntRange(1),
    help="Turns after which a round is stopped (counted).",
)
@click.option(
    "--round-cap",
    default=ROUND_CAP,
    show_default=True,
    type=types.IntRange(1),
    help="Rounds after which a game is stopped (counted).",
)
@click.option(
    "--compare",
    "compare_files",
    nargs=2,
    default=None,
    metavar="A.yaml B.yaml",
    help="Play the same deals under two profiles and report the differences.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document instead of tables.")
@lang_option(
    help="Language of the tables and of the errors (a profile, a bot, an option refused); --json is the same in every language."
)
def simulate_cmd(
    variant,
    rules_file,
    overrides,
    games,
    players,
    bots,
    seed,
    workers,
    backend,
    turn_cap,
    round_cap,
    compare_files,
    as_json,
    lang,
):
    """Play many bot games and print statistics (wins, rounds, turns, penalties, speed)."""
    from rami_core.players.bots import BOTS

    # More processes than games or cores only costs forks (100,000 asked
    # forked hundreds): the games and the machine set the ceiling.
    workers = max(1, min(workers, games, (os.cpu_count() or 1) if backend == "local" else workers))
    names = tuple(b.strip() for b in bots.split(",") if b.strip())
    known = list(BOTS)
    for n in names:
        if n not in known:
            raise click.BadParameter(cli_words("no_bot", name=n, bots=", ".join(known)), param_hint="--bots")
    if len(names) not in (1, players):
        msg = Messages(lang)
        counts = {"bots": msg.count("bots", len(names)), "players": msg.count("players", players)}
        raise click.BadParameter(msg("cli_bots_count", **counts), param_hint="--bots")

    def config(profile) -> SimConfig:
        if not profile.allows_players(players):
            counts = ", ".join(map(str, profile.player_counts()))
            raise click.UsageError(cli_words("played_by", name=profile.name, counts=counts, n=players))
        return SimConfig(profile, players, names, games, seed, turn_cap, round_cap)

    if compare_files:
        from rami_core.profile.loader import load_profile

        pa, pb = (shown(load_profile(f, overrides)) for f in compare_files)
        ra = _run(config(pa), workers, backend, "A")
        rb = _run(config(pb), workers, backend, "B")
        cmp = compare(ra, rb)
        if as_json:
            ra.pop("_records"), rb.pop("_records")
            click.echo(json.dumps({"a": ra, "b": rb, "compare": cmp}, indent=1, sort_keys=True))
        else:
            _print_compare(ra, rb, cmp, compare_files, Messages(lang))
        stopped = [
            _plugin_verdict(r, f"{label} ({name})")
            for r, label, name in ((ra, "A", compare_files[0]), (rb, "B", compare_files[1]))
        ]
        if any(stopped):
            raise SystemExit(1)
        return
    profile = _load(variant, rules_file, overrides)
    res = _run(config(profile), workers, backend)
    res.pop("_records")
    if as_json:
        click.echo(json.dumps(res, indent=1, sort_keys=True))
    else:
        _print_summary(res, Messages(lang))
    if _plugin_verdict(res):
        raise SystemExit(1)


def _plugin_verdict(res: dict, label: str = "") -> bool:
    """Name the first plugin error on stderr. True when a plugin stopped
    every game: there are no statistics at all, and the run fails (exit 1)."""
    first = res.get("first_plugin_error")
    if first is None:
        return False
    failed, games = res["failed_games"], res["games"]
    line = cli_words(
        "simulate_plugin_stopped",
        failed=failed,
        games=games,
        game=first["game"],
        seed=first["seed"],
        error=visible(said_words(first["message"])),
    )
    click.echo(f"rami simulate: {visible(label) + ': ' if label else ''}{line}", err=True)
    return bool(failed == games)
