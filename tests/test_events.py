"""Events (issue 4, part 6).

Every accepted action produces its events, in order, and a refused one none;
`subscribe` gives each seat its private stream (others' stock draws hidden);
a plugin observer sees every event, and an observer that fails stops the
action with a PluginError naming the plugin and the hook, the game unchanged.
"""

from __future__ import annotations

import random

import pytest

from rami_core.cards import Card, parse_card
from rami_core.game import actions as A
from rami_core.game.state import OVER
from rami_core.profile.hooks import PluginError
from rami_core.profile.hookspecs import hookimpl
from rami_core.profile.loader import load_profile
from rami_core.referee.engine import Game
from rami_core.referee.position import build_setup
from rami_core.words.errors import RuleError
from tests.support.playout import RandomBot, Tally, play_round

ALL_KINDS = {
    "drawn",
    "opened",
    "laid",
    "laid_off",
    "swapped",
    "rearranged",
    "discarded",
    "turn_ended",
    "stock_rebuilt",
    "round_over",
    "game_over",
    "round_dealt",
    "timed_out",
}


# The first event each accepted action produces.
FIRST = {
    A.Draw: ("drawn", "stock_rebuilt"),
    A.Meld: ("opened", "laid"),
    A.LayOff: ("laid_off",),
    A.Swap: ("swapped",),
    A.Rearrange: ("rearranged",),
    A.Discard: ("discarded",),
    A.EndTurn: ("turn_ended", "round_over"),
    A.Timeout: ("timed_out",),
}


def C(text: str) -> Card:
    return parse_card(text)


def cs(*texts: str) -> tuple[Card, ...]:
    return tuple(C(t) for t in texts)


def new_events(game: Game, action) -> list[dict]:
    n = len(game.events)
    game.apply(action)
    return [e.to_dict() for e in game.events[n:]]


def snapshot(game: Game):
    return game.state.to_json(), list(game.log), list(game.events)


class Spy:
    """A plugin that records every event it observes."""

    name = "spy"

    def __init__(self):
        self.seen = []

    @hookimpl
    def rami_event(self, rules, event):
        self.seen.append(event)


class Boom:
    """A plugin observer with a bug: it fails on one kind of event."""

    name = "boom"

    def __init__(self, kind: str):
        self.kind = kind

    @hookimpl
    def rami_event(self, rules, event):
        if event.kind == self.kind:
            raise KeyError("oops")


# --------------------------------------------------------------------------- each action's events


R51 = {
    "hands": [["9H", "10H", "JH", "KS", "KH", "KC", "2C", "5D", "4D"], ["3S", "4S", "8D", "8C", "QD"]],
    "stock": ["QH", "4C", "7S", "9C"],
    "discard": ["6C"],
    "turn": 0,
}


def test_draw_from_the_stock_is_private_and_from_the_discard_public():
    g = build_setup(load_profile("rami51"), R51)
    (drawn,) = new_events(g, A.Draw(0, "stock"))
    assert drawn == {"kind": "drawn", "seat": 0, "source": "stock", "card": "QH"}
    e = g.events[-1]
    assert e.private == {"card": "QH"} and "card" not in e.data
    assert e.for_seat(0).to_dict()["card"] == "QH"
    assert "card" not in e.for_seat(1).to_dict()
    assert "card" not in e.for_seat(None).to_dict()
    g = build_setup(load_profile("rami51"), R51)
    (drawn,) = new_events(g, A.Draw(0, "discard"))
    assert drawn == {"kind": "drawn", "seat": 0, "source": "discard", "card": "6C"}
    assert g.events[-1].for_seat(1).to_dict()["card"] == "6C"


def test_opening_meld_lay_off_discard_and_turn_end():
    g = build_setup(load_profile("rami51"), R51)
    new_events(g, A.Draw(0, "stock"))
    ev = new_events(g, A.Meld(0, (cs("9H", "10H", "JH", "QH"), cs("KS", "KH", "KC"))))
    assert ev == [
        {"kind": "opened", "seat": 0},
        {"kind": "laid", "seat": 0, "melds": [["9H", "10H", "JH", "QH"], ["KS", "KH", "KC"]]},
    ]
    ev = new_events(g, A.Discard(0, C("2C")))
    assert ev == [
        {"kind": "discarded", "seat": 0, "card": "2C"},
        {"kind": "turn_ended", "seat": 0, "next": 1},
    ]
    assert new_events(g, A.Draw(1, "stock")) == [
        {"kind": "drawn", "seat": 1, "source": "stock", "card": "4C"}
    ]
    assert g.events[-1].for_seat(0).to_dict() == {"kind": "drawn", "seat": 1, "source": "stock"}


