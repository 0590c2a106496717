"""Runs, sets and jokers: what every variant shares, and how rami reads a meld.

Each table below is one rule; every case names the rule it checks in its id.
Cards are written in rami's notation and parsed with `parse_cards`.
"""

from __future__ import annotations

import pytest

from rami_core.cards import JOKER_RANK, JOKER_SUIT, Card, parse_card, parse_cards
from rami_core.cards.melds import (
    AMBIGUOUS,
    RUN,
    SET,
    MeldRules,
    Reading,
    is_valid,
    lay_off_positional,
    meld_points,
    read_meld,
    read_run_any,
    read_run_in_order,
    read_set,
    swap_positional,
    why_invalid,
)
from rami_core.profile.model import Profile
from rami_core.profile.rules import meld_rules_for

DEFAULT = MeldRules()  # ace low or high, no wrap, any number of jokers, one natural
LOW = MeldRules(ace_low=True, ace_high=False)  # classic
HIGH = MeldRules(ace_low=False, ace_high=True)
WRAP = MeldRules(wrap=True)  # classic's option: K-A-2 allowed (ace both)
ONE_JOKER = MeldRules(max_jokers=1)
NO_JOKER = MeldRules(max_jokers=0)
TWO_NATURALS = MeldRules(min_naturals=2)
RUN4 = MeldRules(run_min=4)
SAME_SUITS = MeldRules(set_distinct_suits=False)

RULES = {
    "default": DEFAULT,
    "low": LOW,
    "high": HIGH,
    "wrap": WRAP,
    "one_joker": ONE_JOKER,
    "no_joker": NO_JOKER,
    "two_naturals": TWO_NATURALS,
    "run4": RUN4,
    "same_suits": SAME_SUITS,
}


def C(text: str) -> list[Card]:
    return parse_cards(text)


def jk(copy: int) -> Card:
    return Card(JOKER_RANK, JOKER_SUIT, copy)


def faces(text: str) -> tuple[tuple[int, int], ...]:
    return tuple(c.face for c in C(text))


def text(cards) -> str:
    return " ".join(str(c) for c in cards)


def read(cards: str, rules: MeldRules = DEFAULT) -> Reading:
    r = read_meld(C(cards), rules)
    assert r is not None, f"{cards} should be valid: {why_invalid(C(cards), rules)}"
    return r


# --------------------------------------------------------------------------- profile -> rules


def test_rules_from_default_profile():
    assert meld_rules_for(Profile()) == DEFAULT


@pytest.mark.parametrize(
    "settings, expected",
    [
        ({"melds": {"ace": "low"}}, LOW),
        ({"melds": {"ace": "high"}}, HIGH),
        ({"melds": {"ace": "both", "wrap": True}}, WRAP),
        ({"jokers": {"max_per_meld": 1}}, ONE_JOKER),
        ({"jokers": {"max_per_meld": 0}, "deck": {"jokers": 0}}, NO_JOKER),  # jokers dealt must fit
        ({"jokers": {"min_naturals": 2}}, TWO_NATURALS),
        ({"melds": {"run_min": 4}}, RUN4),
        ({"melds": {"set_distinct_suits": False}}, SAME_SUITS),
    ],
    ids=["ace-low", "ace-high", "wrap", "one-joker", "no-joker", "two-naturals", "run4", "same-suits"],
)
def test_rules_from_profile_settings(settings, expected):
    assert meld_rules_for(Profile.model_validate(settings)) == expected


# --------------------------------------------------------------------------- validity table

