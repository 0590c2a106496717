"""The legal moves' candidates on bit masks of faces (`rami_core.cards.bits`)
against the code they replaced (copied here): a meld's join mask must let
through exactly the faces `might_join` does, and the lay off and swap
candidates, and the hand's faces, must be the same moves in the same order
on thousands of states met in seeded games of every bundled preset."""

from __future__ import annotations

import random

from rami_core.cards import FACE_CARD_OF, JOKER, Card
from rami_core.cards.bits import FACE_CARDS, FACE_OF, faces_in_order, join_mask
from rami_core.cards.melds import RUN, might_join, might_join_reading, rank_at
from rami_core.game import actions as A
from rami_core.game.state import OVER
from rami_core.players.bots import make_bot
from rami_core.profile.loader import load_profile
from rami_core.referee.engine import Game
from rami_core.referee.legal import _faces as faces_held
from rami_core.referee.legal import lay_off_candidates, swap_candidates
from tests.support.playout import play_prefix

DECK = [Card(r, s, k) for r in range(1, 14) for s in range(4) for k in range(2)] + [
    JOKER._replace(copy=k) for k in range(4)
]
PRESETS = ("classic", "rami51", "rami71", "simple", "kaluki", "voleur")


def _old_faces(cards):
    return list(dict.fromkeys(c.face_card for c in cards))


def _old_lay_off_candidates(rules, s, seat):
    for card in _old_faces(s.hands[seat]):
        for k, tm in enumerate(s.table):
            if rules.could_join(tm.reading, card):
                yield A.LayOff(seat, (A.LayOffItem(card, k),))
            if card.is_joker and tm.reading.kind == RUN:
                r = tm.reading
                below = Card(rank_at(r.start - 1), r.suit, 0)
                yield A.LayOff(seat, (A.LayOffItem(card, k, below),))


def _old_swap_candidates(s, seat):
    naturals = [c for c in _old_faces(s.hands[seat]) if not c.is_joker]
    held = {c.face: sum(1 for x in s.hands[seat] if x.face == c.face) for c in naturals}
    givens = [(c,) for c in naturals]
    for i, a in enumerate(naturals):
        for b in naturals[i:]:
            if a.rank == b.rank and (a != b or held[a.face] > 1):
                givens.append((a, b))
    for k, tm in enumerate(s.table):
        if tm.reading.jokers:
            for given in givens:
                yield A.Swap(seat, given, k)


def test_faces_tables_agree_with_cards():
    for i, c in enumerate(FACE_CARDS):
        assert FACE_OF[c] == i and c.copy == 0
    for c in DECK:
        assert FACE_CARD_OF[c] == c.face_card and FACE_CARDS[FACE_OF[c]] == c.face_card


def test_join_mask_is_might_join_face_by_face():
    rng = random.Random(5)
    for _ in range(20000):
        meld = rng.sample(DECK, rng.randint(0, 7))
        if rng.random() < 0.5:  # runs and sets, not only random heaps
            suit, rank = rng.randrange(4), rng.randint(1, 13)
            meld = (
                [Card(rank, suit, 0)]
                + [
                    Card(rank, rng.randrange(4), 1)
                    if rng.random() < 0.5
                    else Card(rng.randint(1, 13), suit, 1)
                    for _ in range(rng.randint(0, 3))
                ]
                + [JOKER] * rng.randint(0, 2)
            )
        mask = join_mask(meld)
        for c in FACE_CARDS:
            assert bool(mask >> FACE_OF[c] & 1) == might_join(meld, c), (meld, c)


def test_faces_in_order():
    rng = random.Random(6)
    for _ in range(5000):
        hand = rng.sample(DECK, rng.randint(0, 20))
        assert faces_in_order(hand) == _old_faces(hand)


def _states():
    """States met in seeded games of every preset, bots and a random test bot mixed."""
    for preset in PRESETS:
        profile = load_profile(preset)
        for seed in range(4):
            players = 3 if seed % 2 and profile.allows_players(3) else 2
            game = Game.new(profile, players, seed=seed)
            if seed % 2:  # the test bot, which also tries swaps and rearrangements
                rng = random.Random(seed)
                for _ in range(300):
                    if game.state.phase == OVER:
                        break
                    yield game
                    play_prefix(game, rng, 1)
                continue
            bots = [
                make_bot(("greedy", "random")[(seed + i) % 2], seed * 3 + i)
                for i in range(game.state.players)
            ]
            for _ in range(400):
                if game.state.phase == OVER:
                    break
                yield game
                seat = game.state.turn
                game.apply(bots[seat].choose(game.view(seat), game.rules))


def test_candidates_match_the_old_code():
    seen = 0
    for game in _states():
        s, rules = game.state, game.rules
        for seat in range(s.players):
            assert faces_held(s.hands[seat]) == _old_faces(s.hands[seat])
            assert list(lay_off_candidates(rules, s, seat)) == list(_old_lay_off_candidates(rules, s, seat))
            assert list(swap_candidates(s, seat)) == list(_old_swap_candidates(s, seat))
            seen += 1
        if seen % 7 == 0:  # the remembered mask of each table meld, face by face
            for tm in s.table:
                for c in FACE_CARDS:
                    assert might_join_reading(tm.reading, c) == might_join(tm.cards, c)
    assert seen > 2000