def test_later_meld_has_no_opened_event():
    g = build_setup(
        load_profile("rami51"),
        {
            "hands": [["5D", "6D", "7D", "8H", "2C", "AS"], ["3S", "4S", "8D", "8C", "QD"]],
            "stock": ["9H", "4C"],
            "discard": ["6C"],
            "table": [{"cards": ["9S", "10S", "JS"], "owner": 0}],
            "opened": [True, False],
        },
    )
    new_events(g, A.Draw(0, "stock"))
    assert new_events(g, A.Meld(0, (cs("5D", "6D", "7D"),))) == [
        {"kind": "laid", "seat": 0, "melds": [["5D", "6D", "7D"]]}
    ]


def test_lay_off_event():
    g = build_setup(
        load_profile("rami51"),
        {
            "hands": [["8S", "QS", "2C", "AD"], ["3S", "4S", "8D"]],
            "stock": ["KH", "4C"],
            "discard": ["6C"],
            "table": [{"cards": ["9S", "10S", "JS"], "owner": 1}, {"cards": ["7H", "7D", "7C"], "owner": 1}],
            "opened": [True, True],
        },
    )
    new_events(g, A.Draw(0, "stock"))
    ev = new_events(g, A.LayOff(0, (A.LayOffItem(C("8S"), 0), A.LayOffItem(C("QS"), 0))))
    assert ev == [
        {"kind": "laid_off", "seat": 0, "cards": [{"card": "8S", "to": 0}, {"card": "QS", "to": 0}]}
    ]
    assert [c.face for c in g.state.table[0].cards] == [C(x).face for x in ("8S", "9S", "10S", "JS", "QS")]


def test_swap_event():
    g = build_setup(
        load_profile("rami51"),
        {
            "hands": [["6H", "2C", "9D", "AD"], ["3S", "4S", "8D"]],
            "stock": ["KH", "4C"],
            "discard": ["6C"],
            "table": [{"cards": ["5H", "JK", "7H"], "owner": 1}],
            "opened": [True, True],
        },
    )
    new_events(g, A.Draw(0, "stock"))
    ev = new_events(g, A.Swap(0, cs("6H"), 0))
    assert ev == [{"kind": "swapped", "seat": 0, "given": ["6H"], "meld": 0}]


def test_rearrange_event_in_voleur():
    g = build_setup(
        load_profile("voleur"),
        {
            "hands": [["5S", "9D", "KC"], ["2H", "7D", "8C"]],
            "stock": ["QH", "4H"],
            "table": [
                {"cards": ["2S", "3S", "4S", "5S", "6S", "7S"], "owner": 1},
                {"cards": ["3S", "4S", "JK"], "owner": 1},
            ],
            "opened": [True, True],
        },
    )
    new_events(g, A.Draw(0, "stock"))
    ev = new_events(
        g, A.Rearrange(0, (cs("2S", "3S", "4S"), cs("5S", "6S", "7S"), cs("3S", "4S", "5S", "JK")))
    )
    assert ev == [
        {
            "kind": "rearranged",
            "seat": 0,
            "table": [["2S", "3S", "4S"], ["5S", "6S", "7S"], ["3S", "4S", "5S", "JK"]],
            "added": [{"to": 2, "cards": ["5S"]}],
            # the run 2S..7S stays as 2S 3S 4S; its 5S 6S 7S moved to the new meld 2
            "moved": [{"from": 0, "to": 1, "cards": ["5S", "6S", "7S"]}],
        }
    ]
    assert new_events(g, A.EndTurn(0)) == [{"kind": "turn_ended", "seat": 0, "next": 1}]


def test_stock_rebuilt_event():
    g = build_setup(
        load_profile("rami51"),
        {"hands": [["2C", "5D", "9S"], ["3S", "4S", "8D"]], "stock": [], "discard": ["6C", "7H", "KD", "QS"]},
    )
    ev = new_events(g, A.Draw(0, "stock"))
    assert [e["kind"] for e in ev] == ["stock_rebuilt", "drawn"]
    assert ev[0]["stock_size"] == 3  # the pile but its top card, before the draw
    assert [c.face for c in g.state.discard] == [C("QS").face]


