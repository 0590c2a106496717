"""The physical cards behind an answer given in faces.

The searches reason about faces (two decks hold each card twice, and the
rules never tell the copies apart); an answer must still name the cards a
seat holds or the table shows. Both materialisers hand out the table's
copies before the hand's, so that a rebuilt table keeps the cards that were
already down and the hand gives up only what it must.
"""

from __future__ import annotations

from collections.abc import Iterable

from rami_core.cards import Card


class CardPool:
    """Cards by face, table copies first, then hand copies; jokers the same way."""

    def __init__(self, table: Iterable[Card], hand: Iterable[Card]) -> None:
        table, hand = list(table), list(hand)
        self._by_face: dict[tuple[int, int], list[Card]] = {}
        for c in sorted(table, key=lambda c: c.copy) + sorted(hand, key=lambda c: c.copy):
            self._by_face.setdefault(c.face, []).append(c)
        self._jokers = [c for c in table if c.is_joker] + [c for c in hand if c.is_joker]

    def take(self, face: tuple[int, int]) -> Card:
        return self._by_face[face].pop(0)

    def take_joker(self) -> Card:
        return self._jokers.pop(0)
