"""Play seeded bot games of every preset and print their move logs as JSON.

Run as ``python -m tests.support.seeded_games GAMES ROUNDS [PRESET...]`` by
``tests/test_seed_everywhere.py``, once as is and once with
``RAMI_SOLVER_PURE=1``: a separate process, because which search runs is
decided once per process (:func:`rami_core.solver.sweep.compiled_sweep`).
Voleur is played by the expert bot, whose lay offs and rearrangements call
the solver on every turn; the other presets by the greedy and the expert bot.
"""

from __future__ import annotations

import json
import sys

from rami_core.files.resources import preset_names
from rami_core.game.state import OVER
from rami_core.players.bots import make_bot
from rami_core.profile.loader import load_profile
from rami_core.referee.caps import STEP_CAP
from rami_core.referee.engine import Game


def game_log(preset: str, seed: int, rounds: int) -> list[str]:
    """The log of a two-seat game dealt from ``seed``, ``rounds`` rounds at most."""
    profile = load_profile(preset)
    names = ["expert", "expert"] if preset == "voleur" else ["greedy", "expert"]
    game = Game.new(profile, 2, seed=seed)
    bots = [make_bot(n, seed * 8 + i) for i, n in enumerate(names)]
    for r in range(rounds):
        steps = 0
        while game.state.phase != OVER and steps < 20 * STEP_CAP:
            seat = game.state.turn
            game.apply(bots[seat].choose(game.view(seat), game.rules))
            steps += 1
        if game.state.phase != OVER or game.state.game_over or r == rounds - 1:
            break
        game.next_round()
    return [repr(a) for a in game.log]


def main(argv: list[str]) -> None:
    games, rounds = int(argv[0]), int(argv[1])
    presets = argv[2:] or preset_names()  # every preset unless some are named
    logs = {f"{p}/{seed}": game_log(p, seed, rounds) for p in presets for seed in range(games)}
    json.dump(logs, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1:])