def test_going_out_round_over_and_game_over():
    g = build_setup(
        load_profile("rami51"),
        {
            "hands": [["9H", "10H", "JH", "2C"], ["3S", "4S", "KD"]],
            "stock": ["QH", "4C"],
            "discard": ["6C"],
            "table": [{"cards": ["5D", "6D", "7D"], "owner": 0}],
            "opened": [True, True],
            "scores": [100, 490],
        },
    )
    new_events(g, A.Draw(0, "stock"))
    assert new_events(g, A.Meld(0, (cs("9H", "10H", "JH", "QH"),))) == [
        {"kind": "laid", "seat": 0, "melds": [["9H", "10H", "JH", "QH"]]}
    ]
    ev = new_events(g, A.Discard(0, C("2C")))
    assert [e["kind"] for e in ev] == ["discarded", "round_over", "game_over"]
    over = ev[1]
    assert over["winner"] == 0 and over["how"] == "out" and over["rami_sec"] is False
    assert over["penalties"] == [0, 17] and over["scores"] == [100, 507]
    assert over["hands"] == [[], ["3S", "4S", "KD"]]
    assert ev[2] == {"kind": "game_over", "seat": None, "winner": 0, "scores": [100, 507]}
    assert g.state.phase == OVER


def test_round_dealt_for_every_round():
    p = load_profile("voleur", ["game.target=100000"])
    g = Game.new(p, 2, seed=4)
    first = g.events[0]
    assert first.kind == "round_dealt" and first.data["round"] == 1
    assert first.data["hand_sizes"] == [13, 13] and first.data["stock_size"] == len(g.state.stock)
    assert first.data["discard_top"] is None
    while g.state.phase != OVER:
        g.apply(A.Timeout(g.state.turn))
    g.next_round()
    dealt = [e for e in g.events if e.kind == "round_dealt"]
    assert [e.data["round"] for e in dealt] == [1, 2]
    assert g.events[-1].kind == "round_dealt"
    assert g.events[-1].data["first_player"] == g.state.first_player
    g51 = Game.new(load_profile("rami51"), 3, seed=4)
    assert g51.events[0].data["discard_top"] is not None


def test_refused_action_produces_no_event():
    g = build_setup(load_profile("rami51"), R51)
    calls = []
    g.subscribe(calls.append)
    before = snapshot(g)
    for bad in (A.Draw(1, "stock"), A.Discard(0, C("2C")), A.Meld(0, (cs("2C", "5D", "4D"),))):
        with pytest.raises(RuleError):
            g.apply(bad)
    assert snapshot(g) == before and calls == []


def test_random_games_produce_every_kind_and_consistent_events():
    """Across bot games of several presets, the events are the contract's kinds,
    each action's events start with its own kind, and all kinds occur."""
    seen = set()
    for name, players, seed in [("rami51", 3, 1), ("voleur", 2, 2), ("kaluki", 2, 3), ("classic", 2, 5)]:
        spy = Spy()
        g = Game.new(load_profile(name), players, seed=seed, plugins=[spy])
        bot = RandomBot(random.Random(seed))
        mark = [len(g.events)]

        def check(game, att, err, mark=mark):  # bound now: one observer per game
            fresh = [e.kind for e in game.events[mark[0] :]]
            mark[0] = len(game.events)
            if err is not None:
                assert fresh == [], f"a refused {att.kind} produced {fresh}"
                return
            assert fresh and fresh[0] in FIRST[type(att.action)], (att.action, fresh)
            assert all(e.seat in (att.action.seat, None) for e in game.events[-len(fresh) :])
            if game.state.phase == OVER:
                assert "round_over" in fresh
            else:
                assert "round_over" not in fresh
            if game.state.turn != att.action.seat and game.state.phase != OVER:
                assert fresh[-1] == "turn_ended"

        for _ in range(2):
            play_round(g, bot, Tally(), observe=check, turn_cap=80)
            if g.state.phase != OVER or g.state.game_over:
                break
            g.next_round()
            mark[0] = len(g.events)
        seen |= {e.kind for e in g.events}
        assert {e.kind for e in g.events} <= ALL_KINDS
        # The plugin observer saw every event, in order.
        assert spy.seen == g.events
        # Stock draws are private, discard draws public.
        for e in g.events:
            if e.kind == "drawn" and e.data["source"] == "stock" and "card" in e.private:
                assert "card" not in e.data
    # timed_out and stock_rebuilt come from the timeout tests; the rest from play.
    g = Game.new(load_profile("rami51"), 2, seed=6)
    for _ in range(100):
        g.apply(A.Timeout(g.state.turn))
    seen |= {e.kind for e in g.events}
    assert seen == ALL_KINDS, ALL_KINDS - seen


# --------------------------------------------------------------------------- per-seat streams


