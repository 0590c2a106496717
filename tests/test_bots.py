"""Bots: every action they return is legal, and games terminate.

Over seeded games of every preset, with every bot in every seat, no bot ever
returns an action the engine refuses, never raises, and never has to fall
back to a timeout; every game ends or stops at a cap, which is counted. The
win-rate tournament is a by-hand measurement (benchmarks/bench_bots.py); the
tests check only legality and termination.

Sizes (CONTRIBUTING.md, "Slow tests"): the default `pytest` plays one short
game (one round) per pairing and preset; the full check is marked `slow`
(`pytest -m slow`, which CI runs) and plays RAMI_BOT_GAMES games per preset
(default 12; run 200 by hand).
"""

from __future__ import annotations

import os
from collections import Counter

import pytest

from rami_core.players.bot_games import SimConfig, run_games, summarize
from rami_core.players.bots import BOTS, make_bot
from rami_core.players.bots.base import legal
from rami_core.profile.loader import load_profile
from rami_core.referee.engine import Game

PRESETS = ["voleur", "rami51", "rami71", "simple", "kaluki", "classic"]
GAMES = int(os.environ.get("RAMI_BOT_GAMES", "12"))
PAIRINGS = [("expert", "greedy"), ("greedy", "random"), ("random", "expert")]


def test_bots_are_registered():
    assert {"random", "greedy", "expert"} <= set(BOTS)
    for name in ("random", "greedy", "expert"):
        assert make_bot(name, 1).name == name


def _check_bot_games(preset: str, per: int, round_cap: int) -> None:
    """`per` seeded games of each pairing: every action legal, every game ended or capped."""
    profile = load_profile(preset)
    records = []
    for k, pair in enumerate(PAIRINGS):
        cfg = SimConfig(profile, 2, pair, per, seed=1000 * (k + 1), turn_cap=250, round_cap=round_cap)
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


@pytest.mark.parametrize("preset", PRESETS)
def test_bot_actions_are_legal_in_a_short_game(preset):
    """The default run's check: the first game of each pairing, one round."""
    _check_bot_games(preset, 1, round_cap=1)


