"""`_meld_candidates_with_points` (best_opening's candidates, built from
remembered pieces) gives exactly what its former whole-hand enumeration,
kept below as the reference, gave: the same (cards, reading, points) in the
same order, the cards the hand's very Card objects. On thousands of seeded
random hands under every preset's meld rules and a few rules no preset has,
with 0 to 4 jokers, jokers allowed or not, long runs split or not, and
several score arguments; each hand asked twice (the second time from the
remembered pieces), and again with one face held back (as the action mask
asks)."""

from __future__ import annotations

import importlib
import random
from collections.abc import Sequence
from itertools import combinations

import pytest

from rami_core.cards import JOKER, JOKER_RANK, JOKER_SUIT, Card, build_deck
from rami_core.cards.melds import MeldRules, Reading, meld_points, read_meld
from rami_core.profile.loader import load_profile
from rami_core.profile.resolve import rules_for

# the module (the package's `best_opening` is the function)
bo = importlib.import_module("rami_core.solver.best_opening")

PRESETS = ("classic", "rami51", "rami71", "simple", "kaluki", "voleur")
# meld rules no preset has, each changing what the candidates are
OTHER_RULES = (
    MeldRules(wrap=True),
    MeldRules(ace_high=True, ace_low=False),
    MeldRules(ace_high=True, max_jokers=1, min_naturals=2),
    MeldRules(ace_high=True, set_distinct_suits=False, set_max=6),
    MeldRules(ace_high=True, run_min=4, set_min=4),
)
SCORES = (
    {"ace": 11, "ace_low": 1, "court": 10},
    {"ace": 1, "ace_low": 1, "court": 10},
    {"ace": 15, "ace_low": 5, "court": 12},
    {},
)


def _reference(
    hand: Sequence[Card], rules: MeldRules, allow_jokers: bool, score: dict, split_long_runs: bool = True
):
    """The former `_meld_candidates_with_points`, as it was before its pieces
    were remembered: every meld buildable from the hand, as (cards written in
    order, reading, points)."""
    nat = [c for c in hand if not c.is_joker]
    jok = [c for c in hand if c.is_joker] if allow_jokers else []
    by_face: dict[tuple[int, int], list[Card]] = {}
    for c in nat:
        by_face.setdefault(c.face, []).append(c)
    out: dict[tuple, tuple[list[Card], Reading, int]] = {}
    jmax = len(jok) if rules.max_jokers is None else min(len(jok), rules.max_jokers)

    def consider(cards: list[Card]):
        reading = read_meld(cards, rules)
        if reading is None:
            return
        pts = meld_points(reading, **score)
        key = tuple(sorted(cards))
        old = out.get(key)
        if old is None or pts > old[2] or (pts == old[2] and reading.pure and not old[1].pure):
            out[key] = (list(cards), reading, pts)

    # runs, written in place order, jokers at their places. A run that splits
    # into two valid runs is left out: the two halves lay the same cards for
    # the same points (no half starts at place 1 unless the whole run does),
    # and are pure wherever the whole run is. Wrapping runs are all kept (a
    # half starting on the ace would count it low).
    L = rules.run_min
    N = max(1, rules.min_naturals)
    k_min = max(1, rules.min_naturals)
    held = [0, 0, 0, 0]  # per suit, a bit per rank held
    for r, su in by_face:
        held[su] |= 1 << r
    for su, windows in enumerate(bo._run_windows(rules, jmax, split_long_runs)):
        for n, faces, mask in windows:
            if mask is not None and (mask & held[su]).bit_count() + jmax < n:
                continue  # too few naturals (the test below, without the list)
            present = [i for i, f in enumerate(faces) if f in by_face]
            if len(present) + jmax < n:
                continue
            # choose which present places take a natural (others take jokers)
            for k in range(max(k_min, n - jmax), len(present) + 1):
                for chosen in combinations(present, k):
                    cs = set(chosen)
                    if split_long_runs and n >= 2 * L and not rules.wrap and bo._splits(cs, n, L, N):
                        continue
                    js = list(jok)
                    cards = []
                    for i, f in enumerate(faces):
                        cards.append(by_face[f][0] if i in cs else js.pop())
                    consider(cards)
    # sets
    size_max = min(rules.set_max, 4) if rules.set_distinct_suits else rules.set_max
    for r in range(1, 14):
        if rules.set_distinct_suits:
            of_rank = [by_face[(r, s)][0] for s in range(4) if (r, s) in by_face]
        else:
            of_rank = [c for s in range(4) for c in by_face.get((r, s), [])]
        for n in range(max(1, rules.min_naturals), min(len(of_rank), size_max) + 1):
            for combo in combinations(of_rank, n):
                for j in range(jmax + 1):
                    if rules.set_min <= n + j <= size_max:
                        consider(list(combo) + jok[:j])
    return list(out.values())


def _hand(rng: random.Random, decks: int, jokers: int, size: int) -> list[Card]:
    """A hand of `size` cards: half the time drawn from few ranks and suits
    (melds, and ties between them, are common), else from the whole deck."""
    deck = build_deck(decks, jokers)
    if rng.random() < 0.5:
        ranks = set(rng.sample(range(1, 14), rng.randint(3, 7)))
        suits = set(rng.sample(range(4), rng.randint(1, 4)))
        deck = [c for c in deck if c.suit == JOKER_SUIT or (c.rank in ranks and c.suit in suits)]
    return rng.sample(deck, min(size, len(deck)))


