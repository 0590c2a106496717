"""Card faces as array indices: the 52 natural faces, then the joker.

The environment never names a physical card: like the engine's actions it
speaks of faces, and the engine picks which copy leaves the hand.
"""

from __future__ import annotations

from collections.abc import Iterable

from rami_core.cards import JOKER, JOKER_SUIT, Card

NATURALS = 52
JOKER_INDEX = 52
FACES = 53


def face_index(card: Card) -> int:
    """0-51 for suit * 13 + rank - 1 (spades, hearts, diamonds, clubs; ace first), 52 for a joker."""
    if card.suit == JOKER_SUIT:
        return JOKER_INDEX
    return card.suit * 13 + card.rank - 1


class _FaceOf(dict):
    """Card -> face index, filled as cards are met (a dict lookup instead of a call per card)."""

    def __missing__(self, card: Card) -> int:
        index = self[card] = face_index(card)
        return index


FACE_OF: dict[Card, int] = _FaceOf()


def face_card(index: int) -> Card:
    """The card (copy 0) of a face index."""
    if index == JOKER_INDEX:
        return JOKER
    return Card(index % 13 + 1, index // 13, 0)


def face_counts(cards: Iterable[Card]) -> list[int]:
    counts = [0] * FACES
    for c in cards:
        counts[face_index(c)] += 1
    return counts