VALIDITY = [
    # run minimum length
    ("run-3", "5H 6H 7H", "default", True),
    ("run-2-too-short", "5H 6H", "default", False),
    ("run-1-too-short", "5H", "default", False),
    ("run-13", "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", "default", True),
    ("run-14-cards-repeats-2", "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS 2S", "default", False),
    ("run4-3-cards-refused", "5H 6H 7H", "run4", False),
    ("run4-4-cards", "5H 6H 7H 8H", "run4", True),
    ("run-written-descending", "7C 6C 5C", "default", True),
    ("run-any-order", "6C 5C 7C", "default", True),
    ("run-mixed-suits", "5H 6H 7S", "default", False),
    ("run-gap", "5H 6H 8H", "default", False),
    ("run-duplicate", "5H 5H 6H 7H", "default", False),
    # ace low / high / both, never wrapping
    ("ace-low-A23", "AH 2H 3H", "default", True),
    ("ace-high-QKA", "QH KH AH", "default", True),
    ("ace-KA2-no-wrap", "KH AH 2H", "default", False),
    ("ace-QKA2-no-wrap", "QH KH AH 2H", "default", False),
    ("ace-KA2-joker-no-wrap", "KH AH JK", "default", True),  # read as Q-K-A, not K-A-2
    ("ace-low-only-A23", "AH 2H 3H", "low", True),
    ("ace-low-only-QKA", "QH KH AH", "low", False),
    ("ace-low-only-JK-K-A", "JK KH AH", "low", False),
    ("ace-high-only-QKA", "QH KH AH", "high", True),
    ("ace-high-only-A23", "AH 2H 3H", "high", False),
    ("ace-high-only-A-JK-3", "AH JK 3H", "high", False),
    ("wrap-KA2", "KH AH 2H", "wrap", True),
    ("wrap-QKA23", "QH KH AH 2H 3H", "wrap", True),
    ("wrap-KA2-any-order", "2H KH AH", "wrap", True),
    ("wrap-K-JK-2", "KH JK 2H", "wrap", True),
    ("wrap-still-needs-consecutive", "KH AH 3H", "wrap", False),
    ("wrap-A23-still-fine", "AH 2H 3H", "wrap", True),
    ("wrap-QKA-still-fine", "QH KH AH", "wrap", True),
    ("wrap-13-cards-around", "8D 9D 10D JD QD KD AD 2D 3D 4D 5D 6D 7D", "wrap", True),
    ("wrap-14-cards-refused", "8D 9D 10D JD QD KD AD 2D 3D 4D 5D 6D 7D 8D", "wrap", False),
    # sets of 3-4, all suits different, never more than 4
    ("set-3", "9S 9H 9D", "default", True),
    ("set-4-carre", "9S 9H 9D 9C", "default", True),
    ("set-two-9S", "9S 9S 9H", "default", False),
    ("set-two-9S-in-4", "9S 9H 9D 9S", "default", False),
    ("set-5-cards", "9S 9H 9D 9C 9S", "default", False),
    ("set-5-with-joker", "9S 9H 9D 9C JK", "default", False),
    ("set-2-cards", "9S 9H", "default", False),
    ("set-mixed-ranks", "9S 9H 8D", "default", False),
    ("set-same-suits-allowed", "9S 9S 9H", "same_suits", True),
    ("set-aces", "AS AH AD", "default", True),
    # jokers per meld: unlimited / at most 1 / none
    ("jokers-unlimited-run", "5H JK JK", "default", True),
    ("jokers-unlimited-long-run", "2C 3C JK JK JK JK JK JK JK JK JK JK JK", "default", True),
    ("jokers-unlimited-set", "KS JK JK", "default", True),
    ("jokers-set-carre-two-jokers", "KS KH JK JK", "default", True),
    ("jokers-set-too-many-for-suits", "KS KH KD KC JK", "default", False),
    ("jokers-max1-one", "5H JK 7H", "one_joker", True),
    ("jokers-max1-two-run", "5H JK JK", "one_joker", False),
    ("jokers-max1-two-set", "KS KH JK JK", "one_joker", False),
    ("jokers-max1-set-one", "KS KH JK", "one_joker", True),
    ("jokers-max0-run", "4C JK 6C", "no_joker", False),
    ("jokers-max0-set", "KS KH JK", "no_joker", False),
    ("jokers-max0-natural", "4C 5C 6C", "no_joker", True),
    # minimum naturals
    ("naturals-none", "JK JK JK", "default", False),
    ("naturals-one", "JK 7D JK", "default", True),
    ("naturals-min2-one", "JK 7D JK", "two_naturals", False),
    ("naturals-min2-two", "6D 7D JK", "two_naturals", True),
    ("naturals-min2-set", "KS JK JK", "two_naturals", False),
    ("naturals-min2-set-ok", "KS KH JK", "two_naturals", True),
]


