"""`best_lay_offs`: where laid melds keep their places, the most hand cards
laid off onto them plus new melds from the hand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from typing import Any

from rami_core.cards import Card
from rami_core.cards.melds import SET, MeldRules, Reading, lay_off_positional, read_meld
from rami_core.solver.results import DEFAULT_MAX_STATES, LayOffPlan
from rami_core.solver.whole_table import solve
from rami_core.words.errors import InternalError


def _addition_options(idx: int, reading: Reading, hand: list[Card], rules: MeldRules):
    """Every way to add hand cards to one positional meld: list of
    (faces used Counter, naturals, jokers with faces, new reading)."""
    nat = [c for c in hand if not c.is_joker]
    jok = [c for c in hand if c.is_joker]
    by_face: dict[tuple[int, int], Card] = {}
    for c in nat:
        by_face.setdefault(c.face, c)
    out: list[tuple[list[Card], list[tuple[Card, Any]], Reading]] = []
    if reading.kind == SET:
        held = {s for (_r, s) in reading.stands}
        room = (min(rules.set_max, 4) if rules.set_distinct_suits else rules.set_max) - len(reading.cards)
        cands = [
            by_face[(reading.rank, s)]
            for s in range(4)
            if (reading.rank, s) in by_face and (s not in held or not rules.set_distinct_suits)
        ]
        for n in range(min(room, len(cands)) + 1):
            for combo in combinations(cands, n):
                for j in range(min(room - n, len(jok)) + 1):
                    if n + j == 0:
                        continue
                    res = lay_off_positional(reading, list(combo), [(x, None) for x in jok[:j]], rules)
                    if isinstance(res, Reading):
                        out.append((list(combo), [(x, None) for x in jok[:j]], res))
        return out
    # a run: extend down by d places and up by u places
    lo, hi, suit = reading.start, reading.end, reading.suit
    lo_lim = rules.low_bound if not rules.wrap else lo - (13 - len(reading.cards))
    hi_lim = rules.high_bound if not rules.wrap else hi + (13 - len(reading.cards))
    # places the hand has no natural for, d places down and u places up: an
    # extension missing more than the jokers held is passed over unbuilt
    gaps_down = [0]
    for p in range(lo - 1, lo_lim - 1, -1):
        gaps_down.append(gaps_down[-1] + (((p - 1) % 13 + 1, suit) not in by_face))
    gaps_up = [0]
    for p in range(hi + 1, hi_lim + 1):
        gaps_up.append(gaps_up[-1] + (((p - 1) % 13 + 1, suit) not in by_face))
    for d in range(lo - lo_lim + 1):
        for u in range(hi_lim - hi + 1):
            if d + u == 0 or d + u + len(reading.cards) > (13 if rules.wrap else 14):
                continue
            if gaps_down[d] + gaps_up[u] > len(jok):
                continue
            places = list(range(lo - d, lo)) + list(range(hi + 1, hi + u + 1))
            faces = [((p - 1) % 13 + 1, suit) for p in places]
            present = [i for i, f in enumerate(faces) if f in by_face]
            missing = len(places) - len(present)
            if missing > len(jok):
                continue
            # naturals where present; optionally jokers in their place
            for k in range(min(len(present), len(jok) - missing) + 1):
                for drop in combinations(present, k):
                    js = list(jok)
                    naturals, jokers = [], []
                    for i, f in enumerate(faces):
                        if i in present and i not in drop:
                            naturals.append(by_face[f])
                        else:
                            jokers.append((js.pop(), f))
                    res = lay_off_positional(reading, naturals, jokers, rules)
                    if isinstance(res, Reading):
                        out.append((naturals, jokers, res))
    return out


_HAND_MELDS: dict[tuple, tuple[int, tuple[tuple[Card, ...], ...], bool]] = {}
_HAND_MELDS_MAX = 4096


def _hand_melds(
    cards: list[Card], rules: MeldRules, limit: int
) -> tuple[int, tuple[tuple[Card, ...], ...], bool]:
    """The most cards of `cards` laid in new melds, the melds, and whether that
    is proven: `solve` with an empty table, remembered by the cards as given,
    the meld rules and the state budget (all it reads; the solve is
    deterministic). Successive turns ask about the same rest of a hand."""
    key = (rules, tuple(cards), limit)
    got = _HAND_MELDS.get(key)
    if got is None:
        sol = solve([], cards, rules, max_states=limit)
        if len(_HAND_MELDS) >= _HAND_MELDS_MAX:
            _HAND_MELDS.clear()
        got = _HAND_MELDS[key] = (sol.max_cards_laid, tuple(tuple(m) for m in sol.melds), sol.optimal)
    return got


def best_lay_offs(
    table_readings: Sequence[Reading],
    hand: Sequence[Card],
    rules: MeldRules,
    *,
    new_melds: bool = True,
    max_states: int | None = None,
) -> LayOffPlan:
    """The most hand cards that can go down where table melds keep their places:
    lay offs at run ends and into sets' missing suits (checked by
    ``lay_off_positional``), plus new melds from the rest of the hand. Exact:
    every combination of lay offs is tried with a bound, and the new melds of
    what is left come from :func:`solve` with an empty table.

    ``new_melds=False`` skips the new melds: for a hand known to hold none
    (the greedy bot's cheap ``meldable`` test says so), the same search and
    the same plan without a solver call at every leaf.

    ``max_states`` bounds the search over lay offs and each solve of new melds
    (default :data:`DEFAULT_MAX_STATES`); past it the plan is the best found
    and ``plan.optimal`` is False."""
    limit = DEFAULT_MAX_STATES if max_states is None else max_states
    calls = [0]
    proven = [True]
    hand = list(hand)
    face = lambda c: c.face if not c.is_joker else "J"  # noqa: E731
    options = []
    for i, rd in enumerate(table_readings):
        opts = _addition_options(i, rd, hand, rules)
        if opts:
            needs = [
                (Counter(face(c) for c in nats) + Counter("J" for _ in joks), nats, joks, res)
                for nats, joks, res in opts
            ]
            options.append((i, needs))
    hand_faces = Counter(face(c) for c in hand)
    best: list[Any] = [-1, None]
    new_cache: dict = {}

    def new_melds_for(left: Counter) -> tuple[int, Sequence[Sequence[Card]]]:
        if not new_melds:
            return 0, ()
        key = tuple(sorted(left.items(), key=str))
        if key not in new_cache:
            cards = []
            spare = list(hand)
            for f, k in left.items():
                for _ in range(k):
                    c = next(x for x in spare if face(x) == f)
                    spare.remove(c)
                    cards.append(c)
            n, melds, optimal = _hand_melds(cards, rules, limit)
            if not optimal:
                proven[0] = False
            new_cache[key] = (n, melds)
        return new_cache[key]

    def rec(k: int, left: Counter, chosen: list, laid: int):
        if laid + sum(left.values()) <= best[0]:
            return
        calls[0] += 1
        if calls[0] > limit:
            proven[0] = False
            return
        if k == len(options):
            n, melds = new_melds_for(+left)
            if laid + n > best[0]:
                best[0] = laid + n
                best[1] = (list(chosen), melds)
            return
        i, opts = options[k]
        for need, naturals, jokers, res in opts:
            if any(left[f] < n for f, n in need.items()):
                continue
            rec(k + 1, left - need, [*chosen, (i, naturals, jokers, res)], laid + len(naturals) + len(jokers))
        rec(k + 1, left, chosen, laid)

    rec(0, Counter(hand_faces), [], 0)
    plan = LayOffPlan(optimal=proven[0])
    if best[1] is None:
        return plan
    chosen, from_hand = best[1]
    spare = list(hand)

    def take(c: Card) -> Card:
        x = next(x for x in spare if face(x) == face(c))
        spare.remove(x)
        return x

    for i, naturals, jokers, _res in chosen:
        nats = [take(c) for c in naturals]
        joks = [(take(j), f) for j, f in jokers]
        final = lay_off_positional(table_readings[i], nats, joks, rules)
        if not isinstance(final, Reading):  # pragma: no cover - a bug
            raise InternalError(f"lay off plan does not replay: {final}")
        plan.lay_offs.append((i, nats, joks))
        plan.readings[i] = final
        plan.laid.extend(nats + [j for j, _ in joks])
    for mm in from_hand:
        real = [take(c) for c in mm]
        if read_meld(real, rules) is None:  # pragma: no cover - a bug
            raise InternalError("lay off plan made an invalid new meld")
        plan.new_melds.append(real)
        plan.laid.extend(real)
    return plan
