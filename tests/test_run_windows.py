"""The three filters that read run windows as bit masks (the bots'
`meldable` and `rebuild_may_lay` through `_meldable_tables` and
`_run_cover`, the solver's `_live_hand` through `_run_fitting`) now take
their windows from one place, `melds.run_windows`, instead of each working
them out. Against their former versions (copied here): every bundled
preset's and house file's meld rules and seeded random ones, thousands of
seeded suits and hands, the same answers bit for bit."""

from __future__ import annotations

import random
from collections.abc import Sequence

from rami_core.cards import JOKER, JOKER_SUIT, Card
from rami_core.cards.melds import MeldRules, run_windows
from rami_core.files.resources import house_dir, house_names, preset_names
from rami_core.players.bots.hand import (
    _SET_FACES,
    _add_cards,
    _covered,
    _meldable,
    _meldable_tables,
    _run_cover,
    _run_faces,
    meldable,
)
from rami_core.profile.loader import load_profile
from rami_core.profile.resolve import rules_for
from rami_core.solver.whole_table import _run_fitting

# ------------------------------------------------------------------ the former versions

_MELDABLE_TABLES_BEFORE: dict = {}


def _meldable_tables_before(meld_rules):
    """Per meld rules: each rank's run places as a bit mask, and every run window's mask."""
    t = _MELDABLE_TABLES_BEFORE.get(meld_rules)
    if t is None:
        place_bits = [0] * 14
        for r in range(1, 14):
            for p in meld_rules.places_of(r):
                place_bits[r] |= 1 << p
        L = meld_rules.run_min
        lo_b, hi_b = (1, 27) if meld_rules.wrap else (meld_rules.low_bound, meld_rules.high_bound)
        windows = tuple(((1 << L) - 1) << lo for lo in range(lo_b, hi_b - L + 2))
        t = _MELDABLE_TABLES_BEFORE[meld_rules] = (place_bits, windows, {})
    return t


def _meldable_before(hand: Sequence[Card], meld_rules, runs: bool, sets: bool, jokers_ok: bool) -> set[Card]:
    place_bits, windows, run_memo = _meldable_tables_before(meld_rules)
    suit_places = [0, 0, 0, 0]
    rank_suits = [0] * 14
    rank_count = [0] * 14
    jokers = _add_cards(hand, place_bits, suit_places, rank_suits, rank_count)
    if not jokers_ok:
        jokers = 0
    if meld_rules.max_jokers is not None:
        jokers = min(jokers, meld_rules.max_jokers)
    out: set[Card] = set()
    min_nat = max(1, meld_rules.min_naturals)
    if sets:
        need_set = max(meld_rules.set_min, meld_rules.min_naturals)
        distinct = meld_rules.set_distinct_suits
        for r in range(1, 14):
            suits = rank_suits[r]
            if not suits:
                continue
            n = suits.bit_count() if distinct else rank_count[r]
            if n >= min_nat and n + jokers >= need_set:
                out.update(_SET_FACES[r][suits])
    if runs:
        L = meld_rules.run_min
        wrap = meld_rules.wrap
        for suit in range(4):
            places = suit_places[suit]
            if not places:
                continue
            got = run_memo.get((places, jokers))
            if got is None:
                have = (places | places << 13 | places >> 13) if wrap else places
                got = 0
                if have.bit_count() >= min_nat:
                    for w in windows:
                        k = (have & w).bit_count()
                        if k >= min_nat and L - k <= jokers:
                            got |= have & w
                if len(run_memo) >= 1 << 16:
                    run_memo.clear()
                run_memo[(places, jokers)] = got
            if got:
                out.update(_run_faces(suit, got))
    if out and jokers:
        out.add(JOKER)
    return out


_RUN_COVER_BEFORE: dict = {}


def _run_cover_before(meld_rules) -> tuple[tuple[tuple[int, int], ...], dict[tuple[int, int], int]]:
    got = _RUN_COVER_BEFORE.get(meld_rules)
    if got is None:
        lo_b, hi_b = meld_rules.low_bound, meld_rules.high_bound
        out = []
        for n in range(max(1, meld_rules.run_min), 14):
            for lo in range(lo_b, hi_b - n + 2):
                out.append((((1 << n) - 1) << lo, n))
        if len(_RUN_COVER_BEFORE) >= 16:
            _RUN_COVER_BEFORE.clear()
        got = _RUN_COVER_BEFORE[meld_rules] = (tuple(out), {})
    return got


def _covered_before(meld_rules, places: int, jokers: int) -> int:
    windows, known = _run_cover_before(meld_rules)
    key = (places, jokers)
    got = known.get(key)
    if got is None:
        min_nat = max(1, meld_rules.min_naturals)
        got = 0
        for w, length in windows:
            k = (places & w).bit_count()
            if k >= min_nat and length - k <= jokers:
                got |= w
        if len(known) >= 1 << 16:
            known.clear()
        known[key] = got
    return got


