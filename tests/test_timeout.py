"""Turn time limit (issue 4, part 3).

`actions.Timeout(seat)` plays the profile's default when the clock runs out:
draw if the seat has not drawn, then end the turn (voleur) or discard the card
drawn (rami51). Where the turn cannot end as it stands (a swapped joker or a
taken discard still owed) what the seat did this turn is undone first, and the
`timed_out` event says so with `undone: True`.
"""

from __future__ import annotations

from collections import Counter

import pytest

from rami_core.cards import Card, parse_card
from rami_core.game import actions as A
from rami_core.game.state import DRAW, LAY, OVER
from rami_core.profile.loader import load_profile
from rami_core.referee.engine import Game
from rami_core.referee.position import build_setup
from rami_core.words.errors import RuleError


def C(text: str) -> Card:
    return parse_card(text)


def faces(cards) -> list[str]:
    from rami_core.cards import format_card

    return sorted(format_card(c) for c in cards)


def kinds(game: Game, since: int = 0) -> list[str]:
    return [e.kind for e in game.events[since:]]


def timed_out_event(game: Game):
    return next(e for e in reversed(game.events) if e.kind == "timed_out")


# --------------------------------------------------------------------------- the profiles' clocks


def test_time_limit_is_a_profile_setting():
    assert load_profile("voleur").turn.time_limit == 120
    assert load_profile("rami51").turn.time_limit is None
    assert load_profile("rami51", ["turn.time_limit=45"]).turn.time_limit == 45
    assert Game.new(load_profile("voleur"), 2, seed=0).profile.turn.time_limit == 120


# --------------------------------------------------------------------------- voleur: no discard


VOLEUR_SETUP = {
    "hands": [["3S", "4S", "5S", "9D", "KC"], ["2H", "7D", "8C", "QH"]],
    "stock": ["6S", "JD", "10C", "4H"],
    "turn": 0,
}


def test_voleur_timeout_before_drawing_draws_and_ends_the_turn():
    g = build_setup(load_profile("voleur"), VOLEUR_SETUP)
    g.apply(A.Timeout(0))
    s = g.state
    assert faces(s.hands[0]) == faces(map(C, ["3S", "4S", "5S", "9D", "KC", "6S"]))
    assert s.turn == 1 and s.phase == DRAW
    assert s.discard == []
    assert kinds(g) == ["timed_out", "drawn", "turn_ended"]
    ev = g.events
    assert not ev[0].data.get("undone")
    assert ev[1].data == {"source": "stock"} and ev[1].private == {"card": "6S"}
    assert ev[1].for_seat(1).private == {} and ev[1].for_seat(None).private == {}
    assert ev[2].data == {"next": 1}


def test_voleur_timeout_after_drawing_ends_the_turn():
    g = build_setup(load_profile("voleur"), VOLEUR_SETUP)
    g.apply(A.Draw(0, "stock"))
    hand = list(g.state.hands[0])
    g.apply(A.Timeout(0))
    assert g.state.hands[0] == hand
    assert g.state.turn == 1 and g.state.phase == DRAW
    assert kinds(g) == ["drawn", "timed_out", "turn_ended"]


def test_voleur_timeout_keeps_what_was_laid():
    g = build_setup(load_profile("voleur"), VOLEUR_SETUP)
    g.apply(A.Draw(0, "stock"))
    g.apply(A.Meld(0, ((C("3S"), C("4S"), C("5S"), C("6S")),)))
    assert g.state.opened[0]
    g.apply(A.Timeout(0))
    s = g.state
    assert s.opened[0] and len(s.table) == 1
    assert faces(s.hands[0]) == faces(map(C, ["9D", "KC"]))
    assert s.turn == 1
    assert not timed_out_event(g).data.get("undone")


def test_voleur_timeout_on_the_last_stock_card_ends_the_round():
    setup = dict(VOLEUR_SETUP, stock=["6S"])
    g = build_setup(load_profile("voleur"), setup)
    g.apply(A.Timeout(0))
    s = g.state
    assert s.phase == OVER and s.round_end == "empty_stock"
    assert kinds(g) == ["timed_out", "drawn", "round_over"] + (["game_over"] if s.game_over else [])
    with pytest.raises(RuleError) as e:
        g.apply(A.Timeout(1))
    assert e.value.code == "wrong_phase"


