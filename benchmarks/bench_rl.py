"""Random-policy environment steps per CPU second: rami's AEC environments
(all six presets) beside OpenSpiel's gin_rummy, measured in the same run
(run by hand), both sides timed alike.

    pip install -e '.[rl,bench]'     # open_spiel
    python benchmarks/bench_rl.py --steps 3000 --steps-for voleur=400 --peer-seconds 5
    python benchmarks/bench_rl.py --seconds 20 --profile rami51   # where rami51's time goes
    python benchmarks/bench_rl.py --steps 20000 --steps-for rami51=10000 --steps-for voleur=1500 \
        --time-limit 600 --peer-seconds 20 --before DIR    # the same sub-steps before and after

Every side is timed twice, with and without building the observation:

- OpenSpiel `gin_rummy`, "legal actions only": `legal_actions()` then
  `apply_action()` of a uniform random one; "observation + mask":
  `observation_tensor()` and `legal_actions_mask()` read (as numpy arrays,
  as a learner takes them) before every step, the action drawn from the
  mask. Chance nodes are sampled from their outcomes and not counted.
- rami, "observation + mask": `env.last()` (the observation vector and its
  mask, as a learner reads them) then `env.step`; "mask only": the AEC
  environment stepped without `observe()` (its `legal_mask()` then
  `env.step`: stepping never builds an observation), for each preset in the
  full and the compact action space (one sub-step per step, 2 seats, the
  mask asked of the engine).

Rates are per CPU second (`time.process_time`): the machine is shared, and
the ratio of each rami row to the OpenSpiel row timed the same way is the
figure. PettingZoo's `gin_rummy_v4` row is gone: `pettingzoo.classic` no
longer has gin rummy (the 1.27 that rami's `rl` extra installs has none;
removed upstream, PettingZoo issue 1383), so the row never ran beside rami;
OpenSpiel's is the peer.

`--time-limit` stops an environment early and reports its rate so far.
`--warm N` first plays N untimed sub-steps of other deals in each row, the
process's memos kept: the rate a long training run sees (its memos of
groups read and packing bounds full), beside a fresh process's.
`--digest N` prints, per preset and bundled house file, a digest of N
random masked sub-steps (full, compact and scaled spaces): the masks,
observations, rewards, terminations, truncations and infos, byte for byte;
with `--before DIR` the same digests of the other tree, and whether they agree.
`--before DIR`: the same rami rows again from another source tree (e.g.
`git archive main rami_core variants plugins | tar -x -C DIR`, with
`DIR/rami_core/variants` and `DIR/rami_core/plugins` linked to `../variants`
and `../plugins`), in a subprocess of the same run. `--whole N` also times
N whole voleur games of random masked sub-steps.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]

PRESETS = ("classic", "rami51", "rami71", "simple", "kaluki", "voleur")
WARM_SEED = 10_000  # --warm's deals: seeds this far from the timed ones


def run(env, steps: int, seed: int, time_limit: float, observe: bool = True) -> tuple[float, int, int, float]:
    """(steps per second, episodes finished, steps done, steps per CPU second).
    `observe`: read the observation and its mask (`env.last()`) before each
    step; else only the mask (`legal_mask()`), no observation built."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    raw = env.unwrapped
    done = 0
    episodes = 0
    cpu = time.process_time()
    start = time.perf_counter()
    while done < steps and time.perf_counter() - start < time_limit:
        if observe:
            obs, _, term, trunc, _ = env.last()
        else:
            agent = env.agent_selection
            term, trunc = env.terminations[agent], env.truncations[agent]
        if term or trunc:
            env.step(None)
            if not env.agents:
                episodes += 1
                env.reset(seed=seed + episodes)
            continue
        mask = obs["action_mask"] if observe else raw.legal_mask()
        env.step(int(rng.choice(list(np.flatnonzero(mask)))))
        done += 1
    return done / (time.perf_counter() - start), episodes, done, done / (time.process_time() - cpu)


def whole_games(n: int, seed: int) -> list[tuple[float, int, int]]:
    """(seconds, sub-steps, rounds) of n whole voleur games (a round ends when
    the stock runs out at the latest)."""
    from rami_core import rl

    out = []
    for i in range(n):
        env = rl.env("voleur", players=2, seed=seed + i, episode="game", max_turns=None, illegal="raise")
        rng = random.Random(seed + i)
        env.reset()
        start = time.perf_counter()
        steps = 0
        while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(rng.choice(list(np.flatnonzero(mask)))))
            steps += 1
        out.append((time.perf_counter() - start, steps, env.game.state.round_no))
    return out


