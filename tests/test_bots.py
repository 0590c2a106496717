"""Bots: every action they return is legal, and games terminate.

Over seeded games of every preset, with every bot in every seat, no bot ever
returns an action the engine refuses, never raises, and never has to fall
back to a timeout; every game ends or stops at a cap, which is counted. The
win-rate tournament is a by-hand measurement (benchmarks/bench_bots.py); CI
checks only legality and termination. RAMI_BOT_GAMES sets the games per preset
(default 12; run 200 by hand).
"""

from __future__ import annotations

import os
from collections import Counter

import pytest

from rami_core.bots import BOTS, make_bot
from rami_core.bots.base import legal
from rami_core.engine import Game
from rami_core.loader import load_profile
from rami_core.simulate import SimConfig, run_games, summarize

PRESETS = ["voleur", "rami51", "rami71", "simple", "kaluki", "classic"]
GAMES = int(os.environ.get("RAMI_BOT_GAMES", "12"))
PAIRINGS = [("expert", "greedy"), ("greedy", "random"), ("random", "expert")]


def test_bots_are_registered():
    assert {"random", "greedy", "expert"} <= set(BOTS)
    for name in ("random", "greedy", "expert"):
        assert make_bot(name, 1).name == name


@pytest.mark.parametrize("preset", PRESETS)
def test_every_bot_action_is_legal_and_games_end(preset):
    profile = load_profile(preset)
    per = max(1, GAMES // len(PAIRINGS))
    records = []
    for k, pair in enumerate(PAIRINGS):
        cfg = SimConfig(profile, 2, pair, per, seed=1000 * (k + 1), turn_cap=250, round_cap=3)
        records += run_games(cfg)
    res = summarize(SimConfig(profile, 2, ("greedy",), len(records)), records)
    assert res["refused"] == 0, [g["refusal_codes"] for g in records if g["refused"]]
    assert res["bot_errors"] == 0
    assert res["stuck"] == 0
    assert res["timeouts"] == 0
    # every game ended, or stopped at a cap that is counted
    for g in records:
        assert g["finished"] or g["capped"] in ("turn", "round")
        assert g["rounds"]


def test_bots_at_four_players_in_teams():
    profile = load_profile("rami71")
    cfg = SimConfig(profile, 4, ("expert", "greedy", "random", "greedy"), 2, seed=5, turn_cap=200, round_cap=2)
    res = summarize(cfg, run_games(cfg), teams=True)
    assert res["refused"] == 0 and res["bot_errors"] == 0 and res["timeouts"] == 0


def test_random_bot_uses_every_kind_the_profile_allows():
    """Across a few games the random bot has each kind of action accepted."""
    want = {
        "rami51": {"draw_stock", "draw_discard", "meld", "layoff", "discard"},
        "voleur": {"draw_stock", "meld", "layoff", "rearrange", "end_turn"},
        "classic": {"draw_stock", "draw_discard", "meld", "layoff", "discard"},
        "kaluki": {"draw_stock", "draw_discard", "meld", "layoff", "discard"},
    }
    for preset, kinds in want.items():
        cfg = SimConfig(load_profile(preset), 2, ("random", "random"), 3, seed=11, turn_cap=150, round_cap=2)
        seen: Counter = Counter()
        for g in run_games(cfg):
            for k in g["kinds"]:
                seen.update(k)
        assert kinds <= set(seen), (preset, kinds - set(seen))


def test_bot_choices_are_legal_step_by_step():
    """The same check without the driver: each choice is legal on the seat's view."""
    for preset in ("rami51", "voleur"):
        profile = load_profile(preset)
        game = Game.new(profile, 2, seed=3)
        bots = [make_bot("expert", 1), make_bot("greedy", 2)]
        for _ in range(200):
            if game.state.phase == "over":
                break
            seat = game.state.turn
            view = game.view(seat)
            action = bots[seat].choose(view, game.rules)
            assert legal(game.rules, view, action)
            game.apply(action)