@pytest.mark.parametrize("cards, rules, valid", [c[1:] for c in VALIDITY], ids=[c[0] for c in VALIDITY])
def test_validity(cards, rules, valid):
    r = RULES[rules]
    assert is_valid(C(cards), r) is valid
    assert (read_meld(C(cards), r) is not None) is valid


# --------------------------------------------------------------------------- what each joker stands for (reading 2)

STANDS = [
    # id, cards, rules, kind, stands (in Reading order), start of a run
    ("9S-JK-JK-is-9-10-J", "9S JK JK", "default", RUN, "9S 10S JS", 9),
    ("8C-7C-JK-is-7-8-9", "8C 7C JK", "default", RUN, "7C 8C 9C", 7),
    ("4C-JK-6C-is-4-5-6", "4C JK 6C", "default", RUN, "4C 5C 6C", 4),
    ("JK-JK-5H-written-order", "JK JK 5H", "default", RUN, "3H 4H 5H", 3),
    ("JK-5H-JK-written-order", "JK 5H JK", "default", RUN, "4H 5H 6H", 4),
    ("JK-QH-KH-written-order", "JK QH KH", "default", RUN, "JH QH KH", 11),
    ("QH-JK-AH-joker-is-K", "QH JK AH", "default", RUN, "QH KH AH", 12),
    ("AH-JK-3H-joker-is-2", "AH JK 3H", "default", RUN, "AH 2H 3H", 1),
    ("JK-AH-2H-any-order-highest", "JK AH 2H", "default", RUN, "AH 2H 3H", 1),
    ("JK-JK-AH-is-Q-K-A", "JK JK AH", "default", RUN, "QH KH AH", 12),
    ("KS-AS-JK-is-Q-K-A", "KS AS JK", "default", RUN, "QS KS AS", 12),
    ("QH-KH-JK-ace-low-only", "QH KH JK", "low", RUN, "JH QH KH", 11),
    ("JK-2C-3C-JK", "JK 2C 3C JK", "default", RUN, "AC 2C 3C 4C", 1),
    ("wrap-JK-AH-2H-is-K-A-2", "JK AH 2H", "wrap", RUN, "KH AH 2H", 13),
    ("wrap-KH-JK-2H", "KH JK 2H", "wrap", RUN, "KH AH 2H", 13),
    ("JK-JK-KS-run-in-written-order", "JK JK KS", "default", RUN, "JS QS KS", 11),
]


@pytest.mark.parametrize(
    "cards, rules, kind, stands, start", [s[1:] for s in STANDS], ids=[s[0] for s in STANDS]
)
def test_what_jokers_stand_for_in_runs(cards, rules, kind, stands, start):
    r = read(cards, RULES[rules])
    assert r.kind == kind
    assert r.stands == faces(stands)
    assert r.start == start
    assert r.suit == C(stands)[0].suit
    assert sorted(r.cards) == sorted(C(cards))  # the same cards, placed


def test_run_reading_puts_cards_in_place_order():
    r = read("8C 7C JK")
    assert text(r.cards) == "7C 8C JK"
    assert r.end == 9


def test_4C_JK_6C_is_a_run_but_not_pure():
    r = read("4C JK 6C")
    assert r.kind == RUN and not r.pure and r.jokers == 1
    assert read("4C 5C 6C").pure


@pytest.mark.parametrize(
    "cards, pure",
    [("4C 5C 6C", True), ("QH KH AH", True), ("4C JK 6C", False), ("9S JK JK", False), ("KS KH KC", False)],
    ids=["natural-run", "QKA", "joker-inside", "two-jokers", "set-is-no-run"],
)
def test_pure(cards, pure):
    assert read(cards).pure is pure


def test_set_with_one_joker_of_three_is_ambiguous():
    r = read("KS KH JK")
    assert r.kind == SET and r.rank == 13
    assert r.stands == ((13, 0), (13, 1), (13, AMBIGUOUS))