def rami_rows(
    steps: int,
    seed: int,
    time_limit: float,
    per: dict[str, int] | None = None,
    presets: tuple[str, ...] = PRESETS,
    spaces: tuple[str, ...] = ("full", "compact"),
    warm: int = 0,
) -> list[tuple[str, float, int, int, float]]:
    """Each preset, each action space, with the observation and without.
    `per`: steps for some presets instead of `steps` (the same sub-steps
    before and after a change: a round's late steps, with larger hands, cost
    more, so runs cut by the clock at different points are not comparable).
    `warm`: that many untimed sub-steps first, on other deals (seed + WARM_SEED),
    the process's memos kept: the rate of a long training run, whose memos
    of groups read and packing bounds are full, rather than a fresh process's."""
    from rami_core import rl

    rows = []
    for name in presets:
        for actions in spaces:
            for observe in (True, False):
                # the mask's module: rl.mask since the relayout, rl.legal in older trees (--before)
                module = getattr(rl, "mask", None) or getattr(rl, "legal", None)
                forget = getattr(module, "forget_shared_memos", None)
                if forget is not None:
                    forget()  # each row starts cold: the later rows play the first row's deals again
                if warm:  # other deals, so that the timed one's hands are not already known
                    other = rl.env(name, players=2, seed=seed + WARM_SEED, actions=actions, illegal="raise")
                    run(other, warm, seed + WARM_SEED, 10**9, observe)
                env = rl.env(name, players=2, seed=seed, actions=actions, illegal="raise")
                if not observe and not hasattr(env.unwrapped, "legal_mask"):
                    continue  # an older tree (--before) without it
                n = (per or {}).get(name, steps)
                how = "observation + mask" if observe else "mask only"
                how += f", warm {warm}" if warm else ""
                rows.append((f"rami {name} {actions}, {how}", *run(env, n, seed, time_limit, observe)))
    return rows


def digest(name: str, actions: str, scaled: bool, steps: int, seed: int) -> str:
    """sha256 (16 hex digits) of `steps` random masked sub-steps from `seed`:
    every observation and mask read, every reward, termination, truncation
    and info, in order. One function for this and for the frozen-behaviour
    test (tests/support/behaviour.py's ``rl_digest``), so their digests are
    the same numbers; it imports no rami_core at its top, so a ``--before``
    tree's rami_core is the one it reads."""
    if str(REPO) not in sys.path:
        sys.path.append(str(REPO))  # after PYTHONPATH: a --before tree's rami_core stays first
    from tests.support.behaviour import rl_digest

    return rl_digest(name, actions, scaled, steps, seed)


def digest_rows(steps: int, seed: int, voleur_steps: int) -> list[tuple[str, str]]:
    """(label, digest) of every preset and bundled house file, full,
    compact and scaled (voleur's files: `voleur_steps` sub-steps)."""
    from rami_core.files.resources import house_names, preset_names

    rows = []
    for name in [*preset_names(), *house_names()]:
        n = voleur_steps if name.startswith("voleur") else steps
        for actions, scaled in (("full", False), ("compact", False), ("full", True)):
            label = f"{name} {actions}{' scaled' if scaled else ''} {n}"
            rows.append((label, digest(name, actions, scaled, n, seed)))
    return rows


