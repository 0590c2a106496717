"""Many bot games: whole games played by bots, with statistics.

A game is dealt from its own seed (``base seed + game index``) and played to
its end (several rounds, up to a round cap); each round stops at a turn cap
if it would never end (counted). The bots' seats rotate with the game index
so that each bot plays every seat equally often. Games are independent and
their results depend on nothing but their index, so the summary is the same
whatever the number of workers (processes with ``ProcessPoolExecutor``, or
Ray tasks); only the timing fields differ.

Every action a bot returns goes to the engine; one the engine refuses is
counted (``refused``) and replaced by ``actions.Timeout``, as is a bot that
raises (``bot_errors``); a bot may also return a Timeout itself when it finds
nothing to do (``timeouts``). All three should stay at zero.
"""

from __future__ import annotations

import math
import os
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from rami_core.game import actions as A
from rami_core.game.state import OVER
from rami_core.profile.hooks import PluginError
from rami_core.profile.model import Profile
from rami_core.referee.caps import ROUND_CAP, STEP_CAP, TURN_CAP, round_capped, turns_in_round
from rami_core.referee.engine import Game
from rami_core.words.errors import RuleError


def kind_of(a: A.Action) -> str:
    """draw_stock / draw_discard / meld / ... (as the statistics name them)."""
    return A.action_kind(a)


@dataclass(frozen=True)
class SimConfig:
    profile: Profile
    players: int = 2
    bots: tuple[str, ...] = ("greedy",)
    games: int = 100
    seed: int = 0
    turn_cap: int = TURN_CAP
    round_cap: int = ROUND_CAP
    rotate: bool = True

    def seat_bots(self, game_index: int) -> list[str]:
        names = list(self.bots) if len(self.bots) > 1 else list(self.bots) * self.players
        if len(names) != self.players:
            raise ValueError(
                f"{len(names)} bots for {self.players} seats: give one bot per seat, or one for all"
            )
        if self.rotate:
            k = game_index % self.players
            names = names[-k:] + names[:-k] if k else names
        return names


# --------------------------------------------------------------------------- one game


def play_game(config: SimConfig, index: int) -> dict[str, Any]:
    """Play game `index` of the run to its end; a plain-data record of it.

    A plugin that fails stops that game only: the record says so
    (``plugin_error``) and the run goes on with the next game."""
    try:
        return _play_game(config, index)
    except PluginError as e:
        names = config.seat_bots(index)
        return {
            "index": index,
            "seed": config.seed + index,
            "bots": names,
            "finished": False,
            "capped": None,
            "winner": None,
            "scores": [],
            "rounds": [],
            "kinds": [{} for _ in names],
            "refused": 0,
            "refusal_codes": {},
            "timeouts": 0,
            "bot_errors": 0,
            "stuck": 0,
            "plugin_error": e.said,  # its English words, its code for the user's language
        }