def test_set_of_three_naturals_and_a_joker_fixes_the_suit():
    r = read("KS KH KC JK")
    assert r.kind == SET
    assert r.stands[-1] == (13, 2)  # the joker is the missing K♦
    assert sorted(r.stands) == sorted(faces("KS KH KD KC"))


def test_set_with_two_jokers_in_a_carre_fixes_both():
    r = read("KS KH JK JK")
    assert sorted(r.stands) == sorted(faces("KS KH KD KC"))


def test_set_with_two_jokers_of_three_is_ambiguous():
    r = read("KS JK JK")
    assert r.kind == SET
    assert r.stands == ((13, 0), (13, AMBIGUOUS), (13, AMBIGUOUS))


def test_set_reading_lists_naturals_by_suit_then_jokers():
    r = read("KC JK KS KH")
    assert text(r.cards) == "KS KH KC JK"


def test_same_suit_set_jokers_stay_ambiguous():
    r = read("9S 9S JK", SAME_SUITS)
    assert r.kind == SET and r.stands[-1] == (9, AMBIGUOUS)


def test_read_meld_prefers_written_run_then_set_then_any_run():
    # KS JK JK cannot be a run in written order (nothing above the king at
    # places 14, 15 without wrap), so it is a set; JK JK KS is J-Q-K.
    assert read("KS JK JK").kind == SET
    assert read("JK JK KS").kind == RUN
    assert read_run_in_order(C("8C 7C JK"), DEFAULT) is None
    assert read_set(C("8C 7C JK"), DEFAULT) is None
    assert read_run_any(C("8C 7C JK"), DEFAULT) is not None


# --------------------------------------------------------------------------- meld_points

POINTS = [
    ("A-2-3-is-6", "AH 2H 3H", "default", 6),
    ("Q-K-A-is-31", "QH KH AH", "default", 31),
    ("9-10-J-hearts-is-29", "9H 10H JH", "default", 29),
    ("KS-KH-KC-is-30", "KS KH KC", "default", 30),
    ("aces-set-is-33", "AS AH AD", "default", 33),
    ("joker-as-ace-low", "JK 2H 3H", "default", 6),
    ("joker-as-ace-high", "QH KH JK", "default", 31),
    ("joker-as-10-in-9-JK-J", "9H JK JH", "default", 29),
    ("9S-JK-JK-is-9-10-J", "9S JK JK", "default", 29),
    ("joker-in-set-counts-rank", "KS KH JK", "default", 30),
    ("joker-in-carre", "7S 7H 7D JK", "default", 28),
    ("8C-7C-JK", "8C 7C JK", "default", 24),
    ("A-to-5", "AD 2D 3D 4D 5D", "default", 15),
    ("10-J-Q-K-A", "10D JD QD KD AD", "default", 51),
    ("wrap-K-A-2-ace-not-low", "KH AH 2H", "wrap", 23),
    ("A-2-3-ace-low-only", "AH 2H 3H", "low", 6),
]


@pytest.mark.parametrize("cards, rules, points", [p[1:] for p in POINTS], ids=[p[0] for p in POINTS])
def test_meld_points(cards, rules, points):
    assert meld_points(read(cards, RULES[rules])) == points


def test_opening_example_59_points():
    # Rami 51: 9-10-J♥ (29) + K♠K♥K♣ (30) = 59 opens.
    assert meld_points(read("9H 10H JH")) + meld_points(read("KS KH KC")) == 59


def test_meld_points_settings():
    r = read("AH 2H 3H")
    assert meld_points(r, ace_low=11) == 16
    assert meld_points(read("QH KH AH"), ace=15, court=5) == 25


# --------------------------------------------------------------------------- why_invalid

WHY = [
    ("run-too-short", "AH 2H", "default", "short"),
    ("run-too-short-run4", "5H 6H 7H", "run4", "at least 4"),
    ("set-too-short", "5H 5S", "default", "short"),
    ("set-repeats-suit", "9S 9S 9H", "default", "suit"),
    ("set-too-long", "9S 9H 9D 9C 9S", "default", "long"),
    ("K-A-2", "KH AH 2H", "default", "K-A-2"),
    ("run-gap", "5H 6H 8H", "default", "run"),
    ("run-duplicate", "5H 5H 6H", "default", "repeat"),
    ("no-natural", "JK JK JK", "default", "natural"),
    ("too-few-naturals", "5H JK JK", "two_naturals", "natural"),
    ("too-many-jokers", "5H JK JK", "one_joker", "joker"),
    ("no-jokers-allowed", "4C JK 6C", "no_joker", "joker"),
    ("neither", "5H 6S 8D", "default", "neither"),
    ("QKA-ace-low-only", "QH KH AH", "low", "run"),
]


