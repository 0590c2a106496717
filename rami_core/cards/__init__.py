"""Cards, their notation, decks and points.

A card is a small immutable tuple so that hands, melds and whole game states
copy, hash and serialize cheaply (the solver and the simulator handle millions
of them). Two decks hold each card twice: the `copy` field keeps the two 7♥
distinct objects, while `face` ignores it, because the rules never tell
identical cards apart.

One spelling per idiom, everywhere outside this module:

* the joker test is `card.is_joker` (not `card.suit == JOKER_SUIT`);
* a card's face, the key that ignores which deck a card comes from, is
  `card.face` (a `(rank, suit)` tuple; not `card[:2]`): two cards are the
  same card for the rules when their faces are equal;
* where a `Card` value is needed for a face (actions name their cards by
  face, copy 0), it is `card.face_card`.

Speed: a property costs some 50 ns more than the tuple access it wraps.
Measured on the same greedy-versus-greedy games (200 rami51 and 200 kaluki
rounds, before and after, same run), the engine and bots together are 3-5%
slower with these spellings, which their clarity is worth. The solver
package (`rami_core/solver/`), whose inner loops run far more often, still
writes the long forms in places; converting them waits for a measurement of
those loops.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from rami_core.words.problems import Said

SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES_EN = ("spades", "hearts", "diamonds", "clubs")
JOKER_SUIT = 4
JOKER_RANK = 0
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
RANK_NAMES_FR = {1: "A", 11: "V", 12: "D", 13: "R"}
VARIATION_SELECTOR = "\ufe0e"


class CardError(ValueError):
    """Raised for a card written in no notation rami reads.

    ``key`` and ``params`` name the message in the catalogue (rami_core.words.messages),
    so that a person is told in their language; ``str()`` is the English text.
    ``said``: the same problem for a file rami reads (a scenario, a save), a
    code of :mod:`rami_core.words.problems` with its parameters."""

    def __init__(self, message: str, key: str = "bad_card_text", *, said: Said | None = None, **params: str):
        super().__init__(message)
        self.key = key
        self.params = {"text": message, **params}
        self.said = said if said is not None else Said("text", text=message)


class Card(NamedTuple):
    rank: int  # 1 = ace ... 13 = king; 0 = joker
    suit: int  # 0..3 = S H D C; 4 = joker
    copy: int = 0  # which deck (or which joker) this physical card comes from

    @property
    def is_joker(self) -> bool:
        return self.suit == JOKER_SUIT

    @property
    def face(self) -> tuple[int, int]:
        return (self.rank, self.suit)

    @property
    def face_card(self) -> Card:
        """This card as actions name it: the same face, copy 0 (one shared
        tuple per card met, not a new one per question: the turn loop asks it
        of every card of a hand, state after state)."""
        return FACE_CARD_OF[self]

    def __str__(self) -> str:
        return format_card(self)

    def __repr__(self) -> str:
        return f"Card({format_card(self)}#{self.copy})"


JOKER = Card(JOKER_RANK, JOKER_SUIT, 0)


class CardMemo(dict):
    """A card -> a value of it, remembered as cards are met (the turn loop asks
    the same few of every hand, state after state: a dict look-up instead of
    a call). Bounded: the cards of every deck a profile may hold fit many
    times over, and a card met beyond the bound is answered, not kept."""

    def __init__(self, compute: Callable[[Card], Any]) -> None:
        super().__init__()
        self._compute = compute

    def __missing__(self, card: Card) -> Any:
        out = self._compute(card)
        if len(self) < 4096:
            self[card] = out
        return out


# A card -> the same face as copy 0 (`Card.face_card`, a seat's public view of it).
FACE_CARD_OF: dict[Card, Card] = CardMemo(lambda c: Card(c.rank, c.suit, 0))


def rank_name(rank: int, lang: str = "en") -> str:
    names = RANK_NAMES_FR if lang == "fr" else RANK_NAMES
    return names.get(rank, str(rank))


def format_card(card: Card, *, lang: str = "en", symbols: bool = False) -> str:
    """Canonical output is letters (`10H`, `QS`, `JK`); French display writes
    V/D/R before a suit symbol, as French rule books do."""
    if card.is_joker:
        return "JK"
    if lang == "fr":
        return rank_name(card.rank, "fr") + SUIT_SYMBOLS[card.suit]
    suit = SUIT_SYMBOLS[card.suit] if symbols else SUITS[card.suit]
    return rank_name(card.rank) + suit


_RANK_INPUT = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13}
_RANK_INPUT_FR = {"V": 11, "D": 12, "R": 13}
_SUIT_INPUT = {c: i for i, c in enumerate(SUITS)} | {c: i for i, c in enumerate(SUIT_SYMBOLS)}
# The white suit symbols are a common input slip; accept them as their suits.
_SUIT_INPUT |= {"♤": 0, "♡": 1, "♢": 2, "♧": 3}


def parse_card(text: str) -> Card:
    """Read one card in rami's notation (`10H`, `QS`, `JK`, `7♥`, French `D♠`); copy 0 (a face, not a physical card)."""
    if not isinstance(text, str):
        # YAML reads `10` or `true` as non-strings; report the value as written.
        raise CardError(f"not a card: {text!r}", said=Said("card_not_a_card", card=repr(text)))
    raw = text.strip().replace(VARIATION_SELECTOR, "")
    if not raw:
        raise CardError("empty card", said=Said("card_empty"))
    up = raw.upper()
    if up in ("JK", "JOKER", "*"):
        return JOKER
    suit_char = raw[-1]
    suit = _SUIT_INPUT.get(suit_char.upper()) if suit_char.isascii() else _SUIT_INPUT.get(suit_char)
    if suit is None:
        raise CardError(
            f"not a card: {text!r} (no suit S, H, D, C or ♠ ♥ ♦ ♣)",
            said=Said("card_no_suit", card=repr(text)),
        )
    rank_text = up[:-1]
    symbol_suit = not suit_char.isascii()
    rank: int | None
    if rank_text.isascii() and rank_text.isdigit():
        rank = int(rank_text)
        if not 2 <= rank <= 10:
            rank = None
    else:
        rank = _RANK_INPUT.get(rank_text)
        if rank is None and symbol_suit:
            rank = _RANK_INPUT_FR.get(rank_text)
    if rank is None:
        raise CardError(
            f"not a card: {text!r} (rank must be A, 2-10, T, J, Q, K)",
            said=Said("card_bad_rank", card=repr(text)),
        )
    return Card(rank, suit, 0)


