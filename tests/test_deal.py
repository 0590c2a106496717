"""Deals and turn order (issue 4, parts 1 and 2).

Teams at four players, hand sizes by player count, the dealer's extra card,
the upcard, the first player drawn at random from the seed and rotating each
round, rounds dealt again (`draw.empty_stock: replay`), and determinism: one
seed, one game, byte for byte.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from rami_core.cards import build_deck, format_card
from rami_core.game import actions as A
from rami_core.game.state import DRAW, LAY, OVER
from rami_core.profile.loader import load_profile
from rami_core.referee.engine import Game
from rami_core.words.errors import RuleError
from tests.support.playout import RandomBot, Tally, play_round

ROOT = Path(__file__).resolve().parents[1]
ATLAS = ROOT / "variants" / "house" / "rami51_atlas.yaml"
PRESETS = ["voleur", "rami51", "rami71", "simple", "kaluki", "classic"]


def profile(name: str, *overrides: str):
    return load_profile(ATLAS if name == "rami51_atlas" else name, list(overrides))


def deck_of(p) -> Counter:
    return Counter(build_deck(p.deck.decks, p.deck.jokers))


def time_out_round(game: Game, cap: int = 2000) -> None:
    """End the round by letting every clock run out (a no-discard profile whose
    empty stock ends the round: every timeout draws one card)."""
    for _ in range(cap):
        if game.state.phase == OVER:
            return
        game.apply(A.Timeout(game.state.turn))
    raise AssertionError("the round did not end")


# --------------------------------------------------------------------------- teams


@pytest.mark.parametrize("name", ["rami71", "simple", "rami51_atlas"])
def test_team_game_at_four_players(name):
    p = profile(name)
    g = Game.new(p, 4, seed=3)
    assert g.rules.teams is True
    assert g.state.scores == [0, 0]
    assert g.rules.sides == 2
    assert [g.rules.side(s) for s in range(4)] == [0, 1, 0, 1]
    assert g.rules.partners(0) == [2] and g.rules.partners(1) == [3]
    assert g.rules.target == p.game.team_target != p.game.target
    assert Game.new(p, 2, seed=3).rules.target == p.game.target
    assert g.view(1).teams is True
    assert g.view(1).to_dict()["scores"] == [0, 0]
    # `opened` stays per seat in a team game (as the scenario format keeps it).
    assert len(g.state.opened) == 4


@pytest.mark.parametrize("name", ["rami71", "simple", "rami51_atlas"])
def test_no_teams_at_two_players(name):
    g = Game.new(profile(name), 2, seed=3)
    assert g.rules.teams is False
    assert len(g.state.scores) == 2
    assert g.rules.partners(0) == []
    assert g.view(0).teams is False


def test_no_teams_where_the_profile_has_none():
    g = Game.new(load_profile("rami51"), 4, seed=3)
    assert g.rules.teams is False
    assert g.state.scores == [0, 0, 0, 0]


@pytest.mark.parametrize("name", ["rami71", "simple"])
def test_team_profiles_refuse_three_players(name):
    with pytest.raises(ValueError):
        Game.new(profile(name), 3, seed=0)


# --------------------------------------------------------------------------- hand sizes, upcard, conservation


@pytest.mark.parametrize(
    "players,size",
    [(2, 10), (3, 7), (4, 7), (5, 7), (6, 6), (7, 6)],
)
def test_classic_hand_size_by_player_count(players, size):
    p = load_profile("classic")
    g = Game.new(p, players, seed=11)
    s = g.state
    assert [len(h) for h in s.hands] == [size] * players
    assert len(s.discard) == 1  # the upcard
    assert len(s.stock) == 52 - size * players - 1
    assert Counter(s.all_cards()) == deck_of(p)
    assert s.phase == DRAW


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_deals_a_whole_deck(name):
    p = load_profile(name)
    for n in range(p.players.min, p.players.max + 1):
        if not p.allows_players(n):
            continue
        s = Game.new(p, n, seed=n).state
        assert Counter(s.all_cards()) == deck_of(p), (name, n)
        assert [len(h) for h in s.hands] == [p.hand_size(n)] * n
        assert len(s.discard) == (1 if p.deal.upcard else 0)
        assert s.table == [] and s.round_no == 1 and s.turn == s.first_player
        assert s.scores == [0] * (2 if p.teams_at(n) else n)


def test_upcard_starts_the_discard_pile_and_can_be_drawn():
    g = Game.new(load_profile("rami51"), 3, seed=5)
    top = g.state.discard[-1]
    seat = g.state.turn
    g.apply(A.Draw(seat, "discard"))
    assert g.state.discard == []
    assert g.state.hands[seat][-1] == top
    drawn = [e for e in g.events if e.kind == "drawn"][-1]
    assert drawn.data == {"source": "discard", "card": format_card(top)}
    assert drawn.private == {}


def test_no_upcard_no_discard_pile():
    g = Game.new(load_profile("rami71"), 2, seed=5)
    assert g.state.discard == []
    with pytest.raises(RuleError) as e:
        g.apply(A.Draw(g.state.turn, "discard"))
    assert e.value.code == "draw_forbidden"


# --------------------------------------------------------------------------- the dealer's extra card


@pytest.mark.parametrize("players", [2, 3, 4])
def test_dealer_extra_card_first_player_starts_by_discarding(players):
    p = load_profile("rami51", ["deal.dealer_extra_card=true"])
    assert p.deal.dealer_extra_card is True
    g = Game.new(p, players, seed=21)
    s = g.state
    first = s.first_player
    assert s.turn == first and s.phase == LAY
    assert len(s.hands[first]) == 14
    assert all(len(h) == 13 for i, h in enumerate(s.hands) if i != first)
    assert len(s.stock) == 108 - 13 * players - 1 - 1
    assert Counter(s.all_cards()) == deck_of(p)
    dealt = g.events[0]
    assert dealt.kind == "round_dealt" and dealt.data["hand_sizes"][first] == 14
    # No draw: the first player already holds the extra card.
    for source in ("stock", "discard"):
        with pytest.raises(RuleError) as e:
            g.apply(A.Draw(first, source))
        assert e.value.code == "wrong_phase"
    assert g.state.to_json() == s.to_json()
    # The turn ends with a discard, not by ending it.
    with pytest.raises(RuleError) as e:
        g.apply(A.EndTurn(first))
    assert e.value.code == "wrong_phase"
    card = g.state.hands[first][0]
    g.apply(A.Discard(first, card.__class__(card.rank, card.suit, 0)))
    s = g.state
    assert len(s.hands[first]) == 13
    assert s.turn == (first + 1) % players and s.phase == DRAW
    assert s.discard[-1].face == card.face


def test_dealer_extra_card_view_shows_lay_phase():
    p = load_profile("rami51", ["deal.dealer_extra_card=true"])
    g = Game.new(p, 2, seed=4)
    first = g.state.first_player
    v = g.view(first)
    assert v.my_turn and v.phase == "lay" and len(v.hand) == 14
    assert g.view(1 - first).hand_sizes[first] == 14


def test_dealer_extra_card_timeout_discards_the_extra_card():
    p = load_profile("rami51", ["deal.dealer_extra_card=true"])
    g = Game.new(p, 2, seed=4)
    first = g.state.first_player
    stock = len(g.state.stock)
    extra = g.state.hands[first][-1]  # dealt last
    g.apply(A.Timeout(first))
    assert len(g.state.hands[first]) == 13
    assert g.state.discard[-1] == extra
    assert len(g.state.stock) == stock  # nothing drawn
    assert g.state.turn == 1 - first
    assert [e.kind for e in g.events[1:]] == ["timed_out", "discarded", "turn_ended"]


# --------------------------------------------------------------------------- first player and rotation


def test_first_player_is_drawn_from_the_seed():
    p = load_profile("rami51")
    firsts = [Game.new(p, 4, seed=s).state.first_player for s in range(40)]
    assert set(firsts) == {0, 1, 2, 3}
    assert firsts == [Game.new(p, 4, seed=s).state.first_player for s in range(40)]
    assert [Game.new(p, 4, seed=s).state.turn for s in range(40)] == firsts


def test_first_player_seat0_setting():
    p = load_profile("rami51", ["deal.first_player=seat0"])
    assert {Game.new(p, 3, seed=s).state.first_player for s in range(15)} == {0}


def test_first_player_rotates_each_round():
    p = load_profile("voleur", ["game.target=100000"])
    g = Game.new(p, 3, seed=8)
    first = g.state.first_player
    seen = []
    for r in range(4):
        s = g.state
        assert s.round_no == r + 1
        assert s.first_player == s.turn == (first + r) % 3
        seen.append(s.first_player)
        assert Counter(s.all_cards()) == deck_of(p)
        time_out_round(g)
        assert g.state.round_end == "empty_stock"
        g.next_round()
    assert len(set(seen)) == 3
    assert [e.data["first_player"] for e in g.events if e.kind == "round_dealt"] == seen + [(first + 4) % 3]


def test_rounds_deal_differently_but_scores_carry_over():
    p = load_profile("voleur", ["game.target=100000"])
    g = Game.new(p, 2, seed=8)
    hands1 = [list(h) for h in g.state.hands]
    time_out_round(g)
    scores = list(g.state.scores)
    assert sum(scores) > 0 and g.state.penalties == scores
    g.next_round()
    assert g.state.scores == scores
    assert g.state.hands != hands1
    assert g.state.phase == DRAW and g.state.winner is None and g.state.penalties == []


def test_rotation_can_be_switched_off():
    p = load_profile("voleur", ["game.target=100000", "deal.rotate=false"])
    g = Game.new(p, 3, seed=8)
    first = g.state.first_player
    for _ in range(2):
        time_out_round(g)
        g.next_round()
        assert g.state.first_player == first


def test_next_round_only_after_the_round():
    g = Game.new(load_profile("voleur"), 2, seed=1)
    before = g.state.to_json()
    with pytest.raises(RuleError) as e:
        g.next_round()
    assert e.value.code == "wrong_phase"
    assert g.state.to_json() == before


def test_next_round_refused_once_the_game_is_over():
    g = Game.new(load_profile("voleur"), 2, seed=1)  # target 100: one exhausted stock ends it
    time_out_round(g)
    assert g.state.game_over
    before = g.state.to_json()
    with pytest.raises(RuleError):
        g.next_round()
    assert g.state.to_json() == before


def test_replay_round_is_dealt_again_by_the_same_player():
    p = load_profile("voleur", ["draw.empty_stock=replay", "game.target=100000"])
    g = Game.new(p, 2, seed=13)
    first = g.state.first_player
    hands1 = [list(h) for h in g.state.hands]
    time_out_round(g)
    s = g.state
    assert s.round_end == "replay" and s.winner is None
    assert s.scores == [0, 0]  # nobody pays a round dealt again
    assert not s.game_over
    round_over = [e for e in g.events if e.kind == "round_over"][-1]
    assert round_over.data["how"] == "replay"
    g.next_round()
    s = g.state
    assert s.round_no == 1 and s.first_player == first and s.turn == first
    assert s.hands != hands1  # a new shuffle
    assert Counter(s.all_cards()) == deck_of(p)
    # Dealt again twice: again a different deal; then a real round rotates.
    hands2 = [list(h) for h in s.hands]
    time_out_round(g)
    g.next_round()
    assert g.state.round_no == 1 and g.state.hands not in (hands1, hands2)
    # The replayed deals are themselves reproducible.
    g2 = Game.new(p, 2, seed=13)
    time_out_round(g2)
    g2.next_round()
    assert g2.state.hands == hands2


# --------------------------------------------------------------------------- determinism


@pytest.mark.parametrize("name", PRESETS + ["rami51_atlas"])
def test_same_seed_same_deal_different_seed_different_deal(name):
    p = profile(name)
    n = 4 if p.allows_players(4) else 2
    a = Game.new(p, n, seed=1234).state.to_json()
    b = Game.new(p, n, seed=1234).state.to_json()
    assert a == b
    others = {Game.new(p, n, seed=s).state.to_json() for s in (1, 2, 3, 1235)}
    assert a not in others and len(others) == 4


def _bot_game(p, players: int, seed: int, bot_seed: int, rounds: int = 2) -> Game:
    g = Game.new(p, players, seed=seed)
    bot = RandomBot(random.Random(bot_seed))
    for r in range(rounds):
        play_round(g, bot, Tally(), turn_cap=60)
        if g.state.phase != OVER or g.state.game_over or r == rounds - 1:
            break
        g.next_round()
    return g


@pytest.mark.parametrize("name", ["rami51", "voleur", "classic"])
def test_same_seed_and_moves_give_byte_identical_states(name):
    p = load_profile(name)
    g1 = _bot_game(p, 3, seed=99, bot_seed=5)
    g2 = _bot_game(p, 3, seed=99, bot_seed=5)
    assert g1.state.to_json() == g2.state.to_json()
    assert [e.to_dict() for e in g1.events] == [e.to_dict() for e in g2.events]
    # The same moves replayed on a fresh game give the same states at every step.
    g3 = Game.new(p, 3, seed=99)
    for a in g1.log:
        if isinstance(a, A.NextRound):
            g3.next_round()
        else:
            g3.apply(a)
    assert g3.state.to_json() == g1.state.to_json()
    g4 = _bot_game(p, 3, seed=100, bot_seed=5)
    assert g4.state.to_json() != g1.state.to_json()


def test_stock_rebuild_is_seeded():
    """The reshuffle of an exhausted stock depends on the seed only."""
    p = load_profile("rami51")

    def run(seed):
        g = Game.new(p, 2, seed=seed)
        for _ in range(200):  # timeouts draw and discard: the stock is rebuilt again and again
            g.apply(A.Timeout(g.state.turn))
        return g

    a, b = run(7), run(7)
    assert a.state.reshuffles >= 1
    assert a.state.to_json() == b.state.to_json()
    assert any(e.kind == "stock_rebuilt" for e in a.events)