def test_timeout_of_the_wrong_seat_is_refused():
    g = build_setup(load_profile("voleur"), VOLEUR_SETUP)
    before = g.state.to_json()
    with pytest.raises(RuleError) as e:
        g.apply(A.Timeout(1))
    assert e.value.code == "not_your_turn"
    assert g.state.to_json() == before and g.events == [] and g.log == []


def test_voleur_whole_round_of_timeouts():
    g = Game.new(load_profile("voleur"), 3, seed=2)
    stock = len(g.state.stock)
    for _ in range(stock):
        g.apply(A.Timeout(g.state.turn))
    assert g.state.phase == OVER and g.state.round_end == "empty_stock"
    assert sum(1 for e in g.events if e.kind == "timed_out") == stock
    assert sum(1 for e in g.events if e.kind == "drawn") == stock


# --------------------------------------------------------------------------- rami51: a discard ends the turn


def rami51(*overrides: str):
    return load_profile("rami51", ["turn.time_limit=60", *overrides])


R51_SETUP = {
    "hands": [["2C", "5D", "9S", "KD", "6H"], ["3S", "4S", "8D", "8C", "QD"]],
    "stock": ["4C", "7S", "10D"],
    "discard": ["6C"],
    "table": [{"cards": ["5H", "JK", "7H"], "owner": 1}],
    "opened": [True, True],
    "turn": 0,
}


def test_rami51_timeout_before_drawing_draws_and_discards_that_card():
    g = build_setup(rami51(), R51_SETUP)
    hand = list(g.state.hands[0])
    g.apply(A.Timeout(0))
    s = g.state
    assert s.hands[0] == hand
    assert faces(s.discard) == faces([C("6C"), C("4C")]) and s.discard[-1].face == C("4C").face
    assert len(s.stock) == 2
    assert s.turn == 1 and s.phase == DRAW
    assert kinds(g) == ["timed_out", "drawn", "discarded", "turn_ended"]
    assert g.events[1].private == {"card": "4C"} and g.events[1].data == {"source": "stock"}
    assert g.events[2].data == {"card": "4C"}


def test_rami51_timeout_after_drawing_discards_the_drawn_card():
    # Where the card taken from the discard pile may go back (rami51 forbids it: see tests/test_throw_back.py).
    g = build_setup(rami51("discard.throw_back=true"), R51_SETUP)
    g.apply(A.Draw(0, "discard"))
    g.apply(A.Timeout(0))
    s = g.state
    assert s.discard[-1].face == C("6C").face and len(s.discard) == 1
    assert faces(s.hands[0]) == faces(map(C, R51_SETUP["hands"][0]))
    assert kinds(g) == ["drawn", "timed_out", "discarded", "turn_ended"]
    assert not timed_out_event(g).data.get("undone")


def test_rami51_timeout_undoes_a_swap_whose_joker_is_owed():
    g = build_setup(rami51(), R51_SETUP)
    start = g.state.copy()
    g.apply(A.Draw(0, "stock"))
    g.apply(A.Swap(0, (C("6H"),), 0))
    assert g.state.jokers_to_replay
    # Ending the turn is refused as it stands...
    with pytest.raises(RuleError) as e:
        g.apply(A.Discard(0, C("4C")))
    assert e.value.code == "joker_not_reused"
    n = len(g.events)
    g.apply(A.Timeout(0))
    s = g.state
    # ...so the swap is undone: the joker is back in its run, the 6H in the hand.
    assert [m.cards for m in s.table] == [m.cards for m in start.table]
    assert faces(s.hands[0]) == faces(start.hands[0])
    assert s.jokers_to_replay == []
    # The default turn is then played from the turn's start: draw, discard it.
    assert s.discard[-1].face == C("4C").face and len(s.stock) == len(start.stock) - 1
    assert s.turn == 1 and s.phase == DRAW
    assert timed_out_event(g).data == {"undone": True}
    assert kinds(g, n) == ["timed_out", "drawn", "discarded", "turn_ended"]
    assert Counter(s.all_cards()) == Counter(start.all_cards())


