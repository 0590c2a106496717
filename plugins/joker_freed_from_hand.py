"""A joker is freed only with cards from the player's own hand (a second voleur rules page).

That page: "the joker must be won back with cards from one's own hand, never
with the help of cards already on the table". Where jokers move on the table
(voleur's rearrangements), a player could otherwise take a 6H off a carre of
sixes to replace the joker in 5H-JK-7H. This plugin refuses that.

How a freed joker is told, by faces: for each table meld that held a joker
before the action, its successor is the new meld holding most of its natural
cards. Each joker of the old meld stood for a face (its reading's `stands`);
if the successor has no joker standing for that face any more, that joker was
freed (it left the meld, or the card it stood for took its place and pushed
it elsewhere), and the card it stood for must be among the hand cards given
in this action. For a joker in a set whose suit was open, a hand card of the
set's rank that the old set lacked is needed.

Refusal: `joker_freed_from_hand.from_table`.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from rami_core.cards import Card, format_card
from rami_core.cards.melds import AMBIGUOUS, SET
from rami_core.profile.hookspecs import HousePlugin, PluginSettings, Refusal, hookimpl
from rami_core.words.refusals import Reason

if TYPE_CHECKING:
    from collections.abc import Sequence

    from rami_core.game.actions import Action
    from rami_core.game.state import GameState, TableMeld
    from rami_core.profile.rules import Rules


class Settings(PluginSettings):
    """No settings: the rule is on or off."""


def _naturals(cards) -> Counter:
    return Counter(c.face for c in cards if not c.is_joker)


def _joker_stands(meld) -> Counter:
    r = meld.reading
    return Counter(s for c, s in zip(r.cards, r.stands) if c.is_joker)


def _face_text(face) -> str:
    rank, suit = face
    if suit == AMBIGUOUS:
        return format_card(Card(rank, 0)).rstrip("S") + " of the missing suit"
    return format_card(Card(rank, suit))


class Plugin(HousePlugin[Settings]):
    name = "joker_freed_from_hand"
    Settings = Settings

    @hookimpl
    def rami_table_acceptable(
        self,
        rules: Rules,
        state: GameState,
        seat: int,
        old_table: Sequence[TableMeld],
        new_table: list[TableMeld],
        given: list[Card],
        action: Action,
    ) -> Refusal | None:
        hand = Counter(c.face for c in given if not c.is_joker)
        for i, old in enumerate(old_table):
            stands = _joker_stands(old)
            if not stands:
                continue
            nat = _naturals(old.cards)
            successor = max(
                new_table,
                key=lambda m: (
                    sum((nat & _naturals(m.cards)).values()),
                    any(c.is_joker for c in m.cards),
                ),
                default=None,
            )
            if successor is not None and not nat & _naturals(successor.cards):
                successor = None  # the meld was taken apart entirely
            if any(Counter(c.face for c in m.cards) == Counter(c.face for c in old.cards) for m in new_table):
                continue  # the meld is still there as it was (perhaps written in another order)
            kept = _joker_stands(successor) if successor is not None else Counter()
            if (
                successor is not None
                and successor.reading.kind == SET
                and old.reading.kind == SET
                and successor.reading.rank == old.reading.rank
            ):
                # A set's jokers stay while the set keeps as many jokers.
                still = sum(kept.values())
                freed = []
                for face, k in stands.items():
                    take = min(k, still)
                    still -= take
                    freed.extend([face] * (k - take))
            else:
                freed = list((stands - kept).elements())
            for face in freed:
                rank, suit = face
                if suit == AMBIGUOUS:
                    lacking = [f for f in hand if f[0] == rank and f not in nat and hand[f] > 0]
                    if lacking:
                        hand[lacking[0]] -= 1
                        continue
                elif hand[face] > 0:
                    hand[face] -= 1
                    continue
                return Refusal(
                    "from_table",
                    Reason("joker_own_rank", meld=i, rank=face[0])
                    if face[1] == AMBIGUOUS
                    else Reason("joker_own_card", meld=i, card=_face_text(face)),
                )
        return None
