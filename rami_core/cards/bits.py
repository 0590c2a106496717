"""Card faces as small integers and sets of faces as bit masks: the turn
loop's own spelling of a hand.

The rules never tell two copies of a face apart, and the questions the turn
loop asks state after state (which faces a seat holds, which of them could
join a table meld, which may be discarded) are questions about faces. Asked
on `Card` tuples they build a new tuple per card per question; asked here
they are a table lookup and a few integer operations. A face's index is
``suit * 13 + rank - 1`` for the 52 naturals (spades, hearts, diamonds,
clubs; ace first) and 52 for the joker, the order of the learning
environments' arrays, so a bit mask of faces and an observation's row
index the same way.

Cards stay the public API and the language of plugins: these integers live
inside the functions that use them and never cross a module's interface.
"""

from __future__ import annotations

from collections.abc import Iterable

from rami_core.cards import FACE_CARD_OF, JOKER, JOKER_SUIT, Card, CardMemo

NATURALS = 52
JOKER_INDEX = 52
FACES = 53

JOKER_BIT = 1 << JOKER_INDEX
ALL_FACES = (1 << FACES) - 1
# The 13 faces of one suit, and of one rank (every suit): the masks a run's
# and a set's neighbours are drawn from.
SUIT_MASK = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
RANK_MASK = (0, *(sum(1 << (13 * s + r - 1) for s in range(4)) for r in range(1, 14)))  # by rank, 0 unused


def face_index(card: Card) -> int:
    """0-51 for suit * 13 + rank - 1 (spades, hearts, diamonds, clubs; ace first), 52 for a joker."""
    if card.suit == JOKER_SUIT:
        return JOKER_INDEX
    return card.suit * 13 + card.rank - 1


FACE_CARDS: tuple[Card, ...] = tuple(Card(i % 13 + 1, i // 13, 0) for i in range(NATURALS)) + (JOKER,)
FACE_OF: dict[Card, int] = CardMemo(face_index)  # a dict look-up instead of a call per card


def face_card(index: int) -> Card:
    """The card (copy 0) of a face index."""
    return FACE_CARDS[index]


def faces_in_order(cards: Iterable[Card]) -> list[Card]:
    """The faces of `cards` (copy 0), each once, in the order first held
    (`Card.face_card`'s shared tuples, looked up without the property)."""
    return list(dict.fromkeys(map(FACE_CARD_OF.__getitem__, cards)))


def join_mask(cards: Iterable[Card]) -> int:
    """The faces that `cards.melds.might_join` lets through for a meld of
    these cards: every face whose suit all the meld's naturals share (a run's
    neighbours), every face whose rank they all share (a set's missing
    suits), and the joker; every face when the meld holds no natural. The
    same answer as asking `might_join` face by face, in one mask per meld."""
    suits: set[int] = set()
    ranks: set[int] = set()
    for c in cards:
        if c.suit != JOKER_SUIT:
            suits.add(c.suit)
            ranks.add(c.rank)
    if not suits:
        return ALL_FACES
    out = JOKER_BIT
    if len(suits) == 1:
        out |= SUIT_MASK[next(iter(suits))]
    if len(ranks) == 1:
        out |= RANK_MASK[next(iter(ranks))]
    return out


__all__ = [
    "ALL_FACES",
    "FACES",
    "FACE_CARDS",
    "FACE_CARD_OF",
    "FACE_OF",
    "JOKER_BIT",
    "JOKER_INDEX",
    "NATURALS",
    "face_card",
    "face_index",
    "faces_in_order",
    "join_mask",
]