@pytest.mark.parametrize("cards, rules, word", [w[1:] for w in WHY], ids=[w[0] for w in WHY])
def test_why_invalid_names_the_problem(cards, rules, word):
    r = RULES[rules]
    assert read_meld(C(cards), r) is None
    msg = why_invalid(C(cards), r)
    assert isinstance(msg, str) and msg.strip()
    assert word.lower() in msg.lower(), msg


@pytest.mark.parametrize("case", [v for v in VALIDITY if not v[3]], ids=[v[0] for v in VALIDITY if not v[3]])
def test_why_invalid_is_never_empty(case):
    _id, cards, rules, _valid = case
    msg = why_invalid(C(cards), RULES[rules])
    assert msg.strip()


# --------------------------------------------------------------------------- lay off (places kept)

LAY_OFF = [
    # id, meld, naturals, jokers [(as face or None)], rules, result in place order or None, error word
    ("natural-below", "5H 6H 7H", "4H", [], "default", "4H 5H 6H 7H", None),
    ("natural-above", "5H 6H 7H", "8H", [], "default", "5H 6H 7H 8H", None),
    ("naturals-both-ends", "5H 6H 7H", "8H 4H", [], "default", "4H 5H 6H 7H 8H", None),
    ("two-naturals-below", "5H 6H 7H", "4H 3H", [], "default", "3H 4H 5H 6H 7H", None),
    ("ace-high-end", "JH QH KH", "AH", [], "default", "JH QH KH AH", None),
    ("ace-low-end", "2H 3H 4H", "AH", [], "default", "AH 2H 3H 4H", None),
    ("ace-high-end-low-only", "JH QH KH", "AH", [], "low", None, "extend"),
    ("K-onto-A23-no-wrap", "AH 2H 3H", "KH", [], "default", None, "extend"),
    ("2-onto-QKA-no-wrap", "QH KH AH", "2H", [], "default", None, "extend"),
    ("K-onto-A23-wrap", "AH 2H 3H", "KH", [], "wrap", "KH AH 2H 3H", None),
    ("A2-onto-JQK-wrap", "JH QH KH", "AH 2H", [], "wrap", "JH QH KH AH 2H", None),
    ("QK-onto-A23-wrap", "AH 2H 3H", "QH KH", [], "wrap", "QH KH AH 2H 3H", None),
    ("natural-not-at-an-end", "5H 6H 7H", "9H", [], "default", None, "extend"),
    ("natural-wrong-suit", "5H 6H 7H", "8S", [], "default", None, "suit"),
    ("natural-already-there", "5H 6H 7H", "6H", [], "default", None, "already"),
    ("card-the-joker-stands-for", "5H JK 7H", "6H", [], "default", None, "swap"),
    ("card-the-end-joker-stands-for", "9S JK JK", "JS", [], "default", None, "swap"),
    ("card-a-joker-stands-for-ace-low", "JK 2H 3H", "AH", [], "default", None, "swap"),
    ("card-a-joker-stands-for-ace-high", "QH KH JK", "AH", [], "default", None, "swap"),
    ("card-a-joker-stands-for-wrap", "5H JK 7H", "6H", [], "wrap", None, "swap"),
    ("natural-already-there-wrap", "5H 6H 7H", "6H", [], "wrap", None, "already"),
    # jokers: fill a gap left by the cards laid with them, else up, else down
    ("joker-alone-extends-up", "5H 6H 7H", "", [None], "default", "5H 6H 7H JK", None),
    ("two-jokers-extend-up", "5H 6H 7H", "", [None, None], "default", "5H 6H 7H JK JK", None),
    ("joker-fills-gap-above", "5H 6H 7H", "9H", [None], "default", "5H 6H 7H JK 9H", None),
    ("joker-fills-gap-below", "5H 6H 7H", "3H", [None], "default", "3H JK 5H 6H 7H", None),
    ("two-jokers-fill-a-gap", "5H 6H 7H", "10H", [None, None], "default", "5H 6H 7H JK JK 10H", None),
    ("gap-too-wide-for-one-joker", "5H 6H 7H", "10H", [None], "default", None, "extend"),
    ("joker-up-blocked-goes-down", "QH KH AH", "", [None], "default", "JK QH KH AH", None),
    ("joker-up-to-ace-high", "JH QH KH", "", [None], "default", "JH QH KH JK", None),
    ("joker-up-blocked-low-only", "JH QH KH", "", [None], "low", "JK JH QH KH", None),
    ("jokers-up-then-down", "JH QH KH", "", [None, None], "default", "JK JH QH KH JK", None),
    ("joker-after-A23", "AH 2H 3H", "", [None], "default", "AH 2H 3H JK", None),
    ("joker-past-ace-wrap", "QH KH AH", "", [None], "wrap", "QH KH AH JK", None),
    # jokers with as:
    ("joker-as-below", "5H 6H 7H", "", ["4H"], "default", "JK 5H 6H 7H", None),
    ("joker-as-above", "5H 6H 7H", "", ["8H"], "default", "5H 6H 7H JK", None),
    ("joker-as-gap", "5H 6H 7H", "9H", ["8H"], "default", "5H 6H 7H JK 9H", None),
    ("joker-as-leaves-a-gap", "5H 6H 7H", "", ["9H"], "default", None, "extend"),
    ("joker-as-taken-place", "5H 6H 7H", "", ["6H"], "default", None, "extend"),
    ("joker-as-wrong-suit", "5H 6H 7H", "", ["4S"], "default", None, "4S"),
    ("joker-as-place-of-a-natural-laid", "5H 6H 7H", "8H", ["8H"], "default", None, "extend"),
    ("joker-as-ace-high", "JH QH KH", "", ["AH"], "default", "JH QH KH JK", None),
    ("joker-as-ace-low", "2H 3H 4H", "", ["AH"], "default", "JK 2H 3H 4H", None),
    ("joker-as-K-wrap", "AH 2H 3H", "", ["KH"], "wrap", "JK AH 2H 3H", None),
    # joker limits
    ("max1-second-joker", "5H JK 7H", "", [None], "one_joker", None, "joker"),
    ("max1-first-joker", "5H 6H 7H", "", [None], "one_joker", "5H 6H 7H JK", None),
    ("max0-joker", "5H 6H 7H", "", [None], "no_joker", None, "joker"),
    # sets
    ("set-missing-suit", "KS KH KC", "KD", [], "default", "KS KH KD KC", None),
    ("set-repeated-suit", "KS KH KC", "KS", [], "default", None, "suit"),
    ("set-wrong-rank", "KS KH KC", "QD", [], "default", None, "rank"),
    ("set-joker-as-fourth", "KS KH KC", "", [None], "default", "KS KH KC JK", None),
    ("set-max-size-natural", "KS KH KD KC", "KS", [], "default", None, "suit"),
    ("set-max-size-joker", "KS KH KD KC", "", [None], "default", None, "long"),
    ("set-carre-joker-plus-joker", "KS KH KC JK", "", [None], "default", None, "long"),
    ("set-two-cards-too-many", "KS KH JK", "KD KC", [], "default", None, "long"),
    ("set-ambiguous-joker-natural", "KS KH JK", "KD", [], "default", "KS KH KD JK", None),
    ("set-card-the-joker-stands-for", "KS KH KC JK", "KD", [], "default", None, "swap"),
    ("set-two-naturals", "KS KH JK JK", "", [], "default", "KS KH JK JK", None),
]