@pytest.mark.slow
@pytest.mark.parametrize("preset", PRESETS)
def test_every_bot_action_is_legal_and_games_end(preset):
    _check_bot_games(preset, max(1, GAMES // len(PAIRINGS)), round_cap=3)


def test_bots_at_four_players_in_teams():
    profile = load_profile("rami71")
    cfg = SimConfig(
        profile, 4, ("expert", "greedy", "random", "greedy"), 2, seed=5, turn_cap=200, round_cap=2
    )
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


@pytest.mark.parametrize("preset", ["rami71", "rami51", "classic", "kaluki", "simple"])
def test_opening_precheck_never_skips_an_opening(preset):
    """Greedy asks the opening solver only when `opening_may_exist` allows an
    opening: over many seeded random hands (drawn from few ranks and suits, so
    that melds and openings are common), whenever it says no, best_opening
    finds none (and no going out below the points laying the whole hand)."""
    import random
    from dataclasses import replace

    from rami_core.cards import JOKER, Card
    from rami_core.players.bots.candidates import opening_may_exist
    from rami_core.profile.resolve import rules_for
    from rami_core.solver import best_opening

    rules = rules_for(load_profile(preset), 2)
    op = rules.opening
    specs = [op, replace(op, points=0, pure_run=True, jokers=True, partner=True)]
    rng = random.Random(f"precheck:{preset}")
    seen = Counter()
    for _ in range(300):
        if rng.random() < 0.5:  # few ranks and suits
            ranks = rng.sample(range(1, 14), rng.randint(3, 7))
            suits = rng.sample(range(4), rng.randint(1, 4))
            pool = [Card(r, s, k) for r in ranks for s in suits for k in (0, 1)] + [
                Card(JOKER.rank, JOKER.suit, k) for k in (0, 1)
            ]
            hand = rng.sample(pool, min(len(pool), rng.randint(6, 13)))
        else:  # a planted run and set (either may miss a card), then random cards
            lo, su = rng.randint(1, 10), rng.randrange(4)
            hand = [Card((lo + i - 1) % 13 + 1, su, 0) for i in range(rng.randint(2, 5))]
            r = rng.randint(1, 13)
            hand += [Card(r, x, 1) for x in rng.sample(range(4), rng.randint(2, 4))]
            deck = [Card(r, s, k) for r in range(1, 14) for s in range(4) for k in (0, 1)] + [
                Card(JOKER.rank, JOKER.suit, k) for k in (0, 1)
            ]
            deck = [c for c in deck if c not in hand]
            hand += rng.sample(deck, rng.randint(0, 13 - len(hand)))
        for spec in specs:
            reach, go_out = opening_may_exist(rules, spec, hand)
            found = best_opening(hand, rules.melds, spec, score=rules.score_args)
            seen["found" if found else "none"] += 1
            seen["skip" if not reach else "ask"] += 1
            if not reach:
                assert found is None, (hand, spec, found)
            low = replace(spec, points=0)
            whole = best_opening(hand, rules.melds, low, score=rules.score_args)
            if whole and sum(len(m) for m in whole) == len(hand):
                seen["go_out"] += 1
                assert go_out, (hand, spec, whole)
    # the loop exercised both answers and found openings
    assert seen["skip"] and seen["ask"] and seen["found"] >= 20, seen


# --------------------------------------------------------------------------- strategy edges


def _state(preset: str, hand: str, **fields):
    from rami_core.cards import parse_cards

    game = Game.new(load_profile(preset), 2, seed=1)
    s = game.state.copy()
    s.hands[0] = parse_cards(hand)
    for k, v in fields.items():
        setattr(s, k, v)
    return game.rules, s


def test_unopened_seat_facing_points_sheds_low_cards_first():
    """Before a points opening, high cards are what the seat collects: among
    equally useless cards the lowest goes first; once open, the costliest."""
    from rami_core.cards import parse_card
    from rami_core.players.bots.planner import Planner

    rules, s = _state("rami51", "2C KD 5H 6H 7H 9S", opened=[False, False])
    order = Planner(rules).discard_order(s, 0)
    assert order[:3] == [parse_card(x) for x in ("2C", "9S", "KD")]
    s.opened = [True, False]
    order = Planner(rules).discard_order(s, 0)
    assert order[:3] == [parse_card(x) for x in ("KD", "9S", "2C")]
    # classic has no points opening: the costliest goes first from the start
    rules, s = _state("classic", "2C KD 5H 6H 7H 9S", opened=[False, False])
    assert Planner(rules).discard_order(s, 0)[0] == parse_card("KD")


def test_expert_discard_keeps_the_card_with_more_outs():
    """Two lone cards: 7S has unseen neighbours 5S 6S 8S 9S; KC's neighbours
    QC and the set partners of K are all seen (on the table or in the pile),
    so KC brings no outs and goes, although 7S is cheaper."""
    from rami_core.cards import parse_card, parse_cards
    from rami_core.cards.melds import read_meld
    from rami_core.players.bots.expert import ExpertPlanner

    rules, s = _state("classic", "3H 4H 5H 7S KC 2D 2D")
    # everything that could join KC is out of play: in the discard pile
    s.discard = parse_cards("QC JC KH KS KD AC")
    planner = ExpertPlanner(rules)
    first = planner.discard_order(s, 0)[0]
    assert first == parse_card("KC"), planner.discard_order(s, 0)
    assert read_meld(parse_cards("3H 4H 5H"), rules.melds) is not None


def test_greedy_rebuilds_the_voleur_table_and_random_lays_one_card_by_a_rebuild():
    cfg = SimConfig(load_profile("voleur"), 2, ("greedy", "random"), 2, seed=3, turn_cap=200, round_cap=1)
    seen = [Counter(), Counter()]
    for g in run_games(cfg):
        for seat, name in enumerate(g["bots"]):
            seen[0 if name == "greedy" else 1].update(g["kinds"][seat])
    assert seen[0]["rearrange"] > 0 and seen[1]["rearrange"] > 0, seen


def test_random_rearrangements_lay_one_card_each():
    """The random bot's rebuilds are a probe, not a player: each lays exactly
    one hand card (the solver's rebuild for one random card, or a card added
    to a meld), never the best lay of the whole hand."""
    import random

    from rami_core.game import actions as A
    from rami_core.players.bots.base import state_from_view
    from rami_core.players.bots.random_bot import RandomBot

    game = Game.new(load_profile("voleur"), 2, seed=4)
    bots = [make_bot("greedy", 1), make_bot("greedy", 2)]
    probe = RandomBot(random.Random(0))
    checked = 0
    for _ in range(400):
        s = game.state
        if s.phase == "over":
            break
        seat = s.turn
        if s.phase == "lay" and s.table and s.opened[seat]:
            view = game.view(seat)
            st = state_from_view(view)
            before = sum(len(m.cards) for m in st.table)
            for a in probe.lay_candidates(game.rules, st, seat):
                if isinstance(a, A.Rearrange):
                    assert sum(len(m) for m in a.melds) == before + 1, a
                    checked += 1
        game.apply(bots[seat].choose(game.view(seat), game.rules))
    assert checked >= 5, checked


def test_expert_rebuilds_where_greedy_gives_up():
    """A voleur position from a seeded game: the rebuild that lays 9 of 11
    hand cards needs more search than greedy's 2,000 states, so greedy falls
    back on hand melds and lay offs while the expert plays the proven best."""
    from types import SimpleNamespace

    from rami_core.cards import parse_cards
    from rami_core.cards.melds import read_meld
    from rami_core.players.bots.expert import ExpertPlanner
    from rami_core.players.bots.planner import Planner
    from rami_core.profile.resolve import rules_for

    table = ["4H 5H 6H 7H 8H", "5S JK 7S 8S", "AS AD JK", "10H JH QH"]
    hand = parse_cards("6S 8S 10S QS 5D 7D 10D QD KD AC 8C")
    rules = rules_for(load_profile("voleur"), 2)
    s = SimpleNamespace(
        table=[SimpleNamespace(cards=parse_cards(m)) for m in table], round_no=1, turns_played=0, turn=0
    )
    # greedy finds nothing and knows it has not proven there is nothing
    assert Planner(rules).rearrangement(s, hand) == (None, False)
    play, _ = ExpertPlanner(rules).rearrangement(s, hand)
    assert play is not None
    melds = play(0).melds
    assert all(read_meld(list(m), rules.melds) is not None for m in melds)
    down = Counter(c for m in melds for c in m)
    tab = Counter(c for m in s.table for c in m.cards)
    assert not tab - down  # every table card stays down
    laid = down - tab
    assert sum(laid.values()) == 9 and not laid - Counter(hand)


def test_greedy_does_not_ask_again_a_rebuild_its_turn_ran_out_of_states_on(monkeypatch):
    """After a cut rebuild (no lay found within greedy's states), the same
    turn's smaller problems (a card held back; hand cards laid since as melds
    or lay offs, the table grown by them) are not solved again; a hand with a
    card the cut one lacked, or the next turn, is."""
    from types import SimpleNamespace

    import rami_core.players.bots.planner as planner_module
    from rami_core.cards import parse_cards
    from rami_core.players.bots.planner import Planner
    from rami_core.profile.resolve import rules_for

    table = ["4H 5H 6H 7H 8H", "5S JK 7S 8S", "AS AD JK", "10H JH QH"]
    hand = parse_cards("6S 8S 10S QS 5D 7D 10D QD KD AC 8C")
    rules = rules_for(load_profile("voleur"), 2)
    asked = []
    real = planner_module.solve

    def counting(*a, **k):
        asked.append(a[1])
        return real(*a, **k)

    monkeypatch.setattr(planner_module, "solve", counting)

    def position(melds, turn=0):
        return SimpleNamespace(
            table=[SimpleNamespace(cards=parse_cards(m)) for m in melds],
            round_no=1,
            turns_played=turn,
            turn=0,
        )

    p = Planner(rules)
    assert p.rearrangement(position(table), hand) == (None, False)
    assert len(asked) == 1
    # a card held back; AC laid off on the aces
    assert p.rearrangement(position(table), hand[1:]) == (None, False)
    grown = [table[0], table[1], "AS AD AC JK", table[3]]
    assert p.rearrangement(position(grown), [c for c in hand if str(c) != "AC"]) == (None, False)
    assert len(asked) == 1
    # a card the cut hand did not hold: asked
    p.rearrangement(position(table), [*hand[1:], *parse_cards("9S")])
    assert len(asked) == 2
    # the next turn: asked
    p.rearrangement(position(table, turn=1), hand)
    assert len(asked) == 3