def _play_game(config: SimConfig, index: int) -> dict[str, Any]:
    from rami_core.players.bots import make_bot

    seed = config.seed + index
    names = config.seat_bots(index)
    game = Game.new(config.profile, config.players, seed=seed)
    rules = game.rules
    bots = [make_bot(n, seed * 8 + i) for i, n in enumerate(names)]
    kinds: list[Counter] = [Counter() for _ in names]
    refused = timeouts = bot_errors = stuck = 0
    refusal_codes: Counter = Counter()
    rounds: list[dict[str, Any]] = []
    capped_round = False
    while True:
        steps = 0
        first_open: int | None = None
        opened0 = list(game.state.opened)
        while game.state.phase != OVER:
            if round_capped(game.state, config.turn_cap):
                capped_round = True
                break
            s = game.state
            seat = s.turn
            turn_no = s.turns_played
            try:
                action = bots[seat].choose(game.view(seat), rules)
            except Exception:  # a bot bug: counted, the clock runs out
                bot_errors += 1
                action = A.Timeout(seat)
            if steps >= STEP_CAP:
                action = A.Timeout(seat)
            if isinstance(action, A.Timeout):
                timeouts += 1
            try:
                game.apply(action)
                kinds[seat][kind_of(action)] += 1
            except RuleError as e:
                refused += 1
                refusal_codes[e.code] += 1
                try:
                    game.apply(A.Timeout(seat))
                    timeouts += 1
                except RuleError:
                    stuck += 1
                    capped_round = True
                    break
            steps += 1
            n = game.state
            if first_open is None and any(o and not b for o, b in zip(n.opened, opened0, strict=True)):
                first_open = turn_no + 1
            if n.phase == OVER or n.turns_played != turn_no:
                steps = 0
        turns = turns_in_round(game.state) if not capped_round else game.state.turns_played
        st = game.state
        if capped_round:
            rounds.append(
                {
                    "turns": turns,
                    "end": "turn_cap",
                    "penalties": None,
                    "first_open": first_open,
                    "winner": None,
                }
            )
            break
        rounds.append(
            {
                "turns": turns,
                "end": st.round_end,
                "penalties": list(st.penalties),
                "first_open": first_open,
                "winner": st.winner,
            }
        )
        if st.game_over:
            break
        if len(rounds) >= config.round_cap:
            break
        game.next_round()
    st = game.state
    finished = st.game_over and not capped_round
    return {
        "index": index,
        "seed": seed,
        "bots": names,
        "finished": finished,
        "capped": "turn" if capped_round else (None if finished else "round"),
        "winner": st.game_winner if finished else None,
        "scores": list(st.scores),
        "rounds": rounds,
        "kinds": [dict(k) for k in kinds],
        "refused": refused,
        "refusal_codes": dict(refusal_codes),
        "timeouts": timeouts,
        "bot_errors": bot_errors,
        "stuck": stuck,
    }


def play_chunk(config: SimConfig, indices: Sequence[int]) -> list[dict[str, Any]]:
    return [play_game(config, i) for i in indices]


# --------------------------------------------------------------------------- running


def _chunks(n: int, size: int) -> list[list[int]]:
    return [list(range(i, min(n, i + size))) for i in range(0, n, size)]


