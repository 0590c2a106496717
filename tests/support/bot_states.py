"""States met in seeded bot games: the inputs of the twin tests, which compare
a rewritten function with its former version on real tables and hands.

A two-seat game per seed, one greedy and one random bot (which seat has which
alternates with the seed), up to `moves` moves of its first round.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from rami_core.game.state import OVER, GameState
from rami_core.players.bots import make_bot
from rami_core.profile.loader import load_profile
from rami_core.referee.engine import Game


def states_after_each_move(preset: str, seeds: Iterable[int], moves: int = 300) -> Iterator[GameState]:
    """The state after each move (the same object, moved on: read it before the next)."""
    profile = load_profile(preset)
    for seed in seeds:
        game = Game.new(profile, 2, seed=seed)
        bots = [make_bot(("greedy", "random")[(seed + i) % 2], seed * 2 + i) for i in range(2)]
        for _ in range(moves):
            if game.state.phase == OVER:
                break
            seat = game.state.turn
            game.apply(bots[seat].choose(game.view(seat), game.rules))
            yield game.state


__all__ = ["states_after_each_move"]
