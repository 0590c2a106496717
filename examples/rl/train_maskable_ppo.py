"""Train sb3-contrib's MaskablePPO on a rami preset against the random bot, in minutes.

    pip install -e '.[rl-train]'            # sb3-contrib and torch (CPU is enough)
    python examples/rl/train_maskable_ppo.py --variant classic --minutes 10
    python examples/rl/train_maskable_ppo.py --variant rami51 --minutes 10
    python examples/rl/train_maskable_ppo.py --variant classic --timesteps 200000   # by steps: reproducible at any load

No adapter beyond what rami ships: `rl.single_agent_env` is a Gymnasium
environment with `action_masks()`, the compact action space (one discard per
card, melds from a ranked list: docs/rl.md) and the scaled observation
vector. The agent plays seat 0 of a two-seat round against rami's `random`
bot (which lays, at random, the melds its planner finds).

The training reward is the round's result: +1 for going out, minus the
penalty paid (normalised by the game's target) otherwise, plus `--shaping`
(0.05) per card the agent lays, so that the first melds pay before the
round's end does. The learning curve
is printed as it trains (every `--report` sub-steps: the rounds finished in
that stretch and the share the agent won). Then the policy (its most likely
legal sub-step) plays `--eval` rounds on seeds never trained on (10,000,000
+ i, the same set every run), and a round counts as won only when the agent
goes out; rounds cut at `--max-turns` count as lost. The 95% interval is
Wilson's.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np

from rami_core import rl
from rami_core.rl.compact import COMMIT_MELD

EVAL_SEEDS = 10_000_000  # evaluation seeds: EVAL_SEEDS + i, never used in training


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = p + z * z / (2 * n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (c - h) / d, (c + h) / d


class WinReward(gym.Wrapper):
    """+1 for the round won by going out, else the environment's (normalised)
    round reward, minus the penalty paid; plus `shaping` per card the agent
    lays (a lay or a lay off: training only, the evaluation counts wins); the
    mask passed through."""

    def __init__(self, env: gym.Env, shaping: float = 0.0):
        super().__init__(env)
        self.seat = self.rami.seat
        self.shaping = shaping
        compact = self.rami.aec.compact
        self.lays = {COMMIT_MELD, *range(compact.lay_off, compact.swap)}

    @property
    def rami(self) -> Any:
        """The rami environment inside (rl.single_agent_env)."""
        return self.env.unwrapped

    def step(self, action):
        hand = self.rami.aec.game.state.hands[self.seat]
        before = len(hand)
        obs, paid, term, trunc, info = self.env.step(action)
        reward = float(paid)
        if self.shaping and int(action) in self.lays:
            reward += self.shaping * max(0, before - len(self.rami.aec.game.state.hands[self.seat]))
        if (term or trunc) and info.get("winner") == self.seat:
            reward = 1.0
        return obs, reward, term, trunc, info

    def action_masks(self) -> np.ndarray:
        return self.rami.action_masks()


def make_env(variant: str, seed: int, max_turns: int, shaping: float = 0.0) -> WinReward:
    return WinReward(
        rl.single_agent_env(
            variant,
            players=2,
            seed=seed,
            opponents="random",
            actions="compact",
            scaled=True,
            mask_in_observation=False,
            normalize=True,
            max_turns=max_turns,
        ),
        shaping,
    )


def evaluate(policy: Any, variant: str, rounds: int, max_turns: int) -> tuple[int, int]:
    """(rounds won by going out, rounds cut) over the fixed evaluation seeds;
    policy=None: a uniformly random masked policy (the control)."""
    env = make_env(variant, EVAL_SEEDS, max_turns)
    rng = np.random.default_rng(0)
    wins = cut = 0
    for i in range(rounds):
        obs, info = env.reset(seed=EVAL_SEEDS + i)
        while True:
            mask = env.action_masks()
            if policy is None:
                action = int(rng.choice(np.flatnonzero(mask)))
            else:
                action, _ = policy.predict(obs, action_masks=mask, deterministic=True)
            obs, _, term, trunc, info = env.step(int(action))
            if term or trunc:
                break
        wins += info.get("winner") == 0
        cut += info.get("round_end") == "truncated"
    return wins, cut


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="classic", help="a preset or house file (classic, rami51, ...)")
    ap.add_argument("--minutes", type=float, default=10.0, help="training time budget (wall clock)")
    ap.add_argument(
        "--timesteps",
        type=int,
        default=None,
        help="train for this many sub-steps instead of --minutes: the same curve on any machine, at any load",
    )
    ap.add_argument("--envs", type=int, default=8, help="environments stepped together (one process)")
    ap.add_argument("--eval", type=int, default=200, help="evaluation rounds on unseen seeds")
    ap.add_argument("--control", action="store_true", help="also evaluate a random masked policy")
    ap.add_argument("--max-turns", type=int, default=200, help="a round longer than this is cut (lost)")
    ap.add_argument("--report", type=int, default=4096, help="sub-steps between two lines of the curve")
    ap.add_argument("--seed", type=int, default=0, help="the training seeds (deals, network)")
    ap.add_argument("--shaping", type=float, default=0.05, help="training reward per card laid (0: none)")
    ap.add_argument("--threads", type=int, default=1, help="torch threads (the machine may be shared)")
    args = ap.parse_args()

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(args.threads)
    budget = args.minutes * 60.0 if args.timesteps is None else float("inf")

    class Clock(BaseCallback):
        """Stops at the time budget; prints the learning curve as it goes."""

        def __init__(self) -> None:
            super().__init__()
            self.start = time.perf_counter()
            self.rounds = self.won = 0
            self.next_report = args.report

        def _on_step(self) -> bool:
            for done, info in zip(self.locals["dones"], self.locals["infos"]):
                if done:
                    self.rounds += 1
                    self.won += info.get("winner") == 0
            if self.num_timesteps >= self.next_report:
                self.next_report += args.report
                share = self.won / self.rounds if self.rounds else 0.0
                print(
                    f"{time.perf_counter() - self.start:7.0f} s  {self.num_timesteps:8d} sub-steps  "
                    f"{self.rounds:4d} rounds  won {share:6.1%}",
                    flush=True,
                )
                self.rounds = self.won = 0
            return time.perf_counter() - self.start < budget

    def maker(i: int) -> Callable[[], gym.Env]:
        return lambda: make_env(args.variant, args.seed * 1000 + i, args.max_turns, args.shaping)

    venv = DummyVecEnv([maker(i) for i in range(args.envs)])
    model = MaskablePPO(
        "MlpPolicy",
        venv,
        n_steps=256,
        batch_size=512,
        n_epochs=4,
        gamma=0.995,
        learning_rate=3e-4,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]},
        seed=args.seed,
        verbose=0,
    )
    print(
        f"{args.variant}: {gym.spaces.flatdim(venv.observation_space)} observation values, "
        f"{gym.spaces.flatdim(venv.action_space)} actions, {args.envs} environments, "
        + (f"{args.minutes:g} minutes" if args.timesteps is None else f"{args.timesteps} sub-steps"),
        flush=True,
    )
    clock = Clock()
    model.learn(total_timesteps=10**9 if args.timesteps is None else args.timesteps, callback=clock)
    trained = time.perf_counter() - clock.start
    print(f"trained {trained:.0f} s, {model.num_timesteps} sub-steps", flush=True)
    wins, cut = evaluate(model, args.variant, args.eval, args.max_turns)
    lo, hi = wilson(wins, args.eval)
    print(
        f"evaluation on seeds {EVAL_SEEDS}..{EVAL_SEEDS + args.eval - 1}: {wins}/{args.eval} rounds won "
        f"({wins / args.eval:.1%}), 95% Wilson interval [{lo:.1%}, {hi:.1%}]; {cut} cut at {args.max_turns} turns",
        flush=True,
    )
    if args.control:
        wins, cut = evaluate(None, args.variant, args.eval, args.max_turns)
        lo, hi = wilson(wins, args.eval)
        print(
            f"random masked policy on the same seeds: {wins}/{args.eval} ({wins / args.eval:.1%}), "
            f"95% Wilson [{lo:.1%}, {hi:.1%}]; {cut} cut",
            flush=True,
        )


if __name__ == "__main__":
    main()
