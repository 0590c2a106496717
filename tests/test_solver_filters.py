"""The solver's and the bots' cheap filters, rewritten for speed, against
their former versions (copied here) on many seeded random positions: the
same answers, card for card."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from rami_core.cards import JOKER_SUIT, Card
from rami_core.cards.melds import MeldRules, joins_meld
from rami_core.players.bots.candidates import _MIXED, _apart
from rami_core.players.bots.hand import _add_cards, _meldable_tables, _pool_of, rebuild_may_lay
from rami_core.profile.loader import load_profile
from rami_core.profile.resolve import rules_for
from rami_core.solver.whole_table import _live_hand


def _live_hand_before(table: Sequence[Card], hand: Sequence[Card], rules: MeldRules) -> list[Card]:
    """whole_table._live_hand as it was (a Python call per hand face)."""
    hand = list(hand)
    if rules.wrap:
        return hand
    tmask = [0, 0, 0, 0]
    trank = [0] * 14
    jokers = 0
    for c in table:
        s = c[1]
        if s == JOKER_SUIT:
            jokers += 1
        else:
            tmask[s] |= 1 << c[0]
            trank[c[0]] += 1
    hfaces: dict[tuple[int, int], int] = {}
    for c in hand:
        if c[1] == JOKER_SUIT:
            jokers += 1
        else:
            f = c[:2]
            hfaces[f] = hfaces.get(f, 0) + 1
    jmax = jokers if rules.max_jokers is None else min(jokers, rules.max_jokers)
    lo_b, hi_b, L = rules.low_bound, rules.high_bound, rules.run_min
    window = (1 << L) - 1 if L > 0 else 0
    distinct = rules.set_distinct_suits
    set_min, min_nat = rules.set_min, rules.min_naturals
    ace_places = tuple(p for p, ok in ((1, rules.ace_low), (14, rules.ace_high)) if ok)
    while True:
        pres = list(tmask)
        count = list(trank)
        for (r, s), k in hfaces.items():
            pres[s] |= 1 << r
            count[r] += k
        for s in range(4):
            if pres[s] & 2:
                pres[s] |= 1 << 14

        def fits(face: tuple[int, int], pres: list[int] = pres, count: list[int] = count) -> bool:
            r, s = face
            if distinct:
                others = sum(1 for x in range(4) if x != s and pres[x] >> r & 1)
                if others >= 1 and others + 1 + min(jmax, 4) >= set_min and min_nat <= others + 1:
                    return True
                if others + 1 + jmax >= set_min and 1 + others >= min_nat:
                    return True
            else:
                n = count[r]
                if n + jmax >= set_min and n >= min_nat:
                    return True
            row = pres[s]
            for p in ace_places if r == 1 else (r,):
                for lo in range(max(p - L + 1, lo_b), min(p, hi_b - L + 1) + 1):
                    nat = (row >> lo & window).bit_count()
                    if L - nat <= jmax and nat >= min_nat:
                        return True
            return False

        dead = {f for f in hfaces if not fits(f)}
        if not dead:
            return hand
        hand = [c for c in hand if c[:2] not in dead]
        for f in dead:
            del hfaces[f]


def random_rules(rng: random.Random) -> MeldRules:
    set_min = rng.choice([2, 3, 3, 3, 4])
    return MeldRules(
        run_min=rng.choice([0, 1, 2, 3, 3, 3, 4, 5]),
        set_min=set_min,
        set_max=max(set_min, rng.choice([3, 4, 4, 6])),
        set_distinct_suits=rng.random() < 0.7,
        ace_low=rng.random() < 0.8,
        ace_high=rng.random() < 0.8,
        wrap=rng.random() < 0.05,
        max_jokers=rng.choice([None, None, 0, 1, 2]),
        min_naturals=rng.choice([0, 1, 1, 2, 3]),
    )


def random_position(rng: random.Random, decks: int = 2) -> tuple[list[Card], list[Card]]:
    cards = [Card(r, s, d) for d in range(decks) for s in range(4) for r in range(1, 14)]
    cards += [Card(0, JOKER_SUIT, d) for d in range(2 * decks)]
    rng.shuffle(cards)
    nt = rng.choice([0, 0, 3, 6, 10, 20, 35])
    nh = rng.choice([0, 1, 3, 7, 10, 14, 20])
    return cards[:nt], cards[nt : nt + nh]


def test_live_hand_matches_former_version() -> None:
    rng = random.Random(20261206)
    rules = [random_rules(rng) for _ in range(60)] + [MeldRules()]
    dropped = 0
    for _ in range(6000):
        r = rng.choice(rules)
        table, hand = random_position(rng)
        got = _live_hand(table, hand, r)
        want = _live_hand_before(table, hand, r)
        assert got == want, (r, table, hand)
        dropped += len(hand) - len(got)
        # asked again (the memo's answer): the same
        assert _live_hand(table, hand, r) == want
    assert dropped > 1000  # the positions exercise the filter


_WINDOWS_BEFORE: dict = {}


def _windows_through_before(meld_rules, place: int) -> tuple[tuple[int, int], ...]:
    key = (meld_rules, place)
    got = _WINDOWS_BEFORE.get(key)
    if got is None:
        lo_b, hi_b = meld_rules.low_bound, meld_rules.high_bound
        out = []
        for n in range(meld_rules.run_min, 14):
            for lo in range(max(lo_b, place - n + 1), min(place, hi_b - n + 1) + 1):
                out.append((((1 << n) - 1) << lo, n))
        got = _WINDOWS_BEFORE[key] = tuple(out)
    return got


def _run_through_before(meld_rules, places: int, place: int, jokers: int) -> bool:
    min_nat = max(1, meld_rules.min_naturals)
    for w, length in _windows_through_before(meld_rules, place):
        k = (places & w).bit_count()
        if k >= min_nat and length - k <= jokers:
            return True
    return False


def _rebuild_may_lay_before(table, hand, meld_rules, among=None) -> bool:
    """players.bots.hand.rebuild_may_lay as it was (a run test per face and place)."""
    if meld_rules.wrap:
        return True
    tried = {(c.rank, c.suit) for c in (hand if among is None else among)}
    if (0, JOKER_SUIT) in tried:
        return True
    if not tried:
        return False
    suit_places, rank_suits, rank_count, jokers = _pool_of(table, meld_rules)
    suit_places, rank_suits, rank_count = list(suit_places), list(rank_suits), list(rank_count)
    place_bits = _meldable_tables(meld_rules)[0]
    jokers += _add_cards(hand, place_bits, suit_places, rank_suits, rank_count)
    if meld_rules.max_jokers is not None:
        jokers = min(jokers, meld_rules.max_jokers)
    min_nat = max(1, meld_rules.min_naturals)
    set_min, set_max = meld_rules.set_min, meld_rules.set_max
    distinct = meld_rules.set_distinct_suits
    for r, s in tried:
        n = rank_suits[r].bit_count() if distinct else rank_count[r]
        n = min(n, set_max)
        if n >= min_nat and n + jokers >= set_min and set_min <= set_max:
            return True
        places = suit_places[s]
        for p in meld_rules.places_of(r):
            if _run_through_before(meld_rules, places, p, jokers):
                return True
    return False


def test_rebuild_may_lay_matches_former_version() -> None:
    rng = random.Random(61220262)
    rules = [random_rules(rng) for _ in range(60)] + [MeldRules()]
    answers = set()
    for _ in range(8000):
        r = rng.choice(rules)
        table, hand = random_position(rng)
        if rng.random() < 0.3:
            table, hand = table[:3], [c for c in hand if c[1] != JOKER_SUIT][:4]
        among = rng.sample(hand, rng.randint(0, len(hand))) if hand and rng.random() < 0.4 else None
        want = _rebuild_may_lay_before(table, hand, r, among)
        assert rebuild_may_lay(table, hand, r, among) == want, (r, table, hand, among)
        assert rebuild_may_lay(table, hand, r, among) == want
        answers.add(want)
    assert answers == {True, False}


def test_simple_layoffs_apart_never_refuses_a_joining_card() -> None:
    """candidates._apart, the test simple_layoffs asks before joins_meld: it
    says a card cannot join only where joins_meld says so too."""
    rng = random.Random(7061226)
    rules = [random_rules(rng) for _ in range(40)] + [MeldRules(), MeldRules(wrap=True)]
    counted = {True: 0, False: 0}
    for _ in range(20000):
        r = rng.choice(rules)
        run = rng.random() < 0.6
        n = rng.randint(2, 9)
        if run:
            s = rng.randrange(4)
            start = rng.randint(1, 13)
            nat = [
                Card((start + k - 1) % 13 + 1, s, rng.randrange(2)) for k in range(n) if rng.random() < 0.8
            ]
            if rng.random() < 0.2 and nat:
                nat[rng.randrange(len(nat))] = Card(rng.randint(1, 13), s, 0)
            c = Card(rng.randint(1, 13), s, rng.randrange(2))
        else:
            rank = rng.randint(1, 13)
            nat = [Card(rank, rng.randrange(4), rng.randrange(2)) for _ in range(rng.randint(2, 5))]
            c = Card(rank, rng.randrange(4), rng.randrange(2))
        jokers = [Card(0, JOKER_SUIT, k) for k in range(rng.choice([0, 0, 1, 2]))]
        m = nat + jokers
        rng.shuffle(m)
        suits = ranks = 0
        for o in nat:
            suits |= 1 << o.suit
            ranks |= 1 << o.rank
        several_ranks, several_suits = ranks & (ranks - 1), suits & (suits - 1)
        if several_ranks and several_suits:
            continue
        if not several_ranks and not several_suits:
            continue
        suit = _MIXED if several_suits else nat[0].suit
        apart = _apart(suit, suits, ranks, len(m), c, r)
        if apart:
            assert not joins_meld(tuple(m), c, r), (r, m, c)
        counted[apart] += 1
    assert counted[True] > 3000 and counted[False] > 3000


def test_mask_growth_predicates_match_the_candidates() -> None:
    """rl.mask._meld_growths asks `PackingBounds.fits` and `Candidate.holds`
    as integers (as_bits rooms, `Candidate.bits` and `body_bits`): the same
    answers on the candidates of seeded random voleur hands."""
    pytest.importorskip("pettingzoo", reason="the [rl] extra is not installed (pip install -e '.[rl]')")
    from rami_core.rl import packing
    from rami_core.rl.faces import FACES, JOKER_INDEX

    rules = rules_for(load_profile("voleur"), 2)
    rng = random.Random(12062026)
    deck = [f for f in range(FACES) for _ in range(2 if f != JOKER_INDEX else 4)]
    answers = {True: 0, False: 0}
    for _ in range(60):
        hand = rng.sample(deck, rng.randint(8, 20))
        counts = tuple(hand.count(f) for f in range(FACES))
        bounds = packing.PackingBounds(packing.candidates(counts, rules))
        for _ in range(60):
            room = tuple(rng.randint(0, n) for n in counts)
            have = packing.as_bits(room)
            body: dict[int, int] = {}
            for f in rng.sample(hand, rng.randint(0, 4)):
                body[f] = body.get(f, 0) + 1
            want = packing.pairs_bits(body.items())
            low = rng.choice([0, 0, 1, 2])
            for i, c in enumerate(bounds.cands):
                assert packing.holds_bits(have, c.bits) == bounds.fits(i, room)
                got = low <= c.group.low and packing.holds_bits(c.body_bits, want)
                assert got == c.holds(low, body)
                answers[got] += 1
    assert answers[True] > 100 and answers[False] > 1000
