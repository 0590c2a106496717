"""Engine speed (by hand): greedy-versus-greedy rounds per second for every
preset, beside two gin rummy engines measured in the same run:

* RLCard's ``gin-rummy`` environment with its random agents (one game = one deal);
* OpenSpiel's ``gin_rummy`` played by its simple bot (``pyspiel.make_simple_gin_rummy_bot``)
  in both seats (one game = one deal).

    pip install 'rami[bench]'         # rlcard, open_spiel
    python benchmarks/bench_engine.py --seconds 10
    python benchmarks/bench_engine.py --seconds 10 --cpu   # CPU time: a shared machine
    python benchmarks/bench_engine.py --profile rami51   # cProfile of the turn loop
    python benchmarks/bench_engine.py --breakdown rami51 # wall-clock shares, no profiler

    # before and after in one run: a second rami tree (e.g. main's) measured
    # beside this one, each line in a child process importing that tree
    git archive main rami_core variants | tar -x -C /tmp/before
    python benchmarks/bench_engine.py --rami-path /tmp/before --presets voleur,rami51
    # did a speed-up change what the bots decide? (same seeds, every action hashed)
    python benchmarks/bench_engine.py --rami-path /tmp/before --decisions 20

Rami rounds are played through the public API (Game.new, view, bot.choose,
apply) exactly as ``rami simulate`` plays them; a round stops at 400 turns.
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import json
import os
import pstats
import subprocess
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from rami_core.players.bots import make_bot
from rami_core.profile.loader import load_profile
from rami_core.referee.engine import Game

PRESETS = ["voleur", "rami51", "rami71", "simple", "kaluki", "classic"]

# --cpu: every rate is per second of this process's CPU time (time.process_time,
# every thread counted), rami's and the peers' alike: on a machine shared by
# several people the wall clock measures the neighbours as much as the engine.
CLOCK = time.process_time if "--cpu" in sys.argv else time.perf_counter


def rami_rounds(preset: str, seconds: float, bot: str = "greedy") -> tuple[float, int]:
    profile = load_profile(preset)
    n = 0
    seed = 0
    t0 = CLOCK()
    while CLOCK() - t0 < seconds:
        game = Game.new(profile, 2, seed=seed)
        seed += 1
        bots = [make_bot(bot, seed * 2), make_bot(bot, seed * 2 + 1)]
        rules = game.rules
        turns = 0
        while game.state.phase != "over" and turns < 400:
            seat = game.state.turn
            game.apply(bots[seat].choose(game.view(seat), rules))
            if game.state.turn != seat:
                turns += 1
        n += 1
    return n / (CLOCK() - t0), n


def decisions_hash(preset: str, bots: tuple[str, str], rounds: int) -> str:
    """A hash of every action the bots choose in `rounds` seeded rounds (the
    seeds of `rami_rounds`): two trees whose bots decide alike agree on it."""
    profile = load_profile(preset)
    h = hashlib.sha256()
    for seed in range(rounds):
        game = Game.new(profile, 2, seed=seed)
        players = [make_bot(bots[0], (seed + 1) * 2), make_bot(bots[1], (seed + 1) * 2 + 1)]
        turns = 0
        while game.state.phase != "over" and turns < 400:
            seat = game.state.turn
            action = players[seat].choose(game.view(seat), game.rules)
            h.update(repr(action).encode())
            game.apply(action)
            if game.state.turn != seat:
                turns += 1
    return h.hexdigest()[:16]


# The top-level calls a greedy round spends its time in, timed by wrappers
# (attribute, label) wherever a bot module holds the name (each module that
# imported it holds its own reference); a call made inside another timed call
# is counted in the outer one only, so the shares add up to at most 100 %.
BOT_MODULES = (
    "rami_core.players.bots.base",
    "rami_core.players.bots.candidates",
    "rami_core.players.bots.planner",
    "rami_core.players.bots.planning",
    "rami_core.players.bots.greedy",
)
BREAKDOWN = [
    ("best_opening", "best_opening"),
    ("best_lay_offs", "best_lay_offs"),
    ("solve", "solver solve (rebuilds, hand melds)"),
    ("try_action", "engine: the bots' candidate actions"),
    ("meldable", "meldable"),
    ("usefulness_of_hand", "usefulness_of_hand"),
    ("state_from_view", "state_from_view"),
]


def breakdown(preset: str, seconds: float) -> None:
    """Print the wall-clock share of greedy rounds spent in each call of
    `BREAKDOWN` and in Game.apply and Game.new (no profiler: its cost per call
    would weigh on the small functions)."""
    import importlib
    from collections import defaultdict

    spent: defaultdict[str, float] = defaultdict(float)
    inside = [0]

    def timed(f, label):
        def g(*a, **k):
            if inside[0]:
                return f(*a, **k)
            inside[0] += 1
            t = time.perf_counter()
            try:
                return f(*a, **k)
            finally:
                spent[label] += time.perf_counter() - t
                inside[0] -= 1

        return g

    for name, label in BREAKDOWN:
        for module in BOT_MODULES:
            mod = importlib.import_module(module)
            if hasattr(mod, name):
                setattr(mod, name, timed(getattr(mod, name), label))
    Game.view = timed(Game.view, "Game.view")  # type: ignore[method-assign]
    Game.apply = timed(Game.apply, "Game.apply")  # type: ignore[method-assign]
    new = Game.new.__func__  # type: ignore[attr-defined]
    Game.new = classmethod(timed(new, "Game.new"))  # type: ignore[method-assign, assignment]
    t0 = time.perf_counter()
    rate, n = rami_rounds(preset, seconds)
    total = time.perf_counter() - t0
    print(f"{preset}: {n} rounds, {rate:.1f} rounds/s under the wrappers")
    for label, t in sorted(spent.items(), key=lambda kv: -kv[1]):
        print(f"  {label:40s} {100 * t / total:5.1f} %")


def _child(path: str, args: list[str]) -> dict:
    """This script's answer (the last line, JSON) from a child process that
    imports the rami tree at `path` (its ``rami_core`` and ``variants``)
    ahead of the installed one."""
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([path, os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    )
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), *args],
        env=env,
        cwd=path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    got = json.loads(out.strip().splitlines()[-1])
    if not str(got["rami_core"]).startswith(str(Path(path).resolve())):
        raise SystemExit(f"--rami-path {path}: the child imported {got['rami_core']} instead")
    return got


def rami_rounds_in(path: str, preset: str, seconds: float) -> tuple[float, int]:
    """`rami_rounds` run by a child process importing the rami tree at `path`."""
    got = _child(
        path,
        ["--child", preset, "--seconds", str(seconds), *(["--cpu"] if CLOCK is time.process_time else [])],
    )
    return got["rate"], got["n"]


def rlcard_games(seconds: float) -> tuple[float, int] | None:
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("gin-rummy", config={"seed": 0})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    n = 0
    t0 = CLOCK()
    while CLOCK() - t0 < seconds:
        env.run(is_training=False)
        n += 1
    return n / (CLOCK() - t0), n


def open_spiel_games(seconds: float) -> tuple[float, int] | None:
    try:
        import numpy as np
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    bots = [pyspiel.make_simple_gin_rummy_bot(game.get_parameters(), p) for p in range(2)]
    rng = np.random.default_rng(0)
    n = 0
    t0 = CLOCK()
    while CLOCK() - t0 < seconds:
        state = game.new_initial_state()
        for b in bots:
            b.restart()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                actions, probs = zip(*outcomes)
                state.apply_action(int(rng.choice(actions, p=probs)))
            else:
                p = state.current_player()
                state.apply_action(bots[p].step(state))
        n += 1
    return n / (CLOCK() - t0), n


def check_decisions(presets: list[str], paths: list[str], rounds: int) -> int:
    """Print, per preset and pairing, whether every other tree's bots chose
    the same actions as this tree's; 1 if any differ."""
    if not paths:
        raise SystemExit("--decisions needs --rami-path DIR (the tree to compare with)")
    table = Table(title=f"Same decisions as this tree, {rounds} seeded rounds per line")
    for col in ("preset", "bots", "this tree", *paths):
        table.add_column(col)
    differ = False
    for preset in presets:
        for bots in (("greedy", "greedy"), ("expert", "greedy")):
            n = rounds if bots[0] == "greedy" or preset != "voleur" else max(1, rounds // 8)
            mine = decisions_hash(preset, bots, n)
            others = [_child(p, ["--child-decisions", preset, *bots, str(n)])["hash"] for p in paths]
            differ |= any(o != mine for o in others)
            marks = ["same" if o == mine else f"DIFFERENT ({o})" for o in others]
            table.add_row(preset, f"{bots[0]} vs {bots[1]} ({n} rounds)", mine, *marks)
    Console().print(table)
    return 1 if differ else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    ap.add_argument("--presets", default=",".join(PRESETS))
    ap.add_argument("--profile", metavar="PRESET", help="cProfile greedy rounds of this preset instead")
    ap.add_argument(
        "--breakdown",
        metavar="PRESET",
        help="instead: the wall-clock share of this preset's greedy rounds spent in the main calls",
    )
    ap.add_argument(
        "--rami-path",
        action="append",
        default=[],
        metavar="DIR",
        help="also measure the rami tree in DIR (holding rami_core/ and variants/), in a child process",
    )
    ap.add_argument(
        "--decisions",
        type=int,
        metavar="N",
        help="with --rami-path: instead of timing, check that both trees' bots choose the same actions"
        " in N seeded rounds per preset (greedy vs greedy, expert vs greedy)",
    )
    ap.add_argument(
        "--cpu", action="store_true", help="CPU seconds of each process instead of the wall clock"
    )
    ap.add_argument("--child", metavar="PRESET", help=argparse.SUPPRESS)
    ap.add_argument(
        "--child-decisions", nargs=4, metavar=("PRESET", "BOT", "BOT", "N"), help=argparse.SUPPRESS
    )
    args = ap.parse_args(argv)
    if args.child or args.child_decisions:
        import rami_core

        where = str(Path(rami_core.__file__).resolve())
        if args.child_decisions:
            preset, a, b, n = args.child_decisions
            print(json.dumps({"hash": decisions_hash(preset, (a, b), int(n)), "rami_core": where}))
        else:
            rate, n = rami_rounds(args.child, args.seconds)
            print(json.dumps({"rate": rate, "n": n, "rami_core": where}))
        return 0
    if args.decisions:
        return check_decisions(args.presets.split(","), args.rami_path, args.decisions)
    if args.breakdown:
        breakdown(args.breakdown, args.seconds)
        return 0
    if args.profile:
        prof = cProfile.Profile()
        prof.enable()
        rate, n = rami_rounds(args.profile, args.seconds)
        prof.disable()
        print(f"{args.profile}: {n} rounds, {rate:.1f} rounds/s under the profiler")
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
        pstats.Stats(prof).sort_stats("cumulative").print_stats(30)
        return 0
    rows = []
    spiel = open_spiel_games(args.seconds)
    rl = rlcard_games(args.seconds)
    for preset in args.presets.split(","):
        rate, n = rami_rounds(preset, args.seconds)
        rows.append((f"rami {preset}, greedy vs greedy", "round", rate, n))
        for path in args.rami_path:
            rate, n = rami_rounds_in(path, preset, args.seconds)
            rows.append((f"rami {preset}, greedy vs greedy ({path})", "round", rate, n))
    if spiel:
        rows.append(("OpenSpiel gin_rummy, simple bot vs simple bot", "game (deal)", spiel[0], spiel[1]))
    if rl:
        rows.append(("RLCard gin-rummy, random vs random", "game (deal)", rl[0], rl[1]))
    ref = spiel[0] if spiel else None
    clock = "CPU" if args.cpu else "wall-clock"
    table = Table(title=f"Engine speed, one process, {args.seconds:g} {clock} s per line")
    for col in ("engine and players", "unit", "per second", "measured", "ratio to OpenSpiel gin"):
        table.add_column(col, justify="left" if col in ("engine and players", "unit") else "right")
    for name, unit, rate, n in rows:
        table.add_row(name, unit, f"{rate:.1f}", str(n), f"{rate / ref:.2f}" if ref else "-")
    Console().print(table)
    if spiel is None or rl is None:
        print(
            "missing peers (pip install 'rami[bench]'):",
            ", ".join(x for x, v in (("open_spiel", spiel), ("rlcard", rl)) if v is None),
            file=sys.stderr,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
