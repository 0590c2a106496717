"""The physical cards behind an answer given in faces.

The searches reason about faces (two decks hold each card twice, and the
rules never tell the copies apart); an answer must still name the cards a
seat holds or the table shows. Both materialisers hand out the table's
copies before the hand's, so that a rebuilt table keeps the cards that were
already down and the hand gives up only what it must.
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import itemgetter

from rami_core.cards import JOKER_SUIT, Card

_COPY = itemgetter(2)  # a card's copy


class CardPool:
    """Cards by face, table copies first, then hand copies; jokers the same way."""

    def __init__(self, table: Iterable[Card], hand: Iterable[Card]) -> None:
        table, hand = list(table), list(hand)
        # built for every solve that lays: a card's fields read as a tuple
        # (its first two are its face, its third its copy), not through the
        # properties
        by_face: dict[tuple[int, int], list[Card]] = {}
        for c in sorted(table, key=_COPY) + sorted(hand, key=_COPY):
            f = c[:2]
            got = by_face.get(f)
            if got is None:
                by_face[f] = [c]
            else:
                got.append(c)
        self._by_face = by_face
        self._jokers = [c for c in table if c[1] == JOKER_SUIT] + [c for c in hand if c[1] == JOKER_SUIT]

    def take(self, face: tuple[int, int]) -> Card:
        return self._by_face[face].pop(0)

    def take_joker(self) -> Card:
        return self._jokers.pop(0)
