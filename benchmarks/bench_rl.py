"""Random-policy environment steps per second: rami's AEC environments beside
PettingZoo's gin_rummy_v4, measured in the same run (run by hand).

    pip install -e '.[rl]' 'pettingzoo[classic]'
    python benchmarks/bench_rl.py [--steps 2000]

A step is one `env.step` of a uniformly random legal action (rami: one
sub-step, the mask asked of the engine; gin rummy: one RLCard action); the
observation and its mask are read before every step, as a learner would.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np


def run(env, steps: int, seed: int) -> tuple[float, int]:
    rng = random.Random(seed)
    env.reset(seed=seed)
    done = 0
    episodes = 0
    start = time.perf_counter()
    while done < steps:
        agent = env.agent_selection
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            if not env.agents:
                episodes += 1
                env.reset(seed=seed + episodes)
            continue
        mask = obs["action_mask"]
        env.step(int(rng.choice(list(np.flatnonzero(mask)))))
        done += 1
        del agent
    return done / (time.perf_counter() - start), episodes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    from rami_core import rl

    print(f"{'environment':32} {'steps/s':>10} {'episodes':>9}", flush=True)
    rows = []

    def show(label: str, rate: float, eps: int) -> None:
        rows.append((label, rate))
        print(f"{label:32} {rate:10.1f} {eps:9d}", flush=True)

    try:
        from pettingzoo.classic import gin_rummy_v4

        show("pettingzoo gin_rummy_v4", *run(gin_rummy_v4.env(), args.steps, args.seed))
    except ImportError as e:
        print(f"gin_rummy_v4 not available ({e}): pettingzoo<1.25 with [classic] has it")
    for name in ("rami51", "voleur"):
        show(f"rami {name} (2 seats)", *run(rl.env(name, players=2, seed=args.seed), args.steps, args.seed))
    if rows and rows[0][0].startswith("pettingzoo"):
        gin = rows[0][1]
        for label, rate in rows[1:]:
            print(f"{label}: {rate / gin:.4f} x gin_rummy_v4's rate")


if __name__ == "__main__":
    main()
