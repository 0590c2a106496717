"""The rearrange offer is a permission backed by an exact search.

`legal_moves` offers `rearrange` when the rules permit it to the seat now and
a rebuild exists; the solver supplies the example. Where the offer says it is
exact it must agree with an exhaustive search: every rebuild of a small table
with every non-empty subset of a small hand, each judged by the engine
(plugins and the set-joker rule included). Where it is not exact (the solver
could not prove either way, or its rebuilds were refused by rules it does not
know), it is offered by permission and carries no example.
"""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rami_core.cards import Card, parse_card
from rami_core.cards.melds import read_meld
from rami_core.game import actions as A
from rami_core.profile.loader import load_profile
from rami_core.referee.engine import Game
from rami_core.referee.legal import legal_moves, verdict
from rami_core.referee.position import SetupInvalid, start

ROOT = Path(__file__).resolve().parents[1]
REBUILDERS = [
    p
    for p in ["voleur", *sorted(str(x) for x in (ROOT / "variants" / "house").glob("voleur*.yaml"))]
    if load_profile(p).table.rearrange
]
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["S", "H", "D", "C"]


def partitions(cards: list[Card], melds_rules, limit: list[int]):
    """Every way to split `cards` into valid melds (as lists of cards)."""
    if not cards:
        yield []
        return
    first, rest = cards[0], cards[1:]
    for size in range(2, min(len(rest), 12) + 1):
        for others in itertools.combinations(range(len(rest)), size):
            limit[0] -= 1
            if limit[0] < 0:
                raise OverflowError
            meld = [first, *(rest[i] for i in others)]
            if read_meld(meld, melds_rules) is None:
                continue
            left = [c for i, c in enumerate(rest) if i not in others]
            for tail in partitions(left, melds_rules, limit):
                yield [meld, *tail]


def some_rebuild_accepted(game: Game, seat: int) -> bool:
    s = game.state
    table = [c for m in s.table for c in m.cards]
    hand = list(s.hands[seat])
    limit = [200_000]
    for k in range(1, len(hand) + 1):
        for chosen in {tuple(sorted(x, key=str)) for x in itertools.combinations(hand, k)}:
            for melds in partitions(table + list(chosen), game.rules.melds, limit):
                action = A.Rearrange(seat, tuple(tuple(c.face_card for c in m) for m in melds))
                if verdict(game.rules, s, action) is None:
                    return True
    return False


def random_meld(rng: random.Random) -> list[str]:
    if rng.random() < 0.5:
        suit = rng.choice(SUITS)
        start_at = rng.randrange(0, 10)
        cards = [RANKS[start_at + i] + suit for i in range(rng.choice([3, 4]))]
    else:
        rank = rng.choice(RANKS)
        cards = [rank + s for s in rng.sample(SUITS, rng.choice([3, 4]))]
    if rng.random() < 0.3:
        cards[rng.randrange(len(cards))] = "JK"
    return cards


def small_state(path: str, rng: random.Random) -> Game | None:
    table = [random_meld(rng) for _ in range(rng.choice([1, 2]))]
    hand = [rng.choice(RANKS) + rng.choice(SUITS) for _ in range(rng.choice([1, 2, 3]))]
    if rng.random() < 0.2:
        hand.append("JK")
    setup = {
        "hands": [hand, ["3C", "8D", "QH"]],
        "stock": ["2D", "5S"],
        "opened": [True, True],
        "table": [{"cards": m, "owner": 1} for m in table],
    }
    try:
        game = start(load_profile(path), setup).game
        game.apply(A.Draw(0, "stock"))
    except (SetupInvalid, Exception):  # an invalid random table or hand: another draw
        return None
    for m in game.state.table:
        if read_meld(list(m.cards), game.rules.melds) is None:
            return None
    assert all(parse_card(str(c)) for c in game.state.hands[0])
    return game


@pytest.mark.parametrize("path", REBUILDERS, ids=lambda p: Path(p).stem)
@settings(max_examples=12, deadline=None)
@given(draw=st.integers(0, 2**32))
def test_the_rearrange_offer_agrees_with_an_exhaustive_search(path, draw):
    game = small_state(path, random.Random(draw))
    if game is None:
        return
    offer = legal_moves(game, 0)["rearrange"]
    if not offer.exact:
        assert offer.allowed and not offer.moves, "an inexact offer is a permission without an example"
        return
    try:
        exists = some_rebuild_accepted(game, 0)
    except OverflowError:
        return
    assert offer.allowed == exists, (offer, [m.cards for m in game.state.table], game.state.hands[0])


def test_the_issue_position_offers_rearrange():
    """Voleur, opened and drawn, hand 4♠ 4♥, A♣ 2♣ 3♣ 4♣ on the table: 4♣ joins the fours."""
    setup = {
        "hands": [["4S", "4H"], ["3C", "8D", "QH"]],
        "stock": ["2D", "5S"],
        "opened": [True, True],
        "table": [{"cards": ["AC", "2C", "3C", "4C"], "owner": 1}],
    }
    game = start(load_profile("voleur"), setup).game
    game.apply(A.Draw(0, "stock"))
    offer = legal_moves(game, 0)["rearrange"]
    assert offer.allowed and offer.exact and offer.moves
    assert some_rebuild_accepted(game, 0)


MELDERS = [
    *sorted(x.stem for x in (ROOT / "variants").glob("*.yaml")),
    *sorted(str(x) for x in (ROOT / "variants" / "house").glob("*.yaml")),
]


def some_meld_accepted(game: Game, seat: int) -> bool:
    """Every lay of new melds from the hand (each subset, each split into melds), judged by the engine."""
    hand = list(game.state.hands[seat])
    limit = [100_000]
    for k in range(len(hand), 1, -1):
        for chosen in {tuple(sorted(x, key=str)) for x in itertools.combinations(hand, k)}:
            for melds in partitions(list(chosen), game.rules.melds, limit):
                action = A.Meld(seat, tuple(tuple(c.face_card for c in m) for m in melds))
                if verdict(game.rules, game.state, action) is None:
                    return True
    return False


@pytest.mark.parametrize("path", MELDERS, ids=lambda p: Path(p).stem)
@settings(max_examples=6, deadline=None)
@given(draw=st.integers(0, 2**32))
def test_the_meld_offer_agrees_with_an_exhaustive_search(path, draw):
    """Small hands, opened or not: `meld` is offered exactly when some lay of
    new melds is accepted (where the offer says it is exact)."""
    rng = random.Random(draw)
    profile = load_profile(path)
    if not profile.allows_players(2):
        return
    hand = [rng.choice(RANKS[:9]) + rng.choice(SUITS) for _ in range(rng.choice([4, 5, 6]))]
    if profile.deck.jokers and rng.random() < 0.3:
        hand.append("JK")
    setup = {
        "hands": [hand, ["3C", "8D", "QH"]],
        "stock": ["2D", "5S", "9C"],
        "opened": [rng.random() < 0.5, False],
    }
    try:
        game = start(profile, setup).game
        game.apply(A.Draw(0, "stock"))
    except Exception:  # a hand the deck cannot hold, or no such turn in this profile
        return
    offer = legal_moves(game, 0)["meld"]
    if not offer.exact:
        assert offer.allowed and not offer.moves
        return
    try:
        exists = some_meld_accepted(game, 0)
    except OverflowError:
        return
    assert offer.allowed == exists, (offer, game.state.hands[0], game.state.opened)
