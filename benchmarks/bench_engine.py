"""Engine speed (by hand): greedy-versus-greedy rounds per second for every
preset, beside two gin rummy engines measured in the same run:

* RLCard's ``gin-rummy`` environment with its random agents (one game = one deal);
* OpenSpiel's ``gin_rummy`` played by its simple bot (``pyspiel.make_simple_gin_rummy_bot``)
  in both seats (one game = one deal).

    pip install 'rami[bench]'         # rlcard, open_spiel
    python benchmarks/bench_engine.py --seconds 10
    python benchmarks/bench_engine.py --profile rami51   # cProfile of the turn loop

    # before and after in one run: a second rami tree (e.g. main's) measured
    # beside this one, each line in a child process importing that tree
    git archive main rami_core variants | tar -x -C /tmp/before
    python benchmarks/bench_engine.py --rami-path /tmp/before --presets voleur,rami51

Rami rounds are played through the public API (Game.new, view, bot.choose,
apply) exactly as ``rami simulate`` plays them; a round stops at 400 turns.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import subprocess
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from rami_core.bots import make_bot
from rami_core.engine import Game
from rami_core.loader import load_profile

PRESETS = ["voleur", "rami51", "rami71", "simple", "kaluki", "classic"]


def rami_rounds(preset: str, seconds: float, bot: str = "greedy") -> tuple[float, int]:
    profile = load_profile(preset)
    n = 0
    seed = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
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
    return n / (time.perf_counter() - t0), n


def rami_rounds_in(path: str, preset: str, seconds: float) -> tuple[float, int]:
    """`rami_rounds` run by a child process importing the rami tree at `path`
    (its ``rami_core`` and ``variants``) ahead of the installed one."""
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([path, os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    )
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", preset, "--seconds", str(seconds)],
        env=env,
        cwd=path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    got = json.loads(out.strip().splitlines()[-1])
    if not str(got["rami_core"]).startswith(str(Path(path).resolve())):
        raise SystemExit(f"--rami-path {path}: the child imported {got['rami_core']} instead")
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
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        env.run(is_training=False)
        n += 1
    return n / (time.perf_counter() - t0), n


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
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
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
    return n / (time.perf_counter() - t0), n


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    ap.add_argument("--presets", default=",".join(PRESETS))
    ap.add_argument("--profile", metavar="PRESET", help="cProfile greedy rounds of this preset instead")
    ap.add_argument(
        "--rami-path",
        action="append",
        default=[],
        metavar="DIR",
        help="also measure the rami tree in DIR (holding rami_core/ and variants/), in a child process",
    )
    ap.add_argument("--child", metavar="PRESET", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        import rami_core

        rate, n = rami_rounds(args.child, args.seconds)
        print(json.dumps({"rate": rate, "n": n, "rami_core": str(Path(rami_core.__file__).resolve())}))
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
    table = Table(title=f"Engine speed, one process, {args.seconds:g} s per line")
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