def _lay_off(meld: str, naturals: str, jokers, rules: MeldRules):
    reading = read(meld, rules)
    js = [
        (Card(JOKER_RANK, JOKER_SUIT, 10 + i), None if a is None else parse_card(a).face)
        for i, a in enumerate(jokers)
    ]
    return reading, js, lay_off_positional(reading, C(naturals), js, rules)


@pytest.mark.parametrize(
    "meld, naturals, jokers, rules, result, word", [x[1:] for x in LAY_OFF], ids=[x[0] for x in LAY_OFF]
)
def test_lay_off_positional(meld, naturals, jokers, rules, result, word):
    r = RULES[rules]
    reading, js, new = _lay_off(meld, naturals, jokers, r)
    if result is None:
        assert isinstance(new, str) and new.strip(), new
        assert word.lower() in new.lower(), new
        return
    assert isinstance(new, Reading), new
    assert text(new.cards) == result
    assert read_meld(list(new.cards), r) is not None
    assert sorted(new.cards) == sorted(list(reading.cards) + C(naturals) + [j for j, _ in js])
    if new.kind == RUN:
        assert new.suit == reading.suit
        assert len(new.stands) == len(new.cards)
        # the table's cards keep their places (modulo 13 under wrap)
        for i, card in enumerate(reading.cards):
            assert new.stands[new.cards.index(card)] == reading.stands[i]
    else:
        assert new.kind == SET and new.rank == reading.rank
        # the set's naturals stay, and a joker whose suit was fixed keeps it
        held = {face for face in reading.stands if face[1] != AMBIGUOUS}
        assert held <= set(new.stands)


