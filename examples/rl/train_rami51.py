"""Train a small agent that beats the random bot at Rami 51 (numpy only).

    pip install -e '.[rl]' -r examples/rl/requirements.txt
    python examples/rl/train_rami51.py --episodes 400 --eval 300 --lr 1.0

Why numpy and not a deep-learning library: the masks already do the hard
part (every sub-step offered is legal, and "add a card" is only offered
where a meld can still follow), so what is left to learn is a preference
between kinds of sub-steps and between cards. A linear softmax policy over a
few features of each legal sub-step, trained by REINFORCE with a running
baseline on the round reward (minus the penalty paid, normalised), learns
that in minutes on a CPU, and its weights can be read. The features are the
sub-step's kind, and for a discard the card's value and how much it helps
toward melds with the rest of the hand (rami's own measure,
`rami_core.players.bots.hand.usefulness`), for a draw from the discard pile how much
its top card would help, for a card added to a meld its value. The weights
start at zero: uniform over the legal sub-steps.

The agent plays seat 0 against rami's `random` bot (which lays the melds its
planner finds, chosen at random), one round per episode. A round still
running after --max-turns turns (default 300) is cut (truncated) and judged
as if it had ended there: the referee counts both hands, the lower wins, and
the difference (/500) is the episode's last reward. The evaluation plays
fresh seeds with the policy's most likely sub-step and reports the share of
rounds won with its 95% Wilson interval, and apart the rounds that ended by
a player going out; the learning curve (reward per episode, smoothed) goes
to docs/rl_learning_curve.png.
"""

from __future__ import annotations

import argparse
import math
import time
from pathlib import Path

import numpy as np

from rami_core import rl
from rami_core.cards import JOKER_SUIT, Card
from rami_core.players.bots.hand import usefulness
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
# Per-kind card features, so that what makes a good discard (a costly card
# with no meld around it) is learnt apart from what makes a good draw from
# the discard pile (a card that fits the hand) or a good card to meld.
CARD_FEATURES = [
    "discard_value",
    "discard_useful",
    "take_useful",
    "add_value",
]
N_FEATURES = len(KINDS) + len(CARD_FEATURES)
NAMES = [*KINDS, *CARD_FEATURES]


def card_value(face: int) -> float:
    if face == JOKER_INDEX:
        return 2.0
    rank = face % 13 + 1
    return (11 if rank == 1 else min(rank, 10)) / 10


def to_card(face: int, copy: int = 0) -> Card:
    if face == JOKER_INDEX:
        return Card(0, JOKER_SUIT, copy)
    suit, rank = divmod(face, 13)
    return Card(rank + 1, suit, copy)


def useful(hand_counts, face: int, in_hand: bool) -> float:
    """rami's own measure of how much a card helps toward melds with the rest of
    the hand (rami_core.players.bots.hand.usefulness), scaled to about 0..1."""
    if face < 0:
        return 0.0
    hand = [to_card(int(f), k) for f in np.flatnonzero(hand_counts) for k in range(int(hand_counts[f]))]
    card = to_card(face, 9)
    if in_hand:  # the card itself is in the hand: judge it against the others
        hand.remove(next(c for c in hand if c.face == card.face))
    return min(usefulness(card, hand), 10) / 10