def test_rami51_timeout_undoes_an_opening_whose_taken_discard_is_owed():
    p = rami51("draw.taken_discard_must_be_laid=true")
    setup = {
        "hands": [
            ["9H", "10H", "JH", "QH", "KH", "2C", "5D", "AS", "AD", "AH"],
            ["3S", "4S", "8D", "8C", "QD"],
        ],
        "stock": ["4C", "7S", "10D"],
        "discard": ["KC"],
        "turn": 0,
    }
    # Opens with melds that leave the KC taken from the discard pile in hand: still owed.
    g = build_setup(p, setup)
    start = g.state.copy()
    g.apply(A.Draw(0, "discard"))
    g.apply(A.Meld(0, ((C("9H"), C("10H"), C("JH"), C("QH"), C("KH")), (C("AS"), C("AD"), C("AH")))))
    s = g.state
    assert s.opened[0] and s.taken_discard is not None and len(s.table) == 2
    with pytest.raises(RuleError) as e:
        g.apply(A.Discard(0, C("KC")))
    assert e.value.code == "discard_not_laid"
    with pytest.raises(RuleError) as e:
        g.apply(A.Discard(0, C("2C")))
    assert e.value.code == "discard_not_laid"
    n = len(g.events)
    g.apply(A.Timeout(0))
    s = g.state
    # Undone: no meld, not opened, the KC back on the discard pile under the
    # card discarded; the default turn drew from the stock and discarded that.
    assert s.table == [] and s.opened[0] is False
    assert faces(s.hands[0]) == faces(start.hands[0])
    assert [c.face for c in s.discard] == [C("KC").face, C("4C").face]
    assert len(s.stock) == len(start.stock) - 1
    assert s.turn == 1
    assert timed_out_event(g).data == {"undone": True}
    assert kinds(g, n) == ["timed_out", "drawn", "discarded", "turn_ended"]
    drawn = g.events[n + 1]
    assert drawn.data == {"source": "stock"} and drawn.private == {"card": "4C"}
    assert Counter(s.all_cards()) == Counter(start.all_cards())


def test_rami51_timeout_when_the_drawn_card_may_not_be_discarded():
    """rami51's no_playable_discard forbids discarding a card that could be laid
    off (a joker always can): the clock still ends the turn, with another card,
    and the events tell what was drawn and what was discarded."""
    setup = dict(R51_SETUP, stock=["JK", "7S"], table=[{"cards": ["9H", "10H", "JH"], "owner": 1}])
    g = build_setup(rami51(), setup)
    with_joker = g.state.copy()
    g.apply(A.Timeout(0))
    s = g.state
    assert s.turn == 1 and s.phase == DRAW
    assert any(c.face == C("JK").face for c in s.hands[0])
    discarded = s.discard[-1]
    assert discarded.face != C("JK").face
    assert discarded in with_joker.hands[0]
    assert kinds(g) == ["timed_out", "drawn", "discarded", "turn_ended"]
    assert g.events[1].private == {"card": "JK"}
    from rami_core.cards import format_card

    assert g.events[2].data == {"card": format_card(discarded)}


def test_timeout_events_account_for_every_card():
    """Following the referee's event stream alone, the hand sizes add up."""
    g = build_setup(
        rami51("draw.taken_discard_must_be_laid=true"), dict(R51_SETUP, table=[], opened=[False, False])
    )
    g.apply(A.Draw(0, "discard"))
    g.apply(A.Timeout(0))
    size = 5
    for e in g.events:
        if e.kind == "timed_out" and e.data.get("undone"):
            size = 5  # back to the turn's start
        elif e.kind == "drawn":
            size += 1
        elif e.kind == "discarded":
            size -= 1
    assert size == len(g.state.hands[0]) == 5


def test_timeout_plugin_hook_is_called():
    from rami_core.profile.hookspecs import hookimpl

    seen = []

    class Clock:
        name = "clock"

        @hookimpl
        def rami_timeout(self, rules, state, seat):
            seen.append((seat, state.turn))

    g = Game.new(rami51(), 2, seed=3, plugins=[Clock()])
    seat = g.state.turn
    g.apply(A.Timeout(seat))
    assert seen == [(seat, 1 - seat)]


def test_a_round_of_timeouts_in_rami51_rebuilds_the_stock():
    g = Game.new(rami51(), 2, seed=6)
    for _ in range(100):
        g.apply(A.Timeout(g.state.turn))
    s = g.state
    assert s.phase in (DRAW, LAY) and s.reshuffles >= 1
    assert [len(h) for h in s.hands] == [13, 13]
    assert any(e.kind == "stock_rebuilt" for e in g.events)