def test_lay_off_run_stands_follow_places():
    _reading, _js, new = _lay_off("5H 6H 7H", "9H", [None], DEFAULT)
    assert new.stands == faces("5H 6H 7H 8H 9H") and new.start == 5


def test_lay_off_joker_below_queen_king_ace_stands_for_jack():
    _r, _js, new = _lay_off("QH KH AH", "", [None], DEFAULT)
    assert new.stands == faces("JH QH KH AH") and new.start == 11


def test_lay_off_wrap_start_stays_in_1_to_13():
    _r, _js, new = _lay_off("AH 2H 3H", "QH KH", [], WRAP)
    assert new.start == 12
    assert new.stands == faces("QH KH AH 2H 3H")


def test_lay_off_set_missing_suit_fixes_an_ambiguous_joker():
    _r, _js, new = _lay_off("KS KH JK", "KD", [], DEFAULT)
    assert sorted(new.stands) == sorted(faces("KS KH KD KC"))


def test_lay_off_set_joker_onto_three_naturals_stands_for_the_missing_suit():
    _r, _js, new = _lay_off("KS KH KC", "", [None], DEFAULT)
    assert new.stands[-1] == (13, 2)


def test_lay_off_does_not_change_the_table_reading():
    reading = read("5H 6H 7H")
    before = (reading.cards, reading.stands, reading.start)
    lay_off_positional(reading, C("8H"), [], DEFAULT)
    lay_off_positional(reading, C("9H"), [], DEFAULT)
    assert (reading.cards, reading.stands, reading.start) == before


# --------------------------------------------------------------------------- joker swap (places kept)

