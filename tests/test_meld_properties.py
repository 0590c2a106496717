"""Properties of meld reading (cards judged as a multiset, what jokers stand for, laid places kept), checked with hypothesis.

Every generated card carries its own `copy` number, so each physical card is
distinct and can be followed from a table meld into the meld a lay off makes.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import assume, given, note
from hypothesis import strategies as st

from rami_core.cards import JOKER_RANK, JOKER_SUIT, Card, card_points
from rami_core.cards.melds import (
    AMBIGUOUS,
    RUN,
    SET,
    MeldRules,
    Reading,
    lay_off_positional,
    meld_points,
    rank_at,
    read_meld,
    read_run_in_order,
    read_set,
    swap_positional,
)

# --------------------------------------------------------------------------- strategies


@st.composite
def meld_rules(draw, jokers: bool | None = None, wrap: bool | None = None) -> MeldRules:
    """Rules a profile can express (wrap only with the ace both ways)."""
    if wrap is None:
        wrap = draw(st.booleans())
    if wrap:
        ace_low = ace_high = True
    else:
        ace_low, ace_high = draw(st.sampled_from([(True, False), (False, True), (True, True)]))
    if jokers is None:
        max_jokers = draw(st.sampled_from([None, 0, 1, 2]))
    elif jokers:
        max_jokers = draw(st.sampled_from([None, 1, 2]))
    else:
        max_jokers = 0
    return MeldRules(
        run_min=draw(st.sampled_from([3, 3, 4])),
        ace_low=ace_low,
        ace_high=ace_high,
        wrap=wrap,
        max_jokers=max_jokers,
        min_naturals=draw(st.sampled_from([1, 1, 2])),
    )


def _joker_count(draw, n: int, rules: MeldRules, want_jokers: bool | None) -> int:
    most = n - rules.min_naturals
    if rules.max_jokers is not None:
        most = min(most, rules.max_jokers)
    if want_jokers is False or most <= 0:
        return 0
    least = 1 if want_jokers else 0
    if least > most:
        return 0
    return draw(st.integers(least, most))


@st.composite
def valid_run(draw, rules: MeldRules, want_jokers: bool | None = None) -> list[Card]:
    """A run in place order, valid under `rules` by construction."""
    if rules.wrap:
        n = draw(st.integers(rules.run_min, 13))
        lo = draw(st.integers(1, 13))
    else:
        span = min(13, rules.high_bound - rules.low_bound + 1)  # a run holds each rank once
        n = draw(st.integers(rules.run_min, span))
        lo = draw(st.integers(rules.low_bound, rules.high_bound - n + 1))
    suit = draw(st.integers(0, 3))
    k = _joker_count(draw, n, rules, want_jokers)
    joker_at = set(draw(st.lists(st.integers(0, n - 1), unique=True, min_size=k, max_size=k)))
    cards = []
    for i in range(n):
        if i in joker_at:
            cards.append(Card(JOKER_RANK, JOKER_SUIT, 100 + i))
        else:
            cards.append(Card(rank_at(lo + i), suit, i))
    return cards


@st.composite
def valid_set(draw, rules: MeldRules) -> list[Card]:
    rank = draw(st.integers(1, 13))
    size = draw(st.integers(rules.set_min, rules.set_max))
    most_jokers = size - rules.min_naturals
    if rules.max_jokers is not None:
        most_jokers = min(most_jokers, rules.max_jokers)
    k = draw(st.integers(0, max(0, most_jokers)))
    suits = draw(st.permutations(range(4)))[: size - k]
    cards = [Card(rank, s, i) for i, s in enumerate(suits)]
    cards += [Card(JOKER_RANK, JOKER_SUIT, 100 + i) for i in range(k)]
    return cards


@st.composite
def near_meld_cards(draw, jokers: bool = True) -> list[Card]:
    """Card lists that are often, but not always, a meld: a few ranks near one
    another, one or two suits, some jokers. Copies are all distinct."""
    kind = draw(st.sampled_from(["run", "set", "any"]))
    n = draw(st.integers(1, 7))
    base = draw(st.integers(1, 13))
    out = []
    for i in range(n):
        if jokers and draw(st.integers(0, 5)) == 0:
            out.append(Card(JOKER_RANK, JOKER_SUIT, 100 + i))
            continue
        if kind == "run":
            rank = rank_at(base + draw(st.integers(0, 4)))
            suit = draw(st.sampled_from([0, 0, 0, 1]))
        elif kind == "set":
            rank = draw(st.sampled_from([base, base, base, rank_at(base + 1)]))
            suit = draw(st.integers(0, 3))
        else:
            rank = draw(st.integers(1, 13))
            suit = draw(st.integers(0, 3))
        out.append(Card(rank, suit, i))
    return out


# --------------------------------------------------------------------------- helpers


def _check_reading(r: Reading, cards: list[Card], rules: MeldRules) -> None:
    """A reading is its input cards placed, and every natural stands for itself."""
    assert Counter(r.cards) == Counter(cards)
    assert len(r.stands) == len(r.cards)
    for c, face in zip(r.cards, r.stands):
        if not c.is_joker:
            assert face == c.face, (c, face)
    naturals = [c for c in r.cards if not c.is_joker]
    assert len(naturals) >= rules.min_naturals
    if rules.max_jokers is not None:
        assert r.jokers <= rules.max_jokers
    if r.kind == RUN:
        assert len(r.cards) >= rules.run_min
        assert 1 <= r.start <= 13
        assert r.stands == tuple((rank_at(r.start + i), r.suit) for i in range(len(r.cards)))
        if not rules.wrap:
            assert rules.low_bound <= r.start and r.start + len(r.cards) - 1 <= rules.high_bound
    else:
        assert r.kind == SET
        assert rules.set_min <= len(r.cards) <= rules.set_max
        assert all(rank == r.rank for rank, _ in r.stands)
        if rules.set_distinct_suits:
            fixed = [s for _, s in r.stands if s != AMBIGUOUS]
            assert len(fixed) == len(set(fixed))


def _place_of(r: Reading, i: int) -> int:
    """A run card's place, mod 13 (a wrapping run's places are only known mod 13)."""
    return (r.start + i - 1) % 13


# --------------------------------------------------------------------------- 1. runs in any order


@given(data=st.data(), rules=meld_rules(jokers=False))
def test_natural_run_valid_in_any_order(data, rules):
    cards = data.draw(valid_run(rules, want_jokers=False))
    assert read_run_in_order(cards, rules) is not None
    shuffled = data.draw(st.permutations(cards))
    r = read_meld(shuffled, rules)
    assert r is not None
    _check_reading(r, shuffled, rules)


@given(data=st.data(), rules=meld_rules(jokers=True))
def test_run_with_jokers_valid_in_any_order(data, rules):
    cards = data.draw(valid_run(rules, want_jokers=True))
    assert read_run_in_order(cards, rules) is not None
    shuffled = data.draw(st.permutations(cards))
    r = read_meld(shuffled, rules)
    assert r is not None
    _check_reading(r, shuffled, rules)


@given(data=st.data(), rules=meld_rules(wrap=True))
def test_wrapping_run_valid_in_any_order(data, rules):
    cards = data.draw(valid_run(rules))
    shuffled = data.draw(st.permutations(cards))
    r = read_meld(shuffled, rules)
    assert r is not None
    _check_reading(r, shuffled, rules)


@given(data=st.data(), rules=meld_rules(wrap=False))
def test_non_wrapping_run_valid_in_any_order(data, rules):
    cards = data.draw(valid_run(rules))
    shuffled = data.draw(st.permutations(cards))
    r = read_meld(shuffled, rules)
    assert r is not None
    _check_reading(r, shuffled, rules)


@given(data=st.data(), rules=meld_rules(wrap=False))
def test_a_run_in_written_order_keeps_its_jokers_places(data, rules):
    # Reading 2: a meld that is a run in its written order is read that way.
    cards = data.draw(valid_run(rules))
    r = read_meld(cards, rules)
    assert r is not None
    if r.kind == RUN:
        assert list(r.cards) == cards


# --------------------------------------------------------------------------- 2. sets never repeat a suit


@given(cards=near_meld_cards(), rules=meld_rules())
def test_a_set_never_holds_two_cards_of_one_suit(cards, rules):
    r = read_set(cards, rules)
    if r is not None:
        suits = [c.suit for c in r.cards if not c.is_joker]
        assert len(suits) == len(set(suits))
        assert len({c.rank for c in r.cards if not c.is_joker}) == 1
        assert len(r.cards) <= 4


@given(data=st.data(), rules=meld_rules())
def test_generated_sets_are_valid_in_any_order(data, rules):
    cards = data.draw(valid_set(rules))
    shuffled = data.draw(st.permutations(cards))
    r = read_meld(shuffled, rules)
    assert r is not None
    _check_reading(r, shuffled, rules)


# --------------------------------------------------------------------------- 3. stands agree with naturals


@given(cards=near_meld_cards(), rules=meld_rules())
def test_read_meld_stands_agree_with_naturals(cards, rules):
    r = read_meld(cards, rules)
    if r is not None:
        _check_reading(r, cards, rules)


@given(
    cards=st.lists(
        st.builds(Card, st.integers(1, 13), st.integers(0, 3), st.integers(0, 1)), min_size=0, max_size=6
    ),
    rules=meld_rules(),
)
def test_read_meld_on_any_natural_cards(cards, rules):
    r = read_meld(cards, rules)
    if r is not None:
        _check_reading(r, cards, rules)


# --------------------------------------------------------------------------- 4. points


def _points_by_card(r: Reading) -> int:
    total = 0
    for i, c in enumerate(r.cards):
        if c.rank == 1 and r.kind == RUN and i == 0 and r.start == 1:
            total += 1
        else:
            total += card_points(c)
    return total


@given(data=st.data(), rules=meld_rules(jokers=False))
def test_meld_points_of_a_joker_free_reading(data, rules):
    cards = data.draw(
        st.one_of(valid_run(rules, want_jokers=False), valid_set(rules), near_meld_cards(jokers=False))
    )
    assert not any(c.is_joker for c in cards)
    r = read_meld(cards, rules)
    assume(r is not None)
    assert meld_points(r) == _points_by_card(r)


@given(data=st.data(), rules=meld_rules(jokers=False))
def test_meld_points_of_a_natural_run(data, rules):
    cards = data.draw(valid_run(rules, want_jokers=False))
    r = read_meld(cards, rules)
    assert r is not None
    assert meld_points(r) == _points_by_card(r)


@given(data=st.data(), rules=meld_rules())
def test_meld_points_count_a_joker_as_its_face(data, rules):
    cards = data.draw(valid_run(rules) | valid_set(rules))
    r = read_meld(cards, rules)
    assert r is not None
    assume(all(s != AMBIGUOUS for _, s in r.stands))
    as_naturals = [Card(rank, suit, 200 + i) for i, (rank, suit) in enumerate(r.stands)]
    natural = Reading(r.kind, tuple(as_naturals), r.stands, start=r.start, suit=r.suit, rank=r.rank)
    assert meld_points(r) == _points_by_card(natural)


# --------------------------------------------------------------------------- 5. lay off keeps places


@st.composite
def lay_off_case(draw):
    rules = draw(meld_rules())
    table = draw(valid_run(rules) | valid_set(rules))
    reading = read_meld(table, rules)
    assert reading is not None
    n_nat = draw(st.integers(0, 3))
    n_jok = draw(st.integers(0 if n_nat else 1, 2))
    naturals = []
    for i in range(n_nat):
        if reading.kind == RUN:
            side = draw(st.sampled_from(["below", "above", "any"]))
            d = draw(st.sampled_from([1, 1, 1, 2, 3]))
            if side == "below":
                rank = rank_at(reading.start - d)
            elif side == "above":
                rank = rank_at(reading.end + d)
            else:
                rank = draw(st.integers(1, 13))
            suit = draw(st.sampled_from([reading.suit] * 4 + [(reading.suit + 1) % 4]))
        else:
            rank = draw(st.sampled_from([reading.rank] * 4 + [rank_at(reading.rank + 1)]))
            suit = draw(st.integers(0, 3))
        naturals.append(Card(rank, suit, 300 + i))
    jokers = []
    for i in range(n_jok):
        face = None
        if reading.kind == RUN and draw(st.booleans()):
            d = draw(st.sampled_from([1, 1, 1, 2, 3]))
            rank = rank_at(reading.start - d) if draw(st.booleans()) else rank_at(reading.end + d)
            face = (rank, reading.suit)
        jokers.append((Card(JOKER_RANK, JOKER_SUIT, 400 + i), face))
    return rules, reading, naturals, jokers


@given(case=lay_off_case(), data=st.data())
def test_lay_off_result_is_valid_and_keeps_places(case, data):
    rules, reading, naturals, jokers = case
    new = lay_off_positional(reading, naturals, jokers, rules)
    if isinstance(new, str):
        assert new.strip()
        return
    added = list(naturals) + [j for j, _ in jokers]
    note(f"new: {new}")
    assert Counter(new.cards) == Counter(list(reading.cards) + added)
    assert new.kind == reading.kind
    _check_reading(new, list(new.cards), rules)
    # valid as a multiset, in any order
    shuffled = data.draw(st.permutations(list(new.cards)))
    assert read_meld(shuffled, rules) is not None
    if new.kind == RUN:
        assert new.suit == reading.suit
        for i, card in enumerate(reading.cards):
            j = new.cards.index(card)
            assert new.stands[j] == reading.stands[i]
            assert _place_of(new, j) == _place_of(reading, i)
        # the table's cards stay one block, in the same order
        idx = [new.cards.index(c) for c in reading.cards]
        assert idx == list(range(idx[0], idx[0] + len(idx)))
        # a joker laid with as: stands where it was told to
        for j, face in jokers:
            if face is not None:
                assert new.stands[new.cards.index(j)] == face
    else:
        assert new.rank == reading.rank
        fixed = {face for face in reading.stands if face[1] != AMBIGUOUS}
        assert fixed <= set(new.stands)


# --------------------------------------------------------------------------- swap keeps places


@given(data=st.data(), rules=meld_rules(jokers=True))
def test_run_swap_with_the_exact_card_frees_that_joker(data, rules):
    cards = data.draw(valid_run(rules, want_jokers=True))
    r = read_meld(cards, rules)
    assume(r is not None and r.kind == RUN and r.jokers > 0)
    i = data.draw(st.sampled_from([i for i, c in enumerate(r.cards) if c.is_joker]))
    given_card = Card(r.stands[i][0], r.stands[i][1], 500)
    out = swap_positional(r, [given_card], rules)
    assert isinstance(out, tuple), out
    new, freed = out
    assert freed == r.cards[i]
    assert new.stands == r.stands and new.start == r.start
    assert new.cards[i] == given_card
    assert Counter(new.cards) == Counter([c for c in r.cards if c != freed] + [given_card])


@given(data=st.data(), rules=meld_rules())
def test_a_face_the_run_already_holds_is_never_laid_off(data, rules):
    # Reading 3: a card whose face a run card (natural or joker) already stands
    # for has no place of its own; laid off alone it is refused. (A 13-card run
    # A..K may still take a second ace at the high end, so runs stay below 13.)
    cards = data.draw(valid_run(rules))
    r = read_meld(cards, rules)
    assume(r is not None and r.kind == RUN and len(r.cards) < 13)
    i = data.draw(st.integers(0, len(r.cards) - 1))
    card = Card(r.stands[i][0], r.stands[i][1], 600)
    out = lay_off_positional(r, [card], [], rules)
    assert isinstance(out, str) and out.strip()