def openspiel_row(seconds: float, seed: int, observe: bool = False) -> tuple[float, int, int, float]:
    """(steps per second, games finished, steps, steps per CPU second) of
    OpenSpiel's gin_rummy, random legal actions. `observe`: the observation
    tensor and the legal actions' mask read (as numpy arrays) before each
    step, the action drawn from the mask; else `legal_actions()` alone."""
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    done = games = 0
    state = game.new_initial_state()
    cpu = time.process_time()
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        if state.is_terminal():
            games += 1
            state = game.new_initial_state()
            continue
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            continue
        if observe:
            np.asarray(state.observation_tensor(), dtype=np.float32)
            mask = np.asarray(state.legal_actions_mask(), dtype=np.int8)
            state.apply_action(int(rng.choice(list(np.flatnonzero(mask)))))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        done += 1
    return done / (time.perf_counter() - start), games, done, done / (time.process_time() - cpu)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--time-limit", type=float, default=300.0, help="seconds per environment at most")
    ap.add_argument("--before", help="a source tree to measure the rami rows of, in the same run")
    ap.add_argument("--whole", type=int, default=0, help="also time this many whole voleur games")
    ap.add_argument(
        "--seconds", type=float, help="run every environment this long (sets --time-limit, steps unbounded)"
    )
    ap.add_argument(
        "--profile", help="cProfile this rami preset's full-space run instead (top 25 by own time)"
    )
    ap.add_argument(
        "--steps-for",
        action="append",
        default=[],
        metavar="PRESET=N",
        help="this many sub-steps for a preset (e.g. voleur=1500), the clock limit still applying",
    )
    ap.add_argument("--peer-seconds", type=float, help="each OpenSpiel row's run (default: the time limit)")
    ap.add_argument("--presets", default=",".join(PRESETS), help="the rami presets timed (comma-separated)")
    ap.add_argument("--spaces", default="full,compact", help="the action spaces timed (full, compact)")
    ap.add_argument(
        "--digest", type=int, metavar="N", help="instead: digests of N random masked sub-steps per file"
    )
    ap.add_argument("--digest-voleur", type=int, default=800, help="sub-steps of the voleur files' digests")
    ap.add_argument(
        "--warm",
        type=int,
        default=0,
        metavar="N",
        help="N untimed sub-steps of other deals before each rami row, memos kept (a long run's rate)",
    )
    ap.add_argument("--rows-json", action="store_true", help=argparse.SUPPRESS)  # the --before subprocess
    args = ap.parse_args()
    if args.digest:
        if args.rows_json:
            print(json.dumps(digest_rows(args.digest, args.seed, args.digest_voleur)))
            return
        other = None
        if args.before:  # the other tree's digests in a subprocess, alongside
            cmd = [sys.executable, __file__, "--rows-json", "--digest", str(args.digest)]
            cmd += ["--seed", str(args.seed), "--digest-voleur", str(args.digest_voleur)]
            env = dict(os.environ, PYTHONPATH=os.path.abspath(args.before))
            other = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, text=True, cwd="/")
        mine = digest_rows(args.digest, args.seed, args.digest_voleur)
        theirs = dict(mine)
        if other is not None:
            out, _ = other.communicate()
            if other.returncode:
                sys.exit(f"the --before tree's digests failed ({other.returncode})")
            theirs = dict(json.loads(out.strip().splitlines()[-1]))
        for label, d in mine:
            mark = "" if theirs.get(label) == d else f"  DIFFERS (before: {theirs.get(label)})"
            print(f"{label:48} {d}{mark}", flush=True)
        same = all(theirs.get(label) == d for label, d in mine)
        print("all digests agree" if same else "SOME DIGESTS DIFFER")
        sys.exit(0 if same else 1)
    per = {k: int(v) for k, _, v in (s.partition("=") for s in args.steps_for)}
    if args.seconds:
        args.time_limit, args.steps = args.seconds, 10**9
    if args.profile:
        import cProfile
        import pstats

        from rami_core import rl

        env = rl.env(args.profile, players=2, seed=args.seed, illegal="raise")
        cProfile.runctx(
            "run(env, args.steps, args.seed, args.time_limit)", globals(), locals(), "/tmp/bench_rl.prof"
        )
        pstats.Stats("/tmp/bench_rl.prof").sort_stats("tottime").print_stats(25)
        return
    presets = tuple(p for p in args.presets.split(",") if p)
    spaces = tuple(p for p in args.spaces.split(",") if p)
    if args.rows_json:
        print(json.dumps(rami_rows(args.steps, args.seed, args.time_limit, per, presets, spaces, args.warm)))
        return

    # Steps per CPU second as well as per second: on a shared machine the
    # CPU rate is the steadier one, and the ratios are taken of it.
    print(f"{'environment':52} {'steps/s':>10} {'cpu steps/s':>12} {'steps':>7} {'episodes':>9}", flush=True)
    rows = []

    def show(label: str, rate: float, eps: int, done: int, cpu_rate: float) -> None:
        rows.append((label, cpu_rate))
        print(f"{label:52} {rate:10.1f} {cpu_rate:12.1f} {done:7d} {eps:9d}", flush=True)

    peer = {}  # the OpenSpiel row of each way of timing: with the observation or not
    try:
        for observe, label in ((False, "legal actions only"), (True, "observation + mask")):
            row = openspiel_row(args.peer_seconds or args.time_limit, args.seed, observe)
            show(f"openspiel gin_rummy, {label}", *row)
            peer[observe] = row[3]
    except ImportError as e:
        print(f"OpenSpiel not available ({e}): pip install open_spiel (the bench extra)")
    if args.before:
        cmd = [sys.executable, __file__, "--rows-json", "--steps", str(args.steps), "--seed", str(args.seed)]
        cmd += ["--time-limit", str(args.time_limit), *(f"--steps-for={s}" for s in args.steps_for)]
        cmd += ["--presets", args.presets, "--spaces", args.spaces, "--warm", str(args.warm)]
        env = dict(os.environ, PYTHONPATH=os.path.abspath(args.before))
        out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True, cwd="/")
        for label, rate, eps, done, cpu_rate in json.loads(out.stdout.strip().splitlines()[-1]):
            show(f"{label} before", rate, eps, done, cpu_rate)
    for label, rate, eps, done, cpu_rate in rami_rows(
        args.steps, args.seed, args.time_limit, per, presets, spaces, args.warm
    ):
        show(label, rate, eps, done, cpu_rate)
    if peer:
        # Each rami row against the OpenSpiel row timed the same way.
        for label, rate in rows:
            if label.startswith("rami"):
                observe = "observation" in label
                if observe in peer:
                    how = "observation + mask" if observe else "legal actions only"
                    print(
                        f"{label}: {rate / peer[observe]:.4f} x openspiel gin_rummy, {how} (per CPU second)"
                    )
    if args.whole:
        for secs, steps, rounds in whole_games(args.whole, args.seed):
            print(f"a whole voleur game: {rounds} round(s), {steps} sub-steps in {secs:.1f} s", flush=True)


if __name__ == "__main__":
    main()