def unpack(env, obs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The structured fields of an observation (rl.observation_layout), with its mask."""
    return {**env.aec.observation_layout.unpack(obs["observation"]), "action_mask": obs["action_mask"]}


def features(layout, obs, index: int) -> np.ndarray:
    """`obs`: the structured fields (unpack)."""
    step = layout.decode(index)
    x = np.zeros(N_FEATURES)
    x[KINDS.index(step.kind)] = 1.0
    base = len(KINDS)
    hand = obs["hand"]
    if step.kind == "discard":
        x[base : base + 2] = (card_value(step.face), useful(hand, step.face, in_hand=True))
    elif step.kind == "draw_discard":
        x[base + 2] = useful(hand, int(obs["discard_top"][0]), in_hand=False)
    elif step.kind == "add":
        x[base + 3] = card_value(step.face)
    return x


class Policy:
    def __init__(self, rng: np.random.Generator):
        self.w = np.zeros(N_FEATURES)  # zero weights: uniform over the legal sub-steps
        self.rng = rng

    def act(self, layout, obs, greedy: bool = False) -> tuple[int, np.ndarray, np.ndarray]:
        legal = np.flatnonzero(obs["action_mask"])
        X = np.stack([features(layout, obs, int(i)) for i in legal])
        # each kind of sub-step starts with an equal share, however many cards
        # it may name (a turn offers a dozen discards and a few adds): else
        # the first melds are almost never tried, and never learnt
        kind = X[:, : len(KINDS)].argmax(axis=1)
        share = np.bincount(kind, minlength=len(KINDS))[kind]
        z = X @ self.w - np.log(share)
        p = np.exp(z - z.max())
        p /= p.sum()
        k = int(np.argmax(p)) if greedy else int(self.rng.choice(len(legal), p=p))
        grad = X[k] - p @ X  # d log pi / d w
        return int(legal[k]), grad, p


LAYS = {"commit_meld", "commit_rearrange", "lay_off", "lay_off_joker_low"}


def play_round(
    env, policy: Policy, seed: int, greedy: bool = False, shaping: float = 0.0
) -> tuple[float, list[np.ndarray], bool, bool]:
    """(return, gradients, won, cut): ``cut`` when the round reached --max-turns.
    ``shaping`` adds that much to the return for every card laid (training
    only: it makes the first melds worth finding sooner than the round's end
    would say; the evaluation plays without it)."""
    raw, _ = env.reset(seed=seed)
    obs = unpack(env, raw)
    grads, total = [], 0.0
    while True:
        a, g, _ = policy.act(env.aec.layout, obs, greedy)
        grads.append(g)
        before = int(obs["hand"].sum())
        laid = env.aec.layout.decode(a).kind in LAYS
        raw, r, term, trunc, info = env.step(a)
        obs = unpack(env, raw)
        total += r
        if shaping and laid:
            total += shaping * max(0, before - int(obs["hand"].sum()))
        if term:
            return total, grads, info.get("winner") == env.seat, False
        if trunc:
            # The round was cut: the referee counts both hands as if it had
            # ended there (the agent never sees the other hand).
            game = env.aec.game
            own, other = (game.rules.hand_value(h) for h in game.state.hands)
            return total + (other - own) / 500, grads, own < other, True


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def train(env, args, run: int) -> tuple[Policy, list[float]]:
    """One training run from zero weights; its own seeds."""
    seed = args.seed * 10 + run
    policy = Policy(np.random.default_rng(seed))
    baseline, curve = 0.0, []
    t0 = time.perf_counter()
    for ep in range(args.episodes):
        ret, grads, _, _ = play_round(env, policy, seed=seed * 100_000 + ep, shaping=args.shaping)
        baseline += 0.05 * (ret - baseline)
        for g in grads:
            policy.w += args.lr * (ret - baseline) * g / max(1, len(grads)) ** 0.5
        curve.append(ret)
        if (ep + 1) % 50 == 0:
            print(
                f"run {run + 1}, episode {ep + 1}: mean reward (last 50) {np.mean(curve[-50:]):.3f}, "
                f"{time.perf_counter() - t0:.0f}s"
            )
    return policy, curve


def main() -> None:
    ap = argparse.ArgumentParser(description="REINFORCE on Rami 51 against the random bot")
    ap.add_argument("--episodes", type=int, default=400, help="training rounds per run")
    ap.add_argument(
        "--runs",
        type=int,
        default=3,
        help="training runs from zero weights, the best on --check rounds kept (a run may never find its first meld)",
    )
    ap.add_argument(
        "--check", type=int, default=40, help="rounds that choose among the runs (their own seeds)"
    )
    ap.add_argument("--eval", type=int, default=300)
    ap.add_argument("--max-turns", type=int, default=300)
    ap.add_argument("--lr", type=float, default=1.0)
    ap.add_argument("--shaping", type=float, default=0.02, help="training reward per card laid (0: none)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--curve", default="docs/rl_learning_curve.png")
    args = ap.parse_args()
    env = rl.single_agent_env(
        "rami51", players=2, seed=args.seed, opponents="random", normalize=True, max_turns=args.max_turns
    )
    best: tuple[int, Policy, list[float], int] | None = None
    for run in range(max(1, args.runs)):
        candidate, run_curve = train(env, args, run)
        if args.runs == 1:
            best = (0, candidate, run_curve, run)
            break
        score = sum(
            play_round(env, candidate, seed=20_000_000 + args.seed * 1000 + i, greedy=True)[2]
            for i in range(args.check)
        )
        print(f"run {run + 1}: won {score}/{args.check} check rounds")
        if best is None or score > best[0]:
            best = (score, candidate, run_curve, run)
    assert best is not None
    _, policy, curve, chosen = best
    print(f"kept run {chosen + 1}")
    wins = cut = cut_wins = 0
    for i in range(args.eval):
        _, _, won, was_cut = play_round(env, policy, seed=10_000_000 + i, greedy=True)
        wins += won
        cut += was_cut
        cut_wins += won and was_cut
    lo, hi = wilson(wins, args.eval)
    print(
        f"evaluation: {wins}/{args.eval} rounds won ({wins / args.eval:.1%}), 95% Wilson interval [{lo:.1%}, {hi:.1%}]"
    )
    done = args.eval - cut
    if done:
        dlo, dhi = wilson(wins - cut_wins, done)
        print(
            f"  {done} rounds ended by a player going out: the agent won {wins - cut_wins} "
            f"({(wins - cut_wins) / done:.1%}, 95% Wilson [{dlo:.1%}, {dhi:.1%}]); "
            f"{cut} were cut at {args.max_turns} turns and judged by the hands' values"
        )
    print("weights:", {n: float(w) for n, w in zip(NAMES, policy.w.round(2), strict=True)})
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    if not curve:
        return  # --episodes 0: the untrained control, no curve to draw
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
