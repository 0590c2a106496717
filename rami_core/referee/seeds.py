"""How every random draw of a game is seeded: the deal of each round, the
first player, the reshuffles of the stock.

Its own module because the deal (rami_core.referee.engine) and the draw's
reshuffle (rami_core.referee.handlers) both draw from it, and because it is a
format: a seed and a saved game's log replay the same table only as long as
this scheme never changes (rami_core.players.savegame).
"""

from __future__ import annotations

import random


def rng_for(seed: int | None, *parts: object) -> random.Random:
    """Every shuffle draws from Python's Mersenne Twister seeded with a string
    naming the game seed and the event, so a seed replays the same deals in
    later versions and a reshuffle never depends on what came before it."""
    return random.Random(":".join(["rami", str(seed if seed is not None else 0), *map(str, parts)]))


__all__ = ["rng_for"]
