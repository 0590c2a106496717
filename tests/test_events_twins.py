"""`events._moved` against the code it replaced (copied here): it now
compares an old meld only with the new melds sharing one of its faces; on
thousands of rearranged tables it must report the same moves."""

from __future__ import annotations

import random
from collections import Counter
from types import SimpleNamespace

from rami_core.game.events import _cards, _moved
from tests.support.bot_states import states_after_each_move


def _old_shared(a: Counter, b: Counter) -> int:
    return sum(min(n, b[f]) for f, n in a.items() if f in b)


def _old_moved(before, after):
    new_faces = [Counter(c.face for c in m.cards) for m in after.table]
    new_left = [Counter(f) for f in new_faces]
    out = []
    for i, m in enumerate(before.table):
        faces = Counter(c.face for c in m.cards)
        if not new_left:
            break
        home = max(range(len(after.table)), key=lambda j: _old_shared(faces, new_faces[j]))
        kept = faces & new_faces[home]
        for card in m.cards:
            if kept[card.face]:
                kept[card.face] -= 1
                continue
            to = next((j for j, left in enumerate(new_left) if j != home and left[card.face]), None)
            if to is None:
                continue
            new_left[to][card.face] -= 1
            hit = next((x for x in out if x["from"] == i and x["to"] == to), None)
            if hit is None:
                out.append({"from": i, "to": to, "cards": _cards([card])})
            else:
                hit["cards"] += _cards([card])
    return out


def _tables() -> list[list]:
    """Every table met in seeded voleur games (the table is rebuilt there)."""
    return [list(s.table) for s in states_after_each_move("voleur", range(6))]


def test_moved_matches_the_old_code():
    tables = _tables()
    melds = list({id(m): m for t in tables for m in t}.values())
    rng = random.Random(5)
    moved = 0
    for k in range(5000):
        if k < len(tables) - 1:
            before, after = tables[k], tables[k + 1]
        else:  # random tables, often sharing melds and cards
            before = rng.sample(melds, rng.randint(0, 7))
            after = rng.sample(melds, rng.randint(0, 3)) + rng.sample(before, rng.randint(0, len(before)))
            rng.shuffle(after)
        b, a = SimpleNamespace(table=before), SimpleNamespace(table=after)
        got = _moved(b, a)
        assert got == _old_moved(b, a)
        moved += bool(got)
    assert moved > 300
