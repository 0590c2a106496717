"""Card notation (parse_card, format_card), decks, points and take_face."""

from __future__ import annotations

from collections import Counter

import pytest

from rami_core.cards import (
    JOKER,
    JOKER_RANK,
    JOKER_SUIT,
    Card,
    CardError,
    build_deck,
    card_points,
    format_card,
    parse_card,
    parse_cards,
    take_face,
)

RANK_LETTERS = {
    1: "A",
    2: "2",
    3: "3",
    4: "4",
    5: "5",
    6: "6",
    7: "7",
    8: "8",
    9: "9",
    10: "10",
    11: "J",
    12: "Q",
    13: "K",
}
FRENCH_COURTS = {11: "V", 12: "D", 13: "R"}
SUIT_LETTERS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
VS = "\ufe0e"

FACES = [Card(rank, suit) for suit in range(4) for rank in range(1, 14)]
ALL_CARDS = FACES + [JOKER]


def _id(card: Card) -> str:
    return "JK" if card.is_joker else RANK_LETTERS[card.rank] + SUIT_LETTERS[card.suit]


def _spellings(card: Card) -> list[str]:
    """Every way rami's card notation lets one write this card."""
    if card.is_joker:
        return ["JK", "jk", "Jk", " JK "]
    ranks = [RANK_LETTERS[card.rank]]
    if card.rank == 10:
        ranks.append("T")
    out = []
    for r in ranks:
        letter = SUIT_LETTERS[card.suit]
        symbol = SUIT_SYMBOLS[card.suit]
        out += [r + letter, (r + letter).lower(), r.lower() + letter, r + letter.lower()]
        out += [r + symbol, r.lower() + symbol, r + symbol + VS, r.lower() + symbol + VS]
    if card.rank in FRENCH_COURTS:
        fr = FRENCH_COURTS[card.rank]
        symbol = SUIT_SYMBOLS[card.suit]
        out += [fr + symbol, fr.lower() + symbol, fr + symbol + VS, fr.lower() + symbol + VS]
    return out


# --------------------------------------------------------------------------- the card itself


def test_there_are_52_faces_and_a_joker():
    assert len(set(FACES)) == 52
    assert JOKER.is_joker and JOKER.rank == JOKER_RANK and JOKER.suit == JOKER_SUIT
    assert not any(c.is_joker for c in FACES)


def test_face_ignores_the_copy():
    a, b = Card(7, 1, 0), Card(7, 1, 1)
    assert a != b
    assert a.face == b.face == (7, 1)


# --------------------------------------------------------------------------- parsing every spelling


@pytest.mark.parametrize("card", ALL_CARDS, ids=_id)
def test_every_spelling_parses_to_the_card(card):
    for text in _spellings(card):
        parsed = parse_card(text)
        assert parsed == card, text
        assert parsed.copy == 0, text


@pytest.mark.parametrize("card", ALL_CARDS, ids=_id)
def test_canonical_round_trip(card):
    text = format_card(card)
    assert parse_card(text) == card
    assert format_card(parse_card(text)) == text
    assert str(card) == text


@pytest.mark.parametrize("card", ALL_CARDS, ids=_id)
def test_canonical_form_is_upper_case_letters(card):
    text = format_card(card)
    if card.is_joker:
        assert text == "JK"
    else:
        assert text == RANK_LETTERS[card.rank] + SUIT_LETTERS[card.suit]
        assert text.isascii() and text == text.upper()
        assert "T" not in text  # 10 is written 10


@pytest.mark.parametrize("card", ALL_CARDS, ids=_id)
def test_symbol_round_trip(card):
    text = format_card(card, symbols=True)
    if not card.is_joker:
        assert text[-1] == SUIT_SYMBOLS[card.suit]
    assert parse_card(text) == card
    assert parse_card(text + ("" if card.is_joker else VS)) == card


@pytest.mark.parametrize("card", ALL_CARDS, ids=_id)
def test_french_round_trip(card):
    text = format_card(card, lang="fr")
    if card.is_joker:
        assert text == "JK"
    else:
        rank = FRENCH_COURTS.get(card.rank, RANK_LETTERS[card.rank])
        assert text == rank + SUIT_SYMBOLS[card.suit]
    assert parse_card(text) == card


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("10H", "10H"),
        ("TH", "10H"),
        ("th", "10H"),
        ("10♥", "10H"),
        ("10♥\ufe0e", "10H"),
        ("qs", "QS"),
        ("Q♠", "QS"),
        ("D♠", "QS"),
        ("d♠", "QS"),
        ("V♥", "JH"),
        ("R♣", "KC"),
        ("R♦\ufe0e", "KD"),
        ("A♦", "AD"),
        ("7h", "7H"),
        (" 7H ", "7H"),
        ("jk", "JK"),
    ],
)
def test_canonical_output(text, canonical):
    assert format_card(parse_card(text)) == canonical


@pytest.mark.parametrize(
    "card, french",
    [
        ("QS", "D♠"),
        ("JH", "V♥"),
        ("KC", "R♣"),
        ("KD", "R♦"),
        ("10D", "10♦"),
        ("AC", "A♣"),
        ("2S", "2♠"),
        ("JK", "JK"),
    ],
)
def test_french_display(card, french):
    assert format_card(parse_card(card), lang="fr") == french


# --------------------------------------------------------------------------- bad cards


