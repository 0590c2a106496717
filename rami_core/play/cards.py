"""Cards as the player sees and types them: symbols or letters, French or
English court cards, a colour per suit.

Suits are told apart by their symbol (or letter) as well as by colour, so the
game reads the same without colour (``NO_COLOR``) and on terminals that
cannot show ♠ ♥ ♦ ♣ (the ASCII fallback writes the suit letters S H D C).
"""

from __future__ import annotations

import re

from rich.text import Text

from ..cards import JOKER_SUIT, SUIT_SYMBOLS, SUITS, Card, CardError, parse_card, rank_name
from ..melds import AMBIGUOUS

# A four-colour deck: told apart by colour as well as by symbol.
SUIT_STYLES = {0: "bold", 1: "bold red", 2: "bold blue", 3: "bold green", JOKER_SUIT: "bold magenta"}

_FR_ASCII_RANKS = {"V": 11, "D": 12, "R": 13}


def parse_input_card(token: str) -> Card:
    """A card as typed at the prompt: rami's card notation (``7H``, ``10♦``, ``qs``,
    ``D♠``, ``JK``), also the French ASCII display (``DS``: dame of spades),
    and a card copied from the screen with what a joker stands for (``JK(6♥)``)."""
    raw = token.strip()
    raw = re.sub(r"[(=].*$", "", raw) or raw
    try:
        return parse_card(raw)
    except CardError:
        up = raw.upper()
        if len(up) == 2 and up[0] in _FR_ASCII_RANKS and up[1] in SUITS:
            return Card(_FR_ASCII_RANKS[up[0]], SUITS.index(up[1]), 0)
        raise


class CardStyle:
    """How cards are written: language (V/D/R in French), symbols or ASCII."""

    def __init__(self, lang: str = "en", ascii_only: bool = False, empty_table: str = "the table is empty"):
        self.lang = lang
        self.empty_table = empty_table
        self.ascii = ascii_only

    def name(self, card: Card) -> str:
        if card.is_joker:
            return "JK"
        suit = SUITS[card.suit] if self.ascii else SUIT_SYMBOLS[card.suit]
        return rank_name(card.rank, self.lang) + suit

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

    def cards(self, cards, sep: str = " ") -> Text:
        out = Text()
        for i, c in enumerate(cards):
            if i:
                out.append(sep)
            out.append_text(self.text(c))
        return out

    def melds(self, melds) -> Text:
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

    # Canonical cards inside an engine message: 7H, 10D, QS, JK.
    _CARD_RE = re.compile(r"(?<![\w])(10|[2-9AJQK])([SHDC])(?![\w])")
    _MELD_RE = re.compile(r"\b(melds?) (\d+)(?: to (-?\d+))?")

    def detail(self, message: str) -> str:
        """An engine message as shown: its cards in this style, its meld
        numbers counted from 1 as on the screen."""
        if self.lang != "en" or not self.ascii:
            message = self._CARD_RE.sub(lambda m: self.code(m.group(0)), message)

        def renumber(m: re.Match) -> str:
            text = f"{m.group(1)} {int(m.group(2)) + 1}"
            if m.group(3) is not None:
                if int(m.group(3)) < int(m.group(2)):
                    return self.empty_table
                text += f" to {int(m.group(3)) + 1}"
            return text

        return self._MELD_RE.sub(renumber, message)
