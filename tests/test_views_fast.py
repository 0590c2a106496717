"""The view's fast paths against the code they replaced (copied here):
`views.view` sets the SeatView's fields directly and maps cards through a
memo; on thousands of seeded states it must build the very same view."""

from __future__ import annotations

import dataclasses
import random

from rami_core.cards import Card
from rami_core.game import views
from rami_core.game.state import OVER, GameState
from rami_core.game.views import SeatView, view
from rami_core.players.bots import make_bot
from rami_core.profile.loader import load_profile
from rami_core.referee.engine import Game


def _old_public(c: Card) -> Card:
    return c if c.copy == 0 else Card(c.rank, c.suit, 0)


def _old_public_hand(hand) -> tuple[Card, ...]:
    return tuple(sorted(map(_old_public, hand), key=lambda c: (c.suit, c.rank)))


def _old_view(state: GameState, seat: int, *, teams: bool = False) -> SeatView:
    over = state.phase == OVER
    taken = state.taken_discard
    return SeatView(
        seat=seat,
        players=state.players,
        hand=_old_public_hand(state.hands[seat]),
        table=tuple(map(views._meld_view, state.table)),
        discard=tuple(map(_old_public, state.discard)),
        hand_sizes=tuple(len(h) for h in state.hands),
        stock_size=len(state.stock),
        opened=tuple(state.opened),
        scores=tuple(state.scores),
        turn=state.turn,
        phase=state.phase,
        round_no=state.round_no,
        teams=teams,
        drew_from=state.drew_from,
        taken_discard=_old_public(taken) if taken is not None else None,
        jokers_to_replay=tuple(_old_public(c) for c in state.jokers_to_replay),
        laid_this_turn=state.laid_this_turn,
        opened_this_turn=state.opened_this_turn,
        winner=state.winner if over else None,
        penalties=tuple(state.penalties),
        revealed_hands=tuple(_old_public_hand(h) for h in state.hands) if over else None,
        game_over=state.game_over,
        game_winner=state.game_winner if state.game_over else None,
        laid_before=tuple(state.laid_before),
        first_player=state.first_player,
        turns_played=state.turns_played,
        reshuffles=state.reshuffles,
        stock_exhausted=state.stock_exhausted,
        round_end=state.round_end,
        rami_sec=state.rami_sec,
        taken_discard_in_hand=taken is not None and not over and taken in state.hands[state.turn],
        taken_discard_at=views._place_of(state, taken) if taken is not None and not over else None,
        taken_discard_to_replay=taken is not None and not over and taken in state.jokers_to_replay,
    )


def _as_fields(v: SeatView) -> dict:
    return {f.name: getattr(v, f.name) for f in dataclasses.fields(v)}


def test_view_sets_every_field_and_nothing_else():
    game = Game.new(load_profile("rami51"), 2, seed=1)
    v = view(game.state, 0)
    assert tuple(v.__dict__) == views._SEATVIEW_FIELDS
    assert v == SeatView(**_as_fields(v))
    assert hash(v.hand) == hash(SeatView(**_as_fields(v)).hand)


def test_view_matches_the_old_view_on_seeded_games():
    states = 0
    for preset in ("rami51", "voleur", "kaluki", "classic"):
        profile = load_profile(preset)
        for seed in range(8):
            game = Game.new(profile, 2 + seed % 2, seed=seed)
            kinds = ("random", "greedy")
            bots = [make_bot(kinds[(seed + i) % 2], seed * 10 + i) for i in range(game.state.players)]
            for _ in range(150):
                for seat in range(game.state.players):
                    for teams in (False, True):
                        new, old = (
                            view(game.state, seat, teams=teams),
                            _old_view(game.state, seat, teams=teams),
                        )
                        assert _as_fields(new) == _as_fields(old)
                        assert [type(c) for c in new.hand] == [type(c) for c in old.hand]
                        states += 1
                if game.state.phase == OVER:
                    break
                seat = game.state.turn
                game.apply(bots[seat].choose(view(game.state, seat), game.rules))
    assert states > 2000


def test_public_hand_matches_the_old_one_on_random_hands():
    rng = random.Random(7)
    deck = [Card(r, s, k) for r in range(1, 14) for s in range(4) for k in range(3)] + [
        Card(0, 4, k) for k in range(4)
    ]
    for _ in range(5000):
        hand = rng.sample(deck, rng.randint(0, 20))
        assert views._public_hand(hand) == _old_public_hand(hand)