SWAP = [
    # id, meld, given, set_any, result in Reading order or None, error word
    ("run-exact-card", "5H JK 7H", "6H", False, "5H 6H 7H", None),
    ("run-exact-card-end", "9S JK JK", "JS", False, "9S JK JS", None),
    ("run-exact-card-middle", "9S JK JK", "10S", False, "9S 10S JK", None),
    ("run-joker-as-ace-high", "QH KH JK", "AH", False, "QH KH AH", None),
    ("run-wrong-suit", "5H JK 7H", "6S", False, None, "6S"),
    ("run-wrong-rank", "5H JK 7H", "8H", False, None, "8H"),
    ("run-two-cards", "5H JK 7H", "6H 6H", False, None, "one card"),
    ("run-no-joker", "5H 6H 7H", "8H", False, None, "no joker"),
    ("set-no-joker", "KS KH KC", "KD", False, None, "no joker"),
    ("run-joker-for-joker", "5H JK 7H", "JK", False, None, "joker"),
    ("set3-one-missing-card", "KS KH JK", "KD", False, None, "both"),
    ("set3-other-missing-card", "KS KH JK", "KC", False, None, "both"),
    ("set3-both-missing-cards", "KS KH JK", "KD KC", False, "KS KH KD KC", None),
    ("set3-both-missing-cards-other-order", "KS KH JK", "KC KD", False, "KS KH KD KC", None),
    ("set3-a-held-suit", "KS KH JK", "KD KS", False, None, "suit"),
    ("set3-same-card-twice", "KS KH JK", "KD KD", False, None, "suit"),
    ("set3-wrong-rank", "KS KH JK", "QD QC", False, None, "rank"),
    ("carre-fourth-card", "KS KH KC JK", "KD", False, "KS KH KD KC", None),
    ("carre-held-suit", "KS KH KC JK", "KC", False, None, "suit"),
    ("carre-wrong-rank", "KS KH KC JK", "QD", False, None, "rank"),
    ("carre-two-cards", "KS KH KC JK", "KD KD", False, None, "suit"),
    ("carre-two-jokers-one-card", "KS KH JK JK", "KD", False, "KS KH KD JK", None),
    ("set_any-set3-one-card", "KS KH JK", "KD", True, "KS KH KD", None),
    ("set_any-set3-other-card", "KS KH JK", "KC", True, "KS KH KC", None),
    ("set_any-set3-held-suit", "KS KH JK", "KH", True, None, "suit"),
    ("set_any-carre-fourth-card", "KS KH KC JK", "KD", True, "KS KH KD KC", None),
    ("set_any-run-unchanged", "5H JK 7H", "6S", True, None, "6S"),
]


@pytest.mark.parametrize(
    "meld, given, set_any, result, word", [s[1:] for s in SWAP], ids=[s[0] for s in SWAP]
)
def test_swap_positional(meld, given, set_any, result, word):
    reading = read(meld)
    out = swap_positional(reading, C(given), DEFAULT, set_any=set_any)
    if result is None:
        assert isinstance(out, str) and out.strip(), out
        assert word.lower() in out.lower(), out
        return
    assert isinstance(out, tuple), out
    new, freed = out
    assert freed.is_joker
    assert text(new.cards) == result
    assert read_meld(list(new.cards), DEFAULT) is not None
    if reading.kind == RUN:
        # the run keeps its places: same window, same faces
        assert new.stands == reading.stands and new.start == reading.start
        assert new.stands == tuple(c.face if not c.is_joker else s for c, s in zip(new.cards, new.stands))


def test_swap_frees_the_joker_that_stood_for_the_card():
    # Two distinct jokers: 9♠ J0 J1 is 9-10-J; giving 10♠ frees J0, J♠ frees J1.
    j0, j1 = jk(0), jk(1)
    reading = read_meld([parse_card("9S"), j0, j1], DEFAULT)
    assert reading is not None and reading.cards == (parse_card("9S"), j0, j1)
    new, freed = swap_positional(reading, C("10S"), DEFAULT)
    assert freed == j0 and new.cards[2] == j1
    new, freed = swap_positional(reading, C("JS"), DEFAULT)
    assert freed == j1 and new.cards[1] == j0


def test_swap_set_frees_a_table_joker():
    j5 = jk(5)
    reading = read_meld(C("KS KH KC") + [j5], DEFAULT)
    new, freed = swap_positional(reading, C("KD"), DEFAULT)
    assert freed == j5
    assert not any(c.is_joker for c in new.cards)


def test_swap_does_not_change_the_table_reading():
    reading = read("5H JK 7H")
    before = (reading.cards, reading.stands)
    swap_positional(reading, C("6H"), DEFAULT)
    assert (reading.cards, reading.stands) == before


def test_a_run_never_holds_one_rank_twice():
    """A-2-...-K-A would put the ace at both ends: no source allows it, so a run is 13 cards at most."""
    from rami_core.cards import parse_cards
    from rami_core.cards.melds import MeldRules, read_meld

    full = parse_cards("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS")
    assert read_meld(full, MeldRules()) is not None
    assert read_meld(full + parse_cards("AS"), MeldRules()) is None
    assert read_meld(full + parse_cards("JK"), MeldRules()) is None
