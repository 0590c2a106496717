"""Train a small agent that beats the random bot at Rami 51 (numpy only).

    pip install -e '.[rl]' -r examples/rl/requirements.txt
    python examples/rl/train_rami51.py --episodes 200 --eval 200

Why numpy and not a deep-learning library: the masks already do the hard
part (every sub-step offered is legal, and a meld is only offered when it
can be laid), so what is left to learn is a preference between kinds of
sub-steps and between cards. A linear softmax policy over a few features of
each legal sub-step, trained by REINFORCE with a running baseline on the
round reward (minus the penalty paid, normalised), learns that in minutes
on a CPU, and its weights can be read.

The agent plays seat 0 against rami's `random` bot, one round per episode;
a round still running after --max-turns turns is cut (truncated) and is
judged as if it had ended there: the referee counts both hands, the lower
wins, and the difference (/500) is the episode's last reward. The evaluation plays fresh seeds with the policy's most likely
sub-step and reports the share of rounds won with its 95% Wilson interval;
the learning curve (reward per episode, smoothed) goes to
docs/rl_learning_curve.png.
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import numpy as np

from rami_core import rl
from rami_core.rl.faces import JOKER_INDEX

KINDS = [
    "draw_stock",
    "draw_discard",
    "end_turn",
    "timeout",
    "close_group",
    "commit_meld",
    "commit_rearrange",
    "add_joker_low",
    "add",
    "discard",
    "lay_off",
    "lay_off_joker_low",
    "swap",
    "swap_pending",
]
N_FEATURES = len(KINDS) + 3


def card_value(face: int) -> float:
    if face == JOKER_INDEX:
        return 2.0
    rank = face % 13 + 1
    return (11 if rank == 1 else min(rank, 10)) / 10


def features(layout, obs, index: int) -> np.ndarray:
    step = layout.decode(index)
    x = np.zeros(N_FEATURES)
    x[KINDS.index(step.kind)] = 1.0
    if step.face >= 0:
        x[len(KINDS)] = card_value(step.face)
        hand = obs["hand"]
        f = step.face
        if f != JOKER_INDEX:  # neighbours in suit and copies of the rank: meld potential
            suit, rank = divmod(f, 13)
            near = sum(hand[suit * 13 + r] for r in (rank - 2, rank - 1, rank + 1, rank + 2) if 0 <= r < 13)
            same = sum(hand[s * 13 + rank] for s in range(4)) - 1
            x[len(KINDS) + 1] = near / 4
            x[len(KINDS) + 2] = same / 3
    return x


class Policy:
    def __init__(self, rng: np.random.Generator):
        self.w = np.zeros(N_FEATURES)
        self.rng = rng

    def act(self, layout, obs, greedy: bool = False) -> tuple[int, np.ndarray, np.ndarray]:
        legal = np.flatnonzero(obs["action_mask"])
        X = np.stack([features(layout, obs, int(i)) for i in legal])
        z = X @ self.w
        p = np.exp(z - z.max())
        p /= p.sum()
        k = int(np.argmax(p)) if greedy else int(self.rng.choice(len(legal), p=p))
        grad = X[k] - p @ X  # d log pi / d w
        return int(legal[k]), grad, p


def play_round(env, policy: Policy, seed: int, greedy: bool = False) -> tuple[float, list[np.ndarray], bool]:
    obs, _ = env.reset(seed=seed)
    grads, total = [], 0.0
    while True:
        a, g, _ = policy.act(env.aec.layout, obs, greedy)
        grads.append(g)
        obs, r, term, trunc, info = env.step(a)
        total += r
        if term:
            return total, grads, info.get("winner") == env.seat
        if trunc:
            # The round was cut: the referee counts both hands as if it had
            # ended there (the agent never sees the other hand).
            game = env.aec.game
            own, other = (game.rules.hand_value(h) for h in game.state.hands)
            return total + (other - own) / 500, grads, own < other


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def main() -> None:
    ap = argparse.ArgumentParser(description="REINFORCE on Rami 51 against the random bot")
    ap.add_argument("--episodes", type=int, default=200)
    ap.add_argument("--eval", type=int, default=200)
    ap.add_argument("--max-turns", type=int, default=120)
    ap.add_argument("--lr", type=float, default=2.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--curve", default="docs/rl_learning_curve.png")
    args = ap.parse_args()
    env = rl.single_agent_env(
        "rami51", players=2, seed=args.seed, opponents="random", normalize=True, max_turns=args.max_turns
    )
    policy = Policy(np.random.default_rng(args.seed))
    baseline, curve = 0.0, []
    t0 = time.perf_counter()
    for ep in range(args.episodes):
        ret, grads, _ = play_round(env, policy, seed=args.seed * 100_000 + ep)
        baseline += 0.05 * (ret - baseline)
        for g in grads:
            policy.w += args.lr * (ret - baseline) * g / max(1, len(grads)) ** 0.5
        curve.append(ret)
        if (ep + 1) % 20 == 0:
            print(
                f"episode {ep + 1}: mean reward (last 20) {np.mean(curve[-20:]):.3f}, {time.perf_counter() - t0:.0f}s"
            )
    wins = 0
    for i in range(args.eval):
        _, _, won = play_round(env, policy, seed=10_000_000 + i, greedy=True)
        wins += won
    lo, hi = wilson(wins, args.eval)
    print(
        f"evaluation: {wins}/{args.eval} rounds won ({wins / args.eval:.1%}), 95% Wilson interval [{lo:.1%}, {hi:.1%}]"
    )
    print("weights:", dict(zip([*KINDS, "card_value", "suit_neighbours", "rank_copies"], policy.w.round(2))))
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    k = max(1, len(curve) // 20)
    smooth = np.convolve(curve, np.ones(k) / k, mode="valid")
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot(curve, alpha=0.3, label="episode reward")
    ax.plot(range(k - 1, len(curve)), smooth, label=f"mean of {k}")
    ax.set_xlabel("episode (one round of Rami 51 against the random bot)")
    ax.set_ylabel("reward (minus penalty / 500)")
    ax.set_title(f"won {wins}/{args.eval} evaluation rounds, 95% CI [{lo:.0%}, {hi:.0%}]")
    ax.legend()
    fig.tight_layout()
    Path(args.curve).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.curve, dpi=100)
    print("learning curve:", args.curve)


if __name__ == "__main__":
    main()
