"""Private views (issue 4, part 5).

`Game.view(seat)` in every phase (draw, lay, round over, game over) of every
preset gives the seat its own hand and the public table, never another seat's
hand before the round ends, never the stock's order, never the seed. The leak
tests change only hidden information (another hand's cards swapped with stock
cards, the stock's order, the seed, which deck a card came from) and check the
view does not change. A seat record (`savegame.seat_record`) names no card the
seat has not seen.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections import Counter
from pathlib import Path

import pytest

from rami_core.cards import Card, format_card, parse_card, sort_key
from rami_core.game import actions as A
from rami_core.game.state import DRAW, LAY, OVER, GameState
from rami_core.game.views import view
from rami_core.players.savegame import seat_record
from rami_core.profile.loader import load_profile
from rami_core.referee.engine import Game
from tests.support.playout import RandomBot, Tally, play_round

ROOT = Path(__file__).resolve().parents[1]
ATLAS = ROOT / "variants" / "house" / "rami51_atlas.yaml"
SEED = 987_654_321  # distinctive: it must appear in no view or seat record

# (profile, players): every preset, and a team game.
TABLES = [
    ("voleur", 3),
    ("rami51", 3),
    ("rami71", 2),
    ("simple", 2),
    ("kaluki", 3),
    ("classic", 4),
    ("rami51_atlas", 4),
]

VIEW_KEYS = {
    "seat",
    "players",
    "hand",
    "table",
    "discard",
    "hand_sizes",
    "stock_size",
    "opened",
    "scores",
    "turn",
    "phase",
    "round_no",
    "teams",
    "drew_from",
    "taken_discard",
    "jokers_to_replay",
    "laid_this_turn",
    "winner",
    "penalties",
    "revealed_hands",
    "game_over",
    "game_winner",
}


def profile(name: str, *overrides: str):
    return load_profile(ATLAS if name == "rami51_atlas" else name, list(overrides))


def faces(cards) -> list[str]:
    return [format_card(c) for c in sorted((Card(c.rank, c.suit, 0) for c in cards), key=sort_key)]


def phase_of(s: GameState) -> str:
    return "game_over" if s.game_over else s.phase


# --------------------------------------------------------------------------- what a view holds


def check_view(game: Game, seat: int) -> dict:
    s = game.state
    v = game.view(seat)
    d = v.to_dict()
    assert set(d) >= VIEW_KEYS
    assert not {"stock", "seed", "hands", "log"} & set(d)
    assert d["seat"] == seat and d["players"] == s.players
    assert d["hand"] == faces(s.hands[seat])
    assert d["hand_sizes"] == [len(h) for h in s.hands]
    assert d["stock_size"] == len(s.stock)
    assert d["discard"] == [format_card(c) for c in s.discard]
    assert [m["cards"] for m in d["table"]] == [[format_card(c) for c in m.cards] for m in s.table]
    assert d["scores"] == s.scores and d["turn"] == s.turn and d["phase"] == s.phase
    assert d["teams"] == game.rules.teams
    text = json.dumps(d)
    assert str(SEED) not in text and "seed" not in text
    if s.phase == OVER:
        assert d["revealed_hands"] == [faces(h) for h in s.hands]
        assert d["winner"] == s.winner and d["penalties"] == s.penalties
        assert not v.my_turn
    else:
        assert d["revealed_hands"] is None
        assert d["winner"] is None and d["penalties"] == [0] * s.players
    # What the seat to play did and owes this turn is seen by the whole table.
    assert d["drew_from"] == s.drew_from and d["laid_this_turn"] == s.laid_this_turn
    assert d["taken_discard"] == (format_card(s.taken_discard) if s.taken_discard is not None else None)
    assert d["jokers_to_replay"] == [format_card(c) for c in s.jokers_to_replay]
    assert d["turns_played"] == s.turns_played and d["laid_before"] == s.laid_before
    assert d["first_player"] == s.first_player and d["reshuffles"] == s.reshuffles
    assert d["stock_exhausted"] == s.stock_exhausted and d["round_end"] == s.round_end
    assert v.my_turn == (s.turn == seat and s.phase != OVER)
    assert d["game_over"] == s.game_over
    assert d["game_winner"] == (s.game_winner if s.game_over else None)
    return d


# --------------------------------------------------------------------------- leak perturbations


def hidden_variants(s: GameState, seat: int, rng: random.Random) -> list[tuple[str, GameState]]:
    """States that differ from `s` only in what `seat` may not know."""
    out: list[tuple[str, GameState]] = []
    if len({c.face for c in s.stock}) > 1:
        t = s.copy()
        while [c.face for c in t.stock] == [c.face for c in s.stock]:
            rng.shuffle(t.stock)
        out.append(("stock order", t))
    t = s.copy()
    t.seed = (s.seed or 0) + 1
    out.append(("seed", t))
    # Cards the whole table saw go into the hand of the seat to play this turn.
    known = [s.taken_discard, *s.jokers_to_replay] if s.taken_discard or s.jokers_to_replay else []
    if s.phase != OVER:
        others = [q for q in range(s.players) if q != seat and s.hands[q]]
        if others and s.stock:
            t = s.copy()
            q = rng.choice(others)
            for _ in range(min(3, len(t.hands[q]), len(t.stock))):
                i, j = rng.randrange(len(t.hands[q])), rng.randrange(len(t.stock))
                if t.hands[q][i] in known:
                    continue  # the table saw this card go into that hand
                t.hands[q][i], t.stock[j] = t.stock[j], t.hands[q][i]
            if t.to_json() != s.to_json():
                out.append(("another hand swapped with the stock", t))
        if len(others) >= 2:
            t = s.copy()
            a, b = others[:2]
            i, j = rng.randrange(len(t.hands[a])), rng.randrange(len(t.hands[b]))
            if t.hands[a][i] not in known and t.hands[b][j] not in known:
                t.hands[a][i], t.hands[b][j] = t.hands[b][j], t.hands[a][i]
            if t.to_json() != s.to_json():
                out.append(("two other hands swapped", t))
    # Which deck a card of one's own hand came from is invisible too.
    twins = [
        (i, j)
        for i, c in enumerate(s.hands[seat])
        for j, d in enumerate(s.stock)
        if c.face == d.face and c != d and c not in known
    ]
    if twins:
        t = s.copy()
        i, j = twins[0]
        t.hands[seat][i], t.stock[j] = t.stock[j], t.hands[seat][i]
        out.append(("own card's twin", t))
    return out


def check_no_leak(game: Game, seat: int, rng: random.Random) -> int:
    s = game.state
    base = view(s, seat, teams=game.rules.teams).to_dict()
    n = 0
    for what, t in hidden_variants(s, seat, rng):
        assert t.to_json() != s.to_json(), what
        assert Counter(t.all_cards()) == Counter(s.all_cards())
        assert view(t, seat, teams=game.rules.teams).to_dict() == base, (
            f"the view of seat {seat} shows {what}"
        )
        n += 1
    return n


def play_and_watch(name: str, players: int, seed: int, rounds: int, *overrides: str, every: int = 5):
    """Play bot rounds; at every accepted action check every seat's view (and,
    every few actions, the leak perturbations). Returns the phases seen."""
    g = Game.new(profile(name, *overrides), players, seed=seed)
    rng = random.Random(seed)
    phases: Counter = Counter()
    counter = [0]

    def look(game, att, err):
        if err is not None:
            return
        counter[0] += 1
        s = game.state
        phases[phase_of(s)] += 1
        for seat in range(players):
            check_view(game, seat)
        if counter[0] % every == 0 or s.phase == OVER:
            seat = rng.randrange(players)
            check_no_leak(game, seat, rng)

    look(g, None, None)
    bot = RandomBot(random.Random(seed))
    for _ in range(rounds):
        play_round(g, bot, Tally(), observe=look, turn_cap=120)
        if g.state.phase != OVER or g.state.game_over:
            break
        g.next_round()
        look(g, None, None)
    return g, phases


@pytest.mark.parametrize("name,players", TABLES)
def test_views_in_every_phase(name, players):
    g, phases = play_and_watch(name, players, SEED, rounds=2)
    assert phases[DRAW] and phases[LAY]
    # Game over: with a target of 1 point, the first round that anybody pays ends it.
    over = Counter()
    for extra_seed in range(5):
        g, ph = play_and_watch(name, players, SEED + extra_seed, 1, "game.target=1", "game.team_target=1")
        over += ph
        if ph["game_over"]:
            break
    assert over["game_over"], f"{name}: no game over reached"
    assert g.state.game_over
    for seat in range(players):
        d = check_view(g, seat)
        assert d["game_over"] is True and d["revealed_hands"] is not None
    if name != "classic":
        assert phases[OVER] or over[OVER] or over["game_over"]


def test_round_over_view_before_the_next_deal():
    g = Game.new(load_profile("voleur", ["game.target=100000"]), 3, seed=SEED)
    while g.state.phase != OVER:
        g.apply(A.Timeout(g.state.turn))
    for seat in range(3):
        d = check_view(g, seat)
        assert d["phase"] == "over" and not d["game_over"]
        assert sum(d["penalties"]) > 0
        rng = random.Random(seat)
        assert check_no_leak(g, seat, rng) >= 1  # the stock is empty: the seed is what is left to hide
    g.next_round()
    for seat in range(3):
        d = check_view(g, seat)
        assert d["revealed_hands"] is None and d["round_no"] == 2


def test_dealt_view_for_each_seat():
    g = Game.new(load_profile("rami51"), 4, seed=SEED)
    rng = random.Random(1)
    for seat in range(4):
        d = check_view(g, seat)
        assert len(d["hand"]) == 13 and d["stock_size"] == 108 - 52 - 1
        assert check_no_leak(g, seat, rng) >= 3


def test_view_of_a_seat_that_does_not_exist():
    g = Game.new(load_profile("rami51"), 2, seed=1)
    for bad in (-1, 2, 5):
        with pytest.raises(ValueError):
            g.view(bad)


def test_the_leak_check_catches_a_leak():
    """The leak check itself: a view that showed another hand would be caught."""
    g = Game.new(load_profile("rami51"), 3, seed=SEED)
    s = g.state
    seat = s.turn
    t = dict(hidden_variants(s, seat, random.Random(0)))["another hand swapped with the stock"]

    def leaky(state):
        d = view(state, seat).to_dict()
        d["others"] = [faces(h) for q, h in enumerate(state.hands) if q != seat]
        return d

    assert leaky(t) != leaky(s)


# --------------------------------------------------------------------------- seat records and per-seat events


def card_tokens(obj) -> set[str]:
    """Every string in a JSON-like value that reads as a card."""
    out: set[str] = set()
    if isinstance(obj, dict):
        for v in obj.values():
            out |= card_tokens(v)
    elif isinstance(obj, list):
        for v in obj:
            out |= card_tokens(v)
    elif isinstance(obj, str):
        with contextlib.suppress(ValueError):
            out.add(format_card(parse_card(obj)))
    return out


@pytest.mark.parametrize("name,players", [("rami51", 3), ("voleur", 2), ("rami51_atlas", 4)])
def test_seat_record_names_no_hidden_card(name, players):
    g = Game.new(profile(name), players, seed=SEED)
    seen: list[set[str]] = [set() for _ in range(players)]

    def note(game, att, err):
        s = game.state
        for seat in range(players):
            seen[seat] |= set(faces(s.hands[seat]))
            seen[seat] |= {format_card(c) for m in s.table for c in m.cards}
            seen[seat] |= {format_card(c) for c in s.discard}

    note(g, None, None)
    play_round(g, RandomBot(random.Random(4)), Tally(), observe=note, turn_cap=8)
    s = g.state
    assert s.phase != OVER  # the round goes on: the other hands and the stock are hidden
    own_draws = 0
    for seat in range(players):
        rec = seat_record(g, seat)
        text = json.dumps(rec)
        assert str(SEED) not in text and '"seed"' not in text and '"stock":' not in text
        hidden = {format_card(c) for q, h in enumerate(s.hands) if q != seat for c in h}
        hidden |= {format_card(c) for c in s.stock}
        hidden -= seen[seat]
        assert len(hidden) > 10
        leaked = card_tokens(rec) & hidden
        assert not leaked, f"seat {seat}'s record names hidden cards {sorted(leaked)}"
        # Other seats' stock draws carry no card.
        for e in rec["events"]:
            if e["kind"] == "drawn" and e["seat"] != seat and e["source"] == "stock":
                assert "card" not in e
        own = [
            e for e in rec["events"] if e["kind"] == "drawn" and e["seat"] == seat and e["source"] == "stock"
        ]
        assert all("card" in e for e in own)
        own_draws += len(own)
        assert rec["view"] == g.view(seat).to_dict()
    assert own_draws > 0


def test_seat_record_after_the_round_shows_the_hands_but_not_the_stock():
    g = Game.new(load_profile("voleur", ["game.target=100000"]), 2, seed=SEED)
    while g.state.phase != OVER:
        g.apply(A.Timeout(g.state.turn))
    rec = seat_record(g, 0)
    text = json.dumps(rec)
    assert str(SEED) not in text
    assert rec["view"]["revealed_hands"] == [faces(h) for h in g.state.hands]
    over = [e for e in rec["events"] if e["kind"] == "round_over"][-1]
    assert over["hands"] == [[format_card(c) for c in h] for h in g.state.hands]


def test_events_for_seat_hide_other_seats_stock_draws():
    g = Game.new(load_profile("rami51"), 3, seed=SEED)
    play_round(g, RandomBot(random.Random(2)), Tally(), turn_cap=15)
    for seat in (0, 1, 2, None):
        for full, mine in zip(g.events, g.events_for_seat(seat)):
            assert mine.kind == full.kind and mine.data == full.data and mine.seat == full.seat
            if full.private:
                assert mine.private == (full.private if seat is not None and full.seat == seat else {})


def test_every_state_field_is_public_or_hidden():
    """A field added to GameState must be sorted: public (in every view, and
    in the state a bot rebuilds) or hidden (the stock, other hands, the seed)."""
    from dataclasses import fields

    from rami_core.game.views import HIDDEN_FIELDS, PUBLIC_FIELDS

    names = {f.name for f in fields(GameState)}
    assert not HIDDEN_FIELDS & PUBLIC_FIELDS
    assert names == HIDDEN_FIELDS | PUBLIC_FIELDS, names ^ (HIDDEN_FIELDS | PUBLIC_FIELDS)


def test_plugin_docs_list_every_state_field():
    """docs/plugins.md says what each state field holds and who sees it."""
    from dataclasses import fields

    text = (ROOT / "docs" / "plugins.md").read_text()
    section = text.split("## What a hook may read", 1)[1].split("\n## ", 1)[0]
    missing = [f.name for f in fields(GameState) if f"`{f.name}" not in section]
    assert not missing, missing
