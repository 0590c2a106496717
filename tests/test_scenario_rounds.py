"""The scenario format across rounds: next_round, seeded deals, play_out, the
round-end keys and a reshuffle named in the setup (docs/scenarios.md).

The scenarios under tests/scenarios/games/ show each key passing; these tests
show that each can fail, and that malformed uses are refused with a message
naming the key, never a traceback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rami_core.cards import parse_card
from rami_core.conformance.scenario import run_scenario
from rami_core.profile.loader import load_profile
from rami_core.referee.engine import Game
from rami_core.referee.position import start

HERE = Path(__file__).parent


def run(text: str):
    return run_scenario(yaml.safe_load(text), HERE, "inline")


VOLEUR_OUT = """
variant: voleur
setup:
  hands: [[3S, 4S], [AH, KD, 7C]]
  stock: [5S, 9C]
  opened: [true, true]
steps:
  - {player: 0, draw: stock}
  - {player: 0, meld: [[3S, 4S, 5S]]}
"""


@pytest.mark.parametrize(
    ("expect", "ok"),
    [
        ("{round_end: out, rami_sec: false, round: 1}", True),
        ("{round_end: empty_stock_all_pay}", False),
        ("{rami_sec: true}", False),
        ("{round: 2}", False),
        ("{dealer: 1, first_player: 0}", True),
        ("{dealer: 0}", False),
        ("{discard_size: 0, turns: 1}", True),
        ("{turns: 2}", False),
    ],
)
def test_round_keys_pass_and_fail(expect: str, ok: bool) -> None:
    result = run(VOLEUR_OUT + f"  - expect: {expect}\n")
    assert result.passed is ok, result.message


@pytest.mark.parametrize(
    ("expect", "problem"),
    [
        ("{round_end: went_out}", "expect.round_end"),
        ("{rami_sec: 1}", "expect.rami_sec"),
        ("{round: true}", "expect.round"),
        ("{game_loser: seat}", "expect.game_loser"),
        ("{roundend: out}", "did you mean `round_end`"),
    ],
)
def test_round_keys_are_typed(expect: str, problem: str) -> None:
    result = run(VOLEUR_OUT + f"  - expect: {expect}\n")
    assert not result.passed and problem in result.message


def test_an_empty_expect_checks_nothing() -> None:
    result = run(VOLEUR_OUT + "  - {next_round: true, expect: {}}\n")
    assert not result.passed and "checks nothing" in result.message


def test_next_round_before_the_round_is_over_is_refused() -> None:
    text = VOLEUR_OUT.replace("  - {player: 0, meld: [[3S, 4S, 5S]]}\n", "")
    assert not run(text + "  - {next_round: true, expect: {round: 2}}\n").passed
    assert run(text + "  - {next_round: true, expect: {error: wrong_phase}}\n").passed


def test_next_round_setup_keys_are_closed() -> None:
    result = run(VOLEUR_OUT + "  - {next_round: {hands: [[2C], [3C]], dealt: true}, expect: {round: 2}}\n")
    assert not result.passed and "unknown key 'dealt'" in result.message


def test_next_round_setup_breaking_the_closed_world_is_setup_invalid() -> None:
    result = run(VOLEUR_OUT + "  - {next_round: {hands: [[2C, 2C, 2C], [3C]]}, expect: {round: 2}}\n")
    assert not result.passed and "setup_invalid" in result.message and result.step == 3


def test_the_seeded_next_round_is_the_engines_own() -> None:
    """A next round dealt from the seed in a scenario is the round Game deals."""
    profile = load_profile("rami51")
    game = Game.new(profile, 3, seed=5)
    table = start(profile, {}, seed=5, players=3)
    assert table.game.state.to_json() == game.state.to_json()


def test_a_seeded_start_needs_the_player_count() -> None:
    result = run("variant: rami51\nseed: 3\nsteps: [{expect: {round: 1}}]\n")
    assert not result.passed and "players" in result.message


def test_a_seeded_setup_names_no_cards() -> None:
    result = run(
        "variant: rami51\nseed: 3\nplayers: 2\nsetup: {stock: [2C]}\nsteps: [{expect: {round: 1}}]\n"
    )
    assert not result.passed and "needs `hands`" in result.message


def test_a_seeded_deal_of_a_later_round() -> None:
    text = (
        "variant: rami51\nseed: 3\nplayers: 2\nsetup: {round: 4, first_player: 1, scores: [20, 30]}\n"
        "steps: [{expect: {round: 4, first_player: 1, turn: 1, scores: [20, 30], hand_sizes: [13, 13]}}]\n"
    )
    assert run(text).passed


@pytest.mark.parametrize("cap", ["0", "true", "100000"])
def test_turn_cap_is_bounded(cap: str) -> None:
    result = run(
        f"variant: voleur\nseed: 1\nplayers: 2\nturn_cap: {cap}\nsteps: [{{expect: {{round: 1}}}}]\n"
    )
    assert not result.passed and "turn_cap" in result.message


def test_play_out_stops_at_the_turn_cap() -> None:
    text = (
        "variant: voleur\nseed: 1\nplayers: 2\nturn_cap: 10\n"
        "steps: [{play_out: true, expect: {round_end: capped, round_over: false, turns: 11}}]\n"
    )
    result = run(text)
    assert result.passed, result.message


def test_play_out_a_number_of_turns() -> None:
    text = "variant: rami51\nseed: 1\nplayers: 2\nsteps: [{play_out: {turns: 5}, expect: {stock_size: 76, turns: 6}}]\n"
    result = run(text)
    assert result.passed, result.message
    bad = run(text.replace("turns: 5", "turns: -1"))
    assert not bad.passed and "play_out: turns" in bad.message


def test_a_reshuffle_order_naming_a_card_not_reshuffled_fails_the_scenario() -> None:
    text = """
