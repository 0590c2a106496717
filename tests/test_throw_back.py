"""The throw-back rule (discard.throw_back): Rules says it once, the engine
refuses with discard_forbidden, and neither the hint nor the bots propose it."""

from __future__ import annotations

import pytest

from rami_core.cards import parse_card, parse_cards
from rami_core.game import actions as A
from rami_core.players.bots import make_bot
from rami_core.players.hint import suggest
from rami_core.profile.loader import load_profile
from rami_core.referee.engine import Game
from rami_core.referee.position import build_setup
from rami_core.words.errors import RuleError

SETUP = {"hands": [["2C", "5D", "9S"], ["3H", "4H"]], "stock": ["QD"], "discard": ["KH"]}


@pytest.mark.parametrize("variant", ["rami51", "rami71", "kaluki", "classic", "simple", "voleur"])
def test_no_preset_forbids_it(variant):
    # None of the rule pages the presets follow forbids throwing the card back.
    assert load_profile(variant).discard.throw_back is True


def test_the_house_file_forbids_it():
    assert load_profile("rami51_no_throw_back").discard.throw_back is False


def test_rules_say_it_and_the_engine_refuses():
    game = build_setup(load_profile("rami51_no_throw_back"), SETUP)
    game.apply(A.Draw(0, "discard"))
    assert game.rules.throw_back_forbidden(game.state, parse_card("KH"))
    assert not game.rules.throw_back_forbidden(game.state, parse_card("9S"))
    with pytest.raises(RuleError) as e:
        game.apply(A.Discard(0, parse_card("KH")))
    assert e.value.code == "discard_forbidden"


def test_the_hint_and_the_bots_never_throw_back():
    for bot_name in ("greedy", "expert", "random", None):
        game = build_setup(load_profile("rami51_no_throw_back"), SETUP)
        game.apply(A.Draw(0, "discard"))
        if bot_name is None:
            plan = suggest(game.view(0), game.rules)
            assert plan["discard"] is not None and plan["discard"].face != parse_card("KH").face
            continue
        bot = make_bot(bot_name, 1)
        for _ in range(10):
            if game.state.turn != 0:
                break
            action = bot.choose(game.view(0), game.rules)
            assert not (isinstance(action, A.Discard) and action.card.face == parse_card("KH").face), bot_name
            game.apply(action)
        assert parse_cards("KH")[0].face in [c.face for c in game.state.hands[0]]


def test_a_game_of_rami51_between_bots_has_no_throw_back():
    game = Game.new(load_profile("rami51_no_throw_back"), 2, seed=5)
    bots = [make_bot("greedy", s) for s in range(2)]
    for _ in range(400):
        s = game.state
        if s.phase == "over":
            break
        action = bots[s.turn].choose(game.view(s.turn), game.rules)
        if isinstance(action, A.Discard) and s.taken_discard is not None:
            assert action.card.face != s.taken_discard.face
        game.apply(action)
