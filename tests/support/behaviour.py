"""Digests of rami's behaviour: seeded bot games and random RL sub-steps, per
preset and bundled house file, to prove that a change of the code left every
move where it was.

A refactoring (or a rewrite of the hot path) promises that behaviour does not
change; a game is long enough that a single different action changes
everything after it, so one digest per file guards the whole game. For each
preset and house file (``preset_names()``, ``house_names()``) this plays:

- a seeded two-seat game, the greedy bot in seat 0 and the expert bot in
  seat 1 (``ROUNDS`` rounds, ``max_actions`` actions at most, by size), and digests its
  full record: every action in the codec's dict form (``action_to_dict``), a
  refusal's code and the timeout that followed it, every event (the
  round_over payments among them) and each round's scores and penalties;
- the RL digests of ``benchmarks/bench_rl.py --digest N`` (N: ``rl_steps``) (full, compact and
  scaled spaces; the same sha256 of masks, observations, rewards,
  terminations, truncations and infos, so the two tools' numbers agree).

``tests/test_behaviour_frozen.py`` compares them with ``tests/golden/behaviour.json``.
Run by hand::

    python tests/support/behaviour.py                   # this tree's digests, as JSON
    python tests/support/behaviour.py --before DIR      # and another tree's, compared file by file
    python tests/support/behaviour.py --write           # regenerate tests/golden/behaviour.json, saying what changed

``--before DIR`` plays the other tree in a subprocess with ``PYTHONPATH=DIR``
(``git archive <commit> rami_core variants plugins | tar -x -C DIR``, with
``DIR/rami_core/variants`` and ``DIR/rami_core/plugins`` linked to
``../variants`` and ``../plugins``, and the compiled ``_sweepc*.so`` copied
into ``DIR/rami_core/solver/``, as bench_rl's ``--before``). It reads that
tree through the module names it has: the names before the package moved
into folders (b2411fe) are tried after the current ones, so this file must
not import rami_core at its top.

Run it as a script (as above, from the repository's root): its folder, not
the root, is first on ``sys.path``, so ``rami_core`` is the one on
``PYTHONPATH``; the script puts the repository's root there itself when
nothing is given.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "behaviour.json"

SEED = 1
ROUNDS = 2  # a second round: the next deal, the scores carried over, the first player rotated
BOTS = ("greedy", "expert")
SPACES = (("full", False), ("compact", False), ("full", True))
# Two sizes, both kept in the golden file: "quick" for the default test run
# (a few seconds in all), "slow" for `pytest -m slow`. max_actions bounds a
# game (the expert bot's voleur turns call the solver: about 4 ms an action);
# rl_steps is bench_rl's --digest N.
SIZES: dict[str, dict[str, int]] = {
    "quick": {"max_actions": 100, "rl_steps": 30},
    "slow": {"max_actions": 400, "rl_steps": 300},
}


def _name(now: str, before: str) -> Any:
    """``module:attribute`` in the current layout (`now`), or in the one
    before the move into folders (`before`) where the imported ``rami_core``
    has no ``referee`` folder.

    The layout is read from the folder, not by trying imports: an editable
    install's finder answers a name the tree on ``PYTHONPATH`` lacks
    (``rami_core.referee`` in an old tree) from the installed tree, which
    would mix two versions in one process."""
    home = Path(importlib.import_module("rami_core").__file__ or "").parent
    module, _, attr = (now if (home / "referee").is_dir() else before).partition(":")
    return getattr(importlib.import_module(module), attr)


def files() -> list[str]:
    """Every preset and bundled house file, in the order bench_rl digests them."""
    preset_names = _name("rami_core.files.resources:preset_names", "rami_core.resources:preset_names")
    house_names = _name("rami_core.files.resources:house_names", "rami_core.resources:house_names")
    return [*preset_names(), *house_names()]


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)


def game_record(name: str, max_actions: int, seed: int = SEED, rounds: int = ROUNDS) -> list[Any]:
    """The seeded game of `name` as plain data, one entry per thing that
    happened: ``["action", dict]``, ``["refused", code, dict]`` (then the
    timeout played instead), ``["event", dict]``, ``["round", ...]``."""
    load_profile = _name("rami_core.profile.loader:load_profile", "rami_core.loader:load_profile")
    Game = _name("rami_core.referee.engine:Game", "rami_core.engine:Game")
    make_bot = _name("rami_core.players.bots:make_bot", "rami_core.bots:make_bot")
    STEP_CAP = _name("rami_core.referee.caps:STEP_CAP", "rami_core.caps:STEP_CAP")
    OVER = _name("rami_core.game.state:OVER", "rami_core.state:OVER")
    Timeout = _name("rami_core.game.actions:Timeout", "rami_core.actions:Timeout")
    action_to_dict = _name("rami_core.game.actions:action_to_dict", "rami_core.actions:action_to_dict")
    RuleError = _name("rami_core.words.errors:RuleError", "rami_core.errors:RuleError")

    game = Game.new(load_profile(name), 2, seed=seed)
    bots = [make_bot(b, seed * 8 + i) for i, b in enumerate(BOTS)]
    out: list[Any] = []
    events_seen = 0
    actions = 0

    def events() -> None:
        nonlocal events_seen
        out.extend(["event", e.to_dict()] for e in game.events[events_seen:])
        events_seen = len(game.events)

    events()
    for r in range(rounds):
        steps = 0  # actions in this turn: a bot that never ends its turn is timed out, as bot_games does
        while game.state.phase != OVER and actions < max_actions:
            s = game.state
            seat, turn_no = s.turn, s.turns_played
            action = bots[seat].choose(game.view(seat), game.rules) if steps < STEP_CAP else Timeout(seat)
            try:
                game.apply(action)
                out.append(["action", action_to_dict(action)])
            except RuleError as e:
                out.append(["refused", e.code, action_to_dict(action)])
                game.apply(Timeout(seat))
                out.append(["action", action_to_dict(Timeout(seat))])
            events()
            actions += 1
            steps += 1
            if game.state.phase == OVER or game.state.turns_played != turn_no:
                steps = 0
        s = game.state
        out.append(["round", r, s.phase == OVER, s.round_end, s.winner, list(s.penalties), list(s.scores)])
        if s.phase != OVER or s.game_over or r == rounds - 1:
            break
        game.next_round()
        events()
    return out


def moves_digest(name: str, max_actions: int) -> dict[str, Any]:
    """The seeded game's digest (sha256, 16 hex digits) and its size."""
    record = game_record(name, max_actions)
    h = hashlib.sha256()
    for entry in record:
        h.update(_canon(entry).encode())
        h.update(b"\n")
    return {
        "digest": h.hexdigest()[:16],
        "actions": sum(1 for e in record if e[0] == "action"),
        "rounds": sum(1 for e in record if e[0] == "round"),
    }