def _same(hand: list[Card], rules: MeldRules, allow_jokers: bool, score: dict, split: bool) -> int:
    """Both builds on one hand: equal lists, the very Card objects; the count of candidates."""
    want = _reference(hand, rules, allow_jokers, score, split)
    got = bo._meld_candidates_with_points(hand, rules, allow_jokers, score, split)
    assert len(got) == len(want), (hand, rules, allow_jokers, score, split)
    for (gc, gr, gp), (wc, wr, wp) in zip(got, want):
        assert len(gc) == len(wc) and all(a is b for a, b in zip(gc, wc)), (hand, rules, gc, wc)
        assert gr == wr and gp == wp, (hand, rules, gc, gr, wr, gp, wp)
    return len(want)


def _check(rng: random.Random, rules: MeldRules, decks: int, hands: int) -> int:
    found = 0
    for _ in range(hands):
        size = rng.choice((3, 5, 7, 9, 10, 11, 13, 14, 15, 18))
        hand = _hand(rng, decks, rng.randint(0, 4), size)
        allow, split, score = rng.random() < 0.8, rng.random() < 0.7, rng.choice(SCORES)
        found += _same(hand, rules, allow, score, split)
        found += _same(hand, rules, allow, score, split)  # from the remembered pieces
        # the action mask's question: the hand with one face held back
        faces = sorted({c.face for c in hand})
        if faces:
            held_back = rng.choice(faces)
            found += _same([c for c in hand if c.face != held_back], rules, allow, score, split)
        # the hand shuffled: other first copies, other jokers at the ends
        shuffled = list(hand)
        rng.shuffle(shuffled)
        found += _same(shuffled, rules, allow, score, split)
        # the same faces, other values: each card the other deck's copy
        # (the pieces' readings rebuilt), then every joker the same value
        swapped = [Card(c.rank, c.suit, 1 - c.copy) if c.copy < 2 else c for c in shuffled]
        found += _same(swapped, rules, allow, score, split)
        found += _same([JOKER if c.is_joker else c for c in swapped], rules, allow, score, split)
    return found


@pytest.mark.parametrize("preset", PRESETS)
def test_the_candidates_are_the_reference_ones_under_each_preset(preset: str) -> None:
    """400 hands a preset's meld rules, its decks, 0 to 4 jokers."""
    rules = rules_for(load_profile(preset), 2)
    rng = random.Random(f"opening-cands:{preset}")
    assert _check(rng, rules.melds, rules.decks, 400) > 4000


@pytest.mark.parametrize("index", range(len(OTHER_RULES)))
def test_the_candidates_are_the_reference_ones_under_other_meld_rules(index: int) -> None:
    """300 hands for each of five meld rules no preset has, two decks."""
    rng = random.Random(f"opening-cands:other:{index}")
    assert _check(rng, OTHER_RULES[index], 2, 300) > 1500


def test_the_candidates_are_the_reference_ones_through_forgotten_pieces(monkeypatch) -> None:
    """With room for a few pieces and face-level readings only (the memos
    forgotten again and again), the answers stay the reference ones."""
    monkeypatch.setattr(bo, "_PIECES_MAX", 3)
    monkeypatch.setattr(bo, "_PIECES_RULES_MAX", 2)
    monkeypatch.setattr(bo, "_READS_MAX", 5)
    bo._PIECES.clear()
    rng = random.Random("opening-cands:small")
    for preset in ("rami51", "kaluki"):
        rules = rules_for(load_profile(preset), 2)
        _check(rng, rules.melds, rules.decks, 60)
    for rules in OTHER_RULES:
        _check(rng, rules, 2, 20)
    bo._PIECES.clear()


def test_a_run_and_a_set_of_one_natural_share_a_multiset() -> None:
    """A natural and two jokers: a run piece and a set piece build the same
    multiset; it appears once, where first seen, read for the most points."""
    jk = [Card(JOKER_RANK, JOKER_SUIT, 0), Card(JOKER_RANK, JOKER_SUIT, 1)]
    hand = [Card(12, 1, 0), *jk, Card(5, 2, 1), Card(5, 2, 0)]
    for rules in (MeldRules(), MeldRules(ace_high=True, set_distinct_suits=False, set_max=6)):
        for score in SCORES:
            assert _same(hand, rules, True, score, True) > 0
            assert _same(list(reversed(hand)), rules, True, score, False) > 0


def test_an_unhashable_score_is_built_afresh() -> None:
    """Score arguments that cannot key the memo still give the reference answer."""

    class Points(int):
        __hash__ = None  # type: ignore[assignment]

    score = {"ace": Points(11), "ace_low": 1, "court": 10}
    hand = [Card(r, 0, 0) for r in range(1, 8)] + [Card(JOKER_RANK, JOKER_SUIT, 0)]
    assert _same(hand, MeldRules(), True, score, True) > 0


def test_the_learning_environments_forget_the_pieces_with_their_memos() -> None:
    """`rl.mask.forget_shared_memos` (a benchmark's rows start cold) drops
    the remembered pieces too."""
    pytest.importorskip("pettingzoo", reason="the [rl] extra is not installed (pip install -e '.[rl]')")
    from rami_core.rl.mask import forget_shared_memos

    hand = [Card(r, 0, 0) for r in range(1, 8)] + [Card(JOKER_RANK, JOKER_SUIT, 0)]
    _same(hand, MeldRules(), True, SCORES[0], True)
    assert bo._PIECES
    forget_shared_memos()
    assert not bo._PIECES
