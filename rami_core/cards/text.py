"""Cards as the player sees and types them: symbols or letters, French or
English notation, a colour per suit.

Suits are told apart by their symbol (or letter) as well as by colour, so the
game reads the same without colour (``NO_COLOR``) and on terminals that
cannot show ♠ ♥ ♦ ♣. The ASCII fallback writes each language's own letters:
S H D C in English, P Co Ca T in French (pique, cœur, carreau, trèfle), with
the court cards J Q K or V D R.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from rich.text import Text

from rami_core.cards import (
    FR_SUITS,
    JOKER_SUIT,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    CardError,
    parse_card,
    rank_name,
    read_card,
)
from rami_core.cards.melds import AMBIGUOUS

# A four-colour deck: told apart by colour as well as by symbol.
SUIT_STYLES = {0: "bold", 1: "bold red", 2: "bold blue", 3: "bold green", JOKER_SUIT: "bold magenta"}


def parse_input_card(token: str, lang: str = "en") -> Card:
    """A card as typed at the prompt, in either notation (rami_core.cards.read_card),
    also a card copied from the screen with what a joker stands for (``JK(6♥)``)."""
    raw = token.strip()
    raw = re.sub(r"[(=].*$", "", raw) or raw
    return read_card(raw, lang)


class CardStyle:
    """How cards are written: language (V/D/R in French), symbols or letters."""

    def __init__(self, lang: str = "en", ascii_only: bool = False, empty_table: str = "the table is empty"):
        self.lang = lang
        self.empty_table = empty_table
        self.ascii = ascii_only

    def suit(self, suit: int) -> str:
        if not self.ascii:
            return SUIT_SYMBOLS[suit]
        return FR_SUITS[suit] if self.lang == "fr" else SUITS[suit]

    def name(self, card: Card) -> str:
        if card.is_joker:
            return "JK"
        return rank_name(card.rank, self.lang) + self.suit(card.suit)

    def face(self, rank: int, suit: int) -> str:
        """What a joker stands for: a face, or only a rank where its suit is open."""
        if suit == AMBIGUOUS or suit < 0:
            return rank_name(rank, self.lang)
        return self.name(Card(rank, suit, 0))

    def text(self, card: Card, stands: tuple[int, int] | None = None) -> Text:
        label = self.name(card)
        if card.is_joker and stands is not None:
            label += f"({self.face(*stands)})"
        return Text(label, style=SUIT_STYLES.get(card.suit, ""))

    def cards(self, cards: Iterable[Card], sep: str = " ") -> Text:
        out = Text()
        for i, c in enumerate(cards):
            if i:
                out.append(sep)
            out.append_text(self.text(c))
        return out

    def melds(self, melds: Iterable[Sequence[Card]]) -> Text:
        out = Text()
        for i, m in enumerate(melds):
            if i:
                out.append("  ")
            out.append("[")
            out.append_text(self.cards(m))
            out.append("]")
        return out

    def code(self, code: str) -> str:
        """A card written in canonical form (an event, an engine message) for display."""
        try:
            return self.name(parse_card(code))
        except CardError:
            return code

    def codes(self, codes: Iterable[str]) -> Text:
        return self.cards(parse_card(c) for c in codes)

    def code_melds(self, melds: Iterable[Iterable[str]]) -> Text:
        return self.melds([[parse_card(c) for c in m] for m in melds])