def test_subscribe_gives_each_seat_its_private_stream():
    g = Game.new(load_profile("rami51"), 3, seed=12)
    streams = {seat: [] for seat in (0, 1, 2, None, -1)}
    for seat, out in streams.items():
        g.subscribe(out.append, seat) if seat != -1 else g.subscribe(out.append)
    bot = RandomBot(random.Random(3))
    play_round(g, bot, Tally(), turn_cap=30)
    full = g.events[1:]  # the first round_dealt came before the subscriptions
    assert streams[-1] == full
    assert any(e.private for e in full)
    for seat in (0, 1, 2, None):
        got = streams[seat]
        assert got == [e.for_seat(seat) for e in full]
        assert got == g.events_for_seat(seat)[1:]
        for e in got:
            if e.kind == "drawn" and e.data["source"] == "stock":
                if e.seat == seat:
                    assert "card" in e.to_dict() or g.state.phase == OVER
                else:
                    assert e.private == {} and "card" not in e.to_dict()
    # Each seat sees its own stock draws.
    for seat in (0, 1, 2):
        own = [
            e for e in streams[seat] if e.kind == "drawn" and e.seat == seat and e.data["source"] == "stock"
        ]
        assert own and all("card" in e.private for e in own[:-1])


def test_listener_called_after_the_state_is_committed():
    g = Game.new(load_profile("voleur"), 2, seed=1)
    states = []
    g.subscribe(lambda e: states.append((e.kind, g.state.turn, len(g.log))), seat=0)
    seat = g.state.turn
    g.apply(A.Timeout(seat))
    assert states == [(k, 1 - seat, 1) for k in ("timed_out", "drawn", "turn_ended")]


# --------------------------------------------------------------------------- plugin observers


def test_plugin_observer_sees_every_event_including_deals():
    spy = Spy()
    p = load_profile("voleur", ["game.target=100000"])
    g = Game.new(p, 2, seed=9, plugins=[spy])
    assert [e.kind for e in spy.seen] == ["round_dealt"]
    for _ in range(2):
        while g.state.phase != OVER:
            g.apply(A.Timeout(g.state.turn))
        g.next_round()
    assert spy.seen == g.events
    assert [e.kind for e in spy.seen].count("round_dealt") == 3
    assert "spy" in g.rules.hooks.names()


def test_observers_of_two_games_are_separate():
    a, b = Spy(), Spy()
    ga = Game.new(load_profile("voleur"), 2, seed=1, plugins=[a])
    gb = Game.new(load_profile("rami51"), 2, seed=1, plugins=[b])
    ga.apply(A.Timeout(ga.state.turn))
    assert a.seen == ga.events and b.seen == gb.events and len(b.seen) == 1


@pytest.mark.parametrize("kind", ["drawn", "turn_ended", "discarded"])
def test_failing_observer_raises_plugin_error_and_changes_nothing(kind):
    g = Game.new(load_profile("rami51"), 2, seed=3, plugins=[Boom(kind)])
    calls = []
    g.subscribe(calls.append)
    seat = g.state.turn
    before = snapshot(g)
    with pytest.raises(PluginError) as e:
        g.apply(A.Timeout(seat))
    err = e.value
    assert err.plugin == "boom" and err.hook == "rami_event"
    assert "boom" in str(err) and "rami_event" in str(err) and "KeyError" in str(err)
    assert snapshot(g) == before
    assert calls == []
    # The same action by hand fails the same way and changes nothing either.
    if kind != "drawn":
        g.apply(A.Draw(seat, "stock"))  # boom only minds the discard and the turn's end
    mid = snapshot(g)
    with pytest.raises(PluginError):
        if kind == "drawn":
            g.apply(A.Draw(seat, "stock"))
        else:
            g.apply(A.Discard(seat, Card(*g.state.hands[seat][-1].face)))
    assert snapshot(g) == mid


def test_failing_observer_on_a_deal():
    with pytest.raises(PluginError) as e:
        Game.new(load_profile("rami51"), 2, seed=3, plugins=[Boom("round_dealt")])
    assert e.value.plugin == "boom" and e.value.hook == "rami_event"

    class LaterBoom(Boom):
        @hookimpl
        def rami_event(self, rules, event):
            if event.kind == "round_dealt" and event.data["round"] == 2:
                raise RuntimeError("no second round")

    p = load_profile("voleur", ["game.target=100000"])
    g = Game.new(p, 2, seed=3, plugins=[LaterBoom("")])
    while g.state.phase != OVER:
        g.apply(A.Timeout(g.state.turn))
    before = snapshot(g)
    with pytest.raises(PluginError) as e:
        g.next_round()
    assert "RuntimeError" in str(e.value)
    assert snapshot(g) == before and g.state.phase == OVER
