"""A meld holding a joker may not be split by a rearrangement (a voleur rule).

A voleur rules page lets a player rebuild the whole table, but "a meld
holding a joker cannot be broken up". The rule is judged by faces, as the
engine judges a rearrangement: every table meld that held a joker before the
rearrangement must find all its cards (its face multiset, jokers included)
inside ONE meld of the new table. That meld may have grown (cards laid off on
it, or two melds joined), but nothing may have left it: not a natural card
taken off an end, not the joker itself, unless the joker is given up for
the card it stands for (its exact card in a run; the missing cards of a set,
as `jokers.set_swap` says): that is a swap, and a rebuild that does what a
swap and a new meld would do is judged as they are. Lay offs, new melds and
swaps split nothing and are left alone.

Refusal: `no_joker_split.split`.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from rami_core.cards import format_card
from rami_core.game.actions import Rearrange
from rami_core.profile.hookspecs import HousePlugin, PluginSettings, Refusal, hookimpl
from rami_core.words.refusals import Reason

if TYPE_CHECKING:
    from collections.abc import Sequence

    from rami_core.cards import Card
    from rami_core.game.actions import Action
    from rami_core.game.state import GameState, TableMeld
    from rami_core.profile.rules import Rules


class Settings(PluginSettings):
    """No settings: the rule is on or off."""


def _faces(cards) -> Counter:
    return Counter(c.face for c in cards)


def _fits(needs: list[Counter], rooms: list[Counter]) -> bool:
    """Whether every multiset in `needs` can be placed inside one of `rooms`,
    several needs sharing a room only while its cards last (backtracking;
    tables hold a handful of melds with jokers)."""
    if not needs:
        return True
    first, rest = needs[0], needs[1:]
    for i, room in enumerate(rooms):
        if not first - room:
            rooms[i] = room - first
            if _fits(rest, rooms):
                rooms[i] = room
                return True
            rooms[i] = room
    return False


def _replaced_as_a_swap(old: TableMeld, new_table: Sequence[TableMeld]) -> bool:
    """Some new meld keeps all of `old`'s natural cards, and each joker that
    left is replaced there by a natural card it stood for (a set: natural
    cards of its rank in the jokers' stead)."""
    naturals = Counter(c.face for c in old.cards if not c.is_joker)
    jokers = sum(1 for c in old.cards if c.is_joker)
    stood = Counter(face for card, face in zip(old.cards, old.reading.stands) if card.is_joker)
    for m in new_table:
        have = Counter(c.face for c in m.cards if not c.is_joker)
        if naturals - have:
            continue
        left = jokers - sum(1 for c in m.cards if c.is_joker)
        if left <= 0:
            continue  # not a replacement: _fits judges the meld kept whole
        extra = have - naturals
        if old.reading.kind == "set":
            if m.reading.kind == "set" and m.reading.rank == old.reading.rank and sum(extra.values()) >= left:
                return True
        elif sum((extra & stood).values()) >= left:
            return True
    return False


class Plugin(HousePlugin[Settings]):
    name = "no_joker_split"
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
        if not isinstance(action, Rearrange):
            return None
        with_joker = [
            (i, _faces(m.cards)) for i, m in enumerate(old_table) if any(c.is_joker for c in m.cards)
        ]
        if not with_joker:
            return None
        rooms = [_faces(m.cards) for m in new_table]
        # Largest melds first: they are the hardest to place.
        with_joker.sort(key=lambda item: -sum(item[1].values()))
        if _fits([faces for _, faces in with_joker], rooms):
            return None
        # A joker given up for the card it stands for (its exact card in a
        # run; the missing cards of a set, as jokers.set_swap and the engine
        # judge them) is how a swap frees it: a rebuild doing the same splits
        # nothing either, so the same table gets the same verdict by both paths.
        replaced = {i for i, _ in with_joker if _replaced_as_a_swap(old_table[i], new_table)}
        if replaced and _fits([faces for i, faces in with_joker if i not in replaced], rooms):
            return None
        for i, faces in with_joker:
            if not any(not faces - room for room in rooms):
                shown = " ".join(format_card(c) for c in old_table[i].cards)
                return Refusal(
                    "split",
                    Reason("joker_split_meld", meld=i, cards=shown),
                )
        return Refusal("split", Reason("joker_split"))
