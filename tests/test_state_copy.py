"""`GameState.copy` hands the copied dict to the new state instead of
updating the new state's own dict with it: the copy must be the old copy
(copied here), field for field, its lists new and the cards shared."""

from __future__ import annotations

import dataclasses

from rami_core.game.state import OVER, GameState
from rami_core.players.bots import make_bot
from rami_core.profile.loader import load_profile
from rami_core.referee.engine import Game


def _old_copy(state: GameState) -> GameState:
    new = GameState.__new__(GameState)
    new.__dict__.update(state.fields_copy())
    return new


def test_copy_matches_the_old_copy_on_seeded_games():
    names = [f.name for f in dataclasses.fields(GameState)]
    copies = 0
    for preset in ("rami51", "voleur"):
        for seed in range(4):
            game = Game.new(load_profile(preset), 2, seed=seed)
            bots = [make_bot("greedy", seed * 2 + i) for i in range(2)]
            for _ in range(400):
                if game.state.phase == OVER:
                    break
                s = game.state
                new, old = s.copy(), _old_copy(s)
                assert type(new) is GameState
                assert list(new.__dict__) == list(old.__dict__)
                assert new == old == s
                assert new.to_json() == s.to_json()
                for name in names:
                    v, w = getattr(new, name), getattr(s, name)
                    if isinstance(w, list):
                        assert v is not w
                assert all(a is not b and a == b for a, b in zip(new.hands, s.hands))
                new.hands[0].append(new.stock.pop())  # the copy's lists are its own
                assert s == old
                copies += 1
                seat = game.state.turn
                game.apply(bots[seat].choose(game.view(seat), game.rules))
    assert copies > 500