variant: rami51
setup:
  hands: [[2C, 5D, 9S], [3H, 7H, KD]]
  discard: [4S, 8C, QH, 6D]
  reshuffle: [QH, 4S, 8D]
steps:
  - {player: 0, draw: stock, expect: {stock_size: 2}}
"""
    result = run(text)
    assert not result.passed and "8D is not among the cards reshuffled" in result.message


def test_hook_rami_reshuffle() -> None:
    """The hook's order becomes the stock; a list that is not the same cards is a plugin error."""
    from rami_core.profile.hooks import PluginError
    from rami_core.profile.hookspecs import hookimpl
    from rami_core.referee.position import build_setup

    class Highest:
        name = "highest_first"

        def __init__(self, broken: bool = False) -> None:
            self.broken = broken

        @hookimpl
        def rami_reshuffle(self, rules: Any, state: Any, cards: list) -> list | None:
            if self.broken:
                return cards[1:]
            return sorted(cards, key=lambda c: c.rank)

    profile = load_profile("rami51")
    setup = {"hands": [["2C", "5D"], ["3H", "7H"]], "discard": ["4S", "KC", "8C", "6D"]}
    from rami_core.game.actions import Draw
    from rami_core.profile.resolve import rules_for

    base = build_setup(profile, setup)
    game = Game(profile, 2, base.state, rules=rules_for(profile, 2, [Highest()]))
    game.apply(Draw(0, "stock"))
    assert game.state.hands[0][-1].face == parse_card("KC").face
    broken = Game(profile, 2, base.state.copy(), rules=rules_for(profile, 2, [Highest(broken=True)]))
    with pytest.raises(PluginError, match="exactly the cards"):
        broken.apply(Draw(0, "stock"))


PRESETS = ["voleur", "rami51", "rami71", "simple", "kaluki", "classic"]


@settings(max_examples=12, deadline=None)
@given(
    preset=st.sampled_from(PRESETS),
    seed=st.integers(min_value=0, max_value=10**6),
    players=st.integers(min_value=2, max_value=4),
)
def test_seeded_rounds_keep_the_deck_and_follow_the_engine(preset: str, seed: int, players: int) -> None:
    """From any seed: a scenario's seeded deal is Game.new's; plain turns lose
    no card; the next round is the one the engine deals, with its number and
    first player, and the scores carried over."""
    profile = load_profile(preset)
    assume(profile.allows_players(players))
    table = start(profile, {}, seed=seed, players=players)
    game = table.game
    assert game.state.to_json() == Game.new(profile, players, seed).state.to_json()
    deck = sorted(game.state.all_cards())
    from rami_core.conformance.scenario import _play_out

    assert _play_out(table, 200) is None
    assert sorted(game.state.all_cards()) == deck
    if game.state.phase != "over" or game.state.game_over:
        return
    round_no, first, _ = game.next_deal()
    scores = list(game.state.scores)
    game.next_round()
    s = game.state
    assert (s.round_no, s.first_player, s.scores) == (round_no, first, scores)
    assert sorted(s.all_cards()) == deck


def test_a_seed_in_the_setup_is_the_same_start() -> None:
    top = "variant: rami51\nseed: 3\nplayers: 2\nsteps: [{expect: {round: 1, stock_size: 81}}]\n"
    inside = "variant: rami51\nsetup: {seed: 3, players: 2}\nsteps: [{expect: {round: 1, stock_size: 81}}]\n"
    assert run(top).passed and run(inside).passed
    table_top = start(load_profile("rami51"), {}, seed=3, players=2)
    table_in = start(load_profile("rami51"), {"seed": 3, "players": 2})
    assert table_top.game.state.to_json() == table_in.game.state.to_json()


def test_next_round_setup_may_be_nested_and_checks_what_the_game_gives() -> None:
    nested = (
        "  - {next_round: {setup: {hands: [[2C], [3C]], round: 2, scores: [0, 28]}}, expect: {round: 2}}\n"
    )
    assert run(VOLEUR_OUT + nested).passed
    wrong = nested.replace("scores: [0, 28]", "scores: [0, 0]")
    result = run(VOLEUR_OUT + wrong)
    assert not result.passed and "scores: the game gives [0, 28]" in result.message
