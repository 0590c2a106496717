"""Card faces as array indices: the 52 natural faces, then the joker.

The environment never names a physical card: like the engine's actions it
speaks of faces, and the engine picks which copy leaves the hand. The
indices are the cards layer's (`rami_core.cards.bits`), so the engine's
masks of faces and the environment's arrays index the same way.
"""

from __future__ import annotations

from collections.abc import Iterable

from rami_core.cards import Card
from rami_core.cards.bits import FACE_OF, FACES, JOKER_INDEX, NATURALS, face_card, face_index


def face_counts(cards: Iterable[Card]) -> list[int]:
    counts = [0] * FACES
    for c in cards:
        counts[face_index(c)] += 1
    return counts


__all__ = ["FACES", "FACE_OF", "JOKER_INDEX", "NATURALS", "face_card", "face_counts", "face_index"]