def rl_digest(name: str, actions: str, scaled: bool, steps: int, seed: int = SEED) -> str:
    """sha256 (16 hex digits) of `steps` random masked
    sub-steps from `seed`: every observation and mask read, every reward,
    termination, truncation and info, in order, episodes dealt anew from the
    environment's stream. ``benchmarks/bench_rl.py --digest`` calls this one,
    so the two tools' digests are the same numbers."""
    import numpy as np

    from rami_core import rl

    h = hashlib.sha256()
    env = rl.env(name, players=2, seed=seed, actions=actions, scaled=scaled, illegal="raise")
    rng = random.Random(seed)
    env.reset(seed=seed)
    done = 0
    while done < steps:
        agent = env.agent_selection
        obs, reward, term, trunc, info = env.last()
        h.update(obs["observation"].tobytes())
        h.update(obs["action_mask"].tobytes())
        h.update(repr((agent, reward, term, trunc, sorted(info.items()))).encode())
        if term or trunc:
            env.step(None)
            if not env.agents:
                env.reset()
            continue
        env.step(int(rng.choice(list(np.flatnonzero(obs["action_mask"])))))
        done += 1
    return h.hexdigest()[:16]


def rl_digests(name: str, steps: int) -> dict[str, str]:
    """The RL digests of every action space (bench_rl's labels, without N)."""
    return {f"{a}{' scaled' if s else ''}": rl_digest(name, a, s, steps) for a, s in SPACES}


def file_digests(name: str, size: str, rl: bool = True) -> dict[str, Any]:
    """One file's digests at one size: ``moves`` and (with `rl`) ``rl``."""
    n = SIZES[size]
    entry: dict[str, Any] = {"moves": moves_digest(name, n["max_actions"])}
    if rl:
        entry["rl"] = rl_digests(name, n["rl_steps"])
    return entry