def run_games(
    config: SimConfig,
    workers: int = 1,
    backend: str = "local",
    progress: Callable[[int], None] | None = None,
) -> list[dict[str, Any]]:
    """Every game's record, in index order (whatever the workers)."""
    n = config.games
    results: dict[int, dict[str, Any]] = {}
    if backend == "ray":
        import ray

        started = not ray.is_initialized()
        if started:
            ray.init(  # a local Ray: never more CPUs than the machine has (each one a worker process)
                num_cpus=max(1, min(workers, os.cpu_count() or 1)),
                include_dashboard=False,
                log_to_driver=False,
                configure_logging=False,
            )
        try:
            remote = ray.remote(play_chunk)
            pending = {
                remote.remote(config, c): c
                for c in _chunks(n, max(1, min(8, n // (4 * max(1, workers)) or 1)))
            }
            while pending:
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    pending.pop(ref)
                    for rec in ray.get(ref):
                        results[rec["index"]] = rec
                        if progress:
                            progress(1)
        finally:
            if started:
                ray.shutdown()
    elif workers <= 1:
        for i in range(n):
            results[i] = play_game(config, i)
            if progress:
                progress(1)
    else:
        size = max(1, min(8, n // (4 * workers) or 1))
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(play_chunk, config, c) for c in _chunks(n, size)]
            from concurrent.futures import as_completed

            for fut in as_completed(futures):
                for rec in fut.result():
                    results[rec["index"]] = rec
                    if progress:
                        progress(1)
    return [results[i] for i in range(n)]


# --------------------------------------------------------------------------- statistics


def wilson(k: float, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for k successes in n trials: scipy's, so that
    the simulations and the RL examples report the same interval. ``k`` is a
    count even where it arrives as a float (the wins per seat)."""
    if n == 0:
        return (0.0, 1.0)
    from scipy.stats import binomtest  # scipy.stats takes a while to import: only where asked

    if k != int(k):
        raise ValueError(f"a Wilson interval counts whole successes, not {k}")
    ci = binomtest(int(k), n).proportion_ci(confidence_level=confidence, method="wilson")
    return (float(ci.low), float(ci.high))


def mean_ci(xs: Sequence[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """Mean and Student's t interval: a run compares a few dozen paired
    games, where the normal interval is too narrow."""
    n = len(xs)
    if n == 0:
        return (float("nan"), float("nan"), float("nan"))
    m = sum(xs) / n
    if n == 1:
        return (m, m, m)
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    if var == 0:
        return (m, m, m)
    from scipy.stats import t

    lo, hi = t.interval(confidence, n - 1, loc=m, scale=math.sqrt(var / n))
    return (m, float(lo), float(hi))


# --------------------------------------------------------------------------- the statistics
#
# One function per statistic, over a list of game records: `simulate` applies
# it to every game of the run, `--compare` to every game of each profile (its
# A and B columns) and to each game alone (the paired differences behind the
# interval). So both report the same number for the same profile and seed.


def _rounds(games: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for g in games for r in g["rounds"]]


def _scored(games: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in _rounds(games) if r["penalties"] is not None]


def rounds_per_game(games: Sequence[dict[str, Any]]) -> float | None:
    """Rounds played, divided by games (per game)."""
    return len(_rounds(games)) / len(games) if games else None


def turns_per_round(games: Sequence[dict[str, Any]]) -> float | None:
    """Turns played, divided by rounds played, a round stopped at the turn cap
    included (per round, every round of every game pooled)."""
    rounds = _rounds(games)
    return sum(r["turns"] for r in rounds) / len(rounds) if rounds else None


def empty_stock_share(games: Sequence[dict[str, Any]]) -> float | None:
    """Rounds ended by an empty stock, divided by rounds that ended (per round, pooled)."""
    scored = _scored(games)
    if not scored:
        return None
    return sum(1 for r in scored if (r["end"] or "").startswith("empty_stock")) / len(scored)


def first_opening_turn(games: Sequence[dict[str, Any]]) -> float | None:
    """The round's turn (every seat counted, from 1) in which a seat first
    opened, averaged over the rounds where somebody opened (per round, pooled)."""
    opens = [r["first_open"] for r in _rounds(games) if r["first_open"] is not None]
    return sum(opens) / len(opens) if opens else None


def average_penalty(games: Sequence[dict[str, Any]]) -> float | None:
    """What a seat paid in a round that ended (its penalty, 0 for the winner
    and for a seat that did not pay), averaged over every seat of every such
    round (per seat and round, pooled)."""
    pens = [p for r in _scored(games) for p in r["penalties"]]
    return sum(pens) / len(pens) if pens else None


STATISTICS: dict[str, Callable[[Sequence[dict[str, Any]]], float | None]] = {
    "rounds_per_game": rounds_per_game,
    "turns_per_round": turns_per_round,
    "empty_stock_share": empty_stock_share,
    "first_opening_turn": first_opening_turn,
    "average_penalty": average_penalty,
}


def _r(x: float | None, d: int = 4) -> float | None:
    return None if x is None or (isinstance(x, float) and math.isnan(x)) else round(x, d)


def summarize(config: SimConfig, records: list[dict[str, Any]], teams: bool = False) -> dict[str, Any]:
    """Statistics over the records (no timing: the caller adds it)."""
    players = config.players
    sides = 2 if teams else players
    games = len(records)
    wins_seat = [0.0] * sides
    wins_bot: Counter = Counter()
    games_bot: Counter = Counter()
    ties = 0
    unfinished = 0
    failed = [g for g in records if g.get("plugin_error")]
    first = min(failed, key=lambda g: g["index"]) if failed else None
    rounds_all = [r for g in records for r in g["rounds"]]
    for g in records:
        bots = g["bots"]
        for b in set(bots):
            games_bot[b] += 1
        if g.get("plugin_error"):
            continue
        if g["winner"] is None:
            if g["finished"]:
                ties += 1
            else:
                unfinished += 1
            continue
        w = g["winner"]
        wins_seat[w] += 1
        seats = [i for i in range(players) if (i % 2 == w if teams else i == w)]
        for b in {bots[i] for i in seats}:
            wins_bot[b] += 1
    turn_caps = sum(1 for r in rounds_all if r["end"] == "turn_cap")
    opens = [r["first_open"] for r in rounds_all if r["first_open"] is not None]
    kinds: dict[str, Counter] = {}
    for g in records:
        for seat, k in enumerate(g["kinds"]):
            kinds.setdefault(g["bots"][seat], Counter()).update(k)
    bots_stats = {}
    for b in sorted(games_bot):
        lo, hi = wilson(wins_bot[b], games_bot[b])
        bots_stats[b] = {
            "games": games_bot[b],
            "wins": wins_bot[b],
            "win_rate": _r(wins_bot[b] / games_bot[b]) if games_bot[b] else None,
            "ci95": [_r(lo), _r(hi)],
            "actions": dict(sorted(kinds.get(b, Counter()).items())),
        }
    return {
        "variant": config.profile.name,
        "players": players,
        "bots": list(config.bots),
        "games": games,
        "seed": config.seed,
        "turn_cap": config.turn_cap,
        "round_cap": config.round_cap,
        "wins_per_seat": wins_seat,
        "ties": ties,
        "unfinished_games": unfinished,
        "failed_games": len(failed),
        "plugin_errors": sorted({g["plugin_error"] for g in failed})[:5],
        # The first game (in deal order) a plugin stopped: what a user is told first.
        "first_plugin_error": (
            None
            if first is None
            else {"game": first["index"], "seed": first["seed"], "message": first["plugin_error"]}
        ),
        "bots_stats": bots_stats,
        "rounds": len(rounds_all),
        **{name: _r(stat(records)) for name, stat in STATISTICS.items()},
        "turn_capped_rounds": turn_caps,
        "rounds_with_opening": len(opens),
        "refused": sum(g["refused"] for g in records),
        "timeouts": sum(g["timeouts"] for g in records),
        "bot_errors": sum(g["bot_errors"] for g in records),
        "stuck": sum(g["stuck"] for g in records),
    }


def simulate(
    config: SimConfig, workers: int = 1, backend: str = "local", progress: Callable[[int], None] | None = None
) -> dict[str, Any]:
    """Play the games and summarise them; `timing` holds the only fields that
    depend on the machine and the workers."""
    t0 = time.perf_counter()
    records = run_games(config, workers, backend, progress)
    elapsed = time.perf_counter() - t0
    out = summarize(config, records, teams=config.profile.teams_at(config.players))
    out["timing"] = {
        "seconds": round(elapsed, 3),
        "games_per_second": round(len(records) / elapsed, 3) if elapsed > 0 else None,
        "workers": workers,
        "backend": backend,
    }
    out["_records"] = records
    return out


# --------------------------------------------------------------------------- comparing two profiles


def compare(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Paired differences (B - A) over the same deals, with normal 95% intervals;
    win rates per bot with Wilson intervals for each profile."""
    ra, rb = a["_records"], b["_records"]
    out: dict[str, Any] = {"games": len(ra), "metrics": {}, "win_rates": {}}
    for key, stat in STATISTICS.items():
        va, vb = stat(ra), stat(rb)
        # The interval: the spread of the same statistic's per-game paired
        # differences (a normal interval on their mean), centred on B - A.
        diffs = []
        for x, y in zip(ra, rb, strict=True):
            sx, sy = stat([x]), stat([y])
            if sx is not None and sy is not None:
                diffs.append(sy - sx)
        d = None if va is None or vb is None else vb - va
        _, lo, hi = mean_ci(diffs)
        mean = sum(diffs) / len(diffs) if diffs else float("nan")
        out["metrics"][key] = {
            "a": _r(va) if va is not None else None,
            "b": _r(vb) if vb is not None else None,
            "diff": _r(d) if d is not None else None,
            "ci95": [_r(d + lo - mean), _r(d + hi - mean)] if d is not None and diffs else [None, None],
            "paired_games": len(diffs),
        }
    for bot in sorted(set(a["bots_stats"]) | set(b["bots_stats"])):
        sa, sb = a["bots_stats"].get(bot), b["bots_stats"].get(bot)
        out["win_rates"][bot] = {
            "a": sa and {"rate": sa["win_rate"], "ci95": sa["ci95"]},
            "b": sb and {"rate": sb["win_rate"], "ci95": sb["ci95"]},
        }
    return out


__all__ = [
    "STATISTICS",
    "SimConfig",
    "compare",
    "mean_ci",
    "play_game",
    "run_games",
    "simulate",
    "summarize",
    "wilson",
]
