"""The bots' cheap proofs that a whole-table rebuild lays nothing
(`bots.hand.rebuild_may_lay`, `bots.hand.NoLayFacts`): they let greedy and
expert skip the solver, so they must never say "nothing" where the solver
lays a card. Checked against `solver.solve` on small random positions."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from rami_core.cards import JOKER_SUIT, Card, parse_cards
from rami_core.cards.melds import MeldRules, read_meld
from rami_core.players.bots.hand import NoLayFacts, rebuild_may_lay, usefulness, usefulness_of_hand, without
from rami_core.profile.model import Opening
from rami_core.solver import best_opening, solve

VOLEUR_LIKE = MeldRules()

rules_strategy = st.builds(
    MeldRules,
    run_min=st.sampled_from([3, 4]),
    ace_low=st.booleans(),
    ace_high=st.booleans(),
    max_jokers=st.sampled_from([None, 1]),
    min_naturals=st.sampled_from([1, 2]),
    set_distinct_suits=st.booleans(),
).filter(lambda r: r.ace_low or r.ace_high)


@st.composite
def positions(draw, rules_st=rules_strategy):
    """(rules, table, hand): a table of 0-3 melds valid under the rules (runs
    and sets, a joker now and then), a hand of up to 7 cards from the rest of
    two decks and two jokers. Ranks are drawn near one another so that hand
    cards often could join, and often not."""
    rules = draw(rules_st)
    lo = draw(st.integers(1, 8))
    ranks = list(range(lo, lo + 6))
    pool = Counter({(r, s): 2 for r in ranks for s in range(4)})
    jokers = draw(st.integers(0, 2))
    table: list[list[Card]] = []
    for _ in range(draw(st.integers(0, 3))):
        if draw(st.booleans()):
            s = draw(st.integers(0, 3))
            n = draw(st.integers(rules.run_min, rules.run_min + 2))
            start = draw(st.integers(lo, lo + 6 - n)) if n <= 6 else lo
            faces = [(r, s) for r in range(start, min(start + n, lo + 6))]
        else:
            r = draw(st.sampled_from(ranks))
            suits = draw(st.lists(st.integers(0, 3), min_size=3, max_size=4, unique=True))
            faces = [(r, s) for s in suits]
        if any(pool[f] == 0 for f in faces):
            continue
        meld = [Card(r, s, 2 - pool[(r, s)]) for r, s in faces]
        if jokers and draw(st.booleans()):
            meld[draw(st.integers(0, len(meld) - 1))] = Card(0, JOKER_SUIT, jokers)
        if read_meld(meld, rules) is None:
            continue
        for c in meld:
            if c.is_joker:
                jokers -= 1
            else:
                pool[c[:2]] -= 1
        table.append(meld)
    rest = [Card(r, s, k) for (r, s), n in sorted(pool.items()) for k in range(2 - n, 2)]
    rest += [Card(0, JOKER_SUIT, i) for i in range(1, jokers + 1)]
    hand = draw(st.lists(st.sampled_from(rest), max_size=7, unique=True)) if rest else []
    return rules, table, hand


def proven_laid(table: list[list[Card]], hand: list[Card], rules: MeldRules) -> int:
    sol = solve(table, hand, rules)
    assume(sol.optimal and sol.feasible)
    return len(sol.laid)


@settings(max_examples=40, deadline=None)
@given(positions())
def test_no_hand_card_can_join_means_the_rebuild_lays_nothing(pos):
    rules, table, hand = pos
    flat = [c for m in table for c in m]
    if not rebuild_may_lay(flat, hand, rules):
        assert proven_laid(table, hand, rules) == 0


@settings(max_examples=25, deadline=None)
@given(positions(), st.data())
def test_a_known_no_lay_position_and_new_cards_that_cannot_join(pos, data):
    """NoLayFacts: a hand that kept part of a proven no-lay hand and gained
    cards is declared lay-less only when the solver agrees."""
    rules, table, hand = pos
    flat = [c for m in table for c in m]
    assume(hand)
    k = data.draw(st.integers(0, len(hand)))
    before, gained = hand[:k], hand[k:]
    assume(proven_laid(table, before, rules) == 0)
    dropped = data.draw(st.lists(st.sampled_from(before), unique=True)) if before else []
    now = without(before, dropped) + gained
    facts = NoLayFacts()
    facts.add(flat, before)
    if facts.nothing(flat, now, rules):
        assert proven_laid(table, now, rules) == 0


def test_examples_both_ways():
    table = [parse_cards("4H 5H 6H"), parse_cards("9S 9D 9C")]
    flat = [c for m in table for c in m]
    assert rebuild_may_lay(flat, parse_cards("7H"), VOLEUR_LIKE)  # extends the run
    assert rebuild_may_lay(flat, parse_cards("9H"), VOLEUR_LIKE)  # completes the set
    assert rebuild_may_lay(flat, parse_cards("JK"), VOLEUR_LIKE)  # a joker is never ruled out
    assert not rebuild_may_lay(flat, parse_cards("KC 2D QS"), VOLEUR_LIKE)
    assert solve(table, parse_cards("KC 2D QS"), VOLEUR_LIKE).laid == []
    # a run needing two naturals may need a window longer than run_min
    two_naturals = MeldRules(min_naturals=2)
    assert rebuild_may_lay(
        [Card(0, JOKER_SUIT, 0), Card(0, JOKER_SUIT, 1)], parse_cards("5S 8S"), two_naturals
    )
    # the hand's own melds count as well
    assert rebuild_may_lay([], parse_cards("2C 3C 4C"), VOLEUR_LIKE)
    assert not rebuild_may_lay([], parse_cards("2C 3D 4C"), VOLEUR_LIKE)


def test_facts_remember_only_the_table_they_were_proven_on():
    table = parse_cards("4H 5H 6H 9S 9D 9C")
    facts = NoLayFacts()
    facts.add(table, parse_cards("KC 2D QS"))
    assert facts.nothing(table, parse_cards("KC 2D"), VOLEUR_LIKE)  # a part of a lay-less hand
    assert not facts.nothing(table, parse_cards("KC 2D 7H"), VOLEUR_LIKE)  # 7H extends the run
    other = parse_cards("4H 5H 6H 7H")  # unknown: only the quick test speaks
    assert facts.nothing(other, parse_cards("KC QS"), VOLEUR_LIKE)
    assert not facts.nothing(other, parse_cards("KC 8H"), VOLEUR_LIKE)


@st.composite
def opening_cases(draw):
    """(rules, settings, a hand, the hand a turn or two on: cards dropped, cards gained)."""
    rules = draw(rules_strategy)
    lo = draw(st.integers(1, 8))
    pool = [Card(r, s, k) for r in range(lo, lo + 6) for s in range(4) for k in range(2)]
    pool += [Card(0, JOKER_SUIT, i) for i in range(2)]
    before = draw(st.lists(st.sampled_from(pool), min_size=4, max_size=10, unique=True))
    dropped = draw(st.lists(st.sampled_from(before), max_size=2, unique=True))
    rest = [c for c in pool if c not in before]
    gained = draw(st.lists(st.sampled_from(rest), min_size=1, max_size=2, unique=True))
    spec = Opening(
        points=draw(st.sampled_from([0, 30, 51, 51])),
        pure_run=draw(st.booleans()),
        run_and_set=draw(st.booleans()),
        jokers=draw(st.booleans()),
    )
    return rules, spec, before, without(before, dropped) + gained


@settings(max_examples=40, deadline=None)
@given(opening_cases())
def test_a_hand_known_without_opening_and_new_cards_that_make_no_meld(case):
    """The planner's opening facts (NoLayFacts with an opening topic, as
    `opening_actions` keeps them) say "no opening" only where best_opening agrees."""
    rules, spec, before, now = case
    assume(best_opening(before, rules, spec) is None)
    facts = NoLayFacts()
    topic = ("opening", spec.points, spec.pure_run, spec.run_and_set, spec.jokers)
    facts.add((), before, topic)
    if facts.nothing((), now, rules, topic):
        assert best_opening(now, rules, spec) is None
    assert not facts.nothing((), now, rules, ("another topic",)) or not rebuild_may_lay((), now, rules)


def test_opening_facts_on_a_known_hand():
    spec = Opening(points=51, pure_run=True)
    topic = ("opening", 51, True, False, True)
    before = parse_cards("2S 3S 4S 9H KD")  # a run, but 9 points
    assert best_opening(before, VOLEUR_LIKE, spec) is None
    facts = NoLayFacts()
    facts.add((), before, topic)
    assert facts.nothing((), parse_cards("2S 3S 4S 9H KD QC"), VOLEUR_LIKE, topic)  # QC makes no meld
    assert not facts.nothing((), parse_cards("2S 3S 4S 9H KD KH KC"), VOLEUR_LIKE, topic)  # the Ks do
    assert best_opening(parse_cards("2S 3S 4S KD KH KC"), VOLEUR_LIKE, spec) is None  # 39 points
    assert best_opening(parse_cards("2S 3S 4S KD KH KC QD QH QC"), VOLEUR_LIKE, spec) is not None


any_card = st.one_of(
    st.builds(Card, st.integers(1, 13), st.integers(0, 3), st.integers(0, 1)),
    st.builds(Card, st.just(0), st.just(JOKER_SUIT), st.integers(0, 3)),
)
dead_faces = st.dictionaries(st.tuples(st.integers(1, 13), st.integers(0, 3)), st.integers(0, 3)).map(Counter)


# The strategies of the usefulness check, drawn by its quick run and its slow twin.
whole_hands = (st.lists(any_card, max_size=16), st.one_of(st.none(), dead_faces))


@settings(max_examples=80)
@given(*whole_hands)
def test_usefulness_of_a_whole_hand_is_usefulness_card_by_card(hand, dead):
    useful = usefulness_of_hand(hand, dead)
    for c in hand:
        assert useful[c.face] == usefulness(c, hand, dead)


# The default run draws about a quarter of the examples; the slow run draws the
# full counts these proofs were first checked with, on the same bodies and strategies.
def _slow_twin(quick, strategies: tuple, count: int):
    return pytest.mark.slow(
        settings(max_examples=count, deadline=None)(given(*strategies)(quick.hypothesis.inner_test))
    )


test_no_hand_card_can_join_means_the_rebuild_lays_nothing_many = _slow_twin(
    test_no_hand_card_can_join_means_the_rebuild_lays_nothing, (positions(),), 150
)
test_a_known_no_lay_position_and_new_cards_that_cannot_join_many = _slow_twin(
    test_a_known_no_lay_position_and_new_cards_that_cannot_join, (positions(), st.data()), 100
)
test_a_hand_known_without_opening_and_new_cards_that_make_no_meld_many = _slow_twin(
    test_a_hand_known_without_opening_and_new_cards_that_make_no_meld, (opening_cases(),), 150
)
test_usefulness_of_a_whole_hand_is_usefulness_card_by_card_many = _slow_twin(
    test_usefulness_of_a_whole_hand_is_usefulness_card_by_card, whole_hands, 300
)