def document(sizes: tuple[str, ...] = tuple(SIZES), names: list[str] | None = None) -> dict[str, Any]:
    """The golden file's contents: the settings, then per size each file's digests."""
    doc: dict[str, Any] = {"seed": SEED, "rounds": ROUNDS, "bots": list(BOTS)}
    for size in sizes:
        doc[size] = {**SIZES[size], "files": {name: file_digests(name, size) for name in names or files()}}
    return doc


def changed(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """What differs between two golden documents, a line per file and size
    (the moves, the RL spaces; a file added or removed; a setting)."""
    out = []
    for key in sorted(set(old) | set(new)):
        a, b = old.get(key), new.get(key)
        if key not in SIZES:
            if a != b:
                out.append(f"{key}: {a} -> {b}")
            continue
        a, b = a or {}, b or {}
        for setting in sorted((set(a) | set(b)) - {"files"}):
            if a.get(setting) != b.get(setting):
                out.append(f"{key} {setting}: {a.get(setting)} -> {b.get(setting)}")
        fa, fb = a.get("files", {}), b.get("files", {})
        for name in sorted(set(fa) | set(fb)):
            if name not in fa or name not in fb:
                out.append(f"{key} {name}: {'added' if name not in fa else 'removed'}")
                continue
            what = []
            ma, mb = fa[name]["moves"], fb[name]["moves"]
            if ma != mb:
                what.append(
                    f"moves {ma['digest']} -> {mb['digest']} ({ma['actions']} -> {mb['actions']} actions)"
                )
            ra, rb = fa[name].get("rl", {}), fb[name].get("rl", {})
            what += [
                f"rl {k} {ra.get(k)} -> {rb.get(k)}"
                for k in sorted(set(ra) | set(rb))
                if ra.get(k) != rb.get(k)
            ]
            if what:
                out.append(f"{key} {name}: " + "; ".join(what))
    return out


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument(
        "--size", choices=[*SIZES, "all"], default="all", help="which size of digests (default all)"
    )
    ap.add_argument("--before", metavar="DIR", help="also another tree's digests (PYTHONPATH=DIR), compared")
    ap.add_argument(
        "--write", action="store_true", help=f"write {GOLDEN.relative_to(ROOT)}, printing what changed"
    )
    args = ap.parse_args(argv)
    sizes = tuple(SIZES) if args.size == "all" or args.write else (args.size,)
    other = None
    if args.before:  # the other tree at the same time, in its own process
        env = dict(os.environ, PYTHONPATH=os.path.abspath(args.before))
        cmd = [sys.executable, __file__, "--size", args.size]
        other = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, text=True, cwd="/")
    mine = document(sizes)
    if args.write:
        old = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
        GOLDEN.write_text(json.dumps(mine, indent=1, sort_keys=True) + "\n")
        diff = changed(old, mine)
        print(*(diff or ["no digest changed"]), f"({GOLDEN.relative_to(ROOT)} written)", sep="\n")
        return
    if other is None:
        print(json.dumps(mine, indent=1, sort_keys=True))
        return
    out, _ = other.communicate()
    if other.returncode:
        sys.exit(f"the --before tree's digests failed ({other.returncode})")
    theirs = json.loads(out)
    for size in sizes:
        for name, entry in mine[size]["files"].items():
            was = theirs[size]["files"].get(name, {})
            rows = [("moves", entry["moves"]["digest"], was.get("moves", {}).get("digest"))]
            rows += [(f"rl {k}", d, was.get("rl", {}).get(k)) for k, d in entry["rl"].items()]
            for label, d, before in rows:
                mark = "agree" if d == before else f"DIFFERS (before: {before})"
                print(f"{size:5} {name:38} {label:17} {d}  {mark}")
    diff = changed(theirs, mine)
    print("all digests agree" if not diff else "SOME DIGESTS DIFFER:\n" + "\n".join(diff))
    sys.exit(1 if diff else 0)


if __name__ == "__main__":
    if not os.environ.get("PYTHONPATH"):
        sys.path.insert(0, str(ROOT))  # this tree's rami_core, not the editable install's
    main(sys.argv[1:])