@pytest.mark.parametrize(
    "text",
    [
        "1H",  # no rank 1: the ace is A
        "11S",
        "0D",
        "14C",
        "ZZ",
        "10X",
        "",
        "   ",
        "VH",  # French court letter needs a suit symbol
        "DS",
        "RC",
        "vh",
        "H",
        "♥",
        "10",
        "A",
        "7 H",
        "KK",
        "JKK",
        "7H7",
        "AH2",
    ],
    ids=lambda t: repr(t),
)
def test_bad_card_refused(text):
    with pytest.raises(CardError):
        parse_card(text)


@pytest.mark.parametrize("value", [10, 7.0, None, True, ["7H"], b"7H"], ids=repr)
def test_non_string_refused(value):
    with pytest.raises(CardError):
        parse_card(value)


@pytest.mark.parametrize(
    "text", ["²H", "١٠H", "٧♥"], ids=["superscript-2-H", "arabic-indic-10-H", "arabic-indic-7-symbol"]
)
def test_non_ascii_digits_refused_with_card_error(text):
    # The notation's ranks are A, 2-10, T, J, Q, K in ASCII: a superscript or
    # Arabic-Indic digit is no rank, and must be refused as a CardError (not a
    # bare ValueError from int(), not read as a card).
    with pytest.raises(CardError):
        parse_card(text)


def test_card_error_is_a_value_error():
    assert issubclass(CardError, ValueError)


def test_card_error_names_the_input():
    with pytest.raises(CardError, match="10X"):
        parse_card("10X")


# --------------------------------------------------------------------------- parse_cards


def test_parse_cards_from_a_string_and_a_list():
    expected = [Card(7, 1), Card(8, 1), Card(9, 1), JOKER]
    assert parse_cards("7H 8H, 9♥ JK") == expected
    assert parse_cards(["7H", "8h", "9♥︎", "jk"]) == expected
    assert parse_cards("") == []


def test_parse_cards_refuses_a_bad_card():
    with pytest.raises(CardError):
        parse_cards("7H 1H")


# --------------------------------------------------------------------------- decks


@pytest.mark.parametrize("decks, jokers", [(1, 0), (2, 0), (2, 2), (2, 4), (1, 2), (3, 1)])
def test_build_deck_sizes(decks, jokers):
    deck = build_deck(decks, jokers)
    assert len(deck) == 52 * decks + jokers
    # every physical card is distinct (identical faces differ by copy)
    assert len(set(deck)) == len(deck)
    faces = Counter(c.face for c in deck if not c.is_joker)
    assert set(faces) == {c.face for c in FACES}
    assert all(n == decks for n in faces.values())
    assert sum(1 for c in deck if c.is_joker) == jokers


def test_two_decks_hold_each_face_twice_as_distinct_cards():
    deck = build_deck(2, 2)
    for face in FACES:
        copies = [c for c in deck if c.face == face.face]
        assert len(copies) == 2
        assert copies[0] != copies[1]
        assert {c.copy for c in copies} == {0, 1}
    jokers = [c for c in deck if c.is_joker]
    assert len(jokers) == 2 and jokers[0] != jokers[1]
    assert all(j.face == JOKER.face for j in jokers)


def test_build_deck_is_deterministic():
    assert build_deck(2, 4) == build_deck(2, 4)


# --------------------------------------------------------------------------- points


@pytest.mark.parametrize(
    "card, points",
    [("AS", 11), ("2H", 2), ("5D", 5), ("9C", 9), ("10H", 10), ("JS", 10), ("QH", 10), ("KD", 10), ("JK", 0)],
)
def test_card_points_default(card, points):
    assert card_points(parse_card(card)) == points


def test_card_points_every_face():
    for c in FACES:
        expected = 11 if c.rank == 1 else 10 if c.rank >= 11 else c.rank
        assert card_points(c) == expected


def test_card_points_settings():
    assert card_points(parse_card("AS"), ace=1) == 1
    assert card_points(parse_card("KS"), court=5) == 5
    assert card_points(parse_card("10S"), court=5) == 10
    assert card_points(JOKER, joker=50) == 50
    assert card_points(Card(JOKER_RANK, JOKER_SUIT, 3), joker=25) == 25


# --------------------------------------------------------------------------- take_face


def test_take_face_removes_one_card_of_that_face():
    a0, a1, b = Card(7, 1, 0), Card(7, 1, 1), Card(8, 1, 0)
    pool = [a0, b, a1]
    got = take_face(pool, parse_card("7H"))
    assert got == a1  # the last one in the pool
    assert pool == [a0, b]
    assert take_face(pool, parse_card("7H")) == a0
    assert pool == [b]
    assert take_face(pool, parse_card("7H")) is None
    assert pool == [b]


def test_take_face_matches_on_face_not_copy():
    pool = [Card(12, 0, 1)]
    assert take_face(pool, Card(12, 0, 0)) == Card(12, 0, 1)
    assert pool == []


def test_take_face_joker():
    j0, j1 = Card(JOKER_RANK, JOKER_SUIT, 0), Card(JOKER_RANK, JOKER_SUIT, 1)
    pool = [Card(5, 2), j0, j1]
    assert take_face(pool, JOKER) == j1
    assert take_face(pool, JOKER) == j0
    assert take_face(pool, JOKER) is None
    assert pool == [Card(5, 2)]


def test_take_face_absent_leaves_pool_unchanged():
    pool = [Card(5, 2), Card(6, 2)]
    assert take_face(pool, Card(5, 3)) is None
    assert pool == [Card(5, 2), Card(6, 2)]
    assert take_face([], JOKER) is None
