"""`table_jokers.set_departures` against the code it replaced (copied here):
it now counts the faces of the new table's sets only when a set of their rank
is looked for; on thousands of tables it must find the same departures."""

from __future__ import annotations

import random
from collections import Counter

from rami_core.cards.melds import SET, Reading
from rami_core.game.state import OVER
from rami_core.players.bots import make_bot
from rami_core.profile.loader import load_profile
from rami_core.referee.engine import Game
from rami_core.referee.table_jokers import SetDeparture, _faces, set_departures


def _old_set_departures(before, after):
    out = []
    if not any(old.kind == SET and old.jokers for old in before):
        return out
    after_faces = [_faces(r.cards) for r in after]
    after_jokers = [r.jokers for r in after]
    for i, old in enumerate(before):
        if old.kind != SET or old.jokers == 0:
            continue
        naturals = _faces(old.cards)
        best = None
        cont = None
        for j, faces in enumerate(after_faces):
            if after[j].kind != SET or after[j].rank != old.rank:
                continue
            shared = sum((naturals & faces).values())
            if shared and (best is None or (shared, after_jokers[j]) > best):
                best, cont = (shared, after_jokers[j]), after[j]
        if cont is None:
            left, naturals_after, cards_after = old.jokers, 0, 0
        else:
            left = max(0, old.jokers - cont.jokers)
            naturals_after = sum(1 for c in cont.cards if not c.is_joker)
            cards_after = len(cont.cards)
        if left:
            out.append(SetDeparture(i, len(old.cards), left, naturals_after, cards_after))
    return out


def _tables() -> list[list[Reading]]:
    """Every table met in seeded greedy and random games."""
    tables = []
    for preset in ("voleur", "rami51", "classic"):
        profile = load_profile(preset)
        for seed in range(6):
            game = Game.new(profile, 2, seed=seed)
            bots = [make_bot(("greedy", "random")[(seed + i) % 2], seed * 2 + i) for i in range(2)]
            for _ in range(300):
                if game.state.phase == OVER:
                    break
                seat = game.state.turn
                game.apply(bots[seat].choose(game.view(seat), game.rules))
                tables.append([m.reading for m in game.state.table])
    return tables


def test_set_departures_match_the_old_code():
    tables = _tables()
    readings = list({id(r): r for t in tables for r in t}.values())
    sets_with_jokers = [r for r in readings if r.kind == SET and r.jokers]
    assert sets_with_jokers
    rng = random.Random(3)
    found = Counter()
    for k in range(6000):
        if k < len(tables) - 1:
            before, after = tables[k], tables[k + 1]
        else:  # random tables, old sets holding jokers among them
            before = rng.sample(readings, rng.randint(0, 6)) + rng.sample(sets_with_jokers, rng.randint(1, 2))
            rng.shuffle(before)
            after = rng.sample(readings, rng.randint(0, 8))
        got = set_departures(before, after)
        assert got == _old_set_departures(before, after)
        found[bool(got)] += 1
    assert found[True] > 100 and found[False] > 100