def _run_fitting_before(row: int, jmax: int, rules: MeldRules) -> int:
    lo_b, hi_b, L = rules.low_bound, rules.high_bound, rules.run_min
    if L <= 0:
        return 0
    min_nat = rules.min_naturals
    window = (1 << L) - 1
    if row & 2:
        row |= 1 << 14
    covered = 0
    for lo in range(lo_b, hi_b - L + 2):
        nat = (row >> lo & window).bit_count()
        if L - nat <= jmax and nat >= min_nat:
            covered |= window << lo
    fit = covered & 0x3FFC
    if covered & ((2 if rules.ace_low else 0) | (1 << 14 if rules.ace_high else 0)):
        fit |= 2
    return fit


# ------------------------------------------------------------------ the rules and the inputs


def _bundled_rules() -> list[MeldRules]:
    """The meld rules of every preset and bundled house file (a wrapping one among them)."""
    out = []
    for name in preset_names() + house_names():
        profile = load_profile(name if name in preset_names() else house_dir() / f"{name}.yaml")
        out.append(rules_for(profile, 2).melds)
    return list(dict.fromkeys(out))


def _random_rules(rng: random.Random) -> MeldRules:
    set_min = rng.choice([2, 3, 3, 3, 4])
    return MeldRules(
        run_min=rng.choice([0, 1, 2, 3, 3, 3, 4, 5, 7, 13, 14]),
        set_min=set_min,
        set_max=max(set_min, rng.choice([3, 4, 4, 6])),
        set_distinct_suits=rng.random() < 0.7,
        ace_low=rng.random() < 0.8,
        ace_high=rng.random() < 0.8,
        wrap=rng.random() < 0.2,
        max_jokers=rng.choice([None, None, 0, 1, 2]),
        min_naturals=rng.choice([0, 1, 1, 2, 3]),
    )


def _all_rules(seed: int) -> list[MeldRules]:
    rng = random.Random(seed)
    bundled = _bundled_rules()
    assert any(r.wrap for r in bundled) and any(not r.wrap for r in bundled)
    return bundled + [_random_rules(rng) for _ in range(40)] + [MeldRules()]


def _random_places(rng: random.Random, place_bits: list[int]) -> int:
    """One suit's places, as `_add_cards` sums them: the place bits of some ranks."""
    places = 0
    for r in rng.sample(range(1, 14), rng.randint(0, 13)):
        places |= place_bits[r]
    return places


def _deck() -> list[Card]:
    return [Card(r, s, d) for d in range(2) for s in range(4) for r in range(1, 14)] + [
        Card(0, JOKER_SUIT, d) for d in range(4)
    ]


# ------------------------------------------------------------------ the twins


def test_run_windows_are_the_windows_each_filter_built() -> None:
    for meld_rules in _all_rules(1):
        got = _meldable_tables(meld_rules)
        want = _meldable_tables_before(meld_rules)
        assert got[0] == want[0] and got[1] == want[1], meld_rules
        assert _run_cover(meld_rules)[0] == _run_cover_before(meld_rules)[0], meld_rules
        # asked twice, the same (remembered) tuple
        assert run_windows(meld_rules, 3) is run_windows(meld_rules, 3)


def test_meldable_matches_former_version() -> None:
    rng = random.Random(20261207)
    rules = _all_rules(2)
    deck = _deck()
    found = 0
    for i in range(6000):
        meld_rules = rules[i % len(rules)] if i < 2 * len(rules) else rng.choice(rules)
        hand = rng.sample(deck, rng.randint(0, 16))
        runs, sets, jokers_ok = rng.random() < 0.9, rng.random() < 0.5, rng.random() < 0.8
        want = _meldable_before(hand, meld_rules, runs, sets, jokers_ok)
        assert _meldable(hand, meld_rules, runs, sets, jokers_ok) == want, (meld_rules, hand)
        assert meldable(hand, meld_rules, runs=runs, sets=sets, jokers_ok=jokers_ok) == want
        found += len(want)
    assert found > 10000  # the hands exercise the filter


def test_covered_matches_former_version() -> None:
    rng = random.Random(61220263)
    rules = _all_rules(3)
    answers = set()
    for i in range(20000):
        meld_rules = rules[i % len(rules)] if i < 2 * len(rules) else rng.choice(rules)
        places = _random_places(rng, _meldable_tables(meld_rules)[0])
        jokers = rng.randint(0, 5)
        want = _covered_before(meld_rules, places, jokers)
        assert _covered(meld_rules, places, jokers) == want, (meld_rules, places, jokers)
        assert _covered(meld_rules, places, jokers) == want  # the memo's answer
        answers.add(want == 0)
    assert answers == {True, False}


def test_run_fitting_matches_former_version() -> None:
    rng = random.Random(7122026)
    rules = _all_rules(4)
    answers = set()
    for i in range(20000):
        meld_rules = rules[i % len(rules)] if i < 2 * len(rules) else rng.choice(rules)
        # a suit's faces present: bit r for rank r, the ace at bit 1 only
        row = sum(1 << r for r in rng.sample(range(1, 14), rng.randint(0, 13)))
        jmax = rng.randint(0, 5)
        want = _run_fitting_before(row, jmax, meld_rules)
        assert _run_fitting(row, jmax, meld_rules) == want, (meld_rules, row, jmax)
        answers.add(want == 0)
    assert answers == {True, False}
