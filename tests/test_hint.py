"""The hint is the bots' planning seen from a seat: the partner rule and the
plugins reach it as they reach the engine."""

from __future__ import annotations

from rami_core.cards import parse_card
from rami_core.game import actions as A
from rami_core.game.state import LAY
from rami_core.players.hint import suggest
from rami_core.profile.loader import load_profile
from rami_core.referee.engine import Game


def cards(text: str):
    return [parse_card(x) for x in text.split()]


def test_rami71_hint_proposes_the_partner_rule_lay() -> None:
    """rami71, four players in two teams: once the partner (seat 2) has opened,
    a run without a joker opens for seat 0; 2H 3H 4H is far below 71 points
    and has no set, yet the engine accepts it and the hint proposes it."""
    game = Game.new(load_profile("rami71"), 4, seed=5)
    assert game.rules.teams
    s = game.state
    s.turn = 0
    s.phase = LAY
    s.drew_from = "stock"
    s.opened = [False, False, True, False]
    s.hands[0] = cards("2H 3H 4H 9C KD 7S")
    plan = suggest(game.view(0), game.rules)
    melds = [m for a in plan["actions"] if isinstance(a, A.Meld) for m in a.melds]
    assert tuple(cards("2H 3H 4H")) in melds, plan
    # The engine agrees: the proposed actions and the discard all play.
    for a in plan["actions"]:
        game.apply(a)
    assert game.state.opened[0]
    assert plan["discard"] is not None
    game.apply(A.Discard(0, plan["discard"]))


def test_hint_without_the_partner_asks_for_the_full_opening() -> None:
    game = Game.new(load_profile("rami71"), 4, seed=5)
    s = game.state
    s.turn = 0
    s.phase = LAY
    s.drew_from = "stock"
    s.opened = [False, False, False, False]
    s.hands[0] = cards("2H 3H 4H 9C KD 7S")
    plan = suggest(game.view(0), game.rules)
    assert plan["actions"] == []
    assert plan["discard"] is not None


def test_a_hinted_lay_off_of_the_ace_of_spades_parses() -> None:
    """The hint writes a lay off of the ace of spades as `l AS 5`: AS is the
    card there, not the keyword of `l JK 3 as 5H`."""
    from rami_core.terminal.commands import parse

    cmd = parse("l AS 5")
    assert [(it.card, it.to, it.as_) for it in cmd.items] == [(parse_card("AS"), 4, None)]
    joker = parse("l JK 3 as 5H")
    assert joker.items[0].as_ == parse_card("5H")


def test_the_pages_hint_says_the_moves_the_terminals_types() -> None:
    """The same plan, said two ways: the terminal's `h` gives the commands to
    type (m ..., x ...), the table page (nothing typed there) the moves in
    words, in both languages, the same cards named."""
    import re

    from rami_core.players.hint import hint_words
    from rami_core.terminal.dispatch import command_text
    from rami_core.words.messages import Messages

    game = Game.new(load_profile("rami51"), 2, seed=5)
    s = game.state
    s.turn, s.phase, s.drew_from = 0, LAY, "stock"
    s.opened = [True, False]
    s.hands[0] = cards("7H 8H 9H KS KC KD 2C")
    view = game.view(0)
    for lang, lay, discard in (("en", "lay ", "discard "), ("fr", "posez ", "défaussez ")):
        msg = Messages(lang)
        ok, typed = hint_words(view, game.rules, msg, str, typed=lambda a: command_text(a, str))
        ok2, said = hint_words(view, game.rules, msg, str)
        assert ok and ok2
        assert re.search(r"\bm \S", typed) and "(x " in typed
        assert lay in said and discard in said and "(x " not in said and not re.search(r"\bm \S", said)
        named = re.compile(r"\b(?:10|[2-9AJQK])[SHDC]\b")
        assert set(named.findall(typed)) == set(named.findall(said)) != set()
