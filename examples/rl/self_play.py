"""Self-play: MaskablePPO on Rami 51 against a pool of its own past checkpoints.

    pip install -e '.[rl-train]'            # sb3-contrib and torch (CPU is enough)
    python examples/rl/self_play.py --timesteps 20000 --pool-every 4096 --eval 40   # a few minutes
    python examples/rl/self_play.py --timesteps 300000 --pool-every 20000 --eval 200 # a longer run
    python examples/rl/self_play.py --minutes 30 --eval 200                          # by wall clock

The agent plays seat 0 of a two-seat Rami 51 round in `rl.single_agent_env`
(compact actions, scaled observation vector, `action_masks()`), as
train_maskable_ppo.py does. Every `--pool-every` sub-steps the model is
saved (a `.zip` in `--out`) and that checkpoint joins the pool of opponents;
each episode's opponent is drawn uniformly from the pool plus rami's
`random` bot (the pool holds only the bot until the first checkpoint). A
checkpoint plays as `opponents="path.zip"` does (rami_core.rl.SavedPolicy:
loaded once, its most likely masked sub-step from its own seat's
observation), frozen.

The training reward is train_maskable_ppo.py's: +1 for going out, else the
round's normalised reward, plus `--shaping` per card laid. The curve is
printed every `--report` sub-steps (rounds finished, share won, pool size).
At the end the policy (its most likely legal sub-step) plays `--eval`
rounds against each of rami's `greedy` and `expert` bots on seeds never
trained on (10,000,000 + i); a round counts as won only when the agent goes
out, a round cut at `--max-turns` as lost; the 95% interval is Wilson's
(scipy's binomtest).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np

from rami_core import rl
from rami_core.rl.compact import COMMIT_MELD

VARIANT = "rami51"
EVAL_SEEDS = 10_000_000  # evaluation seeds: EVAL_SEEDS + i, never used in training
SETTINGS: dict[str, Any] = {
    "players": 2,
    "actions": "compact",
    "scaled": True,
    "mask_in_observation": False,
    "normalize": True,
}


class Pool:
    """The frozen opponents: the checkpoints saved so far, each loaded once
    and shared by every environment of the run."""

    def __init__(self) -> None:
        self.paths: list[str] = []
        self.policies: list[rl.SavedPolicy] = []

    def add(self, path: str) -> None:
        self.paths.append(path)
        self.policies.append(rl.SavedPolicy(path))


class WinReward(gym.Wrapper):
    """+1 for the round won by going out, else the round's normalised reward;
    plus `shaping` per card the agent lays (training only)."""

    def __init__(self, env: gym.Env, shaping: float = 0.0):
        super().__init__(env)
        self.shaping = shaping
        compact = self.rami.aec.compact
        self.lays = {COMMIT_MELD, *range(compact.lay_off, compact.swap)}

    @property
    def rami(self) -> Any:
        return self.env.unwrapped

    def step(self, action):
        hand = self.rami.aec.game.state.hands[0]
        before = len(hand)
        obs, paid, term, trunc, info = self.env.step(action)
        reward = float(paid)
        if self.shaping and int(action) in self.lays:
            reward += self.shaping * max(0, before - len(self.rami.aec.game.state.hands[0]))
        if (term or trunc) and info.get("winner") == 0:
            reward = 1.0
        return obs, reward, term, trunc, info

    def action_masks(self) -> np.ndarray:
        return self.rami.action_masks()


class PoolEnv(gym.Env):
    """Seat 0 against an opponent drawn at each reset from the pool plus the
    random bot. Two rami environments inside (a bot plays whole engine
    actions, a checkpoint plays sub-steps): the episode runs in the one drawn."""

    def __init__(self, pool: Pool, seed: int, max_turns: int, shaping: float):
        self.pool = pool
        self.rng = np.random.default_rng(seed)
        self.current: rl.SavedPolicy | None = None

        def frozen(observation: np.ndarray, mask: np.ndarray) -> int:
            assert self.current is not None
            return self.current(observation, mask)

        def make(opponents: Any, s: int) -> WinReward:
            env = rl.single_agent_env(VARIANT, seed=s, opponents=opponents, max_turns=max_turns, **SETTINGS)
            return WinReward(env, shaping)

        self.vs_bot = make("random", seed)
        self.vs_pool = make(frozen, seed + 500_000)
        self.active = self.vs_bot
        self.observation_space = self.vs_bot.observation_space
        self.action_space = self.vs_bot.action_space
        self.opponent = "random"

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        pick = int(self.rng.integers(len(self.pool.policies) + 1))
        if pick == 0:
            self.active, self.current, self.opponent = self.vs_bot, None, "random"
        else:
            self.current = self.pool.policies[pick - 1]
            self.active, self.opponent = self.vs_pool, os.path.basename(self.pool.paths[pick - 1])
        obs, info = self.active.reset(seed=seed)
        return obs, {**info, "opponent": self.opponent}

    def step(self, action):
        obs, reward, term, trunc, info = self.active.step(action)
        return obs, reward, term, trunc, {**info, "opponent": self.opponent}

    def action_masks(self) -> np.ndarray:
        return self.active.action_masks()


def evaluate(model: Any, bot: str, rounds: int, max_turns: int) -> tuple[int, int]:
    """(rounds won by going out, rounds cut) against `bot` over the evaluation seeds."""
    env = WinReward(
        rl.single_agent_env(VARIANT, seed=EVAL_SEEDS, opponents=bot, max_turns=max_turns, **SETTINGS)
    )
    wins = cut = 0
    for i in range(rounds):
        obs, info = env.reset(seed=EVAL_SEEDS + i)
        while True:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, _, term, trunc, info = env.step(int(action))
            if term or trunc:
                break
        wins += info.get("winner") == 0
        cut += info.get("round_end") == "truncated"
    return wins, cut


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--timesteps", type=int, default=20_000, help="sub-steps to train (reproducible)")
    ap.add_argument("--minutes", type=float, default=None, help="instead: a wall-clock budget")
    ap.add_argument("--seed", type=int, default=0, help="the training seeds (deals, draws, network)")
    ap.add_argument("--pool-every", type=int, default=4096, help="sub-steps between two checkpoints")
    ap.add_argument("--eval", type=int, default=100, help="evaluation rounds against each bot")
    ap.add_argument("--against", default="greedy,expert", help="the bots of the evaluation")
    ap.add_argument("--envs", type=int, default=4, help="environments stepped together (one process)")
    ap.add_argument("--max-turns", type=int, default=200, help="a round longer than this is cut (lost)")
    ap.add_argument("--report", type=int, default=4096, help="sub-steps between two lines of the curve")
    ap.add_argument("--shaping", type=float, default=0.05, help="training reward per card laid (0: none)")
    ap.add_argument(
        "--out", default=None, help="where the checkpoints go (default: a new temporary directory)"
    )
    ap.add_argument("--threads", type=int, default=1, help="torch threads (the machine may be shared)")
    args = ap.parse_args()

    import torch
    from sb3_contrib import MaskablePPO
    from scipy.stats import binomtest
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(args.threads)
    out = args.out or tempfile.mkdtemp(prefix="rami_self_play_")
    os.makedirs(out, exist_ok=True)
    budget = float("inf") if args.minutes is None else args.minutes * 60.0
    total = 10**9 if args.minutes is not None else args.timesteps
    pool = Pool()

    class Checkpoints(BaseCallback):
        """Saves the model into the pool every --pool-every sub-steps; prints
        the curve; stops at the time budget."""

        def __init__(self) -> None:
            super().__init__()
            self.start = time.perf_counter()
            self.rounds = self.won = 0
            self.next_report = args.report
            self.next_save = args.pool_every

        def _on_step(self) -> bool:
            for done, info in zip(self.locals["dones"], self.locals["infos"], strict=True):
                if done:
                    self.rounds += 1
                    self.won += info.get("winner") == 0
            if self.num_timesteps >= self.next_save:
                self.next_save += args.pool_every
                path = os.path.join(out, f"step_{self.num_timesteps}.zip")
                self.model.save(path)
                pool.add(path)
            if self.num_timesteps >= self.next_report:
                self.next_report += args.report
                share = self.won / self.rounds if self.rounds else 0.0
                print(
                    f"{time.perf_counter() - self.start:7.0f} s  {self.num_timesteps:8d} sub-steps  "
                    f"{self.rounds:4d} rounds  won {share:6.1%}  pool {len(pool.paths)} + random",
                    flush=True,
                )
                self.rounds = self.won = 0
            return time.perf_counter() - self.start < budget

    def maker(i: int) -> Callable[[], gym.Env]:
        return lambda: PoolEnv(pool, args.seed * 1000 + i, args.max_turns, args.shaping)

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
        device="cpu",
        verbose=0,
    )
    budget_text = f"{args.minutes:g} minutes" if args.minutes is not None else f"{args.timesteps} sub-steps"
    print(
        f"{VARIANT} self-play: {budget_text}, a checkpoint every {args.pool_every} sub-steps into {out}, "
        f"{args.envs} environments, seed {args.seed}",
        flush=True,
    )
    clock = Checkpoints()
    cpu = time.process_time()
    model.learn(total_timesteps=total, callback=clock)
    model.save(os.path.join(out, "final.zip"))
    print(
        f"trained {time.perf_counter() - clock.start:.0f} s ({time.process_time() - cpu:.0f} s CPU), "
        f"{model.num_timesteps} sub-steps, {len(pool.paths)} checkpoints in the pool",
        flush=True,
    )
    for bot in [b.strip() for b in args.against.split(",") if b.strip()]:
        wins, cut = evaluate(model, bot, args.eval, args.max_turns)
        ci = binomtest(wins, args.eval).proportion_ci(method="wilson")
        print(
            f"against {bot} on seeds {EVAL_SEEDS}..{EVAL_SEEDS + args.eval - 1}: {wins}/{args.eval} rounds won "
            f"({wins / args.eval:.1%}), 95% Wilson interval [{ci.low:.1%}, {ci.high:.1%}]; "
            f"{cut} cut at {args.max_turns} turns",
            flush=True,
        )
    print(f"total CPU {time.process_time():.0f} s", flush=True)


if __name__ == "__main__":
    main()
