"""Fixed seeded work to count instructions of (run by hand, under callgrind).

Timings on a shared machine drift by a third within minutes; instruction
counts do not. Each workload plays the same seeded game or environment
steps every time, so two trees (or two commits) compare on the same work:

    valgrind --tool=callgrind --callgrind-out-file=/tmp/now.out \\
        python benchmarks/instructions.py rl_classic
    PYTHONPATH=/tmp/before valgrind --tool=callgrind --callgrind-out-file=/tmp/before.out \\
        python benchmarks/instructions.py rl_classic
    grep ^summary /tmp/now.out /tmp/before.out

Subtract the count of the `start` workload (the imports and one game's
set-up) of each tree from its others: what is left is the work itself.
"""

from __future__ import annotations

import argparse
import random

import numpy as np

from rami_core.players.bots import make_bot
from rami_core.profile.loader import load_profile
from rami_core.referee.engine import Game


def greedy(preset: str, rounds: int) -> None:
    """Greedy-versus-greedy rounds from seeds 0, 1, ... as bench_engine plays them."""
    profile = load_profile(preset)
    for seed in range(rounds):
        game = Game.new(profile, 2, seed=seed)
        bots = [make_bot("greedy", seed * 2), make_bot("greedy", seed * 2 + 1)]
        turns = 0
        while game.state.phase != "over" and turns < 400:
            seat = game.state.turn
            game.apply(bots[seat].choose(game.view(seat), game.rules))
            if game.state.turn != seat:
                turns += 1


def steps(preset: str, n: int, actions: str = "full") -> None:
    """Random masked sub-steps of a learning environment, seed 1, the observation read each step."""
    from rami_core import rl

    env = rl.env(preset, players=2, seed=1, actions=actions, illegal="raise")
    rng = random.Random(1)
    env.reset(seed=1)
    done = episodes = 0
    while done < n:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            if not env.agents:
                episodes += 1
                env.reset(seed=1 + episodes)
            continue
        env.step(int(rng.choice(list(np.flatnonzero(obs["action_mask"])))))
        done += 1


def start() -> None:
    from rami_core import rl

    load_profile("voleur")
    rl.env("classic", players=2, seed=1)


WORKLOADS = {
    "start": start,
    "greedy_rami51": lambda: greedy("rami51", 12),
    "greedy_voleur": lambda: greedy("voleur", 3),
    "rl_classic": lambda: steps("classic", 2000),
    "rl_rami51": lambda: steps("rami51", 1000),
    "rl_voleur": lambda: steps("voleur", 150),
    "rl_voleur_compact": lambda: steps("voleur", 150, "compact"),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("workload", choices=sorted(WORKLOADS))
    WORKLOADS[ap.parse_args().workload]()


if __name__ == "__main__":
    main()
