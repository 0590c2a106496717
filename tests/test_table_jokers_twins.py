"""`table_jokers.set_departures` against the code it replaced (copied here):
it now counts the faces of the new table's sets only when a set of their rank
is looked for; on thousands of tables it must find the same departures."""

from __future__ import annotations

import random
from collections import Counter

from rami_core.cards.melds import SET, Reading
from rami_core.referee.table_jokers import SetDeparture, _faces, set_departures
from tests.support.bot_states import states_after_each_move


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
    return [
        [m.reading for m in s.table]
        for preset in ("voleur", "rami51", "classic")
        for s in states_after_each_move(preset, range(6))
    ]


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
