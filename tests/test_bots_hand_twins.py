"""`hand.usefulness_of_hand` against the code it replaced (copied here): it
now counts in a plain dict and a list instead of Counters; on thousands of
seeded hands, with and without dead cards, it must give the same scores in
the same order."""

from __future__ import annotations

import random
from collections import Counter

from rami_core.cards import JOKER, Card
from rami_core.players.bots.hand import usefulness_of_hand


def _old_usefulness_of_hand(hand, dead=None):
    jokers = 0
    faces: Counter = Counter()
    by_rank: Counter = Counter()
    by_suit: dict[int, list[int]] = {}
    for o in hand:
        if o.is_joker:
            jokers += 1
            continue
        faces[(o.rank, o.suit)] += 1
        by_rank[o.rank] += 1
        by_suit.setdefault(o.suit, []).append(o.rank)
    out: dict[tuple[int, int], int] = {}
    if jokers:
        out[JOKER.face] = 100
    for (r, s), n in faces.items():
        score = jokers + (n - 1) + 4 * (by_rank[r] - n)
        for o_rank in by_suit[s]:
            if o_rank == r:
                continue
            d = abs(o_rank - r)
            if r == 1 or o_rank == 1:
                d = min(d, 14 - max(o_rank, r))
            if d == 1:
                score += 4
            elif d == 2:
                gap = (min(o_rank, r) + 1, s)
                score += 1 if dead is not None and dead[gap] >= 2 else 3
        out[(r, s)] = score
    return out


def test_usefulness_of_hand_matches_the_old_code():
    rng = random.Random(11)
    deck = [Card(r, s, k) for r in range(1, 14) for s in range(4) for k in range(2)] + [
        Card(0, 4, k) for k in range(4)
    ]
    for i in range(20000):
        hand = rng.sample(deck, rng.randint(0, 16))
        dead = None
        if i % 2:
            dead = Counter((c.rank, c.suit) for c in rng.sample(deck, rng.randint(0, 60)) if not c.is_joker)
        new, old = usefulness_of_hand(hand, dead), _old_usefulness_of_hand(hand, dead)
        assert list(new.items()) == list(old.items())