# What a person may type at the prompt (read_card): both notations in both
# languages. Suits: S H D C (English), P Co Ca T (French: pique, cœur,
# carreau, trèfle), or the symbols; ranks A 2-10 T J Q K, and V D R.
FR_SUITS = ("P", "Co", "Ca", "T")
_READ_SUIT = {"S": 0, "H": 1, "D": 2, "C": 3, "P": 0, "CO": 1, "CA": 2, "T": 3}
_READ_RANK = {"A": 1, "T": 10, "J": 11, "Q": 12, "K": 13, "V": 11, "D": 12, "R": 13}


def read_card(text: str, lang: str = "en") -> Card:
    """A card as a person types it, in either notation (``7H``, ``7♥``,
    ``7Co``, ``DP``, ``RCa``, ``VT``, ``QS``, ``JK``).

    One letter is read two ways: ``C`` is clubs in the English notation and
    the first letter of cœur in the French one. With ``lang="en"`` it is
    clubs; with ``lang="fr"`` it is refused as ambiguous (key
    ``card_ambiguous``) and the message names both readings (``Co`` or ``T``).
    The files rami reads (scenarios, profiles) keep the one notation of
    :func:`parse_card`."""
    if not isinstance(text, str):
        raise CardError(f"not a card: {text!r}", "card_unreadable", card=repr(text))
    raw = text.strip().replace(VARIATION_SELECTOR, "")
    if not raw:
        raise CardError("empty card", "card_empty")
    up = raw.upper()
    if up in ("JK", "JOKER", "*"):
        return JOKER
    last = raw[-1]
    if not last.isascii():
        suit = _SUIT_INPUT.get(last)
        letters = up[:-1]
    elif len(up) > 2 and up[-2:] in ("CO", "CA"):
        suit = _READ_SUIT[up[-2:]]
        letters = up[:-2]
    else:
        suit = _READ_SUIT.get(up[-1])
        letters = up[:-1]
        if suit == 3 and up[-1] == "C" and lang == "fr":
            raise CardError(
                f"{text!r} is ambiguous: C is clubs in English notation and coeur in French",
                "card_ambiguous",
                card=raw,
                rank=raw[:-1],
            )
    if suit is None:
        raise CardError(f"not a card: {text!r} (no suit)", "card_no_suit", card=raw)
    rank: int | None
    if letters.isascii() and letters.isdigit():
        rank = int(letters) if 2 <= int(letters) <= 10 else None
    else:
        rank = _READ_RANK.get(letters)
    if rank is None:
        raise CardError(f"not a card: {text!r} (no rank)", "card_bad_rank", card=raw)
    return Card(rank, suit, 0)


def parse_cards(items: Iterable[str] | str) -> list[Card]:
    """A list of cards, or one string of cards separated by spaces or commas."""
    if isinstance(items, str):
        items = [p for p in items.replace(",", " ").split() if p]
    return [parse_card(x) for x in items]


def build_deck(decks: int, jokers: int) -> list[Card]:
    """Every physical card of the game, in a fixed order before shuffling."""
    cards = [Card(rank, suit, copy) for copy in range(decks) for suit in range(4) for rank in range(1, 14)]
    cards.extend(Card(JOKER_RANK, JOKER_SUIT, i) for i in range(jokers))
    return cards


def shuffled(cards: list[Card], rng: random.Random) -> list[Card]:
    """Fisher-Yates by Python's Mersenne Twister (random.Random.shuffle): the
    generator is named so that a seed replays the same deal in later versions."""
    out = list(cards)
    rng.shuffle(out)
    return out


def card_points(card: Card, *, ace: int = 11, court: int = 10, joker: int = 0) -> int:
    """A card's value in hand: 2-10 face value, courts 10, ace 11, joker as the profile says."""
    if card.is_joker:
        return joker
    if card.rank == 1:
        return ace
    if card.rank >= 11:
        return court
    return card.rank


def sort_key(card: Card) -> tuple[int, int, int]:
    """Suit then rank, jokers last: the order hands are shown in."""
    return (card.suit, card.rank, card.copy)


def take_face(pool: list[Card], face: Card) -> Card | None:
    """Remove and return a card of `face` from `pool` (highest copy last-in first), or None."""
    target = face.face
    for i in range(len(pool) - 1, -1, -1):
        if pool[i].face == target:
            return pool.pop(i)
    return None
